// Nim's page module, run by any game's page on the one page shell
// (/static/play.js, which owns the match's life). It draws the game's own
// view and turns a click into a move; nothing else.
//
// Terms:
// - game: Nim's view, {pile, start, most}: the counters left, at the
//   start, and the most the player to move may take now.
// - play(text): sends a move ("take 2"); null when this viewer cannot move.
import { el } from "/static/common.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** The pile: the counters in rows of ten, those taken hollow. */
function pile(game) {
  const rows = Math.ceil(game.start / 10);
  const words = `${game.pile} of ${game.start} counters left`;
  const picture = svg("svg", { viewBox: `0 0 340 ${20 + 32 * rows}`, class: "nim-pile", role: "img", "aria-label": words });
  for (let i = 0; i < game.start; i += 1) {
    const left = i < game.pile;
    picture.append(
      svg("circle", {
        cx: 25 + 32 * (i % 10),
        cy: 25 + 32 * Math.floor(i / 10),
        r: 12,
        fill: left ? "#b8860b" : "none",
        stroke: "#857f72",
        "stroke-width": 1.5,
        class: left ? "nim-counter" : "nim-counter taken",
      }),
    );
  }
  return picture;
}

/** Draws the game into `into`, with a button a take when `play` is given. */
export function draw(into, game, { play }) {
  const takes = [];
  if (play) {
    for (let n = 1; n <= game.most; n += 1) {
      const button = el("button", { type: "button", "data-take": String(n) }, `Take ${n}`);
      button.addEventListener("click", () => play(`take ${n}`));
      takes.push(button);
    }
  }
  const left = game.pile === 1 ? "1 counter left" : `${game.pile} counters left`;
  into.replaceChildren(pile(game), el("p", { class: "nim-left" }, left), el("div", { class: "buttons nim-takes" }, ...takes));
  if (takes.length > 0) takes[0].focus({ preventScroll: true });
}
