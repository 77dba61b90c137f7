// The end of a hand: every hand face up by its seat, the points counted up, the scores hand by hand.
import { $, el, reducedMotion } from "./dom.js";
import { landed } from "./motion.js";
import { send } from "./net.js";
import { avatarNode, cardNode } from "./pieces.js";
import { CLIENT } from "./protocol.js";
import { render } from "./late.js";
import { avatarOf, game, handPlayers, occupantName, playerName, seatLabel, sitters, stintText } from "./state.js";
import { namesText, t, tn, wordsLang } from "./strings.js";

export function renderOverlay(m, names) {
  const { table } = m;
  const box = $("overlay");
  if (!table.hand_over) {
    box.hidden = true;
    game.handOverShown = null;
    game.handOverLanded = null;
    game.handOverWaiting = null;
    return;
  }
  const key = `${table.game_number}:${table.hand}`;
  if (game.handOverShown !== key && game.handOverLanded !== key) {
    // The results wait for the last card's flight (motion.js) to end; then they are drawn.
    box.hidden = true;
    if (game.handOverWaiting !== key) {
      game.handOverWaiting = key;
      landed().then(() => {
        game.handOverLanded = key;
        if (game.msg && game.msg.table.hand_over) render();
      });
    }
    return;
  }
  const standings = table.standings;
  const last = table.last_hand || {};
  const over = { hands: last.hands || null, history: table.score_rows || null };
  const content = [el("h2", { id: "overlay-title" }, standings.finished ? t("Game over") : t("Hand {hand} is over", { hand: table.hand + 1 }))];
  if (last.winner !== undefined && last.winner !== null) {
    content.push(el("p", { class: "went-out" }, tn("{name} went out and scores {n} point.", "{name} went out and scores {n} points.",
      last.points || 0, { name: wentOut(table, last) })));
  }
  if (m.view.side !== undefined) { // UNO Flip (FL-8): the hand counts the faces of the side in play
    content.push(el("p", { class: "side-scored", id: "side-scored" }, m.view.side === "dark"
      ? t("The cards count by their dark side, the side in play when the hand ended.")
      : t("The cards count by their light side, the side in play when the hand ended.")));
  }
  const hands = over.hands;
  if (hands) {
    content.push(el("div", { class: "hands-up", id: "hands-up" }, hands.map((h) => {
      const player = h.player !== undefined ? h.player : table.seating[h.seat];
      return el("div", { class: "hand-up", dataset: { player: String(player) } },
        el("div", { class: "hand-up-name" }, avatarNode(avatarOf(table, player), "small"), namesText(handPlayers(table, { ...h, player })),
          el("span", { class: "hand-points", dataset: { points: String(h.points || 0) } }, tn("{n} point", "{n} points", h.points || 0))),
        el("div", { class: "hand-up-cards" }, (h.cards || []).length
          ? h.cards.map((c) => cardNode(c, { tag: "span", class: "tiny" })) : el("span", { class: "out" }, t("out!"))));
    })));
  }
  const out = last.winner !== undefined && standings.eliminated.filter((p) => table.seating.includes(p));
  if (out && out.length) { // challenge, elimination: who this hand put out of the game
    content.push(el("p", { class: "out-now", id: "out-now" }, tn("{names} is out of the game.", "{names} are out of the game.",
      out.length, { names: namesText(out.map((p) => playerName(table, p))) })));
  }
  content.push(scoresTable(table, over));
  const moved = table.players.filter((p) => sitters(table, p.player));
  if (moved.length) { // who sat where, when a seat changed hands during the game (P-580)
    content.push(el("div", { class: "who-sat", id: "who-sat" }, el("h3", {}, t("Who sat where")),
      el("ul", {}, moved.map((p) => el("li", { dataset: { player: String(p.player) } },
        t("Seat {number}: {sitters}", { number: p.player + 1, sitters: p.sat.map((o) => stintText(o, p.player)).join(", ") }))))));
  }
  const seated = m.you !== null;
  if (standings.finished) {
    const winners = (standings.winners || []).map((p) => winnerName(table, p));
    content.push(el("p", { class: "winners" }, tn("{names} wins the game!", "{names} win the game!", winners.length, { names: namesText(winners) })));
    if (seated) {
      content.push(el("button", { type: "button", id: "rematch",
        onclick: () => send({ type: CLIENT.REMATCH, token: game.token }) }, t("Rematch")));
    }
    content.push(" ", el("a", { href: `/r/${table.code}/replay/${table.game_number}`, id: "replay-link", class: "button-link" },
      t("Replay of game {number}", { number: table.game_number + 1 })));
  } else if (seated) {
    content.push(el("button", { type: "button", id: "next-hand",
      onclick: () => send({ type: CLIENT.NEXT_HAND, token: game.token }) }, t("Next hand")));
  } else {
    content.push(el("p", {}, t("Waiting for a player to deal the next hand.")));
  }
  box.replaceChildren(el("div", { class: "box", role: "dialog", "aria-labelledby": "overlay-title" }, content));
  box.hidden = false;
  if (game.handOverShown !== key) {
    game.handOverShown = key;
    countUp(box);
  }
}

function scoresTable(table, over) {
  const standings = table.standings;
  const history = over && Array.isArray(over.history) ? over.history : null;
  const head = standings.by_team
    ? standings.scores.map((_, i) => t("Team {number}", { number: i + 1 }))
    : standings.scores.map((_, p) => (standings.eliminated.includes(p) ? t("{name} (out)", { name: seatLabel(table, p) }) : seatLabel(table, p)));
  const rows = [];
  if (history) {
    history.forEach((row, i) => {
      const cells = Array.isArray(row) ? row : row.scores || row.points || [];
      rows.push(el("tr", {}, el("th", { scope: "row" }, t("Hand {hand}", { hand: i + 1 })), cells.map((s) => el("td", {}, String(s)))));
    });
  }
  rows.push(el("tr", { class: "total" }, el("th", { scope: "row" }, t("Total")),
    standings.scores.map((s) => el("td", { class: "total-cell", dataset: { total: String(s) } }, String(s)))));
  if (Array.isArray(standings.places) && standings.places.length === standings.scores.length) {
    // Places as the terminal gives them: players level share the better one, "1st=" (docs/rules.md §9).
    rows.push(el("tr", { class: "places" }, el("th", { scope: "row" }, t("Place")),
      standings.places.map((n) => el("td", { class: "place-cell", dataset: { place: String(n) } },
        placeText(n, standings.places.filter((x) => x === n).length > 1)))));
  }
  return el("table", { class: "scores", id: "scores" },
    el("caption", {}, t("Scores")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Hand")), head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
}

// Who went out: whoever sat in the winner's seat when the hand ended.
function wentOut(table, last) {
  const h = (last.hands || []).find((x) => x.player === last.winner);
  return h ? handPlayers(table, h).at(-1) : playerName(table, last.winner);
}

// A winning seat: its name, or "Seat 2 (Greedy bot 2 and Dan)" when several sat there.
function winnerName(table, player) {
  const sat = sitters(table, player);
  if (!sat) return playerName(table, player);
  return t("Seat {number} ({names})", { number: player + 1, names: namesText(sat.map((o) => occupantName(o, player))) });
}

// 1st, 2nd...; 1.º in Portugal, 1º in Brazil, 1er and 2e in French; "1st=" when shared (as the
// terminal's unotable.tui.results.place).
export function placeText(n, shared) {
  const lang = wordsLang();
  let text;
  if (lang === "pt") text = `${n}.º`;
  else if (lang === "pt_BR") text = `${n}º`;
  else if (lang === "fr") text = n === 1 ? "1er" : `${n}e`;
  else {
    const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    text = `${n}${suffix}`;
  }
  return shared ? t("{place}=", { place: text }) : text;
}

// The hand's points and the totals count up from zero.
function countUp(box) {
  const cells = [...box.querySelectorAll("[data-points], [data-total]")];
  if (reducedMotion()) return;
  const start = performance.now();
  const ms = 900;
  const targets = cells.map((c) => ({ c, to: Number(c.dataset.points || c.dataset.total || 0), text: c.textContent }));
  function step(now) {
    const f = Math.min(1, (now - start) / ms);
    for (const { c, to, text } of targets) {
      if (!c.isConnected) continue;
      const v = Math.round(to * f);
      c.textContent = f < 1 ? String(v) : text;
    }
    if (f < 1) requestAnimationFrame(step);
  }
  requestAnimationFrame(step);
}
