"""The bots' option errors (what `--bots` and a web room's seats answer) in the language in force."""

from __future__ import annotations

import pytest

from unotable.bots import BOT_NAMES, make_bot
from unotable.bots.spec import parse_bots
from unotable.bots.words import BOT_DESCRIPTIONS, BOT_TITLES, bot_description, bot_title
from unotable.errors import ConfigError
from unotable.i18n import use_language


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "must be a number from 0 to 1"),
        ("pt", "tem de ser um número de 0 a 1"),
        ("fr", "doit être un nombre de 0 à 1"),
    ],
)
def test_a_bad_rate_is_refused_in_the_language(lang: str, words: str) -> None:
    with use_language(lang), pytest.raises(ValueError, match=words):
        make_bot("greedy", forget_uno=2)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "has no option 'nonsense'"),
        ("pt", "não tem a opção 'nonsense'"),
        ("fr", "n'a pas l'option 'nonsense'"),
    ],
)
def test_an_unknown_option_is_refused_in_the_language(lang: str, words: str) -> None:
    with use_language(lang), pytest.raises(ValueError, match=words):
        make_bot("greedy", nonsense=1)


def test_bot_lists_are_refused_in_the_language() -> None:
    with use_language("fr"), pytest.raises(ConfigError, match="--bots donne 3 robots pour 2 places"):
        parse_bots("greedy,random,search", 2)
    with use_language("pt"), pytest.raises(ConfigError, match="robô desconhecido 'robot'"):
        parse_bots("robot", 2)


def test_every_bot_has_a_name_and_a_line_for_people() -> None:
    """``bots/words.py`` names every bot :func:`make_bot` knows (``expert`` was missing: issue 35)."""
    assert set(BOT_TITLES) == set(BOT_NAMES) == set(BOT_DESCRIPTIONS)
    with use_language("fr"):
        assert bot_description("expert") != BOT_DESCRIPTIONS["expert"]
        assert bot_title("expert:budget=9") == "expert:budget=9"
