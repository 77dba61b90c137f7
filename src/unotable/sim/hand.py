"""The driver of one hand between bots: the phase's seat acts, and while a window is open the
seats with an out-of-turn action race for it (:mod:`unotable.race`)."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from unotable.bots import Bot
from unotable.bots.table import OUT_OF_TURN_KINDS, out_of_turn
from unotable.engine import legal_ids, step
from unotable.notation import ACTION_ARG, ACTION_KIND, ACTION_TEXT, KIND_CATCH, KIND_PLAY
from unotable.race import first_reaction, window_open
from unotable.state import PHASE_HAND_OVER, State
from unotable.views import view

OUT_OF_TURN: Final = OUT_OF_TURN_KINDS
"""Kinds of action a seat takes out of turn, when a window is open (and a play, by a seat whose
turn it is not: a jump-in): the bot table's (:data:`unotable.bots.table.OUT_OF_TURN_KINDS`)."""
HAND_ACTION_CAP: Final = 200_000
"""A hand still going after this many actions is an error (bots that never end it)."""


class BotError(RuntimeError):
    """A bot answered with an action that is not legal for it now."""


@dataclass
class Tally:
    """Counts of one hand (or game) by seat (by player in a game)."""

    actions: int = 0
    decisions: list[int] = field(default_factory=list)
    think: list[float] = field(default_factory=list)
    """Seconds spent in ``act``; not reproducible, kept apart from the results."""
    caught: list[int] = field(default_factory=list)
    uno_chances: list[int] = field(default_factory=list)
    lapses: list[int] = field(default_factory=list)

    @classmethod
    def empty(cls, seats: int) -> Tally:
        return cls(0, [0] * seats, [0.0] * seats, [0] * seats, [0] * seats, [0] * seats)


def _reaction(st: State, bots: Sequence[Bot], seat: int) -> int | None:
    """``seat``'s bot's reaction now (``None`` if it has no out-of-turn action or lets the window
    pass).

    :raises BotError: if the bot answers with an action that is not out of turn now.
    """
    current = st.current
    if not any(
        ACTION_KIND[a] in OUT_OF_TURN or (seat != current and ACTION_KIND[a] == KIND_PLAY)
        for a in legal_ids(st, seat)
    ):
        return None
    v = view(st, seat)
    aid = bots[seat].react(v)
    if aid is not None and aid not in out_of_turn(v):
        raise BotError(
            f"bot {bots[seat].name} at seat {seat} reacted {_text(aid)}, not an out-of-turn action now"
        )
    return aid


def _text(aid: object) -> str:
    if isinstance(aid, int) and 0 <= aid < len(ACTION_TEXT):
        return repr(ACTION_TEXT[aid])
    return repr(aid)


def play_hand(
    state: Callable[[], State],
    do: Callable[[int, int], None],
    bots: Sequence[Bot],
    race: int | random.Random,
    tally: Tally,
    seat_key: Sequence[int] | None = None,
    hand: int = 0,
) -> None:
    """Play the hand ``state()`` to its end: ``bots[seat]`` decides for each seat, ``do(seat,
    action)`` applies an action; counts go to ``tally`` (at index ``seat_key[seat]``).

    While a window is open, the seats are asked for a reaction in the race's order
    (:func:`unotable.race.first_reaction`) for the game seeded ``race`` (a seed, or a generator
    a seed is drawn from), hand number ``hand``, after the actions taken so far in this hand.

    :raises BotError: if a bot answers with an action that is not legal for it.
    """
    key = seat_key if seat_key is not None else range(len(bots))
    race_seed = race.getrandbits(64) if isinstance(race, random.Random) else race
    seats = range(len(bots))
    taken_here = 0
    while True:
        st = state()
        while window_open(st):
            taken = first_reaction(seats, race_seed, hand, taken_here, functools.partial(_reaction, st, bots))
            if taken is None:
                break
            seat, aid = taken
            if ACTION_KIND[aid] == KIND_CATCH:
                tally.caught[key[ACTION_ARG[aid]]] += 1
            do(seat, aid)
            tally.actions += 1
            taken_here += 1
            st = state()
        if st.phase >= PHASE_HAND_OVER:
            return
        seat = st.current
        v = view(st, seat)
        t0 = time.perf_counter()
        aid = bots[seat].act(v)
        tally.think[key[seat]] += time.perf_counter() - t0
        tally.decisions[key[seat]] += 1
        if aid not in v.legal:
            raise BotError(f"bot {bots[seat].name} at seat {seat} chose {_text(aid)}, not legal now")
        do(seat, aid)
        tally.actions += 1
        taken_here += 1
        if tally.actions > HAND_ACTION_CAP:
            raise BotError(f"a hand went on for more than {HAND_ACTION_CAP} actions")


def play_state(
    st: State, bots: Sequence[Bot], race: int | random.Random, tally: Tally | None = None, hand: int = 0
) -> Tally:
    """Play the hand ``st`` (a state the caller owns, changed in place) to its end with
    :func:`play_hand` (``race`` and ``hand`` as there); its counts."""
    tally = tally if tally is not None else Tally.empty(st.n)

    def do(seat: int, aid: int) -> None:
        step(st, seat, aid)

    play_hand(lambda: st, do, bots, race, tally, hand=hand)
    return tally
