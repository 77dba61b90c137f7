"""Admission: whether a new room may be made (the node's cap on rooms, each address's quota),
decided without holding the new rooms up.

The node's cap (:attr:`~unotable.web.lifecycle.Lifecycle.max_rooms`) counts the rooms whose game
goes on. Asking the database for that count before every new room, and making the rooms one at a
time so that two requests could not both take the last place, made a thousand rooms asked for at
once wait on each other's count and commit (docs/performance.md, "2026-12-04, afternoon"). Here
the database is asked at most once every :data:`RECOUNT_SECONDS`; between counts, every room this
node begins to make takes a place at once (in memory, one request at a time on the event loop),
and gives it back if it could not be made. Rooms whose games end free their places at the next
count. In a service of several nodes the others' new rooms are seen at that count too, so the
service may pass its cap by what the other nodes made in the last seconds: a cap protects a node,
and each node's own new rooms are always counted.

An address's quota (:attr:`~unotable.web.lifecycle.Lifecycle.rooms_per_address`) is still read
from the database for each room (an address makes few), plus its rooms being made at that moment;
no lock is held while a room is stored.

It imports the standard library and :mod:`unotable.web.protocol` only.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from typing import Final

from unotable.web.protocol import ProtocolError

RECOUNT_SECONDS: Final = 2.0
"""Seconds a count of the rooms whose game goes on is used for, at most."""


class Admission:
    """The places of a node's rooms.

    :param count: the rooms whose game goes on, made by an address (its hash) or, for ``None``,
        by anyone (:meth:`~unotable.web.storage.Store.open_rooms_of`); called in a thread.
    :param recount: seconds a count of every room is used for.
    """

    def __init__(self, count: Callable[[str | None], int], recount: float = RECOUNT_SECONDS) -> None:
        self.count = count
        self.recount = recount
        self.counted = 0
        """Times every room was counted in the database (for the tests)."""
        self._total: int | None = None
        self._at = 0.0
        self._since = 0
        """Places taken since the last count (made, or being made)."""
        self._making: Counter[str | None] = Counter()
        """Rooms being made, by address (``None``: all of them)."""
        self._lock = asyncio.Lock()

    async def take(self, creator: str | None, most: int, limit: int) -> None:
        """Take a place for a new room of ``creator`` (an address's hash, or ``None``): ``most``
        rooms on the node at most, ``limit`` per address (0: no cap). Give it back with
        :meth:`release` once the room is made or was not.

        :raises ProtocolError: ``server_full`` or ``too_many_rooms``.
        :raises sqlalchemy.exc.SQLAlchemyError: if the database cannot count.
        """
        async with self._lock:  # one request at a time, but only while counting, never storing
            if most:
                if self._total is None or time.monotonic() - self._at >= self.recount:
                    making = self._making[None]
                    total = await asyncio.to_thread(self.count, None)
                    self.counted += 1
                    # the rooms being made meanwhile may or may not be in it: count them again
                    self._total, self._at, self._since = total, time.monotonic(), making
                if self._total + self._since >= most:
                    raise ProtocolError("server_full", limit=most)
            if creator is not None and limit:
                held = await asyncio.to_thread(self.count, creator)
                if held + self._making[creator] >= limit:
                    raise ProtocolError("too_many_rooms", limit=limit)
            self._since += 1
            self._making[None] += 1
            if creator is not None:
                self._making[creator] += 1

    def release(self, creator: str | None, *, made: bool) -> None:
        """The room of a place taken by :meth:`take` is made (``made``: it counts until the next
        count) or is not (its place is free again)."""
        self._making[None] -= 1
        if creator is not None:
            self._making[creator] -= 1
            if not self._making[creator]:
                del self._making[creator]
        if not made:
            self._since = max(0, self._since - 1)


__all__ = ["RECOUNT_SECONDS", "Admission"]
