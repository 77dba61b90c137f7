"""The table's defects a friends' evening met (issue 34, item 1), in a real browser (Playwright
driving Debian's chromium, as test_browser.py): nothing of the table covers a dialog, the results
wait for the last card to land, the host's seat controls ask first, a lost connection greys the
table out.
"""

from __future__ import annotations

import time
from typing import Any

from . import test_browser
from .test_browser import PHONE, Player, page_on, state, take_seat

browser = test_browser.browser
"""The browser fixture of test_browser.py: one chromium for the module."""

WATCH_OVERLAY = """() => {
  window.__flyingAtResults = [];
  const box = document.querySelector("#overlay");
  new MutationObserver(() => {
    if (!box.hidden) window.__flyingAtResults.push(document.querySelectorAll("#fx .flying").length);
  }).observe(box, { attributes: true, attributeFilter: ["hidden"] });
}"""
"""Record, each time the end-of-hand screen shows, how many cards are still flying."""

RAISE_UNDER = """(selector) => {
  const codes = ["R1", "Y2", "G3", "B4", "RS", "YR", "G+2"];
  const u = window.unotable;
  u.msg.view.hand = codes;
  u.selected = 3;
  u.render();
  const card = document.querySelector('#hand .card[data-index="3"]');
  const target = document.querySelector(selector).getBoundingClientRect();
  const x = target.left + target.width / 2;
  const y = target.top + target.height / 2;
  // Bring the raised card right under the target: the page scrolls under the fixed dialog
  // (room to scroll below and above the table).
  document.body.style.padding = "100vh 0";
  let r = card.getBoundingClientRect();
  window.scrollBy(0, r.top + r.height / 2 - y);
  r = card.getBoundingClientRect();
  card.style.left = `${parseFloat(card.style.left) + x - (r.left + r.width / 2)}px`;
  r = card.getBoundingClientRect();
  const under = r.left <= x && x <= r.right && r.top <= y && y <= r.bottom;
  const raised = getComputedStyle(card).zIndex;
  const hit = document.elementFromPoint(x, y);
  return { under, raised, card: [r.left, r.top, r.right, r.bottom], at: [x, y],
    hit: hit ? (hit.id || hit.className.baseVal || hit.className) : null,
    isTarget: Boolean(hit && hit.closest(selector)) };
}"""
"""Lay a hand with its fourth card raised (selected, as the arrow keys do) right under the
centre of what ``selector`` finds; what the page shows at that point."""


def play_to_hand_over(player: Player) -> None:
    """``player`` plays until the hand is over."""
    page = player.page
    deadline = time.monotonic() + 180
    while True:
        m = state(page)
        if m is not None and m["table"]["hand_over"]:
            return
        assert time.monotonic() < deadline, "the hand did not end in time"
        if not player.turn():
            time.sleep(0.1)


def test_a_raised_card_never_covers_the_end_of_a_hand(browser: Any, sqlite_url: str) -> None:
    """A card raised in the hand (z-index 100) lies under the end-of-hand screen: at the centre of
    "Next hand", with the raised card right beneath, the page's topmost element is the button,
    and a click there deals the next hand. The results show only once no card is flying."""
    with page_on(browser, sqlite_url, viewport=PHONE) as (server, page):
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 0.2, "target": 2000})
        take_seat(page, server.http, code, "Ana")
        page.evaluate(WATCH_OVERLAY)
        play_to_hand_over(Player(page, "Ana"))
        page.wait_for_selector("#overlay #next-hand")
        flying = page.evaluate("() => window.__flyingAtResults")
        assert flying and all(n == 0 for n in flying), f"cards still flying when the results showed: {flying}"
        seen = page.evaluate(RAISE_UNDER, "#next-hand")
        assert seen["under"] and seen["raised"] == "100", seen
        assert seen["isTarget"], f"the raised card covers Next hand: {seen}"
        page.screenshot(path="/tmp/evening-hand-over.png")
        hand = state(page)["table"]["hand"]  # type: ignore[index]
        page.click("#next-hand")
        page.wait_for_function(f"() => window.unotable.msg.table.hand === {hand + 1}")
