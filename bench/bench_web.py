"""``make bench-web``: N rooms played at once by bot clients over real WebSockets on loopback.

``uno serve`` runs as its own process (SQLite in a temporary folder, every action committed
before it is broadcast, as always); this process creates N rooms of two seats, joins both seats
of each, and plays them with :class:`~unotable.web.client.SeatClient` (plays first, calls UNO
mostly, catches sometimes) for a fixed time. It prints, for each N, the actions per second the
server took and the latency from an action sent to the first update after it (p50, p99), once
with each ``--durability`` (``full``: every commit synced to the disk; ``normal``: not).
First it prints the page's weight: every static file the page loads (index.html and the
scripts and style sheets it names), as served, raw and gzipped.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from unotable.web.client import SeatClient, http_json

SETTINGS = {"players": 2, "seats": ["human", "human"], "bot_delay": 0, "target": 10_000}


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    data: Path, port: int, database: str | None = None, durability: str = "full"
) -> subprocess.Popen[bytes]:
    """``uno serve`` on ``port`` (SQLite in ``data``, or ``database``), once it answers."""
    cmd = [sys.executable, "-m", "unotable", "serve", "--port", str(port), "--data-dir", str(data)]
    if database:
        cmd += ["--database", database]
    # Every bench client comes from 127.0.0.1: no quota per address.
    cmd += ["--durability", durability, "--rooms-per-address", "0", "--seats-per-address", "0"]
    cmd += ["--lookups-per-second", "0", "--max-connections", "100000", "--connections-per-address", "100000"]
    cmd += ["--no-access-log"]
    proc = subprocess.Popen([*cmd, "--rate", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            http_json(f"http://127.0.0.1:{port}", "GET", "/api/options", timeout=2)
            return proc
        except (urllib.error.URLError, OSError, RuntimeError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("uno serve did not start") from None
            time.sleep(0.1)


def fetch(url: str) -> bytes:
    """The body at ``url``."""
    with urllib.request.urlopen(url, timeout=10) as r:
        body: bytes = r.read()
        return body


def page_weight(http: str) -> list[tuple[str, int, int]]:
    """Each file the page loads (``/`` and the scripts and style sheets it names): its path,
    its size as served and gzipped (level 6, as a web server would)."""
    index = fetch(http + "/")
    paths = ["/", *re.findall(rb'(?:src|href)="(/static/[^"]+)"', index)]
    out = []
    for path in paths:
        name = path if isinstance(path, str) else path.decode()
        body = index if name == "/" else fetch(http + name)
        out.append((name, len(body), len(gzip.compress(body, 6))))
    return out


def print_page_weight(http: str) -> None:
    """Print the page's transfer size, file by file and in all."""
    files = page_weight(http)
    for name, raw, packed in files:
        print(f"  page {name:<24} raw={raw / 1024:6.1f} KiB gzip={packed / 1024:5.1f} KiB")
    raw = sum(f[1] for f in files)
    packed = sum(f[2] for f in files)
    print(f"page files={len(files)} raw_kib={raw / 1024:.1f} gzip_kib={packed / 1024:.1f}", flush=True)


def bar(done: float, total: float, width: int = 30) -> str:
    """A text progress bar."""
    filled = int(width * min(1.0, done / total))
    return "[" + "#" * filled + "." * (width - filled) + "]"


async def run_rooms(http: str, ws: str, rooms: int, seconds: float) -> tuple[int, list[float]]:
    """Play ``rooms`` rooms for ``seconds``; the actions sent and their latencies."""
    clients: list[SeatClient] = []
    for r in range(rooms):
        code = await asyncio.to_thread(http_json, http, "POST", "/api/rooms", SETTINGS)
        for seat in range(2):
            joined = await asyncio.to_thread(
                http_json, http, "POST", f"/api/rooms/{code['code']}/join", {"name": f"b{seat}"}
            )
            clients.append(SeatClient(ws, code["code"], joined["token"], seed=r * 2 + seat, keep=False))
        print(f"\r  rooms {bar(r + 1, rooms)} {r + 1}/{rooms}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    tasks = [asyncio.create_task(c.run(games=10**6, timeout=seconds + 60)) for c in clients]
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        sent = sum(len(c.latencies) for c in clients)
        print(
            f"\r  play  {bar(elapsed, seconds)} {elapsed:4.0f}s {sent} actions",
            end="",
            file=sys.stderr,
            flush=True,
        )
        await asyncio.sleep(0.5)
    elapsed = time.perf_counter() - start
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(file=sys.stderr)
    latencies = [x for c in clients for x in c.latencies]
    del elapsed
    return len(latencies), latencies


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rooms", default="10,100,500", help="numbers of concurrent rooms (10,100,500)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play for each number (20)")
    parser.add_argument("--quick", action="store_true", help="10 and 50 rooms, 5 seconds each")
    parser.add_argument("--database", default=None, help="a database URL for uno serve (SQLite otherwise)")
    parser.add_argument(
        "--durability", default="full,normal", help="uno serve --durability settings to compare (full,normal)"
    )
    args = parser.parse_args(argv)
    counts = [10, 50] if args.quick else [int(x) for x in args.rooms.split(",")]
    seconds = 5.0 if args.quick else args.seconds
    where = "PostgreSQL" if args.database else "SQLite"
    print(f"bench-web: {os.cpu_count()} cores, {seconds:g} s of play per line, 2 seats a room, {where}")
    with tempfile.TemporaryDirectory(prefix="unotable-bench-web-") as tmp:
        port = free_port()
        proc = start_server(Path(tmp) / "page", port, args.database)
        try:
            print_page_weight(f"http://127.0.0.1:{port}")
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for durability, n in [(d, n) for d in args.durability.split(",") for n in counts]:
            port = free_port()
            proc = start_server(Path(tmp) / f"{durability}{n}", port, args.database, durability)
            try:
                actions, lat = asyncio.run(
                    run_rooms(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", n, seconds)
                )
            finally:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
            if len(lat) < 2:
                print(f"durability={durability} rooms={n} actions=0")
                continue
            q = statistics.quantiles(lat, n=100)
            print(
                f"durability={durability} rooms={n} clients={2 * n} actions={actions} "
                f"actions_per_s={actions / seconds:.0f} "
                f"p50_ms={q[49] * 1000:.1f} p99_ms={q[98] * 1000:.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
