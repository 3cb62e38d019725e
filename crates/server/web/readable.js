// Text in pictures that a phone's player can read: every text of a board
// picture drawn at least MIN_TEXT_PX CSS pixels high, or grown to it, or
// hidden when it cannot fit (it "gives way"; a zoom or a wider screen
// shows it again).
//
// Terms:
// - drawn size: a text's font size times the picture's scale on the
//   screen (its screen matrix), in CSS pixels.
// - grows: a text that may be drawn larger, up to `most` times its own
//   size, to reach the least size (a cell's number in a roomy cell).
// - gives way: a text still too small is hidden (visibility, an SVG
//   attribute: the pages' CSP runs no inline style) and marked
//   `data-gives-way`, so that a check knows it was hidden on purpose; a
//   legend's entry is hidden whole, its swatch with its words.

/** The least size of a text in a picture, in CSS pixels. */
export const MIN_TEXT_PX = 11;

/** The pictures kept readable, looked at again when the window's size changes. */
const kept = new Set();

/** A text's drawn size in CSS pixels (0 when it is not drawn). */
export function drawnPx(text) {
  const m = text.getScreenCTM && text.getScreenCTM();
  if (!m) return 0;
  return parseFloat(getComputedStyle(text).fontSize || "0") * Math.hypot(m.a, m.b);
}

/**
 * Makes every text of `svg` readable: texts matching `options.grow` (a
 * selector) grow up to `options.most` (default 2) times their own size,
 * then any text still under MIN_TEXT_PX gives way. Done again when the
 * window's size changes while the picture is on the page.
 */
export function keepReadable(svg, options = {}) {
  if (!svg) return;
  svg.readableOptions = options;
  kept.add(svg);
  fit(svg);
}

/** Looks again at a picture kept readable (its texts were drawn anew). */
export function refit(svg) {
  if (svg && kept.has(svg)) fit(svg);
}

function fit(svg) {
  const options = svg.readableOptions || {};
  const grows = new Set(options.grow ? svg.querySelectorAll(options.grow) : []);
  const most = options.most || 2;
  for (const g of svg.querySelectorAll("g[data-gives-way]")) {
    g.removeAttribute("visibility");
    delete g.dataset.givesWay;
  }
  for (const t of svg.querySelectorAll("text")) {
    t.removeAttribute("visibility");
    delete t.dataset.givesWay;
    if (grows.has(t)) {
      if (!t.dataset.ownSize) t.dataset.ownSize = t.getAttribute("font-size") || "";
      const own = parseFloat(t.dataset.ownSize);
      if (own > 0) t.setAttribute("font-size", String(own));
    }
  }
  for (const t of svg.querySelectorAll("text")) {
    const px = drawnPx(t);
    if (px <= 0 || px >= MIN_TEXT_PX) continue;
    const own = parseFloat(t.dataset.ownSize || "");
    if (grows.has(t) && own > 0 && (MIN_TEXT_PX / px) <= most) {
      t.setAttribute("font-size", String(own * (MIN_TEXT_PX / px) * 1.001));
      continue;
    }
    t.setAttribute("visibility", "hidden");
    t.dataset.givesWay = "true";
    // A legend's entry goes whole: no swatch is left without its words.
    const entry = t.closest("g.legend-entry");
    if (entry) {
      entry.setAttribute("visibility", "hidden");
      entry.dataset.givesWay = "true";
    }
  }
}

let pending = 0;
addEventListener("resize", () => {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(() => {
    for (const svg of [...kept]) {
      if (svg.isConnected) fit(svg);
      else kept.delete(svg);
    }
  });
});
