// The home page: the games, and the games this browser holds a seat in,
// so that a person finds theirs again.
import { byId } from "/static/common.js";
import { myMatches } from "/static/match.js";
import { yourGames } from "/static/matchui.js";

const section = byId("your-games");
if (myMatches().length > 0) {
  section.hidden = false;
  yourGames(byId("your-games-list"), {
    empty: "None left on this device: start a game below, or find one in the lobby.",
  });
}
document.body.dataset.ready = "true";
