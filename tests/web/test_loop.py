"""Nothing blocks the server's event loop (issue 31): every callback the loop runs, measured in
CPU time of the loop's thread (not wall time: the machine is shared), stays under
:data:`BLOCK_LIMIT` while rooms are made, seats joined, connections welcomed and reconnected,
QR codes asked for and actions played."""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

import unotable.web.room as room_module
from unotable.web.client import SeatClient, http_json
from unotable.web.seats import qr_svg

from .conftest import LiveServer

BLOCK_LIMIT = 0.005
"""Seconds of CPU one callback of the loop may take at most (a handler's whole turn)."""
SETTINGS = {"players": 2, "seats": ["human", "human"], "bot_delay": 0, "target": 10_000}


def describe(handle: asyncio.Handle) -> str:
    """What a callback runs: a task's coroutine (its name and where it waits), or the callback."""
    owner = getattr(getattr(handle, "_callback", None), "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro: Any = owner.get_coro()
        frames = []
        while coro is not None and hasattr(coro, "cr_code"):
            frames.append(coro.cr_code.co_qualname)
            coro = coro.cr_await
        return "task " + " > ".join(frames)
    return repr(handle)


class LoopWatch:
    """Times every callback of the loops run by one thread (:attr:`thread`) in that thread's CPU
    time, by wrapping :meth:`asyncio.Handle._run` (every callback, task step and timer of a
    loop goes through it)."""

    def __init__(self) -> None:
        self.thread: threading.Thread | None = None
        self.spent: list[tuple[float, str]] = []
        self.on = False
        self.collecting = 0.0
        """CPU seconds of the garbage collector's runs in the watched thread (a collection
        walks the whole process's objects, the test's clients' too: not a handler's work)."""
        self._gc_start = 0.0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Wrap ``Handle._run`` for the rest of the test."""
        run = asyncio.Handle._run

        def timed(handle: asyncio.Handle) -> None:
            if not self.on or threading.current_thread() is not self.thread:
                run(handle)
                return
            start, collecting = time.thread_time(), self.collecting
            run(handle)
            spent = time.thread_time() - start - (self.collecting - collecting)
            self.spent.append((spent, describe(handle)))

        monkeypatch.setattr(asyncio.Handle, "_run", timed)

        def collected(phase: str, _info: dict[str, Any]) -> None:
            if threading.current_thread() is not self.thread:
                return
            if phase == "start":
                self._gc_start = time.thread_time()
            else:
                self.collecting += time.thread_time() - self._gc_start

        gc.callbacks.append(collected)
        self._collected = collected

    def remove(self) -> None:
        """Stop hearing of the garbage collector."""
        gc.callbacks.remove(self._collected)

    def worst(self, n: int = 5) -> list[tuple[float, str]]:
        """The ``n`` longest callbacks."""
        return sorted(self.spent, key=lambda x: x[0])[-n:]


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch, sqlite_url: str) -> Iterator[tuple[LiveServer, LoopWatch]]:
    """A live server whose loop's callbacks are timed."""
    watch = LoopWatch()
    watch.install(monkeypatch)
    server = LiveServer(sqlite_url)
    watch.thread = server.thread
    yield server, watch
    server.stop()
    watch.remove()


async def play(server: LiveServer, rooms: int, actions: int) -> None:
    """Make ``rooms`` rooms, join both seats, play until each seat has made ``actions`` actions,
    then reconnect every seat (a welcome again), ask for its QR code, and add a spectator."""
    seats: list[tuple[str, str]] = []
    for _ in range(rooms):
        code = (await asyncio.to_thread(http_json, server.http, "POST", "/api/rooms", SETTINGS))["code"]
        for seat in range(2):
            joined = await asyncio.to_thread(
                http_json, server.http, "POST", f"/api/rooms/{code}/join", {"name": f"p{seat}"}
            )
            seats.append((code, joined["token"]))
    for round_ in range(2):  # the second round: every seat reconnects
        clients = [
            SeatClient(server.ws, code, token, seed=i + 100 * round_) for i, (code, token) in enumerate(seats)
        ]
        clients += [SeatClient(server.ws, code, None, play=False) for code in {c for c, _ in seats}]
        tasks = [asyncio.create_task(c.run(games=10**6, timeout=120)) for c in clients]
        deadline = time.monotonic() + 120
        while any(len(c.latencies) < actions for c in clients if c.token) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert all(c.last is not None for c in clients)  # every one was welcomed
    for code, token in seats:
        await ask_qr(server, code, token)


async def ask_qr(server: LiveServer, code: str, token: str) -> dict[str, Any]:
    """Say hello with ``token`` and ask for the seat's QR code; the answer."""
    async with connect(f"{server.ws}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "qr", "token": token}))
        async for raw in ws:
            m: dict[str, Any] = json.loads(raw)
            if m["type"] == "qr":
                return m
    raise AssertionError("no QR code came")


def test_no_callback_blocks_the_loop_while_rooms_are_made_joined_welcomed_and_played(
    watched: tuple[LiveServer, LoopWatch],
) -> None:
    server, watch = watched
    asyncio.run(play(server, rooms=1, actions=3))  # first calls (imports, catalogues): not judged
    watch.on = True
    asyncio.run(play(server, rooms=6, actions=10))
    watch.on = False
    assert len(watch.spent) > 1000  # the loop was watched
    worst = watch.worst()
    print("worst callbacks:", [(round(spent * 1000, 2), what[-300:]) for spent, what in worst])
    assert worst[-1][0] <= BLOCK_LIMIT, "callbacks over 5 ms of CPU: " + "; ".join(
        f"{spent * 1000:.1f} ms {what[:200]}" for spent, what in worst
    )


def test_the_qr_code_is_asked_for_and_made_off_the_loop(
    watched: tuple[LiveServer, LoopWatch], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, _ = watched
    made_on: list[str] = []

    def spy(text: str) -> str:
        made_on.append(threading.current_thread().name)
        return qr_svg(text)

    monkeypatch.setattr(room_module, "qr_svg", spy)
    code = http_json(server.http, "POST", "/api/rooms", SETTINGS)["code"]
    token = http_json(server.http, "POST", f"/api/rooms/{code}/join", {"name": "Ana"})["token"]
    welcome = asyncio.run(first_message(server, code, token))
    assert welcome["type"] == "welcome" and "qr_svg" not in welcome["rejoin"]
    assert made_on == []  # a welcome makes no QR code
    for _ in range(2):
        answer = asyncio.run(ask_qr(server, code, token))
        assert answer["qr_svg"].startswith("<svg") and "<script" not in answer["qr_svg"]
    assert made_on == ["unotable-qr_0"]  # once per token, in its own thread


async def first_message(server: LiveServer, code: str, token: str) -> dict[str, Any]:
    """The first message a connection with ``token`` gets after its hello."""
    async with connect(f"{server.ws}/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        m: dict[str, Any] = json.loads(await ws.recv())
        return m
