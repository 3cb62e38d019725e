// Baffle's new game: the box's own fields (the original assignment's first
// game, or a random box of a size, mirrors and sides, with a seed), bounded
// by the registry, and the Baffle games this device holds. The seats and
// Start are the shell's (shell.js).
//
// Terms:
// - fixed game: the original assignment's first box; a random box is drawn
//   from the seed (a fresh one when the seed is left empty, and always for
//   a game someone else joins).
import { el, byId, showError, readSeed, count } from "/static/common.js";
import { myMatches, pageUrl } from "/static/match.js";

const GAME = "baffle";

const ui = {
  heading: byId("heading"),
  error: byId("error"),
  boxKind: byId("box-kind"),
  randomFields: byId("random-fields"),
  fixedNote: byId("fixed-note"),
  size: byId("size"),
  sizeLabel: document.querySelector('label[for="size"]'),
  mirrors: byId("mirrors"),
  seed: byId("seed"),
  sides: byId("sides"),
  startGame: byId("start-game"),
  mine: byId("mine"),
  myGames: byId("my-games"),
};

/**
 * The start screen (shown by the shell): the box `chosen` ({kind, size,
 * mirrors, sides}, and whether Start takes the focus: New Game's), and this
 * device's Baffle games.
 */
export function showStart(chosen = {}) {
  document.title = "Baffle · Parlor";
  ui.heading.textContent = "Baffle";
  showError(ui.error, "");
  if (chosen.kind) ui.boxKind.value = chosen.kind;
  if (chosen.size) ui.size.value = String(chosen.size);
  if (chosen.mirrors) ui.mirrors.value = String(chosen.mirrors);
  if (chosen.sides) ui.sides.value = chosen.sides;
  showBoxKind();
  const mine = myMatches().filter((m) => m.game === GAME).slice(0, 8);
  ui.mine.hidden = mine.length === 0;
  ui.myGames.replaceChildren(
    ...mine.map((m) =>
      el(
        "li",
        { class: "match" },
        el("div", { class: "match-what" }, el("a", { href: pageUrl(GAME, m.id) }, m.title || "A Baffle game"), el("div", { class: "note" }, `opened here ${since(m.at)}`)),
      ),
    ),
  );
  // New Game: the custom form, this game's box chosen again.
  if (chosen.focus) {
    byId("custom").open = true;
    ui.startGame.focus();
  }
  document.body.dataset.ready = "start";
}

function since(ms) {
  const minutes = Math.max(0, Math.round((Date.now() - ms) / 60000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${count(minutes, "minute", "minutes")} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${count(hours, "hour", "hours")} ago`;
  return `${count(Math.round(hours / 24), "day", "days")} ago`;
}

/** The request for the chosen game: {setup, seats, seed?}; throws an Error saying what is wrong. */
export function startRequest(plans) {
  const sides = ui.sides.value;
  if (ui.boxKind.value === "fixed") return { setup: { fixed: true, sides }, seats: plans };
  // The box's bounds are the game's: the server says what is wrong.
  const size = Number(ui.size.value);
  const mirrors = Number(ui.mirrors.value);
  if (!Number.isInteger(size) || !Number.isInteger(mirrors)) throw new Error("The size and the mirrors are whole numbers.");
  const request = { setup: { size, mirrors, sides }, seats: plans };
  const seed = readSeed(ui.seed.value);
  if (seed !== undefined) {
    if (plans.some((p) => p === "open" || p === "anyone")) {
      throw new Error("A game someone else joins draws its own seed: leave the seed empty.");
    }
    request.seed = seed;
  }
  return request;
}

/** The box's form takes its bounds and defaults from the registry's entry `INFO`. */
export function startForm(INFO) {
  const size = INFO?.setup_limits?.size;
  if (size) {
    ui.size.min = String(size.min);
    ui.size.max = String(size.max);
    ui.size.value = String(size.default);
    ui.sizeLabel.textContent = `Size (${size.min} to ${size.max})`;
  }
  const mirrors = INFO?.setup_limits?.mirrors;
  if (mirrors) {
    ui.mirrors.min = String(mirrors.min);
    ui.mirrors.value = String(mirrors.default);
  }
  ui.boxKind.addEventListener("change", showBoxKind);
}

function showBoxKind() {
  ui.randomFields.hidden = ui.boxKind.value !== "random";
  ui.fixedNote.hidden = ui.boxKind.value === "random";
}
