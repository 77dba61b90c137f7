"""Rooms read back from the database (:meth:`~unotable.web.storage.Store.load_rooms`): four
plain SELECTs however many rooms (a reconnect storm asks for hundreds at once)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from unotable.web.records import StoredGame, StoredOccupant, StoredRoom, StoredSeat
from unotable.web.schema import ActionRow, GameRow, OccupantRow, RoomRow, SeatRow


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
    seats: dict[str, list[StoredSeat]] = {r.code: [] for r in rooms}
    for r in conn.execute(
        select(
            SeatRow.room_code,
            SeatRow.player,
            SeatRow.bot,
            SeatRow.name,
            SeatRow.token_hash,
            SeatRow.color,
            SeatRow.rejoin_hash,
            SeatRow.code_hash,
        )
        .where(SeatRow.room_code.in_(list(seats)))
        .order_by(SeatRow.room_code, SeatRow.player)
    ):
        seats[r[0]].append(StoredSeat(*r[1:]))
    logs: dict[int, list[tuple[str | None, str]]] = {r[5]: [] for r in rooms}
    for game_id, seat, action in conn.execute(
        select(ActionRow.game_id, ActionRow.seat, ActionRow.action)
        .where(ActionRow.game_id.in_(list(logs)))
        .order_by(ActionRow.game_id, ActionRow.seq)
    ):
        logs[game_id].append((seat, action))
    occupants: dict[str, list[StoredOccupant]] = {r.code: [] for r in rooms}
    for r in conn.execute(
        select(
            OccupantRow.room_code,
            OccupantRow.player,
            OccupantRow.game_number,
            OccupantRow.seq,
            OccupantRow.name,
            OccupantRow.bot,
        )
        .where(OccupantRow.room_code.in_(list(occupants)))
        .order_by(OccupantRow.room_code, OccupantRow.id)
    ):
        occupants[r[0]].append(StoredOccupant(*r[1:]))
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


__all__ = ["read_rooms"]
