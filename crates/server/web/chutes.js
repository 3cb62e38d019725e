// Chutes & Ladders: a match on the server, shown live on its board.
//
// Terms:
// - match page: /chutes/m/ID shows match ID (a reload, a bookmark or Back
//   brings it back); /chutes alone offers a new game.
// - new-game form: the NEXT game's board, rules, seats and dice. It never
//   changes the game in play: that game's board and rules are shown above
//   it, from the match's own setup.
// - show: the moves the page has been told of (its own rolls, other
//   people's, the bots'), played on the board one after another — a token
//   goes to the square the roll reached, then up the ladder or down the
//   chute. `shown` is the game as drawn so far; it catches up with the
//   match's view at the end of each show.
// - play to the end: the move API's `repeat` for this device's seats; with
//   other people or bots at the table the page sends it again whenever one
//   of its seats is to move, until the game ends or it is stopped.
// - board reference: `classic` or an upload's id, which draws the board
//   (`/api/chutes/boards/REF/svg`) and analyses it. A match keeps its own
//   copy of its board; a page that has no reference for it (a friend's, or
//   after a restart lost the upload) uploads that copy again.
// The rules are the server's: this page sends rolls and draws what it is told.
import { api, ApiFailure, el, byId, showError, readFile, sleep, readSeed, count, gameInfo, defaultPlans } from "/static/common.js";
import { Match, matchIdFromPath } from "/static/match.js";
import { MoveShow } from "/static/moveshow.js";
import { showDie } from "/static/dice.js";
import { seatChooser, invitePanel, gonePanel, replayBar, connectionStatus, confirmAction, moveList, playerName as nameOf, withNames } from "/static/matchui.js";
import { an, analyse, isAnalysing, showTab, startAnalysis } from "/static/chutes-analysis.js";
import { startDesigner } from "/static/chutes-design.js";

const GAME = "chutes";
/** This game in the registry (GET /api/games): seats, default rules, bounds. */
const INFO = await gameInfo(GAME);
const COLOURS = ["red", "purple", "orange", "black"];
const LEVELS = { easy: "Easy bot", normal: "Normal bot", hard: "Hard bot" };

const ui = {
  boardCaption: byId("board-caption"),
  board: byId("board"),
  boardPictureError: byId("board-picture-error"),
  gone: byId("gone"),
  gamePanel: byId("game-panel"),
  about: byId("about"),
  gameInfo: byId("game-info"),
  you: byId("you"),
  status: byId("status"),
  die: byId("die"),
  connection: byId("connection"),
  roll: byId("roll"),
  chosen: byId("chosen"),
  chosenRoll: byId("chosen-roll"),
  watch: byId("watch"),
  skip: byId("skip"),
  speed: byId("speed"),
  gameError: byId("game-error"),
  replay: byId("replay"),
  chancesChart: byId("chances-chart"),
  chancesChartImg: byId("chances-chart-img"),
  chancesSwing: byId("chances-swing"),
  playersBody: document.querySelector("#players-table tbody"),
  chances: byId("chances"),
  chancesWords: byId("chances-words"),
  chancesBar: byId("chances-bar"),
  seats: byId("seats"),
  jumps: byId("jumps"),
  gamePicture: byId("game-picture"),
  logPanel: byId("log-panel"),
  log: byId("log"),
  newPanel: byId("new-panel"),
  newHeading: byId("new-heading"),
  newNote: byId("new-note"),
  newForm: byId("new-form"),
  boardSelect: byId("board-select"),
  boardFile: byId("board-file"),
  boardFormats: byId("board-formats"),
  boardInfo: byId("board-info"),
  boardNotes: byId("board-notes"),
  boardError: byId("board-error"),
  overshoot: byId("overshoot"),
  faces: byId("faces"),
  seatChooser: byId("seat-chooser"),
  dice: byId("dice"),
  diceNote: byId("dice-note"),
  seedField: byId("seed-field"),
  seed: byId("seed"),
  newGame: byId("new-game"),
  newError: byId("new-error"),
};

// ---- Words ----

/** "the classic board", "Tiny test board", "trap.toml": a board's name, never "… board board". */
function boardName(board) {
  const name = (board && board.name) || "";
  if (!name) return `a board of ${count(board.size, "square", "squares")}`;
  if (name === "classic") return "the classic board";
  return name;
}

/** Upper-cases the first letter. */
function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function jumpsOf(board, kind) {
  return board.jumps.filter((j) => j.kind === kind);
}

/** "100 squares, 9 ladders, 10 chutes; tokens start off the board". */
function boardFacts(board) {
  const ladders = jumpsOf(board, "ladder").length;
  const chutes = jumpsOf(board, "chute").length;
  const start = board.start === 0 ? "tokens start off the board" : "tokens start on square 1";
  return `${count(board.size, "square", "squares")}, ${count(ladders, "ladder", "ladders")}, ${count(chutes, "chute", "chutes")}; ${start}`;
}

/** A board's name to begin a sentence with (a file's name keeps its case). */
function boardTitle(board) {
  const name = boardName(board);
  return board && board.name ? (board.name === "classic" ? capital(name) : name) : capital(name);
}

function describeBoard(board) {
  return `${boardTitle(board)}: ${boardFacts(board)}.`;
}

const OVERSHOOT_WORDS = {
  stay: "a roll past the finish is lost",
  bounce: "a roll past the finish bounces back",
  finish: "a roll past the finish finishes",
};

function rulesWords(rules) {
  const overshoot = OVERSHOOT_WORDS[rules.overshoot] || `overshoot: ${rules.overshoot}`;
  return `${overshoot}; a die of ${count(rules.faces, "face", "faces")}`;
}

/** Seat `seat`'s player's name (the match view's; "Player N" with none). */
function playerName(seat) {
  return match ? nameOf(match.view, seat) : `Player ${seat}`;
}

function playerWithColour(seat) {
  return `${playerName(seat)} (${COLOURS[(seat - 1) % COLOURS.length]})`;
}

/** Who sits in a seat, in words: "you", "a friend", "Normal bot", …. */
function seatWho(p) {
  if (p.kind === "bot") return LEVELS[p.level] || "a bot";
  if (p.yours) return p.state === "here" && isHotSeat() ? "here" : "you";
  switch (p.state) {
    case "here":
      return "at the maker's screen";
    case "open":
      return "a friend (not joined yet)";
    case "anyone":
      return "anyone (waiting in the lobby)";
    default:
      return "a player on another device";
  }
}

/**
 * Makes a refusal readable: no control characters or stray bytes, and not
 * longer than a few lines (a binary file's reading error quoted its bytes).
 */
function readable(message) {
  const clean = String(message || "")
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

/** True when a file's text is not text: NUL bytes, undecodable bytes or control characters. */
function looksBinary(text) {
  if (/[\u0000\uFFFD]/.test(text)) return true;
  const controls = text.match(/[\u0001-\u0008\u000E-\u001F\u007F]/g);
  return Boolean(controls && controls.length > 0);
}

// ---- Boards offered to the next game ----

/** Boards by reference ("classic" or an upload's id). */
const boards = new Map();

function addBoardOption(ref, board, select = ui.boardSelect) {
  if ([...select.options].some((o) => o.value === ref)) return;
  const label = ref === "classic" ? "Classic (100 squares)" : `${board.name || "Uploaded board"} (${count(board.size, "square", "squares")})`;
  select.append(el("option", { value: ref }, label));
}

function addBoard(ref, board) {
  boards.set(ref, board);
  addBoardOption(ref, board, ui.boardSelect);
  addBoardOption(ref, board, an.board);
}

function selectedBoard() {
  return boards.get(ui.boardSelect.value);
}

function showBoardInfo() {
  const board = selectedBoard();
  ui.boardInfo.textContent = board ? `Next game: ${describeBoard(board)}` : "";
  if (!match) previewBoard();
}

async function loadBoards() {
  const list = await api("GET", "/api/chutes/boards");
  for (const view of list.builtin) addBoard(view.id, view.board);
  ui.boardSelect.value = "classic";
  ui.boardFormats.textContent = `Formats: ${list.formats.map((f) => f.describe).join("; ")}.`;
  showBoardInfo();
}

async function uploadBoard() {
  const file = ui.boardFile.files[0];
  if (!file) return;
  showError(ui.boardError, "");
  ui.boardNotes.textContent = "";
  const name = readable(file.name);
  try {
    const text = await readFile(file);
    if (looksBinary(text)) {
      showError(ui.boardError, `${name} is not a text file: a board file is text (TOML, a board array, a LeetCode grid, …). Nothing was uploaded.`);
      return;
    }
    const view = await api("POST", "/api/chutes/boards", { text, file_name: file.name });
    // What the reader noticed (a LeetCode square holding its own label is no jump).
    ui.boardNotes.textContent = (view.notes || [])
      .map((n) => `Note: ${n.pos ? `line ${n.pos.line}, column ${n.pos.col}: ` : ""}${readable(n.message)}.`)
      .join(" ");
    addBoard(view.id, view.board);
    ui.boardSelect.value = view.id;
    showBoardInfo();
  } catch (e) {
    showError(ui.boardError, `${name}: ${readable(e.message)}`);
  } finally {
    ui.boardFile.value = "";
  }
}

/** Two boards are the same board: same squares, start, geometry and jumps. */
function sameBoard(a, b) {
  const key = (x) =>
    JSON.stringify([
      x.name || "",
      x.size,
      x.start,
      x.geometry ? [x.geometry.rows, x.geometry.cols, x.geometry.numbering] : null,
      x.jumps.map((j) => `${j.from}-${j.to}`).sort(),
    ]);
  return key(a) === key(b);
}

/** A board as a TOML board file (docs/board-files.md), to upload a match's copy again. */
function boardToml(board) {
  const lines = [];
  if (board.name) lines.push(`name = ${JSON.stringify(board.name)}`);
  lines.push(`size = ${board.size}`, `start = ${board.start}`);
  if (board.geometry) {
    lines.push(`rows = ${board.geometry.rows}`, `columns = ${board.geometry.cols}`);
    lines.push(`numbering = ${JSON.stringify(board.geometry.numbering)}`);
  }
  lines.push(`jumps = [${board.jumps.map((j) => `[${j.from}, ${j.to}]`).join(", ")}]`);
  return lines.join("\n") + "\n";
}

const BOARD_KEY = "parlor.chutes.board.";

/** A board reference for `board` (a match's copy): known, remembered, or uploaded again. */
async function boardRef(board, matchId) {
  for (const [ref, known] of boards) if (sameBoard(known, board)) return ref;
  let remembered = null;
  try {
    remembered = localStorage.getItem(BOARD_KEY + matchId);
  } catch {
    remembered = null;
  }
  if (remembered) {
    try {
      const view = await api("GET", `/api/chutes/boards/${encodeURIComponent(remembered)}`);
      if (sameBoard(view.board, board)) {
        addBoard(view.id, view.board);
        return view.id;
      }
    } catch {
      // Gone with a restart: upload the match's copy again.
    }
  }
  const view = await api("POST", "/api/chutes/boards", { text: boardToml(board), format: "toml" });
  addBoard(view.id, view.board);
  rememberBoard(matchId, view.id);
  return view.id;
}

function rememberBoard(matchId, ref) {
  try {
    localStorage.setItem(BOARD_KEY + matchId, ref);
  } catch {
    // Private windows may refuse storage: the board is uploaded again next time.
  }
}

// ---- The board picture and its tokens ----

const SVG_NS = "http://www.w3.org/2000/svg";
/** The board drawn now: its reference and board, and where its squares are. */
let drawn = null;

/** A square's rectangle in the picture's units (from its <rect>, so it works while hidden). */
function squareRect(svg, square) {
  const rect = svg.querySelector(`g.square[data-square="${square}"] > rect`);
  if (!rect) return null;
  const n = (name) => Number(rect.getAttribute(name));
  return { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
}

/**
 * Draws `board` (reference `ref`) in the board area: the server's picture,
 * cropped to its squares, with a start box left of square 1 where tokens
 * wait on a board whose tokens start off it (they used to be drawn outside
 * the picture, cut off at its edge). Resolves once the picture is in place
 * or could not be drawn; asked again for the board being drawn, it gives
 * the same promise.
 */
function drawBoard(ref, board) {
  if (drawn && drawn.ref === ref) return drawn.ready;
  drawn = { ref, board, tokens: [] };
  drawn.ready = putPicture(ref, board);
  return drawn.ready;
}

/** Fetches board `ref`'s picture and puts it in the board's place (drawBoard). */
async function putPicture(ref, board) {
  // The picture drawn before stays, dimmed, until this one comes: the
  // board's place never empties, so nothing below it moves meanwhile (a
  // button under the pointer would have moved from under a click).
  ui.board.setAttribute("aria-busy", "true");
  showError(ui.boardPictureError, "");
  let svgText;
  try {
    svgText = await api("GET", `/api/chutes/boards/${encodeURIComponent(ref)}/svg`);
  } catch (e) {
    if (drawn && drawn.ref === ref) {
      // Nothing drawn: the next call for this board tries again.
      drawn = null;
      ui.board.replaceChildren();
      ui.board.removeAttribute("aria-busy");
    }
    showError(ui.boardPictureError, `The board cannot be drawn: ${readable(e.message)}`);
    return;
  }
  if (!drawn || drawn.ref !== ref) return;
  ui.board.removeAttribute("aria-busy");
  // Cropped before it is shown, then put in the old one's place at once.
  const holder = document.createElement("div");
  holder.innerHTML = svgText;
  const svg = holder.querySelector("svg");
  if (!svg) {
    ui.board.replaceChildren();
    return;
  }
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  // Crop to the squares: the page says the title and the legend in words.
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const rect of svg.querySelectorAll("g.square > rect")) {
    const x = Number(rect.getAttribute("x"));
    const y = Number(rect.getAttribute("y"));
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x + Number(rect.getAttribute("width")));
    maxY = Math.max(maxY, y + Number(rect.getAttribute("height")));
  }
  const first = squareRect(svg, 1);
  if (!first || !Number.isFinite(minX)) {
    ui.board.replaceChildren(svg);
    return;
  }
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "page-layer");
  if (board.start === 0) {
    const w = first.width * 0.8;
    const box = { x: first.x - w - first.width * 0.08, y: first.y, width: w, height: first.height };
    drawn.startBox = box;
    const rect = document.createElementNS(SVG_NS, "rect");
    for (const [k, v] of Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height, rx: first.width * 0.08 })) {
      rect.setAttribute(k, String(v));
    }
    rect.setAttribute("class", "start-box");
    const label = document.createElementNS(SVG_NS, "text");
    label.setAttribute("x", String(box.x + box.width / 2));
    label.setAttribute("y", String(box.y + first.height * 0.2));
    label.setAttribute("font-size", String(first.width * 0.17));
    label.setAttribute("text-anchor", "middle");
    label.setAttribute("class", "start-label");
    label.textContent = "Start";
    layer.append(rect, label);
    minX = Math.min(minX, box.x);
  }
  const pad = first.width * 0.06;
  const box = { x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad };
  // The picture's background, stretched to the cropped picture.
  const background = svg.querySelector("rect.background");
  if (background) {
    for (const [k, v] of Object.entries(box)) background.setAttribute(k, String(v));
  }
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
  svg.setAttribute("width", String(box.width));
  svg.setAttribute("height", String(box.height));
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  byId("board-area").style.setProperty("--aspect", String(box.width / box.height));
  // The title, the facts and the legend are cut off: the page says them in words.
  for (const node of svg.querySelectorAll(":scope > text.title, :scope > text.subtitle, :scope > g.legend")) node.remove();
  // The page's own drawings go under the tokens, over the picture.
  svg.append(layer);
  ui.board.replaceChildren(svg);
  drawn.cell = first.width;
  placeTokens(shown ? shown.players.length : 0);
}

/** Where a token of `seat` stands on `square`: its square's quarter (or the start box). */
function tokenPoint(seat, square) {
  const svg = ui.board.querySelector("svg");
  if (!svg || !drawn) return null;
  let box = square === 0 ? drawn.startBox : squareRect(svg, square);
  if (!box && square === 0) box = squareRect(svg, 1);
  if (!box) return null;
  const dx = (seat % 2 === 1 ? -1 : 1) * box.width * 0.22;
  const dy = (seat <= 2 ? -1 : 1) * box.height * 0.17 + box.height * 0.1;
  return { x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 + dy };
}

function placeTokens(players) {
  const svg = ui.board.querySelector("svg");
  if (!drawn) return;
  drawn.tokens = [];
  if (!svg) return;
  svg.querySelector("#tokens")?.remove();
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("id", "tokens");
  // On a small screen the tokens grow (to about 24 CSS px across, their
  // number 12 px or more), so a phone's player can read them.
  const drawnWidth = ui.board.getBoundingClientRect().width || 800;
  const grow = Math.min(1.7, Math.max(1, 520 / drawnWidth));
  const size = (drawn.cell || 40) * grow;
  for (let seat = 1; seat <= players; seat++) {
    const token = document.createElementNS(SVG_NS, "g");
    token.setAttribute("class", `token p${seat}`);
    token.dataset.player = String(seat);
    const circle = document.createElementNS(SVG_NS, "circle");
    circle.setAttribute("r", String(size * 0.2));
    circle.setAttribute("stroke-width", String(size * 0.045));
    const number = document.createElementNS(SVG_NS, "text");
    number.setAttribute("font-size", String(size * 0.27));
    number.setAttribute("text-anchor", "middle");
    number.setAttribute("dy", String(size * 0.085));
    number.textContent = String(seat);
    token.append(circle, number);
    layer.append(token);
    drawn.tokens.push(token);
  }
  svg.append(layer);
  if (shown) shown.players.forEach((p, i) => moveToken(i + 1, p.square));
}

function moveToken(seat, square) {
  if (!drawn) return;
  const token = drawn.tokens[seat - 1];
  const point = tokenPoint(seat, square);
  if (!token || !point) return;
  token.style.transform = `translate(${point.x}px, ${point.y}px)`;
  token.dataset.square = String(square);
  describeBoardForReaders();
}

/** The board's label: what a screen reader says of it, tokens included. */
function describeBoardForReaders() {
  if (!shown || !setup) return;
  const where = shown.players
    .map((p, i) => `${playerWithColour(i + 1)} ${p.square === 0 ? "at the start" : `on square ${p.square}`}`)
    .join("; ");
  ui.board.setAttribute("aria-label", `The board, ${boardName(setup.board)}: ${boardFacts(setup.board)}. ${where}.`);
}

/** Shows the next game's board while no game is open. */
async function previewBoard() {
  const board = selectedBoard();
  if (!board) return;
  ui.boardCaption.textContent = `The next game's board: ${boardName(board)}`;
  await drawBoard(ui.boardSelect.value, board);
  ui.board.setAttribute("aria-label", `The next game's board, ${boardName(board)}: ${boardFacts(board)}.`);
}

// ---- The match ----

/** The match open on this page (a Match of match.js), or null on /chutes. */
let match = null;
/** The match's public setup: {board, rules}. */
let setup = null;
/** The game as drawn: the moves shown and each player's square and tally. */
let shown = null;
/** True while moves are being shown on the board (moveshow.js's show). */
let showing = false;
/** True while "play to the end" goes on for this device's seats. */
let autoplay = false;
/** The move a finished game is stepped to (null: its end). */
let replayAt = null;
/** matchui's parts for the match shown: invites, connection, replay bar, move list. */
let parts = { invites: null, connection: null, replay: null, moves: null };
/** The new-game form's seat chooser (matchui). */
let seats = null;

function isHotSeat() {
  return Boolean(match) && match.view.players.every((p) => p.kind === "bot" || (p.yours && p.state === "here"));
}

function isOver() {
  return Boolean(match) && match.view.status !== "playing";
}

function freshShown(view) {
  return {
    moves: view.moves,
    players: view.view.players.map((p) => ({ ...p })),
    chances: view.view.chances || null,
  };
}

/** Opens the match in the address. */
async function openMatch(id) {
  ui.status.textContent = "Opening the game…";
  let m;
  try {
    m = await Match.open(GAME, id);
  } catch (e) {
    showGone(e);
    return;
  }
  await showMatch(m);
  if (m.joinError) {
    const code = m.joinError.code;
    const why =
      code === "seat_taken"
        ? "Someone took that seat first: you are watching this game."
        : code === "bad_invite"
          ? "That invite link does not work any more (a new one may have been made): you are watching this game."
          : `The invite could not be used: ${readable(m.joinError.message)}`;
    showError(ui.gameError, why);
  }
}

/** Says what happened to a match that cannot be opened, and offers a new game. */
function showGone(reason) {
  match = null;
  setup = null;
  ui.gone.hidden = false;
  gonePanel(ui.gone, GAME, reason);
  ui.board.hidden = true;
  ui.boardCaption.textContent = "No game to show";
  ui.gamePanel.hidden = true;
  ui.about.hidden = true;
  ui.seats.hidden = true;
  ui.logPanel.hidden = true;
  byId("moves-panel").hidden = true;
  document.title = "No such game · Chutes & Ladders · Parlor";
}

/** Makes `m` the page's match: draws it, and follows it live. */
async function showMatch(m) {
  if (match) match.close();
  match = m;
  setup = m.setup;
  show.reset(m.view.moves);
  showing = false;
  held = [];
  autoplay = false;
  replayAt = null;
  replayStepAsked += 1;
  shown = freshShown(m.view);
  ui.gone.hidden = true;
  ui.board.hidden = false;
  ui.gamePanel.hidden = false;
  ui.about.hidden = false;
  ui.seats.hidden = false;
  ui.logPanel.hidden = false;
  ui.newHeading.textContent = "Start another game";
  ui.newNote.textContent =
    "This form is for the NEXT game: what you choose here changes nothing in the game above. Starting it opens the new game at its own address; this one stays at its own.";
  ui.boardCaption.textContent = `This game's board: ${boardName(setup.board)}`;
  ui.gameInfo.textContent = `${describeBoard(setup.board)} Rules: ${rulesWords(setup.rules)}; ${count(m.view.players.length, "player", "players")}; ${
    m.view.dice === "chosen" ? "each roll chosen at this screen" : "dice rolled by the server"
  }.`;
  document.title = `${boardTitle(setup.board)} · Chutes & Ladders · Parlor`;
  showJumps(setup.board);
  showError(ui.gameError, "");
  fillChosenRolls(setup.rules.faces);
  rebuildLog();
  byId("moves-panel").hidden = false;
  parts = {
    invites: invitePanel(ui.seats, m, { seatName: playerWithColour }),
    connection: connectionStatus(ui.connection, m),
    replay: null,
    // Once the game is over, a move chosen in the list is the replay's step.
    moves: moveList(byId("moves-panel"), m, { onPick: (n) => parts.replay && parts.replay.go(n) }),
  };
  ui.replay.replaceChildren();
  try {
    const ref = await boardRef(setup.board, m.id);
    drawn = null;
    await drawBoard(ref, setup.board);
    an.board.value = ref;
    an.overshoot.value = setup.rules.overshoot;
    an.players.value = String(Math.min(4, Math.max(2, m.view.players.length)));
  } catch (e) {
    showError(ui.boardPictureError, `The board cannot be drawn: ${readable(e.message)}`);
  }
  placeTokens(shown.players.length);
  render();
  m.watch(onLive, onConnection);
  if (isAnalysing()) analyse();
}

function showJumps(board) {
  const text = (kind) => jumpsOf(board, kind).map((j) => `${j.from}→${j.to}`).join(", ") || "none";
  ui.jumps.replaceChildren(
    el("span", {}, el("strong", {}, "Ladders: "), text("ladder")),
    el("br"),
    el("span", {}, el("strong", {}, "Chutes: "), text("chute")),
  );
}

function fillChosenRolls(faces) {
  ui.chosenRoll.replaceChildren(...Array.from({ length: faces }, (_, i) => el("option", { value: i + 1 }, String(i + 1))));
}

/** The log from the match's own words (its newest 300 events). */
function rebuildLog() {
  const lines = match.view.log || [];
  const items = [];
  if (lines.length && lines[0].number > 1) {
    items.push(el("li", { class: "note" }, `(the rolls before #${lines[0].number} are in the game's record)`));
  }
  for (const line of lines) items.push(logLine(line.number, line.seat, line.text, ""));
  ui.log.replaceChildren(...items);
  ui.log.scrollTop = ui.log.scrollHeight;
}

function logLine(number, seat, text, cls) {
  return el(
    "li",
    { class: cls, dataset: { move: number, seat } },
    el("span", { class: "n" }, `#${number}`),
    el("span", { class: `swatch p${seat}`, "aria-hidden": "true" }),
    playerWords(text),
  );
}

/** The server's "P1 rolls 4: …" as the page says it: "Ada rolls 4: …". */
function playerWords(text) {
  return match ? withNames(match.view, text) : String(text).replace(/^P(\d+)\b/, "Player $1");
}

function turnClass(turn) {
  if (turn.outcome === "won") return "won";
  return turn.jump ? turn.jump.kind : "";
}

// ---- Live changes and the show ----

/**
 * Live changes that came while this page's own move was on its way: shown
 * after its answer, which lists every move it played (the live stream may
 * skip a long run of moves and send only the view at its end).
 */
let held = [];

function onLive(change) {
  if (match && match.busy) {
    held.push(change);
    return;
  }
  enqueue(change.played || []);
}

/** Shows an answer to this page's move, then what came live meanwhile. */
function afterMove(answer) {
  if (answer) enqueue(answer.played);
  const changes = held;
  held = [];
  for (const change of changes) enqueue(change.played || []);
}

function onConnection(state) {
  if (state === "live") maybeAutoplay();
}

function enqueue(played) {
  show.push(played);
}

/**
 * The moves shown one after another (moveshow.js): each tallied and logged,
 * then its token walked; a long show (a bot's run, a reconnection) goes at
 * the chosen speed with Skip; skipped, or with reduced motion, the rest is
 * drawn at once.
 */
const show = new MoveShow({
  async step(move, how) {
    applyMoves([move]);
    if (how.quick) return;
    await animateMove(move, how.long ? Number(ui.speed.value) / 2 : 300, how.still);
    if (how.long && how.still()) await sleep(Number(ui.speed.value));
  },
  stepAll(moves) {
    applyMoves(moves);
  },
  onBusy(long) {
    showing = true;
    if (long) {
      ui.skip.hidden = false;
      // A screen reader hears the end of a long show, not every roll of it.
      ui.status.setAttribute("aria-busy", "true");
    }
    render();
  },
  onIdle() {
    ui.skip.hidden = true;
    ui.status.removeAttribute("aria-busy");
    if (match && shown) {
      // Moves the page was not told one by one (a reconnection, a long
      // absence): the log is taken as the view has it.
      if (match.view.moves > shown.moves) {
        shown = freshShown(match.view);
        rebuildLog();
      }
      // The server's tallies are the record: the drawn ones end on them.
      if (match.view.moves >= shown.moves) shown = freshShown(match.view);
      shown.players.forEach((p, i) => moveToken(i + 1, p.square));
    }
    showing = false;
    render();
    maybeAutoplay();
  },
});

/** Tallies and logs moves (one append: a long game must not lay the log out per line). */
function applyMoves(moves) {
  const lines = document.createDocumentFragment();
  for (const move of moves) {
    for (const turn of move.events || []) {
      const p = shown.players[turn.player - 1];
      if (!p) continue;
      // Each turn carries its player's tally after it: the page counts nothing.
      Object.assign(p, turn.tally);
      lines.append(logLine(move.number, move.seat, turn.text, turnClass(turn)));
    }
    shown.moves = Math.max(shown.moves, move.number);
  }
  ui.log.append(lines);
  ui.log.scrollTop = ui.log.scrollHeight;
  if (moves.length === 1) {
    const turn = (moves[0].events || [])[0];
    if (turn) ui.status.textContent = `${playerWords(turn.text)}${moves[0].bot ? " (bot)" : ""}.`;
  }
  showTallies();
}

/**
 * One move on the board: the die shows the roll, the token walks the count
 * square by square (at most about 0.6 s), then goes up or down the jump.
 * With `pause` 0 (a skip, reduced motion) it is put where it ends.
 */
async function animateMove(move, pause, still = () => true) {
  for (const turn of move.events || []) {
    if (pause > 0 && turn.roll) showDie(ui.die, turn.roll, `${playerName(turn.player)} rolled ${turn.roll}`);
    if (pause > 0 && turn.landed !== turn.from) {
      const step = turn.landed > turn.from ? 1 : -1;
      const each = Math.max(30, Math.min(110, 600 / Math.abs(turn.landed - turn.from)));
      for (let square = turn.from + step; square !== turn.landed; square += step) {
        moveToken(turn.player, square);
        await sleep(each);
        if (!still()) return;
      }
    }
    if (turn.jump && pause > 0) {
      moveToken(turn.player, turn.landed);
      await sleep(pause);
      if (!still()) return;
    }
    moveToken(turn.player, turn.to);
  }
}

// ---- Drawing the state ----

function render() {
  if (!match) return;
  showTallies();
  showStatus();
  showControls();
  if (parts.invites) parts.invites.update();
  if (parts.moves) parts.moves.update();
  describeBoardForReaders();
  const over = isOver();
  ui.gamePicture.hidden = match.view.moves === 0;
  ui.gamePicture.href = `/api/matches/${match.id}/svg`;
  ui.replay.hidden = !over || showing;
  // The look back: the chances over the whole game, once it is over.
  const charted = over && !showing && Boolean(match.view.view.chances);
  ui.chancesChart.hidden = !charted;
  const chart = `/api/matches/${match.id}/chances.svg`;
  if (charted && ui.chancesChartImg.getAttribute("src") !== chart) {
    ui.chancesChartImg.src = chart;
    nameTheBiggestSwing(match.id);
  }
  if (over && !showing && !parts.replay) {
    parts.replay = replayBar(ui.replay, match, onReplayStep);
  }
}

/**
 * Chances for people, in whole percents that add up to 100 (the largest
 * remainders round up); "<1%" and ">99%" near the ends, "0%" and "100%"
 * only when certain.
 */
function percents(chances) {
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

/** Each player's exact chance to win from the position shown, as words and a bar. */
function showChances() {
  const chances = shown && shown.chances;
  ui.chances.hidden = !chances || chances.length < 2;
  if (ui.chances.hidden) return;
  const words = percents(chances);
  ui.chancesWords.textContent = `Chances to win: ${chances.map((p, i) => `${playerName(i + 1)} ${words[i]}`).join(" · ")}`;
  ui.chancesBar.replaceChildren(
    ...chances.map((p, i) => {
      const part = el("span", { class: `chance p${i + 1}` });
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
  if (!match || match.id !== id) return;
  let best = null;
  for (let m = 1; m < figures.series.length; m++) {
    const line = ui.log.querySelector(`li[data-move="${m}"]`);
    const seat = line ? Number(line.dataset.seat) : 0;
    if (!seat) continue;
    const swing = figures.series[m][seat - 1] - figures.series[m - 1][seat - 1];
    if (!best || Math.abs(swing) > Math.abs(best.swing)) best = { m, swing, words: line.lastChild.textContent };
  }
  if (!best) return;
  const sign = best.swing >= 0 ? "+" : "−";
  ui.chancesSwing.textContent = `The biggest swing: move ${best.m}, ${best.words} (${sign}${Math.round(Math.abs(best.swing) * 100)}%).`;
}

function showTallies() {
  if (!match || !shown) return;
  showChances();
  const view = match.view;
  const winner = replayAt === null && !showing ? view.view.winner : null;
  const current = !isOver() && !showing ? view.to_move : null;
  ui.playersBody.replaceChildren(
    ...shown.players.map((p, i) => {
      const seat = i + 1;
      const info = view.players[i] || {};
      const cls = seat === winner ? "winner" : seat === current ? "current" : "";
      return el(
        "tr",
        { class: cls, dataset: { player: seat } },
        el(
          "th",
          { scope: "row" },
          el("span", { class: `swatch p${seat}`, "aria-hidden": "true" }),
          playerName(seat),
          el("span", { class: "who" }, ` (${seatWho(info)})`),
          seat === winner ? " ★ winner" : "",
        ),
        el("td", { class: "square" }, p.square === 0 ? "start" : String(p.square)),
        el("td", {}, String(p.rolls)),
        el("td", {}, String(p.ladders)),
        el("td", {}, String(p.chutes)),
        el("td", {}, String(p.lost_turns)),
      );
    }),
  );
}

/** The end of a finished game in words: the winner's own rolls, and the game's. */
function endWords(view) {
  const game = view.view;
  if (view.status === "won") {
    const w = game.winner;
    const own = game.players[w - 1].rolls;
    // The result in the match's own words ("You win", "You lost: Ada wins").
    const said = view.result ? view.result.words : `${playerName(w)} wins`;
    const whose = view.result && view.result.you_won === true ? "your" : "their";
    return game.players.length > 1
      ? `${said} after ${count(own, "roll", "rolls")} of ${whose} own (${game.rolls} in the game).`
      : `${said} after ${count(own, "roll", "rolls")}.`;
  }
  if (view.status === "stalled") {
    return `No winner: ${view.reason || "the game stopped"} (after ${count(game.rolls, "roll", "rolls")}).`;
  }
  return "The game is over.";
}

function showStatus() {
  if (showing || replayAt !== null) return;
  const view = match.view;
  const mine = match.mySeats();
  ui.you.textContent = !mine.length
    ? "You are watching this game."
    : isHotSeat()
      ? mine.length > 1
        ? "Every person's seat is played at this screen."
        : `You play ${playerWithColour(mine[0])}.`
      : `You play ${mine.map(playerWithColour).join(" and ")}.`;
  ui.status.classList.toggle("win", view.status === "won" && view.result?.you_won !== false);
  ui.status.dataset.winner = view.view.winner || "";
  if (view.status !== "playing") {
    ui.status.textContent = endWords(view);
    return;
  }
  const seat = view.to_move;
  const p = view.players[seat - 1] || {};
  if (p.kind === "bot") {
    ui.status.textContent = `${playerName(seat)} (${LEVELS[p.level] || "a bot"}) is rolling…`;
  } else if (p.state === "open") {
    ui.status.textContent = `${playerName(seat)} to roll: waiting for the friend invited to join.`;
  } else if (p.state === "anyone") {
    ui.status.textContent = `${playerName(seat)} to roll: waiting for someone to take the seat from the lobby.`;
  } else if (p.yours) {
    ui.status.textContent = isHotSeat() || mine.length > 1 ? `${playerName(seat)} to roll.` : `Your turn, ${playerName(seat)}: roll.`;
  } else {
    ui.status.textContent = `${playerName(seat)} to roll, on their own device.`;
  }
}

function canRoll() {
  return Boolean(match) && !isOver() && match.myTurn() && !match.busy && !showing && !autoplay;
}

function showControls() {
  const over = isOver();
  const mine = match.mySeats().length > 0;
  ui.roll.disabled = !canRoll();
  ui.roll.hidden = over || !mine;
  // A roll made from the keyboard keeps the focus on Roll for the next one
  // (disabling the button while the move is on its way dropped it).
  if (rollHadFocus && !ui.roll.disabled && !ui.roll.hidden) {
    rollHadFocus = false;
    ui.roll.focus();
  } else if (over || !mine) {
    rollHadFocus = false;
  }
  ui.chosen.hidden = over || match.view.dice !== "chosen" || !mine;
  ui.watch.hidden = over || !mine || match.view.dice === "chosen";
  // Disabled while a request is on its way: a double click starts it once.
  ui.watch.disabled = over || match.busy || (!autoplay && showing);
  ui.watch.textContent = autoplay ? "Stop playing to the end" : "Play to the end";
  ui.watch.setAttribute("aria-pressed", String(autoplay));
  ui.speed.closest(".speed-row").hidden = over || !mine;
  ui.roll.closest(".controls").hidden = over || !mine;
}

// ---- Moves ----

function failureWords(e) {
  if (!(e instanceof ApiFailure)) return readable(e.message);
  switch (e.code) {
    case "stale_move":
      return "That roll was not played: the game had already moved on (another tab or device played first). The board shows the game as it is now.";
    case "not_your_turn":
      return "It is not your turn.";
    case "game_over":
      return "The game is over: no more rolls.";
    case "unreachable":
      return "The server cannot be reached: the page reconnects by itself.";
    default:
      return readable(e.message);
  }
}

/** Roll had the focus when the last roll was asked for. */
let rollHadFocus = false;

async function roll(value) {
  if (!canRoll()) return;
  rollHadFocus = rollHadFocus || document.activeElement === ui.roll;
  showError(ui.gameError, "");
  const options = {};
  if (match.view.dice === "chosen") options.roll = Number(value ?? ui.chosenRoll.value);
  ui.roll.disabled = true;
  try {
    const pending = match.move("roll", options);
    render();
    afterMove(await pending);
  } catch (e) {
    afterMove(null);
    moveFailed(e);
  }
  render();
}

function moveFailed(e) {
  showError(ui.gameError, failureWords(e));
  if (e instanceof ApiFailure && ["stale_move", "game_over", "not_your_turn"].includes(e.code)) {
    // The match is read again: draw it as it is.
    match.refresh().then(
      () => {
        if (showing) return;
        shown = freshShown(match.view);
        rebuildLog();
        shown.players.forEach((p, i) => moveToken(i + 1, p.square));
        render();
      },
      () => {},
    );
  }
}

function toggleAutoplay() {
  if (!match || isOver() || !match.mySeats().length || match.view.dice === "chosen") return;
  autoplay = !autoplay;
  showError(ui.gameError, "");
  // The request goes out before the buttons are drawn again, so that they
  // are disabled before a second click can reach them.
  maybeAutoplay();
  render();
}

/** Plays this device's seats to the end while "play to the end" is on. */
async function maybeAutoplay() {
  if (!autoplay || !match) return;
  if (isOver()) {
    autoplay = false;
    render();
    return;
  }
  if (showing || match.busy || !match.myTurn()) return;
  try {
    const pending = match.move("roll", { repeat: true });
    render();
    afterMove(await pending);
  } catch (e) {
    afterMove(null);
    // A server that cannot be reached is tried again once the live
    // connection is back; any other refusal stops playing to the end.
    if (!(e instanceof ApiFailure) || e.status !== 0) autoplay = false;
    moveFailed(e);
  }
  render();
}

// ---- A finished game: replay and record ----

/** The replay step asked for last: a step still moving its tokens stops when another is asked for. */
let replayStepAsked = 0;

/** Draws one step of the replay bar: the game after its first `step.at` moves. */
async function onReplayStep(step) {
  const asked = ++replayStepAsked;
  const total = match.view.moves;
  const before = replayAt ?? total;
  replayAt = step.at === total ? null : step.at;
  shown = {
    moves: step.at,
    players: step.view.view.players.map((p) => ({ ...p })),
    chances: step.view.view.chances || null,
  };
  for (const li of ui.log.querySelectorAll("li.replay-current")) li.classList.remove("replay-current");
  const line = ui.log.querySelector(`li[data-move="${step.at}"]`);
  if (line) {
    line.classList.add("replay-current");
    line.scrollIntoView({ block: "nearest" });
  }
  if (step.played && step.at === before + 1) {
    await animateMove(step.played, 250, () => asked === replayStepAsked);
    // Another step was asked for while this one moved: it shows itself.
    if (asked !== replayStepAsked) return;
  }
  shown.players.forEach((p, i) => moveToken(i + 1, p.square));
  showTallies();
  if (replayAt === null) {
    for (const li of ui.log.querySelectorAll("li.replay-current")) li.classList.remove("replay-current");
    showStatus();
  } else if (step.at === 0) {
    ui.status.textContent = `Replay: the start, before the first roll (${count(total, "move", "moves")} in all).`;
  } else {
    const turn = (step.played && step.played.events ? step.played.events : [])[0];
    ui.status.textContent = `Replay, move ${step.at} of ${total}: ${turn ? playerWords(turn.text) : ""}.`;
  }
}

// ---- The new-game form ----

function plans() {
  return seats ? seats.plans() : ["here"];
}

/** The seed is offered only when no seat waits for someone; chosen dice only at one screen. */
function showSeedField() {
  const p = plans();
  const someoneComes = p.some((x) => x === "open" || x === "anyone");
  const chosen = ui.dice.value === "chosen";
  ui.seedField.hidden = someoneComes || chosen;
  if (chosen && p.some((x) => x !== "here")) {
    ui.diceNote.textContent = "Chosen rolls need every seat here, at this screen: no friend, no one from the lobby, no bot.";
  } else if (someoneComes) {
    ui.diceNote.textContent = "A game others join draws its own secret seed, so that nobody knows the dice.";
  } else {
    ui.diceNote.textContent = "";
  }
}

async function startGame(event) {
  if (event) event.preventDefault();
  showError(ui.newError, "");
  const board = ui.boardSelect.value;
  // The die's bounds are the game's (the registry's); the server checks them.
  const faces = Number(ui.faces.value);
  const bounds = INFO?.setup_limits?.faces;
  if (!Number.isInteger(faces) || (bounds && (faces < bounds.min || faces > bounds.max))) {
    showError(ui.newError, bounds ? `The die has ${bounds.min} to ${bounds.max} faces.` : "The die has a whole number of faces.");
    ui.faces.focus();
    return;
  }
  const seatPlans = plans();
  const dice = ui.dice.value;
  if (dice === "chosen" && seatPlans.some((x) => x !== "here")) {
    showError(ui.newError, "Chosen rolls need every seat here, at this screen: make each seat “Here”, or let the server roll.");
    return;
  }
  const request = { setup: { board, overshoot: ui.overshoot.value, faces }, seats: seatPlans, dice };
  if (!ui.seedField.hidden) {
    try {
      const seed = readSeed(ui.seed.value);
      if (seed !== undefined) request.seed = seed;
    } catch (e) {
      showError(ui.newError, e.message);
      ui.seed.focus();
      return;
    }
  }
  if (match && !isOver() && match.mySeats().length && match.view.moves > 0) {
    const ok = await confirmAction(
      "The game in play is not over. It stays at its address (Back returns to it), but this page will show the new game.",
      { title: "Start a new game?", confirm: "Start the new game", cancel: "Keep playing this one" },
    );
    if (!ok) return;
  }
  ui.newGame.disabled = true;
  try {
    const m = await Match.create(GAME, request);
    rememberBoard(m.id, board);
    await showMatch(m);
    // The game from the top of the page: the header, then the board (the
    // form it was started from may be far below on a narrow screen).
    window.scrollTo({ top: 0 });
    if (!ui.roll.hidden && !ui.roll.disabled) ui.roll.focus();
  } catch (e) {
    showError(ui.newError, readable(e.message));
  } finally {
    ui.newGame.disabled = false;
  }
}

function goToNewGame() {
  ui.newPanel.scrollIntoView({ block: "start" });
  ui.boardSelect.focus();
}

// ---- Keys ----

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && target.closest && target.closest("input, select, textarea, [contenteditable], dialog, .replay-buttons")) return;
  if (isAnalysing()) return;
  const key = event.key;
  if (key === "r" || key === "R") {
    roll();
  } else if (key === "e" || key === "E") {
    toggleAutoplay();
  } else if (key === "s" || key === "S") {
    show.skip();
  } else if (key === "n" || key === "N") {
    goToNewGame();
  } else if (/^[1-9]$/.test(key) && match && match.view.dice === "chosen") {
    if (Number(key) <= setup.rules.faces && canRoll()) {
      ui.chosenRoll.value = key;
      roll(Number(key));
    }
  } else if (parts.replay && isOver() && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(key)) {
    if (target && target.closest && target.closest("button, a, [tabindex]") && (key === "Home" || key === "End")) return;
    const at = parts.replay.at();
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: match.view.moves }[key];
    parts.replay.go(to);
  } else {
    return;
  }
  event.preventDefault();
}

ui.boardSelect.addEventListener("change", showBoardInfo);
ui.boardFile.addEventListener("change", uploadBoard);
ui.dice.addEventListener("change", showSeedField);
ui.newForm.addEventListener("submit", startGame);
// The second click of a double click is not a second move: the first
// roll's answer may already have made Roll the next person's.
ui.roll.addEventListener("click", (event) => {
  if (event.detail <= 1) roll();
});
ui.watch.addEventListener("click", (event) => {
  if (event.detail <= 1) toggleAutoplay();
});
ui.skip.addEventListener("click", () => show.skip());
document.addEventListener("keydown", onKey);
// Back and Forward between a game and the new-game page: show what the
// address names.
window.addEventListener("popstate", () => location.reload());

/** The analysis tab and its designer, told what they need of this page. */
function startTabs() {
  startAnalysis({
    boards,
    boardTitle,
    readable,
    overshootWords: OVERSHOOT_WORDS,
    formChoice: () => (match ? null : { board: ui.boardSelect.value, overshoot: ui.overshoot.value }),
    faces: (board) => (match && setup && board && sameBoard(board, setup.board) ? setup.rules.faces : null),
  });
  startDesigner({
    addBoard,
    describeBoard,
    readable,
    play(ref, players) {
      ui.boardSelect.value = ref;
      showBoardInfo();
      if (seats && players >= 2) seats.setCount(players);
      showTab("play");
    },
  });
}
startTabs();

async function main() {
  const most = INFO?.max_seats ?? 1;
  if (INFO) {
    ui.faces.min = String(INFO.setup_limits.faces.min);
    ui.faces.max = String(INFO.setup_limits.faces.max);
    ui.faces.value = String(INFO.default_setup.faces);
    ui.overshoot.value = INFO.default_setup.overshoot;
  }
  seats = seatChooser(ui.seatChooser, {
    game: GAME,
    min: INFO?.min_seats ?? 1,
    max: most,
    botLevels: INFO?.bot_levels,
    // Two players to begin with: a game among people at one screen.
    initial: Math.min(2, most),
    defaults: Array.from({ length: most }, (_, i) => defaultPlans(INFO)[i] || "here"),
    seatName: playerWithColour,
    onChange: showSeedField,
  });
  showSeedField();
  try {
    await loadBoards();
  } catch (e) {
    showError(ui.boardError, readable(e.message));
  }
  const id = matchIdFromPath();
  if (id) {
    await openMatch(id);
  } else if (location.pathname.startsWith("/chutes/m/")) {
    showGone("This address names no game: a game's address is /chutes/m/ followed by 32 letters and digits.");
  } else {
    ui.newHeading.textContent = "New game";
    // Ready once the next game's board is drawn: the form below it is
    // where it stays.
    await previewBoard();
  }
  document.body.dataset.ready = "yes";
}

main();
