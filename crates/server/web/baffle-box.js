// Baffle's box: Parlor's picture of what the player may see (render's SVG,
// /api/matches/ID/svg) made into controls — its holes shoot, its cells
// take a mark — with the keyboard's cursor, the mark for a guess, the last
// shot outlined, the hint's advice, the aiming zoom on a phone, and a
// finished game's replay step. baffle.js, the page module, says what the
// match is (the host) and plays the moves.
//
// Terms:
// - mark: the cell selected for a guess and its mirror (/ or \), drawn red as
//   in the original GUI. It is this page's own state, never sent until Make
//   Guess.
// - cursor: where the keyboard is in the box; the box is one Tab stop, and
//   the arrow keys move over holes and cells as over one grid, the holes
//   round its edge.
// - aiming zoom: on a phone the box fits the width, and its holes and cells
//   are smaller than a finger; a tap (or Zoom in) enlarges the box in its
//   frame until each is at least 48 px, and it can be dragged round.
// - replay step: a finished game stepped through move by move; the box then
//   is the final picture with what had not happened yet at that move
//   hidden (the server's picture of a step is a spectator's, with no beam).
// - host: what the page module tells the box: the match, the replay step,
//   the hint, whether the odds are shown, the page's elements, shoot(hole).
import { api, count, showError } from "/static/common.js";
import { keepReadable } from "/static/readable.js";

const SVG_NS = "http://www.w3.org/2000/svg";
/** The smallest hole or cell a finger can be trusted with, in CSS pixels. */
const FINGER_PX = 48;
/** A narrow screen or a touch screen: the box's targets must be big enough for a finger. */
export const touchy = matchMedia("(max-width: 599px), (pointer: coarse)");
const NEXT_MARK = { "": "/", "/": "\\", "\\": "" };

/** The box's own state: the mark, the last shot, the cursor, the zoom, the drawing under way. */
export const box = {
  mark: null,
  lastShot: null,
  /** A shot just played, whose exit the zoomed box must show once it is drawn. */
  followShot: null,
  cursor: null,
  zoomed: false,
  zoomFactor: 1,
  /** Each drawing of the box is numbered, so that a late answer cannot replace a newer one. */
  drawing: 0,
  /** The final picture of a finished game, kept while its replay is stepped through. */
  finalSvg: null,
  /** Whether the box should take the focus once drawn (after Start). */
  focusOnDraw: false,
  /** What the picture drawn shows: the match, the move (or replay step), its status, whose eyes, and the hint whose odds it shows. */
  shown: null,
};

/** A cell as the box labels it: "C5" (column C from the left, row 5 from the top). */
export function cellName(row, col) {
  return `${String.fromCharCode(65 + col)}${row + 1}`;
}

/** The page module's side (startBox). */
let host = null;
let ui = null;

const game = () => host.game();
const over = () => host.over();
const canPlay = () => host.canPlay();
export const isFound = (row, col) => game().found.some((p) => p.row === row && p.col === col);
const holesOfSetup = () => (host.match && host.match.setup && host.match.setup.holes) || [];

/** Forgets the box of the match left. */
export function resetBox() {
  Object.assign(box, { mark: null, lastShot: null, followShot: null, cursor: null, zoomed: false, finalSvg: null, shown: null });
  box.drawing += 1;
  ui.box.replaceChildren();
  delete ui.box.dataset.moves;
}

// ---- The picture ----

function svgOf() {
  return ui.box.querySelector("svg");
}

function holeEl(hole) {
  return ui.box.querySelector(`svg g.hole[data-hole="${hole}"]`);
}

function cellEl(row, col) {
  return ui.box.querySelector(`svg rect.cell[data-row="${row}"][data-col="${col}"]`);
}

/** The picture to show: the hint's odds, a replay step, or the match as it stands. */
async function pictureNow() {
  if (host.showOdds && host.hint && host.hint.svg && !host.step) return host.hint.svg;
  if (host.step && box.finalSvg) return box.finalSvg;
  // With the seat's token: in a race, each player's own box.
  const svg = await api("GET", `/api/matches/${host.match.id}/svg`, undefined, host.match.token);
  if (over()) box.finalSvg = svg;
  return svg;
}

/** Fetches the picture and shows it, made into controls. */
export async function drawBox() {
  if (!host.match) return;
  const id = host.match.id;
  // A render that changes nothing the picture shows (a late count, a hint)
  // keeps it, its controls brought up to date while they can be used (a
  // move on its way leaves them, and the keyboard's place, as they are): a
  // click landing just then is not lost on a box replaced under it, and
  // nothing is fetched again.
  const m = host.match;
  const odds = host.showOdds && host.hint && host.hint.svg && !host.step ? host.hint : null;
  const shown = { of: [id, host.step ? `step ${host.step.at}` : m.view.moves, m.view.status, m.token || ""].join(" "), odds };
  // (A game just started is drawn until it has taken the focus.)
  if (box.shown && shown.of === box.shown.of && odds === box.shown.odds && ui.box.firstChild && !box.focusOnDraw) {
    if (!canPlay()) return;
    const hadFocus = ui.box.contains(document.activeElement);
    decorate();
    if (hadFocus && !ui.box.contains(document.activeElement)) cursorEl()?.focus({ preventScroll: true });
    return;
  }
  const number = ++box.drawing;
  let svg;
  try {
    svg = await pictureNow();
  } catch (e) {
    if (number === box.drawing) showError(ui.boxError, `The box cannot be drawn: ${e.message}`);
    return;
  }
  if (number !== box.drawing || !host.match || host.match.id !== id) return;
  showError(ui.boxError, "");
  const hadFocus = ui.box.contains(document.activeElement);
  ui.box.innerHTML = svg;
  box.shown = shown;
  decorate();
  traceBeams(id);
  // Which move the box shows, for whoever waits for it (the tests); the
  // same move drawn again (its late count came) keeps the zoomed view put.
  const shows = String(host.step ? host.step.at : host.match.view.moves);
  const again = ui.box.dataset.moves === shows;
  ui.box.dataset.moves = shows;
  if ((hadFocus || box.focusOnDraw) && canPlay() && !(aimingNeeded() && !box.zoomed)) {
    box.focusOnDraw = false;
    cursorEl()?.focus({ preventScroll: !box.zoomed || again });
  } else if (hadFocus && over() && !host.step) {
    // The game ended under the keyboard: New Game is next, as in the original.
    ui.newGame.focus();
  }
  if (box.followShot && box.zoomed) keepShotInView(box.followShot);
  box.followShot = null;
}

/**
 * Scrolls the zoomed box so that the hole a shot left by is in view, and the
 * hole it went in by too when both fit: where the beam came out is the
 * answer the player shot for.
 */
function keepShotInView(shot) {
  const frame = ui.boxFrame.getBoundingClientRect();
  const exit = holeEl(shot.exit)?.getBoundingClientRect();
  const entry = holeEl(shot.hole)?.getBoundingClientRect();
  if (!exit) return;
  const both = entry && {
    left: Math.min(exit.left, entry.left),
    right: Math.max(exit.right, entry.right),
    top: Math.min(exit.top, entry.top),
    bottom: Math.max(exit.bottom, entry.bottom),
  };
  const margin = 8;
  const fits = (r) => r.right - r.left + 2 * margin <= frame.width && r.bottom - r.top + 2 * margin <= frame.height;
  const target = both && fits(both) ? both : exit;
  const shift = (low, high, from, to) =>
    low - margin < from ? low - margin - from : high + margin > to ? high + margin - to : 0;
  const left = shift(target.left, target.right, frame.left, frame.right);
  const top = shift(target.top, target.bottom, frame.top, frame.bottom);
  if (left === 0 && top === 0) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  ui.boxFrame.scrollBy({ left, top, behavior: still ? "auto" : "smooth" });
}

/** The match whose beams were traced once revealed (each game once). */
let traced = null;

/**
 * Once a game is over and its beams are drawn, each is traced from its
 * entry to its exit (0.9 s, one after another a little), once a game, and
 * not under prefers-reduced-motion: the picture stays as drawn.
 */
function traceBeams(id) {
  if (!over() || host.step || traced === id) return;
  const beams = [...ui.box.querySelectorAll("svg g.beam path")];
  if (beams.length === 0) return;
  traced = id;
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  beams.forEach((path, i) => {
    path.setAttribute("pathLength", "1");
    path.classList.add("tracing");
    path.style.animationDelay = `${Math.min(i, 8) * 0.12}s`;
  });
}

/**
 * Frames the picture on the box: the title, the facts under it and the
 * legend are said by the page, so the picture is cropped to the box, its
 * holes and the room for their shot numbers (the same frame whatever has
 * been shot, so that the box does not jump).
 */
function crop(svg) {
  const holes = [...svg.querySelectorAll("g.hole > rect:not(.hit)")];
  if (holes.length === 0) return;
  const edge = (r, a, b) => Number(r.getAttribute(a)) + (b ? Number(r.getAttribute(b)) : 0);
  const p = pitchUnits(svg);
  // Shot numbers sit beside the left and right holes ("1,4,9" may be long),
  // above the top ones and under the bottom ones.
  // The rows' numbers and the columns' letters sit outside, left and above.
  const axes = [...svg.querySelectorAll("g.axes text")];
  const reach = (a, shift) => axes.map((t) => edge(t, a) - shift * Number(t.getAttribute("font-size")));
  const x = Math.min(...holes.map((r) => edge(r, "x")).map((v) => v - 0.95 * p), ...reach("x", 1));
  const y = Math.min(...holes.map((r) => edge(r, "y")).map((v) => v - 0.45 * p), ...reach("y", 1.1));
  const w = Math.max(...holes.map((r) => edge(r, "x", "width"))) + 0.95 * p - x;
  const h = Math.max(...holes.map((r) => edge(r, "y", "height"))) + 0.45 * p - y;
  svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
  ui.box.style.setProperty("--box-ratio", String(w / h));
}

/** The size of a cell in the picture's own units. */
function pitchUnits(svg) {
  const cell = svg.querySelector("rect.cell");
  return cell ? Number(cell.getAttribute("width")) : 0;
}

/**
 * Each hole gets a square as large as a cell, under its drawing: the whole
 * square takes the pointer, and the keyboard's focus ring is drawn on it.
 */
function addHitAreas(svg) {
  const p = pitchUnits(svg);
  if (!p) return;
  for (const g of svg.querySelectorAll("g.hole")) {
    const drawn = g.querySelector("rect");
    if (!drawn || g.querySelector("rect.hit")) continue;
    const cx = Number(drawn.getAttribute("x")) + Number(drawn.getAttribute("width")) / 2;
    const cy = Number(drawn.getAttribute("y")) + Number(drawn.getAttribute("height")) / 2;
    const hit = document.createElementNS(SVG_NS, "rect");
    for (const [k, v] of Object.entries({ x: cx - p / 2, y: cy - p / 2, width: p, height: p, rx: p * 0.18, class: "hit" })) {
      hit.setAttribute(k, String(v));
    }
    hit.setAttribute("fill", "transparent");
    g.prepend(hit);
  }
}

/** The cell's size on the screen when the box fits its frame, in CSS pixels. */
function fitPitchPx() {
  const cell = ui.box.querySelector("svg rect.cell");
  if (!cell) return 0;
  return cell.getBoundingClientRect().width / (box.zoomed ? box.zoomFactor : 1);
}

/** True when the box, fitted to a phone's width, has holes too small for a finger. */
function aimingNeeded() {
  const px = fitPitchPx();
  return touchy.matches && px > 0 && px < FINGER_PX;
}

/** Makes the picture's holes and cells into controls, and marks the hint, the last shot and the cursor. */
function decorate() {
  const svg = svgOf();
  if (!svg) return;
  // The page sizes the picture; its width and height are its natural size.
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("focusable", "false");
  if (!svg.dataset.cropped) {
    crop(svg);
    svg.dataset.cropped = "true";
  }
  addHitAreas(svg);
  if (host.step) showStep(svg);
  const n = game().size;
  const playing = canPlay();
  ui.box.classList.toggle("playing", playing);
  ui.box.classList.toggle("odds", host.showOdds && Boolean(host.hint && host.hint.svg) && !host.step);
  ui.box.classList.toggle("replaying", Boolean(host.step));
  updateZoom();
  const aimable = playing && !(aimingNeeded() && !box.zoomed);
  const where = game().sides === "all" ? "all four sides" : "the left and top";
  if (aimable) {
    svg.setAttribute("role", "group");
    svg.removeAttribute("aria-label");
    ui.box.setAttribute("role", "group");
    ui.box.setAttribute(
      "aria-label",
      `The box, ${n} × ${n} cells, with holes on ${where}: the arrow keys move over holes and cells, Enter shoots a hole or turns a cell's mirror, G makes the guess`,
    );
  } else {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", pictureWords());
    ui.box.setAttribute("role", "group");
    ui.box.setAttribute("aria-label", `The box, ${n} × ${n} cells`);
  }
  // Drawn again in place (a resize, the zoom): what made them controls goes first.
  for (const c of svg.querySelectorAll("g.hole, rect.cell")) {
    for (const a of ["role", "tabindex", "aria-label", "aria-disabled", "aria-pressed"]) c.removeAttribute(a);
  }
  const shootable = new Set(game().shootable);
  if (!box.cursor || (box.cursor.hole !== undefined && !shootable.has(box.cursor.hole))) box.cursor = firstCursor();
  const shotsBy = shotsByHole();
  for (const g of svg.querySelectorAll("g.hole")) {
    const hole = Number(g.dataset.hole);
    g.classList.toggle("advised", Boolean(host.hint) && host.hint.hole === hole && !host.step);
    g.classList.toggle("last", Boolean(box.lastShot) && !host.step && (box.lastShot.hole === hole || box.lastShot.exit === hole));
    if (aimable && shootable.has(hole)) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", box.cursor.hole === hole ? "0" : "-1");
      const seen = shotsBy.get(hole);
      g.setAttribute(
        "aria-label",
        `Hole ${hole}, ${g.dataset.side} side: shoot a beam in` +
          (seen ? ` (${seen})` : "") +
          (host.hint && host.hint.hole === hole ? " — the hint's advice" : ""),
      );
    }
  }
  if (aimable) {
    for (const r of svg.querySelectorAll("rect.cell")) {
      const row = Number(r.dataset.row);
      const col = Number(r.dataset.col);
      r.setAttribute("role", "button");
      r.setAttribute("tabindex", box.cursor.row === row && box.cursor.col === col ? "0" : "-1");
      if (isFound(row, col)) r.setAttribute("aria-disabled", "true");
    }
  }
  drawMark();
  // On a phone a big box's numbers and labels are too small to read
  // fitted: they give way, and the aiming zoom shows them.
  // The rows' and columns' labels name the cells the words speak of: they
  // grow a little where the box is drawn small, before they give way.
  keepReadable(svg, { grow: "text.axis", most: 1.4 });
}

/** What each hole has shown: "shot 1 in, out at 22; shot 3 out". */
function shotsByHole() {
  const seen = new Map();
  const add = (hole, words) => seen.set(hole, seen.has(hole) ? `${seen.get(hole)}; ${words}` : words);
  game().shots.forEach((s, i) => {
    add(s.hole, `shot ${i + 1} went in here and out at ${s.exit}`);
    add(s.exit, `shot ${i + 1} came out here from ${s.hole}`);
  });
  return seen;
}

/** The picture in words, for a screen reader when it is not played. */
function pictureWords() {
  const g = game();
  const shots = g.shots.map((s) => `${s.hole} to ${s.exit}`).join(", ");
  const found = g.found.map((f) => `${f.mirror} at ${cellName(f.row, f.col)}`).join(", ");
  let words = `The box, ${g.size} × ${g.size}: ${count(g.shots.length, "shot", "shots")}${shots ? ` (${shots})` : ""}; ${g.found.length} of ${g.mirrors} mirrors found${found ? ` (${found})` : ""}.`;
  const missed = (g.missed || []).map((m) => `${m.mirror} at ${cellName(m.row, m.col)}`);
  if (missed.length) words += ` Not found: ${missed.join(", ")}.`;
  return words;
}

/** The cell marked for a guess: red, with its mirror in white, over the picture. */
export function drawMark() {
  const svg = svgOf();
  if (!svg) return;
  svg.querySelector("g.marks")?.remove();
  const playing = canPlay();
  for (const r of svg.querySelectorAll("rect.cell")) {
    const row = Number(r.dataset.row);
    const col = Number(r.dataset.col);
    const marked = playing && box.mark && box.mark.row === row && box.mark.col === col ? box.mark.mirror : "";
    if (marked) r.dataset.mark = marked;
    else delete r.dataset.mark;
    r.classList.toggle("selected", Boolean(marked));
    if (r.hasAttribute("role")) {
      const what = isFound(row, col) ? "a mirror found" : marked ? `selected, ${marked}` : "empty";
      r.setAttribute("aria-label", `Cell ${cellName(row, col)}: ${what}`);
      r.setAttribute("aria-pressed", String(Boolean(marked)));
    }
  }
  ui.makeGuess.disabled = !playing || !(box.mark && box.mark.mirror) || host.match.busy;
  if (!playing || !box.mark || !box.mark.mirror) return;
  const cell = cellEl(box.mark.row, box.mark.col);
  if (!cell) return;
  const [x, y, w, h] = ["x", "y", "width", "height"].map((a) => Number(cell.getAttribute(a)));
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "marks");
  const shade = document.createElementNS(SVG_NS, "rect");
  for (const [k, v] of Object.entries({ x, y, width: w, height: h, class: "mark-cell" })) shade.setAttribute(k, String(v));
  const inset = w * 0.18;
  const [x0, y0, x1, y1] = [x + inset, y + inset, x + w - inset, y + h - inset];
  const line = document.createElementNS(SVG_NS, "line");
  const ends = box.mark.mirror === "/" ? [x0, y1, x1, y0] : [x0, y0, x1, y1];
  for (const [k, v] of Object.entries({ x1: ends[0], y1: ends[1], x2: ends[2], y2: ends[3] })) line.setAttribute(k, String(v));
  line.setAttribute("class", "mark");
  line.setAttribute("stroke-width", String(w * 0.12));
  line.dataset.row = String(box.mark.row);
  line.dataset.col = String(box.mark.col);
  line.dataset.mark = box.mark.mirror;
  layer.append(shade, line);
  svg.append(layer);
}

// ---- A replay step, on the final picture ----

/**
 * Shows the final picture as it stood after the step's moves: the beams,
 * shot numbers and guesses not yet made are hidden, the holes coloured by
 * the shots so far, and the mirrors found so far red (the others, known
 * now that the game is over, magenta).
 */
function showStep(svg) {
  const v = host.step.view.view;
  const k = v.shots.length;
  for (const beam of svg.querySelectorAll("g.beam")) beam.classList.toggle("later", Number(beam.dataset.shot) > k);
  for (const t of svg.querySelectorAll("text.shot-number")) {
    const all = t.dataset.shots || t.textContent;
    const sep = all.includes(",") ? "," : " ";
    const kept = all.split(sep).filter((s) => s.trim() !== "" && Number(s) <= k);
    t.textContent = kept.join(sep);
    t.classList.toggle("later", kept.length === 0);
  }
  const entries = new Set(v.shots.map((s) => s.hole));
  const exits = new Set(v.shots.map((s) => s.exit));
  for (const g of svg.querySelectorAll("g.hole")) {
    const hole = Number(g.dataset.hole);
    g.classList.toggle("entry", entries.has(hole));
    g.classList.toggle("exit", exits.has(hole));
  }
  const found = new Set(v.found.map((f) => `${f.row},${f.col}`));
  for (const m of svg.querySelectorAll("g.mirror")) {
    const here = found.has(`${m.dataset.row},${m.dataset.col}`);
    m.classList.toggle("found", here);
    m.classList.toggle("unfound", !here);
  }
  const wrong = new Set(v.guesses.filter((g) => !g.right).map((g) => `${g.row},${g.col},${g.mirror}`));
  for (const g of svg.querySelectorAll("g.guess-wrong")) {
    g.classList.toggle("later", !wrong.has(`${g.dataset.row},${g.dataset.col},${g.dataset.mirror}`));
  }
}

// ---- The aiming zoom ----

function updateZoom() {
  const needed = aimingNeeded() || box.zoomed;
  ui.zoom.hidden = !needed;
  ui.zoomNote.hidden = !needed || box.zoomed || !canPlay();
  ui.zoom.textContent = box.zoomed ? "Fit the box" : "Zoom in";
  ui.zoom.setAttribute("aria-pressed", String(box.zoomed));
  ui.boxFrame.classList.toggle("zoomed", box.zoomed);
}

/** Zooms the box in (around a point of it, as shares of its width and height) or out. */
function setZoom(on, around = { x: 0.5, y: 0.5 }) {
  if (on) {
    const px = fitPitchPx();
    box.zoomFactor = px > 0 ? Math.max(1.5, FINGER_PX / px) : 2;
  }
  box.zoomed = on;
  ui.box.style.setProperty("--zoom", String(box.zoomFactor));
  ui.boxFrame.classList.toggle("zoomed", box.zoomed);
  decorate();
  if (on) {
    const frame = ui.boxFrame;
    frame.scrollLeft = around.x * ui.box.scrollWidth - frame.clientWidth / 2;
    frame.scrollTop = around.y * ui.box.scrollHeight - frame.clientHeight / 2;
  }
}

// ---- The keyboard in the box ----

/** Where a hole or cell sits on the grid of the box and its holes: rows and columns -1 to n. */
function gridPlace(target) {
  const n = game().size;
  if (target.matches("rect.cell")) return { r: Number(target.dataset.row), c: Number(target.dataset.col) };
  const hole = Number(target.dataset.hole);
  const place = holesOfSetup().find((h) => h.hole === hole);
  if (!place) return null;
  return {
    left: { r: place.at, c: -1 },
    right: { r: place.at, c: n },
    top: { r: -1, c: place.at },
    bottom: { r: n, c: place.at },
  }[place.side];
}

/** The hole or cell at a place of that grid, if it can take the cursor. */
function atPlace(r, c) {
  const n = game().size;
  if (r >= 0 && r < n && c >= 0 && c < n) return cellEl(r, c);
  let side = null;
  let at = null;
  if (c === -1 && r >= 0 && r < n) [side, at] = ["left", r];
  else if (c === n && r >= 0 && r < n) [side, at] = ["right", r];
  else if (r === -1 && c >= 0 && c < n) [side, at] = ["top", c];
  else if (r === n && c >= 0 && c < n) [side, at] = ["bottom", c];
  if (!side) return null;
  const place = holesOfSetup().find((h) => h.side === side && h.at === at);
  if (!place || !game().shootable.includes(place.hole)) return null;
  return holeEl(place.hole);
}

/** Where the cursor starts: the first hole on the top edge, above the first column. */
function firstCursor() {
  const top = holesOfSetup().find((h) => h.side === "top" && h.at === 0 && game().shootable.includes(h.hole));
  if (top) return { hole: top.hole };
  const any = game().shootable[0];
  return any !== undefined ? { hole: any } : { row: 0, col: 0 };
}

function cursorEl() {
  if (!box.cursor) return null;
  return box.cursor.hole !== undefined ? holeEl(box.cursor.hole) : cellEl(box.cursor.row, box.cursor.col);
}

function moveCursor(from, to) {
  if (!to) return;
  from.setAttribute("tabindex", "-1");
  to.setAttribute("tabindex", "0");
  box.cursor = to.matches("g.hole") ? { hole: Number(to.dataset.hole) } : { row: Number(to.dataset.row), col: Number(to.dataset.col) };
  to.focus();
}

export function setMark(row, col, mirror) {
  if (!canPlay() || isFound(row, col)) return;
  box.cursor = { row, col };
  box.mark = mirror ? { row, col, mirror } : null;
  drawMark();
}

function cycle(row, col) {
  const current = box.mark && box.mark.row === row && box.mark.col === col ? box.mark.mirror : "";
  setMark(row, col, NEXT_MARK[current]);
}

/**
 * Wires the box: `h` is {ui (the page's elements), match, step, hint,
 * showOdds (read as the page has them: getters), game(), over(),
 * canPlay(), shoot(hole)}.
 */
export function startBox(h) {
  host = h;
  ui = h.ui;
  const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  ui.box.addEventListener("keydown", (event) => {
    if (!canPlay() || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target.closest?.("g.hole, rect.cell");
    if (!target || !target.hasAttribute("role")) return;
    const press = event.key === "Enter" || event.key === " ";
    if (ARROWS[event.key]) {
      event.preventDefault();
      const place = gridPlace(target);
      if (!place) return;
      const [dr, dc] = ARROWS[event.key];
      const n = game().size;
      for (let r = place.r + dr, c = place.c + dc; r >= -1 && r <= n && c >= -1 && c <= n; r += dr, c += dc) {
        const next = atPlace(r, c);
        if (next) {
          moveCursor(target, next);
          return;
        }
      }
      return;
    }
    if (target.matches("g.hole")) {
      if (press) {
        event.preventDefault();
        if (!event.repeat) host.shoot(Number(target.dataset.hole));
      }
      return;
    }
    const row = Number(target.dataset.row);
    const col = Number(target.dataset.col);
    if (press) {
      event.preventDefault();
      cycle(row, col);
    } else if (event.key === "/" || event.key === "\\") {
      event.preventDefault();
      setMark(row, col, event.key);
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      setMark(row, col, "");
    }
  });

  ui.box.addEventListener("click", (event) => {
    if (!host.match) return;
    if (aimingNeeded() && !box.zoomed) {
      // A phone's box is first enlarged round the tap: then holes and cells are big enough.
      const r = ui.box.getBoundingClientRect();
      setZoom(true, { x: (event.clientX - r.left) / r.width, y: (event.clientY - r.top) / r.height });
      return;
    }
    if (!canPlay()) return;
    const hole = event.target.closest("g.hole");
    if (hole && hole.hasAttribute("role")) {
      if (event.detail > 1 || host.match.busy) return;
      host.shoot(Number(hole.dataset.hole));
      return;
    }
    const cell = event.target.closest("rect.cell");
    if (cell && cell.hasAttribute("role")) cycle(Number(cell.dataset.row), Number(cell.dataset.col));
  });

  // A double click never selects the page's text or zooms it.
  ui.box.addEventListener("dblclick", (event) => event.preventDefault());

  ui.zoom.addEventListener("click", () => {
    setZoom(!box.zoomed);
    if (box.zoomed && canPlay()) cursorEl()?.focus();
  });

  touchy.addEventListener("change", () => {
    if (host.match) decorate();
  });
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (host.match && !ui.game.hidden) decorate();
    }, 150);
  });
}
