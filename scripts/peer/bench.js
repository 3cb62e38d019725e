// The same workload against Parlor's server and boardgame.io's, rounds
// interleaved: N clients each play single-player Chutes & Ladders games on
// the classic board, one roll after another (a closed loop: the next roll
// the moment the last one is answered), a new game when one ends.
//
//   node bench.js --seconds S --rounds R --clients 1,8 \
//     --target parlor=http://127.0.0.1:P1@PID1 \
//     --target memory=http://127.0.0.1:P2@PID2 \
//     --target flatfile=http://127.0.0.1:P3@PID3
//
// Terms:
// - target: a server, named, with its address and its process id (for its
//   CPU time and memory, read from /proc); `parlor` and `before` (another
//   build of Parlor) are played through Parlor's API, any other through
//   boardgame.io's.
// - move: one roll answered. A boardgame.io roll is made through its own
//   client over socket.io, as its pages do (the move runs on the server
//   only: `client: false`), and counts when the new state arrives; a Parlor
//   roll is `POST /api/matches/{id}/moves`, answered once stored.
// Prints each round's figures, then the medians and the ratios against
// the first target.
"use strict";

const fs = require("fs");
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Chutes } = require("./chutes-game");

function options() {
  const o = { seconds: 10, rounds: 3, clients: [1, 8], targets: [] };
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--seconds") o.seconds = Number(value);
    else if (flag === "--rounds") o.rounds = Number(value);
    else if (flag === "--clients") o.clients = value.split(",").map(Number);
    else if (flag === "--target") {
      const m = /^([a-z]+)=(http:\/\/[^@]+)@(\d+)$/.exec(value);
      if (!m) throw new Error(`--target NAME=http://HOST:PORT@PID, not '${value}'`);
      o.targets.push({ name: m[1], base: m[2], pid: Number(m[3]) });
    } else throw new Error(`unknown option ${flag}`);
  }
  if (o.targets.length === 0) throw new Error("no --target");
  return o;
}

/** The process's CPU seconds so far (user + system), from /proc. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The process's resident memory, in MiB. */
function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function postJson(url, body, headers = {}) {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${url}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

/** One Parlor client: games until `deadline`, each roll timed. */
async function parlorClient(base, deadline, times) {
  while (Date.now() < deadline) {
    const made = await postJson(`${base}/api/matches`, { game: "chutes", seats: ["here"] });
    const auth = { Authorization: `Bearer ${made.token}` };
    let after = 0;
    for (;;) {
      if (Date.now() >= deadline) return;
      const t0 = process.hrtime.bigint();
      const answer = await postJson(`${base}/api/matches/${made.id}/moves`, { move: "roll", after }, auth);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      after = answer.view.moves;
      if (answer.view.status !== "playing") break;
    }
  }
}

/** One boardgame.io client: games until `deadline`, each roll timed. */
async function bgioClient(base, deadline, times) {
  while (Date.now() < deadline) {
    const { matchID } = await postJson(`${base}/games/chutes/create`, { numPlayers: 1 });
    const { playerCredentials } = await postJson(`${base}/games/chutes/${matchID}/join`, {
      playerID: "0",
      playerName: "p",
    });
    const client = Client({
      game: Chutes,
      multiplayer: SocketIO({ server: base }),
      matchID,
      playerID: "0",
      credentials: playerCredentials,
      debug: false,
    });
    let waiting = null;
    let synced;
    const sync = new Promise((resolve) => {
      synced = resolve;
    });
    client.subscribe((state) => {
      if (!state) return;
      synced();
      if (waiting && state._stateID > waiting.stateID) {
        const w = waiting;
        waiting = null;
        w.resolve(state);
      }
    });
    client.start();
    // Connected, and the match's state from the server.
    await sync;
    try {
      for (;;) {
        if (Date.now() >= deadline) return;
        const before = client.getState();
        if (before.ctx.gameover) break;
        const t0 = process.hrtime.bigint();
        const next = new Promise((resolve) => {
          waiting = { stateID: before._stateID, resolve };
        });
        client.moves.roll();
        await next;
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    } finally {
      client.stop();
    }
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** One round of `clients` clients against `target` for `seconds`. */
async function round(target, clients, seconds) {
  // "before": another build of Parlor (scripts/peer.sh, PARLOR_BEFORE).
  const play = ["parlor", "before"].includes(target.name) ? parlorClient : bgioClient;
  const times = [];
  const cpu0 = cpuSeconds(target.pid);
  const t0 = Date.now();
  const deadline = t0 + seconds * 1000;
  // A server that dies mid-round (boardgame.io's FlatFile server has
  // crashed on its own state file) leaves its clients reconnecting for
  // ever: the round ends 10 s past its deadline, and says so.
  const playing = Promise.all(Array.from({ length: clients }, () => play(target.base, deadline, times)));
  const late = new Promise((resolve) => setTimeout(() => resolve("late"), seconds * 1000 + 10_000));
  if ((await Promise.race([playing, late])) === "late" || !fs.existsSync(`/proc/${target.pid}`)) {
    return { gone: true };
  }
  const wall = (Date.now() - t0) / 1000;
  const cpu = cpuSeconds(target.pid) - cpu0;
  times.sort((a, b) => a - b);
  return {
    moves: times.length,
    perSecond: times.length / wall,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    cpuMsPerMove: (1000 * cpu) / Math.max(1, times.length),
    movesPerCpuSecond: times.length / Math.max(cpu, 0.01),
    rss: rssMiB(target.pid),
  };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

async function main() {
  const o = options();
  const results = {};
  for (let r = 1; r <= o.rounds; r += 1) {
    for (const clients of o.clients) {
      for (const target of o.targets) {
        const got = await round(target, clients, o.seconds);
        if (got.gone) {
          console.log(`round ${r}, ${clients} client(s), ${target.name}: stopped answering (its process ${fs.existsSync(`/proc/${target.pid}`) ? "hangs" : "is gone"}); left out`);
          continue;
        }
        (results[`${target.name}/${clients}`] ||= []).push(got);
        console.log(
          `round ${r}, ${clients} client(s), ${target.name}: ${got.moves} moves, ${fmt(got.perSecond)}/s, ` +
            `p50 ${fmt(got.p50, 2)} ms, p99 ${fmt(got.p99, 2)} ms, ${fmt(got.cpuMsPerMove, 3)} ms CPU a move, ` +
            `${fmt(got.movesPerCpuSecond, 0)} moves a CPU second, ${fmt(got.rss, 0)} MiB`,
        );
      }
    }
  }
  const first = o.targets[0].name;
  console.log(`\nmedians of ${o.rounds} rounds; ratios are ${first}'s against each:`);
  console.log("| clients | server | moves/s | p50 ms | p99 ms | CPU ms a move | moves a CPU s | MiB | moves/s ratio | moves a CPU s ratio |");
  console.log("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const clients of o.clients) {
    const base = results[`${first}/${clients}`];
    for (const target of o.targets) {
      const runs = results[`${target.name}/${clients}`];
      if (!runs || !base) continue;
      const m = (key) => median(runs.map((x) => x[key]));
      const ratio = (key) => (target.name === first ? "" : `${fmt(median(base.map((x) => x[key])) / m(key), 2)}×`);
      console.log(
        `| ${clients} | ${target.name} | ${fmt(m("perSecond"))} | ${fmt(m("p50"), 2)} | ${fmt(m("p99"), 2)} | ` +
          `${fmt(m("cpuMsPerMove"), 3)} | ${fmt(m("movesPerCpuSecond"), 0)} | ${fmt(m("rss"), 0)} | ${ratio("perSecond")} | ${ratio("movesPerCpuSecond")} |`,
      );
    }
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
