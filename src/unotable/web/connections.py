"""The settings each new database connection of the store gets (:class:`~unotable.web.storage.Store`
listens to its engine's ``connect`` event with these)."""

from __future__ import annotations

from typing import Any


def sqlite_pragmas(synchronous: str) -> Any:
    """The settings of each new SQLite connection (an engine's ``connect`` event)."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # WAL: readers never wait for the writer; foreign keys are off by default in SQLite.
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return on_connect


def postgres_settings(synchronous_commit: str) -> Any:
    """The settings of each new PostgreSQL connection (an engine's ``connect`` event)."""

    # A transaction left open by a frozen process (SIGSTOP between a statement and its commit)
    # keeps its row locks, the lease rows too: another node taking the room waited for them
    # until the thaw. PostgreSQL ends such a session after 5 s (less than a lease's 6 s).
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cur = dbapi_connection.cursor()
        cur.execute(f"SET synchronous_commit TO {synchronous_commit}")
        cur.execute("SET idle_in_transaction_session_timeout TO '5s'")
        cur.close()
        dbapi_connection.commit()

    return on_connect


__all__ = ["postgres_settings", "sqlite_pragmas"]
