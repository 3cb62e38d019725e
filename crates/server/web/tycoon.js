// Snakes & Ladders Tycoon: design a grid (and play it). Every edit is sent to
// the server, whose library checks it against the grid's rules; a refused
// edit comes back with its reason, shown beside the grid. The grid and the
// game are Parlor's own pictures (render's SVG): this page finds the cells in
// them by their data-cell attributes and makes them clickable.
import { api, el, byId, showError, readFile, sleep, readSeed, count } from "/static/common.js";

const SVG_NS = "http://www.w3.org/2000/svg";

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
  return ["x", "y", "width", "height"].map((a) => Number(rect.getAttribute(a)));
}

/** A rectangle `inset` inside a cell, with `cls`, for a layer over the picture. */
function ring(group, cls, inset) {
  const [x, y, w, h] = cellBox(group);
  const r = document.createElementNS(SVG_NS, "rect");
  const attrs = { x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, rx: 3, class: cls };
  for (const [k, v] of Object.entries(attrs)) r.setAttribute(k, String(v));
  return r;
}

const ui = {
  kinds: [...document.querySelectorAll("#palette [data-kind]")],
  jumpFields: byId("jump-fields"),
  cardFields: byId("card-fields"),
  start: byId("start"),
  end: byId("end"),
  cardNumber: byId("card-number"),
  cardCell: byId("card-cell"),
  cardParams: byId("card-params"),
  add: byId("add"),
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
  download: byId("download"),
  upload: byId("upload"),
  fileError: byId("file-error"),
  fileDone: byId("file-done"),
  objects: byId("objects"),
};

/** The design as the server last described it. */
let design = null;
/** Card numbers and their parameters, from the server. */
let cards = [];
/** UI state, beside the document: what is being added, the selected cell. */
let kind = "ladder";
let selected = null;
let fillNext = null;
/** What the pictures call the grid being designed. */
let designName = "a new grid";
/** The cell the keyboard rests on in the grid. */
let focusCell = 1;
/** Each drawing is numbered so that a late answer cannot replace a newer one. */
let drawingGrid = 0;

function say(message) {
  showError(ui.refusal, "");
  ui.done.textContent = message || "";
}

function refuse(message) {
  ui.done.textContent = "";
  showError(ui.refusal, message);
}

function objectAt(cell) {
  return design ? design.objects.find((o) => o.home === cell) : undefined;
}

function cellEl(box, cell) {
  return box.querySelector(`svg g.cell[data-cell="${cell}"]`);
}

/** Fetches the design's picture and shows it, with the selection. */
async function drawGrid() {
  const number = ++drawingGrid;
  const path = `/api/tycoon/designs/${design.id}/svg?name=${encodeURIComponent(designName)}`;
  let svg;
  try {
    svg = await api("GET", path);
  } catch (e) {
    if (number === drawingGrid) showError(ui.gridError, e.message);
    return;
  }
  if (number !== drawingGrid) return;
  showError(ui.gridError, "");
  const hadFocus = ui.grid.contains(document.activeElement);
  const picture = inline(ui.grid, svg);
  if (!picture) return;
  for (const g of picture.querySelectorAll("g.cell")) {
    const cell = Number(g.dataset.cell);
    g.setAttribute("role", "button");
    g.setAttribute("tabindex", cell === focusCell ? "0" : "-1");
    g.setAttribute("aria-label", g.querySelector("title")?.textContent || `cell ${cell}`);
  }
  showSelected();
  if (hadFocus) cellEl(ui.grid, focusCell)?.focus();
}

/** Marks the selected cell: a class on its group, and a ring over the picture. */
function showSelected() {
  const picture = ui.grid.querySelector("svg");
  if (!picture) return;
  for (const g of picture.querySelectorAll("g.cell.selected")) {
    g.classList.remove("selected");
    g.setAttribute("aria-pressed", "false");
  }
  picture.querySelector("g.selection")?.remove();
  const group = selected ? cellEl(ui.grid, selected) : null;
  if (!group) return;
  group.classList.add("selected");
  group.setAttribute("aria-pressed", "true");
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "selection");
  layer.append(ring(group, "selection-ring", 2.5));
  picture.append(layer);
}

/** A dashed ring round the cell the keyboard is on. */
function showFocus(group) {
  const picture = ui.grid.querySelector("svg");
  picture?.querySelector("g.focus")?.remove();
  if (!picture || !group || !group.matches(":focus-visible")) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "focus");
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
  showCardParams();
  showSelection();
}

function showSelection() {
  const o = selected ? objectAt(selected) : undefined;
  ui.selection.textContent = selected ? `Cell ${selected} selected${o ? `: ${o.text}` : " (empty)"}.` : "No cell selected.";
  ui.copy.disabled = !o;
  ui.cut.disabled = !o;
  ui.del.disabled = !o;
  ui.paste.disabled = !selected || !design.clipboard;
}

function setKind(next) {
  kind = next;
  for (const b of ui.kinds) b.setAttribute("aria-pressed", String(b.dataset.kind === kind));
  ui.jumpFields.hidden = kind === "card";
  ui.cardFields.hidden = kind !== "card";
  fillNext = null;
}

/** The chosen card number's fields, as the design view's `card_forms` say:
 * a station's price and fee only for the first card of its number, the
 * group's terms shown for the next ones. Redrawn only when they change, so
 * typed values stay. */
function showCardParams() {
  const number = Number(ui.cardNumber.value);
  const form = design && design.card_forms ? design.card_forms.find((f) => f.number === number) : undefined;
  const info = cards.find((c) => c.number === number);
  const asks = form ? form.asks : info ? info.params : [];
  const key = JSON.stringify([number, asks, form ? form.terms : null]);
  if (ui.cardParams.dataset.form === key) return;
  ui.cardParams.dataset.form = key;
  const fields = asks.flatMap((p) => [
    el("label", { for: `param-${p}` }, p[0].toUpperCase() + p.slice(1)),
    el("input", { type: "number", id: `param-${p}`, min: "0", dataset: { param: p }, onfocus: (e) => { fillNext = e.target; } }),
  ]);
  if (form && form.terms) {
    fields.push(el("p", { class: "note", id: "card-terms" },
      `Station ${number} is on the grid already: this card joins its group, at price ${form.terms.price} and fee ${form.terms.fee}.`));
  }
  ui.cardParams.replaceChildren(...fields);
}

function clickCell(cell) {
  selected = cell;
  focusCell = cell;
  // Fill the palette field the person is on (the start or cell by default).
  let field = fillNext;
  if (!field || field.closest("[hidden]")) field = kind === "card" ? ui.cardCell : ui.start;
  field.value = cell;
  if (field === ui.start) fillNext = ui.end;
  else if (field === ui.end) fillNext = ui.start;
  showSelected();
  showSelection();
}

async function edit(body) {
  try {
    const result = await api("POST", `/api/tycoon/designs/${design.id}/edits`, body);
    design = result.design;
    say(result.applied.summary[0].toUpperCase() + result.applied.summary.slice(1) + ".");
  } catch (e) {
    refuse(`Refused: ${e.message}`);
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
      const params = [...ui.cardParams.querySelectorAll("input")].map((i) => numberIn(i, i.dataset.param));
      body = { edit: "card", number: Number(ui.cardNumber.value), cell: numberIn(ui.cardCell, "the cell"), params };
    } else {
      body = { edit: kind, start: numberIn(ui.start, "the start cell"), end: numberIn(ui.end, "the end cell") };
    }
  } catch (e) {
    refuse(`Refused: ${e.message}.`);
    return;
  }
  edit(body);
}

async function listSaved(select) {
  const { grids } = await api("GET", "/api/tycoon/grids");
  ui.saved.replaceChildren(...grids.map((g) => el("option", { value: g.name }, g.name)));
  if (grids.length === 0) ui.saved.append(el("option", { value: "", disabled: true, selected: true }, "none saved yet"));
  if (select) ui.saved.value = select;
  ui.load.disabled = grids.length === 0;
}

async function saveGrid() {
  showError(ui.fileError, "");
  ui.fileDone.textContent = "";
  try {
    const result = await api("POST", `/api/tycoon/designs/${design.id}/save`, { name: ui.saveName.value });
    await listSaved(result.name);
    ui.fileDone.textContent = `Saved as “${result.name}”.`;
    designName = result.name;
    drawGrid();
  } catch (e) {
    showError(ui.fileError, e.message);
  }
}

async function openDesign(body, what, name) {
  showError(ui.fileError, "");
  ui.fileDone.textContent = "";
  try {
    design = await api("POST", "/api/tycoon/designs", body);
    designName = name || "a new grid";
    selected = null;
    say("");
    showDesign();
    if (what) ui.fileDone.textContent = `Loaded ${what}.`;
  } catch (e) {
    showError(ui.fileError, e.message);
  }
}

async function uploadGrid() {
  const file = ui.upload.files[0];
  if (!file) return;
  const text = await readFile(file);
  await openDesign({ text }, `“${file.name}”`, file.name.replace(/\.[^.]*$/, ""));
  if (!ui.fileError.textContent) ui.saveName.value = file.name.replace(/\.[^.]*$/, "");
  ui.upload.value = "";
}

async function start() {
  cards = await api("GET", "/api/tycoon/cards");
  ui.cardNumber.replaceChildren(...cards.map((c) => el("option", { value: c.number }, `${c.number} · ${c.name}`)));
  showCardParams();
  await listSaved();
  await openDesign({});
  document.body.dataset.ready = "true";
}

for (const b of ui.kinds) b.addEventListener("click", () => setKind(b.dataset.kind));
for (const input of [ui.start, ui.end, ui.cardCell]) input.addEventListener("focus", () => { fillNext = input; });
ui.cardNumber.addEventListener("change", showCardParams);
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
ui.save.addEventListener("click", saveGrid);
ui.load.addEventListener("click", () => ui.saved.value && openDesign({ saved: ui.saved.value }, `“${ui.saved.value}”`, ui.saved.value));
ui.upload.addEventListener("change", uploadGrid);

// ---- Play mode ----

const play = {
  section: byId("play"),
  designSection: byId("design"),
  tabDesign: byId("tab-design"),
  tabPlay: byId("tab-play"),
  grid: byId("play-grid"),
  seats: byId("seats"),
  seed: byId("play-seed"),
  start: byId("start-game"),
  error: byId("play-error"),
  speed: byId("bot-speed"),
  status: byId("play-status"),
  decision: byId("decision"),
  moveError: byId("move-error"),
  picture: byId("play-picture"),
  pictureError: byId("picture-error"),
  wallets: document.querySelector("#wallets tbody"),
  effects: byId("effects"),
  stations: byId("stations"),
  log: byId("play-log"),
};

let game = null;
let botsRunning = false;
/** What the game's picture calls its grid. */
let gameName = "this grid";
let drawingGame = 0;

function showTab(which) {
  const playing = which === "play";
  play.section.hidden = !playing;
  play.designSection.hidden = playing;
  play.tabDesign.setAttribute("aria-selected", String(!playing));
  play.tabPlay.setAttribute("aria-selected", String(playing));
  if (playing) fillGridChoices();
}

async function fillGridChoices() {
  const { grids } = await api("GET", "/api/tycoon/grids");
  const current = play.grid.value;
  play.grid.replaceChildren(
    el("option", { value: "design" }, "The grid being designed"),
    ...grids.map((g) => el("option", { value: `saved:${g.name}` }, `Saved: ${g.name}`)),
    el("option", { value: "empty" }, "An empty grid"),
  );
  if ([...play.grid.options].some((o) => o.value === current)) play.grid.value = current;
}

function seatChoices() {
  play.seats.replaceChildren(
    ...[1, 2, 3, 4].flatMap((seat) => [
      el("label", { for: `seat-${seat}` }, el("span", { class: `swatch p${seat}` }), `Player ${seat}`),
      el(
        "select",
        { id: `seat-${seat}` },
        el("option", { value: "human", selected: seat === 1 }, "a person"),
        el("option", { value: "random" }, "an easy bot (random moves)"),
        el("option", { value: "bot", selected: seat !== 1 }, "a normal bot"),
        el("option", { value: "hard" }, "a hard bot (searches ahead)"),
      ),
    ]),
  );
}

async function startGame() {
  showError(play.error, "");
  showError(play.moveError, "");
  const body = { seats: [1, 2, 3, 4].map((s) => byId(`seat-${s}`).value) };
  const source = play.grid.value;
  let name = "an empty grid";
  if (source === "design") {
    body.design = design.id;
    name = designName;
  } else if (source.startsWith("saved:")) {
    body.saved = source.slice(6);
    name = body.saved;
  }
  try {
    const seed = readSeed(play.seed.value);
    if (seed !== undefined) body.seed = seed;
  } catch (e) {
    showError(play.error, e.message);
    return;
  }
  try {
    game = await api("POST", "/api/tycoon/games", body);
  } catch (e) {
    showError(play.error, e.message);
    return;
  }
  gameName = name;
  play.log.replaceChildren();
  appendLog(game.log);
  // The seed is secret while the game is on: the page learns it at the end.
  play.seed.placeholder = "random";
  showGame();
  runBots();
}

function appendLog(events) {
  for (const e of events) {
    const cls = e.event === "won" ? "won" : e.event === "ladder" ? "ladder" : e.event === "snake" ? "chute" : "";
    play.log.append(el("li", { class: cls, dataset: { event: e.event } }, e.text));
  }
  while (play.log.children.length > 1000) play.log.firstChild.remove();
  play.log.scrollTop = play.log.scrollHeight;
}

function effectsOf(p) {
  const parts = [];
  if (p.lost_turns) parts.push(`loses ${p.lost_turns} turn${p.lost_turns > 1 ? "s" : ""}`);
  if (p.fire_turns) parts.push(`burning ${p.fire_turns} turn${p.fire_turns > 1 ? "s" : ""}`);
  if (p.poison_turns) parts.push(`poisoned ${p.poison_turns} turn${p.poison_turns > 1 ? "s" : ""}`);
  return parts;
}

/** Fetches the game's picture (tokens, station owners) and shows it. */
async function drawGame() {
  const number = ++drawingGame;
  const path = `/api/tycoon/games/${game.id}/svg?name=${encodeURIComponent(gameName)}`;
  let svg;
  try {
    svg = await api("GET", path);
  } catch (e) {
    if (number === drawingGame) showError(play.pictureError, e.message);
    return;
  }
  if (number !== drawingGame) return;
  showError(play.pictureError, "");
  inline(play.picture, svg);
}

function showGame() {
  const kinds = { human: "person", random: "easy bot", bot: "normal bot", hard: "hard bot" };
  drawGame();
  play.wallets.replaceChildren(
    ...game.players.map((p) =>
      el(
        "tr",
        { class: p.seat === game.winner ? "winner" : p.seat === game.current ? "current" : "", dataset: { player: p.seat } },
        el("td", {}, el("span", { class: `swatch p${p.seat}` }), `P${p.seat} `, el("span", { class: "note" }, kinds[p.kind] || p.kind)),
        el("td", { class: "cell" }, p.cell),
        el("td", { class: "coins" }, p.coins),
        el("td", {}, p.turns),
      ),
    ),
  );
  play.effects.replaceChildren(
    ...game.players.map((p) => {
      const effects = effectsOf(p);
      const attacks = p.attacks_left.length ? `attacks left: ${p.attacks_left.join(", ")}` : "no attacks left";
      return el("p", {}, el("span", { class: `swatch p${p.seat}` }), `P${p.seat}: `, [...effects, attacks].join("; "));
    }),
  );
  play.stations.replaceChildren(
    ...game.owners.map((o) => el("li", {}, `Station ${o.station} (price ${o.price}, fee ${o.fee}): `, o.owner ? `owned by P${o.owner}` : "for sale")),
  );
  if (game.owners.length === 0) play.stations.append(el("li", {}, "none on this grid"));
  play.status.classList.toggle("win", Boolean(game.winner));
  if (game.over) {
    play.status.textContent = game.winner ? `Player ${game.winner} wins after ${count(game.turns, "turn", "turns")}.` : `No winner after ${count(game.turns, "turn", "turns")}.`;
  } else {
    play.status.textContent = `Turn ${game.turns + 1}. ${game.prompt}`;
  }
  play.status.dataset.winner = game.winner || "";
  play.decision.replaceChildren(
    ...(game.over || game.bot_to_move
      ? []
      : game.moves.map((m) => el("button", { class: m.text === "roll" ? "" : "secondary", dataset: { move: m.text }, onclick: () => sendMove(m.move) }, m.text))),
  );
}

async function sendMove(move) {
  showError(play.moveError, "");
  try {
    const result = await api("POST", `/api/tycoon/games/${game.id}/moves`, move);
    game = result.game;
    appendLog(result.events);
  } catch (e) {
    showError(play.moveError, e.message);
  }
  showGame();
  runBots();
}

async function runBots() {
  if (botsRunning) return;
  botsRunning = true;
  try {
    while (game && !game.over && game.bot_to_move) {
      const pause = Number(play.speed.value);
      const id = game.id;
      const result = await api("POST", `/api/tycoon/games/${id}/bots`, pause === 0 ? {} : { limit: 1 });
      // A new game started meanwhile: its own runBots() returned at once
      // (this loop was running), so this loop carries on with it.
      if (!game || game.id !== id) continue;
      game = result.game;
      appendLog(result.events);
      showGame();
      if (pause > 0) await sleep(pause);
    }
  } catch (e) {
    showError(play.moveError, e.message);
  } finally {
    botsRunning = false;
  }
}

play.tabDesign.addEventListener("click", () => showTab("design"));
play.tabPlay.addEventListener("click", () => showTab("play"));
play.start.addEventListener("click", startGame);
seatChoices();

start().catch((e) => refuse(e.message));
