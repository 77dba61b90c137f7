"""The server's CPU for one action's messages: the table, then an ``update`` per player and for
the spectators, built and encoded once per player (``Fanout.broadcast``), as a room does after
every change. Prints this thread's CPU microseconds per action (``time.thread_time``: less
noisy than the clock on a shared machine) (best of ``--repeat`` rounds of ``--actions``).

    PYTHONPATH=src python bench/bench_messages.py            # these sources
    PYTHONPATH=/tmp/before/src python bench/bench_messages.py  # another checkout's, to compare

It uses only what both sides of issue 35's protocol change have (``Room.message(player,
events, table=...)``, ``Listener``), so the same script times the code before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from unotable.web.app import create_app
from unotable.web.fanout import Listener
from unotable.web.room import Room


def _room(client: TestClient, players: int) -> Room:
    settings = {"players": players, "seats": ["human"] * players, "bot_delay": 0}
    code = client.post("/api/rooms", json=settings).json()["code"]
    for i in range(players):
        client.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})
    hub: Any = client.app.state.hub  # type: ignore[attr-defined]
    room: Room | None = client.portal.call(hub.get, code)  # type: ignore[union-attr]
    if room is None:  # pragma: no cover - made just above
        raise RuntimeError("no room")
    return room


def main() -> None:
    """Time the messages of one action, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        url = f"sqlite:///{Path(data) / 'unotable.db'}"
        with TestClient(create_app(url, seeds=lambda: 7)) as client:
            room = _room(client, args.players)
            events = list(room.log.hand_events)[-2:]
            listeners = [Listener(p) for p in range(args.players)]
            listeners += [Listener(None) for _ in range(args.spectators)]
            for lst in listeners:
                room.fanout.add(lst)

            def drain() -> list[str]:
                texts = []
                for lst in listeners:
                    while not lst.queue.empty():
                        texts.append(lst.queue.get_nowait() or "")
                return texts

            def one(table: dict[str, Any] | None) -> None:
                made = room.table() if table is None else table
                room.fanout.broadcast(lambda p: room.message(p, events, table=made))

            table = room.table()
            one(None)
            texts = drain()
            size = sum(len(t) for t in texts)
            same = "\n".join(texts).replace(room.code, "CODE")  # the room's code is random
            digest = hashlib.sha256(same.encode()).hexdigest()[:16]
            print(f"one action's messages: {len(texts)}, {size} bytes, sha256 {digest}")
            for label, given in (("table+messages", None), ("messages only", table)):
                best = float("inf")
                for _ in range(args.repeat):
                    start = time.thread_time()
                    for _ in range(args.actions):
                        one(given)
                        drain()
                    best = min(best, (time.thread_time() - start) / args.actions)
                who = f"{args.players} players, {args.spectators} spectators"
                print(f"{label}: {best * 1e6:.1f} us of CPU per action ({who})")


if __name__ == "__main__":
    main()
