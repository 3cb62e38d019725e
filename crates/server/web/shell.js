// The one controller of a match's life in the browser, for every game: the
// new game, opening a match (and taking the seat an invite names), following
// it live, a move the match had moved on from, the status line, the one
// history (each move with its words), the result and the rematch, looking
// back while on and the replay once over, turn alerts and the keys.
//
// Terms:
// - page module: what a game brings, and all it brings (play.js for any
//   game with no page of its own; tycoon.js, …): its page's parts, how to
//   draw the view (`draw`), how to show one move as it comes (`step`), how a
//   key becomes a move (`interpret`, as `interpret_move` in Simon Tatham's
//   puzzles), and its setup form's own fields (`request`). A click on the
//   page module's own controls becomes a move through `shell.play(text)`.
// - show: the moves waiting to be drawn, one after another (moveshow.js);
//   the view is drawn whole once the show is over (idle).
// - step: a finished match's replay at move N: always the server's own
//   view and picture at that step (GET /replay?at=N, /svg?at=N), never
//   rebuilt from the final one.
// - history: the shared move list (matchui.js moveList): each move's
//   player and words together; a pick looks back while the game is on and
//   steps the replay once it is over.
// No rule of any game is here: what a match allows is the server's.
import { ApiFailure, showError, showPicture, gameInfo, defaultPlans } from "/static/common.js";
import { Match, matchIdFromPath } from "/static/match.js";
import { MoveShow } from "/static/moveshow.js";
import { seatChooser, invitePanel, gonePanel, replayBar, connectionStatus, confirmAction, moveList, playerName } from "/static/matchui.js";

/**
 * The status line's words for the match as it stands: the result, whose
 * turn it is, or whom the game waits for (a friend's invite, a seat for
 * anyone, a bot). `name(seat)` names a seat (its player's name by default).
 */
export function statusWords(match, name = (seat) => playerName(match.view, seat)) {
  const view = match.view;
  if (view.result) return `${view.result.words}.`;
  if (view.status !== "playing") return "The game is over.";
  const seat = view.to_move;
  const player = (view.players || [])[seat - 1] || {};
  if (match.myTurn()) return `Your turn, ${name(seat)}.`;
  if (player.state === "open") {
    return view.host ? `Waiting for ${name(seat)}: the invite link is under Players.` : `Waiting for ${name(seat)}'s friend to come.`;
  }
  if (player.state === "anyone") return `Waiting for someone to take ${name(seat)}'s seat from the lobby.`;
  return player.kind === "bot" ? `${name(seat)} is thinking…` : `${name(seat)} to play.`;
}

/** Words for a move the server refused: a stale one says the game moved on. */
export function moveFailureWords(e) {
  if (e instanceof ApiFailure && e.code === "stale_move") return "The game had moved on before that move arrived: here it is now.";
  return e.message;
}

/**
 * Runs the page of `page.game` with the page module `page`. The page
 * module gives:
 * - `parts`: its page's elements: `start` (the new game's section), `game`
 *   (the match's), `gone`, `status`, `moveError`, `seats`, `moves`,
 *   `replay`, `connection`; for the new game `startSeats` (where the seat
 *   chooser goes), `startButton`, `startError`, and `startForm` (submitted)
 *   or none (the button is clicked).
 * - `seatOptions` (optional): the seat chooser's legend, seat names, …
 * - `request(plans)`: the new match's request ({setup, seats, seed}) from
 *   its own fields; throws an Error saying what is wrong.
 * - `enter(match)`: a match is shown: draw its board (async, once).
 * - `draw(match, busy)`: the match as it stands (after each change, once
 *   its moves are shown); `busy` is true while a move is on its way.
 * - `step(played, how)` (optional): show one move as it comes (moveshow.js).
 * - `changed(played, match)` (optional): a live change came (moves made
 *   elsewhere, a seat taken, a rematch), before its moves are shown.
 * - `drawStep(step, match, still)` (optional): a finished match's replay
 *   step ({at, moves, played, view}: the server's); by default the server's
 *   picture at that step in `parts.picture`. `still()` turns false once
 *   another step is asked for.
 * - `status(match)` (optional): the status line's words, or null for the
 *   shell's own (statusWords).
 * - `interpret(event, match)` (optional): a key pressed on the page: the
 *   move's text to play, or null.
 * - `attach(shell)` (optional): the shell, given before anything is drawn.
 * - `leave()`, `newGameShown()`, `goneShown()`, `route()` (optional): the
 *   match is left; the new game's form is shown; the gone panel is shown;
 *   an address with no match names something of the page module's own
 *   (true: it showed it, and the match shown stays followed).
 * - `before(what)` (optional): the shell is about to show "match", "new"
 *   or "gone" (a page with tabs shows the right one).
 * - `title(match)` (optional): the page's title for a match (else the
 *   lobby's line); set before the Players panel marks it "Your turn".
 * - `seatName(seat)` (optional): a seat's name in the status line and the
 *   Players panel; `goneShowsStart`: the new game's form stays under the
 *   gone panel.
 * Returns the shell: {match, view, play(text), busy, showNewGame(), …}.
 */
export async function runShell(page) {
  const shell = new Shell(page);
  await shell.start();
  return shell;
}

/** Hides or shows an element, or each of a list of elements. */
function hide(parts, hidden) {
  for (const part of [].concat(parts)) part.hidden = hidden;
}

function isHidden(parts) {
  return [].concat(parts).every((part) => part.hidden);
}

class Shell {
  constructor(page) {
    this.page = page;
    // The page module holds the shell before anything is drawn.
    if (page.attach) page.attach(this);
    this.game = page.game;
    this.parts = page.parts;
    this.match = null;
    this.components = { seats: null, moves: null, replay: null, connection: null };
    this.sending = false;
    this.step = null;
    this.stepAsked = 0;
    this.routing = 0;
    this.chooser = null;
    this.show = new MoveShow({
      step: async (played, how) => {
        if (page.step) await page.step(played, { ...how, replaying: Boolean(this.step) }, this.match);
      },
      onBusy: () => {
        document.body.dataset.idle = "false";
      },
      onIdle: () => this.render(),
    });
  }

  /** The view the page shows: a replay's step, or the match as it stands. */
  get view() {
    return this.step ? this.step.view : this.match && this.match.view;
  }

  /** True while a move of this page is on its way or still being shown. */
  get busy() {
    return this.sending || this.show.busy;
  }

  async start() {
    this.info = await gameInfo(this.game).catch(() => null);
    this.makeForm();
    window.addEventListener("popstate", () => this.route());
    document.addEventListener("keydown", (event) => this.onKey(event));
    await this.route();
  }

  /** Shows what the address names: a match, the new game, or the page module's own. */
  async route() {
    const number = ++this.routing;
    const id = matchIdFromPath();
    // The page module's own address (a tab): the match shown stays
    // followed, and comes back at once.
    if (!id && this.page.route && (await this.page.route())) return;
    if (this.match && this.match.id !== id) this.leave();
    if (id) {
      if (this.match && this.match.id === id) {
        this.before("match");
        return;
      }
      await this.open(id, number);
    } else if (/^\/[a-z]+\/m\//.test(location.pathname)) {
      this.showGone("This address names no game: a game's address is its page's, /m/ and 32 hexadecimal digits.");
    } else {
      await this.showNewGame();
    }
  }

  // ---- The new game ----

  /** Shows the new game's form (the seat chooser from the registry, the page module's fields). */
  async showNewGame() {
    const p = this.parts;
    this.leave();
    this.before("new");
    p.gone.hidden = true;
    hide(p.game, true);
    p.start.hidden = false;
    showError(p.startError, "");
    p.startButton.disabled = false;
    delete document.body.dataset.match;
    if (this.page.newGameShown) await this.page.newGameShown();
  }

  /** The new game's form: the seat chooser from the registry; Start makes the match. */
  makeForm() {
    const p = this.parts;
    const info = this.info;
    this.chooser = seatChooser(p.startSeats, {
      game: this.game,
      min: info?.min_seats,
      max: info?.max_seats,
      botLevels: info?.bot_levels,
      defaults: defaultPlans(info),
      ...(this.page.seatOptions || {}),
    });
    const submit = (event) => {
      if (event) event.preventDefault();
      this.create();
    };
    if (p.startForm) p.startForm.addEventListener("submit", submit);
    else p.startButton.addEventListener("click", () => submit());
  }

  /** Tells the page module what the shell is about to show ("match", "new", "gone"). */
  before(what) {
    if (this.page.before) this.page.before(what);
  }

  /** Makes the match the form describes, and shows it. */
  async create() {
    const p = this.parts;
    if (p.startButton.disabled) return;
    showError(p.startError, "");
    let request;
    try {
      request = this.page.request ? this.page.request(this.chooser.plans()) : { seats: this.chooser.plans() };
    } catch (e) {
      showError(p.startError, e.message);
      return;
    }
    const m = this.match;
    if (m && m.view && m.view.status === "playing" && m.mySeats().length > 0) {
      const ok = await confirmAction(
        "Start a new game? The game you are playing is kept on the server: its address (Back, or Your games) brings it back.",
        { title: "Leave this game for a new one?", confirm: "Start a new game", cancel: "Back to the game" },
      );
      if (!ok) return;
    }
    p.startButton.disabled = true;
    try {
      const made = await Match.create(this.game, request);
      this.leave();
      await this.enter(made, ++this.routing, true);
    } catch (e) {
      showError(p.startError, e.message);
    } finally {
      p.startButton.disabled = false;
    }
  }

  // ---- A match ----

  async open(id, number) {
    const p = this.parts;
    this.before("match");
    p.start.hidden = true;
    hide(p.game, true);
    p.gone.hidden = true;
    delete document.body.dataset.ready;
    let m;
    try {
      m = await Match.open(this.game, id);
    } catch (e) {
      if (number !== this.routing) return;
      this.showGone(e);
      return;
    }
    if (number !== this.routing) {
      m.close();
      return;
    }
    await this.enter(m, number, false);
  }

  showGone(reason) {
    const p = this.parts;
    this.leave();
    this.before("gone");
    // A page whose form sits beside the game offers it under the words.
    p.start.hidden = !this.page.goneShowsStart;
    hide(p.game, true);
    p.gone.hidden = false;
    gonePanel(p.gone, this.info ? this.game : null, reason);
    document.title = `No such game · ${(this.info && this.info.title) || this.game} · Parlor`;
    if (this.page.goneShown) this.page.goneShown();
    document.body.dataset.match = "gone";
    document.body.dataset.ready = "gone";
  }

  /** Shows match `m` (just made, or opened from the address) and follows it live. */
  async enter(m, number, made) {
    const p = this.parts;
    this.match = m;
    this.step = null;
    this.stepAsked += 1;
    this.before("match");
    p.start.hidden = true;
    p.gone.hidden = true;
    hide(p.game, false);
    showError(p.moveError, m.joinError ? `That invite could not be used: ${m.joinError.message}` : "");
    this.show.reset(m.view.moves);
    if (p.replay) {
      p.replay.replaceChildren();
      p.replay.hidden = true;
    }
    // The title first: the players' panel marks it "Your turn" when it is.
    document.title = this.page.title
      ? this.page.title(m)
      : `${m.view.title || (this.info && this.info.title) || this.game} · Parlor`;
    this.components = {
      seats: invitePanel(p.seats, m, this.page.seatName ? { seatName: this.page.seatName } : {}),
      moves: moveList(p.moves, m, { onPick: (n) => this.components.replay && this.components.replay.go(n) }),
      replay: null,
      connection: connectionStatus(p.connection, m),
    };
    p.moves.hidden = false;
    if (this.page.enter) await this.page.enter(m, made);
    if (number !== this.routing || this.match !== m) return;
    // Followed after the end too: a player's rematch is told live.
    m.watch(
      ({ played }) => {
        if (this.match !== m) return;
        if (this.page.changed) this.page.changed(played, m);
        this.show.push(played);
      },
      (state) => this.components.connection && this.components.connection.set(state),
    );
    this.render();
    document.body.dataset.match = m.id;
    document.body.dataset.ready = "game";
  }

  /** Stops following the match shown. */
  leave() {
    if (!this.match) return;
    this.match.close();
    this.lastMatch = this.match.id;
    this.match = null;
    this.step = null;
    this.stepAsked += 1;
    this.show.reset(0);
    this.components = { seats: null, moves: null, replay: null, connection: null };
    this.parts.moves.hidden = true;
    if (this.page.leave) this.page.leave();
  }

  // ---- Moves ----

  /**
   * Plays `text` for this device's seat (one at a time: a second move while
   * one is on its way is not sent); its moves are shown, then the view.
   * A refused move's words go under the controls; a stale one brings the
   * match as it stands. Resolves true when the move was played.
   */
  async play(text, options = {}) {
    const m = this.match;
    if (!m || this.sending || !text || !String(text).trim()) return false;
    this.sending = true;
    document.body.dataset.idle = "false";
    showError(this.parts.moveError, "");
    let played = false;
    try {
      const answer = await m.move(String(text).trim(), options);
      if (answer) {
        played = true;
        if (m === this.match) this.show.push(answer.played);
      }
    } catch (e) {
      showError(this.parts.moveError, moveFailureWords(e));
      if (m === this.match) this.show.caughtUp(m.view.moves);
    } finally {
      this.sending = false;
    }
    if (m === this.match) this.show.run();
    return played;
  }

  /** Keys: what the page module makes of them becomes a move. */
  onKey(event) {
    if (!this.match || !this.page.interpret || isHidden(this.parts.game)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, dialog, [role='toolbar'], .replay-bar, [role='listbox']")) return;
    const move = this.page.interpret(event, this.match);
    if (move) {
      event.preventDefault();
      this.play(move);
    }
  }

  // ---- Drawing ----

  /** Everything about the match shown, once its moves have been shown. */
  render() {
    const m = this.match;
    if (!m || !m.view) return;
    const p = this.parts;
    const view = m.view;
    if (p.connection) p.connection.hidden = view.status !== "playing";
    const words = (this.page.status && this.page.status(m)) || statusWords(m, this.page.seatName);
    p.status.textContent = words;
    if (this.page.draw) this.page.draw(m, this.busy);
    if (this.components.seats) this.components.seats.update();
    if (this.components.moves) this.components.moves.update();
    if (view.status !== "playing" && !this.components.replay && view.moves > 0 && p.replay) {
      p.replay.hidden = false;
      this.components.replay = replayBar(p.replay, m, (step) => this.drawStep(step));
    }
    document.body.dataset.moves = String(view.moves);
    document.body.dataset.status = view.status;
    // For whoever waits on the page (and its tests): nothing left to show.
    document.body.dataset.idle = String(!this.busy);
  }

  /** One step of a finished match's replay: the server's view and picture at that step. */
  async drawStep(step) {
    const m = this.match;
    if (!m) return;
    const asked = ++this.stepAsked;
    this.step = step.at === m.view.moves ? null : step;
    const still = () => asked === this.stepAsked && m === this.match;
    if (this.page.drawStep) {
      await this.page.drawStep(step, m, still);
    } else if (this.parts.picture) {
      showPicture(this.parts.picture, `/api/matches/${m.id}/svg?at=${step.at}`, `The game after move ${step.at} of ${step.moves}`);
    }
  }
}
