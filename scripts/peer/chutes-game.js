// Chutes & Ladders on the classic board as a boardgame.io game: the same
// single-player workload Parlor's server plays (a roll moves the token by
// 1–6; a chute or ladder at the landing square moves it on; a roll past
// 100 stays; the game ends on 100). The jumps are the classic board's, as
// `GET /api/chutes/boards/classic` lists them.
"use strict";

const JUMPS = {
  1: 38, 4: 14, 9: 31, 16: 6, 21: 42, 28: 84, 36: 44, 47: 26, 49: 11, 51: 67,
  56: 53, 62: 19, 64: 60, 71: 91, 80: 100, 87: 24, 93: 73, 95: 75, 98: 78,
};
const FINISH = 100;

const Chutes = {
  name: "chutes",
  minPlayers: 1,
  maxPlayers: 1,
  setup: () => ({ square: 0, rolls: 0 }),
  moves: {
    // `client: false`: the server rolls (its random numbers are its own),
    // and the client waits for its answer, as a Parlor page does.
    roll: {
      move: ({ G, random }) => {
        const die = random.D6();
        const landed = G.square + die > FINISH ? G.square : G.square + die;
        return { square: JUMPS[landed] ?? landed, rolls: G.rolls + 1, die };
      },
      client: false,
    },
  },
  endIf: ({ G }) => (G.square === FINISH ? { winner: "0" } : undefined),
};

module.exports = { Chutes, JUMPS, FINISH };
