"""The store's writes of the connect phase on SQLite, made by the moves' writer: a room made,
a seat taken (:meth:`~unotable.web.groupcommit.GroupCommit.run` runs them on its own thread and
connection, in one transaction with the others queued with it).

Why (issue 31, 2026-12-04): SQLite writes one transaction at a time, so every transaction of the
process that writes holds the store's lock (:attr:`~unotable.web.storage.Store.writes`). Made
in the store's threads with SQLAlchemy, a room's or a seat's transaction held it for 3.4 ms at
the median (8.8 ms at p90), most of it Python waiting for the GIL the busy event loop held; with
1,000 rooms being made and joined (3,000 such transactions in 26 s) the lock was held over half
of the time, the moves' writer waited behind it, and every room's action with it (p50 25-50 ms
while rooms were made, 5 ms after). Here the writer makes them in plain SQL after each batch of
moves (at most :data:`~unotable.web.groupcommit.JOBS_A_ROUND` a round, so the moves that come
meanwhile wait behind a few of them only): nobody waits for a lock, and a few rooms share one
commit.

A job's first statement is the one a duplicate refuses (a room's code), so a refused job has
written nothing; the writer needs no savepoint a job (each statement is a trip of the GIL
from the writer to the busy event loop and back), and if a later statement fails it rolls the
whole transaction back and makes the other jobs again without it.

The statements write what SQLAlchemy's models (:mod:`~unotable.web.schema`) would: times as
SQLAlchemy stores them on SQLite, booleans as 0 and 1. tests/web/test_storage.py reads rooms
and seats written this way back through the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from unotable.web.records import StoredSeat


def stamp(when: datetime) -> str:
    """A time as SQLAlchemy's ``DateTime`` stores it on SQLite (UTC, no zone)."""
    return when.strftime("%Y-%m-%d %H:%M:%S.%f")


def create_room(
    cur: Any,
    code: str,
    settings: str,
    seats: Sequence[StoredSeat],
    rules: str,
    players: int,
    rounds: int,
    seed: int,
    listed: bool,
    creator: str | None,
    now: datetime,
    lease: None = None,
) -> int:
    """The room's row, its seats (one statement), who sits in them and its first
    game; the game's id (as :meth:`~unotable.web.storage.Store.create_room`; no ``lease``:
    one server alone).

    :raises sqlite3.IntegrityError: if the code is taken.
    """
    when = stamp(now)
    cur.execute(
        "INSERT INTO rooms (code, created_at, settings, game_number, listed, active_at, creator) "
        "VALUES (?, ?, ?, 0, ?, ?, ?)",
        (code, when, settings, int(listed), when, creator),
    )
    if seats:  # one statement for every seat (the driver gives the GIL up around each)
        cur.execute(
            "INSERT INTO seats (room_code, player, bot, name, token_hash, color, rejoin_hash, code_hash) "
            "VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(seats)),
            [
                x
                for s in seats
                for x in (code, s.player, s.bot, s.name, s.token_hash, s.color, s.rejoin_hash, s.code_hash)
            ],
        )
    sitting = [(code, s.player, s.name, s.bot) for s in seats if s.bot is not None or s.name is not None]
    if sitting:
        cur.execute(
            "INSERT INTO occupants (room_code, player, game_number, seq, name, bot) VALUES "
            + ", ".join(["(?, ?, 0, 0, ?, ?)"] * len(sitting)),
            [x for row in sitting for x in row],
        )
    cur.execute(
        "INSERT INTO games (room_code, number, rules, players, rounds, seed, finished, created_at) "
        "VALUES (?, 0, ?, ?, ?, ?, 0, ?)",
        (code, rules, players, rounds, str(seed), when),
    )
    return int(cur.lastrowid)


def take_seat(
    cur: Any,
    code: str,
    player: int,
    name: str,
    token_hash: str,
    color: str | None,
    rejoin_hash: str | None,
    code_hash: str | None,
    address: str | None,
    since: tuple[int, int] | None,
    now: datetime,
    fence: None = None,
) -> bool:
    """Give a free person's seat to ``name``; False if it is not free (as
    :meth:`~unotable.web.storage.Store.take_seat`; no ``fence``: one server alone)."""
    cur.execute(
        "UPDATE seats SET name = ?, token_hash = ?, color = ?, rejoin_hash = ?, code_hash = ?, address = ? "
        "WHERE room_code = ? AND player = ? AND bot IS NULL AND token_hash IS NULL",
        (name, token_hash, color, rejoin_hash, code_hash, address, code, player),
    )
    if cur.rowcount != 1:
        return False
    if since is not None:
        cur.execute(
            "INSERT INTO occupants (room_code, player, game_number, seq, name, bot) "
            "VALUES (?, ?, ?, ?, ?, NULL)",
            (code, player, since[0], since[1], name),
        )
    cur.execute(
        "UPDATE rooms SET active_at = ?, host = COALESCE(host, ?) WHERE code = ?",
        (stamp(now), player, code),
    )
    return True


__all__ = ["create_room", "stamp", "take_seat"]
