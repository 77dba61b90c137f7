"""The server's cyclic garbage collection (:class:`Collector`), kept out of the rooms' way.

CPython's collector stops the whole process while it looks at the objects of a generation, and
a full collection looks at every object the process holds: with 1,000 rooms in memory (about
600,000 objects: each connection's coroutines, each room's log) one took 100-400 ms, and the
collector ran one every 4 s or so (each time the objects that lived past two young collections
grew by a quarter), more often while the rooms were coming in. Every room waited through each
(docs/performance.md, "The collector").

Most of those objects live as long as their room or connection, and reference counting, not the
collector, frees nearly all of them. So every second the collector :func:`gc.freeze`\\s what is
there: frozen objects are still freed by reference counting, but collections no longer look at
them, so a collection looks only at the last second's objects. What freezing cannot free is a
cycle of frozen objects that became garbage: every :data:`FULL_EVERY` seconds everything is
unfrozen and collected once, a pause as long as the one full collection it replaces, so the
memory such cycles hold is bounded by what the server makes in that time.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Final

log = logging.getLogger(__name__)

FREEZE_EVERY: Final = 1.0
"""Seconds between freezes: the age past which the collector no longer looks at an object."""
FULL_EVERY: Final = 600.0
"""Seconds between full collections of everything (the frozen objects too)."""


class Collector:
    """Freezes the server's objects every ``freeze_every`` seconds and collects everything every
    ``full_every`` seconds, from a task of the event loop (:meth:`start`); :meth:`stop` unfreezes
    (the process's collector as it was)."""

    def __init__(self, freeze_every: float = FREEZE_EVERY, full_every: float = FULL_EVERY) -> None:
        if freeze_every <= 0 or full_every < freeze_every:
            raise ValueError("need 0 < freeze_every <= full_every")
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.full_collections = 0
        """Full collections made, for the tests and the metrics."""
        self.last_full_seconds = 0.0
        """How long the last full collection stopped the process."""
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Freeze what the start-up made, then keep freezing (in the running loop)."""
        gc.freeze()
        self.task = asyncio.get_running_loop().create_task(self._run(), name="unotable-collector")

    async def stop(self) -> None:
        """Stop, and give the frozen objects back to the collector."""
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
        gc.unfreeze()

    def full(self) -> int:
        """Collect everything now (the frozen objects too), then freeze what is left; the number
        of objects found unreachable."""
        start = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.last_full_seconds = time.perf_counter() - start
        self.full_collections += 1
        log.debug("full collection: %d unreachable, %.3f s", found, self.last_full_seconds)
        return found

    async def _run(self) -> None:
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.freeze_every)
            if time.monotonic() - last_full >= self.full_every:
                self.full()
                last_full = time.monotonic()
            else:
                gc.freeze()


__all__ = ["FREEZE_EVERY", "FULL_EVERY", "Collector"]
