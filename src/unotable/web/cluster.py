"""Several ``uno serve`` nodes, one service, on one PostgreSQL database (issue 24; docs/web.md,
"Several nodes").

Every room has exactly one owner node, the one that runs its :class:`~unotable.web.room.Room`:
ownership is a lease in the ``room_leases`` table (owner, fencing number, expiry) that the owner
renews every :data:`RENEW_SECONDS` with its heartbeat. A node asked for a room it does not hold
takes the lease if nobody holds it or it has expired (the fencing number goes up by one), then
reads the room's stored log; otherwise it relays the client to the owner
(:mod:`~unotable.web.relay`). Every write to a room checks the lease in the same transaction
(:attr:`~unotable.web.storage.Store.fencing`) and every log row is unique by (game, seq), so an
owner that lost its lease (paused, partitioned) cannot write: its write fails and it drops the
room, closing its connections with :data:`RECONNECT` so the clients come back to the new owner.

All of it is plain SQL on PostgreSQL, run in threads off the event loop like the rest of the
storage; times are the database's (``now()``), so the nodes' clocks need not agree.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from unotable.web.pgwrites import LEASE_ALONE
from unotable.web.storage import Store

log = logging.getLogger("unotable.web.cluster")

LEASE_SECONDS: Final = 6.0
"""How long a room's lease lasts unless renewed: the longest a dead owner's rooms wait."""
RENEW_SECONDS: Final = 2.0
"""How often a node renews its leases and its heartbeat (three chances per lease)."""
PLACE_SLACK: Final = 2
"""A new room is made on the node asked unless another live node holds more than this many
fewer rooms, or a tenth of this node's if more (then the request goes to the least loaded:
:meth:`Cluster.place`). A round-robin balancer spreads the rooms evenly by itself: placement
is for the requests that all reach one node, and must not overshoot on counts up to 2 s old."""
BALANCE_SLACK: Final = 2
"""A node holds up to its share of the service's rooms plus this many before it hands rooms to
the nodes under their share (:meth:`Cluster.plan`), e.g. when a node joins."""
SILENT_SECONDS: Final = 3.0
"""An owner whose heartbeat is older than this missed a renewal (frozen, lost, cut off from the
database): a node asked for one of its rooms waits for the lease to run out (6 s at most after
that owner's last renewal) and takes the room, instead of first trying a relay that a frozen
owner's kernel accepts and never answers (3 s lost: :data:`~unotable.web.relay.OPEN_SECONDS`)."""
MARGIN_SECONDS: Final = 1.0
"""A node serves a room only until its own (monotonic) clock says the lease has less than this
left (counted from before its last successful renewal was sent): past that, it confirms the
lease in the database before it serves the room again (:meth:`Cluster.holds`)."""
RECONNECT: Final = 1012
"""The WebSocket close code a node sends when a room moves (the node stops, or lost the room):
"service restart", reconnect now. The page and the tests' clients reconnect on any close."""
UNREACHABLE: Final = 1013
"""The close code of a relayed WebSocket whose owner does not answer: "try again later" (its
lease expires within :data:`LEASE_SECONDS`, then a live node takes the room)."""
NODE_HEADER: Final = "x-unotable-node"
"""The header that carries the service's secret on a request one node relays to another."""
CLIENT_HEADER: Final = "x-unotable-client"
"""The header that carries the client's address on a relayed request."""
HELD_BEFORE_SECONDS: Final = 600.0
"""A lease of this node's name that ended at most this long before it registers names a room it
held before a restart (:attr:`Cluster.held_before`; as long as an idle room stays in memory)."""
SILENT: Final = "COALESCE(n.heartbeat_at < now() - make_interval(secs => :quiet), true)"
"""Whether a lease's owner (``n``, joined) is silent: :data:`SILENT_SECONDS` without a heartbeat."""
EXPIRE: Final = "UPDATE room_leases SET expires_at = now() - interval '1 second' WHERE "
"""A lease given back is expired, not deleted: its fencing number keeps growing."""

NODE_COOKIE: Final = "unotable_node"
"""The cookie a node sets on its answers about a room it holds (made, joined, rejoined, looked
up): its own name. The documented nginx site sends a request carrying it to that node's own
upstream (docs/deploy/nginx.conf), so a room's WebSockets reach its owner without a relay; a
stale one (the room moved) costs only a relay."""
NODE_COOKIE_SECONDS: Final = 3
"""How long the cookie lasts: long enough for the page's WebSocket, opened right after such an
answer, and shorter than the page takes to notice a frozen node (4 s at the soonest: a move's
probe after 1 s, then two pings unanswered for 1.5 s each), so that its reconnect finds the
cookie gone and goes round-robin to a live node; nginx would keep sending it to the frozen
node (whose kernel still accepts connections) until its 45 s timeout."""
COOKIE_NAME: Final = re.compile(r"[A-Za-z0-9._:-]{1,64}")
"""The node names sent in :data:`NODE_COOKIE` (others are sent no cookie: nginx cannot match
them safely)."""


class RoomElsewhereError(Exception):
    """The room is owned by another node, reached at ``url``; ``silent`` if that node's heartbeat
    is older than :data:`SILENT_SECONDS` (do not relay to it: its lease runs out soon)."""

    def __init__(self, code: str, node: str, url: str, silent: bool = False) -> None:
        super().__init__(f"room {code} is owned by node {node} ({url})")
        self.code = code
        self.node = node
        self.url = url
        self.silent = silent


def default_node_name(port: int) -> str:
    """A node's name when ``--node-name`` is not given: ``host:port``."""
    return f"{socket.gethostname()}:{port}"


def default_advertise(host: str, port: int, lan: list[str] | None = None) -> str:
    """The address other nodes reach this one at when ``--advertise`` is not given: the listening
    address, or for ``0.0.0.0`` the machine's first network address (else its name)."""
    if host in ("0.0.0.0", "::", ""):
        host = (lan or [socket.gethostname()])[0]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


@dataclass
class Lease:
    """A room's lease as this node holds it: the one record of it from the room's load (or
    making) to its drop, written only by :class:`Cluster`."""

    code: str
    fence: int
    """The fencing number this node holds it with (every write checks it)."""
    valid_until: float
    """``time.monotonic()`` until which this node may serve the room without asking the
    database: the start of its last successful renewal (or taking) plus the lease, less
    :data:`MARGIN_SECONDS`. A node frozen past it (SIGSTOP, a long pause) finds it passed
    when it wakes, whatever the database says, and confirms the lease before serving."""


@dataclass(frozen=True)
class Peer:
    """A live node of the service (a heartbeat within a lease, not stopping), as of the last
    renewal: where it is reached and how many rooms it holds (live leases)."""

    name: str
    url: str
    rooms: int


@dataclass(frozen=True)
class NodeStatus:
    """A node as ``uno cluster status`` shows it."""

    name: str
    url: str
    started: datetime
    heartbeat_age: float
    """Seconds since its last heartbeat."""
    stopping: bool
    rooms: int
    """Rooms whose lease it holds (expired or not)."""


@dataclass(frozen=True)
class LeaseStatus:
    """A room's lease as ``uno cluster status`` shows it."""

    code: str
    node: str
    fence: int
    expires_in: float
    """Seconds until it expires (negative: expired, free to take)."""


class Cluster:
    """This node's part of the service: its row in ``nodes``, the leases it holds, and the thread
    that renews them.

    :param store: the database (PostgreSQL).
    :param name: this node's name, unique in the service (``--node-name``).
    :param url: where the other nodes reach it (``--advertise``), e.g. ``http://10.0.0.5:8000``.
    :raises ValueError: if the database is not PostgreSQL.
    """

    def __init__(
        self,
        store: Store,
        name: str,
        url: str,
        *,
        lease_seconds: float = LEASE_SECONDS,
        renew_seconds: float = RENEW_SECONDS,
    ) -> None:
        if store.engine.dialect.name != "postgresql":
            raise ValueError("several nodes need PostgreSQL (SQLite stays one server)")
        self.store = store
        self.name = name
        self.url = url.rstrip("/")
        self.lease_seconds = lease_seconds
        self.renew_seconds = renew_seconds
        self.leases: dict[str, Lease] = {}
        """Room code -> its :class:`Lease`, for every room whose lease this node holds."""
        self.stopping = False
        """This node is handing its rooms over (SIGTERM): it takes no lease any more."""
        self.peers: list[Peer] = []
        """The live nodes of the service, this one included, as of the last renewal."""
        self.secret = ""
        """The service's secret (the ``cluster`` table), shown on relayed requests."""
        self.on_lost: Callable[[str], None] = lambda code: None
        """Told (on the event loop) the code of a room this node lost: the hub drops it."""
        self.takeovers = 0
        """Rooms taken from another node whose lease had expired, since the start."""
        self.lost_rooms = 0
        """Rooms this node lost (another node took them), since the start."""
        self.live_nodes = 1
        """The nodes of the service that are up (a heartbeat within a lease, not stopping), this
        one included, as of the last renewal: each node allows a client ``1 / live_nodes`` of
        the service's rates, so that the service as a whole allows it no more than the flags
        say (P-462)."""
        self.on_renewed: Callable[[], Awaitable[object]] | None = None
        """Run (on the event loop) after each successful renewal: the hub rebalances."""
        self.held_before: list[str] = []
        """The rooms an earlier process of this node's name held (leases that ended at most
        :data:`HELD_BEFORE_SECONDS` before :meth:`register`), the latest first: the hub loads
        them in the background after a restart (:meth:`Hub.warm_up <unotable.web.hub.Hub.warm_up>`)."""
        self.moved_rooms = 0
        """Rooms this node handed to another to even the load (placement or rebalancing)."""
        self._placed: dict[str, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._renewer: threading.Thread | None = None
        self._quit = threading.Event()
        self._handing: asyncio.Task[None] | None = None
        self._losing: set[str] = set()

    @property
    def owned(self) -> dict[str, int]:
        """Room code -> fencing number, for every room whose lease this node holds."""
        return {code: lease.fence for code, lease in self.leases.items()}

    def _hold(self, code: str, fence: int, since: float) -> None:
        valid = since + self.lease_seconds - MARGIN_SECONDS
        lease = self.leases.get(code)
        if lease is not None and lease.fence == fence:
            lease.valid_until = max(lease.valid_until, valid)
        else:
            self.leases[code] = Lease(code, fence, valid)

    def holds(self, code: str) -> bool:
        """Whether this node holds room ``code``'s lease and its own clock says the lease is
        still valid (:attr:`Lease.valid_until`): only then may it serve the room without
        asking the database (:meth:`confirm`)."""
        lease = self.leases.get(code)
        return lease is not None and time.monotonic() < lease.valid_until

    def confirm(self, code: str) -> bool:
        """Renew room ``code``'s lease if it is still this node's with the same fencing number
        (nobody took it meanwhile, even if it ran out): whether it is (if not, the room is
        another node's or free, and this node's copy of it must go)."""
        lease = self.leases.get(code)
        if lease is None:
            return False
        since = time.monotonic()
        with self.store.engine.begin() as conn:
            row = conn.execute(
                text(
                    "UPDATE room_leases SET expires_at = now() + make_interval(secs => :ttl) "
                    "WHERE code = :code AND node = :node AND fence = :fence RETURNING fence"
                ),
                {"code": code, "node": self.name, "fence": lease.fence, "ttl": self.lease_seconds},
            ).first()
        if row is None:
            return False
        self._hold(code, lease.fence, since)
        return True

    # ---- start and stop

    def register(self) -> None:
        """Enter (or re-enter) the ``nodes`` table with a fresh heartbeat, forget the leases an
        earlier process of the same name left, read the secret, and fence the store's writes."""
        with self.store.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO nodes (name, url, started_at, heartbeat_at, stopping) "
                    "VALUES (:name, :url, now(), now(), false) ON CONFLICT (name) DO UPDATE SET "
                    "url = :url, started_at = now(), heartbeat_at = now(), stopping = false"
                ),
                {"name": self.name, "url": self.url},
            )
            held = conn.execute(
                text(
                    "SELECT code FROM room_leases WHERE node = :name AND expires_at > now() - "
                    "make_interval(secs => :recent) ORDER BY expires_at DESC, code"
                ),
                {"name": self.name, "recent": HELD_BEFORE_SECONDS},
            )
            self.held_before = [str(r[0]) for r in held]
            conn.execute(text(EXPIRE + "node = :name"), {"name": self.name})
            self.secret = str(conn.execute(text("SELECT secret FROM cluster WHERE id = 1")).scalar_one())
            self._read_peers(conn)
        self.store.fencing = self.fence_of
        self.store.lost = self._lost_in_thread

    def start(self) -> None:
        """Register, then renew the leases and the heartbeat in a thread of their own, telling
        the running loop what each renewal found."""
        self._loop = asyncio.get_running_loop()
        self.register()
        self._quit.clear()
        self._renewer = threading.Thread(target=self._beat, name="cluster-renew", daemon=True)
        self._renewer.start()

    async def stop(self) -> None:
        """Stop renewing, give every lease back (the rooms must be stopped first: their clients
        reconnect and another node takes them at once) and leave the ``nodes`` table."""
        if self._renewer is not None:
            self._quit.set()
            await asyncio.to_thread(self._renewer.join)
            self._renewer = None
        if self._handing is not None:
            self._handing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._handing
            self._handing = None
        self.leases.clear()
        try:
            await asyncio.to_thread(self._leave)
        except SQLAlchemyError:
            log.warning("could not give the leases back; they expire in %g s", self.lease_seconds)

    def mark_stopping(self) -> None:
        """Take no lease any more, and say in ``nodes`` that this node is handing its rooms over
        (the other nodes stop counting it; ``uno cluster status``)."""
        self.stopping = True
        with self.store.engine.begin() as conn:
            conn.execute(text("UPDATE nodes SET stopping = true WHERE name = :name"), {"name": self.name})

    def give_back(self, codes: list[str]) -> None:
        """Give the leases of rooms ``codes`` back at once, in one transaction (the rooms must
        have left this node's memory, or be about to: their writes are refused from now on)."""
        held = [self.leases.pop(code) for code in codes if code in self.leases]
        if not held:
            return
        with self.store.engine.begin() as conn:
            conn.execute(
                text(
                    "UPDATE room_leases AS l SET expires_at = now() - interval '1 second' "
                    "FROM unnest(CAST(:codes AS text[]), CAST(:fences AS bigint[])) AS h(code, fence) "
                    "WHERE l.code = h.code AND l.node = :node AND l.fence = h.fence"
                ),
                {"codes": [x.code for x in held], "fences": [x.fence for x in held], "node": self.name},
            )

    def _leave(self) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(text(EXPIRE + "node = :name"), {"name": self.name})
            conn.execute(text("DELETE FROM nodes WHERE name = :name"), {"name": self.name})

    # ---- leases

    def fence_of(self, code: str) -> tuple[str, int] | None:
        """This node's name and room ``code``'s fencing number, if it holds the lease."""
        lease = self.leases.get(code)
        return None if lease is None else (self.name, lease.fence)

    def acquire(self, code: str) -> None:
        """Take room ``code``'s lease if it is free, expired, or an earlier process of this
        node's; afterwards read the room (its log then holds every write of the owner before).

        :raises RoomElsewhereError: if a live lease is another node's, or this node is stopping
            (then the owner's address, or none while nobody holds it: the client asks again).
        :raises KeyError: if there is no such room.
        """
        since = time.monotonic()
        with self.store.engine.begin() as conn:
            if self.stopping:
                row = conn.execute(
                    text(
                        "SELECT l.node, n.url FROM room_leases l JOIN nodes n ON n.name = l.node "
                        "WHERE l.code = :code AND l.expires_at > now() AND l.node <> :node"
                    ),
                    {"code": code, "node": self.name},
                ).first()
                raise RoomElsewhereError(code, *(("", "") if row is None else (str(row[0]), str(row[1]))))
            try:
                fence = conn.execute(
                    text(
                        "INSERT INTO room_leases AS l (code, node, fence, expires_at) "
                        "VALUES (:code, :node, 1, now() + make_interval(secs => :ttl)) "
                        "ON CONFLICT (code) DO UPDATE SET node = :node, fence = l.fence + 1, "
                        "expires_at = now() + make_interval(secs => :ttl) "
                        "WHERE l.expires_at < now() OR l.node = :node RETURNING fence"
                    ),
                    {"code": code, "node": self.name, "ttl": self.lease_seconds},
                ).first()
            except IntegrityError:
                raise KeyError(code) from None  # no such room (the lease's foreign key)
            if fence is not None:
                self._hold(code, int(fence[0]), since)
                self._losing.discard(code)
                if int(fence[0]) > 1:
                    self.takeovers += 1
                    log.info("node %s took room %s (fence %d)", self.name, code, fence[0])
                return
            row = conn.execute(
                text(
                    f"SELECT l.node, n.url, {SILENT} FROM room_leases l LEFT JOIN nodes n ON n.name = l.node "
                    "WHERE l.code = :code"
                ),
                {"code": code, "quiet": SILENT_SECONDS},
            ).first()
        if row is None:  # pragma: no cover - released between the two statements: try again
            self.acquire(code)
            return
        raise RoomElsewhereError(code, str(row[0]), str(row[1] or ""), bool(row[2]))

    def acquire_many(self, codes: list[str]) -> dict[str, Exception | None]:
        """:meth:`acquire` for many rooms in one transaction (one commit, where a reconnect
        storm's rooms took one each): by code, ``None`` if this node holds the lease now, else
        what :meth:`acquire` would have raised (:class:`RoomElsewhereError`, :class:`KeyError`).
        Codes it cannot settle so (a stopping node, a failed batch) go through :meth:`acquire`
        one by one."""
        codes = sorted(set(codes))  # one order for every node: batches never deadlock
        out: dict[str, Exception | None] = {}
        if len(codes) > 1 and not self.stopping:
            since = time.monotonic()
            try:
                with self.store.engine.begin() as conn:
                    taken = conn.execute(
                        text(
                            "INSERT INTO room_leases AS l (code, node, fence, expires_at) "
                            "SELECT r.code, :node, 1, now() + make_interval(secs => :ttl) FROM rooms r "
                            "WHERE r.code = ANY(CAST(:codes AS text[])) ORDER BY r.code "
                            "ON CONFLICT (code) DO UPDATE SET node = :node, fence = l.fence + 1, "
                            "expires_at = now() + make_interval(secs => :ttl) "
                            "WHERE l.expires_at < now() OR l.node = :node RETURNING l.code, l.fence"
                        ),
                        {"codes": codes, "node": self.name, "ttl": self.lease_seconds},
                    ).all()
                    held = {str(code): int(fence) for code, fence in taken}
                    rest = [code for code in codes if code not in held]
                    owners = {}
                    if rest:
                        owners = {
                            str(code): (str(node), str(url or ""), bool(silent))
                            for code, node, url, silent in conn.execute(
                                text(
                                    f"SELECT l.code, l.node, n.url, {SILENT} FROM room_leases l "
                                    "LEFT JOIN nodes n ON n.name = l.node "
                                    "WHERE l.code = ANY(CAST(:codes AS text[]))"
                                ),
                                {"codes": rest, "quiet": SILENT_SECONDS},
                            )
                        }
                        exist = set(
                            conn.execute(
                                text("SELECT code FROM rooms WHERE code = ANY(CAST(:codes AS text[]))"),
                                {"codes": rest},
                            ).scalars()
                        )
            except SQLAlchemyError:
                log.warning("could not take %d leases at once; taking them one by one", len(codes))
            else:
                for code, fence in held.items():
                    self._hold(code, fence, since)
                    self._losing.discard(code)
                    if fence > 1:
                        self.takeovers += 1
                        log.info("node %s took room %s (fence %d)", self.name, code, fence)
                    out[code] = None
                for code in rest:
                    if code not in exist:
                        out[code] = KeyError(code)
                    elif code in owners:
                        out[code] = RoomElsewhereError(code, *owners[code])
        for code in codes:
            if code not in out:  # one alone (or a room made meanwhile, or the batch failed)
                try:
                    self.acquire(code)
                    out[code] = None
                except (KeyError, RoomElsewhereError, SQLAlchemyError) as exc:
                    out[code] = exc
        return out

    def create(self, code: str) -> None:
        """Take and hold the lease of a room made without one (fencing number 1). The rooms the
        hub makes take theirs in the same transaction (:meth:`new_lease`, :meth:`made`)."""
        since = time.monotonic()
        with self.store.engine.begin() as conn:
            conn.execute(text(LEASE_ALONE), {"code": code, "node": self.name, "ttl": self.lease_seconds})
        self._hold(code, 1, since)

    def new_lease(self) -> tuple[tuple[str, float], float]:
        """For a room about to be made: its lease as :meth:`Store.create_room` takes it (this
        node's name, the seconds), and the time to tell :meth:`made` once it is made."""
        return (self.name, self.lease_seconds), time.monotonic()

    def made(self, code: str, since: float) -> None:
        """Hold the lease of a room just made with :meth:`new_lease`'s (valid from ``since``)."""
        self._hold(code, 1, since)

    def release(self, code: str) -> None:
        """Give room ``code``'s lease back (the room left this node's memory)."""
        lease = self.leases.pop(code, None)
        if lease is None:
            return
        with self.store.engine.begin() as conn:
            conn.execute(
                text(EXPIRE + "code = :code AND node = :node AND fence = :fence"),
                {"code": code, "node": self.name, "fence": lease.fence},
            )

    def forget(self, code: str) -> None:
        """Room ``code`` was deleted (its lease row with it): hold it no more."""
        self.leases.pop(code, None)

    def leased_elsewhere(self) -> set[str]:
        """The rooms whose live lease is another node's (the sweeper must not delete them)."""
        with self.store.engine.begin() as conn:
            rows = conn.execute(
                text("SELECT code FROM room_leases WHERE node <> :node AND expires_at > now()"),
                {"node": self.name},
            )
            return {str(r[0]) for r in rows}

    def renew(self) -> list[str]:
        """Renew the heartbeat and the leases this node holds, each with its fencing number (a
        lease given back, or taken by another node, stays as it is); the codes of the rooms it
        no longer holds (another node took them).

        A lease row the moves' writer has locked at that moment (its fenced ``INSERT`` holds
        its rooms' rows ``FOR SHARE`` until it commits) is skipped, not waited for, and renewed
        at the next renewal (a lease outlives two missed ones): waiting for them, in whatever
        order the two statements met the rows, made deadlocks, each a second's stall of every
        room until PostgreSQL broke it (docs/performance.md, "2026-12-04, night")."""
        held = dict(self.owned)
        since = time.monotonic()
        with self.store.engine.begin() as conn:
            beat = text("UPDATE nodes SET heartbeat_at = now() WHERE name = :name")
            conn.execute(beat, {"name": self.name})
            self._read_peers(conn)
        # The leases' rows alone, in a statement committed as it ends (the moves' writer waits
        # for the rows it locks: for one statement, not for the round trips of a transaction).
        with self.store.autocommit.connect() as conn:
            rows = conn.execute(
                text(
                    "WITH mine AS (SELECT l.code FROM room_leases AS l "
                    "JOIN unnest(CAST(:codes AS text[]), CAST(:fences AS bigint[])) AS h(code, fence) "
                    "ON l.code = h.code AND l.fence = h.fence WHERE l.node = :node "
                    "FOR NO KEY UPDATE OF l SKIP LOCKED) "
                    "UPDATE room_leases AS l SET expires_at = now() + make_interval(secs => :ttl) "
                    "FROM mine WHERE l.code = mine.code RETURNING l.code, l.fence"
                ),
                {
                    "codes": list(held),
                    "fences": list(held.values()),
                    "node": self.name,
                    "ttl": self.lease_seconds,
                },
            ).all()
            renewed = {str(code): int(fence) for code, fence in rows}
            skipped = [code for code in held if code not in renewed]
            still: set[str] = set()
            if skipped:  # locked by the writer just now, or no longer this node's: which?
                still = {
                    str(code)
                    for code, fence in conn.execute(
                        text(
                            "SELECT code, fence FROM room_leases "
                            "WHERE code = ANY(CAST(:codes AS text[])) AND node = :node"
                        ),
                        {"codes": skipped, "node": self.name},
                    )
                    if int(fence) == held[str(code)]
                }
        for code, fence in renewed.items():
            if code in self.leases:
                self._hold(code, fence, since)
        return [code for code, fence in held.items() if renewed.get(code) != fence and code not in still]

    def _load_of(self, peer: Peer) -> int:
        if peer.name == self.name:
            return len(self.leases)
        return peer.rooms + self._placed.get(peer.name, 0)

    def place(self) -> Peer | None:
        """The node a new room should be made on, if not this one: the live node holding the
        fewest rooms (as of the last renewal, plus the rooms this node sent it since), when
        this one holds more than :data:`PLACE_SLACK` more (or a tenth more). Counted as sent."""
        others = [p for p in self.peers if p.name != self.name]
        if self.stopping or not others:
            return None
        best = min(others, key=lambda p: (self._load_of(p), p.name))
        mine = len(self.leases)
        if self._load_of(best) + max(PLACE_SLACK, mine // 10) >= mine:
            return None
        self._placed[best.name] = self._placed.get(best.name, 0) + 1
        return best

    def plan(self) -> list[Peer]:
        """Where this node's rooms beyond its share should go: one live node under its share
        per room to hand over (none while it holds at most its share plus
        :data:`BALANCE_SLACK`). The share: the service's rooms over its live nodes."""
        if self.stopping or len(self.peers) < 2:
            return []
        loads = {p.name: self._load_of(p) for p in self.peers}
        share = -(-sum(loads.values()) // len(self.peers))
        mine = loads.get(self.name, len(self.leases))
        if mine <= share + BALANCE_SLACK:
            return []
        out: list[Peer] = []
        for peer in sorted(self.peers, key=lambda p: (loads[p.name], p.name)):
            if peer.name != self.name:
                out += [peer] * max(0, min(share - loads[peer.name], mine - share - len(out)))
        return out

    def transfer(self, moves: list[tuple[str, Peer]]) -> list[str]:
        """Hand rooms' leases straight to other nodes, in one transaction (each room must have
        left this node's memory, or be about to): the new owner's fencing number is one more,
        and it reads the room when its first client comes (reconnecting from here). The codes
        handed over."""
        held = [(self.leases.pop(code), peer) for code, peer in moves if code in self.leases]
        done: list[str] = []
        with self.store.engine.begin() as conn:
            for lease, peer in held:
                row = conn.execute(
                    text(
                        "UPDATE room_leases SET node = :to, fence = fence + 1, "
                        "expires_at = now() + make_interval(secs => :ttl) "
                        "WHERE code = :code AND node = :node AND fence = :fence RETURNING code"
                    ),
                    {"to": peer.name, "ttl": self.lease_seconds, "code": lease.code, "node": self.name,
                     "fence": lease.fence},
                ).first()  # fmt: skip
                if row is not None:
                    done.append(lease.code)
                    self._placed[peer.name] = self._placed.get(peer.name, 0) + 1
        self.moved_rooms += len(done)
        return done

    def _read_peers(self, conn: Connection) -> None:
        rows = conn.execute(
            text(
                "SELECT n.name, n.url, (SELECT count(*) FROM room_leases l "
                "WHERE l.node = n.name AND l.expires_at > now()) FROM nodes n WHERE NOT n.stopping "
                "AND n.heartbeat_at > now() - make_interval(secs => :ttl) ORDER BY n.name"
            ),
            {"ttl": self.lease_seconds},
        ).all()
        self.peers = [Peer(str(n), str(u), int(r)) for n, u, r in rows]
        self.live_nodes = max(1, len(self.peers))
        self._placed.clear()

    def _beat(self) -> None:
        """The renewer's thread: a renewal every :attr:`renew_seconds`, however busy the event
        loop is. Renewals scheduled by the loop (in its default thread pool) came late when the
        loop was saturated (a reconnect storm on PostgreSQL): the node's own clock then said its
        leases might have run out, every client's visit asked the database to confirm its room's
        lease in that same pool, and the renewal waited behind those confirmations."""
        while not self._quit.wait(self.renew_seconds):
            # Nothing may end this loop but stop(): a node that stops renewing keeps its rooms'
            # sockets open while its leases run out, and their bots and timers stop.
            try:
                lost = self.renew()
            except SQLAlchemyError:
                log.warning("node %s could not renew its leases; trying again", self.name)
                continue
            except Exception:
                log.exception("node %s could not renew its leases; trying again", self.name)
                continue
            loop = self._loop
            if loop is None or loop.is_closed():
                return
            try:
                loop.call_soon_threadsafe(self._renewed, lost)
            except RuntimeError:  # the loop closed meanwhile
                return

    def _renewed(self, lost: list[str]) -> None:
        """On the loop, after a renewal: drop the rooms lost, then hand rooms over (one hand-over
        at a time; a renewal that finds one still running leaves it be)."""
        for code in lost:
            self.lose(code)
        idle = self._handing is None or self._handing.done()
        if self.on_renewed is not None and self._loop is not None and not self._quit.is_set() and idle:
            self._handing = self._loop.create_task(self._hand_over(), name="cluster-hand-over")

    async def _hand_over(self) -> None:
        if self.on_renewed is None:
            return
        try:
            await self.on_renewed()
        except SQLAlchemyError:
            log.warning("node %s could not hand rooms over; trying again", self.name)
        except Exception:
            log.exception("node %s could not hand rooms over; trying again", self.name)

    def _lost_in_thread(self, code: str) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.lose, code)

    def lose(self, code: str) -> None:
        """Room ``code`` is another node's now: forget its lease and have the hub drop it (also
        a room whose lease this node no longer holds: it can write nothing)."""
        if code in self._losing:
            return
        self._losing.add(code)
        if self.leases.pop(code, None) is None:
            self.on_lost(code)
            return
        self.lost_rooms += 1
        log.warning("node %s lost room %s to another node; dropping it", self.name, code)
        self.on_lost(code)


def status(store: Store) -> tuple[list[NodeStatus], list[LeaseStatus]]:
    """The service's nodes and leases (``uno cluster status``)."""
    with store.engine.begin() as conn:
        nodes = conn.execute(
            text(
                "SELECT n.name, n.url, n.started_at, EXTRACT(EPOCH FROM now() - n.heartbeat_at), "
                "n.stopping, (SELECT count(*) FROM room_leases l WHERE l.node = n.name) "
                "FROM nodes n ORDER BY n.name"
            )
        ).all()
        leases = conn.execute(
            text(
                "SELECT code, node, fence, EXTRACT(EPOCH FROM expires_at - now()) "
                "FROM room_leases ORDER BY node, code"
            )
        ).all()
    return (
        [NodeStatus(str(n), str(u), s, float(a), bool(st), int(r)) for n, u, s, a, st, r in nodes],
        [LeaseStatus(str(c), str(n), int(f), float(e)) for c, n, f, e in leases],
    )


__all__ = [
    "BALANCE_SLACK",
    "CLIENT_HEADER",
    "LEASE_SECONDS",
    "MARGIN_SECONDS",
    "NODE_COOKIE",
    "NODE_COOKIE_SECONDS",
    "NODE_HEADER",
    "PLACE_SLACK",
    "RECONNECT",
    "RENEW_SECONDS",
    "SILENT_SECONDS",
    "UNREACHABLE",
    "Cluster",
    "Lease",
    "LeaseStatus",
    "NodeStatus",
    "Peer",
    "RoomElsewhereError",
    "default_advertise",
    "default_node_name",
    "status",
]
