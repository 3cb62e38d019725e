// A die's face, drawn by Parlor itself: the roll a move used, shown as it
// is played (Chutes & Ladders, Tycoon).
//
// Terms:
// - face: a rounded square with the classic pips for 1 to 6, or the number
//   itself for a bigger die (Chutes' dice may have up to 64 faces).
// - tumble: a short turn of the face as it lands (CSS, 0.35 s), left out
//   under prefers-reduced-motion.

const SVG = "http://www.w3.org/2000/svg";

/** Where the pips of each face sit, on a 3 × 3 grid (0, 1, 2). */
const PIPS = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

function node(tag, attrs) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

/**
 * Shows `roll` on the die in `box` (an element the page keeps for it),
 * tumbling unless the person asked for less motion. `label` is its
 * accessible name (the status line says the roll in words too).
 */
export function showDie(box, roll, label = `Rolled ${roll}`) {
  const svg = node("svg", { viewBox: "0 0 40 40", role: "img", "aria-label": label, class: "die-face" });
  svg.append(node("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, class: "die-body" }));
  if (PIPS[roll]) {
    for (const [c, r] of PIPS[roll]) svg.append(node("circle", { cx: 10 + 10 * c, cy: 10 + 10 * r, r: 3.6, class: "die-pip" }));
  } else {
    const text = node("text", { x: 20, y: 26, "text-anchor": "middle", class: "die-number" });
    text.textContent = String(roll);
    svg.append(text);
  }
  box.replaceChildren(svg);
  box.hidden = false;
  box.dataset.roll = String(roll);
  box.classList.remove("tumble");
  if (!window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
    // Restarted for each roll: the class is taken away, then given back.
    void box.offsetWidth;
    box.classList.add("tumble");
  }
}
