"""The page in a real browser through nginx (docs/deploy.md): Playwright drives Debian's chromium
to the documented nginx configuration over TLS (a throwaway certificate), a person makes a room
on the page, its WebSocket connects through the proxy and she plays a card; the page logs no
error (the Content-Security-Policy holds)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from unotable.web.guard import Limits
from unotable.web.hub import Hub

from .conftest import LiveServer
from .test_browser import Player, browser, state, take_seat
from .test_nginx import behind_nginx

__all__ = ["behind_nginx", "browser"]  # the fixtures, used by name


UNTRUSTED_WORKER = "console: An SSL certificate error occurred when fetching the script."
"""Chromium's word when it will not fetch the service worker (/sw.js) under the throwaway
certificate (``ignore_https_errors`` lets pages through, not workers): the page plays on without
it; a real certificate installs it (docs/web.md, "Install, offline, notifications and sound")."""


@pytest.mark.parametrize("behind_nginx", [Limits(per_address=64)], indirect=True)
def test_a_person_plays_a_card_through_nginx(behind_nginx: tuple[LiveServer, str], browser: Any) -> None:
    server, base = behind_nginx
    ctx = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(f"script: {exc}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.goto(base + "/")
        assert page.url.startswith("https://")
        page.wait_for_selector("#create-form")
        page.fill("#players", "2")
        page.dispatch_event("#players", "input")
        page.select_option('#seat-choices select[data-seat="1"]', "greedy")
        page.click("#create")
        page.wait_for_url("**/r/*")
        code = page.url.rstrip("/").split("/")[-1]
        take_seat(page, base, code, "Ana")
        page.wait_for_selector("#hand .card")
        assert page.evaluate("() => window.unotable.msg !== null")  # the WebSocket's welcome came
        hub: Hub = server.server.config.app.state.hub  # type: ignore[union-attr]  # the true game, read only
        ana = Player(page, "Ana")
        deadline = time.monotonic() + 120

        def ana_played() -> bool:
            game = hub.rooms[code].game
            seat = game.deal.seating.index(0) if 0 in game.deal.seating else -1
            return any(str(actor) == str(seat) and text.startswith("play") for actor, text in game.log[-1])

        while not ana_played():
            assert time.monotonic() < deadline, "Ana did not play a card in time"
            if not ana.turn():
                time.sleep(0.1)
        m = state(page)
        assert m is not None and m["seat"] == 0
    finally:
        ctx.close()
    assert [e for e in errors if e != UNTRUSTED_WORKER] == []
