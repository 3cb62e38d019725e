// boardgame.io's own server (Koa + socket.io) with the Chutes game:
//   node server.js PORT memory
//   node server.js PORT flatfile DIR
// Prints "listening PORT" once it accepts connections.
"use strict";

const { Server, FlatFile } = require("boardgame.io/server");
const { Chutes } = require("./chutes-game");

const [port, store, dir] = process.argv.slice(2);
const options = { games: [Chutes], origins: ["http://127.0.0.1"] };
if (store === "flatfile") {
  options.db = new FlatFile({ dir, logging: false });
} else if (store !== "memory") {
  console.error(`unknown store '${store}': memory or flatfile`);
  process.exit(2);
}
const server = Server(options);
server.run(Number(port), () => console.log(`listening ${port}`));
