// The page: the lobby (make or join a room), the table (play over a WebSocket), replays.
// Words come from strings.js (window.STRINGS); the server sends views and events, never words.
"use strict";

const S = window.STRINGS;
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "onclick") node.addEventListener("click", v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

function show(id) {
  for (const s of ["lobby", "join", "table", "replay"]) $(s).hidden = s !== id;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.message || res.statusText), { code: data.error });
  return data;
}

function errorText(err) {
  return (err.code && S.errors[err.code]) || err.message || String(err);
}

const tokenKey = (code) => `unotable:${code}`;

// ---------------------------------------------------------------------------------------------
// Cards and actions.

function cardColor(code) {
  return "RYGB".includes(code[0]) && !["W", "W+4", "HOWLER", "INVIS", "MATER"].includes(code) ? code[0] : null;
}

function cardNode(code, attrs = {}) {
  const color = cardColor(code);
  return el("button", { type: "button", class: `card ${color || "wild"} ${attrs.class || ""}`,
    title: S.cardName(code), "aria-label": S.cardName(code), dataset: { code, ...(attrs.dataset || {}) },
    onclick: attrs.onclick }, S.cardFace(code));
}

// A seat's legal actions (texts of the notation) sorted for the screen.
function sortLegal(legal) {
  const out = { plays: {}, twins: new Set(), draw: false, pass: false, colors: [], accept: false,
    challenge: false, invis: [], uno: false, catches: [], wrongs: [] };
  for (const text of legal) {
    const parts = text.split(" ");
    if (parts[parts.length - 1] === "uno" && parts[0] !== "uno") {
      out.twins.add(text);
      continue;
    }
    switch (parts[0]) {
      case "play": (out.plays[parts[1]] ||= []).push(text); break;
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
// The table.

const game = {
  code: null, token: null, ws: null, msg: null, retry: 0, armed: false, selected: -1,
  chooser: null, closedByUs: false,
};
window.unotable = game; // for tests and the curious: only what this seat may see

function playerName(table, player) {
  const p = table.players[player];
  if (!p) return "?";
  if (p.bot) return S.botName(p.bot.split(":")[0], player);
  return p.name || S.freeSeat;
}

function seatNames(table) {
  return table.seating.map((player) => playerName(table, player));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${game.code}`);
  game.ws = ws;
  ws.onopen = () => {
    game.retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: game.token }));
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (game.closedByUs) return;
    $("conn").hidden = false;
    $("conn").textContent = S.reconnecting;
    game.retry = Math.min(game.retry + 1, 6);
    setTimeout(connect, 300 * 2 ** game.retry);
  };
}

function send(message) {
  if (game.ws && game.ws.readyState === WebSocket.OPEN) game.ws.send(JSON.stringify(message));
}

function act(action) {
  game.armed = false;
  game.chooser = null;
  send({ type: "act", token: game.token, action });
}

function onMessage(m) {
  if (m.type === "error") {
    if (m.code === "bad_token") {
      // This browser's seat is gone (another server, another database): join afresh.
      localStorage.removeItem(tokenKey(game.code));
      game.token = null;
      game.closedByUs = true;
      game.ws.close();
      joinPage(game.code);
      return;
    }
    flash(S.errors[m.code] || m.message);
    return;
  }
  if (m.type === "pong") return;
  $("conn").hidden = true;
  const names = seatNames(m.table);
  if (m.type === "welcome" || (game.msg && m.table.hand !== game.msg.table.hand) ||
      (game.msg && m.table.game_number !== game.msg.table.game_number)) {
    $("log").replaceChildren();
  }
  for (const e of m.events) {
    const line = S.narrate(e, names);
    if (line) $("log").append(el("li", {}, line));
  }
  while ($("log").children.length > 300) $("log").firstChild.remove();
  $("log").scrollTop = $("log").scrollHeight;
  if (game.msg && m.seq !== game.msg.seq) {
    game.chooser = null;
    game.selected = -1;
  }
  game.msg = m;
  game.timerEnd = m.table.timer ? performance.now() + 1000 * m.table.timer.seconds : null;
  render();
}

// The turn timer counts down between messages.
setInterval(() => {
  if (game.timerEnd !== null && game.timerEnd !== undefined && game.msg && !$("table").hidden) render();
}, 1000);

function flash(text) {
  const b = $("banner");
  b.textContent = text;
  b.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => render(), 2500);
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
  $("room-badge").textContent = `${S.roomCode}: ${table.code}`;

  // Banner: waiting, watching.
  const banner = $("banner");
  const free = table.players.filter((p) => p.free).length;
  banner.hidden = false;
  if (table.status === "waiting") banner.replaceChildren(S.waitingFor(free), " ", inviteNode(table.code));
  else if (m.you === null) banner.textContent = S.watching;
  else banner.hidden = true;

  // Seats.
  const standings = table.standings;
  $("seats").replaceChildren(...table.seating.map((player, seat) => {
    const me = seat === mySeat;
    const count = view.hand_sizes[seat];
    const exposed = view.uno_exposed.includes(seat);
    const score = standings.by_team ? null : standings.scores[player];
    const info = table.players[player];
    const left = game.timerEnd ? Math.max(0, (game.timerEnd - performance.now()) / 1000) : 0;
    const timer = table.timer && table.timer.player === player ? S.timer(left) : null;
    return el("div", { class: `seat${view.current === seat ? " turn" : ""}${me ? " me" : ""}`,
      dataset: { seat: String(seat), player: String(player), count: String(count) } },
    el("div", { class: "name" }, names[seat], me ? ` (${S.you})` : ""),
    el("div", { class: "meta" }, S.cards(count), score !== null ? ` · ${S.points(score)}` : "",
      view.dealer === seat ? ` · ${S.dealer}` : "", timer ? ` · ${timer}` : ""),
    count === 1 && !exposed ? el("span", { class: "badge uno" }, S.unoCalled) : null,
    exposed ? el("span", { class: "badge exposed" }, S.exposed) : null,
    !info.online ? el("span", { class: "badge offline" }, "offline") : null);
  }));
  if (standings.by_team) {
    $("seats").append(el("div", { class: "seat" }, standings.scores.map((s, i) =>
      el("div", {}, `${S.team(i)}: ${S.points(s)}`))));
  }

  // Middle: pile, discard, status.
  const pile = $("pile");
  pile.textContent = S.drawPile(view.draw_pile_size);
  pile.disabled = !legal.draw;
  pile.onclick = () => legal.draw && act("draw");
  const top = view.discard[view.discard.length - 1];
  $("discard").replaceChildren(top ? cardNode(top, { class: "top" }) : "",
    el("span", { class: "called" }, S.colorNow(view.color)));
  const current = view.current;
  const status = [el("div", { class: "turn" }, current === null ? "" :
    current === mySeat ? `${S.yourTurn}: ${S.phase[view.phase] || view.phase}` : S.turnOf(names[current]))];
  // The cards the seat in respond would draw (with stacking: the whole pending total).
  const pendingDraw = view.phase === "respond" && view.pending ? view.pending.draw : 0;
  if (pendingDraw) status.push(el("div", { class: "pending", id: "pending-draw" }, S.pendingDraw(pendingDraw)));
  if (mySeat !== null && current !== mySeat && Object.keys(legal.plays).length) {
    status.push(el("div", { class: "jump-in", id: "jump-in" }, S.jumpIn));
  }
  status.push(el("div", {}, S.direction(view.direction)));
  status.push(el("div", {}, S.handNumber(table.hand + 1, table.game_number + 1)));
  $("status").replaceChildren(...status);

  // Actions.
  renderActions(legal, names);
  renderChooser(legal, names);

  // Hand.
  const hand = view.hand.map((code, i) => cardNode(code, {
    class: `${legal.plays[code] ? "playable" : ""} ${i === game.selected ? "selected" : ""} ${view.drawn === code && view.phase === "after_draw" ? "drawn" : ""}`,
    dataset: { index: String(i) }, onclick: () => playCard(code),
  }));
  $("hand").replaceChildren(...hand);
  $("hand").hidden = mySeat === null;
  $("log-title").textContent = S.log;

  renderOverlay(m, names);
}

function inviteNode(code) {
  const url = `${location.origin}/r/${code}`;
  const button = el("button", { type: "button", class: "secondary", onclick: () => {
    navigator.clipboard?.writeText(url);
    button.textContent = S.copied;
  } }, S.copy);
  return el("span", {}, `${S.invite}: `, el("a", { href: url, id: "invite-link" }, url), " ", button);
}

function withUno(text, legal) {
  const twin = `${text} uno`;
  return game.armed && legal.twins.has(twin) ? twin : text;
}

function playCard(code) {
  const m = game.msg;
  const legal = sortLegal(m.view.legal);
  const plays = legal.plays[code];
  if (!plays) return;
  if (plays.length === 1 && plays[0].split(" ").length === 2) {
    act(withUno(plays[0], legal));
    return;
  }
  game.chooser = { code, plays };
  render();
}

function renderActions(legal, names) {
  const buttons = [];
  const b = (label, action, cls) => el("button", { type: "button", class: cls, dataset: { action },
    onclick: () => act(action) }, label);
  const canUnoTwin = legal.twins.size > 0 && [...legal.twins].some((t) => t.startsWith("play"));
  if (legal.uno) buttons.push(b(S.uno, "uno", "uno"));
  else if (canUnoTwin) {
    buttons.push(el("button", { type: "button", class: `uno${game.armed ? " armed" : ""}`,
      dataset: { action: "arm-uno" }, onclick: () => { game.armed = !game.armed; render(); } },
    game.armed ? S.unoArmed : S.uno));
  }
  for (const s of legal.catches) buttons.push(b(S.catchSeat(names[s]), `catch ${s}`));
  for (const s of legal.wrongs) buttons.push(b(S.wrongSeat(names[s]), `wrong ${s}`));
  if (legal.draw) buttons.push(b(S.draw, "draw", "secondary"));
  const view = game.msg.view;
  if (view.phase === "after_draw" && view.drawn && legal.plays[view.drawn]) {
    buttons.push(el("button", { type: "button", dataset: { action: "play-drawn" },
      onclick: () => playCard(view.drawn) }, S.playDrawn));
  }
  if (legal.pass) buttons.push(b(S.keep, "pass", "secondary"));
  if (legal.challenge) buttons.push(b(S.challenge, "challenge"));
  if (legal.accept) buttons.push(b(S.accept, "accept", "secondary"));
  for (const c of legal.invis) buttons.push(b(S.invisibility(c), withUno(`invisibility ${c}`, legal)));
  $("actions").replaceChildren(...buttons);
}

function renderChooser(legal, names) {
  const box = $("chooser");
  const items = [];
  if (legal.colors.length) {
    items.push(el("span", {}, S.chooseColor));
    for (const c of legal.colors) {
      items.push(el("button", { type: "button", class: c, dataset: { action: `color ${c}` },
        onclick: () => act(`color ${c}`) }, S.colorButton(c)));
    }
  } else if (game.chooser) {
    const { code, plays } = game.chooser;
    // A seat's number: the Howler's target, or whom a 7 swaps hands with (seven_zero).
    const seatArg = (text) => /^\d+$/.test(text.split(" ")[2] || "");
    const bySeat = plays.some(seatArg);
    items.push(el("span", {}, code === "HOWLER" ? S.chooseTarget : bySeat ? S.chooseSwap : S.chooseColor));
    for (const text of plays) {
      const arg = text.split(" ")[2];
      const label = seatArg(text) ? names[Number(arg)] : S.colorButton(arg);
      items.push(el("button", { type: "button", class: seatArg(text) ? "" : arg,
        dataset: { action: text }, onclick: () => act(withUno(text, legal)) }, label));
    }
    items.push(el("button", { type: "button", class: "secondary",
      onclick: () => { game.chooser = null; render(); } }, S.cancel));
  }
  box.replaceChildren(...items);
  box.hidden = items.length === 0;
}

function renderOverlay(m, names) {
  const { table, view } = m;
  const box = $("overlay");
  if (!table.hand_over) {
    box.hidden = true;
    return;
  }
  const standings = table.standings;
  const rows = standings.by_team
    ? standings.scores.map((s, i) => el("tr", {}, el("td", {}, S.team(i)), el("td", {}, S.points(s))))
    : standings.scores.map((s, p) => el("tr", {}, el("td", {}, playerName(table, p)), el("td", {}, S.points(s))));
  const content = [el("h2", {}, standings.finished ? S.gameOver : S.scoresTitle(table.hand + 1))];
  if (table.last_hand) {
    content.push(el("p", {}, S.handWon(playerName(table, table.last_hand.winner), table.last_hand.points)));
  }
  content.push(el("table", { class: "scores" }, rows));
  const seated = m.you !== null;
  if (standings.finished) {
    content.push(el("p", {}, S.winners(standings.winners.map((p) => playerName(table, p)))));
    if (seated) {
      content.push(el("button", { type: "button", id: "rematch",
        onclick: () => send({ type: "rematch", token: game.token }) }, S.rematch));
    }
    content.push(" ", el("a", { href: `/r/${table.code}/replay/${table.game_number}`, id: "replay-link" },
      S.replayLink(table.game_number)));
  } else if (seated) {
    content.push(el("button", { type: "button", id: "next-hand",
      onclick: () => send({ type: "next_hand", token: game.token }) }, S.nextHand));
  } else {
    content.push(el("p", {}, S.waitNextHand));
  }
  box.replaceChildren(el("div", { class: "box" }, content));
  box.hidden = false;
  void view;
}

document.addEventListener("keydown", (ev) => {
  if (!game.msg || $("table").hidden || ev.target.tagName === "INPUT") return;
  const view = game.msg.view;
  const legal = sortLegal(view.legal);
  const key = ev.key;
  const hand = view.hand;
  if (/^[1-9]$/.test(key) && Number(key) <= hand.length) playCard(hand[Number(key) - 1]);
  else if (key === "ArrowRight" || key === "ArrowLeft") {
    const d = key === "ArrowRight" ? 1 : -1;
    game.selected = (game.selected + d + hand.length) % Math.max(hand.length, 1);
    render();
  } else if (key === "Enter" && game.selected >= 0) playCard(hand[game.selected]);
  else if ((key === "d" || key === "D") && legal.draw) act("draw");
  else if ((key === "p" || key === "P") && view.drawn) playCard(view.drawn);
  else if ((key === "k" || key === "K") && legal.pass) act("pass");
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
      const text = game.chooser.plays.find((t) => t.split(" ")[2] === c);
      if (text) act(withUno(text, legal));
    }
  }
});

// ---------------------------------------------------------------------------------------------
// The lobby: make a room, or join one by its code.

async function lobby() {
  show("lobby");
  const opts = await api("GET", "/api/options");
  const seatsBox = el("div", { class: "wide", id: "seat-choices" });
  const edition = el("select", { name: "edition", id: "edition" },
    Object.entries(opts.editions).map(([k, v]) => el("option", { value: k }, v)));
  const mode = el("select", { name: "mode", id: "mode" },
    opts.modes.map((k) => el("option", { value: k }, S.modes[k] || k)));
  const players = el("input", { type: "number", id: "players", min: opts.players[0], max: opts.players[1], value: 4 });
  const target = el("input", { type: "number", id: "target", min: opts.target[0], max: opts.target[1], value: 500 });
  const rounds = el("input", { type: "number", id: "rounds", min: opts.rounds[0], max: opts.rounds[1], value: 1 });
  const turn = el("input", { type: "number", id: "turn-seconds", min: 0, max: opts.turn_seconds[1], value: 0 });
  const delay = el("input", { type: "number", id: "bot-delay", min: 0, max: opts.bot_delay[1], step: 0.1, value: opts.bot_delay[2] });
  const mustPlay = el("input", { type: "checkbox", id: "must-play-drawn" });
  const lenient = el("input", { type: "checkbox", id: "lenient-plays" });
  const lowest = el("input", { type: "checkbox", id: "scoring-lowest" });
  const house = el("select", { name: "house", id: "house" },
    (opts.house || ["official"]).map((k) => el("option", { value: k }, S.housePresets[k] || k)),
    el("option", { value: "custom" }, S.houseCustom));
  // Each house rule of RULES §11 on its own; the preset above sets them, and shows which one
  // they make (or "custom").
  const stacking = el("select", { id: "house-stacking" },
    ["false", "same", "any"].map((k) => el("option", { value: k }, S.stackingValues[k])));
  const houseBoxes = Object.fromEntries(["seven_zero", "jump_in", "draw_to_match"].map((k) =>
    [k, el("input", { type: "checkbox", id: `house-${k.replaceAll("_", "-")}` })]));
  const presets = opts.house_presets || {};
  const houseRules = () => {
    const out = { stacking: stacking.value === "false" ? false : stacking.value };
    for (const [k, box] of Object.entries(houseBoxes)) out[k] = box.checked;
    return out;
  };
  const samePreset = (a, b) => Object.keys(a).every((k) => a[k] === b[k]);
  house.addEventListener("change", () => {
    const rules = presets[house.value];
    if (!rules) return;
    stacking.value = String(rules.stacking);
    for (const [k, box] of Object.entries(houseBoxes)) box.checked = Boolean(rules[k]);
  });
  const showPreset = () => {
    const rules = houseRules();
    house.value = Object.keys(presets).find((k) => samePreset(presets[k], rules)) || "custom";
  };
  stacking.addEventListener("change", showPreset);
  Object.values(houseBoxes).forEach((box) => box.addEventListener("change", showPreset));
  const error = el("div", { class: "error wide", id: "create-error" });

  const seatCount = () => opts.game_players[mode.value] || Number(players.value) || 4;
  function drawSeats() {
    const n = seatCount();
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren(el("div", {}, S.seats), ...Array.from({ length: n }, (_, i) =>
      el("label", { style: "margin-right:.6em" }, `${i + 1}: `,
        el("select", { dataset: { seat: String(i) } },
          el("option", { value: "human" }, S.seatPerson),
          [...opts.bots, ...Object.keys(S.botStrengths)].map((b) =>
            el("option", { value: b }, S.botKinds[b] || S.botStrengths[b] || b))))));
    seatsBox.querySelectorAll("select").forEach((s, i) => { s.value = old[i] || (i < 2 ? "human" : "greedy"); });
  }
  players.addEventListener("input", drawSeats);
  mode.addEventListener("change", drawSeats);
  drawSeats();

  const form = el("form", { class: "create", id: "create-form" },
    el("label", { for: "edition" }, S.edition), edition,
    el("label", { for: "mode" }, S.mode), mode,
    el("label", { for: "players" }, S.players), players,
    el("label", { for: "target" }, S.target), target,
    el("label", { for: "rounds" }, S.rounds), rounds,
    el("label", { class: "wide" }, mustPlay, " ", S.mustPlayDrawn),
    el("label", { class: "wide" }, lenient, " ", S.lenientPlays),
    el("label", { class: "wide" }, lowest, " ", S.scoringLowest),
    el("label", { for: "house" }, S.house), house,
    el("label", { for: "house-stacking" }, S.stacking), stacking,
    ...Object.entries(houseBoxes).map(([k, box]) => el("label", { class: "wide" }, box, " ", S.houseRules[k])),
    el("label", { for: "turn-seconds" }, S.turnSeconds), turn,
    el("label", { for: "bot-delay" }, S.botDelay), delay,
    seatsBox, error,
    el("button", { type: "submit", class: "wide", id: "create" }, S.create));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {
      edition: edition.value, mode: mode.value, players: Number(players.value), target: Number(target.value),
      options: { must_play_drawn: mustPlay.checked, lenient_plays: lenient.checked,
        scoring: lowest.checked ? "lowest" : "standard" },
      seats: [...seatsBox.querySelectorAll("select")].map((s) => s.value),
      turn_seconds: Number(turn.value), bot_delay: Number(delay.value),
    };
    const rules = houseRules();
    if (Object.values(rules).some(Boolean)) body.house = rules;
    if (Number(rounds.value) !== 1) body.rounds = Number(rounds.value);
    try {
      const room = await api("POST", "/api/rooms", body);
      history.pushState({}, "", room.url);
      route();
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
  const code = el("input", { type: "text", id: "join-code", maxlength: 8, placeholder: "ABC123", autocomplete: "off" });
  const joinForm = el("form", { id: "join-form" }, el("label", { for: "join-code" }, `${S.roomCode} `), code, " ",
    el("button", { type: "submit" }, S.join));
  joinForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    history.pushState({}, "", `/r/${code.value.trim().toUpperCase()}`);
    route();
  });
  $("lobby").replaceChildren(el("p", {}, S.tagline), el("h2", {}, S.createTitle), form,
    el("h2", {}, S.joinTitle), joinForm);
}

async function joinPage(code) {
  show("join");
  let info;
  try {
    info = await api("GET", `/api/rooms/${code}`);
  } catch (err) {
    $("join").replaceChildren(el("p", { class: "error" }, errorText(err)));
    return;
  }
  const error = el("div", { class: "error", id: "join-error" });
  const name = el("input", { type: "text", id: "name", maxlength: 24, placeholder: S.yourName, autocomplete: "nickname" });
  const take = async (player) => {
    try {
      const r = await api("POST", `/api/rooms/${code}/join`, { name: name.value, player });
      localStorage.setItem(tokenKey(r.code), r.token);
      enterTable(r.code, r.token);
    } catch (err) {
      error.textContent = errorText(err);
    }
  };
  const seats = el("ul", { class: "seat-list" }, info.players.map((p) => el("li", {},
    `${p.player + 1}. `, p.bot ? S.botName(p.bot.split(":")[0], p.player) : p.name || S.freeSeat,
    p.free ? el("button", { type: "button", class: "secondary", style: "margin-left:.6em",
      dataset: { player: String(p.player) }, onclick: () => take(p.player) }, S.takeSeat) : null)));
  const anyFree = info.players.some((p) => p.free);
  $("join").replaceChildren(el("h2", {}, `${S.roomCode}: ${info.code}`), inviteNode(info.code),
    el("p", {}, el("label", { for: "name" }, `${S.yourName}: `), name), seats,
    anyFree ? el("button", { type: "button", id: "take-seat", onclick: () => take(null) }, S.takeAnySeat) : null, " ",
    el("button", { type: "button", class: "secondary", id: "watch", onclick: () => enterTable(info.code, null) }, S.watch),
    error);
}

function enterTable(code, token) {
  game.code = code;
  game.token = token;
  game.timerEnd = null;
  game.msg = null;
  if (game.ws) {
    game.closedByUs = true;
    game.ws.close();
  }
  game.closedByUs = false;
  $("log").replaceChildren();
  connect();
}

// ---------------------------------------------------------------------------------------------
// Replays: a finished game step by step, as a spectator saw it.

async function replayPage(code, number) {
  show("replay");
  let data;
  try {
    data = await api("GET", `/api/rooms/${code}/games/${number}`);
  } catch (err) {
    $("replay").replaceChildren(el("p", { class: "error" }, errorText(err)));
    return;
  }
  const steps = data.steps;
  let i = 0;
  const nameOf = (p) => {
    const info = data.players[p];
    return info.bot ? S.botName(info.bot.split(":")[0], p) : info.name || S.freeSeat;
  };
  const draw = () => {
    const step = steps[i];
    const names = step.seating.map(nameOf);
    const v = step.view;
    const top = v.discard[v.discard.length - 1];
    const lines = [];
    for (let j = 0; j <= i; j++) {
      if (steps[j].hand !== step.hand) continue;
      for (const e of steps[j].events) {
        const line = S.narrate(e, steps[j].seating.map(nameOf));
        if (line) lines.push(el("li", {}, line));
      }
    }
    $("replay").replaceChildren(
      el("h2", {}, S.replayTitle(data.number)),
      el("div", {}, el("button", { type: "button", id: "replay-prev", onclick: () => { i = Math.max(0, i - 1); draw(); } }, S.prev),
        " ", el("span", { id: "replay-step" }, S.step(i + 1, steps.length)), " ",
        el("button", { type: "button", id: "replay-next", onclick: () => { i = Math.min(steps.length - 1, i + 1); draw(); } }, S.next)),
      el("div", { id: "seats" }, step.seating.map((p, seat) => el("div", { class: `seat${v.current === seat ? " turn" : ""}` },
        el("div", { class: "name" }, names[seat]), el("div", { class: "meta" }, S.cards(v.hand_sizes[seat]))))),
      el("div", { id: "middle" }, top ? cardNode(top) : "", el("span", {}, S.colorNow(v.color))),
      el("ol", { id: "log" }, lines));
  };
  draw();
}

// ---------------------------------------------------------------------------------------------
// Routing by address.

function route() {
  $("home").textContent = S.title;
  document.title = S.title;
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "r" && parts[1]) {
    const code = parts[1].toUpperCase();
    if (parts[2] === "replay") return replayPage(code, parts[3]);
    const token = localStorage.getItem(tokenKey(code));
    if (token) return enterTable(code, token);
    return joinPage(code);
  }
  return lobby();
}

window.addEventListener("popstate", route);
route();
