// Baffle's race (two to four players on the same box): a line for each
// other player while it is on, with counts only (the server never sends
// another player's shots while a race is on), and once it is over the
// result's table and every player's box in words. No rule is here.
//
// Terms:
// - racers: the view's `racers`, seat 1 first (none in a one-player game):
//   counts only, also once the race is over, so that its last answer stays
//   small.
// - story: a player's shots (entry → exit) and guesses, in order, and the
//   mirrors they did not find: their box (`GET /api/baffle/matches/ID/box
//   ?seat=N`), asked for when the story is first opened.
import { el, count, api } from "/static/common.js";
import { playerName } from "/static/matchui.js";
import { cellName } from "/static/baffle-box.js";
import { shotWords } from "/static/baffle-words.js";

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

/** Each racer's box once the race is over, by match and seat: asked for once. */
const boxes = new Map();

/** A finished player's box `b` (the game's view of it) in words. */
function storyLines(b) {
  const shots = b.shots.map((s) => shotWords(s)).join("; ") || "none";
  const guesses = b.guesses.map((g) => `${g.mirror} at ${cellName(g.row, g.col)} (${g.right ? "right" : "wrong"})`).join(", ") || "none";
  const missed = (b.missed || []).map((m) => `${m.mirror} at ${cellName(m.row, m.col)}`);
  return [
    el("p", { class: "note" }, `Shots: ${shots}.`),
    el("p", { class: "note" }, `Guesses: ${guesses}.`),
    el("p", { class: "note" }, missed.length ? `Not found: ${missed.join(", ")}.` : "Every mirror found."),
  ];
}

/** A finished player's box in words, asked for when first opened. */
function story(match, r) {
  const summary = el("summary", {}, `${playerName(match.view, r.seat)}'s box`);
  const body = el("div", { class: "race-story-body", "aria-live": "polite" });
  const details = el("details", { class: "race-story", "data-seat": r.seat }, summary, body);
  const key = `${match.id} ${r.seat}`;
  let asked = false;
  async function load() {
    if (asked) return;
    asked = true;
    body.replaceChildren(el("p", { class: "note" }, "Fetching their box…"));
    if (!boxes.has(key)) boxes.set(key, api("GET", `/api/baffle/matches/${match.id}/box?seat=${r.seat}`));
    try {
      body.replaceChildren(...storyLines(await boxes.get(key)));
      details.dataset.shown = "true";
    } catch (e) {
      boxes.delete(key);
      asked = false;
      body.replaceChildren(el("p", { class: "error", role: "alert" }, `Their box cannot be shown just now (${e.message}): close and open it again.`));
    }
  }
  details.addEventListener("toggle", () => {
    if (details.open) load();
  });
  return details;
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
  // A story opened stays open when the panel is drawn again.
  const opened = new Set([...result.querySelectorAll("details.race-story[open]")].map((d) => d.dataset.seat));
  const stories = over ? racers.map((r) => story(match, r)) : [];
  result.replaceChildren(...(over ? [resultTable(view, racers), ...stories] : []));
  for (const d of stories) if (opened.has(d.dataset.seat)) d.open = true;
}
