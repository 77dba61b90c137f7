"""``make bench-web``: person-paced rooms over real WebSockets, our tree and the previous release
side by side.

``uno serve`` runs as its own process (SQLite in a temporary folder, or ``--database URL``;
``--durability full`` by default: every action committed and synced before anyone hears of it).
Client processes (``--workers``, spread so that the clients are not the bottleneck) make N rooms
of two seats, join both seats, connect, and play like people: each acts about a second after its
turn comes (0.6 to 1.4 s, uniformly), calls UNO mostly, catches sometimes. The connect phase
counts: every room is made and connected at the start, while the first rooms already play.

For each N it prints the actions per second, the latency from an action sent to the first update
after it (p50, p99) over the whole run and after the warm-up, the server's CPU per action
(``/proc/PID/stat`` utime+stime over the run, divided by the actions), and the clients' CPU; then
the most rooms held at p99 < 50 ms. The same runs against the previous release (``--baseline
REF``, default the release of 2026-12-01, run from a ``git worktree`` of that commit with the
same interpreter; ``--no-baseline`` to skip it).

``--storm``: a node restart. The first server makes ``--storm-rooms`` rooms (2 clients each) and
plays them quickly for a while to give them logs; it stops; a new server on the same database
takes ``--rooms`` person-paced rooms, and after a warm-up every storm client reconnects at once.
It prints how long the storm clients took to be welcomed (all within 5 s is the target) and the
other rooms' p99 meanwhile (below 100 ms is the target).

``--nodes 1,2`` (the default): each count of rooms also against two nodes of ours on one machine
behind the documented nginx site (docs/deploy/nginx.conf, TLS on loopback, round-robin), as
tests/web/test_cluster_failover.py starts them. Several nodes need PostgreSQL (``--database``):
on SQLite those lines are skipped, saying so. The server CPU per action sums the nodes'
processes; nginx's CPU is printed beside it. The release has no cluster: it runs one node.

First it prints the page's weight: every static file the page loads, raw and gzipped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gzip
import importlib.util
import json
import multiprocessing as mp
import os
import random
import re
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

import web_figures
from unotable.web.client import choose, http_json

SETTINGS = {"players": 2, "seats": ["human", "human"], "bot_delay": 0, "target": 10_000}
BASELINE = "7e0106a"
"""The release of 2026-12-01."""
PACE = (0.6, 1.4)
"""Seconds a person takes to act once it is their turn (uniform)."""
HELD_P99 = 0.050
"""The p99 below which a number of rooms counts as held."""
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True)
class Tree:
    """A source tree to serve from: ``src`` on ``PYTHONPATH``; ``old`` for the previous release
    (fewer flags)."""

    name: str
    src: Path
    old: bool = False


def start_server(
    tree: Tree, data: Path, port: int, database: str | None = None, durability: str = "full"
) -> subprocess.Popen[bytes]:
    """``uno serve`` of ``tree`` on ``port`` (SQLite in ``data``, or ``database``), once it answers."""
    cmd = [sys.executable, "-m", "unotable", "serve", "--port", str(port), "--data-dir", str(data)]
    if database:
        cmd += ["--database", database]
    if not tree.old:
        # Every bench client comes from 127.0.0.1: no quota per address.
        cmd += ["--durability", durability, "--rooms-per-address", "0", "--seats-per-address", "0"]
        cmd += ["--lookups-per-second", "0", "--max-connections", "100000"]
        cmd += ["--connections-per-address", "100000", "--no-access-log"]
    env = {**os.environ, "PYTHONPATH": str(tree.src)}
    proc = subprocess.Popen(
        [*cmd, "--rate", "100000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            http_json(f"http://127.0.0.1:{port}", "GET", "/api/options", timeout=2)
            return proc
        except (urllib.error.URLError, OSError, RuntimeError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"uno serve ({tree.name}) did not start") from None
            time.sleep(0.1)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server (SIGINT, then SIGKILL after 20 s)."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from ``/proc/PID/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def empty_postgres(url: str) -> None:
    """Drop every table of the benchmark's PostgreSQL database (it starts empty)."""
    from sqlalchemy import create_engine, text  # noqa: PLC0415

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


# ---- the page's weight


def children_cpu(pid: int) -> float:
    """The CPU time so far of ``pid`` and its direct children (nginx's master and workers)."""
    total = cpu_seconds(pid)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@functools.cache
def insecure() -> ssl.SSLContext:
    """A TLS context that takes the benchmark's throwaway certificate (nginx on loopback); one a
    process (making one reads the system's certificates: milliseconds)."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def api(base: str, method: str, path: str, body: Any = None, cookies: dict[str, str] | None = None) -> Any:
    """:func:`http_json`, over TLS too (``https://``: nginx's throwaway certificate). Through
    nginx, ``cookies`` are sent and take the answer's (the room's node: the site routes by it)."""
    if not base.startswith("https://"):
        return http_json(base, method, path, body)
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode())
    req.method = method
    req.add_header("Content-Type", "application/json")
    if cookies:
        req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
    try:
        with urllib.request.urlopen(req, timeout=30, context=insecure()) as res:
            for header in res.headers.get_all("Set-Cookie") or []:
                name, _, value = header.split(";", 1)[0].partition("=")
                if cookies is not None:
                    cookies[name.strip()] = value.strip()
            return json.loads(res.read())
    except urllib.error.HTTPError as exc:
        raise RuntimeError(f"{method} {path}: {exc.code} {exc.read().decode(errors='replace')}") from None


def rooms_live(http: str) -> float:
    """The server's ``unotable_rooms_live`` (rooms in memory), NaN if it has none."""
    with contextlib.suppress(OSError, ValueError):
        found = re.search(rb"^unotable_rooms_live (\S+)$", fetch(http + "/metrics"), re.M)
        if found:
            return float(found.group(1))
    return float("nan")


def fetch(url: str) -> bytes:
    """The body at ``url``."""
    with urllib.request.urlopen(url, timeout=10) as r:
        body: bytes = r.read()
        return body


def page_weight(http: str) -> list[tuple[str, int, int]]:
    """Each file the page loads (``/``, the scripts and style sheets it names, and the ES modules
    they import, followed to the end): its path, its size as served and gzipped (level 6, as a
    web server would)."""
    index = fetch(http + "/")
    paths = ["/", *(p.decode() for p in re.findall(rb'(?:src|href)="(/static/[^"]+)"', index))]
    out = []
    seen = set(paths)
    while paths:
        name = paths.pop(0)
        body = index if name == "/" else fetch(http + name)
        out.append((name, len(body), len(gzip.compress(body, 6))))
        if name.endswith(".js"):
            base = name.rsplit("/", 1)[0]
            for found in re.findall(rb'(?:from|import)\s*\(?\s*"\./([^"]+\.js)"', body):
                module = f"{base}/{found.decode()}"
                if module not in seen:
                    seen.add(module)
                    paths.append(module)
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
    filled = int(width * min(1.0, done / total)) if total else width
    return "[" + "#" * filled + "." * (width - filled) + "]"


# ---- one client: a person at a seat


@dataclass
class Person:
    """One seat's connection, acting like a person: ``pace`` seconds after something to do."""

    ws_base: str
    code: str
    token: str
    rng: random.Random
    pace: tuple[float, float]
    t0: float
    samples: list[tuple[float, float]] = field(default_factory=list)
    """(seconds since the start when sent, latency) of each action answered."""
    welcomed: float | None = None
    """Seconds from the connect to the welcome."""
    opened: float | None = None
    """Seconds from the connect to the WebSocket open (before the hello)."""
    errors: int = 0
    cookie: str = ""
    """The ``Cookie`` header sent with the WebSocket (the room's node, through nginx)."""
    changes: bool = True
    """Keep the table: say ``changes`` in ``hello`` (updates carry the table's changes only)."""

    def __post_init__(self) -> None:
        self.latest: dict[str, Any] | None = None
        self.table: dict[str, Any] = {}
        self.sent_at: float | None = None
        self.acted_seq = -1
        self.handled_seq = -1
        self.thinking: asyncio.Task[None] | None = None

    async def run(self, until: float) -> None:
        """Connect, say hello, and play until ``until`` (perf_counter seconds)."""
        start = time.perf_counter()
        try:
            async with connect(
                f"{self.ws_base}/ws/{self.code}",
                max_size=2**22,
                open_timeout=60,
                ping_interval=None,
                ssl=insecure() if self.ws_base.startswith("wss://") else None,
                additional_headers={"Cookie": self.cookie} if self.cookie else None,
            ) as ws:
                self.opened = time.perf_counter() - start
                hello: dict[str, Any] = {"type": "hello", "token": self.token}
                if self.changes:
                    hello["changes"] = True
                await ws.send(json.dumps(hello))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._read(ws, start), max(0.1, until - time.perf_counter()))
        except (OSError, WebSocketException, TimeoutError):
            self.errors += 1
        finally:
            if self.thinking is not None:
                self.thinking.cancel()

    async def _read(self, ws: ClientConnection, start: float) -> None:
        try:
            async for raw in ws:
                m = json.loads(raw)
                kind = m["type"]
                if kind == "error":
                    self.errors += 1
                    self.sent_at = None
                    self._think(ws)
                    continue
                if kind not in ("welcome", "update"):
                    continue
                now = time.perf_counter()
                if kind == "welcome" and self.welcomed is None:
                    self.welcomed = now - start
                if self.sent_at is not None and m["seq"] > self.acted_seq:
                    self.samples.append((self.sent_at - self.t0, now - self.sent_at))
                    self.sent_at = None
                if kind == "welcome":
                    self.table = m["table"]
                elif m.get("table") is not None:
                    self.table = {**self.table, **m["table"]}
                self.latest = m
                self._think(ws)
        except ConnectionClosed:
            return

    def _think(self, ws: ClientConnection) -> None:
        m = self.latest
        if m is None or self.sent_at is not None or m["seq"] == self.handled_seq:
            return
        if self.thinking is not None and not self.thinking.done():
            return  # already about to act on an earlier state: it looks again when it wakes
        self.thinking = asyncio.get_running_loop().create_task(self._act(ws))

    async def _act(self, ws: ClientConnection) -> None:
        await asyncio.sleep(self.rng.uniform(*self.pace))
        m = self.latest
        if m is None or self.sent_at is not None:
            return
        table = self.table
        message: dict[str, Any] | None = None
        if table["status"] == "finished":
            message = {"type": "rematch", "token": self.token}
        elif table["status"] == "playing" and m["seat"] is not None:
            if table["hand_over"]:
                message = {"type": "next_hand", "token": self.token}
            else:
                action = choose(m["view"], self.rng)
                if action is not None:
                    message = {"type": "act", "token": self.token, "action": action}
        self.handled_seq = m["seq"]
        if message is None:
            return
        if message["type"] == "act":
            self.acted_seq = m["seq"]
            self.sent_at = time.perf_counter()
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(message))


# ---- a client process: some rooms


@dataclass
class Job:
    """One client process's part of a run."""

    http: str
    ws: str
    rooms: int
    """Rooms to make and join (0: use ``seats``)."""
    seats: list[tuple[str, str]]
    """(room code, token) of seats made before (the storm's)."""
    start: float
    """time.time() at which everyone starts (the processes' clocks are the same)."""
    seconds: float
    """Seconds from the start until the clients stop."""
    pace: tuple[float, float]
    seed: int
    connect_at: float = 0.0
    """Seconds after the start at which the clients connect (the storm's)."""
    changes: bool = True
    """The clients keep the table (``hello``'s ``changes``); not for the release, which
    refuses the field."""


def client_process(job: Job, slot: int, progress: Any, results: Any) -> None:
    """Run ``job`` in this process; put its figures on ``results``."""
    out = asyncio.run(_client_job(job, slot, progress))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu"] = usage.ru_utime + usage.ru_stime
    out["slot"] = slot
    results.put(out)


async def _client_job(job: Job, slot: int, progress: Any) -> dict[str, Any]:
    rng = random.Random(job.seed)
    loop = asyncio.get_running_loop()
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    loop.set_default_executor(ThreadPoolExecutor(16))
    await asyncio.sleep(max(0.0, job.start - time.time()))
    t0 = time.perf_counter()
    until = t0 + job.seconds
    people: list[Person] = []
    tasks: list[asyncio.Task[None]] = []

    def add(code: str, token: str, cookie: str = "") -> None:
        p = Person(
            job.ws, code, token, random.Random(rng.random()), job.pace, t0, cookie=cookie, changes=job.changes
        )
        people.append(p)
        tasks.append(loop.create_task(p.run(until)))

    made: list[tuple[str, str]] = []

    async def make_room() -> None:
        cookies: dict[str, str] = {}  # one browser's: the room's node, set by its answers
        room = await asyncio.to_thread(api, job.http, "POST", "/api/rooms", SETTINGS, cookies)
        for seat in range(2):
            joined = await asyncio.to_thread(
                api, job.http, "POST", f"/api/rooms/{room['code']}/join", {"name": f"p{seat}"}, cookies
            )
            made.append((room["code"], joined["token"]))
            add(room["code"], joined["token"], "; ".join(f"{k}={v}" for k, v in cookies.items()))

    async def report() -> None:  # the actions so far, for the progress bar (connecting too)
        while True:
            progress[slot] = sum(len(p.samples) for p in people)
            await asyncio.sleep(0.25)

    reporter = loop.create_task(report())
    failures = 0
    if job.rooms:
        sem = asyncio.Semaphore(8)

        async def one() -> None:
            nonlocal failures
            async with sem:
                try:
                    await make_room()
                except (RuntimeError, OSError):
                    failures += 1

        await asyncio.gather(*(one() for _ in range(job.rooms)))
    else:
        await asyncio.sleep(max(0.0, t0 + job.connect_at - time.perf_counter()))
        for code, token in job.seats:
            add(code, token)
    crashed = sum(1 for r in await asyncio.gather(*tasks, return_exceptions=True) if r is not None)
    reporter.cancel()
    progress[slot] = sum(len(p.samples) for p in people)
    return {
        "samples": [s for p in people for s in p.samples],
        "welcomed": [p.welcomed for p in people],
        "opened": [p.opened for p in people],
        "errors": sum(p.errors for p in people) + failures + crashed,
        "made": made,
    }


def run_clients(
    jobs: list[Job], label: str, seconds: float, pids: tuple[int, ...] = (), mark: float = 0.0
) -> tuple[list[dict[str, Any]], float]:
    """Run each job in its own process, showing progress on stderr; their figures, and the server
    processes' (``pids``) CPU time ``mark`` seconds after the start (for the warm figures)."""
    ctx = mp.get_context("fork")
    progress = ctx.Array("l", len(jobs), lock=False)
    results: Any = ctx.Queue()
    procs = [ctx.Process(target=client_process, args=(j, i, progress, results)) for i, j in enumerate(jobs)]
    for p in procs:
        p.start()
    start = jobs[0].start
    out: list[dict[str, Any]] = []
    at_mark: float | None = None
    while len(out) < len(procs):
        if pids and at_mark is None and time.time() >= start + mark:
            at_mark = sum(map(cpu_seconds, pids))
        with contextlib.suppress(Exception):
            out.append(results.get(timeout=0.5))
            continue
        elapsed = max(0.0, time.time() - start)
        print(
            f"\r  {label:<14} {bar(elapsed, seconds)} {elapsed:4.0f}s {sum(progress)} actions",
            end="",
            file=sys.stderr,
            flush=True,
        )
        if all(not p.is_alive() for p in procs) and results.empty():
            break
    for p in procs:
        p.join(30)
    print(file=sys.stderr)
    out.sort(key=lambda o: int(o["slot"]))
    return out, float("nan") if at_mark is None else at_mark


def split(n: int, parts: int) -> list[int]:
    """``n`` in ``parts`` nearly equal whole parts."""
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank); NaN if empty."""
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def ms(x: float) -> str:
    """Seconds as milliseconds, for a figure."""
    return f"{x * 1000:.1f}"


# ---- one line of the benchmark

WINDOW: Final = 5.0
"""Seconds of a run's windows in its timeline (:attr:`Line.timeline`)."""


@dataclass
class Line:
    """The figures of one run."""

    tree: str
    rooms: int
    nodes: int = 1
    actions: int = 0
    seconds: float = 0.0
    p50: float = float("nan")
    p99: float = float("nan")
    warm_p50: float = float("nan")
    warm_p99: float = float("nan")
    cpu_ms: float = float("nan")
    """Server CPU milliseconds per action, over the whole run."""
    warm_cpu_ms: float = float("nan")
    """The same after the warm-up."""
    client_cores: float = 0.0
    errors: int = 0
    welcomed_max: float = float("nan")
    nginx_cpu_ms: float = float("nan")
    """nginx's CPU milliseconds per action (several nodes), not in ``cpu_ms``."""
    timeline: list[float] = field(default_factory=list)
    """The p99 of the actions sent in each :data:`WINDOW` seconds of the run (where a run's
    tail comes from: the connect phase, a pause)."""

    def text(self) -> str:
        """The line printed."""
        return (
            f"tree={self.tree} nodes={self.nodes} rooms={self.rooms} clients={2 * self.rooms} "
            f"actions={self.actions} "
            f"actions_per_s={self.actions / self.seconds:.0f} p50_ms={ms(self.p50)} p99_ms={ms(self.p99)} "
            f"warm_p50_ms={ms(self.warm_p50)} warm_p99_ms={ms(self.warm_p99)} "
            f"server_cpu_ms_per_action={self.cpu_ms:.2f} warm_cpu_ms_per_action={self.warm_cpu_ms:.2f} "
            f"client_cores={self.client_cores:.2f} "
            + (f"nginx_cpu_ms_per_action={self.nginx_cpu_ms:.2f} " if self.nodes > 1 else "")
            + f"welcomed_max_s={self.welcomed_max:.2f} errors={self.errors} "
            + f"p99_ms_by_{WINDOW:g}s={','.join(f'{x * 1000:.0f}' for x in self.timeline)}"
        )


@contextlib.contextmanager
def server(tree: Tree, tmp: Path, database: str | None, durability: str) -> Iterator[subprocess.Popen[bytes]]:
    """A fresh server of ``tree`` (a fresh database) for one run."""
    if database:
        empty_postgres(database)
    data = Path(tempfile.mkdtemp(prefix="data-", dir=tmp))
    port = free_port()
    proc = start_server(tree, data, port, database, durability)
    proc.port = port  # type: ignore[attr-defined]
    try:
        yield proc
    finally:
        stop_server(proc)
        shutil.rmtree(data, ignore_errors=True)


@dataclass(frozen=True)
class Served:
    """Where the clients of a run go, and the processes that serve them."""

    http: str
    ws: str
    pids: tuple[int, ...]
    """The servers' processes (their CPU is the server's)."""
    nginx: int = 0
    """nginx's master process (several nodes), 0 if none."""


@contextlib.contextmanager
def served(tree: Tree, tmp: Path, database: str | None, durability: str, nodes: int) -> Iterator[Served]:
    """A fresh server of ``tree``, or ``nodes`` of them on ``database`` behind the documented
    nginx site, started as tests/web/test_cluster_failover.py starts them (a fresh database)."""
    if nodes == 1:
        with server(tree, tmp, database, durability) as proc:
            port = proc.port  # type: ignore[attr-defined]
            yield Served(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", (proc.pid,))
        return
    if not database:
        raise ValueError("several nodes need PostgreSQL (--database)")
    sys.path.insert(0, str(ROOT / "tests"))
    from web.test_cluster_failover import running_service  # noqa: PLC0415

    empty_postgres(database)
    where = Path(tempfile.mkdtemp(prefix="cluster-", dir=tmp))
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(tree.src)  # the nodes serve this tree
    try:
        # Each client holds two of nginx's connections (its own, and nginx's to a node).
        with running_service(where, database, durability=durability, count=nodes, connections=16384) as svc:
            nginx = int((where / "nginx.pid").read_text()) if (where / "nginx.pid").exists() else 0
            wss = "wss://" + svc.base.split("://", 1)[1]
            yield Served(svc.base, wss, tuple(n.proc.pid for n in svc.nodes), nginx)
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before
        shutil.rmtree(where, ignore_errors=True)


def run_line(
    tree: Tree,
    rooms: int,
    args: argparse.Namespace,
    tmp: Path,
    pace: tuple[float, float] = PACE,
    nodes: int = 1,
) -> Line:
    """Play ``rooms`` person-paced rooms against fresh servers of ``tree`` (``nodes`` of them);
    the figures."""
    with served(tree, tmp, args.database, args.durability, nodes) as where:
        workers = args.workers or max(1, min(os.cpu_count() or 1, -(-rooms // 150)))
        start = time.time() + 1.0
        jobs = [
            Job(where.http, where.ws, n, [], start, args.seconds, pace, i, changes=not tree.old)
            for i, n in enumerate(split(rooms, workers))
            if n
        ]
        label = f"{tree.name} {rooms}" + (f" x{nodes}" if nodes > 1 else "")
        cpu0 = sum(map(cpu_seconds, where.pids))
        nginx0 = children_cpu(where.nginx) if where.nginx else 0.0
        outs, warm = run_clients(jobs, label, args.seconds, where.pids, args.warmup)
        cpu1 = sum(map(cpu_seconds, where.pids))
        nginx1 = children_cpu(where.nginx) if where.nginx else 0.0
    line = summarize(tree.name, rooms, outs, args.seconds, args.warmup, cpu1 - cpu0)
    line.nodes = nodes
    if where.nginx and line.actions:
        line.nginx_cpu_ms = 1000 * (nginx1 - nginx0) / line.actions
    warm_actions = sum(1 for o in outs for t, _ in o["samples"] if t >= args.warmup)
    if warm_actions:
        line.warm_cpu_ms = 1000 * (cpu1 - warm) / warm_actions
    return line


def summarize(
    name: str, rooms: int, outs: list[dict[str, Any]], seconds: float, warmup: float, cpu: float
) -> Line:
    """A line's figures from its client processes' (and the server's ``cpu`` seconds)."""
    samples = [s for o in outs for s in o["samples"]]
    line = Line(name, rooms, actions=len(samples), seconds=seconds)
    lat = [x for _, x in samples]
    warm = [x for t, x in samples if t >= warmup]
    line.p50, line.p99 = quantile(lat, 0.5), quantile(lat, 0.99)
    windows = int(seconds // WINDOW) + 1
    line.timeline = [
        quantile([x for t, x in samples if w * WINDOW <= t < (w + 1) * WINDOW], 0.99) for w in range(windows)
    ]
    line.warm_p50, line.warm_p99 = quantile(warm, 0.5), quantile(warm, 0.99)
    line.cpu_ms = 1000 * cpu / len(samples) if samples else float("nan")
    line.client_cores = sum(o["cpu"] for o in outs) / seconds
    line.errors = sum(o["errors"] for o in outs)
    welcomed = [w for o in outs for w in o["welcomed"] if w is not None]
    line.welcomed_max = max(welcomed) if welcomed else float("nan")
    return line


# ---- the storm


def run_storm(tree: Tree, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """A node restarted: its ``--storm-rooms`` rooms' clients all reconnect at once while
    ``--rooms`` other rooms play; its figures (as ``--json`` keeps them)."""
    others = int(str(args.rooms).split(",")[0])
    data = Path(tempfile.mkdtemp(prefix="storm-", dir=tmp))
    if args.database:
        empty_postgres(args.database)
    port = free_port()
    http, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    workers = args.workers or os.cpu_count() or 1
    # 1. The storm's rooms are made and played quickly (they have logs), then the server stops.
    proc = start_server(tree, data, port, args.database, args.durability)
    try:
        start = time.time() + 1.0
        jobs = [
            Job(http, ws, n, [], start, args.storm_fill, (0.05, 0.2), 100 + i, changes=not tree.old)
            for i, n in enumerate(split(args.storm_rooms, workers))
        ]
        outs, _ = run_clients(jobs, f"{tree.name} fill", args.storm_fill)
    finally:
        stop_server(proc)
    seats = [s for o in outs for s in o["made"]]
    filled = sum(len(o["samples"]) for o in outs)
    # 2. A new server on the same database; other rooms play; the storm comes after a warm-up.
    proc = start_server(tree, data, port, args.database, args.durability)
    try:
        start = time.time() + 1.0
        storm_at = args.warmup
        seconds = storm_at + 15.0
        jobs = [
            Job(http, ws, n, [], start, seconds, PACE, 200 + i, changes=not tree.old)
            for i, n in enumerate(split(others, workers))
            if n
        ]
        jobs += [
            Job(
                http,
                ws,
                0,
                seats[i::workers],
                start,
                seconds,
                PACE,
                300 + i,
                connect_at=storm_at,
                changes=not tree.old,
            )
            for i in range(workers)
        ]
        cpu0 = cpu_seconds(proc.pid)
        before: list[float] = []  # the rooms in memory just before the storm (loaded at start-up?)
        probe = threading.Timer(start + storm_at - 0.5 - time.time(), lambda: before.append(rooms_live(http)))
        probe.start()
        outs, _ = run_clients(jobs, f"{tree.name} storm", seconds)
        probe.join()
        cpu = cpu_seconds(proc.pid) - cpu0
    finally:
        stop_server(proc)
        shutil.rmtree(data, ignore_errors=True)
    played = outs[: len(jobs) - workers]
    storm = outs[len(jobs) - workers :]
    welcomed = [w for o in storm for w in o["welcomed"] if w is not None]
    during = [x for o in played for t, x in o["samples"] if storm_at <= t < storm_at + 10]
    line = summarize(tree.name, others, played, seconds, args.warmup, cpu)
    within = sum(1 for w in welcomed if w <= 5.0)
    opened = [w for o in storm for w in o["opened"] if w is not None]
    by_second = [  # the other rooms' p99 a second, from 2 s before the storm to 10 s after
        quantile([x for o in played for t, x in o["samples"] if 0 <= t - storm_at - s < 1], 0.99)
        for s in range(-2, 10)
    ]
    around = [ms(x) for x in by_second]
    print(
        f"storm tree={tree.name} reconnecting={len(seats)} (their rooms' logs: {filled} actions) "
        f"welcomed={len(welcomed)} within_5s={within} welcome_p50_s={quantile(welcomed, 0.5):.2f} "
        f"welcome_p99_s={quantile(welcomed, 0.99):.2f} "
        f"welcome_max_s={max(welcomed, default=float('nan')):.2f} "
        f"opened_p50_s={quantile(opened, 0.5):.2f} opened_p99_s={quantile(opened, 0.99):.2f} "
        f"rooms_in_memory_before={before[0] if before else float('nan'):.0f} "
        f"other_rooms={others} other_p99_during_ms={ms(quantile(during, 0.99))} "
        f"other_p50_during_ms={ms(quantile(during, 0.5))} other_p99_run_ms={ms(line.p99)} "
        f"other_p99_by_1s_ms={','.join(around)} "
        f"server_cpu_s={cpu:.1f} client_cores={sum(o['cpu'] for o in outs) / seconds:.2f}",
        flush=True,
    )
    return {
        "kind": "storm",
        "tree": tree.name,
        "rooms": others,
        "reconnecting": len(seats),
        "welcomed": len(welcomed),
        "within_5s": within,
        "welcome_p50": quantile(welcomed, 0.5),
        "welcome_p99": quantile(welcomed, 0.99),
        "other_p99_during": quantile(during, 0.99),
        "other_p50_during": quantile(during, 0.5),
        "other_p99_by_1s": by_second,
        "server_cpu_s": cpu,
    }


# ---- the trees


@contextlib.contextmanager
def baseline_tree(ref: str, tmp: Path) -> Iterator[Tree]:
    """The previous release at ``ref``, in a detached worktree under ``tmp``."""
    where = tmp / "baseline"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), ref],
        check=True,
        capture_output=True,
    )
    try:
        yield Tree(f"release-{ref}", where / "src", old=True)
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)],
            check=False,
            capture_output=True,
        )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rooms", default="200,500,1000", help="numbers of rooms to try (200,500,1000)")
    parser.add_argument(
        "--seconds", type=float, default=40.0, help="seconds of each run, connecting included (40)"
    )
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds before the warm figures (20)")
    parser.add_argument("--quick", action="store_true", help="10 and 50 rooms, 8 seconds each, 3 of warm-up")
    parser.add_argument("--database", default=None, help="a PostgreSQL URL it may empty (SQLite otherwise)")
    parser.add_argument("--durability", default="full", choices=["full", "normal"], help="(full)")
    parser.add_argument("--baseline", default=BASELINE, help=f"the previous release's commit ({BASELINE})")
    parser.add_argument("--no-baseline", action="store_true", help="our tree only")
    parser.add_argument("--workers", type=int, default=0, help="client processes (0: by the rooms)")
    parser.add_argument(
        "--nodes",
        default="1,2",
        help="nodes of ours to try, several behind nginx (PostgreSQL only; the release: one) (1,2)",
    )
    parser.add_argument("--storm", action="store_true", help="the reconnect storm instead of the rooms")
    parser.add_argument("--storm-rooms", type=int, default=1000, help="rooms whose clients reconnect (1000)")
    parser.add_argument("--storm-fill", type=float, default=15.0, help="seconds of quick play before (15)")
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        help="keep the figures in this file, beside those of other runs (each run replaces its own)",
    )
    parser.add_argument(
        "--plot", type=Path, default=None, help="draw the figures (of --json's file) as this PNG"
    )
    parser.add_argument("--replot", action="store_true", help="draw --json's file as --plot, running nothing")
    args = parser.parse_args(argv)
    kept: list[dict[str, Any]] = []
    if args.replot and (args.json is None or args.plot is None):
        parser.error("--replot needs --json (the figures) and --plot (the image)")
    if args.plot is not None and importlib.util.find_spec("matplotlib") is None:
        parser.error("--plot needs matplotlib: pip install 'unotable[plot]'")
    if args.json is not None:
        try:
            kept = web_figures.load(args.json)
        except (OSError, ValueError) as exc:  # unreadable, not JSON, or not the benchmark's
            parser.error(f"--json: {exc}")
    if args.replot:
        if not kept:
            parser.error(f"--replot: {args.json} holds no figures")
        for row in web_figures.summary(kept):
            print(row)
        web_figures.plot(kept, args.plot)
        print(f"drawn: {args.plot}")
        return 0
    if args.quick:
        args.rooms, args.seconds, args.warmup = "10,50", 8.0, 3.0
        args.storm_rooms, args.storm_fill = min(args.storm_rooms, 50), min(args.storm_fill, 4.0)
    counts = [int(x) for x in str(args.rooms).split(",")]
    node_counts = sorted({int(x) for x in str(args.nodes).split(",")})
    if any(n < 1 for n in node_counts):
        parser.error("--nodes: numbers of at least 1")
    where = "PostgreSQL" if args.database else "SQLite"
    load = os.getloadavg()
    print(
        f"bench-web: {os.cpu_count()} cores, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, {where}, "
        f"durability={args.durability}, {args.seconds:g} s a run (warm after {args.warmup:g} s), "
        f"2 people a room acting {PACE[0]:g}-{PACE[1]:g} s after their turn"
    )
    ours = Tree("ours", ROOT / "src")
    with tempfile.TemporaryDirectory(prefix="unotable-bench-web-") as name:
        tmp = Path(name)
        with server(ours, tmp, args.database, args.durability) as proc:
            print_page_weight(f"http://127.0.0.1:{proc.port}")  # type: ignore[attr-defined]
        with contextlib.ExitStack() as stack:
            trees = [ours]
            if not args.no_baseline:
                trees.append(stack.enter_context(baseline_tree(args.baseline, tmp)))
            runs: list[dict[str, Any]] = []
            if args.storm:
                runs = [{"database": where, **run_storm(tree, args, tmp)} for tree in trees]
                keep(args, runs, load[0])
                return 0
            configs = [(ours, k) for k in node_counts if k == 1 or args.database]
            if len(configs) < len(node_counts):
                print("nodes: several nodes need PostgreSQL (--database URL): one node only on SQLite")
            configs += [(tree, 1) for tree in trees[1:]]  # the release has no cluster: one node
            held: dict[tuple[str, int], int] = {}
            for n in counts:
                for tree, k in configs:
                    line = run_line(tree, n, args, tmp, nodes=k)
                    print(line.text(), flush=True)
                    runs.append({"kind": "rooms", "database": where, **asdict(line)})
                    if line.p99 < HELD_P99:
                        held[tree.name, k] = max(held.get((tree.name, k), 0), n)
            for tree, k in configs:
                print(
                    f"held tree={tree.name} nodes={k} rooms_at_p99_under_50ms={held.get((tree.name, k), 0)} "
                    f"(tried {','.join(map(str, counts))}, whole run)",
                    flush=True,
                )
            keep(args, runs, load[0])
    return 0


def keep(args: argparse.Namespace, runs: list[dict[str, Any]], load: float) -> None:
    """``--json``: keep ``runs`` beside the file's others; ``--plot``: draw them all. ``load``:
    the machine's load average when they began."""
    stamp = time.strftime("%Y-%m-%d %H:%M")
    runs = [{**web_figures.clean(r), "when": stamp, "load": round(load, 2)} for r in runs]
    if args.json is not None:
        runs = web_figures.record(args.json, runs)
        print(f"kept: {args.json} ({len(runs)} runs)")
    if args.plot is not None:
        web_figures.plot(runs, args.plot)
        print(f"drawn: {args.plot}")


if __name__ == "__main__":
    sys.exit(main())
