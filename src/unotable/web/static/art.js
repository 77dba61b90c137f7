// The card art and sounds the page uses: the lead's cards.js (window.Cards) and sound.js
// (window.Sound) when they are loaded, else plain placeholders of the same shape.
"use strict";

const PLACEHOLDER_FILL = { R: "#c62828", Y: "#f9a825", G: "#2e7d32", B: "#1565c0" };
const PLACEHOLDER_MARK = { R: "●", Y: "▲", G: "■", B: "◆" };
const PLACEHOLDER_WILDS = { W: "W", "W+4": "+4", HOWLER: "H", INVIS: "I", MATER: "M", SHUFFLE: "⇆", CUSTOM: "✎",
  AW: "W", AWREV: "⇄", AWSKIP: "⊘", AWSKIP2: "⊘⊘", "AW+2": "+2", "AW+4": "+4", "AWT+2": "◎2", AWSWAP: "⇅" };
const PLACEHOLDER_VALUES = { S: "⊘", R: "⇄", "+2": "+2", "+3": "+3", BLANK: "★" };

function escapeXml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const PlaceholderCards = {
  face(code, opts = {}) {
    const wild = PLACEHOLDER_WILDS[code];
    const color = wild ? null : code[0];
    const label = wild || PLACEHOLDER_VALUES[code.slice(1)] || code.slice(1);
    const fill = color ? PLACEHOLDER_FILL[color] : "#212121";
    const mark = opts.colorblind && color
      ? `<text x="52" y="84" font-size="11" text-anchor="end" fill="#fff">${PLACEHOLDER_MARK[color]}</text>` : "";
    return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`
      + `<rect x="1" y="1" width="58" height="88" rx="7" fill="#fff"/>`
      + `<rect x="4" y="4" width="52" height="82" rx="5" fill="${fill}"/>`
      + `<ellipse cx="30" cy="45" rx="21" ry="32" transform="rotate(24 30 45)" fill="#fff"/>`
      + `<text x="30" y="53" font-size="22" font-weight="800" text-anchor="middle" fill="${fill}">${escapeXml(label)}</text>`
      + `<text x="8" y="17" font-size="11" font-weight="800" fill="#fff">${escapeXml(label)}</text>${mark}</svg>`;
  },
  back() {
    return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`
      + `<rect x="1" y="1" width="58" height="88" rx="7" fill="#fff"/>`
      + `<rect x="4" y="4" width="52" height="82" rx="5" fill="#1b1b1b"/>`
      + `<ellipse cx="30" cy="45" rx="19" ry="30" transform="rotate(24 30 45)" fill="#c62828"/>`
      + `<text x="30" y="50" font-size="13" font-weight="800" text-anchor="middle" fill="#ffd54a">UNO</text></svg>`;
  },
  chooser(color, opts = {}) {
    const mark = opts.colorblind ? PLACEHOLDER_MARK[color] : "";
    return `<svg viewBox="0 0 40 40" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`
      + `<circle cx="20" cy="20" r="18" fill="${PLACEHOLDER_FILL[color]}" stroke="#fff" stroke-width="2"/>`
      + `<text x="20" y="26" font-size="16" text-anchor="middle" fill="#fff">${mark}</text></svg>`;
  },
};

const PlaceholderSound = {
  play(name) { void name; },
  muted() { return localStorage.getItem("muted") === "1"; },
  setMuted(value) { localStorage.setItem("muted", value ? "1" : "0"); },
};

const Art = {
  cards: () => window.Cards || PlaceholderCards,
  sound: () => window.Sound || PlaceholderSound,
  played: [],
  // A sound of the table, remembered (the last 50) so the tests can see which were asked for.
  play(name) {
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    this.sound().play(name);
  },
};
