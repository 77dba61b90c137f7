"""UNO Flip on the page (issue 36) in a real browser (Playwright driving Debian's chromium, as
test_browser.py): the form offers UNO Flip and says what sets it apart; Ana plays a Flip room
against two bots, dealt from a fixed seed in which she plays first and holds a green Flip. The
light side shows the draw pile's top card's other face and the faces the bots' cards turn
towards her; her Flip turns everything over, animated (and not for a spectator who asked for
reduced motion); the dark side shows its felt, its side pill, her dark faces, the bots' light
faces, and the colour picker offers the dark colours; a phone's width keeps it all on the
screen. What the server sends is test_flip_page.py's (and test_hidden.py's).
"""

from __future__ import annotations

import time
from typing import Any

from . import test_browser
from .conftest import LiveServer
from .test_browser import DESKTOP, PHONE, state, take_seat
from .test_browser_table import RECORD_SENT, no_sideways_scroll, serious_violations, wait_turn
from .test_flip_page import FLIP_SEED

browser = test_browser.browser
"""The browser fixture of test_browser.py: one chromium for the module."""

RECORD_FX = """
window.__fx = [];
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) if (n.className) window.__fx.push(String(n.className));
  }
}).observe(document, { subtree: true, childList: true });
"""
"""An init script that keeps the class of every node added to the page (the motion layer's)."""

SHOWN = """() => {
  const seats = {};
  document.querySelectorAll("#seats .seat").forEach((s) => {
    const box = s.querySelector(".other-faces");
    seats[s.dataset.seat] = box ? [...box.querySelectorAll("svg")].map((x) => x.dataset.face) : null;
  });
  const pile = document.querySelector("#pile .pile-card svg");
  return {
    seats,
    pile: pile ? pile.dataset.face : null,
    hand: [...document.querySelectorAll("#hand .card svg")].map((x) => x.dataset.face),
    top: document.querySelector("#discard .card.top svg").dataset.face,
    side: document.querySelector("#side-now").textContent,
    sideHidden: document.querySelector("#side-now").hidden,
    dark: document.querySelector("#felt").classList.contains("dark-side"),
  };
}"""
"""What the page draws of a Flip table: each seat's other faces, the pile, the hand, the top."""


def shows_the_view(page: Any) -> dict[str, Any]:
    """Check the page draws exactly its last message's view of a Flip table; that message."""
    m = state(page)
    assert m is not None
    view = m["view"]
    shown = page.evaluate(SHOWN)
    assert shown["pile"] == view["draw_top_other"]
    assert shown["hand"] == view["hand"] and shown["top"] == view["discard"][-1]
    assert not shown["sideHidden"] and shown["dark"] == (view["side"] == "dark")
    assert shown["side"] == ("Dark side up" if view["side"] == "dark" else "Light side up")
    for seat, faces in shown["seats"].items():
        if int(seat) == m["seat"]:
            assert faces is None  # never her own cards' other faces
        else:
            assert faces == view["other_faces"][seat], (seat, faces)
    return m


def test_a_flip_room_in_the_browser(browser: Any, sqlite_url: str) -> None:
    server = LiveServer(sqlite_url, seeds=lambda: FLIP_SEED)
    ana_ctx = browser.new_context(viewport=DESKTOP)
    watch_ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    try:
        code = server.room(
            {"edition": "flip", "players": 3, "seats": ["human", "greedy", "greedy"], "bot_delay": 0.4}
        )
        page, watcher = ana_ctx.new_page(), watch_ctx.new_page()
        errors: list[str] = []
        page.add_init_script(RECORD_SENT)
        for p in (page, watcher):
            p.add_init_script(RECORD_FX)
            p.on("pageerror", lambda exc: errors.append(str(exc)))
        # The form offers the box, and says what sets it apart.
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        page.select_option("#edition", "flip")
        note = page.text_content("#edition-note") or ""
        assert "Dark side: 1-9 in pink, teal, orange and purple" in note and "you see the other side" in note
        take_seat(page, server.http, code, "Ana")
        watcher.goto(f"{server.http}/r/{code}")
        watcher.click("#watch")
        watcher.wait_for_selector("#seats .seat")

        m = wait_turn(page)
        assert m["view"]["side"] == "light" and "play GF" in m["view"]["legal"]
        shows_the_view(page)
        # A spectator sees the side and the pile's other face, and only edges of every hand.
        watcher.wait_for_function("() => window.unotable.msg && window.unotable.msg.view.side === 'light'")
        seen = watcher.evaluate(SHOWN)
        assert seen["pile"] == m["view"]["draw_top_other"] and set(seen["seats"].values()) == {None}
        assert watcher.locator("#seats .mini-fan .card.edge").count() > 0  # blank edges: no card has a back

        page.locator('#hand .card[data-code="GF"]').first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.unotable.msg.view.side === 'dark'")
        page.wait_for_function("() => window.__fx.some((c) => c.includes('burst flip'))", timeout=5000)
        assert "the dark side is up" in page.text_content("#log")
        watcher.wait_for_function("() => window.unotable.msg.view.side === 'dark'")
        assert not [c for c in watcher.evaluate("() => window.__fx") if "flip" in c]  # reduced motion: none

        m = wait_turn(page)
        assert m["view"]["side"] == "dark"  # the greedy bots played no Flip back (the seed's game)
        m = shows_the_view(page)
        assert all(c[0] in "PTOVD" for c in m["view"]["hand"])
        assert all(c[0] in "RYGBL" for faces in m["view"]["other_faces"].values() for c in faces)
        assert serious_violations(page) == []  # axe-core: the faces' names, the side pill
        # The picker on the dark side: a Wild Draw Color in her hand offers the four dark colours.
        page.evaluate(
            """() => { const m = window.unotable.msg;
              if (!m.view.hand.includes("DW+C")) m.view.hand = [...m.view.hand, "DW+C"];
              const plays = ["P", "T", "O", "V"].map((c) => `play DW+C ${c}`);
              m.view.legal = [...m.view.legal.filter((a) => !plays.includes(a)), ...plays];
              window.unotable.render(); }"""
        )
        page.locator('#hand .card[data-code="DW+C"]').first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#chooser:not([hidden]) .swatch")
        swatches = page.evaluate(
            """() => [...document.querySelectorAll('#chooser .swatch')].map((b) =>
              [b.dataset.action, b.textContent, b.querySelector('circle').getAttribute('fill')])"""
        )
        assert [s[0] for s in swatches] == [f"play DW+C {c}" for c in "PTOV"]
        assert [s[1] for s in swatches] == ["pink", "teal", "orange", "purple"]
        assert len({s[2] for s in swatches}) == 4
        # A Wild Draw Color played on her: the sentence and the buttons say she draws until the colour comes.
        page.evaluate(
            """() => { const m = window.unotable.msg;
              Object.assign(m.view, { phase: "respond", current: m.seat, color: "T",
                legal: ["challenge", "accept"], pending: { card: "DW+C", from: 1, draw: 0 } });
              window.unotable.colorBefore = "P"; window.unotable.render(); }"""
        )
        prompt = page.text_content("#prompt") or ""
        assert "could have played pink they draw until a teal card comes" in prompt, prompt
        assert page.text_content('[data-action="accept"]') == "Accept: draw until teal comes"
        page.keyboard.press("t")  # the chooser still open: teal's letter names it (not "more time")
        sent = [m["action"] for m in page.evaluate("() => window.__sent") if m.get("type") == "act"]
        assert sent[-1] == "play DW+C T", sent
        # A phone's width: the bots' faces still shown, nothing off the screen.
        page.set_viewport_size(PHONE)
        time.sleep(0.3)
        no_sideways_scroll(page)
        assert page.locator("#seats .other-faces").first.is_visible()
        # The end of a hand says which side the cards count by (FL-8): drawn from a message as the
        # server sends it at a hand's end (the hand itself goes on).
        side = page.evaluate(
            """() => { const g = window.unotable; const m = g.msg;
              m.table = { ...m.table, hand_over: true, last_hand: { hands: [], winner: null } };
              g.handOverLanded = `${m.table.game_number}:${m.table.hand}`;
              g.render(); return m.view.side; }"""
        )
        words = page.text_content("#overlay #side-scored") or ""
        assert f"count by their {side} side" in words, words
        assert errors == []
    finally:
        ana_ctx.close()
        watch_ctx.close()
        server.stop()
