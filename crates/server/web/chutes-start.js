// Chutes & Ladders' new-game fields: the boards offered to the next game
// (built in, uploaded, designed), its rules and dice, and the request they
// make; and the board reference a match's own board is drawn from.
//
// Terms:
// - board reference: `classic` or an upload's id, which draws the board
//   and analyses it. A match keeps its own copy of its board; a page that
//   has no reference for it (a friend's, or after a restart lost the
//   upload) uploads that copy again (`boardRef`).
// - the next game: what the form describes; it never changes the game in
//   play.
import { api, el, showError, readFile, readSeed, count, defaultPlans } from "/static/common.js";
import { an } from "/static/chutes-analysis.js";
import { describeBoard, readable, looksBinary } from "/static/chutes-words.js";

/** Boards by reference ("classic" or an upload's id). */
export const boards = new Map();
/** The lists each board is offered in: the form's, the analysis's. */
const lists = [];

function addBoardOption(ref, board, select) {
  if ([...select.options].some((o) => o.value === ref)) return;
  const label = ref === "classic" ? "Classic (100 squares)" : `${board.name || "Uploaded board"} (${count(board.size, "square", "squares")})`;
  select.append(el("option", { value: ref }, label));
}

/** Offers board `ref` to the next game and to the analysis. */
export function addBoard(ref, board) {
  boards.set(ref, board);
  for (const select of lists) addBoardOption(ref, board, select);
}

/** Two boards are the same board: same squares, start, geometry and jumps. */
export function sameBoard(a, b) {
  const key = (x) =>
    JSON.stringify([
      x.name || "",
      x.size,
      x.start,
      x.geometry ? [x.geometry.rows, x.geometry.cols, x.geometry.numbering] : null,
      x.jumps.map((j) => `${j.from}-${j.to}`).sort(),
    ]);
  return key(a) === key(b);
}

/** A board as a TOML board file (docs/board-files.md), to upload a match's copy again. */
function boardToml(board) {
  const lines = [];
  if (board.name) lines.push(`name = ${JSON.stringify(board.name)}`);
  lines.push(`size = ${board.size}`, `start = ${board.start}`);
  if (board.geometry) {
    lines.push(`rows = ${board.geometry.rows}`, `columns = ${board.geometry.cols}`);
    lines.push(`numbering = ${JSON.stringify(board.geometry.numbering)}`);
  }
  lines.push(`jumps = [${board.jumps.map((j) => `[${j.from}, ${j.to}]`).join(", ")}]`);
  return lines.join("\n") + "\n";
}

const BOARD_KEY = "parlor.chutes.board.";

/** A board reference for `board` (a match's copy): known, remembered, or uploaded again. */
export async function boardRef(board, matchId) {
  for (const [ref, known] of boards) if (sameBoard(known, board)) return ref;
  let remembered = null;
  try {
    remembered = localStorage.getItem(BOARD_KEY + matchId);
  } catch {
    remembered = null;
  }
  if (remembered) {
    try {
      const view = await api("GET", `/api/chutes/boards/${encodeURIComponent(remembered)}`);
      if (sameBoard(view.board, board)) {
        addBoard(view.id, view.board);
        return view.id;
      }
    } catch {
      // Gone with a restart: upload the match's copy again.
    }
  }
  const view = await api("POST", "/api/chutes/boards", { text: boardToml(board), format: "toml" });
  addBoard(view.id, view.board);
  rememberBoard(matchId, view.id);
  return view.id;
}

export function rememberBoard(matchId, ref) {
  try {
    localStorage.setItem(BOARD_KEY + matchId, ref);
  } catch {
    // Private windows may refuse storage: the board is uploaded again next time.
  }
}

/**
 * The seat chooser's options (the shell makes it): two seats to begin
 * with, a game among people at one screen; `seatName(seat)` names a seat,
 * `onChange` hears each change.
 */
export function seatOptions(info, seatName, onChange) {
  const most = info?.max_seats ?? 1;
  return {
    initial: Math.min(2, most),
    defaults: Array.from({ length: most }, (_, i) => defaultPlans(info)[i] || "here"),
    seatName,
    onChange,
  };
}

/**
 * The form's fields in `ui` (board, upload, rules, dice, seed). `info` is
 * the game in the registry; `idle()` is true while no game is shown (the
 * next game's board is then drawn by `preview(ref, board)`); `seats()` is
 * the seat chooser (the shell's).
 */
export function chutesStart(ui, { info, idle, preview, seats: chooser }) {
  lists.push(ui.boardSelect, an.board);

  function selected() {
    return boards.get(ui.boardSelect.value);
  }

  function showBoardInfo() {
    const board = selected();
    ui.boardInfo.textContent = board ? `Next game: ${describeBoard(board)}` : "";
    if (idle() && board) preview(ui.boardSelect.value, board);
  }

  async function loadBoards() {
    const list = await api("GET", "/api/chutes/boards");
    for (const view of list.builtin) addBoard(view.id, view.board);
    ui.boardSelect.value = "classic";
    ui.boardFormats.textContent = `Formats: ${list.formats.map((f) => f.describe).join("; ")}.`;
    showBoardInfo();
  }

  async function uploadBoard() {
    const file = ui.boardFile.files[0];
    if (!file) return;
    showError(ui.boardError, "");
    ui.boardNotes.textContent = "";
    const name = readable(file.name);
    try {
      const text = await readFile(file);
      if (looksBinary(text)) {
        showError(ui.boardError, `${name} is not a text file: a board file is text (TOML, a board array, a LeetCode grid, …). Nothing was uploaded.`);
        return;
      }
      const view = await api("POST", "/api/chutes/boards", { text, file_name: file.name });
      // What the reader noticed (a LeetCode square holding its own label is no jump).
      ui.boardNotes.textContent = (view.notes || [])
        .map((n) => `Note: ${n.pos ? `line ${n.pos.line}, column ${n.pos.col}: ` : ""}${readable(n.message)}.`)
        .join(" ");
      addBoard(view.id, view.board);
      ui.boardSelect.value = view.id;
      showBoardInfo();
    } catch (e) {
      showError(ui.boardError, `${name}: ${readable(e.message)}`);
    } finally {
      ui.boardFile.value = "";
    }
  }

  function plans() {
    return chooser() ? chooser().plans() : ["here"];
  }

  /** The seed is offered only when no seat waits for someone; chosen dice only at one screen. */
  function showSeedField() {
    const p = plans();
    const someoneComes = p.some((x) => x === "open" || x === "anyone");
    const chosen = ui.dice.value === "chosen";
    ui.seedField.hidden = someoneComes || chosen;
    if (chosen && p.some((x) => x !== "here")) {
      ui.diceNote.textContent = "Chosen rolls need every seat here, at this screen: no friend, no one from the lobby, no bot.";
    } else if (someoneComes) {
      ui.diceNote.textContent = "A game others join draws its own secret seed, so that nobody knows the dice.";
    } else {
      ui.diceNote.textContent = "";
    }
  }

  /** The next game's request from the form; throws an Error (its field focused) when a field is wrong. */
  function request(seatPlans = plans()) {
    const board = ui.boardSelect.value;
    // The die's bounds are the game's (the registry's); the server checks them.
    const faces = Number(ui.faces.value);
    const bounds = info?.setup_limits?.faces;
    if (!Number.isInteger(faces) || (bounds && (faces < bounds.min || faces > bounds.max))) {
      ui.faces.focus();
      throw new Error(bounds ? `The die has ${bounds.min} to ${bounds.max} faces.` : "The die has a whole number of faces.");
    }
    const dice = ui.dice.value;
    if (dice === "chosen" && seatPlans.some((x) => x !== "here")) {
      throw new Error("Chosen rolls need every seat here, at this screen: make each seat “Here”, or let the server roll.");
    }
    const made = { setup: { board, overshoot: ui.overshoot.value, faces }, seats: seatPlans, dice };
    if (!ui.seedField.hidden) {
      try {
        const seed = readSeed(ui.seed.value);
        if (seed !== undefined) made.seed = seed;
      } catch (e) {
        ui.seed.focus();
        throw e;
      }
    }
    return made;
  }

  /** Fills the form from the registry and offers the boards (a failure is said under the board). */
  async function start() {
    if (info) {
      ui.faces.min = String(info.setup_limits.faces.min);
      ui.faces.max = String(info.setup_limits.faces.max);
      ui.faces.value = String(info.default_setup.faces);
      ui.overshoot.value = info.default_setup.overshoot;
    }
    showSeedField();
    ui.boardSelect.addEventListener("change", showBoardInfo);
    ui.boardFile.addEventListener("change", uploadBoard);
    ui.dice.addEventListener("change", showSeedField);
    try {
      await loadBoards();
    } catch (e) {
      showError(ui.boardError, readable(e.message));
    }
  }

  /** Makes board `ref` the next game's, for `players` players (the designer's Play). */
  function choose(ref, players) {
    ui.boardSelect.value = ref;
    showBoardInfo();
    if (chooser() && players >= 2) chooser().setCount(players);
  }

  return { start, request, selected, choose, plans, showSeedField };
}
