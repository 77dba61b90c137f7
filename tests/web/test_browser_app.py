"""The page as an app and the table's sounds, in a real browser (issue 34, items 5 and 7;
Playwright driving Debian's chromium, as test_browser.py).

- The manifest the page links is valid and its icons have the sizes it states.
- The service worker registers; with the network gone (``context.set_offline``) the page and its
  modules load from its cache and say the table needs the server, in the page's language; a new
  version of the page's files replaces the cache and the page (no stale page after an upgrade).
- The install button shows where the browser offers an install, and offers it.
- "Your turn" is notified while the page is hidden, once the person allowed notifications with a
  click (never asked on load), with no card, hand or name in it; not while the page is visible.
- Each action card asks for its own sound, the call of UNO for the voice; no sound plays before a
  gesture; the volume and the mute outlive a reload.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from . import test_browser
from .conftest import LiveServer
from .test_browser import DESKTOP, Player, page_on, state, take_seat
from .test_shell import png_size

sync_api = test_browser.sync_api
browser = test_browser.browser
"""The browser fixture of test_browser.py: one chromium for the module."""

CONTROLLED = "() => navigator.serviceWorker.controller !== null"


@pytest.fixture
def app_page(browser: Any, sqlite_url: str) -> Iterator[tuple[LiveServer, Any, Any]]:
    """A server, a browser context of its own (its own worker and caches) and a page; the page
    must end with no script error."""
    server = LiveServer(sqlite_url, seeds=lambda: 2)
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield server, ctx, page
        assert errors == []
    finally:
        ctx.close()
        server.stop()


def caches(page: Any) -> list[str]:
    names: list[str] = page.evaluate("async () => (await caches.keys()).sort()")
    return names


def test_the_linked_manifest_and_its_icons(app_page: tuple[LiveServer, Any, Any]) -> None:
    server, ctx, page = app_page
    page.goto(server.http + "/")
    page.wait_for_selector("#create-form")
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href == "/manifest.webmanifest?lang=en"
    got = page.evaluate(
        "async (href) => { const r = await fetch(href);"
        " return [r.headers.get('content-type'), await r.text()]; }",
        href,
    )
    assert got[0].startswith("application/manifest+json")
    m = json.loads(got[1])
    assert m["display"] == "standalone" and m["start_url"] == "/" and m["name"] == "unotable"
    assert page.get_attribute("meta[name=theme-color]", "content") == m["theme_color"]
    for icon in m["icons"]:
        r = ctx.request.get(server.http + icon["src"])
        assert r.ok, icon["src"]
        if icon["type"] == "image/png":
            w, h = (int(n) for n in icon["sizes"].split("x"))
            assert png_size(r.body()) == (w, h)
    assert {i["purpose"] for i in m["icons"]} == {"any", "maskable"}
    # The page's language chosen: the manifest follows it.
    page.select_option("#lang", "pt_BR")
    page.wait_for_function("() => document.querySelector('link[rel=manifest]').href.endsWith('lang=pt_BR')")
    href = page.get_attribute("link[rel=manifest]", "href")
    pt = page.evaluate("async (href) => (await (await fetch(href)).json())", href)
    assert pt["lang"] == "pt-BR" and pt["description"].startswith("UNO com amigos na mesma mesa")


def test_the_page_and_its_cards_open_offline_and_say_the_table_needs_the_server(
    app_page: tuple[LiveServer, Any, Any],
) -> None:
    server, ctx, page = app_page
    code = server.room({"players": 2, "seats": ["human", "greedy"]})
    page.goto(server.http + "/")
    page.wait_for_selector("#create-form")
    page.wait_for_function(CONTROLLED)
    version = page.get_attribute("meta[name=unotable-version]", "content")
    assert caches(page) == [f"unotable-{version}"]
    page.select_option("#lang", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    ctx.set_offline(True)
    try:
        for path in ("/", f"/r/{code}"):
            page.goto(server.http + path)
            page.wait_for_selector("#offline-note:not([hidden])")
            assert page.inner_text("#offline-note") == "Hors ligne : la table a besoin du serveur"
            assert page.get_attribute("meta[name=unotable-version]", "content") == version
        # The lobby that could not load says why, in French (the words came from the cache).
        page.goto(server.http + "/")
        page.wait_for_function("() => document.querySelector('#lobby').innerText.includes('hors ligne')")
        # The card art is the page's own modules: a card face drawn offline.
        face = page.evaluate("() => window.unotable.art.cards().face('W+4', {})")
        assert face.startswith("<svg") and 'data-face="W+4"' in face
    finally:
        ctx.set_offline(False)
    # Back online: the lobby comes back by itself.
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#create-form")
    assert page.is_hidden("#offline-note")
    # At a table, the network going away greys the table at once (a ping that gets no answer:
    # about 3 s), not at the next heartbeat (10 s later) and its missed answers (3 s more).
    take_seat(page, server.http, code, "Ana")
    page.wait_for_selector("#hand .card")
    ctx.set_offline(True)
    try:
        page.wait_for_selector("#offline-note:not([hidden])")
        page.wait_for_selector("#table.offline", timeout=9000)
    finally:
        ctx.set_offline(False)
    page.wait_for_selector("#table:not(.offline)", timeout=30000)


def test_a_new_version_replaces_the_cache_and_the_page(app_page: tuple[LiveServer, Any, Any]) -> None:
    server, ctx, page = app_page
    page.goto(server.http + "/")
    page.wait_for_selector("#create-form")
    page.wait_for_function(CONTROLLED)
    old = page.get_attribute("meta[name=unotable-version]", "content")
    assert caches(page) == [f"unotable-{old}"]
    # The server is upgraded: its files' version changes (as a changed file or release makes it).
    app: Any = server.server.config.app
    app.state.asset_version = new = old + "-upgraded"
    page.reload()  # the browser checks /sw.js on a navigation, finds it changed, installs it
    # The new worker takes over and the page loads itself again once (install.js): read the
    # caches between the loads.
    deadline = time.monotonic() + 20
    found: list[str] = []
    while found != [f"unotable-{new}"]:
        assert time.monotonic() < deadline, found
        time.sleep(0.1)
        with contextlib.suppress(sync_api.Error):
            found = caches(page)
    page.wait_for_function(f"() => document.querySelector('meta[name=unotable-version]').content === '{new}'")
    page.wait_for_selector("#create-form")
    # Offline now, the page is the new version's, never the old one kept.
    ctx.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("#offline-note:not([hidden])")
        assert page.get_attribute("meta[name=unotable-version]", "content") == new
    finally:
        ctx.set_offline(False)


def test_the_install_button_shows_when_the_browser_offers_it(app_page: tuple[LiveServer, Any, Any]) -> None:
    server, _ctx, page = app_page
    page.goto(server.http + "/")
    page.wait_for_selector("#create-form")
    assert page.is_hidden("#install")
    # What chromium fires when the page is installable (headless never does): an event whose
    # prompt() shows the browser's install dialog.
    page.evaluate(
        "() => { const e = new Event('beforeinstallprompt', {cancelable: true});"
        " e.prompt = () => { window.prompted = (window.prompted || 0) + 1; return Promise.resolve(); };"
        " e.userChoice = Promise.resolve({outcome: 'accepted'}); window.dispatchEvent(e);"
        " window.defaultPrevented = e.defaultPrevented; }"
    )
    page.wait_for_selector("#install:not([hidden])")
    assert page.evaluate("() => window.defaultPrevented") is True
    assert page.inner_text("#install") == "Install"
    page.click("#install")
    page.wait_for_selector("#install", state="hidden")
    assert page.evaluate("() => window.prompted") == 1


CARD_WORDS = re.compile(
    r"\b(red|yellow|green|blue|wild|skip|reverse|draw two|draw four|[0-9]\b|card|hand|Ana|Ben|bot)", re.I
)


SEEN = (
    "(v) => { Object.defineProperty(document, 'visibilityState', {value: v, configurable: true});"
    " document.dispatchEvent(new Event('visibilitychange')); }"
)
"""The page hidden (another tab, the phone locked) or visible again, as the browser says it."""


def next_turn_of(player: Player, seq: int) -> dict[str, Any]:
    """Play until it is ``player``'s turn again after ``seq``; the state then."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m = state(player.page)
        if m and m["seq"] > seq and m["view"]["current"] == m["seat"] and m["view"]["legal"]:
            return m
        time.sleep(0.05)
    raise AssertionError("the turn did not come back")


def test_your_turn_is_notified_while_hidden_only_when_allowed(browser: Any, sqlite_url: str) -> None:
    server = LiveServer(sqlite_url, seeds=lambda: 2)
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        # Count the requests for permission: none on load, one on the click.
        ctx.add_init_script(
            "window.asked = 0; const ask = Notification.requestPermission.bind(Notification);"
            " Notification.requestPermission = (...a) => { window.asked += 1; return ask(...a); };"
        )
        page = ctx.new_page()
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 0.2})
        take_seat(page, server.http, code, "Ana")
        page.wait_for_selector("#hand .card")
        assert page.evaluate("() => window.asked") == 0
        assert page.evaluate("() => Notification.permission") == "default"
        assert page.get_attribute("#notify", "aria-pressed") == "false"
        ctx.grant_permissions(["notifications"], origin=server.http)
        page.click("#notify")
        page.wait_for_selector("#notify[aria-pressed=true]")
        assert page.evaluate("() => window.asked") == 0  # granted already: nothing to ask
        ana = Player(page, "Ana")
        m = next_turn_of(ana, -1)
        # Hidden (another tab, the phone locked): the turn that comes back is notified.
        page.evaluate(SEEN, "hidden")
        assert ana.turn()
        m = next_turn_of(ana, m["seq"])
        page.wait_for_function("() => (window.unotable.notified || []).length === 1")
        note = page.evaluate("() => window.unotable.notified[0]")
        pending = bool(m["view"].get("pending") and m["view"]["pending"].get("draw"))
        assert note == {"title": f"Your turn in room {code}", "body": "A draw is pending." if pending else ""}
        assert not CARD_WORDS.search(note["title"] + " " + note["body"])
        # Visible again: no notification.
        page.evaluate(SEEN, "visible")
        assert ana.turn()
        next_turn_of(ana, m["seq"])
        assert page.evaluate("() => window.unotable.notified.length") == 1
        # The choice is remembered; a click turns it off.
        page.reload()
        page.wait_for_selector("#notify[aria-pressed=true]")
        page.click("#notify")
        page.wait_for_selector("#notify[aria-pressed=false]")
        page.reload()
        page.wait_for_selector("#notify[aria-pressed=false]")
    finally:
        ctx.close()
        server.stop()


ACTION_CARDS = {
    "RS": "skip",
    "GR": "reverse",
    "B+2": "draw2",
    "Y+3": "draw3",
    "W": "wild",
    "W+4": "wild4",
    "HOWLER": "howler",
    "INVIS": "invisibility",
    "MATER": "mater",
    "SHUFFLE": "shuffle",
    "CUSTOM": "custom",
    "AWREV": "reverse",
    "AWSKIP": "skip",
    "AWSKIP2": "skip2",
    "AW+2": "draw2",
    "AW+4": "wild4",
    "AWT+2": "targeted",
    "AWSWAP": "swap",
    "RF": "flip",  # UNO Flip (issue 36): its Flip's own sound, its other cards as their likes
    "VF": "flip",
    "G+1": "draw",
    "P+5": "draw3",
    "TSE": "skip2",
    "LW+2": "wild4",
    "DW+C": "wild4",
    "DW": "wild",
}


PITCH = (
    "async (n) => { const s = await window.unotable.art.sound().render(n, 1.0); const out = [];"
    " for (const t of [0.1, 0.2]) { const at = Math.round(t * 44100);"
    " const r = (lag) => { let x = 0;"
    " for (let i = 0; i < 2048; i++) x += s[at + i] * s[at + i + lag]; return x; };"
    " const r0 = r(0); if (r0 < 1e-6) { out.push(null); continue; }"
    " const v = []; for (let l = 20; l <= 320; l++) v.push(r(l));"
    " const max = Math.max(...v); const first = v.findIndex((x) => x >= 0.9 * max) + 20;"
    " out.push([44100 / first, max / r0]); } return out; }"
)
"""A sound's pitch at 0.1 s and 0.2 s, and how periodic it is there: [[Hz, ratio], ...]."""


def test_each_action_card_has_its_sound_and_uno_its_voice(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url) as (server, page):
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        sound = "window.unotable.art.sound()"
        got = page.evaluate(f"(codes) => codes.map((c) => {sound}.cardSound(c))", list(ACTION_CARDS))
        assert dict(zip(ACTION_CARDS, got, strict=True)) == ACTION_CARDS
        assert page.evaluate(f"() => ['R7', 'B0', 'G9'].map((c) => {sound}.cardSound(c))") == [None] * 3
        names = set(page.evaluate(f"() => {sound}.names"))
        assert set(ACTION_CARDS.values()) | {"uno", "play", "draw", "turn", "catch", "tick"} <= names
        # Each sound, drawn offline: heard (not silent), finite, short; each action's its own.
        drawn = page.evaluate(
            f"async (names) => {{ const out = {{}}; for (const n of names) {{"
            f" const s = await {sound}.render(n, 1.0); let peak = 0, last = 0, sum = 0;"
            " for (let i = 0; i < s.length; i++) { const a = Math.abs(s[i]);"
            " if (!Number.isFinite(s[i])) return 'not finite: ' + n;"
            " if (a > peak) peak = a; if (a > 0.01) last = i; sum += s[i] * s[i]; }"
            " out[n] = [peak, last / 44100, Math.round(sum * 1e3)]; } return out; }",
            sorted(names),
        )
        assert isinstance(drawn, dict), drawn
        for name, (peak, length, _) in drawn.items():
            assert 0.01 < peak <= 1.0, (name, peak)
            assert length < 0.7, (name, length)
        assert len({drawn[n][2] for n in set(ACTION_CARDS.values())}) == len(set(ACTION_CARDS.values()))
        # The voice: a call of about half a second, voiced: on its "U" the samples repeat at a
        # speaking pitch (the shortest lag whose autocorrelation is within 10% of the highest,
        # among lags of 140 Hz to 2.2 kHz, is one of 150 to 280 Hz, and it is most of the power).
        # No other sound of the table (tones, chirps, noise) does this at both instants.
        assert 0.4 < drawn["uno"][1] < 0.7
        for name in sorted(names):
            pitches = page.evaluate(PITCH, name)
            voiced = all(p and 150 <= p[0] <= 280 and p[1] > 0.85 for p in pitches)
            assert voiced == (name == "uno"), (name, pitches)


def test_plays_ask_for_their_sounds_but_none_sounds_before_a_gesture(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url) as (server, page):
        code = server.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 0.2})
        take_seat(page, server.http, code, "Ana")
        page.wait_for_selector("#hand .card")
        # A reload: the seat comes back from this browser's storage, no click, no key.
        page.reload()
        page.wait_for_selector("#hand .card")
        page.evaluate("() => { window.unotable.art.asked = []; }")
        deadline = time.monotonic() + 60
        seen: list[dict[str, Any]] = []
        while time.monotonic() < deadline and not any(a["sound"] != "play" and a["card"] for a in seen):
            # The bot plays while nobody touches the page; Ana plays by script (no gesture).
            page.evaluate(
                "() => { const m = window.unotable.msg; if (!m || m.view.current !== m.seat) return;"
                " const a = m.view.legal.find((x) => x.startsWith('play')) || m.view.legal[0];"
                " const g = window.unotable;"
                " if (a) g.ws.send(JSON.stringify({type: 'act', token: g.token, action: a})); }"
            )
            time.sleep(0.3)
            seen = page.evaluate("() => window.unotable.art.asked")
        plays = [a for a in seen if a["kind"] == "play"]
        assert plays, seen
        for i, a in enumerate(seen):
            if a["sound"] == "play" and a["card"]:
                wanted = page.evaluate("(c) => window.unotable.art.sound().cardSound(c)", a["card"])
                if wanted:
                    assert seen[i + 1] == {"sound": wanted, "kind": "play", "card": a["card"]}
        assert any(a["sound"] != "play" and a["card"] for a in seen), "no action card was played"
        assert page.evaluate("() => window.unotable.art.sound().live()") is False
        page.keyboard.press("Shift")  # a gesture: sound may start now
        page.evaluate("() => window.unotable.art.play('tick')")
        assert page.evaluate("() => window.unotable.art.sound().live()") is True


def test_volume_and_mute_are_remembered(browser: Any, sqlite_url: str) -> None:
    with page_on(browser, sqlite_url) as (server, page):
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        assert page.input_value("#volume") == "80"
        page.fill("#volume", "35")
        page.dispatch_event("#volume", "change")
        page.click("#mute")
        page.reload()
        page.wait_for_selector("#create-form")
        assert page.input_value("#volume") == "35"
        assert page.evaluate("() => window.unotable.art.sound().volume()") == 0.35
        assert page.get_attribute("#mute", "aria-pressed") == "true"
        assert page.get_attribute("#volume", "aria-label") == "Volume"
