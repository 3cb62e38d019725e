// Baffle: shoot beams into the box and guess where its mirrors are, as a
// match of the server (match.js). The server's game decides where a beam
// comes out and whether a guess is right; the box is Parlor's own picture
// of what the player may see (render's SVG, /api/matches/ID/svg): this page
// finds the holes and cells in it by their data attributes and makes them
// controls. It holds no rule.
//
// Terms:
// - start screen: /baffle, where the next game is chosen (baffle-start.js)
//   and who plays it (the shell's seats).
// - match page: /baffle/m/ID, the game; a reload, a bookmark or Back brings
//   it back. The person holding the seat's token plays; anyone else watches.
// - the box: its picture made into controls, the mark, the cursor and the
//   aiming zoom are baffle-box.js's; the words baffle-words.js's.
import { api, ApiFailure, el, byId, showError, sleep, gameInfo } from "/static/common.js";
import { confirmAction } from "/static/matchui.js";
import { runShell } from "/static/shell.js";
import { showStart, startForm, startRequest } from "/static/baffle-start.js";
import { quickParts } from "/static/onetap.js";
import { box, startBox, drawBox, drawMark, resetBox, isFound } from "/static/baffle-box.js";
import { botText, botWhy, eventsText, gameTitle, roleText, statusText, liveText } from "/static/baffle-words.js";
import { drawRace } from "/static/baffle-race.js";
import { countDisplay } from "/static/baffle-count.js";

const GAME = "baffle";
/** This game in the registry (GET /api/games): seats, default box, bounds. */
const INFO = await gameInfo(GAME);
/** The pause between the bot's moves when it plays on, so that each can be seen. */
const BOT_PAUSE_MS = 400;

const ui = {
  error: byId("error"),
  gone: byId("gone"),
  start: byId("start"),
  startForm: byId("start-form"),
  seatChoice: byId("seat-choice"),
  startError: byId("start-error"),
  startGame: byId("start-game"),
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
};

/** The shell (shell.js), which owns the match's life; the match shown, or null on the start screen. */
let shell = null;
let match = null;
/** What the status line says now (the shell writes it at each redraw). */
let said = "";
let standing = ""; // how the game stood when it was said: a change with no move re-says it only if this moved on
/** The box the start screen offers next (New Game: this game's box again), or null. */
let prefill = null;
/** The replay step shown ({at, moves, played, view}), or null for the game as it stands. */
let step = null;
/** The solver's hint: {hole (advised, or null), svg (the odds), text}; and whether its odds are shown. */
let hint = null;
let showOdds = false;
let hintPending = false;
/** The bot playing on by itself ("Bot finishes"), and a bot move awaited. */
let botRunning = false;
let botThinking = false;

/** The score, the layouts left, each cell's chance and the shots' history (baffle-count.js). */
const counts = countDisplay({ game: () => (match ? game() : null), over: () => Boolean(match) && over(), match: () => match });

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

// ---- The page around the box ----
/** Says what happened in the status line (a live region), and the bot's reason under it. */
function say(text, why = "") {
  said = text;
  standing = match ? statusText(match) : "";
  ui.status.textContent = text;
  ui.botWhy.textContent = why;
}

/** Shows the match (or the replay step) everywhere: the shell redraws, and calls draw(). */
function show() {
  if (shell && match) shell.render();
}

/** Shows the match (or the replay step) in Baffle's own panels, and redraws the box. */
function draw() {
  if (!match) return;
  const v = match.view;
  const g = game();
  const playing = canPlay();
  const mine = match.mySeats().length > 0;
  ui.boxCaption.textContent = step ? `The box after move ${step.at} of ${step.moves}` : "The box";
  ui.role.textContent = roleText(match);
  ui.role.hidden = !ui.role.textContent;
  counts.show();
  ui.makeGuess.hidden = !mine || over();
  ui.quit.hidden = !mine || over();
  ui.quit.disabled = !playing;
  ui.makeGuess.disabled = !playing || !(box.mark && box.mark.mirror) || match.busy;
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
  ui.status.classList.toggle("win", v.status === "won" && !step);
  ui.status.dataset.status = v.status;
  if (!step) drawRace(match, byId("play-panel"));
  drawBox();
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
    shell.showGone(e);
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

async function shoot(hole) {
  if (!canPlay()) return;
  box.cursor = { hole };
  const answer = await play(`shoot ${hole}`);
  if (answer) {
    const shot = answer.played.flatMap((p) => p.events).find((e) => e.event === "shot") || match.view.view.shots.at(-1); // a race's: the own box's
    if (shot) {
      box.lastShot = { hole: shot.hole, exit: shot.exit };
      box.followShot = box.lastShot;
    }
    say(over() ? statusText(match) : eventsText(answer.played));
  }
  show();
}

async function makeGuess() {
  if (!box.mark || !box.mark.mirror || !canPlay() || match.busy) return;
  const guess = box.mark;
  // The mark goes at once: a second press has nothing to send.
  box.mark = null;
  drawMark();
  const answer = await play(`guess ${guess.row} ${guess.col} ${guess.mirror}`);
  if (!match) return;
  if (answer) {
    say(over() ? statusText(match) : eventsText(answer.played));
  } else if (!over() && !isFound(guess.row, guess.col)) {
    box.mark = guess;
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
    box.mark = null;
    say(over() ? statusText(match) : eventsText(answer.played));
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
  prefill = { kind: "random", size: s?.size, mirrors: s?.mirrors, sides: s ? s.sides : "all", focus: true };
  history.pushState({}, "", "/baffle");
  shell.route();
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
    const h = await api("POST", `/api/baffle/matches/${id}/hint`, {}, match.token);
    if (!match || match.id !== id || match.view.moves !== moves) return;
    const short = h.advice_short || h.advice_text;
    hint = { hole: h.best_next_shot ? h.best_next_shot.hole : null, svg: h.svg, text: short };
    // One short sentence; its figures on request.
    const detail = el("span", { class: "hint-detail", hidden: true }, ` ${h.advice_text}`);
    const why = el("button", { type: "button", class: "link why", "aria-expanded": "false" }, "Why?");
    why.addEventListener("click", () => {
      detail.hidden = !detail.hidden;
      why.setAttribute("aria-expanded", String(!detail.hidden));
    });
    ui.hintText.replaceChildren(`${short} `, why, detail);
    // The status line (a live region) says it too, where the eye and a
    // screen reader already are.
    say(`Hint: ${short}`);
    if (hint.hole !== null && hint.hole !== undefined) box.cursor = { hole: hint.hole };
  } catch (e) {
    ui.hintText.textContent = "";
    say("No hint this time.");
    showError(ui.error, e.message);
  } finally {
    hintPending = false;
  }
  show();
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
  box.mark = null;
  forgetHint();
  const shot = answer.played.flatMap((p) => p.events).find((e) => e.event === "shot");
  if (shot) {
    box.lastShot = { hole: shot.hole, exit: shot.exit };
    box.followShot = box.lastShot;
    box.cursor = { hole: shot.hole };
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
  } else if (event.key === "Escape" && box.mark) {
    event.preventDefault();
    box.mark = null;
    drawMark();
  }
});

// ---- The buttons ----

// The second click of a double click (or the third of a triple) is
// ignored: a double click plays one move.

ui.makeGuess.addEventListener("click", (event) => {
  if (event.detail > 1) return;
  makeGuess();
});
ui.quit.addEventListener("click", quit);
ui.newGame.addEventListener("click", newGame);
ui.hint.addEventListener("click", askHint);
ui.botMove.addEventListener("click", (event) => {
  if (event.detail > 1) return;
  botStep();
});
ui.botFinish.addEventListener("click", (event) => {
  if (event.detail > 1) return;
  botFinish();
});
ui.odds.addEventListener("click", toggleOdds);

// ---- The match's life: the shell's ----

/** Forgets what this page drew of the match left. */
function leaveMatch() {
  match = null;
  step = null;
  botRunning = false;
  forgetHint();
  resetBox();
  counts.reset();
}

/** One move told live (another tab or device's, a bot's): its words, its shot outlined. */
function onMove(played) {
  if (!match) return;
  forgetHint();
  if (!match.view.view.shots.some((s) => box.lastShot && s.hole === box.lastShot.hole)) box.lastShot = null;
  const shot = (played.events || []).find((e) => e.event === "shot");
  if (shot) {
    box.lastShot = { hole: shot.hole, exit: shot.exit };
    box.followShot = box.lastShot;
  }
  if (box.mark && isFound(box.mark.row, box.mark.col)) box.mark = null;
  const words = eventsText([played]);
  if (!step) say(words && !over() ? liveText(match, played, words) : statusText(match));
  if (over()) botRunning = false;
}

/** Baffle's page module (shell.js). */
const page = {
  game: GAME,
  parts: {
    start: ui.start,
    startForm: ui.startForm,
    startSeats: ui.seatChoice,
    startButton: ui.startGame,
    startError: ui.startError,
    game: ui.game,
    gone: ui.gone,
    status: ui.status,
    moveError: ui.error,
    seats: ui.seats,
    moves: byId("moves-panel"),
    replay: ui.replayPanel,
    connection: ui.connection,
    ...quickParts(),
  },
  seatOptions: { legend: "Who plays" },
  request: startRequest,
  status: () => said,
  draw,

  attach: (s) => (shell = s),

  enter(m, made) {
    leaveMatch();
    match = m;
    box.focusOnDraw = Boolean(made);
    say(statusText(match));
  },

  title: (m) => `Baffle: ${gameTitle(m)} · Parlor`,

  /** A change with no move: a seat taken or a rematch says how the game stands; the count's late figures keep what was said. */
  changed(played) {
    if (played.length === 0 && !step && statusText(match) !== standing) say(statusText(match));
  },

  leave: leaveMatch,

  step(played, how) {
    if (!how.replaying) onMove(played);
  },

  stepWords: (s) => `Replay: the box after move ${s.at} of ${s.moves}.`,
  /** A replay step: the final picture with what had not happened yet hidden. */
  drawStep(s) {
    step = s.at === s.moves ? null : s;
    say(step ? `Replay: the box after move ${step.at} of ${step.moves}.` : statusText(match));
    show();
  },

  newGameShown() {
    showStart(prefill || {});
    prefill = null;
  },
};

startForm(INFO);
startBox({
  ui,
  get match() {
    return match;
  },
  get step() {
    return step;
  },
  get hint() {
    return hint;
  },
  get showOdds() {
    return showOdds;
  },
  game,
  over,
  canPlay,
  shoot,
});
runShell(page);
