"""A frozen owner (issue 31, item 5): its kernel still accepts connections, so a relay to it
waits for nothing. A node asked for one of its rooms sees that the owner's heartbeat is silent
and waits for the lease to run out instead, then takes the room."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import text
from websockets.asyncio.client import connect

from unotable.web.cluster import SILENT_SECONDS, Cluster, RoomElsewhereError
from unotable.web.records import StoredSeat
from unotable.web.settings import parse_settings
from unotable.web.storage import Store

from .conftest import fresh_postgres, postgres_url
from .test_cluster import pg
from .test_cluster_failover import _post, running_service, start_node, wait_ready
from .test_nginx import _tls

__all__ = ["pg"]  # the fixture, imported


def _nobody_came(listener: socket.socket) -> bool:
    """Whether no connection waits in ``listener``'s accept queue (nobody connected to it)."""
    listener.setblocking(False)
    try:
        conn, _ = listener.accept()
    except BlockingIOError:
        return True
    conn.close()
    return False


def test_a_silent_owner_is_waited_out_not_relayed_to(pg: str, tmp_path: Path) -> None:
    with socket.socket() as frozen:
        frozen.bind(("127.0.0.1", 0))
        frozen.listen(8)  # never accepted: a SIGSTOPped node, whose kernel still takes connections
        owner_url = f"http://127.0.0.1:{frozen.getsockname()[1]}"
        store = Store(pg)
        try:
            a = Cluster(store, "a", owner_url)
            a.register()
            settings = parse_settings({"players": 2, "seats": ["greedy", "greedy"], "bot_delay": 0.3})
            seats = [StoredSeat(p, bot, None, None) for p, bot in enumerate(settings.seats)]
            for code in ("FRZNRM22", "FRZNRM33"):
                store.create_room(code, settings.to_dict(), seats, settings.rules.to_dict(), 2, 1, 7)
                a.create(code)
            probe = Cluster(store, "probe", "http://127.0.0.1:9")
            probe.register()
            with pytest.raises(RoomElsewhereError) as live:
                probe.acquire("FRZNRM22")
            assert (live.value.url, live.value.silent) == (owner_url, False)  # a renewed just now

            with store.engine.begin() as conn:  # a misses its renewals (frozen)
                back = "UPDATE nodes SET heartbeat_at = now() - make_interval(secs => :s) WHERE name = 'a'"
                conn.execute(text(back), {"s": SILENT_SECONDS + 0.5})
            with pytest.raises(RoomElsewhereError) as silent:
                probe.acquire("FRZNRM22")
            assert (silent.value.url, silent.value.silent) == (owner_url, True)
            both = probe.acquire_many(["FRZNRM22", "FRZNRM33"])
            assert all(isinstance(e, RoomElsewhereError) and e.silent for e in both.values()), both
            probe.mark_stopping()  # out of the service: the node below must not count on it

            plain = "postgresql://" + pg.split("://", 1)[1]
            node = start_node("b", plain, tmp_path)
            try:
                wait_ready(node, time.monotonic() + 60)
                with pytest.raises(urllib.error.HTTPError) as refused:  # asked again by the client
                    urllib.request.urlopen(node.url + "/api/rooms/FRZNRM22", timeout=30)
                assert refused.value.code == 503
                assert _nobody_came(frozen), "a request was relayed to the silent owner"

                async def watch() -> dict[str, object]:
                    async with connect(f"ws://127.0.0.1:{node.port}/ws/FRZNRM22") as ws:
                        await ws.send(json.dumps({"type": "hello"}))
                        while True:
                            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
                            if m["type"] == "welcome":
                                return dict(m)

                welcome = asyncio.run(watch())  # once the lease ran out, b took the room
                assert welcome["seq"] == 0
                assert _nobody_came(frozen), "a WebSocket was relayed to the silent owner"
                with store.engine.connect() as conn:
                    leases = conn.execute(text("SELECT code, node FROM room_leases")).all()
                owners = {str(code): str(node) for code, node in leases}
                assert owners["FRZNRM22"] == "b"
            finally:
                node.proc.terminate()
                node.proc.wait(20)
        finally:
            store.close()


def test_nginx_learns_from_healthz_that_a_node_is_frozen_and_sends_no_socket_there(tmp_path: Path) -> None:
    """The documented site's ``/healthz`` gives a node 2 s, then asks the next: a frozen node
    (its kernel accepts, nothing answers) costs the page that asks 2 s, not nginx's 45 s, and
    nginx leaves the node out of round-robin for its other requests: the WebSockets made next
    (the page's reconnects) all reach live nodes."""
    with (
        running_service(tmp_path, fresh_postgres(postgres_url()), count=2, spare=1) as service,
        socket.socket() as frozen,
    ):
        frozen.bind(("127.0.0.1", service.spare[0]))
        frozen.listen(64)  # never accepted
        for _ in range(3):  # round-robin over the three: one of these meets the frozen one
            with urllib.request.urlopen(service.base + "/healthz", timeout=20, context=_tls()) as res:
                assert res.status == 200
        tried = 0
        while not _nobody_came(frozen):
            tried += 1
        assert tried >= 1, "no /healthz was sent to the frozen node"
        code = _post(service.base, "/api/rooms", {"players": 2, "seats": ["greedy", "greedy"]})["code"]

        async def sockets() -> None:
            for _ in range(6):
                url = service.base.replace("https://", "wss://") + f"/ws/{code}"
                async with connect(url, ssl=_tls(), open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"

        asyncio.run(sockets())
        assert _nobody_came(frozen), "a WebSocket was sent to the frozen node"


def test_leases_are_renewed_while_the_event_loop_is_busy(pg: str) -> None:
    """A saturated loop (a reconnect storm) must not starve the renewals: they came from the
    loop, late, so the node's own clock said its leases might have run out and every visit then
    asked the database (in the pool the renewal waited in). The renewer is a thread of its own:
    with the loop blocked, the leases are still renewed, on time."""
    store = Store(pg)
    try:
        settings = parse_settings({"players": 2, "seats": ["greedy", "greedy"], "bot_delay": 0.3})
        seats = [StoredSeat(p, bot, None, None) for p, bot in enumerate(settings.seats)]
        store.create_room("BUSYRM22", settings.to_dict(), seats, settings.rules.to_dict(), 2, 1, 7)
        node = Cluster(store, "a", "http://127.0.0.1:9", renew_seconds=0.1)
        renewed: list[float] = []

        async def scenario() -> None:
            node.start()
            node.create("BUSYRM22")
            before = node.leases["BUSYRM22"].valid_until
            blocked = time.monotonic()
            while time.monotonic() - blocked < 2.0:  # the loop does nothing else meanwhile
                time.sleep(0.05)
                renewed.append(node.leases["BUSYRM22"].valid_until - before)
            await node.stop()

        asyncio.run(scenario())
        assert max(renewed) > 0, "no renewal while the loop was busy"
    finally:
        store.close()


def test_a_frozen_owners_open_transaction_does_not_hold_the_room(pg: str) -> None:
    """An owner frozen between a statement and its commit (its renewal, its writer) keeps that
    transaction's row locks, the room's lease row among them: another node taking the room
    waited for them until the thaw (rooms stuck for minutes in a chaos run). The nodes'
    sessions end when left idle in a transaction (5 s), so the lock goes and the room is taken."""
    frozen_store, store = Store(pg), Store(pg)
    try:
        settings = parse_settings({"players": 2, "seats": ["greedy", "greedy"], "bot_delay": 0.3})
        seats = [StoredSeat(p, bot, None, None) for p, bot in enumerate(settings.seats)]
        store.create_room("LCKDRM22", settings.to_dict(), seats, settings.rules.to_dict(), 2, 1, 7)
        a = Cluster(frozen_store, "a", "http://127.0.0.1:9")
        a.register()
        a.create("LCKDRM22")
        with store.engine.begin() as conn:  # its lease ran out (frozen past it)
            conn.execute(text("UPDATE room_leases SET expires_at = now() - interval '1 second'"))
        held = frozen_store.engine.connect()
        held.begin()
        held.execute(  # the frozen owner's renewal: the lease row locked, never committed
            text("UPDATE room_leases SET expires_at = now() + interval '6 seconds' WHERE code = 'LCKDRM22'")
        )
        b = Cluster(store, "b", "http://127.0.0.1:10")
        b.register()
        done: list[object] = []

        def take() -> None:
            try:
                b.acquire("LCKDRM22")
                done.append(True)
            except Exception as exc:  # reported below
                done.append(exc)

        taker = threading.Thread(target=take, daemon=True)
        taker.start()
        taker.join(60)  # a generous bound for a test: without the fix it waits for ever
        assert done == [True], done or "the lease row stayed locked by the frozen owner"
        assert b.owned["LCKDRM22"] >= 1
        with contextlib.suppress(Exception):
            held.close()
    finally:
        frozen_store.close()
        store.close()
