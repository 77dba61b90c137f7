"""End to end in a real browser: Playwright driving Debian's chromium (``/usr/bin/chromium``).

Ana makes a room on the page (three seats: two people and a random bot), Ben joins it from a
second browser context, and the two play a hand to its end by clicking what the page shows:
Ana calls UNO with her next-to-last card and plays her Wild Draw Four on Ben, who challenges it;
Ben forgets UNO once and Ana catches him. Ana reloads the page halfway and finds her hand; a
third context watches and never sees a hand. The deal comes from a fixed seed (Ana is dealt a
Wild Draw Four). The screenshots in docs/figures/ come from ``python -m tests.web.screenshots``.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from unotable.web.client import http_json

from .conftest import LiveServer, fresh_postgres, postgres_url

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (make setup)")

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SEED = 2
"""Ana (player 0) is dealt a Wild Draw Four and plays first."""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() or shutil.which("chromium") is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs Debian's chromium (.ci/run installs it)")
        pytest.skip("no /usr/bin/chromium: apt-get install chromium")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def state(page: Any) -> dict[str, Any] | None:
    msg: dict[str, Any] | None = page.evaluate("() => window.unotable && window.unotable.msg")
    return msg


class Player:
    """A person at the table: a page and what they decide."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.name = name
        self.forget_once = False
        self.acted = 0
        self.decided: dict[str, Any] | None = None
        self.done: set[str] = set()
        self.last: tuple[int, float] = (-1, 0.0)
        """The seq it last acted at, and when: it waits for the server's answer before acting
        again (or two seconds, if its action was refused)."""

    def click(self, selector: str) -> None:
        """Click what ``selector`` finds; if the table moves on meanwhile (the element went away
        or was disabled by the server's next message, which may keep the log's length, as the
        jump-in window's end does), give up: the next turn decides again."""
        # The state the decision was made on (turn()'s), not a fresh one: if the table moved on
        # since (the answer to this seat's previous action came late), the click is not meant
        # for it, and waiting for the table to move again would wait for this seat itself.
        m = self.decided if self.decided is not None else state(self.page)
        before = None if m is None else (m["seq"], m["view"]["legal"], m["view"]["phase"])
        if self.decided is not None:
            now = state(self.page)
            if now is None or (now["seq"], now["view"]["legal"], now["view"]["phase"]) != before:
                return
        deadline = time.monotonic() + 15  # a loaded machine is slow
        target = self.page.locator(selector).first
        while True:
            try:
                if selector.startswith("#hand "):
                    # The hand's cards overlap (a person clicks the strip that shows): choose the
                    # card with the keyboard instead, focus and Enter, which must make one play.
                    target.focus(timeout=1000)
                    target.press("Enter", timeout=1000)
                else:
                    target.click(timeout=1000)
                return
            except sync_api.TimeoutError:
                now = state(self.page)
                if now is None or (now["seq"], now["view"]["legal"], now["view"]["phase"]) != before:
                    return
                if time.monotonic() > deadline:
                    shown = self.page.evaluate(
                        "() => [window.unotable.renderedSeq,"
                        " document.querySelector('#pile').outerHTML.slice(0, 200)]"
                    )
                    raise AssertionError(
                        f"{selector} stayed unclickable for 15 s at seq {before}; the page shows {shown}"
                    ) from None

    def turn(self) -> bool:
        """Take one action if there is one to take; whether it did."""
        m = state(self.page)
        if m is None or m["table"]["status"] != "playing" or m["table"]["hand_over"]:
            return False
        if m["seq"] == self.last[0] and time.monotonic() - self.last[1] < 2.0:
            return False
        self.decided = m
        try:
            acted = self._turn(m)
        finally:
            self.decided = None
        if acted:
            self.last = (m["seq"], time.monotonic())
        return acted

    def _turn(self, m: dict[str, Any]) -> bool:
        view = m["view"]
        legal: list[str] = view["legal"]
        seat = m["seat"]
        catches = [a for a in legal if a.startswith("catch ")]
        if catches:
            self.click(f'[data-action="{catches[0]}"]')
            self.done.add("catch")
            return True
        if view["current"] != seat or not legal:
            return False
        if "challenge" in legal:
            self.click('[data-action="challenge"]')
            self.done.add("challenge")
            return True
        invisibility = [a for a in legal if a.startswith("invisibility ") and not a.endswith(" uno")]
        if invisibility:
            self.click(f'[data-action="{invisibility[0]}"]')
            self.done.add("invisibility")
            return True
        colors = [a for a in legal if a.startswith("color ")]
        if colors:
            self.click(f'#chooser [data-action="{colors[0]}"]')
            return True
        plays = sorted(
            {a.split(" ")[1] for a in legal if a.startswith("play ")},
            key=lambda c: (c not in ("AWSWAP", "AWT+2"), c != "W+4", c),  # All Wild's seat-naming cards first
        )
        if plays:
            code = plays[0]
            if view["phase"] == "after_draw":
                self.click('[data-action="play-drawn"]')
            else:
                if len(view["hand"]) == 2 and any(a.endswith(" uno") for a in legal):
                    if self.forget_once:
                        self.forget_once = False
                        self.done.add("forgot")
                    else:
                        self.click('[data-action="arm-uno"]')
                        self.done.add("uno")
                self.click(f'#hand .card[data-code="{code}"]')
            if self.page.locator("#chooser button[data-action]").count():
                self.click("#chooser button[data-action]")
            if code == "W+4":
                self.done.add("wd4")
            if code == "HOWLER":
                self.done.add("howler")
            if code.startswith("AW"):  # UNO All Wild's cards (docs/rules.md §13)
                self.done.add(code)
            return True
        if "pass" in legal:
            self.click('[data-action="pass"]')
            return True
        if "draw" in legal:
            self.click("#pile")
            return True
        if "accept" in legal:
            self.click('[data-action="accept"]')
            return True
        return False


def more_rules(page: Any) -> None:
    """Unfold the form's "More rules"."""
    page.evaluate('() => { document.querySelector("#more-rules").open = true; }')


def make_room(page: Any, base: str) -> str:
    page.goto(base + "/")
    page.wait_for_selector("#create-form")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    page.select_option('#seat-choices select[data-seat="2"]', "random")
    more_rules(page)
    page.fill("#bot-delay", "0.6")
    page.click("#create")
    page.wait_for_url("**/r/*")
    code: str = page.url.rstrip("/").split("/")[-1]
    return code


def take_seat(page: Any, base: str, code: str, name: str) -> None:
    page.goto(f"{base}/r/{code}")
    page.wait_for_selector("#name")
    page.fill("#name", name)
    page.click("#take-seat")
    page.wait_for_selector("#seats .seat")


def play_a_hand(server: LiveServer, browser: Any) -> None:
    base = server.http
    a_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    b_ctx = browser.new_context(viewport=PHONE)
    c_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        a_page, b_page, c_page = a_ctx.new_page(), b_ctx.new_page(), c_ctx.new_page()
        script_errors: list[str] = []
        for page in (a_page, b_page, c_page):
            page.on("pageerror", lambda exc: script_errors.append(str(exc)))
        code = make_room(a_page, base)
        take_seat(a_page, base, code, "Ana")
        take_seat(b_page, base, code, "Ben")
        ana, ben = Player(a_page, "Ana"), Player(b_page, "Ben")
        ben.forget_once = True
        # The spectator: the table, never a hand.
        c_page.goto(f"{base}/r/{code}")
        c_page.click("#watch")
        c_page.wait_for_selector("#seats .seat")
        reloaded = False
        revealed = False
        deadline = time.monotonic() + 240
        while True:
            assert time.monotonic() < deadline, "the hand did not end in time"
            m = state(a_page)
            if m is not None and m["table"]["hand_over"]:
                break
            acted = ana.turn() or ben.turn()
            if "challenge" in ben.done and not revealed:
                # The challenge shows Ana's hand to Ben (face up at her seat), never to the spectator.
                revealed = True
                b_page.wait_for_selector('#seats .seat[data-player="0"] .reveal .card', timeout=5000)
                c_page.wait_for_function(
                    "() => document.querySelector('#log').textContent.includes('to the challenger')"
                )
                assert c_page.locator(".reveal").count() == 0
            if acted:
                time.sleep(0.15)
                ana.acted += 1
            else:
                time.sleep(0.1)
            if ana.acted == 8 and not reloaded:
                reloaded = True
                before = state(a_page)
                assert before is not None
                a_page.reload()
                a_page.wait_for_selector("#seats .seat")
                a_page.wait_for_function("() => window.unotable.msg !== null")
                after = state(a_page)
                assert after is not None and after["seat"] == 0
                assert (
                    sorted(after["view"]["hand"]) == sorted(before["view"]["hand"])
                    or after["seq"] != before["seq"]
                )
                assert a_page.locator("#hand .card").count() == len(after["view"]["hand"])
            spect = state(c_page)
            assert spect is not None and spect["view"]["hand"] == [] and spect["seat"] is None
            assert c_page.locator("#hand .card").count() == 0
        assert reloaded and revealed
        assert {"uno", "wd4"} <= ana.done and "challenge" in ben.done, (ana.done, ben.done)
        assert "forgot" in ben.done and "catch" in ana.done, (ana.done, ben.done)
        a_page.wait_for_selector("#overlay:not([hidden]) #next-hand")
        log = a_page.text_content("#log")
        assert "Ana played" in log and "UNO!" in log and "challenged" in log and "caught Ben" in log
        assert "was dealt" not in c_page.text_content("#log")
        hand = state(a_page)["table"]["hand"]  # type: ignore[index]
        a_page.click("#next-hand")
        a_page.wait_for_function(f"() => window.unotable.msg.table.hand === {hand + 1}")
        assert a_page.locator("#overlay").is_hidden()
        assert script_errors == []
    finally:
        for ctx in (a_ctx, b_ctx, c_ctx):
            ctx.close()


def test_a_hand_in_the_browser(browser: Any, sqlite_url: str) -> None:
    server = LiveServer(sqlite_url, seeds=lambda: SEED)
    try:
        play_a_hand(server, browser)
    finally:
        server.stop()


def test_the_form_offers_bots_by_strength(browser: Any, sqlite_url: str) -> None:
    """Each seat's choices start with easy, medium, hard and expert, each worded with its
    measured figure from the server's options (issue 26); the other bots follow."""
    server = LiveServer(sqlite_url, seeds=lambda: SEED)
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(server.http + "/")
        page.wait_for_selector(
            '#seat-choices select[data-seat="2"] option[data-level="expert"]', state="attached"
        )
        levels = page.eval_on_selector_all(
            '#seat-choices select[data-seat="2"] option[data-level]',
            "els => els.map((e) => [e.dataset.level, e.value, e.textContent, e.title])",
        )
        offered = http_json(server.http, "GET", "/api/options")["bot_levels"]
        assert [(lv[0], lv[1]) for lv in levels] == [(o["level"], o["bot"]) for o in offered]
        # A closed select shows a short label; the measured words are its title and the notes
        # under the seats, so nothing is cut off.
        assert [lv[2] for lv in levels] == ["Easy bot", "Medium bot", "Hard bot", "Expert bot"]
        notes = page.eval_on_selector_all(
            "#level-notes li", "els => els.map((e) => [e.dataset.level, e.textContent])"
        )
        assert [n[0] for n in notes] == [o["level"] for o in offered]
        for (_, _, _, words), (_, note), o in zip(levels, notes, offered, strict=True):
            assert f"wins {round(100 * o['rate'])}% of hands heads-up" in words
            assert note == words
        assert "Hard (search bot)" in levels[2][3]
        assert page.eval_on_selector('#seat-choices select[data-seat="2"]', "s => s.value") == "greedy"
        others = page.eval_on_selector_all(
            '#seat-choices select[data-seat="2"] option:not([data-level])', "els => els.map((e) => e.value)"
        )
        assert "human" in others and "aggressive" in others and "greedy" not in others
    finally:
        ctx.close()
        server.stop()


def test_a_hand_in_the_browser_on_postgresql(browser: Any) -> None:
    server = LiveServer(fresh_postgres(postgres_url()), seeds=lambda: SEED)
    try:
        play_a_hand(server, browser)
    finally:
        server.stop()


def test_a_finished_game_replays_step_by_step(browser: Any, sqlite_url: str) -> None:
    server = LiveServer(sqlite_url, seeds=lambda: SEED)
    ctx = browser.new_context(viewport=PHONE)
    try:
        code = server.room({"players": 2, "seats": ["random", "random"], "bot_delay": 0, "target": 20})
        page = ctx.new_page()
        page.goto(f"{server.http}/r/{code}")
        page.click("#watch")
        page.wait_for_selector("#replay-link", timeout=60_000)  # the game's end, for a spectator
        assert page.locator("#rematch").count() == 0  # spectators cannot start one
        page.click("#replay-link")
        page.wait_for_selector("#replay-step")
        first = page.inner_text("#replay-step")
        assert first.startswith("Step 1 of ")
        # Every page of the replay is read (a game of random bots runs past one page of 200).
        total = http_json(server.http, "GET", f"/api/rooms/{code}/games/0")["total"]
        assert total > 200
        assert first == f"Step 1 of {total}"
        for _ in range(5):
            page.click("#replay-next")
        assert page.inner_text("#replay-step").startswith("Step 6 of ")
        assert page.locator("#replay-log li").count() > 0
        page.click("#replay-prev")
        assert page.inner_text("#replay-step").startswith("Step 5 of ")
    finally:
        ctx.close()
        server.stop()


def test_a_game_to_its_end_then_a_rematch(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url, viewport=PHONE) as (server, page):
        code = server.room({"players": 2, "seats": ["human", "random"], "bot_delay": 0.2, "target": 1})
        take_seat(page, server.http, code, "Ana")
        play_to_the_end(Player(page, "Ana"))
        assert "wins the game" in page.inner_text("#overlay") or "win the game" in page.inner_text("#overlay")
        page.click("#rematch")
        page.wait_for_function("() => window.unotable.msg.table.game_number === 1")
        assert page.locator("#overlay").is_hidden() and page.locator("#hand .card").count() == 7


def test_harry_potter_howler_and_invisibility_in_the_browser(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url, seed=257) as (server, page):  # Ana is dealt a Howler and Invisibility
        code = server.room(
            {
                "edition": "harry-potter",
                "players": 2,
                "seats": ["human", "greedy"],
                "bot_delay": 0.2,
                "target": 1,
            }
        )
        take_seat(page, server.http, code, "Ana")
        ana = Player(page, "Ana")
        play_to_the_end(ana)
        log = page.text_content("#log")
        assert "howler" in ana.done and "played Howler on" in log, (ana.done, log)


def test_all_wild_in_the_browser(browser: Any, sqlite_url: str) -> None:
    """docs/rules.md §13: the lobby counts the boxes it plays, UNO All Wild's among them; a game
    of All Wild is played to its end, each card drawn by its own art and named in the log, the
    seat-naming cards through the chooser, no colour ever asked."""
    with page_on(browser, sqlite_url) as (server, page):
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        tagline = page.text_content(".tagline") or ""
        assert "(7 boxes to choose from)" in tagline, tagline
        titles = page.eval_on_selector_all("#edition option", "els => els.map((e) => e.textContent)")
        assert "UNO All Wild" in titles, titles
        code = server.room(
            {
                "edition": "all-wild",
                "players": 3,
                "seats": ["human", "greedy", "greedy"],
                "bot_delay": 0.1,
                "target": 1,
            }
        )
        take_seat(page, server.http, code, "Ana")
        page.wait_for_selector('#hand .card[data-code^="AW"] svg[data-face^="AW"]', state="attached")
        ana = Player(page, "Ana")
        play_to_the_end(ana)
        assert "AWSWAP" in ana.done, ana.done  # dealt one (seed 2), played through the chooser
        log = page.text_content("#log") or ""
        assert "Ana swapped hands with" in log, log
        assert " and called " not in log, log  # no colour is ever called (AW-1)


def test_no_mercy_in_the_browser(browser: Any, sqlite_url: str) -> None:
    """docs/rules.md §14: a hand of UNO Show 'Em No Mercy is played to its end in the browser,
    its cards drawn by their own art, and its end (going out or the mercy rule) told in the log."""
    with page_on(browser, sqlite_url) as (server, page):
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        titles = page.eval_on_selector_all("#edition option", "els => els.map((e) => e.textContent)")
        assert "UNO Show 'Em No Mercy" in titles, titles
        code = server.room(
            {
                "edition": "no-mercy",
                "players": 3,
                "seats": ["human", "greedy", "greedy"],
                "bot_delay": 0.1,
                "target": 1,
            }
        )
        take_seat(page, server.http, code, "Ana")
        page.wait_for_selector("#hand .card svg[data-face]", state="attached")
        pairs = page.eval_on_selector_all(
            "#hand .card[data-code]",
            "els => els.map((e) => [e.dataset.code, e.querySelector('svg').dataset.face])",
        )
        assert pairs and all(code == face for code, face in pairs), pairs  # no card drawn as a back
        ana = Player(page, "Ana")
        deadline = time.monotonic() + 240  # one hand: one won by the mercy rule is worth 0 (NM-10)
        while True:
            assert time.monotonic() < deadline, "the hand did not end in time"
            m = state(page)
            if m is not None and m["table"]["hand_over"]:
                break
            if not ana.turn():
                time.sleep(0.1)
        log = page.text_content("#log") or ""
        assert "the mercy rule puts" in log or "went out" in log, log


@contextmanager
def page_on(
    browser: Any, database_url: str, *, seed: int = SEED, viewport: dict[str, int] = DESKTOP
) -> Iterator[tuple[LiveServer, Any]]:
    """A server dealing every game from ``seed``, and a page; the page must end with no script
    error."""
    server = LiveServer(database_url, seeds=lambda: seed)
    ctx = browser.new_context(viewport=viewport)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            yield server, page
        except BaseException as exc:
            if errors:  # the page's script errors explain a failure better than its symptom
                exc.add_note("script errors on the page: " + "; ".join(errors))
            raise
        assert errors == []
    finally:
        ctx.close()
        server.stop()


def play_to_the_end(player: Player) -> None:
    """``player`` plays until the game is over (the rematch button shows)."""
    page = player.page
    deadline = time.monotonic() + 180
    while page.locator("#rematch").count() == 0:
        assert time.monotonic() < deadline, "the game did not end in time"
        if not player.turn():
            time.sleep(0.1)


@contextmanager
def lobby(browser: Any, database_url: str) -> Iterator[tuple[LiveServer, Any]]:
    """A server and a page on its lobby's form; the page must end with no script error."""
    with page_on(browser, database_url) as (server, page):
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        more_rules(page)
        yield server, page


def against_greedy(server: LiveServer, page: Any) -> None:
    """Make the form's room for two, Ana and a greedy bot, and take Ana's seat."""
    page.fill("#players", "2")
    page.dispatch_event("#players", "input")
    page.select_option('#seat-choices select[data-seat="1"]', "greedy")
    page.click("#create")
    page.wait_for_url("**/r/*")
    code = page.url.rstrip("/").split("/")[-1]
    take_seat(page, server.http, code, "Ana")


def test_party_house_rules_from_the_form_to_the_end_of_a_game(browser: Any, sqlite_url: str) -> None:
    """The form's house rules preset makes a party room (RULES §11); a game is played to its end
    through the page (stacks answered, 7s swapped with the chooser) with no script error."""
    with lobby(browser, sqlite_url) as (server, page):
        page.select_option("#house", "party")
        page.fill("#target", "1")
        page.fill("#bot-delay", "0.2")
        against_greedy(server, page)
        m = state(page)
        assert m is not None and m["view"]["rules"]["jump_in"] and m["view"]["rules"]["stacking"] == "any"
        play_to_the_end(Player(page, "Ana"))


def test_each_house_rule_from_the_form(browser: Any, sqlite_url: str) -> None:
    """The form sets each house rule on its own: a preset fills the controls, a control changed
    makes the preset read "custom", and the room plays the rules as ticked (RULES §11)."""
    with lobby(browser, sqlite_url) as (server, page):
        page.select_option("#house", "popular")
        assert page.input_value("#house-stacking") == "same"
        assert page.is_checked("#house-draw-to-match") and not page.is_checked("#house-jump-in")
        page.check("#house-jump-in")
        assert page.input_value("#house") == "custom"
        page.select_option("#house-stacking", "any")
        page.check("#house-seven-zero")
        assert page.input_value("#house") == "party"  # all four, any stacking: the party preset
        page.uncheck("#house-draw-to-match")
        assert page.input_value("#house") == "custom"
        against_greedy(server, page)
        m = state(page)
        assert m is not None
        rules = m["view"]["rules"]
        assert rules["stacking"] == "any" and rules["seven_zero"] and rules["jump_in"]
        assert not rules.get("draw_to_match", False)  # options at their default are left out


DEAL_IF_ASKED = """() => {
  const button = document.querySelector("#overlay:not([hidden]) #next-hand");
  if (button) button.click();
  return button !== null;
}"""


def test_two_tables_in_the_browser(browser: Any, sqlite_url: str) -> None:
    """A two-tables game (RULES §10: eight players at two tables of four, 56 hands), one person
    among seven bots: she sees her table of four, plays, and the hands of both tables are dealt
    on, through the first three, with no script error."""
    with page_on(browser, sqlite_url) as (server, page):
        seats = ["human"] + ["greedy"] * 7
        settings = {"players": 4, "mode": "two-tables", "seats": seats, "bot_delay": 0.3, "target": 1}
        code = server.room(settings)
        take_seat(page, server.http, code, "Ana")
        ana = Player(page, "Ana")
        m = state(page)
        assert m is not None and len(m["view"]["hand_sizes"]) == 4  # Ana sees her own table of four
        moves = 0
        deadline = time.monotonic() + 240
        while state(page)["table"]["hand"] < 3:  # type: ignore[index]
            assert time.monotonic() < deadline, "three hands were not played in time"
            # The room deals by itself when no person sits at the next hand's table: click in
            # the page, at once, if the button is still there.
            if page.evaluate(DEAL_IF_ASKED):
                continue
            if ana.turn():
                moves += 1
            else:
                time.sleep(0.1)
        assert moves > 0
