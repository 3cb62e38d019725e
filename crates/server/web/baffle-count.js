// Baffle's counts on its page: the score, how many layouts still fit what
// the player knows, each cell's chance under the pointer or the focus, and
// the shots' history with the layouts left after each; once the game is
// over, the look back's chart.
//
// Terms:
// - layouts left: the server's figure in the view (`view.live`), worked out
//   after the move is answered (a moment later, by a change with no move);
//   from the shots, the mirrors found and the wrong guesses only; exact
//   when counted, else between two proven bounds. The page computes none.
// - cell chance: a cell's share of those layouts holding a mirror
//   (`view.live.cells`, row by row); "certainly" when proven.
// - look back: each shot's layouts left beside what the best possible shot
//   would have left (`shot.count`), and their chart
//   (`/api/baffle/matches/ID/layouts.svg`).
import { el, byId, showChart, clearChart } from "/static/common.js";
import { cellName } from "/static/baffle-box.js";
import { shotWords } from "/static/baffle-words.js";

const ui = {
  shots: byId("shots"),
  guesses: byId("guesses"),
  score: byId("score"),
  found: byId("found"),
  layoutsLeft: byId("layouts-left"),
  cellChance: byId("cell-chance"),
  shotList: byId("shot-list"),
  noShots: byId("no-shots"),
  chart: byId("layouts-chart"),
  chartPicture: byId("layouts-chart-picture"),
};

/** A share as people read it: "37%", "<1%", ">99%". */
function percent(p) {
  if (p > 0 && p < 0.005) return "<1%";
  if (p < 1 && p > 0.995) return ">99%";
  return `${Math.round(p * 100)}%`;
}

/** What cell (row, col) may hold, in words, from the view `g` ("C5: a mirror in 3 of 4 layouts"). */
export function cellWords(g, row, col) {
  const name = cellName(row, col);
  const found = g.found.find((f) => f.row === row && f.col === col);
  if (found) return `${name}: the mirror ${found.mirror}, found`;
  const live = g.live;
  const c = live && live.cells.length ? live.cells[row * g.size + col] : null;
  if (!c) return `${name}: its chance was not worked out in time`;
  const mirror = c.slash + c.backslash;
  if (c.proven) {
    if (mirror === 0) return `${name}: certainly empty`;
    return `${name}: certainly ${c.slash > 0 ? "/" : "\\"}`;
  }
  const kinds = `(/ ${percent(c.slash)}, \\ ${percent(c.backslash)})`;
  if (c.mirror_layouts !== undefined && live.layouts.kind === "exact") {
    const total = Number(live.layouts.layouts);
    return `${name}: a mirror in ${c.mirror_layouts.toLocaleString("en-GB")} of ${total.toLocaleString("en-GB")} layouts ${kinds}`;
  }
  // Two standard errors either side.
  const about = c.std_error ? `, ± ${Math.max(1, Math.round(c.std_error * 200))} points,` : "";
  const how = live.layouts.kind === "exact" ? "" : "about ";
  return `${name}: a mirror in ${how}${percent(mirror)} of layouts${about} ${kinds}`;
}

/** A shot in the history: "7 → 22 · 12 layouts still fit (the best shot: 8.4 on average)". */
function shotItem(s) {
  const item = el("li", {}, shotWords(s));
  if (s.count) {
    const best = s.count.best_words === undefined ? "" : ` (the best shot: ${s.count.best_words} on average)`;
    item.append(el("span", { class: "shot-count" }, ` · ${s.count.words}${best}`));
  }
  return item;
}

/**
 * The counts' display. `host` gives the view shown (`game()`), whether the
 * game is over (`over()`), and the match (`match()`: its id and this
 * device's seats).
 */
export function countDisplay(host) {
  let pointed = null;

  /** The chance of the cell under the pointer or the focus (none: the hint to point). */
  function sayCell() {
    const g = host.game();
    if (!g || !g.live || host.over()) {
      ui.cellChance.textContent = "";
      return;
    }
    ui.cellChance.textContent = pointed
      ? cellWords(g, pointed.row, pointed.col)
      : "Point at a cell (or move to it with the arrow keys) to see its chance of a mirror.";
  }

  function pointAt(target) {
    const cell = target && target.closest ? target.closest("rect.cell") : null;
    if (!cell) return;
    pointed = { row: Number(cell.dataset.row), col: Number(cell.dataset.col) };
    sayCell();
  }

  const box = byId("box");
  box.addEventListener("pointerover", (e) => pointAt(e.target));
  box.addEventListener("focusin", (e) => pointAt(e.target));

  /** Shows the score, the layouts left, the shots' history and, once over, the look back's chart. */
  function show() {
    const g = host.game();
    const m = host.match();
    if (!g || !m) return;
    ui.shots.textContent = g.score.shots;
    ui.guesses.textContent = g.score.guess_points;
    ui.score.textContent = g.score.total;
    ui.found.textContent = `Mirrors found: ${g.found.length} of ${g.mirrors}.`;
    // The server counts after the move is answered: until its figure
    // comes, the page says it is counting (once there is a shot to count).
    // Once over the box is shown whole, and "N layouts still fit" would
    // read as a riddle beside it: the shots' history and the look back's
    // chart tell the counts then.
    const counting = !g.live && g.shots.length > 0 && !host.over();
    ui.layoutsLeft.hidden = host.over() || (!g.live && !counting);
    ui.layoutsLeft.textContent = g.live
      ? `${g.live.words[0].toUpperCase()}${g.live.words.slice(1)}.`
      : counting
        ? "Counting the layouts that still fit…"
        : "";
    sayCell();
    ui.shotList.replaceChildren(...g.shots.map(shotItem));
    ui.noShots.hidden = g.shots.length > 0;
    const charted = host.over() && g.shots.length > 0;
    ui.chart.hidden = !charted;
    if (charted) {
      const seat = m.mySeats()[0];
      const src = `/api/baffle/matches/${m.id}/layouts.svg${seat ? `?seat=${seat}` : ""}`;
      showChart(ui.chartPicture, src);
    }
  }

  /** Forgets the cell pointed at (another match). */
  function reset() {
    pointed = null;
    clearChart(ui.chartPicture);
  }

  return { show, reset };
}
