// Snakes & Ladders Tycoon: design a grid, and play games on it.
//
// Terms:
// - design: a grid being built on the server (its undo history and
//   clipboard too); every edit is sent there and the library's one
//   validator accepts or refuses it with its reason. This browser keeps the
//   design's id and its file text as a draft, so that a reload (or a
//   server restart, which forgets designs) brings the work back.
// - match page: /tycoon/m/ID, a game stored on the server. Bots move on the
//   server; this page sends its seats' moves (with the move number seen,
//   so a double click never plays twice) and follows the live events.
// - shown state: where the tokens are drawn. Moves arrive as events and
//   are animated one after another (the token walks the cells the die
//   counted, then slides up a ladder or down a snake); the tables follow
//   the match's view once the animation has caught up.
// - answers: the moves that answer the decision awaited, worded by the
//   library (the server's `page`): a few buttons; an attack asks its kind
//   first, then whom.
// The pictures are Parlor's own (render's SVG): this page finds the cells
// in them by their data attributes, crops them to the grid and its legend,
// and draws the tokens and the station owners' rings over them. No rule of
// the game is here.
import { api, el, byId, readFile, readSeed, sleep, ApiFailure, gameInfo, defaultPlans } from "/static/common.js";
import { Match, matchIdFromPath } from "/static/match.js";
import { MoveShow } from "/static/moveshow.js";
import {
  seatChooser,
  invitePanel,
  gonePanel,
  replayBar,
  connectionStatus,
  confirmAction,
  yourGames,
  moveList,
  playerName as nameOf,
  withNames,
} from "/static/matchui.js";

/** This game in the registry (GET /api/games): its seats and default seats. */
const INFO = await gameInfo("tycoon");

const SVG_NS = "http://www.w3.org/2000/svg";
/** The player colours' names (render's palette, seat 1 first). */
const COLOUR_NAMES = ["red", "purple", "orange", "charcoal"];
/** The longest message shown whole: a longer one is cut (a binary file's junk). */
const MESSAGE_MAX = 400;

/** Seat `seat`'s player's name (the match view's; "Player N" before a match). */
const playerName = (seat) => (current && current.view ? nameOf(current.view, seat) : `Player ${seat}`);
const colourName = (seat) => COLOUR_NAMES[(seat - 1) % COLOUR_NAMES.length];
const seatName = (seat) => `${playerName(seat)} (${colourName(seat)})`;
/** The server's words with each "P2" as its player's name. */
const named = (text) => (current && current.view ? withNames(current.view, text) : String(text));
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");

/** A message short enough to show: long ones are cut, with the length said. */
function clip(message) {
  const text = String(message || "");
  if (text.length <= MESSAGE_MAX) return text;
  return `${text.slice(0, MESSAGE_MAX)}… (${text.length - MESSAGE_MAX} more characters)`;
}

function swatch(seat) {
  return el("span", { class: `swatch p${seat}`, "aria-hidden": "true" });
}

// ---------------------------------------------------------------------------
// Pictures

/** Inlines an SVG picture in `box`, sized by the page rather than by itself. */
function inline(box, svg) {
  box.innerHTML = svg;
  const picture = box.querySelector("svg");
  if (picture) {
    picture.removeAttribute("width");
    picture.removeAttribute("height");
  }
  return picture;
}

/** The rectangle of a cell group (`<g class="cell">`): its first `<rect>`. */
function cellBox(group) {
  const rect = group.querySelector("rect");
  const [x, y, width, height] = ["x", "y", "width", "height"].map((a) => Number(rect.getAttribute(a)));
  return { x, y, width, height };
}

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A rectangle `inset` inside a cell, with `cls`, for a layer over the picture. */
function ring(group, cls, inset) {
  const { x, y, width, height } = cellBox(group);
  return svgEl("rect", { x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset, rx: 3, class: cls });
}

/**
 * Crops a picture to its cells and the legend under them (the page's own
 * heading names the grid), so that the grid is drawn as large as the
 * screen allows; the title and the players panel go.
 */
function cropToGrid(picture) {
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
// Design

const ui = {
  kinds: [...document.querySelectorAll("#palette [data-kind]")],
  jumpFields: byId("jump-fields"),
  cardFields: byId("card-fields"),
  start: byId("start"),
  end: byId("end"),
  cardNumber: byId("card-number"),
  cardDescribe: byId("card-describe"),
  cardCell: byId("card-cell"),
  cardParams: byId("card-params"),
  add: byId("add"),
  clickHelp: byId("click-help"),
  copy: byId("copy"),
  cut: byId("cut"),
  paste: byId("paste"),
  del: byId("delete"),
  undo: byId("undo"),
  redo: byId("redo"),
  clear: byId("clear"),
  selection: byId("selection"),
  refusal: byId("refusal"),
  done: byId("done"),
  grid: byId("grid"),
  gridError: byId("grid-error"),
  clipboard: byId("clipboard"),
  saveName: byId("save-name"),
  save: byId("save"),
  saved: byId("saved"),
  load: byId("load"),
  deleteSaved: byId("delete-saved"),
  download: byId("download"),
  upload: byId("upload"),
  fileError: byId("file-error"),
  fileDone: byId("file-done"),
  objects: byId("objects"),
};

const DRAFT_KEY = "parlor.tycoon.draft";

/** The design as the server last described it. */
let design = null;
/** Card numbers and their parameters, from the server. */
let cards = [];
/** UI state, beside the document: what is being added, the selected cell. */
let kind = "ladder";
let selected = null;
/** Which box a click on the grid fills for a ladder or a snake. */
let jumpNext = "start";
/** What the pictures call the grid being designed. */
let designName = "a new grid";
/** True when the grid has changes not saved under a name. */
let dirty = false;
/** The cell the keyboard rests on in the grid. */
let focusCell = 1;
/** Each drawing is numbered so that a late answer cannot replace a newer one. */
let drawingGrid = 0;
/** Saved grids' names, as last listed. */
let savedNames = [];

function clearMessages() {
  ui.refusal.textContent = "";
  ui.done.textContent = "";
  ui.fileError.textContent = "";
  ui.fileDone.textContent = "";
}

function say(message) {
  clearMessages();
  ui.done.textContent = message || "";
}

function refuse(message) {
  clearMessages();
  ui.refusal.textContent = clip(message);
}

function fileSay(message) {
  clearMessages();
  ui.fileDone.textContent = message;
}

function fileRefuse(message) {
  clearMessages();
  ui.fileError.textContent = clip(message);
}

function readDraft() {
  try {
    return JSON.parse(localStorage.getItem(DRAFT_KEY) || "null");
  } catch {
    return null;
  }
}

function keepDraft() {
  if (!design) return;
  try {
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ id: design.id, file: design.file, name: designName, dirty }));
  } catch {
    // No storage: the design still works in this tab.
  }
}

function objectAt(cell) {
  return design ? design.objects.find((o) => o.home === cell) : undefined;
}

function cellEl(box, cell) {
  return box.querySelector(`svg g.cell[data-cell="${cell}"]`);
}

/**
 * Makes the design picture a grid of cells for assistive technology: the
 * cells, grouped in rows, are grid cells with the keyboard's roving focus.
 */
function makeGrid(picture) {
  picture.setAttribute("role", "group");
  picture.setAttribute("aria-label", `The grid being designed: ${designName}`);
  picture.querySelector(":scope > title")?.remove();
  const cells = picture.querySelector("g.cells");
  if (!cells) return;
  cells.setAttribute("role", "grid");
  cells.setAttribute("aria-label", "Cells 1 to 99, cell 1 at the bottom left: choose a cell");
  const rows = new Map();
  for (const g of [...cells.querySelectorAll("g.cell")]) {
    const row = Number(g.dataset.row);
    if (!rows.has(row)) rows.set(row, []);
    rows.get(row).push(g);
  }
  for (const row of [...rows.keys()].sort((a, b) => a - b)) {
    const group = svgEl("g", { role: "row", class: "grid-row" });
    for (const g of rows.get(row).sort((a, b) => Number(a.dataset.col) - Number(b.dataset.col))) {
      const cell = Number(g.dataset.cell);
      g.setAttribute("role", "gridcell");
      g.setAttribute("tabindex", cell === focusCell ? "0" : "-1");
      g.setAttribute("aria-selected", "false");
      g.setAttribute("aria-label", g.querySelector("title")?.textContent || `cell ${cell}`);
      group.append(g);
    }
    cells.append(group);
  }
}

/** Fetches the design's picture and shows it, with the selection. */
async function drawGrid() {
  const number = ++drawingGrid;
  const path = `/api/tycoon/designs/${design.id}/svg?name=${encodeURIComponent(designName.slice(0, 80))}`;
  let svg;
  try {
    svg = await api("GET", path);
  } catch (e) {
    if (number === drawingGrid) ui.gridError.textContent = clip(e.message);
    return;
  }
  if (number !== drawingGrid) return;
  ui.gridError.textContent = "";
  const hadFocus = ui.grid.contains(document.activeElement);
  const picture = inline(ui.grid, svg);
  if (!picture) return;
  cropToGrid(picture);
  makeGrid(picture);
  showSelected();
  if (hadFocus) cellEl(ui.grid, focusCell)?.focus();
  ui.grid.dataset.drawn = String(number);
}

/** Marks the selected cell: a class on its group, and a ring over the picture. */
function showSelected() {
  const picture = ui.grid.querySelector("svg");
  if (!picture) return;
  for (const g of picture.querySelectorAll("g.cell.selected")) {
    g.classList.remove("selected");
    g.setAttribute("aria-selected", "false");
  }
  picture.querySelector("g.selection")?.remove();
  const group = selected ? cellEl(ui.grid, selected) : null;
  if (!group) return;
  group.classList.add("selected");
  group.setAttribute("aria-selected", "true");
  const layer = svgEl("g", { class: "selection", "aria-hidden": "true" });
  layer.append(ring(group, "selection-ring", 2.5));
  picture.append(layer);
}

/** A dashed ring round the cell the keyboard is on. */
function showFocus(group) {
  const picture = ui.grid.querySelector("svg");
  picture?.querySelector("g.focus")?.remove();
  if (!picture || !group || !group.matches(":focus-visible")) return;
  const layer = svgEl("g", { class: "focus", "aria-hidden": "true" });
  layer.append(ring(group, "focus-ring", 6));
  picture.append(layer);
}

function showDesign() {
  drawGrid();
  ui.undo.disabled = !design.can_undo;
  ui.redo.disabled = !design.can_redo;
  ui.clipboard.textContent = design.clipboard ? `Clipboard: ${design.clipboard.text}.` : "Clipboard: empty.";
  ui.objects.replaceChildren(
    ...design.objects.map((o) => el("li", { dataset: { cell: o.home } }, o.text, o.describe ? ` — ${o.describe}` : "")),
  );
  if (design.objects.length === 0) ui.objects.append(el("li", { class: "note" }, "nothing yet"));
  ui.download.href = `/api/tycoon/designs/${design.id}/file`;
  ui.download.setAttribute("download", `${designName === "a new grid" ? "tycoon" : designName}.grid`);
  showCardParams();
  showSelection();
  keepDraft();
}

function showSelection() {
  const o = selected ? objectAt(selected) : undefined;
  ui.selection.textContent = selected ? `Cell ${selected} selected${o ? `: ${o.text}` : " (empty)"}.` : "No cell selected.";
  ui.copy.disabled = !o;
  ui.cut.disabled = !o;
  ui.del.disabled = !o;
  ui.paste.disabled = !selected || !design || !design.clipboard;
}

/** Says what a click on the grid will fill next. */
function showClickHelp() {
  ui.clickHelp.textContent =
    kind === "card"
      ? "Tap a cell to put the card there (its number goes in Cell)."
      : `Tap a cell to choose it: next, the ${jumpNext === "end" ? "end" : "start"} of the ${kind}.`;
}

function setKind(next) {
  kind = next;
  for (const b of ui.kinds) b.setAttribute("aria-pressed", String(b.dataset.kind === kind));
  ui.jumpFields.hidden = kind === "card";
  ui.cardFields.hidden = kind !== "card";
  jumpNext = "start";
  clearMessages();
  showClickHelp();
}

/** The chosen card number's fields, as the design view's `card_forms` say:
 * a station's price and fee only for the first card of its number, the
 * group's terms shown for the next ones. Redrawn only when they change, so
 * typed values stay. */
function showCardParams() {
  const number = Number(ui.cardNumber.value);
  const form = design && design.card_forms ? design.card_forms.find((f) => f.number === number) : undefined;
  const info = cards.find((c) => c.number === number);
  ui.cardDescribe.textContent = info ? `Card ${number}: ${info.name}.` : "";
  const asks = form ? form.asks : info ? info.params : [];
  const key = JSON.stringify([number, asks, form ? form.terms : null]);
  if (ui.cardParams.dataset.form === key) return;
  ui.cardParams.dataset.form = key;
  const fields = asks.map((p) =>
    el(
      "div",
      {},
      el("label", { for: `param-${p}` }, capital(p)),
      el("input", { type: "number", id: `param-${p}`, min: "0", inputmode: "numeric", dataset: { param: p } }),
    ),
  );
  if (form && form.terms) {
    fields.push(
      el(
        "p",
        { class: "note", id: "card-terms" },
        `Station ${number} is on the grid already: this card joins its group, at price ${form.terms.price} and fee ${form.terms.fee}.`,
      ),
    );
  }
  ui.cardParams.replaceChildren(...fields);
}

/**
 * A click (or Enter) on a cell: it is selected, and its number goes in the
 * cell box of what is being added — a card's Cell; a ladder's or snake's
 * start, then its end. Never in a parameter (coins, fee, price,
 * destination), whichever box had the focus before.
 */
function clickCell(cell) {
  clearMessages();
  selected = cell;
  focusCell = cell;
  if (kind === "card") {
    ui.cardCell.value = cell;
  } else {
    const field = jumpNext === "end" ? ui.end : ui.start;
    field.value = cell;
    jumpNext = jumpNext === "end" ? "start" : "end";
  }
  showSelected();
  showSelection();
  showClickHelp();
}

let editing = false;

async function edit(body) {
  if (editing) return;
  editing = true;
  try {
    const result = await api("POST", `/api/tycoon/designs/${design.id}/edits`, body);
    design = result.design;
    if (result.applied.grid_changed) dirty = true;
    let words = capital(result.applied.summary) + ".";
    if (body.edit === "clear" && result.applied.grid_changed) words += " Undo brings the old grid back.";
    say(words);
  } catch (e) {
    refuse(`Refused: ${e.message}`);
  } finally {
    editing = false;
  }
  showDesign();
}

function numberIn(input, what) {
  const text = input.value.trim();
  if (!/^\d+$/.test(text)) throw new Error(`${what} is a whole number`);
  return Number(text);
}

function addObject() {
  let body;
  try {
    if (kind === "card") {
      const params = [...ui.cardParams.querySelectorAll("input")].map((i) => numberIn(i, capital(i.dataset.param)));
      body = { edit: "card", number: Number(ui.cardNumber.value), cell: numberIn(ui.cardCell, "The cell"), params };
    } else {
      body = { edit: kind, start: numberIn(ui.start, "The start cell"), end: numberIn(ui.end, "The end cell") };
    }
  } catch (e) {
    refuse(`Refused: ${e.message}.`);
    return;
  }
  jumpNext = "start";
  showClickHelp();
  edit(body);
}

/** Lists the saved grids again (in the designer and the new game's choice). */
async function listSaved(select) {
  let grids;
  try {
    ({ grids } = await api("GET", "/api/tycoon/grids"));
  } catch {
    return;
  }
  const names = grids.map((g) => g.name);
  const same = JSON.stringify(names) === JSON.stringify(savedNames);
  savedNames = names;
  if (!same || select || ui.saved.options.length === 0) {
    const keep = select || ui.saved.value;
    ui.saved.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
    if (names.length === 0) ui.saved.append(el("option", { value: "", disabled: true, selected: true }, "none saved yet"));
    else if (names.includes(keep)) ui.saved.value = keep;
    fillGridChoices();
  }
  ui.load.disabled = names.length === 0;
  ui.deleteSaved.disabled = names.length === 0;
}

let saving = false;

async function saveGrid() {
  if (saving) return;
  clearMessages();
  const name = ui.saveName.value.trim();
  if (!name) {
    fileRefuse("Give the grid a name to save it under.");
    ui.saveName.focus();
    return;
  }
  saving = true;
  ui.save.disabled = true;
  const path = `/api/tycoon/designs/${design.id}/save`;
  try {
    let result;
    try {
      result = await api("POST", path, { name });
    } catch (e) {
      if (!(e instanceof ApiFailure) || e.code !== "grid_exists") throw e;
      const replace = await confirmAction(`A grid called “${name}” is saved already. Replace it with the grid being designed?`, {
        title: "Replace the saved grid?",
        confirm: "Replace it",
        cancel: "Keep the saved one",
      });
      if (!replace) {
        fileSay(`Not saved: “${name}” is kept as it was. Choose another name to keep both.`);
        return;
      }
      result = await api("POST", path, { name, replace: true });
    }
    await listSaved(result.name);
    designName = result.name;
    dirty = false;
    fileSay(`Saved as “${result.name}”.`);
    keepDraft();
    drawGrid();
  } catch (e) {
    fileRefuse(`Not saved: ${e.message}`);
  } finally {
    saving = false;
    ui.save.disabled = false;
  }
}

/** True when going on would lose changes the person has not saved: asks first. */
async function mayReplaceDesign(what) {
  if (!design || !dirty || design.objects.length === 0) return true;
  return confirmAction(
    `${what} replaces the grid being designed, which has changes that are not saved. They will be lost (Save first to keep them).`,
    { title: "Replace the grid being designed?", confirm: "Replace it", cancel: "Keep designing" },
  );
}

async function openDesign(body, what, name) {
  try {
    const opened = await api("POST", "/api/tycoon/designs", body);
    const old = design;
    design = opened;
    designName = name || "a new grid";
    dirty = false;
    selected = null;
    clearMessages();
    showDesign();
    if (what) fileSay(`Loaded ${what}.`);
    if (old && old.id !== design.id) api("DELETE", `/api/tycoon/designs/${old.id}`).catch(() => {});
    return true;
  } catch (e) {
    fileRefuse(e.message);
    return false;
  }
}

async function loadSaved() {
  const name = ui.saved.value;
  if (!name) return;
  clearMessages();
  if (!(await mayReplaceDesign(`Loading “${name}”`))) {
    fileSay("Nothing loaded: the grid being designed is as it was.");
    return;
  }
  ui.load.disabled = true;
  try {
    if (await openDesign({ saved: name }, `“${name}”`, name)) ui.saveName.value = name;
  } finally {
    ui.load.disabled = savedNames.length === 0;
  }
}

async function deleteSaved() {
  const name = ui.saved.value;
  if (!name) return;
  clearMessages();
  const ok = await confirmAction(`Delete the saved grid “${name}”? This cannot be undone (the grid being designed stays).`, {
    title: "Delete the saved grid?",
    confirm: "Delete it",
    cancel: "Keep it",
  });
  if (!ok) return;
  try {
    await api("DELETE", `/api/tycoon/grids/${encodeURIComponent(name)}`);
    fileSay(`Deleted “${name}”.`);
  } catch (e) {
    fileRefuse(e.message);
  }
  await listSaved();
}

/** True when a file's text is not text: NUL bytes, or bytes that are not UTF-8. */
function looksBinary(text) {
  return text.includes("\u0000") || text.includes("\uFFFD");
}

async function uploadGrid() {
  const file = ui.upload.files[0];
  if (!file) return;
  clearMessages();
  try {
    const stem = file.name.replace(/\.[^.]*$/, "");
    if (!(await mayReplaceDesign(`Opening “${file.name}”`))) {
      fileSay("Nothing opened: the grid being designed is as it was.");
      return;
    }
    const text = await readFile(file);
    if (looksBinary(text)) {
      fileRefuse(`“${clip(file.name)}” is not a grid file: it is not text. A grid file is lines of whole numbers (see the grid file format).`);
      return;
    }
    if (await openDesign({ text }, `“${file.name}”`, stem)) ui.saveName.value = stem;
  } finally {
    ui.upload.value = "";
  }
}

function startDesigner() {
  for (const b of ui.kinds) b.addEventListener("click", () => setKind(b.dataset.kind));
  ui.start.addEventListener("focus", () => {
    jumpNext = "start";
    showClickHelp();
  });
  ui.end.addEventListener("focus", () => {
    jumpNext = "end";
    showClickHelp();
  });
  ui.cardNumber.addEventListener("change", () => {
    clearMessages();
    showCardParams();
  });
  ui.add.addEventListener("click", addObject);
  ui.copy.addEventListener("click", () => edit({ edit: "copy", cell: selected }));
  ui.cut.addEventListener("click", () => edit({ edit: "cut", cell: selected }));
  ui.paste.addEventListener("click", () => edit({ edit: "paste", cell: selected }));
  ui.del.addEventListener("click", () => edit({ edit: "delete", cell: selected }));
  ui.undo.addEventListener("click", () => edit({ edit: "undo" }));
  ui.redo.addEventListener("click", () => edit({ edit: "redo" }));
  ui.clear.addEventListener("click", () => {
    designName = "a new grid";
    edit({ edit: "clear" });
  });
  ui.save.addEventListener("click", saveGrid);
  ui.saveName.addEventListener("keydown", (event) => {
    if (event.key === "Enter") saveGrid();
  });
  ui.load.addEventListener("click", loadSaved);
  ui.deleteSaved.addEventListener("click", deleteSaved);
  ui.upload.addEventListener("change", uploadGrid);
  // The saved list may have changed in another tab or on another device:
  // read it again whenever it may be looked at.
  ui.saved.addEventListener("focus", () => listSaved());
  ui.saved.addEventListener("pointerdown", () => listSaved());
  window.addEventListener("focus", () => listSaved());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") listSaved();
  });

  // Mouse and keyboard on the grid.
  ui.grid.addEventListener("click", (event) => {
    const group = event.target.closest("g.cell");
    if (group) clickCell(Number(group.dataset.cell));
  });
  ui.grid.addEventListener("focusin", (event) => showFocus(event.target.closest("g.cell")));
  ui.grid.addEventListener("focusout", () => showFocus(null));
  ui.grid.addEventListener("keydown", (event) => {
    const group = event.target.closest?.("g.cell");
    if (!group) return;
    const cell = Number(group.dataset.cell);
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const object = objectAt(cell);
    // Copy, cut, paste and delete act on the cell the keyboard is on, which
    // they select (without filling the palette, as a click would).
    const select = () => {
      selected = cell;
      showSelected();
      showSelection();
    };
    let handled = true;
    if (event.key === "Enter" || event.key === " ") clickCell(cell);
    else if (moves[event.key]) {
      const [dr, dc] = moves[event.key];
      const next = ui.grid.querySelector(
        `svg g.cell[data-row="${Number(group.dataset.row) + dr}"][data-col="${Number(group.dataset.col) + dc}"]`,
      );
      if (next) {
        focusCell = Number(next.dataset.cell);
        group.setAttribute("tabindex", "-1");
        next.setAttribute("tabindex", "0");
        next.focus();
      }
    } else if ((event.key === "Delete" || event.key === "Backspace") && object) {
      select();
      edit({ edit: "delete", cell });
    } else if (ctrl && key === "c" && object) {
      select();
      edit({ edit: "copy", cell });
    } else if (ctrl && key === "x" && object) {
      select();
      edit({ edit: "cut", cell });
    } else if (ctrl && key === "v" && design.clipboard) {
      select();
      edit({ edit: "paste", cell });
    } else if (ctrl && key === "z" && !event.shiftKey && design.can_undo) edit({ edit: "undo" });
    else if (ctrl && (key === "y" || (key === "z" && event.shiftKey)) && design.can_redo) edit({ edit: "redo" });
    else handled = false;
    if (handled) event.preventDefault();
  });
}

/** Opens the design this browser was working on, or a new one. */
async function openDraft() {
  const draft = readDraft();
  if (draft && draft.id) {
    try {
      design = await api("GET", `/api/tycoon/designs/${draft.id}`);
      designName = draft.name || "a new grid";
      dirty = Boolean(draft.dirty);
      showDesign();
      return;
    } catch {
      // Forgotten by the server (idle for hours, or a restart): from the text.
    }
  }
  if (draft && draft.file) {
    try {
      design = await api("POST", "/api/tycoon/designs", { text: draft.file });
      designName = draft.name || "a new grid";
      dirty = Boolean(draft.dirty);
      showDesign();
      if (design.objects.length) say("The grid you were designing is back (its undo history is not: the server had forgotten it).");
      return;
    } catch {
      // A draft that no longer reads: start afresh.
    }
  }
  design = await api("POST", "/api/tycoon/designs", {});
  designName = "a new grid";
  dirty = false;
  showDesign();
}

// ---------------------------------------------------------------------------
// Play

const play = {
  design: byId("design"),
  section: byId("play"),
  tabDesign: byId("tab-design"),
  tabPlay: byId("tab-play"),
  grid: byId("play-grid"),
  seats: byId("seats"),
  seed: byId("play-seed"),
  turnCap: byId("turn-cap"),
  setup: byId("setup"),
  start: byId("start-game"),
  error: byId("play-error"),
  another: byId("another"),
  newGame: byId("new-game"),
  board: byId("play-board"),
  pictureError: byId("picture-error"),
  gone: byId("gone"),
  tablePanel: byId("table-panel"),
  status: byId("play-status"),
  decision: byId("decision"),
  moveError: byId("move-error"),
  lastMove: byId("last-move"),
  connection: byId("connection"),
  speed: byId("speed"),
  replay: byId("replay"),
  playersPanel: byId("players-panel"),
  seatsState: byId("seats-state"),
  wallets: document.querySelector("#wallets tbody"),
  effects: byId("effects"),
  stations: byId("stations"),
  logPanel: byId("log-panel"),
  log: byId("play-log"),
  mine: byId("mine"),
};

const SPEED_KEY = "parlor.tycoon.speed";
/** Milliseconds per cell walked, and per slide, at each speed. */
const SPEEDS = { step: [170, 480], quick: [70, 220], none: [0, 0] };

/** The match shown (null on the new-game page), and the last one shown. */
let current = null;
let lastMatchId = null;
/** Its seats and invites, its connection, its replay bar. */
let seatsPanel = null;
let connection = null;
let replay = null;
/** The move list (matchui): a look back while on, the replay's steps once over. */
let moves = null;

/** A move of this page on its way. */
let sending = false;
/** True when the answer was given from the buttons by keyboard or click: they keep the focus. */
let keepFocus = false;
/** The kind of attack chosen, while its target is asked. */
let attackKind = null;
/** Where each token is drawn (cells, seat 1 first). */
let shownCells = [1, 1, 1, 1];
/** The view the tables show: the match's, or a replay's step. */
let replayView = null;
/** The replay step asked for last: a step still walking its tokens stops when another is asked for. */
let replayStepAsked = 0;
/** Each route is numbered: a late answer for an old page is dropped. */
let routing = 0;
let chooser = null;
/** The list of this device's games. */
let mine = null;

function speed() {
  return SPEEDS[play.speed.value] ? play.speed.value : "step";
}

function setTabs(which) {
  const playing = which === "play";
  play.section.hidden = !playing;
  play.design.hidden = playing;
  play.tabDesign.removeAttribute("aria-current");
  play.tabPlay.removeAttribute("aria-current");
  (playing ? play.tabPlay : play.tabDesign).setAttribute("aria-current", "page");
  const back = current ? current.id : lastMatchId;
  play.tabPlay.href = back ? `/tycoon/m/${back}` : "/tycoon#play";
}

/** Stops following the match shown. */
function leaveMatch() {
  if (current) {
    current.close();
    lastMatchId = current.id;
  }
  current = null;
  show.reset(0);
  replay = null;
  replayView = null;
  replayStepAsked += 1;
  attackKind = null;
}

// ---- The new game's form ----

async function fillGridChoices() {
  const before = play.grid.value;
  const options = [
    el("option", { value: "design" }, `The grid being designed (${designName})`),
    el("option", { value: "sample" }, "The original assignment's sample grid"),
    ...savedNames.map((n) => el("option", { value: `saved:${n}` }, `Saved: ${n}`)),
    el("option", { value: "empty" }, "An empty grid"),
  ];
  play.grid.replaceChildren(...options);
  if ([...play.grid.options].some((o) => o.value === before)) play.grid.value = before;
}

let previewing = 0;

/** On the new-game page, the chosen grid is drawn where the game will be. */
async function previewGrid() {
  if (current) return;
  const number = ++previewing;
  const choice = play.grid.value || "design";
  let svg;
  try {
    if (choice === "design" && design) {
      svg = await api("GET", `/api/tycoon/designs/${design.id}/svg`);
    } else if (choice === "sample") {
      svg = await api("GET", "/api/tycoon/sample.svg");
    } else {
      const body = choice.startsWith("saved:") ? { saved: choice.slice(6) } : {};
      const temp = await api("POST", "/api/tycoon/designs", body);
      svg = await api("GET", `/api/tycoon/designs/${temp.id}/svg`);
      api("DELETE", `/api/tycoon/designs/${temp.id}`).catch(() => {});
    }
  } catch (e) {
    if (number === previewing) play.pictureError.textContent = clip(e.message);
    return;
  }
  if (number !== previewing || current) return;
  play.pictureError.textContent = "";
  const picture = inline(play.board, svg);
  if (!picture) return;
  cropToGrid(picture);
  picture.setAttribute("role", "img");
  const label = play.grid.selectedOptions[0]?.textContent || "the grid";
  picture.setAttribute("aria-label", `The grid the new game will be played on: ${label}`);
  picture.querySelector(":scope > title")?.remove();
}

function setupRequest() {
  const choice = play.grid.value;
  const setup = {};
  if (choice === "design") setup.design = design.id;
  else if (choice === "sample") setup.sample = true;
  else if (choice.startsWith("saved:")) setup.saved = choice.slice(6);
  const cap = play.turnCap.value.trim();
  if (cap) {
    if (!/^\d+$/.test(cap) || Number(cap) < 1) throw new Error("The turn cap is a whole number of turns, 1 or more (or leave it empty).");
    setup.turn_cap = Number(cap);
  }
  const seats = chooser.plans();
  const request = { setup, seats };
  const seed = readSeed(play.seed.value);
  if (seed !== undefined) {
    if (seats.some((s) => s === "open" || s === "anyone")) {
      throw new Error("A game with a friend's or anyone's seat draws its own seed, so that nobody knows the dice: leave the seed empty.");
    }
    request.seed = seed;
  }
  return request;
}

let starting = false;

async function startGame() {
  if (starting) return;
  play.error.textContent = "";
  let request;
  try {
    request = setupRequest();
  } catch (e) {
    play.error.textContent = e.message;
    return;
  }
  if (current && current.view && current.view.status === "playing" && current.mySeats().length > 0) {
    const ok = await confirmAction(
      "Start a new game? The game you are playing is kept on the server: its address (Back, or Your games) brings it back.",
      { title: "Leave this game for a new one?", confirm: "Start a new game", cancel: "Back to the game" },
    );
    if (!ok) return;
  }
  starting = true;
  play.start.disabled = true;
  try {
    const made = await Match.create("tycoon", request);
    leaveMatch();
    await showMatch(made, ++routing);
  } catch (e) {
    play.error.textContent = clip(e.message);
  } finally {
    starting = false;
    play.start.disabled = false;
  }
}

// ---- The board ----

/** The tokens' layer, over the picture. */
function tokenLayer() {
  return play.board.querySelector("svg g.ty-tokens");
}

/** Fetches the match's picture once: the grid; this page draws the rest. */
async function drawMatchBoard(m, route) {
  let svg;
  try {
    svg = await api("GET", `/api/matches/${m.id}/svg`);
  } catch (e) {
    play.pictureError.textContent = clip(e.message);
    return;
  }
  if (route !== routing) return;
  play.pictureError.textContent = "";
  const picture = inline(play.board, svg);
  if (!picture) return;
  // The players are in the page's own table, by name and colour.
  for (const entry of picture.querySelectorAll("g.legend g.legend-entry")) {
    if (/^P\d/.test(entry.textContent.trim())) entry.remove();
  }
  cropToGrid(picture);
  picture.querySelector(":scope > title")?.remove();
  picture.setAttribute("role", "img");
  // The owners' rings are this page's: they follow the moves and replays.
  for (const r of picture.querySelectorAll("g.cell rect.owner")) r.remove();
  for (const g of picture.querySelectorAll("g.cell[data-owner]")) g.removeAttribute("data-owner");
  const owners = svgEl("g", { class: "ty-owners", "aria-hidden": "true" });
  const layer = svgEl("g", { class: "ty-tokens", "aria-hidden": "true" });
  picture.append(owners, layer);
  for (let seat = 1; seat <= 4; seat += 1) {
    const token = svgEl("g", { class: `ty-token p${seat}`, "data-player": seat });
    token.append(svgEl("circle", { r: 10 }), svgEl("text", { "text-anchor": "middle", "dominant-baseline": "central" }));
    token.querySelector("text").textContent = String(seat);
    layer.append(token);
  }
  placeAll(false);
}

function boardCell(cell) {
  return play.board.querySelector(`svg g.cell[data-cell="${cell}"]`);
}

/**
 * Puts every token where `shownCells` says: tokens sharing a cell share it
 * (one large in the middle, two side by side, three or four in its
 * corners). `moving` sets how long the slide takes (0: at once).
 */
function placeAll(animate = true, duration = 0) {
  const layer = tokenLayer();
  if (!layer) return;
  const byCell = new Map();
  shownCells.forEach((cell, i) => {
    if (!byCell.has(cell)) byCell.set(cell, []);
    byCell.get(cell).push(i + 1);
  });
  for (const [cell, seats] of byCell) {
    const group = boardCell(cell);
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
}

/** Draws the station owners' rings, as the view says. */
function showOwners(view) {
  const layer = play.board.querySelector("svg g.ty-owners");
  if (!layer) return;
  layer.replaceChildren();
  for (const g of play.board.querySelectorAll("svg g.cell[data-owner]")) g.removeAttribute("data-owner");
  for (const o of view.view.owners || []) {
    if (!o.owner) continue;
    for (const g of play.board.querySelectorAll(`svg g.cell[data-card="${o.station}"]`)) {
      g.dataset.owner = String(o.owner);
      layer.append(ring(g, `owner p${o.owner}`, 2.5));
    }
  }
}

function showCurrent(view) {
  const layer = tokenLayer();
  if (!layer) return;
  const to = view.status === "playing" ? view.view.current : null;
  for (const token of layer.querySelectorAll("g.ty-token")) {
    token.classList.toggle("current", Number(token.dataset.player) === to);
  }
}

/** The board in words, for those who do not see it. */
function boardLabel(view) {
  const picture = play.board.querySelector("svg");
  if (!picture) return;
  const where = view.view.players.map((p) => `${seatName(p.seat)} on cell ${p.cell}`).join(", ");
  picture.setAttribute("aria-label", `The game on its grid: ${where}.`);
}

/** Walks one move's tokens: the cells the die counted, then each slide. */
async function animateMove(played, behind, still = () => true) {
  const [step, slide] = SPEEDS[speed()];
  const fast = step === 0 || behind > 6 || document.hidden;
  for (const e of played.events || []) {
    const seat = e.player;
    if (e.event === "moved" && e.cause === "dice" && e.to > e.from && !fast) {
      for (let cell = e.from + 1; cell <= e.to; cell += 1) {
        shownCells[seat - 1] = cell;
        placeAll(true, step);
        await sleep(step);
        if (!still()) return;
      }
    } else if (e.event === "moved" || e.event === "ladder" || e.event === "snake") {
      shownCells[seat - 1] = e.to;
      placeAll(!fast, slide);
      if (!fast) await sleep(slide);
      if (!still()) return;
    }
  }
}

// ---- Following the match ----

/**
 * The moves shown one after another (moveshow.js): each logged and said,
 * then its tokens walked; with reduced motion, in a hidden tab or skipped,
 * at once. The tables follow once the show is over.
 */
const show = new MoveShow({
  async step(p, how) {
    appendLog(p);
    play.lastMove.textContent = moveWords(p);
    if (!replayView && !how.quick) await animateMove(p, how.behind, how.still);
  },
  onBusy() {
    document.body.dataset.idle = "false";
  },
  onIdle() {
    if (current) render();
  },
});

function moveWords(p) {
  const texts = (p.events || []).map((e) => named(e.text)).filter(Boolean);
  return `${p.bot ? `${playerName(p.seat)} (bot)` : playerName(p.seat)}: ${texts.join("; ")}.`;
}

function appendLog(p) {
  for (const e of p.events || []) {
    const cls = e.event === "won" ? "won" : e.event === "ladder" ? "ladder" : e.event === "snake" ? "chute" : "";
    play.log.append(el("li", { class: cls, dataset: { event: e.event, number: p.number } }, named(e.text)));
  }
  while (play.log.children.length > 1000) play.log.firstChild.remove();
  play.log.scrollTop = play.log.scrollHeight;
}

function seatWords(p, view) {
  if (p.kind === "bot") return `${p.level || "normal"} bot`;
  if (p.yours) return view.players.filter((q) => q.yours).length > 1 ? "here (you)" : "you";
  switch (p.state) {
    case "here":
      return "at the maker's screen";
    case "open":
      return "waiting for a friend";
    case "anyone":
      return "waiting for anyone";
    default:
      return "a person";
  }
}

function effectsOf(p) {
  const parts = [];
  if (p.lost_turns) parts.push(`loses ${p.lost_turns} turn${p.lost_turns > 1 ? "s" : ""}`);
  if (p.fire_turns) parts.push(`burning ${p.fire_turns} turn${p.fire_turns > 1 ? "s" : ""}`);
  if (p.poison_turns) parts.push(`poisoned ${p.poison_turns} turn${p.poison_turns > 1 ? "s" : ""}`);
  return parts;
}

/** The players' table, effects and stations, for `view` (a match view). */
function showTables(view) {
  const game = view.view;
  // A replay's step has no seats of its own: they are the match's.
  const seats = view.players || (current && current.view.players) || [];
  play.wallets.replaceChildren(
    ...game.players.map((p) => {
      const seat = seats.find((s) => s.seat === p.seat) || { kind: "person" };
      const cls = p.seat === game.winner ? "winner" : p.seat === game.current && view.status === "playing" ? "current" : "";
      return el(
        "tr",
        { class: cls, dataset: { player: p.seat } },
        el("td", {}, swatch(p.seat), el("span", { class: "name" }, playerName(p.seat)), " ", el("span", { class: "note" }, seatWords(seat, view))),
        el("td", { class: "cell" }, p.cell),
        el("td", { class: "coins" }, p.coins),
        el("td", { class: "turns" }, p.turns),
      );
    }),
  );
  play.effects.replaceChildren(
    ...game.players.map((p) => {
      const attacks = p.attacks_left.length ? `attacks left: ${p.attacks_left.join(", ")}` : "no attacks left";
      return el("p", {}, swatch(p.seat), `${playerName(p.seat)}: `, [...effectsOf(p), attacks].join("; "));
    }),
  );
  play.stations.replaceChildren(
    ...game.owners.map((o) =>
      el("li", {}, `Station ${o.station} (price ${o.price}, fee ${o.fee}): `, o.owner ? `owned by ${seatName(o.owner)}` : "for sale"),
    ),
  );
  if (game.owners.length === 0) play.stations.append(el("li", {}, "none on this grid"));
}

/** The answers' buttons, numbered for the keys 1 to 9. */
function answerButton(label, detail, onclick, extra = {}) {
  return el(
    "button",
    { type: "button", class: `answer ${extra.class || ""}`.trim(), dataset: extra.dataset || {}, onclick },
    el("span", { class: "ty-key", "aria-hidden": "true" }),
    el(
      "span",
      { class: "words" },
      el("span", { class: "label" }, extra.seat ? swatch(extra.seat) : null, label),
      detail ? el("span", { class: "detail" }, detail) : null,
    ),
  );
}

function numberButtons() {
  const buttons = [...play.decision.querySelectorAll("button.answer, button.back")];
  let n = 0;
  for (const b of buttons) {
    const key = b.querySelector(".ty-key");
    if (b.classList.contains("back")) {
      b.setAttribute("aria-keyshortcuts", "Escape");
      if (key) key.textContent = "Esc";
      continue;
    }
    n += 1;
    if (n <= 9) {
      b.setAttribute("aria-keyshortcuts", String(n));
      if (key) key.textContent = String(n);
    }
  }
}

/** The status line and the buttons, for the match as it stands. */
function showDecision(m) {
  const view = m.view;
  const page = view.page || {};
  const hadFocus = keepFocus || play.decision.contains(document.activeElement) || document.activeElement === play.status;
  const parts = [];
  let status;
  play.status.classList.toggle("win", view.status === "won" && view.result?.you_won !== false);
  if (view.status !== "playing") {
    // The result in the match's own words ("You win", "You lost: Ada
    // wins"), then how it came about.
    const how = page.outcome ? named(page.outcome) : view.status === "stalled" ? `The game stopped: ${view.reason || "no winner"}.` : "";
    status = view.result ? `${view.result.words}. ${how}`.trim() : how || "The game is over.";
    play.status.dataset.winner = view.winner ? String(view.winner) : "";
  } else {
    play.status.dataset.winner = "";
    const to = view.to_move;
    const seat = (view.players || []).find((p) => p.seat === to) || {};
    const mine = m.myTurn();
    if (mine && page.question) {
      status = named(page.question);
      if (attackKind) {
        const choice = (page.attacks || []).find((a) => a.attack === attackKind);
        if (choice) status = `${playerName(to)}: ${choice.label.toLowerCase()} on whom? ${capital(named(choice.detail))}.`;
        else attackKind = null;
      }
    } else if (seat.state === "open") {
      status = view.host
        ? `Waiting for ${seatName(to)}: send your friend the seat's invite link (under Players).`
        : `Waiting for ${seatName(to)}'s friend to come.`;
    } else if (seat.state === "anyone") {
      status = `Waiting for someone to take ${seatName(to)}'s seat from the lobby.`;
    } else {
      status = `${page.question ? named(page.question) : `${playerName(to)} to play.`} (${seat.kind === "bot" ? "a bot, on the server" : "waiting for them"})`;
    }
    if (mine && !show.busy) {
      const answers = page.moves || [];
      const send = (answer) => (event) => sendMove(answer, event);
      if (attackKind) {
        const choice = (page.attacks || []).find((a) => a.attack === attackKind);
        for (const a of answers.filter((x) => x.attack === attackKind)) {
          parts.push(answerButton(seatName(a.target), named(a.detail), send(a), { seat: a.target, dataset: { move: a.text } }));
        }
        parts.push(
          el(
            "button",
            { type: "button", class: "secondary back", onclick: () => chooseKind(null) },
            el("span", { class: "ty-key", "aria-hidden": "true" }),
            el("span", { class: "words" }, el("span", { class: "label" }, `Back (not ${choice ? choice.label.toLowerCase() : "this"})`)),
          ),
        );
      } else {
        for (const a of answers.filter((x) => !x.attack)) {
          parts.push(answerButton(a.label, a.detail, send(a), { dataset: { move: a.text } }));
        }
        for (const k of page.attacks || []) {
          const direct = answers.find((x) => x.attack === k.attack && !k.needs_target);
          if (direct) {
            parts.push(answerButton(direct.label, direct.detail, send(direct), { class: "attack", dataset: { move: direct.text } }));
          } else {
            parts.push(
              answerButton(`${k.label}…`, k.detail, () => chooseKind(k.attack), {
                class: "attack kind",
                dataset: { attack: k.attack },
              }),
            );
          }
        }
      }
    }
  }
  play.status.textContent = status;
  play.decision.replaceChildren(...parts);
  numberButtons();
  if (hadFocus) {
    keepFocus = false;
    const first = play.decision.querySelector("button");
    if (first) first.focus();
    else {
      // No answers now: the line saying whom the game waits for holds the
      // focus, and gives it to the answers when they come back.
      play.status.setAttribute("tabindex", "-1");
      play.status.focus();
    }
  }
}

function chooseKind(kindChosen) {
  if (!current || sending) return;
  attackKind = kindChosen;
  play.moveError.textContent = "";
  showDecision(current);
  play.decision.querySelector("button")?.focus();
}

/** Sends one answer for this device's seat. */
async function sendMove(answer, event) {
  // The second click of a double click is not a second move: the first
  // one's answer may already have put the next person's buttons here.
  if (event && event.detail > 1) return;
  const m = current;
  if (!m || sending) return;
  sending = true;
  // A disabled button loses the focus: the buttons drawn next take it back.
  keepFocus = play.decision.contains(document.activeElement);
  document.body.dataset.idle = "false";
  for (const b of play.decision.querySelectorAll("button")) b.disabled = true;
  play.moveError.textContent = "";
  try {
    const result = await m.move(answer.text);
    if (result) {
      attackKind = null;
      show.push(result.played);
    }
  } catch (e) {
    attackKind = null;
    if (e instanceof ApiFailure && e.code === "stale_move") {
      play.moveError.textContent = "The game had moved on before that answer arrived: here it is now.";
    } else {
      play.moveError.textContent = clip(e.message);
    }
    if (m === current) show.caughtUp(m.view.moves);
  } finally {
    sending = false;
  }
  if (m === current) show.run();
}

/** Everything about the match shown, once the moves have been animated. */
function render() {
  const m = current;
  if (!m || !m.view) return;
  const view = replayView || m.view;
  play.tablePanel.hidden = false;
  play.connection.hidden = m.view.status !== "playing";
  play.playersPanel.hidden = false;
  play.logPanel.hidden = false;
  play.another.hidden = false;
  if (!replayView) {
    shownCells = view.view.players.map((p) => p.cell);
    placeAll(true, 200);
  }
  showOwners(view);
  showCurrent(view);
  boardLabel(view);
  showTables(view);
  showDecision(m);
  if (seatsPanel) seatsPanel.update();
  if (moves) moves.update();
  if (m.view.status !== "playing" && !replay) {
    play.replay.hidden = false;
    replay = replayBar(play.replay, m, showReplayStep);
  }
  document.body.dataset.moves = String(m.view.moves);
  document.body.dataset.status = m.view.status;
  // For whoever waits on the page (and its tests): nothing left to show.
  document.body.dataset.idle = String(!show.busy && !sending);
}

/** One step of a finished game's replay. */
async function showReplayStep(step) {
  const m = current;
  if (!m) return;
  const asked = ++replayStepAsked;
  const still = () => asked === replayStepAsked && m === current;
  const total = m.view.moves;
  const before = replayView ? replayView.moves : total;
  replayView = step.at === total ? null : step.view;
  const view = replayView || m.view;
  if (step.played && step.at === before + 1) {
    await animateMove(step.played, 0, still);
    // Another step was asked for while this one walked: it shows itself.
    if (!still()) return;
  }
  shownCells = view.view.players.map((p) => p.cell);
  placeAll(true, 200);
  showOwners(view);
  showCurrent(view);
  boardLabel(view);
  showTables(view);
  play.lastMove.textContent = step.played ? moveWords(step.played) : "The start: every token on cell 1.";
}

function onChange({ played }) {
  if (!current) return;
  show.push(played);
}

/** Shows match `m` (just made, or opened from the address). */
async function showMatch(m, route) {
  current = m;
  setTabs("play");
  play.gone.replaceChildren();
  play.setup.hidden = true;
  play.another.hidden = false;
  play.log.replaceChildren();
  for (const line of m.view.log || []) {
    play.log.append(el("li", { dataset: { number: line.number } }, withNames(m.view, line.text)));
  }
  play.lastMove.textContent = "";
  play.moveError.textContent = m.joinError ? `That invite could not be used: ${clip(m.joinError.message)}` : "";
  show.reset(m.view.moves);
  shownCells = m.view.view.players.map((p) => p.cell);
  replay = null;
  replayView = null;
  replayStepAsked += 1;
  play.replay.hidden = true;
  play.replay.replaceChildren();
  seatsPanel = invitePanel(play.seatsState, m, { seatName });
  byId("moves-panel").hidden = false;
  moves = moveList(byId("moves-panel"), m, { onPick: (n) => replay && replay.go(n) });
  connection = connectionStatus(play.connection, m);
  await drawMatchBoard(m, route);
  if (route !== routing || current !== m) return;
  // Followed after the end too: a player's rematch is told live.
  m.watch(onChange, (state) => connection.set(state));
  render();
  document.body.dataset.match = m.id;
  document.title = `${m.view.title || "A game"} · Parlor`;
  if (mine) mine.refresh();
}

async function openMatchPage(id, route) {
  setTabs("play");
  play.setup.hidden = true;
  play.another.hidden = true;
  play.tablePanel.hidden = true;
  play.playersPanel.hidden = true;
  play.logPanel.hidden = true;
  byId("moves-panel").hidden = true;
  play.replay.hidden = true;
  play.gone.replaceChildren();
  play.board.replaceChildren();
  let m;
  try {
    m = await Match.open("tycoon", id);
  } catch (e) {
    if (route !== routing) return;
    gonePanel(play.gone, "tycoon", e);
    document.title = "No such game · Snakes & Ladders Tycoon · Parlor";
    play.setup.hidden = false;
    fillGridChoices();
    previewGrid();
    document.body.dataset.match = "gone";
    return;
  }
  if (route !== routing) {
    m.close();
    return;
  }
  await showMatch(m, route);
}

const PAGE_TITLE = document.title;

function showNewGame() {
  setTabs("play");
  document.title = `New game · ${PAGE_TITLE}`;
  play.gone.replaceChildren();
  play.setup.hidden = false;
  play.another.hidden = true;
  play.tablePanel.hidden = true;
  play.playersPanel.hidden = true;
  play.logPanel.hidden = true;
  byId("moves-panel").hidden = true;
  play.replay.hidden = true;
  fillGridChoices();
  previewGrid();
  listSaved();
  if (mine) mine.refresh();
  delete document.body.dataset.match;
}

/** Shows what the address names: the designer, the new game, or a match. */
function route() {
  const number = ++routing;
  const id = matchIdFromPath();
  if (!id || (current && current.id !== id)) leaveMatch();
  if (id) {
    if (current && current.id === id) {
      setTabs("play");
      return;
    }
    openMatchPage(id, number);
  } else if (location.hash === "#play") {
    showNewGame();
  } else {
    setTabs("design");
    document.title = PAGE_TITLE;
    listSaved();
  }
}

function startPlay() {
  chooser = seatChooser(play.seats, {
    game: "tycoon",
    min: INFO?.min_seats,
    max: INFO?.max_seats,
    botLevels: INFO?.bot_levels,
    defaults: defaultPlans(INFO),
    seatName,
    legend: "Who plays each seat",
  });
  try {
    const saved = localStorage.getItem(SPEED_KEY);
    if (saved && SPEEDS[saved]) play.speed.value = saved;
  } catch {
    // No storage: the default speed.
  }
  play.speed.addEventListener("change", () => {
    try {
      localStorage.setItem(SPEED_KEY, play.speed.value);
    } catch {
      // Kept for this page only.
    }
  });
  play.grid.addEventListener("change", previewGrid);
  const more = byId("more-toggle");
  more.addEventListener("click", () => {
    const open = more.getAttribute("aria-expanded") !== "true";
    more.setAttribute("aria-expanded", String(open));
    byId("more").hidden = !open;
  });
  play.start.addEventListener("click", startGame);
  play.newGame.addEventListener("click", () => {
    play.setup.hidden = !play.setup.hidden;
    if (!play.setup.hidden) {
      fillGridChoices();
      listSaved();
      play.grid.focus();
    }
  });
  // The tabs change the page without reloading it; Back and Forward too.
  for (const tab of [play.tabDesign, play.tabPlay]) {
    tab.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      const url = tab.getAttribute("href");
      if (url !== location.pathname + location.hash) history.pushState(null, "", url);
      route();
    });
  }
  window.addEventListener("popstate", route);
  // Keys: 1–9 choose the numbered answers; Escape goes back from a target.
  document.addEventListener("keydown", (event) => {
    if (play.section.hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, dialog, [role='toolbar'], .replay-bar")) return;
    if (event.key === "Escape" && attackKind) {
      event.preventDefault();
      chooseKind(null);
      return;
    }
    if (!/^[1-9]$/.test(event.key)) return;
    const button = play.decision.querySelector(`button[aria-keyshortcuts="${event.key}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });
  mine = yourGames(play.mine, { empty: "None yet: a game you start or join shows here, and its address brings it back." });
}

async function main() {
  startDesigner();
  startPlay();
  cards = await api("GET", "/api/tycoon/cards");
  ui.cardNumber.replaceChildren(...cards.map((c) => el("option", { value: c.number }, `${c.number} · ${c.name}`)));
  showClickHelp();
  await listSaved();
  await openDraft();
  fillGridChoices();
  route();
  document.body.dataset.ready = "true";
}

main().catch((e) => refuse(e.message));
