// The end of a hand: every hand face up by its seat, the points counted up, the scores hand by hand.
import { $, el, reducedMotion } from "./dom.js";
import { landed } from "./motion.js";
import { send } from "./net.js";
import { avatarNode, cardNode } from "./pieces.js";
import { CLIENT } from "./protocol.js";
import { render } from "./late.js";
import { avatarOf, game, playerName } from "./state.js";
import { namesText, t, tn } from "./strings.js";

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
      last.points || 0, { name: playerName(table, last.winner) })));
  }
  const hands = over.hands;
  if (hands) {
    content.push(el("div", { class: "hands-up", id: "hands-up" }, hands.map((h) => {
      const player = h.player !== undefined ? h.player : table.seating[h.seat];
      return el("div", { class: "hand-up", dataset: { player: String(player) } },
        el("div", { class: "hand-up-name" }, avatarNode(avatarOf(table, player), "small"), playerName(table, player),
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
  const seated = m.you !== null;
  if (standings.finished) {
    const winners = (standings.winners || []).map((p) => playerName(table, p));
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
    : standings.scores.map((_, p) => (standings.eliminated.includes(p) ? t("{name} (out)", { name: playerName(table, p) }) : playerName(table, p)));
  const rows = [];
  if (history) {
    history.forEach((row, i) => {
      const cells = Array.isArray(row) ? row : row.scores || row.points || [];
      rows.push(el("tr", {}, el("th", { scope: "row" }, t("Hand {hand}", { hand: i + 1 })), cells.map((s) => el("td", {}, String(s)))));
    });
  }
  rows.push(el("tr", { class: "total" }, el("th", { scope: "row" }, t("Total")),
    standings.scores.map((s) => el("td", { class: "total-cell", dataset: { total: String(s) } }, String(s)))));
  return el("table", { class: "scores", id: "scores" },
    el("caption", {}, t("Scores")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Hand")), head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
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
