"""The database: rooms, seats, games and their action logs (SQLAlchemy 2, Alembic migrations).

SQLite by default (one file in the data folder), PostgreSQL by URL; the same code and tables on
both. A game is stored as its rules, its seed (never sent to a client) and its action log, one
row an action, committed before the action is broadcast (P-182): replaying the log reproduces
the game exactly, so a server killed at any moment resumes every game as it was.

Every call is synchronous and short; the server makes them from its one event loop through
:meth:`Store.call`, in the store's own threads (never on the loop, never in the default pool that
other work shares), each room's changes one at a time under its lock, in arrival order. On
SQLite the action log's rows go through one writer thread (:class:`GroupCommit`) that commits
the rows of many rooms waiting at the same moment in one transaction: each action is still
committed (and with ``full`` durability synced) before anyone hears of it (P-182).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Final, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from unotable.web import pgwrites, sqlitewrites
from unotable.web.connections import postgres_settings, sqlite_pragmas
from unotable.web.groupcommit import GroupCommit
from unotable.web.reading import read_rooms
from unotable.web.records import ListedRoom, Secrets, StoredGame, StoredOccupant, StoredRoom, StoredSeat
from unotable.web.schema import ActionRow, GameRow, OccupantRow, RoomRow, SeatRow

MIGRATIONS: Final = Path(__file__).with_name("migrations")
"""The Alembic scripts."""
DEAL: Final = "deal"
"""The action of a log row that deals the next hand (its seat is NULL)."""
DB_THREADS: Final = 2
"""Threads of a store's own pool: its reads and writes (the action log's rows on SQLite go
through the one writer of :class:`GroupCommit` instead)."""
T = TypeVar("T")
FENCED_APPEND: Final = text(
    "INSERT INTO actions (game_id, seq, seat, action, created_at) "
    "SELECT :game_id, :seq, :seat, :action, :created_at FROM room_leases "
    "WHERE code = :code AND node = :node AND fence = :fence FOR SHARE"
)
"""A log row written only while the room's lease is this node's with this fencing number (the
lease row locked until the row is committed): :meth:`Store.append` in a cluster."""
MIGRATION_LOCK: Final = 0x756E6F7461626C65
"""The PostgreSQL advisory lock held while the tables are migrated ("unotable" as a number):
nodes started together migrate one after another, the first one doing the work."""


class LeaseLostError(SQLAlchemyError):
    """This node no longer holds the room's lease (another node took it): its write was refused
    and nothing changed (docs/web.md, "Several nodes"). A database error like the others to the
    code that writes (the client is told ``storage``); the node then drops the room."""

    def __init__(self, code: str) -> None:
        super().__init__(f"room {code}: this node no longer owns it")
        self.code = code


def database_url(url: str | None, data_dir: Path) -> str:
    """The SQLAlchemy URL for ``--database`` (``postgresql://...`` uses psycopg 3), or the
    SQLite file ``unotable.db`` in ``data_dir`` when none is given."""
    if not url:
        return f"sqlite:///{data_dir / 'unotable.db'}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(when: datetime) -> datetime:
    """A stored time with its zone (SQLite gives it back without)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


DURABILITY: Final = ("full", "normal")
"""``--durability``: ``full`` (the default) syncs every commit to the disk before the server
answers, so an acknowledged move survives a power cut: SQLite ``synchronous=FULL`` for the
moves' writer, whose syncs of the log the other writes wait for (:meth:`GroupCommit.sync`),
PostgreSQL ``synchronous_commit=on``. ``normal`` survives a killed server but not a power cut
(SQLite ``synchronous=NORMAL``, PostgreSQL ``synchronous_commit=off``), and commits faster."""


class Store:
    """The database behind the server.

    :param url: a SQLAlchemy URL (see :func:`database_url`).
    :param durability: ``"full"`` or ``"normal"`` (see :data:`DURABILITY`).
    :raises ValueError: for another durability.
    """

    def __init__(self, url: str, durability: str = "full") -> None:
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {', '.join(DURABILITY)}, not {durability!r}")
        self.url = url
        self.durability = durability
        self.engine: Engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            # With ``full`` only the moves' writer syncs its commits (``synchronous=FULL``); the
            # other writes commit without a sync and wait for the writer's next one, which syncs
            # the log with them in it (GroupCommit.sync, _durable).
            event.listen(self.engine, "connect", sqlite_pragmas("NORMAL"))
        elif self.engine.dialect.name == "postgresql":
            event.listen(self.engine, "connect", postgres_settings("on" if durability == "full" else "off"))
        self.autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        """The same pool, each statement committed on its own (the fenced log row)."""
        self.executor = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="unotable-db")
        """The store's own threads (:meth:`call`)."""
        sqlite = self.engine.dialect.name == "sqlite"
        self.postgres = self.engine.dialect.name == "postgresql"
        self.writes: threading.RLock | None = threading.RLock() if sqlite else None
        """SQLite: held by every transaction of this process that writes. SQLite lets one write at
        a time and makes the others poll for the lock, sleeping 1 to 100 ms between tries: while
        1,000 rooms were being made and joined, the moves' writer slept so up to a second at a
        time. A lock of the process wakes the next writer as soon as the last commits."""
        batched = self.engine.dialect.name in ("sqlite", "postgresql")
        self.group: GroupCommit | None = (
            GroupCommit(
                self.engine, self._append_alone, lambda: self.fencing, self.writes, durability == "full"
            )
            if batched
            else None
        )
        """The one writer of action rows (SQLite, PostgreSQL): a commit for the rows of every
        room waiting at once. On PostgreSQL the rows were written one a commit in the store's
        two threads: at 1,000 rooms (a reconnect storm's) the commits' syncs could not keep up."""

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` (a method of this store, or anything that uses its database)
        in the store's own threads: never on the event loop, never in the default pool."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args, **kwargs))

    async def append_async(
        self, game_id: int, seq: int, seat: str | None, action: str, *, code: str = ""
    ) -> None:
        """:meth:`append` from the event loop: returns once the row is committed (with the other
        rows waiting then, in one transaction: :class:`~unotable.web.groupcommit.GroupCommit`).

        :raises sqlalchemy.exc.SQLAlchemyError: as :meth:`append` would, for this row alone.
        """
        if self.group is not None:
            await self.group.append(game_id, seq, seat, action, code)
        else:
            await self.call(self.append, game_id, seq, seat, action, code=code)

    def migrate(self) -> None:
        """Bring the tables up to date (Alembic ``upgrade head``)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self._writing(True), self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":  # one node at a time; the lock ends with the commit
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        self._durable()

    def ping(self) -> None:
        """Ask the database something trivial (``/readyz``).

        :raises sqlalchemy.exc.SQLAlchemyError: if it does not answer.
        """
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        """Finish the writes under way and release the connections."""
        if self.group is not None:
            self.group.stop()
        self.executor.shutdown(wait=True)
        self.engine.dispose()

    observe: Callable[[float], None] | None = None
    """Told the seconds of each transaction (the server's metrics), if set."""
    fencing: Callable[[str], tuple[str, int] | None] | None = None
    """In a cluster (:mod:`~unotable.web.cluster`): room code -> this node's name and the room's
    fencing number, ``None`` for a room it does not own. Every write to a room then checks, in
    its own transaction, that the lease is still this node's with that number (the lease row
    locked FOR SHARE, so a node taking the room over waits for the write and then reads it), and
    raises :class:`LeaseLostError` otherwise. ``None``: one server alone, nothing checked."""

    lost: Callable[[str], None] | None = None
    """In a cluster: told the code of a room whose write was refused (:class:`LeaseLostError`, or a
    log row another owner wrote first), from the thread that wrote."""

    def _held(self, code: str) -> tuple[str, int] | None:
        """In a cluster, this node's name and room ``code``'s fencing number as this node
        believes them (:attr:`fencing`), or :class:`LeaseLostError` if it holds the room no more;
        ``None`` for one server alone."""
        if self.fencing is None:
            return None
        held = self.fencing(code)
        if held is None:
            raise self._lost(code)
        return held

    def _fence(self, conn: Any, code: str) -> None:
        """Refuse a write to room ``code`` unless this node holds its lease (:attr:`fencing`)."""
        held = self._held(code)
        if held is None:
            return
        row = conn.execute(
            text(
                "SELECT 1 FROM room_leases WHERE code = :code AND node = :node AND fence = :fence FOR SHARE"
            ),
            {"code": code, "node": held[0], "fence": held[1]},
        ).first()
        if row is None:
            raise self._lost(code)

    def _lost(self, code: str) -> LeaseLostError:
        if self.lost is not None:
            self.lost(code)
        return LeaseLostError(code)

    @contextmanager
    def _begin(self, *, write: bool = False) -> Iterator[Any]:
        """A connection in a transaction (Core statements: no ORM session), observed as
        :meth:`_session` is; ``write``: one that writes (:attr:`writes`)."""
        with self._observed():
            with self._writing(write), self.engine.begin() as conn:
                yield conn
            if write:
                self._durable()

    @contextmanager
    def _session(self, *, write: bool = False) -> Iterator[Session]:
        with self._observed():
            with self._writing(write), Session(self.engine) as s, s.begin():
                yield s
            if write:
                self._durable()

    @contextmanager
    def _observed(self) -> Iterator[None]:
        """The seconds of what runs inside told to :attr:`observe`, if set."""
        start = time.perf_counter()
        try:
            yield
        finally:
            if self.observe is not None:
                self.observe(time.perf_counter() - start)

    def _writing(self, write: bool) -> contextlib.AbstractContextManager[Any]:
        return self.writes if write and self.writes is not None else contextlib.nullcontext()

    def _writer_writes(self) -> bool:
        """The connect phase's writes are the moves' writer's (:meth:`_by_writer`): SQLite (one
        server) and PostgreSQL."""
        if self.group is None:
            return False
        return self.postgres or (self.writes is not None and self.fencing is None)

    def _by_writer(self, work: Callable[..., Any], **args: Any) -> Any:
        """``work(cursor, **args)`` made by the moves' writer (web/sqlitewrites.py and
        web/pgwrites.py say why)."""
        assert self.group is not None
        with self._observed():
            return self.group.run(lambda cur: work(cur, **args))

    def _durable(self) -> None:
        """SQLite with ``full`` durability: return once what this thread committed is synced to
        the disk (with the moves' writer's next sync: :meth:`GroupCommit.sync`)."""
        if self.writes is not None and self.group is not None and self.durability == "full":
            self.group.sync()

    # ---- writing

    def create_room(
        self,
        code: str,
        settings: dict[str, Any],
        seats: list[StoredSeat],
        rules: dict[str, Any],
        players: int,
        rounds: int,
        seed: int,
        *,
        listed: bool = False,
        creator: str | None = None,
        lease: tuple[str, float] | None = None,
    ) -> int:
        """A new room with its seats and its first game; the game's id. ``creator``: the hash of
        the address that made it; ``lease``: in a cluster, this node's name and the seconds of
        the room's lease, taken in the same transaction (fencing number 1:
        :meth:`~unotable.web.cluster.Cluster.made`).

        :raises sqlalchemy.exc.IntegrityError: if the code is taken.
        """
        if self._writer_writes():
            game_id: int = self._by_writer(
                (pgwrites if self.postgres else sqlitewrites).create_room,
                code=code,
                settings=json.dumps(settings),
                seats=seats,
                rules=json.dumps(rules),
                players=players,
                rounds=rounds,
                seed=seed,
                listed=listed,
                creator=creator,
                now=_now(),
                lease=lease,
            )
            return game_id
        # Plain INSERTs, not the ORM's unit of work: every room made pays for them.
        now = _now()
        with self._begin(write=True) as conn:
            conn.execute(
                insert(RoomRow),
                {
                    "code": code,
                    "created_at": now,
                    "settings": json.dumps(settings),
                    "game_number": 0,
                    "listed": listed,
                    "active_at": now,
                    "creator": creator,
                },
            )
            if seats:
                conn.execute(
                    insert(SeatRow),
                    [
                        {
                            "room_code": code,
                            "player": seat.player,
                            "bot": seat.bot,
                            "name": seat.name,
                            "token_hash": seat.token_hash,
                            "color": seat.color,
                            "rejoin_hash": seat.rejoin_hash,
                            "code_hash": seat.code_hash,
                        }
                        for seat in seats
                    ],
                )
            sitting = [seat for seat in seats if seat.bot is not None or seat.name is not None]
            if sitting:
                conn.execute(
                    insert(OccupantRow),
                    [
                        {
                            "room_code": code,
                            "player": seat.player,
                            "game_number": 0,
                            "seq": 0,
                            "name": seat.name,
                            "bot": seat.bot,
                        }
                        for seat in sitting
                    ],
                )
            made = conn.execute(
                insert(GameRow).returning(GameRow.id),
                {
                    "room_code": code,
                    "number": 0,
                    "rules": json.dumps(rules),
                    "players": players,
                    "rounds": rounds,
                    "seed": str(seed),
                    "finished": False,
                    "created_at": now,
                },
            )
            if lease is not None:
                conn.execute(text(pgwrites.LEASE_ALONE), {"code": code, "node": lease[0], "ttl": lease[1]})
            return int(made.scalar_one())

    def take_seat(
        self,
        code: str,
        player: int,
        name: str,
        token_hash: str,
        *,
        color: str | None = None,
        rejoin_hash: str | None = None,
        code_hash: str | None = None,
        address: str | None = None,
        since: tuple[int, int] | None = None,
    ) -> bool:
        """Give a free person's seat to ``name`` (the room's host if it has none yet); False if
        it is not free (nothing changed). ``address``: the hash of the taker's address;
        ``since``: the game's number and log length now, for the seat's history.

        :raises LeaseLostError: in a cluster, if this node no longer owns the room.
        """
        if self._writer_writes():
            fence = self._held(code)
            took: bool | None = self._by_writer(
                (pgwrites if self.postgres else sqlitewrites).take_seat,
                code=code,
                player=player,
                name=name,
                token_hash=token_hash,
                color=color,
                rejoin_hash=rejoin_hash,
                code_hash=code_hash,
                address=address,
                since=since,
                now=_now(),
                fence=fence,
            )
            if took is None:
                raise self._lost(code)
            return took
        with self._begin(write=True) as conn:
            self._fence(conn, code)
            taken = conn.execute(
                update(SeatRow)
                .where(
                    SeatRow.room_code == code,
                    SeatRow.player == player,
                    SeatRow.bot.is_(None),
                    SeatRow.token_hash.is_(None),
                )
                .values(
                    name=name,
                    token_hash=token_hash,
                    color=color,
                    rejoin_hash=rejoin_hash,
                    code_hash=code_hash,
                    address=address,
                )
            )
            if taken.rowcount != 1:
                return False
            if since is not None:
                _add_occupant(conn, code, player, since, name, None)
            now = _now()
            conn.execute(update(RoomRow).where(RoomRow.code == code).values(active_at=now))
            conn.execute(
                update(RoomRow).where(RoomRow.code == code, RoomRow.host.is_(None)).values(host=player)
            )
            return True

    def replace_secrets(self, code: str, player: int, old_token_hash: str, new: Secrets) -> bool:
        """Give a person's seat new keys (a rejoin, or the rejoin hashes of an old seat), if its
        token is still ``old_token_hash``; whether it was."""
        with self._session(write=True) as s:
            self._fence(s, code)
            row = self._seat(s, code, player)
            if row is None or row.token_hash != old_token_hash:
                return False
            row.token_hash = new.token_hash
            row.rejoin_hash = new.rejoin_hash
            row.code_hash = new.code_hash
            return True

    def set_seat(
        self,
        code: str,
        player: int,
        bot: str | None,
        settings: dict[str, Any],
        since: tuple[int, int] | None = None,
    ) -> bool:
        """Make a seat a bot's (``bot``) or a free person's (``None``), forgetting its person,
        with the room's settings as they are now; False if there is no such seat. ``since``:
        the game's number and log length now, for the seat's history."""
        with self._session(write=True) as s:
            self._fence(s, code)
            row = self._seat(s, code, player)
            room = s.get(RoomRow, code)
            if row is None or room is None:
                return False
            row.bot = bot
            row.name = row.token_hash = row.color = row.rejoin_hash = row.code_hash = None
            room.settings = json.dumps(settings)
            if since is not None:
                s.add(
                    OccupantRow(
                        room_code=code, player=player, game_number=since[0], seq=since[1], name=None, bot=bot
                    )
                )
            return True

    @staticmethod
    def _seat(s: Session, code: str, player: int) -> SeatRow | None:
        return s.scalars(
            select(SeatRow).where(SeatRow.room_code == code, SeatRow.player == player).with_for_update()
        ).one_or_none()

    def append(self, game_id: int, seq: int, seat: str | None, action: str, *, code: str = "") -> None:
        """Add row ``seq`` to a game's log (of room ``code``), committed.

        :raises sqlalchemy.exc.IntegrityError: if the game already has a row ``seq``.
        :raises LeaseLostError: in a cluster, if this node no longer owns the room.
        """
        # One plain INSERT, not the ORM's unit of work: this is the one write made per action.
        # In a cluster the fence is in the statement itself (one round trip, committed on its
        # own): the row is inserted only if the lease row, locked FOR SHARE, is still this
        # node's with this fencing number; a node taking the room over waits for it.
        row = {"game_id": game_id, "seq": seq, "seat": seat, "action": action, "created_at": _now()}
        try:
            if self.fencing is None:
                with self._writing(True), self.autocommit.connect() as conn:
                    conn.execute(insert(ActionRow), row)
                self._durable()
                return
            held = self.fencing(code)
            if held is None:
                raise self._lost(code)
            with self.autocommit.connect() as conn:
                written = conn.execute(
                    FENCED_APPEND, {**row, "code": code, "node": held[0], "fence": held[1]}
                )
            if written.rowcount != 1:
                raise self._lost(code)
        except IntegrityError:
            if self.fencing is not None:  # another owner wrote this row: this node's copy is stale
                raise self._lost(code) from None
            raise

    def _append_alone(self, game_id: int, seq: int, seat: str | None, action: str, code: str) -> None:
        self.append(game_id, seq, seat, action, code=code)

    def finish(self, game_id: int) -> None:
        """Mark a game finished (its log says so too; this flag serves listings)."""
        with self._session(write=True) as s:
            game = s.get(GameRow, game_id)
            if game is not None:
                game.finished = True

    def new_game(
        self, code: str, number: int, rules: dict[str, Any], players: int, rounds: int, seed: int
    ) -> int:
        """A room's next game (a rematch); its id.

        :raises LeaseLostError: in a cluster, if this node no longer owns the room.
        """
        with self._session(write=True) as s:
            self._fence(s, code)
            room = s.get(RoomRow, code)
            assert room is not None
            room.game_number = number
            room.active_at = _now()
            return _add_game(s, code, number, rules, players, rounds, seed)

    def touch(self, code: str) -> None:
        """Note that room ``code`` was active now (its last connection left)."""
        with self._session(write=True) as s:
            room = s.get(RoomRow, code)
            if room is not None:
                room.active_at = _now()

    def expire(
        self, now: datetime, waiting: float, finished: float, idle: float, keep: Collection[str] = ()
    ) -> list[str]:
        """Delete the rooms past their time (docs/web.md, "Room lifecycle"), except ``keep`` (the
        rooms people are connected to): a room waiting for players ``waiting`` seconds after its
        last activity, a finished one (kept for its replays) ``finished`` seconds after, an
        unfinished game nobody has played ``idle`` seconds after. Their codes."""
        soonest = now.timestamp() - min(waiting, finished, idle)
        gone: list[str] = []
        with self._session(write=True) as s:
            q = (
                select(RoomRow, GameRow)
                .join(GameRow, (GameRow.room_code == RoomRow.code) & (GameRow.number == RoomRow.game_number))
                .where(RoomRow.active_at < datetime.fromtimestamp(soonest, UTC))
            )
            for room, game in s.execute(q).all():
                if room.code in keep:
                    continue
                last_action = s.scalar(
                    select(func.max(ActionRow.created_at)).where(ActionRow.game_id == game.id)
                )
                times = [t for t in (room.active_at, last_action) if t is not None]
                last = max(_aware(t) for t in times).timestamp()
                if game.finished:
                    ttl = finished
                elif (
                    last_action is None
                    and room.game_number == 0
                    and any(
                        seat.bot is None and seat.token_hash is None for seat in self._seats(s, room.code)
                    )
                ):
                    ttl = waiting
                else:
                    ttl = idle
                if now.timestamp() - last >= ttl:
                    s.delete(room)
                    gone.append(room.code)
        return gone

    # ---- reading

    def open_rooms_of(self, creator: str | None) -> int:
        """How many rooms made by ``creator`` (an address's hash; ``None``: by anyone) have a
        game that goes on."""
        with self._session() as s:
            q = (
                select(func.count())
                .select_from(RoomRow)
                .join(GameRow, (GameRow.room_code == RoomRow.code) & (GameRow.number == RoomRow.game_number))
                .where(GameRow.finished.is_(False))
            )
            if creator is not None:
                q = q.where(RoomRow.creator == creator)
            return int(s.scalar(q) or 0)

    def seats_of(self, address: str) -> int:
        """How many seats taken by ``address`` (a hash) are in rooms whose game goes on."""
        with self._session() as s:
            q = (
                select(func.count())
                .select_from(SeatRow)
                .join(RoomRow, RoomRow.code == SeatRow.room_code)
                .join(GameRow, (GameRow.room_code == RoomRow.code) & (GameRow.number == RoomRow.game_number))
                .where(SeatRow.address == address, GameRow.finished.is_(False))
            )
            return int(s.scalar(q) or 0)

    def room_codes(self, *, active_only: bool = False) -> list[str]:
        """Every room's code (with ``active_only``: those whose current game goes on)."""
        with self._session() as s:
            q = select(RoomRow.code)
            if active_only:
                q = q.join(
                    GameRow, (GameRow.room_code == RoomRow.code) & (GameRow.number == RoomRow.game_number)
                ).where(GameRow.finished.is_(False))
            return list(s.scalars(q.order_by(RoomRow.code)))

    def recent_rooms(self, since: datetime, limit: int) -> list[str]:
        """The rooms whose game goes on and that were active at ``since`` or later (made, joined,
        left, or an action of the game), the latest first, at most ``limit``: those a server
        restarted now held in memory before (:meth:`Hub.warm_up <unotable.web.hub.Hub.warm_up>`)."""
        acted = select(ActionRow.id).where(ActionRow.game_id == GameRow.id, ActionRow.created_at >= since)
        with self._session() as s:
            q = (
                select(RoomRow.code)
                .join(GameRow, (GameRow.room_code == RoomRow.code) & (GameRow.number == RoomRow.game_number))
                .where(GameRow.finished.is_(False), (RoomRow.active_at >= since) | acted.exists())
                .order_by(RoomRow.active_at.desc(), RoomRow.code)
                .limit(limit)
            )
            return list(s.scalars(q))

    def load_room(self, code: str) -> StoredRoom | None:
        """A room with its seats and current game, or ``None``."""
        return self.load_rooms([code]).get(code)

    def load_rooms(self, codes: Collection[str]) -> dict[str, StoredRoom]:
        """The rooms ``codes`` that exist, each with its seats and current game, by code: four
        plain SELECTs however many rooms (a reconnect storm asks for hundreds at once)."""
        codes = list(dict.fromkeys(codes))
        if not codes:
            return {}
        with self._begin() as conn:
            return read_rooms(conn, codes)

    def listed_rooms(self, limit: int = 50) -> list[ListedRoom]:
        """The listed rooms whose current game is not finished, newest first (at most ``limit``
        with a free person's seat)."""
        out: list[ListedRoom] = []
        with self._session() as s:
            q = (
                select(RoomRow)
                .join(GameRow, (GameRow.room_code == RoomRow.code) & (GameRow.number == RoomRow.game_number))
                .where(RoomRow.listed.is_(True), GameRow.finished.is_(False))
                .order_by(RoomRow.created_at.desc(), RoomRow.code)
            )
            for room in s.scalars(q):
                seats = self._seats(s, room.code)
                if any(seat.bot is None and seat.token_hash is None for seat in seats):
                    out.append(
                        ListedRoom(room.code, json.loads(room.settings), seats, room.host, room.created_at)
                    )
                    if len(out) >= limit:
                        break
        return out

    @staticmethod
    def _seats(s: Session, code: str) -> tuple[StoredSeat, ...]:
        rows = s.scalars(select(SeatRow).where(SeatRow.room_code == code).order_by(SeatRow.player))
        return tuple(
            StoredSeat(r.player, r.bot, r.name, r.token_hash, r.color, r.rejoin_hash, r.code_hash)
            for r in rows
        )

    def load_game(self, code: str, number: int) -> StoredGame | None:
        """Game ``number`` of a room, or ``None``."""
        with self._session() as s:
            return self._game(s, code, number)

    def _game(self, s: Session, code: str, number: int) -> StoredGame | None:
        g = s.scalars(
            select(GameRow).where(GameRow.room_code == code, GameRow.number == number)
        ).one_or_none()
        if g is None:
            return None
        rows = s.execute(
            select(ActionRow.seat, ActionRow.action).where(ActionRow.game_id == g.id).order_by(ActionRow.seq)
        )
        log = tuple((seat, action) for seat, action in rows)
        return StoredGame(
            g.id, g.number, json.loads(g.rules), g.players, g.rounds, int(g.seed), g.finished, log
        )

    def finished_games(self, code: str) -> list[int]:
        """The numbers of a room's finished games."""
        with self._session() as s:
            q = select(GameRow.number).where(GameRow.room_code == code, GameRow.finished.is_(True))
            return list(s.scalars(q.order_by(GameRow.number)))


__all__ = [
    "DEAL",
    "GroupCommit",
    "LeaseLostError",
    "ListedRoom",
    "Secrets",
    "Store",
    "StoredGame",
    "StoredOccupant",
    "StoredRoom",
    "StoredSeat",
    "database_url",
]


def _add_occupant(
    conn: Any, code: str, player: int, since: tuple[int, int], name: str | None, bot: str | None
) -> None:
    conn.execute(
        insert(OccupantRow),
        {
            "room_code": code,
            "player": player,
            "game_number": since[0],
            "seq": since[1],
            "name": name,
            "bot": bot,
        },
    )


def _add_game(
    s: Session, code: str, number: int, rules: Mapping[str, Any], players: int, rounds: int, seed: int
) -> int:
    """Store game ``number`` of room ``code`` (not yet finished); its row id."""
    game = GameRow(
        room_code=code,
        number=number,
        rules=json.dumps(rules),
        players=players,
        rounds=rounds,
        seed=str(seed),
        finished=False,
        created_at=_now(),
    )
    s.add(game)
    s.flush()
    return game.id
