// The lobby: this server's games with a seat for anyone, and the games this
// browser holds a seat in. Taking a seat here keeps its token on this
// device (match.js) and opens the game's page, which finds the seat there.
//
// Terms:
// - live: the list follows the server's lobby stream (GET
//   /api/lobby/events, server-sent events): a game opened anywhere shows
//   within a second or two, a game whose seat was taken goes.
// - read: without the stream (it failed and the browser gave up), the list
//   is read once, and again on Refresh.
import { api, el, byId, count, ApiFailure } from "/static/common.js";
import { joinSeat, pageUrl } from "/static/match.js";
import { GAME_NAMES, yourGames } from "/static/matchui.js";

const ui = {
  open: byId("open-matches"),
  mine: byId("my-matches"),
  status: byId("lobby-status"),
  refresh: byId("refresh"),
};

function since(ms) {
  const minutes = Math.max(0, Math.round((Date.now() - ms) / 60000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${count(minutes, "minute", "minutes")} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${count(hours, "hour", "hours")} ago`;
  return `${count(Math.round(hours / 24), "day", "days")} ago`;
}

let taking = false;

/** Takes the first seat of `entry` anyone may take, then opens its page. */
async function takeSeat(entry, button) {
  if (taking) return;
  taking = true;
  for (const b of ui.open.querySelectorAll("button.take")) b.disabled = true;
  ui.status.textContent = "Taking a seat…";
  try {
    const view = await api("GET", `/api/matches/${entry.id}`);
    const seat = (view.players || []).find((p) => p.state === "anyone");
    if (!seat) {
      taking = false;
      await load("That game has no seat left: someone was first. You can still watch it.");
      return;
    }
    await joinSeat(entry.game, entry.id, seat.seat, null, entry.title || "");
    location.href = pageUrl(entry.game, entry.id);
  } catch (e) {
    taking = false;
    const why =
      e instanceof ApiFailure && e.code === "seat_taken"
        ? "Someone took that seat first. You can still watch the game."
        : e instanceof ApiFailure && e.code === "no_match"
          ? "That game is no longer on this server."
          : `Could not take a seat: ${e.message}.`;
    await load(why);
    button.focus?.();
  }
}

function entryLine(entry) {
  const game = GAME_NAMES[entry.game] || entry.game;
  // "Ada's Chutes & Ladders": whose game it is, when the host gave a name.
  const name = entry.host ? `${entry.host}'s ${game}` : game;
  const take = el("button", { type: "button", class: "take", "aria-label": `Take a seat in ${name}, made ${since(entry.created_ms)}` }, "Take a seat");
  take.addEventListener("click", () => takeSeat(entry, take));
  return el(
    "li",
    { class: "match", "data-match": entry.id },
    el(
      "div",
      { class: "match-what" },
      el("strong", {}, name),
      entry.title ? el("div", { class: "note" }, entry.title) : null,
      el(
        "div",
        { class: "note" },
        `${count(entry.open_seats, "seat", "seats")} free of ${entry.seats} · ${count(entry.moves, "move", "moves")} · made ${since(entry.created_ms)}`,
      ),
    ),
    el(
      "div",
      { class: "buttons" },
      take,
      el("a", { class: "button secondary watch", href: entry.url, "aria-label": `Watch ${name}, made ${since(entry.created_ms)}` }, "Watch"),
    ),
  );
}

let shown = null;
let shownHow = "";

/**
 * Shows `lobby` (as GET /api/lobby answers); `said` is told first, `how`
 * last (live, or when it was read).
 */
function show(lobby, said = "", how = "") {
  shown = lobby;
  shownHow = how;
  ui.open.replaceChildren(...lobby.matches.map(entryLine));
  if (lobby.matches.length === 0) {
    ui.open.replaceChildren(el("li", { class: "none note" }, "No game is waiting for players right now."));
  }
  // The list says when it is empty; the status line does not say it again.
  const n = lobby.matches.length ? `${count(lobby.matches.length, "game", "games")} waiting for players.` : "";
  ui.status.textContent = [said, n, how].filter(Boolean).join(" ");
  document.body.dataset.ready = "true";
}

function readAt() {
  return `Read at ${new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`;
}

const LIVE = "Live: games show here as they open.";

/** Reads the list once; `said` is told first (why it was read again). */
async function load(said = "") {
  ui.refresh.disabled = true;
  ui.status.textContent = "Reading the list…";
  try {
    show(await api("GET", "/api/lobby"), said, stream ? LIVE : readAt());
  } catch (e) {
    ui.status.textContent = `The lobby cannot be read: ${e.message}. Try Refresh.`;
    document.body.dataset.ready = "true";
  } finally {
    ui.refresh.disabled = false;
  }
}

let stream = null;

/** Follows the lobby live; Refresh is there only while the stream is not. */
function follow() {
  if (!window.EventSource) return false;
  stream = new EventSource("/api/lobby/events");
  stream.addEventListener("lobby", (event) => {
    document.body.dataset.live = "true";
    ui.refresh.hidden = true;
    show(JSON.parse(event.data), "", LIVE);
  });
  stream.addEventListener("error", () => {
    document.body.dataset.live = "false";
    if (stream.readyState === EventSource.CLOSED) {
      // The browser gave up: the list as read, and Refresh.
      stream = null;
      ui.refresh.hidden = false;
      load("The live list stopped.");
    } else if (shown) {
      ui.status.textContent = "Reconnecting to the lobby…";
    }
  });
  return true;
}

ui.refresh.addEventListener("click", () => load());
yourGames(ui.mine, { empty: "None yet: a game you start or join shows here." });
// "Made 2 minutes ago" stays true while the list does not change.
setInterval(() => {
  if (shown && !taking) show(shown, "", shownHow);
}, 30000);
if (!follow()) load();
