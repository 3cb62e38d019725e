// Tycoon's tables beside the grid: each player's cell, coins and turns,
// the effects on them (lost turns, fire, poison, attacks left) and the
// stations' owners, drawn from a match view (the match's, or a replay
// step's). No rule of the game is here.
//
// Terms:
// - seat words: who answers for a seat, as the page says it ("you",
//   "normal bot", "waiting for a friend").
import { el } from "/static/common.js";
import { swatch } from "/static/tycoon-pictures.js";

function seatWords(p, view) {
  if (p.kind === "bot") return `${p.level || "normal"} bot`;
  if (p.yours) return view.players.filter((q) => q.yours).length > 1 ? "here (you)" : "you";
  switch (p.state) {
    case "here":
      return "at the maker's screen";
    case "open":
      return "waiting for a friend";
    case "anyone":
      return "waiting for anyone";
    default:
      return "a person";
  }
}

function effectsOf(p) {
  const parts = [];
  if (p.lost_turns) parts.push(`loses ${p.lost_turns} turn${p.lost_turns > 1 ? "s" : ""}`);
  if (p.fire_turns) parts.push(`burning ${p.fire_turns} turn${p.fire_turns > 1 ? "s" : ""}`);
  if (p.poison_turns) parts.push(`poisoned ${p.poison_turns} turn${p.poison_turns > 1 ? "s" : ""}`);
  return parts;
}

/**
 * The players' table, effects and stations, for `view` (a match view), in
 * `parts` (`wallets`, `effects`, `stations`). `playerName(seat)` and
 * `seatName(seat)` name a seat; `seats()` is the match's seats, for a
 * replay's step, which has none of its own.
 */
export function showTables(parts, view, { playerName, seatName, seats: matchSeats }) {
  const game = view.view;
  const seats = view.players || matchSeats();
  parts.wallets.replaceChildren(
    ...game.players.map((p) => {
      const seat = seats.find((s) => s.seat === p.seat) || { kind: "person" };
      const cls = p.seat === game.winner ? "winner" : p.seat === game.current && view.status === "playing" ? "current" : "";
      return el(
        "tr",
        { class: cls, dataset: { player: p.seat } },
        el("td", {}, swatch(p.seat), el("span", { class: "name" }, playerName(p.seat)), " ", el("span", { class: "note" }, seatWords(seat, view))),
        el("td", { class: "cell" }, p.cell),
        el("td", { class: "coins" }, p.coins),
        el("td", { class: "turns" }, p.turns),
      );
    }),
  );
  parts.effects.replaceChildren(
    ...game.players.map((p) => {
      const attacks = p.attacks_left.length ? `attacks left: ${p.attacks_left.join(", ")}` : "no attacks left";
      return el("p", {}, swatch(p.seat), `${playerName(p.seat)}: `, [...effectsOf(p), attacks].join("; "));
    }),
  );
  parts.stations.replaceChildren(
    ...game.owners.map((o) =>
      el("li", {}, `Station ${o.station} (price ${o.price}, fee ${o.fee}): `, o.owner ? `owned by ${seatName(o.owner)}` : "for sale"),
    ),
  );
  if (game.owners.length === 0) parts.stations.append(el("li", {}, "none on this grid"));
}
