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
import { ApiFailure, el, byId, showError, sleep, count, gameInfo } from "/static/common.js";
import { Match, matchIdFromPath } from "/static/match.js";
import { MoveShow } from "/static/moveshow.js";
import { invitePanel, gonePanel, replayBar, connectionStatus, confirmAction, moveList, playerName as nameOf, withNames } from "/static/matchui.js";
import { an, analyse, isAnalysing, showTab, startAnalysis } from "/static/chutes-analysis.js";
import { startDesigner } from "/static/chutes-design.js";
import { chutesBoard } from "/static/chutes-board.js";
import { chancesDisplay } from "/static/chutes-chances.js";
import { boards, addBoard, boardRef, rememberBoard, sameBoard, chutesStart } from "/static/chutes-start.js";
import { withColour, showPlayers, youWords, statusWords } from "/static/chutes-players.js";
import { boardName, boardFacts, boardTitle, describeBoard, rulesWords, jumpsOf, readable, OVERSHOOT_WORDS } from "/static/chutes-words.js";

const GAME = "chutes";
/** This game in the registry (GET /api/games): seats, default rules, bounds. */
const INFO = await gameInfo(GAME);

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

/** The board and its tokens (chutes-board.js). */
const boardPicture = chutesBoard(ui, {
  squares: () => (shown ? shown.players.map((p) => p.square) : null),
  described: () => describeBoardForReaders(),
  playerName: (seat) => playerName(seat),
});

/** The chances and the look back (chutes-chances.js). */
const chances = chancesDisplay(ui, {
  playerName: (seat) => playerName(seat),
  lineOf(n) {
    const line = ui.log.querySelector(`li[data-move="${n}"]`);
    return line ? { seat: Number(line.dataset.seat), words: line.lastChild.textContent } : null;
  },
  current: (id) => Boolean(match) && match.id === id,
});

/** The new game's fields (chutes-start.js). */
const form = chutesStart(ui, {
  info: INFO,
  game: GAME,
  idle: () => !match,
  preview: () => previewBoard(),
  seatName: (seat) => playerWithColour(seat),
});

/** Seat `seat`'s player's name (the match view's; "Player N" with none). */
function playerName(seat) {
  return match ? nameOf(match.view, seat) : `Player ${seat}`;
}

function playerWithColour(seat) {
  return withColour(playerName(seat), seat);
}

// ---- The board picture and its tokens ----

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
  const next = form.selected();
  if (!next) return;
  ui.boardCaption.textContent = `The next game's board: ${boardName(next)}`;
  await boardPicture.draw(ui.boardSelect.value, next);
  ui.board.setAttribute("aria-label", `The next game's board, ${boardName(next)}: ${boardFacts(next)}.`);
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
    boardPicture.forget();
    await boardPicture.draw(ref, setup.board);
    an.board.value = ref;
    an.overshoot.value = setup.rules.overshoot;
    an.players.value = String(Math.min(4, Math.max(2, m.view.players.length)));
  } catch (e) {
    showError(ui.boardPictureError, `The board cannot be drawn: ${readable(e.message)}`);
  }
  boardPicture.placeTokens(shown.players.length);
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
    await boardPicture.animate(move, how.long ? Number(ui.speed.value) / 2 : 300, how.still);
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
      shown.players.forEach((p, i) => boardPicture.moveToken(i + 1, p.square));
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
  chances.lookBack(match.id, charted);
  if (over && !showing && !parts.replay) {
    parts.replay = replayBar(ui.replay, match, onReplayStep);
  }
}

function showTallies() {
  if (!match || !shown) return;
  chances.show(shown.chances);
  const view = match.view;
  showPlayers(ui.playersBody, match, shown.players, {
    winner: replayAt === null && !showing ? view.view.winner : null,
    current: !isOver() && !showing ? view.to_move : null,
    name: playerName,
  });
}

function showStatus() {
  if (showing || replayAt !== null) return;
  const view = match.view;
  ui.you.textContent = youWords(match, playerWithColour);
  ui.status.classList.toggle("win", view.status === "won" && view.result?.you_won !== false);
  ui.status.dataset.winner = view.view.winner || "";
  ui.status.textContent = statusWords(match, playerName);
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
        shown.players.forEach((p, i) => boardPicture.moveToken(i + 1, p.square));
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
    await boardPicture.animate(step.played, 250, () => asked === replayStepAsked);
    // Another step was asked for while this one moved: it shows itself.
    if (asked !== replayStepAsked) return;
  }
  shown.players.forEach((p, i) => boardPicture.moveToken(i + 1, p.square));
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


async function startGame(event) {
  if (event) event.preventDefault();
  showError(ui.newError, "");
  let request;
  try {
    request = form.request();
  } catch (e) {
    showError(ui.newError, e.message);
    return;
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
    rememberBoard(m.id, request.setup.board);
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
      form.choose(ref, players);
      showTab("play");
    },
  });
}
startTabs();

async function main() {
  await form.start();
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
