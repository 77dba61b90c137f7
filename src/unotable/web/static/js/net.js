// The connection: one WebSocket to the room, its heartbeat and reconnection, and the seat's
// actions sent over it (one per state).
import { withLang } from "./api.js";
import { $, announce } from "./dom.js";
import { CLIENT } from "./protocol.js";
import { game } from "./state.js";
import { t } from "./strings.js";

// The heartbeat (docs/web.md, "Heartbeat"): the page pings every PING_MS; the server answers
// (any message counts). An answer missing after ANSWER_MS sends a second ping at once; a second
// missed answer means the node is frozen or lost: the page drops the socket and reconnects (through
// the load balancer, to a node that takes the room). Whenever the page waits for the server to say
// something soon (a move of the person's, or a bot's turn: its delay, then a move) and hears
// nothing for PROBE_MS more, it pings at once, so a dead node is noticed within PROBE_MS + 2 *
// ANSWER_MS (4 s) of a move or of a bot's delay; a person who only watches other people within
// PING_MS + 2 * ANSWER_MS (13 s). The server closes a socket silent for 35 s.
export const PING_MS = 10000;
const ANSWER_MS = 1500;
const PROBE_MS = 1000;
// A socket not open within OPEN_MS is given up and made again: nginx may have sent it to a frozen
// node (its kernel still accepts connections), where it would wait for nginx's 45 s timeout.
export const OPEN_MS = 5000;
// After a node went silent (or a socket did not open), the page first asks /healthz FIND_TRIES
// times at once and waits for the answers, at most FIND_MS: the documented nginx site sends them
// round-robin (so with up to FIND_TRIES nodes one meets the frozen node), gives each node 2 s and
// passes the request on, and marks a node that did not answer as down for its other requests, so
// the socket made next goes to a live node instead of the frozen one (docs/deploy.md).
const FIND_TRIES = 3;
const FIND_MS = 5000;

// What to do with each message from the server (table.js's onMessage, given by enterTable).
let received = () => {};

export function connect(onMessage) {
  if (onMessage) received = onMessage;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(withLang(`${proto}://${location.host}/ws/${game.code}`));
  game.ws = ws;
  ws.missed = 0;
  ws.heardAt = performance.now();
  ws.opening = setTimeout(() => {
    if (ws.readyState !== WebSocket.CONNECTING) return;
    lost(ws, 0, true); // not opened: the node may be frozen
    ws.close();
  }, OPEN_MS);
  ws.addEventListener("open", () => {
    clearTimeout(ws.opening);
    game.retry = 0;
    ws.send(JSON.stringify({ type: CLIENT.HELLO, token: game.token, changes: true }));
    ws.beat = setInterval(() => ping(ws), PING_MS);
  });
  ws.addEventListener("message", (ev) => {
    ws.heardAt = performance.now();
    ws.missed = 0;
    clearTimeout(ws.answer);
    ws.answer = null;
    received(JSON.parse(ev.data));
    const wait = botWait(game.msg);
    if (wait !== null && game.ws === ws) probeAfter(ws, wait + PROBE_MS);
  });
  ws.addEventListener("close", (ev) => lost(ws, ev.code));
}

// How long a bot is given to move now (its delay, in ms), or null when no bot is to move: the
// game is under way and the seat to move (or to answer) is a bot's, or a bot's for an away person.
function botWait(m) {
  if (!m || !m.table || !m.view || m.table.status !== "playing" || m.table.hand_over) return null;
  const seat = m.view.current;
  if (seat === null || seat === undefined || seat === m.seat) return null;
  const p = m.table.players[seat];
  if (!p || (p.bot === null && !p.away_bot)) return null;
  return 1000 * ((m.table.settings && m.table.settings.bot_delay) || 0);
}

// Ping at once if nothing is heard on `ws` within `ms` from now.
function probeAfter(ws, ms) {
  const from = performance.now();
  clearTimeout(ws.probe);
  ws.probe = setTimeout(() => { if (ws.heardAt <= from) ping(ws); }, ms);
}

// A room moved to another node (1012: the node stops, or hands rooms over) is reconnected to at
// once, within a jittered 0.1-0.5 s so that a node's clients do not all come back in the same
// instant; so is a node found silent (`silent`: two pings unanswered, or a socket that did not
// open), after asking /healthz (FIND_MS) so that the load balancer learns which node is down;
// any other loss backs off from 0.6 s to 19 s.
function lost(ws, code, silent = false) {
  clearTimeout(ws.opening);
  clearInterval(ws.beat);
  clearTimeout(ws.answer);
  clearTimeout(ws.probe);
  if (game.closedByUs || game.ws !== ws) return;
  game.ws = null;
  $("conn").hidden = false;
  $("conn").textContent = t("Connection lost: reconnecting…");
  if (!game.offline) announce(t("Connection lost: reconnecting…"));
  setOffline(true);
  const soon = (code === 1012 || silent) && game.retry === 0;
  game.retry = Math.min(game.retry + 1, 6);
  const again = silent ? () => findLive().then(() => connect()) : () => connect();
  setTimeout(again, soon ? 100 + 400 * Math.random() : 300 * 2 ** game.retry);
}

// Ask /healthz FIND_TRIES times (through the load balancer) and wait for the answers, at most
// FIND_MS; whatever they say, the page then reconnects.
function findLive() {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), FIND_MS);
  const asks = Array.from({ length: FIND_TRIES }, () => fetch("/healthz", { cache: "no-store", signal: stop.signal }));
  return Promise.allSettled(asks).finally(() => clearTimeout(timer));
}

// While the connection is lost the table is greyed out and its controls are inert (no click, no
// focus, no key: input.js), until the server's welcome comes back (table.js).
const LIVE_PARTS = ["felt", "prompt", "actions", "chooser", "hand", "social", "overlay"];
export function setOffline(on) {
  game.offline = on;
  $("table").classList.toggle("offline", on);
  for (const id of LIVE_PARTS) $(id).inert = on;
}

export function ping(ws) {
  if (game.ws !== ws || ws.readyState !== WebSocket.OPEN || ws.answer) return;
  ws.send(JSON.stringify({ type: CLIENT.PING }));
  ws.answer = setTimeout(() => {
    ws.answer = null;
    if (game.ws !== ws) return;
    ws.missed += 1;
    if (ws.missed < 2) {
      ping(ws);
      return;
    }
    lost(ws, 0, true); // two missed answers: dead, whatever the socket says (its close may take minutes)
    try { ws.close(); } catch (e) { /* closing already */ }
  }, ANSWER_MS);
}

export function send(message) {
  if (game.ws && game.ws.readyState === WebSocket.OPEN) {
    game.ws.send(JSON.stringify(message));
    return true;
  }
  return false;
}

// One action per state: a second click (or a key and a click) before the server's answer is
// dropped, so Enter on a focused card plays exactly one card.
export function act(action) {
  const m = game.msg;
  if (!m || game.actedSeq === m.seq) return;
  game.actedSeq = m.seq;
  game.armed = false;
  game.chooser = null;
  game.sent.push(action);
  if (!send({ type: CLIENT.ACT, token: game.token, action })) {
    game.actedSeq = null; // not sent: try again
    return;
  }
  probeAfter(game.ws, PROBE_MS);
}

// The person's "More time" for their running turn timer or answer window (once a hand).
export function askMoreTime() {
  if (game.token) send({ type: CLIENT.MORE_TIME, token: game.token });
}
