"""No tenant slows another (issue 31, part 4): one person-paced room's action latency while one
address runs many watched ``expert`` rooms, or cycles through replays; the server's CPU meanwhile.

``uno serve`` runs as its own process (SQLite in a temporary folder, ``--durability full``), from
this checkout's sources or from another's (``--before /path/to/src``, e.g. the main checkout, to
print both side by side). Two scenarios, each for ``--seconds``:

- ``bots``: ``--expert-rooms`` rooms of four ``expert`` bots (``--bot-delay``), each watched by a
  spectator, and ``--people-rooms`` rooms of two people who each act about a second after their
  turn comes;
- ``replays``: ``--replay-rooms`` finished games, and ``--cyclers`` clients fetching their replay
  pages at random as fast as they are answered, beside the same rooms of people.

It prints, per scenario and server: the people's rooms' action latency (p50, p99, max: from an
action sent to the first update after it), the actions measured, and the CPU the server's
processes used (the server and its workers) in cores. Figures, not a test: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection

from unotable.web.client import SeatClient, http_json
from unotable.web.messages import Update, Welcome

sys.path.insert(0, os.path.dirname(__file__))
from bench_web import free_port, stop_server

PEOPLE = {"players": 2, "seats": ["human", "human"], "bot_delay": 0, "target": 10_000}
TICKS = os.sysconf("SC_CLK_TCK")
PEOPLE_ROOMS = [5]
"""Rooms of two people measured (``--people-rooms``)."""


@dataclass
class PacedSeat(SeatClient):
    """A seat that acts about ``pace`` seconds after its turn comes, as a person would."""

    pace: float = 1.0

    async def _act(self, ws: ClientConnection, m: Welcome | Update) -> None:
        view = m.view
        table = self.table
        mine = table["hand_over"] or view.get("current") == view.get("seat")
        if table["status"] == "playing" and m.seq != self._acted_seq and mine:
            await asyncio.sleep(self.pace * self.rng.uniform(0.7, 1.3))
        await super()._act(ws, m)


def start_server(src: Path, data: Path, port: int, extra: list[str]) -> subprocess.Popen[bytes]:
    """``uno serve`` from the sources at ``src`` on ``port``, once it answers."""
    cmd = [sys.executable, "-m", "unotable", "serve", "--port", str(port), "--data-dir", str(data)]
    cmd += ["--durability", "full", "--rooms-per-address", "0", "--seats-per-address", "0"]
    cmd += ["--lookups-per-second", "0", "--max-connections", "100000", "--connections-per-address", "100000"]
    cmd += ["--no-access-log", "--rate", "100000", *extra]
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            http_json(f"http://127.0.0.1:{port}", "GET", "/api/options", timeout=2)
            return proc
        except (urllib.error.URLError, OSError, RuntimeError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"uno serve did not start: {err[-2000:]}") from None
            time.sleep(0.1)


def tree_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` and its descendants alive now."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += times.get(p, 0.0)
        todo += [c for c, parent in parents.items() if parent == p]
    return total


async def people_room(http: str, ws: str, seed: int) -> list[PacedSeat]:
    code = (await asyncio.to_thread(http_json, http, "POST", "/api/rooms", PEOPLE))["code"]
    seats = []
    for seat in range(2):
        joined = await asyncio.to_thread(
            http_json, http, "POST", f"/api/rooms/{code}/join", {"name": f"p{seat}"}
        )
        seats.append(PacedSeat(ws, code, joined["token"], seed=seed + seat, keep=False))
    return seats


async def measure(
    proc: subprocess.Popen[bytes], seats: list[PacedSeat], seconds: float, others: list[Any]
) -> tuple[list[float], float]:
    """Let the people play for ``seconds`` beside ``others`` (tasks already running); their
    latencies and the server's cores used meanwhile."""
    tasks = [asyncio.create_task(s.run(games=10**6, timeout=seconds + 60)) for s in seats]
    await asyncio.sleep(3)  # connected, and the others under way
    for s in seats:
        s.latencies.clear()
    cpu0, t0 = tree_cpu(proc.pid), time.perf_counter()
    await asyncio.sleep(seconds)
    cores = (tree_cpu(proc.pid) - cpu0) / (time.perf_counter() - t0)
    for t in [*tasks, *others]:
        t.cancel()
    await asyncio.gather(*tasks, *others, return_exceptions=True)
    return [x for s in seats for x in s.latencies], cores


async def bots_scenario(
    proc: subprocess.Popen[bytes], http: str, ws: str, rooms: int, bot_delay: float, seconds: float
) -> tuple[list[float], float]:
    watchers = []
    settings = {"players": 4, "seats": ["expert"] * 4, "bot_delay": bot_delay, "target": 10_000}
    for _ in range(rooms):
        code = (await asyncio.to_thread(http_json, http, "POST", "/api/rooms", settings))["code"]
        watchers.append(SeatClient(ws, code, None, play=False, keep=False))
    others = [asyncio.create_task(w.run(games=10**6, timeout=seconds + 60)) for w in watchers]
    seats = [s for n in range(PEOPLE_ROOMS[0]) for s in await people_room(http, ws, 10 * n)]
    return await measure(proc, seats, seconds, others)


async def finished_games(http: str, ws: str, rooms: int) -> list[tuple[str, int]]:
    """``rooms`` rooms of bots played to the end; each one's code and steps in its replay."""
    settings = {"players": 4, "seats": ["greedy"] * 4, "bot_delay": 0, "target": 100}
    codes = [
        (await asyncio.to_thread(http_json, http, "POST", "/api/rooms", settings))["code"]
        for _ in range(rooms)
    ]
    watchers = [SeatClient(ws, code, None, play=False, keep=False) for code in codes]
    await asyncio.gather(*(w.run(games=1, timeout=300) for w in watchers))
    out = []
    for code in codes:
        page = await asyncio.to_thread(http_json, http, "GET", f"/api/rooms/{code}/games/0?count=1")
        out.append((code, page["total"]))
    return out


async def replays_scenario(
    proc: subprocess.Popen[bytes], http: str, ws: str, rooms: int, cyclers: int, seconds: float
) -> tuple[list[float], float, int]:
    games = await finished_games(http, ws, rooms)
    pages = [
        f"{http}/api/rooms/{code}/games/0?from={start}"
        for code, total in games
        for start in range(0, total, 200)
    ]
    loop = asyncio.get_running_loop()
    # The cyclers are processes of their own, so that their work never delays this process's
    # measurement of the people's rooms.
    with ProcessPoolExecutor(cyclers, mp_context=multiprocessing.get_context("spawn")) as pool:
        others = [loop.run_in_executor(pool, cycle, pages, n, seconds + 3) for n in range(cyclers)]
        seats = [s for n in range(PEOPLE_ROOMS[0]) for s in await people_room(http, ws, 10 * n)]
        lat, cores = await measure(proc, seats, seconds, [])
        fetched = sum(await asyncio.gather(*others))
    return lat, cores, fetched


def cycle(pages: list[str], seed: int, seconds: float) -> int:
    """Fetch replay pages at random for ``seconds``, as a browser would (gzip); how many."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    fetched = 0
    while time.monotonic() < deadline:
        req = urllib.request.Request(rng.choice(pages), headers={"Accept-Encoding": "gzip"})
        with contextlib.suppress(OSError), urllib.request.urlopen(req, timeout=30) as res:
            res.read()
            fetched += 1
    return fetched


def figures(lat: list[float]) -> str:
    if len(lat) < 2:
        return f"actions={len(lat)}"
    q = statistics.quantiles(lat, n=100, method="inclusive")
    return f"actions={len(lat)} p50={q[49] * 1000:.0f}ms p99={q[98] * 1000:.0f}ms max={max(lat) * 1000:.0f}ms"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    here = Path(__file__).resolve().parent.parent / "src"
    parser.add_argument("--before", type=Path, default=None, help="another checkout's src/ to compare with")
    parser.add_argument("--scenarios", default="bots,replays", help="bots,replays (both)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds measured per scenario (30)")
    parser.add_argument("--expert-rooms", type=int, default=20, help="watched rooms of expert bots (20)")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="their bots' delay in seconds (1)")
    parser.add_argument("--replay-rooms", type=int, default=40, help="finished games cycled (40)")
    parser.add_argument("--cyclers", type=int, default=4, help="clients cycling replays (4)")
    parser.add_argument("--people-rooms", type=int, default=5, help="rooms of two people measured (5)")
    args = parser.parse_args(argv)
    PEOPLE_ROOMS[0] = args.people_rooms
    sources = [("before", args.before), ("after", here)] if args.before else [("this", here)]
    load = os.getloadavg()
    print(f"bench-tenants: {os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f}, {args.seconds:g} s each")
    for scenario in args.scenarios.split(","):
        for label, src in sources:
            with tempfile.TemporaryDirectory(prefix="unotable-bench-tenants-") as tmp:
                port = free_port()
                proc = start_server(src, Path(tmp), port, [])
                http, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
                try:
                    if scenario == "bots":
                        lat, cores = asyncio.run(
                            bots_scenario(proc, http, ws, args.expert_rooms, args.bot_delay, args.seconds)
                        )
                        what = f"{args.expert_rooms} watched expert rooms (bot_delay {args.bot_delay:g})"
                        room = f"people's room {figures(lat)} server={cores:.2f} cores"
                        print(f"{scenario:8} {label:6} {what}: {room}")
                    else:
                        lat, cores, fetched = asyncio.run(
                            replays_scenario(proc, http, ws, args.replay_rooms, args.cyclers, args.seconds)
                        )
                        what = f"{args.cyclers} clients cycling {args.replay_rooms} replays (gzip)"
                        per_page = cores * (args.seconds + 3) / max(1, fetched) * 1000
                        print(
                            f"{scenario:8} {label:6} {what}: {fetched / (args.seconds + 3):.0f} pages/s "
                            f"({per_page:.2f} ms of server CPU a page), "
                            f"people's room {figures(lat)} server={cores:.2f} cores"
                        )
                finally:
                    stop_server(proc)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
