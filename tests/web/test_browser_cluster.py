"""A person plays on in a real browser (Playwright driving Debian's chromium) through nginx in
front of three nodes while the node holding their room is killed (issue 24), or frozen with
SIGSTOP while the page's socket goes straight to it (issue 31: nothing closes that socket, so
only the page's heartbeat notices): the page reconnects by itself, finds its seat, and the game
goes on from where it was."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from unotable.web.cluster import status
from unotable.web.storage import Store

from .test_browser import Player, browser, state, take_seat
from .test_cluster_failover import Node, Service, _post, node_metric, service

__all__ = ["browser", "service"]  # the fixtures, imported

pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (make setup)")


def _play_until(player: Player, page: Any, done: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            m = state(page)
            seen = (
                None
                if m is None
                else (m["seq"], m["table"]["status"], m["view"]["legal"], m["view"]["current"])
            )
            conn = "hidden" if page.locator("#conn").is_hidden() else page.locator("#conn").text_content()
            raise AssertionError(f"not within {seconds:g} s: {what} (the page: {seen}, {conn!r})")
        if page.evaluate("() => window.unotable.offline"):  # greyed out: nothing to click
            page.wait_for_timeout(50)
            continue
        if not player.turn():
            m = state(page)
            if m is not None and m["table"]["hand_over"] and m["table"]["status"] == "playing":
                button = page.locator("#next-hand")
                if button.count() and button.first.is_visible():
                    button.first.click(timeout=2000)
            page.wait_for_timeout(150)


@dataclass
class Seated:
    """Ana at a room of hers and a greedy bot, in the browser, the game under way."""

    page: Any
    ana: Player
    code: str
    store: Store
    owner: Node
    """The node holding the room's lease."""

    def seq(self) -> int:
        """The seq of the last message the page got (-1 before the first)."""
        m = state(self.page)
        return -1 if m is None else int(m["seq"])

    def owner_now(self) -> str:
        """The name of the node holding the room's lease now."""
        return {x.code: x.node for x in status(self.store)[1]}[self.code]


@contextmanager
def _seated(service: Service, browser: Any) -> Iterator[Seated]:
    base = service.base
    code = _post(base, "/api/rooms", {"players": 2, "seats": ["human", "greedy"], "bot_delay": 0.3})["code"]
    context = browser.new_context(ignore_https_errors=True)
    page = context.new_page()
    try:
        take_seat(page, base, code, "Ana")
        ana = Player(page, "Ana")
        store = Store(service.url)
        try:
            at = Seated(page, ana, code, store, service.nodes[0])
            _play_until(ana, page, lambda: at.seq() >= 4, 90, "the game is under way")
            at.owner = next(n for n in service.nodes if n.name == at.owner_now())
            yield at
        finally:
            store.close()
    finally:
        context.close()


def test_a_person_plays_on_while_the_node_holding_the_room_is_killed(service: Service, browser: Any) -> None:
    with _seated(service, browser) as at:
        at_kill = at.seq()
        at.owner.proc.send_signal(signal.SIGKILL)
        at.owner.proc.wait(10)
        _play_until(at.ana, at.page, lambda: at.seq() >= at_kill + 4, 120, "the game goes on after the kill")
        m = state(at.page)
        assert m is not None and m["you"] == 0 and m["table"]["players"][0]["name"] == "Ana"
        assert at.page.locator("#conn").is_hidden(), "the page says it is connected again"
        assert at.owner_now() != at.owner.name


def _acted_after(m: dict[str, Any] | None, seq: int) -> bool:
    """Whether ``m`` is an update past ``seq`` that carries a move of Ana's (seat 0)."""
    return m is not None and m["seq"] > seq and any(e.get("seat") == 0 for e in m.get("events") or [])


@pytest.mark.parametrize("when", ["ana", "bot"])
def test_a_person_on_a_frozen_node_plays_again_through_another(
    service: Service, browser: Any, when: str
) -> None:
    """The node holding the room (the page's socket straight to it) is frozen while Ana is to move
    (she moves and hears nothing: the page pings at once) or while the bot is (the page expects
    its move after the bot's delay and pings): the page finds the node silent, asks /healthz
    (nginx learns the frozen node is down), reconnects to a live node, which takes the room
    without trying a relay to the silent owner, and Ana moves again there. Nothing she was
    shown is lost: the new node's welcome is at the step she saw last, or later."""
    with _seated(service, browser) as at:
        frames: list[tuple[str, int, str]] = []
        marks: list[tuple[float, str]] = []
        """When the page's sockets opened, closed and were welcomed (monotonic), for the timeline."""

        def opened(ws: Any) -> None:
            marks.append((time.monotonic(), "socket"))

            def got(payload: Any) -> None:
                m = json.loads(payload)
                frames.append((ws.url, int(m.get("seq", -1)), str(m.get("type"))))
                if m.get("type") == "welcome":
                    marks.append((time.monotonic(), "welcome"))

            ws.on("framereceived", got)
            ws.on("close", lambda _: marks.append((time.monotonic(), "closed")))

        at.page.on("websocket", opened)
        for _ in range(20):  # until nginx sent the page's socket to the owner itself, not a relay
            if sum(node_metric(n, "unotable_cluster_relayed_sockets") for n in service.nodes) == 0:
                break
            at.page.reload()
            at.page.wait_for_function("() => window.unotable && window.unotable.msg")
            time.sleep(0.3)
        else:
            pytest.fail("the page's socket never reached the room's owner straight")
        mover = 0 if when == "ana" else 1
        _play_until(
            at.ana, at.page, lambda: (state(at.page) or {}).get("view", {}).get("current") == mover, 60,
            f"seat {mover} is to move",
        )  # fmt: skip
        at_freeze = at.seq()
        seen = len(frames)
        at.owner.proc.send_signal(signal.SIGSTOP)
        frozen = time.monotonic()
        try:
            _play_until(
                at.ana, at.page, lambda: _acted_after(state(at.page), at_freeze), 40,
                "Ana moves again through another node",
            )  # fmt: skip
            again = time.monotonic() - frozen
            _play_until(at.ana, at.page, lambda: at.seq() >= at_freeze + 4, 60, "the game goes on")
        finally:
            at.owner.proc.send_signal(signal.SIGCONT)
        timeline = " ".join(f"{what} {at - frozen:.1f}" for at, what in marks if at >= frozen)
        print(
            f"\nfrozen node ({when} to move): Ana's move accepted {again:.1f} s after the freeze"
            f" (load {os.getloadavg()[0]:.1f}; the page's sockets after it: {timeline})"
        )
        m = state(at.page)
        assert m is not None and m["you"] == 0 and m["table"]["players"][0]["name"] == "Ana"
        assert at.owner_now() != at.owner.name
        welcomes = [seq for _, seq, kind in frames[seen:] if kind == "welcome"]
        assert welcomes and welcomes[0] >= at_freeze, (welcomes, at_freeze)
