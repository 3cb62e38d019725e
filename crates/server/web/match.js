// The one client of the match API, shared by every game's page.
//
// Terms:
// - match page: /GAME/m/ID shows match ID; /GAME alone offers a new game.
// - seat token: what lets this device move for its seats. It is kept in
//   localStorage ("parlor.match.ID"), so a reload, a new tab or a restart of
//   the browser on this device rejoins the match; nobody else has it.
// - invite: an open seat's secret, in its link after "#"
//   (/GAME/m/ID#invite=SEAT.SECRET). Opening the link takes the seat once;
//   the fragment is then removed from the address bar.
// - move number: each move carries the number of moves this page last saw
//   ("after"), so a double click or a second tab never plays a move twice:
//   the server refuses the stale one (code "stale_move").
// - live: the match's server-sent events. Each change carries the moves
//   played since the last one and the match as a spectator sees it; the
//   browser reconnects by itself after a drop or a server restart.
// - compact answer: a move's answer leaves out what the page already has
//   (the fields no move changes, the log's older lines); it is made whole
//   with the page's last view before anything else sees it (docs/api.md).
// The rules are the server's: this module sends moves and hands views on.
import { api, ApiFailure, storedName } from "/static/common.js";

/** How many times a move the server did not answer is sent again (about a minute in all). */
const MOVE_RETRIES = 18;

/** The fields a move's compact answer leaves out: no move changes them. */
const KEPT = ["id", "title", "names", "seats", "players", "game", "dice", "host", "view_fixed"];

/** The log lines a view carries (the newest). */
const LOG_TAIL = 100;

/**
 * The full view from a move's compact answer `answer` and the page's last
 * view `last` (which holds every move up to the one sent): the kept fields
 * from `last`, and the game view's fields no move changes (`view_fixed`),
 * its log's lines up to `compact.log_after`, then the played moves' events
 * as lines, the newest LOG_TAIL.
 */
export function wholeView(last, answer) {
  const { compact, ...view } = answer.view;
  for (const field of KEPT) if (field in last) view[field] = last[field];
  for (const field of last.view_fixed || []) {
    if (last.view && field in last.view) view.view[field] = last.view[field];
  }
  const older = (last.log || []).filter((line) => line.number <= compact.log_after);
  const newer = (answer.played || []).flatMap((p) =>
    p.events.map((e) => ({ number: p.number, seat: p.seat, text: e.text })),
  );
  view.log = older.concat(newer).slice(-LOG_TAIL);
  return view;
}

const STORE_PREFIX = "parlor.match.";
const INDEX_KEY = "parlor.matches";

/** The match id in the address (/GAME/m/ID), or null. */
export function matchIdFromPath() {
  const m = location.pathname.match(/^\/[a-z]+\/m\/([0-9a-f]{32})\/?$/);
  return m ? m[1] : null;
}

/** A match's page. */
export function pageUrl(game, id) {
  return `/${game}/m/${id}`;
}

function readStored(id) {
  try {
    return JSON.parse(localStorage.getItem(STORE_PREFIX + id) || "null");
  } catch {
    return null;
  }
}

function writeStored(id, entry) {
  try {
    localStorage.setItem(STORE_PREFIX + id, JSON.stringify(entry));
    const index = JSON.parse(localStorage.getItem(INDEX_KEY) || "[]").filter((e) => e.id !== id);
    index.unshift({ id, game: entry.game, title: entry.title || "", at: Date.now() });
    localStorage.setItem(INDEX_KEY, JSON.stringify(index.slice(0, 50)));
  } catch {
    // Private windows may refuse storage: the match still plays in this tab.
  }
}

/** The matches this browser holds a seat in, newest first: [{id, game, title, at}]. */
export function myMatches() {
  try {
    return JSON.parse(localStorage.getItem(INDEX_KEY) || "[]");
  } catch {
    return [];
  }
}

/** What this device keeps of match `id` ({game, token, invites, title}), or null. */
export function storedMatch(id) {
  return readStored(id);
}

/**
 * Forgets match `id` on this device: its token (so its seats can no longer
 * be played from here) and its line in myMatches().
 */
export function forgetMatch(id) {
  try {
    localStorage.removeItem(STORE_PREFIX + id);
    const index = JSON.parse(localStorage.getItem(INDEX_KEY) || "[]").filter((e) => e.id !== id);
    localStorage.setItem(INDEX_KEY, JSON.stringify(index));
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/**
 * Takes seat `seat` of match `id` on this device (`invite` for an open
 * seat, none for a seat for anyone), keeping the token; with a token of
 * this match already here, the seat joins its seats. Resolves with the
 * server's answer {token, seat, view}; rejects with an ApiFailure
 * (`seat_taken`, `bad_invite`, `no_match`, …).
 */
export async function joinSeat(game, id, seat, invite, title = "") {
  const stored = readStored(id) || { game, token: null, invites: [], title };
  const body = invite ? { seat, invite } : { seat };
  const joined = await joinNamed(id, body, stored.token);
  writeStored(id, { ...stored, game, token: joined.token, title: stored.title || title });
  return joined;
}

/**
 * POST /api/matches/{id}/join with this browser's player's name, if one
 * is kept; a name the server refuses is not worth losing the seat over:
 * the seat is taken without it.
 */
async function joinNamed(id, body, token) {
  const name = storedName();
  if (!name) return api("POST", `/api/matches/${id}/join`, body, token);
  try {
    return await api("POST", `/api/matches/${id}/join`, { ...body, name }, token);
  } catch (e) {
    if (e instanceof ApiFailure && e.code === "bad_name") return api("POST", `/api/matches/${id}/join`, body, token);
    throw e;
  }
}

/**
 * The seats of a new match with this browser's player's name on its one
 * "here" seat (several people at one screen name no one).
 */
function withMyName(seats) {
  const name = storedName();
  if (!name || !Array.isArray(seats) || seats.filter((s) => s === "here").length !== 1) return seats;
  return seats.map((s) => (s === "here" ? { plan: "here", name } : s));
}

/** The invite in the address's fragment (#invite=SEAT.SECRET), or null. */
function inviteInFragment() {
  const m = location.hash.match(/^#invite=(\d+)\.([0-9a-f]{32})$/);
  return m ? { seat: Number(m[1]), invite: m[2] } : null;
}

/** A match as this page holds it: its view, its setup, this device's token. */
/**
 * The game view's late figures: worked out by the server after a move is
 * answered (Tycoon's estimated chances, Baffle's count of the layouts that
 * still fit), they reach the page by a change with no move.
 */
const LATE_FIGURES = ["chances", "chances_interval", "chances_playouts", "live"];

export class Match {
  constructor(game, id, stored, view) {
    this.game = game;
    this.id = id;
    this.stored = stored || { game, token: null, invites: [] };
    this.view = view;
    this.setup = null;
    this.pending = false;
    this.source = null;
    this.onChange = null;
    this.connection = null;
    this.connectionListeners = new Set();
    this.retry = null;
  }

  /**
   * Calls `listener(state)` whenever the live connection changes ("live",
   * "reconnecting"), and at once with the state now if there is one.
   * Returns a function that stops it.
   */
  listenConnection(listener) {
    this.connectionListeners.add(listener);
    if (this.connection) listener(this.connection);
    return () => this.connectionListeners.delete(listener);
  }

  setConnection(state) {
    this.connection = state;
    for (const listener of this.connectionListeners) listener(state);
  }

  /**
   * Takes seat `seat` on this device (`invite` for an open seat), then
   * tells the page as a live change would (`onChange` of watch()).
   */
  async join(seat, invite) {
    const joined = await joinSeat(this.game, this.id, seat, invite, this.stored.title || "");
    this.stored = readStored(this.id) || { ...this.stored, token: joined.token };
    this.view = null;
    this.accept(joined.view);
    if (this.onChange) this.onChange({ played: [], view: this.view });
    return joined;
  }

  /**
   * Makes a match: `request` is POST /api/matches's body without `game`.
   * The token and invites are kept on this device, and the address becomes
   * the match's page (pushed, so Back returns to the page before).
   */
  static async create(game, request) {
    const made = await api("POST", "/api/matches", { game, ...request, seats: withMyName(request.seats) });
    const stored = {
      game,
      token: made.token,
      invites: made.invites.map((i) => ({ seat: i.seat, invite: i.invite })),
      title: made.view.title || "",
    };
    writeStored(made.id, stored);
    history.pushState({ match: made.id }, "", made.url);
    const m = new Match(game, made.id, stored, made.view);
    await m.loadSetup();
    return m;
  }

  /**
   * Opens match `id` as this device holds it (with its token, if any), and
   * takes the seat an invite in the address names. Rejects with an
   * ApiFailure (code "no_match" when it never was or has expired). The
   * returned match's `joinError` says why an invite could not be used.
   */
  static async open(game, id) {
    const stored = readStored(id) || { game, token: null, invites: [] };
    const m = new Match(game, id, stored, null);
    const invite = inviteInFragment();
    if (invite) {
      history.replaceState(history.state, "", location.pathname);
      try {
        const joined = await joinNamed(id, invite, stored.token);
        m.stored.token = joined.token;
        writeStored(id, m.stored);
      } catch (e) {
        if (!(e instanceof ApiFailure) || e.code === "no_match") throw e;
        m.joinError = e;
      }
    }
    await m.refresh();
    if (m.stored.token) writeStored(id, { ...m.stored, title: m.stored.title || m.view.title || "" });
    await m.loadSetup();
    return m;
  }

  /** This device's token for the match, or null for a spectator. */
  get token() {
    return this.stored.token;
  }

  /** Reads the match again. */
  async refresh() {
    this.view = await api("GET", `/api/matches/${this.id}`, undefined, this.token);
    return this.view;
  }

  async loadSetup() {
    this.setup = await api("GET", `/api/matches/${this.id}/setup`);
    return this.setup;
  }

  /** The seats this device holds. */
  mySeats() {
    return (this.view.players || []).filter((p) => p.yours).map((p) => p.seat);
  }

  /** True when one of this device's seats is to move. */
  myTurn() {
    const seat = this.view.to_move;
    return seat != null && this.mySeats().includes(seat);
  }

  /** True while a move of this page is on its way. */
  get busy() {
    return this.pending;
  }

  /**
   * Plays `move` (its text, e.g. "roll", "shoot 7") for this device's seat,
   * at the move number last seen. One at a time: while a move is on its
   * way, another resolves to null without being sent. When the server
   * cannot be reached (or is stopping), the move is kept and sent again,
   * with the same move number, until it answers (about a minute): the
   * connection's state is "sending" meanwhile. The move number makes that
   * safe: if an earlier try was played and only its answer lost, the
   * server says the match has moved on, and the view shows the move.
   * Resolves with {played, view}; rejects with an ApiFailure.
   */
  async move(move, options = {}) {
    if (this.pending) return null;
    this.pending = true;
    const body = { move, after: this.view.moves };
    if (options.roll !== undefined) body.roll = options.roll;
    if (options.repeat) body.repeat = true;
    const before = this.connection;
    try {
      for (let attempt = 0; ; attempt += 1) {
        try {
          const answer = await api("POST", `/api/matches/${this.id}/moves`, body, this.token);
          if (attempt > 0) this.setConnection(before === "reconnecting" ? "live" : before);
          if (answer.view && answer.view.compact) answer.view = wholeView(this.view, answer);
          this.accept(answer.view);
          return answer;
        } catch (e) {
          const lost = e instanceof ApiFailure && (e.status === 0 || e.status === 502 || e.status === 503 || e.status === 504);
          if (lost && attempt < MOVE_RETRIES) {
            this.setConnection("sending");
            await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, 4000)));
            continue;
          }
          if (attempt > 0) this.setConnection(before === "reconnecting" ? "live" : before);
          if (e instanceof ApiFailure && e.code === "stale_move") {
            await this.refresh();
            // A try whose answer was lost was played: the move after the
            // number sent is this device's own.
            const next = (this.view.log || []).find((line) => line.number === body.after + 1);
            if (attempt > 0 && next && this.mySeats().includes(next.seat)) {
              return { played: [], view: this.view };
            }
          }
          throw e;
        }
      }
    } finally {
      this.pending = false;
    }
  }

  /** Calls a game's own route for this match (Baffle's bot move), one at a time. */
  async post(path, body = {}) {
    if (this.pending) return null;
    this.pending = true;
    try {
      const answer = await api("POST", path, body, this.token);
      if (answer && answer.view) this.accept(answer.view);
      return answer;
    } finally {
      this.pending = false;
    }
  }

  /** Takes a view if it is not older than the one held. */
  accept(view) {
    if (!this.view || view.moves >= this.view.moves) {
      // The live stream's views are a spectator's: keep this device's seats.
      if (this.view && view.you == null && this.view.players) {
        const mine = new Set(this.mySeats());
        view = {
          ...view,
          you: this.view.you,
          host: this.view.host,
          players: view.players.map((p) => ({ ...p, yours: mine.has(p.seat) })),
        };
        // The result as this device's player is told it ("You win"), when
        // it holds one seat: the server words it for each seat.
        if (view.result && mine.size === 1) {
          const told = (view.result.by_seat || [])[[...mine][0] - 1];
          if (told) view.result = { ...view.result, ...told };
        }
      }
      // A position's late figures may come live before the answer of the
      // move that reached it, which lacks them: they stay.
      const had = this.view && this.view.moves === view.moves && this.view.view;
      if (had && view.view) {
        const kept = LATE_FIGURES.filter((key) => had[key] != null && view.view[key] == null);
        if (kept.length) view = { ...view, view: { ...view.view, ...Object.fromEntries(kept.map((key) => [key, had[key]])) } };
      }
      this.view = view;
      return true;
    }
    return false;
  }

  /**
   * Follows the match live: `onChange({played, view})` for every change
   * (moves this page did not make itself, seats taken), in order;
   * `onConnection(state)` with "live", "reconnecting" as the connection
   * goes. The browser reconnects by itself.
   */
  watch(onChange, onConnection = () => {}, delay = 1000) {
    this.close();
    this.onChange = onChange;
    const source = new EventSource(`/api/matches/${this.id}/events`);
    this.source = source;
    const tell = (state) => {
      onConnection(state);
      this.setConnection(state);
    };
    source.addEventListener("open", () => {
      delay = 1000;
      tell("live");
    });
    source.addEventListener("error", () => {
      tell("reconnecting");
      // The browser retries a dropped stream by itself, but gives up on an
      // answer that is not a stream (a server starting up, a proxy's
      // error page): then this page tries again, less and less often.
      if (source.readyState === EventSource.CLOSED && this.source === source) {
        this.retry = setTimeout(() => {
          if (this.source === source) this.watch(onChange, onConnection, Math.min(delay * 2, 30000));
        }, delay);
      }
    });
    source.addEventListener("change", (event) => {
      let change;
      try {
        change = JSON.parse(event.data);
      } catch {
        return;
      }
      const before = this.view ? this.view.moves : -1;
      const played = (change.played || []).filter((p) => p.number > before);
      // Seats taken, players named, a rematch made: changes with no move.
      const seating = (v) => JSON.stringify([(v.players || []).map((p) => [p.state, p.name]), v.rematch || null]);
      const seatsChanged = this.view && seating(this.view) !== seating(change.view);
      // Late figures, worked out after the move, come as a change with no
      // move too.
      const lateOf = (v) => JSON.stringify(LATE_FIGURES.map((key) => (v.view && v.view[key]) || null));
      const chancesCame = this.view && lateOf(this.view) !== lateOf(change.view);
      if (change.view.moves < before) return;
      if (this.accept(change.view) && (played.length > 0 || seatsChanged || chancesCame || change.view.moves > before)) {
        onChange({ played, view: this.view });
      }
    });
    return source;
  }

  /** Stops following. */
  close() {
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.retry);
    this.retry = null;
  }

  /**
   * Asks for the rematch of this finished match (or the one a player asked
   * for already): the same players, the first seat moved on. This device's
   * token holds its players' seats there too, and is kept for it. Resolves
   * with {id, url, view}.
   */
  async rematch() {
    const made = await api("POST", `/api/matches/${this.id}/rematch`, {}, this.token);
    const held = readStored(made.id);
    writeStored(made.id, {
      game: this.game,
      token: this.token,
      invites: (made.invites || []).map((i) => ({ seat: i.seat, invite: i.invite })).concat(held ? held.invites || [] : []),
      title: made.view.title || "",
    });
    return made;
  }

  /** Names this device's seat `seat`; the view follows (as a live change would). */
  async setName(seat, name) {
    const view = await api("POST", `/api/matches/${this.id}/name`, { seat, name }, this.token);
    this.accept(view);
    if (this.onChange) this.onChange({ played: [], view: this.view });
    return view;
  }

  /** Each open seat's invite link, for the maker to send: [{seat, url}]. */
  inviteLinks() {
    const open = new Set((this.view.players || []).filter((p) => p.state === "open").map((p) => p.seat));
    return (this.stored.invites || [])
      .filter((i) => open.has(i.seat))
      .map((i) => ({ seat: i.seat, url: `${location.origin}${pageUrl(this.game, this.id)}#invite=${i.seat}.${i.invite}` }));
  }

  /** Asks the server for a new invite for an open seat (the maker only). */
  async reinvite(seat) {
    const fresh = await api("POST", `/api/matches/${this.id}/seats/${seat}/invite`, {}, this.token);
    this.stored.invites = (this.stored.invites || []).filter((i) => i.seat !== seat).concat([{ seat, invite: fresh.invite }]);
    writeStored(this.id, this.stored);
    return fresh;
  }

  /** The view after the first `at` moves of a finished match: {at, moves, played, view}. */
  replay(at) {
    return api("GET", `/api/matches/${this.id}/replay?at=${at}`);
  }

  /** The record's address, once the match is over. */
  recordUrl() {
    return `/api/matches/${this.id}/record`;
  }
}

/** Words for a failure to open a match, and whether a new game should be offered. */
export function openFailure(e) {
  if (e instanceof ApiFailure && e.code === "no_match") {
    return "This game is not on this server: it never was, or it was left unfinished and expired (30 days after its last move; a few hours when nobody had played in it).";
  }
  if (e instanceof ApiFailure && e.status === 0) return e.message;
  return `This game cannot be opened: ${e.message}`;
}
