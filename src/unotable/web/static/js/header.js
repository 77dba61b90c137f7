// The header on every page: language, colour-blind mode, sound (mute and volume), notifications,
// the install button (where the browser offers one), the keys' list.
import { withLang } from "./api.js";
import { Art } from "./art.js";
import { $, el, prefs } from "./dom.js";
import { installButton, notifyButton } from "./install.js";
import { rerender } from "./late.js";
import { LANGUAGES, langTag, loadWords, pickLanguage, t, wordsLang } from "./strings.js";

export function renderHeader() {
  $("home").textContent = t("unotable");
  const lang = el("select", { id: "lang", "aria-label": t("Language") },
    LANGUAGES.map(([code, name]) => el("option", { value: code, lang: langTag(code) }, name)));
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
  const add = el("button", { type: "button", id: "coloradd", class: "toggle", "aria-pressed": String(prefs.coloradd()),
    title: t("ColorADD: the colour-blind symbols of UNO ColorADD on the cards") }, t("ColorADD symbols"));
  add.addEventListener("click", () => {
    localStorage.setItem("coloradd", prefs.coloradd() ? "0" : "1");
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
  // The volume, remembered; a short sound at the new level (the slider's move is a gesture).
  const volume = el("input", { type: "range", id: "volume", min: 0, max: 100, step: 5,
    value: String(Math.round(Art.sound().volume() * 100)), "aria-label": t("Volume"), title: t("Volume") });
  volume.addEventListener("change", () => {
    Art.sound().setVolume(Number(volume.value) / 100);
    Art.play("tick");
  });
  const keys = el("button", { type: "button", id: "keys-button", class: "toggle", "aria-label": t("Keys"),
    title: t("Keys") }, "?");
  keys.addEventListener("click", toggleKeys);
  $("prefs").replaceChildren(...[lang, cb, add, mute, volume, notifyButton(), installButton(), keys].filter(Boolean));
  $("announce").setAttribute("aria-label", t("Announcements"));
  document.querySelector(".skip-link").textContent = t("Skip to the game");
  $("prefs").setAttribute("aria-label", t("Settings"));
  $("table").setAttribute("aria-label", t("Table"));
  $("log-title").textContent = t("What happened");
  // The manifest in the page's language (its description, for the install dialog).
  const manifest = document.querySelector("link[rel=manifest]");
  if (manifest) manifest.setAttribute("href", withLang("/manifest.webmanifest"));
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
    ["P T O V", t("choose a colour of UNO Flip's dark side")],
    ["T", t("ask for more time (once a hand)")],
    ["L", t("hear again what you must do now, and the time left")],
    ["?", t("show or hide this list")],
    ["Esc", t("close")],
  ];
}

export function toggleKeys(force) {
  const panel = $("keys-panel");
  const open = typeof force === "boolean" ? force : panel.hidden;
  if (!open) {
    panel.hidden = true;
    return;
  }
  const close = el("button", { type: "button", id: "keys-close", class: "secondary" }, t("Close"));
  close.addEventListener("click", () => toggleKeys(false));
  // The player's guide (docs/play.md, from the same catalogues), in the page's language.
  const guide = el("a", { id: "guide-link", href: `/static/guide.${wordsLang()}.html`, target: "_blank", rel: "noopener" },
    t("How to play: the player's guide"));
  panel.replaceChildren(el("div", { class: "box" }, el("h2", { id: "keys-title" }, t("Keys")),
    el("dl", { class: "keys-list" }, keysList().map(([k, what]) => [el("dt", {}, el("kbd", {}, k)), el("dd", {}, what)])),
    el("p", {}, guide), close));
  panel.hidden = false;
  close.focus();
}
