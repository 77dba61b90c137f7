"""Where each hand of a game is played and dealt from (docs/rules.md §9-10): the seed of every
hand (:func:`hand_seed`, P-19) and the schedules of the modes played by rounds of partnerships
(``rotating-partners``, ``two-tables``: :func:`round_robin`, :func:`table_schedule`,
:func:`scheduled_deal`, P-20, P-22).

Part of the rules core (standard library only); :mod:`unotable.match` plays games with it and
re-exports every name.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

from unotable.errors import ConfigError

HANDS_PER_PARTNERSHIP: Final = 4
"""Hands each pair of partners plays together in the scheduled modes (RULES §10)."""
TABLE_SIZE: Final = 4
"""Players at a table in the scheduled modes."""
SCHEDULED_MODES: Final = ("rotating-partners", "two-tables")
"""Modes played to a fixed schedule of partnerships rather than to a target."""
GAME_PLAYERS: Final[dict[str, int]] = {"rotating-partners": 4, "two-tables": 8}
"""Players in the whole game, for the scheduled modes (any other mode: ``rules.players``)."""


def hand_seed(seed: int, hand: int) -> int:
    """The seed of hand number ``hand`` (from 0) of a game seeded ``seed`` (P-19).

    The first 8 bytes, big-endian, of the BLAKE2b hash of ``"SEED:HAND"``: every hand is dealt
    from a fresh shuffle, and any integer seed, negative or large, gives distinct hands.
    """
    digest = hashlib.blake2b(
        f"{seed}:{hand}".encode("ascii"), digest_size=8, person=b"unotable-hand"
    ).digest()
    return int.from_bytes(digest, "big")


def round_robin(players: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A 1-factorization of the complete graph on ``players`` (the circle method).

    ``players - 1`` rounds, each a list of ``players / 2`` disjoint pairs ``(a, b)`` with
    ``a < b``; every pair of players is in exactly one round. Player ``players - 1`` stays put
    while the others turn around the circle.

    :raises ConfigError: if ``players`` is not an even number of at least 2.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 2 or players % 2:
        raise ConfigError(f"a round robin of partners needs an even number of players, not {players!r}")
    m = players - 1
    rounds: list[tuple[tuple[int, int], ...]] = []
    for r in range(m):
        pairs = [(r, m)]
        for i in range(1, players // 2):
            a, b = (r + i) % m, (r - i) % m
            pairs.append((min(a, b), max(a, b)))
        rounds.append(tuple(pairs))
    return tuple(rounds)


def table_schedule(players: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Rounds of tables of four for a game of partners that rotate (RULES §10).

    ``schedule[r][t]`` is the seating of table ``t`` in round ``r``: the player in each seat,
    the two pairs of partners across (seats 0 and 2, seats 1 and 3). The pairs of each round
    come from :func:`round_robin`, two to a table in order, so every pair of players is
    partnered in exactly one round and every player sits at exactly one table per round.

    :raises ConfigError: if ``players`` is not a positive multiple of 4.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 4 or players % 4:
        raise ConfigError(f"tables of four partners need a multiple of 4 players, not {players!r}")
    schedule: list[tuple[tuple[int, ...], ...]] = []
    for pairs in round_robin(players):
        tables: list[tuple[int, ...]] = []
        for t in range(players // TABLE_SIZE):
            (a, b), (c, d) = sorted(pairs[2 * t : 2 * t + 2])
            tables.append((a, c, b, d))
        schedule.append(tuple(tables))
    return tuple(schedule)


@dataclass(frozen=True)
class Deal:
    """Where one hand of a game is played, and by whom."""

    hand: int
    """The hand's number in the game, from 0."""
    table: int
    """The table: 0, or 0 and 1 in ``two-tables``."""
    round: int
    """Scheduled modes: the schedule round, counted across repeated rounds (else 0)."""
    block_hand: int
    """Scheduled modes: the hand's number (0-3) among the four of its partnership (else 0)."""
    seating: tuple[int, ...]
    """The player in each seat."""

    def seat_of(self, player: int) -> int | None:
        """The seat of ``player`` at this hand's table, or ``None`` if they do not play in it."""
        try:
            return self.seating.index(player)
        except ValueError:
            return None


def scheduled_deal(players: int, hand: int) -> Deal:
    """Hand number ``hand`` of a scheduled game (``rotating-partners``: 4 players,
    ``two-tables``: 8) (P-20, P-22).

    Each round of :func:`table_schedule` is four hands at each of its tables; the tables take
    turns within a round (hand 1 at table 0, hand 1 at table 1, hand 2 at table 0, ...). After
    the last round the schedule starts again (the ``rounds`` parameter).
    """
    schedule = _schedule(players)
    tables = players // TABLE_SIZE
    per_round = HANDS_PER_PARTNERSHIP * tables
    rnd, within = divmod(hand, per_round)
    block_hand, table = divmod(within, tables)
    return Deal(hand, table, rnd, block_hand, schedule[rnd % len(schedule)][table])


_SCHEDULES: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}


def _schedule(players: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    s = _SCHEDULES.get(players)
    if s is None:
        s = _SCHEDULES[players] = table_schedule(players)
    return s


__all__ = [
    "GAME_PLAYERS",
    "HANDS_PER_PARTNERSHIP",
    "SCHEDULED_MODES",
    "TABLE_SIZE",
    "Deal",
    "hand_seed",
    "round_robin",
    "scheduled_deal",
    "table_schedule",
]
