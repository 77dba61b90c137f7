"""The driver of one hand between bots: the bot table (:mod:`unotable.bots.table`) races its
bots for an open window, then the phase's player's bot acts; this module counts what they do."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from unotable.bots import Bot
from unotable.bots.table import OUT_OF_TURN_KINDS, BotError, BotTable
from unotable.engine import step
from unotable.notation import ACTION_ARG, ACTION_KIND, KIND_CATCH
from unotable.state import PHASE_HAND_OVER, State
from unotable.views import View

OUT_OF_TURN: Final = OUT_OF_TURN_KINDS
"""Kinds of action a seat takes out of turn, when a window is open (and a play, by a seat whose
turn it is not: a jump-in): the bot table's (:data:`unotable.bots.table.OUT_OF_TURN_KINDS`)."""
HAND_ACTION_CAP: Final = 200_000
"""A hand still going after this many actions is an error (bots that never end it)."""


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


def play_hand(
    state: Callable[[], State],
    do: Callable[[int, int], None],
    table: BotTable,
    seating: Sequence[int],
    tally: Tally,
    hand: int = 0,
    view_of: Callable[[int], View] | None = None,
) -> None:
    """Play the hand ``state()`` to its end between the bots of ``table``, which plays every
    seat (seat ``s`` is player ``seating[s]``): while a window is open, the table's race
    (:meth:`BotTable.reaction_at`), then the phase's player's bot (:meth:`BotTable.act_at`),
    each decision seeded by the table's rule for hand number ``hand`` of its game and the
    actions taken so far in the hand. ``do(player, action)`` applies an action; counts go to
    ``tally`` by player. ``view_of(seat)``, when given, makes a seat's view of ``state()``.

    :raises BotError: if a bot answers with an action that is not legal for it.
    """
    k = 0
    while True:
        st = state()
        while (move := table.reaction_at(st, seating, hand, k, view_of)) is not None:
            aid = move.action
            if ACTION_KIND[aid] == KIND_CATCH:
                tally.caught[seating[ACTION_ARG[aid]]] += 1
            do(move.player, aid)
            tally.actions += 1
            k += 1
            st = state()
        if st.phase >= PHASE_HAND_OVER:
            return
        t0 = time.perf_counter()
        move = table.act_at(st, seating, hand, k, view_of)
        spent = time.perf_counter() - t0
        if move is None:
            raise BotError(f"no bot plays seat {st.current}")
        tally.think[move.player] += spent
        tally.decisions[move.player] += 1
        do(move.player, move.action)
        tally.actions += 1
        k += 1
        if tally.actions > HAND_ACTION_CAP:
            raise BotError(f"a hand went on for more than {HAND_ACTION_CAP} actions")


def play_state(
    st: State,
    bots: Sequence[Bot] | BotTable,
    seed: int | random.Random = 0,
    tally: Tally | None = None,
    hand: int = 0,
) -> Tally:
    """Play the hand ``st`` (a state the caller owns, changed in place) to its end with
    :func:`play_hand` (``hand`` as there); its counts by seat. ``bots``: a table whose players
    are the seats, or a bot per seat, seated at a table whose seed is ``seed`` (or drawn from
    it, a generator)."""
    tally = tally if tally is not None else Tally.empty(st.n)
    if not isinstance(bots, BotTable):
        table_seed = seed.getrandbits(64) if isinstance(seed, random.Random) else seed
        bots = BotTable(dict(enumerate(bots)), table_seed)
    table = bots

    def do(seat: int, aid: int) -> None:
        step(st, seat, aid)

    play_hand(lambda: st, do, table, range(st.n), tally, hand)
    return tally


__all__ = ["HAND_ACTION_CAP", "OUT_OF_TURN", "BotError", "Tally", "play_hand", "play_state"]
