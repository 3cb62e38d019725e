// Chutes & Ladders' players on its page: the Players table (each player's
// square and tallies as drawn), who sits where, and the status line's words
// (whose roll it is, whom the game waits for, the end).
//
// Terms:
// - hot seat: every person's seat is played at this one screen (bots
//   aside); the words then name the player to roll, never "you".
// - tallies: each player's rolls, ladders, chutes and lost turns, as the
//   server counts them (carried by each turn); the page counts nothing.
// - match: a Match of match.js; `name(seat)` names a seat, `named(seat)`
//   names it with its token's colour.
import { el, count } from "/static/common.js";
import { colourOf } from "/static/matchui.js";

const COLOURS = ["red", "purple", "orange", "black"];
const LEVELS = { easy: "Easy bot", normal: "Normal bot", hard: "Hard bot" };

/** Seat `seat`'s name with its token's colour: "Ada (red)". */
export function withColour(name, seat) {
  return `${name} (${COLOURS[(colourOf(seat) - 1) % COLOURS.length]})`;
}

/** True when every person's seat is played at this screen. */
export function isHotSeat(match) {
  return Boolean(match) && match.view.players.every((p) => p.kind === "bot" || (p.yours && p.state === "here"));
}

/** Who sits in a seat, in words: "you", "a friend", "Normal bot", …. */
function seatWho(p, hotSeat) {
  if (p.kind === "bot") return LEVELS[p.level] || "a bot";
  if (p.yours) return p.state === "here" && hotSeat ? "here" : "you";
  switch (p.state) {
    case "here":
      return "at the maker's screen";
    case "open":
      return "a friend (not joined yet)";
    case "anyone":
      return "anyone (waiting in the lobby)";
    default:
      return "a player on another device";
  }
}

/**
 * The Players table's rows in `body`: each of `players` (as drawn: square
 * and tallies) with who sits there; `winner` and `current` (seats, or null)
 * are marked.
 */
export function showPlayers(body, match, players, { winner, current, name }) {
  const view = match.view;
  const hotSeat = isHotSeat(match);
  body.replaceChildren(
    ...players.map((p, i) => {
      const seat = i + 1;
      const info = view.players[i] || {};
      const cls = seat === winner ? "winner" : seat === current ? "current" : "";
      return el(
        "tr",
        { class: cls, dataset: { player: seat } },
        el(
          "th",
          { scope: "row" },
          el("span", { class: `swatch p${colourOf(seat)}`, "aria-hidden": "true" }),
          name(seat),
          el("span", { class: "who" }, ` (${seatWho(info, hotSeat)})`),
          seat === winner ? " ★ winner" : "",
        ),
        el("td", { class: "square" }, p.square === 0 ? "start" : String(p.square)),
        el("td", {}, String(p.rolls)),
        el("td", {}, String(p.ladders)),
        el("td", {}, String(p.chutes)),
        el("td", {}, String(p.lost_turns)),
      );
    }),
  );
}

/** The end of a finished game in words: the winner's own rolls, and the game's. */
function endWords(view, name) {
  const game = view.view;
  if (view.status === "won") {
    const w = game.winner;
    const own = game.players[w - 1].rolls;
    // The result in the match's own words ("You win", "You lost: Ada wins").
    const said = view.result ? view.result.words : `${name(w)} wins`;
    const whose = view.result && view.result.you_won === true ? "your" : "their";
    return game.players.length > 1
      ? `${said} after ${count(own, "roll", "rolls")} of ${whose} own (${game.rolls} in the game).`
      : `${said} after ${count(own, "roll", "rolls")}.`;
  }
  if (view.status === "stalled") {
    return `No winner: ${view.reason || "the game stopped"} (after ${count(game.rolls, "roll", "rolls")}).`;
  }
  return "The game is over.";
}

/** Which seats this screen plays, in words. */
export function youWords(match, named) {
  const mine = match.mySeats();
  if (!mine.length) return "You are watching this game.";
  if (isHotSeat(match)) return mine.length > 1 ? "Every person's seat is played at this screen." : `You play ${named(mine[0])}.`;
  return `You play ${mine.map(named).join(" and ")}.`;
}

/** The status line's words for the match as it stands: the end, or whose roll it is and how it comes. */
export function statusWords(match, name) {
  const view = match.view;
  if (view.status !== "playing") return endWords(view, name);
  const mine = match.mySeats();
  const seat = view.to_move;
  const p = view.players[seat - 1] || {};
  if (p.kind === "bot") return `${name(seat)} (${LEVELS[p.level] || "a bot"}) is rolling…`;
  if (p.state === "open") return `${name(seat)} to roll: waiting for the friend invited to join.`;
  if (p.state === "anyone") return `${name(seat)} to roll: waiting for someone to take the seat from the lobby.`;
  if (p.yours) return isHotSeat(match) || mine.length > 1 ? `${name(seat)} to roll.` : `Your turn, ${name(seat)}: roll.`;
  return `${name(seat)} to roll, on their own device.`;
}

/**
 * The last move's words for the line under the status ("Last move: Bo
 * rolls 4 and moves from 2 to 6."), from the view's log, in the server's
 * sentences. Empty before the first move.
 */
export function lastMoveWords(view) {
  const log = view.log || [];
  const last = log.length ? log[log.length - 1].number : 0;
  if (!last) return "";
  return `Last move: ${log.filter((line) => line.number === last).map((line) => line.text).join("; ")}.`;
}
