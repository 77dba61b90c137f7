"""Chaos on a service of ``uno serve`` nodes behind nginx round-robin (issue 31, "Moves without
stalls"), with rooms of bots and scripted people playing through it, each client pinging like
the page: a node stopped with SIGTERM while a slow client holds its drain open, and the
PostgreSQL server restarted under the service (the kill and the freeze:
``test_cluster_failover.py``).

Nothing acknowledged is lost: every client's sequence numbers never go back and come one by one
on a connection, and what every client saw is what the stored log replays to. Each scenario
prints what it measured (the stall of every room moved: from the signal to the first update
served by its new node); nothing here asserts a time beyond the deadlines of its waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from unotable.web.cluster import BALANCE_SLACK, LEASE_SECONDS, status
from unotable.web.storage import Store

from .conftest import fresh_postgres, postgres_url
from .test_cluster_failover import (
    Client,
    Node,
    Service,
    _leases,
    _post,
    _until,
    make_rooms,
    nothing_lost,
    progressed,
    running_service,
    service,
    start_node,
    wait_ready,
)
from .test_nginx import _free_port

__all__ = ["service"]  # the fixture, imported

pytestmark = pytest.mark.surface


def _stalls(
    clients: list[Client], codes: set[str], start: float, connections: dict[int, int]
) -> dict[str, float]:
    """Room -> seconds from ``start`` to the first update one of its clients heard on a
    connection opened after it (served by the room's new node)."""
    out: dict[str, float] = {}
    for i, c in enumerate(clients):
        if c.code not in codes:
            continue
        first = next((t for t, n, _ in c.heard if n > connections[i] and t > start), None)
        if first is not None:
            out[c.code] = min(out.get(c.code, first - start), first - start)
    return out


def _slow_body(node: Node) -> socket.socket:
    """A client sending a request's body slowly to ``node``: uvicorn's drain waits for it (up to
    the guard's 10 s for a body), as for any slow client at a real stop."""
    sock = socket.create_connection(("127.0.0.1", node.port), timeout=5)
    sock.sendall(
        b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{"
    )
    return sock


def test_sigterm_hands_every_room_to_another_node_at_once(service: Service) -> None:
    """SIGTERM: the node gives every lease back and closes its rooms' connections with 1012
    before it drains its connections (a slow client keeps it draining for seconds): every room
    it held is served by another node while it is still draining, nothing lost."""
    base = service.base
    clients = make_rooms(base, 15, 3)
    store = Store(service.url)
    by_name = {n.name: n for n in service.nodes}
    out: dict[str, float] = {}
    victims: list[str] = []

    async def scenario() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(base, stop)) for c in clients]
        try:
            await _until("every room plays", lambda: all(c.last[1] >= 3 for c in clients), 90, clients)
            owners = _leases(store)
            victim = max(by_name, key=lambda n: sum(1 for o, _ in owners.values() if o == n))
            victims.append(victim)
            moved = {code for code, (o, _) in owners.items() if o == victim}
            node = by_name[victim]
            slow = _slow_body(node)
            before = {i: c.last for i, c in enumerate(clients)}
            connections = {i: c.connections for i, c in enumerate(clients)}
            start = time.monotonic()
            node.proc.send_signal(signal.SIGTERM)

            def served_elsewhere() -> bool:
                leases = _leases(store)
                stalls = _stalls(clients, moved, start, connections)
                return all(leases[c][0] != victim for c in moved) and set(stalls) == moved

            await _until("every room of the stopped node served by another", served_elsewhere, 30, clients)
            assert node.proc.poll() is None, "the rooms moved before the node drained its connections"
            out.update(_stalls(clients, moved, start, connections))
            slow.close()
            assert await asyncio.to_thread(node.proc.wait, 30) in (0, -signal.SIGTERM)
            await _until("every room plays on", lambda: progressed(clients, before, 4), 90, clients)
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())
    figures = sorted(out.values())
    print(
        f"\nSIGTERM: {len(figures)} room(s) moved; stall from the signal to the first update served "
        f"by the new node: median {statistics.median(figures):.2f} s, max {figures[-1]:.2f} s "
        f"(load {os.getloadavg()[0]:.1f})"
    )
    assert victims and victims[0] not in [n.name for n in status(store)[0]], "it left the nodes table"
    nothing_lost(store, clients)
    store.close()


class Postgres:
    """A PostgreSQL server of the test's own (Debian's binaries: initdb, pg_ctl) on a free
    loopback port in a temporary folder, so that the test may restart it; run as the
    ``postgres`` user when the tests run as root (CI)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not found:
            if os.environ.get("CI"):
                pytest.fail("PostgreSQL's binaries are missing: .ci/run installs the postgresql package")
            pytest.skip("no PostgreSQL binaries (apt-get install postgresql)")
        self.bin = Path(found[-1]).parent
        self.dir = Path(tempfile.mkdtemp(prefix="unotable-pg-"))
        self.port = _free_port("127.0.0.1")
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self._run("initdb", "-D", str(self.data), "-U", "unotable", "--auth=trust", "-E", "UTF8")
        self.start()

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://unotable@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / program), *args], check=True, capture_output=True, timeout=120
        )

    def _ctl(self, action: str, *args: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=on"
        self._run(
            "pg_ctl", action, "-D", str(self.data), "-w", "-l", str(self.dir / "log"), "-o", options, *args
        )

    def start(self) -> None:
        self._ctl("start")

    def restart(self, mode: str) -> None:
        self._ctl("restart", "-m", mode)

    def stop_for(self, seconds: float) -> None:
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w")
        time.sleep(seconds)
        self.start()

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    server = Postgres()
    try:
        yield server
    finally:
        server.stop()


def test_a_postgresql_crash_and_restart_loses_nothing(own_postgres: Postgres, tmp_path: Path) -> None:
    """PostgreSQL crashes (an immediate shutdown: no checkpoint, recovery from its WAL) and comes
    back under three nodes (``--durability full``) with rooms playing through nginx: moves made
    meanwhile are refused (never acknowledged) and made again; every room plays on once it is
    back, and every move anyone heard is in the log."""
    with running_service(tmp_path, own_postgres.url, durability="full") as service:
        base = service.base
        clients = make_rooms(base, 12, 3)
        store = Store(service.url)

        async def scenario() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(c.run(base, stop)) for c in clients]
            try:
                await _until("every room plays", lambda: all(c.last[1] >= 3 for c in clients), 90, clients)
                before = {i: c.last for i, c in enumerate(clients)}
                start = time.monotonic()
                await asyncio.to_thread(own_postgres.restart, "immediate")
                down = time.monotonic() - start
                connections = {i: c.connections for i, c in enumerate(clients)}
                await _until("every room plays on", lambda: progressed(clients, before, 4), 90, clients)
                print(
                    f"\nPostgreSQL restarted (immediate) in {down:.1f} s; every room played on within "
                    f"{time.monotonic() - start:.1f} s; reconnections meanwhile: "
                    f"{sum(c.connections - connections[i] for i, c in enumerate(clients))}"
                )
                # Away longer than a lease: every lease runs out meanwhile; the nodes confirm theirs
                # (nobody took them) or take them again, and no room is served twice.
                before = {i: c.last for i, c in enumerate(clients)}
                connections = {i: c.connections for i, c in enumerate(clients)}
                start = time.monotonic()
                await asyncio.to_thread(own_postgres.stop_for, LEASE_SECONDS + 2)
                await _until("every room plays on", lambda: progressed(clients, before, 4), 90, clients)
                print(
                    f"PostgreSQL away {LEASE_SECONDS + 2:g} s: every room played on within "
                    f"{time.monotonic() - start:.1f} s of its stop; reconnections meanwhile: "
                    f"{sum(c.connections - connections[i] for i, c in enumerate(clients))}"
                )
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(scenario())
        store.engine.dispose()
        nothing_lost(store, clients)
        store.close()


def test_a_node_that_joins_takes_its_share_and_new_rooms_go_to_the_least_loaded(tmp_path: Path) -> None:
    """One node holds every room; a second node joins (nginx already lists its port): the first
    hands it the rooms beyond its share (their clients reconnect to the new owner), every room
    plays on, nothing lost. Then rooms made through the first node alone are placed on the
    node holding fewer."""
    with running_service(tmp_path, fresh_postgres(postgres_url()), count=1, spare=1) as service:
        base = service.base
        clients = make_rooms(base, 14, 2)
        codes = {c.code for c in clients}
        store = Store(service.url)
        first, plain = service.nodes[0], "postgresql://" + service.url.split("://", 1)[1]
        tmp = service.tmp
        assert tmp is not None
        out: dict[str, float] = {}

        def held(name: str) -> int:
            return sum(
                1 for code, (o, left) in _leases(store).items() if o == name and left > 0 and code in codes
            )

        async def scenario() -> None:
            stop = asyncio.Event()
            tasks = [asyncio.create_task(c.run(base, stop)) for c in clients]
            try:
                await _until("every room plays", lambda: all(c.last[1] >= 3 for c in clients), 90, clients)
                assert held("node0") == len(codes)
                connections = {i: c.connections for i, c in enumerate(clients)}
                second = start_node("node1", plain, tmp, port=service.spare[0])
                service.nodes.append(second)
                await asyncio.to_thread(wait_ready, second, time.monotonic() + 60)
                share = -(-len(codes) // 2)
                await _until(
                    "the new node holds its share",
                    lambda: held("node1") >= len(codes) - share - BALANCE_SLACK,
                    60,
                )
                before = {i: c.last for i, c in enumerate(clients)}
                await _until("every room plays on", lambda: progressed(clients, before, 4), 90, clients)
                moved = {c for c, (o, _) in _leases(store).items() if o == "node1"}
                out.update(_gaps(clients, moved, connections))
            finally:
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(scenario())
        nothing_lost(store, clients)
        figures = sorted(out.values())
        print(
            f"\nnode joined: {held('node0')} room(s) stay, {len(figures)} moved to it; the longest gap "
            f"between two updates across the move: median {statistics.median(figures):.2f} s, "
            f"max {figures[-1]:.2f} s (load {os.getloadavg()[0]:.1f})"
        )
        # Rooms made through node0 alone go to node1 while it holds fewer.
        made = [
            _post(first.url, "/api/rooms", {"players": 2, "seats": ["human", "greedy"]})["code"]
            for _ in range(12)
        ]
        owners = [_leases(store)[code][0] for code in made]
        assert owners.count("node1") >= 4, owners  # one in two once they hold as many
        store.close()


def _gaps(clients: list[Client], codes: set[str], connections: dict[int, int]) -> dict[str, float]:
    """Room -> the longest its clients went without an update across their reconnection."""
    out: dict[str, float] = {}
    for i, c in enumerate(clients):
        if c.code not in codes:
            continue
        for (t0, n0, _), (t1, n1, _) in itertools.pairwise(c.heard):
            if n1 > n0 and n1 > connections[i]:
                out[c.code] = max(out.get(c.code, 0.0), t1 - t0)
                break
    return out


def test_rooms_made_and_played_through_nginx_end_spread_over_the_nodes(service: Service) -> None:
    """45 rooms made through nginx round-robin and watched through it: the nodes end holding
    their share each, give or take the slack (an audit saw 100 of 100 rooms on one node; round-
    robin alone gave 33/34/33 but also 43/28/29 here)."""
    clients = make_rooms(service.base, 45, 0)
    codes = {c.code for c in clients}
    store = Store(service.url)
    counts: dict[str, int] = {}

    def spread() -> bool:
        leases = _leases(store)
        counts.clear()
        counts.update(
            {
                n.name: sum(1 for c in codes if leases[c][0] == n.name and leases[c][1] > 0)
                for n in service.nodes
            }
        )
        return sum(counts.values()) == len(codes) and max(counts.values()) <= 15 + BALANCE_SLACK

    async def scenario() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(service.base, stop)) for c in clients]
        try:
            await _until("every room plays", lambda: all(c.last[1] >= 3 for c in clients), 90, clients)
            await _until("the rooms spread", spread, 60)  # the sweeper moves a few rooms a pass
        finally:
            print(f"\nrooms held by node: {counts}")
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())
    print(f"\n45 rooms made and played through nginx, held: {counts}")
    nothing_lost(store, clients)
    store.close()
