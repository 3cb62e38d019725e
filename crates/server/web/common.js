// What every page shares: calling the API and building elements.

/**
 * An error the API answered with: its message is the server's reason, its
 * code the kind of refusal (`stale_move`, `no_match`, …; docs/api.md lists
 * them), its status the HTTP status (0 when the server cannot be reached).
 */
export class ApiFailure extends Error {
  constructor(status, message, code = "") {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * Calls the JSON API. Resolves with the parsed answer; rejects with an
 * ApiFailure carrying the server's message and code. `token` is sent as
 * the seat token (`Authorization: Bearer`).
 */
export async function api(method, path, body, token) {
  const init = { method, headers: {} };
  // A POST or PUT always says it carries JSON, even with nothing in it: the
  // server refuses one that does not.
  if (body === undefined && (method === "POST" || method === "PUT")) body = {};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (token) init.headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiFailure(0, "the server cannot be reached just now (is it still running? is this device online?)", "unreachable");
  }
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    let code = "";
    if (type.startsWith("application/json")) {
      const data = await response.json().catch(() => null);
      if (data && data.error) {
        message = data.error.message || message;
        code = data.error.code || "";
      }
    }
    throw new ApiFailure(response.status, message, code);
  }
  if (response.status === 204) return null;
  if (type.startsWith("application/json")) return response.json();
  return response.text();
}

let registry = null;

/**
 * The registry's entry for the game `name` (`GET /api/games`, asked once a
 * page): its seats, default seats, default setup and the setup's bounds.
 * Null when the server cannot be reached (the server checks every setup
 * anyway).
 */
export async function gameInfo(name) {
  return (await allGames()).find((g) => g.name === name) || null;
}

/** Every game of the registry (`GET /api/games`, asked once a page); none when the server cannot be reached. */
export async function allGames() {
  if (!registry) registry = api("GET", "/api/games").catch(() => []);
  return registry;
}

/**
 * The seat plans of a registry entry's default seats: a person sits here,
 * at this screen; a bot keeps its level.
 */
export function defaultPlans(info) {
  return (info?.default_seats || ["person"]).map((s) => (s === "person" ? "here" : s));
}

/** Creates an element: el("button", {class: "x", onclick: f}, "Text", child). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The element with this id (throws when the page lacks it). */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`page has no #${id}`);
  return node;
}

/** The newest picture asked of each box, so that a late answer never covers a newer one. */
const picturesAsked = new WeakMap();

/**
 * Shows Parlor's picture at `path` (an SVG the server draws) in `box`,
 * inlined rather than as an image so that it takes the page's light or dark
 * scheme (the renderer's palette rides in the picture), read as one image
 * named `label`. The box keeps the path it shows in `data-picture`. A later
 * call wins over an earlier one still loading. Whether it was shown.
 */
export async function showPicture(box, path, label) {
  const ask = { path };
  picturesAsked.set(box, ask);
  let svg;
  try {
    svg = await api("GET", path);
  } catch (e) {
    if (picturesAsked.get(box) === ask) box.replaceChildren(el("p", { class: "error" }, `The picture could not be drawn: ${e.message}`));
    return false;
  }
  if (picturesAsked.get(box) !== ask) return false;
  box.innerHTML = svg;
  const picture = box.querySelector("svg");
  if (!picture) return false;
  picture.removeAttribute("width");
  picture.removeAttribute("height");
  picture.querySelector(":scope > title")?.remove();
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", label);
  box.dataset.picture = path;
  return true;
}

/**
 * Shows the chart at `path` in `box` as [`showPicture`] does, so that it
 * takes the page's scheme too, named by the box's `data-label`. Asks for it
 * once: again only for another path, or after it could not be shown.
 */
export function showChart(box, path) {
  if (box.dataset.asked === path) return;
  box.dataset.asked = path;
  showPicture(box, path, box.dataset.label).then((shown) => {
    if (!shown && box.dataset.asked === path) delete box.dataset.asked;
  });
}

/** Empties a box [`showChart`] filled, for another match's chart. */
export function clearChart(box) {
  delete box.dataset.asked;
  picturesAsked.delete(box);
  box.replaceChildren();
}

/** Shows `message` in the error box `box` (empty clears it). */
export function showError(box, message) {
  box.textContent = message || "";
}

/** Reads a file the person chose, as text. */
export function readFile(file) {
  return file.text();
}

/** Starts a download of `text` as a file called `name`. */
export function download(name, text, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The largest seed: JavaScript reads whole numbers exactly only below 2^53. */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

/**
 * Reads a seed box: undefined when it is empty (a fresh seed), else the
 * whole number typed. Throws an Error saying what is wrong, for the page to
 * show beside the box.
 */
export function readSeed(text) {
  const seed = text.trim();
  if (seed === "") return undefined;
  if (!/^\d+$/.test(seed)) throw new Error("The seed is a whole number (or leave it empty).");
  const value = Number(seed);
  if (!Number.isSafeInteger(value)) {
    throw new Error(`The seed is a whole number from 0 to ${MAX_SEED} (or leave it empty).`);
  }
  return value;
}

/** `1 roll`, `3 rolls`: a count with its noun in the right number. */
export function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Waits `ms` milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The most characters a player's name has (the match layer's rule). */
export const NAME_MAX = 24;

/**
 * The name this browser's player goes by ("" when none was given): asked
 * once, kept in the browser, sent with each game made or joined here.
 */
export function storedName() {
  try {
    return (localStorage.getItem("parlor.name") || "").trim().slice(0, NAME_MAX);
  } catch {
    return "";
  }
}

/** Keeps `name` (trimmed) as this browser's player's name; "" forgets it. */
export function storeName(name) {
  try {
    const trimmed = String(name || "").trim().slice(0, NAME_MAX);
    if (trimmed) localStorage.setItem("parlor.name", trimmed);
    else localStorage.removeItem("parlor.name");
  } catch {
    // No storage (a private window): the name lasts this page only.
  }
}
