// Chutes & Ladders' board designer (in the analysis tab): the server
// searches for a board meeting the targets asked (its length's mean and
// spread, fairness between seats, its shortest game), its progress shown
// as it goes; the board found can be analysed, played or downloaded.
//
// Terms:
// - target: a figure asked of the board ("40 ± 0.1", "at least 7", "as
//   small as possible"); the report says each met or missed, and by how
//   much.
// - page: what chutes.js tells the designer (startDesigner): how to add a
//   board to the page's choices, describe it, make a refusal readable, and
//   play a board.
import { api, el, byId, showError, count, download } from "/static/common.js";
import { an, analyse } from "/static/chutes-analysis.js";

/** What the page tells the designer (startDesigner). */
let page = null;

const dz = {
  form: byId("design-form"),
  from: byId("d-from"),
  size: byId("d-size"),
  minJump: byId("d-min-jump"),
  maxJump: byId("d-max-jump"),
  faces: byId("d-faces"),
  percentile: byId("d-percentile"),
  crossings: byId("d-crossings"),
  allow: byId("d-allow"),
  chutes: byId("d-chutes"),
  ladders: byId("d-ladders"),
  mean: byId("d-mean"),
  sd: byId("d-sd"),
  players: byId("d-players"),
  fair: byId("d-fair"),
  shortest: byId("d-shortest"),
  seed: byId("d-seed"),
  name: byId("d-name"),
  go: byId("design-go"),
  progress: byId("design-progress"),
  status: byId("design-status"),
  error: byId("design-error"),
  result: byId("design-result"),
  targets: byId("design-targets"),
  board: byId("design-board"),
  analyse: byId("design-analyse"),
  play: byId("design-play"),
  download: byId("design-download"),
};
/** The last design shown: its board's reference and its report. */
let designed = null;
const DESIGN_SECONDS = 60;

/** A field's number, or undefined when it is empty. */
function fieldNumber(input) {
  const text = input.value.trim();
  return text === "" ? undefined : Number(text);
}

/** A goal in words: "40 ± 0.1", "at least 7", "as small as possible". */
function goalWords(goal) {
  switch (goal.kind) {
    case "near":
      return `${goal.value} ± ${goal.tolerance}`;
    case "at_least":
      return `at least ${goal.value}`;
    case "at_most":
      return `at most ${goal.value}`;
    case "least":
      return "as small as possible";
    default:
      return "as large as possible";
  }
}

/** The words of one target and the board's figure (the report's own values). */
function targetWords(t) {
  const got = t.achieved;
  const missed = t.met ? "" : `, missed by ${t.miss.toPrecision(3)}`;
  switch (t.name) {
    case "mean":
      return `a game lasts ${got.toFixed(2)} rolls on average (asked ${goalWords(t.goal)}${missed})`;
    case "sd":
      return `the spread (standard deviation) is ${got.toFixed(2)} rolls (asked ${goalWords(t.goal)}${missed})`;
    case "fair":
      return `every seat's chance is within ${got.toFixed(4)} of an even share (asked within ${t.target})`;
    case "shortest":
      return `the shortest game takes ${got} rolls (asked ${goalWords(t.goal)}${missed})`;
    default:
      return `${t.name.slice(1)}% of games end within ${got} rolls (asked ${goalWords(t.goal)}${missed})`;
  }
}

/** A board rule and how the designed board stands against it. */
function ruleWords(r) {
  if (!r.on) return `Allowed: ${r.text}`;
  return r.kept ? `Kept: ${r.text}` : `Broken: ${r.text}`;
}

/** A goal field's text, or undefined when it is empty. */
function fieldGoal(input) {
  const text = input.value.trim();
  return text === "" ? undefined : text;
}

async function designBoard(event) {
  event.preventDefault();
  showError(dz.error, "");
  dz.result.hidden = true;
  // From a board: its size and counts are the board's own unless asked.
  const from = dz.from.checked ? an.board.value : undefined;
  const body = {
    from,
    size: from ? undefined : fieldNumber(dz.size),
    chutes: from ? undefined : dz.chutes.value.trim() || undefined,
    ladders: from ? undefined : dz.ladders.value.trim() || undefined,
    min_jump: fieldNumber(dz.minJump),
    max_jump: fieldNumber(dz.maxJump),
    faces: fieldNumber(dz.faces),
    crossings: fieldNumber(dz.crossings),
    allow: [...dz.allow.querySelectorAll("input:checked")].map((box) => box.value),
    name: dz.name.value.trim() || undefined,
    mean: fieldGoal(dz.mean),
    sd: fieldGoal(dz.sd),
    players: Number(dz.players.value),
    fair: fieldGoal(dz.fair),
    shortest: fieldGoal(dz.shortest),
    percentiles: dz.percentile.value.trim() ? [dz.percentile.value.trim()] : [],
    seed: fieldNumber(dz.seed),
    overshoot: an.overshoot.value,
  };
  dz.go.disabled = true;
  dz.progress.hidden = false;
  dz.progress.value = 0;
  dz.status.textContent = "Searching…";
  const started = performance.now();
  try {
    let response;
    try {
      response = await fetch("/api/chutes/design", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch {
      throw new Error("the server cannot be reached: is parlor serve still running?");
    }
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      throw new Error((data && data.error && data.error.message) || `${response.status} ${response.statusText}`);
    }
    // One JSON object a line: progress, then the design (or an error).
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let last = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let end;
      while ((end = text.indexOf("\n")) >= 0) {
        const said = JSON.parse(text.slice(0, end));
        text = text.slice(end + 1);
        if (said.progress) {
          const p = said.progress;
          const seconds = (performance.now() - started) / 1000;
          dz.progress.value = Math.min(1, Math.max(p.evaluations / p.limit, seconds / DESIGN_SECONDS));
          dz.status.textContent = `Searching: ${count(p.evaluations, "board", "boards")} judged exactly so far…`;
        } else {
          last = said;
        }
      }
    }
    if (!last) throw new Error("the server stopped before the board was ready");
    if (last.error) throw new Error(last.error.message);
    await showDesign(last.design);
  } catch (e) {
    dz.status.textContent = "";
    showError(dz.error, page.readable(e.message));
  } finally {
    dz.go.disabled = false;
    dz.progress.hidden = true;
  }
}

async function showDesign(design) {
  const report = design.report;
  const view = await api("GET", `/api/chutes/boards/${encodeURIComponent(design.id)}`);
  page.addBoard(view.id, view.board);
  designed = { id: view.id, report };
  dz.targets.replaceChildren(
    ...report.targets.map((t) => el("li", { class: t.met ? "met" : "missed" }, `${t.met ? "Met" : "Not met"}: ${targetWords(t)}`)),
  );
  const judged = count(report.evaluations, "board", "boards");
  dz.status.textContent = report.met
    ? `Every target met, after judging ${judged} exactly.`
    : report.stopped
      ? `Time was up after ${judged}: this is the closest board found.`
      : `Not every target was met: this is the closest of ${judged}.`;
  for (const t of report.targets) {
    if (t.impossible) dz.targets.append(el("li", { class: "missed" }, `No board can: ${t.impossible}.`));
    else if (!t.met && t.bound) dz.targets.append(el("li", { class: "missed" }, `Proven: ${t.bound}.`));
  }
  for (const r of report.rules) {
    dz.targets.append(el("li", { class: r.on && !r.kept ? "missed" : "met" }, ruleWords(r)));
  }
  if (report.changes !== null && report.changes !== undefined) {
    dz.targets.append(el("li", {}, `Changed from the starting board: ${count(report.changes, "jump", "jumps")} moved, added or removed.`));
  }
  dz.board.innerHTML = await api("GET", `/api/chutes/boards/${encodeURIComponent(view.id)}/svg`);
  const svg = dz.board.querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `The designed board: ${page.describeBoard(view.board)}`);
  }
  dz.result.hidden = false;
}

/**
 * Wires the designer: `context` is {addBoard(ref, board),
 * describeBoard(board), readable(message), play(ref, players) (the next
 * game on that board, for that many players)}.
 */
export function startDesigner(context) {
  page = context;
  dz.form.addEventListener("submit", designBoard);
  dz.analyse.addEventListener("click", () => {
    if (!designed) return;
    an.board.value = designed.id;
    an.players.value = String(Math.max(2, designed.report.analysis.seats.players));
    analyse();
    an.section.scrollIntoView({ block: "start" });
  });
  dz.play.addEventListener("click", () => {
    // The players the board was designed for.
    if (designed) page.play(designed.id, designed.report.analysis.seats.players);
  });
  dz.download.addEventListener("click", () => {
    if (designed) download(`design-${designed.report.seed}.toml`, designed.report.board_file, "application/toml");
  });
}
