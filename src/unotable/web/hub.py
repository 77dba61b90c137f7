"""The hub: every live room of the server over one :class:`~unotable.web.storage.Store`; rooms
made, loaded from the database when visited (and after a restart), swept out of memory when
nobody has visited them for a while (P-192), and the list of open rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy.exc import SQLAlchemyError

from unotable.web.protocol import ProtocolError
from unotable.web.room import Room, new_seed
from unotable.web.seats import CODE_ALPHABET, CODE_LENGTH, Seat, new_code
from unotable.web.settings import RoomSettings
from unotable.web.storage import Store, StoredGame, StoredRoom, StoredSeat

log = logging.getLogger("unotable.web")

IDLE_UNLOAD: Final = 600.0
"""Seconds a room may go without any connection before it leaves memory (P-192): its game
waits in the database, and the next visit loads it again."""
LISTED_MAX: Final = 50
"""Open rooms listed at most."""


def _utc(when: datetime) -> str:
    """A stored time in ISO 8601, UTC (SQLite gives it back without its zone)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class Hub:
    """Every live room of the server, over one :class:`Store`."""

    def __init__(self, store: Store, seeds: Callable[[], int] = new_seed) -> None:
        self.store = store
        self.seeds = seeds
        """Where games' seeds come from: :func:`new_seed`, or a fixed list in tests."""
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None

    async def create(self, settings: RoomSettings) -> Room:
        """A new room: stored, then live.

        :raises ProtocolError: ``storage`` if the database refuses it.
        """
        seed = self.seeds()
        seats = [Seat(p, label) for p, label in enumerate(settings.seats)]
        stored_seats = [StoredSeat(s.player, s.bot, None, None) for s in seats]
        for _ in range(20):
            code = new_code()
            if code in self.rooms:
                continue
            try:
                game_id = await asyncio.to_thread(
                    self.store.create_room,
                    code,
                    settings.to_dict(),
                    stored_seats,
                    settings.rules.to_dict(),
                    settings.players,
                    settings.rounds,
                    seed,
                    listed=settings.room.listed,
                )
            except SQLAlchemyError:
                log.exception("could not store room %s", code)
                continue
            rules = settings.rules.to_dict()
            stored = StoredGame(game_id, 0, rules, settings.players, settings.rounds, seed, False, ())
            room = Room(self.store, code, settings, seats, stored, self.seeds)
            self.rooms[code] = room
            room.start()
            return room
        raise ProtocolError("storage")

    async def get(self, code: str) -> Room | None:
        """The live room ``code``, loaded from the database if need be."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        async with self._loading:
            room = self.rooms.get(code)
            if room is None:
                room = await asyncio.to_thread(self._load, code)
                if room is None:
                    return None
                self.rooms[code] = room
                room.start()
        return room

    def _load(self, code: str) -> Room | None:
        stored = self.store.load_room(code)
        return None if stored is None else self._room(stored)

    def _room(self, stored: StoredRoom) -> Room:
        settings = RoomSettings.from_dict(stored.settings)
        seats = [
            Seat(s.player, s.bot, s.name, s.token_hash, s.color, s.rejoin_hash, s.code_hash)
            for s in stored.seats
        ]
        return Room(self.store, stored.code, settings, seats, stored.game, self.seeds, host=stored.host)

    async def open_rooms(self) -> list[dict[str, Any]]:
        """The listed rooms waiting for players, newest first (docs/web.md, ``GET /api/rooms``).

        :raises ProtocolError: ``storage`` if the database cannot be read.
        """
        try:
            listed = await asyncio.to_thread(self.store.listed_rooms, LISTED_MAX)
        except SQLAlchemyError:
            log.exception("could not list the open rooms")
            raise ProtocolError("storage") from None
        out = []
        for r in listed:
            settings = RoomSettings.from_dict(r.settings)
            host = next((s.name for s in r.seats if s.player == r.host), None)
            edition = settings.rules.edition
            out.append(
                {
                    "code": r.code,
                    "url": f"/r/{r.code}",
                    "edition": edition.name,
                    "title": edition.title,
                    "mode": settings.rules.mode,
                    "players": settings.players,
                    "free_seats": sum(1 for s in r.seats if s.bot is None and s.token_hash is None),
                    "host": host,
                    "created": _utc(r.created),
                }
            )
        return out

    async def resume(self) -> int:
        """Load every room whose game goes on (after a restart); how many."""
        codes = await asyncio.to_thread(self.store.room_codes, active_only=True)
        for code in codes:
            await self.get(code)
        return len(codes)

    async def sweep(self, idle: float = IDLE_UNLOAD) -> int:
        """Unload the rooms nobody has been connected to for ``idle`` seconds; how many."""
        now = time.monotonic()
        gone = 0
        async with self._loading:
            for code, room in list(self.rooms.items()):
                if room.alone_since is not None and now - room.alone_since >= idle:
                    async with room.lock:  # never in the middle of a change
                        del self.rooms[code]
                        await room.stop()
                    gone += 1
        return gone

    def start_sweeping(self, every: float = 60.0) -> None:
        """Sweep idle rooms out of memory every ``every`` seconds, on the running loop."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                await self.sweep()

        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(loop(), name="sweeper")

    async def close(self) -> None:
        """Stop every room."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for room in list(self.rooms.values()):
            await room.stop()


__all__ = ["IDLE_UNLOAD", "Hub"]
