// Motion: a played card flies to the pile, draws slide to the seat, the turn sweeps on, Skip,
// Reverse, Draw and UNO! burst at their seat. Off with prefers-reduced-motion. Sounds go with them.
import { Art } from "./art.js";
import { $, el, reducedMotion } from "./dom.js";
import { backNode, cardNode } from "./pieces.js";
import { game } from "./state.js";
import { t } from "./strings.js";

export function measure() {
  const rect = (node) => (node ? node.getBoundingClientRect() : null);
  const seats = {};
  document.querySelectorAll("#seats .seat").forEach((s) => { seats[s.dataset.seat] = rect(s); });
  const hand = {};
  document.querySelectorAll("#hand .card").forEach((c) => { (hand[c.dataset.code] ||= []).push(rect(c)); });
  return { seats, hand, pile: rect($("pile")), discard: rect($("discard")) };
}

function centre(r) {
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function fly(node, from, to, delay, ms = 420) {
  if (!from || !to) return;
  const layer = $("fx");
  layer.append(node);
  const a = centre(from);
  const b = centre(to);
  node.style.left = `${a.x}px`;
  node.style.top = `${a.y}px`;
  game.fxCount += 1;
  const anim = node.animate([
    { transform: "translate(-50%, -50%) scale(.9) rotate(-8deg)", opacity: 1 },
    { transform: `translate(calc(-50% + ${b.x - a.x}px), calc(-50% + ${b.y - a.y}px)) scale(1) rotate(0deg)`, opacity: 1 },
  ], { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  const done = anim.finished.then(() => node.remove(), () => node.remove());
  flights.add(done);
  done.then(() => flights.delete(done));
}

// The flights under way: the end of a hand shows once the last card has landed (overlay.js).
const flights = new Set();

// Resolves when every card flying now (and those the message being handled adds: this waits a
// turn of the event loop first) has landed.
export function landed() {
  return new Promise((resolve) => { setTimeout(resolve, 0); })
    .then(() => Promise.allSettled([...flights]));
}

function burst(text, rect, delay, cls = "") {
  if (!rect) return;
  const node = el("div", { class: `burst ${cls}` }, text);
  const c = centre(rect);
  node.style.left = `${c.x}px`;
  node.style.top = `${c.y}px`;
  $("fx").append(node);
  game.fxCount += 1;
  const anim = node.animate([
    { transform: "translate(-50%, -50%) scale(.4)", opacity: 0 },
    { transform: "translate(-50%, -60%) scale(1.15)", opacity: 1, offset: 0.25 },
    { transform: "translate(-50%, -80%) scale(1)", opacity: 0 },
  ], { duration: 1300, delay, easing: "ease-out", fill: "backwards" });
  anim.finished.then(() => node.remove(), () => node.remove());
}

export function animate(events, before, prev, m) {
  const after = measure();
  const motion = !reducedMotion();
  const seatRect = (seat) => after.seats[String(seat)] || before.seats[String(seat)];
  let delay = 0;
  for (const e of events) {
    switch (e.kind) {
      case "play": {
        const code = (e.cards || [])[0];
        Art.play("play", e);
        const action = Art.sound().cardSound(code);
        if (action) Art.play(action, e); // Skip, Reverse, a draw card, a wild, an edition's card: its own
        if (!motion) break;
        const from = e.seat === m.seat && code && before.hand[code] ? before.hand[code][0] : seatRect(e.seat);
        if (code) fly(cardNode(code, { tag: "span", class: "flying" }), from, after.discard, delay);
        delay += 260;
        break;
      }
      case "draw": {
        if (e.reason === "deal") break;
        Art.play("draw", e);
        if (!motion) break;
        const to = e.seat === m.seat ? $("hand").getBoundingClientRect() : seatRect(e.seat);
        const n = Math.min(e.count || 1, 4);
        // UNO Flip's cards have no back: a blank card's edge flies (the face it showed is on the pile).
        const blank = () => (m.view.side !== undefined ? el("span", { class: "card flying edge", "aria-hidden": "true" })
          : backNode("flying"));
        for (let i = 0; i < n; i++) fly(blank(), after.pile, to, delay + i * 90, 380);
        if (/^[RYGBWPTOVLD]/.test(e.reason || "") && e.count) burst(`+${e.count}`, seatRect(e.seat), delay, "draw");
        delay += 200;
        break;
      }
      case "skip":
        if (motion) burst("⊘", seatRect(e.seat), delay, "skip");
        break;
      case "reverse":
        if (motion) {
          burst("⇄", $("direction").getBoundingClientRect(), delay, "reverse");
          $("direction").animate([{ transform: "rotate(0deg)" }, { transform: "rotate(360deg)" }], { duration: 700, delay });
        }
        break;
      case "uno":
        Art.play("uno", e);
        if (motion) burst(t("UNO!"), seatRect(e.seat), delay, "uno");
        break;
      case "catch":
        Art.play("catch", e);
        if (motion) burst(t("Caught!"), seatRect(e.target), delay, "catch");
        break;
      case "challenge":
        if (motion) burst(e.reason === "guilty" ? t("Bluff!") : t("Fair!"), seatRect(e.target), delay, "challenge");
        break;
      case "flip":
        // UNO Flip (docs/rules.md §15, FL-3): everything turns over; the cards on the table and in
        // the hand turn on their vertical axis (drawn already with their new faces).
        if (motion) {
          burst(e.reason === "dark" ? t("Flip: dark side!") : t("Flip: light side!"), after.discard, delay, "flip");
          document.querySelectorAll("#discard .card.top, #pile .pile-card:not(.under), #hand .card, #seats .other-faces")
            .forEach((node) => node.animate([{ transform: "perspective(400px) rotateY(90deg)" },
              { transform: "perspective(400px) rotateY(0deg)" }], { duration: 520, delay: delay + 120, easing: "ease-out",
              fill: "backwards", composite: "add" }));
          $("felt").animate([{ filter: "brightness(1.6)" }, { filter: "brightness(1)" }], { duration: 700, delay });
        }
        delay += 300;
        break;
      case "reveal":
        if (motion && e.reason === "howler") burst(t("Howler!"), seatRect(e.seat), delay, "uno");
        break;
      case "turn": {
        if (!motion || !prev) break;
        const from = seatRect(prev.view.current);
        const to = seatRect(e.seat);
        if (from && to && prev.view.current !== e.seat) {
          const dot = el("div", { class: "sweep" });
          fly(dot, from, to, delay, 380);
        }
        break;
      }
      default: break;
    }
    if (e.kind === "play" && (e.reason || "").split(" ").includes("uno")) {
      Art.play("uno", e);
      if (motion) burst(t("UNO!"), seatRect(e.seat), delay, "uno");
    }
  }
}
