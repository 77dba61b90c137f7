"""Several nodes on one PostgreSQL database (issue 24): migrations once under an advisory lock,
room leases with fencing numbers, a stale owner's writes refused, relays between nodes, the
hand-over of a node stopped with SIGTERM, and ``uno cluster status``."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from unotable.web.cluster import Cluster, Peer, RoomElsewhereError, default_advertise, status
from unotable.web.fanout import Listener
from unotable.web.hub import Hub
from unotable.web.records import StoredSeat
from unotable.web.settings import parse_settings
from unotable.web.storage import DEAL, LeaseLostError, Store

from .conftest import fresh_postgres, postgres_url
from .test_cluster_failover import Node, node_metric, start_node, wait_ready


@pytest.fixture
def pg() -> str:
    """A fresh, migrated PostgreSQL database's SQLAlchemy URL."""
    url = fresh_postgres(postgres_url())
    store = Store(url)
    store.migrate()
    store.close()
    return url


def _room(store: Store, code: str) -> int:
    seats = [StoredSeat(0, "greedy", None, None), StoredSeat(1, "greedy", None, None)]
    return store.create_room(code, {}, seats, {"edition": "classic"}, 2, 1, 7)


def _expire(store: Store, code: str) -> None:
    """The lease of room ``code`` runs out (its owner froze past it)."""
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE room_leases SET expires_at = now() - interval '1 second' WHERE code = :c"),
            {"c": code},
        )


def test_nodes_started_together_migrate_once() -> None:
    url = fresh_postgres(postgres_url())
    errors: list[BaseException] = []

    def migrate() -> None:
        store = Store(url)
        try:
            store.migrate()
        except BaseException as exc:
            errors.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=migrate) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    store = Store(url)
    with store.engine.begin() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0005"
        assert conn.execute(text("SELECT count(*) FROM cluster")).scalar_one() == 1
    store.close()


def test_a_renewal_skips_a_lease_the_writer_holds_and_renews_it_next_time(pg: str) -> None:
    """The moves' writer holds its rooms' lease rows FOR SHARE while its fenced INSERT commits;
    a renewal that waited for them (in whatever order it met them) deadlocked with it, a second
    each time. It skips a locked row, does not call it lost, and renews it next time."""
    store = Store(pg)
    a = Cluster(store, "a", "http://10.0.0.1:8000")
    a.register()
    for code in ("ROOM0001", "ROOM0002"):
        _room(store, code)
        a.create(code)

    def expiry(code: str) -> Any:
        with store.engine.connect() as conn:
            return conn.execute(
                text("SELECT expires_at FROM room_leases WHERE code = :c"), {"c": code}
            ).scalar_one()

    before = expiry("ROOM0001"), expiry("ROOM0002")
    time.sleep(0.05)
    writer = store.engine.connect()
    tx = writer.begin()
    writer.execute(text("SELECT 1 FROM room_leases WHERE code = 'ROOM0001' FOR SHARE"))
    out: list[list[str]] = []
    renewal = threading.Thread(target=lambda: out.append(a.renew()))
    renewal.start()
    renewal.join(10)
    try:
        assert out == [[]]  # it did not wait for the writer, and the room is still a's
        assert expiry("ROOM0001") == before[0]  # skipped this time
        assert expiry("ROOM0002") > before[1]  # renewed
    finally:
        tx.rollback()
        writer.close()
    assert a.renew() == []
    assert expiry("ROOM0001") > before[0]  # renewed next time
    store.close()


def test_one_owner_a_lease_taken_when_expired_and_a_stale_owner_cannot_write(pg: str) -> None:
    a_store, b_store = Store(pg), Store(pg)
    a = Cluster(a_store, "a", "http://10.0.0.1:8000")
    b = Cluster(b_store, "b", "http://10.0.0.2:8000/")
    a.register()
    b.register()
    assert a.secret and a.secret == b.secret
    lost: list[str] = []
    a_store.lost = lost.append
    game = _room(a_store, "ROOM0001")
    a.create("ROOM0001")
    a_store.append(game, 0, "0", "draw", code="ROOM0001")
    with pytest.raises(RoomElsewhereError) as elsewhere:
        b.acquire("ROOM0001")
    assert (elsewhere.value.node, elsewhere.value.url) == ("a", "http://10.0.0.1:8000")
    with pytest.raises(KeyError):
        b.acquire("NOSUCHRM")
    assert a.renew() == []  # renewing keeps it a's

    _expire(a_store, "ROOM0001")  # a froze past its lease
    b.acquire("ROOM0001")
    assert b.owned == {"ROOM0001": 2} and b.takeovers == 1
    # a wakes up: its write is refused and it hears that it lost the room; nothing was written.
    with pytest.raises(LeaseLostError):
        a_store.append(game, 1, "1", "draw", code="ROOM0001")
    assert lost == ["ROOM0001"]
    assert a.renew() == ["ROOM0001"]
    b_store.append(game, 1, "1", "pass", code="ROOM0001")
    stored = b_store.load_room("ROOM0001")
    assert stored is not None and stored.game.log == (("0", "draw"), ("1", "pass"))
    # Every write to the room is fenced, not only the log.
    with pytest.raises(LeaseLostError):
        a_store.new_game("ROOM0001", 1, {"edition": "classic"}, 2, 1, 8)
    with pytest.raises(LeaseLostError):
        a_store.take_seat("ROOM0001", 0, "Ana", "h" * 64)
    # Given back, the lease is expired, not deleted: the next owner's fencing number is higher.
    b.release("ROOM0001")
    a.acquire("ROOM0001")
    assert a.owned["ROOM0001"] == 3
    nodes, leases = status(a_store)
    assert [n.name for n in nodes] == ["a", "b"] and [(x.code, x.node, x.fence) for x in leases] == [
        ("ROOM0001", "a", 3)
    ]
    a_store.close()
    b_store.close()


def test_a_room_is_made_with_its_lease_and_a_seat_taken_only_under_it_by_the_writer(pg: str) -> None:
    """A node's new room takes its lease in the same transaction (one statement of the moves'
    writer: web/pgwrites.py), as SQLAlchemy's path does; a seat is taken only while the lease is
    still the node's with its fencing number, else refused as a lost room with nothing changed."""
    store, sqlalchemys = Store(pg), Store(pg)
    sqlalchemys._writer_writes = lambda: False  # type: ignore[method-assign]
    a = Cluster(store, "a", "http://10.0.0.1:8000")
    b = Cluster(sqlalchemys, "b", "http://10.0.0.2:8000")
    a.register()
    b.register()
    seats = [StoredSeat(0, None, None, None), StoredSeat(1, None, None, None)]
    for node, code in ((a, "WRITER01"), (b, "ALCHEMY1")):
        lease, since = node.new_lease()
        node.store.create_room(code, {}, seats, {"edition": "classic"}, 2, 1, 7, lease=lease)
        node.made(code, since)
        assert node.owned == {code: 1}
    with store.engine.connect() as conn:
        leases = conn.execute(
            text("SELECT code, node, fence, expires_at - now() FROM room_leases ORDER BY code")
        ).all()
    assert [(c, n, f) for c, n, f, _ in leases] == [("ALCHEMY1", "b", 1), ("WRITER01", "a", 1)]
    assert all(0 < left.total_seconds() <= a.lease_seconds for *_, left in leases)
    assert store.group is not None and store.group.jobs == 1
    with pytest.raises(IntegrityError):  # a taken code: nothing of it written, no lease
        store.create_room("WRITER01", {}, seats, {}, 2, 1, 7, lease=("a", 15.0))
    assert a.owned == {"WRITER01": 1}

    lost: list[str] = []
    store.lost = lost.append
    assert store.take_seat("WRITER01", 0, "Ana", "h" * 64, since=(0, 0))
    _expire(store, "WRITER01")
    b.acquire("WRITER01")  # a froze past its lease; a still thinks the room is its own
    assert a.fence_of("WRITER01") == ("a", 1)
    with pytest.raises(LeaseLostError):
        store.take_seat("WRITER01", 1, "Ben", "g" * 64, since=(0, 0))  # a free seat
    assert lost == ["WRITER01"]
    stored = store.load_room("WRITER01")
    assert stored is not None and [s.name for s in stored.seats] == ["Ana", None]
    assert [o.name for o in stored.occupants if o.player == 0] == ["Ana"]
    store.close()
    sqlalchemys.close()


def test_a_row_another_owner_wrote_first_makes_the_writer_drop_the_room(pg: str) -> None:
    store, other = Store(pg), Store(pg)
    node = Cluster(store, "a", "http://a:1")
    node.register()
    lost: list[str] = []
    store.lost = lost.append
    game = _room(store, "ROOM0002")
    node.create("ROOM0002")
    other.append(game, 0, None, DEAL)  # a row this node's copy of the room does not know
    with pytest.raises(LeaseLostError):
        store.append(game, 0, "0", "draw", code="ROOM0002")
    assert lost == ["ROOM0002"]
    with pytest.raises(IntegrityError):  # one server alone: the unique (game, seq) as before
        other.append(game, 0, "0", "draw")
    store.close()
    other.close()


def test_a_room_whose_lease_is_lost_while_it_is_read_does_not_go_live(
    pg: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node a takes a room's lease and reads the room; before the read ends, its renewal comes
    too late and node b takes the lease. The room must not go live on a, where none of its moves
    could be saved (a CI run saw such a room stuck for good after a node was killed): a reads
    it again and sends the client to b; once b gives it back, a serves it."""
    a_store, b_store = Store(pg), Store(pg)
    a = Cluster(a_store, "a", "http://10.0.0.1:8000")
    b = Cluster(b_store, "b", "http://10.0.0.2:8000")
    a.register()
    b.register()

    async def scenario() -> None:
        maker = Hub(a_store, cluster=a)
        code = (await maker.create(parse_settings({"players": 2, "seats": ["greedy", "greedy"]}))).code
        await maker.drop(code)
        a.release(code)
        hub = Hub(a_store, cluster=a)
        read = a_store.load_rooms
        taken: list[int] = []

        def slow_read(codes: Collection[str]) -> Any:
            stored = read(codes)
            if not taken:  # the first read: b takes the lease meanwhile, a's renewal hears it
                taken.append(1)
                (c,) = codes
                _expire(a_store, c)
                b.acquire(c)
                assert a.renew() == [c]
                a.lose(c)
            return stored

        monkeypatch.setattr(a_store, "load_rooms", slow_read)
        with pytest.raises(RoomElsewhereError) as elsewhere:
            await hub.get(code)
        assert elsewhere.value.node == "b" and code not in hub.rooms and code not in a.owned
        b.release(code)
        room = await hub.get(code)
        assert room is not None and hub.rooms[code] is room and code in a.owned
        await hub.drop(code)

    asyncio.run(scenario())
    a_store.close()
    b_store.close()


def test_the_advertised_address_defaults_from_host_and_port() -> None:
    assert default_advertise("127.0.0.1", 8001) == "http://127.0.0.1:8001"
    assert default_advertise("0.0.0.0", 8001, ["10.1.2.3"]) == "http://10.1.2.3:8001"
    assert default_advertise("::1", 8001) == "http://[::1]:8001"


def test_node_flags_need_postgresql(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "unotable", "serve", "--data-dir", str(tmp_path), "--node-name", "x"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "PostgreSQL" in out.stderr


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=20) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=20) as res:
        out: dict[str, Any] = json.loads(res.read())
        return out


def test_any_node_serves_any_room_and_sigterm_hands_the_rooms_over(tmp_path: Path) -> None:
    url = fresh_postgres(postgres_url())
    plain = "postgresql://" + url.split("://", 1)[1]
    nodes: list[Node] = [start_node(f"n{i}", plain, tmp_path) for i in range(2)]
    a, b = nodes
    try:
        deadline = time.monotonic() + 60
        for n in nodes:
            wait_ready(n, deadline)
        code = _post(a.url + "/api/rooms", {"players": 2, "seats": ["human", "greedy"]})["code"]
        # b does not own the room: it relays the room's calls to a.
        seat = _post(b.url + f"/api/rooms/{code}/join", {"name": "Ana"})
        status_b, info_b = _get(b.url + f"/api/rooms/{code}")
        status_a, info_a = _get(a.url + f"/api/rooms/{code}")
        assert status_a == status_b == 200 and info_a["players"] == info_b["players"]
        assert info_b["players"][0]["name"] == "Ana"
        # A forged relay header is not believed: it changes nothing.
        forged, _ = _get(
            b.url + f"/api/rooms/{code}", {"X-Unotable-Node": "guess", "X-Unotable-Client": "1.2.3.4"}
        )
        assert forged == 200
        # The lobby is the same from every node (read from the database).
        listed = _post(
            b.url + "/api/rooms", {"players": 2, "seats": ["human", "human"], "room": {"listed": True}}
        )
        lobby_a, lobby_b = _get(a.url + "/api/rooms?open=1"), _get(b.url + "/api/rooms?open=1")
        assert lobby_a == lobby_b and [r["code"] for r in lobby_a[1]["rooms"]] == [listed["code"]]
        store = Store(url)
        assert {x.code: x.node for x in status(store)[1]} == {code: "n0", listed["code"]: "n1"}

        async def scenario() -> None:
            ws_url = b.url.replace("http://", "ws://") + f"/ws/{code}"
            async with connect(ws_url) as ws:  # relayed by b to a
                await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
                welcome = json.loads(await ws.recv())
                assert welcome["type"] == "welcome" and welcome["you"] == seat["player"]
                assert welcome["rejoin"]["link"].startswith(b.url)  # the address the client used
                a.proc.send_signal(signal.SIGTERM)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(ws.recv(), 30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012  # reconnect
                # uvicorn exits by the signal once it has shut down (its handler raises it again)
            assert a.proc.wait(30) in (0, -signal.SIGTERM)
            nodes_now, leases = status(store)
            assert [n.name for n in nodes_now] == ["n1"]
            gone = [x for x in leases if x.node == "n0"]
            assert all(x.expires_in <= 0 for x in gone), "a gave its leases back before it exited"
            async with connect(ws_url) as ws:  # the client comes back: b takes the room at once
                await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
                welcome = json.loads(await ws.recv())
                assert welcome["type"] == "welcome" and welcome["you"] == seat["player"]
            assert {x.code: (x.node, x.fence) for x in status(store)[1]}[code] == ("n1", 2)

        asyncio.run(scenario())
        out = subprocess.run(
            [sys.executable, "-m", "unotable", "cluster", "status", "--database", plain],
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0 and "n1" in out.stdout and code in out.stdout and "n0" not in out.stdout
        store.close()
    finally:
        for n in nodes:
            if n.proc.poll() is None:
                n.proc.terminate()
                n.proc.wait(30)


def test_a_clients_rate_holds_across_the_service_not_per_node(tmp_path: Path) -> None:
    """--lookups-per-second 2 (a burst of 8) on each of two nodes: a client that spreads its
    lookups over both (as a round-robin balancer does) gets no more than the flag allows one
    server, because each node allows it half (P-462)."""
    url = fresh_postgres(postgres_url())
    plain = "postgresql://" + url.split("://", 1)[1]
    nodes = [start_node(f"r{i}", plain, tmp_path, lookups_per_second=2) for i in range(2)]
    try:
        deadline = time.monotonic() + 60
        for n in nodes:
            wait_ready(n, deadline)
        while not all(
            node_metric(n, "unotable_cluster_live_nodes") == 2 for n in nodes
        ):  # each has seen the other's heartbeat
            assert time.monotonic() < deadline, "the nodes did not see each other"
            time.sleep(0.2)
        start = time.monotonic()
        answers = [_get(nodes[i % 2].url + "/api/rooms/ZZZZZZ")[0] for i in range(24)]
        elapsed = time.monotonic() - start
        allowed = sum(1 for a in answers if a != 429)
        assert set(answers) <= {404, 429}, answers
        # One server would let through its burst (8) and 2 a second after it; two nodes that
        # each counted the flag's whole rate would let through twice that.
        assert 1 <= allowed <= 8 + 2 * elapsed + 1, (allowed, elapsed, answers)
    finally:
        for n in nodes:
            if n.proc.poll() is None:
                n.proc.terminate()
                n.proc.wait(30)


def test_renewal_extends_only_the_leases_the_node_holds(pg: str) -> None:
    """The sweeper gives a room's lease back; the node's next renewal must not take it again
    (it did: every lease row with the node's name was extended), so another node takes it."""
    a_store, b_store = Store(pg), Store(pg)
    a, b = Cluster(a_store, "a", "http://a:1"), Cluster(b_store, "b", "http://b:1")
    a.register()
    b.register()
    _room(a_store, "ROOM0003")
    _room(a_store, "ROOM0004")
    a.create("ROOM0003")
    a.create("ROOM0004")
    a.release("ROOM0003")  # the sweeper took it out of a's memory
    assert a.renew() == []
    b.acquire("ROOM0003")  # free: given back and not renewed since
    assert b.owned == {"ROOM0003": 2}
    with pytest.raises(RoomElsewhereError):
        b.acquire("ROOM0004")  # still a's, renewed
    # A lease taken over is not extended by the old owner's renewal either.
    _expire(a_store, "ROOM0004")
    b.acquire("ROOM0004")
    assert a.renew() == ["ROOM0004"]
    leases = {x.code: (x.node, x.fence) for x in status(a_store)[1]}
    assert leases == {"ROOM0003": ("b", 2), "ROOM0004": ("b", 2)}
    a_store.close()
    b_store.close()


def test_a_node_serves_a_room_only_while_its_own_clock_says_the_lease_is_valid(pg: str) -> None:
    """Node a froze (SIGSTOP) past its lease and b took the room; woken, a must not welcome a
    client to its stale copy before its renewal notices (spectators saw the table go back):
    its clock says the lease ran out, so it asks the database first and sends the client on.
    A lease still a's (nobody took it) is confirmed and the room served as it is."""
    a_store, b_store = Store(pg), Store(pg)
    a, b = Cluster(a_store, "a", "http://10.0.0.1:8000"), Cluster(b_store, "b", "http://10.0.0.2:8000")
    a.register()
    b.register()

    async def scenario() -> None:
        hub = Hub(a_store, cluster=a)
        settings = parse_settings({"players": 2, "seats": ["greedy", "greedy"]})
        kept = (await hub.create(settings)).code
        taken = (await hub.create(settings)).code
        for code in (kept, taken):  # a's clock: frozen past the lease
            a.leases[code].valid_until = time.monotonic() - 1
        assert not a.holds(kept)
        room = hub.rooms[kept]
        assert await hub.get(kept) is room and a.holds(kept)  # confirmed: nobody took it
        _expire(a_store, taken)
        b.acquire(taken)
        with pytest.raises(RoomElsewhereError) as elsewhere:
            await hub.get(taken)
        assert elsewhere.value.node == "b" and taken not in hub.rooms and taken not in a.owned
        await hub.close()

    asyncio.run(scenario())
    a_store.close()
    b_store.close()


def test_rebalancing_hands_each_busy_room_to_its_node_though_an_idle_one_wakes_meanwhile(
    pg: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client came to an idle room while the rebalancing handed it over (a CI run of the
    failover test): the busy rooms were then counted again, one more than their targets, and the
    renewer died on a KeyError, so the node kept its sockets open while its leases ran out."""
    store = Store(pg)
    a = Cluster(store, "a", "http://a:1")
    a.register()
    b = Peer("b", "http://b:1", 0)

    async def scenario() -> None:
        hub = Hub(store, cluster=a)
        settings = parse_settings({"players": 2, "seats": ["greedy", "greedy"]})
        idle, *busy = [(await hub.create(settings)).code for _ in range(3)]
        for code in busy:
            hub.rooms[code].fanout.add(Listener(None))
        room = hub.rooms[idle]
        stop = room.driver.stop

        async def stop_then_a_client_comes() -> None:
            await stop()
            room.fanout.add(Listener(None))

        monkeypatch.setattr(room.driver, "stop", stop_then_a_client_comes)
        monkeypatch.setattr(a, "plan", lambda: [b, b, b])
        assert await hub.rebalance() == 3
        assert hub.rooms == {}
        leases = {x.code: (x.node, x.expires_in > 0) for x in status(store)[1]}
        assert {code: leases[code] for code in busy} == dict.fromkeys(busy, ("b", True))
        assert leases[idle] == ("a", False)  # given back: whoever is asked for it next takes it
        await hub.close()

    asyncio.run(scenario())
    store.close()


def test_the_renewer_lives_on_when_a_renewal_or_its_hand_over_fails(pg: str) -> None:
    """Nothing but cancelling ends the renewal loop: a node whose renewer died kept serving its
    rooms' sockets with leases run out, its bots stopped, its clients never sent elsewhere."""
    store = Store(pg)
    a = Cluster(store, "a", "http://a:1", renew_seconds=0.01)
    calls: list[int] = []

    async def on_renewed() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise KeyError("a bug in the hand-over")

    async def scenario() -> None:
        a.on_renewed = on_renewed
        a.start()
        renew = a.renew
        failed: list[bool] = []

        def renew_failing_once() -> list[str]:
            if not failed:
                failed.append(True)
                raise RuntimeError("a bug in the renewal")
            return renew()

        a.renew = renew_failing_once  # type: ignore[method-assign]
        deadline = time.monotonic() + 30
        while len(calls) < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        await a.stop()

    asyncio.run(scenario())
    assert len(calls) >= 3
    store.close()


def test_placement_and_the_rebalancing_plan(pg: str) -> None:
    """Where new rooms go and which rooms a node hands over, from the live nodes' loads."""
    store = Store(pg)
    a = Cluster(store, "a", "http://a:1")
    a.register()
    for i in range(12):
        code = f"ROOM{i:04d}"
        _room(store, code)
        a.create(code)
    a.peers = [Peer("a", "http://a:1", 12), Peer("b", "http://b:1", 12)]
    assert a.place() is None and a.plan() == []  # balanced: made here, nothing moves
    a.peers = [Peer("a", "http://a:1", 12), Peer("b", "http://b:1", 3), Peer("c", "http://c:1", 0)]
    placed = [a.place() for _ in range(6)]  # c first, counted as sent, then the fewer of b and c
    assert [p.name if p else None for p in placed] == ["c", "c", "c", "b", "c", "b"]
    a._placed.clear()
    share = -(-15 // 3)  # 5 rooms a node
    plan = [p.name for p in a.plan()]
    assert plan == ["c"] * 5 + ["b"] * 2 and len(plan) == 12 - share
    a.stopping = True
    assert a.place() is None and a.plan() == []
    store.close()


def test_a_node_restarted_under_its_name_loads_the_rooms_it_held_unless_taken_meanwhile(pg: str) -> None:
    """``Cluster.held_before``: the rooms an earlier process of the name held (lately), which
    the hub loads in the background after the start (``Hub.warm_up``), taking their leases
    back; a room another node took meanwhile stays that node's."""
    store, other_store = Store(pg), Store(pg)
    settings = parse_settings({"players": 2, "seats": ["human", "human"], "bot_delay": 0})
    other = Cluster(other_store, "b", "http://10.0.0.2:8000")
    other.register()

    async def scenario() -> tuple[list[str], list[str], list[str], int, list[str]]:
        first = Cluster(store, "a", "http://10.0.0.1:8000")
        first.register()
        before = Hub(store, cluster=first)
        codes = [(await before.create(settings)).code for _ in range(4)]
        for code in codes:
            await before.drop(code)  # the process dies: its leases stay as they were
        old, taken, held = codes[0], codes[1], sorted(codes[2:])
        with store.engine.begin() as conn:  # given back long ago: not live before the restart
            conn.execute(
                text("UPDATE room_leases SET expires_at = now() - interval '1 hour' WHERE code = :c"),
                {"c": old},
            )
        _expire(store, taken)
        other.acquire(taken)  # b took one of them meanwhile
        again = Cluster(store, "a", "http://10.0.0.1:8000")
        again.register()  # as Cluster.start does, without the renewal loop
        hub = Hub(store, cluster=again)
        warmed = await hub.warm_up()
        rooms = sorted(hub.rooms)
        await hub.close()
        await before.close()
        return held, sorted(again.held_before), sorted(again.owned), warmed, rooms

    held, held_before, owned, warmed, rooms = asyncio.run(scenario())
    assert held_before == held
    assert warmed == 2 and rooms == held and owned == held  # not b's, nor the one given back long ago
    assert len(other.owned) == 1 and not set(other.owned) & set(rooms)
    store.close()
    other_store.close()
