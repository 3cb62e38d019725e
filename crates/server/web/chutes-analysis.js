// Chutes & Ladders' analysis tab: the server's exact figures and pictures
// of a board (its length's distribution, each seat's chance, where tokens
// land) and its shortest games, for the board and rules chosen.
//
// Terms:
// - tab: the page shows Play or Analysis (a tablist; ← and → switch).
// - chosen board: with no game open, the new-game form's board and rules;
//   with one, the game's (and its die's faces).
// - page: what chutes.js tells this tab (startAnalysis): the boards known
//   by reference, their names in words, how to make a refusal readable,
//   the form's choice and the game's faces.
import { api, el, byId, showError, count } from "/static/common.js";

export const an = {
  tabPlay: byId("tab-play"),
  tabAnalysis: byId("tab-analysis"),
  play: byId("play"),
  section: byId("analysis"),
  board: byId("an-board"),
  overshoot: byId("an-overshoot"),
  players: byId("an-players"),
  status: byId("analysis-status"),
  error: byId("analysis-error"),
  figures: byId("figures"),
  seats: byId("seat-table"),
  distribution: byId("plot-distribution"),
  seatPlot: byId("plot-seats"),
  heatmap: byId("plot-heatmap"),
  chutes: byId("k-chutes"),
  ladders: byId("k-ladders"),
  shortestForm: byId("shortest-form"),
  shortestError: byId("shortest-error"),
  summary: byId("shortest-summary"),
  routes: byId("routes"),
};
let analysing = false;
/** What the page tells this tab (startAnalysis). */
let page = null;

/** True while the analysis tab is shown. */
export function isAnalysing() {
  return analysing;
}

/** Shows the tab `which` ("play" or "analysis"). */
export function showTab(which) {
  analysing = which === "analysis";
  an.play.hidden = analysing;
  an.section.hidden = !analysing;
  an.tabPlay.setAttribute("aria-selected", String(!analysing));
  an.tabAnalysis.setAttribute("aria-selected", String(analysing));
  an.tabPlay.tabIndex = analysing ? -1 : 0;
  an.tabAnalysis.tabIndex = analysing ? 0 : -1;
  if (analysing) {
    const chosen = page.formChoice();
    if (chosen) {
      // No game open: analyse what the form has chosen.
      an.board.value = chosen.board;
      an.overshoot.value = chosen.overshoot;
    }
    analyse();
  }
}

function onTabKey(event) {
  if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const to = event.currentTarget === an.tabPlay ? an.tabAnalysis : an.tabPlay;
    to.focus();
    showTab(to === an.tabPlay ? "play" : "analysis");
    event.preventDefault();
  }
}

function rulesQuery(extra = {}) {
  const q = new URLSearchParams({ overshoot: an.overshoot.value, ...extra });
  const faces = page.faces(page.boards.get(an.board.value));
  if (faces) q.set("faces", String(faces));
  return q.toString();
}

function boardPath() {
  return `/api/chutes/boards/${encodeURIComponent(an.board.value)}`;
}

const pct = (p) => `${(100 * p).toFixed(2)}%`;

async function loadPlot(box, kind, extra) {
  // The plot before stays, dimmed, until this one comes (nothing below moves).
  box.setAttribute("aria-busy", "true");
  try {
    box.innerHTML = await api("GET", `${boardPath()}/plots/${kind}?${rulesQuery(extra)}`);
    box.removeAttribute("aria-busy");
    const svg = box.querySelector("svg");
    if (svg) {
      svg.setAttribute("role", "img");
      const title = svg.querySelector("title");
      svg.setAttribute("aria-label", title ? title.textContent : `${kind} plot`);
    }
  } catch (e) {
    box.removeAttribute("aria-busy");
    box.replaceChildren(el("p", { class: "error" }, page.readable(e.message)));
  }
}

let analysisRun = 0;

/** Asks the server for the chosen board's figures and pictures, and shows them. */
export async function analyse() {
  const run = ++analysisRun;
  showError(an.error, "");
  const players = Number(an.players.value);
  const board = page.boards.get(an.board.value);
  an.status.textContent = "Analysing…";
  let a;
  try {
    a = await api("GET", `${boardPath()}/analysis?${rulesQuery({ players })}`);
  } catch (e) {
    if (run !== analysisRun) return;
    an.status.textContent = "";
    showError(an.error, page.readable(e.message));
    return;
  }
  if (run !== analysisRun) return;
  an.status.textContent = `${board ? page.boardTitle(board) : "This board"}: exact figures when ${page.overshootWords[a.rules.overshoot] || a.rules.overshoot}.`;
  const row = (name, value) => el("tr", {}, el("th", { scope: "row" }, name), el("td", {}, value));
  const rolls = (n) => (n === null || n === undefined ? "—" : count(n, "roll", "rolls"));
  an.figures.replaceChildren(
    row("Mean length", a.mean === null ? "— (some games never end)" : `${a.mean.toFixed(3)} rolls`),
    row("Standard deviation", a.sd === null ? "—" : a.sd.toFixed(3)),
    row("Median", rolls(a.median)),
    row("Most likely", rolls(a.mode)),
    row("Shortest possible", rolls(a.shortest)),
    row("95% of games within", rolls(a.percentiles.p95)),
    row("No chute or ladder at all", pct(a.no_jump)),
    row("Never ends", pct(a.never)),
  );
  an.figures.dataset.mean = a.mean === null ? "" : String(a.mean);
  an.seats.replaceChildren(
    el("tr", {}, el("th", { scope: "col" }, count(a.seats.players, "player", "players")), el("th", { scope: "col" }, "Chance to win")),
    ...a.seats.seat_win.map((p, i) =>
      el(
        "tr",
        { dataset: { seat: i + 1 } },
        el("td", {}, el("span", { class: `swatch p${i + 1}`, "aria-hidden": "true" }), `Seat ${i + 1}`),
        el("td", {}, pct(p)),
      ),
    ),
  );
  await Promise.all([
    loadPlot(an.distribution, "distribution", {}),
    loadPlot(an.seatPlot, "seats", { players }),
    loadPlot(an.heatmap, "heatmap", {}),
  ]);
  findShortest();
}

/** Reads a "how many" box: null when empty, else a whole number 0–50, or throws in words. */
function readHowMany(input, what) {
  const text = input.value.trim();
  if (text === "" && !(input.validity && input.validity.badInput)) return null;
  if (!/^\d+$/.test(text) || Number(text) > 50) {
    throw new Error(`The number of ${what} is a whole number from 0 to 50 (or leave it empty for any).`);
  }
  return Number(text);
}

async function findShortest(event) {
  if (event) event.preventDefault();
  showError(an.shortestError, "");
  an.routes.replaceChildren();
  const extra = {};
  try {
    for (const [key, input] of [["chutes", an.chutes], ["ladders", an.ladders]]) {
      const n = readHowMany(input, key);
      if (n !== null) extra[key] = String(n);
    }
  } catch (e) {
    an.summary.textContent = "";
    an.summary.dataset.rolls = "";
    showError(an.shortestError, e.message);
    return;
  }
  an.summary.textContent = "Searching…";
  let s;
  try {
    s = await api("GET", `${boardPath()}/shortest?${rulesQuery(extra)}`);
  } catch (e) {
    an.summary.textContent = "";
    showError(an.shortestError, page.readable(e.message));
    return;
  }
  const what = [
    s.constraint.chutes !== null ? `exactly ${count(s.constraint.chutes, "chute", "chutes")}` : "",
    s.constraint.ladders !== null ? `exactly ${count(s.constraint.ladders, "ladder", "ladders")}` : "",
  ]
    .filter(Boolean)
    .join(" and ");
  const scope = what ? `The shortest game with ${what}` : "The shortest game";
  if (s.rolls === null) {
    an.summary.textContent = `${scope}: there is none on this board.`;
    an.summary.dataset.rolls = "";
    return;
  }
  const routes = s.routes === null ? `routes not counted (${s.routes_error})` : `${s.routes} distinct route${s.routes === "1" ? "" : "s"}`;
  an.summary.textContent = `${scope} takes ${count(s.rolls, "roll", "rolls")}: ${s.sequences} dice sequence${s.sequences === "1" ? "" : "s"}, ${routes}. For example: ${s.example.join(" ")}.`;
  an.summary.dataset.rolls = String(s.rolls);
  an.routes.replaceChildren(
    ...s.route_list.map((r) =>
      el(
        "li",
        {},
        r.jumps.length ? r.jumps.map((j) => `${j.kind} ${j.from}→${j.to}`).join(", ") : "no chute or ladder",
        el("span", { class: "note" }, ` — ${r.sequences} sequence${r.sequences === "1" ? "" : "s"}, e.g. ${r.example.join(" ")}`),
      ),
    ),
  );
}

/**
 * Wires the tab: `context` is {boards (Map of reference to board),
 * boardTitle(board), readable(message), overshootWords, formChoice()
 * ({board, overshoot}, or null while a game is open), faces(board) (the
 * open game's faces when it is played on that board, else null)}.
 */
export function startAnalysis(context) {
  page = context;
  an.tabPlay.addEventListener("click", () => showTab("play"));
  an.tabAnalysis.addEventListener("click", () => showTab("analysis"));
  an.tabPlay.addEventListener("keydown", onTabKey);
  an.tabAnalysis.addEventListener("keydown", onTabKey);
  an.shortestForm.addEventListener("submit", findShortest);
  for (const input of [an.board, an.overshoot, an.players]) input.addEventListener("change", () => analysing && analyse());
}
