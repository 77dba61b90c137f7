"""The hub: every live room of the server over one :class:`~unotable.web.storage.Store`; rooms
made (within the quota of open rooms per address and the node's cap on rooms), loaded from the
database when first visited (also after a restart: nothing is loaded at start-up), swept out of
memory when nobody has visited them for a while (P-192), deleted when their time is past
(:class:`Lifecycle`), finished games' replays computed once, one at a time and apart, and kept
within bounds, the list of open rooms (read once a second), whether the database answers (asked
once a second), and where the rooms' bots think (:class:`~unotable.web.thinker.Thinker`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Generic, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from unotable.web.admission import Admission
from unotable.web.cluster import RECONNECT, Cluster, Peer, RoomElsewhereError
from unotable.web.lifecycle import DAY, IDLE_UNLOAD, Lifecycle
from unotable.web.protocol import ProtocolError
from unotable.web.records import ListedRoom, StoredGame, StoredOccupant, StoredRoom, StoredSeat
from unotable.web.room import Room, new_seed
from unotable.web.seats import CODE_ALPHABET, CODE_LENGTH, OLD_CODE_LENGTH, Seat, hash_token, new_code
from unotable.web.settings import RoomSettings
from unotable.web.storage import DB_THREADS, Store
from unotable.web.thinker import Thinker, worker_pool

log = logging.getLogger("unotable.web")

LISTED_MAX: Final = 50
"""Open rooms listed at most."""
MISSING_SECONDS: Final = 60.0
"""Seconds an unknown room code is remembered as unknown (no database query meanwhile)."""
MISSING_MAX: Final = 10_000
"""Unknown codes remembered at most (the oldest forgotten first)."""
REPLAYS_KEPT: Final = 32
"""Finished games whose replays are kept in memory (the least recently fetched go first)."""
REPLAY_STEPS_KEPT: Final = 20_000
"""Steps of replays kept in memory at most (a step is about 2 KB: some 40 MB)."""
WARM_MAX: Final = 5000
"""The most rooms :meth:`Hub.warm_up` loads after a restart when the node has no room cap."""
LOAD_BATCH: Final = 64
"""Rooms read from the database in one go at most (:meth:`Hub.get` in a reconnect storm)."""
REPLAYS_AT_ONCE: Final = 1
"""Replays computed at once (in a thread of their own)."""
REPLAYS_WAITING: Final = 8
"""Replays waiting to be computed at most; past it a replay not yet kept is refused for a moment."""
REPLAY_PAGE_BYTES: Final = 32 * 1024 * 1024
"""Bytes of replay pages (as sent, and gzipped) kept in memory at most."""


T = TypeVar("T")
LOBBY_SECONDS: Final = 1.0
"""Seconds the list of open rooms is kept before it is read again."""
READY_SECONDS: Final = 1.0
"""Seconds the database's answer to ``/readyz``'s ping is kept."""


class Cached(Generic[T]):
    """A value computed by ``compute`` at most once every ``seconds``, and once for every
    caller that asks while it is being computed (a failure is not kept: each waiter hears it,
    the next caller computes again)."""

    def __init__(self, compute: Callable[[], Awaitable[T]], seconds: float = 1.0) -> None:
        self.compute = compute
        self.seconds = seconds
        self.computed = 0
        """Times the value was computed."""
        self._value: tuple[T] | None = None
        self._at = 0.0
        self._task: asyncio.Task[T] | None = None

    async def get(self) -> T:
        """The value: kept, else being computed, else computed now."""
        if self._value is not None and time.monotonic() - self._at < self.seconds:
            return self._value[0]
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        return await asyncio.shield(self._task)

    async def _run(self) -> T:
        try:
            value = await self.compute()
            self.computed += 1
            self._value, self._at = (value,), time.monotonic()
            return value
        finally:
            self._task = None


class Pages:
    """Pages of bytes by key (the first element a room's code), kept while they hold ``limit``
    bytes at most, the least recently fetched going first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.hits = 0
        """Pages sent from memory."""
        self._pages: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        """The page kept under ``key``, if any."""
        page = self._pages.get(key)
        if page is not None:
            self.hits += 1
            self._pages.move_to_end(key)
        return page

    def put(self, key: tuple[Any, ...], page: bytes) -> bytes:
        """Keep ``page`` under ``key`` (unless it alone is over the limit); ``page``."""
        old = self._pages.pop(key, None)
        if old is not None:
            self.size -= len(old)
        if len(page) <= self.limit:
            self._pages[key] = page
            self.size += len(page)
            while self.size > self.limit:
                self.size -= len(self._pages.popitem(last=False)[1])
        return page

    def forget(self, code: str) -> None:
        """Drop every page of room ``code``."""
        for key in [k for k in self._pages if k[0] == code]:
            self.size -= len(self._pages.pop(key))

    def __len__(self) -> int:
        return len(self._pages)


def address_key(host: str) -> str:
    """What the database keeps of a client's address for the quotas: a hash, not the address."""
    return hash_token("address:" + host)


def _utc(when: datetime) -> str:
    """A stored time in ISO 8601, UTC (SQLite gives it back without its zone)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _lobby_rows(listed: list[ListedRoom]) -> list[dict[str, Any]]:
    """The open rooms' rows as ``GET /api/rooms?open=1`` lists them."""
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


class Hub:
    """Every live room of the server, over one :class:`Store`."""

    def __init__(
        self,
        store: Store,
        seeds: Callable[[], int] = new_seed,
        lifecycle: Lifecycle | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.cluster = cluster
        """This node's part of a service of several (``None``: one server alone). Then a room is
        live here only while this node holds its lease (:mod:`~unotable.web.cluster`)."""
        self.seeds = seeds
        """Where games' seeds come from: :func:`new_seed`, or a fixed list in tests."""
        self.lifecycle = lifecycle or Lifecycle()
        self.thinker = Thinker(self.lifecycle.bot_workers, cpu_share=self.lifecycle.bot_cpu_share)
        """Where the rooms' bots think (:mod:`~unotable.web.thinker`)."""
        self.rooms: dict[str, Room] = {}
        self.loads = 0
        """Rooms looked up in the database (found or not), for the tests and metrics."""
        self.refused_full = 0
        """Rooms refused because the node held :attr:`Lifecycle.max_rooms` already."""
        self.replays_computed = 0
        """Replays computed (each finished game's once while it is kept)."""
        self._pending: dict[str, asyncio.Task[Room | None]] = {}
        self._queued: dict[str, list[asyncio.Future[Room | None]]] = {}
        self._reading = 0
        self._kicked = False
        self._reads: set[asyncio.Task[None]] = set()
        self.batches = 0
        """Reads of rooms from the database (each of one or more rooms), for the tests."""
        self._missing: OrderedDict[str, float] = OrderedDict()
        self._replays: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
        self._replay_steps = 0
        self.replay_steps_kept = REPLAY_STEPS_KEPT
        self._replay_thread = ThreadPoolExecutor(REPLAYS_AT_ONCE, thread_name_prefix="replay")
        self._replay_process: ProcessPoolExecutor | None = None
        self.replay_pages = Pages(REPLAY_PAGE_BYTES)
        """Replay pages as sent, kept (a cached page costs nothing to send again)."""
        self._computing: dict[tuple[str, int], asyncio.Task[list[dict[str, Any]] | None]] = {}
        self.admission = Admission(store.open_rooms_of)
        """The node's cap on rooms and each address's quota (:mod:`~unotable.web.admission`)."""
        self.lobby: Cached[list[dict[str, Any]]] = Cached(self._open_rooms, LOBBY_SECONDS)
        """The list of open rooms, read at most once a second however many ask."""
        self.ready: Cached[bool] = Cached(self._database_answers, READY_SECONDS)
        """Whether the database answers (``/readyz``), asked at most once a second."""
        self._sweeper: asyncio.Task[None] | None = None
        self._warmer: asyncio.Task[int] | None = None
        self.warmed = 0
        """Rooms loaded by :meth:`warm_up` (not by a visit), for the tests and metrics."""
        self.stopping = False
        """The node is handing its rooms over (:meth:`hand_over`): it loads no room any more."""
        self._moving: set[str] = set()
        """Rooms being handed over: not loaded again here meanwhile (the client asks again)."""

    async def create(
        self, settings: RoomSettings, address: str | None = None, *, place: bool = False
    ) -> Room:
        """A new room: stored, then live. ``address``: the client's, for the quota of open rooms
        per address (:attr:`Lifecycle.rooms_per_address`). However many addresses ask, no room is
        made past :attr:`Lifecycle.max_rooms` rooms whose game goes on (counted in the database
        at most every 2 s, the rooms made since in memory: :mod:`~unotable.web.admission`; no
        lock held while a room is stored). ``place``: in a cluster, the room goes to the least
        loaded live node (:meth:`~unotable.web.cluster.Cluster.place`).

        :raises ProtocolError: ``server_full`` past the node's cap, ``too_many_rooms`` past the
            address's quota, ``storage`` if the database refuses it.
        :raises ~unotable.web.cluster.RoomElsewhereError: (code empty) to have the request made
            on another node, which holds fewer rooms.
        """
        if place and self.cluster is not None:
            peer = self.cluster.place()
            if peer is not None:
                raise RoomElsewhereError("", peer.name, peer.url)
        limit = self.lifecycle.rooms_per_address
        most = self.lifecycle.max_rooms
        creator = None if address is None else address_key(address)
        if not most and (creator is None or not limit):
            return await self._create(settings, None)
        try:
            await self.admission.take(creator, most, limit)
        except ProtocolError as exc:
            if exc.code == "server_full":
                self.refused_full += 1
            raise
        except SQLAlchemyError:
            log.exception("could not count the rooms")
            raise ProtocolError("storage") from None
        made = False
        try:
            room = await self._create(settings, creator)
            made = True
            return room
        finally:
            self.admission.release(creator, made=made)

    async def _create(self, settings: RoomSettings, creator: str | None) -> Room:
        seed = self.seeds()
        seats = [Seat(p, label) for p, label in enumerate(settings.seats)]
        stored_seats = [StoredSeat(s.player, s.bot, None, None) for s in seats]
        for _ in range(20):
            code = new_code()
            if code in self.rooms:
                continue
            lease, since = self.cluster.new_lease() if self.cluster is not None else (None, 0.0)
            try:  # in a cluster, with its lease (one transaction)
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
                    creator=creator,
                    lease=lease,
                )
            except SQLAlchemyError:
                log.exception("could not store room %s", code)
                continue
            if self.cluster is not None:
                self.cluster.made(code, since)
            rules = settings.rules.to_dict()
            stored = StoredGame(game_id, 0, rules, settings.players, settings.rounds, seed, False, ())
            occupants = [
                StoredOccupant(s.player, 0, 0, s.name, s.bot) for s in stored_seats if s.bot is not None
            ]
            room = Room(self.store, code, settings, seats, stored, self.seeds, occupants=occupants)
            self.rooms[code] = room
            self._missing.pop(code, None)
            room.driver.thinker = self.thinker
            room.start()
            return room
        raise ProtocolError("storage")

    async def get(self, code: str) -> Room | None:
        """The live room ``code``, loaded from the database if need be (a room is loaded on its
        first visit, paused until someone connects). No lock is held while the database is
        read: one load per code at a time, other codes served meanwhile; a code found unknown is
        not looked up again for :data:`MISSING_SECONDS`.

        :raises ~unotable.web.cluster.RoomElsewhereError: in a cluster, if another node owns the room.
        """
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            if self.cluster is None or self.cluster.holds(code):
                return room
            room = await self._confirm(code, room)
            if room is not None:
                return room
        if len(code) not in (CODE_LENGTH, OLD_CODE_LENGTH) or any(c not in CODE_ALPHABET for c in code):
            return None
        missed = self._missing.get(code)
        if missed is not None and time.monotonic() - missed < MISSING_SECONDS:
            return None
        if code in self._moving:  # its lease is on its way to another node: ask again shortly
            raise RoomElsewhereError(code, "", "")
        task = self._pending.get(code)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._fetch(code))
            self._pending[code] = task
            task.add_done_callback(lambda _: self._pending.pop(code, None))
        return await asyncio.shield(task)

    async def _confirm(self, code: str, room: Room) -> Room | None:
        """Room ``code`` is in memory but this node's clock says its lease may have run out (the
        node was frozen, or its renewals failed): confirm the lease in the database before
        serving the room; if another node took it (or may have), drop this copy, which may be
        behind the log, and load the room afresh (taking the lease) or send the client on."""
        assert self.cluster is not None
        try:
            held = await asyncio.to_thread(self.cluster.confirm, code)
        except SQLAlchemyError:
            raise RoomElsewhereError(code, "", "") from None  # the client asks again
        if held:
            return room
        self.cluster.lose(code)  # on_lost drops it too; dropping it here first serves nothing stale
        if self.rooms.get(code) is room:
            await self.drop(code)
        return None

    async def _fetch(self, code: str) -> Room | None:
        room = await self._read(code)
        if room is not None and self.cluster is not None and code not in self.cluster.leases:
            # The lease was lost while the room was read (this node's renewal came too late and
            # another node took it): the drop found nothing to drop, so the room must not go
            # live here, where none of its moves could be saved. Read it again: the lease is
            # this node's once more, or the other node's, to which the client is sent.
            room = await self._read(code)
            if room is not None and code not in self.cluster.leases:
                raise RoomElsewhereError(code, "", "")  # lost twice in a row: the client asks again
        if room is None:
            self._missing[code] = time.monotonic()
            self._missing.move_to_end(code)
            while len(self._missing) > MISSING_MAX:
                self._missing.popitem(last=False)
            return None
        live = self.rooms.get(code)
        if live is not None:  # pragma: no cover - only this task loads the code
            return live
        self.rooms[code] = room
        room.driver.thinker = self.thinker
        room.start()
        return room

    def _read(self, code: str) -> asyncio.Future[Room | None]:
        """Room ``code`` read from the database with the others asked for meanwhile: at most
        :data:`~unotable.web.storage.DB_THREADS` reads at once, each of every code that waits
        then (at most :data:`LOAD_BATCH`), so a reconnect storm's hundreds of rooms cost a few
        queries each, not four a room, and a slow read never holds up another's codes."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Room | None] = loop.create_future()
        self._queued.setdefault(code, []).append(future)
        if not self._kicked:  # after the other codes asked for in this turn of the loop
            self._kicked = True
            loop.call_soon(self._next_reads)
        return future

    def _next_reads(self) -> None:
        self._kicked = False
        while self._queued and self._reading < DB_THREADS:
            codes = list(itertools.islice(self._queued, LOAD_BATCH))
            waiting = {code: self._queued.pop(code) for code in codes}
            self._reading += 1
            task = asyncio.get_running_loop().create_task(self._read_batch(waiting))
            self._reads.add(task)
            task.add_done_callback(self._reads.discard)

    async def _read_batch(self, waiting: dict[str, list[asyncio.Future[Room | None]]]) -> None:
        try:
            self.batches += 1
            try:
                out = await self.store.call(self._load_many, list(waiting))
            except Exception as exc:  # the database failed them all: each waiter hears it
                out = dict.fromkeys(waiting, exc)
            for code, futures in waiting.items():
                got = out.get(code)
                for future in futures:
                    if future.done():
                        continue
                    if isinstance(got, BaseException):
                        future.set_exception(got)
                    else:
                        future.set_result(got)
        finally:
            self._reading -= 1
            self._next_reads()

    def _load_many(self, codes: list[str]) -> dict[str, Room | BaseException | None]:
        """Rooms ``codes`` read and replayed (in the store's threads): by code, the room, or
        ``None`` if there is none, or what went wrong with it alone."""
        self.loads += len(codes)
        out: dict[str, Room | BaseException | None] = {}
        wanted = codes
        if self.cluster is not None:
            wanted = []
            # First the leases (one transaction for them all), then the logs: they hold every
            # write of the owners before.
            for code, failed in self.cluster.acquire_many(codes).items():
                if failed is None:
                    wanted.append(code)
                else:
                    out[code] = None if isinstance(failed, KeyError) else failed
        stored = self.store.load_rooms(wanted)
        for code in wanted:
            one = stored.get(code)
            if one is None:
                if self.cluster is not None:
                    self.cluster.release(code)
                out[code] = None
                continue
            time.sleep(0)  # the GIL to the event loop between rooms, not after a switch interval
            try:
                out[code] = self._room(one)
            except Exception as exc:  # one room that cannot be replayed fails alone
                log.exception("room %s could not be loaded", code)
                out[code] = exc
        return out

    def start_warming(self) -> None:
        """Run :meth:`warm_up` in the background on the running loop (the server is ready at
        once: nothing waits for it)."""
        if self._warmer is None:
            self._warmer = asyncio.get_running_loop().create_task(self.warm_up(), name="warm-up")

    async def warm_up(self) -> int:
        """Load the rooms this server held before a restart, so that their clients, reconnecting
        all at once, find them in memory: one server alone, the rooms whose game goes on that
        were active within :attr:`Lifecycle.unload` (how long an idle room stays in memory); a
        node of several, the rooms its name held (:attr:`Cluster.held_before`; taken only if no
        other node took them meanwhile). At most the node's room cap (or :data:`WARM_MAX`), one
        read of :data:`LOAD_BATCH` rooms at a time, so that the database's other thread serves
        the visits meanwhile; a room a client asks for first is loaded for it as usual. Loaded
        rooms are paused, and leave memory as usual if nobody comes. How many it loaded."""
        limit = self.lifecycle.max_rooms or WARM_MAX
        if self.cluster is not None:
            codes = self.cluster.held_before[:limit]
        else:
            since = datetime.now(UTC) - timedelta(seconds=self.lifecycle.unload)
            try:
                codes = await self.store.call(self.store.recent_rooms, since, limit)
            except SQLAlchemyError:
                log.warning("could not list the rooms live before the start; each loads on its first visit")
                return 0
        for start in range(0, len(codes), LOAD_BATCH):
            if self.stopping:
                break
            batch = [code for code in codes[start : start + LOAD_BATCH] if code not in self.rooms]
            got = await asyncio.gather(*(self.get(code) for code in batch), return_exceptions=True)
            self.warmed += sum(1 for room in got if isinstance(room, Room))
        if codes:
            log.info("loaded %d of the %d room(s) live before the start", self.warmed, len(codes))
        return self.warmed

    async def drop(self, code: str) -> None:
        """Take room ``code`` out of memory at once, its connections closed with
        :data:`~unotable.web.cluster.RECONNECT` (another node owns it now: they reconnect)."""
        room = self.rooms.pop(code, None)
        if room is not None:
            await room.stop(RECONNECT)

    async def rebalance(self) -> int:
        """Hand the rooms this node holds beyond its share (plus a slack) to the live nodes
        under theirs (:meth:`~unotable.web.cluster.Cluster.plan`; a node just joined holds
        none): the rooms nobody is connected to are just unloaded (whoever is asked for one
        next takes it), the others' leases go straight to their new node and their clients
        reconnect to it. How many rooms left this node."""
        if self.cluster is None or self.stopping:
            return 0
        targets = self.cluster.plan()
        if not targets:
            return 0
        rooms = sorted(self.rooms.items(), key=lambda item: not item[1].paused)[: len(targets)]
        # Which rooms are idle is decided once, here: a client may come to an idle room while
        # it is handed over (it is told to reconnect), and the busy rooms keep their targets.
        idle = [code for code, room in rooms if room.paused]
        busy = {code: peer for (code, room), peer in zip(rooms, targets, strict=False) if not room.paused}
        moved = await self.hand_over(idle) if idle else 0
        if busy:
            moved += await self.hand_over(list(busy), busy)
        return moved

    async def hand_over(self, codes: list[str] | None = None, to: dict[str, Peer] | None = None) -> int:
        """Move rooms to other nodes at once: their leases given back in one transaction, then
        the rooms stopped, their connections closed with :data:`~unotable.web.cluster.RECONNECT`,
        so that their clients reconnect (through the load balancer) to a node that takes each
        lease at once. ``None``: every room, and the node takes no room any more (SIGTERM:
        ``uno serve`` calls this before it drains its connections). ``to``: each room's lease
        handed straight to that node instead (rebalancing). How many rooms moved."""
        if self.cluster is None:
            return 0
        if codes is None:
            self.stopping = True
            try:
                await asyncio.to_thread(self.cluster.mark_stopping)
            except SQLAlchemyError:
                self.cluster.stopping = True
                log.warning("could not mark node %s stopping", self.cluster.name)
            codes = list(self.rooms)
        rooms = [(code, self.rooms.pop(code)) for code in codes if code in self.rooms]
        moving = {code for code, _ in rooms}
        self._moving |= moving  # not loaded again here while its lease moves (a client's reconnect)
        try:
            for _, room in rooms:
                await room.driver.stop()  # no bot acts meanwhile
            try:
                if to is None:
                    await asyncio.to_thread(self.cluster.give_back, [code for code, _ in rooms])
                else:
                    await asyncio.to_thread(self.cluster.transfer, [(code, to[code]) for code, _ in rooms])
            except SQLAlchemyError:  # their writes are refused already; the leases run out
                log.warning(
                    "could not give %d lease(s) back; they expire in %g s",
                    len(rooms),
                    self.cluster.lease_seconds,
                )
            for _, room in rooms:
                await room.stop(RECONNECT)
        finally:
            self._moving -= moving
        if rooms:
            log.info("node %s handed %d room(s) over", self.cluster.name, len(rooms))
            if codes is not None:
                for code, _ in rooms:
                    self._missing.pop(code, None)
        return len(rooms)

    def _room(self, stored: StoredRoom) -> Room:
        settings = RoomSettings.from_dict(stored.settings)
        seats = [
            Seat(s.player, s.bot, s.name, s.token_hash, s.color, s.rejoin_hash, s.code_hash)
            for s in stored.seats
        ]
        return Room(
            self.store,
            stored.code,
            settings,
            seats,
            stored.game,
            self.seeds,
            host=stored.host,
            occupants=stored.occupants,
        )

    async def _database_answers(self) -> bool:
        try:
            await asyncio.to_thread(self.store.ping)
        except Exception:  # whatever the driver raises, the database does not answer
            return False
        return True

    async def open_rooms(self) -> list[dict[str, Any]]:
        """The listed rooms waiting for players, newest first (docs/web.md, ``GET /api/rooms``),
        as read at most :data:`LOBBY_SECONDS` ago (once for every request meanwhile).

        :raises ProtocolError: ``storage`` if the database cannot be read.
        """
        return await self.lobby.get()

    async def _open_rooms(self) -> list[dict[str, Any]]:
        try:
            return await asyncio.to_thread(lambda: _lobby_rows(self.store.listed_rooms(LISTED_MAX)))
        except SQLAlchemyError:
            log.exception("could not list the open rooms")
            raise ProtocolError("storage") from None

    async def replay(
        self, room: Room, number: int, compute: Callable[[], list[dict[str, Any]] | None]
    ) -> list[dict[str, Any]] | None:
        """Game ``number`` of ``room``'s replay steps: from memory, else ``compute()`` run once
        (fetches meanwhile wait for it) and kept; ``None`` if there is no such finished game.

        However many addresses cycle through replays, they stay bounded: computed one at a
        time in a thread of their own (:data:`REPLAYS_AT_ONCE`; neither on the event loop nor in
        the threads the database uses; ``compute`` may hand its CPU to a process:
        :meth:`apart`), at most :data:`REPLAYS_WAITING` more waiting (others are refused), and
        kept while they hold :data:`REPLAY_STEPS_KEPT` steps and :data:`REPLAYS_KEPT` games at
        most, the least recently fetched going first (a finished game never changes).

        :raises ProtocolError: ``replays_busy`` when too many replays wait to be computed.
        """
        key = (room.code, number)
        steps = self._replays.get(key)
        if steps is not None:
            self._replays.move_to_end(key)
            return steps
        task = self._computing.get(key)
        if task is None:
            if len(self._computing) >= REPLAYS_AT_ONCE + REPLAYS_WAITING:
                raise ProtocolError("replays_busy")

            async def run() -> list[dict[str, Any]] | None:
                out = await asyncio.get_running_loop().run_in_executor(self._replay_thread, compute)
                if out is not None:
                    self.replays_computed += 1
                    self._replays[key] = out
                    self._replay_steps += len(out)
                    while len(self._replays) > 1 and (
                        len(self._replays) > REPLAYS_KEPT or self._replay_steps > self.replay_steps_kept
                    ):
                        self._replay_steps -= len(self._replays.popitem(last=False)[1])
                return out

            task = asyncio.get_running_loop().create_task(run())
            self._computing[key] = task
            task.add_done_callback(lambda _: self._computing.pop(key, None))
        return await asyncio.shield(task)

    def apart(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in the replays' worker process (a lower priority than the server's,
        started on first use; made again if it died), waited for here: called from the replays'
        thread, so that a replay's CPU holds neither the event loop nor the server's GIL."""
        if self._replay_process is None:
            self._replay_process = worker_pool(REPLAYS_AT_ONCE)
        try:
            return self._replay_process.submit(work, *args).result()
        except BrokenProcessPool:
            log.warning("the replays' worker died; computing this replay in the server")
            self._replay_process = None
            return work(*args)

    @property
    def replay_steps(self) -> int:
        """Steps of replays kept in memory now."""
        return self._replay_steps

    @property
    def paused(self) -> int:
        """Rooms in memory that nobody is connected to (their bots and timers stopped)."""
        return sum(1 for r in self.rooms.values() if r.paused)

    async def sweep(self, idle: float | None = None) -> int:
        """Unload the rooms nobody has been connected to for ``idle`` seconds (the lifecycle's
        ``unload`` by default), noting when they were last active; how many."""
        idle = self.lifecycle.unload if idle is None else idle
        now = time.monotonic()
        gone = 0
        for code, room in list(self.rooms.items()):
            if room.alone_since is not None and now - room.alone_since >= idle:
                async with room.lock:  # never in the middle of a change
                    if self.rooms.get(code) is room and room.alone_since is not None:
                        del self.rooms[code]
                        await room.stop()
                        gone += 1
                if self.cluster is not None and code not in self.rooms:
                    with contextlib.suppress(SQLAlchemyError):
                        await asyncio.to_thread(self.cluster.release, code)
                with contextlib.suppress(SQLAlchemyError):
                    await asyncio.to_thread(self.store.touch, code)
        return gone

    async def expire(self, now: datetime | None = None) -> list[str]:
        """Delete the rooms past their time (:class:`Lifecycle`; not the ones people are
        connected to); their codes."""
        life = self.lifecycle
        keep = {code for code, room in self.rooms.items() if not room.paused}
        if self.cluster is not None:
            keep |= await asyncio.to_thread(self.cluster.leased_elsewhere)
        codes = await asyncio.to_thread(
            self.store.expire, now or datetime.now(UTC), life.waiting, life.finished, life.idle, keep
        )
        for code in codes:
            room = self.rooms.pop(code, None)
            if room is not None:
                await room.stop()
            if self.cluster is not None:
                self.cluster.forget(code)
            for key in [k for k in self._replays if k[0] == code]:
                self._replay_steps -= len(self._replays.pop(key))
            self.replay_pages.forget(code)
        if codes:
            log.info("deleted %d room(s) past their time", len(codes))
        return codes

    def start_sweeping(self, every: float = 60.0) -> None:
        """Sweep idle rooms out of memory every ``every`` seconds, on the running loop."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.sweep()
                    await self.expire()
                except SQLAlchemyError:
                    log.warning("the sweep could not reach the database; trying again later")

        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(loop(), name="sweeper")

    async def close(self) -> None:
        """Stop every room."""
        if self._warmer is not None:
            self._warmer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warmer
            self._warmer = None
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        code = RECONNECT if self.cluster is not None else 1008
        for room in list(self.rooms.values()):
            await room.stop(code)
        self.thinker.close()
        self._replay_thread.shutdown(wait=False, cancel_futures=True)
        if self._replay_process is not None:
            self._replay_process.shutdown(wait=False, cancel_futures=True)


__all__ = ["DAY", "IDLE_UNLOAD", "Hub", "Lifecycle", "address_key"]
