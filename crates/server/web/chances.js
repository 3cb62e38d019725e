// A match's chances on its page, for every game that knows them: each
// player's chance to win from the position shown (words and a bar), and
// once the game is over the look back's chart with the move that swung a
// chance most and each player's luck.
//
// Terms:
// - chances: the server's figures in the match's view (one per player),
//   exact (Chutes & Ladders: they add up to 1) or an estimate (Tycoon: the
//   share of games the bots play on from here that each player won, with
//   a 95% interval each, `chances_interval`, and the games played,
//   `chances_playouts`); the page computes none.
// - look back: the chart of the chances over the whole game
//   (`/api/matches/ID/chances.svg`) and its figures (`/chances`), which
//   name each move's player and words.
// - swing: how much one move changed its own mover's chance.
import { api, el, showChart } from "/static/common.js";
import { colourOf, sentences } from "/static/matchui.js";

/**
 * Chances for people, in whole percents that add up to 100 (the largest
 * remainders round up); "<1%" and ">99%" near the ends, "0%" and "100%"
 * only when certain.
 */
export function percents(chances) {
  const whole = chances.map((p) => Math.floor(p * 100));
  const short = 100 - whole.reduce((a, b) => a + b, 0);
  const order = chances.map((p, i) => i).sort((a, b) => chances[b] * 100 - whole[b] - (chances[a] * 100 - whole[a]) || a - b);
  for (const i of order.slice(0, Math.max(0, short))) whole[i] += 1;
  return chances.map((p, i) => {
    if (p >= 1 - 1e-12) return "100%";
    if (p <= 1e-12) return "0%";
    if (whole[i] < 1) return "<1%";
    if (whole[i] > 99) return ">99%";
    return `${whole[i]}%`;
  });
}

/** A chance as a whole percent, never "0" or "100" unless certain. */
function wholePercent(p) {
  const n = Math.round(p * 100);
  if (p > 0 && n < 1) return "<1";
  if (p < 1 && n > 99) return ">99";
  return String(n);
}

/**
 * An estimate's chances for people: "about 62% (55–69%)" each, the
 * interval in brackets.
 */
export function estimates(chances, interval) {
  return chances.map((p, i) => {
    const band = interval[i] || { low: p, high: p };
    return `about ${wholePercent(p)}% (${wholePercent(band.low)}–${wholePercent(band.high)}%)`;
  });
}

/**
 * The chances shown in `ui.chances` (`ui.chancesWords`, `ui.chancesBar`,
 * and `ui.chancesNote` when the page has one) and the look back in
 * `ui.chancesChart` (`ui.chancesChartPicture`, `ui.chancesSwing`).
 * `playerName(seat)` names a seat; `lineOf(n)` is the log's line of move n
 * ({seat, words}, or null), used when the look back's figures do not name
 * the move; `current(id)` is true while match `id` is the one shown.
 */
export function chancesDisplay(ui, { playerName, lineOf = () => null, current }) {
  /** What the bar shows the chances of (`show`'s key), or null. */
  let shownFor = null;

  /**
   * Each player's chance to win from the position shown (null: none to
   * show); `interval` (each player's {low, high}) and `playouts` for an
   * estimate. `key` names the live match shown (null for a past step):
   * when a view of the same match comes without chances (its estimate is
   * still being worked out), the bar keeps the last figures, marked stale.
   */
  function show(chances, interval = null, playouts = null, key = null) {
    if (!chances && key !== null && key === shownFor && !ui.chances.hidden) {
      // A slow estimate is worked out after the move: the last bar stays,
      // marked as the previous move's, until the new figures arrive.
      ui.chances.dataset.stale = "true";
      if (ui.chancesNote && ui.chances.dataset.estimate === "true") {
        ui.chancesNote.textContent = "From the previous move: the new estimate is on its way.";
      }
      return;
    }
    ui.chances.hidden = !chances || chances.length < 2;
    shownFor = ui.chances.hidden ? null : key;
    ui.chances.dataset.stale = "false";
    if (ui.chances.hidden) return;
    const estimated = Array.isArray(interval) && interval.length === chances.length;
    const words = estimated ? estimates(chances, interval) : percents(chances);
    const head = estimated ? "Chances to win, estimated" : "Chances to win";
    ui.chancesWords.textContent = `${head}: ${chances.map((p, i) => `${playerName(i + 1)} ${words[i]}`).join(" · ")}`;
    ui.chances.dataset.estimate = String(estimated);
    if (ui.chancesNote) {
      ui.chancesNote.hidden = !estimated;
      ui.chancesNote.textContent = estimated
        ? `From ${Number(playouts || 0).toLocaleString("en")} games the bots play on from here, everyone as the computer would; the true chance is within the brackets 95 times in 100. Refreshed after every move.`
        : "";
    }
    ui.chancesBar.replaceChildren(
      ...chances.map((p, i) => {
        const part = el("span", { class: `chance p${colourOf(i + 1)}` });
        // Through the style object: the pages' CSP runs no inline style.
        part.style.flexGrow = String(Math.max(p, 0));
        return part;
      }),
    );
  }

  /**
   * Names the move that changed its mover's chance the most, under the look
   * back's chart: "The biggest swing: move 18, Bo rolls 5 … (+24%)".
   */
  async function nameTheBiggestSwing(id) {
    ui.chancesSwing.textContent = "";
    let figures;
    try {
      figures = await api("GET", `/api/matches/${id}/chances`);
    } catch {
      return;
    }
    if (!current(id)) return;
    const moveOf = (m) => {
      const told = (figures.moves || [])[m - 1];
      return told ? { seat: told.seat, words: sentences(told.texts) } : lineOf(m);
    };
    let best = null;
    // Each player's luck: the sum of their own moves' swings (0 on average).
    const luck = figures.names.map(() => 0);
    for (let m = 1; m < figures.series.length; m++) {
      const line = moveOf(m);
      const seat = line ? line.seat : 0;
      if (!seat) continue;
      const swing = figures.series[m][seat - 1] - figures.series[m - 1][seat - 1];
      luck[seat - 1] += swing;
      if (!best || Math.abs(swing) > Math.abs(best.swing)) best = { m, swing, words: line.words };
    }
    if (!best) return;
    const percent = (x) => `${x >= 0 ? "+" : "−"}${Math.round(Math.abs(x) * 100)}%`;
    const lucky = figures.names.map((name, i) => `${name} ${percent(luck[i])}`).join(", ");
    const estimated = Boolean(figures.intervals);
    ui.chancesSwing.textContent =
      `The biggest swing: move ${best.m}, ${best.words.replace(/\.$/, "")} (${percent(best.swing)}). ` +
      `Luck, each player's own swings added up (0 on average): ${lucky}.` +
      (estimated ? " The chances are estimates: a swing of a few points may be the estimate's own." : "");
  }

  /** The look back of match `id`: shown when `charted` (a finished game with chances, its moves shown). */
  function lookBack(id, charted) {
    ui.chancesChart.hidden = !charted;
    const chart = `/api/matches/${id}/chances.svg`;
    if (charted && ui.chancesChartPicture.dataset.asked !== chart) {
      showChart(ui.chancesChartPicture, chart);
      nameTheBiggestSwing(id);
    }
  }

  return { show, lookBack };
}
