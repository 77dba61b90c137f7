"""Issue 23: the rooms' lifecycle (paused when nobody is connected, loaded lazily, expired), the
quotas per address, lookups without a global lock, replays computed once, paged and gzipped,
40-bit room codes, and clean refusals (no traceback in the log)."""

from __future__ import annotations

import asyncio
import base64
import gzip
import os
import socket
import threading
import time
from collections.abc import Collection, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update
from starlette.testclient import TestClient

from unotable.web.app import REPLAY_PAGE, create_app
from unotable.web.lifecycle import DAY, Lifecycle
from unotable.web.records import StoredSeat
from unotable.web.room import Room
from unotable.web.schema import ActionRow, GameRow, RoomRow, SeatRow
from unotable.web.seats import CODE_ALPHABET, CODE_LENGTH
from unotable.web.settings import parse_settings
from unotable.web.storage import Store

from .conftest import LiveServer
from .test_api import hub, make_room, play_out, room

SEED = 20261201
NO_QUOTAS = Lifecycle(rooms_per_address=0, seats_per_address=0, lookups_per_second=0)


def three_people(**extra: Any) -> dict[str, Any]:
    return {"players": 3, "seats": ["human", "human", "human"], "bot_delay": 0, **extra}


def four_bots(**extra: Any) -> dict[str, Any]:
    return {"players": 4, "seats": ["greedy"] * 4, "bot_delay": 0, "target": 500, **extra}


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED, lifecycle=NO_QUOTAS)) as c:
        yield c


def store_room(store: Store, code: str, settings: dict[str, Any]) -> int:
    """A room stored directly (as an earlier server left it); its game's id."""
    s = parse_settings(settings)
    seats = [StoredSeat(p, label, None, None) for p, label in enumerate(s.seats)]
    return store.create_room(
        code, s.to_dict(), seats, s.rules.to_dict(), s.players, s.rounds, SEED + len(code)
    )


def wait_until(check: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# ---- the lifecycle


def test_a_room_nobody_watches_is_paused_and_a_spectator_resumes_it(db_url: str) -> None:
    with TestClient(create_app(db_url, lifecycle=NO_QUOTAS)) as c:
        code = make_room(c, four_bots())
        for _ in range(3):  # plain GETs of the room's info never start its bots
            assert c.get(f"/api/rooms/{code}").json()["status"] == "playing"
        r = room(c, code)
        time.sleep(0.5)  # bots with no delay would have played dozens of actions by now
        assert r.seq == 0 and r.paused
        with c.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "welcome"
            assert not r.paused
            seen = 0
            while seen < 5:  # the bots play while someone watches
                m = ws.receive_json()
                seen = max(seen, m.get("seq", 0))
        wait_until(lambda: r.paused)
        # An action under way when the spectator left ends (it holds the room's lock; one not yet
        # begun finds the room changed by the leaving and does nothing).
        wait_until(lambda: not r.lock.locked())
        stopped = r.seq
        time.sleep(0.5)  # the scenario: nothing may happen, so no event to wait for
        assert r.seq == stopped  # nobody watches: nothing moves
    with TestClient(create_app(db_url, lifecycle=NO_QUOTAS)) as c:  # a restart: still paused
        assert c.get(f"/api/rooms/{code}").status_code == 200
        r = room(c, code)
        time.sleep(0.3)  # the scenario: nothing may happen, so no event to wait for
        assert r.seq == stopped


def test_the_turn_timer_waits_while_nobody_is_connected(client: TestClient) -> None:
    code = make_room(client, three_people(turn_seconds=5))
    tokens = [client.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"] for n in "ABC"]
    r = room(client, code)

    async def long_ago() -> None:  # as if the turn had waited 100 s with nobody there
        r.last_change -= 100
        r.driver.poke()

    client.portal.call(long_ago)  # type: ignore[union-attr]
    time.sleep(0.5)  # the scenario: the timer must not act, so no event to wait for
    assert r.seq == 0  # the timer did not act for the absent person
    metrics = client.get("/metrics").text
    assert "unotable_rooms_paused 1.0" in metrics
    current = r.game.current_player
    assert current is not None
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[current]})
        timer = ws.receive_json()["table"]["timer"]
        assert timer["player"] == current and timer["seconds"] > 4  # counted from the return
    assert "unotable_rooms_paused 1.0" in client.get("/metrics").text


def test_a_restart_over_1000_rooms_loads_none_until_visited(db_url: str) -> None:
    store = Store(db_url, "normal")
    store.migrate()
    start = time.perf_counter()
    codes = []
    for n in range(1000):
        code = f"{CODE_ALPHABET[n // 32 % 32]}{CODE_ALPHABET[n % 32]}RMSXYZ"
        store_room(store, code, four_bots() if n % 2 else three_people())
        codes.append(code)
    # Idle for longer than a room stays in memory: not live before the restart, so not loaded
    # in the background after it either (the rooms active lately are: tests/web/test_storm.py).
    with store.engine.begin() as conn:
        conn.execute(update(RoomRow).values(active_at=datetime.now(UTC) - timedelta(hours=1)))
    store.close()
    print(f"\n1,000 rooms stored in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    with TestClient(create_app(db_url, lifecycle=NO_QUOTAS)) as c:
        ready = c.get("/readyz")
        took = time.perf_counter() - start
        assert ready.status_code == 200
        h = hub(c)
        assert h.rooms == {} and h.loads == 0  # nothing loaded at start
        got = c.get(f"/api/rooms/{codes[501]}")
        assert got.status_code == 200 and got.json()["code"] == codes[501]
        assert list(h.rooms) == [codes[501]] and h.loads == 1
        print(
            f"start-up to /readyz: {took * 1000:.0f} ms; "
            f"first room GET: {(time.perf_counter() - start - took) * 1000:.0f} ms"
        )


def test_waiting_finished_and_idle_rooms_expire_each_on_its_time(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    store_room(store, "WAITING2", three_people())
    finished = store_room(store, "FINISHED", three_people())
    store.finish(finished)
    playing = store_room(store, "PLAYING2", four_bots())
    store.append(playing, 0, "0", "draw")
    store_room(store, "SEATED22", three_people())
    for p in range(3):
        assert store.take_seat("SEATED22", p, f"P{p}", f"{p}" * 64)
    now = datetime.now(UTC)
    life = Lifecycle()
    args = (life.waiting, life.finished, life.idle)
    assert store.expire(now + timedelta(hours=23), *args) == []
    assert store.expire(now + timedelta(hours=25), *args) == ["WAITING2"]
    assert store.expire(now + timedelta(days=6), *args) == []
    assert sorted(store.expire(now + timedelta(days=8), *args, keep={"SEATED22"})) == ["PLAYING2"]
    assert sorted(store.expire(now + timedelta(days=8), *args)) == ["SEATED22"]
    assert store.expire(now + timedelta(days=29), *args) == []
    assert store.expire(now + timedelta(days=31), *args) == ["FINISHED"]
    assert store.room_codes() == [] and store.load_room("WAITING2") is None
    with store.engine.connect() as conn:  # their seats, games and logs went with them
        for table in (SeatRow, GameRow, ActionRow):
            assert conn.execute(select(func.count()).select_from(table)).scalar() == 0
    store.close()


def test_the_hub_expires_rooms_but_not_those_people_watch(client: TestClient) -> None:
    watched, alone = make_room(client, three_people()), make_room(client, three_people())
    h = hub(client)
    later = datetime.now(UTC) + timedelta(days=2)
    with client.websocket_connect(f"/ws/{watched}") as ws:
        ws.send_json({"type": "hello", "token": None})
        ws.receive_json()
        assert client.portal.call(h.expire, later) == [alone]  # type: ignore[union-attr]
        assert alone not in h.rooms and watched in h.rooms
    assert client.get(f"/api/rooms/{alone}").status_code == 404


def test_serve_flags_set_the_lifecycle() -> None:
    import argparse  # noqa: PLC0415

    from unotable.web.serve import add_serve_arguments, lifecycle_of  # noqa: PLC0415

    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    assert lifecycle_of(parser.parse_args([])) == Lifecycle()
    args = parser.parse_args(
        [
            *("--waiting-hours", "2", "--finished-days", "1", "--idle-days", "0.5"),
            *("--unload-minutes", "1", "--rooms-per-address", "3", "--seats-per-address", "0"),
            *("--lookups-per-second", "2"),
        ]
    )
    assert lifecycle_of(args) == Lifecycle(7200, DAY, DAY / 2, 60, 3, 0, 2)


# ---- quotas and lookups


@pytest.fixture
def proxied(db_url: str) -> Iterator[LiveServer]:
    """A live server that believes 127.0.0.1's X-Forwarded-For (so tests come from many
    addresses), with the default quotas."""
    server = LiveServer(db_url, trusted="127.0.0.1", lifecycle=Lifecycle(lookups_per_second=0))
    yield server
    server.stop()


def from_address(
    server: LiveServer, address: str, method: str, path: str, body: Any = None
) -> httpx.Response:
    return httpx.request(
        method, server.http + path, json=body, headers={"X-Forwarded-For": address}, timeout=30
    )


def test_a_room_flood_from_one_address_is_capped_and_others_are_served(proxied: LiveServer) -> None:
    made: list[httpx.Response] = []
    refused: list[httpx.Response] = []
    for _ in range(25):
        r = from_address(proxied, "203.0.113.7", "POST", "/api/rooms", three_people())
        (made if r.status_code == 201 else refused).append(r)
    assert len(made) == 20 and len(refused) == 5
    assert all(r.status_code == 429 and r.json()["error"] == "too_many_rooms" for r in refused)
    assert "20" in refused[0].json()["message"]
    other = from_address(proxied, "198.51.100.2", "POST", "/api/rooms", three_people())
    assert other.status_code == 201
    assert (
        from_address(proxied, "203.0.113.7", "GET", f"/api/rooms/{made[0].json()['code']}").status_code == 200
    )


def test_seats_per_address_are_capped(db_url: str) -> None:
    server = LiveServer(
        db_url, trusted="127.0.0.1", lifecycle=Lifecycle(seats_per_address=4, lookups_per_second=0)
    )
    try:
        codes = [
            from_address(server, "192.0.2.1", "POST", "/api/rooms", three_people()).json()["code"]
            for _ in range(2)
        ]
        for n in range(4):
            r = from_address(
                server, "192.0.2.9", "POST", f"/api/rooms/{codes[n // 3]}/join", {"name": f"P{n}"}
            )
            assert r.status_code == 200, r.text
        r = from_address(server, "192.0.2.9", "POST", f"/api/rooms/{codes[1]}/join", {"name": "Five"})
        assert r.status_code == 429 and r.json()["error"] == "too_many_seats"
        r = from_address(server, "192.0.2.9", "POST", "/api/play-now", {"name": "Five"})
        assert r.status_code == 429 and r.json()["error"] == "too_many_seats"
        r = from_address(server, "192.0.2.10", "POST", f"/api/rooms/{codes[1]}/join", {"name": "Other"})
        assert r.status_code == 200
    finally:
        server.stop()


def test_lookups_are_rate_limited_per_address(sqlite_url: str) -> None:
    server = LiveServer(sqlite_url, trusted="127.0.0.1", lifecycle=Lifecycle(lookups_per_second=0.5))
    try:
        statuses = [
            from_address(server, "192.0.2.1", "GET", "/api/rooms/ZZZZZZZZ").status_code for n in range(12)
        ]
        assert statuses[:2] == [404, 404] and statuses.count(429) >= 6
        assert from_address(server, "192.0.2.1", "GET", "/api/rooms/ZZZZZZZZ/games/0").status_code == 429
        assert from_address(server, "192.0.2.2", "GET", "/api/rooms/ZZZZZZZZ").status_code == 404
    finally:
        server.stop()


def test_unknown_codes_cost_one_query_and_no_lookup_waits_on_another(client: TestClient) -> None:
    h = hub(client)
    for _ in range(20):
        assert client.get("/api/rooms/ZZZZZZZZ").status_code == 404
    assert h.loads == 1  # remembered as unknown
    stored = make_room(client, three_people())
    client.portal.call(h.sweep, 0.0)  # type: ignore[union-attr]  # out of memory, still stored
    assert stored not in h.rooms
    gate = threading.Event()
    reading = threading.Event()
    load = h.store.load_rooms

    def slow_load(codes: Collection[str]) -> Any:
        if "YYYYYYYY" in codes:
            reading.set()
            gate.wait(30)
        return load(codes)

    h.store.load_rooms = slow_load  # type: ignore[method-assign]

    async def both() -> tuple[Room | None, Room | None]:
        slow = asyncio.ensure_future(h.get("YYYYYYYY"))
        deadline = time.monotonic() + 20
        while not reading.is_set():  # the first code is being read
            assert time.monotonic() < deadline, "the first code was never read"
            await asyncio.sleep(0.01)
        # Another code is served while the first is still being read: no global lock.
        other = await asyncio.wait_for(h.get(stored), 20)
        assert not slow.done()
        gate.set()
        return await slow, other

    slow, other = client.portal.call(both)  # type: ignore[union-attr]
    assert slow is None and other is not None and other.code == stored


# ---- codes


def test_new_codes_have_40_bits_and_old_six_letter_codes_still_work(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    store_room(store, "ABCDEF", three_people())  # a code of an earlier version
    store.close()
    with TestClient(create_app(db_url, lifecycle=NO_QUOTAS)) as c:
        codes = {make_room(c, three_people()) for _ in range(5)}
        assert CODE_LENGTH == 8 and len(CODE_ALPHABET) == 32  # 8 x 5 bits
        assert all(len(code) == 8 and set(code) <= set(CODE_ALPHABET) for code in codes)
        assert c.get("/api/rooms/abcdef").json()["code"] == "ABCDEF"
        r = c.post("/api/rooms/ABCDEF/join", json={"name": "Ana"})
        assert r.status_code == 200
        with c.websocket_connect("/ws/ABCDEF") as ws:
            ws.send_json({"type": "hello", "token": r.json()["token"]})
            assert ws.receive_json()["type"] == "welcome"
        assert c.get("/api/rooms/ABCDEFG").status_code == 404


# ---- replays


def test_a_replay_is_computed_once_paged_and_gzipped(client: TestClient) -> None:
    code = make_room(client, three_people(target=200))
    for name in ("Ana", "Ben", "Cleo"):
        client.post(f"/api/rooms/{code}/join", json={"name": name})
    r = room(client, code)
    client.portal.call(play_out, r)  # type: ignore[union-attr]
    h = hub(client)
    first = client.get(f"/api/rooms/{code}/games/0")
    whole = first.json()
    for _ in range(19):
        assert client.get(f"/api/rooms/{code}/games/0").json() == whole
    assert h.replays_computed == 1
    assert first.headers["content-encoding"] == "gzip"
    plain = client.get(f"/api/rooms/{code}/games/0", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    raw = len(plain.content)
    print(
        f"\nreplay of {whole['total']} steps, first page: {raw} bytes, "
        f"{len(gzip.compress(plain.content))} gzipped"
    )
    stored = r.store.load_game(code, 0)
    assert stored is not None and whole["total"] == len(stored.log) + 1
    assert whole["from"] == 0 and len(whole["steps"]) == min(REPLAY_PAGE, whole["total"])
    assert whole["next"] == (REPLAY_PAGE if whole["total"] > REPLAY_PAGE else None)
    steps: list[Any] = []
    start: int | None = 0
    while start is not None:
        page = client.get(f"/api/rooms/{code}/games/0?from={start}&count=37").json()
        assert page["from"] == start and len(page["steps"]) <= 37
        steps += page["steps"]
        start = page["next"]
    assert len(steps) == whole["total"] and steps[: len(whole["steps"])] == whole["steps"]
    assert steps[-1]["standings"]["finished"]
    assert h.replays_computed == 1
    for bad in ("from=-1", "count=0", "count=x", "from=1e3"):
        assert client.get(f"/api/rooms/{code}/games/0?{bad}").status_code == 400
    assert client.get(f"/api/rooms/{code}/games/0?from=99999").json()["steps"] == []


# ---- clean refusals


def test_a_bad_player_on_join_is_a_400(client: TestClient) -> None:
    code = make_room(client, three_people())
    for bad in (3, -1, "1", True, 1.5):
        r = client.post(f"/api/rooms/{code}/join", json={"name": "Ana", "player": bad})
        assert r.status_code == 400 and r.json()["error"] == "bad_player", bad
    client.post(f"/api/rooms/{code}/join", json={"name": "Ana", "player": 1})
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Ben", "player": 1}).status_code == 409


def _raw_ws(port: int, code: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    got = b""
    while b"\r\n\r\n" not in got:
        got += sock.recv(4096)
    assert got.startswith(b"HTTP/1.1 101")
    return sock


def _frame(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    return (
        bytes([0x80 | opcode, 0x80 | len(payload)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


def test_broken_requests_log_one_line_at_most_and_no_traceback(
    sqlite_url: str, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    server = LiveServer(sqlite_url, lifecycle=NO_QUOTAS)
    try:
        port = int(server.http.rsplit(":", 1)[1])
        code = httpx.post(server.http + "/api/rooms", json=three_people()).json()["code"]
        capfd.readouterr()
        for path in ("/api/rooms", f"/api/rooms/{code}/join"):  # a body cut short
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                'Content-Length: 400\r\n\r\n{"players": 3, "seats": '.encode()
            )
            time.sleep(0.2)  # the scenario: a client that stalls mid-body, then goes
            sock.close()
        sock = _raw_ws(port, code)  # a text frame that is not UTF-8
        sock.sendall(_frame(0x1, b'{"type": "\xff\xfe"}'))
        sock.settimeout(10)
        with pytest.raises(OSError):
            while sock.recv(4096):
                pass
            raise ConnectionResetError
        sock.close()
        with httpx.Client() as c:  # the server goes on answering
            assert c.get(f"{server.http}/api/rooms/{code}").status_code == 200
        time.sleep(0.3)  # the scenario: whatever the server would log about them, let it log
    finally:
        server.stop()
    out, err = capfd.readouterr()
    logged = out + err + caplog.text
    print(logged)
    assert "Traceback" not in logged and "Exception in ASGI" not in logged
    assert len([line for line in logged.splitlines() if "ERROR" in line]) <= 3
