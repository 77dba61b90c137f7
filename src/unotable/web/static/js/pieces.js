// The pieces the table, the join page and the replay draw alike: a card, a card's back, an
// avatar, the turn ring, a seat's place around the oval.
import { Art } from "./art.js";
import { el, prefs } from "./dom.js";
import { cardName } from "./strings.js";

function isWild(code) {
  return ["W", "W+4", "HOWLER", "INVIS", "MATER", "SHUFFLE", "CUSTOM", "WR+4", "W+6", "W+10", "WCR", "LW", "LW+2", "DW",
    "DW+C"].includes(code) ||
    /^AW/.test(code);
}

function faceMarkup(code) {
  return Art.cards().face(code, { colorblind: prefs.colorblind(), coloradd: prefs.coloradd() });
}

export function cardNode(code, attrs = {}) {
  return el(attrs.tag || "button", {
    type: attrs.tag ? undefined : "button", role: attrs.tag ? "img" : undefined,
    class: `card ${isWild(code) ? "wild" : `c-${code[0]}`} ${attrs.class || ""}`,
    "aria-label": cardName(code), title: cardName(code),
    dataset: { code, ...(attrs.dataset || {}) }, onclick: attrs.onclick, html: faceMarkup(code),
    tabindex: attrs.tabindex, disabled: attrs.disabled,
  });
}

export function backNode(cls = "") {
  return el("span", { class: `card back ${cls}`, "aria-hidden": "true", html: Art.cards().back() });
}

export function avatarNode(avatar, cls = "") {
  const node = el("span", { class: `avatar ${cls}`, "aria-hidden": "true" }, avatar.initial || "?");
  node.style.backgroundColor = avatar.color;
  return node;
}

export const RING_SVG = '<svg viewBox="0 0 60 60"><circle class="track" cx="30" cy="30" r="26"/><circle class="arc" cx="30" cy="30" r="26"/></svg>';

// Seats around an oval, the viewer's at the bottom, the next seats going clockwise.
export function seatPosition(k, n) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  const narrow = window.innerWidth < 700;
  return { x: 50 + (narrow ? 37 : 46) * Math.cos(angle), y: 50 + (narrow ? 44 : 42) * Math.sin(angle) };
}
