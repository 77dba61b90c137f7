"""Bots that play from their seat's view alone (standard library only, but ``learned``).

``make_bot(name, seed, **options)`` makes one by name (:data:`BOT_NAMES`):

- ``random``: uniform over the legal actions of its phase;
- ``greedy``: the play a good human would recognise; ``aggressive`` and ``cautious`` are
  styles of it (more and less action cards, bluffs and challenges);
- ``search``: Monte Carlo search over determinizations of its view (``budget`` playouts
  per decision, default 500, or ``time_budget`` seconds);
- ``learned``: a policy network trained by ``examples/train.py`` (docs/bots.md), shipped as
  weights and run with numpy (the ``[rl]`` extra; loaded only when asked for).

Every bot takes ``forget_uno`` (the rate of plays of the next-to-last card without the UNO
call), ``late_uno``, ``catch`` and ``point_wrong`` (see :class:`BaseBot`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from unotable.bots.base import BaseBot, Bot, phase_options
from unotable.bots.search import SearchBot
from unotable.bots.simple import STYLES, GreedyBot, RandomBot, wd4_guilt


def _greedy_style(style: str) -> Callable[..., BaseBot]:
    preset = STYLES[style]

    def make(seed: int = 0, **options: Any) -> BaseBot:
        bot = GreedyBot(seed, **{**preset, **options})
        bot.name = style
        return bot

    return make


def _learned(seed: int = 0, **options: Any) -> BaseBot:
    try:
        from unotable.bots.learned import LearnedBot  # noqa: PLC0415  # numpy only when asked for
    except ImportError as exc:
        raise ValueError(f"the learned bot needs numpy: pip install 'unotable[rl]' ({exc})") from None
    return LearnedBot(seed, **options)


_MAKERS: Final[dict[str, Callable[..., BaseBot]]] = {
    "random": RandomBot,
    **{style: _greedy_style(style) for style in STYLES},
    "search": SearchBot,
    "learned": _learned,
}
BOT_NAMES: Final[tuple[str, ...]] = tuple(_MAKERS)
"""The names :func:`make_bot` knows."""


def make_bot(name: str, seed: int = 0, **options: Any) -> BaseBot:
    """A bot by name, with its own generator seeded by ``seed``.

    :raises ValueError: for an unknown name, or an option the bot does not take or a value out
        of range.
    """
    maker = _MAKERS.get(name)
    if maker is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")
    try:
        return maker(seed, **options)
    except TypeError as exc:
        bad = ", ".join(sorted(options))
        raise ValueError(f"bot {name!r} does not take these options: {bad} ({exc})") from None


__all__ = [
    "BOT_NAMES",
    "BaseBot",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
    "phase_options",
    "wd4_guilt",
]
