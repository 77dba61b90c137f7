"""Several cards at once in the browser (``multi_play``, docs/rules.md §11.5): the form's control
makes the room, and a person picks the cards of one number in the hand ("Several at once") and
plays them together; the page sends ``play CARD more`` for each but the last."""

from __future__ import annotations

import time
from typing import Any

from .test_browser import Player, against_greedy, browser, lobby, state

__all__ = ["browser"]


NEXT_HAND = '() => { const b = document.querySelector("#overlay:not([hidden]) #next-hand"); b && b.click(); }'


def pick_several(page: Any, m: dict[str, Any]) -> bool:
    """If the view offers a ``play CARD more``, pick that card and every other of its number
    and play them together; whether it did."""
    view = m["view"]
    if view["current"] != m["seat"] or view["phase"] != "turn" or view.get("series"):
        return False
    more = [a.split(" ")[1] for a in view["legal"] if a.endswith(" more")]
    if not more:
        return False
    first = more[0]
    hand: list[str] = view["hand"]
    order = [hand.index(first)] + [
        i for i, c in enumerate(hand) if c[1:] == first[1:] and c[0] in "RYGB" and i != hand.index(first)
    ]
    page.click('[data-action="several"]')
    for i in order:
        card = page.locator(f'#hand .card[data-index="{i}"]')
        card.focus()
        card.press("Enter")
    assert page.locator('[data-action="play-picks"]').count() == 1
    page.locator('[data-action="play-picks"]').focus()
    page.locator('[data-action="play-picks"]').press("Enter")
    return True


def test_a_person_plays_several_cards_of_one_number_at_once(browser: Any, sqlite_url: str) -> None:
    with lobby(browser, sqlite_url) as (server, page):
        page.select_option("#house-multi-play", "number")
        page.fill("#target", "1")
        page.fill("#bot-delay", "0.2")
        against_greedy(server, page)
        m = state(page)
        assert m is not None and m["view"]["rules"]["multi_play"] == "number"
        ana = Player(page, "Ana")
        deadline = time.monotonic() + 180
        played = False
        while not played:
            assert time.monotonic() < deadline, "no chance to play several cards came up"
            m = state(page)
            if m is not None and m["table"]["status"] == "playing" and not m["table"]["hand_over"]:
                played = pick_several(page, m)
                if played:
                    break
            if page.locator("#rematch").count():
                page.click("#rematch")  # a new game: keep looking
                continue
            if not ana.turn():
                page.evaluate(NEXT_HAND)
                time.sleep(0.1)
        page.wait_for_function(
            "() => { const g = window.unotable; return g.queue.length === 0 && g.msg.view.series === null; }"
        )
        sent: list[str] = page.evaluate("() => window.unotable.sent")
        series = [a for a in sent if a.endswith((" more", " more uno"))]
        assert series, sent
        first = sent.index(series[0])
        assert not sent[first + len(series)].endswith("more")  # the last card without "more"
        number = series[0].split(" ")[1][1:]
        assert all(s.split(" ")[1][1:] == number for s in sent[first : first + len(series) + 1])
