"""What the store reads back and is given (:mod:`~unotable.web.storage`): a seat, an occupant
of a seat, a seat's secrets, a game, a room, a room in the lobby's list. Plain frozen records,
no database in them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class StoredSeat:
    """A seat as stored."""

    player: int
    bot: str | None
    name: str | None
    token_hash: str | None
    color: str | None = None
    rejoin_hash: str | None = None
    code_hash: str | None = None


@dataclass(frozen=True)
class StoredOccupant:
    """Who sat in seat ``player`` from game ``game``'s log length ``seq`` on: a person
    (``name``), a bot (``bot``), or nobody (both ``None``: a free seat)."""

    player: int
    game: int
    seq: int
    name: str | None
    bot: str | None


@dataclass(frozen=True)
class Secrets:
    """What the database keeps of a person's keys to a seat: the hashes of the token, of the
    rejoin link's secret and of the short rejoin code."""

    token_hash: str
    rejoin_hash: str | None = None
    code_hash: str | None = None


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: enough to replay it."""

    id: int
    number: int
    rules: dict[str, Any]
    players: int
    rounds: int
    seed: int
    finished: bool
    log: tuple[tuple[str | None, str], ...]
    """(seat, action) per row, in order."""


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored, with its current game."""

    code: str
    settings: dict[str, Any]
    game_number: int
    seats: tuple[StoredSeat, ...]
    game: StoredGame
    host: int | None = None
    created: datetime | None = None
    occupants: tuple[StoredOccupant, ...] = ()
    """Who sat where from when, oldest first (empty for a room stored before issue 34)."""


@dataclass(frozen=True)
class ListedRoom:
    """A listed room whose game goes on, as the list of open rooms shows it."""

    code: str
    settings: dict[str, Any]
    seats: tuple[StoredSeat, ...]
    host: int | None
    created: datetime
