"""The page against a node that goes silent (issue 31, item 5), in a real browser (Playwright
driving Debian's chromium, as test_browser.py): the page's WebSocket goes through a Playwright
route that passes both ways until the test "freezes" it (from then on nothing from the server
reaches the page, as from a SIGSTOPped node whose kernel still holds the connection), and the
page's clock is Playwright's, paused: time moves only when the test says, so what the page does
by its timers is checked without waiting and without timing on a loaded machine."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from . import test_browser
from .test_browser import page_on, take_seat

browser = test_browser.browser
"""The browser fixture of test_browser.py: one chromium for the module."""

START = datetime(2026, 12, 4, 12, 0, 0)
"""The page's clock when the test starts it (paused: it moves only by ``run_for``)."""


class Frozen:
    """The page's WebSockets, routed: passed both ways until :attr:`frozen`; then the server's
    messages are dropped and the page's recorded (a new socket after that reaches nothing)."""

    def __init__(self) -> None:
        self.frozen = False
        self.sockets = 0
        """WebSockets the page made."""
        self.after: list[str] = []
        """The types of the messages the page sent once frozen."""
        self.server: Any = None
        """The route's side towards the server, for the socket before the freeze."""
        self.made: Callable[[], None] = lambda: None
        """Called for each socket the page makes."""

    def route(self, ws: Any) -> None:
        self.sockets += 1
        self.made()
        if self.frozen:  # a reconnect to the frozen node: accepted by its kernel, never answered
            ws.on_message(lambda message: self.after.append(json.loads(message)["type"]))
            return
        server = ws.connect_to_server()
        self.server = server

        def from_page(message: str | bytes) -> None:
            if self.frozen:
                self.after.append(json.loads(message)["type"])
            else:
                server.send(message)

        def from_server(message: str | bytes) -> None:
            if not self.frozen:
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)


def _msg(page: Any) -> Any:
    return page.evaluate("() => window.unotable && window.unotable.msg")


def _at_the_bots_turn(page: Any, frozen: Frozen) -> None:
    """Ana's page at the table with the game under way and the bot (seat 1) to move; her move,
    if she is to move first, is sent by the test on her page's socket (the page's clock is
    paused: its own drawing would wait for frames)."""
    token = page.evaluate("() => window.unotable.token")
    for _ in range(200):
        m = _msg(page)
        if m is not None and m["table"]["status"] == "playing" and not m["table"]["hand_over"]:
            if m["view"]["current"] == 1:
                return
            if m["view"]["current"] == 0 and m["view"]["legal"]:
                legal = m["view"]["legal"]
                action = "draw" if "draw" in legal else legal[0]
                frozen.server.send(json.dumps({"type": "act", "token": token, "action": action}))
                _until(page, f"() => window.unotable.msg.seq > {m['seq']}")
                continue
        page.wait_for_timeout(50)
    raise AssertionError(f"the bot never came to move: {_msg(page)}")


def _until(page: Any, expression: str, seconds: float = 15) -> None:
    """Poll ``expression`` on the page from here (the page's own timers are paused)."""
    for _ in range(int(seconds / 0.05)):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"not within {seconds:g} s: {expression}")


def test_a_bots_turn_that_brings_nothing_makes_the_page_ping_and_then_find_a_live_node(
    browser: Any, sqlite_url: str
) -> None:
    """The bot is to move (1 s delay) and its node freezes: the page expects the move and, hearing
    nothing 1 s after the bot's delay, pings at once (its periodic ping is 10 s after the socket
    opened: not yet); two pings unanswered, it drops the socket, asks /healthz three times at
    once (round-robin: so that nginx meets the frozen node and learns it is down) and only then
    makes its new socket, within the 0.1-0.5 s of a moved room, not after the backoff of other
    losses."""
    with page_on(browser, sqlite_url) as (server, page):
        frozen = Frozen()
        order: list[str] = []
        frozen.made = lambda: order.append("socket")
        page.route_web_socket("**/ws/**", frozen.route)
        page.on("request", lambda r: order.append("healthz") if r.url.endswith("/healthz") else None)
        page.clock.install(time=START)
        page.clock.pause_at(START + timedelta(seconds=5))
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 1.0})
        take_seat(page, server.http, code, "Ana")
        _until(page, "() => Boolean(window.unotable.msg && window.unotable.ws?.readyState === 1)")
        _at_the_bots_turn(page, frozen)  # the page's clock has not moved since its socket opened
        frozen.frozen = True
        page.clock.run_for(1000 + 1000 + 100)  # the bot's delay and PROBE_MS: a ping, not 10 s later
        assert frozen.after == ["ping"]
        assert page.evaluate("() => window.unotable.offline") is False
        page.clock.run_for(1500)  # ANSWER_MS: unanswered, a second ping
        assert frozen.after == ["ping", "ping"]
        assert order == ["socket"]
        page.clock.run_for(1500)  # unanswered again: the node is silent
        assert page.evaluate("() => window.unotable.offline") is True
        page.clock.run_for(500)  # the jittered 0.1-0.5 s
        _until(page, "() => window.unotable.ws !== null")
        for _ in range(200):  # the page's events reach the test a moment later
            if len(order) >= 5:
                break
            page.wait_for_timeout(50)
        assert order == ["socket", "healthz", "healthz", "healthz", "socket"]
