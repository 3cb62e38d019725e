// The home page: the games, and the games this browser holds a seat in,
// so that a person finds theirs again.
import { byId, el, showPicture } from "/static/common.js";
import { myMatches } from "/static/match.js";
import { yourGames } from "/static/matchui.js";

const section = byId("your-games");
if (myMatches().length > 0) {
  section.hidden = false;
  yourGames(byId("your-games-list"), {
    empty: "None left on this device: start a game below, or find one in the lobby.",
  });
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
