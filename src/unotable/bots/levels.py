"""The bots offered by strength: easy, medium, hard and expert, each with its measured strength.

A level is a name a person chooses from (the web's seat menus, ``uno play --bots``), the bot it
plays, and one measured figure that says how strong it is: its win rate heads-up against
``medium`` (``medium`` against ``easy``), from the every-bot table of ``docs/bots.md``
(``bench/bot_table.py``: paired, seat-rotated deals of ``unotable.env.evaluate``, seed 2026).
The web's ``/api/options`` carries these figures, so the page shows them without knowing them.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from unotable.i18n import _


@dataclass(frozen=True)
class Level:
    """A strength a person can choose: its ``name``, the ``bot`` spec it plays, and its win
    rate ``rate`` (0-1) over ``hands`` heads-up hands against the level ``against``."""

    name: str
    bot: str
    against: str
    rate: float
    hands: int


LEVELS: Final[tuple[Level, ...]] = (
    Level("easy", "random", "medium", 45 / 2000, 2000),
    Level("medium", "greedy", "easy", 1955 / 2000, 2000),
    Level("hard", "search", "medium", 6131 / 10000, 10000),
    Level("expert", "expert", "medium", 6361 / 10000, 10000),
)
"""The levels from the easiest; figures of docs/bots.md's every-bot table (seed 2026,
2026-12-02): each against ``medium`` (the greedy bot, the yardstick a person knows), ``medium``
against ``easy``."""
LEVEL_BOTS: Final[dict[str, str]] = {level.name: level.bot for level in LEVELS}
"""Each level's bot spec by the level's name."""


def level_words(level: Level) -> str:
    """A level as typed, its bot and its strength, in words (``uno play --help``)."""
    return _("{level} ({bot}): wins {share} of hands heads-up against {against}").format(
        level=level.name, bot=level.bot, share=f"{100 * level.rate:.0f}%", against=level.against
    )


def levels_json() -> list[dict[str, Any]]:
    """The levels as the web's options give them (the page words them itself)."""
    return [
        {"level": lv.name, "bot": lv.bot, "against": lv.against, "rate": lv.rate, "hands": lv.hands}
        for lv in LEVELS
    ]


__all__ = ["LEVELS", "LEVEL_BOTS", "Level", "level_words", "levels_json"]
