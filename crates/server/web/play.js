// Any game's page module: a game of the server's registry with no page of
// its own is played here, at /GAME (a new game) and /GAME/m/ID (a match),
// on the one page shell (shell.js), which owns the match's life.
//
// Terms:
// - registry: GET /api/games — each game's name, title, seats and default
//   seats; the shell's new-game form is made from it, so a game added to
//   the server's registry is playable here before anyone writes its page.
// - picture: the match as Parlor's renderer draws it for a spectator
//   (GET /api/matches/ID/svg), read again after every change.
// - move: a game's move in its text form ("roll", "shoot 7"), typed, or
//   one of the moves the game offers (the view's page.moves, when it gives
//   them); the server says when one is not a move here.
// - page module: a game's own drawing and input, from its crate (the
//   registry's page_module, served at /static/games/GAME.js). It exports
//   draw(into, game, { play }): draw the game's own view (the match view's
//   "view") into the element `into`, and call play(text) with a move when
//   a click or key makes one; `play` is null when this viewer cannot move
//   (another's turn, the end, a replay step, a spectator). With one, the
//   page shows it in place of the picture and the typed moves.
// No rule of any game is here: the page shows what the match view says.
import { el, byId, showPicture, gameInfo, allGames } from "/static/common.js";
import { gonePanel } from "/static/matchui.js";
import { runShell } from "/static/shell.js";

const GAME = location.pathname.split("/")[1] || "";
const INFO = await gameInfo(GAME).catch(() => null);
const MODULE = INFO && INFO.page_module ? await import(`/static/games/${GAME}.js`) : null;

const ui = {
  heading: byId("heading"),
  caption: byId("picture-caption"),
  picture: byId("picture"),
  moveForm: byId("move-form"),
  offered: byId("offered"),
  move: byId("move"),
};

let shell = null;

function title() {
  return INFO ? INFO.title : GAME;
}

/** The page module: draw the picture, offer the moves, type one. */
const page = {
  game: GAME,
  parts: {
    start: byId("start"),
    startForm: byId("start-form"),
    startSeats: byId("start-seats"),
    startButton: byId("start-game"),
    startError: byId("start-error"),
    game: byId("game"),
    gone: byId("gone"),
    status: byId("status"),
    moveError: byId("move-error"),
    seats: byId("seats"),
    moves: byId("moves-panel"),
    replay: byId("replay"),
    connection: byId("connection"),
    picture: ui.picture,
  },

  attach(s) {
    shell = s;
  },

  draw(match) {
    const view = match.view;
    ui.caption.textContent = `${view.title || title()}: after move ${view.moves}`;
    if (MODULE) {
      const canMove = view.status === "playing" && match.myTurn();
      MODULE.draw(ui.picture, view.view, { play: canMove ? send : null });
      ui.moveForm.hidden = true;
      return;
    }
    // The picture as it stands, read again after each change.
    showPicture(ui.picture, `/api/matches/${match.id}/svg`, `The game after move ${view.moves}. ${byId("status").textContent}`);
    ui.moveForm.hidden = !(view.status === "playing" && match.myTurn());
    const offered = (view.page && Array.isArray(view.page.moves) ? view.page.moves : []).filter((m) => m && m.text);
    ui.offered.replaceChildren(
      ...offered.map((m) => {
        const b = el("button", { type: "button", class: "secondary", "data-move": m.text }, m.label || m.text);
        b.addEventListener("click", () => send(m.text));
        return b;
      }),
    );
  },

  drawStep(step, match) {
    if (MODULE) MODULE.draw(ui.picture, step.view.view, { play: null });
    else showPicture(ui.picture, `/api/matches/${match.id}/svg?at=${step.at}`, `The game after move ${step.at} of ${step.moves}`);
    ui.caption.textContent = `${match.view.title || title()}: after move ${step.at} of ${step.moves}`;
  },
};

async function send(text) {
  if (await shell.play(text)) ui.move.value = "";
}

ui.moveForm.addEventListener("submit", (event) => {
  event.preventDefault();
  send(ui.move.value);
});

/** The games' links in the header, from the registry. */
async function fillNav() {
  const nav = byId("games-nav");
  const links = (await allGames()).map((g) =>
    el("a", { href: `/${g.name}`, "aria-current": g.name === GAME ? "page" : null }, g.title),
  );
  nav.prepend(...links);
}

async function main() {
  await fillNav();
  if (!INFO) {
    const gone = byId("gone");
    gone.hidden = false;
    gonePanel(gone, null, `This server has no game called “${GAME}”.`);
    document.body.dataset.ready = "true";
    return;
  }
  ui.heading.textContent = title();
  // A game with a page module of its own is no longer on the page any game has.
  byId("about-page").hidden = Boolean(MODULE);
  if (MODULE) document.body.classList.add("own-page-module");
  document.title = `${title()} · Parlor`;
  await runShell(page);
  document.body.dataset.ready = "true";
}

main().catch((e) => {
  byId("start-error").textContent = e.message;
});
