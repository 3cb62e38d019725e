// Baffle's race (two to four players on the same box): a line for each
// other player while it is on, with counts only (the server never sends
// another player's shots while a race is on), and once it is over the
// result's table and every player's box in words. No rule is here.
//
// Terms:
// - racers: the view's `racers`, seat 1 first (none in a one-player game).
// - story: a player's shots (entry → exit) and guesses, in order, and the
//   mirrors they did not find.
import { el, count } from "/static/common.js";
import { playerName } from "/static/matchui.js";
import { cellName } from "/static/baffle-box.js";

/** The race's panel, made once beside `after` (the score panel). */
function panelAfter(after) {
  let panel = document.getElementById("race-panel");
  if (!panel) {
    panel = el(
      "section",
      { class: "panel race", id: "race-panel", "aria-labelledby": "race-heading", hidden: true },
      el("h2", { id: "race-heading" }, "The race"),
      el("ul", { class: "racers", id: "racers" }),
      el("div", { id: "race-result" }),
    );
    after.after(panel);
  }
  return panel;
}

/** How a player's box stands, in a few words. */
function standing(r) {
  if (r.status === "won") return "found every mirror";
  if (r.status === "quit") return "gave up";
  return "racing";
}

/** How a player's race ended, in a word or two for the result's narrow table. */
function ending(r, winners) {
  if (winners.has(r.seat)) return winners.size > 1 ? "won (tie)" : "won";
  if (r.status === "won") return "finished";
  return r.status === "quit" ? "gave up" : "racing";
}

/** "Bo: 7 shots, 2 mirrors found" (and whose turn, or that they finished). */
export function racerLine(view, r) {
  const finished = r.status === "playing" ? "" : `; ${standing(r)}`;
  const turn = view.status === "playing" && view.to_move === r.seat ? " (their turn)" : "";
  return `${playerName(view, r.seat)}: ${count(r.shots, "shot", "shots")}, ${count(r.found, "mirror", "mirrors")} found${finished}${turn}`;
}

/**
 * The mirrors `board`'s racer did not find: every racer's box hides the same
 * mirrors, which the viewer's own box `own` holds (found and missed); the
 * racer found those they guessed right. In row order.
 */
export function missedBy(own, board) {
  const right = new Set(board.guesses.filter((g) => g.right).map((g) => `${g.row},${g.col}`));
  return [...(own.found || []), ...(own.missed || [])]
    .filter((m) => !right.has(`${m.row},${m.col}`))
    .sort((a, b) => a.row - b.row || a.col - b.col);
}

/** A finished player's box in words: their shots, guesses and the mirrors they missed. */
function story(view, r) {
  const b = r.board || { shots: [], guesses: [] };
  const shots = b.shots.map((s) => `${s.hole} → ${s.exit}`).join(", ") || "none";
  const guesses = b.guesses.map((g) => `${g.mirror} at ${cellName(g.row, g.col)} (${g.right ? "right" : "wrong"})`).join(", ") || "none";
  const missed = missedBy(view.view, b).map((m) => `${m.mirror} at ${cellName(m.row, m.col)}`);
  return el(
    "details",
    { class: "race-story", "data-seat": r.seat },
    el("summary", {}, `${playerName(view, r.seat)}'s box`),
    el("p", { class: "note" }, `Shots: ${shots}.`),
    el("p", { class: "note" }, `Guesses: ${guesses}.`),
    el("p", { class: "note" }, missed.length ? `Not found: ${missed.join(", ")}.` : "Every mirror found."),
  );
}

/** The result's table: each player's points, shots, wrong guesses and end, the winners first. */
function resultTable(view, racers) {
  const order = [...racers].sort((a, b) => (a.status === "won") !== (b.status === "won") ? (a.status === "won" ? -1 : 1) : a.points - b.points || a.seat - b.seat);
  const winners = new Set(view.winners || (view.winner ? [view.winner] : []));
  const head = el("tr", {}, ...["Player", "Points", "Shots", "Wrong guesses", "Mirrors found", "End"].map((h) => el("th", { scope: "col" }, h)));
  const rows = order.map((r) =>
    el(
      "tr",
      { "data-seat": r.seat, class: winners.has(r.seat) ? "winner" : "" },
      el("th", { scope: "row" }, playerName(view, r.seat)),
      el("td", {}, String(r.points)),
      el("td", {}, String(r.shots)),
      el("td", {}, String(r.wrong_guesses)),
      el("td", {}, String(r.found)),
      el("td", {}, ending(r, winners)),
    ),
  );
  return el("table", { class: "data race-result" }, el("caption", {}, "Fewest points wins"), el("thead", {}, head), el("tbody", {}, ...rows));
}

/** Draws the race's panel for `match` beside `after`; hidden in a one-player game. */
export function drawRace(match, after) {
  const view = match.view;
  const racers = (view.view && view.view.racers) || [];
  const panel = panelAfter(after);
  panel.hidden = racers.length === 0;
  if (racers.length === 0) return;
  const over = view.status !== "playing";
  const list = panel.querySelector("#racers");
  const others = racers.filter((r) => r.seat !== view.you);
  list.replaceChildren(...others.map((r) => el("li", { "data-seat": r.seat }, racerLine(view, r))));
  list.hidden = over;
  const result = panel.querySelector("#race-result");
  result.replaceChildren(...(over ? [resultTable(view, racers), ...racers.map((r) => story(view, r))] : []));
}
