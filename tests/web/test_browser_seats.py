"""Seats with a history, seats asked back and seats taken from the table, in a real browser
(issue 34 item 4; Playwright driving Debian's chromium, as test_browser.py): the results say
who sat where and give shared places, the replay names whoever sat in a seat at each step, a
spectator takes a free seat from the table, and a person whose connection is gone asks the host
for their seat back from the join page."""

from __future__ import annotations

import json
import random
from typing import Any

from websockets.sync.client import connect as ws_connect

from unotable.web.client import choose, http_json

from . import test_browser
from .conftest import LiveServer
from .test_browser import page_on, state

browser = test_browser.browser
"""The browser fixture of test_browser.py: one chromium for the module."""


def _play(ws: Any, token: str, until: Any) -> dict[str, Any]:
    """Play ``token``'s seat on ``ws`` (first legal choice of a seeded chooser) until a message
    satisfies ``until``; that message."""
    rng = random.Random(1)
    for _ in range(20_000):
        m: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if until(m):
            return m
        if m.get("type") in ("welcome", "update") and m["table"]["status"] == "playing":
            if m["table"]["hand_over"]:
                ws.send(json.dumps({"type": "next_hand", "token": token}))
                continue
            action = choose(m["view"], rng, forget=0.0, react=0.0)
            if action is not None:
                ws.send(json.dumps({"type": "act", "token": token, "action": action}))
    raise AssertionError("the awaited message never came")


def _bot_then_dan(server: LiveServer) -> tuple[str, int]:
    """A game of Ana, a random bot and a greedy bot; after the first hand the host frees the
    random bot's seat and Dan takes it (he never connects: the away bot plays for him). Played
    to its end; the room's code and the log's length when Dan sat down."""
    code = server.room(
        {
            "players": 3,
            "seats": ["human", "random", "greedy"],
            "bot_delay": 0,
            "target": 150,
            "room": {"grace_seconds": 0},
        }
    )
    ana, _ = server.join(code, "Ana")
    with ws_connect(f"{server.ws}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "token": ana}))
        _play(ws, ana, lambda m: m.get("type") == "update" and m["table"]["hand_over"])
        ws.send(json.dumps({"type": "free_seat", "token": ana, "player": 1}))
        _play(ws, ana, lambda m: m.get("type") == "update" and m["table"]["players"][1]["free"])
        server.join(code, "Dan", 1)
        m = _play(ws, ana, lambda m: m.get("type") == "update" and m["table"]["players"][1]["name"] == "Dan")
        joined = int(m["seq"])
        ws.send(json.dumps({"type": "next_hand", "token": ana}))
        _play(ws, ana, lambda m: m.get("type") == "update" and m["table"]["status"] == "finished")
    return code, joined


def test_the_results_and_the_replay_name_whoever_sat_in_the_seat(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url) as (server, page):
        code, joined = _bot_then_dan(server)
        page.goto(f"{server.http}/r/{code}")
        page.click("#watch")
        page.wait_for_selector("#who-sat li[data-player='1']")
        hands = state(page)["table"]["hand"] + 1  # type: ignore[index]
        line = page.inner_text("#who-sat li[data-player='1']")
        assert line == f"Seat 2: Random bot 2 (hand 1), Dan (hands 2-{hands})"
        score = page.inner_text("#seats .seat[data-player='1'] .score")
        assert (
            score.endswith("points for the seat")
            and page.inner_text("#seats .seat[data-player='0'] .score")[-6:] == "points"
        )
        heads = page.locator("#scores thead th").all_inner_texts()
        assert heads[2] == "Seat 2" and heads[1] == "Ana"  # the seat's score, never called Dan's alone
        places = page.locator("#scores tr.places td").all_inner_texts()
        assert len(places) == 3 and all(p[0].isdigit() for p in places)
        assert places.count("1st") + places.count("1st=") >= 1
        shared = page.evaluate(
            "async () => { const o = await import('/static/js/overlay.js');"
            " return [o.placeText(2, true), o.placeText(1, false),"
            " o.placeText(11, false), o.placeText(3, true)]; }"
        )
        assert shared == ["2nd=", "1st", "11th", "3rd="]  # as the terminal's results.place
        # the replay: the bot's moves are the bot's, Dan's are Dan's
        page.goto(f"{server.http}/r/{code}/replay/0")
        page.wait_for_selector("#replay-log li")
        page.keyboard.press("Home")
        for _ in range(joined - 1):
            page.keyboard.press("ArrowRight")
        text = page.inner_text("#replay")
        assert "Random bot 2" in text and "Dan" not in text
        page.click("#replay-next-hand")
        page.wait_for_function("() => document.querySelector('.replay-hand').textContent.includes('2')")
        for _ in range(12):
            page.keyboard.press("ArrowRight")
        text = page.inner_text("#replay")
        assert "Dan" in text and "Random bot 2" not in text


def test_a_spectator_takes_a_free_seat_from_the_table(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url) as (server, page):
        code = server.room({"players": 2, "seats": ["human", "human"], "bot_delay": 0})
        server.join(code, "Ana")
        page.goto(f"{server.http}/r/{code}")
        page.click("#watch")
        page.wait_for_selector("#seats .seat[data-player='1'] [data-take='1']")
        assert page.locator("[data-take='0']").count() == 0  # Ana's seat is taken
        page.click("[data-take='1']")
        page.fill("#confirm-name", "Dan")
        page.click("#confirm-yes")
        page.wait_for_function("() => window.unotable.msg && window.unotable.msg.you === 1")
        m = state(page)
        assert m is not None and m["table"]["players"][1]["name"] == "Dan"
        assert m["table"]["status"] == "playing"
        assert page.evaluate(f"() => localStorage.getItem('unotable:{code}')") == page.evaluate(
            "() => window.unotable.token"
        )


def test_an_away_person_asks_for_the_seat_back_and_the_host_gives_it(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url) as (server, host):
        code = server.room(
            {"players": 2, "seats": ["human", "human"], "bot_delay": 0, "room": {"grace_seconds": 0}}
        )
        host.goto(f"{server.http}/r/{code}")
        host.fill("#name", "Ana")
        host.click("#take-seat")
        host.wait_for_selector("#seats .seat")
        ben, _ = server.join(code, "Ben")  # his phone died: never connected again
        host.wait_for_selector("#seats .seat[data-player='1'] [data-absent='1']")  # shown away to everyone
        phone_ctx = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            phone = phone_ctx.new_page()
            phone.goto(f"{server.http}/r/{code}")
            phone.wait_for_selector("[data-ask-back='1']")
            assert "Seat 2: Ben (away)" in phone.inner_text("#join")
            assert phone.locator("#ask-help").is_visible()
            phone.fill("#name", "Ben")
            phone.click("[data-ask-back='1']")
            host.wait_for_selector("#ask-give")
            assert host.inner_text("#confirm-text") == "Ben asks for seat 2 back."
            host.click("#ask-give")
            phone.wait_for_function("() => window.unotable.msg && window.unotable.msg.you === 1")
            token = phone.evaluate(f"() => localStorage.getItem('unotable:{code}')")
            assert token and token != ben
        finally:
            phone_ctx.close()
        assert http_json(server.http, "GET", f"/api/rooms/{code}")["players"][1]["name"] == "Ben"
        with ws_connect(f"{server.ws}/ws/{code}") as ws:  # the old token is revoked
            ws.send(json.dumps({"type": "hello", "token": ben}))
            assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
