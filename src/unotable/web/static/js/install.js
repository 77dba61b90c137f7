// The page as an app (docs/web.md, "Install, offline, notifications"): the service worker
// (/sw.js, which keeps the page and its cards offline), the install button where the browser
// offers one (beforeinstallprompt), the note that the table needs the server while offline, and
// the "your turn" notification while the page is in the background, once the person asked for it.
//
//   registerWorker()          at the start (main.js)
//   installButton()           the header's install button (hidden until the browser offers it)
//   notifyButton()            the header's notifications button (asks the browser on a click only)
//   notifyTurn(m)             table.js, when the turn comes to this seat
//   showOffline(on)           the header's note
//
// A notification says only "your turn in room X" or that a draw is pending: never a card, a
// hand or a name (a phone shows it on its locked screen). Those made are kept in
// game.notified for the tests.
import { $, el } from "./dom.js";
import { game } from "./state.js";
import { t } from "./strings.js";

const NOTIFY_KEY = "notify";
let worker = null;
let deferredPrompt = null;
let redrawHeader = () => {};

export function registerWorker(onHeaderChange) {
  if (onHeaderChange) redrawHeader = onHeaderChange;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // the browser's own bar stays away: the header's button offers it
    deferredPrompt = event;
    redrawHeader();
  });
  window.addEventListener("appinstalled", () => {
    deferredPrompt = null;
    redrawHeader();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") closeNotifications();
  });
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  // An upgrade: the new worker takes over (sw.js) and the page loads again once, so that it runs
  // the new modules, never a mix. The first worker taking an uncontrolled page reloads nothing.
  let hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (hadController && !game.reloading) {
      game.reloading = true;
      location.reload();
    }
    hadController = true;
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then((registration) => { worker = registration; })
    .catch(() => { /* no worker (a private window, a policy): the page works online as before */ });
}

// ---- install

export function installButton() {
  const button = el("button", { type: "button", id: "install", class: "toggle", hidden: !deferredPrompt,
    title: t("Install unotable as an app on this device") }, t("Install"));
  button.addEventListener("click", async () => {
    const offered = deferredPrompt;
    if (!offered) return;
    deferredPrompt = null; // the browser's prompt can be shown once
    try {
      await offered.prompt();
      await offered.userChoice;
    } catch (_) {
      // Refused or unsupported: nothing to do.
    }
    redrawHeader();
  });
  return button;
}

// ---- notifications

function notifySupported() {
  return "Notification" in window;
}

export function notifyOn() {
  return notifySupported() && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
}

export function notifyButton() {
  if (!notifySupported()) return null;
  const denied = Notification.permission === "denied";
  const on = notifyOn();
  const button = el("button", { type: "button", id: "notify", class: "toggle", "aria-pressed": String(on),
    disabled: denied,
    title: denied ? t("Notifications are blocked in this browser's settings.")
      : on ? t("You are told when it is your turn while this page is in the background.")
        : t("Be told when it is your turn while this page is in the background.") },
  t("Notify me"));
  button.addEventListener("click", async () => {
    if (notifyOn()) {
      localStorage.setItem(NOTIFY_KEY, "0");
    } else {
      // Asked here, on the person's click, never on load.
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "1" : "0");
    }
    redrawHeader();
  });
  return button;
}

const shown = [];

// The turn came to this seat (table.js): a notification if the page is hidden and the person
// asked for them. Its words name the room and whether a draw waits, nothing else.
export function notifyTurn(m) {
  if (document.visibilityState !== "hidden" || !notifyOn()) return;
  const code = m.table.code;
  const title = t("Your turn in room {code}", { code });
  const body = m.view.pending && m.view.pending.draw ? t("A draw is pending.") : "";
  const options = { body, tag: `unotable-${code}`, renotify: true, icon: "/static/icon-192.png",
    data: { url: location.pathname } };
  (game.notified ||= []).push({ title, body });
  if (worker && worker.active) {
    worker.showNotification(title, options).catch(() => {});
    return;
  }
  try {
    shown.push(new Notification(title, options));
  } catch (_) {
    // Some phones make notifications through the worker only: none then.
  }
}

function closeNotifications() {
  while (shown.length) shown.pop().close();
  if (worker && worker.getNotifications) {
    worker.getNotifications().then((list) => list.forEach((n) => n.close())).catch(() => {});
  }
}

// ---- offline

export function offlineText() {
  return t("You are offline. The table needs the server: it comes back when the connection does.");
}

export function showOffline(on) {
  const note = $("offline-note");
  note.textContent = on ? t("Offline: the table needs the server") : "";
  note.title = on ? offlineText() : "";
  note.hidden = !on;
}
