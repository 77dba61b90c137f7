// The service worker (served as /sw.js by unotable.web.shell, which puts VERSION and SHELL
// before this text): it keeps the page, its modules, style, icons and words offline, so that the
// page opens without the server and says the table needs it. The table itself (the WebSocket,
// the room API) always goes to the server.
//
// - install: every address of SHELL is fetched into the cache "unotable-" + VERSION; the new
//   worker takes over at once (skipWaiting, clients.claim), and the page reloads once on the
//   change (main.js), so that no page runs the old modules beside the new ones.
// - activate: every other "unotable-" cache (an older version's) is deleted.
// - fetch: a page (a navigation) comes from the network, else from the cache (the one page
//   shell, which reads the address); the words from the network, kept when fetched, else from
//   the cache; the rest of SHELL from the cache, else the network. Nothing else is touched.
// - notificationclick: the "your turn" notification brings the table's window to the front.
/* global VERSION, SHELL */
const CACHE = `unotable-${VERSION}`;
const KEPT = new Set(SHELL);

// A few at a time, not all at once: the server caps the requests in flight from one address
// (docs/web.md, "Limits"), and over HTTP/2 the browser would send all of them together.
const AT_ONCE = 4;

async function keepAll() {
  const cache = await caches.open(CACHE);
  for (let i = 0; i < SHELL.length; i += AT_ONCE) {
    // "reload": past the HTTP cache, so that an upgrade never keeps an older file.
    await cache.addAll(SHELL.slice(i, i + AT_ONCE).map((url) => new Request(url, { cache: "reload" })));
  }
}

self.addEventListener("install", (event) => {
  // Any file missing fails the install (the browser tries again on a later visit): a worker
  // never takes a page it cannot serve whole offline.
  event.waitUntil(keepAll().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("unotable-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function fromNetwork(request, keep) {
  const response = await fetch(request);
  if (keep && response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(keep, copy));
  }
  return response;
}

async function fromCache(key) {
  const cache = await caches.open(CACHE);
  return cache.match(key);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fromNetwork(request).catch(async () => (await fromCache("/")) || Response.error()));
    return;
  }
  if (url.pathname.startsWith("/api/words/")) {
    event.respondWith(fromNetwork(request, url.pathname).catch(async () => (await fromCache(url.pathname)) || Response.error()));
    return;
  }
  if (KEPT.has(url.pathname) && !url.search) {
    event.respondWith(fromCache(url.pathname).then((hit) => hit || fetch(request)));
  }
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).pathname === target) || windows[0];
      if (open) return open.focus();
      return self.clients.openWindow(target);
    }),
  );
});
