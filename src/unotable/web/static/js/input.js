// The person's input at the table: the keys, a card clicked (or its chooser of colour or seat),
// the cards picked to play together, the draw pile. What is clickable is what the server's
// legal actions allow (legal.js).
import { $ } from "./dom.js";
import { toggleKeys } from "./header.js";
import { canPick, sortLegal, withUno } from "./legal.js";
import { act, askMoreTime } from "./net.js";
import { announceDecision, moreTimeLeft, render } from "./late.js";
import { game } from "./state.js";

document.addEventListener("keydown", (ev) => {
  const target = ev.target;
  const tag = target && target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (ev.key === "?") {
    toggleKeys();
    ev.preventDefault();
    return;
  }
  if (ev.key === "Escape") {
    toggleKeys(false);
    const cancel = $("confirm").hidden ? null : $("confirm-no");
    if (cancel) cancel.click(); // closes the menu too, the focus back on its button
    else $("confirm").hidden = true;
    if (game.menu !== null) { game.menu = null; render(); }
    return;
  }
  if (!$("confirm").hidden) return; // a question is asked: the table's keys wait for its answer
  if (game.offline) return; // the connection is lost: nothing to act on until it is back (net.js)
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!game.msg || $("table").hidden) return;
  const view = game.msg.view;
  const legal = sortLegal(view.legal);
  const key = ev.key;
  const hand = view.hand;
  // A colour to name (the colour call, or the chooser of a wild card): its letter names it, before
  // any other key's meaning (UNO Flip's dark side names P, T, O and V: P and T mean more otherwise).
  const letter = /^[a-zA-Z]$/.test(key) ? key.toUpperCase() : "";
  const naming = game.chooser ? game.chooser.plays.find((x) => x.split(" ")[2] === letter) : null;
  if (letter && legal.colors.includes(letter)) act(`color ${letter}`);
  else if (letter && naming) act(withUno(naming, legal, game.armed));
  else if (/^[1-9]$/.test(key) && Number(key) <= hand.length) playCard(hand[Number(key) - 1]);
  else if (key === "ArrowRight" || key === "ArrowLeft") {
    if (!hand.length) return;
    const d = key === "ArrowRight" ? 1 : -1;
    game.selected = game.selected < 0 ? (d > 0 ? 0 : hand.length - 1) : (game.selected + d + hand.length) % hand.length;
    const card = document.querySelector(`#hand .card[data-index="${game.selected}"]`);
    document.querySelectorAll("#hand .card.selected").forEach((c) => c.classList.remove("selected"));
    if (card) {
      card.classList.add("selected");
      card.focus({ preventScroll: true });
    }
    ev.preventDefault();
  } else if (key === "Enter" || key === " ") {
    // A focused button already acts on Enter (its click): only a card chosen with the arrows
    // while the focus is elsewhere is played here.
    if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return;
    if (key === "Enter" && game.selected >= 0 && game.selected < hand.length) {
      ev.preventDefault();
      playCard(hand[game.selected]);
    }
  } else if ((key === "d" || key === "D") && legal.draw) act("draw");
  else if ((key === "p" || key === "P") && view.drawn && legal.plays[view.drawn]) playCard(view.drawn);
  else if ((key === "k" || key === "K") && legal.pass) act("pass");
  else if ((key === "m" || key === "M") && game.selected >= 0 && legal.more[hand[game.selected]]) {
    act(withUno(legal.more[hand[game.selected]], legal, game.armed)); // multi_play: this card, then another of its number
  }
  else if (key === "u" || key === "U") {
    if (legal.uno) act("uno");
    else { game.armed = !game.armed; render(); }
  } else if ((key === "c" || key === "C") && legal.catches.length) act(`catch ${legal.catches[0]}`);
  else if ((key === "a" || key === "A") && legal.accept) act("accept");
  else if ((key === "x" || key === "X") && legal.challenge) act("challenge");
  else if ((key === "t" || key === "T") && moreTimeLeft(game.msg)) askMoreTime();
  else if (key === "l" || key === "L") announceDecision(game.msg, true);
});

// Several cards at once (multi_play): a card picked or put back; the picks played together.
export function togglePick(i) {
  const view = game.msg.view;
  const at = game.picks.indexOf(i);
  if (at >= 0) game.picks.splice(at, 1);
  else if (canPick(view, sortLegal(view.legal), game.picks, i)) game.picks.push(i);
  render();
}

export function playPicks() {
  const view = game.msg.view;
  const codes = game.picks.map((i) => view.hand[i]);
  const texts = codes.map((code, i) => `play ${code}${i < codes.length - 1 ? " more" : ""}`);
  game.picks = null;
  game.queue = texts.slice(1);
  game.queueUno = game.armed; // the call goes with the play the server offers it with
  act(withUno(texts[0], sortLegal(view.legal), game.armed));
}

$("pile").addEventListener("click", () => {
  if (game.msg && sortLegal(game.msg.view.legal).draw) act("draw");
});

export function playCard(code) {
  const m = game.msg;
  if (!m) return;
  const legal = sortLegal(m.view.legal);
  const plays = legal.plays[code];
  if (!plays) return;
  if (plays.length === 1 && plays[0].split(" ").length === 2) {
    act(withUno(plays[0], legal, game.armed));
    return;
  }
  game.chooser = { code, plays };
  render();
  const first = document.querySelector("#chooser button[data-action]");
  if (first) first.focus();
}
