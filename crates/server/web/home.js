// The home page: each game's one-tap starts on its card, the player's
// name (asked once, kept in this browser), and the games this browser
// holds a seat in, so that a person finds theirs again.
import { byId, el, showPicture, gameInfo, storedName, storeName, NAME_MAX } from "/static/common.js";
import { myMatches } from "/static/match.js";
import { yourGames } from "/static/matchui.js";
import { oneTap, startFromHome } from "/static/onetap.js";

const section = byId("your-games");
if (myMatches().length > 0) {
  section.hidden = false;
  yourGames(byId("your-games-list"), {
    empty: "None left on this device: start a game below, or find one in the lobby.",
  });
}

// One "Your name" for every card: what a friend sees ("Join Ada's game").
const name = el("input", { type: "text", id: "home-your-name", class: "quick-name", maxlength: NAME_MAX, autocomplete: "nickname", spellcheck: "false", placeholder: "for your friends", value: storedName() });
name.addEventListener("change", () => {
  storeName(name.value);
  name.value = storedName();
});
byId("home-name").replaceChildren(el("div", { class: "quick-name-row" }, el("label", { for: "home-your-name" }, "Your name"), name));

for (const box of document.querySelectorAll(".card-quick")) {
  const game = box.dataset.game;
  gameInfo(game).then((info) => oneTap(box, { game, info, name, start: (request) => startFromHome(game, request) }));
}

// The cards' pictures are drawn in the page, not as images, so that they
// take the page's colours (an image stays light in dark mode).
for (const img of document.querySelectorAll("img.thumb")) {
  const box = el("div", { class: "thumb", "aria-hidden": "true" });
  showPicture(box, img.getAttribute("src"), "").then((drawn) => {
    if (drawn) img.replaceWith(box);
  });
}
document.body.dataset.ready = "true";
