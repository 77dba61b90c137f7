"""The fenced write of a log row in a cluster: one statement, refused for a stale owner."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from unotable.web.cluster import Cluster, RoomElsewhereError
from unotable.web.hub import Hub
from unotable.web.records import StoredSeat
from unotable.web.room import Room
from unotable.web.settings import parse_settings
from unotable.web.storage import LeaseLostError, Store

from .conftest import fresh_postgres, postgres_url


@pytest.fixture
def pg() -> str:
    """A fresh PostgreSQL database's SQLAlchemy URL."""
    return fresh_postgres(postgres_url())


CODES = ["LEASEAAA", "LEASEBBB", "LEASECCC", "LEASEDDD"]

Nodes = tuple[Store, Store, Cluster, Cluster]


@pytest.fixture
def nodes(pg: str) -> Iterator[Nodes]:
    """Two nodes registered on the database (``a`` migrated it), each on a store of its own:
    ``(a_store, b_store, a, b)``; both stores closed afterwards."""
    a_store, b_store = Store(pg), Store(pg)
    a_store.migrate()
    a = Cluster(a_store, "a", "http://10.0.0.1:8000")
    b = Cluster(b_store, "b", "http://10.0.0.2:8000")
    a.register()
    b.register()
    yield a_store, b_store, a, b
    a_store.close()
    b_store.close()


def _statements(store: Store) -> list[str]:
    seen: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement.split(maxsplit=1)[0].upper())

    event.listen(store.engine, "before_cursor_execute", before)
    return seen


def test_a_fenced_log_row_is_one_statement_and_a_stale_owners_is_refused(nodes: Nodes) -> None:
    a_store, b_store, a, b = nodes
    game = a_store.create_room("FENCE001", {}, [StoredSeat(0, None, None, None)], {"players": 2}, 2, 1, 5)
    a.create("FENCE001")
    seen = _statements(a_store)
    a_store.append(game, 0, "0", "draw", code="FENCE001")
    assert seen == ["INSERT"]  # the fence is in the INSERT: no SELECT ... FOR SHARE before it
    with a_store.engine.begin() as conn:  # a froze past its lease; b takes the room
        conn.exec_driver_sql("UPDATE room_leases SET expires_at = now() - interval '1 second'")
    b.acquire("FENCE001")
    with pytest.raises(LeaseLostError):
        a_store.append(game, 1, "1", "draw", code="FENCE001")
    b_store.append(game, 1, "1", "pass", code="FENCE001")
    stored = b_store.load_room("FENCE001")
    assert stored is not None and stored.game.log == (("0", "draw"), ("1", "pass"))


def test_fenced_rows_waiting_together_share_a_commit_and_a_stale_owners_row_alone_is_refused(
    nodes: Nodes,
) -> None:
    import asyncio  # noqa: PLC0415

    a_store, b_store, a, b = nodes
    codes = [f"BATCH{i:03d}" for i in range(12)]
    games = [
        a_store.create_room(code, {}, [StoredSeat(0, None, None, None)], {"players": 2}, 2, 1, 5)
        for code in codes
    ]
    for code in codes:
        a.create(code)
    lost: list[str] = []
    a_store.lost = lost.append
    with a_store.engine.begin() as conn:  # a lost the last room: its lease expired and b took it
        conn.exec_driver_sql(
            f"UPDATE room_leases SET expires_at = now() - interval '1 second' WHERE code = '{codes[-1]}'"
        )
    b.acquire(codes[-1])
    assert a_store.group is not None

    async def main() -> list[BaseException | None]:
        calls = [
            a_store.append_async(g, 0, "0", "draw", code=code) for g, code in zip(games, codes, strict=True)
        ]
        return list(await asyncio.gather(*calls, return_exceptions=True))

    out = asyncio.run(main())
    assert out[:-1] == [None] * (len(codes) - 1)
    assert isinstance(out[-1], LeaseLostError) and lost == [codes[-1]]
    assert a_store.group.rows == len(codes) - 1
    assert a_store.group.transactions < len(codes)  # the eleven rows shared commits; the lost one alone
    for code in codes[:-1]:
        stored = a_store.load_room(code)
        assert stored is not None and stored.game.log == (("0", "draw"),)
    stale = b_store.load_room(codes[-1])
    assert stale is not None and stale.game.log == ()


def test_many_leases_are_taken_in_one_statement_each_with_its_own_outcome(nodes: Nodes) -> None:
    a_store, b_store, a, b = nodes
    seat = [StoredSeat(0, None, None, None)]
    games = {code: a_store.create_room(code, {}, seat, {"players": 2}, 2, 1, 5) for code in CODES}
    a.create("LEASEAAA")  # a's, live
    a.create("LEASECCC")  # a's, to expire
    b.create("LEASEDDD")  # b's own already
    with a_store.engine.begin() as conn:
        conn.exec_driver_sql(
            "UPDATE room_leases SET expires_at = now() - interval '1 second' WHERE code = 'LEASECCC'"
        )
    seen = _statements(b_store)
    out = b.acquire_many([*CODES, "NOSUCHXX", "LEASEBBB"])
    assert [s for s in seen if s == "INSERT"] == ["INSERT"]  # one statement for all the leases
    assert isinstance(out.pop("NOSUCHXX"), KeyError)
    elsewhere = out.pop("LEASEAAA")
    assert isinstance(elsewhere, RoomElsewhereError) and (elsewhere.node, elsewhere.url) == (
        "a",
        "http://10.0.0.1:8000",
    )
    assert out == {"LEASEBBB": None, "LEASECCC": None, "LEASEDDD": None}
    # as acquire: a lease this node held already is taken again with the next fencing number
    assert b.owned == {"LEASEBBB": 1, "LEASECCC": 2, "LEASEDDD": 2} and b.takeovers == 2
    with pytest.raises(LeaseLostError):  # a's copy of the room it lost can no longer write
        a_store.append(games["LEASECCC"], 0, "0", "draw", code="LEASECCC")
    b_store.append(games["LEASECCC"], 0, "0", "pass", code="LEASECCC")


def test_a_nodes_storm_of_gets_takes_the_leases_together_and_each_caller_gets_its_own(nodes: Nodes) -> None:
    store, _, node, elsewhere = nodes
    made = parse_settings({"players": 2, "seats": ["human", "human"], "bot_delay": 0})
    seats = [StoredSeat(p, label, None, None) for p, label in enumerate(made.seats)]
    for code in CODES:
        store.create_room(code, made.to_dict(), seats, made.rules.to_dict(), 2, made.rounds, 7)
    elsewhere.create("LEASEAAA")
    seen = _statements(store)

    async def storm() -> list[Room | BaseException | None]:
        hub = Hub(store, cluster=node)
        asks = [*CODES, "LEASEBBB", "NSUCHXXZ"]
        got = await asyncio.gather(*(hub.get(code) for code in asks), return_exceptions=True)
        await hub.close()
        return got

    got = asyncio.run(storm())
    assert isinstance(got[0], RoomElsewhereError) and got[0].node == "b"
    for code, room in zip(CODES[1:], got[1:4], strict=True):
        assert isinstance(room, Room) and room.code == code
    assert got[4] is got[1] and got[5] is None
    assert sorted(node.owned) == CODES[1:]
    assert sum(1 for s in seen if s == "INSERT") <= 3  # the leases taken a few at a time, not one each
