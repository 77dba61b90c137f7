// Replays: a finished game step by step, every hand face up (the game is over), the log
// following the step, ← → to step, jumps to the next hand and to the end, the scores.
import { api, errorText } from "./api.js";
import { $, el, show } from "./dom.js";
import { avatarNode, cardNode, RING_SVG, seatPosition } from "./pieces.js";
import { avatarOf, occupantName, playerName } from "./state.js";
import { colorName, narrate, t, tn } from "./strings.js";

const replay = { data: null, i: 0 };

function replayHands(step) {
  // Each step's hands face up, by seat (docs/web.md): [["R1", ...], ...] or [{seat, cards}].
  const hands = step.hands || (step.view && step.view.hands) || null;
  if (!hands) return null;
  return hands.map((h) => (Array.isArray(h) ? h : h.cards || []));
}

// Each player's name at step `j`: whoever sat in the seat then (players[p].sat, P-580), so a
// bot's moves are never told as the name of whoever took its seat later.
function replayNameOf(data, j) {
  return (p) => {
    const info = data.players[p] || {};
    const sat = Array.isArray(info.sat) ? info.sat.filter((o) => o.step <= j) : [];
    if (sat.length) return occupantName(sat[sat.length - 1], p);
    return playerName({ players: data.players }, p);
  };
}

function drawReplay() {
  const data = replay.data;
  const steps = data.steps;
  const i = replay.i;
  const step = steps[i];
  const nameOf = replayNameOf(data, i);
  const names = step.seating.map(nameOf);
  const v = step.view;
  const hands = replayHands(step);
  const n = step.seating.length;
  const top = v.discard[v.discard.length - 1];

  const lines = [];
  for (let j = 0; j < steps.length; j++) {
    if (steps[j].hand !== step.hand) continue;
    const stepNames = steps[j].seating.map(replayNameOf(data, j));
    for (const e of steps[j].events) {
      const line = narrate(e, stepNames);
      if (line) {
        const li = el("li", { class: j === i ? "current" : j > i ? "later" : "", dataset: { step: String(j) } }, line);
        li.addEventListener("click", () => { replay.i = j; drawReplay(); });
        lines.push(li);
      }
    }
  }
  const seats = step.seating.map((player, seat) => {
    const cards = hands ? hands[seat] || [] : [];
    const node = el("div", { class: `seat replay-seat${v.current === seat ? " turn" : ""}`, dataset: { seat: String(seat) },
      role: "group", "aria-label": [names[seat], tn("{n} card", "{n} cards", v.hand_sizes[seat])].join(", ") },
    el("span", { class: "avatar-wrap" }, avatarNode(avatarOf({ players: data.players }, player)),
      el("span", { class: "ring", "aria-hidden": "true", html: RING_SVG })),
    el("div", { class: "seat-text" }, el("div", { class: "name" }, names[seat]),
      el("div", { class: "meta" }, tn("{n} card", "{n} cards", v.hand_sizes[seat]))),
    hands ? el("div", { class: "open-hand" }, cards.map((c) => cardNode(c, { tag: "span", class: "tiny" }))) : null);
    const pos = seatPosition(seat, n);
    node.style.left = `${pos.x}%`;
    node.style.top = `${pos.y}%`;
    if (pos.y < 35) node.classList.add("top");
    return node;
  });
  const standings = step.standings || {};
  const scores = standings.scores || [];
  const scoreRows = scores.map((s, k) => el("tr", {},
    el("th", { scope: "row" }, standings.by_team ? t("Team {number}", { number: k + 1 }) : nameOf(k)),
    el("td", {}, tn("{n} point", "{n} points", s))));
  const button = (id, label, to, disabled) => el("button", { type: "button", id, class: "secondary", disabled,
    onclick: () => { replay.i = Math.max(0, Math.min(steps.length - 1, to)); drawReplay(); } }, label);
  const nextHand = steps.findIndex((s, j) => j > i && s.hand !== step.hand);
  $("replay").replaceChildren(
    el("h1", { class: "replay-title" }, t("Replay of game {number}", { number: data.number + 1 })),
    el("div", { class: "replay-controls", role: "toolbar", "aria-label": t("Replay controls") },
      button("replay-start", t("|◀ Start"), 0, i === 0),
      button("replay-prev", t("◀ Back"), i - 1, i === 0),
      el("span", { id: "replay-step", "aria-live": "polite" }, t("Step {i} of {n}", { i: i + 1, n: steps.length })),
      button("replay-next", t("Forward ▶"), i + 1, i === steps.length - 1),
      button("replay-next-hand", t("Next hand ▶▶"), nextHand < 0 ? steps.length - 1 : nextHand, nextHand < 0 && i === steps.length - 1),
      button("replay-end", t("End ▶|"), steps.length - 1, i === steps.length - 1)),
    el("p", { class: "muted" }, el("b", { class: "replay-hand" }, t("Hand {hand}", { hand: step.hand + 1 })), " ",
      t("Keys: ← → step, Home and End jump.")),
    el("div", { class: "replay-body" },
      el("div", { class: `felt replay-felt${v.side === "dark" ? " dark-side" : ""}` }, el("div", { class: "seats" }, seats),
        el("div", { class: "centre" }, top ? cardNode(top, { tag: "span", class: "pile-face top" }) : null,
          el("div", { class: `color-now ${v.color ? `c-${v.color}` : ""}` },
            v.color ? t("Colour: {color}", { color: colorName(v.color) }) : t("Colour: any")),
          // UNO Flip (docs/rules.md §15): the side up at this step.
          v.side ? el("div", { class: `side-now ${v.side}`, id: "replay-side" }, v.side === "dark" ? t("Dark side up")
            : t("Light side up")) : null)),
      el("div", { class: "replay-side" },
        el("table", { class: "scores", id: "replay-scores" }, el("caption", {}, t("Scores")), el("tbody", {}, scoreRows)),
        el("ol", { id: "replay-log", class: "log", tabindex: "0", "aria-label": t("What happened") }, lines))));
  // The step's lines in view: the log scrolls, never the page.
  const log = $("replay-log");
  const current = log.querySelector("li.current");
  if (current) {
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < log.scrollTop || bottom > log.scrollTop + log.clientHeight) {
      log.scrollTop = Math.max(0, top - log.clientHeight / 3);
    }
  }
}

export async function replayPage(code, number) {
  show("replay");
  $("room-badge").hidden = false;
  $("room-badge").textContent = t("Room {code}", { code });
  try {
    // Replays come in pages of at most 200 steps: read them all (a long game has a few).
    const data = await api("GET", `/api/rooms/${code}/games/${number}`);
    let next = data.next;
    while (next !== null && next !== undefined) {
      const page = await api("GET", `/api/rooms/${code}/games/${number}?from=${next}&count=200`);
      if (!page.steps.length) break;
      data.steps = data.steps.concat(page.steps);
      next = page.next;
    }
    replay.data = data;
  } catch (err) {
    $("replay").replaceChildren(el("p", { class: "error" }, errorText(err)));
    return;
  }
  replay.i = 0;
  drawReplay();
}
// The replay shown, drawn again (a language, the colour marks).
export function replayRedraw() {
  if (replay.data) drawReplay();
}

document.addEventListener("keydown", (ev) => {
  if ($("replay").hidden || !replay.data) return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const last = replay.data.steps.length - 1;
  let to = null;
  if (ev.key === "ArrowRight") to = replay.i + 1;
  else if (ev.key === "ArrowLeft") to = replay.i - 1;
  else if (ev.key === "Home") to = 0;
  else if (ev.key === "End") to = last;
  if (to === null) return;
  ev.preventDefault();
  replay.i = Math.max(0, Math.min(last, to));
  drawReplay();
});
