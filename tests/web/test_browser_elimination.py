"""Elimination in the browser (docs/rules.md §10, H-36 to H-40): the form's mode greys the
target, and the end of a hand says who is out of the game and marks them in the scores."""

from __future__ import annotations

from typing import Any

from .test_browser import Player, against_greedy, browser, lobby, play_to_the_end, state

__all__ = ["browser"]


def test_an_elimination_game_says_who_is_out(browser: Any, sqlite_url: str) -> None:
    with lobby(browser, sqlite_url) as (server, page):
        page.select_option("#mode", "elimination")
        assert page.is_disabled("#target")
        page.select_option("#mode", "solo")
        assert not page.is_disabled("#target")
        page.select_option("#mode", "elimination")
        page.fill("#bot-delay", "0.2")
        against_greedy(server, page)  # two players: one hand, its loser is out
        m = state(page)
        assert m is not None and m["view"]["rules"]["mode"] == "elimination"
        play_to_the_end(Player(page, "Ana"))
        m = state(page)
        assert m is not None
        standings = m["table"]["standings"]
        assert standings["finished"] and len(standings["eliminated"]) == 1
        out = standings["eliminated"][0]
        text = page.text_content("#out-now") or ""
        assert text.endswith("is out of the game.") and ("Ana" in text) == (out == 0)
        header = page.text_content(f"#scores thead th:nth-child({out + 2})") or ""
        assert header.endswith("(out)")
