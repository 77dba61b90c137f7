// The server's HTTP API: a request in the page's language, its error in words.
import { offlineText } from "./install.js";
import { errorWords, pickLanguage } from "./strings.js";

// The server words its errors in the page's language (?lang=, docs/web.md).
export function withLang(path) {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(pickLanguage())}`;
}

// A request that reaches no server (offline, or the server down) fails with the code "offline".
export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(withLang(path), {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    throw Object.assign(new Error(String(err)), { code: "offline", status: 0 });
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(data.message || res.statusText), { code: data.error, status: res.status });
  return data;
}

export function errorText(err) {
  if (err.code === "offline") return offlineText();
  return (err.code && errorWords(err.code)) || err.message || String(err);
}

export const tokenKey = (code) => `unotable:${code}`;

// GET /api/options, asked once (again after a failure) for the lobby, the form and the seats' menus.
let optionsPromise = null;
export function getOptions() {
  optionsPromise ||= api("GET", "/api/options").catch((err) => { optionsPromise = null; throw err; });
  return optionsPromise;
}
