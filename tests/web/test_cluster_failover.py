"""Three ``uno serve`` nodes on one PostgreSQL database behind nginx round-robin (issue 24), end
to end on loopback: 30 rooms of bots and scripted people play while one node is killed with
SIGKILL mid-hand and then another owner is frozen with SIGSTOP past its lease and thawed.

Every room plays on; each client's sequence numbers never go back and, on one connection, come
one by one; what every client saw at each step is what the stored log replays to; the frozen
node drops the rooms it lost, so no room ends with two owners or a forked log. Nothing here
asserts a time: the waits have deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from unotable.match import Game
from unotable.rules import Rules
from unotable.web.cluster import LEASE_SECONDS, NODE_COOKIE_SECONDS, RENEW_SECONDS, status
from unotable.web.fanout import events_for
from unotable.web.gamelog import replay
from unotable.web.storage import Store

from .conftest import fresh_postgres, postgres_url
from .test_nginx import CONF, NGINX_HOST, _free_port, _need, _tls

BOT_ROOMS = 24
PERSON_ROOMS = 6
PING = 3.0
"""Seconds between a client's pings (the page: 10 s, and at once after an unanswered move)."""
SILENCE = 8.0
"""Seconds a client waits for a message before it reconnects (a frozen node says nothing)."""


@dataclass
class Node:
    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def start_node(
    name: str,
    url: str,
    tmp: Path,
    *,
    lookups_per_second: float = 0,
    durability: str = "normal",
    port: int | None = None,
) -> Node:
    port = port or _free_port("127.0.0.1")
    log = tmp / f"{name}.log"
    cmd = [
        sys.executable, "-m", "unotable", "serve", "--port", str(port), "--database", url,
        "--node-name", name, "--durability", durability, "--no-access-log",
        "--forwarded-allow-ips", "127.0.0.1", "--max-connections", "10000",
        "--connections-per-address", "10000", "--rate", "1000", "--rooms-per-address", "0",
        "--seats-per-address", "0", "--lookups-per-second", f"{lookups_per_second:g}",
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    return Node(name, port, proc, log)


def wait_ready(node: Node, deadline: float) -> None:
    while True:
        try:
            with urllib.request.urlopen(node.url + "/readyz", timeout=2) as res:
                if res.status == 200:
                    return
        except OSError:
            pass
        if node.proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"node {node.name} did not start: {node.log.read_text()}")
        time.sleep(0.1)


def cluster_site(
    ports: list[int], port: int, cert: Path, key: Path, names: dict[str, int] | None = None
) -> str:
    """docs/deploy/nginx.conf with the nodes as its upstream servers (round-robin), and for each
    node of ``names`` (its ``--node-name`` -> its port) an upstream of its own that the site's
    map picks by the node's cookie, the other nodes as backups (as the file's comments say)."""
    text = CONF.read_text()
    text = re.sub(r"server \{\n    listen 80;.*?\n\}\n", "", text, flags=re.S)
    servers = "\n    ".join(f"server 127.0.0.1:{p};" for p in ports)
    text = text.replace("server 127.0.0.1:8000;", servers, 1)
    own = [(name, f"unotable_{name}", p) for name, p in (names or {}).items()]
    entries = "".join(f"\n    {name} {upstream};" for name, upstream, _ in own)
    text = text.replace("    default unotable;\n", f"    default unotable;{entries}\n", 1)
    for _, upstream, p in own:
        backups = "".join(f" server 127.0.0.1:{q} backup;" for q in ports if q != p)
        text += f"upstream {upstream} {{ server 127.0.0.1:{p};{backups} keepalive 16; }}\n"
    text = text.replace("listen 443 ssl;", f"listen {NGINX_HOST}:{port} ssl;")
    text = re.sub(r"ssl_certificate +\S+;", f"ssl_certificate {cert};", text)
    return re.sub(r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};", text)


@dataclass
class Service:
    nodes: list[Node]
    base: str
    url: str
    spare: list[int] = field(default_factory=list)
    """Ports nginx sends to though no node listens there yet (a node joins by starting on one)."""
    tmp: Path | None = None


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    """Three nodes on a fresh database and nginx in front; the base URL through nginx."""
    with running_service(tmp_path, fresh_postgres(postgres_url())) as running:
        yield running


@contextlib.contextmanager
def running_service(
    tmp_path: Path,
    url: str,
    *,
    durability: str = "normal",
    count: int = 3,
    spare: int = 0,
    connections: int = 1024,
) -> Iterator[Service]:
    """``count`` nodes on the database at ``url`` and nginx in front, until the block ends; nginx
    also lists ``spare`` ports no node listens on yet (:attr:`Service.spare`). ``connections``:
    nginx's worker connections (each client's takes two, its own and the one to a node)."""
    nginx, openssl = _need("nginx"), _need("openssl")
    plain = "postgresql://" + url.split("://", 1)[1]
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={NGINX_HOST}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    nodes = [
        start_node(f"node{i}", plain, tmp_path, durability=durability) for i in range(count)
    ]  # one migrates
    spares = [_free_port("127.0.0.1") for _ in range(spare)]
    proc = None
    try:
        deadline = time.monotonic() + 60
        for node in nodes:
            wait_ready(node, deadline)
        port = _free_port(NGINX_HOST)
        (tmp_path / "site.conf").write_text(
            cluster_site([n.port for n in nodes] + spares, port, cert, key, {n.name: n.port for n in nodes})
        )
        temp = tmp_path / "nginx-temp"
        temp.mkdir()
        user = "user root;\n" if os.geteuid() == 0 else ""
        (tmp_path / "nginx.conf").write_text(
            f"{user}worker_processes 1;\nworker_rlimit_nofile {2 * connections};\ndaemon off;\n"
            f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
            f"events {{ worker_connections {connections}; }}\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {temp}/body;\n"
            f"  proxy_temp_path {temp}/proxy;\n  fastcgi_temp_path {temp}/fastcgi;\n"
            f"  uwsgi_temp_path {temp}/uwsgi;\n  scgi_temp_path {temp}/scgi;\n"
            f"  include {tmp_path}/site.conf;\n}}\n"
        )
        proc = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")])
        while True:
            try:
                socket.create_connection((NGINX_HOST, port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("nginx did not start") from None
                time.sleep(0.05)
        yield Service(nodes, f"https://{NGINX_HOST}:{port}", url, spares, tmp_path)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        for node in nodes:
            if node.proc.poll() is None:
                node.proc.send_signal(signal.SIGCONT)
                node.proc.terminate()
        for node in nodes:
            try:
                node.proc.wait(20)
            except subprocess.TimeoutExpired:
                node.proc.kill()


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30, context=_tls()) as res:
        out: dict[str, Any] = json.loads(res.read())
        return out


@dataclass
class Client:
    """One client of a room (a spectator, or a scripted person with ``token``), reconnecting
    through nginx whenever its connection ends or goes silent. Like the page, it pings every
    :data:`PING` seconds and reconnects when nothing (not even a pong) has come for
    :data:`SILENCE`; a person whose move was refused (``storage``: the database was away) moves
    again."""

    code: str
    player: int | None = None
    token: str | None = None
    seen: dict[tuple[int, int], list[Any]] = field(default_factory=dict)
    last: tuple[int, int] = (-1, -1)
    finished: bool = False
    connections: int = 0
    faults: list[str] = field(default_factory=list)
    heard: list[tuple[float, int, tuple[int, int]]] = field(default_factory=list)
    """(time.monotonic(), connection number, step) of every update with events heard."""
    _acted: tuple[int, int] | None = None
    _latest: dict[str, Any] | None = None

    async def run(self, base: str, stop: asyncio.Event) -> None:
        url = base.replace("https://", "wss://") + f"/ws/{self.code}"
        while not stop.is_set():
            try:
                async with connect(url, ssl=_tls(), open_timeout=5, max_size=None) as ws:
                    self.connections += 1
                    self._acted = None  # what was sent on the old connection may never have arrived
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    await self._listen(ws, stop)
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, InvalidStatus):
                pass
            if not stop.is_set():
                await asyncio.sleep(0.3)

    async def _listen(self, ws: Any, stop: asyncio.Event) -> None:
        here: tuple[int, int] | None = None  # the last step heard on this connection
        heard = pinged = time.monotonic()
        while not stop.is_set():
            if time.monotonic() - pinged >= PING:  # however busy the room: the server closes a silent socket
                pinged = time.monotonic()
                await ws.send(json.dumps({"type": "ping"}))
            try:
                raw = await asyncio.wait_for(ws.recv(), PING)
            except TimeoutError:
                if time.monotonic() - heard > SILENCE:
                    return
                continue
            heard = time.monotonic()
            m = json.loads(raw)
            if m["type"] == "error" and m.get("code") == "storage" and self._latest is not None:
                self._acted = None
                await asyncio.sleep(0.5)
                await self._play(ws, self._latest, here or (-1, -1))
                continue
            if m["type"] not in ("welcome", "update"):
                continue
            key = (int(m["table"]["game_number"]), int(m["seq"]))
            if key < self.last:
                self.faults.append(f"{self.code}: went back from {self.last} to {key}")
            if m["type"] == "update" and m["events"]:
                if here is not None and here[0] == key[0] and key[1] != here[1] + 1:
                    self.faults.append(f"{self.code}: a gap on one connection, {here} then {key}")
                if key in self.seen and self.seen[key] != m["events"]:
                    self.faults.append(f"{self.code}: step {key} heard twice, differently")
                self.seen[key] = m["events"]
                self.heard.append((heard, self.connections, key))
            here = key
            self.last = max(self.last, key)
            self.finished = m["table"]["status"] == "finished"
            if self.token is not None:
                self._latest = m
                await self._play(ws, m, key)

    async def _play(self, ws: Any, m: dict[str, Any], key: tuple[int, int]) -> None:
        if self._acted == key or self.finished:
            return
        view, table = m["view"], m["table"]
        if table["hand_over"]:
            self._acted = key
            await ws.send(json.dumps({"type": "next_hand", "token": self.token}))
            return
        legal = view.get("legal") or []
        if view.get("seat") is None or view.get("current") != view.get("seat") or not legal:
            return
        plays = [a for a in legal if a.startswith("play") and a.endswith("uno")] or [
            a for a in legal if a.startswith("play")
        ]
        self._acted = key
        await ws.send(json.dumps({"type": "act", "token": self.token, "action": (plays or legal)[0]}))


def _leases(store: Store) -> dict[str, tuple[str, float]]:
    return {lease.code: (lease.node, lease.expires_in) for lease in status(store)[1]}


def node_metric(node: Node, name: str, timeout: float = 5) -> float:
    """The value of the metric ``name`` (one with no labels) on the node's ``/metrics``."""
    with urllib.request.urlopen(node.url + "/metrics", timeout=timeout) as res:
        text = res.read().decode()
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert found, f"the node's /metrics shows {name}"
    return float(found.group(1))


def _owned(node: Node) -> int:
    return int(node_metric(node, "unotable_cluster_rooms_owned"))


async def _until(what: str, done: Any, seconds: float, clients: list[Client] | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            where = [(c.code, c.player, c.last, c.connections) for c in clients or []]
            raise AssertionError(f"not within {seconds:g} s: {what}; the clients: {where}")
        await asyncio.sleep(0.25)


class _Recorder:
    """What one seat (``None``: a spectator) saw at each step of a replayed game."""

    def __init__(self, out: dict[tuple[int, int], Any], number: int, player: int | None) -> None:
        self.out, self.number, self.player, self.step = out, number, player, 0

    def __call__(self, game: Game, seat: str | None, action: str | None, events: list[Any]) -> None:
        if action is not None:
            self.step += 1
            who = None if self.player is None else game.seat_of(self.player)
            self.out[(self.number, self.step)] = json.loads(json.dumps(events_for(game, who, events)))


def _expected(store: Store, client: Client) -> dict[tuple[int, int], Any]:
    """What ``client``'s seat saw at every step of the room's stored games, by replaying them."""
    out: dict[tuple[int, int], Any] = {}
    numbers = sorted({g for g, _ in client.seen})
    for number in numbers:
        stored = store.load_game(client.code, number)
        assert stored is not None
        replay(Rules.from_dict(stored.rules), stored, _Recorder(out, number, client.player))
    return out


def make_rooms(base: str, bots: int, people: int) -> list[Client]:
    """``bots`` rooms of two bots and ``people`` rooms of a person and a bot (with a spectator),
    made through ``base``: a client for each seat taken and each watcher."""
    clients: list[Client] = []
    for _ in range(bots):
        room = _post(base, "/api/rooms", {"players": 2, "seats": ["greedy", "greedy"], "bot_delay": 0.3})
        clients.append(Client(room["code"]))
    for i in range(people):
        room = _post(base, "/api/rooms", {"players": 2, "seats": ["human", "greedy"], "bot_delay": 0.2})
        seat = _post(base, f"/api/rooms/{room['code']}/join", {"name": f"P{i}"})
        clients.append(Client(room["code"], seat["player"], seat["token"]))
        clients.append(Client(room["code"]))  # and a spectator of the same room
    return clients


def nothing_lost(store: Store, clients: list[Client]) -> None:
    """No client saw a fault, and what each saw equals a replay of the stored log."""
    faults = [f for c in clients for f in c.faults]
    assert not faults, faults[:10]
    for c in clients:
        expected = _expected(store, c)  # replaying raises on a forked (illegal) log
        for key, events in c.seen.items():
            assert expected.get(key) == events, f"room {c.code} step {key}: stored and seen differ"


def progressed(clients: list[Client], since: dict[int, tuple[int, int]], steps: int) -> bool:
    """Every client's room finished, dealt again, or went ``steps`` on since ``since``."""
    return all(
        c.finished or c.last[0] > since[i][0] or c.last[1] >= since[i][1] + steps
        for i, c in enumerate(clients)
    )


def test_rooms_play_on_through_a_killed_node_and_a_frozen_owner(service: Service) -> None:
    base = service.base
    clients = make_rooms(base, BOT_ROOMS, PERSON_ROOMS)
    store = Store(service.url)
    by_name = {n.name: n for n in service.nodes}

    async def scenario() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(base, stop)) for c in clients]
        try:
            await _until("every room plays", lambda: all(c.last[1] >= 3 for c in clients), 90, clients)
            owners = _leases(store)
            assert len({node for node, _ in owners.values()}) >= 2, "round-robin spreads the rooms"
            # SIGKILL the node that owns the most rooms, mid-hand.
            victim = max(by_name, key=lambda n: sum(1 for o, _ in owners.values() if o == n))
            moved = {code for code, (o, _) in owners.items() if o == victim}
            before = {i: c.last for i, c in enumerate(clients)}
            by_name[victim].proc.send_signal(signal.SIGKILL)
            by_name[victim].proc.wait(10)
            await _until(
                "every room plays on after the kill", lambda: progressed(clients, before, 4), 120, clients
            )
            after = _leases(store)
            assert all(after[code][0] != victim for code in moved), "the survivors own its rooms"
            # SIGSTOP a surviving owner past its lease, then SIGCONT it.
            survivors = [n for n in by_name if n != victim]
            frozen = max(survivors, key=lambda n: sum(1 for o, _ in after.values() if o == n))
            by_name[frozen].proc.send_signal(signal.SIGSTOP)
            await asyncio.sleep(LEASE_SECONDS + 2 * RENEW_SECONDS + 1)  # past its lease, by design
            before = {i: c.last for i, c in enumerate(clients)}
            await _until(
                "every room plays on with its owner frozen",
                lambda: progressed(clients, before, 3),
                120,
                clients,
            )
            by_name[frozen].proc.send_signal(signal.SIGCONT)
            before = {i: c.last for i, c in enumerate(clients)}
            await _until(
                "every room plays on after the thaw", lambda: progressed(clients, before, 3), 120, clients
            )

            def one_owner_each() -> bool:
                leases = _leases(store)
                live = [by_name[n] for n in survivors]
                counts = {n.name: _owned(n) for n in live}
                held = {n: sum(1 for o, left in leases.values() if o == n and left > 0) for n in counts}
                return counts == held

            await _until("every node owns exactly the rooms whose lease it holds", one_owner_each, 30)
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())

    nothing_lost(store, clients)
    assert sum(c.connections for c in clients) > len(clients), "clients reconnected"
    store.close()


def _post_cookie(base: str, path: str, body: dict[str, Any], cookie: str = "") -> tuple[dict[str, Any], str]:
    """:func:`_post` with ``cookie`` sent; the answer and its ``unotable_node`` cookie ("" if none)."""
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    with urllib.request.urlopen(req, timeout=30, context=_tls()) as res:
        out: dict[str, Any] = json.loads(res.read())
        set_cookies = res.headers.get_all("Set-Cookie") or []
    ours = [c for c in set_cookies if c.startswith("unotable_node=")]
    if ours:  # for the page's socket, opened right after: gone before a frozen node is noticed
        assert f"max-age={NODE_COOKIE_SECONDS}" in ours[-1].lower().replace(" ", "")
    return out, ours[-1].split(";", 1)[0] if ours else ""


def test_nginx_sends_a_rooms_websockets_to_the_node_its_cookie_names(service: Service) -> None:
    """A node names itself (cookie ``unotable_node``) on its answers about a room it holds, also
    when another node relayed the request to it; the documented site sends what carries the
    cookie to that node, so the room's WebSockets reach their owner and none is relayed (with
    round-robin alone about two in three are, on three nodes)."""
    store = Store(service.url)
    rooms: list[tuple[str, str, str]] = []
    for i in range(3):
        made, cookie = _post_cookie(
            service.base, "/api/rooms", {"players": 4, "seats": ["human"] * 3 + ["greedy"]}
        )
        owner = _leases(store)[made["code"]][0]
        assert cookie == f"unotable_node={owner}", "the room's owner names itself"
        for _ in range(3):  # someone else opening the link: round-robin, so relayed by two nodes of three
            seat, again = _post_cookie(service.base, f"/api/rooms/{made['code']}/join", {"name": f"P{i}"})
            assert again == cookie, "the owner's cookie comes back through the relay"
        rooms.append((made["code"], seat["token"], cookie))

    async def relayed_while_open() -> float:
        async with contextlib.AsyncExitStack() as stack:
            for code, token, cookie in rooms:
                for _ in range(3):
                    ws = await stack.enter_async_context(
                        connect(
                            service.base.replace("https://", "wss://") + f"/ws/{code}",
                            ssl=_tls(),
                            open_timeout=10,
                            additional_headers={"Cookie": cookie},
                        )
                    )
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
            return sum(node_metric(n, "unotable_cluster_relayed_sockets") for n in service.nodes)

    assert asyncio.run(relayed_while_open()) == 0
