"""Fault: ``uno serve`` killed with SIGKILL in the middle of a hand, started again on the same data
folder; every seat finds the same view (hand, counts, scores), the spectator the same table, and
play goes on."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from unotable.web.client import choose, http_json


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(data: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "unotable",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(data),
            "--rate",
            "1000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            http_json(f"http://127.0.0.1:{port}", "GET", "/api/options", timeout=2)
            return proc
        except (urllib.error.URLError, ConnectionError, RuntimeError, OSError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                _, err = proc.communicate()
                raise RuntimeError(f"uno serve did not start: {err.decode(errors='replace')}") from None
            time.sleep(0.1)


class Seats:
    """Connections to a room (seats by token; ``None``: a spectator), each keeping its last message."""

    def __init__(self) -> None:
        self.conns: list[ClientConnection] = []
        self.last: list[dict[str, Any]] = []
        self.tokens: list[str | None] = []
        self.readers: list[asyncio.Task[None]] = []
        self.changed = asyncio.Event()

    async def open(self, ws: str, code: str, tokens: list[str | None]) -> None:
        for token in tokens:
            conn = await connect(f"{ws}/ws/{code}", max_size=2**22)
            await conn.send(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads(await conn.recv())
            assert welcome["type"] == "welcome", welcome
            self.conns.append(conn)
            self.last.append(welcome)
            self.tokens.append(token)
        for i in range(len(tokens)):
            self.readers.append(asyncio.get_running_loop().create_task(self._read(i)))

    async def _read(self, i: int) -> None:
        async for raw in self.conns[i]:
            m = json.loads(raw)
            if m["type"] in ("welcome", "update"):
                self.last[i] = m
                self.changed.set()

    async def settle(self, quiet: float = 0.15) -> None:
        """Wait until every connection has heard of the same last change and nothing moves."""
        while True:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), quiet)
            except TimeoutError:
                if len({m["seq"] for m in self.last}) == 1:
                    return

    async def play(self, actions: int, rng: random.Random) -> int:
        """The seats with tokens take ``actions`` actions (dealing new hands as needed); stops
        mid-hand, on a person's turn. How many were taken."""
        taken = 0
        while True:
            await self.settle()
            for i, m in enumerate(self.last):
                token = self.tokens[i]
                if token is None:
                    continue
                if m["table"]["hand_over"]:
                    await self.conns[i].send(json.dumps({"type": "next_hand", "token": token}))
                    break
                action = choose(m["view"], rng, forget=0.0, react=0.0)
                if action is not None:
                    if taken >= actions:
                        return taken
                    await self.conns[i].send(json.dumps({"type": "act", "token": token, "action": action}))
                    taken += 1
                    break

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        for conn in self.conns:
            await conn.close()


def test_sigkill_mid_hand_then_restart_resumes_every_game(tmp_path: Path) -> None:
    port = free_port()
    http, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    proc = start_server(tmp_path, port)
    try:
        codes = [
            http_json(
                http,
                "POST",
                "/api/rooms",
                {"players": 3, "seats": ["human", "human", "greedy"], "bot_delay": 0, "target": 500},
            )["code"]
            for _ in range(2)
        ]
        tokens = {
            code: [
                http_json(http, "POST", f"/api/rooms/{code}/join", {"name": n})["token"]
                for n in ("Ana", "Ben")
            ]
            for code in codes
        }

        async def before() -> dict[str, list[dict[str, Any]]]:
            out = {}
            for n, code in enumerate(codes):
                seats = Seats()
                await seats.open(ws, code, [*tokens[code], None])
                assert await seats.play(25 + 10 * n, random.Random(n)) == 25 + 10 * n
                await seats.settle(1.0)
                out[code] = list(seats.last)
                await seats.close()
            return out

        seen = asyncio.run(before())
        for last in seen.values():
            assert not last[0]["table"]["hand_over"] and last[0]["seq"] > 25
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
        proc = start_server(tmp_path, port)

        async def after() -> None:
            for code in codes:
                seats = Seats()
                await seats.open(ws, code, [*tokens[code], None])
                for old, new in zip(seen[code], seats.last, strict=True):
                    assert new["seq"] == old["seq"]
                    assert new["view"] == old["view"]  # hand, counts, discard, known cards, scores
                    assert new["table"]["standings"] == old["table"]["standings"]
                    assert new["table"]["seating"] == old["table"]["seating"]
                start = seats.last[0]["seq"]
                assert await seats.play(15, random.Random(9)) == 15
                await seats.settle()
                assert seats.last[0]["seq"] >= start + 15
                await seats.close()

        asyncio.run(after())
    finally:
        proc.kill()
        proc.wait(10)
