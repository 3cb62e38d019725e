// Snakes & Ladders Tycoon: the grid designer.
//
// Terms:
// - design: a grid being built on the server (its undo history and
//   clipboard too); every edit is sent there and the library's one
//   validator accepts or refuses it with its reason. This browser keeps the
//   design's id and its file text as a draft, so that a reload (or a
//   server restart, which forgets designs) brings the work back.
// - saved grid: a grid kept in the server's store under a name, which the
//   game's page offers as a board; when the list changes this module tells
//   the page with a "tycoon-grids" event on the document.
// No rule of the game is here: the server's validator says what a grid may
// hold.
import { api, el, byId, readFile, download, ApiFailure } from "/static/common.js";
import { confirmAction } from "/static/matchui.js";
import { capital, clip, cropToGrid, inline, ring, svgEl } from "/static/tycoon-pictures.js";

/** Tells the game's page that the saved grids or the design changed. */
function gridsChanged() {
  document.dispatchEvent(new CustomEvent("tycoon-grids"));
}

/** Reads the cards the designer offers (GET /api/tycoon/cards). */
export async function loadCards() {
  cards = await api("GET", "/api/tycoon/cards");
  ui.cardNumber.replaceChildren(...cards.map((c) => el("option", { value: c.number }, `${c.number} · ${c.name}`)));
  showClickHelp();
}

export const ui = {
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
export let design = null;
/** Card numbers and their parameters, from the server. */
export let cards = [];
/** UI state, beside the document: what is being added, the selected cell. */
let kind = "ladder";
let selected = null;
/** Which box a click on the grid fills for a ladder or a snake. */
let jumpNext = "start";
/** What the pictures call the grid being designed. */
export let designName = "a new grid";
/** True when the grid has changes not saved under a name. */
let dirty = false;
/** The cell the keyboard rests on in the grid. */
let focusCell = 1;
/** Each drawing is numbered so that a late answer cannot replace a newer one. */
let drawingGrid = 0;
/** Saved grids' names, as last listed. */
export let savedNames = [];

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

export function refuse(message) {
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
export function showClickHelp() {
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
export async function listSaved(select) {
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
    gridsChanged();
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

/** Seconds a game with hard seats takes on the server's one thread, about
 * (each move is a search: 8 games in 20 s on the 2-core machine). */
const HARD_GAME_SECONDS = 2.5;
/** The most a balance check plays on the server before it reports. */
const BALANCE_SECONDS = 20;

/** "normal ×4" or "hard, normal, normal, normal": the levels as asked. */
function levelWords(seats) {
  const name = { bot: "normal", random: "easy", hard: "hard", human: "person" };
  const names = seats.map((s) => name[s] || s);
  return names.every((n) => n === names[0]) ? `${names[0]} ×${names.length}` : names.join(", ");
}

/** The verdict in words, read from the intervals. */
function verdictWords(report) {
  const points = (x) => `${(x * 100).toFixed(1)} points`;
  switch (report.verdict.verdict) {
    case "balanced":
      return `Balanced: even the widest spread the intervals allow is within ${points(report.margin)}.`;
    case "unbalanced":
      return `Unbalanced: even the narrowest spread the intervals allow is more than ${points(report.margin)}.`;
    default:
      return `Not enough games to tell: about ${report.verdict.more_games.toLocaleString("en")} more are needed.`;
  }
}

/** POST /api/tycoon/designs/{id}/balance and the report in words. */
async function checkBalance() {
  const status = byId("balance-status");
  const error = byId("balance-error");
  const result = byId("balance-result");
  const go = byId("balance-go");
  error.textContent = "";
  result.replaceChildren();
  if (!design) return;
  const games = Number(byId("balance-games").value);
  const seats = byId("balance-seats").value.trim() || "normal";
  const hard = seats.split(",").filter((s) => s.trim().toLowerCase() === "hard").length;
  // Hard seats search every move: say about how long before starting.
  const estimate = hard ? Math.min(BALANCE_SECONDS, Math.ceil(games * HARD_GAME_SECONDS)) : 0;
  status.textContent = hard
    ? `Playing with hard seats: about ${estimate} s (the check stops after ${BALANCE_SECONDS} s with the games played)…`
    : "Playing…";
  go.disabled = true;
  try {
    const report = await api("POST", `/api/tycoon/designs/${encodeURIComponent(design.id)}/balance`, {
      games,
      seats,
      margin: Number(byId("balance-margin").value),
    });
    status.textContent = verdictWords(report);
    const played = report.stopped ? `${report.games} of ${games} games played (time was up)` : `${report.games} games`;
    result.append(el("li", {}, `${played}, seats ${levelWords(report.seats)}, spread ${(report.spread * 100).toFixed(1)} points.`));
    report.win_rate.forEach((rate, i) => {
      result.append(
        el("li", {}, `Seat ${i + 1}: wins ${(rate * 100).toFixed(1)}% ± ${(report.win_margin95[i] * 100).toFixed(1)} points`),
      );
    });
  } catch (e) {
    status.textContent = "";
    error.textContent = e.message;
  } finally {
    go.disabled = false;
  }
}

export function startDesigner() {
  byId("balance-go").addEventListener("click", checkBalance);
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
export async function openDraft() {
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
