// Snakes & Ladders Tycoon: play games on a grid (the designer is
// tycoon-design.js; what both draw with, tycoon-pictures.js).
//
// Terms:
// - grid choice: the grid a new game is played on — the one being designed
//   (tycoon-design.js), a saved one, the original assignment's sample, or
//   an empty grid.
// - match page: /tycoon/m/ID, a game stored on the server. Bots move on the
//   server; this page sends its seats' moves (with the move number seen,
//   so a double click never plays twice) and follows the live events.
// - shown state: where the tokens are drawn. Moves arrive as events and
//   are animated one after another (the token walks the cells the die
//   counted, then slides up a ladder or down a snake); the tables follow
//   the match's view once the animation has caught up.
// - answers: the moves that answer the decision awaited, worded by the
//   library (the server's `page`): a few buttons; an attack asks its kind
//   first, then whom.
// The pictures are Parlor's own (render's SVG): this page finds the cells
// in them by their data attributes, crops them to the grid and its legend,
// and draws the tokens and the station owners' rings over them. No rule of
// the game is here.
import { api, el, byId, readSeed, sleep, ApiFailure, gameInfo, defaultPlans } from "/static/common.js";
import { Match, matchIdFromPath } from "/static/match.js";
import { MoveShow } from "/static/moveshow.js";
import { showDie } from "/static/dice.js";
import {
  seatChooser,
  invitePanel,
  gonePanel,
  replayBar,
  connectionStatus,
  confirmAction,
  yourGames,
  moveList,
  playerName as nameOf,
  withNames,
} from "/static/matchui.js";
import {
  design,
  designName,
  savedNames,
  listSaved,
  loadCards,
  openDraft,
  startDesigner,
  refuse,
} from "/static/tycoon-design.js";
import { capital, cellBox, clip, colourName, cropToGrid, inline, readableCards, ring, svgEl, swatch } from "/static/tycoon-pictures.js";

/** This game in the registry (GET /api/games): its seats and default seats. */
const INFO = await gameInfo("tycoon");

/** Seat `seat`'s player's name (the match view's; "Player N" before a match). */
const playerName = (seat) => (current && current.view ? nameOf(current.view, seat) : `Player ${seat}`);
const seatName = (seat) => `${playerName(seat)} (${colourName(seat)})`;
/** The server's words with each "P2" as its player's name. */
const named = (text) => (current && current.view ? withNames(current.view, text) : String(text));

// ---------------------------------------------------------------------------
// Play

const play = {
  design: byId("design"),
  section: byId("play"),
  tabDesign: byId("tab-design"),
  tabPlay: byId("tab-play"),
  grid: byId("play-grid"),
  seats: byId("seats"),
  seed: byId("play-seed"),
  turnCap: byId("turn-cap"),
  setup: byId("setup"),
  start: byId("start-game"),
  error: byId("play-error"),
  another: byId("another"),
  newGame: byId("new-game"),
  board: byId("play-board"),
  cardWords: byId("play-card-words"),
  legend: byId("play-legend"),
  pictureError: byId("picture-error"),
  gone: byId("gone"),
  tablePanel: byId("table-panel"),
  status: byId("play-status"),
  decision: byId("decision"),
  moveError: byId("move-error"),
  lastMove: byId("last-move"),
  connection: byId("connection"),
  speed: byId("speed"),
  replay: byId("replay"),
  playersPanel: byId("players-panel"),
  seatsState: byId("seats-state"),
  wallets: document.querySelector("#wallets tbody"),
  effects: byId("effects"),
  stations: byId("stations"),
  logPanel: byId("log-panel"),
  log: byId("play-log"),
  mine: byId("mine"),
};

const SPEED_KEY = "parlor.tycoon.speed";
/** Milliseconds per cell walked, and per slide, at each speed. */
const SPEEDS = { step: [170, 480], quick: [70, 220], none: [0, 0] };

/** The match shown (null on the new-game page), and the last one shown. */
let current = null;
let lastMatchId = null;
/** Its seats and invites, its connection, its replay bar. */
let seatsPanel = null;
let connection = null;
let replay = null;
/** The move list (matchui): a look back while on, the replay's steps once over. */
let moves = null;

/** A move of this page on its way. */
let sending = false;
/** True when the answer was given from the buttons by keyboard or click: they keep the focus. */
let keepFocus = false;
/** The kind of attack chosen, while its target is asked. */
let attackKind = null;
/** Where each token is drawn (cells, seat 1 first). */
let shownCells = [1, 1, 1, 1];
/** The view the tables show: the match's, or a replay's step. */
let replayView = null;
/** The replay step asked for last: a step still walking its tokens stops when another is asked for. */
let replayStepAsked = 0;
/** Each route is numbered: a late answer for an old page is dropped. */
let routing = 0;
let chooser = null;
/** The list of this device's games. */
let mine = null;

function speed() {
  return SPEEDS[play.speed.value] ? play.speed.value : "step";
}

function setTabs(which) {
  const playing = which === "play";
  play.section.hidden = !playing;
  play.design.hidden = playing;
  play.tabDesign.removeAttribute("aria-current");
  play.tabPlay.removeAttribute("aria-current");
  (playing ? play.tabPlay : play.tabDesign).setAttribute("aria-current", "page");
  const back = current ? current.id : lastMatchId;
  play.tabPlay.href = back ? `/tycoon/m/${back}` : "/tycoon#play";
}

/** Stops following the match shown. */
function leaveMatch() {
  if (current) {
    current.close();
    lastMatchId = current.id;
  }
  current = null;
  show.reset(0);
  replay = null;
  replayView = null;
  replayStepAsked += 1;
  attackKind = null;
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
  if ([...play.grid.options].some((o) => o.value === before)) play.grid.value = before;
}

let previewing = 0;

/** On the new-game page, the chosen grid is drawn where the game will be. */
async function previewGrid() {
  if (current) return;
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
  if (number !== previewing || current) return;
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

function setupRequest() {
  const choice = play.grid.value;
  const setup = {};
  if (choice === "design") setup.design = design.id;
  else if (choice === "sample") setup.sample = true;
  else if (choice.startsWith("saved:")) setup.saved = choice.slice(6);
  const cap = play.turnCap.value.trim();
  if (cap) {
    if (!/^\d+$/.test(cap) || Number(cap) < 1) throw new Error("The turn cap is a whole number of turns, 1 or more (or leave it empty).");
    setup.turn_cap = Number(cap);
  }
  const seats = chooser.plans();
  const request = { setup, seats };
  const seed = readSeed(play.seed.value);
  if (seed !== undefined) {
    if (seats.some((s) => s === "open" || s === "anyone")) {
      throw new Error("A game with a friend's or anyone's seat draws its own seed, so that nobody knows the dice: leave the seed empty.");
    }
    request.seed = seed;
  }
  return request;
}

let starting = false;

async function startGame() {
  if (starting) return;
  play.error.textContent = "";
  let request;
  try {
    request = setupRequest();
  } catch (e) {
    play.error.textContent = e.message;
    return;
  }
  if (current && current.view && current.view.status === "playing" && current.mySeats().length > 0) {
    const ok = await confirmAction(
      "Start a new game? The game you are playing is kept on the server: its address (Back, or Your games) brings it back.",
      { title: "Leave this game for a new one?", confirm: "Start a new game", cancel: "Back to the game" },
    );
    if (!ok) return;
  }
  starting = true;
  play.start.disabled = true;
  try {
    const made = await Match.create("tycoon", request);
    leaveMatch();
    await showMatch(made, ++routing);
  } catch (e) {
    play.error.textContent = clip(e.message);
  } finally {
    starting = false;
    play.start.disabled = false;
  }
}

// ---- The board ----

/** The tokens' layer, over the picture. */
function tokenLayer() {
  return play.board.querySelector("svg g.ty-tokens");
}

/** Fetches the match's picture once: the grid; this page draws the rest. */
async function drawMatchBoard(m, route) {
  let svg;
  try {
    svg = await api("GET", `/api/matches/${m.id}/svg`);
  } catch (e) {
    play.pictureError.textContent = clip(e.message);
    return;
  }
  if (route !== routing) return;
  play.pictureError.textContent = "";
  const picture = inline(play.board, svg);
  if (!picture) return;
  // The players are in the page's own table, by name and colour.
  for (const entry of picture.querySelectorAll("g.legend g.legend-entry")) {
    if (/^P\d/.test(entry.textContent.trim())) entry.remove();
  }
  cropToGrid(picture);
  readableCards(play.board, picture, play.cardWords, play.legend);
  picture.querySelector(":scope > title")?.remove();
  picture.setAttribute("role", "img");
  // The owners' rings are this page's: they follow the moves and replays.
  for (const r of picture.querySelectorAll("g.cell rect.owner")) r.remove();
  for (const g of picture.querySelectorAll("g.cell[data-owner]")) g.removeAttribute("data-owner");
  const owners = svgEl("g", { class: "ty-owners", "aria-hidden": "true" });
  const layer = svgEl("g", { class: "ty-tokens", "aria-hidden": "true" });
  picture.append(owners, layer);
  for (let seat = 1; seat <= 4; seat += 1) {
    const token = svgEl("g", { class: `ty-token p${seat}`, "data-player": seat });
    token.append(svgEl("circle", { r: 10 }), svgEl("text", { "text-anchor": "middle", "dominant-baseline": "central" }));
    token.querySelector("text").textContent = String(seat);
    layer.append(token);
  }
  placeAll(false);
}

function boardCell(cell) {
  return play.board.querySelector(`svg g.cell[data-cell="${cell}"]`);
}

/**
 * Puts every token where `shownCells` says: tokens sharing a cell share it
 * (one large in the middle, two side by side, three or four in its
 * corners). `moving` sets how long the slide takes (0: at once).
 */
function placeAll(animate = true, duration = 0) {
  const layer = tokenLayer();
  if (!layer) return;
  const byCell = new Map();
  shownCells.forEach((cell, i) => {
    if (!byCell.has(cell)) byCell.set(cell, []);
    byCell.get(cell).push(i + 1);
  });
  for (const [cell, seats] of byCell) {
    const group = boardCell(cell);
    if (!group) continue;
    const { x, y, width } = cellBox(group);
    const cx = x + width / 2;
    const cy = y + width / 2;
    const n = seats.length;
    const r = width * (n === 1 ? 0.3 : n === 2 ? 0.23 : 0.2);
    const spots =
      n === 1
        ? [[0, 0]]
        : n === 2
          ? [[-0.24, 0], [0.24, 0]]
          : [[-0.25, -0.25], [0.25, -0.25], [-0.25, 0.25], [0.25, 0.25]];
    seats.forEach((seat, k) => {
      const token = layer.querySelector(`g.ty-token[data-player="${seat}"]`);
      const [dx, dy] = spots[k];
      token.style.transitionDuration = animate ? `${duration}ms` : "0ms";
      token.style.transform = `translate(${cx + dx * width}px, ${cy + dy * width}px)`;
      token.dataset.cell = String(cell);
      const circle = token.querySelector("circle");
      circle.setAttribute("r", String(r));
      token.querySelector("text").setAttribute("font-size", String(r * 1.1));
    });
  }
}

/** Draws the station owners' rings, as the view says. */
function showOwners(view) {
  const layer = play.board.querySelector("svg g.ty-owners");
  if (!layer) return;
  layer.replaceChildren();
  for (const g of play.board.querySelectorAll("svg g.cell[data-owner]")) g.removeAttribute("data-owner");
  for (const o of view.view.owners || []) {
    if (!o.owner) continue;
    for (const g of play.board.querySelectorAll(`svg g.cell[data-card="${o.station}"]`)) {
      g.dataset.owner = String(o.owner);
      layer.append(ring(g, `owner p${o.owner}`, 2.5));
    }
  }
}

function showCurrent(view) {
  const layer = tokenLayer();
  if (!layer) return;
  const to = view.status === "playing" ? view.view.current : null;
  for (const token of layer.querySelectorAll("g.ty-token")) {
    token.classList.toggle("current", Number(token.dataset.player) === to);
  }
}

/** The board in words, for those who do not see it. */
function boardLabel(view) {
  const picture = play.board.querySelector("svg");
  if (!picture) return;
  const where = view.view.players.map((p) => `${seatName(p.seat)} on cell ${p.cell}`).join(", ");
  picture.setAttribute("aria-label", `The game on its grid: ${where}.`);
}

/** Walks one move's tokens: the cells the die counted, then each slide. */
async function animateMove(played, behind, still = () => true) {
  const [step, slide] = SPEEDS[speed()];
  const fast = step === 0 || behind > 6 || document.hidden;
  for (const e of played.events || []) {
    const seat = e.player;
    if (e.event === "rolled" && !fast) showDie(byId("play-die"), e.roll, `${playerName(seat)} rolled ${e.roll}`);
    if (e.event === "moved" && e.cause === "dice" && e.to > e.from && !fast) {
      for (let cell = e.from + 1; cell <= e.to; cell += 1) {
        shownCells[seat - 1] = cell;
        placeAll(true, step);
        await sleep(step);
        if (!still()) return;
      }
    } else if (e.event === "moved" || e.event === "ladder" || e.event === "snake") {
      shownCells[seat - 1] = e.to;
      placeAll(!fast, slide);
      if (!fast) await sleep(slide);
      if (!still()) return;
    }
  }
}

// ---- Following the match ----

/**
 * The moves shown one after another (moveshow.js): each logged and said,
 * then its tokens walked; with reduced motion, in a hidden tab or skipped,
 * at once. The tables follow once the show is over.
 */
const show = new MoveShow({
  async step(p, how) {
    appendLog(p);
    play.lastMove.textContent = moveWords(p);
    if (!replayView && !how.quick) await animateMove(p, how.behind, how.still);
  },
  onBusy() {
    document.body.dataset.idle = "false";
  },
  onIdle() {
    if (current) render();
  },
});

function moveWords(p) {
  const texts = (p.events || []).map((e) => named(e.text)).filter(Boolean);
  return `${p.bot ? `${playerName(p.seat)} (bot)` : playerName(p.seat)}: ${texts.join("; ")}.`;
}

function appendLog(p) {
  for (const e of p.events || []) {
    const cls = e.event === "won" ? "won" : e.event === "ladder" ? "ladder" : e.event === "snake" ? "chute" : "";
    play.log.append(el("li", { class: cls, dataset: { event: e.event, number: p.number } }, named(e.text)));
  }
  while (play.log.children.length > 1000) play.log.firstChild.remove();
  play.log.scrollTop = play.log.scrollHeight;
}

function seatWords(p, view) {
  if (p.kind === "bot") return `${p.level || "normal"} bot`;
  if (p.yours) return view.players.filter((q) => q.yours).length > 1 ? "here (you)" : "you";
  switch (p.state) {
    case "here":
      return "at the maker's screen";
    case "open":
      return "waiting for a friend";
    case "anyone":
      return "waiting for anyone";
    default:
      return "a person";
  }
}

function effectsOf(p) {
  const parts = [];
  if (p.lost_turns) parts.push(`loses ${p.lost_turns} turn${p.lost_turns > 1 ? "s" : ""}`);
  if (p.fire_turns) parts.push(`burning ${p.fire_turns} turn${p.fire_turns > 1 ? "s" : ""}`);
  if (p.poison_turns) parts.push(`poisoned ${p.poison_turns} turn${p.poison_turns > 1 ? "s" : ""}`);
  return parts;
}

/** The players' table, effects and stations, for `view` (a match view). */
function showTables(view) {
  const game = view.view;
  // A replay's step has no seats of its own: they are the match's.
  const seats = view.players || (current && current.view.players) || [];
  play.wallets.replaceChildren(
    ...game.players.map((p) => {
      const seat = seats.find((s) => s.seat === p.seat) || { kind: "person" };
      const cls = p.seat === game.winner ? "winner" : p.seat === game.current && view.status === "playing" ? "current" : "";
      return el(
        "tr",
        { class: cls, dataset: { player: p.seat } },
        el("td", {}, swatch(p.seat), el("span", { class: "name" }, playerName(p.seat)), " ", el("span", { class: "note" }, seatWords(seat, view))),
        el("td", { class: "cell" }, p.cell),
        el("td", { class: "coins" }, p.coins),
        el("td", { class: "turns" }, p.turns),
      );
    }),
  );
  play.effects.replaceChildren(
    ...game.players.map((p) => {
      const attacks = p.attacks_left.length ? `attacks left: ${p.attacks_left.join(", ")}` : "no attacks left";
      return el("p", {}, swatch(p.seat), `${playerName(p.seat)}: `, [...effectsOf(p), attacks].join("; "));
    }),
  );
  play.stations.replaceChildren(
    ...game.owners.map((o) =>
      el("li", {}, `Station ${o.station} (price ${o.price}, fee ${o.fee}): `, o.owner ? `owned by ${seatName(o.owner)}` : "for sale"),
    ),
  );
  if (game.owners.length === 0) play.stations.append(el("li", {}, "none on this grid"));
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

/** The status line and the buttons, for the match as it stands. */
function showDecision(m) {
  const view = m.view;
  const page = view.page || {};
  const hadFocus = keepFocus || play.decision.contains(document.activeElement) || document.activeElement === play.status;
  const parts = [];
  let status;
  play.status.classList.toggle("win", view.status === "won" && view.result?.you_won !== false);
  if (view.status !== "playing") {
    // The result in the match's own words ("You win", "You lost: Ada
    // wins"), then how it came about.
    const how = page.outcome ? named(page.outcome) : view.status === "stalled" ? `The game stopped: ${view.reason || "no winner"}.` : "";
    status = view.result ? `${view.result.words}. ${how}`.trim() : how || "The game is over.";
    play.status.dataset.winner = view.winner ? String(view.winner) : "";
  } else {
    play.status.dataset.winner = "";
    const to = view.to_move;
    const seat = (view.players || []).find((p) => p.seat === to) || {};
    const mine = m.myTurn();
    if (mine && page.question) {
      status = named(page.question);
      if (attackKind) {
        const choice = (page.attacks || []).find((a) => a.attack === attackKind);
        if (choice) status = `${playerName(to)}: ${choice.label.toLowerCase()} on whom? ${capital(named(choice.detail))}.`;
        else attackKind = null;
      }
    } else if (seat.state === "open") {
      status = view.host
        ? `Waiting for ${seatName(to)}: send your friend the seat's invite link (under Players).`
        : `Waiting for ${seatName(to)}'s friend to come.`;
    } else if (seat.state === "anyone") {
      status = `Waiting for someone to take ${seatName(to)}'s seat from the lobby.`;
    } else {
      status = `${page.question ? named(page.question) : `${playerName(to)} to play.`} (${seat.kind === "bot" ? "a bot, on the server" : "waiting for them"})`;
    }
    if (mine && !show.busy) {
      const answers = page.moves || [];
      const send = (answer) => (event) => sendMove(answer, event);
      if (attackKind) {
        const choice = (page.attacks || []).find((a) => a.attack === attackKind);
        for (const a of answers.filter((x) => x.attack === attackKind)) {
          parts.push(answerButton(seatName(a.target), named(a.detail), send(a), { seat: a.target, dataset: { move: a.text } }));
        }
        parts.push(
          el(
            "button",
            { type: "button", class: "secondary back", onclick: () => chooseKind(null) },
            el("span", { class: "ty-key", "aria-hidden": "true" }),
            el("span", { class: "words" }, el("span", { class: "label" }, `Back (not ${choice ? choice.label.toLowerCase() : "this"})`)),
          ),
        );
      } else {
        for (const a of answers.filter((x) => !x.attack)) {
          parts.push(answerButton(a.label, a.detail, send(a), { dataset: { move: a.text } }));
        }
        for (const k of page.attacks || []) {
          const direct = answers.find((x) => x.attack === k.attack && !k.needs_target);
          if (direct) {
            parts.push(answerButton(direct.label, direct.detail, send(direct), { class: "attack", dataset: { move: direct.text } }));
          } else {
            parts.push(
              answerButton(`${k.label}…`, k.detail, () => chooseKind(k.attack), {
                class: "attack kind",
                dataset: { attack: k.attack },
              }),
            );
          }
        }
      }
    }
  }
  play.status.textContent = status;
  play.decision.replaceChildren(...parts);
  numberButtons();
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
  if (!current || sending) return;
  attackKind = kindChosen;
  play.moveError.textContent = "";
  showDecision(current);
  play.decision.querySelector("button")?.focus();
}

/** Sends one answer for this device's seat. */
async function sendMove(answer, event) {
  // The second click of a double click is not a second move: the first
  // one's answer may already have put the next person's buttons here.
  if (event && event.detail > 1) return;
  const m = current;
  if (!m || sending) return;
  sending = true;
  // A disabled button loses the focus: the buttons drawn next take it back.
  keepFocus = play.decision.contains(document.activeElement);
  document.body.dataset.idle = "false";
  for (const b of play.decision.querySelectorAll("button")) b.disabled = true;
  play.moveError.textContent = "";
  try {
    const result = await m.move(answer.text);
    if (result) {
      attackKind = null;
      show.push(result.played);
    }
  } catch (e) {
    attackKind = null;
    if (e instanceof ApiFailure && e.code === "stale_move") {
      play.moveError.textContent = "The game had moved on before that answer arrived: here it is now.";
    } else {
      play.moveError.textContent = clip(e.message);
    }
    if (m === current) show.caughtUp(m.view.moves);
  } finally {
    sending = false;
  }
  if (m === current) show.run();
}

/** Everything about the match shown, once the moves have been animated. */
function render() {
  const m = current;
  if (!m || !m.view) return;
  const view = replayView || m.view;
  play.tablePanel.hidden = false;
  play.connection.hidden = m.view.status !== "playing";
  play.playersPanel.hidden = false;
  play.logPanel.hidden = false;
  play.another.hidden = false;
  if (!replayView) {
    shownCells = view.view.players.map((p) => p.cell);
    placeAll(true, 200);
  }
  showOwners(view);
  showCurrent(view);
  boardLabel(view);
  showTables(view);
  showDecision(m);
  if (seatsPanel) seatsPanel.update();
  if (moves) moves.update();
  if (m.view.status !== "playing" && !replay) {
    play.replay.hidden = false;
    replay = replayBar(play.replay, m, showReplayStep);
  }
  document.body.dataset.moves = String(m.view.moves);
  document.body.dataset.status = m.view.status;
  // For whoever waits on the page (and its tests): nothing left to show.
  document.body.dataset.idle = String(!show.busy && !sending);
}

/** One step of a finished game's replay. */
async function showReplayStep(step) {
  const m = current;
  if (!m) return;
  const asked = ++replayStepAsked;
  const still = () => asked === replayStepAsked && m === current;
  const total = m.view.moves;
  const before = replayView ? replayView.moves : total;
  replayView = step.at === total ? null : step.view;
  const view = replayView || m.view;
  if (step.played && step.at === before + 1) {
    await animateMove(step.played, 0, still);
    // Another step was asked for while this one walked: it shows itself.
    if (!still()) return;
  }
  shownCells = view.view.players.map((p) => p.cell);
  placeAll(true, 200);
  showOwners(view);
  showCurrent(view);
  boardLabel(view);
  showTables(view);
  play.lastMove.textContent = step.played ? moveWords(step.played) : "The start: every token on cell 1.";
}

function onChange({ played }) {
  if (!current) return;
  show.push(played);
}

/** Shows match `m` (just made, or opened from the address). */
async function showMatch(m, route) {
  current = m;
  setTabs("play");
  play.gone.replaceChildren();
  play.setup.hidden = true;
  play.another.hidden = false;
  play.log.replaceChildren();
  for (const line of m.view.log || []) {
    play.log.append(el("li", { dataset: { number: line.number } }, withNames(m.view, line.text)));
  }
  play.lastMove.textContent = "";
  play.moveError.textContent = m.joinError ? `That invite could not be used: ${clip(m.joinError.message)}` : "";
  show.reset(m.view.moves);
  shownCells = m.view.view.players.map((p) => p.cell);
  replay = null;
  replayView = null;
  replayStepAsked += 1;
  play.replay.hidden = true;
  play.replay.replaceChildren();
  seatsPanel = invitePanel(play.seatsState, m, { seatName });
  byId("moves-panel").hidden = false;
  moves = moveList(byId("moves-panel"), m, { onPick: (n) => replay && replay.go(n) });
  connection = connectionStatus(play.connection, m);
  await drawMatchBoard(m, route);
  if (route !== routing || current !== m) return;
  // Followed after the end too: a player's rematch is told live.
  m.watch(onChange, (state) => connection.set(state));
  render();
  document.body.dataset.match = m.id;
  document.title = `${m.view.title || "A game"} · Parlor`;
  if (mine) mine.refresh();
}

async function openMatchPage(id, route) {
  setTabs("play");
  play.setup.hidden = true;
  play.another.hidden = true;
  play.tablePanel.hidden = true;
  play.playersPanel.hidden = true;
  play.logPanel.hidden = true;
  byId("moves-panel").hidden = true;
  play.replay.hidden = true;
  play.gone.replaceChildren();
  play.board.replaceChildren();
  let m;
  try {
    m = await Match.open("tycoon", id);
  } catch (e) {
    if (route !== routing) return;
    gonePanel(play.gone, "tycoon", e);
    document.title = "No such game · Snakes & Ladders Tycoon · Parlor";
    play.setup.hidden = false;
    fillGridChoices();
    previewGrid();
    document.body.dataset.match = "gone";
    return;
  }
  if (route !== routing) {
    m.close();
    return;
  }
  await showMatch(m, route);
}

const PAGE_TITLE = document.title;

/** Shows the new game's form; resolves once its grid is drawn. */
function showNewGame() {
  setTabs("play");
  document.title = `New game · ${PAGE_TITLE}`;
  play.gone.replaceChildren();
  play.setup.hidden = false;
  play.another.hidden = true;
  play.tablePanel.hidden = true;
  play.playersPanel.hidden = true;
  play.logPanel.hidden = true;
  byId("moves-panel").hidden = true;
  play.replay.hidden = true;
  fillGridChoices();
  const drawn = previewGrid();
  listSaved();
  if (mine) mine.refresh();
  delete document.body.dataset.match;
  return drawn;
}

/**
 * Shows what the address names: the designer, the new game, or a match.
 * For the new game, resolves once its grid is drawn.
 */
function route() {
  const number = ++routing;
  const id = matchIdFromPath();
  if (!id || (current && current.id !== id)) leaveMatch();
  if (id) {
    if (current && current.id === id) {
      setTabs("play");
      return;
    }
    openMatchPage(id, number);
  } else if (location.hash === "#play") {
    return showNewGame();
  } else {
    setTabs("design");
    document.title = PAGE_TITLE;
    listSaved();
  }
}

function startPlay() {
  chooser = seatChooser(play.seats, {
    game: "tycoon",
    min: INFO?.min_seats,
    max: INFO?.max_seats,
    botLevels: INFO?.bot_levels,
    defaults: defaultPlans(INFO),
    seatName,
    legend: "Who plays each seat",
  });
  try {
    const saved = localStorage.getItem(SPEED_KEY);
    if (saved && SPEEDS[saved]) play.speed.value = saved;
  } catch {
    // No storage: the default speed.
  }
  play.speed.addEventListener("change", () => {
    try {
      localStorage.setItem(SPEED_KEY, play.speed.value);
    } catch {
      // Kept for this page only.
    }
  });
  play.grid.addEventListener("change", previewGrid);
  const more = byId("more-toggle");
  more.addEventListener("click", () => {
    const open = more.getAttribute("aria-expanded") !== "true";
    more.setAttribute("aria-expanded", String(open));
    byId("more").hidden = !open;
  });
  play.start.addEventListener("click", startGame);
  play.newGame.addEventListener("click", () => {
    play.setup.hidden = !play.setup.hidden;
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
      route();
    });
  }
  window.addEventListener("popstate", route);
  // Keys: 1–9 choose the numbered answers; Escape goes back from a target.
  document.addEventListener("keydown", (event) => {
    if (play.section.hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, dialog, [role='toolbar'], .replay-bar")) return;
    if (event.key === "Escape" && attackKind) {
      event.preventDefault();
      chooseKind(null);
      return;
    }
    if (!/^[1-9]$/.test(event.key)) return;
    const button = play.decision.querySelector(`button[aria-keyshortcuts="${event.key}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });
  mine = yourGames(play.mine, { empty: "None yet: a game you start or join shows here, and its address brings it back." });
}

document.addEventListener("tycoon-grids", () => fillGridChoices());

async function main() {
  startDesigner();
  startPlay();
  await loadCards();
  await listSaved();
  await openDraft();
  fillGridChoices();
  // Ready once the new game's grid is drawn: the form below it on a phone
  // is where it stays.
  await route();
  document.body.dataset.ready = "true";
}

main().catch((e) => refuse(e.message));
