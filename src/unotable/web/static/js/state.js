// The table's state as this page knows it (one object, `game`), and who sits where in words.
import { t } from "./strings.js";

export const game = {
  code: null, token: null, ws: null, msg: null, retry: 0, offline: false, armed: false, selected: -1,
  chooser: null, closedByUs: false, actedSeq: null, reveals: {}, bubbles: {}, lastPlay: null,
  colorBefore: null, fxCount: 0, sent: [], menu: null, handOverShown: null, handOverWaiting: null, handOverLanded: null, chat: [],
  // multi_play: the hand's indexes chosen to play at once; the plays still to send, and whether
  // the UNO call was armed for them.
  picks: null, queue: [], queueUno: false,
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
