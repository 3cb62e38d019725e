// Baffle's words: the status line, who plays from this device's point of
// view, what a game is, and what moves did (the server's words for each
// event), from the match view (match.js). No rule is here.
//
// Terms:
// - role: this device's part in the game: the player (no words), or a
//   spectator watching a bot, a friend or anyone play.
import { count } from "/static/common.js";
import { sentences } from "/static/matchui.js";
import { touchy } from "/static/baffle-box.js";
import { playerName } from "/static/matchui.js";

/**
 * A shot in words: "5 → 12", and once the game is over (when its
 * deflections are told) ", 1 deflection" ("no deflection", "2 deflections").
 */
export function shotWords(s) {
  if (s.deflections === undefined || s.deflections === null) return `${s.hole} → ${s.exit}`;
  const turns = s.deflections === 0 ? "no deflection" : count(s.deflections, "deflection", "deflections");
  return `${s.hole} → ${s.exit}, ${turns}`;
}

/** True in a race: two to four players on the same box. */
function racing(match) {
  return ((match.view.view && match.view.view.racers) || []).length > 0;
}

/** Who made a move told live, before its words: only in a race, for another's move whose words do not name them already. */
function moverText(match, played, words) {
  if (!racing(match) || match.mySeats().includes(played.seat)) return "";
  const name = playerName(match.view, played.seat);
  return words.startsWith(name) ? "" : `${name}: `;
}

/** A move told live in words: who made it, what it did, and in a race whether it is now this device's turn. */
export function liveText(match, played, words) {
  const next = racing(match) && match.myTurn() && !match.mySeats().includes(played.seat) ? " Your turn." : "";
  return `${moverText(match, played, words)}${words}${next}`;
}

/** The events of `played` moves in sentences, the player named by the server: "Ada finds a / mirror at C5." */
export function eventsText(played) {
  return sentences((played || []).flatMap((p) => (p.events || []).map((e) => e.text)));
}

/** What the game is, in words: "The original assignment's first game" or "A 8 × 8 box with 4 mirrors". */
export function gameTitle(match) {
  const s = match.setup || {};
  if (s.origin === "fixed") return "The original assignment's first game";
  return `A ${s.size} × ${s.size} box with ${count(s.mirrors, "mirror", "mirrors")}`;
}

/** Who plays this game, from this device's point of view. */
export function roleText(match) {
  const v = match.view;
  const seat = (v.players || [])[0] || {};
  if ((v.players || []).some((p) => p.yours)) return "";
  if (racing(match)) {
    return v.status === "playing"
      ? "You are watching this race: each player has their own copy of the box, and their shots stay theirs until the end. The counts show under The race."
      : "You watched this race: every player's box is under The race.";
  }
  if (seat.kind === "bot") {
    const level = { easy: "easy", normal: "normal", hard: "hard" }[seat.level] || "";
    return `The ${level} bot plays this game on the server: you are watching it${v.status === "playing" ? " live" : ""}.`;
  }
  if (v.status === "playing" && v.host && seat.state === "open") return "Waiting for your friend to open the invite link: then you watch them play here.";
  if (v.status === "playing" && seat.state === "anyone") return "Waiting for someone to take the seat from the lobby: then you watch them play here.";
  return v.status === "playing"
    ? "You are watching this game: the player's shots and guesses show here as they are made."
    : "You watched this game.";
}

/** The status line when nothing has just happened. */
export function statusText(match) {
  const v = match.view;
  const g = v.view;
  if (v.status !== "playing") {
    const last = (v.log || []).filter((l) => l.number === v.moves).map((l) => l.text);
    const how = last.length ? sentences(last) : v.status === "won" ? "Every mirror found." : "";
    // The result in the match's own words ("You win", "Ada gave up").
    return v.result ? `${v.result.words}. ${how}`.trim() : how || "The game is over.";
  }
  if (!match.myTurn() && racing(match)) {
    const mine = match.mySeats().length > 0 ? ` You have found ${g.found.length} of ${g.mirrors}.` : "";
    return `${playerName(v, v.to_move)} to play.${mine}`;
  }
  if (!match.myTurn()) return `${gameTitle(match)}: ${count(g.mirrors, "mirror is", "mirrors are")} hidden.`;
  const where = g.sides === "all" ? "any edge" : "the left or top edge";
  const click = touchy.matches ? "tap" : "click";
  if (g.shots.length === 0 && g.guesses.length === 0) {
    return `${gameTitle(match)}: ${count(g.mirrors, "mirror is", "mirrors are")} hidden. Shoot a beam: ${click} a hole on ${where}.`;
  }
  return `${g.found.length} of ${g.mirrors} mirrors found. Shoot a hole on ${where}, or select a cell and Make Guess.`;
}

/** The bot's move in words: what it did, what came of it, and why. */
export function botText(answer) {
  return `Bot: ${eventsText(answer.played)}`;
}

/** Why the bot chose its move, in one sentence. */
export function botWhy(answer) {
  return `Why: ${answer.bot.reason_text.replace(/\.$/, "")}.`;
}
