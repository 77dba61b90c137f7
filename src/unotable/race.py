"""The out-of-turn race: who may act out of turn now, in which order, seeded how.

While an out-of-turn window is open (:func:`window_open`: an exposed UNO, a wrong card that may
be called, or, with ``jump_in`` (RULES §11), a ``turn`` waiting), any seat holding an
out-of-turn action may take it before the phase's seat decides. A program that plays several
seats (the simulator, the terminal game, the web room) asks them in one order, the first that
acts wins the race. That order is drawn by ONE rule, :func:`race_seed`, from the game's seed and
the game's place (the hand's index and the actions already taken in it), so that:

- the same game, replayed or resumed from its log, asks the seats in the same order;
- every interface of the project orders the same candidates the same way.

:func:`first_reaction` is the driver: it asks the candidates in :func:`race_order` and returns
the first (candidate, action id) taken. The caller decides who the candidates are (the seats or
players its bots play, in seat order) and how each is asked (``react``: its bot's reaction, or
``None``, for a candidate with no out-of-turn action now or that lets the window pass).

The research env (:mod:`unotable.env`) has its own model of the race on purpose (the agent's
actions are interleaved with the opponents' by the env's own rule).

Rules core: standard library and the core's own modules only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from unotable.seeds import derive_seed
from unotable.state import PHASE_HAND_OVER, PHASE_TURN, State

T = TypeVar("T")


def window_open(st: State) -> bool:
    """Whether out-of-turn actions may be taken now: a hand in play with an exposed UNO, a
    wrong card that may be called, or (``jump_in``, RULES §11) a ``turn`` phase waiting."""
    return st.phase < PHASE_HAND_OVER and (
        st.exposed != 0 or st.wrong_seat >= 0 or (st.phase == PHASE_TURN and st.tables.jump_in)
    )


def race_seed(game_seed: int, hand: int, action: int) -> int:
    """The one seeding rule of the race: the seed of the order in which the candidates are asked
    after ``action`` actions of hand ``hand`` (both from 0) of the game seeded ``game_seed``."""
    return derive_seed(game_seed, "race", hand, action)


def race_order(candidates: Sequence[T], game_seed: int, hand: int, action: int) -> list[T]:
    """The candidates in the order they are asked: ``candidates`` (in seat order) shuffled by a
    generator seeded :func:`race_seed`."""
    order = list(candidates)
    random.Random(race_seed(game_seed, hand, action)).shuffle(order)
    return order


def first_reaction(
    candidates: Sequence[T],
    game_seed: int,
    hand: int,
    action: int,
    react: Callable[[T], int | None],
) -> tuple[T, int] | None:
    """Ask the candidates in :func:`race_order` for a reaction (``react``: an action id, or
    ``None`` to let the window pass); the first (candidate, action id) taken, or ``None`` if
    nobody acts. ``react`` is not called for the candidates after the winner."""
    for who in race_order(candidates, game_seed, hand, action):
        aid = react(who)
        if aid is not None:
            return who, aid
    return None


__all__ = ["first_reaction", "race_order", "race_seed", "window_open"]
