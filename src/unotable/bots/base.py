"""What every bot shares: the :class:`Bot` protocol, UNO calls and their lapses, out-of-turn
reactions, and helpers that read a :class:`~unotable.views.View`.

A bot decides from its seat's view alone. ``act`` answers the decision the view's phase asks of
``view.current`` (the bot's seat); ``react`` answers an open window (a late ``uno``, ``catch
S``, ``wrong S``) or a chance to jump in (RULES §11 ``jump_in``), or declines with ``None``.
Standard library only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar, Final, Protocol, runtime_checkable

from unotable.bots.rng import BotRandom
from unotable.cards import AW_SWAP, CARD_COLOR, CARD_VALUE, IS_WILD, POINTS, SEVEN
from unotable.determinize import unseen_cards
from unotable.engine import Tables, tables_for
from unotable.i18n import _
from unotable.notation import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_ID,
    ACTION_KIND,
    ACTION_TEXT,
    ACTION_UNO,
    KIND_CATCH,
    KIND_PLAY,
    KIND_UNO,
    KIND_WRONG,
    Kind,
)
from unotable.state import Phase
from unotable.views import View

WINDOW_KINDS: Final = frozenset({int(Kind.UNO), int(Kind.CATCH), int(Kind.WRONG), int(Kind.PENALIZE)})
"""Kinds of action that are not the answer to a phase: they are taken out of turn."""

UNO_TWIN: Final[tuple[int, ...]] = tuple(
    -1 if ACTION_UNO[a] else ACTION_ID.get(ACTION_TEXT[a] + " uno", -1) for a in range(len(ACTION_TEXT))
)
"""For each action without the ``uno`` suffix, the id of the same action with it (else -1)."""


@runtime_checkable
class Bot(Protocol):
    """A player that decides from its seat's :class:`View` alone."""

    name: str

    def act(self, view: View) -> int:
        """One of ``view.legal``: the answer to the phase's decision (``view.current == view.seat``)."""
        ...

    def react(self, view: View) -> int | None:
        """An out-of-turn action of ``view.legal`` (``uno``, ``catch S``, ``wrong S``, a jump-in),
        or ``None``."""
        ...

    def reseed(self, seed: int) -> None:
        """Seed every generator of the bot afresh: an interface that reseeds its bots from the
        game's seed and the action index before each decision makes a resumed game play on
        exactly as the uninterrupted one would have."""
        ...


def check_number(
    name: str, value: object, low: float, high: float | None = None, *, integer: bool = False
) -> float:
    """``value`` as a float if it is a number (a whole one if ``integer``) from ``low`` to
    ``high`` (no upper bound if ``None``).

    :raises ValueError: naming the option otherwise.
    """
    ok = isinstance(value, int) if integer else isinstance(value, (int, float))
    if ok and not isinstance(value, bool):
        x = float(value)  # type: ignore[arg-type]
        if low <= x and (high is None or x <= high):
            return x
    fields = {
        "name": name,
        "low": f"{low:g}",
        "high": f"{high:g}" if high is not None else "",
        "value": repr(value),
    }
    if integer and high is not None:
        text = _("{name} must be a whole number from {low} to {high}, not {value}")
    elif integer:
        text = _("{name} must be a whole number of at least {low}, not {value}")
    elif high is not None:
        text = _("{name} must be a number from {low} to {high}, not {value}")
    else:
        text = _("{name} must be a number of at least {low}, not {value}")
    raise ValueError(text.format(**fields))


def _rate(name: str, value: float) -> float:
    return check_number(name, value, 0.0, 1.0)


RATE_DEFAULTS: Final[Mapping[str, float]] = MappingProxyType(
    {"forget_uno": 0.0, "late_uno": 0.5, "catch": 1.0, "point_wrong": 1.0, "jump_in": 1.0}
)
"""The rate options every bot takes (see :class:`BaseBot`), with their defaults; a bot that
defaults otherwise says so in its :attr:`BaseBot.rate_defaults`."""


class BaseBot:
    """The common part of the bots: its own generator, UNO calls, lapses and reactions.

    Subclasses implement :meth:`choose`, which picks among the seat's phase actions with the
    ``uno`` spellings left out; the call is added here (always, but for lapses).

    :param seed: seeds the bot's own ``random.Random``.
    :param forget_uno: probability of playing the next-to-last card without calling UNO.
    :param late_uno: probability, each time it is asked while exposed, of calling it late.
    :param catch: probability of catching an exposed opponent when given the chance.
    :param point_wrong: probability of pointing out an opponent's wrong card (``lenient_plays``).
    :param jump_in: probability, each time it may, of jumping in (RULES §11 ``jump_in``) with a
        card :meth:`jump` finds worth it.
    """

    name = "base"
    rate_defaults: ClassVar[Mapping[str, float]] = RATE_DEFAULTS
    """This kind of bot's rates when not given (every key of :data:`RATE_DEFAULTS`)."""
    thinks_long = False
    """Whether one decision may take long enough (a search) that an event loop should ask for it
    in a thread rather than wait on it (the web room's driver reads it)."""

    def __init__(self, seed: int = 0, **rates: float) -> None:
        unknown = sorted(set(rates) - set(RATE_DEFAULTS))
        if unknown:
            raise TypeError(f"{type(self).__name__} takes no option {', '.join(map(repr, unknown))}")
        given = {**self.rate_defaults, **rates}
        self.seed = seed
        self._rng: random.Random = BotRandom(seed)
        self._reseed: int | None = None
        self.forget_uno = _rate("forget_uno", given["forget_uno"])
        self.late_uno = _rate("late_uno", given["late_uno"])
        self.catch = _rate("catch", given["catch"])
        self.point_wrong = _rate("point_wrong", given["point_wrong"])
        self.jump_in = _rate("jump_in", given["jump_in"])
        self.uno_chances = 0
        """Plays of the next-to-last card this bot made (each a chance to forget the call)."""
        self.lapses = 0
        """Of those, the plays it made without calling UNO."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"

    @property
    def rng(self) -> random.Random:
        """The bot's own generator (a :class:`~unotable.bots.rng.BotRandom`), seeded by the last
        :meth:`reseed` (else by ``seed``)."""
        pending = self._reseed
        if pending is not None:
            self._reseed = None
            self._rng.seed(pending)
        return self._rng

    def reseed(self, seed: int) -> None:
        """Seed the bot's generator afresh (see :meth:`Bot.reseed`), lazily: the generator is
        seeded when the bot next draws from it, so a table that reseeds before every decision
        (:mod:`unotable.bots.table`) pays nothing for the many decisions that draw no number (a
        greedy bot's, a reaction at a rate of 0 or 1), and little for the others."""
        self._reseed = seed

    def reseed_twister(self, seed: int) -> None:
        """Seed the bot's generator at once as ``random.Random(seed)`` is seeded: the research
        env's rule (:mod:`unotable.env.vector`, whose native tables follow a random bot's
        Mersenne Twister from that seed), kept as it was before the bot table's cheap seeding."""
        self._reseed = None
        rng = self._rng
        if isinstance(rng, BotRandom):
            rng.seed_twister(seed)
        else:
            rng.seed(seed)

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (no number is drawn for 0 or 1)."""
        if p >= 1.0:
            return True
        if p <= 0.0:
            return False
        return self.rng.random() < p

    def act(self, view: View) -> int:
        """The bot's answer to its phase's decision (see :class:`Bot`)."""
        options = phase_options(view)
        if not options:
            raise ValueError(f"seat {view.seat} has no decision to make (current: {view.current})")
        aid = options[0] if len(options) == 1 else self.choose(view, options)
        return self.with_call(view, aid)

    def with_call(self, view: View, aid: int) -> int:
        """``aid`` with the UNO call when it plays the next-to-last card, but for lapses."""
        twin = UNO_TWIN[aid]
        if twin >= 0 and twin in view.legal:
            self.uno_chances += 1
            if self.chance(self.forget_uno):
                self.lapses += 1
                return aid
            return twin
        return aid

    def choose(self, view: View, options: list[int]) -> int:
        """Pick one of ``options`` (the phase's actions, ``uno`` spellings left out; at least two)."""
        raise NotImplementedError

    def react(self, view: View) -> int | None:
        """A late UNO call, a catch, a jump-in or a wrong card pointed out, each at the bot's rates."""
        late = catch = wrong = -1
        jumps: list[int] = []
        mine = view.current == view.seat
        for a in view.legal:
            kind = ACTION_KIND[a]
            if kind == KIND_UNO:
                late = a
            elif kind == KIND_CATCH and catch < 0 and not partners(view, view.seat, _target(a)):
                catch = a
            elif kind == KIND_WRONG and not partners(view, view.seat, _target(a)):
                wrong = a
            elif kind == KIND_PLAY and not mine and not ACTION_UNO[a]:
                jumps.append(a)
        if late >= 0 and self.chance(self.late_uno):
            return late
        if catch >= 0 and self.chance(self.catch):
            return catch
        if jumps and self.chance(self.jump_in):
            aid = self.jump(view, jumps)
            if aid is not None:
                return self.with_call(view, aid)
        if wrong >= 0 and self.chance(self.point_wrong):
            return wrong
        return None

    def jump(self, view: View, options: list[int]) -> int | None:
        """Which jump-in to make (``options``: the ways to play the card identical to the top
        card, ``uno`` spellings left out), or ``None`` to let it pass. Here: any, at random."""
        return self.rng.choice(options)


def reseed_twister(bot: Bot, seed: int) -> None:
    """:meth:`BaseBot.reseed_twister` for a bot that has it, else ``bot.reseed(seed)``."""
    if isinstance(bot, BaseBot):
        bot.reseed_twister(seed)
    else:
        bot.reseed(seed)


def _target(aid: int) -> int:
    return ACTION_ARG[aid]


def out_of_turn(view: View) -> list[int]:
    """The seat's actions that answer no phase: a late ``uno``, ``catch``, ``wrong``, and a
    jump-in (a play by a seat whose turn it is not, RULES §11)."""
    mine = view.current == view.seat
    return [
        a for a in view.legal if ACTION_KIND[a] in WINDOW_KINDS or (not mine and ACTION_KIND[a] == KIND_PLAY)
    ]


def swaps_hands(view: View, card: int) -> bool:
    """Whether playing ``card`` swaps hands (a 7 with ``seven_zero``, or All Wild's Wild Forced
    Swap: not the last card)."""
    seven = view.rules.seven_zero and not IS_WILD[card] and CARD_VALUE[card] == SEVEN
    return (seven or card == AW_SWAP) and len(view.hand) > 1


def swap_target(view: View, options: Sequence[int]) -> int:
    """Of the ways to play a 7 that swaps hands, the one naming the opponent with the fewest
    cards (the first after this seat in the direction of play on a tie)."""
    n = view.rules.players
    return min(
        options,
        key=lambda a: (
            partners(view, view.seat, ACTION_ARG[a]),
            view.hand_sizes[ACTION_ARG[a]],
            ((ACTION_ARG[a] - view.seat) * view.direction) % n,
        ),
    )


def phase_options(view: View) -> list[int]:
    """The seat's answers to its phase (no out-of-turn action), without the ``uno`` spellings."""
    if view.current != view.seat:
        return []
    return [a for a in view.legal if ACTION_KIND[a] not in WINDOW_KINDS and not ACTION_UNO[a]]


def partners(view: View, a: int, b: int) -> bool:
    """Whether seats ``a`` and ``b`` play for the same side (themselves, or a team)."""
    return a == b or (view.rules.teams and a % 2 == b % 2)


def tables(view: View) -> Tables:
    """The lookup tables of the view's rules."""
    return tables_for(view.rules)


def color_counts(cards: Sequence[int]) -> list[int]:
    """How many cards of each colour (wild cards count for none)."""
    counts = [0, 0, 0, 0]
    for t in cards:
        c = CARD_COLOR[t]
        if c >= 0:
            counts[c] += 1
    return counts


def next_seat(view: View, seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` in the direction of play."""
    return (seat + steps * view.direction) % view.rules.players


def opponents(view: View) -> list[int]:
    """The seats playing against this one (not those No Mercy's mercy rule knocked out, NM-9)."""
    out = view.rules.edition.no_mercy and view.phase < Phase.HAND_OVER
    return [
        s
        for s in range(view.rules.players)
        if not partners(view, view.seat, s) and not (out and view.hand_sizes[s] == 0)
    ]


def best_color(view: View, hand: Sequence[int], *, avoid_seat: int = -1) -> int:
    """The colour to call (the first of :func:`color_ranking`)."""
    return color_ranking(view, hand, avoid_seat=avoid_seat)[0]


def color_ranking(view: View, hand: Sequence[int], *, avoid_seat: int = -1) -> list[int]:
    """The four colours, best call first: the one held most, then with the most points held,
    then the one whose unseen cards are fewest (least likely in the others' hands); a colour
    ``avoid_seat`` is known to hold loses a little."""
    counts = color_counts(hand)
    points = [0, 0, 0, 0]
    for t in hand:
        c = CARD_COLOR[t]
        if c >= 0:
            points[c] += POINTS[t]
    unseen = color_counts(unseen_cards(view))
    known = color_counts(view.known.get(avoid_seat, ())) if avoid_seat >= 0 else [0, 0, 0, 0]
    return sorted(range(4), key=lambda c: (-(counts[c] * 4 - known[c] * 3), -points[c], unseen[c], c))


def play_of(options: Sequence[int], card: int) -> list[int]:
    """The options that play ``card`` (one per colour for a wild card, per seat for a Howler)."""
    return [a for a in options if ACTION_KIND[a] == KIND_PLAY and ACTION_CARD[a] == card]
