// Baffle: shoot beams into the box and guess where its mirrors are. The
// server's game decides where a beam comes out and whether a guess is right;
// the marks a person makes before guessing are this page's own (UI state).
import { api, el, byId, showError } from "/static/common.js";

const ui = {
  box: byId("box"),
  status: byId("status"),
  shots: byId("shots"),
  guesses: byId("guesses"),
  score: byId("score"),
  found: byId("found"),
  makeGuess: byId("make-guess"),
  quit: byId("quit"),
  newGame: byId("new-game"),
  hint: byId("hint"),
  hintText: byId("hint-text"),
  error: byId("error"),
  sides: byId("sides"),
  seed: byId("seed"),
  shotList: byId("shot-list"),
  log: byId("log"),
};

let game = null;
/** The cell marked for a guess, and its mark: {row, col, mirror}. */
let mark = null;
/** The last shot, to colour its entry and exit. */
let lastShot = null;
let advisedHole = null;

const NEXT_MARK = { "": "/", "/": "\\", "\\": "" };

function over() {
  return game && game.status !== "playing";
}

function cellState(row, col) {
  if (game.revealed) {
    const m = game.revealed.find((r) => r.row === row && r.col === col);
    if (m) return { cls: m.found ? "found" : "unfound", text: m.mirror };
  } else {
    const f = game.found.find((p) => p.row === row && p.col === col);
    if (f) return { cls: "found", text: f.mirror };
  }
  if (mark && mark.row === row && mark.col === col && mark.mirror) return { cls: "marked", text: mark.mirror };
  return { cls: "", text: "" };
}

function holeButton(place) {
  if (!place) return el("td");
  const classes = ["hole"];
  if (lastShot && lastShot.hole === place.hole) classes.push("entry");
  else if (lastShot && lastShot.exit === place.hole) classes.push("exit");
  else if (game.shots.some((s) => s.hole === place.hole || s.exit === place.hole)) classes.push("used");
  const title = place.shootable ? `hole ${place.hole}: shoot a beam in` : `hole ${place.hole} (beams leave here only, in this game)`;
  return el(
    "td",
    {},
    el(
      "button",
      {
        class: classes.join(" ") + (advisedHole === place.hole ? " advised" : ""),
        dataset: { hole: place.hole },
        title,
        disabled: !place.shootable || over(),
        onclick: () => shoot(place.hole),
      },
      place.hole,
    ),
  );
}

function drawBox() {
  const n = game.size;
  const at = (side, i) => game.holes.find((h) => h.side === side && h.at === i);
  const rows = [];
  rows.push(el("tr", {}, el("td"), ...[...Array(n).keys()].map((c) => holeButton(at("top", c))), el("td")));
  for (let r = 0; r < n; r++) {
    rows.push(
      el(
        "tr",
        {},
        holeButton(at("left", r)),
        ...[...Array(n).keys()].map((c) => {
          const s = cellState(r, c);
          return el(
            "td",
            {},
            el(
              "button",
              {
                class: `cell ${s.cls}`,
                dataset: { row: r, col: c },
                title: `cell <${r},${c}>`,
                disabled: over() || s.cls === "found",
                onclick: () => cycle(r, c),
              },
              s.text,
            ),
          );
        }),
        holeButton(at("right", r)),
      ),
    );
  }
  rows.push(el("tr", {}, el("td"), ...[...Array(n).keys()].map((c) => holeButton(at("bottom", c))), el("td")));
  ui.box.replaceChildren(...rows);
}

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
  ui.hint.disabled = over();
  ui.shotList.replaceChildren(...game.shots.map((s) => el("li", {}, `${s.hole} → ${s.exit}`)));
  ui.log.replaceChildren(...game.log.map((line) => el("li", {}, line)));
  ui.log.scrollTop = ui.log.scrollHeight;
  ui.status.classList.toggle("win", game.status === "won");
  if (game.status === "won") {
    const plural = (n, word, many) => `${n} ${n === 1 ? word : many}`;
    ui.status.textContent = `Every mirror found! Final score ${game.score.total} (${plural(game.score.shots, "shot", "shots")}, ${plural(wrong, "wrong guess", "wrong guesses")}).`;
  } else if (game.status === "quit") {
    ui.status.textContent = `Given up with score ${game.score.total}. Found mirrors are red, the others magenta.` + (game.seed !== null ? ` (This game's seed was ${game.seed}.)` : "");
  } else if (lastShot) {
    ui.status.textContent = `The beam into ${lastShot.hole} comes out at ${lastShot.exit}.`;
  } else {
    const where = game.sides === "all" ? "any edge" : "the left or top edge";
    ui.status.textContent = `${game.origin === "fixed" ? "The original's first game: " : ""}${game.mirrors} mirrors are hidden. Shoot a beam: click a hole on ${where}.`;
  }
  ui.status.dataset.status = game.status;
}

async function newGame(body) {
  showError(ui.error, "");
  ui.hintText.textContent = "";
  try {
    game = await api("POST", "/api/baffle/games", body);
  } catch (e) {
    showError(ui.error, e.message);
    return;
  }
  mark = null;
  lastShot = null;
  advisedHole = null;
  show();
}

async function move(path, body) {
  showError(ui.error, "");
  try {
    const answer = await api("POST", `/api/baffle/games/${game.id}/${path}`, body);
    game = answer;
    return answer;
  } catch (e) {
    showError(ui.error, e.message);
    return null;
  } finally {
    show();
  }
}

async function shoot(hole) {
  advisedHole = null;
  ui.hintText.textContent = "";
  const answer = await move("shots", { hole });
  if (answer) {
    lastShot = { hole, exit: answer.exit };
    show();
  }
}

function cycle(row, col) {
  const current = mark && mark.row === row && mark.col === col ? mark.mirror : "";
  mark = { row, col, mirror: NEXT_MARK[current] };
  show();
}

async function makeGuess() {
  if (!mark || !mark.mirror) return;
  const guess = { row: mark.row, col: mark.col, mirror: mark.mirror };
  const answer = await move("guesses", guess);
  if (answer) {
    mark = null;
    ui.status.textContent = answer.right
      ? `Right: <${guess.row},${guess.col}> holds ${guess.mirror}.`
      : `Wrong: <${guess.row},${guess.col}> does not hold ${guess.mirror} (+2).`;
    if (over()) show();
  }
}

async function hint() {
  showError(ui.error, "");
  ui.hintText.textContent = "Thinking…";
  try {
    const h = await api("POST", `/api/baffle/games/${game.id}/hint`, {});
    ui.hintText.textContent = h.advice;
    advisedHole = h.best_next_shot ? h.best_next_shot.hole : null;
  } catch (e) {
    ui.hintText.textContent = "";
    showError(ui.error, e.message);
  }
  show();
}

function nextGameBody() {
  const body = { sides: ui.sides.value };
  const seed = ui.seed.value.trim();
  if (seed !== "") {
    if (!/^\d+$/.test(seed)) throw new Error("The seed is a whole number (or leave it empty).");
    body.seed = Number(seed);
  }
  return body;
}

ui.makeGuess.addEventListener("click", makeGuess);
ui.quit.addEventListener("click", () => move("quit", {}));
ui.newGame.addEventListener("click", () => {
  try {
    newGame(nextGameBody());
  } catch (e) {
    showError(ui.error, e.message);
  }
});
ui.hint.addEventListener("click", hint);

// The first game is the original's fixed one.
newGame({ fixed: true });
