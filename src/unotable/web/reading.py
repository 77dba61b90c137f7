"""Rooms read back from the database (:meth:`~unotable.web.storage.Store.load_rooms`): four
plain SELECTs however many rooms (a reconnect storm asks for hundreds at once)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import select

from unotable.web.records import StoredGame, StoredOccupant, StoredRoom, StoredSeat
from unotable.web.schema import ActionRow, GameRow, OccupantRow, RoomRow, SeatRow

K = TypeVar("K")
V = TypeVar("V")


def read_rooms(conn: Any, codes: list[str]) -> dict[str, StoredRoom]:
    """The rooms ``codes`` that exist, each with its seats and current game, by code, read on
    ``conn`` (a SQLAlchemy connection in a transaction)."""
    rooms = conn.execute(
        select(
            RoomRow.code,
            RoomRow.settings,
            RoomRow.game_number,
            RoomRow.host,
            RoomRow.created_at,
            GameRow.id,
            GameRow.rules,
            GameRow.players,
            GameRow.rounds,
            GameRow.seed,
            GameRow.finished,
        )
        .join(GameRow, (GameRow.room_code == RoomRow.code) & (GameRow.number == RoomRow.game_number))
        .where(RoomRow.code.in_(codes))
    ).all()
    if not rooms:
        return {}
    seats = _grouped(
        conn,
        [r.code for r in rooms],
        SeatRow.room_code,
        (
            SeatRow.player,
            SeatRow.bot,
            SeatRow.name,
            SeatRow.token_hash,
            SeatRow.color,
            SeatRow.rejoin_hash,
            SeatRow.code_hash,
        ),
        SeatRow.player,
        StoredSeat,
    )
    logs = _grouped(
        conn,
        [r[5] for r in rooms],
        ActionRow.game_id,
        (ActionRow.seat, ActionRow.action),
        ActionRow.seq,
        _pair,
    )
    occupants = _grouped(
        conn,
        [r.code for r in rooms],
        OccupantRow.room_code,
        (OccupantRow.player, OccupantRow.game_number, OccupantRow.seq, OccupantRow.name, OccupantRow.bot),
        OccupantRow.id,
        StoredOccupant,
    )
    out: dict[str, StoredRoom] = {}
    for code, settings, number, host, created, game_id, rules, players, rounds, seed, finished in rooms:
        game = StoredGame(
            game_id, number, json.loads(rules), players, rounds, int(seed), finished, tuple(logs[game_id])
        )
        out[code] = StoredRoom(
            code,
            json.loads(settings),
            number,
            tuple(seats[code]),
            game,
            host,
            created,
            tuple(occupants[code]),
        )
    return out


def _pair(seat: str | None, action: str) -> tuple[str | None, str]:
    return (seat, action)


def _grouped(
    conn: Any, keys: list[K], key: Any, columns: tuple[Any, ...], order: Any, make: Callable[..., V]
) -> dict[K, list[V]]:
    """The rows of ``columns`` whose ``key`` is one of ``keys``, ordered by ``order``, each made
    into ``make(*row)``, by key (every key present, its list empty if it has no row)."""
    out: dict[K, list[V]] = {k: [] for k in keys}
    for r in conn.execute(select(key, *columns).where(key.in_(list(out))).order_by(key, order)):
        out[r[0]].append(make(*r[1:]))
    return out


__all__ = ["read_rooms"]
