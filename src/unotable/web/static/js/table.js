// The table's messages: each update from the server drawn (render.js), narrated in the log and
// the announcements, animated (motion.js); the turn timer; entering a room's table.
import { tokenKey } from "./api.js";
import { Art } from "./art.js";
import { $, announce, el, flash } from "./dom.js";
import { sortLegal, withUno } from "./legal.js";
import { notifyTurn } from "./install.js";
import { provide, rerender, route } from "./late.js";
import { joinPage } from "./lobby.js";
import { animate, measure } from "./motion.js";
import { act, connect, setOffline } from "./net.js";
import { SERVER } from "./protocol.js";
import { decisionText, moreTimeLeft, render } from "./render.js";
import { askBack, hostAsk } from "./seats.js";
import { onQr, onSocial } from "./social.js";
import { game, playerName, seatNames } from "./state.js";
import { errorWords, narrate, t, tn } from "./strings.js";

export function onMessage(m) {
  if (m.type === SERVER.ERROR) {
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
  if (m.type === SERVER.PONG) return;
  if (m.type === SERVER.QR) {
    onQr(m);
    return;
  }
  if (m.type === SERVER.RETIRED) {
    // This seat's token stopped working (taken back elsewhere, freed, given to a bot).
    localStorage.removeItem(tokenKey(game.code));
    game.token = null;
    game.closedByUs = true;
    if (game.ws) game.ws.close();
    const why = m.reason === "rejoined" ? t("Your seat was taken back on another device: you are watching here now.")
      : m.reason === "freed" ? t("The host freed your seat: you are watching now.")
        : m.reason === "given" ? t("The host gave your seat back to whoever asked for it on another device: you are watching here now.")
          : t("The host gave your seat to a bot: you are watching now.");
    enterTable(game.code, null);
    flash(why);
    return;
  }
  if (m.type === SERVER.SEAT_ASK) {
    if (game.msg) hostAsk(m, game.msg.table.players.map((p) => playerName(game.msg.table, p.player)));
    return;
  }
  if (m.type === SERVER.ASK_ANSWER) {
    if (m.reason === "given" && m.token) {
      localStorage.setItem(tokenKey(game.code), m.token);
      enterTable(game.code, m.token);
      flash(t("The host gave you your seat back."));
      return;
    }
    flash(m.reason === "refused" ? t("The host did not give you the seat.")
      : m.reason === "back" ? t("Whoever had that seat is back at it.")
        : t("That seat is no longer a person's: the host freed it or gave it to a bot."));
    return;
  }
  if (m.type === SERVER.REACTION || m.type === SERVER.CHAT) {
    onSocial(m);
    return;
  }
  // An update carries only the table's keys that changed (hello's `changes`): the rest is as before.
  if (m.type === SERVER.UPDATE && game.msg) m.table = { ...game.msg.table, ...(m.table || {}) };
  if (!m.view || !m.table) return;
  $("conn").hidden = true;
  const back = game.offline && m.type === SERVER.WELCOME; // the connection is back
  if (back) setOffline(false);
  const before = game.msg;
  const names = seatNames(m.table);
  const newHand = !before || m.table.hand !== before.table.hand || m.table.game_number !== before.table.game_number;
  if (m.type === SERVER.WELCOME || newHand) {
    $("log").replaceChildren();
    game.lastPlay = null;
    game.reveals = {};
  }
  if (m.type === SERVER.WELCOME) {
    // A new connection (a reconnect): an action sent while the old one was closing never
    // reached the server, so this state may be acted on again.
    game.actedSeq = null;
    game.rejoin = m.rejoin || null;
    game.chat = (m.chat || []).map((c) => ({ player: c.player, name: c.name, text: String(c.text || "") }));
    if (m.you === null && game.pendingAsk) { // asked from the join page: asked now, watching meanwhile
      const { player, name } = game.pendingAsk;
      game.pendingAsk = null;
      setTimeout(() => askBack(player, name), 0);
    }
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
  const rects = before && m.type !== SERVER.WELCOME ? measure() : null;
  game.msg = m;
  // The clock on the current seat's ring: the Harry Potter answer window, else the turn timer.
  const clock = m.table.answer || m.table.timer || null;
  game.clock = clock;
  game.timerEnd = clock ? performance.now() + 1000 * clock.seconds : null;
  // The whole of the clock: the room's setting, with the person's "More time" once given. The
  // server counts it from the card's landing, so the first second and a half shows it whole.
  const extra = clock ? (m.table.more_time || {}).added || 0 : 0;
  game.timerTotal = !clock ? 0 : extra + (m.table.answer ? ((m.table.settings.room || {}).auto_accept_seconds || clock.seconds)
    : m.table.settings.turn_seconds);
  render();
  if (m.type !== SERVER.WELCOME) {
    const myTurnNow = m.seat !== null && m.view.current === m.seat && m.view.legal.length > 0;
    const myTurnBefore = before && before.seat !== null && before.view.current === before.seat;
    if (myTurnNow && !myTurnBefore) {
      Art.play("turn");
      notifyTurn(m); // only while the page is hidden, and if asked for (install.js)
    }
    announce([...lines.slice(-3), announceDecision(m)].filter(Boolean).join(" "));
    if (rects) animate(m.events, rects, before, m);
  } else {
    announce([back ? t("Connected again: the table is live.") : t("You are at the table of room {code}.", { code: m.table.code }),
      announceDecision(m)].filter(Boolean).join(" "));
  }
  const log = $("log");
  log.scrollTop = log.scrollHeight;
  sendQueued(m);
}

// Several cards at once (multi_play, docs/rules.md §11.5): the cards picked (input.js) are
// played one by one as the server answers ("play R5 more", ..., "play B5"), each with the UNO
// call when it was armed and the server offers it with that play.
function sendQueued(m) {
  if (!game.queue.length) return;
  const next = game.queue[0];
  if (m.seat === null || m.view.current !== m.seat || !m.view.series) {
    if (m.seat === null || m.view.current !== m.seat) game.queue = []; // the turn is over
    return; // (a message from before the first play arrived: wait for the series)
  }
  game.queue.shift();
  act(withUno(next, sortLegal(m.view.legal), game.queueUno));
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
    if (["W+4", "LW+2", "DW+C"].includes((e.cards || [])[0])) game.colorBefore = before ? before.view.color : null;
  }
  void m;
}

// What the person must answer now, for the live region (a screen reader's only view of the
// table): the decision's sentence (their turn, a draw pending on them, a challenge, an
// Invisibility window, a colour to choose, a catch or a jump-in), the seconds left on their
// timer and the "More time" key. Said once per decision (a message that changes nothing for them
// says nothing again), or again on asking (key L: `again`). "" when nothing waits for them.
export function announceDecision(m, again = false) {
  if (!m || m.seat === null || m.table.hand_over || m.table.status !== "playing") return "";
  const legal = sortLegal(m.view.legal);
  const mine = m.view.current === m.seat && m.view.legal.length > 0;
  const outOfTurn = legal.catches.length || legal.wrongs.length || Object.keys(legal.plays).length;
  const text = mine || outOfTurn ? decisionText(m, seatNames(m.table), legal) : "";
  const key = `${m.seq}|${text}|${((m.table.more_time || {}).used || []).join()}`;
  if (!text || (!again && key === game.lastDecision)) {
    if (!text) game.lastDecision = null;
    return "";
  }
  game.lastDecision = key;
  const parts = [text];
  const clock = game.clock;
  if (clock && m.you !== null && clock.player === m.you) {
    parts.push(tn("{n} second left.", "{n} seconds left.", Math.ceil(timerLeft())));
    if (moreTimeLeft(m)) parts.push(t("Press T for more time."));
  }
  const spoken = parts.join(" ");
  if (again) announce(spoken);
  return spoken;
}

// The turn timer counts down between messages (the ring and the seconds).
setInterval(() => {
  if (game.timerEnd === null || game.timerEnd === undefined || !game.msg || $("table").hidden) return;
  drawTimer();
}, 250);

function timerLeft() {
  if (!game.timerEnd) return 0;
  const left = Math.max(0, (game.timerEnd - performance.now()) / 1000);
  return game.timerTotal ? Math.min(game.timerTotal, left) : left;
}

export function drawTimer() {
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
  // A person who cannot see the ring hears once that their time runs short.
  const mine = m.you !== null && timer.player === m.you;
  const warn = `${m.seq}|${((m.table.more_time || {}).used || []).join()}`;
  if (mine && timer.seconds > 10 && left <= 10 && left > 0 && game.warned !== warn) {
    game.warned = warn;
    announce(tn("{n} second left.", "{n} seconds left.", whole) + (moreTimeLeft(m) ? ` ${t("Press T for more time.")}` : ""));
  }
  if (left <= 5 && left > 0 && m.seat !== null && m.table.seating[m.seat] === timer.player && whole !== game.lastTick) {
    game.lastTick = whole;
    Art.play("tick");
  }
}

export function enterTable(code, token) {
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
  setOffline(false);
  $("log").replaceChildren();
  connect(onMessage);
}

// Leave the table for the lobby: the socket closed (the seat's token is kept: the room's link
// brings the seat back).
export function leaveTable() {
  game.closedByUs = true;
  if (game.ws) game.ws.close();
  game.ws = null;
  game.msg = null;
  game.timerEnd = null;
  game.menu = null;
  setOffline(false);
  $("conn").hidden = true;
  $("overlay").hidden = true;
  history.pushState({}, "", "/");
  route();
}

provide({ enterTable, leaveTable, drawTimer, announceDecision });
