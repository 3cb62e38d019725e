// Chutes & Ladders' words on its page: a board's name and facts, the
// rules, its jumps, a history line's class, and a refusal made readable.
//
// Terms:
// - board: the server's board view ({name, size, start, geometry, jumps}).
// - facts: "100 squares, 9 ladders, 10 chutes; tokens start off the board".
// - readable: a refusal's words with no control characters or stray bytes,
//   and not longer than a few lines.
import { ApiFailure, count, el } from "/static/common.js";

/** "the classic board", "Tiny test board", "trap.toml": a board's name, never "… board board". */
export function boardName(board) {
  const name = (board && board.name) || "";
  if (!name) return `a board of ${count(board.size, "square", "squares")}`;
  if (name === "classic") return "the classic board";
  return name;
}

/** Upper-cases the first letter. */
export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function jumpsOf(board, kind) {
  return board.jumps.filter((j) => j.kind === kind);
}

/** "100 squares, 9 ladders, 10 chutes; tokens start off the board". */
export function boardFacts(board) {
  const ladders = jumpsOf(board, "ladder").length;
  const chutes = jumpsOf(board, "chute").length;
  const start = board.start === 0 ? "tokens start off the board" : "tokens start on square 1";
  return `${count(board.size, "square", "squares")}, ${count(ladders, "ladder", "ladders")}, ${count(chutes, "chute", "chutes")}; ${start}`;
}

/** A board's name to begin a sentence with (a file's name keeps its case). */
export function boardTitle(board) {
  const name = boardName(board);
  return board && board.name ? (board.name === "classic" ? capital(name) : name) : capital(name);
}

export function describeBoard(board) {
  return `${boardTitle(board)}: ${boardFacts(board)}.`;
}

export const OVERSHOOT_WORDS = {
  stay: "a roll past the finish is lost",
  bounce: "a roll past the finish bounces back",
  finish: "a roll past the finish finishes",
};

export function rulesWords(rules) {
  const overshoot = OVERSHOOT_WORDS[rules.overshoot] || `overshoot: ${rules.overshoot}`;
  return `${overshoot}; a die of ${count(rules.faces, "face", "faces")}`;
}

/**
 * Makes a refusal readable: no control characters or stray bytes, and not
 * longer than a few lines (a binary file's reading error quoted its bytes).
 */
export function readable(message) {
  const clean = String(message || "")
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

/** True when a file's text is not text: NUL bytes, undecodable bytes or control characters. */
export function looksBinary(text) {
  if (/[\u0000\uFFFD]/.test(text)) return true;
  const controls = text.match(/[\u0001-\u0008\u000E-\u001F\u007F]/g);
  return Boolean(controls && controls.length > 0);
}

/** The jumps of `board` in words: "Ladders: 3→8, …", then the chutes (elements). */
export function jumpsWords(board) {
  const text = (kind) => jumpsOf(board, kind).map((j) => `${j.from}→${j.to}`).join(", ") || "none";
  return [el("span", {}, el("strong", {}, "Ladders: "), text("ladder")), el("br"), el("span", {}, el("strong", {}, "Chutes: "), text("chute"))];
}

/** The chosen roll's options: 1 to `faces`. */
export function rollOptions(faces) {
  return Array.from({ length: faces }, (_, i) => el("option", { value: i + 1 }, String(i + 1)));
}

/** A history line's class: the win, or the jump its roll took. */
export function lineClass(move) {
  const turns = move.events || [];
  if (turns.some((t) => t.outcome === "won")) return "won";
  const jump = turns.find((t) => t.jump);
  return jump ? jump.jump.kind : "";
}

/** Words for a roll the server refused. */
export function failureWords(e) {
  if (!(e instanceof ApiFailure)) return readable(e.message);
  switch (e.code) {
    case "stale_move":
      return "That roll was not played: the game had already moved on (another tab or device played first). The board shows the game as it is now.";
    case "not_your_turn":
      return "It is not your turn.";
    case "game_over":
      return "The game is over: no more rolls.";
    case "unreachable":
      return "The server cannot be reached: the page reconnects by itself.";
    default:
      return readable(e.message);
  }
}

/** Words for an invite that could not be used (the page watches the game). */
export function joinWords(e) {
  if (e.code === "seat_taken") return "Someone took that seat first: you are watching this game.";
  if (e.code === "bad_invite") return "That invite link does not work any more (a new one may have been made): you are watching this game.";
  return `The invite could not be used: ${readable(e.message)}`;
}
