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
//   steps the replay once it is over. A page module that keeps every move
//   (`history.append`) has it grow line by line as each move is shown.
// - held: live moves (a bot's, a friend's) that came while this page's own
//   move was on its way; shown after its answer, in order.
// - reading pause: this device's own move's words stay at least READ_MS
//   before someone else's move replaces them (a person's pace against a
//   bot), with or without motion.
// - play to the end: the move API's `repeat` for this device's seats, sent
//   again whenever one of them is to move (and the connection is back),
//   until the game ends or it is stopped.
// No rule of any game is here: what a match allows is the server's.
import { ApiFailure, showError, showPicture, gameInfo, defaultPlans } from "/static/common.js";
import { Match, matchIdFromPath } from "/static/match.js";
import { MoveShow } from "/static/moveshow.js";
import { seatChooser, invitePanel, gonePanel, replayBar, connectionStatus, confirmAction, moveList, playerName, sentences, noteColours } from "/static/matchui.js";
import { oneTap } from "/static/onetap.js";
import { inviteCard } from "/static/invitecard.js";
import { joinGate } from "/static/joingate.js";

/** How long (ms) this device's own move's words stay before another's replace them. */
export const READ_MS = 1000;

/** Failures after which the page reads the match again and draws it as it stands. */
const REREAD = ["stale_move", "game_over", "not_your_turn"];

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

/** A move's words, its players named by the server: "Ada rolls 4 and moves onto square 4." */
export function moveWords(view, played) {
  return sentences((played.events || []).map((e) => e.text));
}

/**
 * Runs the page of `page.game` with the page module `page`. The page
 * module gives:
 * - `parts`: its page's elements: `start` (the new game's section), `game`
 *   (the match's), `gone`, `status`, `moveError`, `seats`, `moves`,
 *   `replay`, `connection`; for the new game `startSeats` (where the seat
 *   chooser goes), `startButton`, `startError`, and `startForm` (submitted)
 *   or none (the button is clicked); optional: `quick` (where the one-tap
 *   starts go, onetap.js), `custom` (the "Custom game" drawer holding the
 *   form, closed once a game starts), `inviteCard` (where a friend's
 *   invite link and QR code show at once, invitecard.js).
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
 *   gone panel; `startBeside`: the new game's form (the NEXT game's) stays
 *   under the match shown.
 * - `history` (optional): {append, listId, words(move), lineClass(move)}
 *   for the move list (matchui.js moveList): `append` keeps every move,
 *   a line added as each is shown.
 * - `parts.skip`, `parts.speed` (optional): Skip (shown during a long show)
 *   and the show's speed (ms a step, given to `step` as `how.speed`).
 * - `stepAll(moves, match)` (optional): many moves drawn at once (a skip,
 *   reduced motion); else `step` with `how.quick` for each.
 * - `showWords(played, match)` (optional): the status line's words while
 *   a move is shown (default: none written).
 * - `stepWords(step, match)` (optional): the status line's words at a
 *   replay step (default: "Move N of M: …", never the final result).
 * - `failureWords(e)` (optional): words for a refused move (else
 *   moveFailureWords); a stale move, a move after the end or out of turn
 *   reads the match again.
 * - `joinWords(e)` (optional): words for an invite that could not be used.
 * - `playToEnd` (optional): the move played with `repeat` by
 *   `toggleAutoplay()` (play to the end).
 * - `controls(match, busy)` (optional): the page's controls as a show
 *   starts and ends (busy: a move on its way or being shown).
 * - `keydown(event, match)` (optional): a key that is not a move (match
 *   null on the new game's page): true when the page module took it.
 * - `confirmNew(match)` (optional): true when starting a new game over
 *   `match` asks first (default: a game on that this device plays in).
 * Returns the shell: {match, view, play(text), busy, showNewGame(),
 * skip(), toggleAutoplay(), autoplay, replayGo(n), …}.
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

/** A touch screen with no keyboard to speak of: the keys' panels and notes are not shown. */
const TOUCH = matchMedia("(pointer: coarse) and (hover: none)");

function hideKeysOnTouch() {
  const apply = () => {
    for (const keys of document.querySelectorAll(".keys-panel, details.keys, .move-list .keys-note, .replay-bar .keys-note")) keys.hidden = TOUCH.matches;
  };
  apply();
  TOUCH.addEventListener("change", apply);
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
    /** Live changes held while this page's own move is on its way. */
    this.held = [];
    /** True while "play to the end" goes on for this device's seats. */
    this.autoplay = false;
    /** The status of the match last drawn ("playing" to an end: Play again takes the focus). */
    this.drawnStatus = null;
    this.show = new MoveShow({
      step: async (played, how) => {
        this.told([played], true);
        if (page.step) await page.step(played, { ...how, replaying: Boolean(this.step), speed: this.speed() }, this.match);
      },
      stepAll: async (moves) => {
        this.told(moves, moves.length === 1);
        if (page.stepAll) {
          await page.stepAll(moves, this.match);
        } else if (page.step) {
          for (const [i, played] of moves.entries()) {
            await page.step(played, { behind: moves.length - i - 1, long: false, quick: true, still: () => false, replaying: Boolean(this.step), speed: 0 }, this.match);
          }
        }
      },
      pause: (played, next) => this.readingPause(played, next),
      onBusy: (long) => {
        document.body.dataset.idle = "false";
        if (long && this.parts.skip) this.parts.skip.hidden = false;
        // A screen reader hears the end of a long show, not every move of it.
        if (long) this.parts.status.setAttribute("aria-busy", "true");
        if (page.controls && this.match) page.controls(this.match, true);
      },
      onIdle: () => {
        if (this.parts.skip) this.parts.skip.hidden = true;
        this.parts.status.removeAttribute("aria-busy");
        this.render();
        this.maybeAutoplay();
      },
    });
    if (this.parts.skip) this.parts.skip.addEventListener("click", () => this.skip());
    hideKeysOnTouch();
  }

  /** The show's pace: ms a step (the speed chosen on the page, if any). */
  speed() {
    return this.parts.speed ? Number(this.parts.speed.value) : 250;
  }

  /**
   * A move shown: its line in the history (append mode) and, when the page
   * words a move, the status line (one move shown at a time).
   */
  told(moves, one) {
    const m = this.match;
    if (!m) return;
    if (this.components.moves && this.page.history && this.page.history.append) this.components.moves.add(moves);
    if (one && this.page.showWords && moves.length) {
      const words = this.page.showWords(moves[moves.length - 1], m);
      if (words) this.parts.status.textContent = words;
    }
  }

  /**
   * How long a shown move's words stay (ms): this device's own move, when
   * someone else's move follows (waiting, or the game is theirs to move),
   * is read before it is replaced; a long show (play to the end) goes at
   * its own speed.
   */
  readingPause(played, next) {
    const m = this.match;
    if (!m || played.bot || this.autoplay || !m.mySeats().includes(played.seat)) return 0;
    // Someone else's move follows: it waits, the match has moved past it, or it is theirs to move.
    const othersNext = next ? next.bot || !m.mySeats().includes(next.seat) : m.view.moves > played.number || (m.view.status === "playing" && !m.myTurn());
    return othersNext ? READ_MS : 0;
  }

  /** Draws the moves still waiting at once (Skip, S). */
  skip() {
    this.show.skip();
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
    // The one-tap starts above the Custom game drawer: the same new match,
    // its request made by onetap.js.
    if (p.quick) oneTap(p.quick, { game: this.game, info, start: (request) => this.create(request) });
  }

  /** Tells the page module what the shell is about to show ("match", "new", "gone"). */
  before(what) {
    if (this.page.before) this.page.before(what);
  }

  /**
   * Makes the match the form describes (or `given`, a one-tap start's
   * request), and shows it. A one-tap start's failure is thrown for its
   * buttons to say.
   */
  async create(given = null) {
    const p = this.parts;
    if (p.startButton.disabled) return;
    showError(p.startError, "");
    let request = given;
    if (!request) {
      try {
        request = this.page.request ? this.page.request(this.chooser.plans()) : { seats: this.chooser.plans() };
      } catch (e) {
        showError(p.startError, e.message);
        return;
      }
    }
    const m = this.match;
    const ask = m && m.view && m.view.status === "playing" && (this.page.confirmNew ? this.page.confirmNew(m) : m.mySeats().length > 0);
    if (ask) {
      const ok = await confirmAction(
        "Start a new game? The game you are playing is not over: it is kept on the server, and its address (Back, or Your games) brings it back.",
        { title: "Leave this game for a new one?", confirm: "Start a new game", cancel: "Back to the game" },
      );
      if (!ok) return;
    }
    p.startButton.disabled = true;
    try {
      const made = await Match.create(this.game, request);
      this.leave();
      if (p.custom) p.custom.open = false;
      await this.enter(made, ++this.routing, true);
    } catch (e) {
      if (given) throw e;
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
    // A friend's invite: "Join Ada's game", their name asked first.
    await joinGate(p.gone, id, (this.info && this.info.title) || this.game);
    if (number !== this.routing) return;
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
    noteColours(m.view);
    this.step = null;
    this.stepAsked += 1;
    this.held = [];
    this.autoplay = false;
    this.drawnStatus = null;
    this.before("match");
    p.start.hidden = !this.page.startBeside;
    p.gone.hidden = true;
    hide(p.game, false);
    const joinWords = (e) => (this.page.joinWords ? this.page.joinWords(e) : `That invite could not be used: ${e.message}`);
    showError(p.moveError, m.joinError ? joinWords(m.joinError) : "");
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
      moves: moveList(p.moves, m, { ...(this.page.history || {}), onPick: (n) => this.components.replay && this.components.replay.go(n) }),
      replay: null,
      connection: connectionStatus(p.connection, m),
      invite: p.inviteCard ? inviteCard(p.inviteCard, m) : null,
    };
    p.moves.hidden = false;
    if (this.page.enter) await this.page.enter(m, made);
    if (number !== this.routing || this.match !== m) return;
    // Followed after the end too: a player's rematch is told live.
    m.watch(
      ({ played }) => {
        if (this.match !== m) return;
        if (this.page.changed) this.page.changed(played, m);
        // While this page's own move is on its way, what came live waits
        // for its answer (which lists every move it played, in order).
        if (this.sending) this.held.push(played || []);
        else this.show.push(played);
      },
      (state) => {
        if (this.components.connection) this.components.connection.set(state);
        this.showConnection();
        if (state === "live") this.maybeAutoplay();
      },
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
    this.held = [];
    this.autoplay = false;
    this.show.reset(0);
    this.components = { seats: null, moves: null, replay: null, connection: null };
    this.parts.moves.hidden = true;
    if (this.parts.inviteCard) this.parts.inviteCard.hidden = true;
    document.body.classList.remove("celebrate");
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
    this.failure = null;
    document.body.dataset.idle = "false";
    showError(this.parts.moveError, "");
    if (this.page.controls) this.page.controls(m, true);
    let played = false;
    let moves = [];
    try {
      const answer = await m.move(String(text).trim(), options);
      if (answer) {
        played = true;
        moves = answer.played || [];
      }
    } catch (e) {
      this.failure = e;
      showError(this.parts.moveError, this.page.failureWords ? this.page.failureWords(e) : moveFailureWords(e));
      // The match is read again (a stale move's already is): drawn as it stands.
      if (e instanceof ApiFailure && REREAD.includes(e.code) && e.code !== "stale_move") await m.refresh().catch(() => {});
      if (m === this.match) this.show.caughtUp(m.view.moves);
    } finally {
      this.sending = false;
    }
    if (m === this.match) {
      // The answer's moves, then what came live meanwhile: one show, in order.
      const held = this.held;
      this.held = [];
      this.show.push(moves.concat(...held));
    }
    return played;
  }

  /** Starts or stops playing this device's seats to the end (`page.playToEnd`). */
  toggleAutoplay() {
    const m = this.match;
    if (!m || !this.page.playToEnd || m.view.status !== "playing" || !m.mySeats().length) return;
    this.autoplay = !this.autoplay;
    showError(this.parts.moveError, "");
    // The request goes out before the controls are drawn again, so that
    // they are disabled before a second click can reach them.
    this.maybeAutoplay();
    this.render();
  }

  /** Plays this device's seats on while "play to the end" is on. */
  async maybeAutoplay() {
    const m = this.match;
    if (!this.autoplay || !m) return;
    if (m.view.status !== "playing") {
      this.autoplay = false;
      this.render();
      return;
    }
    if (this.busy || m.busy || !m.myTurn()) return;
    const played = await this.play(this.page.playToEnd, { repeat: true });
    // A server that cannot be reached is tried again once the live
    // connection is back; any other refusal stops playing to the end.
    const e = this.failure;
    if (!played && e && (!(e instanceof ApiFailure) || e.status !== 0)) {
      this.autoplay = false;
      this.render();
    }
  }

  /** A finished match's replay goes to step `n` (the arrows, Home and End). */
  replayGo(n) {
    const replay = this.components.replay;
    if (!replay || !this.match || this.match.view.status === "playing") return false;
    replay.go(n);
    return true;
  }

  /** The replay's step shown (the match's end when none). */
  replayAt() {
    return this.components.replay ? this.components.replay.at() : this.match ? this.match.view.moves : 0;
  }

  /**
   * Keys: the page module's own first (`keydown`: not moves), then what
   * it makes of them (`interpret`: a move's text, or {text, options})
   * becomes a move.
   */
  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable], dialog, [role='toolbar'], .replay-bar, [role='listbox']")) return;
    if (this.page.keydown && this.page.keydown(event, this.match)) {
      event.preventDefault();
      return;
    }
    if (!this.match || !this.page.interpret || isHidden(this.parts.game)) return;
    const move = this.page.interpret(event, this.match);
    if (move) {
      event.preventDefault();
      if (typeof move === "string") this.play(move);
      else this.play(move.text, move.options || {});
    }
  }

  // ---- Drawing ----

  /**
   * The connection's line, where it matters: "Live" while someone else makes
   * moves (not at a game over, in a step-through, or for players alone with
   * bots); a lost connection always.
   */
  showConnection() {
    const m = this.match;
    const line = this.parts.connection;
    if (!line || !m || !m.view) return;
    const view = m.view;
    const alone = m.mySeats().length > 0 && !(view.players || []).some((q) => q.kind === "person" && !q.yours);
    const quiet = view.status !== "playing" || Boolean(this.step) || alone;
    const lost = line.querySelector("[data-state='reconnecting'], [data-state='sending']") !== null;
    line.hidden = quiet && !lost;
  }

  /** Everything about the match shown, once its moves have been shown. */
  render() {
    const m = this.match;
    if (!m || !m.view) return;
    const p = this.parts;
    const view = m.view;
    noteColours(view);
    this.showConnection();
    // A replay's step keeps its own words (never the final result).
    p.status.textContent = this.step ? this.stepWords(this.step) : (this.page.status && this.page.status(m)) || statusWords(m, this.page.seatName);
    if (this.page.draw) this.page.draw(m, this.busy);
    if (this.components.seats) this.components.seats.update();
    if (this.components.invite) this.components.invite.update();
    if (this.components.moves) this.components.moves.update();
    if (view.status !== "playing" && !this.components.replay && view.moves > 0 && p.replay) {
      p.replay.hidden = false;
      this.components.replay = replayBar(p.replay, m, (step) => this.drawStep(step));
    }
    // The game just ended here: Play again takes the focus the controls
    // that went with it had.
    const ended = this.drawnStatus === "playing" && view.status !== "playing";
    this.drawnStatus = view.status;
    if (ended) this.focusPlayAgain();
    // A win here is celebrated a moment (style.css; still under reduced motion).
    document.body.dataset.outcome = view.status === "playing" ? "" : view.result && view.result.you_won === true ? "won" : "over";
    if (ended && view.result && view.result.you_won === true) document.body.classList.add("celebrate");
    if (view.status === "playing") document.body.classList.remove("celebrate");
    document.body.dataset.moves = String(view.moves);
    document.body.dataset.status = view.status;
    // For whoever waits on the page (and its tests): nothing left to show.
    document.body.dataset.idle = String(!this.busy);
  }

  /**
   * Play again takes the focus when the focus had nowhere left to be (the
   * controls it was on went with the game); a page module that gave it a
   * place of its own keeps it.
   */
  focusPlayAgain() {
    const again = this.parts.seats && this.parts.seats.querySelector("button.play-again");
    const at = document.activeElement;
    const lost = !at || at === document.body || Boolean(at.closest("[hidden]")) || at.getAttribute("aria-disabled") === "true";
    if (again && lost) again.focus({ preventScroll: true });
  }

  /** The status line's words at a replay step: the page module's, or "Move N of M: …". */
  stepWords(step) {
    const m = this.match;
    if (this.page.stepWords) return this.page.stepWords(step, m);
    if (step.at === 0) return `Move 0 of ${step.moves}: the start.`;
    // The move's words are sentences already, each ending with its stop.
    const words = step.played ? moveWords(m.view, step.played) : "";
    return `Move ${step.at} of ${step.moves}${words ? `: ${words}` : "."}`;
  }

  /** One step of a finished match's replay: the server's view and picture at that step. */
  async drawStep(step) {
    const m = this.match;
    if (!m) return;
    const asked = ++this.stepAsked;
    const before = this.step ? this.step.at : m.view.moves;
    this.step = step.at === m.view.moves ? null : step;
    const still = () => asked === this.stepAsked && m === this.match;
    if (this.components.moves) this.components.moves.showAt(this.step ? step.at : null);
    if (this.page.drawStep) {
      await this.page.drawStep(step, m, still, before);
    } else if (this.parts.picture) {
      showPicture(this.parts.picture, `/api/matches/${m.id}/svg?at=${step.at}`, `The game after move ${step.at} of ${step.moves}`);
    }
    if (!still()) return;
    // Back at the end: the match as it stands, its result included.
    if (this.step) this.parts.status.textContent = this.stepWords(step);
    else this.render();
  }
}
