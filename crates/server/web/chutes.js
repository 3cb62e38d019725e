// Chutes & Ladders' page module: how its match is drawn (the board and its
// tokens, the tallies, the chances) and how a click or a key becomes a roll,
// on the one page shell (shell.js), which owns the match's life: the new
// game, opening, following, the show with Skip and speed, play to the end,
// the history, the replay and the keys.
//
// Terms:
// - match page: /chutes/m/ID shows match ID (a reload, a bookmark or Back
//   brings it back); /chutes alone offers a new game.
// - new-game form: the NEXT game's board, rules, seats and dice. It never
//   changes the game in play: that game's board and rules are shown above
//   it, from the match's own setup.
// - drawn: the game as drawn so far (each player's square and tally, the
//   chances), moved on by each move shown; it catches up with the match's
//   view once the show is over, and is a replay step's view while one is
//   shown.
// - board reference: `classic` or an upload's id, which draws the board
//   (`/api/chutes/boards/REF/svg`) and analyses it (chutes-start.js).
// The rules are the server's: this page sends rolls and draws what it is told.
import { byId, count, gameInfo } from "/static/common.js";
import { playerName as nameOf, sentence } from "/static/matchui.js";
import { runShell } from "/static/shell.js";
import { quickParts } from "/static/onetap.js";
import { an, analyse, isAnalysing, showTab, startAnalysis } from "/static/chutes-analysis.js";
import { startDesigner } from "/static/chutes-design.js";
import { chutesBoard } from "/static/chutes-board.js";
import { chancesDisplay } from "/static/chances.js";
import { boards, addBoard, boardRef, rememberBoard, sameBoard, chutesStart, seatOptions } from "/static/chutes-start.js";
import { withColour, showPlayers, youWords, statusWords, lastMoveWords } from "/static/chutes-players.js";
import { boardName, boardFacts, boardTitle, describeBoard, rulesWords, readable, OVERSHOOT_WORDS } from "/static/chutes-words.js";
import { failureWords, joinWords, jumpsWords, lineClass, rollOptions } from "/static/chutes-words.js";

const GAME = "chutes";
/** This game in the registry (GET /api/games): seats, default rules, bounds. */
const INFO = await gameInfo(GAME);

const ui = {
  boardCaption: byId("board-caption"),
  board: byId("board"),
  boardPictureError: byId("board-picture-error"),
  gone: byId("gone"),
  gamePanel: byId("game-panel"),
  lastMove: byId("last-move"),
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
  chancesChartPicture: byId("chances-chart-picture"),
  chancesSwing: byId("chances-swing"),
  playersBody: document.querySelector("#players-table tbody"),
  chances: byId("chances"),
  chancesWords: byId("chances-words"),
  chancesBar: byId("chances-bar"),
  seats: byId("seats"),
  jumps: byId("jumps"),
  gamePicture: byId("game-picture"),
  movesPanel: byId("moves-panel"),
  talliesPanel: byId("tallies-panel"),
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

const NEW_NOTE = ui.newNote.textContent;

/** The shell (shell.js), once running. */
let shell = null;
/** The match's public setup: {board, rules}. */
let setup = null;
/** The game as drawn: the moves shown and each player's square and tally. */
let drawn = null;
/** The last new game's request (its board is remembered for the match made). */
let lastRequest = null;
/** Roll takes the focus once it can be pressed (a game just started). */
let focusRoll = false;

const current = () => shell && shell.match;

/** Seat `seat`'s player's name (the match view's; "Player N" with none). */
function playerName(seat) {
  return current() ? nameOf(current().view, seat) : `Player ${seat}`;
}

function playerWithColour(seat) {
  return withColour(playerName(seat), seat);
}

/** The board and its tokens (chutes-board.js). */
const boardPicture = chutesBoard(ui, {
  squares: () => (drawn ? drawn.players.map((p) => p.square) : null),
  described: () => describeBoardForReaders(),
  playerName: (seat) => playerName(seat),
});

/** The chances and the look back (chances.js). */
const chances = chancesDisplay(ui, {
  playerName: (seat) => playerName(seat),
  lineOf(n) {
    const line = document.querySelector(`#log li[data-move="${n}"]`);
    return line ? { seat: Number(line.dataset.seat), words: line.querySelector(".words").textContent } : null;
  },
  current: (id) => Boolean(current()) && current().id === id,
});

/** The new game's fields (chutes-start.js); its seats are the shell's chooser. */
const form = chutesStart(ui, {
  info: INFO,
  idle: () => !current(),
  preview: () => previewBoard(),
  seats: () => shell && shell.chooser,
});

// ---- The board picture and its tokens ----

/** The board's label: what a screen reader says of it, tokens included. */
function describeBoardForReaders() {
  if (!drawn || !setup) return;
  const where = drawn.players
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

function freshDrawn(view, moves = view.moves) {
  return {
    moves,
    players: view.view.players.map((p) => ({ ...p })),
    chances: view.view.chances || null,
  };
}

// ---- Drawing ----

/** Tallies moves as they are shown: each turn carries its player's tally after it (the page counts nothing). */
function tally(moves) {
  if (!drawn) return;
  for (const move of moves) {
    for (const turn of move.events || []) {
      const p = drawn.players[turn.player - 1];
      if (p) Object.assign(p, turn.tally);
    }
    drawn.moves = Math.max(drawn.moves, move.number);
  }
  showTallies(true);
}

function showTallies(busy) {
  const m = current();
  if (!m || !drawn) return;
  chances.show(drawn.chances);
  const view = m.view;
  const over = view.status !== "playing";
  showPlayers(ui.playersBody, m, drawn.players, {
    winner: !shell.step && !busy ? view.view.winner : null,
    current: !over && !busy ? view.to_move : null,
    name: playerName,
  });
}

function canRoll() {
  const m = current();
  return Boolean(m) && m.view.status === "playing" && m.myTurn() && !m.busy && !shell.busy && !shell.autoplay;
}

/** Roll, the chosen roll, play to the end and the speed, for the match as it stands. */
function controls(m, busy) {
  const over = m.view.status !== "playing";
  const mine = m.mySeats().length > 0;
  // aria-disabled, not disabled: Roll keeps the focus through a show and
  // a bot's turn, and is the main action again once it is yours.
  ui.roll.setAttribute("aria-disabled", String(!canRoll()));
  ui.roll.hidden = over || !mine;
  if (focusRoll && canRoll()) {
    focusRoll = false;
    ui.roll.focus({ preventScroll: true });
  }
  ui.chosen.hidden = over || m.view.dice !== "chosen" || !mine;
  ui.watch.hidden = over || !mine || m.view.dice === "chosen";
  // Disabled while a request is on its way: a double click starts it once.
  ui.watch.disabled = over || m.busy || (!shell.autoplay && busy);
  ui.watch.textContent = shell.autoplay ? "Stop playing to the end" : "Play to the end";
  ui.watch.setAttribute("aria-pressed", String(shell.autoplay));
  ui.speed.closest(".speed-row").hidden = over || !mine;
  ui.roll.closest(".controls").hidden = over || !mine;
}

/** The match as it stands, once its moves are shown (or a replay's step, kept). */
function draw(m, busy) {
  const view = m.view;
  if (!shell.step && drawn) {
    // The server's tallies are the record: the drawn ones end on them (and
    // moves the page was not shown, a reconnection, are taken at once).
    if (view.moves >= drawn.moves) drawn = freshDrawn(view);
    drawn.players.forEach((p, i) => boardPicture.moveToken(i + 1, p.square));
    ui.status.classList.toggle("win", view.status === "won" && view.result?.you_won !== false);
    ui.status.dataset.winner = view.view.winner || "";
  }
  ui.you.textContent = youWords(m, playerWithColour);
  ui.lastMove.textContent = lastMoveWords(shell.view);
  showTallies(busy);
  controls(m, busy);
  describeBoardForReaders();
  const over = view.status !== "playing";
  ui.gamePicture.hidden = view.moves === 0;
  ui.gamePicture.href = `/api/matches/${m.id}/svg`;
  // The look back: the chances over the whole game, once it is over
  // (its drawer opened once as the game ends).
  chances.lookBack(m.id, over && Boolean(view.view.chances));
  if (over && !shell.step && ui.talliesPanel.dataset.opened !== m.id) {
    ui.talliesPanel.dataset.opened = m.id;
    ui.talliesPanel.open = true;
  }
}

// ---- Moves ----

/** The roll for this device's seat (chosen dice: `value`, or the list's). */
function rollMove(value) {
  const m = current();
  const options = {};
  if (m.view.dice === "chosen") options.roll = Number(value ?? ui.chosenRoll.value);
  return { text: "roll", options };
}

function roll(value) {
  if (!canRoll()) return;
  const { text, options } = rollMove(value);
  shell.play(text, options);
}

function goToNewGame() {
  quickParts().custom.open = true;
  ui.newPanel.scrollIntoView({ block: "start" });
  ui.boardSelect.focus();
}

// ---- The page module ----

const page = {
  game: GAME,
  parts: {
    start: ui.newPanel,
    startSeats: ui.seatChooser,
    startButton: ui.newGame,
    startError: ui.newError,
    startForm: ui.newForm,
    game: [ui.gamePanel, ui.about, ui.seats, ui.talliesPanel, ui.replay.parentElement],
    ...quickParts(),
    gone: ui.gone,
    status: ui.status,
    moveError: ui.gameError,
    seats: ui.seats,
    moves: ui.movesPanel,
    replay: ui.replay,
    connection: ui.connection,
    skip: ui.skip,
    speed: ui.speed,
  },
  seatOptions: seatOptions(INFO, playerWithColour, () => form.showSeedField()),
  seatName: playerWithColour,
  startBeside: true,
  goneShowsStart: true,
  history: {
    append: true,
    listId: "log",
    listClass: "log",
    words: (move) => move.texts.map(sentence).join(" "),
    lineClass,
  },
  playToEnd: "roll",
  failureWords,
  joinWords,
  draw,
  controls,
  status: (m) => statusWords(m, playerName),
  title: (m) => `${boardTitle(m.setup.board)} · Chutes & Ladders · Parlor`,
  // A game with no roll yet is left without asking.
  confirmNew: (m) => m.mySeats().length > 0 && m.view.moves > 0,

  attach(s) {
    shell = s;
  },

  request(plans) {
    lastRequest = form.request(plans);
    return lastRequest;
  },

  async enter(m, made) {
    setup = m.setup;
    drawn = freshDrawn(m.view);
    if (made && lastRequest) rememberBoard(m.id, lastRequest.setup.board);
    ui.board.hidden = false;
    ui.newHeading.textContent = "Custom game (the next one)";
    ui.newNote.textContent =
      "This form is for the NEXT game: what you choose here changes nothing in the game above. Starting it opens the new game at its own address; this one stays at its own.";
    ui.boardCaption.textContent = `This game's board: ${boardName(setup.board)}`;
    ui.gameInfo.textContent = `${describeBoard(setup.board)} Rules: ${rulesWords(setup.rules)}; ${count(m.view.players.length, "player", "players")}; ${
      m.view.dice === "chosen" ? "each roll chosen at this screen" : "dice rolled by the server"
    }.`;
    ui.jumps.replaceChildren(...jumpsWords(setup.board));
    ui.chosenRoll.replaceChildren(...rollOptions(setup.rules.faces));
    try {
      const ref = await boardRef(setup.board, m.id);
      boardPicture.forget();
      await boardPicture.draw(ref, setup.board);
      an.board.value = ref;
      an.overshoot.value = setup.rules.overshoot;
      an.players.value = String(Math.min(4, Math.max(2, m.view.players.length)));
    } catch (e) {
      ui.boardPictureError.textContent = `The board cannot be drawn: ${readable(e.message)}`;
    }
    boardPicture.placeTokens(drawn.players.length);
    if (made) {
      // The game from the top of the page: the header, then the board (the
      // form it was started from may be far below on a narrow screen).
      window.scrollTo({ top: 0 });
      focusRoll = true;
    } else if (document.activeElement === document.body) {
      // A page just opened on a game: Roll takes the focus once it can.
      focusRoll = true;
    }
    if (isAnalysing()) analyse();
  },

  leave() {
    setup = null;
    drawn = null;
    focusRoll = false;
  },

  async step(played, how) {
    tally([played]);
    if (how.quick) return;
    await boardPicture.animate(played, how.long ? how.speed / 2 : 300, how.still);
    if (how.long && how.still()) await new Promise((resolve) => setTimeout(resolve, how.speed));
  },

  stepAll(moves) {
    tally(moves);
  },

  showWords(played) {
    const turn = (played.events || [])[0];
    return turn ? sentence(turn.text) : null;
  },

  stepWords(step) {
    const total = current().view.moves;
    if (step.at === 0) return `Replay: the start, before the first roll (${count(total, "move", "moves")} in all).`;
    const turn = (step.played && step.played.events ? step.played.events : [])[0];
    return `Replay, move ${step.at} of ${total}: ${turn ? sentence(turn.text) : ""}`;
  },

  /** One step of a finished game's replay: the game after its first `step.at` moves. */
  async drawStep(step, m, still, before) {
    drawn = freshDrawn(step.view, step.at);
    if (step.played && step.at === before + 1) {
      await boardPicture.animate(step.played, 250, still);
      // Another step was asked for while this one moved: it shows itself.
      if (!still()) return;
    }
    drawn.players.forEach((p, i) => boardPicture.moveToken(i + 1, p.square));
    showTallies(false);
  },

  /** R rolls; with chosen dice, 1 to 9 play that roll. */
  interpret(event, m) {
    if (isAnalysing()) return null;
    const key = event.key;
    if (key === "r" || key === "R") return canRoll() ? rollMove() : null;
    if (/^[1-9]$/.test(key) && m.view.dice === "chosen" && Number(key) <= setup.rules.faces && canRoll()) {
      ui.chosenRoll.value = key;
      return rollMove(Number(key));
    }
    return null;
  },

  /** E plays to the end, S skips the show, N goes to the form, the arrows step a finished game. */
  keydown(event, m) {
    if (isAnalysing()) return false;
    const key = event.key;
    if (key === "n" || key === "N") {
      goToNewGame();
      return true;
    }
    if (!m) return false;
    if (key === "e" || key === "E") {
      shell.toggleAutoplay();
      return true;
    }
    if (key === "s" || key === "S") {
      shell.skip();
      return true;
    }
    const to = { ArrowLeft: shell.replayAt() - 1, ArrowRight: shell.replayAt() + 1, Home: 0, End: m.view.moves }[key];
    return to !== undefined && shell.replayGo(to);
  },

  async newGameShown() {
    ui.board.hidden = false;
    ui.newHeading.textContent = "Custom game";
    ui.newNote.textContent = NEW_NOTE;
    form.showSeedField();
    // Ready once the next game's board is drawn: the form below it is
    // where it stays.
    await previewBoard();
    document.body.dataset.ready = "yes";
  },

  goneShown() {
    ui.board.hidden = true;
    ui.boardCaption.textContent = "No game to show";
    ui.newHeading.textContent = "Custom game";
    ui.newNote.textContent = NEW_NOTE;
  },
};

// The second click of a double click is not a second move: the first
// roll's answer may already have made Roll the next person's.
ui.roll.addEventListener("click", (event) => {
  if (event.detail <= 1) roll();
});
ui.watch.addEventListener("click", (event) => {
  if (event.detail <= 1) shell.toggleAutoplay();
});

/** The analysis tab and its designer, told what they need of this page. */
function startTabs() {
  startAnalysis({
    boards,
    boardTitle,
    readable,
    overshootWords: OVERSHOOT_WORDS,
    formChoice: () => (current() ? null : { board: ui.boardSelect.value, overshoot: ui.overshoot.value }),
    faces: (board) => (current() && setup && board && sameBoard(board, setup.board) ? setup.rules.faces : null),
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

async function main() {
  startTabs();
  await form.start();
  await runShell(page);
  if (!document.body.dataset.ready) document.body.dataset.ready = "yes";
}

main();
