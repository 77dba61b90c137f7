"""The fenced write of a log row in a cluster: one statement, refused for a stale owner."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event

from unotable.web.cluster import Cluster
from unotable.web.storage import LeaseLostError, Store, StoredSeat

from .conftest import fresh_postgres, postgres_url


@pytest.fixture
def pg() -> str:
    """A fresh PostgreSQL database's SQLAlchemy URL."""
    return fresh_postgres(postgres_url())


def _statements(store: Store) -> list[str]:
    seen: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement.split(maxsplit=1)[0].upper())

    event.listen(store.engine, "before_cursor_execute", before)
    return seen


def test_a_fenced_log_row_is_one_statement_and_a_stale_owners_is_refused(pg: str) -> None:
    a_store, b_store = Store(pg), Store(pg)
    a_store.migrate()
    a = Cluster(a_store, "a", "http://10.0.0.1:8000")
    b = Cluster(b_store, "b", "http://10.0.0.2:8000")
    a.register()
    b.register()
    game = a_store.create_room("FENCE001", {}, [StoredSeat(0, None, None, None)], {"players": 2}, 2, 1, 5)
    a.create("FENCE001")
    seen = _statements(a_store)
    a_store.append(game, 0, "0", "draw", code="FENCE001")
    assert seen == ["INSERT"]  # the fence is in the INSERT: no SELECT ... FOR SHARE before it
    with a_store.engine.begin() as conn:  # a froze past its lease; b takes the room
        conn.exec_driver_sql("UPDATE room_leases SET expires_at = now() - interval '1 second'")
    b.acquire("FENCE001")
    with pytest.raises(LeaseLostError):
        a_store.append(game, 1, "1", "draw", code="FENCE001")
    b_store.append(game, 1, "1", "pass", code="FENCE001")
    stored = b_store.load_room("FENCE001")
    assert stored is not None and stored.game.log == (("0", "draw"), ("1", "pass"))
    a_store.close()
    b_store.close()
