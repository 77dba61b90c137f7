// Drawing the table from the last message: the centre, the sentence for the decision, the
// action buttons, the chooser, the hand; the seats, the social row and the end of a hand are
// seats.js, social.js and overlay.js. A control is live only for an action the server's legal
// actions hold.
import { Art } from "./art.js";
import { $, el, prefs, show } from "./dom.js";
import { playCard, playPicks, togglePick } from "./input.js";
import { drawTimer, provide } from "./late.js";
import { canPick, sortLegal, withUno } from "./legal.js";
import { act, askMoreTime } from "./net.js";
import { renderOverlay } from "./overlay.js";
import { backNode, cardNode } from "./pieces.js";
import { renderSeats } from "./seats.js";
import { inviteNode, renderSocial } from "./social.js";
import { game, playerName, seatNames } from "./state.js";
import { cardName, colorName, t, tn } from "./strings.js";

export function render() {
  const m = game.msg;
  if (!m) return;
  const { view, table } = m;
  const names = seatNames(table);
  const mySeat = m.seat;
  const legal = sortLegal(view.legal);
  show("table");
  $("room-badge").hidden = false;
  $("room-badge").textContent = t("Room {code}", { code: table.code });
  $("table-title").textContent = t("The table of room {code}", { code: table.code });

  // What the seat acts with first, so that nothing drawn after it can leave a control stale.
  renderCentre(m, legal);
  renderPrompt(m, names, legal);
  renderActions(legal, names);
  renderChooser(legal, names);
  renderHand(m, legal);
  renderBanner(m);
  renderSeats(m, names, legal);
  renderSocial(m);
  $("log-title").textContent = t("What happened");
  renderOverlay(m, names);
  drawTimer();
  game.renderedSeq = m.seq; // what the page shows (tests compare it with game.msg)
}

function renderBanner(m) {
  const { table } = m;
  const banner = $("banner");
  const free = table.players.filter((p) => p.free).length;
  const parts = [];
  if (table.status === "waiting") {
    parts.push(el("span", {}, tn("Waiting for {n} more player to take a seat.", "Waiting for {n} more players to take a seat.", free)), " ", inviteNode(table.code));
  } else if (m.you === null) parts.push(t("You are watching: hands stay hidden."));
  const away = table.players.filter((p) => p.away);
  for (const p of away) {
    parts.push(el("div", { class: "away-note" }, t("{name} is away: a bot plays for them until they come back.", { name: p.name || playerName(table, p.player) })));
  }
  banner.replaceChildren(...parts);
  banner.hidden = parts.length === 0;
}

function renderCentre(m, legal) {
  const { view } = m;
  const pile = $("pile");
  // UNO Flip (docs/rules.md §15, FL-2): the draw pile's top card shows the table its other face.
  const flip = view.side !== undefined;
  const other = flip ? view.draw_top_other : null;
  pile.replaceChildren(other ? cardNode(other, { tag: "span", class: "pile-card" }) : backNode("pile-card"),
    flip ? el("span", { class: "card pile-card under edge", "aria-hidden": "true" }) : backNode("pile-card under"),
    el("span", { class: "pile-count" }, String(view.draw_pile_size)));
  if (other) pile.querySelector(".pile-card").setAttribute("aria-hidden", "true"); // the pile says it (below)
  const pileWords = [tn("Draw pile: {n} card", "Draw pile: {n} cards", view.draw_pile_size)];
  if (other) pileWords.push(t("its top card shows {card} on its other side", { card: cardName(other) }));
  if (legal.draw) pileWords.push(t("Draw a card"));
  pile.setAttribute("aria-label", pileWords.join(". "));
  pile.disabled = !legal.draw;
  pile.classList.toggle("can-draw", legal.draw);
  const discard = view.discard.slice(-3);
  $("discard").replaceChildren(...discard.map((code, i) => cardNode(code, { tag: "span",
    class: `pile-face ${i === discard.length - 1 ? "top" : `under u${discard.length - 1 - i}`}` })));
  $("discard").setAttribute("aria-label", discard.length ? t("Top card: {card}", { card: cardName(discard[discard.length - 1]) }) : t("No card yet"));
  const color = $("color-now");
  color.className = `color-now ${view.color ? `c-${view.color}` : ""}`;
  color.textContent = view.color ? t("Colour: {color}", { color: colorName(view.color) }) : t("Colour: any");
  renderSide(view);
  const dir = $("direction");
  dir.className = view.direction > 0 ? "cw" : "ccw";
  dir.setAttribute("aria-label", view.direction > 0 ? t("Play goes clockwise") : t("Play goes counterclockwise"));
  dir.textContent = view.direction > 0 ? "↻" : "↺";
  $("hand-number").textContent = m.table.game_number > 0
    ? t("Hand {hand} of game {game}", { hand: m.table.hand + 1, game: m.table.game_number + 1 })
    : t("Hand {hand}", { hand: m.table.hand + 1 });
}

// UNO Flip: which side is up, on a pill under the colour and in the felt's tone.
function renderSide(view) {
  const side = $("side-now");
  const flip = view.side !== undefined;
  side.hidden = !flip;
  side.className = `side-now ${flip ? view.side : ""}`;
  side.textContent = !flip ? "" : view.side === "dark" ? t("Dark side up") : t("Light side up");
  $("felt").classList.toggle("dark-side", view.side === "dark");
}

// One sentence for the decision in front of the seat.
export function decisionText(m, names, legal) {
  const { view, table } = m;
  const mySeat = m.seat;
  if (table.status === "waiting") return t("The game starts when every seat is taken.");
  if (table.hand_over) return "";
  if (mySeat === null) {
    return view.current !== null ? t("{name} to play.", { name: names[view.current] }) : "";
  }
  for (const s of legal.catches) {
    return t("{name} holds one card and did not call UNO: catch them!", { name: names[s] });
  }
  for (const s of legal.wrongs) {
    return t("{name}'s card did not match: point it out!", { name: names[s] });
  }
  const pending = view.pending;
  const mine = view.current === mySeat;
  if (!mine) {
    if (Object.keys(legal.plays).length) return t("Jump in: you hold the twin of the top card.");
    return view.current !== null ? t("{name} to play.", { name: names[view.current] }) : "";
  }
  switch (view.phase) {
    case "respond": {
      const n = pending ? pending.draw : 0;
      const from = pending && pending.from !== null && pending.from !== undefined ? names[pending.from] : "";
      if (pending && pending.card === "DW+C") { // UNO Flip's Wild Draw Color: drawn until the colour comes (FL-7)
        const called = colorName(view.color);
        const color = game.colorBefore ? colorName(game.colorBefore) : null;
        if (!legal.challenge) return t("Draw until a {color} card comes.", { color: called });
        return color
          ? t("Challenge: if {name} could have played {color} they draw until a {called} card comes, else you draw until one comes and 2 more. Or accept and draw until a {called} card comes.", { name: from, color, called })
          : t("Challenge: if {name} could have played the colour before, they draw until a {called} card comes, else you draw until one comes and 2 more. Or accept and draw until a {called} card comes.", { name: from, called });
      }
      if (legal.challenge) {
        const color = game.colorBefore ? colorName(game.colorBefore) : null;
        return color
          ? t("Challenge: if {name} could have played {color} they draw {n}, else you draw {m}. Or accept and draw {n}.", { name: from, color, n, m: n + 2 })
          : t("Challenge: if {name} could have played the colour before, they draw {n}, else you draw {m}. Or accept and draw {n}.", { name: from, n, m: n + 2 });
      }
      if (Object.keys(legal.plays).length && n) {
        return tn("Stack a draw card or take {n} card.", "Stack a draw card or take {n} cards.", n);
      }
      if (legal.invis.length) {
        return t("{name} played {card} on you: vanish with Invisibility or accept.", { name: from, card: pending ? cardName(pending.card) : "" });
      }
      if (n) return tn("Take {n} card.", "Take {n} cards.", n);
      return pending ? t("{name} played {card} on you: accept it.", { name: from, card: cardName(pending.card) }) : t("Accept.");
    }
    case "after_draw":
      return view.drawn && legal.plays[view.drawn]
        ? t("You drew {card}: play it or keep it.", { card: cardName(view.drawn) })
        : t("Keep the card you drew.");
    case "choose_color": return t("Choose the colour.");
    case "turn":
      if (view.series) return t("Play another card of the same number.");
      if (game.picks) return t("Pick the cards to play together, then play them.");
      if (!Object.keys(legal.plays).length) return t("Nothing to play: draw a card.");
      if (legal.twins.size && view.hand.length === 2) return t("Your turn: two cards left, call UNO! with your play.");
      return t("Your turn: play a card or draw.");
    default: return view.legal.length ? t("Your turn.") : "";
  }
}

function renderPrompt(m, names, legal) {
  const text = decisionText(m, names, legal);
  const prompt = $("prompt");
  prompt.textContent = text;
  if (m.table.answer && m.you !== null && m.table.answer.player === m.you) {
    prompt.append(" ", el("span", { id: "answer-left", class: "answer-left" }));
  }
  prompt.classList.toggle("mine", m.seat !== null && m.view.current === m.seat && m.view.legal.length > 0);
}

function renderActions(legal, names) {
  const buttons = [];
  const b = (label, action, cls) => el("button", { type: "button", class: cls, dataset: { action },
    onclick: () => act(action) }, label);
  const canUnoTwin = legal.twins.size > 0 && [...legal.twins].some((x) => x.startsWith("play"));
  if (legal.uno) buttons.push(b(t("UNO!"), "uno", "uno"));
  else if (canUnoTwin) {
    buttons.push(el("button", { type: "button", class: `uno${game.armed ? " armed" : ""}`, "aria-pressed": String(game.armed),
      dataset: { action: "arm-uno" }, onclick: () => { game.armed = !game.armed; render(); } },
    game.armed ? t("UNO! (it goes with your next play)") : t("UNO!")));
  }
  for (const s of legal.catches) buttons.push(b(t("Catch {name}!", { name: names[s] }), `catch ${s}`, "catch"));
  for (const s of legal.wrongs) buttons.push(b(t("{name}'s card was wrong", { name: names[s] }), `wrong ${s}`));
  if (legal.draw) buttons.push(b(t("Draw"), "draw", "secondary"));
  const view = game.msg.view;
  if (game.picks && game.picks.length) {
    buttons.push(el("button", { type: "button", dataset: { action: "play-picks" }, onclick: playPicks },
      tn("Play {n} card", "Play {n} cards", game.picks.length)));
  }
  if (Object.keys(legal.more).length || game.picks) {
    buttons.push(el("button", { type: "button", class: `secondary${game.picks ? " armed" : ""}`, "aria-pressed": String(Boolean(game.picks)),
      dataset: { action: "several" }, onclick: () => { game.picks = game.picks ? null : []; render(); } }, t("Several at once")));
  }
  if (view.phase === "after_draw" && view.drawn && legal.plays[view.drawn]) {
    buttons.push(el("button", { type: "button", dataset: { action: "play-drawn" },
      onclick: () => playCard(view.drawn) }, t("Play it")));
  }
  if (legal.pass) buttons.push(b(t("Keep it"), "pass", "secondary"));
  if (legal.challenge) buttons.push(b(t("Challenge"), "challenge"));
  if (legal.accept && view.pending && view.pending.card === "DW+C") {
    buttons.push(b(t("Accept: draw until {color} comes", { color: colorName(view.color) }), "accept", "secondary"));
  } else if (legal.accept) {
    const n = view.pending ? view.pending.draw : 0;
    buttons.push(b(n ? tn("Accept: draw {n}", "Accept: draw {n}", n) : t("Accept"), "accept", "secondary"));
  }
  for (const c of legal.invis) {
    buttons.push(b(t("Invisibility, calling {color}", { color: colorName(c) }), withUno(`invisibility ${c}`, legal, game.armed), `c-${c} invis`));
  }
  const more = moreTimeLeft(game.msg);
  if (more) {
    buttons.push(el("button", { type: "button", id: "more-time", class: "secondary", dataset: { action: "more-time" },
      onclick: askMoreTime }, t("More time (+{n} s)", { n: more })));
  }
  $("actions").replaceChildren(...buttons);
}

// The seconds "More time" would add to this person's running timer, or 0 when it is not offered
// (no timer of theirs runs, the room gives none, or they had it in this hand).
export function moreTimeLeft(m) {
  const clock = m.table.answer || m.table.timer;
  const more = m.table.more_time;
  if (!clock || !more || !more.seconds || m.you === null || clock.player !== m.you || m.table.hand_over) return 0;
  return (more.used || []).includes(m.you) ? 0 : more.seconds;
}

function colorButton(c, action, onclick) {
  return el("button", { type: "button", class: `swatch c-${c}`, dataset: { action }, "aria-label": colorName(c), onclick },
    el("span", { class: "swatch-art", "aria-hidden": "true", html: Art.cards().chooser(c, { colorblind: prefs.colorblind(), coloradd: prefs.coloradd() }) }),
    el("span", { class: "swatch-name" }, colorName(c)));
}

function renderChooser(legal, names) {
  const box = $("chooser");
  const items = [];
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("Choose a colour"));
  if (legal.colors.length) {
    for (const c of legal.colors) items.push(colorButton(c, `color ${c}`, () => act(`color ${c}`)));
  } else if (game.chooser) {
    const { code, plays } = game.chooser;
    const seatArg = (text) => /^\d+$/.test(text.split(" ")[2] || "");
    const bySeat = plays.some(seatArg);
    items.push(el("span", { class: "chooser-title" }, code === "HOWLER" ? t("Who gets the Howler?")
      : code === "AWT+2" ? t("Who draws two?") : bySeat ? t("Swap hands with whom?") : t("Choose a colour")));
    for (const text of plays) {
      const arg = text.split(" ")[2];
      if (seatArg(text)) {
        items.push(el("button", { type: "button", dataset: { action: text }, onclick: () => act(withUno(text, legal, game.armed)) }, names[Number(arg)]));
      } else items.push(colorButton(arg, text, () => act(withUno(text, legal, game.armed))));
    }
    items.push(el("button", { type: "button", class: "secondary",
      onclick: () => { game.chooser = null; render(); } }, t("Cancel")));
  }
  box.replaceChildren(...items);
  box.hidden = items.length === 0;
}

function renderHand(m, legal) {
  const { view } = m;
  const hand = $("hand");
  hand.hidden = m.seat === null;
  hand.setAttribute("aria-label", tn("Your hand: {n} card", "Your hand: {n} cards", view.hand.length));
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand .card");
  const focusIndex = focused ? Number(focused.dataset.index) : -1;
  const nodes = view.hand.map((code, i) => {
    const picking = game.picks !== null;
    const playable = picking ? game.picks.includes(i) || canPick(view, legal, game.picks, i) : Boolean(legal.plays[code]);
    const node = cardNode(code, {
      class: [playable ? "playable" : "dim", i === game.selected || (picking && game.picks.includes(i)) ? "selected" : "",
        view.drawn === code && view.phase === "after_draw" ? "drawn" : ""].join(" "),
      dataset: { index: String(i) }, onclick: () => (picking ? togglePick(i) : playCard(code)),
    });
    node.setAttribute("aria-label", playable ? t("{card}, playable", { card: cardName(code) }) : cardName(code));
    node.addEventListener("focus", () => { game.selected = i; });
    return node;
  });
  hand.replaceChildren(...nodes);
  layoutHand();
  const again = focusIndex >= 0 ? hand.querySelector(`.card[data-index="${Math.min(focusIndex, nodes.length - 1)}"]`) : null;
  if (again) again.focus({ preventScroll: true });
}

// The hand fans to fit the width: overlapping cards on an arc, never a sideways scroll.
export function layoutHand() {
  const hand = $("hand");
  const cards = [...hand.children];
  const n = cards.length;
  if (!n) return;
  const cw = cards[0].offsetWidth || 70;
  const width = hand.clientWidth - cw * 0.6;
  const step = n > 1 ? Math.min(cw * 1.08, (width - cw - 8) / (n - 1)) : 0;
  const total = cw + step * (n - 1);
  const start = cw * 0.3 + Math.max(0, (width - total) / 2);
  const spread = Math.min(3.5, 36 / n);
  cards.forEach((card, i) => {
    const off = i - (n - 1) / 2;
    card.style.left = `${start + i * step}px`;
    card.style.setProperty("--rot", `${(off * spread).toFixed(2)}deg`);
    card.style.setProperty("--arc", `${Math.min(16, off * off * spread * 0.25).toFixed(1)}px`);
    card.style.zIndex = String(i + 1);
  });
}

window.addEventListener("resize", () => { if (!$("table").hidden) layoutHand(); });

provide({ render, moreTimeLeft });
