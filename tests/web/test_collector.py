"""The server's garbage collection (web/collector.py): collections look only at young objects,
and cycles of old ones are freed by the periodic full collection."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from unotable.web.app import create_app
from unotable.web.collector import Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def until(check: object, seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.01)


def test_old_objects_are_frozen_and_their_cycles_freed_by_the_full_collection() -> None:
    async def main() -> None:
        collector = Collector(freeze_every=0.02, full_every=3600)
        collector.start()
        try:
            young = cycle()
            frozen_before = gc.get_freeze_count()
            await until(lambda: gc.get_freeze_count() > frozen_before)  # the next freeze came
            gc.collect()
            assert young() is not None  # frozen: the collector no longer looks at it
            assert collector.full() > 0
            assert young() is None and collector.full_collections == 1
            assert gc.get_freeze_count() > 0  # what is left is frozen again
        finally:
            await collector.stop()
        assert gc.get_freeze_count() == 0
        gc.collect()

    asyncio.run(main())


def test_the_full_collection_comes_on_its_own() -> None:
    async def main() -> None:
        collector = Collector(freeze_every=0.01, full_every=0.05)
        collector.start()
        try:
            old = cycle()
            await until(lambda: collector.full_collections >= 2)  # one after the cycle was frozen
            assert old() is None
        finally:
            await collector.stop()

    asyncio.run(main())


def test_bad_intervals_are_refused() -> None:
    with pytest.raises(ValueError, match="freeze_every"):
        Collector(freeze_every=0)
    with pytest.raises(ValueError, match="freeze_every"):
        Collector(freeze_every=2, full_every=1)


def test_the_server_runs_one_and_gives_the_objects_back_when_it_stops(tmp_path: Path) -> None:
    """`uno serve` asks for it (its process is its own); an app embedded elsewhere (the tests')
    leaves the process's collector alone."""
    embedded = create_app(f"sqlite:///{tmp_path}/embedded.db")
    with TestClient(embedded):
        assert embedded.state.collector is None
    app = create_app(f"sqlite:///{tmp_path}/unotable.db", collect=True)
    with TestClient(app):
        collector = app.state.collector
        assert isinstance(collector, Collector) and collector.task is not None
        assert gc.get_freeze_count() > 0
    assert collector.task is None and gc.get_freeze_count() == 0
