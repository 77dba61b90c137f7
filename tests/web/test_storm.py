"""A reconnect storm: hundreds of rooms asked for at once after a restart are read from the
database in a few batches, each room once, and every caller gets its own room; and a restarted
server loads the rooms live before it in the background, ready meanwhile."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient

from unotable.web.app import create_app
from unotable.web.hub import LOAD_BATCH, Hub
from unotable.web.lifecycle import Lifecycle
from unotable.web.records import StoredRoom, StoredSeat
from unotable.web.room import Room
from unotable.web.schema import RoomRow
from unotable.web.seats import CODE_ALPHABET
from unotable.web.settings import RoomSettings, SettingsError, parse_settings
from unotable.web.storage import DEAL, Store

ROOMS = 300


def _code(n: int) -> str:
    return f"STRM{CODE_ALPHABET[n // 32 % 32]}{CODE_ALPHABET[n % 32]}XZ"


def _stored(store: Store, rooms: int, first: int = 0) -> list[int]:
    """``rooms`` rooms of two people's seats, the first taken by ``P<n>``, as a stopped server
    left them (numbered from ``first``); their games' ids."""
    settings = parse_settings({"players": 2, "seats": ["human", "human"], "bot_delay": 0})
    seats = [StoredSeat(p, label, None, None) for p, label in enumerate(settings.seats)]
    ids = []
    for n in range(first, first + rooms):
        code = _code(n)
        ids.append(
            store.create_room(
                code, settings.to_dict(), seats, settings.rules.to_dict(), 2, settings.rounds, 1000 + n
            )
        )
        assert store.take_seat(code, 0, f"P{n}", f"{n:064d}")
    return ids


def _idle_since(store: Store, codes: list[str], when: datetime) -> None:
    with store.engine.begin() as conn:
        conn.execute(update(RoomRow).where(RoomRow.code.in_(codes)).values(active_at=when))


def test_load_rooms_reads_each_rooms_own_seats_and_log(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    games = {}
    for n in range(5):
        games[n] = store.create_room(
            _code(n), {"n": n}, [StoredSeat(0, None, None, None)], {"players": 2}, 2, 1, 7 + n
        )
    for n in (3, 1, 4):  # interleaved: each row goes to its own game's log, in order
        store.append(games[n], 0, "0", f"a{n}")
    for n in (1, 3):
        store.append(games[n], 1, None, DEAL)
    got = store.load_rooms([_code(n) for n in range(5)] + ["NSUCHXXZ"])
    assert sorted(got) == [_code(n) for n in range(5)]
    for n in range(5):
        room = got[_code(n)]
        assert room.code == _code(n) and room.settings == {"n": n} and room.game.seed == 7 + n
        assert room.game.id == games[n] and room.seats == (StoredSeat(0, None, None, None),)
    assert got[_code(0)].game.log == () and got[_code(2)].game.log == ()
    assert got[_code(4)].game.log == (("0", "a4"),)
    assert got[_code(1)].game.log == (("0", "a1"), (None, DEAL))
    assert got[_code(3)].game.log == (("0", "a3"), (None, DEAL))
    assert store.load_room(_code(2)) == got[_code(2)] and store.load_room("NSUCHXXZ") is None
    store.close()


def test_a_storm_of_gets_reads_each_room_once_in_batches_and_each_caller_gets_its_own(
    db_url: str,
) -> None:
    store = Store(db_url, "normal")
    store.migrate()
    _stored(store, ROOMS)
    read: list[list[str]] = []
    load = store.load_rooms

    def counted(codes: Collection[str]) -> dict[str, StoredRoom]:
        read.append(list(codes))
        return load(codes)

    store.load_rooms = counted  # type: ignore[method-assign]

    async def storm() -> list[tuple[str, Room | None]]:
        hub = Hub(store)
        asks = [_code(n) for n in range(ROOMS)] * 2 + ["NSUCHXXZ"] * 3  # both seats of every room
        random.Random(31).shuffle(asks)
        rooms = await asyncio.gather(*(hub.get(code) for code in asks))
        assert hub.loads == ROOMS + 1 and len(hub.rooms) == ROOMS
        await hub.close()
        return list(zip(asks, rooms, strict=True))

    got = asyncio.run(storm())
    for code, room in got:
        if code == "NSUCHXXZ":
            assert room is None
            continue
        assert room is not None and room.code == code
        n = CODE_ALPHABET.index(code[4]) * 32 + CODE_ALPHABET.index(code[5])
        assert room.seats[0].name == f"P{n}" and room.seats[1].name is None
    flat = [code for codes in read for code in codes]
    assert sorted(flat) == sorted({code for code, _ in got})  # each room read once
    assert all(len(codes) <= LOAD_BATCH for codes in read)
    assert len(read) <= ROOMS // 10  # a few reads of many rooms, not one a room
    store.close()


def test_stored_settings_are_checked_once_per_value_and_bad_ones_still_refused() -> None:
    made = parse_settings({"players": 2, "seats": ["human", "greedy"], "bot_delay": 0}).to_dict()
    first = RoomSettings.from_dict(made)
    again = RoomSettings.from_dict(json.loads(json.dumps(made)))  # equal, read again
    assert again is first and first.to_dict() == made  # one check and one object for both
    other = RoomSettings.from_dict({**made, "turn_seconds": 30})
    assert other is not first and other.turn_seconds == 30 and first.turn_seconds == 0
    bad: dict[str, Any]
    for bad in ({**made, "seats": []}, {**made, "rules": {"edition": "nope"}}, {"rules": {}}):
        for _ in range(2):  # a refusal is not kept as an answer
            with pytest.raises(SettingsError):
                RoomSettings.from_dict(bad)


def test_recent_rooms_are_the_unfinished_ones_active_lately_latest_first(db_url: str) -> None:
    store = Store(db_url, "normal")
    store.migrate()
    ids = _stored(store, 6)
    now = datetime.now(UTC)
    _idle_since(store, [_code(n) for n in range(4)], now - timedelta(hours=2))
    _idle_since(store, [_code(4)], now - timedelta(minutes=1))
    store.append(ids[1], 0, "0", "draw")  # idle since long ago, but a move just now: active
    store.finish(ids[5])  # active now, but its game is over
    since = now - timedelta(minutes=10)
    assert store.recent_rooms(since, 10) == [_code(4), _code(1)]  # the room made or left last first
    assert store.recent_rooms(since, 1) == [_code(4)]
    assert store.recent_rooms(now + timedelta(minutes=1), 10) == []
    store.close()


def test_a_restarted_server_loads_the_rooms_live_before_in_the_background_ready_meanwhile(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rooms active within the unload time and unfinished are loaded after the start, in
    reads of at most :data:`LOAD_BATCH` rooms, one at a time; ``/readyz`` answers while the
    first read is held up; the rooms idle for longer are not loaded."""
    live = LOAD_BATCH * 2 + 10
    store = Store(sqlite_url, "normal")
    store.migrate()
    _stored(store, live)
    _stored(store, 5, first=live)
    _idle_since(store, [_code(n) for n in range(live, live + 5)], datetime.now(UTC) - timedelta(hours=1))
    store.close()
    gate = threading.Event()
    reads: list[int] = []
    at_once = [0, 0]
    load = Store.load_rooms

    def held(self: Store, codes: Collection[str]) -> dict[str, StoredRoom]:
        reads.append(len(codes))
        at_once[0] += 1
        at_once[1] = max(at_once)
        try:
            assert gate.wait(30)
            return load(self, codes)
        finally:
            at_once[0] -= 1

    monkeypatch.setattr(Store, "load_rooms", held)
    with TestClient(create_app(sqlite_url, lifecycle=Lifecycle(unload=600))) as c:
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while not reads:  # the first read has begun, and waits
            assert time.monotonic() < deadline
            time.sleep(0.01)
        ready = c.get("/readyz")
        assert ready.status_code == 200 and hub.warmed == 0  # ready before any room is loaded
        gate.set()
        while hub.warmed < live:
            assert time.monotonic() < deadline, (hub.warmed, reads)
            time.sleep(0.02)
        assert sorted(hub.rooms) == sorted(_code(n) for n in range(live))
        assert all(room.paused for room in hub.rooms.values())
        assert sum(reads) == live and max(reads) <= LOAD_BATCH and at_once[1] == 1
        with c.websocket_connect(f"/ws/{_code(3)}") as ws:  # its client finds it loaded
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "welcome"
        assert hub.loads == live
