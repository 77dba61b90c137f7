"""The one writer of action rows (:class:`GroupCommit`): the rows of many rooms waiting at the
same moment committed in one transaction, each caller answered once its row is committed (P-182).
:class:`~unotable.web.storage.Store` makes one on SQLite and on PostgreSQL (there each row fenced
by its room's lease in a cluster, all in one statement). It also makes the store's writes of
the connect phase (:meth:`GroupCommit.run`: web/sqlitewrites.py, web/pgwrites.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from unotable.web.sqlitewrites import stamp

T = TypeVar("T")

log = logging.getLogger(__name__)

GROUP_MAX: Final = 256
"""The most rows one transaction of the writer commits."""
JOBS_A_ROUND: Final = 4
"""The store's writes (:meth:`GroupCommit.run`) made in one round, after its moves; the rest wait
for the next rounds, each after the moves that came meanwhile."""
CHECKPOINT_EVERY: Final = 1.0
"""SQLite: seconds between the checkpoints of the writer's companion thread."""
SQLITE_ROWS: Final = 199
"""The most rows of one SQLite ``INSERT`` (5 parameters a row, under SQLite's oldest limit of 999
parameters a statement)."""

Append = Callable[[int, int, "str | None", str, str], None]
"""Write one row alone, in a transaction of its own: ``(game_id, seq, seat, action, code)``."""
Fencing = Callable[[], "Callable[[str], tuple[str, int] | None] | None"]
"""The store's fencing now (``None``: one server alone): room code -> (this node, the lease's
fencing number), or ``None`` if this node does not hold the room."""
ROWS: Final = (
    "INSERT INTO actions (game_id, seq, seat, action, created_at) "
    "SELECT r.game_id, r.seq, r.seat, r.action, %(when)s "
    "FROM unnest(%(game_ids)s::integer[], %(seqs)s::integer[], %(seats)s::text[], %(actions)s::text[]) "
    "AS r(game_id, seq, seat, action)"
)
"""PostgreSQL, one server: the batch's rows in one statement."""
FENCED_ROWS: Final = (
    "INSERT INTO actions (game_id, seq, seat, action, created_at) "
    "SELECT r.game_id, r.seq, r.seat, r.action, %(when)s "
    "FROM unnest(%(game_ids)s::integer[], %(seqs)s::integer[], %(seats)s::text[], %(actions)s::text[], "
    "%(codes)s::text[], %(nodes)s::text[], %(fences)s::bigint[]) "
    "AS r(game_id, seq, seat, action, code, node, fence) "
    "JOIN room_leases l ON l.code = r.code AND l.node = r.node AND l.fence = r.fence "
    "FOR SHARE OF l RETURNING game_id, seq"
)
"""PostgreSQL, a cluster: the batch's rows in one statement, each written only while its room's
lease row (locked until the commit) is this node's with the fencing number this node holds, as
:data:`~unotable.web.storage.FENCED_APPEND` writes one row."""


class GroupCommit:
    """The one writer of action rows: a thread with its own connection that commits the rows of
    every room waiting when it is free in one transaction (at most :data:`GROUP_MAX`), so a
    commit (and its sync) serves many rooms' actions instead of one, and the event loop hands
    the thread a batch instead of a row (a thread woken per action takes the GIL from the loop
    each time). Each row's caller is answered only once its row is committed; if a transaction
    of several rows fails, each row is tried again alone (``append_alone``:
    :meth:`Store.append`), so a refused row (a duplicate) never takes the others with it. In a
    cluster (``fencing``) a row whose room's lease this node no longer holds is not written
    (:data:`FENCED_ROWS`) and is tried alone too, which refuses it as a lost room."""

    def __init__(
        self,
        engine: Engine,
        append_alone: Append,
        fencing: Fencing = lambda: None,
        writes: contextlib.AbstractContextManager[Any] | None = None,
        durable: bool = True,
    ) -> None:
        self.engine = engine
        self.durable = durable
        """``--durability full``: the writer's commits sync the log."""
        self.writes = writes if writes is not None else contextlib.nullcontext()
        """SQLite: the store's lock held by every transaction that writes (:attr:`Store.writes`)."""
        self.append_alone = append_alone
        self.fencing = fencing
        self.postgres = engine.dialect.name == "postgresql"
        self.queue: queue.SimpleQueue[_Pending | _Job | threading.Event | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.transactions = 0
        """Transactions of rows committed (or tried), for the tests and the benchmark."""
        self.rows = 0
        """Rows written."""
        self._raw: Any = None
        """The writer's own connection (the driver's, without SQLAlchemy's layers: this is the
        one write made per action)."""
        self.checkpoints = 0
        """SQLite: checkpoints made by the companion thread (:meth:`_checkpoint`)."""
        self.syncs = 0
        """SQLite: syncs of the log made for other writers alone (:meth:`sync`)."""
        self.jobs = 0
        """The store's writes made here (:meth:`run`), committed."""
        self._wal: str | None = (
            f"{engine.url.database}-wal"
            if not self.postgres and engine.url.database not in (None, "", ":memory:")
            else None
        )
        self._stopping = threading.Event()
        self._checkpointer: threading.Thread | None = None

    async def append(self, game_id: int, seq: int, seat: str | None, action: str, code: str) -> None:
        """Queue a row; return once it is committed.

        :raises sqlalchemy.exc.SQLAlchemyError: if it was refused.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._start()
        self.queue.put(_Pending((game_id, seq, seat, action, code), loop, done))
        await done

    def run(self, work: Callable[[Any], T]) -> T:
        """``work(cursor)`` made by the writer on its own connection, after the moves waiting,
        in a transaction it shares with up to :data:`JOBS_A_ROUND` queued with it (its failure
        undoes its own statements only: :meth:`_run_jobs`); its result once that transaction is
        committed (and with ``full`` durability synced). For the store's threads
        (web/sqlitewrites.py and web/pgwrites.py say why).

        :raises sqlalchemy.exc.SQLAlchemyError: the driver's error, as SQLAlchemy would raise it
            (an ``IntegrityError`` for a duplicate).
        """
        if threading.current_thread() is self.thread:
            raise RuntimeError("GroupCommit.run: from another thread than the writer's")
        job = _Job(work)
        self._start()
        self.queue.put(job)
        job.done.wait()
        if job.error is not None:
            raise job.error
        result: T = job.result
        return result

    def sync(self) -> None:
        """SQLite: return once the log holds on the disk every commit made before the call
        (from any thread but the writer's). The store's other writes commit without a sync of
        their own (``synchronous=NORMAL``) and wait here: the writer's next commit syncs the
        log (every frame of it, theirs too), or, with no row to write, the writer syncs the log
        file itself; so a room made, a seat taken, is on the disk before anyone hears of it,
        and a thousand of them share the writer's syncs instead of taking one each under the
        store's lock (the moves waited behind them)."""
        if threading.current_thread() is self.thread:
            return  # the writer's own tries of single rows: it syncs before it answers (_write)
        synced = threading.Event()
        self._start()
        self.queue.put(synced)
        synced.wait()

    def _start(self) -> None:
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="unotable-db-writer", daemon=True)
                self.thread.start()
                if not self.postgres and self._checkpointer is None:
                    self._checkpointer = threading.Thread(
                        target=self._checkpoint, name="unotable-db-checkpoint", daemon=True
                    )
                    self._checkpointer.start()

    def stop(self) -> None:
        """Write what is queued, then end the thread."""
        with self.lock:
            thread, self.thread = self.thread, None
            checkpointer, self._checkpointer = self._checkpointer, None
        if thread is not None:
            self.queue.put(None)
            thread.join(30)
        if checkpointer is not None:
            self._stopping.set()
            checkpointer.join(30)
            self._stopping.clear()

    def _checkpoint(self) -> None:
        """SQLite: copy the log (WAL) back into the database every :data:`CHECKPOINT_EVERY`
        seconds from a connection of its own. The writer's connection never checkpoints
        (``wal_autocheckpoint=0``): when its commit took the log past 1,000 pages it copied them
        itself, syncs included, and every room's action waited (up to a second at 1,000 rooms).
        A passive checkpoint never makes the writer wait, nor waits for it."""
        raw: Any = None
        try:
            while not self._stopping.wait(CHECKPOINT_EVERY):
                try:
                    if raw is None:
                        raw = self.engine.raw_connection()
                    cur = raw.cursor()
                    try:
                        cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
                        cur.fetchall()
                    finally:
                        cur.close()
                    self.checkpoints += 1
                except (SQLAlchemyError, self.engine.dialect.loaded_dbapi.Error):
                    log.warning("checkpoint failed", exc_info=True)  # the next one may pass
        finally:
            if raw is not None:
                with contextlib.suppress(Exception):
                    raw.close()

    def _run(self) -> None:
        try:
            self._serve()
        finally:
            if self._raw is not None:
                with contextlib.suppress(Exception):
                    self._raw.close()
                self._raw = None

    def _serve(self) -> None:
        held: deque[_Job] = deque()  # jobs taken from the queue and not made yet
        while True:
            items: list[object] = []
            if not held:
                first = self.queue.get()
                if first is None:
                    return
                items.append(first)
            stop = False
            while len(items) < GROUP_MAX:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                items.append(item)
            batch = [i for i in items if isinstance(i, _Pending)]
            waiting = [i for i in items if isinstance(i, threading.Event)]
            held.extend(i for i in items if isinstance(i, _Job))
            # The moves first, then a few jobs: a room being made or a seat taken (several
            # statements, each a trip of the GIL to the busy loop and back) never holds up more
            # than JOBS_A_ROUND jobs' worth of everyone's moves.
            synced = self._write(batch) if batch else False
            while held:  # JOBS_A_ROUND of them; all of them before stopping
                synced = (
                    self._run_jobs([held.popleft() for _ in range(min(JOBS_A_ROUND, len(held)))]) or synced
                )
                if not stop:
                    break
            if waiting:
                if not synced:
                    self._sync_log()
                for event in waiting:
                    event.set()
            if stop:
                return

    def _sync_log(self) -> None:
        """SQLite: the log file synced to the disk (every commit in it, whoever made it)."""
        if self._wal is None:
            return
        self.syncs += 1
        try:
            fd = os.open(self._wal, os.O_RDONLY)
        except FileNotFoundError:
            return  # no log: every commit is in the database file, synced by its checkpoint
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def _connection(self) -> Any:
        """The writer's own connection (made on first use). On PostgreSQL it commits each
        statement as it ends (autocommit): a batch of moves is one statement, one trip to the
        server instead of two (each trip gives the GIL up and waits to take it back from the busy
        event loop); the jobs open their transaction themselves (:meth:`_run_pg_jobs`)."""
        if self._raw is None:
            self._raw = self.engine.raw_connection()
            if self.postgres:
                driver = self._raw.driver_connection
                if driver.info.transaction_status.name != "IDLE":
                    driver.rollback()  # what SQLAlchemy's first look at the server left open
                driver.autocommit = True
            if not self.postgres:  # its companion thread checkpoints (_checkpoint)
                cur0 = self._raw.cursor()
                cur0.execute("PRAGMA wal_autocheckpoint=0")
                if self.durable:  # the one connection that syncs its commits (sync)
                    cur0.execute("PRAGMA synchronous=FULL")
                cur0.close()
        return self._raw

    def _run_jobs(self, jobs: list[_Job]) -> bool:
        """Make the store's writes of :meth:`run` in one transaction and answer them; whether it
        committed (and so synced the log, with ``full`` durability). PostgreSQL's:
        :meth:`_run_pg_jobs`.

        SQLite: no savepoint a job (each statement is a trip of the GIL to the busy event loop
        and back): a job refused at its first statement has written nothing (SQLite undoes a
        failed statement), and is answered with its error while the others go on. A job that
        fails after writing something rolls the transaction back, and the others are made again
        in a new one without it."""
        if self.postgres:
            return self._run_pg_jobs(jobs)
        todo = list(jobs)
        with self._answering(jobs, todo), self.writes:
            raw = self._connection()
            while todo:
                late = self._try_jobs(raw, todo, self.engine.dialect.loaded_dbapi.Error)
                if late is None:
                    raw.commit()
                    self.jobs += sum(1 for j in todo if j.error is None)
                    return True
                raw.rollback()
                todo[:] = [j for j in todo if j is not late and j.error is None]
                for job in todo:
                    job.result = None
        return False

    def _run_pg_jobs(self, jobs: list[_Job]) -> bool:
        """PostgreSQL: :meth:`_run_jobs`'s work in one trip to the server (:meth:`_send_pg_jobs`).
        A job that fails aborts the transaction: it is rolled back, the job answered with its
        error, and the others are sent again without it."""
        todo = list(jobs)
        with self._answering(jobs, todo):
            while todo:
                driver = self._connection().driver_connection
                cursors = [driver.cursor() for _ in todo]
                try:
                    late, readers = self._send_pg_jobs(driver, todo, cursors)
                    if late is None:
                        self.jobs += len(todo)
                        for job, read in zip(todo, readers, strict=True):
                            try:
                                job.result = read()
                            except Exception as exc:  # pragma: no cover - written, its answer unreadable
                                job.error = exc
                        return True
                finally:
                    for cur in cursors:
                        cur.close()
                todo[:] = [j for j in todo if j is not late and j.error is None]
        return False

    def _send_pg_jobs(
        self, driver: Any, todo: list[_Job], cursors: list[Any]
    ) -> tuple[_Job | None, list[Callable[[], Any]]]:
        """One try of a round, each job on its cursor: ``BEGIN``, each job's one statement,
        ``COMMIT``, sent together in psycopg's pipeline (web/pgwrites.py's jobs execute their
        statement and return how to read its answer once the pipeline is synced). The job that
        failed (its error set; the transaction rolled back), or ``None`` and the readers.

        :raises psycopg.Error: if the transaction failed otherwise (none of it was written).
        """
        dbapi_error = self.engine.dialect.loaded_dbapi.Error
        readers: list[Callable[[], Any]] = []
        try:
            with driver.pipeline() if _pipelines() else contextlib.nullcontext():
                driver.execute("BEGIN")
                for job, cur in zip(todo, cursors, strict=True):
                    try:
                        readers.append(job.work(cur))
                    except dbapi_error:
                        raise  # the server's answer, read early: found below
                    except Exception as exc:  # nothing of it sent: the rest undone
                        job.error = exc
                        driver.execute("ROLLBACK")
                        return job, readers
                driver.execute("COMMIT")
        except dbapi_error as exc:
            driver.execute("ROLLBACK")
            failed = next((j for j, c in zip(todo, cursors, strict=False) if not _answered(c)), None)
            if failed is None:
                raise
            failed.error = DBAPIError.instance(None, None, exc, dbapi_error)
            return failed, readers
        return None, readers

    @contextmanager
    def _answering(self, jobs: list[_Job], todo: list[_Job]) -> Iterator[None]:
        """Around a round of jobs: if the transaction itself fails, none of ``todo`` (the jobs
        still to write, kept up to date by the caller) was written and each is answered with the
        error (the writer's transaction abandoned); every job of ``jobs`` is answered at the end."""
        dbapi_error = self.engine.dialect.loaded_dbapi.Error
        try:
            yield
        except dbapi_error as exc:  # the transaction itself failed: none of it was written
            failed = DBAPIError.instance(None, None, exc, dbapi_error)
            self._abandon()
            for job in todo:
                job.error = job.error or failed
        except BaseException as exc:  # nothing was committed: no caller may think otherwise
            self._abandon()
            for job in todo:
                job.error = job.error or exc
            raise
        finally:
            for job in jobs:
                job.done.set()

    def _abandon(self) -> None:
        """Roll the writer's transaction back; on PostgreSQL, drop its connection too (the
        server may have gone, a restart: the next round connects anew)."""
        if self._raw is None:
            return
        with contextlib.suppress(Exception):
            self._raw.rollback()
        if self.postgres:
            with contextlib.suppress(Exception):
                self._raw.invalidate()
            self._raw = None

    @staticmethod
    def _try_jobs(raw: Any, todo: list[_Job], dbapi_error: type[Exception]) -> _Job | None:
        """SQLite: make ``todo`` in one open transaction; the job that failed after writing
        something (the transaction must be rolled back), or ``None``."""
        cur = _Counting(raw.cursor())
        try:
            cur.execute("BEGIN IMMEDIATE")
            for job in todo:
                if job.error is not None:  # refused at its first statement in an earlier try
                    continue
                cur.calls = 0
                try:
                    job.result = job.work(cur)
                except Exception as exc:
                    job.error = (
                        DBAPIError.instance(None, None, exc, dbapi_error)
                        if isinstance(exc, dbapi_error)
                        else exc
                    )
                    if cur.calls > 1:
                        return job
            return None
        finally:
            cur.close()

    def _write(self, batch: list[_Pending]) -> bool:
        """Write a batch and answer its callers; whether a commit of the writer's own (which
        syncs the log) was made."""
        outcomes: list[BaseException | None]
        synced = False
        self.transactions += 1
        alone: list[int] = []  # the rows to try again one at a time
        try:
            written = self._insert([p.row for p in batch])
            synced = True
            outcomes = [None] * len(batch)
            alone = [i for i, p in enumerate(batch) if (p.row[0], p.row[1]) not in written]
        except (SQLAlchemyError, self.engine.dialect.loaded_dbapi.Error) as exc:
            outcomes = [exc] * len(batch)
            if len(batch) > 1 or self.postgres:  # there a row alone says which error (lost, duplicate)
                alone = list(range(len(batch)))
        for i in alone:
            self.transactions += 1
            try:
                g, seq, seat, action, code = batch[i].row
                self.append_alone(g, seq, seat, action, code)
                outcomes[i] = None
            except SQLAlchemyError as one:
                outcomes[i] = one
        self.rows += sum(1 for o in outcomes if o is None)
        if alone and not self.postgres:  # rows tried alone commit without a sync (Store.append)
            self._sync_log()
        self._settle(batch, outcomes)
        return synced or (bool(alone) and not self.postgres)

    def _insert(self, rows: list[tuple[int, int, str | None, str, str]]) -> set[tuple[int, int]]:
        """The rows in one transaction of the writer's own connection (as SQLAlchemy stores a
        time on SQLite: ``YYYY-MM-DD HH:MM:SS.ffffff``, UTC); the (game, seq) written."""
        fencing = self.fencing()
        cur = self._connection().cursor()
        with self.writes:
            return self._insert_rows(cur, rows, fencing)

    def _insert_rows(
        self,
        cur: Any,
        rows: list[tuple[int, int, str | None, str, str]],
        fencing: Callable[[str], tuple[str, int] | None] | None,
    ) -> set[tuple[int, int]]:
        try:
            # One statement for many rows, not ``executemany``: the driver gives the GIL up and
            # takes it back around every statement, and each taking back waits for the event
            # loop's thread to let it go (up to the switch interval, 5 ms, while the loop is
            # busy), so a batch of 100 rows written one by one waited for the loop 100 times.
            if not self.postgres:
                when = stamp(_now())
                for start in range(0, len(rows), SQLITE_ROWS):
                    part = rows[start : start + SQLITE_ROWS]
                    cur.execute(
                        "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES "
                        + ", ".join(["(?, ?, ?, ?, ?)"] * len(part)),
                        [x for g, seq, seat, action, _ in part for x in (g, seq, seat, action, when)],
                    )
                written = {(g, seq) for g, seq, *_ in rows}
            elif fencing is None:
                cur.execute(
                    ROWS,
                    {
                        "when": _now(),
                        "game_ids": [r[0] for r in rows],
                        "seqs": [r[1] for r in rows],
                        "seats": [r[2] for r in rows],
                        "actions": [r[3] for r in rows],
                    },
                )
                written = {(g, seq) for g, seq, *_ in rows}
            else:
                held = [(row, fencing(row[4])) for row in rows]
                fenced = [(row, h) for row, h in held if h is not None]  # the others: tried alone, lost
                if not fenced:
                    return set()
                cur.execute(
                    FENCED_ROWS,
                    {
                        "when": _now(),
                        "game_ids": [r[0] for r, _ in fenced],
                        "seqs": [r[1] for r, _ in fenced],
                        "seats": [r[2] for r, _ in fenced],
                        "actions": [r[3] for r, _ in fenced],
                        "codes": [r[4] for r, _ in fenced],
                        "nodes": [h[0] for _, h in fenced],
                        "fences": [h[1] for _, h in fenced],
                    },
                )
                written = {(int(g), int(seq)) for g, seq in cur.fetchall()}
            self._raw.commit()
        except BaseException:
            with contextlib.suppress(Exception):
                self._raw.rollback()
            if self.postgres:  # the server may have gone (a restart): the next batch connects anew
                with contextlib.suppress(Exception):
                    self._raw.invalidate()
                self._raw = None
            raise
        finally:
            with contextlib.suppress(Exception):
                cur.close()
        return written

    @staticmethod
    def _settle(batch: list[_Pending], outcomes: list[BaseException | None]) -> None:
        """Answer the batch's callers: one wake-up of each loop for the whole batch (a wake-up
        is a write to the loop's socket, and each gives the GIL up and waits to take it back)."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
        for p, out in zip(batch, outcomes, strict=True):
            by_loop.setdefault(p.loop, []).append((p.done, out))
        for loop, answers in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(_settle_all, answers)


@dataclass
class _Pending:
    row: tuple[int, int, str | None, str, str]
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


class _Counting:
    """A cursor that counts its statements (``calls``); the jobs use ``execute`` alone (an
    ``executemany`` writes row by row, so a failure could follow rows written)."""

    def __init__(self, cur: Any) -> None:
        self.cur = cur
        self.calls = 0

    def execute(self, sql: str, params: Any = ()) -> Any:
        self.calls += 1
        return self.cur.execute(sql, params)

    @property
    def rowcount(self) -> int:
        return int(self.cur.rowcount)

    @property
    def lastrowid(self) -> int | None:
        last: int | None = self.cur.lastrowid
        return last

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.cur.close()


@dataclass
class _Job:
    work: Callable[[Any], Any]
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


def _pipelines() -> bool:
    """Whether psycopg's pipeline works here (libpq 14 or later; its binary package brings one):
    without it the jobs' statements go one trip each, the same otherwise."""
    import psycopg  # noqa: PLC0415 - PostgreSQL's writer only

    return bool(psycopg.Pipeline.is_supported())


def _answered(cur: Any) -> bool:
    """Whether a cursor of a synced pipeline holds its statement's answer (not an error, not
    skipped after one)."""
    result = cur.pgresult
    return result is not None and int(result.status) in (1, 2)  # COMMAND_OK, TUPLES_OK


def _settle_all(answers: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for done, out in answers:
        if done.cancelled():
            continue
        if out is None:
            done.set_result(None)
        else:
            done.set_exception(out)


def _now() -> datetime:
    return datetime.now(UTC)


__all__ = ["GROUP_MAX", "GroupCommit"]
