// The lobby: this server's games with a seat for anyone, and the games this
// browser holds a seat in. Taking a seat here opens the game's page with
// the seat; the page keeps its token.
import { api, el, byId, count } from "/static/common.js";
import { myMatches, pageUrl } from "/static/match.js";

const GAME_NAMES = { chutes: "Chutes & Ladders", baffle: "Baffle", tycoon: "Snakes & Ladders Tycoon" };

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

/** Takes the first seat of `entry` anyone may take, then opens its page. */
async function takeSeat(entry, button) {
  button.disabled = true;
  try {
    const view = await api("GET", `/api/matches/${entry.id}`);
    const seat = view.players.find((p) => p.state === "anyone");
    if (!seat) {
      ui.status.textContent = "That game has no seat left: it is full now.";
      await load();
      return;
    }
    const joined = await api("POST", `/api/matches/${entry.id}/join`, { seat: seat.seat });
    localStorage.setItem(
      `parlor.match.${entry.id}`,
      JSON.stringify({ game: entry.game, token: joined.token, invites: [], title: entry.title }),
    );
    const index = myMatches().filter((m) => m.id !== entry.id);
    index.unshift({ id: entry.id, game: entry.game, title: entry.title, at: Date.now() });
    localStorage.setItem("parlor.matches", JSON.stringify(index.slice(0, 50)));
    location.href = pageUrl(entry.game, entry.id);
  } catch (e) {
    ui.status.textContent = `Could not take a seat: ${e.message}.`;
    button.disabled = false;
    await load();
  }
}

async function load() {
  ui.refresh.disabled = true;
  try {
    const lobby = await api("GET", "/api/lobby");
    ui.open.replaceChildren(
      ...lobby.matches.map((entry) => {
        const take = el("button", {}, "Take a seat");
        take.addEventListener("click", () => takeSeat(entry, take));
        return el(
          "li",
          { class: "match", "data-match": entry.id },
          el("div", {},
            el("strong", {}, GAME_NAMES[entry.game] || entry.game),
            el("div", { class: "note" }, entry.title),
            el("div", { class: "note" },
              `${count(entry.open_seats, "seat", "seats")} of ${entry.seats} free · ${count(entry.moves, "move", "moves")} · made ${since(entry.created_ms)}`),
          ),
          el("div", { class: "buttons" }, take, el("a", { href: entry.url }, "Watch")),
        );
      }),
    );
    ui.status.textContent = lobby.matches.length
      ? `${count(lobby.matches.length, "game", "games")} waiting for players.`
      : "No game is waiting for players right now. Start one from a game's page with a seat for anyone.";
  } catch (e) {
    ui.status.textContent = `The lobby cannot be read: ${e.message}.`;
  } finally {
    ui.refresh.disabled = false;
  }
}

function showMine() {
  const mine = myMatches();
  if (mine.length === 0) {
    ui.mine.replaceChildren(el("li", { class: "note" }, "None yet."));
    return;
  }
  ui.mine.replaceChildren(
    ...mine.map((m) =>
      el("li", { class: "match" },
        el("a", { href: pageUrl(m.game, m.id) }, `${GAME_NAMES[m.game] || m.game}${m.title ? `: ${m.title}` : ""}`),
        el("span", { class: "note" }, ` · ${since(m.at)}`),
      ),
    ),
  );
}

ui.refresh.addEventListener("click", load);
showMine();
load();
