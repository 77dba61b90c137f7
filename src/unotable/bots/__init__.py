"""Bots that play from their seat's view alone (standard library only, but ``learned``).

``make_bot(name, seed, **options)`` makes one by name (:data:`BOT_NAMES`):

- ``random``: uniform over the legal actions of its phase;
- ``greedy``: the play a good human would recognise; ``aggressive`` and ``cautious`` are
  styles of it (more and less action cards, bluffs and challenges);
- ``search``: Monte Carlo search over determinizations of its view (``budget`` playouts
  per decision, default 500, or ``time_budget`` seconds);
- ``expert``: the search with 10-20 times the playouts where the native core plays them (``search``
  itself without it; :mod:`unotable.bots.expert`);
- ``learned``: a policy network trained by ``examples/train.py`` (docs/bots.md), shipped as
  weights and run with numpy (the ``[rl]`` extra; loaded only when asked for).

Every bot takes ``forget_uno`` (the rate of plays of the next-to-last card without the UNO
call), ``late_uno``, ``catch`` and ``point_wrong`` (see :class:`BaseBot`).

A bot written as text (``greedy:forget_uno=0.1``) is a :class:`unotable.bots.spec.BotSpec`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Final

from unotable.bots.base import RATE_DEFAULTS, BaseBot, Bot, phase_options
from unotable.bots.expert import ExpertBot
from unotable.bots.search import SearchBot
from unotable.bots.simple import STYLES, GreedyBot, RandomBot, wd4_guilt
from unotable.i18n import _


def _learned() -> type[BaseBot]:
    try:
        from unotable.bots.learned import LearnedBot  # noqa: PLC0415  # numpy only when asked for
    except ImportError as exc:
        raise ValueError(
            _("the learned bot needs numpy: pip install 'unotable[rl]' ({error})").format(error=exc)
        ) from None
    return LearnedBot


_KINDS: Final[dict[str, tuple[Callable[[], type[BaseBot]], dict[str, Any]]]] = {
    "random": (lambda: RandomBot, {}),
    **{style: (lambda: GreedyBot, preset) for style, preset in STYLES.items()},
    "search": (lambda: SearchBot, {}),
    "expert": (lambda: ExpertBot, {}),
    "learned": (_learned, {}),
}
"""Each bot name: what loads its class (``learned`` imports numpy) and the options it presets
(the styles of ``greedy``)."""
BOT_NAMES: Final[tuple[str, ...]] = tuple(_KINDS)
"""The names :func:`make_bot` knows."""


def bot_options(name: str) -> tuple[str, ...]:
    """The options the bot called ``name`` takes, sorted.

    :raises ValueError: for an unknown name.
    """
    kind = _KINDS.get(name)
    if kind is None:
        raise ValueError(
            _("unknown bot {name} (known: {known})").format(name=repr(name), known=", ".join(BOT_NAMES))
        )
    params = inspect.signature(kind[0]().__init__).parameters.values()
    names = {p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):  # the rates, as BaseBot takes them
        names.update(RATE_DEFAULTS)
    return tuple(sorted(names))


def make_bot(name: str, seed: int = 0, **options: Any) -> BaseBot:
    """A bot by name, with its own generator seeded by ``seed``.

    :raises ValueError: for an unknown name, or an option the bot does not take or a value out
        of range (the message names the bot's options).
    """
    known = bot_options(name)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(
            _("bot {name} has no option {options} (its options: {known})").format(
                name=repr(name), options=", ".join(map(repr, unknown)), known=", ".join(known)
            )
        )
    load, preset = _KINDS[name]
    bot = load()(seed, **{**preset, **options})
    bot.name = name
    return bot


__all__ = [
    "BOT_NAMES",
    "BaseBot",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "bot_options",
    "make_bot",
    "phase_options",
    "wd4_guilt",
]
