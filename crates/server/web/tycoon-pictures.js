// Snakes & Ladders Tycoon's pages: what the designer and the game share —
// the players' colours, short messages, and Parlor's own pictures (render's
// SVG) inlined in the page.
//
// Terms:
// - picture: the grid as the server draws it; the page finds the cells in
//   it by their data attributes (`<g class="cell" data-cell>`), crops it to
//   the grid and its legend, and draws its own layers over it (tokens,
//   station owners' rings, the designer's selection).
// - colour: each seat's colour, named as render's palette draws it.
import { el } from "/static/common.js";
import { colourOf } from "/static/matchui.js";

export const SVG_NS = "http://www.w3.org/2000/svg";
/** The player colours' names (render's palette, seat 1 first). */
export const COLOUR_NAMES = ["red", "purple", "orange", "charcoal"];
/** The longest message shown whole: a longer one is cut (a binary file's junk). */
export const MESSAGE_MAX = 400;

/** A message short enough to show: long ones are cut, with the length said. */
export function clip(message) {
  const text = String(message || "");
  if (text.length <= MESSAGE_MAX) return text;
  return `${text.slice(0, MESSAGE_MAX)}… (${text.length - MESSAGE_MAX} more characters)`;
}

export function swatch(seat) {
  return el("span", { class: `swatch p${colourOf(seat)}`, "aria-hidden": "true" });
}

/** Seat `seat`'s colour, in words. */
export const colourName = (seat) => COLOUR_NAMES[(colourOf(seat) - 1) % COLOUR_NAMES.length];
export const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");
// ---------------------------------------------------------------------------
// Pictures

/** Inlines an SVG picture in `box`, sized by the page rather than by itself. */
export function inline(box, svg) {
  box.innerHTML = svg;
  const picture = box.querySelector("svg");
  if (picture) {
    picture.removeAttribute("width");
    picture.removeAttribute("height");
  }
  return picture;
}

/** The rectangle of a cell group (`<g class="cell">`): its first `<rect>`. */
export function cellBox(group) {
  const rect = group.querySelector("rect");
  const [x, y, width, height] = ["x", "y", "width", "height"].map((a) => Number(rect.getAttribute(a)));
  return { x, y, width, height };
}

export function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A rectangle `inset` inside a cell, with `cls`, for a layer over the picture. */
export function ring(group, cls, inset) {
  const { x, y, width, height } = cellBox(group);
  return svgEl("rect", { x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset, rx: 3, class: cls });
}

/**
 * Crops a picture to its cells and the legend under them (the page's own
 * heading names the grid), so that the grid is drawn as large as the
 * screen allows; the title and the players panel go.
 */
export function cropToGrid(picture) {
  const boxes = [...picture.querySelectorAll("g.cell")].map(cellBox);
  if (boxes.length === 0) return;
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  let bottom = Math.max(...boxes.map((b) => b.y + b.height));
  const legend = picture.querySelector("g.legend");
  if (legend) {
    for (const node of legend.querySelectorAll("[y], [y1], [y2], [cy]")) {
      const ys = ["y", "y1", "y2", "cy"].map((a) => Number(node.getAttribute(a)) || 0);
      const h = Number(node.getAttribute("height")) || 0;
      bottom = Math.max(bottom, ...ys.map((v) => v + 5), ys[0] + h);
    }
  }
  for (const gone of picture.querySelectorAll(":scope > text.title, :scope > text.subtitle, g.players, g.tokens")) gone.remove();
  const pad = 4;
  picture.setAttribute("viewBox", `${left - pad} ${top - pad} ${right - left + 2 * pad} ${bottom - top + 2 * pad}`);
  for (const hidden of picture.querySelectorAll("g.jumps, g.labels, g.legend")) hidden.setAttribute("aria-hidden", "true");
}

// ---------------------------------------------------------------------------
// Reading the cards on a small screen

/** The smallest text a picture may show, in CSS pixels; smaller gives way. */
export const LEGIBLE_PX = 12;

/** How many CSS pixels one unit of the picture takes on the screen now. */
function screenScale(picture) {
  const box = picture.viewBox.baseVal;
  const { width, height } = picture.getBoundingClientRect();
  return box && box.width > 0 && box.height > 0 ? Math.min(width / box.width, height / box.height) : 1;
}

/**
 * Makes a grid's cards readable at any width. Where the picture's card
 * captions and legend would read under LEGIBLE_PX (a phone), they give way:
 * the card's coloured number stays as its icon, the picture is cropped to
 * its cells, and the legend becomes a list in the page's own type (`legend`,
 * a list element under the board). At any width a tap or click on a cell
 * says it in words in `words` (a live line under the board): "Cell 36: card
 * 8, prison: pay 50 or lose 3 turns". Called again after each drawing; it
 * measures again when the board's width changes.
 */
export function readableCards(box, picture, words, legend) {
  const caption = picture.querySelector("g.card > text:last-of-type");
  const legendText = picture.querySelector("g.legend text");
  const size = (node) => Number(node?.getAttribute("font-size")) || 0;
  const smallest = Math.min(...[caption, legendText].filter(Boolean).map(size));
  box.classList.remove("small-labels");
  const cellsOnly = gridBox(picture);
  const withLegend = picture.getAttribute("viewBox");
  const measure = () => {
    picture.setAttribute("viewBox", withLegend);
    const small = Number.isFinite(smallest) && smallest * screenScale(picture) < LEGIBLE_PX;
    box.classList.toggle("small-labels", small);
    if (small && cellsOnly) picture.setAttribute("viewBox", cellsOnly);
    legend.hidden = !small;
    words.hidden = false;
  };
  legend.replaceChildren(...[...picture.querySelectorAll("g.legend g.legend-entry")].map(legendItem));
  if (!words.textContent) words.textContent = "Tap or click a square to read what is on it.";
  picture.addEventListener("click", (event) => {
    const hit = event.target.closest("g.cell, g.card");
    const cell = hit?.dataset.cell;
    const group = cell && picture.querySelector(`g.cell[data-cell="${cell}"]`);
    const title = group?.querySelector(":scope > title")?.textContent;
    if (title) words.textContent = `${capital(title)}.`;
  });
  measure();
  let width = box.clientWidth;
  const observer = new ResizeObserver(() => {
    if (!picture.isConnected) observer.disconnect();
    else if (box.clientWidth !== width) {
      width = box.clientWidth;
      measure();
    }
  });
  observer.observe(box);
}

/** A legend entry of the picture (drawn, so measurable) as a list item: its swatch, then its words. */
function legendItem(entry) {
  const original = entry.firstElementChild;
  const b = original.getBBox();
  // Of the pictures' class, so that the dark scheme repaints it with them.
  const icon = svgEl("svg", { "aria-hidden": "true", class: "swatch-icon parlor-picture", viewBox: `${b.x - 1} ${b.y - 1} ${b.width + 2} ${b.height + 2}` });
  icon.append(original.cloneNode(true));
  return el("li", {}, icon, entry.querySelector("text")?.textContent || "");
}

/** The picture's box around its cells alone, for a viewBox. */
function gridBox(picture) {
  const boxes = [...picture.querySelectorAll("g.cell")].map(cellBox);
  if (boxes.length === 0) return null;
  const pad = 4;
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return `${left - pad} ${top - pad} ${right - left + 2 * pad} ${bottom - top + 2 * pad}`;
}

