"""Time to answer, screen readers and colour-blind symbols in a real browser (issue 34, items 2
and 3; Playwright driving Debian's chromium, as test_browser.py): the lobby's answer window and
"More time" fields, the "More time" button and key, a whole hand played with the keyboard alone
while the live region says what each decision is and the time left, axe on that table, and the
ColorADD symbols on every coloured card face and on the colour picker, remembered per browser.
"""

from __future__ import annotations

import time
from typing import Any

from unotable.web.client import http_json

from . import test_browser
from .test_browser import more_rules, page_on, state, take_seat
from .test_browser_table import RECORD_SENT, serious_violations, wait_turn

browser = test_browser.browser
"""The browser fixture of test_browser.py: one chromium for the module."""

LIVE = "document.querySelector('#announce').textContent"
"""The live region's text, as a screen reader hears it."""


def test_the_lobby_sets_the_answer_window_and_more_time(browser: Any, sqlite_url: str) -> None:
    """The form's "wait for every answer" sends the answer window off (null) and "More time" its
    seconds; the room's settings say so."""
    with page_on(browser, sqlite_url) as (server, page):
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        more_rules(page)
        assert page.get_attribute("#answer-seconds", "max") == "120"
        page.check("#answer-off")
        assert page.is_disabled("#answer-seconds")
        page.fill("#more-time-seconds", "45")
        page.click("#create")
        page.wait_for_url("**/r/*")
        code = page.url.rstrip("/").split("/")[-1]
        room = http_json(server.http, "GET", f"/api/rooms/{code}")["settings"]["room"]
        assert room["auto_accept_seconds"] is None and room["more_time_seconds"] == 45


def test_more_time_by_button_then_refused(browser: Any, sqlite_url: str) -> None:
    """On her turn with a timer, Ana's "More time" adds the room's seconds: the countdown grows
    and the button goes for the rest of the hand."""
    with page_on(browser, sqlite_url) as (server, page):
        code = server.room(
            {"players": 2, "seats": ["human", "greedy"], "bot_delay": 0.3, "turn_seconds": 20, "room": {}}
        )
        take_seat(page, server.http, code, "Ana")
        m = wait_turn(page)
        assert m["table"]["timer"]["player"] == m["you"]
        page.wait_for_selector("#more-time")
        assert "+30 s" in (page.text_content("#more-time") or "")
        page.click("#more-time")
        page.wait_for_function("() => (window.unotable.msg.table.more_time.used || []).length === 1")
        after = state(page)
        assert after is not None and after["table"]["timer"]["seconds"] > 40
        assert page.locator("#more-time").count() == 0


def test_a_whole_hand_by_keyboard_hearing_each_decision(browser: Any, sqlite_url: str) -> None:
    """Ana plays a whole hand against a bot with the keys alone (no mouse), and each time a
    decision waits for her the live region says which, with the seconds left on her timer;
    key T gives more time once; axe finds nothing serious on that table."""
    with page_on(browser, sqlite_url, seed=7) as (server, page):
        page.context.add_init_script(RECORD_SENT)
        code = server.room(
            {"players": 2, "seats": ["human", "greedy:forget_uno=0"], "bot_delay": 0.2, "turn_seconds": 90}
        )
        take_seat(page, server.http, code, "Ana")
        deadline = time.monotonic() + 240
        heard: dict[str, str] = {}
        asked_more = False
        checked_axe = False
        while True:
            assert time.monotonic() < deadline, f"the hand did not end in time; heard {heard}"
            m = state(page)
            assert m is not None
            if m["table"]["hand_over"] or m["table"]["status"] == "finished":
                break
            v = m["view"]
            if v["current"] != v["seat"] or not v["legal"]:
                time.sleep(0.05)
                continue
            # What a screen reader hears now: the decision and the time left.
            page.wait_for_function(f"() => {LIVE}.includes('seconds left')", timeout=5_000)
            said = page.evaluate(f"() => {LIVE}")
            heard.setdefault(v["phase"], said)
            if not checked_axe:
                assert serious_violations(page) == []
                checked_axe = True
            if not asked_more:
                page.keyboard.press("t")
                page.wait_for_function("() => (window.unotable.msg.table.more_time.used || []).length === 1")
                asked_more = True
                continue
            keyboard_move(page, m)
            try:
                page.wait_for_function(
                    f"() => window.unotable.msg.seq > {m['seq']} || window.unotable.msg.table.hand_over",
                    timeout=20_000,
                )
            except Exception as exc:
                sent = page.evaluate("() => window.__sent.slice(-3)")
                raise AssertionError(f"no answer to {sent} in {v['phase']} {v['legal']} {v['hand']}") from exc
        assert "turn" in heard, heard
        assert any(w in heard["turn"] for w in ("Your turn", "Nothing to play", "Play another")), heard
        for phase, words in (("choose_color", "Choose the colour"), ("after_draw", "drew"), ("respond", "")):
            if phase in heard:
                assert words in heard[phase], heard
        sent = page.evaluate("() => window.__sent")
        assert any(s.get("type") == "more_time" for s in sent)


def keyboard_move(page: Any, m: dict[str, Any]) -> None:
    """One decision of Ana's with the keys of the keys' list only."""
    v = m["view"]
    legal: list[str] = v["legal"]
    phase = v["phase"]
    if phase == "choose_color":
        page.keyboard.press(next(a.split()[1] for a in legal if a.startswith("color ")).lower())
    elif phase == "after_draw":
        page.keyboard.press("p" if any(a.startswith("play") for a in legal) else "k")
        pick_color(page)
    elif phase == "respond":
        page.keyboard.press("a" if "accept" in legal or any(a.startswith("accept") for a in legal) else "d")
    else:
        hand: list[str] = v["hand"]
        playable = [i for i, c in enumerate(hand) if any(a.split()[:2] == ["play", c] for a in legal)]
        if not playable:
            page.keyboard.press("d")
            return
        i = playable[0]
        if len(hand) == 2:
            page.keyboard.press("u")  # UNO goes with the play
        if i < 9:
            page.keyboard.press(str(i + 1))
        else:
            for _ in range(40):
                if page.evaluate("() => document.activeElement.dataset.index") == str(i):
                    break
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        pick_color(page)


def pick_color(page: Any) -> None:
    """A wild card chosen: its colour from the chooser, by its key."""
    if page.locator("#chooser:not([hidden]) button.swatch").count():
        action = page.get_attribute("#chooser button.swatch", "data-action") or ""
        page.keyboard.press(action.split()[-1].lower())


def test_coloradd_symbols_on_faces_and_the_picker(browser: Any, sqlite_url: str) -> None:
    """Every coloured card of the hand carries its colour's ColorADD symbol (twice), no wild does;
    the colour picker's swatches carry theirs; the header's toggle takes them off, and the page
    remembers it."""
    with page_on(browser, sqlite_url) as (server, page):
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 10.0})
        take_seat(page, server.http, code, "Ana")
        page.wait_for_selector("#hand .card")
        faces = page.eval_on_selector_all(
            "#hand .card",
            "els => els.map((e) => [e.dataset.code,"
            " [...e.querySelectorAll('[data-coloradd]')].map((g) => g.dataset.coloradd)])",
        )
        assert faces
        for code_, symbols in faces:
            expected = [code_[0]] * 2 if code_[0] in "RYGB" else []
            assert symbols == expected, (code_, symbols)
        assert page.get_attribute("#coloradd", "aria-pressed") == "true"
        # The picker: the four colours to choose, each with its symbol.
        picked = page.evaluate(
            """() => { const m = window.unotable.msg;
              m.view.legal = ["color R", "color Y", "color G", "color B"]; m.view.phase = "choose_color";
              window.unotable.render();
              return [...document.querySelectorAll('#chooser button.swatch')].map((b) =>
                [b.dataset.action, (b.querySelector('[data-coloradd]') || {dataset: {}}).dataset.coloradd]);
            }"""
        )
        assert picked == [[f"color {c}", c] for c in "RYGB"], picked
        page.click("#coloradd")
        assert page.get_attribute("#coloradd", "aria-pressed") == "false"
        assert page.locator("#hand [data-coloradd]").count() == 0
        page.reload()
        page.wait_for_selector("#hand .card")
        assert page.locator("#hand [data-coloradd]").count() == 0
        assert page.evaluate("() => localStorage.getItem('coloradd')") == "0"


SAY_AGAIN = """([phase, current, legal, pending, clock]) => {
  const g = window.unotable;
  const m = g.msg;
  m.view.phase = phase;
  m.view.current = current === "me" ? m.seat : 1 - m.seat;
  m.view.legal = legal;
  m.view.pending = pending;
  m.table.more_time = { seconds: 30, used: [], added: 0 };
  m.table.timer = clock ? { player: m.you, seconds: 25 } : null;
  g.clock = m.table.timer;
  g.timerEnd = clock ? performance.now() + 25000 : null;
  g.timerTotal = clock ? 25 : 0;
  g.render();
  document.querySelector("#announce").textContent = "";
  document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "l", bubbles: true }));
  return document.querySelector("#announce").textContent;
}"""
"""Lay a decision on the page's last message, then press L: what the live region says."""


def test_every_decision_that_needs_an_answer_is_said_with_the_time_left(
    browser: Any, sqlite_url: str
) -> None:
    """Your turn, a draw pending on you, a challenge offer, an Invisibility window, a colour to
    choose and a UNO to catch: each is said in the live region, with the seconds left on your
    clock and the "More time" key when it is offered."""
    with page_on(browser, sqlite_url) as (server, page):
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 10.0})
        take_seat(page, server.http, code, "Ana")
        page.wait_for_selector("#hand .card")
        other = 1
        cases: list[tuple[list[Any], str]] = [
            (["turn", "me", ["draw"], None, True], "Nothing to play: draw a card."),
            (["respond", "me", ["accept"], {"card": "R+2", "from": other, "draw": 2}, True], "Take 2 cards."),
            (
                ["respond", "me", ["accept", "challenge"], {"card": "W+4", "from": other, "draw": 4}, True],
                "Challenge",
            ),
            (
                [
                    "respond",
                    "me",
                    ["accept", "invisibility R", "invisibility B"],
                    {"card": "RS", "from": other, "draw": 0},
                    True,
                ],
                "vanish with Invisibility or accept",
            ),
            (
                ["choose_color", "me", ["color R", "color Y", "color G", "color B"], None, True],
                "Choose the colour.",
            ),
            (["turn", "other", [f"catch {other}"], None, False], "did not call UNO: catch them!"),
        ]
        for args, words in cases:
            said = page.evaluate(SAY_AGAIN, args)
            assert words in said, (args, said)
            if args[4]:
                assert "seconds left." in said and "Press T for more time." in said, said
            else:
                assert "seconds left" not in said, said
