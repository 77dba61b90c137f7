"""The page in Portuguese and French (issues 25, 34), in a real browser (Playwright driving Debian's
chromium, as test_browser.py): a browser whose language is pt-PT, pt-BR or fr-FR gets the lobby,
the table, the end of a hand and the replay in that language (Brazil's words for pt-BR), with no
English word on the screen; the page's French elides as the server's does."""

from __future__ import annotations

import re
import time
from typing import Any, Final

import pytest

from . import test_browser
from .conftest import LiveServer
from .test_browser import DESKTOP, Player, play_to_the_end, take_seat

browser = test_browser.browser
"""The browser fixture of test_browser.py: one chromium for the module."""

ENGLISH: Final = re.compile(
    r"\b(the|and|with|your|you|played|drew|draws?|called|wins?|won|passed|skipped|caught|challenged|"
    r"accepted|deals?|dealt|hand|Hand|cards?|Card|Skip|Reverse|Draw|Wild|Scores?|Game|Seat|seat|"
    r"Play|play|Room|room|players?|Players|red|yellow|green|blue|Colour|colour|Next|Watch|Take|Make|"
    r"Join|Settings|Sound|Language|Keys|Step|of|is|to)\b"
)
"""English words that must not be on a Portuguese or French page (the names Ana, Ben and the
bots' names are not words; "UNO" is the game's, "Total" is Portuguese and French too)."""

LOCALES: Final = [
    ("pt-PT", "pt", "Jogar já"),
    ("pt-BR", "pt_BR", "Jogar agora"),
    ("fr-FR", "fr", "Jouer tout de suite"),
]


def english_on(page: Any) -> list[str]:
    """The lines of the page's visible text that hold an English word."""
    text: str = page.evaluate("() => document.body.innerText")
    return [line for line in text.splitlines() if ENGLISH.search(line)]


@pytest.mark.parametrize(("locale", "lang", "play_now"), LOCALES)
def test_lobby_table_end_of_hand_and_replay_in_the_browser_language(
    browser: Any, sqlite_url: str, locale: str, lang: str, play_now: str
) -> None:
    server = LiveServer(sqlite_url, seeds=lambda: 2)
    ctx = browser.new_context(viewport=DESKTOP, locale=locale)
    tag = lang.replace("_", "-")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.http + "/")
        page.wait_for_selector("#create-form")
        page.wait_for_function(f"() => document.documentElement.lang === '{tag}'")
        assert page.input_value("#lang") == lang
        assert play_now in page.evaluate("() => document.body.innerText")
        assert english_on(page) == []
        code = server.room({"players": 3, "seats": ["human", "greedy", "random"], "bot_delay": 0.3,
                            "target": 1})  # fmt: skip
        take_seat(page, server.http, code, "Ana")
        page.wait_for_function(f"() => document.documentElement.lang === '{tag}'")
        page.wait_for_selector("#hand .card")
        assert english_on(page) == []
        play_to_the_end(Player(page, "Ana"))
        page.wait_for_selector("#overlay #hands-up")
        assert english_on(page) == []
        page.goto(f"{server.http}/r/{code}/replay/0")
        page.wait_for_selector("#replay-step")
        page.keyboard.press("ArrowRight")
        step = page.inner_text("#replay-step")
        assert step.startswith({"pt": "Passo 2 de ", "pt_BR": "Passo 2 de ", "fr": "Étape 2 sur "}[lang]), (
            step
        )
        assert english_on(page) == []
        assert errors == []
    finally:
        ctx.close()
        server.stop()


def wait_words(page: Any, lang: str) -> None:
    """Wait until the page's catalogue is ``lang``'s. Polled from here: ``wait_for_function``
    does not await an async predicate (its promise is truthy at once), so it did not wait."""
    deadline = time.monotonic() + 10
    while page.evaluate("async () => (await import('/static/js/strings.js')).wordsLang()") != lang:
        assert time.monotonic() < deadline, f"the {lang} catalogue did not load"
        time.sleep(0.05)


def test_a_brazilian_browser_reads_brazils_words_and_french_elides(browser: Any, sqlite_url: str) -> None:
    """pt-BR gets Brazil's catalogue (the picker says so, the lobby says "Jogar agora", not
    Portugal's "Jogar já"); the page's French fills "la main de {name}" as "la main d'Ana", "le
    tour de {card}" as "le tour du 7 rouge", and leaves "de Ben" as it is."""
    server = LiveServer(sqlite_url, seeds=lambda: 2)
    ctx = browser.new_context(viewport=DESKTOP, locale="pt-BR")
    try:
        page = ctx.new_page()
        page.goto(server.http + "/")
        page.wait_for_function("() => document.documentElement.lang === 'pt-BR'")
        assert page.input_value("#lang") == "pt_BR"
        # the lobby's list and buttons come after the lang attribute: wait for them, not a moment
        page.wait_for_function("() => document.body.innerText.includes('Jogar agora')", timeout=10_000)
        assert "Jogar já" not in page.evaluate("() => document.body.innerText")
        page.click("#keys-button")
        page.wait_for_selector("#keys-panel:not([hidden])")
        assert page.get_attribute("#guide-link", "href") == "/static/guide.pt_BR.html"
        assert page.inner_text("#guide-link") == "Como jogar: o guia do jogador"
        guide = page.request.get(server.http + "/static/guide.pt_BR.html")
        assert guide.ok and "Curinga Comprar 4" in guide.text() and 'lang="pt-BR"' in guide.text()
        page.click("#keys-close")
        page.select_option("#lang", "fr")
        wait_words(page, "fr")  # the catalogue loaded, not just the lang attribute set
        filled = page.evaluate(
            """async () => {
                const { fillWords } = await import("/static/js/strings.js");
                return [fillWords("la main de {name}", {name: "Ana"}),
                        fillWords("la main de {name}", {name: "Ben"}),
                        fillWords("le tour de {card}", {card: "le 7 rouge"}),
                        fillWords("de {name}", {name: "Harry"}),
                        fillWords("de {name}", {name: "Hermione"})];
            }"""
        )
        assert filled == ["la main d'Ana", "la main de Ben", "le tour du 7 rouge", "de Harry", "d'Hermione"]
        page.select_option("#lang", "pt")
        wait_words(page, "pt")  # the catalogue loaded, not just the lang attribute set
        assert (
            page.evaluate(
                """async () => (await import("/static/js/strings.js"))
                    .fillWords("a mão de {name}", {name: "Ana"})"""
            )
            == "a mão de Ana"
        )
    finally:
        ctx.close()
        server.stop()
