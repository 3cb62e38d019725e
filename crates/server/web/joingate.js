// The join gate: a friend opening an invite link first meets a big "Join
// Ada's game" with their name asked, and takes the seat with it. A device
// that holds the match already (its maker, a reload) goes straight in.
//
// Terms:
// - invite link: /GAME/m/ID#invite=SEAT.SECRET (match.js takes the seat).
// - inviter: the match's first named person at a screen (the maker), whose
//   name the gate shows; "a friend" when nobody is named.
import { api, el, storedName, storeName, NAME_MAX } from "/static/common.js";
import { storedMatch } from "/static/match.js";

const DEFAULT_NAME = /^Player \d+$/;

/** The name of whoever sent the invite, from a spectator's view of the match, or null. */
function inviterName(view) {
  const people = (view.players || []).filter((p) => p.kind !== "bot" && p.state !== "open" && p.state !== "anyone");
  const named = people.find((p) => p.name && !DEFAULT_NAME.test(p.name));
  return named ? named.name : null;
}

/**
 * When the address holds an invite and this device holds no seat of match
 * `id`: shows the gate in `container` (replacing what is there) and
 * resolves once the person chose to join (their name kept for match.js to
 * send), with true; resolves false at once when no gate is needed, or the
 * match cannot be read (opening it says why).
 */
export async function joinGate(container, id, title) {
  if (!/^#invite=\d+\.[0-9a-f]{32}$/.test(location.hash)) return false;
  if (storedMatch(id)?.token) return false;
  let view;
  try {
    view = await api("GET", `/api/matches/${id}`);
  } catch {
    return false;
  }
  if (view.status !== "playing") return false;
  const inviter = inviterName(view);
  const input = el("input", {
    type: "text",
    id: "join-name",
    maxlength: NAME_MAX,
    autocomplete: "nickname",
    spellcheck: "false",
    required: true,
    value: storedName(),
  });
  const said = el("p", { class: "error", role: "alert" });
  const join = el("button", { type: "submit", id: "join-game", class: "quick-main" }, "Join the game");
  const form = el(
    "form",
    { class: "join-gate panel", id: "join-gate", novalidate: true, "aria-labelledby": "join-heading" },
    el("h2", { id: "join-heading", class: "join-heading" }, inviter ? `Join ${inviter}'s game` : "Join the game"),
    el("p", { class: "lead" }, view.title || title),
    el("label", { for: "join-name" }, "Your name"),
    input,
    el("p", { class: "note" }, "The others see it beside your seat (kept in this browser)."),
    el("div", { class: "buttons" }, join),
    said,
  );
  container.replaceChildren(form);
  container.classList.add("joining");
  container.hidden = false;
  document.body.dataset.ready = "join";
  input.focus();
  await new Promise((resolve) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        said.textContent = "Type your name first: the others see it beside your seat.";
        input.focus();
        return;
      }
      storeName(name);
      resolve();
    });
  });
  container.replaceChildren();
  container.classList.remove("joining");
  container.hidden = true;
  return true;
}
