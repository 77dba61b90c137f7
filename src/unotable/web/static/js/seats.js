// The seats around the table: names, avatars, counts, badges, revealed and known cards,
// reaction bubbles; each seat's menu (the suggestion penalty, the host's seat controls).
import { api, errorText, getOptions, tokenKey } from "./api.js";
import { $, el, flash } from "./dom.js";
import { enterTable, joinBody, levelWords, render } from "./late.js";
import { send } from "./net.js";
import { avatarNode, backNode, cardNode, RING_SVG, seatPosition } from "./pieces.js";
import { CLIENT } from "./protocol.js";
import { avatarOf, game, seatInfo, sitters } from "./state.js";
import { cardName, t, tn } from "./strings.js";

export function renderSeats(m, names, legal) {
  const { view, table } = m;
  const n = table.seating.length;
  const base = m.seat === null ? 0 : m.seat;
  const standings = table.standings;
  const now = performance.now();
  const seats = table.seating.map((player, seat) => {
    const me = seat === m.seat;
    const info = seatInfo(table, player);
    const count = view.hand_sizes[seat];
    const exposed = view.uno_exposed.includes(seat);
    const score = standings.by_team ? null : standings.scores[player];
    const current = view.current === seat && !table.hand_over;
    const cls = ["seat", current ? "turn" : "", me ? "me" : "", game.lastPlay && game.lastPlay.seat === seat ? "last-play" : "",
      info.away ? "away" : "", count === 1 ? "one-card" : ""].filter(Boolean).join(" ");
    // UNO Flip (FL-2): the faces an opponent's cards turn towards this seat, all of them; to a
    // spectator (the view of nobody carries none) blank edges; in the other editions, backs.
    const faces = !me && view.other_faces ? view.other_faces[String(seat)] : null;
    const fan = faces
      ? el("span", { class: "other-faces", role: "img", dataset: { otherFaces: faces.join(" ") },
        "aria-label": t("The other side of their cards: {cards}", { cards: faces.map(cardName).join(", ") }) },
      faces.map((c) => hidden(cardNode(c, { tag: "span", class: "tiny" }))))
      : el("span", { class: "mini-fan", "aria-hidden": "true" },
        me ? null : Array.from({ length: Math.min(count, 6) }, () => (view.side !== undefined
          ? el("span", { class: "card mini edge" }) : backNode("mini")))); // a Flip card has no back
    const badges = [];
    if (count === 1 && !exposed) badges.push(el("span", { class: "badge uno" }, t("UNO")));
    // docs/rules.md §14, NM-9: a seat knocked out by No Mercy's mercy rule holds nothing while the hand goes on.
    if (count === 0 && !table.hand_over) badges.push(el("span", { class: "badge out" }, t("out: mercy rule")));
    if (exposed) badges.push(el("span", { class: "badge exposed" }, t("no UNO call!")));
    if (view.dealer === seat) badges.push(el("span", { class: "badge dealer" }, t("dealer")));
    const absent = info.absent ? { absent: String(player) } : {};
    if (info.away) badges.push(el("span", { class: "badge away", dataset: absent }, t("away: a bot plays")));
    else if (info.absent && !me) badges.push(el("span", { class: "badge away", dataset: absent }, t("away")));
    else if (!info.online && !me && !info.bot && !info.free) badges.push(el("span", { class: "badge offline" }, t("offline")));
    const vote = table.suggestion_votes && table.suggestion_votes[String(player)];
    if (vote && vote.asked.length) {
      badges.push(el("span", { class: "badge votes", dataset: { votes: String(player) } },
        t("penalty asked by {asked} of {needed}", { asked: vote.asked.length, needed: vote.needed.length })));
    }
    const reveal = game.reveals[seat];
    const revealNode = reveal && reveal.until > now ? el("div", { class: "reveal", role: "note",
      "aria-label": revealCaption(reveal.reason, names[seat]) },
    el("div", { class: "reveal-caption" }, revealCaption(reveal.reason, names[seat])),
    el("div", { class: "reveal-cards" }, reveal.cards.map((c) => cardNode(c, { tag: "span", class: "tiny" })))) : null;
    const known = !me && !revealNode && view.known && view.known[String(seat)] && view.known[String(seat)].length
      ? el("div", { class: "known", title: t("Cards of this hand you have seen") },
        view.known[String(seat)].map((c) => cardNode(c, { tag: "span", class: "tiny" }))) : null;
    const label = [names[seat], me ? t("you") : "", tn("{n} card", "{n} cards", count)].filter(Boolean).join(", ");
    const node = el("div", { class: cls, role: "group", "aria-label": label, "aria-current": current ? "true" : undefined,
      dataset: { seat: String(seat), player: String(player), count: String(count) } },
    el("span", { class: "avatar-wrap" }, avatarNode(avatarOf(table, player)),
      el("span", { class: "ring", "aria-hidden": "true", html: RING_SVG })),
    el("div", { class: "seat-text" },
      el("div", { class: "name" }, names[seat], me ? el("span", { class: "you" }, " ", t("(you)")) : null),
      el("div", { class: "meta" }, el("span", { class: "count" }, tn("{n} card", "{n} cards", count)),
        score !== null && score !== undefined ? el("span", { class: "score" }, sitters(table, player)
          // the seat changed hands: its score is the seat's, not the newcomer's alone (P-580)
          ? tn("{n} point for the seat", "{n} points for the seat", score) : tn("{n} point", "{n} points", score)) : null,
        game.clock && game.clock.player === player ? el("span", { class: "secs" }) : null),
      badges.length ? el("div", { class: "badges" }, badges) : null),
    fan, seatMenu(m, player, seat, names), spectatorButton(m, info, player), revealNode, known,
    game.bubbles[player] && game.bubbles[player].until > now ? el("div", { class: "bubble" }, game.bubbles[player].text) : null);
    if (node.querySelector(".seat-menu")) node.classList.add("has-menu");
    const pos = seatPosition((seat - base + n) % n, n);
    node.style.left = `${pos.x}%`;
    node.style.top = `${pos.y}%`;
    if (pos.y < 35) node.classList.add("top");
    return node;
  });
  $("seats").replaceChildren(...seats);
  $("felt").classList.toggle("many", n > 4);
  if (standings.by_team) {
    $("teams").replaceChildren(...standings.scores.map((s, i) => el("span", { class: "team" },
      t("Team {number}: {points}", { number: i + 1, points: tn("{n} point", "{n} points", s) }))));
  } else $("teams").replaceChildren();
  void legal;
}

// A card drawn inside a group that says it in words.
function hidden(node) {
  node.setAttribute("aria-hidden", "true");
  return node;
}

// A spectator's way to a seat (P-581): take a free seat, as the join page does; ask the host
// for an away person's seat back (it was theirs).
function spectatorButton(m, info, player) {
  if (m.you !== null || m.table.status === "finished") return null;
  const number = player + 1;
  if (info.free) {
    return el("button", { type: "button", class: "secondary seat-take", dataset: { take: String(player) },
      onclick: () => askName(t("Take seat {number}: your name?", { number }), t("Take this seat"), (name) => takeSeat(player, name)) },
    t("Take this seat"));
  }
  if (info.absent) {
    return el("button", { type: "button", class: "secondary seat-ask", dataset: { askBack: String(player) },
      onclick: () => askName(t("Seat {number} was yours? Your name, for the host:", { number }), t("Ask for my seat back"),
        (name) => askBack(player, name)) },
    t("Ask for my seat back"));
  }
  return null;
}

async function takeSeat(player, name) {
  const code = game.code;
  try {
    const r = await api("POST", `/api/rooms/${code}/join`, await joinBody(name, player));
    localStorage.setItem(tokenKey(r.code), r.token);
    enterTable(r.code, r.token);
  } catch (err) {
    flash(errorText(err));
  }
}

// Ask the host for seat `player` back over this (spectator's) connection; the answer comes as
// `ask_answer` (table.js).
export function askBack(player, name) {
  if (send({ type: CLIENT.ASK_SEAT, token: null, player, name })) {
    flash(t("Asked the host for seat {number}: wait for the answer.", { number: player + 1 }));
  }
}

// A small dialog asking for the person's name (remembered by this browser, as the lobby's).
function askName(text, yesWords, onYes) {
  const box = $("confirm");
  const input = el("input", { type: "text", id: "confirm-name", maxlength: 24, autocomplete: "nickname",
    value: localStorage.getItem("name") || "", "aria-labelledby": "confirm-text" });
  const yes = el("button", { type: "submit", id: "confirm-yes" }, yesWords);
  const no = el("button", { type: "button", id: "confirm-no", class: "secondary" }, t("Cancel"));
  const error = el("p", { class: "error", role: "alert" });
  const close = () => { box.hidden = true; };
  const form = el("form", { class: "box", role: "dialog", "aria-modal": "true", "aria-labelledby": "confirm-text" },
    el("p", { id: "confirm-text" }, text), input, error, yes, " ", no);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) {
      error.textContent = t("Pick a name of 1 to 24 characters.");
      input.focus();
      return;
    }
    localStorage.setItem("name", name);
    close();
    onYes(name);
  });
  no.addEventListener("click", close);
  box.replaceChildren(form);
  box.hidden = false;
  input.focus();
}

// The host's one-tap answer to an ask for a seat back (`seat_ask`): Give or Refuse.
export function hostAsk(ask, names) {
  const box = $("confirm");
  const seatName = names[ask.player] || t("Seat {number}", { number: ask.player + 1 });
  const text = ask.name === seatName
    ? t("{name} asks for seat {number} back.", { name: ask.name, number: ask.player + 1 })
    : t("{name} asks for seat {number} back ({seat} sat there).", { name: ask.name, number: ask.player + 1, seat: seatName });
  const answer = (give) => {
    box.hidden = true;
    send({ type: CLIENT.ANSWER_ASK, token: game.token, ask: ask.ask, give });
  };
  const give = el("button", { type: "button", id: "ask-give" }, t("Give"));
  const refuse = el("button", { type: "button", id: "ask-refuse", class: "secondary" }, t("Refuse"));
  give.addEventListener("click", () => answer(true));
  refuse.addEventListener("click", () => answer(false));
  const dialog = el("div", { class: "box", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-text",
    dataset: { ask: String(ask.ask) } }, el("p", { id: "confirm-text" }, text), give, " ", refuse);
  box.replaceChildren(dialog);
  box.hidden = false;
  refuse.focus();
}

function revealCaption(reason, name) {
  switch (reason) {
    case "challenge": return t("{name}'s hand, shown to the challenger", { name });
    case "howler": return t("The Howler shouts {name}'s hand", { name });
    case "mater": return t("Mater looks at {name}'s hand", { name });
    default: return t("{name}'s hand", { name });
  }
}

// A seat's menu: the suggestion penalty (when the room has it on), the host's controls.
function seatMenu(m, player, seat, names) {
  const { table, view } = m;
  const items = [];
  const playing = table.status === "playing" && !table.hand_over && view.phase !== "hand_over";
  const suggestion = table.suggestion || {};
  const penaltyOn = Boolean(suggestion.on);
  const mine = m.you !== null && m.seat !== null && seat !== m.seat;
  const vote = table.suggestion_votes && table.suggestion_votes[String(player)];
  const penalizable = (suggestion.open || []).includes(player);
  if (penaltyOn && mine && playing && penalizable) {
    const asked = vote && vote.asked.includes(m.you);
    items.push(el("button", { type: "button", class: "secondary penalize", disabled: asked,
      dataset: { penalize: String(player) }, onclick: () => confirmPenalty(player, names[seat]) },
    t("{name} suggested a play: ask for the penalty", { name: names[seat] })));
  }
  const info = seatInfo(table, player);
  if (game.host && player !== m.you && !info.free) {
    const name = names[seat];
    items.push(el("button", { type: "button", class: "secondary", dataset: { free: String(player) },
      onclick: () => confirmAsk(t("Free {name}'s seat? They watch from then on, and anyone may take the seat.", { name }),
        t("Yes, free the seat"), () => send({ type: CLIENT.FREE_SEAT, token: game.token, player })) }, t("Free this seat")));
    if (!info.bot) {
      const toBot = (bot, choice) => confirmAsk(choice
        ? t("Give {name}'s seat to a bot ({choice})? They watch from then on.", { name, choice })
        : t("Give {name}'s seat to a bot? They watch from then on.", { name }),
      t("Yes, give it to the bot"), () => send({ type: CLIENT.SEAT_BOT, token: game.token, player, bot }));
      items.push(el("button", { type: "button", class: "secondary", dataset: { seatBot: String(player) },
        onclick: () => toBot((table.settings.room || {}).away_bot || "greedy", null) },
      t("Give this seat to a bot")));
      for (const lv of botLevels()) {
        items.push(el("button", { type: "button", class: "secondary", dataset: { seatLevel: `${player}:${lv.level}` },
          onclick: () => toBot(lv.bot, levelWords(lv)) },
        t("Give this seat to a bot: {choice}", { choice: levelWords(lv) })));
      }
    }
  }
  if (!items.length) return null;
  // The menu is open for whoever sits there now: the next person in the seat finds it closed.
  const who = occupant(info);
  const open = game.menu !== null && game.menu.player === player && game.menu.who === who;
  const button = el("button", { type: "button", class: "menu-button", "aria-expanded": String(open),
    "aria-label": t("Menu of {name}'s seat", { name: names[seat] }), dataset: { menu: String(player) },
    onclick: () => { game.menu = open ? null : { player, who }; render(); } }, "⋯");
  return el("div", { class: "seat-menu" }, button, open ? el("div", { class: "menu", role: "menu" }, items) : null);
}

function occupant(info) {
  return JSON.stringify([info.name || null, info.bot || null, Boolean(info.free)]);
}

function confirmPenalty(player, name) {
  // How many cards the penalty costs is the edition's (the server's table.suggestion.cards).
  const n = game.msg.table.suggestion.cards;
  confirmAsk(tn("Ask for the suggestion penalty: {name} draws {n} card if everyone else playing asks too. Once per hand.",
    "Ask for the suggestion penalty: {name} draws {n} cards if everyone else playing asks too. Once per hand.", n, { name }),
  t("Yes, ask for it"), () => send({ type: CLIENT.PENALIZE, token: game.token, player }));
}

// A small dialog in the page: the question, Yes (then `onYes`) and Cancel (the focus starts
// there; Escape is Cancel, input.js). Either closes the seat's menu; the focus goes back to the
// menu's button. Tab stays inside the dialog.
export function confirmAsk(text, yesWords, onYes) {
  const box = $("confirm");
  const back = game.menu !== null ? game.menu.player : null;
  const yes = el("button", { type: "button", id: "confirm-yes" }, yesWords);
  const no = el("button", { type: "button", id: "confirm-no", class: "secondary" }, t("Cancel"));
  const close = () => {
    box.hidden = true;
    game.menu = null;
    render();
    const again = back !== null ? document.querySelector(`[data-menu="${back}"]`) : null;
    if (again) again.focus();
  };
  yes.addEventListener("click", () => {
    close();
    onYes();
  });
  no.addEventListener("click", close);
  const dialog = el("div", { class: "box", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "confirm-text" },
    el("p", { id: "confirm-text" }, text), yes, " ", no);
  dialog.addEventListener("keydown", (ev) => {
    if (ev.key !== "Tab") return;
    ev.preventDefault();
    (document.activeElement === yes ? no : yes).focus();
  });
  box.replaceChildren(dialog);
  box.hidden = false;
  no.focus();
}

// The bots by strength the server offers (GET /api/options, lobby.js), fetched once: none
// until they come (the menu is drawn again then).
let botLevelsSeen = null;
function botLevels() {
  if (botLevelsSeen === null) {
    botLevelsSeen = [];
    getOptions().then((opts) => {
      botLevelsSeen = Array.isArray(opts.bot_levels) ? opts.bot_levels : [];
      if (game.msg) render();
    }).catch(() => {});
  }
  return botLevelsSeen;
}
