// The invite card: while a seat this device made waits for a friend, its
// invite link with Copy and its QR code, shown at once beside the board
// (the main thing to do until the friend comes), gone once the seat is
// taken. The Players panel keeps every seat's link too.
//
// Terms:
// - open seat: a seat waiting for whoever opens its invite link first.
// - host: the device that made the match; only it holds the invite links.
import { el } from "/static/common.js";
import { qrPicture, playerName } from "/static/matchui.js";

/** True when `host` names an address only this computer opens. */
function loopback(host) {
  return host === "localhost" || host.startsWith("127.") || host === "[::1]" || host === "::1";
}

/**
 * The invite card in `container` for match `match`. Returns {update()}:
 * call it after each change; the card hides itself when no seat of this
 * device's making waits.
 */
export function inviteCard(container, match) {
  let drawn = null;
  function update() {
    const view = match.view;
    const links = view && view.host && view.status === "playing" ? match.inviteLinks() : [];
    const signature = JSON.stringify(links);
    if (signature === drawn) return;
    drawn = signature;
    container.hidden = links.length === 0;
    if (!links.length) {
      container.replaceChildren();
      return;
    }
    const host = (view.players || []).find((p) => p.yours);
    const who = host ? playerName(view, host.seat) : "you";
    const parts = [el("h2", { class: "invite-card-heading", id: "invite-card-heading" }, links.length === 1 ? "Send this link to your friend" : "Send each friend their link")];
    for (const link of links) {
      const id = `invite-card-${link.seat}`;
      const input = el("input", { type: "text", id, readonly: true, value: link.url, class: "link-field invite-card-link" });
      input.addEventListener("focus", () => input.select());
      const copy = el("button", { type: "button", class: "secondary copy" }, "Copy");
      const said = el("span", { class: "note", role: "status" });
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(link.url);
          said.textContent = "Copied.";
        } catch {
          input.focus();
          said.textContent = "Select the link and copy it.";
        }
      });
      parts.push(
        el(
          "div",
          { class: "invite-card-seat" },
          el("label", { for: id }, `${playerName(view, link.seat)}'s seat: they see “Join ${who}'s game”`),
          el("div", { class: "link-line" }, input, copy),
          said,
          qrPicture(link.url, `QR code of the invite link for ${playerName(view, link.seat)}'s seat`),
        ),
      );
    }
    if (loopback(location.hostname)) {
      parts.push(
        el(
          "p",
          { class: "note loopback" },
          `This link names ${location.hostname}, which only this computer opens. For a phone across the room, start Parlor with ` +
            "parlor serve --addr 0.0.0.0:8080 and open it by this computer's address on your home network (such as http://192.168.1.20:8080).",
        ),
      );
    }
    parts.push(el("p", { class: "note" }, "Whoever opens the link first takes the seat; their turns wait until then."));
    container.replaceChildren(...parts);
  }
  update();
  return { update };
}
