// What people say at the table: reactions, the chat, the invite link, and the rejoin panel
// (a link, a code and a QR code to take the seat on another device).
import { announce, el, $ } from "./dom.js";
import { leaveTable, render, rerender } from "./late.js";
import { send } from "./net.js";
import { CLIENT, SERVER } from "./protocol.js";
import { confirmAsk } from "./seats.js";
import { game, playerName } from "./state.js";
import { t } from "./strings.js";

export function rejoinNode(rejoin) {
  const url = rejoin.link || new URL(rejoin.url, location.origin).href;
  const box = el("details", { class: "rejoin", id: "rejoin" },
    el("summary", {}, t("Play from another device")),
    el("p", {}, t("Open this link on your other device to take your seat there. Keep it to yourself: it is your seat.")),
    el("p", {}, el("a", { href: url, id: "rejoin-link", class: "rejoin-url" }, url)),
    rejoin.code ? el("p", {}, t("Or type the code {code} on the room's page.", { code: rejoin.code })) : null,
    el("div", { class: "qr", id: "rejoin-qr", role: "img", "aria-label": t("QR code of the link"), html: rejoin.qr_svg ? sanitizeSvg(rejoin.qr_svg) : "" }));
  // The QR code is made by the server when first shown (it costs a few milliseconds there).
  const ask = () => { if (box.open && !rejoin.qr_svg) send({ type: CLIENT.QR, token: game.token }); };
  box.addEventListener("toggle", () => { game.rejoinOpen = box.open; ask(); });
  if (game.rejoinOpen) box.open = true;
  return box;
}

export function onQr(m) {
  if (!game.rejoin || typeof m.qr_svg !== "string") return;
  game.rejoin.qr_svg = m.qr_svg;
  const box = $("rejoin-qr");
  if (box) box.innerHTML = sanitizeSvg(m.qr_svg);
}

// The server's QR code is SVG markup; keep only its shapes (no script, no handler, no style).
function sanitizeSvg(markup) {
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg") return "";
  const allowed = new Set(["svg", "path", "rect", "g", "title"]);
  for (const node of [...svg.querySelectorAll("*")]) {
    if (!allowed.has(node.nodeName.toLowerCase())) node.remove();
  }
  for (const node of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      if (/^on/i.test(attr.name) || attr.name === "style" || /href/i.test(attr.name)) node.removeAttribute(attr.name);
    }
  }
  return new XMLSerializer().serializeToString(svg);
}

export function inviteNode(code) {
  const url = `${location.origin}/r/${code}`;
  const button = el("button", { type: "button", class: "secondary" }, t("Copy"));
  button.addEventListener("click", () => {
    if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
    button.textContent = t("Copied");
  });
  return el("span", { class: "invite" }, t("Invite link:"), " ", el("a", { href: url, id: "invite-link" }, url), " ", button);
}

export function renderSocial(m) {
  const box = $("social");
  const items = [];
  const settings = m.table.settings || {};
  const canReact = m.you !== null || (settings.room || {}).spectator_reactions;
  if (canReact && m.table.status !== "waiting") {
    items.push(el("div", { class: "reactions", role: "group", "aria-label": t("Reactions") },
      REACTIONS.map((id) => el("button", { type: "button", class: "react", dataset: { react: id },
        onclick: () => send({ type: CLIENT.REACT, token: game.token, reaction: id }) }, reactionWords(id)))));
  }
  if ((settings.room || {}).chat && m.you !== null) {
    const input = el("input", { type: "text", id: "chat-text", maxlength: 120, "aria-label": t("Message to the table"),
      placeholder: t("Say something"), autocomplete: "off" });
    const form = el("form", { id: "chat-form", class: "chat-form" }, input,
      el("button", { type: "submit", class: "secondary" }, t("Send")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (text) send({ type: CLIENT.CHAT, token: game.token, text });
      input.value = "";
    });
    items.push(form);
  }
  if (game.rejoin && m.you !== null) items.push(rejoinNode(game.rejoin));
  items.push(el("button", { type: "button", id: "leave", class: "secondary", onclick: () => leave(m) }, t("Leave the table")));
  if (game.chat.length) {
    items.push(el("ol", { class: "chat-log", id: "chat-log", "aria-label": t("Chat") },
      game.chat.slice(-8).map((c) => el("li", {}, el("b", {}, c.name), ": ", c.text))));
  }
  // Keep a half-typed message across renders.
  const old = $("chat-text");
  const typed = old ? old.value : "";
  const hadFocus = old && document.activeElement === old;
  box.replaceChildren(...items);
  const input = $("chat-text");
  if (input && typed) input.value = typed;
  if (input && hadFocus) input.focus();
}

// Back to the lobby. A seated player of a game under way is asked first: the seat stays theirs
// (the room's away bot may play it meanwhile), and the room's link brings them back.
function leave(m) {
  const playing = m.you !== null && m.table.status === "playing" && !m.table.standings.finished;
  if (!playing) {
    leaveTable();
    return;
  }
  confirmAsk(t("Leave the table? Your seat stays yours: open this room's link again to come back. Meanwhile a bot may play for you."),
    t("Yes, leave"), leaveTable);
}

// Shown as words: a reaction reads the same on every device, with or without an emoji font.
const REACTIONS = ["nice_play", "laugh", "wow", "oops", "gg", "hurry"];

function reactionWords(id) {
  switch (id) {
    case "thumbs_up": return t("Yes!");
    case "laugh": return t("Ha ha!");
    case "wow": return t("Wow!");
    case "sad": return t("Oh no…");
    case "angry": return t("Grr!");
    case "clap": return t("Bravo!");
    case "gg": return t("Good game!");
    case "nice_play": return t("Nice play!");
    case "oops": return t("Oops!");
    case "hurry": return t("Hurry up!");
    default: return t("Hey!");
  }
}

export function onSocial(m) {
  if (!game.msg) return;
  const table = game.msg.table;
  const name = m.name || (m.player !== null && m.player !== undefined ? playerName(table, m.player) : t("A spectator"));
  if (m.type === SERVER.REACTION) {
    if (m.player !== null && m.player !== undefined) {
      game.bubbles[m.player] = { text: reactionWords(m.reaction), until: performance.now() + 3000 };
      setTimeout(rerender, 3100);
    }
    announce(t("{name}: {reaction}", { name, reaction: reactionWords(m.reaction) }));
  } else {
    game.chat.push({ player: m.player, name, text: String(m.text || "") });
    if (game.chat.length > 50) game.chat.shift();
    if (m.player !== null && m.player !== undefined) {
      game.bubbles[m.player] = { text: String(m.text || ""), until: performance.now() + 4000 };
      setTimeout(rerender, 4100);
    }
  }
  render();
}
