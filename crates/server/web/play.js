// Any game's page: a game of the server's registry with no page of its own
// is played here, at /GAME (a new game) and /GAME/m/ID (a match).
//
// Terms:
// - registry: GET /api/games — each game's name, title, seats and default
//   seats; the new-game form is made from it, so a game added to the
//   server's registry is playable here before anyone writes its page.
// - picture: the match as Parlor's renderer draws it for a spectator
//   (GET /api/matches/ID/svg), read again after every change.
// - move: a game's move in its text form ("roll", "shoot 7"), typed, or
//   one of the moves the game offers (the view's page.moves, when it gives
//   them); the server says when one is not a move here.
// No rule of any game is here: the page shows what the match view says.
import { el, byId, showError, showPicture, gameInfo, allGames, defaultPlans } from "/static/common.js";
import { Match, matchIdFromPath } from "/static/match.js";
import { seatChooser, invitePanel, gonePanel, replayBar, connectionStatus, moveList } from "/static/matchui.js";

const GAME = location.pathname.split("/")[1] || "";
const INFO = await gameInfo(GAME).catch(() => null);

const ui = {
  heading: byId("heading"),
  gone: byId("gone"),
  start: byId("start"),
  startForm: byId("start-form"),
  startError: byId("start-error"),
  game: byId("game"),
  picture: byId("picture"),
  caption: byId("picture-caption"),
  status: byId("status"),
  moveForm: byId("move-form"),
  offered: byId("offered"),
  move: byId("move"),
  moveError: byId("move-error"),
};

let match = null;
let parts = { seats: null, moves: null, replay: null, connection: null };

/** The games' links in the header, from the registry. */
async function fillNav() {
  const nav = byId("games-nav");
  const links = (await allGames()).map((g) =>
    el("a", { href: `/${g.name}`, "aria-current": g.name === GAME ? "page" : null }, g.title),
  );
  nav.prepend(...links);
}

function title() {
  return INFO ? INFO.title : GAME;
}

/** The status line: the result, whose turn, or who is awaited. */
function statusWords(view) {
  if (view.result) return `${view.result.words}.`;
  const seat = view.to_move;
  const player = (view.players || [])[seat - 1] || {};
  if (match.myTurn()) return `Your turn, ${player.name}.`;
  if (player.state === "open") return `Waiting for ${player.name}: the invite link is under Players.`;
  if (player.state === "anyone") return `Waiting for someone to take ${player.name}'s seat from the lobby.`;
  return player.kind === "bot" ? `${player.name} is thinking…` : `${player.name} to play.`;
}

function render() {
  const view = match.view;
  ui.status.textContent = statusWords(view);
  ui.caption.textContent = `${view.title || title()}: after move ${view.moves}`;
  // The picture as it stands, read again after each change.
  showPicture(ui.picture, `/api/matches/${match.id}/svg`, `The game after move ${view.moves}. ${ui.status.textContent}`);
  const mine = view.status === "playing" && match.myTurn();
  ui.moveForm.hidden = !mine;
  const offered = (view.page && Array.isArray(view.page.moves) ? view.page.moves : []).filter((m) => m && m.text);
  ui.offered.replaceChildren(
    ...offered.map((m) => {
      const b = el("button", { type: "button", class: "secondary", "data-move": m.text }, m.label || m.text);
      b.addEventListener("click", () => play(m.text));
      return b;
    }),
  );
  parts.seats.update();
  parts.moves.update();
  if (view.status !== "playing" && !parts.replay && view.moves > 0) {
    parts.replay = replayBar(byId("replay"), match, (step) => {
      showPicture(ui.picture, `/api/matches/${match.id}/svg?at=${step.at}`, `The game after move ${step.at} of ${step.moves}`);
      ui.caption.textContent = `${view.title || title()}: after move ${step.at} of ${step.moves}`;
    });
  }
  document.body.dataset.moves = String(view.moves);
  document.body.dataset.status = view.status;
}

async function play(text) {
  if (!match || !text.trim()) return;
  showError(ui.moveError, "");
  try {
    const answer = await match.move(text.trim());
    if (answer) ui.move.value = "";
  } catch (e) {
    showError(ui.moveError, e.message);
  }
  render();
}

async function openMatch(id) {
  try {
    match = await Match.open(GAME, id);
  } catch (e) {
    ui.gone.hidden = false;
    gonePanel(ui.gone, GAME, e);
    return;
  }
  ui.game.hidden = false;
  document.title = `${match.view.title || title()} · Parlor`;
  parts = {
    seats: invitePanel(byId("seats"), match),
    moves: moveList(byId("moves-panel"), match, { onPick: (n) => parts.replay && parts.replay.go(n) }),
    replay: null,
    connection: connectionStatus(byId("connection"), match),
  };
  render();
  match.watch(() => render(), (state) => parts.connection.set(state));
}

function showStart() {
  ui.start.hidden = false;
  const chooser = seatChooser(byId("start-seats"), {
    game: GAME,
    min: INFO.min_seats,
    max: INFO.max_seats,
    defaults: defaultPlans(INFO),
    botLevels: INFO.bot_levels,
  });
  ui.startForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(ui.startError, "");
    try {
      const m = await Match.create(GAME, { seats: chooser.plans() });
      ui.start.hidden = true;
      match = null;
      await openMatch(m.id);
    } catch (e) {
      showError(ui.startError, e.message);
    }
  });
}

ui.moveForm.addEventListener("submit", (event) => {
  event.preventDefault();
  play(ui.move.value);
});

async function main() {
  await fillNav();
  if (!INFO) {
    ui.gone.hidden = false;
    gonePanel(ui.gone, null, `This server has no game called “${GAME}”.`);
    return;
  }
  ui.heading.textContent = title();
  document.title = `${title()} · Parlor`;
  const id = matchIdFromPath();
  if (id) await openMatch(id);
  else showStart();
  document.body.dataset.ready = "true";
}

main().catch((e) => showError(ui.startError, e.message));
