"""SQLite's one writer of action rows (:class:`GroupCommit`): the rows of many rooms waiting at the
same moment committed in one transaction, each caller answered once its row is committed (P-182).
:class:`~unotable.web.storage.Store` makes one on SQLite."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

GROUP_MAX: Final = 256
"""The most rows one transaction of the writer commits."""

Append = Callable[[int, int, "str | None", str, str], None]
"""Write one row alone, in a transaction of its own: ``(game_id, seq, seat, action, code)``."""


class GroupCommit:
    """SQLite's one writer of action rows: a thread with its own connection that commits the
    rows of every room waiting when it is free in one transaction (at most :data:`GROUP_MAX`),
    so a commit (and its sync) serves many rooms' actions instead of one. Each row's caller is
    answered only once its row is committed; if a transaction of several rows fails, each row
    is tried again alone (``append_alone``: :meth:`Store.append`), so a refused row (a duplicate) never
    takes the others with it."""

    def __init__(self, engine: Engine, append_alone: Append) -> None:
        self.engine = engine
        self.append_alone = append_alone
        self.queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()
        self.transactions = 0
        """Transactions committed (or tried), for the tests and the benchmark."""
        self.rows = 0
        """Rows written."""
        self._raw: Any = None
        """The writer's own connection (the driver's, without SQLAlchemy's layers: this is the
        one write made per action)."""

    async def append(self, game_id: int, seq: int, seat: str | None, action: str, code: str) -> None:
        """Queue a row; return once it is committed.

        :raises sqlalchemy.exc.SQLAlchemyError: if it was refused.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="unotable-db-writer", daemon=True)
                self.thread.start()
        self.queue.put(_Pending((game_id, seq, seat, action, code), loop, done))
        await done

    def stop(self) -> None:
        """Write what is queued, then end the thread."""
        with self.lock:
            thread, self.thread = self.thread, None
        if thread is not None:
            self.queue.put(None)
            thread.join(30)

    def _run(self) -> None:
        try:
            self._serve()
        finally:
            if self._raw is not None:
                with contextlib.suppress(Exception):
                    self._raw.close()
                self._raw = None

    def _serve(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < GROUP_MAX:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Pending]) -> None:
        outcomes: list[BaseException | None]
        self.transactions += 1
        try:
            self._insert([p.row for p in batch])
            outcomes = [None] * len(batch)
        except (SQLAlchemyError, sqlite3.Error) as exc:
            if len(batch) == 1:
                outcomes = [exc]
            else:
                outcomes = []
                for p in batch:
                    self.transactions += 1
                    try:
                        g, seq, seat, action, code = p.row
                        self.append_alone(g, seq, seat, action, code)
                        outcomes.append(None)
                    except SQLAlchemyError as one:
                        outcomes.append(one)
        self.rows += sum(1 for o in outcomes if o is None)
        self._settle(batch, outcomes)

    def _insert(self, rows: list[tuple[int, int, str | None, str, str]]) -> None:
        """The rows in one transaction of the writer's own connection (as SQLAlchemy stores a
        time on SQLite: ``YYYY-MM-DD HH:MM:SS.ffffff``, UTC)."""
        if self._raw is None:
            self._raw = self.engine.raw_connection()
        when = _now().strftime("%Y-%m-%d %H:%M:%S.%f")
        cur = self._raw.cursor()
        try:
            cur.executemany(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                [(g, seq, seat, action, when) for g, seq, seat, action, _ in rows],
            )
            self._raw.commit()
        except BaseException:
            self._raw.rollback()
            raise
        finally:
            cur.close()

    @staticmethod
    def _settle(batch: list[_Pending], outcomes: list[BaseException | None]) -> None:
        for p, out in zip(batch, outcomes, strict=True):
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                p.loop.call_soon_threadsafe(_settle, p.done, out)


@dataclass
class _Pending:
    row: tuple[int, int, str | None, str, str]
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


def _settle(done: asyncio.Future[None], out: BaseException | None) -> None:
    if done.cancelled():
        return
    if out is None:
        done.set_result(None)
    else:
        done.set_exception(out)


def _now() -> datetime:
    return datetime.now(UTC)


__all__ = ["GROUP_MAX", "GroupCommit"]
