"""Admission: the node's cap on rooms and each address's quota, counted without making the new
rooms wait on each other (web/admission.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from unotable.web.admission import Admission
from unotable.web.hub import Hub
from unotable.web.lifecycle import Lifecycle
from unotable.web.protocol import ProtocolError
from unotable.web.settings import parse_settings
from unotable.web.storage import Store


class Counts:
    """A database's counts of open rooms: ``total`` in all, ``by`` per address; each call noted."""

    def __init__(self, total: int = 0, by: dict[str, int] | None = None) -> None:
        self.total = total
        self.by = by or {}
        self.calls: list[str | None] = []

    def __call__(self, creator: str | None) -> int:
        self.calls.append(creator)
        return self.total if creator is None else self.by.get(creator, 0)


def test_the_node_cap_is_counted_once_for_many_rooms_and_still_holds() -> None:
    counts = Counts(total=3)
    admission = Admission(counts, recount=3600)

    async def main() -> list[str]:
        outcomes = []
        for _ in range(10):
            try:
                await admission.take(None, 8, 0)
                outcomes.append("made")  # released as made: it counts until the next count
                admission.release(None, made=True)
            except ProtocolError as exc:
                outcomes.append(exc.code)
        return outcomes

    outcomes = asyncio.run(main())
    assert outcomes == ["made"] * 5 + ["server_full"] * 5  # 3 in the database + 5 made here
    assert counts.calls == [None]  # one count, not one per room


def test_a_room_not_made_gives_its_place_back_and_a_recount_sees_the_database() -> None:
    counts = Counts(total=1)
    admission = Admission(counts, recount=3600)

    async def main() -> None:
        await admission.take(None, 2, 0)
        admission.release(None, made=False)  # the database refused it: the place is free
        await admission.take(None, 2, 0)
        admission.release(None, made=True)
        with pytest.raises(ProtocolError) as full:
            await admission.take(None, 2, 0)
        assert full.value.code == "server_full"
        counts.total = 0  # every game ended meanwhile
        admission.recount = 0.0
        await admission.take(None, 2, 0)

    asyncio.run(main())
    assert admission.counted == 2


def test_rooms_being_made_count_against_the_cap_and_the_address_quota() -> None:
    counts = Counts(total=0, by={"a": 1})
    admission = Admission(counts, recount=0.0)  # counted every time: the database knows nothing yet

    async def main() -> None:
        await admission.take("a", 10, 2)  # 1 stored + this one being made
        with pytest.raises(ProtocolError) as quota:
            await admission.take("a", 10, 2)
        assert quota.value.code == "too_many_rooms"
        await admission.take("b", 2, 2)  # 0 stored, "a"'s being made: the cap of 2 is reached
        with pytest.raises(ProtocolError) as full:
            await admission.take("c", 2, 2)
        assert full.value.code == "server_full"
        admission.release("a", made=False)
        await admission.take("a", 10, 2)

    asyncio.run(main())


def test_rooms_asked_for_at_once_are_stored_at_once(tmp_path: Path) -> None:
    """The hub counts the rooms once and stores several at the same time (it made them one at a
    time, each after its own count, before)."""
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    store.migrate()
    hub = Hub(store, lifecycle=Lifecycle(max_rooms=100))
    settings = parse_settings({"players": 2, "seats": ["human", "human"]})
    storing = 0
    most = 0
    create_room = store.create_room

    def slow_create(*args: object, **kwargs: object) -> int:
        nonlocal storing, most
        storing += 1
        most = max(most, storing)
        try:
            time.sleep(0.05)
            return create_room(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            storing -= 1

    store.create_room = slow_create  # type: ignore[method-assign]

    async def main() -> None:
        rooms = await asyncio.gather(*(hub.create(settings, "203.0.113.1") for _ in range(4)))
        assert len({r.code for r in rooms}) == 4
        for r in rooms:
            await r.stop()

    asyncio.run(main())
    assert most > 1  # stored side by side
    assert hub.admission.counted == 1
