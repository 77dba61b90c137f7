"""The search bot's whole decision in the native core (issue 16): worlds sampled from a seat's
view, each candidate played in them and played out by the rollout policy, UCB1 between them
(``search.h``), as :meth:`unotable.bots.search.SearchBot.search` and
:func:`unotable.determinize.determinize` do it in Python, which stay the specification.

Hidden information: these functions take a :class:`~unotable.views.View`, never a state, and
pass the core only what the view holds (its hand, the discard pile, the cards it knows in other
hands, hand sizes, the draw pile's size, what each seat faced when it chose to draw, the public
fields) and the cards it has not seen.

Randomness: the search draws from the bot's own ``random.Random``. Its state goes into the core
and comes back: the core draws exactly what ``shuffle``, ``choice``, ``random`` and
``getrandbits`` would (CPython's Mersenne Twister and ``random.py``'s ways of using it), so the
same generator gives the same worlds, the same rewards and leaves the generator where the Python
search leaves it.

May import the standard library, the rules core's public modules and :mod:`unotable.native`.
"""

from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from unotable.determinize import unseen_cards
from unotable.errors import ConfigError
from unotable.native import core_module
from unotable.native.core import NT, native_tables
from unotable.views import View

if TYPE_CHECKING:
    from unotable.native._core import State as NativeState

_NEUMAIER: Final = sys.version_info >= (3, 12)
"""Whether this Python's ``sum`` of floats is compensated (3.12 on): the rewards add as it does."""


def pack_view(view: View, unseen: Sequence[int] | None = None) -> tuple[bytes, bytes]:
    """What the core reads of ``view``: int32 numbers (the public fields, then per seat its hand
    size, what it faced when it chose to draw and how many of its cards ``view.seat`` knows,
    then the scores) and the cards (the hand, the discard pile bottom first, the known cards
    seat by seat, the unseen cards: ``unseen_cards(view)`` unless given)."""
    n = len(view.hand_sizes)
    if unseen is None:
        unseen = unseen_cards(view)
    exposed = 0
    for s in view.uno_exposed:
        exposed |= 1 << s
    winners = 0
    for w in view.game_winners:
        winners |= 1 << w
    ints = array(
        "i",
        [
            view.seat,
            view.current,
            view.direction,
            view.dealer,
            int(view.phase),
            view.drawn,
            view.color,
            view.after_color,
            view.pending_card,
            view.pending_from,
            view.pending_color,
            exposed,
            view.winner,
            -1 if view.hand_points is None else view.hand_points,
            winners,
            view.draw_pile_size,
            len(view.scores),
            len(view.discard),
            len(unseen),
        ],
    )
    cards = bytearray(view.hand)
    cards += bytes(view.discard)
    for s in range(n):
        known = () if s == view.seat else view.known.get(s, ())
        facing = view.drew_facing[s]
        ints.extend((view.hand_sizes[s], -1 if facing is None else (facing[0] + 1) * NT + facing[1]))
        ints.append(len(known))
        cards += bytes(known)
    ints.extend(view.scores)
    cards += bytes(unseen)
    return ints.tobytes(), bytes(cards)


def _state_in(rng: random.Random) -> tuple[bytes, tuple[object, ...]]:
    # random.Random's own state, the Mersenne Twister's, also of a subclass that keeps more (a
    # bot's generator, unotable.bots.rng.BotRandom, which its search winds to the Twister first)
    state = random.Random.getstate(rng)
    words = array("I", state[1])
    if words.itemsize != 4 or len(words) != 625:
        raise ConfigError("this Python's random.Random is not the Mersenne Twister the native search follows")
    return words.tobytes(), state


def _state_out(rng: random.Random, words: bytes, before: tuple[object, ...]) -> None:
    random.Random.setstate(rng, (before[0], tuple(array("I", words)), before[2]))


def determinize(
    view: View, rng: random.Random, *, trust: float, unseen: Sequence[int] | None = None
) -> NativeState:
    """:func:`unotable.determinize.determinize` in the core: the same world from the same
    generator, which moves on as it would.

    :raises ValueError: if the view does not add up (``rng`` is not moved then).
    """
    assert core_module is not None
    if not 0.0 <= trust <= 1.0:
        raise ValueError(f"trust must be from 0 to 1, not {trust!r}")
    ints, cards = pack_view(view, unseen)
    words, before = _state_in(rng)
    st, after = core_module.determinize(native_tables(view.rules), ints, cards, trust, words)
    _state_out(rng, after, before)
    world: NativeState = st
    return world


def search(
    view: View,
    moves: Sequence[int],
    rng: random.Random,
    *,
    budget: int,
    time_budget: float | None,
    exploration: float,
    trust: float,
    bluff_prior: float,
    uniform: bool,
    horizon: int,
    points_reward: bool,
    unseen: Sequence[int] | None = None,
) -> tuple[list[list[float]], int]:
    """:meth:`unotable.bots.search.SearchBot.search` in the core: each candidate's rewards (in
    the order played) and the number of worlds sampled, from the same generator (which moves on
    as in Python).

    :param moves: the candidates' action ids (legal for ``view.seat``), the anchor first.
    :param horizon: actions played out after the candidate (``PLAYOUT_CAP`` for a whole hand).
    :raises NativeUnsupportedError: if the core cannot play the view's rules.
    :raises ValueError: if the view does not add up, or a candidate is not legal (``rng`` is not
        moved then).
    """
    assert core_module is not None
    table = native_tables(view.rules)
    ints, cards = pack_view(view, unseen)
    words, before = _state_in(rng)
    rewards, after, worlds = core_module.search(
        table,
        ints,
        cards,
        array("i", moves).tobytes(),
        words,
        budget,
        -1.0 if time_budget is None else time_budget,
        exploration,
        trust,
        bluff_prior,
        int(uniform),
        horizon,
        int(points_reward),
        int(_NEUMAIER),
    )
    _state_out(rng, after, before)
    return rewards, worlds


__all__ = ["determinize", "pack_view", "search"]
