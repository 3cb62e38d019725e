// Chutes & Ladders' board on its page: the server's picture of a board,
// cropped to its squares, with the tokens over it and their walk.
//
// Terms:
// - board reference: `classic` or an upload's id; its picture is the
//   server's (`/api/chutes/boards/REF/svg`).
// - start box: drawn left of square 1 on a board whose tokens start off it,
//   where those tokens wait.
// - token: a player's numbered disc, put on its square's quarter; its walk
//   (`animate`) goes square by square, then up the ladder or down the chute.
// The board knows no rule: it draws where it is told the tokens stand.
import { api, byId, showError, sleep } from "/static/common.js";
import { showDie } from "/static/dice.js";
import { readable } from "/static/chutes-words.js";
import { colourOf } from "/static/matchui.js";
import { keepReadable } from "/static/readable.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The board drawn in `ui.board` (its errors in `ui.boardPictureError`, a
 * roll on `ui.die`). `squares()` gives each player's square as drawn
 * (or null with no game), `described()` is called after a token moved,
 * `playerName(seat)` names a seat.
 */
export function chutesBoard(ui, { squares, described, playerName }) {
  /** The board drawn now: its reference and board, and where its squares are. */
  let drawn = null;

  /** A square's rectangle in the picture's units (from its <rect>, so it works while hidden). */
  function squareRect(svg, square) {
    const rect = svg.querySelector(`g.square[data-square="${square}"] > rect`);
    if (!rect) return null;
    const n = (name) => Number(rect.getAttribute(name));
    return { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
  }

  /**
   * Draws `board` (reference `ref`) in the board area: the server's picture,
   * cropped to its squares, with a start box left of square 1 where tokens
   * wait on a board whose tokens start off it (they used to be drawn outside
   * the picture, cut off at its edge). Resolves once the picture is in place
   * or could not be drawn; asked again for the board being drawn, it gives
   * the same promise.
   */
  function drawBoard(ref, board) {
    if (drawn && drawn.ref === ref) return drawn.ready;
    drawn = { ref, board, tokens: [] };
    drawn.ready = putPicture(ref, board);
    return drawn.ready;
  }

  /** Fetches board `ref`'s picture and puts it in the board's place (drawBoard). */
  async function putPicture(ref, board) {
    // The picture drawn before stays, dimmed, until this one comes: the
    // board's place never empties, so nothing below it moves meanwhile (a
    // button under the pointer would have moved from under a click).
    ui.board.setAttribute("aria-busy", "true");
    showError(ui.boardPictureError, "");
    let svgText;
    try {
      svgText = await api("GET", `/api/chutes/boards/${encodeURIComponent(ref)}/svg`);
    } catch (e) {
      if (drawn && drawn.ref === ref) {
        // Nothing drawn: the next call for this board tries again.
        drawn = null;
        ui.board.replaceChildren();
        ui.board.removeAttribute("aria-busy");
      }
      showError(ui.boardPictureError, `The board cannot be drawn: ${readable(e.message)}`);
      return;
    }
    if (!drawn || drawn.ref !== ref) return;
    ui.board.removeAttribute("aria-busy");
    // Cropped before it is shown, then put in the old one's place at once.
    const holder = document.createElement("div");
    holder.innerHTML = svgText;
    const svg = holder.querySelector("svg");
    if (!svg) {
      ui.board.replaceChildren();
      return;
    }
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    // Crop to the squares: the page says the title and the legend in words.
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const rect of svg.querySelectorAll("g.square > rect")) {
      const x = Number(rect.getAttribute("x"));
      const y = Number(rect.getAttribute("y"));
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x + Number(rect.getAttribute("width")));
      maxY = Math.max(maxY, y + Number(rect.getAttribute("height")));
    }
    const first = squareRect(svg, 1);
    if (!first || !Number.isFinite(minX)) {
      ui.board.replaceChildren(svg);
      return;
    }
    const layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("class", "page-layer");
    if (board.start === 0) {
      const w = first.width * 0.8;
      const box = { x: first.x - w - first.width * 0.08, y: first.y, width: w, height: first.height };
      drawn.startBox = box;
      const rect = document.createElementNS(SVG_NS, "rect");
      for (const [k, v] of Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height, rx: first.width * 0.08 })) {
        rect.setAttribute(k, String(v));
      }
      rect.setAttribute("class", "start-box");
      const label = document.createElementNS(SVG_NS, "text");
      label.setAttribute("x", String(box.x + box.width / 2));
      label.setAttribute("y", String(box.y + first.height * 0.2));
      label.setAttribute("font-size", String(first.width * 0.17));
      label.setAttribute("text-anchor", "middle");
      label.setAttribute("class", "start-label");
      label.textContent = "Start";
      layer.append(rect, label);
      minX = Math.min(minX, box.x);
    }
    const pad = first.width * 0.06;
    const box = { x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad };
    // The picture's background, stretched to the cropped picture.
    const background = svg.querySelector("rect.background");
    if (background) {
      for (const [k, v] of Object.entries(box)) background.setAttribute(k, String(v));
    }
    svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.width} ${box.height}`);
    svg.setAttribute("width", String(box.width));
    svg.setAttribute("height", String(box.height));
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    byId("board-area").style.setProperty("--aspect", String(box.width / box.height));
    // The title, the facts and the legend are cut off: the page says them in words.
    for (const node of svg.querySelectorAll(":scope > text.title, :scope > text.subtitle, :scope > g.legend")) node.remove();
    // The page's own drawings go under the tokens, over the picture.
    svg.append(layer);
    ui.board.replaceChildren(svg);
    drawn.cell = first.width;
    placeTokens((squares() || []).length);
    // On a phone "Start" grows to be read (it fits its box at 11 px);
    // anything else too small gives way.
    keepReadable(svg, { grow: "text.start-label", most: 2.2 });
  }

  /** Where a token of `seat` stands on `square`: its square's quarter (or the start box). */
  function tokenPoint(seat, square) {
    const svg = ui.board.querySelector("svg");
    if (!svg || !drawn) return null;
    let box = square === 0 ? drawn.startBox : squareRect(svg, square);
    if (!box && square === 0) box = squareRect(svg, 1);
    if (!box) return null;
    const dx = (seat % 2 === 1 ? -1 : 1) * box.width * 0.22;
    const dy = (seat <= 2 ? -1 : 1) * box.height * 0.17 + box.height * 0.1;
    return { x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 + dy };
  }

  function placeTokens(players) {
    const svg = ui.board.querySelector("svg");
    if (!drawn) return;
    drawn.tokens = [];
    if (!svg) return;
    svg.querySelector("#tokens")?.remove();
    const layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("id", "tokens");
    // On a small screen the tokens grow (to about 24 CSS px across, their
    // number 12 px or more), so a phone's player can read them.
    const drawnWidth = ui.board.getBoundingClientRect().width || 800;
    const grow = Math.min(1.7, Math.max(1, 520 / drawnWidth));
    const size = (drawn.cell || 40) * grow;
    for (let seat = 1; seat <= players; seat++) {
      const token = document.createElementNS(SVG_NS, "g");
      token.setAttribute("class", `token p${colourOf(seat)}`);
      token.dataset.player = String(seat);
      const circle = document.createElementNS(SVG_NS, "circle");
      circle.setAttribute("r", String(size * 0.2));
      circle.setAttribute("stroke-width", String(size * 0.045));
      const number = document.createElementNS(SVG_NS, "text");
      number.setAttribute("font-size", String(size * 0.27));
      number.setAttribute("text-anchor", "middle");
      number.setAttribute("dy", String(size * 0.085));
      number.textContent = String(seat);
      token.append(circle, number);
      layer.append(token);
      drawn.tokens.push(token);
    }
    svg.append(layer);
    (squares() || []).forEach((square, i) => moveToken(i + 1, square));
  }

  function moveToken(seat, square) {
    if (!drawn) return;
    const token = drawn.tokens[seat - 1];
    const point = tokenPoint(seat, square);
    if (!token || !point) return;
    token.style.transform = `translate(${point.x}px, ${point.y}px)`;
    token.dataset.square = String(square);
    described();
  }

  /**
   * One move on the board: the die shows the roll, the token walks the count
   * square by square (at most about 0.6 s), then goes up or down the jump.
   * With `pause` 0 (a skip, reduced motion) it is put where it ends.
   */
  async function animateMove(move, pause, still = () => true) {
    for (const turn of move.events || []) {
      if (pause > 0 && turn.roll) showDie(ui.die, turn.roll, `${playerName(turn.player)} rolled ${turn.roll}`);
      if (pause > 0 && turn.landed !== turn.from) {
        const step = turn.landed > turn.from ? 1 : -1;
        const each = Math.max(30, Math.min(110, 600 / Math.abs(turn.landed - turn.from)));
        for (let square = turn.from + step; square !== turn.landed; square += step) {
          moveToken(turn.player, square);
          await sleep(each);
          if (!still()) return;
        }
      }
      if (turn.jump && pause > 0) {
        moveToken(turn.player, turn.landed);
        await sleep(pause);
        if (!still()) return;
      }
      moveToken(turn.player, turn.to);
    }
  }

  return {
    /** Draws board `ref` (the same promise while it is the board drawn). */
    draw: drawBoard,
    /** Forgets the board drawn: the next `draw` fetches its picture again. */
    forget() {
      drawn = null;
    },
    /** Puts `players` tokens on the board, each on its square as drawn. */
    placeTokens,
    /** Puts seat `seat`'s token on `square`. */
    moveToken,
    /** Shows one move on the board (see animateMove). */
    animate: animateMove,
  };
}
