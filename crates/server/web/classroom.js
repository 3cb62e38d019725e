// The classroom's page: open one, join one, play one's games, and the
// projected page where the class's games meet the exact figures.
//
// Terms:
// - teacher key: the classroom's secret token, kept in this browser
//   ("parlor.classroom.ID.teacher") by the page that opened it; it shows
//   the teacher's controls. Never put in the page's address or its source.
// - student key: a student's token ("parlor.classroom.ID.student", with
//   their number and name), given when they join.
// - view: GET /api/classrooms/ID, live on its events (server-sent events),
//   drawn whole at each change: the histogram of the round's game lengths
//   over the exact distribution (bars count games, dots the games the exact
//   distribution expects among as many), the running mean with its 95%
//   interval closing on the exact mean, wins by seat against the exact
//   chances, the longest and shortest games, and the server's sentence.
// - one tap: a student's game is played to its end by one press: alone,
//   one request that rolls to the end; against a bot, the page rolls on
//   each of the student's turns until the game is over.

import { api, el, byId, count, sleep, storedName, storeName } from "/static/common.js";
import { qrPicture } from "/static/matchui.js";

const SVG = "http://www.w3.org/2000/svg";
const status = byId("class-status");
const id = (location.pathname.match(/^\/classroom\/([0-9a-f]{32})\/?$/) || [])[1] || null;

function key(kind) {
  return `parlor.classroom.${id}.${kind}`;
}

function stored(kind) {
  try {
    return JSON.parse(localStorage.getItem(key(kind)) || "null");
  } catch {
    return null;
  }
}

function store(kind, value) {
  try {
    localStorage.setItem(key(kind), JSON.stringify(value));
  } catch {
    // A private window: the key lasts this page only.
  }
}

function say(text) {
  status.textContent = text || "";
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function one(v) {
  return Number(v).toFixed(1);
}

function two(v) {
  return Number(v).toFixed(2);
}

// ---------------------------------------------------------------------------
// Opening

async function boardFrom(kind, fileInput) {
  if (kind !== "file") return "classic";
  const file = fileInput.files[0];
  if (!file) throw new Error("Choose a board file first.");
  const uploaded = await api("POST", "/api/chutes/boards", { text: await file.text(), file_name: file.name });
  return uploaded.id;
}

function showOpen() {
  byId("open-panel").hidden = false;
  document.title = "Open a classroom · Parlor";
  byId("open-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const button = byId("open-button");
    button.disabled = true;
    try {
      const board = await boardFrom(form.elements["board-kind"].value, byId("open-file"));
      const opened = await api("POST", "/api/classrooms", {
        board,
        activity: form.elements.activity.value,
        teams: Number(byId("open-teams").value),
      });
      try {
        localStorage.setItem(`parlor.classroom.${opened.id}.teacher`, JSON.stringify(opened.token));
      } catch {
        // Without storage the teacher's key lives in this tab only.
        sessionStorage.setItem(`parlor.classroom.${opened.id}.teacher`, JSON.stringify(opened.token));
      }
      location.assign(opened.url);
    } catch (e) {
      say(e.message);
      button.disabled = false;
    }
  });
}

// ---------------------------------------------------------------------------
// The figures

/** The histogram: a bar a range of lengths (its games), a dot its expected games. */
function drawHistogram(view) {
  const box = byId("histogram");
  const bars = view.figures.bars;
  const W = 960;
  const H = 400;
  const left = 64;
  const right = 16;
  const top = 20;
  const bottom = 64;
  const peak = Math.max(1, ...bars.map((b) => Math.max(b.count, b.expected)));
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const bw = plotW / Math.max(1, bars.length);
  const y = (v) => top + plotH - (v / peak) * plotH;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": `Histogram of ${count(view.figures.counted, "game", "games")}` });
  // Axis and a few ticks.
  const step = Math.max(1, Math.ceil(peak / 5));
  for (let t = 0; t <= peak; t += step) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(t), y2: y(t), class: "grid" }));
    chart.append(svg("text", { x: left - 8, y: y(t) + 6, class: "tick", "text-anchor": "end" }, t));
  }
  const g = svg("g", { class: "bars" });
  bars.forEach((b, i) => {
    const x = left + i * bw;
    const label = b.from === b.to ? `${b.from}` : `${b.from}–${b.to}`;
    const rect = svg("rect", {
      x: x + bw * 0.08,
      y: y(b.count),
      width: bw * 0.84,
      height: Math.max(0, top + plotH - y(b.count)),
      class: "bar",
      "data-count": b.count,
      "data-from": b.from,
      "data-to": b.to,
    });
    rect.append(svg("title", {}, `${label} rolls: ${count(b.count, "game", "games")} (expected ${one(b.expected)})`));
    g.append(rect);
  });
  chart.append(g);
  const dots = svg("g", { class: "expected" });
  const points = bars.map((b, i) => `${left + (i + 0.5) * bw},${y(b.expected)}`);
  if (view.figures.counted > 0) {
    dots.append(svg("polyline", { points: points.join(" "), class: "expected-line" }));
    bars.forEach((b, i) => dots.append(svg("circle", { cx: left + (i + 0.5) * bw, cy: y(b.expected), r: 5, class: "expected-dot" })));
  } else {
    // No game yet: the shape of the exact distribution, scaled to its peak.
    const shape = bars.map((b, i) => {
      const p = view.exact.lengths.slice(b.from, b.to + 1).reduce((a, v) => a + v, 0);
      return { i, p };
    });
    const pmax = Math.max(...shape.map((s) => s.p), 1e-12);
    shape.forEach(({ i, p }) => dots.append(svg("circle", { cx: left + (i + 0.5) * bw, cy: y((p / pmax) * peak * 0.9), r: 5, class: "expected-dot" })));
  }
  chart.append(dots);
  // Lengths under the bars, every few.
  const every = Math.max(1, Math.ceil(bars.length / 12));
  bars.forEach((b, i) => {
    if (i % every !== 0) return;
    chart.append(svg("text", { x: left + (i + 0.5) * bw, y: H - bottom + 26, class: "tick", "text-anchor": "middle" }, b.from));
  });
  chart.append(svg("text", { x: left + plotW / 2, y: H - 10, class: "axis-title", "text-anchor": "middle" }, "rolls in the game (all players)"));
  box.replaceChildren(chart);
  byId("histogram-key").textContent =
    view.figures.counted > 0 ? "· bars: the class's games · dots: what the exact chances expect among as many" : "· dots: the exact chances' shape";
}

/** The running mean with its 95% interval, over the games, and the exact mean. */
function drawRunning(view) {
  const box = byId("running");
  const run = view.figures.running;
  const exact = view.figures.exact_mean;
  const W = 640;
  const H = 250;
  const left = 56;
  const right = 12;
  const top = 14;
  const bottom = 40;
  // The scale fits the exact mean and the class's means from the fifth
  // game on (the first few swing wide); what lies beyond is clipped.
  const values = [exact];
  const settled = run.length > 8 ? run.slice(4) : run;
  for (const r of settled) {
    values.push(r.mean);
    if (r.low !== null && r.low !== undefined && run.length > 8) values.push(r.low, r.high);
  }
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 4) {
    lo -= 2;
    hi += 2;
  }
  const n = Math.max(2, run.length);
  const x = (i) => left + ((i - 1) / (n - 1)) * (W - left - right);
  const y = (v) => top + (1 - (v - lo) / (hi - lo)) * (H - top - bottom);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "The class's running mean" });
  const clip = `running-clip`;
  chart.append(svg("clipPath", { id: clip }, svg("rect", { x: left, y: top, width: W - left - right, height: H - top - bottom })));
  const plot = svg("g", { "clip-path": `url(#${clip})` });
  chart.append(plot);
  const band = run.filter((r) => r.low !== null && r.low !== undefined);
  if (band.length > 1) {
    const upper = band.map((r) => `${x(r.games)},${y(r.high)}`);
    const lower = band.map((r) => `${x(r.games)},${y(r.low)}`).reverse();
    plot.append(svg("polygon", { points: [...upper, ...lower].join(" "), class: "interval" }));
  }
  plot.append(svg("line", { x1: left, x2: W - right, y1: y(exact), y2: y(exact), class: "exact-line" }));
  chart.append(svg("text", { x: W - right - 4, y: top + 18, class: "tick exact-label", "text-anchor": "end" }, `dashed: the exact mean, ${one(exact)}`));
  if (run.length > 0) {
    plot.append(svg("polyline", { points: run.map((r) => `${x(r.games)},${y(r.mean)}`).join(" "), class: "mean-line" }));
    // The mean now, marked: after one game the line is a point.
    const now = run[run.length - 1];
    plot.append(svg("circle", { cx: x(Math.max(now.games, 1)), cy: y(now.mean), r: 7, class: "mean-dot" }));
  }
  for (const t of [lo, (lo + hi) / 2, hi]) {
    chart.append(svg("text", { x: left - 6, y: y(t) + 5, class: "tick", "text-anchor": "end" }, one(t)));
  }
  chart.append(svg("text", { x: left + (W - left - right) / 2, y: H - 8, class: "axis-title", "text-anchor": "middle" }, "games finished"));
  box.replaceChildren(chart);
}

/** A bar `share` of its row wide (set through the style object: the page's
 * security policy refuses style attributes). */
function bar(kind, share) {
  const node = el("span", { class: `seat-bar ${kind}` });
  node.style.width = `${(share * 100).toFixed(1)}%`;
  return node;
}

/** A pair of bars a seat: the class's share of wins, and the exact chance. */
function drawSeats(view) {
  const seats = view.figures.seats;
  byId("seats-panel").hidden = seats.length === 0;
  if (seats.length === 0) return;
  const rows = seats.map((s) =>
    el(
      "div",
      { class: "seat-row" },
      el("span", { class: "seat-name" }, view.activity === "together" ? `Team ${s.seat}` : `Seat ${s.seat}`),
      el("span", { class: "seat-bars" }, bar("class", s.share), bar("exact", s.exact)),
      el("span", { class: "seat-figures", "data-wins": s.wins }, `${Math.round(s.share * 100)}% · exact ${one(s.exact * 100)}%`),
    ),
  );
  byId("seats").replaceChildren(...rows, el("p", { class: "note" }, "Upper bar: the class's wins (", count(seats.reduce((a, s) => a + s.wins, 0), "game", "games"), "); lower: the exact chance."));
}

function named(game) {
  if (!game) return "–";
  const who = game.winner && game.winner !== game.players ? ` — ${game.winner} won` : "";
  return `${count(game.rolls, "roll", "rolls")}: ${game.players}${who}`;
}

const ACTIVITY = {
  solo: "Each student plays their own games, alone.",
  bot: "Each student plays their own games against a bot: the student sits first.",
  together: "The class plays one game together, in teams.",
};

function boardWords(view) {
  const name = view.board.name ? `${view.board.name}` : `a board of ${view.board.squares} squares`;
  return `${name} · ${view.rules.overshoot} rule · ${view.rules.faces}-sided die`;
}

function drawView(view) {
  const f = view.figures;
  byId("class-heading").textContent = `Classroom · ${boardWords(view)}`;
  byId("class-sentence").textContent = f.sentence;
  byId("class-games").textContent = String(f.counted);
  byId("class-mean").textContent = f.mean === null ? "–" : two(f.mean);
  byId("class-interval").textContent = f.low === null ? "–" : `${one(f.low)}–${one(f.high)}`;
  byId("exact-mean").textContent = two(f.exact_mean);
  byId("class-longest").textContent = named(f.longest);
  byId("class-shortest").textContent = named(f.shortest);
  byId("class-count").textContent = `${count(view.students.length, "student", "students")} of ${view.most_students} · ${ACTIVITY[view.activity]}`;
  drawHistogram(view);
  drawRunning(view);
  drawSeats(view);
  byId("students").replaceChildren(
    ...view.students.map((s) =>
      el("li", {}, el("span", { class: "student-name" }, s.name), " ", el("span", { class: "note" }, view.activity === "together" ? `Team ${s.team}` : count(s.games, "game", "games"))),
    ),
  );
  drawTogether(view);
}

// ---------------------------------------------------------------------------
// The class game

let togetherWatch = null;
let togetherId = null;

function drawTogether(view) {
  const panel = byId("together-panel");
  const t = view.together;
  panel.hidden = !t || view.activity !== "together";
  const teams = byId("together-teams");
  if (!t) {
    if (togetherWatch) togetherWatch.close();
    togetherWatch = null;
    togetherId = null;
    return;
  }
  teams.replaceChildren(...t.teams.map((names, i) => el("li", {}, el("strong", {}, `Team ${i + 1}: `), names.join(", ") || "nobody yet")));
  if (togetherId === t.match) return;
  togetherId = t.match;
  if (togetherWatch) togetherWatch.close();
  togetherWatch = watchMatch(t.match, (m) => {
    byId("together-turn").textContent = m.to_move
      ? `Team ${m.to_move} to roll · ${count(m.moves, "roll", "rolls")} so far.`
      : `${overWords(m, (seat) => `Team ${seat}`)} Once the teacher starts another, it counts too.`;
    refreshPicture(byId("together-board"), `/api/matches/${t.match}/svg`);
  });
}

/** How a finished match ended, in words; `who` names a seat. */
function overWords(m, who) {
  const rolls = count(m.moves, "roll", "rolls");
  if (m.status === "won") return `${who(m.winner)} won, after ${rolls} in all.`;
  return `The game ended with no winner, after ${rolls}.`;
}

async function refreshPicture(box, path) {
  try {
    const text = await api("GET", path);
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const picture = doc.documentElement;
    if (picture && picture.nodeName === "svg") box.replaceChildren(document.importNode(picture, true));
  } catch (e) {
    box.textContent = e.message;
  }
}

// ---------------------------------------------------------------------------
// Live

/**
 * Follows `path` live: its events (`path/events`, server-sent), each
 * `change` handed to `onData` through `pick`; when the server refuses the
 * stream (an address holding its most streams: a class behind one
 * address), its answer is asked every `every` ms instead. `close()` stops.
 */
function live(path, pick, onData, every) {
  let timer = null;
  const source = new EventSource(`${path}/events`);
  source.addEventListener("change", (event) => {
    say("");
    onData(pick(JSON.parse(event.data)));
  });
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) {
      say("Reconnecting…");
      return;
    }
    if (timer) return;
    const ask = () =>
      api("GET", path).then(
        (answer) => {
          say("");
          onData(answer);
        },
        (e) => say(e.message),
      );
    ask();
    timer = setInterval(ask, every);
  };
  return {
    close() {
      source.close();
      if (timer) clearInterval(timer);
    },
  };
}

/** Follows the classroom's view. */
function watch(onView) {
  return live(`/api/classrooms/${id}`, (view) => view, onView, 3000);
}

/** Follows the match `matchId` (the spectator's view after each change). */
function watchMatch(matchId, onView) {
  return live(`/api/matches/${matchId}`, (change) => change.view, onView, 1500);
}

// ---------------------------------------------------------------------------
// The teacher

async function fetchBlob(path, token, name) {
  const response = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new Error(data?.error?.message || `${response.status}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function teacherControls(token, latest) {
  byId("teacher-panel").hidden = false;
  const act = async (fn) => {
    try {
      await fn();
      say("");
    } catch (e) {
      say(e.message);
    }
  };
  byId("setup-board").addEventListener("change", () => {
    byId("setup-file").hidden = byId("setup-board").value !== "file";
  });
  byId("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act(async () => {
      const choice = byId("setup-board").value;
      const body = { activity: byId("setup-activity").value, teams: Number(byId("setup-teams").value) };
      if (choice !== "keep") body.board = await boardFrom(choice, byId("setup-file"));
      drawView(await api("POST", `/api/classrooms/${id}/setup`, body, token));
    });
  });
  byId("reset").addEventListener("click", () => act(async () => drawView(await api("POST", `/api/classrooms/${id}/reset`, {}, token))));
  byId("start-together").addEventListener("click", () => act(async () => drawView(await api("POST", `/api/classrooms/${id}/together`, {}, token))));
  byId("download-csv").addEventListener("click", () => act(() => fetchBlob(`/api/classrooms/${id}/games.csv`, token, `classroom-round-${latest().round}.csv`)));
  byId("download-png").addEventListener("click", () => act(() => fetchBlob(`/api/classrooms/${id}/figure.png`, token, `classroom-round-${latest().round}.png`)));
}

function showBoard(token) {
  byId("board-panel").hidden = false;
  document.body.classList.add("projected");
  const address = `${location.origin}/classroom/${id}`;
  byId("class-address").textContent = address;
  byId("class-qr").replaceChildren(qrPicture(address, `QR code of ${address}`));
  if (/^(localhost|127\.|\[::1\])/.test(location.hostname)) {
    byId("students-panel").append(
      el("p", { class: "note warn" }, "This address opens on this computer only: serve on the school network (parlor serve --addr 0.0.0.0:8080) and open the page by the computer's address for phones to join."),
    );
  }
  let last = null;
  if (token) teacherControls(token, () => last);
  watch((view) => {
    last = view;
    drawView(view);
    if (token) {
      byId("start-together").hidden = view.activity !== "together";
      byId("setup-activity").value = view.activity;
      byId("setup-teams").value = String(view.teams);
    }
  });
}

// ---------------------------------------------------------------------------
// A student

function showJoin() {
  byId("join-panel").hidden = false;
  const input = byId("join-name");
  input.value = storedName();
  byId("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const joined = await api("POST", `/api/classrooms/${id}/students`, { name: input.value });
      store("student", joined);
      storeName(joined.name);
      byId("join-panel").hidden = true;
      showStudent(joined);
    } catch (e) {
      say(e.message);
    }
  });
}

/** Plays one of the student's own games to its end; resolves with its final view. */
async function playOwnGame(student, onView) {
  const made = await api("POST", `/api/classrooms/${id}/games`, {}, student.token);
  let view = made.view;
  onView(made.id, view);
  for (let guard = 0; guard < 20000 && view.to_move !== null; guard += 1) {
    if (view.to_move === 1) {
      const answer = await api("POST", `/api/matches/${made.id}/moves?view=full`, { move: "roll", after: view.moves, repeat: true }, made.token);
      view = answer.view;
    } else {
      // The bot's turn: it moves on the server.
      await sleep(150);
      view = await api("GET", `/api/matches/${made.id}`, undefined, made.token);
    }
    onView(made.id, view);
  }
  return { id: made.id, view };
}

function showStudent(student) {
  byId("student-panel").hidden = false;
  byId("student-heading").textContent = `Hello, ${student.name}`;
  const play = byId("student-play");
  const result = byId("student-result");
  const board = byId("student-board");
  let current = null;
  watch((view) => {
    current = view;
    const me = view.students.find((s) => s.number === student.number);
    if (view.activity === "together") {
      const team = me ? me.team : 1;
      byId("student-task").textContent = `The class plays one game together. You are in Team ${team}: roll when it is your team's turn.`;
      play.textContent = `Roll for Team ${team}`;
      play.disabled = !view.together;
      drawTogetherForStudent(view, team);
    } else {
      byId("student-task").textContent = `${ACTIVITY[view.activity]} One tap plays a whole game; every game you finish goes on the class's screen. ${me ? `You have finished ${count(me.games, "game", "games")}.` : ""}`;
      play.textContent = "Play a game";
      play.disabled = false;
    }
  });
  play.addEventListener("click", async () => {
    play.disabled = true;
    try {
      if (current?.activity === "together") {
        await api("POST", `/api/classrooms/${id}/roll`, {}, student.token);
      } else {
        const done = await playOwnGame(student, (matchId) => refreshPicture(board, `/api/matches/${matchId}/svg`));
        result.textContent =
          current?.activity === "bot"
            ? overWords(done.view, (seat) => (seat === 1 ? "You" : "The bot"))
            : `You finished in ${count(done.view.moves, "roll", "rolls")}.`;
      }
    } catch (e) {
      say(e.message);
    } finally {
      if (current?.activity !== "together") play.disabled = false;
    }
  });
}

function drawTogetherForStudent(view, team) {
  const t = view.together;
  if (!t) return;
  if (togetherId === t.match) return;
  togetherId = t.match;
  if (togetherWatch) togetherWatch.close();
  togetherWatch = watchMatch(t.match, (m) => {
    const play = byId("student-play");
    play.disabled = m.to_move !== team;
    byId("student-result").textContent = m.to_move
      ? m.to_move === team
        ? "Your team's turn: roll!"
        : `Team ${m.to_move}'s turn.`
      : overWords(m, (seat) => (seat === team ? "Your team" : `Team ${seat}`));
    refreshPicture(byId("student-board"), `/api/matches/${t.match}/svg`);
  });
}

// ---------------------------------------------------------------------------

function start() {
  if (!id) {
    showOpen();
    return;
  }
  let teacher = stored("teacher");
  if (!teacher) {
    try {
      teacher = JSON.parse(sessionStorage.getItem(key("teacher")) || "null");
    } catch {
      teacher = null;
    }
  }
  if (teacher) {
    showBoard(teacher);
    return;
  }
  const student = stored("student");
  if (student) {
    showStudent(student);
  } else if (new URLSearchParams(location.search).has("watch")) {
    showBoard(null);
  } else {
    showJoin();
  }
}

start();
