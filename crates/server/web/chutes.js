// Chutes & Ladders: choose a board, play roll by roll or watch a whole game.
// The rules are the server's: this page sends rolls and shows the turns it
// gets back.
import { api, el, byId, showError, readFile, sleep, readSeed, count } from "/static/common.js";

const ui = {
  boardSelect: byId("board-select"),
  boardFile: byId("board-file"),
  boardInfo: byId("board-info"),
  boardError: byId("board-error"),
  boardNotes: byId("board-notes"),
  players: byId("players"),
  overshoot: byId("overshoot"),
  seed: byId("seed"),
  newGame: byId("new-game"),
  gameError: byId("game-error"),
  status: byId("status"),
  roll: byId("roll"),
  watch: byId("watch"),
  skip: byId("skip"),
  speed: byId("speed"),
  playersBody: document.querySelector("#players-table tbody"),
  jumps: byId("jumps"),
  board: byId("board"),
  boardPictureError: byId("board-picture-error"),
  gamePicture: byId("game-picture"),
  log: byId("log"),
};

/** Boards offered, by reference ("classic" or an upload's id). */
const boards = new Map();
/** The game as the server last described it. */
let game = null;
/** What the page shows: each player's tally, advanced turn by turn. */
let shown = [];
let watching = false;
let skipping = false;

function describeBoard(board) {
  const ladders = board.jumps.filter((j) => j.kind === "ladder").length;
  const chutes = board.jumps.filter((j) => j.kind === "chute").length;
  const name = board.name || "unnamed board";
  const start = board.start === 0 ? "tokens start off the board" : "tokens start on square 1";
  return `${name}: ${board.size} squares, ${ladders} ladders, ${chutes} chutes; ${start}.`;
}

function addBoard(view) {
  boards.set(view.id, view.board);
  const label = view.id === "classic" ? "Classic (100 squares)" : `${view.board.name || "uploaded"} (${view.board.size} squares)`;
  ui.boardSelect.append(el("option", { value: view.id }, label));
}

function selectedBoard() {
  return boards.get(ui.boardSelect.value);
}

function showBoardInfo() {
  const board = selectedBoard();
  ui.boardInfo.textContent = board ? describeBoard(board) : "";
}

async function loadBoards() {
  const list = await api("GET", "/api/chutes/boards");
  for (const view of list.builtin) addBoard(view);
  ui.boardSelect.value = "classic";
  ui.boardFile.title = "Formats: " + list.formats.map((f) => f.describe).join("; ");
  showBoardInfo();
}

async function uploadBoard() {
  const file = ui.boardFile.files[0];
  if (!file) return;
  showError(ui.boardError, "");
  ui.boardNotes.textContent = "";
  try {
    const text = await readFile(file);
    const view = await api("POST", "/api/chutes/boards", { text, file_name: file.name });
    // What the reader noticed (a LeetCode square holding its own label is no jump).
    ui.boardNotes.textContent = (view.notes || [])
      .map((n) => `Note: ${n.pos ? `line ${n.pos.line}, column ${n.pos.col}: ` : ""}${n.message}.`)
      .join(" ");
    addBoard(view);
    ui.boardSelect.value = view.id;
    showBoardInfo();
  } catch (e) {
    showError(ui.boardError, `${file.name}: ${e.message}`);
  } finally {
    ui.boardFile.value = "";
  }
}

function jumpText(jump) {
  return `${jump.from}→${jump.to}`;
}

function showJumps(board) {
  const ladders = board.jumps.filter((j) => j.kind === "ladder").map(jumpText);
  const chutes = board.jumps.filter((j) => j.kind === "chute").map(jumpText);
  ui.jumps.replaceChildren(
    el("span", {}, el("strong", {}, "Ladders: "), ladders.join(", ") || "none"),
    el("br"),
    el("span", {}, el("strong", {}, "Chutes: "), chutes.join(", ") || "none"),
  );
}

// The board picture comes from the server (Parlor's renderer); the page only
// adds one token per player and moves it to the square each turn names,
// finding squares by their data-square attributes.
const SVG_NS = "http://www.w3.org/2000/svg";
let drawnBoard = null;
let tokens = [];

async function drawBoard(view) {
  if (drawnBoard === view.board_id) {
    placeTokens(view.players.length);
    return;
  }
  drawnBoard = view.board_id;
  ui.board.replaceChildren();
  showError(ui.boardPictureError, "");
  try {
    const svg = await api("GET", `/api/chutes/boards/${encodeURIComponent(view.board_id)}/svg`);
    ui.board.innerHTML = svg;
  } catch (e) {
    showError(ui.boardPictureError, e.message);
  }
  placeTokens(view.players.length);
}

function squareBox(square) {
  const svg = ui.board.querySelector("svg");
  if (!svg) return null;
  const cell = svg.querySelector(`g.square[data-square="${square}"]`);
  if (cell) return cell.getBBox();
  // Off the board (square 0): just left of square 1.
  const first = svg.querySelector('g.square[data-square="1"]');
  if (!first) return null;
  const b = first.getBBox();
  return { x: b.x - b.width * 0.75, y: b.y, width: b.width, height: b.height };
}

function placeTokens(players) {
  const svg = ui.board.querySelector("svg");
  tokens = [];
  if (!svg) return;
  svg.querySelector("#tokens")?.remove();
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("id", "tokens");
  const size = squareBox(1)?.width || 40;
  for (let seat = 1; seat <= players; seat++) {
    const token = document.createElementNS(SVG_NS, "circle");
    token.setAttribute("r", String(size * 0.16));
    token.setAttribute("stroke-width", String(size * 0.04));
    token.setAttribute("class", `token p${seat}`);
    token.dataset.player = String(seat);
    layer.append(token);
    tokens.push(token);
  }
  svg.append(layer);
  shown.forEach((p, i) => moveToken(i + 1, p.square));
}

function moveToken(seat, square) {
  const token = tokens[seat - 1];
  const box = squareBox(square);
  if (!token || !box) return;
  // Seats share a square in its four quarters.
  const dx = (seat % 2 === 1 ? -1 : 1) * box.width * 0.2;
  const dy = (seat <= 2 ? -1 : 1) * box.height * 0.12 + box.height * 0.08;
  token.style.transform = `translate(${box.x + box.width / 2 + dx}px, ${box.y + box.height / 2 + dy}px)`;
  token.dataset.square = String(square);
}

/** Shows one turn on the board: to the square the count reached, then up or down the jump. */
async function animateTurn(turn, pause) {
  if (turn.jump && pause > 0) {
    moveToken(turn.player, turn.landed);
    await sleep(pause);
  }
  moveToken(turn.player, turn.to);
}

function freshTallies(view) {
  return view.players.map(() => ({ square: view.board.start, rolls: 0, ladders: 0, chutes: 0, lost_turns: 0 }));
}

/** Advances the shown tallies by one turn the server played. */
function tallyTurn(turn) {
  const p = shown[turn.player - 1];
  p.square = turn.to;
  p.rolls += 1;
  if (turn.jump && turn.jump.kind === "ladder") p.ladders += 1;
  if (turn.jump && turn.jump.kind === "chute") p.chutes += 1;
  if (turn.outcome === "lost_turn") p.lost_turns += 1;
}

/** Tallies one turn and logs it. */
function applyTurn(turn) {
  applyTurns([turn]);
}

/**
 * Tallies turns and logs them with one append and one scroll: a game that
 * stalls plays 20,000 rolls, and laying the log out after each line would
 * freeze the page.
 */
function applyTurns(turns) {
  turns.forEach(tallyTurn);
  const lines = document.createDocumentFragment();
  for (const turn of turns) lines.append(logLine(turn));
  ui.log.append(lines);
  ui.log.scrollTop = ui.log.scrollHeight;
}

function logLine(turn) {
  const who = el("span", {}, el("span", { class: `swatch p${turn.player}` }), `Player ${turn.player}`);
  let what;
  let cls = "";
  if (turn.outcome === "lost_turn") {
    what = `rolls ${turn.roll}: too far, stays on ${turn.from}`;
  } else {
    what = `rolls ${turn.roll}: ${turn.from} → ${turn.landed}`;
    if (turn.jump) {
      cls = turn.jump.kind;
      what += turn.jump.kind === "ladder" ? `, climbs a ladder to ${turn.to}` : `, slides down a chute to ${turn.to}`;
    }
    if (turn.outcome === "won") {
      cls = "won";
      what += " and wins!";
    }
  }
  return el("li", { class: cls, dataset: { turn: turn.number } }, el("span", { class: "n" }, `#${turn.number}`), who, " ", what);
}

function showTallies(current, winner) {
  ui.playersBody.replaceChildren(
    ...shown.map((p, i) => {
      const seat = i + 1;
      const cls = seat === winner ? "winner" : seat === current ? "current" : "";
      return el(
        "tr",
        { class: cls, dataset: { player: seat } },
        el("td", {}, el("span", { class: `swatch p${seat}` }), `Player ${seat}`, seat === winner ? " ★" : ""),
        el("td", { class: "square" }, p.square === 0 ? "start" : p.square),
        el("td", {}, p.rolls),
        el("td", {}, p.ladders),
        el("td", {}, p.chutes),
        el("td", {}, p.lost_turns),
      );
    }),
  );
}

function showStatus(toMove, winner, rolls) {
  ui.status.classList.toggle("win", Boolean(winner));
  if (winner) {
    ui.status.textContent = `Player ${winner} wins after ${count(rolls, "roll", "rolls")}.`;
  } else if (game && game.stalled) {
    ui.status.textContent = `No winner after ${count(rolls, "roll", "rolls")}: this board's finish may be out of reach.`;
  } else {
    ui.status.textContent = `Player ${toMove} to roll.`;
  }
  ui.status.dataset.winner = winner || "";
}

function showFinal() {
  // The server's tallies are the record; the shown ones must agree.
  shown = game.players.map((p) => ({ ...p }));
  shown.forEach((p, i) => moveToken(i + 1, p.square));
  showTallies(game.to_move, game.winner);
  showStatus(game.to_move, game.winner, game.rolls);
  const over = Boolean(game.winner) || game.stalled;
  ui.gamePicture.hidden = game.rolls === 0;
  ui.gamePicture.href = `/api/chutes/games/${game.id}/svg`;
  ui.roll.disabled = over || watching;
  ui.watch.disabled = over || watching;
}

async function newGame() {
  showError(ui.gameError, "");
  const body = {
    board: ui.boardSelect.value,
    players: Number(ui.players.value),
    overshoot: ui.overshoot.value,
  };
  try {
    const seed = readSeed(ui.seed.value);
    if (seed !== undefined) body.seed = seed;
  } catch (e) {
    showError(ui.gameError, e.message);
    return;
  }
  try {
    game = await api("POST", "/api/chutes/games", body);
  } catch (e) {
    showError(ui.gameError, e.message);
    return;
  }
  shown = freshTallies(game);
  ui.log.replaceChildren();
  showJumps(game.board);
  await drawBoard(game);
  ui.seed.placeholder = `random (this game: ${game.seed})`;
  showFinal();
}

async function rollOnce() {
  if (!game) return;
  showError(ui.gameError, "");
  try {
    const result = await api("POST", `/api/chutes/games/${game.id}/turns`, {});
    game = result.game;
    for (const turn of result.played) {
      applyTurn(turn);
      await animateTurn(turn, 300);
    }
  } catch (e) {
    showError(ui.gameError, e.message);
  }
  showFinal();
}

async function watchToEnd() {
  if (!game) return;
  showError(ui.gameError, "");
  let result;
  try {
    result = await api("POST", `/api/chutes/games/${game.id}/finish`, {});
  } catch (e) {
    showError(ui.gameError, e.message);
    return;
  }
  game = result.game;
  watching = true;
  skipping = false;
  ui.roll.disabled = true;
  ui.watch.disabled = true;
  ui.newGame.disabled = true;
  ui.skip.hidden = false;
  const played = result.played;
  for (let i = 0; i < played.length; i++) {
    if (skipping) {
      // The rest at once; showFinal puts the tokens where they ended.
      applyTurns(played.slice(i));
      break;
    }
    const turn = played[i];
    applyTurn(turn);
    await animateTurn(turn, Number(ui.speed.value) / 2);
    const next = turn.player % shown.length + 1;
    showTallies(next, turn.outcome === "won" ? turn.player : null);
    showStatus(next, turn.outcome === "won" ? turn.player : null, turn.number);
    await sleep(Number(ui.speed.value));
  }
  watching = false;
  ui.skip.hidden = true;
  ui.newGame.disabled = false;
  showFinal();
}

// ---- Analysis: the server's exact figures and pictures of the chosen board ----

const an = {
  tabPlay: byId("tab-play"),
  tabAnalysis: byId("tab-analysis"),
  section: byId("analysis"),
  status: byId("analysis-status"),
  error: byId("analysis-error"),
  figures: byId("figures"),
  seats: byId("seat-table"),
  distribution: byId("plot-distribution"),
  seatPlot: byId("plot-seats"),
  heatmap: byId("plot-heatmap"),
  chutes: byId("k-chutes"),
  ladders: byId("k-ladders"),
  find: byId("find-shortest"),
  shortestError: byId("shortest-error"),
  summary: byId("shortest-summary"),
  routes: byId("routes"),
};
let analysing = false;

function showTab(which) {
  analysing = which === "analysis";
  for (const node of document.querySelectorAll(".play-only")) node.hidden = analysing;
  for (const node of document.querySelectorAll(".analysis-only")) node.hidden = !analysing;
  an.tabPlay.setAttribute("aria-selected", String(!analysing));
  an.tabAnalysis.setAttribute("aria-selected", String(analysing));
  if (analysing) analyse();
}

function rulesQuery(extra = {}) {
  const q = new URLSearchParams({ overshoot: ui.overshoot.value, ...extra });
  return q.toString();
}

function boardPath() {
  return `/api/chutes/boards/${encodeURIComponent(ui.boardSelect.value)}`;
}

const pct = (p) => `${(100 * p).toFixed(2)}%`;

async function loadPlot(box, kind, extra) {
  box.replaceChildren();
  try {
    box.innerHTML = await api("GET", `${boardPath()}/plots/${kind}?${rulesQuery(extra)}`);
  } catch (e) {
    box.replaceChildren(el("p", { class: "error" }, e.message));
  }
}

async function analyse() {
  showError(an.error, "");
  const players = Math.max(2, Number(ui.players.value));
  an.status.textContent = "Analysing…";
  let a;
  try {
    a = await api("GET", `${boardPath()}/analysis?${rulesQuery({ players })}`);
  } catch (e) {
    an.status.textContent = "";
    showError(an.error, e.message);
    return;
  }
  const board = selectedBoard();
  an.status.textContent = `${board && board.name ? board.name : "This board"}: exact figures for the overshoot rule “${a.rules.overshoot}”.`;
  const row = (name, value) => el("tr", {}, el("th", {}, name), el("td", {}, value));
  const rolls = (n) => (n === null || n === undefined ? "—" : `${n} rolls`);
  an.figures.replaceChildren(
    row("Mean length", a.mean === null ? "— (some games never end)" : `${a.mean.toFixed(3)} rolls`),
    row("Standard deviation", a.sd === null ? "—" : a.sd.toFixed(3)),
    row("Median", rolls(a.median)),
    row("Most likely", rolls(a.mode)),
    row("Shortest possible", rolls(a.shortest)),
    row("95% of games within", rolls(a.percentiles.p95)),
    row("No chute or ladder at all", pct(a.no_jump)),
    row("Never ends", pct(a.never)),
  );
  an.figures.dataset.mean = a.mean === null ? "" : String(a.mean);
  an.seats.replaceChildren(
    el("tr", {}, el("th", {}, `${a.seats.players} players`), el("th", {}, "Chance to win")),
    ...a.seats.seat_win.map((p, i) =>
      el("tr", { dataset: { seat: i + 1 } }, el("td", {}, el("span", { class: `swatch p${i + 1}` }), `Seat ${i + 1}`), el("td", {}, pct(p))),
    ),
  );
  await Promise.all([
    loadPlot(an.distribution, "distribution", {}),
    loadPlot(an.seatPlot, "seats", { players }),
    loadPlot(an.heatmap, "heatmap", {}),
  ]);
  findShortest();
}

async function findShortest() {
  showError(an.shortestError, "");
  an.summary.textContent = "Searching…";
  an.routes.replaceChildren();
  const extra = {};
  for (const [key, input] of [["chutes", an.chutes], ["ladders", an.ladders]]) {
    const v = input.value.trim();
    if (v !== "") extra[key] = v;
  }
  let s;
  try {
    s = await api("GET", `${boardPath()}/shortest?${rulesQuery(extra)}`);
  } catch (e) {
    an.summary.textContent = "";
    showError(an.shortestError, e.message);
    return;
  }
  const what = [
    s.constraint.chutes !== null ? `exactly ${s.constraint.chutes} chute${s.constraint.chutes === 1 ? "" : "s"}` : "",
    s.constraint.ladders !== null ? `exactly ${s.constraint.ladders} ladder${s.constraint.ladders === 1 ? "" : "s"}` : "",
  ].filter(Boolean).join(" and ");
  const scope = what ? `The shortest game with ${what}` : "The shortest game";
  if (s.rolls === null) {
    an.summary.textContent = `${scope}: there is none on this board.`;
    an.summary.dataset.rolls = "";
    return;
  }
  const routes = s.routes === null ? `routes not counted (${s.routes_error})` : `${s.routes} distinct route${s.routes === "1" ? "" : "s"}`;
  an.summary.textContent = `${scope} takes ${s.rolls} rolls: ${s.sequences} dice sequence${s.sequences === "1" ? "" : "s"}, ${routes}. For example: ${s.example.join(" ")}.`;
  an.summary.dataset.rolls = String(s.rolls);
  an.routes.replaceChildren(
    ...s.route_list.map((r) =>
      el(
        "li",
        {},
        r.jumps.length ? r.jumps.map((j) => `${j.kind} ${j.from}→${j.to}`).join(", ") : "no chute or ladder",
        el("span", { class: "note" }, ` — ${r.sequences} sequence${r.sequences === "1" ? "" : "s"}, e.g. ${r.example.join(" ")}`),
      ),
    ),
  );
}

an.tabPlay.addEventListener("click", () => showTab("play"));
an.tabAnalysis.addEventListener("click", () => showTab("analysis"));
an.find.addEventListener("click", findShortest);
for (const input of [ui.overshoot, ui.players]) input.addEventListener("change", () => analysing && analyse());

ui.boardSelect.addEventListener("change", () => analysing && analyse());
ui.boardSelect.addEventListener("change", showBoardInfo);
ui.boardFile.addEventListener("change", uploadBoard);
ui.newGame.addEventListener("click", newGame);
ui.roll.addEventListener("click", rollOnce);
ui.watch.addEventListener("click", watchToEnd);
ui.skip.addEventListener("click", () => { skipping = true; });

loadBoards()
  .then(newGame)
  .catch((e) => showError(ui.boardError, e.message));
