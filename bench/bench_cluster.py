"""``make bench-cluster``: rooms held at a person's pace, and actions a second at saturation,
with 1, 2 and 3 ``uno serve`` nodes on one PostgreSQL database on this machine (issue 24).

For each number of nodes: a fresh database, the nodes started together (one migrates), then the
rooms made and joined round-robin across the nodes and each room's two seats connected
round-robin too (so with N nodes about (N-1)/N of the connections are relayed to the room's
owner, as behind a round-robin load balancer). Two measures:

- **pace**: every seat acts about ``--pace`` seconds (1) after its turn comes, like a person;
  for each number of rooms, the latency from an action sent to the first update after it (p50,
  p99). The rooms held at a person's pace are the most whose p99 stays under 100 ms.
- **saturation**: seats that act at once; the actions a second the service took.

The client load runs in this process (bounded loops on loopback), so on a small machine it
competes with the nodes for the same cores: the figures are what was left of them.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.error

from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection

from unotable.web.client import SeatClient, http_json
from unotable.web.messages import Update, Welcome

DEFAULT_DATABASE = "postgresql://unotable:unotable@127.0.0.1/unotable_cluster"
SETTINGS = {"players": 2, "seats": ["human", "human"], "bot_delay": 0, "target": 10_000}

sys.path.insert(0, os.path.dirname(__file__))
from bench_web import bar, free_port  # noqa: E402


class PacedClient(SeatClient):
    """A seat that acts ``pace`` seconds after its turn comes (a person's pace)."""

    pace = 1.0

    async def _act(self, ws: ClientConnection, m: Welcome | Update) -> None:
        if self.pace and self.table["status"] == "playing" and m.seq != self._acted_seq:
            view = m.view
            if self.table["hand_over"] or (view.get("current") == m.seat and view.get("legal")):
                await asyncio.sleep(self.pace * self.rng.uniform(0.8, 1.2))
        await super()._act(ws, m)


def fresh(database: str) -> None:
    """Empty the database (every table)."""
    engine = create_engine("postgresql+psycopg://" + database.split("://", 1)[1])
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def start_nodes(database: str, count: int, durability: str) -> list[tuple[subprocess.Popen[bytes], str]]:
    """``count`` nodes started together, once each answers; (process, http base) each."""
    nodes = []
    for i in range(count):
        port = free_port()
        cmd = [
            sys.executable, "-m", "unotable", "serve", "--port", str(port), "--database", database,
            "--node-name", f"bench{i}", "--durability", durability, "--no-access-log",
            "--rooms-per-address", "0", "--seats-per-address", "0", "--lookups-per-second", "0",
            "--max-connections", "100000", "--connections-per-address", "100000", "--rate", "100000",
        ]  # fmt: skip
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        nodes.append((proc, f"http://127.0.0.1:{port}"))
    deadline = time.monotonic() + 90
    for proc, http in nodes:
        while True:
            try:
                http_json(http, "GET", "/readyz", timeout=2)
                break
            except (urllib.error.URLError, OSError, RuntimeError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    stop_nodes(nodes)
                    raise RuntimeError("a node did not start") from None
                time.sleep(0.1)
    return nodes


def stop_nodes(nodes: list[tuple[subprocess.Popen[bytes], str]]) -> None:
    """SIGTERM every node (each hands its rooms over) and wait."""
    for proc, _ in nodes:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc, _ in nodes:
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


async def run_rooms(bases: list[str], rooms: int, seconds: float, pace: float) -> tuple[int, list[float]]:
    """Play ``rooms`` rooms for ``seconds`` through ``bases`` round-robin; actions and latencies."""
    clients: list[SeatClient] = []
    turn = itertools.cycle(bases)
    for r in range(rooms):
        made = await asyncio.to_thread(http_json, next(turn), "POST", "/api/rooms", SETTINGS)
        for seat in range(2):
            http = next(turn)
            joined = await asyncio.to_thread(
                http_json, http, "POST", f"/api/rooms/{made['code']}/join", {"name": f"b{seat}"}
            )
            client = PacedClient(
                http.replace("http://", "ws://"), made["code"], joined["token"], seed=r * 2 + seat, keep=False
            )
            client.pace = pace
            clients.append(client)
        print(f"\r  rooms {bar(r + 1, rooms)} {r + 1}/{rooms}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    tasks = [asyncio.create_task(c.run(games=10**6, timeout=seconds + 60)) for c in clients]
    deadline = time.monotonic() + 60  # every seat connected and welcomed: count from here
    while any(c.last is None for c in clients) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    before = sum(len(c.latencies) for c in clients)
    marks = [len(c.latencies) for c in clients]
    await asyncio.sleep(seconds)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [x for c, m in zip(clients, marks, strict=True) for x in c.latencies[m:]]
    del before
    return len(latencies), latencies


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--database", default=os.environ.get("UNOTABLE_BENCH_POSTGRES", DEFAULT_DATABASE),
                        help="a PostgreSQL database the benchmark may empty")  # fmt: skip
    parser.add_argument("--nodes", default="1,2,3", help="numbers of nodes (1,2,3)")
    parser.add_argument("--rooms", default="200,400,600", help="rooms at a person's pace (200,400,600)")
    parser.add_argument("--saturate", type=int, default=50, help="rooms whose seats act at once (50)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play per line (20)")
    parser.add_argument("--pace", type=float, default=1.0, help="a seat's seconds before it acts (1)")
    parser.add_argument("--durability", default="full", choices=("full", "normal"))
    parser.add_argument("--quick", action="store_true", help="50 and 150 rooms, 30 saturating, 8 s a line")
    args = parser.parse_args(argv)
    counts = [50, 150] if args.quick else [int(x) for x in args.rooms.split(",")]
    saturate = 30 if args.quick else args.saturate
    seconds = 8.0 if args.quick else args.seconds
    print(
        f"bench-cluster: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the start, "
        f"{seconds:g} s a line, 2 seats a room, pace {args.pace:g} s, PostgreSQL, "
        f"durability {args.durability}"
    )
    for n in [int(x) for x in args.nodes.split(",")]:
        for rooms, pace in [*[(c, args.pace) for c in counts], (saturate, 0.0)]:
            fresh(args.database)
            nodes = start_nodes(args.database, n, args.durability)
            try:
                actions, lat = asyncio.run(run_rooms([b for _, b in nodes], rooms, seconds, pace))
            finally:
                stop_nodes(nodes)
            kind = "pace" if pace else "saturation"
            if len(lat) < 2:
                print(f"nodes={n} {kind} rooms={rooms} actions=0", flush=True)
                continue
            q = statistics.quantiles(lat, n=100)
            print(
                f"nodes={n} {kind} rooms={rooms} actions_per_s={actions / seconds:.0f} "
                f"p50_ms={q[49] * 1000:.1f} p99_ms={q[98] * 1000:.1f} load={os.getloadavg()[0]:.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
