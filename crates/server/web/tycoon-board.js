// Snakes & Ladders Tycoon's board in a match: the grid as Parlor draws it
// (the match's picture), and the layers this page draws over it — the
// tokens, which walk the cells a die counted and slide up a ladder or down
// a snake, and the station owners' rings.
//
// Terms:
// - shown cells: where each token is drawn (seat 1 first); they follow the
//   moves as they are shown, then the view once the show is over.
// - speed: how a move is shown: step by step, quickly, or at once (kept in
//   the browser).
import { api, byId, sleep } from "/static/common.js";
import { showDie } from "/static/dice.js";
import { colourOf } from "/static/matchui.js";
import { keepReadable, refit } from "/static/readable.js";
import { cellBox, clip, cropToGrid, inline, readableCards, ring, svgEl } from "/static/tycoon-pictures.js";

const SPEED_KEY = "parlor.tycoon.speed";
/** Milliseconds per cell walked, and per slide, at each speed. */
const SPEEDS = { step: [170, 480], quick: [70, 220], none: [0, 0] };

/** The board of `box`: new Board(box, {speed, cardWords, legend, pictureError}). */
export class Board {
  constructor(box, parts) {
    this.box = box;
    this.parts = parts;
    this.cells = [1, 1, 1, 1];
    const select = parts.speed;
    try {
      const saved = localStorage.getItem(SPEED_KEY);
      if (saved && SPEEDS[saved]) select.value = saved;
    } catch {
      // No storage: the default speed.
    }
    select.addEventListener("change", () => {
      try {
        localStorage.setItem(SPEED_KEY, select.value);
      } catch {
        // Kept for this page only.
      }
    });
  }

  speed() {
    return SPEEDS[this.parts.speed.value] ? this.parts.speed.value : "step";
  }

  /** Fetches the match's picture once: the grid; this page draws the rest. Resolves false when it failed. */
  async draw(match) {
    let svg;
    try {
      svg = await api("GET", `/api/matches/${match.id}/svg`);
    } catch (e) {
      this.parts.pictureError.textContent = clip(e.message);
      return false;
    }
    this.parts.pictureError.textContent = "";
    const picture = inline(this.box, svg);
    if (!picture) return false;
    // The players are in the page's own table, by name and colour.
    const names = new Set((match.view.players || []).map((p) => p.name));
    for (const entry of picture.querySelectorAll("g.legend g.legend-entry")) {
      if (names.has(entry.textContent.trim())) entry.remove();
    }
    cropToGrid(picture);
    readableCards(this.box, picture, this.parts.cardWords, this.parts.legend);
    picture.querySelector(":scope > title")?.remove();
    picture.setAttribute("role", "img");
    // The owners' rings are this page's: they follow the moves and replays.
    for (const r of picture.querySelectorAll("g.cell rect.owner")) r.remove();
    for (const g of picture.querySelectorAll("g.cell[data-owner]")) g.removeAttribute("data-owner");
    const owners = svgEl("g", { class: "ty-owners", "aria-hidden": "true" });
    const layer = svgEl("g", { class: "ty-tokens", "aria-hidden": "true" });
    picture.append(owners, layer);
    // A token for each player in the game (two to four).
    for (let seat = 1; seat <= match.view.view.players.length; seat += 1) {
      const token = svgEl("g", { class: `ty-token p${colourOf(seat)}`, "data-player": seat });
      token.append(svgEl("circle", { r: 10 }), svgEl("text", { "text-anchor": "middle", "dominant-baseline": "central" }));
      token.querySelector("text").textContent = String(seat);
      layer.append(token);
    }
    this.cells = match.view.view.players.map((p) => p.cell);
    this.place(false);
    // On a phone the cells' numbers and the cards' words grow to be read;
    // what cannot (the legend's words, said beside the board) gives way.
    keepReadable(picture, { grow: "text.cell-number, g.card text", most: 2 });
    return true;
  }

  tokenLayer() {
    return this.box.querySelector("svg g.ty-tokens");
  }

  /**
   * Puts every token where the shown cells say: tokens sharing a cell share
   * it (one large in the middle, two side by side, three or four in its
   * corners), sliding for `duration` ms when `animate`.
   */
  place(animate = true, duration = 0) {
    const layer = this.tokenLayer();
    if (!layer) return;
    const byCell = new Map();
    this.cells.forEach((cell, i) => {
      if (!byCell.has(cell)) byCell.set(cell, []);
      byCell.get(cell).push(i + 1);
    });
    for (const [cell, seats] of byCell) {
      const group = this.box.querySelector(`svg g.cell[data-cell="${cell}"]`);
      if (!group) continue;
      const { x, y, width } = cellBox(group);
      const cx = x + width / 2;
      const cy = y + width / 2;
      const n = seats.length;
      const r = width * (n === 1 ? 0.3 : n === 2 ? 0.23 : 0.2);
      const spots =
        n === 1
          ? [[0, 0]]
          : n === 2
            ? [[-0.24, 0], [0.24, 0]]
            : [[-0.25, -0.25], [0.25, -0.25], [-0.25, 0.25], [0.25, 0.25]];
      seats.forEach((seat, k) => {
        const token = layer.querySelector(`g.ty-token[data-player="${seat}"]`);
        const [dx, dy] = spots[k];
        token.style.transitionDuration = animate ? `${duration}ms` : "0ms";
        token.style.transform = `translate(${cx + dx * width}px, ${cy + dy * width}px)`;
        token.dataset.cell = String(cell);
        const circle = token.querySelector("circle");
        circle.setAttribute("r", String(r));
        token.querySelector("text").setAttribute("font-size", String(r * 1.1));
      });
    }
    // A token's number too small to read (four share a cell) gives way to its colour.
    refit(this.box.querySelector("svg"));
  }

  /**
   * Draws `view` (a match view, or a replay step's): the tokens slide to
   * their cells, the owners' rings, whose turn it is, and the board in
   * words (`label`) for those who do not see it.
   */
  show(view, label) {
    this.cells = view.view.players.map((p) => p.cell);
    this.place(true, 200);
    const owners = this.box.querySelector("svg g.ty-owners");
    if (owners) {
      owners.replaceChildren();
      for (const g of this.box.querySelectorAll("svg g.cell[data-owner]")) g.removeAttribute("data-owner");
      for (const o of view.view.owners || []) {
        if (!o.owner) continue;
        for (const g of this.box.querySelectorAll(`svg g.cell[data-card="${o.station}"]`)) {
          g.dataset.owner = String(o.owner);
          owners.append(ring(g, `owner p${colourOf(o.owner)}`, 2.5));
        }
      }
    }
    const layer = this.tokenLayer();
    const to = view.status === "playing" ? view.view.current : null;
    for (const token of layer ? layer.querySelectorAll("g.ty-token") : []) {
      token.classList.toggle("current", Number(token.dataset.player) === to);
    }
    const picture = this.box.querySelector("svg");
    if (picture) picture.setAttribute("aria-label", `The game on its grid: ${label}.`);
  }

  /**
   * Walks one move's tokens: the cells the die counted, then each slide;
   * at once when the speed says so, in a hidden tab, or with more than six
   * moves waiting. `still()` false stops it. `name(seat)` names the die's
   * thrower.
   */
  async animate(played, behind, still, name) {
    const [step, slide] = SPEEDS[this.speed()];
    const fast = step === 0 || behind > 6 || document.hidden;
    for (const e of played.events || []) {
      const seat = e.player;
      if (e.event === "rolled" && !fast) showDie(byId("play-die"), e.roll, `${name(seat)} rolled ${e.roll}`);
      if (e.event === "moved" && e.cause === "dice" && e.to > e.from && !fast) {
        for (let cell = e.from + 1; cell <= e.to; cell += 1) {
          this.cells[seat - 1] = cell;
          this.place(true, step);
          await sleep(step);
          if (!still()) return;
        }
      } else if (e.event === "moved" || e.event === "ladder" || e.event === "snake") {
        this.cells[seat - 1] = e.to;
        this.place(!fast, slide);
        if (!fast) await sleep(slide);
        if (!still()) return;
      }
    }
  }
}
