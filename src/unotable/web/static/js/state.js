// The table's state as this page knows it (one object, `game`), and who sits where in words.
import { t } from "./strings.js";

export const game = {
  code: null, token: null, ws: null, msg: null, retry: 0, offline: false, armed: false, selected: -1,
  chooser: null, closedByUs: false, actedSeq: null, reveals: {}, bubbles: {}, lastPlay: null,
  colorBefore: null, fxCount: 0, sent: [], menu: null, handOverShown: null, handOverWaiting: null, handOverLanded: null, chat: [],
  // multi_play: the hand's indexes chosen to play at once; the plays still to send, and whether
  // the UNO call was armed for them.
  picks: null, queue: [], queueUno: false,
  // an ask for a seat back made on the join page, sent once the spectator's welcome comes (table.js)
  pendingAsk: null,
};
// The page's one global, for tests and the curious: only what this seat may see (main.js adds
// the art and the render function to it).
window.unotable = game;

export function seatInfo(table, player) {
  return table.players[player] || {};
}

export function playerName(table, player) {
  const p = table.players[player];
  if (!p) return "?";
  if (p.name) return p.name;
  if (p.bot) return botName(p.bot, player);
  return t("Seat {number}", { number: player + 1 });
}

export function botName(spec, player) {
  const kind = spec.split(":")[0];
  switch (kind) {
    case "random": return t("Random bot {number}", { number: player + 1 });
    case "greedy": return t("Greedy bot {number}", { number: player + 1 });
    case "aggressive": return t("Aggressive bot {number}", { number: player + 1 });
    case "cautious": return t("Cautious bot {number}", { number: player + 1 });
    case "search": return t("Search bot {number}", { number: player + 1 });
    case "expert": return t("Expert bot {number}", { number: player + 1 });
    case "learned": return t("Learned bot {number}", { number: player + 1 });
    default: return t("Bot {number}", { number: player + 1 });
  }
}

export function seatNames(table) {
  return table.seating.map((player) => playerName(table, player));
}

export function avatarOf(table, player) {
  const p = table.players[player] || {};
  if (p.avatar && /^#[0-9a-fA-F]{6}$/.test(p.avatar.color || "")) return p.avatar;
  const name = playerName(table, player);
  const palette = ["#b71c1c", "#4a148c", "#0d47a1", "#004d40", "#e65100", "#3e2723", "#263238", "#880e4f"];
  return { color: palette[player % palette.length], initial: (p.bot ? "⚙" : name.slice(0, 1).toUpperCase()) };
}

// Seats with a history (docs/web.md, P-580): who sat in a seat, from which hand to which.
// `o` is one of table.players[i].sat: {name, bot, from_hand, to_hand}.
export function occupantName(o, player) {
  if (o.name) return o.name;
  if (o.bot) return botName(o.bot, player);
  return t("the away bot (free seat)");
}

// The seat's occupants in this game, when more than one sat there (else null).
export function sitters(table, player) {
  const p = table.players[player] || {};
  return Array.isArray(p.sat) && p.sat.length > 1 ? p.sat : null;
}

// "Dan (hands 4-6)": an occupant and the hands they played in the seat.
export function stintText(o, player) {
  const name = occupantName(o, player);
  const first = o.from_hand + 1;
  if (o.to_hand === null || o.to_hand === undefined) return t("{name} (from hand {hand})", { name, hand: first });
  if (o.to_hand === o.from_hand) return t("{name} (hand {hand})", { name, hand: first });
  return t("{name} (hands {first}-{last})", { name, first, last: o.to_hand + 1 });
}

// A seat as the results name it: its one occupant's name, or "Seat 2" when several sat there.
export function seatLabel(table, player) {
  return sitters(table, player) ? t("Seat {number}", { number: player + 1 }) : playerName(table, player);
}

// Who played a hand laid face up (its `by`): one name, or several who took turns.
export function handPlayers(table, h) {
  if (!Array.isArray(h.by) || !h.by.length) return [playerName(table, h.player)];
  return h.by.map((o) => occupantName(o, h.player));
}
