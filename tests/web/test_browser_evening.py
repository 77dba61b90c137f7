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
from .test_browser_table import RECORD_SENT, wait_turn

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


def test_the_hosts_seat_controls_ask_first_and_close_the_menu(browser: Any, sqlite_url: str) -> None:
    """ "Free this seat" and "Give this seat to a bot" ask in a small dialog first (Cancel has the
    focus, Escape cancels, Tab stays inside, the focus comes back to the menu's button); Yes acts
    and closes the menu, which stays closed for the next person in that seat."""
    with page_on(browser, sqlite_url) as (server, page):
        page.context.add_init_script(RECORD_SENT)
        code = server.room({"players": 3, "seats": ["human", "human", "greedy"], "bot_delay": 10.0})
        take_seat(page, server.http, code, "Ana")
        server.join(code, "Ben")
        page.wait_for_function("() => window.unotable.msg.table.status === 'playing'")

        def seat_messages() -> list[str]:
            sent: list[dict[str, Any]] = page.evaluate("() => window.__sent")
            return [m["type"] for m in sent if m["type"] in ("free_seat", "seat_bot")]

        def focused() -> str:
            return str(
                page.evaluate("() => document.activeElement.id || document.activeElement.dataset.menu")
            )

        page.click('[data-menu="1"]')
        page.click('[data-free="1"]')
        page.wait_for_selector("#confirm #confirm-yes")
        assert "Ben" in page.inner_text("#confirm-text")
        assert focused() == "confirm-no"
        page.keyboard.press("1")  # the table's keys wait while a question is asked
        page.keyboard.press("Tab")
        assert focused() == "confirm-yes"
        page.keyboard.press("Tab")
        assert focused() == "confirm-no"
        page.screenshot(path="/tmp/evening-confirm.png")
        page.keyboard.press("Escape")
        assert page.locator("#confirm").is_hidden()
        assert page.locator("#seats .menu").count() == 0
        assert focused() == "1"
        assert seat_messages() == [] and state(page)["table"]["players"][1]["name"] == "Ben"  # type: ignore[index]

        page.keyboard.press("Enter")  # the menu's button, from the keyboard
        page.click('[data-seat-bot="1"]')
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.unotable.msg.table.players[1].bot !== null")
        assert seat_messages() == ["seat_bot"]
        assert page.locator("#seats .menu").count() == 0 and page.locator("#confirm").is_hidden()

        page.click('[data-menu="1"]')
        page.click('[data-free="1"]')
        page.click("#confirm-yes")
        page.wait_for_function("() => window.unotable.msg.table.players[1].free === true")
        assert seat_messages() == ["seat_bot", "free_seat"]
        assert page.locator("#seats .menu").count() == 0
        server.join(code, "Cid", 1)
        page.wait_for_function("() => window.unotable.msg.table.players[1].name === 'Cid'")
        assert page.locator("#seats .menu").count() == 0
        assert page.get_attribute('[data-menu="1"]', "aria-expanded") == "false"


def test_the_table_greys_out_while_the_server_is_away(browser: Any, sqlite_url: str) -> None:
    """The socket is lost and every reconnection refused: the table is greyed out, its controls
    inert (a click or a key sends nothing), the live region says so; once the server answers
    again, the welcome brings the live table back and says so."""
    with page_on(browser, sqlite_url) as (server, page):
        page.context.add_init_script(RECORD_SENT)
        down = [False]
        routes: list[Any] = []

        def route(ws: Any) -> None:
            if down[0]:
                ws.close()
                return
            ws.connect_to_server()
            routes.append(ws)

        page.route_web_socket("**/ws/**", route)
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 10.0})
        take_seat(page, server.http, code, "Ana")
        wait_turn(page)
        assert page.evaluate("() => document.querySelector('#table').classList.contains('offline')") is False
        down[0] = True
        routes[-1].close()
        page.wait_for_function("() => document.querySelector('#table').classList.contains('offline')")
        inert = page.evaluate(
            "() => ['felt', 'actions', 'hand', 'social'].map((id) => document.getElementById(id).inert)"
        )
        assert inert == [True, True, True, True]
        assert page.locator("#conn").is_visible()
        assert "Connection lost" in page.inner_text("#announce")
        grey = page.evaluate("() => getComputedStyle(document.querySelector('#felt')).filter")
        assert "grayscale" in grey, grey
        page.screenshot(path="/tmp/evening-offline.png")
        sent = page.evaluate("() => window.__sent.length")
        page.locator("#hand .card").first.click(force=True)  # the hand is inert: nothing happens
        page.keyboard.press("d")
        page.keyboard.press("1")
        assert page.evaluate("() => window.__sent.length") == sent
        assert page.evaluate("() => window.unotable.sent.length") == 0

        down[0] = False
        page.wait_for_function(
            "() => !document.querySelector('#table').classList.contains('offline')", timeout=30_000
        )
        assert page.evaluate("() => document.getElementById('hand').inert") is False
        assert "Connected again" in page.inner_text("#announce")
        assert page.locator("#conn").is_hidden()
        page.keyboard.press("d")
        page.wait_for_function("() => window.unotable.sent.includes('draw')")


def test_leave_goes_back_to_the_lobby_and_asks_a_player_first(browser: Any, sqlite_url: str) -> None:
    """A seated player of a game under way is asked before leaving (Cancel keeps the table);
    Yes closes the socket and shows the lobby; the room's link brings the seat back."""
    with page_on(browser, sqlite_url) as (server, page):
        sockets: list[Any] = []

        def opened(ws: Any) -> None:  # (a bound method is refused by Playwright's event API)
            sockets.append(ws)

        page.on("websocket", opened)
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 10.0})
        take_seat(page, server.http, code, "Ana")
        page.wait_for_function("() => window.unotable.msg.table.status === 'playing'")
        page.click("#leave")
        page.wait_for_selector("#confirm #confirm-yes")
        assert "Leave the table?" in page.inner_text("#confirm-text")
        page.screenshot(path="/tmp/evening-leave.png")
        page.click("#confirm-no")
        assert page.locator("#table").is_visible() and not sockets[-1].is_closed()
        page.click("#leave")
        page.click("#confirm-yes")
        page.wait_for_selector("#lobby", state="visible")
        assert page.locator("#table").is_hidden()
        assert page.evaluate("() => location.pathname") == "/"
        page.wait_for_function("() => window.unotable.ws === null")
        deadline = time.monotonic() + 10
        while not sockets[-1].is_closed():
            assert time.monotonic() < deadline, "the socket stayed open"
            page.wait_for_timeout(100)
        page.go_back()
        page.wait_for_function("() => window.unotable.msg && window.unotable.msg.you === 0")


FIELD_AND_INK = """() => {
  const svg = new DOMParser().parseFromString(window.unotable.art.cards().face("Y7"), "image/svg+xml");
  const field = svg.querySelector('rect[rx="8"]').getAttribute("fill");
  const corner = [...svg.querySelectorAll("text")].find((t) => t.getAttribute("fill") === "#fff");
  return { field, stroke: corner.getAttribute("stroke") };
}"""
"""A yellow card's field colour and the outline of its corner number, as the page draws them."""


def luminance(colour: str) -> float:
    """WCAG's relative luminance of ``#rrggbb`` or ``#rgb``."""
    if len(colour) == 4:
        colour = "#" + "".join(c * 2 for c in colour[1:])
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_yellow_cards_are_light_and_their_numbers_keep_their_contrast(browser: Any, sqlite_url: str) -> None:
    """Yellow cards read as UNO's bright yellow (relative luminance at least 0.65; it was 0.60, a
    mustard), and the outline that carries their numbers' legibility keeps at least 7:1 on it."""
    with page_on(browser, sqlite_url) as (server, page):
        page.goto(server.http + "/")
        page.wait_for_function("() => window.unotable && window.unotable.art")
        seen = page.evaluate(FIELD_AND_INK)
        field = luminance(seen["field"])
        assert field >= 0.65, seen
        contrast = (field + 0.05) / (luminance(seen["stroke"]) + 0.05)
        assert contrast >= 7, (seen, contrast)
