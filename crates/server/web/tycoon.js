// Snakes & Ladders Tycoon: design a grid (and play it). Every edit is sent to
// the server, whose library checks it against the grid's rules; a refused
// edit comes back with its reason, shown beside the grid.
import { api, el, byId, showError, readFile } from "/static/common.js";

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

function cardShort(o) {
  const c = o.object;
  const params = ["coins", "destination", "price", "fee"].filter((k) => c[k] !== undefined).map((k) => c[k]);
  return `C${c.card}` + (params.length ? ` ${params.join("/")}` : "");
}

function drawGrid() {
  const ends = new Map();
  for (const o of design.objects) {
    if (o.object.object === "ladder" || o.object.object === "snake") {
      ends.set(o.object.end, o);
    }
  }
  ui.grid.replaceChildren(
    ...design.layout.map((row) =>
      el(
        "tr",
        {},
        ...row.map((cell) => {
          const o = objectAt(cell);
          const end = ends.get(cell);
          const classes = [];
          let mark = null;
          if (o) {
            classes.push(o.object.object);
            if (o.object.object === "ladder") mark = `▲ to ${o.object.end}`;
            else if (o.object.object === "snake") mark = `▼ to ${o.object.end}`;
            else mark = cardShort(o);
          }
          if (end) classes.push(`${end.object.object}-end`);
          if (cell === 99) classes.push("goal");
          if (cell === selected) classes.push("selected");
          return el(
            "td",
            { class: classes.join(" "), dataset: { cell }, title: o ? o.text + (o.describe ? `: ${o.describe}` : "") : `cell ${cell}`, onclick: () => clickCell(cell) },
            el("span", { class: "num" }, cell),
            mark && el("span", { class: "obj" }, mark),
            end && el("span", { class: "end" }, `${end.object.object} from ${end.home}`),
          );
        }),
      ),
    ),
  );
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

function showCardParams() {
  const info = cards.find((c) => c.number === Number(ui.cardNumber.value));
  ui.cardParams.replaceChildren(
    ...(info ? info.params : []).flatMap((p) => [
      el("label", { for: `param-${p}` }, p[0].toUpperCase() + p.slice(1)),
      el("input", { type: "number", id: `param-${p}`, min: "0", dataset: { param: p }, onfocus: (e) => { fillNext = e.target; } }),
    ]),
  );
}

function clickCell(cell) {
  selected = cell;
  // Fill the palette field the person is on (the start or cell by default).
  let field = fillNext;
  if (!field || field.closest("[hidden]")) field = kind === "card" ? ui.cardCell : ui.start;
  field.value = cell;
  if (field === ui.start) fillNext = ui.end;
  else if (field === ui.end) fillNext = ui.start;
  drawGrid();
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
  if (grids.length === 0) ui.saved.append(el("option", { value: "", disabled: true }, "none saved yet"));
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
  } catch (e) {
    showError(ui.fileError, e.message);
  }
}

async function openDesign(body, what) {
  showError(ui.fileError, "");
  ui.fileDone.textContent = "";
  try {
    design = await api("POST", "/api/tycoon/designs", body);
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
  await openDesign({ text }, `“${file.name}”`);
  if (!ui.fileError.textContent) ui.saveName.value = file.name.replace(/\.[^.]*$/, "");
  ui.upload.value = "";
}

async function start() {
  cards = await api("GET", "/api/tycoon/cards");
  ui.cardNumber.replaceChildren(...cards.map((c) => el("option", { value: c.number }, `${c.number} · ${c.label}`)));
  showCardParams();
  await listSaved();
  await openDesign({});
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
ui.clear.addEventListener("click", () => edit({ edit: "clear" }));
ui.save.addEventListener("click", saveGrid);
ui.load.addEventListener("click", () => ui.saved.value && openDesign({ saved: ui.saved.value }, `“${ui.saved.value}”`));
ui.upload.addEventListener("change", uploadGrid);

start().catch((e) => refuse(e.message));
