"""New connections are let in at the loop's pace: a few at once, the rest waiting unread in order,
each place given back when its connection is welcomed or gone (web/pacing.py, issue 31's
reconnect storm)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from unotable.web import pacing
from unotable.web.pacing import Pacer

from .conftest import LiveServer


def test_a_quiet_server_lets_everyone_in_at_once_and_the_rest_wait_in_order() -> None:
    async def main() -> None:
        pacer = Pacer(first=2, least=2, most=2)
        started: list[str] = []
        assert pacer.enter("a", lambda: started.append("a")) is True
        assert pacer.enter("b", lambda: started.append("b")) is True
        assert pacer.enter("c", lambda: started.append("c")) is False  # the window is full
        assert pacer.enter("d", lambda: started.append("d")) is False
        assert started == [] and pacer.waited == 2
        pacer.entered("b")  # welcomed: its place goes to the first waiting
        assert started == ["c"]
        pacer.entered("b")  # said twice: nothing more
        assert started == ["c"]
        pacer.entered("zzz")  # never let in (closed while waiting, say): nothing
        assert started == ["c"]
        pacer.entered("a")
        assert started == ["c", "d"] and not pacer.waiting
        pacer.entered("c")
        pacer.entered("d")
        assert pacer.enter("e", lambda: started.append("e")) is True  # nobody waits: at once
        pacer.close()

    asyncio.run(main())


def test_a_place_is_held_no_longer_than_the_hold() -> None:
    """A client that never says hello does not keep others out."""

    async def main() -> None:
        pacer = Pacer(first=1, least=1, most=1, hold=0.05)
        started: list[str] = []
        assert pacer.enter("silent", lambda: None) is True
        assert pacer.enter("next", lambda: started.append("next")) is False
        await asyncio.sleep(0.2)
        assert started == ["next"] and "silent" not in pacer.entering
        pacer.close()

    asyncio.run(main())


def test_everyone_waiting_is_let_in_within_the_wait_however_busy_the_loop() -> None:
    """A storm on a loop too busy for the window to open: each tick still lets in the share that
    brings the first one waiting in within ``wait`` (then the rest, spread, not all at once)."""

    async def main() -> None:
        pacer = Pacer(first=1, least=1, most=1, hold=100.0, wait=0.5)
        started: list[float] = []
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        assert pacer.enter("first", lambda: None)
        for n in range(100):
            pacer.enter(n, lambda: started.append(loop.time() - t0))
        await asyncio.sleep(0.1)
        assert started  # some in already
        if loop.time() - t0 < 0.4:  # (unless this machine held the loop that long)
            assert len(started) < 100  # not all at once
        await asyncio.sleep(1.5)
        assert len(started) == 100 and not pacer.waiting
        pacer.close()

    asyncio.run(main())


def test_the_window_shrinks_while_the_loop_is_late_and_grows_while_people_wait() -> None:
    async def main() -> None:
        pacer = Pacer(first=16, least=4, most=40, tick=0.01, late=0.02)
        for n in range(16):
            assert pacer.enter(n, lambda: None)
        time.sleep(0.08)  # the loop is held: the next tick comes 70 ms late
        await asyncio.sleep(0.015)
        assert pacer.window == 12
        for _ in range(3):
            time.sleep(0.05)
            await asyncio.sleep(0)
            await asyncio.sleep(0.015)
        assert pacer.window == 4  # 12 -> 9 -> 6 -> 4, the least (nobody waits: it does not grow)
        shrunk = pacer.window
        pacer.late = 10.0  # from here every tick counts as on time, however busy this machine
        for n in range(100):  # people wait and the loop is on time: it grows
            pacer.enter(f"w{n}", lambda: None)
        await asyncio.sleep(0.3)
        assert pacer.window > shrunk
        assert pacer.window <= 40
        pacer.close()

    asyncio.run(main())


def test_too_many_waiting_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pacing, "QUEUED", 3)

    async def main() -> None:
        pacer = Pacer(first=1, least=1, most=1)
        assert pacer.enter(0, lambda: None)
        for n in range(3):
            assert pacer.enter(n + 1, lambda: None) is False
        with pytest.raises(OverflowError):
            pacer.enter(9, lambda: None)
        assert pacer.refused == 1
        pacer.close()

    asyncio.run(main())


def test_a_served_storm_waits_its_turn_and_everyone_is_welcomed(sqlite_url: str) -> None:
    """Through uvicorn with a window of 3: 40 sockets opened at once all get their welcome, most
    of them after waiting unread; every place is given back (by the welcome, by a plain
    request's response, by a refused socket's close)."""
    server = LiveServer(sqlite_url, seeds=lambda: 7, pacer=Pacer(first=3, least=3, most=3, hold=30))
    try:
        code = server.room({"players": 2, "seats": ["human", "human"], "bot_delay": 0})
        token = server.join(code, "Ana")[0]
        welcomes: list[str] = []
        lock = threading.Lock()

        def one(n: int) -> None:
            with connect(f"{server.ws}/ws/{code}", open_timeout=20) as ws:
                ws.send(json.dumps({"type": "hello", "token": token if n == 0 else None}))
                message: dict[str, Any] = json.loads(ws.recv(20))
                with lock:
                    welcomes.append(message["type"])

        threads = [threading.Thread(target=one, args=(n,)) for n in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert welcomes == ["welcome"] * 40
        assert server.pacer.waited > 0  # some waited their turn
        with pytest.raises(ConnectionClosed), connect(f"{server.ws}/ws/NOPE", open_timeout=20) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            ws.recv(20)
            ws.recv(20)
        deadline = time.monotonic() + 10
        while server.pacer.entering and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not server.pacer.entering and not server.pacer.waiting  # every place given back
        with urllib.request.urlopen(f"{server.http}/metrics", timeout=10) as answer:
            metrics = answer.read().decode()
        assert f"unotable_connections_waited {float(server.pacer.waited)}" in metrics
        assert "unotable_connections_window 3.0" in metrics
    finally:
        server.stop()
