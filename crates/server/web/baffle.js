// Baffle: shoot beams into the box and guess where its mirrors are. The
// server's game decides where a beam comes out and whether a guess is right,
// and the box is Parlor's own picture of the player's view (render's SVG):
// this page finds the holes and cells in it by their data attributes and
// makes them clickable. The marks a person makes before guessing are this
// page's own (UI state), drawn in a layer over the picture.
import { api, el, byId, showError, readSeed } from "/static/common.js";

const SVG_NS = "http://www.w3.org/2000/svg";

const ui = {
  box: byId("box"),
  boxError: byId("box-error"),
  status: byId("status"),
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
  error: byId("error"),
  sides: byId("sides"),
  seed: byId("seed"),
  shotList: byId("shot-list"),
  log: byId("log"),
};

let game = null;
/** The cell marked for a guess, and its mark: {row, col, mirror}. */
let mark = null;
/** The last shot, outlined on the box. */
let lastShot = null;
/** The hint's advised hole, its picture with the odds, and whether it is shown. */
let advisedHole = null;
let hintSvg = null;
let showOdds = false;
/** Where keyboard focus rests in the ring of holes and among the cells. */
let focusHole = null;
let focusCell = { row: 0, col: 0 };
/** Whether the bot is playing on by itself ("Bot finishes"), and whether a bot move is awaited. */
let botRunning = false;
let botThinking = false;
/** The pause between the bot's moves when it plays on, so that each can be seen. */
const BOT_PAUSE_MS = 400;
/** Each drawing of the box is numbered so that a late answer cannot replace a newer one. */
let drawing = 0;

const NEXT_MARK = { "": "/", "/": "\\", "\\": "" };

function over() {
  return game && game.status !== "playing";
}

function isFound(row, col) {
  return game.found.some((p) => p.row === row && p.col === col);
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

/** Fetches the picture of the game (or the hint's, with the odds) and shows it. */
async function drawBox() {
  const number = ++drawing;
  const id = game.id;
  let svg = showOdds && hintSvg ? hintSvg : null;
  if (!svg) {
    try {
      svg = await api("GET", `/api/baffle/games/${id}/svg`);
    } catch (e) {
      if (number === drawing) showError(ui.boxError, e.message);
      return;
    }
  }
  if (number !== drawing) return;
  showError(ui.boxError, "");
  const hadFocus = ui.box.contains(document.activeElement) ? document.activeElement : null;
  const refocus = hadFocus && (hadFocus.matches("g.hole") ? holeEl.bind(null, Number(hadFocus.dataset.hole)) : () => cellEl(focusCell.row, focusCell.col));
  ui.box.innerHTML = svg;
  decorate();
  if (refocus) refocus()?.focus();
}

/** Makes the picture's holes and cells into controls, and marks the hint and the last shot. */
function decorate() {
  const svg = svgOf();
  if (!svg) return;
  // The page sizes the picture; its own width and height are its natural size.
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  const playing = !over();
  ui.box.classList.toggle("playing", playing);
  ui.box.classList.toggle("odds", showOdds && Boolean(hintSvg));
  const shootable = [...svg.querySelectorAll('g.hole[data-shootable="true"]')].map((g) => Number(g.dataset.hole));
  if (!shootable.includes(focusHole)) focusHole = shootable[0];
  for (const g of svg.querySelectorAll("g.hole")) {
    const hole = Number(g.dataset.hole);
    g.classList.toggle("advised", hole === advisedHole);
    g.classList.toggle("last", Boolean(lastShot) && (lastShot.hole === hole || lastShot.exit === hole));
    if (playing && g.dataset.shootable === "true") {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", hole === focusHole ? "0" : "-1");
      g.setAttribute("aria-label", `Hole ${hole} (${g.dataset.side}): shoot a beam in` + (hole === advisedHole ? " — the hint's advice" : ""));
    }
  }
  if (playing) {
    for (const r of svg.querySelectorAll("rect.cell")) {
      const row = Number(r.dataset.row);
      const col = Number(r.dataset.col);
      r.setAttribute("role", "button");
      r.setAttribute("tabindex", row === focusCell.row && col === focusCell.col ? "0" : "-1");
      if (isFound(row, col)) r.setAttribute("aria-disabled", "true");
    }
  }
  drawMarks();
}

/** The person's mark, as a diagonal in its cell, over the picture. */
function drawMarks() {
  const svg = svgOf();
  if (!svg) return;
  svg.querySelector("g.marks")?.remove();
  for (const r of svg.querySelectorAll("rect.cell")) {
    const row = Number(r.dataset.row);
    const col = Number(r.dataset.col);
    const marked = mark && mark.row === row && mark.col === col && mark.mirror ? mark.mirror : "";
    if (marked) r.dataset.mark = marked;
    else delete r.dataset.mark;
    if (r.hasAttribute("role")) {
      const what = isFound(row, col) ? "a mirror found" : marked ? `marked ${marked}` : "not marked";
      r.setAttribute("aria-label", `Cell <${row},${col}>: ${what}`);
    }
  }
  if (!mark || !mark.mirror) return;
  const cell = cellEl(mark.row, mark.col);
  if (!cell) return;
  const [x, y, w, h] = ["x", "y", "width", "height"].map((a) => Number(cell.getAttribute(a)));
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "marks");
  const shade = document.createElementNS(SVG_NS, "rect");
  for (const [k, v] of Object.entries({ x, y, width: w, height: h, class: "mark-cell" })) shade.setAttribute(k, String(v));
  const inset = w * 0.16;
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

// ---- The page around it ----

function show() {
  drawBox();
  const wrong = game.score.wrong_guesses;
  ui.shots.textContent = game.score.shots;
  ui.guesses.textContent = 2 * wrong;
  ui.score.textContent = game.score.total;
  ui.found.textContent = `Mirrors found: ${game.found.length} of ${game.mirrors}.`;
  ui.makeGuess.disabled = over() || !(mark && mark.mirror);
  ui.quit.hidden = over();
  ui.newGame.hidden = !over();
  ui.hint.disabled = over() || botRunning;
  ui.botMove.disabled = over() || botRunning || botThinking;
  ui.botFinish.disabled = over() && !botRunning;
  ui.botFinish.textContent = botRunning ? "Stop the bot" : "Bot finishes";
  ui.botFinish.setAttribute("aria-pressed", String(botRunning));
  ui.odds.hidden = !hintSvg || over();
  ui.odds.setAttribute("aria-pressed", String(showOdds));
  ui.odds.textContent = showOdds ? "Hide the odds" : "Show the odds";
  ui.shotList.replaceChildren(...game.shots.map((s) => el("li", {}, `${s.hole} → ${s.exit}`)));
  ui.log.replaceChildren(...game.log.map((line) => el("li", {}, line)));
  ui.log.scrollTop = ui.log.scrollHeight;
  ui.status.classList.toggle("win", game.status === "won");
  ui.status.dataset.status = game.status;
}

function say(text) {
  ui.status.textContent = text;
}

function statusText() {
  const wrong = game.score.wrong_guesses;
  if (game.status === "won") {
    const plural = (n, word, many) => `${n} ${n === 1 ? word : many}`;
    return `Every mirror found! Final score ${game.score.total} (${plural(game.score.shots, "shot", "shots")}, ${plural(wrong, "wrong guess", "wrong guesses")}).`;
  }
  if (game.status === "quit") {
    return `Given up with score ${game.score.total}. Found mirrors are red, the others magenta.` + (game.seed !== null ? ` (This game's seed was ${game.seed}.)` : "");
  }
  const where = game.sides === "all" ? "any edge" : "the left or top edge";
  return `${game.origin === "fixed" ? "The original's first game: " : ""}${game.mirrors} mirrors are hidden. Shoot a beam: click a hole on ${where}.`;
}

function forgetHint() {
  advisedHole = null;
  hintSvg = null;
  showOdds = false;
  ui.hintText.textContent = "";
}

async function newGame(body) {
  showError(ui.error, "");
  let next;
  try {
    next = await api("POST", "/api/baffle/games", body);
  } catch (e) {
    showError(ui.error, e.message);
    return;
  }
  game = next;
  mark = null;
  lastShot = null;
  focusHole = null;
  focusCell = { row: 0, col: 0 };
  forgetHint();
  say(statusText());
  show();
}

/** Plays a move; answers the server's answer, or null (the reason shown). */
async function move(path, body) {
  showError(ui.error, "");
  try {
    const answer = await api("POST", `/api/baffle/games/${game.id}/${path}`, body);
    game = answer;
    forgetHint();
    return answer;
  } catch (e) {
    showError(ui.error, e.message);
    return null;
  }
}

async function shoot(hole) {
  if (over() || botRunning) return;
  focusHole = hole;
  const answer = await move("shots", { hole });
  if (answer) {
    lastShot = { hole, exit: answer.exit };
    say(`The beam into ${hole} comes out at ${answer.exit}.`);
  }
  show();
}

function setMark(row, col, mirror) {
  if (over() || isFound(row, col)) return;
  focusCell = { row, col };
  mark = { row, col, mirror };
  ui.makeGuess.disabled = !mirror;
  drawMarks();
}

function cycle(row, col) {
  const current = mark && mark.row === row && mark.col === col ? mark.mirror : "";
  setMark(row, col, NEXT_MARK[current]);
}

async function makeGuess() {
  if (!mark || !mark.mirror || botRunning) return;
  const guess = { row: mark.row, col: mark.col, mirror: mark.mirror };
  const answer = await move("guesses", guess);
  if (answer) {
    mark = null;
    say(
      over()
        ? statusText()
        : answer.right
          ? `Right: <${guess.row},${guess.col}> holds ${guess.mirror}.`
          : `Wrong: <${guess.row},${guess.col}> does not hold ${guess.mirror} (+2).`,
    );
  }
  show();
}

async function quit() {
  if (await move("quit", {})) {
    mark = null;
    say(statusText());
  }
  show();
}

async function hint() {
  showError(ui.error, "");
  ui.hintText.textContent = "Thinking…";
  const id = game.id;
  try {
    const h = await api("POST", `/api/baffle/games/${id}/hint`, {});
    if (game.id !== id) return;
    ui.hintText.textContent = h.advice_text;
    advisedHole = h.best_next_shot ? h.best_next_shot.hole : null;
    hintSvg = h.svg;
    if (advisedHole !== null) focusHole = advisedHole;
  } catch (e) {
    ui.hintText.textContent = "";
    showError(ui.error, e.message);
  }
  show();
}

/** The bot's move in words: what it did, what came of it, and why. */
function botText(answer) {
  const { bot } = answer;
  const m = bot.move;
  let did;
  if (m.move === "shoot") {
    did = `Bot: shoots hole ${m.hole}; the beam comes out at ${answer.exit}.`;
  } else if (m.move === "guess") {
    did = `Bot: guesses <${m.row},${m.col}> holds ${m.mirror}: ${answer.right ? "right" : "wrong (+2)"}.`;
  } else {
    did = `Bot: ${bot.move_text}.`;
  }
  const why = ` Why: ${bot.reason_text}.`;
  return over() ? `${did}${why} ${statusText()}` : `${did}${why}`;
}

/** Asks the bot for one move and plays it; answers whether it moved. */
async function botStep() {
  if (over() || botThinking) return false;
  botThinking = true;
  ui.botMove.disabled = true;
  const id = game.id;
  const answer = await move("bot", {});
  botThinking = false;
  if (!answer || answer.id !== id) {
    show();
    return false;
  }
  mark = null;
  if (answer.bot.move.move === "shoot") {
    lastShot = { hole: answer.bot.move.hole, exit: answer.exit };
    focusHole = answer.bot.move.hole;
  }
  say(botText(answer));
  show();
  return true;
}

/** "Bot finishes": the bot plays move after move until the game ends or it is stopped. */
async function botFinish() {
  if (botRunning) {
    botRunning = false;
    show();
    return;
  }
  if (over()) return;
  botRunning = true;
  show();
  while (botRunning && !over()) {
    if (!(await botStep())) break;
    if (botRunning && !over()) await new Promise((resolve) => setTimeout(resolve, BOT_PAUSE_MS));
  }
  botRunning = false;
  show();
}

function toggleOdds() {
  showOdds = !showOdds;
  show();
}

function nextGameBody() {
  const body = { sides: ui.sides.value };
  const seed = readSeed(ui.seed.value);
  if (seed !== undefined) body.seed = seed;
  return body;
}

// ---- Mouse and keyboard on the box ----

ui.box.addEventListener("click", (event) => {
  if (over() || botRunning) return;
  const hole = event.target.closest("g.hole");
  if (hole && hole.dataset.shootable === "true") {
    shoot(Number(hole.dataset.hole));
    return;
  }
  const cell = event.target.closest("rect.cell");
  if (cell) cycle(Number(cell.dataset.row), Number(cell.dataset.col));
});

/** The arrow key that walks along each side towards the next hole number. */
const NEXT_KEY = { left: "ArrowUp", top: "ArrowRight", right: "ArrowDown", bottom: "ArrowLeft" };
const BACK_KEY = { left: "ArrowDown", top: "ArrowLeft", right: "ArrowUp", bottom: "ArrowRight" };

function moveFocus(from, to) {
  if (!to) return;
  from.setAttribute("tabindex", "-1");
  to.setAttribute("tabindex", "0");
  to.focus();
}

ui.box.addEventListener("keydown", (event) => {
  if (over()) return;
  const target = event.target;
  const press = event.key === "Enter" || event.key === " ";
  if (target.matches?.("g.hole")) {
    const hole = Number(target.dataset.hole);
    const side = target.dataset.side;
    if (press) {
      event.preventDefault();
      shoot(hole);
      return;
    }
    const step = event.key === NEXT_KEY[side] ? 1 : event.key === BACK_KEY[side] ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const holes = 4 * game.size;
    for (let i = 1; i < holes; i++) {
      const next = holeEl((hole + step * i + holes * i) % holes);
      if (next && next.dataset.shootable === "true") {
        focusHole = Number(next.dataset.hole);
        moveFocus(target, next);
        return;
      }
    }
  } else if (target.matches?.("rect.cell")) {
    const row = Number(target.dataset.row);
    const col = Number(target.dataset.col);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (press) {
      event.preventDefault();
      cycle(row, col);
    } else if (event.key === "/" || event.key === "\\") {
      event.preventDefault();
      setMark(row, col, event.key);
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      setMark(row, col, "");
    } else if (moves[event.key]) {
      event.preventDefault();
      const [dr, dc] = moves[event.key];
      const next = cellEl(row + dr, col + dc);
      if (next) {
        focusCell = { row: row + dr, col: col + dc };
        moveFocus(target, next);
      }
    }
  }
});

ui.makeGuess.addEventListener("click", makeGuess);
ui.quit.addEventListener("click", quit);
ui.newGame.addEventListener("click", () => {
  try {
    newGame(nextGameBody());
  } catch (e) {
    showError(ui.error, e.message);
  }
});
ui.hint.addEventListener("click", hint);
ui.botMove.addEventListener("click", botStep);
ui.botFinish.addEventListener("click", botFinish);
ui.odds.addEventListener("click", toggleOdds);

// The first game is the original's fixed one.
newGame({ fixed: true });
