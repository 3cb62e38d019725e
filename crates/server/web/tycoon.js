// Snakes & Ladders Tycoon's page module: how its match is drawn and how a
// click or a key becomes a move, on the one page shell (shell.js), which
// owns the match's life. The designer is tycoon-design.js; the board's
// tokens and rings tycoon-board.js; what both draw with tycoon-pictures.js.
//
// Terms:
// - grid choice: the grid a new game is played on — the one being designed
//   (when it has anything; else the original assignment's sample, until the
//   player picks), a saved one, or an empty grid.
// - tabs: /tycoon is the designer, /tycoon#play the new game, /tycoon/m/ID
//   a match; the tabs change the page without reloading it.
// - answers: the moves that answer the decision awaited, worded by the
//   library (the server's `page`): a few buttons, numbered for the keys 1
//   to 9; an attack asks its kind first, then whom.
// No rule of the game is here.
import { api, el, byId, readSeed } from "/static/common.js";
import { yourGames, playerName as nameOf, sentences } from "/static/matchui.js";
import { runShell, statusWords } from "/static/shell.js";
import { design, designName, savedNames, listSaved, loadCards, openDraft, startDesigner, refuse } from "/static/tycoon-design.js";
import { capital, clip, colourName, cropToGrid, inline, readableCards, swatch } from "/static/tycoon-pictures.js";
import { Board } from "/static/tycoon-board.js";
import { quickParts } from "/static/onetap.js";
import { chancesDisplay } from "/static/chances.js";
import { showTables } from "/static/tycoon-tables.js";

const play = {
  design: byId("design"),
  section: byId("play"),
  tabDesign: byId("tab-design"),
  tabPlay: byId("tab-play"),
  grid: byId("play-grid"),
  setup: byId("setup"),
  board: byId("play-board"),
  cardWords: byId("play-card-words"),
  legend: byId("play-legend"),
  pictureError: byId("picture-error"),
  status: byId("play-status"),
  decision: byId("decision"),
  moveError: byId("move-error"),
  lastMove: byId("last-move"),
  wallets: document.querySelector("#wallets tbody"),
  effects: byId("effects"),
  stations: byId("stations"),
  chances: byId("chances"),
  chancesWords: byId("chances-words"),
  chancesNote: byId("chances-note"),
  chancesBar: byId("chances-bar"),
  chancesChart: byId("chances-chart"),
  chancesChartPicture: byId("chances-chart-picture"),
  chancesSwing: byId("chances-swing"),
};

const { cardWords, legend, pictureError } = play;
const board = new Board(play.board, { speed: byId("speed"), cardWords, legend, pictureError });

/** The shell (shell.js), once running. */
let shell = null;
/** True when the answer was given from the buttons by keyboard or click: they keep the focus. */
let keepFocus = false;
/** The kind of attack chosen, while its target is asked. */
let attackKind = null;
/**
 * What the answers' buttons were drawn for (the position, the names, the answers, the
 * kind chosen): a later render of the same, such as the late chances, keeps
 * them, so that a click landing just then is not lost on a button replaced
 * under it. null draws them afresh.
 */
let decisionDrawn = null;
/** The list of this device's games. */
let mine = null;
const PAGE_TITLE = document.title;

const current = () => shell && shell.match;
/** Seat `seat`'s player's name (the match view's; "Player N" before a match). */
const playerName = (seat) => (current() ? nameOf(current().view, seat) : `Player ${seat}`);
const seatName = (seat) => `${playerName(seat)} (${colourName(seat)})`;
/** Each player's chance to win and the look back (chances.js). */
const chances = chancesDisplay(play, { playerName, current: (id) => Boolean(current()) && current().id === id });
/** The server's words with each "P2" as its player's name. */
// The server names the players in every text it words.
const named = (text) => String(text);

function setTabs(which) {
  const playing = which === "play";
  play.section.hidden = !playing;
  play.design.hidden = playing;
  play.tabDesign.removeAttribute("aria-current");
  play.tabPlay.removeAttribute("aria-current");
  (playing ? play.tabPlay : play.tabDesign).setAttribute("aria-current", "page");
  const back = current() ? current().id : shell && shell.lastMatch;
  play.tabPlay.href = back ? `/tycoon/m/${back}` : "/tycoon#play";
}

// ---- The new game's form ----

async function fillGridChoices() {
  const before = play.grid.value;
  const options = [
    el("option", { value: "design" }, `The grid being designed (${designName})`),
    el("option", { value: "sample" }, "The original assignment's sample grid"),
    ...savedNames.map((n) => el("option", { value: `saved:${n}` }, `Saved: ${n}`)),
    el("option", { value: "empty" }, "An empty grid"),
  ];
  play.grid.replaceChildren(...options);
  const kept = gridChosen && [...play.grid.options].some((o) => o.value === before);
  play.grid.value = kept ? before : design?.objects.length ? "design" : "sample";
}
let gridChosen = false;
play.grid.addEventListener("change", () => (gridChosen = true));

let previewing = 0;

/** On the new-game page, the chosen grid is drawn where the game will be. */
async function previewGrid() {
  if (current()) return;
  const number = ++previewing;
  const choice = play.grid.value || "design";
  let svg;
  try {
    if (choice === "design" && design) {
      svg = await api("GET", `/api/tycoon/designs/${design.id}/svg`);
    } else if (choice === "sample") {
      svg = await api("GET", "/api/tycoon/sample.svg");
    } else {
      const body = choice.startsWith("saved:") ? { saved: choice.slice(6) } : {};
      const temp = await api("POST", "/api/tycoon/designs", body);
      svg = await api("GET", `/api/tycoon/designs/${temp.id}/svg`);
      api("DELETE", `/api/tycoon/designs/${temp.id}`).catch(() => {});
    }
  } catch (e) {
    if (number === previewing) play.pictureError.textContent = clip(e.message);
    return;
  }
  if (number !== previewing || current()) return;
  play.pictureError.textContent = "";
  const picture = inline(play.board, svg);
  if (!picture) return;
  cropToGrid(picture);
  readableCards(play.board, picture, play.cardWords, play.legend);
  picture.setAttribute("role", "img");
  const label = play.grid.selectedOptions[0]?.textContent || "the grid";
  picture.setAttribute("aria-label", `The grid the new game will be played on: ${label}`);
  picture.querySelector(":scope > title")?.remove();
}

/** The new match's request from the form: its grid, turn cap and seed. */
function request(seats) {
  const choice = play.grid.value;
  const setup = {};
  if (choice === "design") setup.design = design.id;
  else if (choice === "sample") setup.sample = true;
  else if (choice.startsWith("saved:")) setup.saved = choice.slice(6);
  const cap = byId("turn-cap").value.trim();
  if (cap) {
    if (!/^\d+$/.test(cap) || Number(cap) < 1) throw new Error("The turn cap is a whole number of turns, 1 or more (or leave it empty).");
    setup.turn_cap = Number(cap);
  }
  const made = { setup, seats };
  const seed = readSeed(byId("play-seed").value);
  if (seed !== undefined) {
    if (seats.some((s) => s === "open" || s === "anyone")) {
      throw new Error("A game with a friend's or anyone's seat draws its own seed, so that nobody knows the dice: leave the seed empty.");
    }
    made.seed = seed;
  }
  return made;
}

function moveWords(p) {
  return sentences((p.events || []).map((e) => e.text));
}

/** The answers' buttons, numbered for the keys 1 to 9. */
function answerButton(label, detail, onclick, extra = {}) {
  return el(
    "button",
    { type: "button", class: `answer ${extra.class || ""}`.trim(), dataset: extra.dataset || {}, onclick },
    el("span", { class: "ty-key", "aria-hidden": "true" }),
    el(
      "span",
      { class: "words" },
      el("span", { class: "label" }, extra.seat ? swatch(extra.seat) : null, label),
      detail ? el("span", { class: "detail" }, detail) : null,
    ),
  );
}

function numberButtons() {
  const buttons = [...play.decision.querySelectorAll("button.answer, button.back")];
  let n = 0;
  for (const b of buttons) {
    const key = b.querySelector(".ty-key");
    if (b.classList.contains("back")) {
      b.setAttribute("aria-keyshortcuts", "Escape");
      if (key) key.textContent = "Esc";
      continue;
    }
    n += 1;
    if (n <= 9) {
      b.setAttribute("aria-keyshortcuts", String(n));
      if (key) key.textContent = String(n);
    }
  }
}

/** The status line's words: the result and how it came, or the decision awaited. */
function statusLine(m) {
  const view = m.view;
  const page = view.page || {};
  if (view.status !== "playing") {
    // The result in the match's own words ("You win", "You lost: Ada
    // wins"), then how it came about.
    const how = page.outcome ? named(page.outcome) : view.status === "stalled" ? `The game stopped: ${view.reason || "no winner"}.` : "";
    return view.result ? `${view.result.words}. ${how}`.trim() : how || "The game is over.";
  }
  const to = view.to_move;
  const seat = (view.players || []).find((p) => p.seat === to) || {};
  if (m.myTurn() && page.question) {
    const choice = attackKind && kindsOffered(m).find((a) => a.attack === attackKind);
    if (choice) return `${playerName(to)}: ${choice.label.toLowerCase()} on whom? ${capital(named(choice.detail))}.`;
    attackKind = null;
    return named(page.question);
  }
  if (seat.state === "open" || seat.state === "anyone") return statusWords(m, seatName);
  return `${page.question ? named(page.question) : `${playerName(to)} to play.`} (${seat.kind === "bot" ? "a bot, on the server" : "waiting for them"})`;
}

/** The kinds of attack the answers offer, in words (the match's setup has every kind's, once). */
function kindsOffered(m) {
  const moves = (m.view.page && m.view.page.moves) || [];
  return ((m.setup && m.setup.attacks) || []).filter((k) => moves.some((x) => x.attack === k.attack));
}

/** The answers' buttons for the decision awaited, when this device answers it. */
function answers(m) {
  const page = m.view.page || {};
  const all = page.moves || [];
  const parts = [];
  const send = (answer) => (event) => sendMove(answer, event);
  if (attackKind) {
    const choice = kindsOffered(m).find((a) => a.attack === attackKind);
    for (const a of all.filter((x) => x.attack === attackKind)) {
      // Whom: the kind's words, in the line above, say what it does.
      parts.push(answerButton(seatName(a.target), "", send(a), { seat: a.target, dataset: { move: a.text } }));
    }
    parts.push(
      el(
        "button",
        { type: "button", class: "secondary back", onclick: () => chooseKind(null) },
        el("span", { class: "ty-key", "aria-hidden": "true" }),
        el("span", { class: "words" }, el("span", { class: "label" }, `Back (not ${choice ? choice.label.toLowerCase() : "this"})`)),
      ),
    );
    return parts;
  }
  for (const a of all.filter((x) => !x.attack)) parts.push(answerButton(a.label, a.detail, send(a), { dataset: { move: a.text } }));
  for (const k of kindsOffered(m)) {
    const direct = all.find((x) => x.attack === k.attack && !k.needs_target);
    if (direct) {
      parts.push(answerButton(direct.label, direct.detail, send(direct), { class: "attack", dataset: { move: direct.text } }));
    } else {
      parts.push(answerButton(`${k.label}…`, k.detail, () => chooseKind(k.attack), { class: "attack kind", dataset: { attack: k.attack } }));
    }
  }
  return parts;
}

/** The buttons, for the match as it stands; the focus stays with them. */
function showDecision(m, busy) {
  const view = m.view;
  const hadFocus = keepFocus || play.decision.contains(document.activeElement) || document.activeElement === play.status;
  play.status.classList.toggle("win", view.status === "won" && view.result?.you_won !== false);
  play.status.dataset.winner = view.status !== "playing" && view.winner ? String(view.winner) : "";
  const mine = view.status === "playing" && m.myTurn() && !busy;
  const page = view.page || {};
  const drawn = mine ? JSON.stringify([view.moves, view.to_move, view.names, attackKind, page.moves]) : "";
  if (drawn !== decisionDrawn) {
    play.decision.replaceChildren(...(mine ? answers(m) : []));
    numberButtons();
    decisionDrawn = drawn;
  }
  if (hadFocus) {
    keepFocus = false;
    const first = play.decision.querySelector("button");
    if (first) first.focus();
    else {
      // No answers now: the line saying whom the game waits for holds the
      // focus, and gives it to the answers when they come back.
      play.status.setAttribute("tabindex", "-1");
      play.status.focus();
    }
  }
}

function chooseKind(kindChosen) {
  if (!current() || shell.busy) return;
  attackKind = kindChosen;
  play.moveError.textContent = "";
  shell.render();
  play.decision.querySelector("button")?.focus();
}

/** Sends one answer for this device's seat, through the shell. */
async function sendMove(answer, event) {
  // The second click of a double click is not a second move: the first
  // one's answer may already have put the next person's buttons here.
  if (event && event.detail > 1) return;
  if (!current() || shell.busy) return;
  // A disabled button loses the focus: the buttons drawn next take it back.
  keepFocus = play.decision.contains(document.activeElement);
  for (const b of play.decision.querySelectorAll("button")) b.disabled = true;
  decisionDrawn = null;
  attackKind = null;
  await shell.play(answer.text);
}

/** The board and its tables, for `view`. */
function showBoard(view) {
  board.show(view, view.view.players.map((p) => `${seatName(p.seat)} on cell ${p.cell}`).join(", "));
  showTables(play, view, { playerName, seatName, seats: () => (current() && current().view.players) || [] });
  // The live match's bar stays while its new estimate is worked out.
  const live = shell.step || !current() ? null : current().id;
  chances.show(view.view.chances, view.view.chances_interval, view.view.chances_playouts, live);
}

/** The board, its tables and the answers, for the view shown (the match's, or a replay's step). */
function draw(m, busy) {
  showBoard(shell.view);
  showDecision(m, busy);
  // The look back: the chances over the whole game, once it is over.
  chances.lookBack(m.id, m.view.status !== "playing" && !shell.step && Boolean(m.view.view.chances));
}

/** The page module (shell.js). */
const page = {
  game: "tycoon",
  parts: {
    start: play.setup,
    startSeats: byId("seats"),
    startButton: byId("start-game"),
    startError: byId("play-error"),
    game: [byId("table-panel"), byId("players-panel"), byId("another"), byId("state-panel")],
    gone: byId("gone"),
    status: play.status,
    moveError: play.moveError,
    seats: byId("seats-state"),
    moves: byId("moves-panel"),
    replay: byId("replay"),
    connection: byId("connection"),
    ...quickParts(),
  },
  seatOptions: { seatName, legend: "Who plays each seat" },
  seatName,
  goneShowsStart: true,
  request,
  status: statusLine,
  draw,

  attach: (s) => (shell = s),

  before() {
    setTabs("play");
  },

  async enter(m, made) {
    play.lastMove.textContent = "";
    attackKind = null;
    play.board.replaceChildren();
    await board.draw(m);
    if (mine) mine.refresh();
    // A game just started, or a page just opened: its buttons take the focus.
    if (made || document.activeElement === document.body) keepFocus = true;
  },

  leave() {
    attackKind = null;
  },

  async step(p, how) {
    play.lastMove.textContent = moveWords(p);
    if (!how.replaying && !how.quick) await board.animate(p, how.behind, how.still, playerName);
  },

  async drawStep(step, m, still, before) {
    if (step.played && step.at === before + 1) {
      await board.animate(step.played, 0, still, playerName);
      // Another step was asked for while this one walked: it shows itself.
      if (!still()) return;
    }
    showBoard(shell.view);
    play.lastMove.textContent = step.played ? moveWords(step.played) : "The start: every token on cell 1.";
  },

  /** Keys: 1–9 choose the numbered answers; Escape goes back from a target. */
  interpret(event) {
    if (play.section.hidden) return null;
    if (event.key === "Escape" && attackKind) {
      event.preventDefault();
      chooseKind(null);
      return null;
    }
    if (!/^[1-9]$/.test(event.key)) return null;
    const button = play.decision.querySelector(`button[aria-keyshortcuts="${event.key}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
    return null;
  },

  /** The designer's tab, at /tycoon without #play. */
  route() {
    if (location.hash === "#play") return false;
    setTabs("design");
    document.title = PAGE_TITLE;
    listSaved();
    return true;
  },

  async newGameShown() {
    document.title = `New game · ${PAGE_TITLE}`;
    fillGridChoices();
    const drawn = previewGrid();
    listSaved();
    if (mine) mine.refresh();
    await drawn;
  },

  goneShown: () => {
    fillGridChoices();
    previewGrid();
  },
};

function wire() {
  play.grid.addEventListener("change", previewGrid);
  const more = byId("more-toggle");
  more.addEventListener("click", () => {
    const open = more.getAttribute("aria-expanded") !== "true";
    more.setAttribute("aria-expanded", String(open));
    byId("more").hidden = !open;
  });
  byId("new-game").addEventListener("click", () => {
    play.setup.hidden = !play.setup.hidden;
    byId("custom").open = !play.setup.hidden;
    if (!play.setup.hidden) {
      fillGridChoices();
      listSaved();
      play.grid.focus();
    }
  });
  // The tabs change the page without reloading it; Back and Forward too.
  for (const tab of [play.tabDesign, play.tabPlay]) {
    tab.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      const url = tab.getAttribute("href");
      if (url !== location.pathname + location.hash) history.pushState(null, "", url);
      shell.route();
    });
  }
  mine = yourGames(byId("mine"), { empty: "None yet: a game you start or join shows here, and its address brings it back." });
}

document.addEventListener("tycoon-grids", () => fillGridChoices());

async function main() {
  startDesigner();
  wire();
  await loadCards();
  await listSaved();
  await openDraft();
  fillGridChoices();
  // Ready once the new game's grid is drawn: the form below it on a phone
  // is where it stays.
  await runShell(page);
  document.body.dataset.ready = "true";
}

main().catch((e) => refuse(e.message));
