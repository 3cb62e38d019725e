// One-tap starts: "Play the computer", "Play a friend" and "Pass and
// play", each a whole new game in one click with sensible defaults, on the
// home page's cards and at the top of each game's page. The full form stays
// in the page's "Custom game" drawer.
//
// Terms:
// - way: how the seats are filled: "computer" (you and a bot; Baffle's
//   computer hides the mirrors and you play alone), "friend" (you and a
//   friend's seat, an invite link shown at once), "pass" (people taking
//   turns at this screen).
// - quick request: the POST /api/matches body a way makes for a game:
//   Chutes on the classic board, Tycoon on the original assignment's
//   sample grid, Baffle a random box of the registry's default size.
// - your name: this browser's player's name (common.js storedName), asked
//   once where it is needed (a friend sees "Join Ada's game"), never
//   before "Play the computer".
import { el, byId, showError, storedName, storeName, NAME_MAX } from "/static/common.js";
import { Match } from "/static/match.js";

/** The ways, in the order they are offered, with their buttons' words. */
export const WAYS = [
  { way: "computer", label: "Play the computer", key: "c" },
  { way: "friend", label: "Play a friend", key: "f" },
  { way: "pass", label: "Pass and play", key: "p" },
];

/** The bot's plan for a game of the registry: "normal", or "bot" when its bot has no level. */
function botPlan(info) {
  return info && info.bot_levels === false ? "bot" : "normal";
}

/** Each game's quick setup: the board or box a first game is played on. */
function quickSetup(game, info) {
  const defaults = (info && info.default_setup) || {};
  if (game === "chutes") return { ...defaults, board: "classic" };
  if (game === "tycoon") return { sample: true };
  if (game === "baffle") {
    const { size = 10, mirrors = 5 } = defaults;
    return { size, mirrors, sides: defaults.sides || "all" };
  }
  return { ...defaults };
}

/** The ways a game offers: a friend and pass and play need two seats. */
export function waysFor(game, info) {
  const most = (info && info.max_seats) || 1;
  return WAYS.filter((w) => w.way === "computer" || most >= 2);
}

/**
 * The quick request for `way` in `game` (`info`: its registry entry):
 * {setup, seats}. Seats beyond the two a way fills (a game of four seats)
 * go to bots.
 */
export function quickRequest(game, info, way) {
  const least = Math.max(1, (info && info.min_seats) || 1);
  const most = (info && info.max_seats) || 1;
  const bot = botPlan(info);
  let seats;
  if (way === "computer") seats = game === "baffle" || most < 2 ? ["here"] : ["here", bot];
  else if (way === "friend") seats = ["here", "open"];
  else seats = ["here", "here"];
  while (seats.length < least) seats.push(way === "pass" ? "here" : bot);
  return { setup: quickSetup(game, info), seats };
}

/**
 * The one-tap buttons for `game` in `container`, with a small "Your name"
 * (asked before "Play a friend" when there is none). `start(request, way)`
 * makes the match (the page's shell, or the home page's `startFromHome`);
 * it rejects with an Error whose words are shown. Returns {element}.
 */
export function oneTap(container, { game, info, start, compact = false, name: shared = null }) {
  const id = `${game}-quick`;
  const said = el("p", { class: "error quick-error", role: "alert", id: `${id}-error` });
  const nameId = `${id}-name`;
  const name = shared || el("input", {
    type: "text",
    id: nameId,
    class: "quick-name",
    maxlength: NAME_MAX,
    autocomplete: "nickname",
    spellcheck: "false",
    placeholder: "for your friends",
    value: storedName(),
  });
  if (!shared) {
    name.addEventListener("change", () => {
      storeName(name.value);
      name.value = storedName();
    });
  }
  // A page's one name field, or this bar's own.
  const nameRow = shared ? shared.closest(".quick-name-row") : el("div", { class: "quick-name-row" }, el("label", { for: nameId }, "Your name"), name);
  const buttons = waysFor(game, info).map(({ way, label }) => {
    const button = el("button", { type: "button", class: way === "computer" ? "quick quick-main" : "quick secondary", "data-way": way }, label);
    button.addEventListener("click", () => go(way, button));
    return button;
  });
  let going = false;
  async function go(way, button) {
    if (going) return;
    showError(said, "");
    if (name.value.trim()) storeName(name.value);
    name.value = storedName();
    if (way === "friend" && !storedName()) {
      if (nameRow) nameRow.classList.add("asked");
      showError(said, "Your name first: your friend's link says whose game it is.");
      name.focus();
      return;
    }
    going = true;
    for (const b of buttons) b.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await start(quickRequest(game, info, way), way);
    } catch (e) {
      showError(said, e.message);
    } finally {
      going = false;
      button.removeAttribute("aria-busy");
      for (const b of buttons) b.disabled = false;
    }
  }
  name.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !shared && nameRow.classList.contains("asked")) go("friend", buttons.find((b) => b.dataset.way === "friend"));
  });
  const element = el(
    "div",
    { class: `quick-start${compact ? " compact" : ""}`, role: "group", "aria-label": "Start a game in one click", "data-game": game },
    el("div", { class: "quick-buttons" }, buttons),
    // The name matters to a friend: no field where no friend can be asked.
    shared || !buttons.some((b) => b.dataset.way === "friend") ? null : nameRow,
    said,
  );
  container.replaceChildren(element);
  return { element };
}

/** Makes a match from the home page and goes to its page (Back returns home). */
export async function startFromHome(game, request) {
  const made = await Match.create(game, request);
  location.replace(`/${game}/m/${made.id}`);
}

/**
 * The shell's parts every game's page has for these starts (shell.js):
 * `#quick` (the one-tap starts), `#custom` (the Custom game drawer) and
 * `#invite-card` (a friend's invite, shown at once).
 */
export function quickParts() {
  return { quick: byId("quick"), custom: byId("custom"), inviteCard: byId("invite-card") };
}
