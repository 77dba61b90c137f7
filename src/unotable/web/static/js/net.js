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
// the load balancer, to a node that takes the room). A move left unanswered for PROBE_MS pings at
// once, so a person who plays notices a dead node within PROBE_MS + 2 * ANSWER_MS (5.5 s); one who
// only watches within PING_MS + 2 * ANSWER_MS (14 s). The server closes a socket silent for 35 s.
export const PING_MS = 10000;
const ANSWER_MS = 2000;
const PROBE_MS = 1500;
// A socket not open within OPEN_MS is given up and made again: nginx may have sent it to a frozen
// node (its kernel still accepts connections), where it would wait for nginx's 45 s timeout.
export const OPEN_MS = 5000;

// What to do with each message from the server (table.js's onMessage, given by enterTable).
let received = () => {};

export function connect(onMessage) {
  if (onMessage) received = onMessage;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(withLang(`${proto}://${location.host}/ws/${game.code}`));
  game.ws = ws;
  ws.missed = 0;
  ws.heardAt = performance.now();
  ws.opening = setTimeout(() => { if (ws.readyState === WebSocket.CONNECTING) ws.close(); }, OPEN_MS);
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
  });
  ws.addEventListener("close", (ev) => lost(ws, ev.code));
}

// A room moved to another node (1012: the node stops, or hands rooms over) is reconnected to at
// once, within a jittered 0.1-0.5 s so that a node's clients do not all come back in the same
// instant; any other loss backs off from 0.6 s to 19 s.
function lost(ws, code) {
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
  const moved = code === 1012 && game.retry === 0;
  game.retry = Math.min(game.retry + 1, 6);
  setTimeout(connect, moved ? 100 + 400 * Math.random() : 300 * 2 ** game.retry);
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
    lost(ws); // two missed answers: dead, whatever the socket says (its close may take minutes)
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
  const ws = game.ws;
  const sentAt = performance.now();
  clearTimeout(ws.probe);
  ws.probe = setTimeout(() => { if (ws.heardAt < sentAt) ping(ws); }, PROBE_MS);
}

// The person's "More time" for their running turn timer or answer window (once a hand).
export function askMoreTime() {
  if (game.token) send({ type: CLIENT.MORE_TIME, token: game.token });
}
