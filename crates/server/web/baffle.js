// Baffle: shoot beams into the box and guess where its mirrors are, as a
// match of the server (match.js). The server's game decides where a beam
// comes out and whether a guess is right; the box is Parlor's own picture
// of what the player may see (render's SVG, /api/matches/ID/svg): this page
// finds the holes and cells in it by their data attributes and makes them
// controls. It holds no rule.
//
// Terms:
// - start screen: /baffle, where the next game is chosen (the original
//   assignment's first game, or a random box) and who plays it.
// - match page: /baffle/m/ID, the game; a reload, a bookmark or Back brings
//   it back. The person holding the seat's token plays; anyone else watches.
// - mark: the cell selected for a guess and its mirror (/ or \), drawn red as
//   in the original GUI. It is this page's own state, never sent until Make
//   Guess.
// - cursor: where the keyboard is in the box; the box is one Tab stop, and
//   the arrow keys move over holes and cells as over one grid, the holes
//   round its edge.
// - aiming zoom: on a phone the box fits the width, and its holes and cells
//   are smaller than a finger; a tap (or Zoom in) enlarges the box in its
//   frame until each is at least 48 px, and it can be dragged round.
// - replay: a finished game stepped through move by move; the box then is
//   the final picture with what had not happened yet at that move hidden.
import { api, ApiFailure, el, byId, showError, readSeed, count, sleep, gameInfo, defaultPlans } from "/static/common.js";
import { Match, matchIdFromPath, myMatches, pageUrl } from "/static/match.js";
import { seatChooser, invitePanel, gonePanel, replayBar, connectionStatus, confirmAction, moveList } from "/static/matchui.js";

const GAME = "baffle";
/** This game in the registry (GET /api/games): seats, default box, bounds. */
const INFO = await gameInfo(GAME);
const SVG_NS = "http://www.w3.org/2000/svg";
/** The pause between the bot's moves when it plays on, so that each can be seen. */
const BOT_PAUSE_MS = 400;
/** The smallest hole or cell a finger can be trusted with, in CSS pixels. */
const FINGER_PX = 48;
/** A narrow screen or a touch screen: the box's targets must be big enough for a finger. */
const touchy = matchMedia("(max-width: 599px), (pointer: coarse)");

const ui = {
  heading: byId("heading"),
  error: byId("error"),
  gone: byId("gone"),
  start: byId("start"),
  startForm: byId("start-form"),
  boxKind: byId("box-kind"),
  randomFields: byId("random-fields"),
  fixedNote: byId("fixed-note"),
  size: byId("size"),
  sizeLabel: document.querySelector('label[for="size"]'),
  mirrors: byId("mirrors"),
  seed: byId("seed"),
  sides: byId("sides"),
  seatChoice: byId("seat-choice"),
  startError: byId("start-error"),
  startGame: byId("start-game"),
  mine: byId("mine"),
  myGames: byId("my-games"),
  game: byId("game"),
  boxCaption: byId("box-caption"),
  status: byId("status"),
  botWhy: byId("bot-why"),
  boxFrame: byId("box-frame"),
  box: byId("box"),
  zoom: byId("zoom"),
  zoomNote: byId("zoom-note"),
  boxError: byId("box-error"),
  role: byId("role"),
  shots: byId("shots"),
  guesses: byId("guesses"),
  score: byId("score"),
  found: byId("found"),
  makeGuess: byId("make-guess"),
  quit: byId("quit"),
  newGame: byId("new-game"),
  hint: byId("hint"),
  odds: byId("odds"),
  hintText: byId("hint-text"),
  botMove: byId("bot-move"),
  botFinish: byId("bot-finish"),
  replayPanel: byId("replay-panel"),
  seats: byId("seats"),
  connection: byId("connection"),
  shotList: byId("shot-list"),
  noShots: byId("no-shots"),
  log: byId("log"),
};

/** The match shown, or null on the start screen. */
let match = null;
let seats = null;
let players = null;
/** The move list (matchui): a look back while on, the replay's steps once over. */
let moves = null;
let connection = null;
let replay = null;
/** The replay step shown ({at, moves, played, view}), or null for the game as it stands. */
let step = null;
/** The cell marked for a guess and its mark: {row, col, mirror}. */
let mark = null;
/** The last shot, outlined on the box: {hole, exit}. */
let lastShot = null;
/** A shot just played, whose exit the zoomed box must show once it is drawn. */
let followShot = null;
/** The solver's hint: {hole (advised, or null), svg (the odds), text}; and whether its odds are shown. */
let hint = null;
let showOdds = false;
let hintPending = false;
/** Where the keyboard is in the box: {hole} or {row, col}. */
let cursor = null;
/** The bot playing on by itself ("Bot finishes"), and a bot move awaited. */
let botRunning = false;
let botThinking = false;
/** The aiming zoom: on, and by how much. */
let zoomed = false;
let zoomFactor = 1;
/** Each drawing of the box is numbered, so that a late answer cannot replace a newer one. */
let drawing = 0;
/** The final picture of a finished game, kept while its replay is stepped through. */
let finalSvg = null;
/** Whether the box should take the focus once drawn (after Start, by keyboard or not). */
let focusBoxOnDraw = false;

const NEXT_MARK = { "": "/", "/": "\\", "\\": "" };

// ---- What the match says ----

/** The game's own view (the library's View), as the match shows it. */
function game() {
  return step ? step.view.view : match.view.view;
}

function over() {
  return match.view.status !== "playing";
}

/** True when this device plays the game and may move now. */
function canPlay() {
  return Boolean(match) && !over() && match.myTurn() && !step && !botRunning;
}

function isFound(row, col) {
  return game().found.some((p) => p.row === row && p.col === col);
}

function holesOfSetup() {
  return (match.setup && match.setup.holes) || [];
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
  if (showOdds && hint && hint.svg && !step) return hint.svg;
  if (step && finalSvg) return finalSvg;
  const svg = await api("GET", `/api/matches/${match.id}/svg`);
  if (over()) finalSvg = svg;
  return svg;
}

/** Fetches the picture and shows it, made into controls. */
async function drawBox() {
  if (!match) return;
  const number = ++drawing;
  const id = match.id;
  let svg;
  try {
    svg = await pictureNow();
  } catch (e) {
    if (number === drawing) showError(ui.boxError, `The box cannot be drawn: ${e.message}`);
    return;
  }
  if (number !== drawing || !match || match.id !== id) return;
  showError(ui.boxError, "");
  const hadFocus = ui.box.contains(document.activeElement);
  ui.box.innerHTML = svg;
  decorate();
  traceBeams(id);
  // Which move the box shows, for whoever waits for it (the tests).
  ui.box.dataset.moves = String(step ? step.at : match.view.moves);
  if ((hadFocus || focusBoxOnDraw) && canPlay() && !(aimingNeeded() && !zoomed)) {
    focusBoxOnDraw = false;
    cursorEl()?.focus({ preventScroll: !zoomed });
  } else if (hadFocus && over() && !step) {
    // The game ended under the keyboard: New Game is next, as in the original.
    ui.newGame.focus();
  }
  if (followShot && zoomed) keepShotInView(followShot);
  followShot = null;
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
  if (!over() || step || traced === id) return;
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
  const x = Math.min(...holes.map((r) => edge(r, "x"))) - 0.95 * p;
  const y = Math.min(...holes.map((r) => edge(r, "y"))) - 0.45 * p;
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
  return cell.getBoundingClientRect().width / (zoomed ? zoomFactor : 1);
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
  if (step) showStep(svg);
  const n = game().size;
  const playing = canPlay();
  ui.box.classList.toggle("playing", playing);
  ui.box.classList.toggle("odds", showOdds && Boolean(hint && hint.svg) && !step);
  ui.box.classList.toggle("replaying", Boolean(step));
  updateZoom();
  const aimable = playing && !(aimingNeeded() && !zoomed);
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
  if (!cursor || (cursor.hole !== undefined && !shootable.has(cursor.hole))) cursor = firstCursor();
  const shotsBy = shotsByHole();
  for (const g of svg.querySelectorAll("g.hole")) {
    const hole = Number(g.dataset.hole);
    g.classList.toggle("advised", Boolean(hint) && hint.hole === hole && !step);
    g.classList.toggle("last", Boolean(lastShot) && !step && (lastShot.hole === hole || lastShot.exit === hole));
    if (aimable && shootable.has(hole)) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", cursor.hole === hole ? "0" : "-1");
      const seen = shotsBy.get(hole);
      g.setAttribute(
        "aria-label",
        `Hole ${hole}, ${g.dataset.side} side: shoot a beam in` +
          (seen ? ` (${seen})` : "") +
          (hint && hint.hole === hole ? " — the hint's advice" : ""),
      );
    }
  }
  if (aimable) {
    for (const r of svg.querySelectorAll("rect.cell")) {
      const row = Number(r.dataset.row);
      const col = Number(r.dataset.col);
      r.setAttribute("role", "button");
      r.setAttribute("tabindex", cursor.row === row && cursor.col === col ? "0" : "-1");
      if (isFound(row, col)) r.setAttribute("aria-disabled", "true");
    }
  }
  drawMark();
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
  const found = g.found.map((f) => `<${f.row},${f.col}> ${f.mirror}`).join(", ");
  let words = `The box, ${g.size} × ${g.size}: ${count(g.shots.length, "shot", "shots")}${shots ? ` (${shots})` : ""}; ${g.found.length} of ${g.mirrors} mirrors found${found ? ` (${found})` : ""}.`;
  if (g.revealed) {
    const unfound = g.revealed.filter((m) => !m.found).map((m) => `<${m.row},${m.col}> ${m.mirror}`);
    if (unfound.length) words += ` Not found: ${unfound.join(", ")}.`;
  }
  return words;
}

/** The cell marked for a guess: red, with its mirror in white, over the picture. */
function drawMark() {
  const svg = svgOf();
  if (!svg) return;
  svg.querySelector("g.marks")?.remove();
  const playing = canPlay();
  for (const r of svg.querySelectorAll("rect.cell")) {
    const row = Number(r.dataset.row);
    const col = Number(r.dataset.col);
    const marked = playing && mark && mark.row === row && mark.col === col ? mark.mirror : "";
    if (marked) r.dataset.mark = marked;
    else delete r.dataset.mark;
    r.classList.toggle("selected", Boolean(marked));
    if (r.hasAttribute("role")) {
      const what = isFound(row, col) ? "a mirror found" : marked ? `selected, ${marked}` : "empty";
      r.setAttribute("aria-label", `Cell <${row},${col}>: ${what}`);
      r.setAttribute("aria-pressed", String(Boolean(marked)));
    }
  }
  ui.makeGuess.disabled = !playing || !(mark && mark.mirror) || match.busy;
  if (!playing || !mark || !mark.mirror) return;
  const cell = cellEl(mark.row, mark.col);
  if (!cell) return;
  const [x, y, w, h] = ["x", "y", "width", "height"].map((a) => Number(cell.getAttribute(a)));
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "marks");
  const shade = document.createElementNS(SVG_NS, "rect");
  for (const [k, v] of Object.entries({ x, y, width: w, height: h, class: "mark-cell" })) shade.setAttribute(k, String(v));
  const inset = w * 0.18;
  const [x0, y0, x1, y1] = [x + inset, y + inset, x + w - inset, y + h - inset];
  const line = document.createElementNS(SVG_NS, "line");
  const ends = mark.mirror === "/" ? [x0, y1, x1, y0] : [x0, y0, x1, y1];
  for (const [k, v] of Object.entries({ x1: ends[0], y1: ends[1], x2: ends[2], y2: ends[3] })) line.setAttribute(k, String(v));
  line.setAttribute("class", "mark");
  line.setAttribute("stroke-width", String(w * 0.12));
  line.dataset.row = String(mark.row);
  line.dataset.col = String(mark.col);
  line.dataset.mark = mark.mirror;
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
  const v = step.view.view;
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
  const needed = aimingNeeded() || zoomed;
  ui.zoom.hidden = !needed;
  ui.zoomNote.hidden = !needed || zoomed || !canPlay();
  ui.zoom.textContent = zoomed ? "Fit the box" : "Zoom in";
  ui.zoom.setAttribute("aria-pressed", String(zoomed));
  ui.boxFrame.classList.toggle("zoomed", zoomed);
}

/** Zooms the box in (around a point of it, as shares of its width and height) or out. */
function setZoom(on, around = { x: 0.5, y: 0.5 }) {
  if (on) {
    const px = fitPitchPx();
    zoomFactor = px > 0 ? Math.max(1.5, FINGER_PX / px) : 2;
  }
  zoomed = on;
  ui.box.style.setProperty("--zoom", String(zoomFactor));
  ui.boxFrame.classList.toggle("zoomed", zoomed);
  decorate();
  if (on) {
    const frame = ui.boxFrame;
    frame.scrollLeft = around.x * ui.box.scrollWidth - frame.clientWidth / 2;
    frame.scrollTop = around.y * ui.box.scrollHeight - frame.clientHeight / 2;
  }
}

// ---- The page around the box ----

/** Says what happened in the status line (a live region), and the bot's reason under it. */
function say(text, why = "") {
  ui.status.textContent = text;
  ui.botWhy.textContent = why;
}

/** The texts of the events of `played` moves. */
function eventsText(played) {
  return (played || []).flatMap((p) => (p.events || []).map((e) => e.text).filter(Boolean)).join(" ");
}

/** What the game is, in words: "The original assignment's first game" or "A 8 × 8 box with 4 mirrors". */
function gameTitle() {
  const s = match.setup || {};
  if (s.origin === "fixed") return "The original assignment's first game";
  return `A ${s.size} × ${s.size} box with ${count(s.mirrors, "mirror", "mirrors")}`;
}

/** Who plays this game, from this device's point of view. */
function roleText() {
  const v = match.view;
  const seat = (v.players || [])[0] || {};
  if (seat.yours) return "";
  if (seat.kind === "bot") {
    const level = { easy: "easy", normal: "normal", hard: "hard" }[seat.level] || "";
    return `The ${level} bot plays this game on the server: you are watching it${v.status === "playing" ? " live" : ""}.`;
  }
  if (v.status === "playing" && v.host && seat.state === "open") return "Waiting for your friend to open the invite link: then you watch them play here.";
  if (v.status === "playing" && seat.state === "anyone") return "Waiting for someone to take the seat from the lobby: then you watch them play here.";
  return v.status === "playing"
    ? "You are watching this game: the player's shots and guesses show here as they are made."
    : "You watched this game.";
}

/** The status line when nothing has just happened. */
function statusText() {
  const v = match.view;
  const g = v.view;
  if (v.status !== "playing") {
    const last = (v.log || []).filter((l) => l.number === v.moves).map((l) => l.text);
    const how = last.length ? last.join(" ") : v.status === "won" ? "Every mirror found." : "";
    // The result in the match's own words ("You win", "Ada gave up").
    return v.result ? `${v.result.words}. ${how}`.trim() : how || "The game is over.";
  }
  if (!match.myTurn()) return `${gameTitle()}: ${count(g.mirrors, "mirror is", "mirrors are")} hidden.`;
  const where = g.sides === "all" ? "any edge" : "the left or top edge";
  const click = touchy.matches ? "tap" : "click";
  if (g.shots.length === 0 && g.guesses.length === 0) {
    return `${gameTitle()}: ${count(g.mirrors, "mirror is", "mirrors are")} hidden. Shoot a beam: ${click} a hole on ${where}.`;
  }
  return `${g.found.length} of ${g.mirrors} mirrors found. Shoot a hole on ${where}, or select a cell and Make Guess.`;
}

/** Shows the match (or the replay step) in every panel, and redraws the box. */
function show() {
  if (!match) return;
  const v = match.view;
  const g = game();
  const playing = canPlay();
  const mine = match.mySeats().length > 0;
  ui.boxCaption.textContent = step ? `The box after move ${step.at} of ${step.moves}` : "The box";
  ui.role.textContent = roleText();
  ui.role.hidden = !ui.role.textContent;
  ui.shots.textContent = g.score.shots;
  ui.guesses.textContent = g.score.guess_points;
  ui.score.textContent = g.score.total;
  ui.found.textContent = `Mirrors found: ${g.found.length} of ${g.mirrors}.`;
  ui.makeGuess.hidden = !mine || over();
  ui.quit.hidden = !mine || over();
  ui.quit.disabled = !playing;
  ui.makeGuess.disabled = !playing || !(mark && mark.mirror) || match.busy;
  const canHelp = mine && !over() && match.myTurn() && !step;
  ui.hint.hidden = over();
  ui.hint.disabled = over() || botRunning || hintPending;
  ui.botMove.hidden = !canHelp;
  ui.botFinish.hidden = !canHelp && !botRunning;
  ui.botMove.disabled = !canHelp || botRunning || botThinking;
  ui.botFinish.textContent = botRunning ? "Stop the bot" : "Bot finishes";
  ui.botFinish.setAttribute("aria-pressed", String(botRunning));
  ui.odds.hidden = !(hint && hint.svg) || over();
  ui.odds.setAttribute("aria-pressed", String(showOdds));
  ui.odds.textContent = showOdds ? "Hide the odds" : "Show the odds";
  if (over() && !hint) ui.hintText.textContent = "";
  ui.shotList.replaceChildren(...g.shots.map((s) => el("li", {}, `${s.hole} → ${s.exit}`)));
  ui.noShots.hidden = g.shots.length > 0;
  const log = step ? step.view.log || [] : v.log || [];
  ui.log.replaceChildren(...log.map((l) => el("li", {}, el("span", { class: "n" }, `${l.number}.`), ` ${l.text}`)));
  ui.log.scrollTop = ui.log.scrollHeight;
  ui.status.classList.toggle("win", v.status === "won" && !step);
  ui.status.dataset.status = v.status;
  if (players) players.update();
  if (moves) moves.update();
  showReplay();
  drawBox();
}

/** The replay bar, once the game is over. */
function showReplay() {
  const finished = over() && match.view.moves > 0;
  ui.replayPanel.hidden = !finished;
  if (finished && !replay) {
    replay = replayBar(ui.replayPanel, match, (s) => {
      step = s.at === s.moves ? null : s;
      say(step ? `Replay: the box after move ${step.at} of ${step.moves}.` : statusText());
      show();
    });
  }
}

function forgetHint() {
  hint = null;
  showOdds = false;
  ui.hintText.textContent = "";
}

/** Shows a refusal, and the game as it stands when the page was behind. */
async function refused(e) {
  if (e instanceof ApiFailure && e.code === "no_match") {
    // Expired (or removed) while open: say so, and offer a new game.
    leaveMatch();
    ui.game.hidden = true;
    ui.gone.hidden = false;
    gonePanel(ui.gone, GAME, e);
    document.body.dataset.ready = "gone";
    return;
  }
  if (e instanceof ApiFailure && (e.code === "stale_move" || e.code === "not_your_turn" || e.code === "game_over")) {
    try {
      await match.refresh();
    } catch {
      // The error says enough.
    }
    showError(ui.error, `${e.message}. The box now shows the game as it stands.`);
  } else {
    showError(ui.error, e.message);
  }
}

/** Plays a move's text; answers the server's answer, or null (nothing sent, or refused: the reason shown). */
async function play(text) {
  if (!canPlay() || match.busy) return null;
  showError(ui.error, "");
  let answer = null;
  const busy = [ui.makeGuess, ui.quit, ui.botMove];
  const was = busy.map((b) => b.disabled);
  busy.forEach((b) => (b.disabled = true));
  try {
    answer = await match.move(text);
  } catch (e) {
    await refused(e);
  }
  busy.forEach((b, i) => (b.disabled = was[i]));
  if (answer) forgetHint();
  return answer;
}

/**
 * True when `event` is the second click of a double click (or the third of
 * a triple): it is ignored, so that a double click plays one move, even when
 * the first click's move was answered before the second click came.
 */
function secondClick(event) {
  return event.detail > 1;
}

async function shoot(hole) {
  if (!canPlay()) return;
  cursor = { hole };
  const answer = await play(`shoot ${hole}`);
  if (answer) {
    const shot = answer.played.flatMap((p) => p.events).find((e) => e.event === "shot");
    if (shot) {
      lastShot = { hole: shot.hole, exit: shot.exit };
      followShot = lastShot;
    }
    say(eventsText(answer.played));
  }
  show();
}

function setMark(row, col, mirror) {
  if (!canPlay() || isFound(row, col)) return;
  cursor = { row, col };
  mark = mirror ? { row, col, mirror } : null;
  drawMark();
}

function cycle(row, col) {
  const current = mark && mark.row === row && mark.col === col ? mark.mirror : "";
  setMark(row, col, NEXT_MARK[current]);
}

async function makeGuess() {
  if (!mark || !mark.mirror || !canPlay() || match.busy) return;
  const guess = mark;
  // The mark goes at once: a second press has nothing to send.
  mark = null;
  drawMark();
  const answer = await play(`guess ${guess.row} ${guess.col} ${guess.mirror}`);
  if (!match) return;
  if (answer) {
    say(eventsText(answer.played));
  } else if (!over() && !isFound(guess.row, guess.col)) {
    mark = guess;
  }
  show();
}

async function quit() {
  if (!canPlay()) return;
  const sure = await confirmAction("Give up this game? Every mirror is shown, and no more shots or guesses can be made.", {
    title: "Quit this game?",
    confirm: "Quit the game",
    cancel: "Keep playing",
  });
  if (!sure) return;
  const answer = await play("quit");
  if (answer) {
    mark = null;
    say(eventsText(answer.played));
  }
  show();
}

/** New Game: to the start screen, with this game's box chosen again (a random one); asks first over a game in play. */
async function newGame() {
  if (match && !over() && match.mySeats().length > 0) {
    const sure = await confirmAction(
      "Leave this game for a new one? It is not finished: it stays on this server, at this page's address, for 30 days (Back brings it back).",
      { title: "Start a new game?", confirm: "New game", cancel: "Keep playing" },
    );
    if (!sure) return;
  }
  botRunning = false;
  const s = match ? match.setup : null;
  history.pushState({}, "", "/baffle");
  showStart({ kind: "random", size: s?.size, mirrors: s?.mirrors, sides: s ? s.sides : "all", focus: true });
}

async function askHint() {
  if (!match || over() || hintPending) return;
  showError(ui.error, "");
  hintPending = true;
  ui.hint.disabled = true;
  ui.hintText.textContent = "Thinking…";
  say("Asking the solver for a hint…");
  const id = match.id;
  const moves = match.view.moves;
  try {
    const h = await api("POST", `/api/baffle/matches/${id}/hint`, {});
    if (!match || match.id !== id || match.view.moves !== moves) return;
    hint = { hole: h.best_next_shot ? h.best_next_shot.hole : null, svg: h.svg, text: h.advice_text };
    ui.hintText.textContent = h.advice_text;
    // The status line (a live region) says it too, where the eye and a
    // screen reader already are.
    say(`Hint: ${h.advice_text}`);
    if (hint.hole !== null && hint.hole !== undefined) cursor = { hole: hint.hole };
  } catch (e) {
    ui.hintText.textContent = "";
    say("No hint this time.");
    showError(ui.error, e.message);
  } finally {
    hintPending = false;
  }
  show();
}

/** The bot's move in words: what it did, what came of it, and why. */
function botText(answer) {
  return `Bot: ${answer.bot.move_text}. ${eventsText(answer.played)}`;
}

/** Why the bot chose its move, in one sentence. */
function botWhy(answer) {
  return `Why: ${answer.bot.reason_text.replace(/\.$/, "")}.`;
}

/** Asks the bot for one move and plays it; answers whether it moved. */
async function botOnce() {
  if (!match || over() || botThinking || step || !match.myTurn()) return false;
  botThinking = true;
  ui.botMove.disabled = true;
  showError(ui.error, "");
  const id = match.id;
  let answer = null;
  try {
    answer = await match.post(`/api/baffle/matches/${id}/bot`, { after: match.view.moves });
  } catch (e) {
    await refused(e);
  }
  botThinking = false;
  if (!answer || !match || match.id !== id) {
    show();
    return false;
  }
  mark = null;
  forgetHint();
  const shot = answer.played.flatMap((p) => p.events).find((e) => e.event === "shot");
  if (shot) {
    lastShot = { hole: shot.hole, exit: shot.exit };
    followShot = lastShot;
    cursor = { hole: shot.hole };
  }
  say(botText(answer), botWhy(answer));
  show();
  return true;
}

/** Bot move: one move of the bot, for the player. */
function botStep() {
  if (!botRunning) botOnce();
}

/** "Bot finishes": the bot plays move after move until the game ends or it is stopped. */
async function botFinish() {
  if (botRunning) {
    botRunning = false;
    show();
    return;
  }
  if (!match || over() || !match.myTurn()) return;
  botRunning = true;
  show();
  while (botRunning && match && !over()) {
    if (!(await botOnce())) break;
    if (botRunning && !over()) await sleep(BOT_PAUSE_MS);
  }
  botRunning = false;
  show();
}

function toggleOdds() {
  showOdds = !showOdds;
  show();
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
  if (!cursor) return null;
  return cursor.hole !== undefined ? holeEl(cursor.hole) : cellEl(cursor.row, cursor.col);
}

function moveCursor(from, to) {
  if (!to) return;
  from.setAttribute("tabindex", "-1");
  to.setAttribute("tabindex", "0");
  cursor = to.matches("g.hole") ? { hole: Number(to.dataset.hole) } : { row: Number(to.dataset.row), col: Number(to.dataset.col) };
  to.focus();
}

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
      if (!event.repeat) shoot(Number(target.dataset.hole));
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

// G, H, B and Escape anywhere on the game (but not while typing in a field, or in a dialog).
document.addEventListener("keydown", (event) => {
  if (!match || ui.game.hidden || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
  const t = event.target;
  if (t.closest?.("input, select, textarea, dialog, [contenteditable]")) return;
  const key = event.key.toLowerCase();
  if (key === "g" && !ui.makeGuess.disabled && !ui.makeGuess.hidden) {
    event.preventDefault();
    makeGuess();
  } else if (key === "h" && !ui.hint.disabled && !ui.hint.hidden) {
    event.preventDefault();
    askHint();
  } else if (key === "b" && !ui.botMove.disabled && !ui.botMove.hidden) {
    event.preventDefault();
    botStep();
  } else if (event.key === "Escape" && mark) {
    event.preventDefault();
    mark = null;
    drawMark();
  }
});

// ---- The pointer on the box ----

ui.box.addEventListener("click", (event) => {
  if (!match) return;
  if (aimingNeeded() && !zoomed) {
    // A phone's box is first enlarged round the tap: then holes and cells are big enough.
    const r = ui.box.getBoundingClientRect();
    setZoom(true, { x: (event.clientX - r.left) / r.width, y: (event.clientY - r.top) / r.height });
    return;
  }
  if (!canPlay()) return;
  const hole = event.target.closest("g.hole");
  if (hole && hole.hasAttribute("role")) {
    if (secondClick(event) || match.busy) return;
    shoot(Number(hole.dataset.hole));
    return;
  }
  const cell = event.target.closest("rect.cell");
  if (cell && cell.hasAttribute("role")) cycle(Number(cell.dataset.row), Number(cell.dataset.col));
});

// A double click never selects the page's text or zooms it.
ui.box.addEventListener("dblclick", (event) => event.preventDefault());

ui.zoom.addEventListener("click", () => {
  setZoom(!zoomed);
  if (zoomed && canPlay()) cursorEl()?.focus();
});

touchy.addEventListener("change", () => {
  if (match) decorate();
});
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => {
    if (match && !ui.game.hidden) decorate();
  }, 150);
});

// ---- The buttons ----

ui.makeGuess.addEventListener("click", (event) => {
  if (secondClick(event)) return;
  makeGuess();
});
ui.quit.addEventListener("click", quit);
ui.newGame.addEventListener("click", newGame);
ui.hint.addEventListener("click", askHint);
ui.botMove.addEventListener("click", (event) => {
  if (secondClick(event)) return;
  botStep();
});
ui.botFinish.addEventListener("click", (event) => {
  if (secondClick(event)) return;
  botFinish();
});
ui.odds.addEventListener("click", toggleOdds);

// ---- The start screen ----

/** Shows the start screen; `prefill` chooses the box ({kind, size, mirrors, sides}) and whether Start takes the focus. */
function showStart(prefill = {}) {
  leaveMatch();
  document.title = "Baffle · Parlor";
  ui.heading.textContent = "Baffle";
  ui.gone.hidden = true;
  ui.game.hidden = true;
  ui.start.hidden = false;
  showError(ui.error, "");
  showError(ui.startError, "");
  if (prefill.kind) ui.boxKind.value = prefill.kind;
  if (prefill.size) ui.size.value = String(prefill.size);
  if (prefill.mirrors) ui.mirrors.value = String(prefill.mirrors);
  if (prefill.sides) ui.sides.value = prefill.sides;
  showBoxKind();
  if (!seats) {
    seats = seatChooser(ui.seatChoice, {
      game: GAME,
      min: INFO?.min_seats,
      max: INFO?.max_seats,
      botLevels: INFO?.bot_levels,
      legend: "Who plays",
      seatName: () => "The player",
      defaults: defaultPlans(INFO),
    });
  }
  ui.startGame.disabled = false;
  const mine = myMatches().filter((m) => m.game === GAME).slice(0, 8);
  ui.mine.hidden = mine.length === 0;
  ui.myGames.replaceChildren(
    ...mine.map((m) =>
      el(
        "li",
        { class: "match" },
        el("div", { class: "match-what" }, el("a", { href: pageUrl(GAME, m.id) }, m.title || "A Baffle game"), el("div", { class: "note" }, `opened here ${since(m.at)}`)),
      ),
    ),
  );
  if (prefill.focus) ui.startGame.focus();
  document.body.dataset.ready = "start";
}

function since(ms) {
  const minutes = Math.max(0, Math.round((Date.now() - ms) / 60000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${count(minutes, "minute", "minutes")} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${count(hours, "hour", "hours")} ago`;
  return `${count(Math.round(hours / 24), "day", "days")} ago`;
}

/** The request for the chosen game: {setup, seats, seed?}; throws an Error saying what is wrong. */
function startRequest() {
  const sides = ui.sides.value;
  const plans = seats.plans();
  if (ui.boxKind.value === "fixed") return { setup: { fixed: true, sides }, seats: plans };
  // The box's bounds are the game's: the server says what is wrong.
  const size = Number(ui.size.value);
  const mirrors = Number(ui.mirrors.value);
  if (!Number.isInteger(size) || !Number.isInteger(mirrors)) throw new Error("The size and the mirrors are whole numbers.");
  const request = { setup: { size, mirrors, sides }, seats: plans };
  const seed = readSeed(ui.seed.value);
  if (seed !== undefined) {
    if (plans.some((p) => p === "open" || p === "anyone")) {
      throw new Error("A game someone else joins draws its own seed: leave the seed empty.");
    }
    request.seed = seed;
  }
  return request;
}

/** The box's form takes its bounds and defaults from the registry. */
function boundForm() {
  const size = INFO?.setup_limits?.size;
  if (size) {
    ui.size.min = String(size.min);
    ui.size.max = String(size.max);
    ui.size.value = String(size.default);
    ui.sizeLabel.textContent = `Size (${size.min} to ${size.max})`;
  }
  const mirrors = INFO?.setup_limits?.mirrors;
  if (mirrors) {
    ui.mirrors.min = String(mirrors.min);
    ui.mirrors.value = String(mirrors.default);
  }
}
boundForm();

function showBoxKind() {
  ui.randomFields.hidden = ui.boxKind.value !== "random";
  ui.fixedNote.hidden = ui.boxKind.value === "random";
}

ui.boxKind.addEventListener("change", showBoxKind);

ui.startForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (ui.startGame.disabled) return;
  showError(ui.startError, "");
  let request;
  try {
    request = startRequest();
  } catch (e) {
    showError(ui.startError, e.message);
    return;
  }
  ui.startGame.disabled = true;
  try {
    const made = await Match.create(GAME, request);
    focusBoxOnDraw = true;
    enterMatch(made);
  } catch (e) {
    showError(ui.startError, e.message);
    ui.startGame.disabled = false;
  }
});

// ---- Opening a match ----

function leaveMatch() {
  if (match) match.close();
  match = null;
  players = null;
  replay = null;
  step = null;
  finalSvg = null;
  mark = null;
  lastShot = null;
  cursor = null;
  botRunning = false;
  zoomed = false;
  forgetHint();
  drawing += 1;
  ui.box.replaceChildren();
  delete ui.box.dataset.moves;
  ui.replayPanel.replaceChildren();
}

/** Shows match `m` and follows it live. */
function enterMatch(m) {
  leaveMatch();
  match = m;
  ui.start.hidden = true;
  ui.gone.hidden = true;
  ui.game.hidden = false;
  showError(ui.error, m.joinError ? `The invite could not be used: ${m.joinError.message}.` : "");
  document.title = `Baffle: ${gameTitle()} · Parlor`;
  players = invitePanel(ui.seats, m);
  moves = moveList(byId("moves-panel"), m, { onPick: (n) => replay && replay.go(n) });
  connection = connectionStatus(ui.connection, m);
  say(statusText());
  show();
  m.watch(onChange, (state) => connection && connection.set(state));
  document.body.dataset.ready = "game";
}

/** A change the page did not make itself: a move from another tab or device, a bot's, a seat taken. */
function onChange({ played }) {
  if (!match) return;
  const words = eventsText(played);
  if (played.length) {
    forgetHint();
    if (!match.view.view.shots.some((s) => lastShot && s.hole === lastShot.hole)) lastShot = null;
    const shot = played.flatMap((p) => p.events).find((e) => e.event === "shot");
    if (shot) {
      lastShot = { hole: shot.hole, exit: shot.exit };
      followShot = lastShot;
    }
    if (mark && isFound(mark.row, mark.col)) mark = null;
  }
  if (words && !step) {
    const who = match.myTurn() || match.mySeats().length > 0 ? "" : (match.view.players[0] || {}).kind === "bot" ? "Bot: " : "The player: ";
    say(`${who}${words}`);
  } else if (!step) {
    say(statusText());
  }
  if (over()) botRunning = false;
  show();
}

async function openMatch(id) {
  leaveMatch();
  delete document.body.dataset.ready;
  ui.start.hidden = true;
  ui.game.hidden = true;
  ui.gone.hidden = true;
  let m;
  try {
    m = await Match.open(GAME, id);
  } catch (e) {
    if (matchIdFromPath() !== id) return;
    ui.gone.hidden = false;
    gonePanel(ui.gone, GAME, e);
    document.body.dataset.ready = "gone";
    return;
  }
  if (matchIdFromPath() !== id) return;
  enterMatch(m);
}

/** Shows what the address names: a match, or the start screen. */
function route() {
  const id = matchIdFromPath();
  if (id) {
    if (!match || match.id !== id) openMatch(id);
  } else if (/^\/baffle\/m\//.test(location.pathname)) {
    leaveMatch();
    ui.start.hidden = true;
    ui.game.hidden = true;
    ui.gone.hidden = false;
    gonePanel(ui.gone, GAME, "This address names no game: a game's address is /baffle/m/ and 32 hexadecimal digits.");
    document.body.dataset.ready = "gone";
  } else {
    showStart();
  }
}

window.addEventListener("popstate", route);
route();
