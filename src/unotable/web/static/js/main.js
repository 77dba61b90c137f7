// The page's entry (index.html's one module script): routing by address, and the whole page
// drawn again when a preference changes. The table is table.js, the lobby lobby.js, the replay
// replay.js; words come from strings.js (t, tn), card faces and sounds from art.js. The server
// sends views and events, never words. No inline script, style or handler: CSP-ready.
import { api, errorText, tokenKey } from "./api.js";
import { Art } from "./art.js";
import { $ } from "./dom.js";
import { renderHeader } from "./header.js";
import "./input.js";
import { registerWorker, showOffline } from "./install.js";
import { provide } from "./late.js";
import { joinPage, lobby } from "./lobby.js";
import { ping } from "./net.js";
import { render } from "./render.js";
import { replayPage, replayRedraw } from "./replay.js";
import { game } from "./state.js";
import { loadWords, pickLanguage, t } from "./strings.js";
import { enterTable } from "./table.js";

// For tests and the curious, on the page's one global (state.js): the art and sounds asked
// for, and the table drawn again.
game.art = Art;
game.render = render;

export async function route() {
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

// The page shown, drawn again (a language, the colour marks, a bubble or a reveal that ends).
export function rerender() {
  if (!$("table").hidden) render();
  else if (!$("replay").hidden) replayRedraw();
  else if (!$("lobby").hidden) lobby();
  else if (!$("join").hidden && game.code) joinPage(game.code);
}

// Offline (the network gone, or the server): the header says the table needs the server; the
// lobby or join page that could not load loads again when the connection is back.
function watchConnection() {
  showOffline(!navigator.onLine);
  window.addEventListener("offline", () => {
    showOffline(true);
    if (game.ws) ping(game.ws); // the table greys out as soon as the server is found gone (net.js)
  });
  window.addEventListener("online", () => {
    showOffline(false);
    if (!$("lobby").hidden || !$("join").hidden) route();
  });
}

provide({ route, rerender });

async function start() {
  await loadWords(pickLanguage());
  renderHeader();
  registerWorker(renderHeader);
  watchConnection();
  window.addEventListener("popstate", route);
  await route();
}

start();
