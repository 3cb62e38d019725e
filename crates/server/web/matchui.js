// The parts every game's page shares around its board: choosing the seats,
// inviting people, following the match live, stepping through a finished
// one, asking before a destructive action, and never dead-ending.
//
// Terms:
// - seat plan: how a seat is filled when a match is made: "here" (a person
//   at this screen), "open" (a friend, by invite link), "anyone" (whoever
//   takes it from the lobby), or a bot: "easy", "normal", "hard".
// - host: the device that made the match; it holds the "here" seats and the
//   open seats' invite links.
// - spectator: a device holding no seat; it watches.
// Each component draws into the container it is given (replacing what is
// there) and holds no game rule: it reads the match view (match.js).
import { el, api, ApiFailure, allGames, storedName, storeName, showPicture, NAME_MAX } from "/static/common.js";
import { myMatches, pageUrl, storedMatch, forgetMatch, matchIdFromPath, openFailure } from "/static/match.js";
import { keepReadable } from "/static/readable.js";

/** Each game's name, as people say it: the registry's titles (GET /api/games). */
export const GAME_NAMES = Object.fromEntries((await allGames()).map((g) => [g.name, g.title]));

/** Each seat plan in words, in the order the choosers offer them. */
export const PLAN_NAMES = {
  here: "Here (this screen)",
  open: "A friend (invite link)",
  anyone: "Anyone (the lobby)",
  easy: "Easy bot",
  normal: "Normal bot",
  hard: "Hard bot",
  bot: "Bot",
};


let serial = 0;
/** An id no other element of the page has. */
function uid(prefix) {
  serial += 1;
  return `${prefix}-${serial}`;
}

function gameName(game) {
  return GAME_NAMES[game] || game;
}

// ---------------------------------------------------------------------------
// Seats

/**
 * A select per seat, each offering the seat plans. `count` fixes the number
 * of seats; `min`/`max` add a "Players" select (`initial` seats at first,
 * else as many as `defaults` names); `defaults` is the plan of each seat
 * (the first choice when none); `choices` limits the plans offered (by
 * default the people's three and the bot's levels, or one "Bot" when
 * `botLevels` is false: the registry's word that the game's bot has no
 * choice to make); `seatName(n)` names seat n ("Player n"); `legend` titles
 * the group ("Seats"); `onChange(plans)` hears every change. Returns
 * {element, plans(), count(), setCount(n)}: plans() gives one plan per
 * seat in play.
 */
export function seatChooser(container, options = {}) {
  const { game = "game", defaults = [], onChange = () => {} } = options;
  const bots = options.botLevels === false ? ["bot"] : ["easy", "normal", "hard"];
  const choices = options.choices || ["here", "open", "anyone", ...bots];
  const min = options.count ?? options.min ?? 1;
  const max = options.count ?? options.max ?? Math.max(min, defaults.length || 1);
  const seatName = options.seatName || ((n) => `Player ${n}`);
  let seats = Math.min(max, Math.max(min, options.initial ?? (defaults.length || min)));

  const legend = el("legend", {}, options.legend || "Seats");
  const fieldset = el("fieldset", { class: "seat-chooser" }, legend);
  fieldset.append(nameField(`${game}-your-name`));
  let countSelect = null;
  if (max > min) {
    const id = `${game}-players`;
    countSelect = el("select", { id, class: "seat-count" });
    for (let n = min; n <= max; n += 1) {
      countSelect.append(el("option", { value: n, selected: n === seats }, n === 1 ? "1 player" : `${n} players`));
    }
    fieldset.append(el("div", { class: "seat-row" }, el("label", { for: id }, "Players"), countSelect));
  }
  const rows = [];
  const selects = [];
  for (let n = 1; n <= max; n += 1) {
    const id = `${game}-seat-${n}`;
    const select = el("select", { id, class: "seat-plan", "data-seat": n });
    const wanted = defaults[n - 1] || choices[0];
    for (const plan of choices) {
      select.append(el("option", { value: plan, selected: plan === wanted }, PLAN_NAMES[plan] || plan));
    }
    const row = el("div", { class: "seat-row" }, el("label", { for: id }, seatName(n)), select);
    rows.push(row);
    selects.push(select);
    fieldset.append(row);
  }
  const help = el("p", { class: "note seat-help" });
  fieldset.append(help);

  const plans = () => selects.slice(0, seats).map((s) => s.value);
  function show() {
    rows.forEach((row, i) => {
      row.hidden = i >= seats;
    });
    const p = plans();
    const words = [];
    if (p.includes("open")) words.push("each friend's seat gets an invite link to send once the game is made");
    if (p.includes("anyone")) words.push("a seat for anyone is listed in the lobby until someone takes it");
    help.textContent = words.length ? `${words.join("; ")}.`.replace(/^./, (c) => c.toUpperCase()) : "";
  }
  for (const select of selects) {
    select.addEventListener("change", () => {
      show();
      onChange(plans());
    });
  }
  if (countSelect) {
    countSelect.addEventListener("change", () => {
      seats = Number(countSelect.value);
      show();
      onChange(plans());
    });
  }
  show();
  container.replaceChildren(fieldset);
  return {
    element: fieldset,
    plans,
    count: () => seats,
    setCount(n) {
      seats = Math.min(max, Math.max(min, n));
      if (countSelect) countSelect.value = String(seats);
      show();
    },
  };
}

/**
 * "Your name": what others see for this browser's player, kept in the
 * browser and sent with each game made or joined here.
 */
function nameField(id) {
  const input = el("input", {
    type: "text",
    id,
    class: "your-name",
    maxlength: NAME_MAX,
    autocomplete: "nickname",
    spellcheck: "false",
    value: storedName(),
    "aria-describedby": `${id}-note`,
  });
  input.addEventListener("input", () => storeName(input.value));
  input.addEventListener("change", () => {
    storeName(input.value);
    input.value = storedName();
  });
  return el(
    "div",
    { class: "seat-row name-row" },
    el("label", { for: id }, "Your name"),
    input,
    el("p", { class: "note", id: `${id}-note` }, "Others see it beside your seat (up to 24 characters; kept in this browser)."),
  );
}

// ---------------------------------------------------------------------------
// Copying

/** Copies `text`; resolves true when it reached the clipboard. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard (an insecure origin, a refusal): select a field instead.
    const field = el("textarea", { class: "offscreen", "aria-hidden": "true", tabindex: "-1" });
    field.value = text;
    document.body.append(field);
    field.select();
    let done = false;
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
    field.remove();
    return done;
  }
}

/**
 * A read-only link field with a Copy button (which says "Copied" a moment);
 * `said` tells the result; `key` names them for the focus to find them
 * again after a redraw; `options.qr` adds the link as a QR code, drawn in
 * the page (an invite's secret is after `#`: it never reaches a server).
 */
function linkField(label, url, said, key, options = {}) {
  const id = uid("link");
  const input = el("input", { type: "text", id, readonly: true, value: url, class: "link-field", "data-key": `${key}-link` });
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { type: "button", class: "secondary copy", "data-key": `${key}-copy`, "aria-label": `Copy the ${label[0].toLowerCase()}${label.slice(1)}` }, "Copy");
  copy.addEventListener("click", async () => {
    const done = await copyText(url);
    said.textContent = done ? `${label}: copied.` : `${label}: select the link and copy it.`;
    if (done) {
      copy.textContent = "Copied";
      copy.classList.add("copied");
      setTimeout(() => {
        copy.textContent = "Copy";
        copy.classList.remove("copied");
      }, 2000);
    }
    if (!done) input.select();
  });
  const row = el("div", { class: "link-row" }, el("label", { for: id }, label), el("div", { class: "link-line" }, input, copy));
  if (options.qr) {
    row.append(
      el(
        "details",
        { class: "qr", "data-key": `${key}-qr` },
        el("summary", { "data-key": `${key}-qr-summary` }, "Show a QR code (for a phone's camera)"),
        qrPicture(url, `QR code of the ${label[0].toLowerCase()}${label.slice(1)}`),
        loopbackNote(),
      ),
    );
  }
  return { input, copy, row };
}

/**
 * On an address only this computer reaches (localhost, 127.x, [::1]), a
 * note beside the QR code that a phone cannot open it, and how to share
 * on the home network; nothing otherwise.
 */
function loopbackNote() {
  const host = location.hostname;
  if (!(host === "localhost" || host.startsWith("127.") || host === "[::1]" || host === "::1")) return null;
  return el(
    "p",
    { class: "note loopback" },
    `This link names ${host}, which only this computer opens: a phone cannot. To play across the room, ` +
      "start Parlor with parlor serve --addr 0.0.0.0:8080 and open it by this computer's address on your home network " +
      "(such as http://192.168.1.20:8080), then invite again.",
  );
}

const SVG = "http://www.w3.org/2000/svg";

/** Drawn QR codes by link: a redraw of the panel asks the server once. */
const qrDrawn = new Map();

/**
 * `text` as a QR code, drawn by the server (`POST /api/qr`: the qrcode
 * crate, black on white with its quiet zone, for any camera; the link goes
 * in the body, never an address that a log keeps). Returns its figure at
 * once; the picture fills it when it comes, or a sentence says it could
 * not be drawn (the link above still works).
 */
export function qrPicture(text, label) {
  const figure = el("figure", { class: "qr-figure", role: "img", "aria-label": label });
  const fill = (svgText) => {
    const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") throw new Error("not a picture");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("class", "qr-code");
    svg.setAttribute("aria-hidden", "true");
    figure.replaceChildren(document.importNode(svg, true));
  };
  let drawn = qrDrawn.get(text);
  if (!drawn) {
    drawn = fetch("/api/qr", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text }),
    }).then((answer) => {
      if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
      return answer.text();
    });
    qrDrawn.set(text, drawn);
    drawn.catch(() => qrDrawn.delete(text));
  }
  drawn.then(fill).catch(() => {
    figure.replaceChildren(el("p", { class: "note" }, "The QR code could not be drawn: share the link above instead."));
  });
  return figure;
}

// ---------------------------------------------------------------------------
// Seats and invites of a match

/**
 * Each seat's state (whose it is, waiting for a friend or for anyone, a
 * bot), and: for the maker, each open seat's invite link with Copy, a QR
 * code and "New link"; for a spectator, "You are watching" and the lobby's
 * link; a seat for anyone can be taken here. For a player: a way to give
 * their name if they have none, turn alerts while the game is on
 * (turnAlerts), and once it is over the result in the match's words with
 * "Play again" (the rematch: one click, for every player). For everyone,
 * once a rematch is made, a way to it. `options.seatName(n)` names seat n
 * (by default the player's name). Returns {element, update()}: call
 * update() after each change.
 */
export function invitePanel(container, match, options = {}) {
  const seatName = options.seatName || ((n) => playerName(match.view, n));
  const headingId = uid("seats-heading");
  const root = el("section", { class: "invite-panel", "aria-labelledby": headingId });
  const said = el("p", { class: "note", role: "status", "aria-live": "polite" });
  container.replaceChildren(root);
  let busy = false;

  function seatLine(player, view) {
    const name = el("strong", {}, seatName(player.seat));
    const li = el("li", { class: "seat", "data-seat": player.seat, "data-state": player.state || player.kind });
    if (player.kind === "bot") {
      li.append(name, ": a bot, playing on the server");
      return li;
    }
    const on = view.status === "playing";
    switch (player.state) {
      case "here":
        li.append(name, ": ", player.yours ? "you, at this screen" : "at the maker's screen");
        break;
      case "taken":
        li.append(name, ": ", player.yours ? "you, on this device" : "taken");
        break;
      case "open": {
        li.append(name, ": ", on ? "waiting for a friend" : "nobody came");
        const invite = match.inviteLinks().find((i) => i.seat === player.seat);
        if (on && view.host && invite) {
          const field = linkField(`Invite link for ${seatName(player.seat)}`, invite.url, said, `seat${player.seat}`, { qr: true });
          const renew = el(
            "button",
            { type: "button", class: "secondary renew", "data-key": `seat${player.seat}-renew`, "aria-label": `New invite link for ${seatName(player.seat)}` },
            "New link",
          );
          renew.addEventListener("click", () => newLink(player.seat, renew));
          field.row.querySelector(".link-line").append(renew);
          li.append(field.row);
        } else if (on && view.host) {
          const renew = el("button", { type: "button", class: "secondary renew", "data-key": `seat${player.seat}-renew` }, "Make an invite link");
          renew.addEventListener("click", () => newLink(player.seat, renew, false));
          li.append(" ", renew);
        }
        break;
      }
      case "anyone": {
        li.append(name, ": ", on ? "waiting for anyone (listed in the " : "nobody came");
        if (on) {
          li.append(el("a", { href: "/lobby" }, "lobby"), ")");
          const take = el("button", { type: "button", class: "take", "data-key": `seat${player.seat}-take` }, `Take ${seatName(player.seat)}'s seat`);
          take.addEventListener("click", () => takeSeat(player.seat, take));
          li.append(" ", take);
        }
        break;
      }
      default:
        li.append(name, player.yours ? ": you" : "");
    }
    return li;
  }

  async function newLink(seat, button, ask = true) {
    if (busy) return;
    if (
      ask &&
      !(await confirmAction(`Make a new invite link for ${seatName(seat)}? The link sent before stops working.`, {
        confirm: "Make a new link",
        cancel: "Keep the old link",
      }))
    ) {
      return;
    }
    busy = true;
    button.disabled = true;
    try {
      await match.reinvite(seat);
      said.textContent = `A new invite link for ${seatName(seat)} is ready; the old one no longer works.`;
    } catch (e) {
      said.textContent = `No new link: ${e.message}.`;
      if (e instanceof ApiFailure && e.code === "seat_taken") await match.refresh().catch(() => {});
    } finally {
      busy = false;
      update();
    }
  }

  async function takeSeat(seat, button) {
    if (busy) return;
    busy = true;
    button.disabled = true;
    try {
      await match.join(seat);
      said.textContent = `You have ${seatName(seat)}'s seat, on this device.`;
    } catch (e) {
      said.textContent =
        e instanceof ApiFailure && e.code === "seat_taken"
          ? "Someone took that seat first: you can watch."
          : `Could not take the seat: ${e.message}.`;
      await match.refresh().catch(() => {});
    } finally {
      busy = false;
      update();
    }
  }

  async function playAgain(button) {
    if (busy) return;
    busy = true;
    button.disabled = true;
    said.textContent = "Setting up the rematch…";
    try {
      const made = await match.rematch();
      location.assign(made.url);
    } catch (e) {
      said.textContent = `No rematch: ${e.message}.`;
      button.disabled = false;
    } finally {
      busy = false;
    }
  }

  async function saveName(input, seat, button) {
    if (busy) return;
    const name = input.value.trim();
    if (!name) {
      said.textContent = "Type a name first.";
      input.focus();
      return;
    }
    busy = true;
    button.disabled = true;
    try {
      await match.setName(seat, name);
      storeName(name);
      said.textContent = `Others now see you as ${name}.`;
    } catch (e) {
      said.textContent = `That name is not taken: ${e.message}.`;
      button.disabled = false;
    } finally {
      busy = false;
      update();
    }
  }

  /** The end in the match's own words, and the way to play again. */
  function resultBlock(view, mine) {
    const block = el("div", { class: "result", "data-outcome": view.result.you_won === true ? "won" : view.result.you_won === false ? "lost" : "over" });
    block.append(el("p", { class: "result-words" }, view.result.words));
    if (mine.length > 0) {
      const again = el(
        "button",
        { type: "button", class: "play-again", "data-key": "play-again" },
        view.rematch ? "Join the rematch" : "Play again",
      );
      again.addEventListener("click", () => playAgain(again));
      block.append(
        el(
          "p",
          { class: "note" },
          view.rematch
            ? "A rematch is set up for the same players: one click takes you to it."
            : "Play again: the same players (the next one starts), a new game.",
        ),
        again,
      );
    } else if (view.rematch) {
      block.append(el("p", {}, el("a", { href: pageUrl(match.game, view.rematch), "data-key": "watch-rematch" }, "Watch the rematch")));
    }
    return block;
  }

  /** For a player with no name yet: a way to give one (kept in this browser). */
  function nameBlock(seat) {
    const id = uid("name");
    const input = el("input", { type: "text", id, maxlength: NAME_MAX, autocomplete: "nickname", spellcheck: "false", value: storedName(), "data-key": "name-input" });
    const save = el("button", { type: "button", class: "secondary", "data-key": "name-save" }, "Save");
    save.addEventListener("click", () => saveName(input, seat, save));
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") saveName(input, seat, save);
    });
    return el(
      "div",
      { class: "name-ask" },
      el("label", { for: id }, "Your name, for the others"),
      el("div", { class: "link-line" }, input, save),
    );
  }

  const alerts = turnAlerts(match);
  // "Bo joined": said when a friend's or anyone's seat is taken, kept
  // across the panel's redraws.
  const joined = el("p", { class: "joined", role: "status", "aria-live": "polite", "data-key": "joined" });
  /** Each seat's name once it was told taken (seats taken before this page came are not told). */
  let told = null;

  function noteJoined(view) {
    const players = view.players || [];
    const taken = (p) => p.kind !== "bot" && p.state === "taken" && !p.yours;
    if (told === null) {
      told = new Map(players.filter(taken).map((p) => [p.seat, p.name]));
      return;
    }
    // Newly taken, or named just after (a rename later is not a joining).
    const fresh = (p) => !told.has(p.seat) || (told.get(p.seat) === `Player ${p.seat}` && p.name !== told.get(p.seat));
    const news = players.filter((p) => taken(p) && fresh(p));
    for (const p of players.filter(taken)) told.set(p.seat, p.name);
    if (news.length && view.status === "playing") joined.textContent = `${news.map((p) => p.name).join(" and ")} joined.`;
  }

  let drawn = null;
  function update() {
    const view = match.view;
    if (!view) return;
    alerts.update();
    noteJoined(view);
    // Redrawn only when something it shows changed, so that a move does
    // not take the focus from a Copy button.
    const signature = JSON.stringify([view.status, view.host, view.players, match.inviteLinks(), view.result, view.rematch]);
    if (signature === drawn) return;
    drawn = signature;
    const mine = match.mySeats();
    const parts = [el("h2", { id: headingId }, "Players")];
    if (view.result) parts.push(resultBlock(view, mine));
    // Asked only where someone else reads it: not in a game against bots alone.
    const others = (view.players || []).some((p) => p.seat !== mine[0] && p.kind !== "bot");
    const unnamed = mine.length === 1 && others && view.status === "playing" && (view.players || [])[mine[0] - 1]?.name === `Player ${mine[0]}`;
    if (unnamed) parts.push(nameBlock(mine[0]));
    if (mine.length === 0) {
      parts.push(
        el(
          "p",
          { class: "watching" },
          view.status === "playing" ? "You are watching this game. " : "You watched this game. ",
          "To play, start a game or find one in the ",
          el("a", { href: "/lobby" }, "lobby"),
          ".",
        ),
      );
    }
    const hasInvites = view.host && (view.players || []).some((p) => p.state === "open") && view.status === "playing";
    if (hasInvites) {
      parts.push(el("p", { class: "note" }, "Send each friend their seat's link: whoever opens it first takes the seat."));
    }
    if (joined.textContent) parts.push(joined);
    parts.push(el("ul", { class: "seats" }, (view.players || []).map((p) => seatLine(p, view))));
    if (mine.length > 0 && view.status === "playing") parts.push(alerts.element);
    const watch = linkField("Link to watch", `${location.origin}${pageUrl(match.game, match.id)}`, said, "watch");
    parts.push(el("details", { class: "watch-link" }, el("summary", { "data-key": "watch-summary" }, "Share this game to watch"), watch.row));
    parts.push(said);
    const focused = root.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? focused.dataset.key || "heading" : null;
    const wasOpen = root.querySelector("details.watch-link")?.open;
    root.replaceChildren(...parts);
    if (wasOpen || focusKey === "watch-link" || focusKey === "watch-copy") root.querySelector("details.watch-link").open = true;
    if (focusKey) {
      const again = root.querySelector(`[data-key="${focusKey}"]`);
      if (again && !again.disabled) {
        again.focus();
      } else {
        const heading = root.querySelector("h2");
        heading.setAttribute("tabindex", "-1");
        heading.focus();
      }
    }
  }

  update();
  return { element: root, update };
}

/** An event's words (the server's, the players named: "Ada rolls 4 and moves from 0 to 4") as a sentence. */
export function sentence(text) {
  const t = String(text || "").trim();
  if (!t) return "";
  const said = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

/** A move's events' words (the server's, the players named) as sentences: "Ada's 2nd turn. Ada rolls 1." */
export function sentences(texts) {
  return (texts || []).filter(Boolean).map(sentence).join(" ");
}

/** A touch screen with no keyboard to speak of: notes about keys are not shown. */
const TOUCH = matchMedia("(pointer: coarse) and (hover: none)");

/** Each seat's colour (from 1) in the match shown: a rematch keeps each person's. */
let colours = [];

/** Takes the colours of `view`'s players (the shell calls it as each view comes). */
export function noteColours(view) {
  const players = (view && view.players) || [];
  if (players.length) colours = players.map((p) => p.colour || p.seat);
}

/** Seat `seat`'s colour (from 1: the pages' classes p1 … p8). */
export function colourOf(seat) {
  return colours[seat - 1] || seat;
}

/** Seat `n`'s name as the match view gives it ("Player n" before there is one). */
export function playerName(view, n) {
  const player = ((view && view.players) || [])[n - 1];
  return (player && player.name) || `Player ${n}`;
}

// ---------------------------------------------------------------------------
// Turn alerts

const TURN_PREFIX = "Your turn · ";

/** A setting kept in the browser: "on" or not. */
function setting(key) {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

function keep(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // No storage: the setting lasts this page only.
  }
}

/** The favicon with a mark: it is this player's turn in a hidden tab. */
const MARKED_ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#23313f"/>' +
      '<text x="32" y="44" font-size="36" text-anchor="middle" fill="#fff" font-family="sans-serif">P</text>' +
      '<circle cx="50" cy="14" r="13" fill="#d62728" stroke="#fff" stroke-width="3"/></svg>',
  );

/**
 * Tells a player when it is their turn: the page's title begins with
 * "Your turn" exactly while it is; in a hidden tab the favicon shows a
 * mark; a short sound (off by default, remembered) and a browser
 * notification (if the player allows it) as the turn comes. Returns
 * {element: the settings, update()}.
 */
export function turnAlerts(match) {
  const soundId = uid("sound");
  const sound = el("input", { type: "checkbox", id: soundId, checked: setting("parlor.sound"), "data-key": "alert-sound" });
  sound.addEventListener("change", () => keep("parlor.sound", sound.checked));
  const notify = el("button", { type: "button", class: "secondary", "data-key": "alert-notify" }, "Notify me when it is my turn");
  const notifySaid = el("span", { class: "note" });
  const canNotify = typeof Notification !== "undefined";
  notify.hidden = !canNotify || Notification.permission === "granted";
  notify.addEventListener("click", async () => {
    const answer = await Notification.requestPermission().catch(() => "denied");
    keep("parlor.notify", answer === "granted");
    notify.hidden = answer === "granted";
    notifySaid.textContent = answer === "granted" ? "You will be notified when this tab is hidden." : "Notifications are off in this browser.";
  });
  const element = el(
    "details",
    { class: "alerts" },
    el("summary", { "data-key": "alerts-summary" }, "Turn alerts"),
    el("div", { class: "alert-row" }, sound, el("label", { for: soundId }, "A sound when it is my turn")),
    el("div", { class: "alert-row" }, notify, notifySaid),
  );
  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = icon ? icon.getAttribute("href") : null;
  let wasMine = null;

  function showIcon() {
    if (!icon) return;
    const mark = document.hidden && wasMine;
    icon.setAttribute("href", mark ? MARKED_ICON : plainIcon);
  }
  document.addEventListener("visibilitychange", showIcon);

  function chime() {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
      tone.addEventListener("ended", () => audio.close());
    } catch {
      // No sound to be had: the title and the icon still say it.
    }
  }

  function update() {
    const view = match.view;
    const mine = Boolean(view) && view.status === "playing" && match.myTurn();
    const base = document.title.startsWith(TURN_PREFIX) ? document.title.slice(TURN_PREFIX.length) : document.title;
    document.title = mine ? TURN_PREFIX + base : base;
    if (mine && wasMine === false) {
      if (setting("parlor.sound")) chime();
      if (document.hidden && canNotify && Notification.permission === "granted" && setting("parlor.notify")) {
        try {
          new Notification("Your turn", { body: base, tag: `parlor-${match.id}` });
        } catch {
          // A browser that notifies only from a service worker.
        }
      }
    }
    wasMine = mine;
    showIcon();
  }
  return { element, update };
}

// ---------------------------------------------------------------------------
// A game that is not there

/**
 * Says what happened (`message`: words, or the error that opening the match
 * gave) and offers a way on: a new game of `game`, the lobby, the games
 * this device holds. An unknown or expired match is forgotten on this
 * device. Focuses its heading so that it is read out.
 */
export function gonePanel(container, game, message) {
  let words = message;
  if (message instanceof Error) {
    words = openFailure(message);
    const id = matchIdFromPath();
    if (id && message instanceof ApiFailure && message.code === "no_match") forgetMatch(id);
  }
  const headingId = uid("gone");
  const heading = el("h2", { id: headingId, tabindex: "-1" }, "This game is not here");
  const links = el("div", { class: "buttons" });
  if (game && GAME_NAMES[game]) {
    links.append(el("a", { class: "button", href: `/${game}` }, `Start a new game of ${gameName(game)}`));
  }
  links.append(el("a", { class: "button secondary", href: "/lobby" }, "Find a game in the lobby"));
  links.append(el("a", { class: "button secondary", href: "/#your-games" }, "Your games"));
  const panel = el(
    "section",
    { class: "panel gone-panel", role: "alert", "aria-labelledby": headingId },
    heading,
    el("p", { class: "gone-message" }, words || "This game cannot be found."),
    links,
  );
  container.replaceChildren(panel);
  heading.focus();
  return { element: panel };
}

// ---------------------------------------------------------------------------
// Replays

/**
 * For a finished match: first / previous / next / last, "Move N of M", the
 * arrow keys (← →, Home, End) while the bar has the focus, and "Download
 * the record". `onStep(step)` draws each step: {at, moves, played, view},
 * the server's replay (played: the N-th move, none at 0). The bar starts
 * at the end, as the page already shows it. Returns {element, at(),
 * go(n)}.
 */
export function replayBar(container, match, onStep) {
  const total = match.view.moves;
  let at = total;
  let wanted = total;
  let loading = false;
  const labelId = uid("replay");
  const button = (cls, text, label, keys) =>
    el("button", { type: "button", class: `secondary ${cls}`, "aria-label": label, "aria-keyshortcuts": keys, title: label }, text);
  const first = button("first", "« First", "First move", "Home");
  const prev = button("prev", "‹ Previous", "Previous move", "ArrowLeft");
  const next = button("next", "Next ›", "Next move", "ArrowRight");
  const last = button("last", "Last »", "Last move", "End");
  const position = el("span", { class: "replay-position", "aria-hidden": "true" });
  const said = el("p", { class: "replay-said", role: "status", "aria-live": "polite" });
  const record = el(
    "a",
    { class: "button secondary record", href: match.recordUrl(), download: `${match.game}-${match.id}.json` },
    "Download the record",
  );
  const bar = el(
    "div",
    { class: "replay-buttons", role: "toolbar", "aria-labelledby": labelId, "aria-controls": container.id || null },
    first,
    prev,
    position,
    next,
    last,
  );
  const root = el(
    "section",
    { class: "replay-bar", "aria-labelledby": labelId },
    el("h2", { id: labelId }, "Replay"),
    bar,
    said,
    el("p", { class: "note keys-note", hidden: TOUCH.matches }, "Step through the game with ← and →, Home and End (while the bar has the focus)."),
    el("div", { class: "buttons" }, record),
  );
  container.replaceChildren(root);

  function show(step) {
    position.textContent = `Move ${at} of ${total}`;
    // aria-disabled, not disabled: the button keeps the focus, so that the
    // arrow keys still work at either end.
    for (const b of [first, prev]) b.setAttribute("aria-disabled", String(at === 0));
    for (const b of [next, last]) b.setAttribute("aria-disabled", String(at === total));
    let words = `Move ${at} of ${total}`;
    if (at === 0) words += ": the start";
    const played = step && step.played;
    const texts = played && played.events ? played.events.map((e) => e.text).filter(Boolean) : [];
    if (texts.length) words += `: ${sentences(texts)}`;
    said.textContent = words;
    root.dataset.at = String(at);
  }

  async function load() {
    if (loading) return;
    loading = true;
    root.setAttribute("aria-busy", "true");
    try {
      while (wanted !== at || !root.dataset.at) {
        const target = wanted;
        const step = await match.replay(target);
        at = target;
        if (wanted === target) {
          show(step);
          onStep(step);
        }
      }
    } catch (e) {
      said.textContent = `This step cannot be shown: ${e.message}.`;
      wanted = at;
    } finally {
      loading = false;
      root.removeAttribute("aria-busy");
    }
  }

  function go(n) {
    wanted = Math.max(0, Math.min(total, n));
    if (wanted === at && !loading) return;
    load();
  }

  first.addEventListener("click", () => go(0));
  prev.addEventListener("click", () => go(wanted - 1));
  next.addEventListener("click", () => go(wanted + 1));
  last.addEventListener("click", () => go(total));
  bar.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: total };
    if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go(moves[event.key]);
  });
  show(null);
  said.textContent = `Move ${total} of ${total}: the end.`;
  return { element: root, at: () => at, go };
}

// ---------------------------------------------------------------------------
// The move list

/**
 * Every move the match's log holds, numbered, each with its player's name
 * and what it did, the newest in view. It is one keyboard stop: ↑ and ↓
 * (Home, End) choose a move, Enter shows it, Escape comes back to now.
 * While the game is on, a move is shown as the board then, as anyone could
 * see it at the time (the server's picture of that step: no seed, no
 * unfound mirror), above the list, with "Back to now". Once it is over,
 * `options.onPick(n)` drives the page's own replay instead.
 *
 * Options: `listId` and `listClass` (the list's id and class), `words(move)` (a line's words, from
 * {number, seat, texts}; by default the player's name and the texts),
 * `lineClass(move)` (a line's class, from the move as played, with its
 * events, or as the log has it), and `append`: the list grows as the page
 * shows each move (`add(played)`, one fragment per call, nothing redrawn),
 * and is read again from the match's log only when the view has moves the
 * page was not shown (a reconnection) or its players' names changed.
 * Returns {element, update(), add(played), showAt(n), now()}: call update()
 * after each change.
 */
export function moveList(container, match, options = {}) {
  const headingId = uid("moves");
  const listId = uid("move-list");
  const list = el("ol", {
    id: options.listId || listId,
    class: options.listClass ? `moves ${options.listClass}` : "moves",
    role: "listbox",
    tabindex: "0",
    "aria-labelledby": headingId,
    "data-key": "move-list",
  });
  const earlier = el("p", { class: "note earlier" });
  const none = el("p", { class: "note" }, "No move yet.");
  const picture = el("div", { class: "look-back-picture" });
  const caption = el("figcaption", {});
  const back = el("button", { type: "button", class: "secondary back-to-now", "aria-keyshortcuts": "Escape" }, "Back to now");
  const figure = el("figure", { class: "look-back", hidden: true }, picture, el("div", { class: "look-back-caption" }, caption, back));
  const root = el(
    "section",
    { class: "move-list", "aria-labelledby": headingId },
    el("h2", { id: headingId }, "Moves"),
    figure,
    earlier,
    none,
    list,
    el("p", { class: "note keys-note", hidden: TOUCH.matches }, "↑ and ↓ choose a move, Enter shows the board then, Esc comes back to now."),
  );
  container.replaceChildren(root);
  let active = null;
  let shown = null;
  let drawn = null;
  /** In append mode, the last move with a line. */
  let lastLine = 0;

  /** Each move of the log: {number, seat, texts}. */
  function moves() {
    const byNumber = new Map();
    for (const line of match.view.log || []) {
      if (!byNumber.has(line.number)) byNumber.set(line.number, { number: line.number, seat: line.seat, texts: [] });
      byNumber.get(line.number).texts.push(line.text);
    }
    return [...byNumber.values()];
  }

  function words(move) {
    if (options.words) return options.words(move);
    return sentences(move.texts);
  }

  function optionId(n) {
    return `${listId}-${n}`;
  }

  /** One move's line: its number, its player's colour, its words. */
  function line(move) {
    const cls = options.lineClass ? options.lineClass(move) : "";
    return el(
      "li",
      { id: optionId(move.number), role: "option", class: cls || null, "data-move": move.number, "data-seat": move.seat, "aria-selected": "false" },
      el("span", { class: "n" }, `${move.number}.`),
      el("span", { class: `swatch p${colourOf(move.seat)}`, "aria-hidden": "true" }),
      " ",
      el("span", { class: "words" }, words(move)),
    );
  }

  /** Scrolls the list, never the page, so that `item` is in view. */
  function reveal(item) {
    const box = list.getBoundingClientRect();
    const at = item.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  }

  function showEmpty(any) {
    // An empty listbox is not one: the list shows once there is a move.
    list.hidden = !any;
    none.hidden = any;
  }

  function mark() {
    for (const item of list.children) {
      const n = Number(item.dataset.move);
      item.setAttribute("aria-selected", String(n === active));
      item.classList.toggle("shown", n === shown);
    }
    if (active === null) list.removeAttribute("aria-activedescendant");
    else list.setAttribute("aria-activedescendant", optionId(active));
    const item = active === null ? (shown === null ? null : document.getElementById(optionId(shown))) : document.getElementById(optionId(active));
    if (item) reveal(item);
  }

  function pick(n) {
    active = n;
    const move = moves().find((m) => m.number === n);
    if (match.view.status !== "playing") {
      figure.hidden = true;
      shown = n;
      mark();
      if (options.onPick) options.onPick(n);
      return;
    }
    shown = n;
    showPicture(picture, `/api/matches/${match.id}/svg?at=${n}`, `The game after move ${n}${move ? `: ${words(move)}` : ""}`).then((shown) => {
      if (shown) keepReadable(picture.querySelector("svg"));
    });
    caption.textContent = `The game after move ${n} of ${match.view.moves}${move ? ` — ${words(move)}` : "."}`;
    figure.hidden = false;
    root.dataset.lookingAt = String(n);
    mark();
  }

  function now() {
    shown = null;
    active = null;
    figure.hidden = true;
    delete root.dataset.lookingAt;
    picture.replaceChildren();
    delete picture.dataset.picture;
    mark();
  }

  back.addEventListener("click", () => {
    now();
    list.focus();
  });
  list.addEventListener("click", (event) => {
    const item = event.target.closest("li[data-move]");
    if (item) pick(Number(item.dataset.move));
  });
  list.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const numbers = [...list.children].map((li) => Number(li.dataset.move));
    if (!numbers.length) return;
    const at = numbers.indexOf(active);
    const last = numbers.length - 1;
    const to = { ArrowUp: at < 0 ? last : Math.max(0, at - 1), ArrowDown: at < 0 ? last : Math.min(last, at + 1), Home: 0, End: last }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      active = numbers[to];
      mark();
    } else if ((event.key === "Enter" || event.key === " ") && active !== null) {
      event.preventDefault();
      pick(active);
    } else if (event.key === "Escape" && shown !== null) {
      event.preventDefault();
      now();
    }
  });

  /** Append mode: the lines of moves as they are shown (played: as the API tells them). */
  function add(played) {
    const lines = document.createDocumentFragment();
    for (const move of played || []) {
      if (move.number <= lastLine) continue;
      const texts = (move.events || []).map((e) => e.text).filter(Boolean);
      lines.append(line({ number: move.number, seat: move.seat, texts, events: move.events || [], bot: move.bot }));
      lastLine = move.number;
    }
    if (!lines.childNodes.length) return;
    list.append(lines);
    showEmpty(true);
    if (active === null) list.scrollTop = list.scrollHeight;
  }

  function update() {
    const view = match.view;
    if (!view) return;
    const names = (view.players || []).map((p) => p.name);
    // Append mode: the lines stay as shown unless moves were missed.
    const signature = options.append ? JSON.stringify([names]) : JSON.stringify([view.moves, view.status, names, moves().length]);
    const missed = options.append && view.moves !== lastLine;
    if (signature === drawn && missed && lastLine > 0) {
      // Moves not shown one by one (a skipped show, a reconnection): the
      // log's newest lines follow on when they join the lines kept;
      // else the list is drawn again from the log.
      const all = moves();
      if (all.length && all[0].number <= lastLine + 1) {
        add(all.filter((m) => m.number > lastLine).map((m) => ({ number: m.number, seat: m.seat, bot: m.bot, events: m.texts.map((text) => ({ text })) })));
        if (lastLine < view.moves) lastLine = view.moves;
        return;
      }
    }
    if (signature !== drawn || missed) {
      drawn = signature;
      const all = moves();
      const first = all.length ? all[0].number : view.moves + 1;
      earlier.textContent = first > 1 ? `Moves 1 to ${first - 1} are in the game's record.` : "";
      earlier.hidden = first <= 1;
      list.replaceChildren(...all.map(line));
      lastLine = all.length ? all[all.length - 1].number : 0;
      if (options.append && lastLine < view.moves) lastLine = view.moves;
      showEmpty(all.length > 0);
    } else if (options.append) {
      return;
    }
    // A look back at the game on stays open as moves come; once it is
    // over, the replay takes over.
    if (view.status !== "playing" && shown !== null && !figure.hidden) now();
    mark();
    if (active === null) list.scrollTop = list.scrollHeight;
    if (shown !== null && !figure.hidden) {
      const move = all.find((m) => m.number === shown);
      caption.textContent = `The game after move ${shown} of ${view.moves}${move ? ` — ${words(move)}` : "."}`;
    }
  }

  /** Marks the line of move `n` (a replay's step; null: none) without moving the page. */
  function showAt(n) {
    shown = n;
    for (const item of list.querySelectorAll("li.shown")) item.classList.remove("shown");
    const item = n === null ? null : document.getElementById(optionId(n));
    if (item) {
      item.classList.add("shown");
      reveal(item);
    }
  }

  update();
  return { element: root, update, add, showAt, now };
}

// ---------------------------------------------------------------------------
// The live connection

/**
 * "Live" or "Reconnecting…", in a polite live region, as the match's
 * server-sent events go (match.watch()). Returns {element, set(state)}.
 */
export function connectionStatus(container, match) {
  const dot = el("span", { class: "dot", "aria-hidden": "true" });
  const words = el("span", {});
  const root = el("p", { class: "connection", role: "status", "aria-live": "polite" }, dot, words);
  container.replaceChildren(root);
  let was = null;
  function set(state) {
    if (state === was) return;
    root.dataset.state = state;
    if (state === "live") {
      words.textContent = was === "reconnecting" ? "Live again: moves show as they are made." : "Live: moves show as they are made.";
    } else if (state === "reconnecting") {
      words.textContent = "Reconnecting… moves made meanwhile will show when the connection is back.";
    } else if (state === "sending") {
      words.textContent = "The server is not answering: your move is kept and sent again until it does.";
    } else {
      words.textContent = "";
    }
    was = state;
  }
  if (match && match.listenConnection) match.listenConnection(set);
  return { element: root, set };
}

// ---------------------------------------------------------------------------
// Asking first

let asking = null;

/**
 * Asks before a destructive action, in a modal <dialog>: `message` is the
 * question, `confirm` and `cancel` the buttons' words, `title` its heading
 * ("Are you sure?"); `danger: false` draws the confirm button plainly. The
 * confirm button (clicked, or Enter or Space on it: Tab reaches it from
 * Cancel) resolves true; Escape, Cancel or a click outside
 * resolves false (a click outside in the first 0.6 s does nothing: it is
 * the second click of the double click that opened the question). The
 * focus starts on Cancel (the safe answer) and goes back where it was.
 * While one is open, another resolves false.
 */
export function confirmAction(message, options = {}) {
  if (asking) return Promise.resolve(false);
  const { confirm = "Continue", cancel = "Cancel", title = "Are you sure?" } = options;
  const titleId = uid("confirm-title");
  const messageId = uid("confirm-message");
  const yes = el("button", { type: "submit", value: "yes", class: options.danger === false ? "" : "danger confirm" }, confirm);
  const no = el("button", { type: "submit", value: "no", class: "secondary cancel", autofocus: true }, cancel);
  const dialog = el(
    "dialog",
    { class: "confirm-dialog", "aria-labelledby": titleId, "aria-describedby": messageId },
    el(
      "form",
      { method: "dialog" },
      el("h2", { id: titleId }, title),
      el("p", { id: messageId }, message),
      el("div", { class: "buttons" }, no, yes),
    ),
  );
  const before = document.activeElement;
  document.body.append(dialog);
  asking = new Promise((resolve) => {
    // A click outside says no, but not in the first moments (the second
    // click of a double click that opened the question lands there), and
    // never takes the focus from the answer that has it.
    const opened = performance.now();
    dialog.addEventListener("mousedown", (event) => {
      if (event.target === dialog) event.preventDefault();
    });
    dialog.addEventListener("click", (event) => {
      if (event.target !== dialog || performance.now() - opened < 600) return;
      const r = dialog.getBoundingClientRect();
      const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
      if (!inside) dialog.close("no");
    });
    dialog.addEventListener("close", () => {
      const answer = dialog.returnValue === "yes";
      dialog.remove();
      asking = null;
      if (before && before.isConnected && typeof before.focus === "function") before.focus();
      resolve(answer);
    });
  });
  const answer = asking;
  dialog.showModal();
  no.focus();
  return answer;
}

// ---------------------------------------------------------------------------
// The games this device holds

function since(ms) {
  const minutes = Math.max(0, Math.round((Date.now() - ms) / 60000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.round(hours / 24);
  return `${days} days ago`;
}

/** A match's state in a few words, for this device. */
function stateWords(view) {
  if (view.status === "won") {
    const mine = (view.players || []).filter((p) => p.yours).map((p) => p.seat);
    return mine.includes(view.winner) ? "Finished: you won" : `Finished: Player ${view.winner} won`;
  }
  if (view.status === "given_up") return "Finished: given up";
  if (view.status === "stalled") return "Finished: stalled";
  if ((view.players || []).some((p) => p.state === "open" || p.state === "anyone")) {
    if (view.to_move != null && (view.players || []).some((p) => p.yours && p.seat === view.to_move)) return "Your turn";
    return "Waiting for players";
  }
  if (view.to_move != null && (view.players || []).some((p) => p.yours && p.seat === view.to_move)) return "Your turn";
  return `Player ${view.to_move}'s turn`;
}

/**
 * The list of the games this device holds a seat in (match.js's
 * myMatches()), newest first, each with its state asked of the server (a
 * game the server no longer has is said so, and can be removed), and a
 * "Remove" that asks first. `empty` is what to say when there are none.
 * Returns {element, refresh()}.
 */
export function yourGames(container, options = {}) {
  const limit = options.limit || 20;
  const list = el("ul", { class: "match-list your-games" });
  const said = el("p", { class: "note", role: "status", "aria-live": "polite" });
  container.replaceChildren(list, said);

  async function refresh() {
    const mine = myMatches().slice(0, limit);
    if (mine.length === 0) {
      list.replaceChildren(el("li", { class: "none note" }, options.empty || "None yet: a game you start or join shows here."));
      return;
    }
    list.replaceChildren(
      ...mine.map((m) => {
        const state = el("span", { class: "match-state" }, "…");
        const remove = el("button", { type: "button", class: "secondary remove", "aria-label": `Remove ${gameName(m.game)}, ${since(m.at)}, from this list` }, "Remove");
        remove.addEventListener("click", () => removeGame(m, remove));
        const li = el(
          "li",
          { class: "match", "data-match": m.id },
          el(
            "div",
            { class: "match-what" },
            el("a", { href: pageUrl(m.game, m.id) }, m.title || gameName(m.game)),
            el("div", { class: "note" }, state, ` · opened here ${since(m.at)}`),
          ),
          el("div", { class: "buttons" }, remove),
        );
        const token = (storedMatch(m.id) || {}).token;
        api("GET", `/api/matches/${m.id}`, undefined, token).then(
          (view) => {
            const people = (view.players || []).length;
            state.textContent = `${stateWords(view)} · ${people === 1 ? "1 player" : `${people} players`} · ${view.moves === 1 ? "1 move" : `${view.moves} moves`}`;
            li.dataset.state = view.status;
          },
          (e) => {
            state.textContent = e instanceof ApiFailure && e.code === "no_match" ? "Gone: expired or never kept" : "Cannot be read now";
            li.dataset.state = "gone";
          },
        );
        return li;
      }),
    );
  }

  async function removeGame(m, button) {
    const ok = await confirmAction(
      `Remove this ${gameName(m.game)} game from this device? Its seats can no longer be played from here (the game itself goes on).`,
      { confirm: "Remove", cancel: "Keep it", title: "Remove the game from this device?" },
    );
    if (!ok) return;
    button.disabled = true;
    forgetMatch(m.id);
    said.textContent = `Removed the ${gameName(m.game)} game from this device.`;
    await refresh();
    const next = list.querySelector("a, button");
    if (next) next.focus();
  }

  refresh();
  return { element: list, refresh };
}
