"""The store's writes of the connect phase on PostgreSQL, made by the moves' writer: a room made
(with its lease, in a cluster), a seat taken, each in one statement (:meth:`~unotable.web.
groupcommit.GroupCommit.run` runs them on its own thread and connection, in one transaction with
the others queued with it), as web/sqlitewrites.py makes them on SQLite.

Why (issue 31, 2026-12-04): made in the store's threads through SQLAlchemy, a room took 22 trips
to the database (four transactions: the room, its lease, each of its two seats; a ``BEGIN``, the
statements and a ``COMMIT`` each), every trip giving the GIL up and waiting to take it back from
the busy event loop. While 1,000 rooms were made and joined, the connect phase lasted 20-25 s and
the moves' writer, competing for the GIL with those threads, took 3.5-4.2 ms a batch at the
median (1.3-1.5 ms after): p99 58-135 ms over the whole run. Here a room is one statement of
data-modifying ``WITH`` clauses (PostgreSQL checks the foreign keys at the statement's end, when
the room's row is there), a seat one more, and a few of them share a commit.

Each function executes its one statement and returns how to read its answer: the writer sends a
round's jobs together, between ``BEGIN`` and ``COMMIT``, in one trip to the server (psycopg's
pipeline), and reads the answers once it is back. PostgreSQL aborts a transaction at its first
failed statement: the writer rolls it back and sends the others again without the job that failed
(:meth:`~unotable.web.groupcommit.GroupCommit._run_pg_jobs`). tests/web/test_storage.py reads rooms
and seats written this way back through the store and compares their rows with SQLAlchemy's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from unotable.web.records import StoredSeat

CREATE_ROOM: Final = (
    "WITH room AS ("
    "INSERT INTO rooms (code, created_at, settings, game_number, listed, active_at, creator) "
    "VALUES (%(code)s, %(now)s, %(settings)s, 0, %(listed)s, %(now)s, %(creator)s) RETURNING code), "
    "seat AS (INSERT INTO seats (room_code, player, bot, name, token_hash, color, rejoin_hash, code_hash) "
    "SELECT room.code, s.player, s.bot, s.name, s.token_hash, s.color, s.rejoin_hash, s.code_hash "
    "FROM room, unnest(%(players)s::integer[], %(bots)s::text[], %(names)s::text[], %(tokens)s::text[], "
    "%(colors)s::text[], %(rejoins)s::text[], %(codes)s::text[]) "
    "AS s(player, bot, name, token_hash, color, rejoin_hash, code_hash)), "
    "sitting AS (INSERT INTO occupants (room_code, player, game_number, seq, name, bot) "
    "SELECT room.code, s.player, 0, 0, s.name, s.bot "
    "FROM room, unnest(%(players)s::integer[], %(bots)s::text[], %(names)s::text[]) AS s(player, bot, name) "
    "WHERE s.bot IS NOT NULL OR s.name IS NOT NULL)"
    "{lease} "
    "INSERT INTO games (room_code, number, rules, players, rounds, seed, finished, created_at) "
    "SELECT room.code, 0, %(rules)s, %(seats)s, %(rounds)s, %(seed)s, false, %(now)s FROM room RETURNING id"
)
"""A room: its row, its seats, who sits in them, its first game (and its lease)."""
LEASE: Final = (
    ", lease AS (INSERT INTO room_leases (code, node, fence, expires_at) "
    "SELECT room.code, %(node)s, 1, now() + make_interval(secs => %(ttl)s) FROM room)"
)
"""In a cluster: the new room's lease, this node's, fencing number 1."""
LEASE_ALONE: Final = (
    "INSERT INTO room_leases (code, node, fence, expires_at) "
    "VALUES (:code, :node, 1, now() + make_interval(secs => :ttl))"
)
"""The same alone, for SQLAlchemy's ``text`` (a room made without the writer, or made before:
:meth:`~unotable.web.cluster.Cluster.create`)."""
TAKE_SEAT: Final = (
    "WITH {lease}"
    "seat AS (UPDATE seats SET name = %(name)s, token_hash = %(token)s, color = %(color)s, "
    "rejoin_hash = %(rejoin)s, code_hash = %(code_hash)s, address = %(address)s "
    "WHERE room_code = %(code)s AND player = %(player)s AND bot IS NULL AND token_hash IS NULL{held} "
    "RETURNING player), "
    "sitting AS (INSERT INTO occupants (room_code, player, game_number, seq, name, bot) "
    "SELECT %(code)s, seat.player, %(game)s, %(seq)s, %(name)s, NULL FROM seat WHERE %(since)s), "
    "room AS (UPDATE rooms SET active_at = %(now)s, host = COALESCE(host, %(player)s) "
    "WHERE code = %(code)s AND EXISTS (SELECT 1 FROM seat)) "
    "SELECT {ours}, EXISTS (SELECT 1 FROM seat)"
)
"""A person's seat taken (and the room's history and host with it), if free: (whether the lease
is still this node's, whether the seat was taken)."""
FENCE: Final = (
    "lease AS MATERIALIZED (SELECT 1 FROM room_leases "
    "WHERE code = %(code)s AND node = %(node)s AND fence = %(fence)s FOR SHARE), "
)
"""In a cluster: the room's lease row, locked until the commit, if it is still this node's with
this fencing number (as :data:`~unotable.web.storage.FENCED_APPEND` checks a log row)."""


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
    lease: tuple[str, float] | None = None,
) -> Callable[[], int]:
    """The room, as :meth:`~unotable.web.storage.Store.create_room` makes it, in one statement;
    how to read the game's id. ``lease``: this node's name and the lease's seconds (a cluster).

    :raises psycopg.errors.UniqueViolation: if the code is taken.
    """
    cur.execute(
        CREATE_ROOM.format(lease=LEASE if lease is not None else ""),
        {
            "code": code,
            "now": now,
            "settings": settings,
            "listed": listed,
            "creator": creator,
            "players": [s.player for s in seats],
            "bots": [s.bot for s in seats],
            "names": [s.name for s in seats],
            "tokens": [s.token_hash for s in seats],
            "colors": [s.color for s in seats],
            "rejoins": [s.rejoin_hash for s in seats],
            "codes": [s.code_hash for s in seats],
            "rules": rules,
            "seats": players,
            "rounds": rounds,
            "seed": str(seed),
            "node": lease[0] if lease is not None else None,
            "ttl": lease[1] if lease is not None else None,
        },
    )
    return lambda: int(cur.fetchone()[0])


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
    fence: tuple[str, int] | None = None,
) -> Callable[[], bool | None]:
    """Give a free person's seat to ``name`` in one statement; how to read whether it was free
    (as :meth:`~unotable.web.storage.Store.take_seat`), or ``None`` if ``fence`` (this node's
    name and the room's fencing number, in a cluster) no longer holds the room (nothing
    changed)."""
    cur.execute(
        TAKE_SEAT.format(
            lease=FENCE if fence is not None else "",
            held=" AND EXISTS (SELECT 1 FROM lease)" if fence is not None else "",
            ours="EXISTS (SELECT 1 FROM lease)" if fence is not None else "true",
        ),
        {
            "code": code,
            "player": player,
            "name": name,
            "token": token_hash,
            "color": color,
            "rejoin": rejoin_hash,
            "code_hash": code_hash,
            "address": address,
            "since": since is not None,
            "game": since[0] if since is not None else 0,
            "seq": since[1] if since is not None else 0,
            "now": now,
            "node": fence[0] if fence is not None else None,
            "fence": fence[1] if fence is not None else None,
        },
    )

    def read() -> bool | None:
        ours, took = cur.fetchone()
        return bool(took) if ours else None

    return read


__all__ = ["CREATE_ROOM", "FENCE", "LEASE", "LEASE_ALONE", "TAKE_SEAT", "create_room", "take_seat"]
