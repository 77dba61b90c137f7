// The page's DOM helpers: one element by id, a new element, which page shows, the flash and the
// announcements (aria-live). No inline script, style or handler: CSP-ready.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
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

export function show(id) {
  for (const s of ["lobby", "join", "table", "replay"]) $(s).hidden = s !== id;
  document.body.dataset.page = id;
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
export const prefs = {
  colorblind: () => localStorage.getItem("colorblind") === "1",
  // The ColorADD symbols: on unless this browser's person turned them off (docs/web.md).
  coloradd: () => localStorage.getItem("coloradd") !== "0",
};

export function announce(text) {
  if (!text) return;
  const box = $("announce");
  box.textContent = text;
}

export function flash(text) {
  const b = $("flash");
  b.textContent = text;
  b.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { b.hidden = true; }, 3000);
}
