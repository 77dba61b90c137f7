// The page's core and the table: play over a WebSocket. The lobby is lobby.js, the replay
// replay.js; words come from strings.js (t, tn), card faces and sounds from art.js.
// The server sends views and events, never words. No inline script, style or handler: CSP-ready.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "onclick") node.addEventListener("click", v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "html") node.innerHTML = v; // SVG from the card art only
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

function show(id) {
  for (const s of ["lobby", "join", "table", "replay"]) $(s).hidden = s !== id;
  document.body.dataset.page = id;
}

// The server words its errors in the page's language (?lang=, docs/web.md).
function withLang(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(pickLanguage())}`;
}

async function api(method, path, body) {
  const res = await fetch(withLang(path), {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.message || res.statusText), { code: data.error, status: res.status });
  return data;
}

function errorText(err) {
  return (err.code && errorWords(err.code)) || err.message || String(err);
}

const tokenKey = (code) => `unotable:${code}`;
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const prefs = {
  colorblind: () => localStorage.getItem("colorblind") === "1",
};

// ---------------------------------------------------------------------------------------------
// Cards.

function isWild(code) {
  return ["W", "W+4", "HOWLER", "INVIS", "MATER", "SHUFFLE", "CUSTOM"].includes(code) || /^AW/.test(code);
}

function faceMarkup(code) {
  return Art.cards().face(code, { colorblind: prefs.colorblind() });
}

function cardNode(code, attrs = {}) {
  return el(attrs.tag || "button", {
    type: attrs.tag ? undefined : "button", role: attrs.tag ? "img" : undefined,
    class: `card ${isWild(code) ? "wild" : `c-${code[0]}`} ${attrs.class || ""}`,
    "aria-label": cardName(code), title: cardName(code),
    dataset: { code, ...(attrs.dataset || {}) }, onclick: attrs.onclick, html: faceMarkup(code),
    tabindex: attrs.tabindex, disabled: attrs.disabled,
  });
}

function backNode(cls = "") {
  return el("span", { class: `card back ${cls}`, "aria-hidden": "true", html: Art.cards().back() });
}

// A seat's legal actions (texts of the notation) sorted for the screen.
function sortLegal(legal) {
  const out = { plays: {}, more: {}, twins: new Set(), draw: false, pass: false, colors: [], accept: false,
    challenge: false, invis: [], uno: false, catches: [], wrongs: [] };
  for (const text of legal) {
    const parts = text.split(" ");
    if (parts[parts.length - 1] === "uno" && parts[0] !== "uno") {
      out.twins.add(text);
      continue;
    }
    switch (parts[0]) {
      case "play":
        if (parts[parts.length - 1] === "more") out.more[parts[1]] = text; // multi_play (rules §11.5)
        else (out.plays[parts[1]] ||= []).push(text);
        break;
      case "draw": out.draw = true; break;
      case "pass": out.pass = true; break;
      case "color": out.colors.push(parts[1]); break;
      case "accept": out.accept = true; break;
      case "challenge": out.challenge = true; break;
      case "invisibility": out.invis.push(parts[1]); break;
      case "uno": out.uno = true; break;
      case "catch": out.catches.push(Number(parts[1])); break;
      case "wrong": out.wrongs.push(Number(parts[1])); break;
      default: break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The header: language, colour-blind mode, sound, keys; on every page.

function renderHeader() {
  $("home").textContent = t("unotable");
  const lang = el("select", { id: "lang", "aria-label": t("Language") },
    LANGUAGES.map(([code, name]) => el("option", { value: code, lang: code }, name)));
  lang.value = pickLanguage();
  lang.addEventListener("change", async () => {
    localStorage.setItem("lang", lang.value);
    await loadWords(lang.value);
    renderHeader();
    rerender();
  });
  const cb = el("button", { type: "button", id: "colorblind", class: "toggle", "aria-pressed": String(prefs.colorblind()),
    title: t("Colour-blind mode: a mark for each colour") }, t("Colour marks"));
  cb.addEventListener("click", () => {
    localStorage.setItem("colorblind", prefs.colorblind() ? "0" : "1");
    renderHeader();
    rerender();
  });
  const muted = Art.sound().muted();
  const mute = el("button", { type: "button", id: "mute", class: "toggle", "aria-pressed": String(muted),
    title: muted ? t("Sound is off") : t("Sound is on") }, t("Mute"));
  mute.addEventListener("click", () => {
    Art.sound().setMuted(!Art.sound().muted());
    renderHeader();
  });
  const keys = el("button", { type: "button", id: "keys-button", class: "toggle", "aria-label": t("Keys"),
    title: t("Keys") }, "?");
  keys.addEventListener("click", toggleKeys);
  $("prefs").replaceChildren(lang, cb, mute, keys);
  $("announce").setAttribute("aria-label", t("Announcements"));
  document.querySelector(".skip-link").textContent = t("Skip to the game");
  $("prefs").setAttribute("aria-label", t("Settings"));
  $("table").setAttribute("aria-label", t("Table"));
  $("log-title").textContent = t("What happened");
}

function keysList() {
  return [
    ["1-9", t("play the card at that place in your hand")],
    ["← →", t("move along your hand")],
    ["Enter", t("play the chosen card")],
    ["M", t("play the chosen card with more of its number after it (several cards at once)")],
    ["D", t("draw a card")],
    ["P / K", t("play or keep the card you drew")],
    ["U", t("call UNO!")],
    ["C", t("catch a player who did not call UNO")],
    ["A / X", t("accept or challenge")],
    ["R Y G B", t("choose a colour")],
    ["?", t("show or hide this list")],
    ["Esc", t("close")],
  ];
}

function toggleKeys(force) {
  const panel = $("keys-panel");
  const open = typeof force === "boolean" ? force : panel.hidden;
  if (!open) {
    panel.hidden = true;
    return;
  }
  const close = el("button", { type: "button", id: "keys-close", class: "secondary" }, t("Close"));
  close.addEventListener("click", () => toggleKeys(false));
  panel.replaceChildren(el("div", { class: "box" }, el("h2", { id: "keys-title" }, t("Keys")),
    el("dl", { class: "keys-list" }, keysList().map(([k, what]) => [el("dt", {}, el("kbd", {}, k)), el("dd", {}, what)])),
    close));
  panel.hidden = false;
  close.focus();
}

function announce(text) {
  if (!text) return;
  const box = $("announce");
  box.textContent = text;
}

// ---------------------------------------------------------------------------------------------
// The table's state.

const game = {
  code: null, token: null, ws: null, msg: null, retry: 0, armed: false, selected: -1,
  chooser: null, closedByUs: false, actedSeq: null, reveals: {}, bubbles: {}, lastPlay: null,
  colorBefore: null, fxCount: 0, sent: [], menu: null, handOver: null, chat: [],
  picks: null, queue: [], // multi_play: the hand's indexes chosen to play at once; the plays still to send
};
window.unotable = game; // for tests and the curious: only what this seat may see
game.art = Art;

function seatInfo(table, player) {
  return table.players[player] || {};
}

function playerName(table, player) {
  const p = table.players[player];
  if (!p) return "?";
  if (p.name) return p.name;
  if (p.bot) return botName(p.bot, player);
  return t("Seat {number}", { number: player + 1 });
}

function botName(spec, player) {
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

// The bots by strength the server offers (GET /api/options, lobby.js), fetched once: none
// until they come (the menu is drawn again then).
let botLevelsSeen = null;
function botLevels() {
  if (botLevelsSeen === null) {
    botLevelsSeen = [];
    getOptions().then((opts) => {
      botLevelsSeen = Array.isArray(opts.bot_levels) ? opts.bot_levels : [];
      if (game.msg) render();
    }).catch(() => {});
  }
  return botLevelsSeen;
}

function seatNames(table) {
  return table.seating.map((player) => playerName(table, player));
}

function avatarOf(table, player) {
  const p = table.players[player] || {};
  if (p.avatar && /^#[0-9a-fA-F]{6}$/.test(p.avatar.color || "")) return p.avatar;
  const name = playerName(table, player);
  const palette = ["#b71c1c", "#4a148c", "#0d47a1", "#004d40", "#e65100", "#3e2723", "#263238", "#880e4f"];
  return { color: palette[player % palette.length], initial: (p.bot ? "⚙" : name.slice(0, 1).toUpperCase()) };
}

function avatarNode(avatar, cls = "") {
  const node = el("span", { class: `avatar ${cls}`, "aria-hidden": "true" }, avatar.initial || "?");
  node.style.backgroundColor = avatar.color;
  return node;
}

// ---------------------------------------------------------------------------------------------
// The connection.

// The heartbeat (docs/web.md, "Heartbeat"): the page pings every PING_MS; the server answers
// (any message counts). An answer missing after ANSWER_MS sends a second ping at once; a second
// missed answer means the node is frozen or lost: the page drops the socket and reconnects (through
// the load balancer, to a node that takes the room). A move left unanswered for PROBE_MS pings at
// once, so a person who plays notices a dead node within PROBE_MS + 2 * ANSWER_MS (5.5 s); one who
// only watches within PING_MS + 2 * ANSWER_MS (14 s). The server closes a socket silent for 35 s.
const PING_MS = 10000;
const ANSWER_MS = 2000;
const PROBE_MS = 1500;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(withLang(`${proto}://${location.host}/ws/${game.code}`));
  game.ws = ws;
  ws.missed = 0;
  ws.heardAt = performance.now();
  ws.addEventListener("open", () => {
    game.retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: game.token }));
    ws.beat = setInterval(() => ping(ws), PING_MS);
  });
  ws.addEventListener("message", (ev) => {
    ws.heardAt = performance.now();
    ws.missed = 0;
    clearTimeout(ws.answer);
    ws.answer = null;
    onMessage(JSON.parse(ev.data));
  });
  ws.addEventListener("close", (ev) => lost(ws, ev.code));
}

// A room moved to another node (1012: the node stops, or hands rooms over) is reconnected to at
// once, within a jittered 0.1-0.5 s so that a node's clients do not all come back in the same
// instant; any other loss backs off from 0.6 s to 19 s.
function lost(ws, code) {
  clearInterval(ws.beat);
  clearTimeout(ws.answer);
  clearTimeout(ws.probe);
  if (game.closedByUs || game.ws !== ws) return;
  game.ws = null;
  $("conn").hidden = false;
  $("conn").textContent = t("Connection lost: reconnecting…");
  const moved = code === 1012 && game.retry === 0;
  game.retry = Math.min(game.retry + 1, 6);
  setTimeout(connect, moved ? 100 + 400 * Math.random() : 300 * 2 ** game.retry);
}

function ping(ws) {
  if (game.ws !== ws || ws.readyState !== WebSocket.OPEN || ws.answer) return;
  ws.send(JSON.stringify({ type: "ping" }));
  ws.answer = setTimeout(() => {
    ws.answer = null;
    if (game.ws !== ws) return;
    ws.missed += 1;
    if (ws.missed < 2) {
      ping(ws);
      return;
    }
    lost(ws); // two missed answers: dead, whatever the socket says (its close may take minutes)
    try { ws.close(); } catch (e) { /* closing already */ }
  }, ANSWER_MS);
}

function send(message) {
  if (game.ws && game.ws.readyState === WebSocket.OPEN) {
    game.ws.send(JSON.stringify(message));
    return true;
  }
  return false;
}

// One action per state: a second click (or a key and a click) before the server's answer is
// dropped, so Enter on a focused card plays exactly one card.
function act(action) {
  const m = game.msg;
  if (!m || game.actedSeq === m.seq) return;
  game.actedSeq = m.seq;
  game.armed = false;
  game.chooser = null;
  game.sent.push(action);
  if (!send({ type: "act", token: game.token, action })) {
    game.actedSeq = null; // not sent: try again
    return;
  }
  const ws = game.ws;
  const sentAt = performance.now();
  clearTimeout(ws.probe);
  ws.probe = setTimeout(() => { if (ws.heardAt < sentAt) ping(ws); }, PROBE_MS);
}

function onMessage(m) {
  if (m.type === "error") {
    game.actedSeq = null;
    game.queue = []; // a refused play ends the cards picked to follow it
    if (m.code === "bad_token") {
      localStorage.removeItem(tokenKey(game.code));
      game.token = null;
      game.closedByUs = true;
      if (game.ws) game.ws.close();
      joinPage(game.code);
      return;
    }
    flash(errorWords(m.code) || m.message);
    return;
  }
  if (m.type === "pong") return;
  if (m.type === "qr") {
    onQr(m);
    return;
  }
  if (m.type === "retired") {
    // This seat's token stopped working (taken back elsewhere, freed, given to a bot).
    localStorage.removeItem(tokenKey(game.code));
    game.token = null;
    game.closedByUs = true;
    if (game.ws) game.ws.close();
    const why = m.reason === "rejoined" ? t("Your seat was taken back on another device: you are watching here now.")
      : m.reason === "freed" ? t("The host freed your seat: you are watching now.")
        : t("The host gave your seat to a bot: you are watching now.");
    enterTable(game.code, null);
    flash(why);
    return;
  }
  if (m.type === "reaction" || m.type === "chat") {
    onSocial(m);
    return;
  }
  if (!m.view || !m.table) return;
  $("conn").hidden = true;
  const before = game.msg;
  const names = seatNames(m.table);
  const newHand = !before || m.table.hand !== before.table.hand || m.table.game_number !== before.table.game_number;
  if (m.type === "welcome" || newHand) {
    $("log").replaceChildren();
    game.lastPlay = null;
    game.reveals = {};
  }
  if (m.type === "welcome") {
    // A new connection (a reconnect): an action sent while the old one was closing never
    // reached the server, so this state may be acted on again.
    game.actedSeq = null;
    game.rejoin = m.rejoin || null;
    game.chat = (m.chat || []).map((c) => ({ player: c.player, name: c.name, text: String(c.text || "") }));
  }
  game.host = m.you !== null && m.table.host === m.you;
  const lines = [];
  for (const e of m.events) {
    const line = narrate(e, names);
    if (line) {
      lines.push(line);
      $("log").append(el("li", {}, line));
    }
    noteEvent(e, before, m);
  }
  while ($("log").children.length > 300) $("log").firstChild.remove();
  if (before && m.seq !== before.seq) {
    game.chooser = null;
    game.selected = -1;
    game.actedSeq = null;
    if (m.view.current !== m.seat || m.view.hand.length !== before.view.hand.length) game.picks = null;
  }
  const rects = before && m.type !== "welcome" ? measure() : null;
  game.msg = m;
  // The clock on the current seat's ring: the Harry Potter answer window, else the turn timer.
  const clock = m.table.answer || m.table.timer || null;
  game.clock = clock;
  game.timerEnd = clock ? performance.now() + 1000 * clock.seconds : null;
  game.timerTotal = !clock ? 0 : m.table.answer ? ((m.table.settings.room || {}).auto_accept_seconds || clock.seconds)
    : m.table.settings.turn_seconds;
  render();
  if (m.type !== "welcome") {
    const myTurnNow = m.seat !== null && m.view.current === m.seat && m.view.legal.length > 0;
    const myTurnBefore = before && before.seat !== null && before.view.current === before.seat;
    if (myTurnNow && !myTurnBefore) {
      Art.play("turn");
      lines.push(t("Your turn."));
    }
    announce(lines.slice(-3).join(" "));
    if (rects) animate(m.events, rects, before, m);
  } else {
    announce(t("You are at the table of room {code}.", { code: m.table.code }));
  }
  const log = $("log");
  log.scrollTop = log.scrollHeight;
  sendQueued(m);
}

// Several cards at once (multi_play, docs/rules.md §11.5): the cards picked, played one by one
// as the server answers ("play R5 more", ..., "play B5"); the UNO call with the card that
// leaves one, when armed.
function sameSeries(rules, a, b) {
  return /^[RYGB][0-9]$/.test(b) && (rules.multi_play === "identical" ? a === b : a.slice(1) === b.slice(1));
}

// Whether hand card i may be picked now: the first a card that begins (or, in a series, goes
// on with) one; the others of its number, or identical to it.
function canPick(view, legal, i) {
  const picks = game.picks;
  const code = view.hand[i];
  if (!picks.length) return Boolean(legal.more[code] || (view.series && legal.plays[code]));
  return sameSeries(view.rules, view.hand[picks[0]], code);
}

function togglePick(i) {
  const view = game.msg.view;
  const at = game.picks.indexOf(i);
  if (at >= 0) game.picks.splice(at, 1);
  else if (canPick(view, sortLegal(view.legal), i)) game.picks.push(i);
  render();
}

function playPicks() {
  const view = game.msg.view;
  const codes = game.picks.map((i) => view.hand[i]);
  const left = view.hand.length;
  const texts = codes.map((code, i) => `play ${code}${i < codes.length - 1 ? " more" : ""}${game.armed && left - i === 2 ? " uno" : ""}`);
  game.picks = null;
  game.queue = texts.slice(1);
  act(texts[0]);
}

function sendQueued(m) {
  if (!game.queue.length) return;
  const next = game.queue[0];
  if (m.seat === null || m.view.current !== m.seat || !m.view.series) {
    if (m.seat === null || m.view.current !== m.seat) game.queue = []; // the turn is over
    return; // (a message from before the first play arrived: wait for the series)
  }
  game.queue.shift();
  act(m.view.legal.includes(next) ? next : next.replace(" uno", ""));
}

// What an event leaves on the table for a while: reveals, the last play, the colour before a
// Wild Draw Four (for the challenge's sentence).
function noteEvent(e, before, m) {
  const now = performance.now();
  if (e.kind === "reveal" && e.cards && e.cards.length && e.seat !== undefined) {
    game.reveals[e.seat] = { cards: e.cards, reason: e.reason, until: now + 6000 };
    setTimeout(rerender, 6100);
  }
  if (e.kind === "play" && e.seat !== undefined) {
    game.lastPlay = { seat: e.seat, card: (e.cards || [])[0] };
    if ((e.cards || [])[0] === "W+4") game.colorBefore = before ? before.view.color : null;
  }
  void m;
}

// The turn timer counts down between messages (the ring and the seconds).
setInterval(() => {
  if (game.timerEnd === null || game.timerEnd === undefined || !game.msg || $("table").hidden) return;
  drawTimer();
}, 250);

function timerLeft() {
  return game.timerEnd ? Math.max(0, (game.timerEnd - performance.now()) / 1000) : 0;
}

function drawTimer() {
  const m = game.msg;
  const timer = game.clock;
  document.querySelectorAll(".seat .ring").forEach((ring) => ring.classList.remove("timed", "late"));
  if (!timer) return;
  const seatEl = document.querySelector(`#seats .seat[data-player="${timer.player}"]`);
  if (!seatEl) return;
  const left = timerLeft();
  const total = Math.max(game.timerTotal || 1, 1);
  const ring = seatEl.querySelector(".ring");
  const arc = ring.querySelector(".arc");
  const length = 2 * Math.PI * 26;
  arc.setAttribute("stroke-dasharray", `${length}`);
  arc.setAttribute("stroke-dashoffset", String(length * (1 - Math.min(1, left / total))));
  ring.classList.add("timed");
  ring.classList.toggle("late", left <= 5);
  const secs = seatEl.querySelector(".secs");
  if (secs) secs.textContent = tn("{n} second", "{n} seconds", Math.ceil(left));
  const answer = $("answer-left");
  if (answer) answer.textContent = tn("If you do not answer, you accept in {n} second.", "If you do not answer, you accept in {n} seconds.", Math.ceil(left));
  const whole = Math.ceil(left);
  if (left <= 5 && left > 0 && m.seat !== null && m.table.seating[m.seat] === timer.player && whole !== game.lastTick) {
    game.lastTick = whole;
    Art.play("tick");
  }
}

function flash(text) {
  const b = $("flash");
  b.textContent = text;
  b.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { b.hidden = true; }, 3000);
}

function rerender() {
  if (!$("table").hidden) render();
  else if (!$("replay").hidden && window.replayRedraw) window.replayRedraw();
  else if (!$("lobby").hidden) lobby();
  else if (!$("join").hidden && game.code) joinPage(game.code);
}

// ---------------------------------------------------------------------------------------------
// Drawing the table.

// Seats around an oval, the viewer's at the bottom, the next seats going clockwise.
function seatPosition(k, n) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  const narrow = window.innerWidth < 700;
  return { x: 50 + (narrow ? 37 : 46) * Math.cos(angle), y: 50 + (narrow ? 44 : 42) * Math.sin(angle) };
}

function render() {
  const m = game.msg;
  if (!m) return;
  const { view, table } = m;
  const names = seatNames(table);
  const mySeat = m.seat;
  const legal = sortLegal(view.legal);
  show("table");
  $("room-badge").hidden = false;
  $("room-badge").textContent = t("Room {code}", { code: table.code });
  $("table-title").textContent = t("The table of room {code}", { code: table.code });

  // What the seat acts with first, so that nothing drawn after it can leave a control stale.
  renderCentre(m, legal);
  renderPrompt(m, names, legal);
  renderActions(legal, names);
  renderChooser(legal, names);
  renderHand(m, legal);
  renderBanner(m);
  renderSeats(m, names, legal);
  renderSocial(m);
  $("log-title").textContent = t("What happened");
  renderOverlay(m, names);
  drawTimer();
  game.renderedSeq = m.seq; // what the page shows (tests compare it with game.msg)
}

function renderBanner(m) {
  const { table } = m;
  const banner = $("banner");
  const free = table.players.filter((p) => p.free).length;
  const parts = [];
  if (table.status === "waiting") {
    parts.push(el("span", {}, tn("Waiting for {n} more player to take a seat.", "Waiting for {n} more players to take a seat.", free)), " ", inviteNode(table.code));
  } else if (m.you === null) parts.push(t("You are watching: hands stay hidden."));
  const away = table.players.filter((p) => p.away);
  for (const p of away) {
    parts.push(el("div", { class: "away-note" }, t("{name} is away: a bot plays for them until they come back.", { name: p.name || playerName(table, p.player) })));
  }
  banner.replaceChildren(...parts);
  banner.hidden = parts.length === 0;
}

function rejoinNode(rejoin) {
  const url = rejoin.link || new URL(rejoin.url, location.origin).href;
  const box = el("details", { class: "rejoin", id: "rejoin" },
    el("summary", {}, t("Play from another device")),
    el("p", {}, t("Open this link on your other device to take your seat there. Keep it to yourself: it is your seat.")),
    el("p", {}, el("a", { href: url, id: "rejoin-link", class: "rejoin-url" }, url)),
    rejoin.code ? el("p", {}, t("Or type the code {code} on the room's page.", { code: rejoin.code })) : null,
    el("div", { class: "qr", id: "rejoin-qr", role: "img", "aria-label": t("QR code of the link"), html: rejoin.qr_svg ? sanitizeSvg(rejoin.qr_svg) : "" }));
  // The QR code is made by the server when first shown (it costs a few milliseconds there).
  const ask = () => { if (box.open && !rejoin.qr_svg) send({ type: "qr", token: game.token }); };
  box.addEventListener("toggle", () => { game.rejoinOpen = box.open; ask(); });
  if (game.rejoinOpen) box.open = true;
  return box;
}

function onQr(m) {
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

function renderSeats(m, names, legal) {
  const { view, table } = m;
  const n = table.seating.length;
  const base = m.seat === null ? 0 : m.seat;
  const standings = table.standings;
  const now = performance.now();
  const seats = table.seating.map((player, seat) => {
    const me = seat === m.seat;
    const info = seatInfo(table, player);
    const count = view.hand_sizes[seat];
    const exposed = view.uno_exposed.includes(seat);
    const score = standings.by_team ? null : standings.scores[player];
    const current = view.current === seat && !table.hand_over;
    const cls = ["seat", current ? "turn" : "", me ? "me" : "", game.lastPlay && game.lastPlay.seat === seat ? "last-play" : "",
      info.away ? "away" : "", count === 1 ? "one-card" : ""].filter(Boolean).join(" ");
    const fan = el("span", { class: "mini-fan", "aria-hidden": "true" },
      me ? null : Array.from({ length: Math.min(count, 6) }, () => backNode("mini")));
    const badges = [];
    if (count === 1 && !exposed) badges.push(el("span", { class: "badge uno" }, t("UNO")));
    if (exposed) badges.push(el("span", { class: "badge exposed" }, t("no UNO call!")));
    if (view.dealer === seat) badges.push(el("span", { class: "badge dealer" }, t("dealer")));
    if (info.away) badges.push(el("span", { class: "badge away" }, t("away: a bot plays")));
    else if (!info.online && !me && !info.bot && !info.free) badges.push(el("span", { class: "badge offline" }, t("offline")));
    const vote = table.suggestion_votes && table.suggestion_votes[String(player)];
    if (vote && vote.asked.length) {
      badges.push(el("span", { class: "badge votes", dataset: { votes: String(player) } },
        t("penalty asked by {asked} of {needed}", { asked: vote.asked.length, needed: vote.needed.length })));
    }
    const reveal = game.reveals[seat];
    const revealNode = reveal && reveal.until > now ? el("div", { class: "reveal", role: "note",
      "aria-label": revealCaption(reveal.reason, names[seat]) },
    el("div", { class: "reveal-caption" }, revealCaption(reveal.reason, names[seat])),
    el("div", { class: "reveal-cards" }, reveal.cards.map((c) => cardNode(c, { tag: "span", class: "tiny" })))) : null;
    const known = !me && !revealNode && view.known && view.known[String(seat)] && view.known[String(seat)].length
      ? el("div", { class: "known", title: t("Cards of this hand you have seen") },
        view.known[String(seat)].map((c) => cardNode(c, { tag: "span", class: "tiny" }))) : null;
    const label = [names[seat], me ? t("you") : "", tn("{n} card", "{n} cards", count)].filter(Boolean).join(", ");
    const node = el("div", { class: cls, role: "group", "aria-label": label, "aria-current": current ? "true" : undefined,
      dataset: { seat: String(seat), player: String(player), count: String(count) } },
    el("span", { class: "avatar-wrap" }, avatarNode(avatarOf(table, player)),
      el("span", { class: "ring", "aria-hidden": "true", html: RING_SVG })),
    el("div", { class: "seat-text" },
      el("div", { class: "name" }, names[seat], me ? el("span", { class: "you" }, " ", t("(you)")) : null),
      el("div", { class: "meta" }, el("span", { class: "count" }, tn("{n} card", "{n} cards", count)),
        score !== null && score !== undefined ? el("span", { class: "score" }, tn("{n} point", "{n} points", score)) : null,
        game.clock && game.clock.player === player ? el("span", { class: "secs" }) : null),
      badges.length ? el("div", { class: "badges" }, badges) : null),
    fan, seatMenu(m, player, seat, names), revealNode, known,
    game.bubbles[player] && game.bubbles[player].until > now ? el("div", { class: "bubble" }, game.bubbles[player].text) : null);
    if (node.querySelector(".seat-menu")) node.classList.add("has-menu");
    const pos = seatPosition((seat - base + n) % n, n);
    node.style.left = `${pos.x}%`;
    node.style.top = `${pos.y}%`;
    if (pos.y < 35) node.classList.add("top");
    return node;
  });
  $("seats").replaceChildren(...seats);
  $("felt").classList.toggle("many", n > 4);
  if (standings.by_team) {
    $("teams").replaceChildren(...standings.scores.map((s, i) => el("span", { class: "team" },
      t("Team {number}: {points}", { number: i + 1, points: tn("{n} point", "{n} points", s) }))));
  } else $("teams").replaceChildren();
  void legal;
}

const RING_SVG = '<svg viewBox="0 0 60 60"><circle class="track" cx="30" cy="30" r="26"/><circle class="arc" cx="30" cy="30" r="26"/></svg>';

function revealCaption(reason, name) {
  switch (reason) {
    case "challenge": return t("{name}'s hand, shown to the challenger", { name });
    case "howler": return t("The Howler shouts {name}'s hand", { name });
    case "mater": return t("Mater looks at {name}'s hand", { name });
    default: return t("{name}'s hand", { name });
  }
}

// A seat's menu: the suggestion penalty (when the room has it on), the host's controls.
function seatMenu(m, player, seat, names) {
  const { table, view } = m;
  const items = [];
  const playing = table.status === "playing" && !table.hand_over && view.phase !== "hand_over";
  const suggestion = table.suggestion || {};
  const penaltyOn = Boolean(suggestion.on);
  const mine = m.you !== null && m.seat !== null && seat !== m.seat;
  const vote = table.suggestion_votes && table.suggestion_votes[String(player)];
  const penalizable = (suggestion.open || []).includes(player);
  if (penaltyOn && mine && playing && penalizable) {
    const asked = vote && vote.asked.includes(m.you);
    items.push(el("button", { type: "button", class: "secondary penalize", disabled: asked,
      dataset: { penalize: String(player) }, onclick: () => confirmPenalty(player, names[seat]) },
    t("{name} suggested a play: ask for the penalty", { name: names[seat] })));
  }
  const info = seatInfo(table, player);
  if (game.host && player !== m.you && !info.free) {
    items.push(el("button", { type: "button", class: "secondary", dataset: { free: String(player) },
      onclick: () => send({ type: "free_seat", token: game.token, player }) }, t("Free this seat")));
    if (!info.bot) {
      items.push(el("button", { type: "button", class: "secondary", dataset: { seatBot: String(player) },
        onclick: () => send({ type: "seat_bot", token: game.token, player, bot: (table.settings.room || {}).away_bot || "greedy" }) },
      t("Give this seat to a bot")));
      for (const lv of botLevels()) {
        items.push(el("button", { type: "button", class: "secondary", dataset: { seatLevel: `${player}:${lv.level}` },
          onclick: () => send({ type: "seat_bot", token: game.token, player, bot: lv.bot }) },
        t("Give this seat to a bot: {choice}", { choice: levelWords(lv) })));
      }
    }
  }
  if (!items.length) return null;
  const open = game.menu === player;
  const button = el("button", { type: "button", class: "menu-button", "aria-expanded": String(open),
    "aria-label": t("Menu of {name}'s seat", { name: names[seat] }), dataset: { menu: String(player) },
    onclick: () => { game.menu = open ? null : player; render(); } }, "⋯");
  return el("div", { class: "seat-menu" }, button, open ? el("div", { class: "menu", role: "menu" }, items) : null);
}

function confirmPenalty(player, name) {
  const m = game.msg;
  const edition = m.view.rules.edition;
  const n = edition === "classic" ? 4 : 2;
  const box = $("confirm");
  const yes = el("button", { type: "button", id: "confirm-yes" }, t("Yes, ask for it"));
  const no = el("button", { type: "button", id: "confirm-no", class: "secondary" }, t("Cancel"));
  yes.addEventListener("click", () => {
    send({ type: "penalize", token: game.token, player });
    box.hidden = true;
    game.menu = null;
    render();
  });
  no.addEventListener("click", () => {
    box.hidden = true;
    game.menu = null;
    render();
  });
  box.replaceChildren(el("div", { class: "box", role: "alertdialog", "aria-labelledby": "confirm-text" },
    el("p", { id: "confirm-text" }, tn("Ask for the suggestion penalty: {name} draws {n} card if everyone else playing asks too. Once per hand.",
      "Ask for the suggestion penalty: {name} draws {n} cards if everyone else playing asks too. Once per hand.", n, { name })),
    yes, " ", no));
  box.hidden = false;
  no.focus();
}

function renderCentre(m, legal) {
  const { view } = m;
  const pile = $("pile");
  pile.replaceChildren(backNode("pile-card"), backNode("pile-card under"),
    el("span", { class: "pile-count" }, String(view.draw_pile_size)));
  const pileWords = [tn("Draw pile: {n} card", "Draw pile: {n} cards", view.draw_pile_size)];
  if (legal.draw) pileWords.push(t("Draw a card"));
  pile.setAttribute("aria-label", pileWords.join(". "));
  pile.disabled = !legal.draw;
  pile.classList.toggle("can-draw", legal.draw);
  const discard = view.discard.slice(-3);
  $("discard").replaceChildren(...discard.map((code, i) => cardNode(code, { tag: "span",
    class: `pile-face ${i === discard.length - 1 ? "top" : `under u${discard.length - 1 - i}`}` })));
  $("discard").setAttribute("aria-label", discard.length ? t("Top card: {card}", { card: cardName(discard[discard.length - 1]) }) : t("No card yet"));
  const color = $("color-now");
  color.className = `color-now ${view.color ? `c-${view.color}` : ""}`;
  color.textContent = view.color ? t("Colour: {color}", { color: colorName(view.color) }) : t("Colour: any");
  const dir = $("direction");
  dir.className = view.direction > 0 ? "cw" : "ccw";
  dir.setAttribute("aria-label", view.direction > 0 ? t("Play goes clockwise") : t("Play goes counterclockwise"));
  dir.textContent = view.direction > 0 ? "↻" : "↺";
  $("hand-number").textContent = m.table.game_number > 0
    ? t("Hand {hand} of game {game}", { hand: m.table.hand + 1, game: m.table.game_number + 1 })
    : t("Hand {hand}", { hand: m.table.hand + 1 });
}

// One sentence for the decision in front of the seat.
function decisionText(m, names, legal) {
  const { view, table } = m;
  const mySeat = m.seat;
  if (table.status === "waiting") return t("The game starts when every seat is taken.");
  if (table.hand_over) return "";
  if (mySeat === null) {
    return view.current !== null ? t("{name} to play.", { name: names[view.current] }) : "";
  }
  for (const s of legal.catches) {
    return t("{name} holds one card and did not call UNO: catch them!", { name: names[s] });
  }
  for (const s of legal.wrongs) {
    return t("{name}'s card did not match: point it out!", { name: names[s] });
  }
  const pending = view.pending;
  const mine = view.current === mySeat;
  if (!mine) {
    if (Object.keys(legal.plays).length) return t("Jump in: you hold the twin of the top card.");
    return view.current !== null ? t("{name} to play.", { name: names[view.current] }) : "";
  }
  switch (view.phase) {
    case "respond": {
      const n = pending ? pending.draw : 0;
      const from = pending && pending.from !== null && pending.from !== undefined ? names[pending.from] : "";
      if (legal.challenge) {
        const color = game.colorBefore ? colorName(game.colorBefore) : null;
        return color
          ? t("Challenge: if {name} could have played {color} they draw {n}, else you draw {m}. Or accept and draw {n}.", { name: from, color, n, m: n + 2 })
          : t("Challenge: if {name} could have played the colour before, they draw {n}, else you draw {m}. Or accept and draw {n}.", { name: from, n, m: n + 2 });
      }
      if (Object.keys(legal.plays).length && n) {
        return tn("Stack a draw card or take {n} card.", "Stack a draw card or take {n} cards.", n);
      }
      if (legal.invis.length) {
        return t("{name} played {card} on you: vanish with Invisibility or accept.", { name: from, card: pending ? cardName(pending.card) : "" });
      }
      if (n) return tn("Take {n} card.", "Take {n} cards.", n);
      return pending ? t("{name} played {card} on you: accept it.", { name: from, card: cardName(pending.card) }) : t("Accept.");
    }
    case "after_draw":
      return view.drawn && legal.plays[view.drawn]
        ? t("You drew {card}: play it or keep it.", { card: cardName(view.drawn) })
        : t("Keep the card you drew.");
    case "choose_color": return t("Choose the colour.");
    case "turn":
      if (view.series) return t("Play another card of the same number.");
      if (game.picks) return t("Pick the cards to play together, then play them.");
      if (!Object.keys(legal.plays).length) return t("Nothing to play: draw a card.");
      if (legal.twins.size && view.hand.length === 2) return t("Your turn: two cards left, call UNO! with your play.");
      return t("Your turn: play a card or draw.");
    default: return view.legal.length ? t("Your turn.") : "";
  }
}

function renderPrompt(m, names, legal) {
  const text = decisionText(m, names, legal);
  const prompt = $("prompt");
  prompt.textContent = text;
  if (m.table.answer && m.you !== null && m.table.answer.player === m.you) {
    prompt.append(" ", el("span", { id: "answer-left", class: "answer-left" }));
  }
  prompt.classList.toggle("mine", m.seat !== null && m.view.current === m.seat && m.view.legal.length > 0);
}

function inviteNode(code) {
  const url = `${location.origin}/r/${code}`;
  const button = el("button", { type: "button", class: "secondary" }, t("Copy"));
  button.addEventListener("click", () => {
    if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
    button.textContent = t("Copied");
  });
  return el("span", { class: "invite" }, t("Invite link:"), " ", el("a", { href: url, id: "invite-link" }, url), " ", button);
}

function withUno(text, legal) {
  const twin = `${text} uno`;
  return game.armed && legal.twins.has(twin) ? twin : text;
}

function playCard(code) {
  const m = game.msg;
  if (!m) return;
  const legal = sortLegal(m.view.legal);
  const plays = legal.plays[code];
  if (!plays) return;
  if (plays.length === 1 && plays[0].split(" ").length === 2) {
    act(withUno(plays[0], legal));
    return;
  }
  game.chooser = { code, plays };
  render();
  const first = document.querySelector("#chooser button[data-action]");
  if (first) first.focus();
}

function renderActions(legal, names) {
  const buttons = [];
  const b = (label, action, cls) => el("button", { type: "button", class: cls, dataset: { action },
    onclick: () => act(action) }, label);
  const canUnoTwin = legal.twins.size > 0 && [...legal.twins].some((x) => x.startsWith("play"));
  if (legal.uno) buttons.push(b(t("UNO!"), "uno", "uno"));
  else if (canUnoTwin) {
    buttons.push(el("button", { type: "button", class: `uno${game.armed ? " armed" : ""}`, "aria-pressed": String(game.armed),
      dataset: { action: "arm-uno" }, onclick: () => { game.armed = !game.armed; render(); } },
    game.armed ? t("UNO! (it goes with your next play)") : t("UNO!")));
  }
  for (const s of legal.catches) buttons.push(b(t("Catch {name}!", { name: names[s] }), `catch ${s}`, "catch"));
  for (const s of legal.wrongs) buttons.push(b(t("{name}'s card was wrong", { name: names[s] }), `wrong ${s}`));
  if (legal.draw) buttons.push(b(t("Draw"), "draw", "secondary"));
  const view = game.msg.view;
  if (game.picks && game.picks.length) {
    buttons.push(el("button", { type: "button", dataset: { action: "play-picks" }, onclick: playPicks },
      tn("Play {n} card", "Play {n} cards", game.picks.length)));
  }
  if (Object.keys(legal.more).length || game.picks) {
    buttons.push(el("button", { type: "button", class: `secondary${game.picks ? " armed" : ""}`, "aria-pressed": String(Boolean(game.picks)),
      dataset: { action: "several" }, onclick: () => { game.picks = game.picks ? null : []; render(); } }, t("Several at once")));
  }
  if (view.phase === "after_draw" && view.drawn && legal.plays[view.drawn]) {
    buttons.push(el("button", { type: "button", dataset: { action: "play-drawn" },
      onclick: () => playCard(view.drawn) }, t("Play it")));
  }
  if (legal.pass) buttons.push(b(t("Keep it"), "pass", "secondary"));
  if (legal.challenge) buttons.push(b(t("Challenge"), "challenge"));
  if (legal.accept) {
    const n = view.pending ? view.pending.draw : 0;
    buttons.push(b(n ? tn("Accept: draw {n}", "Accept: draw {n}", n) : t("Accept"), "accept", "secondary"));
  }
  for (const c of legal.invis) {
    buttons.push(b(t("Invisibility, calling {color}", { color: colorName(c) }), withUno(`invisibility ${c}`, legal), `c-${c} invis`));
  }
  $("actions").replaceChildren(...buttons);
}

function colorButton(c, action, onclick) {
  return el("button", { type: "button", class: `swatch c-${c}`, dataset: { action }, "aria-label": colorName(c), onclick },
    el("span", { class: "swatch-art", "aria-hidden": "true", html: Art.cards().chooser(c, { colorblind: prefs.colorblind() }) }),
    el("span", { class: "swatch-name" }, colorName(c)));
}

function renderChooser(legal, names) {
  const box = $("chooser");
  const items = [];
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("Choose a colour"));
  if (legal.colors.length) {
    for (const c of legal.colors) items.push(colorButton(c, `color ${c}`, () => act(`color ${c}`)));
  } else if (game.chooser) {
    const { code, plays } = game.chooser;
    const seatArg = (text) => /^\d+$/.test(text.split(" ")[2] || "");
    const bySeat = plays.some(seatArg);
    items.push(el("span", { class: "chooser-title" }, code === "HOWLER" ? t("Who gets the Howler?")
      : code === "AWT+2" ? t("Who draws two?") : bySeat ? t("Swap hands with whom?") : t("Choose a colour")));
    for (const text of plays) {
      const arg = text.split(" ")[2];
      if (seatArg(text)) {
        items.push(el("button", { type: "button", dataset: { action: text }, onclick: () => act(withUno(text, legal)) }, names[Number(arg)]));
      } else items.push(colorButton(arg, text, () => act(withUno(text, legal))));
    }
    items.push(el("button", { type: "button", class: "secondary",
      onclick: () => { game.chooser = null; render(); } }, t("Cancel")));
  }
  box.replaceChildren(...items);
  box.hidden = items.length === 0;
}

function renderHand(m, legal) {
  const { view } = m;
  const hand = $("hand");
  hand.hidden = m.seat === null;
  hand.setAttribute("aria-label", tn("Your hand: {n} card", "Your hand: {n} cards", view.hand.length));
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand .card");
  const focusIndex = focused ? Number(focused.dataset.index) : -1;
  const nodes = view.hand.map((code, i) => {
    const picking = game.picks !== null;
    const playable = picking ? game.picks.includes(i) || canPick(view, legal, i) : Boolean(legal.plays[code]);
    const node = cardNode(code, {
      class: [playable ? "playable" : "dim", i === game.selected || (picking && game.picks.includes(i)) ? "selected" : "",
        view.drawn === code && view.phase === "after_draw" ? "drawn" : ""].join(" "),
      dataset: { index: String(i) }, onclick: () => (picking ? togglePick(i) : playCard(code)),
    });
    node.setAttribute("aria-label", playable ? t("{card}, playable", { card: cardName(code) }) : cardName(code));
    node.addEventListener("focus", () => { game.selected = i; });
    return node;
  });
  hand.replaceChildren(...nodes);
  layoutHand();
  const again = focusIndex >= 0 ? hand.querySelector(`.card[data-index="${Math.min(focusIndex, nodes.length - 1)}"]`) : null;
  if (again) again.focus({ preventScroll: true });
}

// The hand fans to fit the width: overlapping cards on an arc, never a sideways scroll.
function layoutHand() {
  const hand = $("hand");
  const cards = [...hand.children];
  const n = cards.length;
  if (!n) return;
  const cw = cards[0].offsetWidth || 70;
  const width = hand.clientWidth - cw * 0.6;
  const step = n > 1 ? Math.min(cw * 1.08, (width - cw - 8) / (n - 1)) : 0;
  const total = cw + step * (n - 1);
  const start = cw * 0.3 + Math.max(0, (width - total) / 2);
  const spread = Math.min(3.5, 36 / n);
  cards.forEach((card, i) => {
    const off = i - (n - 1) / 2;
    card.style.left = `${start + i * step}px`;
    card.style.setProperty("--rot", `${(off * spread).toFixed(2)}deg`);
    card.style.setProperty("--arc", `${Math.min(16, off * off * spread * 0.25).toFixed(1)}px`);
    card.style.zIndex = String(i + 1);
  });
}

window.addEventListener("resize", () => { if (!$("table").hidden) layoutHand(); });

function renderSocial(m) {
  const box = $("social");
  const items = [];
  const settings = m.table.settings || {};
  const canReact = m.you !== null || (settings.room || {}).spectator_reactions;
  if (canReact && m.table.status !== "waiting") {
    items.push(el("div", { class: "reactions", role: "group", "aria-label": t("Reactions") },
      REACTIONS.map((id) => el("button", { type: "button", class: "react", dataset: { react: id },
        onclick: () => send({ type: "react", token: game.token, reaction: id }) }, reactionWords(id)))));
  }
  if ((settings.room || {}).chat && m.you !== null) {
    const input = el("input", { type: "text", id: "chat-text", maxlength: 120, "aria-label": t("Message to the table"),
      placeholder: t("Say something"), autocomplete: "off" });
    const form = el("form", { id: "chat-form", class: "chat-form" }, input,
      el("button", { type: "submit", class: "secondary" }, t("Send")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (text) send({ type: "chat", token: game.token, text });
      input.value = "";
    });
    items.push(form);
  }
  if (game.rejoin && m.you !== null) items.push(rejoinNode(game.rejoin));
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

function onSocial(m) {
  if (!game.msg) return;
  const table = game.msg.table;
  const name = m.name || (m.player !== null && m.player !== undefined ? playerName(table, m.player) : t("A spectator"));
  if (m.type === "reaction") {
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

// ---------------------------------------------------------------------------------------------
// The end of a hand: every hand face up by its seat, the points counted up, the scores hand by hand.

function renderOverlay(m, names) {
  const { table } = m;
  const box = $("overlay");
  if (!table.hand_over) {
    box.hidden = true;
    game.handOverShown = null;
    return;
  }
  const key = `${table.game_number}:${table.hand}`;
  const standings = table.standings;
  const last = table.last_hand || {};
  const over = { hands: last.hands || null, history: table.score_rows || null };
  const content = [el("h2", { id: "overlay-title" }, standings.finished ? t("Game over") : t("Hand {hand} is over", { hand: table.hand + 1 }))];
  if (last.winner !== undefined && last.winner !== null) {
    content.push(el("p", { class: "went-out" }, tn("{name} went out and scores {n} point.", "{name} went out and scores {n} points.",
      last.points || 0, { name: playerName(table, last.winner) })));
  }
  const hands = over.hands;
  if (hands) {
    content.push(el("div", { class: "hands-up", id: "hands-up" }, hands.map((h) => {
      const player = h.player !== undefined ? h.player : table.seating[h.seat];
      return el("div", { class: "hand-up", dataset: { player: String(player) } },
        el("div", { class: "hand-up-name" }, avatarNode(avatarOf(table, player), "small"), playerName(table, player),
          el("span", { class: "hand-points", dataset: { points: String(h.points || 0) } }, tn("{n} point", "{n} points", h.points || 0))),
        el("div", { class: "hand-up-cards" }, (h.cards || []).length
          ? h.cards.map((c) => cardNode(c, { tag: "span", class: "tiny" })) : el("span", { class: "out" }, t("out!"))));
    })));
  }
  const out = last.winner !== undefined && standings.eliminated.filter((p) => table.seating.includes(p));
  if (out && out.length) { // challenge, elimination: who this hand put out of the game
    content.push(el("p", { class: "out-now", id: "out-now" }, tn("{names} is out of the game.", "{names} are out of the game.",
      out.length, { names: namesText(out.map((p) => playerName(table, p))) })));
  }
  content.push(scoresTable(table, over));
  const seated = m.you !== null;
  if (standings.finished) {
    const winners = (standings.winners || []).map((p) => playerName(table, p));
    content.push(el("p", { class: "winners" }, tn("{names} wins the game!", "{names} win the game!", winners.length, { names: namesText(winners) })));
    if (seated) {
      content.push(el("button", { type: "button", id: "rematch",
        onclick: () => send({ type: "rematch", token: game.token }) }, t("Rematch")));
    }
    content.push(" ", el("a", { href: `/r/${table.code}/replay/${table.game_number}`, id: "replay-link", class: "button-link" },
      t("Replay of game {number}", { number: table.game_number + 1 })));
  } else if (seated) {
    content.push(el("button", { type: "button", id: "next-hand",
      onclick: () => send({ type: "next_hand", token: game.token }) }, t("Next hand")));
  } else {
    content.push(el("p", {}, t("Waiting for a player to deal the next hand.")));
  }
  box.replaceChildren(el("div", { class: "box", role: "dialog", "aria-labelledby": "overlay-title" }, content));
  box.hidden = false;
  if (game.handOverShown !== key) {
    game.handOverShown = key;
    countUp(box);
  }
}

function scoresTable(table, over) {
  const standings = table.standings;
  const history = over && Array.isArray(over.history) ? over.history : null;
  const head = standings.by_team
    ? standings.scores.map((_, i) => t("Team {number}", { number: i + 1 }))
    : standings.scores.map((_, p) => (standings.eliminated.includes(p) ? t("{name} (out)", { name: playerName(table, p) }) : playerName(table, p)));
  const rows = [];
  if (history) {
    history.forEach((row, i) => {
      const cells = Array.isArray(row) ? row : row.scores || row.points || [];
      rows.push(el("tr", {}, el("th", { scope: "row" }, t("Hand {hand}", { hand: i + 1 })), cells.map((s) => el("td", {}, String(s)))));
    });
  }
  rows.push(el("tr", { class: "total" }, el("th", { scope: "row" }, t("Total")),
    standings.scores.map((s) => el("td", { class: "total-cell", dataset: { total: String(s) } }, String(s)))));
  return el("table", { class: "scores", id: "scores" },
    el("caption", {}, t("Scores")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Hand")), head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

// The hand's points and the totals count up from zero.
function countUp(box) {
  const cells = [...box.querySelectorAll("[data-points], [data-total]")];
  if (reducedMotion()) return;
  const start = performance.now();
  const ms = 900;
  const targets = cells.map((c) => ({ c, to: Number(c.dataset.points || c.dataset.total || 0), text: c.textContent }));
  function step(now) {
    const f = Math.min(1, (now - start) / ms);
    for (const { c, to, text } of targets) {
      if (!c.isConnected) continue;
      const v = Math.round(to * f);
      c.textContent = f < 1 ? String(v) : text;
    }
    if (f < 1) requestAnimationFrame(step);
  }
  requestAnimationFrame(step);
}

// ---------------------------------------------------------------------------------------------
// Motion: a played card flies to the pile, draws slide to the seat, the turn sweeps on, Skip,
// Reverse, Draw and UNO! burst at their seat. Off with prefers-reduced-motion.

function measure() {
  const rect = (node) => (node ? node.getBoundingClientRect() : null);
  const seats = {};
  document.querySelectorAll("#seats .seat").forEach((s) => { seats[s.dataset.seat] = rect(s); });
  const hand = {};
  document.querySelectorAll("#hand .card").forEach((c) => { (hand[c.dataset.code] ||= []).push(rect(c)); });
  return { seats, hand, pile: rect($("pile")), discard: rect($("discard")) };
}

function centre(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function fly(node, from, to, delay, ms = 420) {
  if (!from || !to) return;
  const layer = $("fx");
  layer.append(node);
  const a = centre(from);
  const b = centre(to);
  node.style.left = `${a.x}px`;
  node.style.top = `${a.y}px`;
  game.fxCount += 1;
  const anim = node.animate([
    { transform: "translate(-50%, -50%) scale(.9) rotate(-8deg)", opacity: 1 },
    { transform: `translate(calc(-50% + ${b.x - a.x}px), calc(-50% + ${b.y - a.y}px)) scale(1) rotate(0deg)`, opacity: 1 },
  ], { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  anim.finished.then(() => node.remove(), () => node.remove());
}

function burst(text, rect, delay, cls = "") {
  if (!rect) return;
  const node = el("div", { class: `burst ${cls}` }, text);
  const c = centre(rect);
  node.style.left = `${c.x}px`;
  node.style.top = `${c.y}px`;
  $("fx").append(node);
  game.fxCount += 1;
  const anim = node.animate([
    { transform: "translate(-50%, -50%) scale(.4)", opacity: 0 },
    { transform: "translate(-50%, -60%) scale(1.15)", opacity: 1, offset: 0.25 },
    { transform: "translate(-50%, -80%) scale(1)", opacity: 0 },
  ], { duration: 1300, delay, easing: "ease-out", fill: "backwards" });
  anim.finished.then(() => node.remove(), () => node.remove());
}

function animate(events, before, prev, m) {
  const after = measure();
  const motion = !reducedMotion();
  const seatRect = (seat) => after.seats[String(seat)] || before.seats[String(seat)];
  let delay = 0;
  for (const e of events) {
    switch (e.kind) {
      case "play": {
        Art.play("play");
        if (!motion) break;
        const code = (e.cards || [])[0];
        const from = e.seat === m.seat && code && before.hand[code] ? before.hand[code][0] : seatRect(e.seat);
        if (code) fly(cardNode(code, { tag: "span", class: "flying" }), from, after.discard, delay);
        delay += 260;
        break;
      }
      case "draw": {
        if (e.reason === "deal") break;
        Art.play("draw");
        if (!motion) break;
        const to = e.seat === m.seat ? $("hand").getBoundingClientRect() : seatRect(e.seat);
        const n = Math.min(e.count || 1, 4);
        for (let i = 0; i < n; i++) fly(backNode("flying"), after.pile, to, delay + i * 90, 380);
        if (/^[RYGBW]/.test(e.reason || "") && e.count) burst(`+${e.count}`, seatRect(e.seat), delay, "draw");
        delay += 200;
        break;
      }
      case "skip":
        if (motion) burst("⊘", seatRect(e.seat), delay, "skip");
        break;
      case "reverse":
        if (motion) {
          burst("⇄", $("direction").getBoundingClientRect(), delay, "reverse");
          $("direction").animate([{ transform: "rotate(0deg)" }, { transform: "rotate(360deg)" }], { duration: 700, delay });
        }
        break;
      case "uno":
        Art.play("uno");
        if (motion) burst(t("UNO!"), seatRect(e.seat), delay, "uno");
        break;
      case "catch":
        Art.play("catch");
        if (motion) burst(t("Caught!"), seatRect(e.target), delay, "catch");
        break;
      case "challenge":
        if (motion) burst(e.reason === "guilty" ? t("Bluff!") : t("Fair!"), seatRect(e.target), delay, "challenge");
        break;
      case "reveal":
        if (motion && e.reason === "howler") burst(t("Howler!"), seatRect(e.seat), delay, "uno");
        break;
      case "turn": {
        if (!motion || !prev) break;
        const from = seatRect(prev.view.current);
        const to = seatRect(e.seat);
        if (from && to && prev.view.current !== e.seat) {
          const dot = el("div", { class: "sweep" });
          fly(dot, from, to, delay, 380);
        }
        break;
      }
      default: break;
    }
    if (e.kind === "play" && (e.reason || "").split(" ").includes("uno")) {
      Art.play("uno");
      if (motion) burst(t("UNO!"), seatRect(e.seat), delay, "uno");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Keys.

document.addEventListener("keydown", (ev) => {
  const target = ev.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (ev.key === "?") {
    toggleKeys();
    ev.preventDefault();
    return;
  }
  if (ev.key === "Escape") {
    toggleKeys(false);
    $("confirm").hidden = true;
    if (game.menu !== null) { game.menu = null; render(); }
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!game.msg || $("table").hidden) return;
  const view = game.msg.view;
  const legal = sortLegal(view.legal);
  const key = ev.key;
  const hand = view.hand;
  if (/^[1-9]$/.test(key) && Number(key) <= hand.length) playCard(hand[Number(key) - 1]);
  else if (key === "ArrowRight" || key === "ArrowLeft") {
    if (!hand.length) return;
    const d = key === "ArrowRight" ? 1 : -1;
    game.selected = game.selected < 0 ? (d > 0 ? 0 : hand.length - 1) : (game.selected + d + hand.length) % hand.length;
    const card = document.querySelector(`#hand .card[data-index="${game.selected}"]`);
    document.querySelectorAll("#hand .card.selected").forEach((c) => c.classList.remove("selected"));
    if (card) {
      card.classList.add("selected");
      card.focus({ preventScroll: true });
    }
    ev.preventDefault();
  } else if (key === "Enter" || key === " ") {
    // A focused button already acts on Enter (its click): only a card chosen with the arrows
    // while the focus is elsewhere is played here.
    if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return;
    if (key === "Enter" && game.selected >= 0 && game.selected < hand.length) {
      ev.preventDefault();
      playCard(hand[game.selected]);
    }
  } else if ((key === "d" || key === "D") && legal.draw) act("draw");
  else if ((key === "p" || key === "P") && view.drawn && legal.plays[view.drawn]) playCard(view.drawn);
  else if ((key === "k" || key === "K") && legal.pass) act("pass");
  else if ((key === "m" || key === "M") && game.selected >= 0 && legal.more[hand[game.selected]]) {
    act(withUno(legal.more[hand[game.selected]], legal)); // multi_play: this card, then another of its number
  }
  else if (key === "u" || key === "U") {
    if (legal.uno) act("uno");
    else { game.armed = !game.armed; render(); }
  } else if ((key === "c" || key === "C") && legal.catches.length) act(`catch ${legal.catches[0]}`);
  else if ((key === "a" || key === "A") && legal.accept) act("accept");
  else if ((key === "x" || key === "X") && legal.challenge) act("challenge");
  else if ("rygbRYGB".includes(key) && key.length === 1) {
    const c = key.toUpperCase();
    if (legal.colors.includes(c)) act(`color ${c}`);
    else if (game.chooser) {
      const text = game.chooser.plays.find((x) => x.split(" ")[2] === c);
      if (text) act(withUno(text, legal));
    }
  }
});

function enterTable(code, token) {
  game.code = code;
  game.token = token;
  game.timerEnd = null;
  game.msg = null;
  game.rejoin = null;
  game.host = false;
  game.chat = [];
  game.bubbles = {};
  game.reveals = {};
  game.menu = null;
  game.lastPlay = null;
  if (game.ws) {
    game.closedByUs = true;
    game.ws.close();
  }
  game.closedByUs = false;
  $("log").replaceChildren();
  connect();
}

// ---------------------------------------------------------------------------------------------
// Routing by address.

async function route() {
  document.title = t("unotable");
  $("keys-panel").hidden = true;
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "r" && parts[1]) {
    const code = parts[1].toUpperCase();
    if (parts[2] === "replay") return replayPage(code, parts[3]);
    const params = new URLSearchParams(location.search);
    const secret = params.get("rejoin");
    if (secret) return rejoinWith(code, secret);
    const token = localStorage.getItem(tokenKey(code));
    if (token) return enterTable(code, token);
    return joinPage(code);
  }
  return lobby();
}

// A rejoin link from another device: trade its secret for a new token of the same seat.
async function rejoinWith(code, secret) {
  try {
    const r = await api("POST", `/api/rooms/${code}/rejoin`, { secret });
    localStorage.setItem(tokenKey(r.code || code), r.token);
    history.replaceState({}, "", `/r/${r.code || code}`);
    enterTable(r.code || code, r.token);
  } catch (err) {
    history.replaceState({}, "", `/r/${code}`);
    await joinPage(code);
    const box = $("join-error");
    if (box) box.textContent = errorText(err);
  }
}

$("pile").addEventListener("click", () => {
  if (game.msg && sortLegal(game.msg.view.legal).draw) act("draw");
});

async function start() {
  await loadWords(pickLanguage());
  renderHeader();
  window.addEventListener("popstate", route);
  await route();
}

start();
