"""The database on SQLite and on PostgreSQL (``UNOTABLE_TEST_POSTGRES``; .ci/run starts one): the
same code, the same tests."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError
from starlette.testclient import TestClient

from unotable.web.app import create_app
from unotable.web.hub import Hub
from unotable.web.records import Secrets, StoredSeat
from unotable.web.room import Room
from unotable.web.storage import DEAL, Store, database_url


def test_database_urls(tmp_path: object) -> None:
    from pathlib import Path  # noqa: PLC0415

    assert database_url(None, Path("/d")) == "sqlite:////d/unotable.db"
    assert database_url("postgresql://u@h/db", Path("/d")) == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db", Path("/d")) == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db", Path("/d")) == "sqlite:///x.db"


def test_migrations_make_the_tables_and_run_twice(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    store.migrate()
    tables = set(inspect(store.engine).get_table_names())
    assert {"rooms", "seats", "games", "actions", "alembic_version"} <= tables
    store.close()


def test_rooms_seats_and_logs_round_trip(db_url: str) -> None:
    store = Store(db_url)
    store.migrate()
    seed = secrets.randbits(128) | 1 << 127
    seats = [StoredSeat(0, None, None, None), StoredSeat(1, "search:budget=50", None, None)]
    game_id = store.create_room("ABCDEF", {"any": "settings"}, seats, {"players": 2}, 2, 1, seed)
    with pytest.raises(IntegrityError):
        store.create_room("ABCDEF", {}, [], {"players": 2}, 2, 1, seed)
    assert store.take_seat("ABCDEF", 0, "Ana", "h" * 64)
    assert not store.take_seat("ABCDEF", 0, "Ben", "g" * 64)  # taken
    assert not store.take_seat("ABCDEF", 1, "Ben", "g" * 64)  # a bot's
    assert not store.take_seat("ABCDEF", 5, "Ben", "g" * 64)  # no such seat
    store.append(game_id, 0, "0", "draw")
    store.append(game_id, 1, None, DEAL)
    with pytest.raises(IntegrityError):
        store.append(game_id, 1, "1", "pass")
    room = store.load_room("ABCDEF")
    assert room is not None
    assert room.settings == {"any": "settings"}
    assert room.seats == (StoredSeat(0, None, "Ana", "h" * 64), StoredSeat(1, "search:budget=50", None, None))
    assert room.game.seed == seed and room.game.log == (("0", "draw"), (None, DEAL))
    assert store.room_codes(active_only=True) == ["ABCDEF"]
    store.finish(game_id)
    assert store.room_codes(active_only=True) == [] and store.room_codes() == ["ABCDEF"]
    assert store.finished_games("ABCDEF") == [0]
    assert store.load_room("NOPE00") is None and store.load_game("ABCDEF", 1) is None
    second = store.new_game("ABCDEF", 1, {"players": 2}, 2, 1, 5)
    assert second != game_id
    room = store.load_room("ABCDEF")
    assert room is not None and room.game_number == 1 and room.game.log == ()
    store.close()


def _room(client: TestClient, code: str) -> Room:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    room = client.portal.call(hub.get, code)  # type: ignore[union-attr]
    assert room is not None
    return room


async def last_answers(r: Room, actions: int) -> None:
    """Take ``actions`` actions in the room: each time its current player's last legal one."""
    for _ in range(actions):
        if r.game.hand_over:
            await r.next_hand()
        p = r.game.current_player
        assert p is not None
        await r.act(p, r.game.legal_actions(p)[-1])


def test_a_restart_resumes_every_game_exactly(db_url: str) -> None:
    settings = {"players": 3, "seats": ["human"] * 3, "bot_delay": 0, "target": 300}
    with TestClient(create_app(db_url)) as c:
        codes = [c.post("/api/rooms", json=settings).json()["code"] for _ in range(2)]
        tokens = {
            code: [c.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"] for n in "ABC"]
            for code in codes
        }
        saved = {}
        for n, code in enumerate(codes):
            r = _room(c, code)
            c.portal.call(last_answers, r, 30 + 20 * n)  # type: ignore[union-attr]  # on the server's loop
            saved[code] = (r.game.to_dict(), [r.game.view(p).to_dict() for p in range(3)], r.seq)
    with TestClient(create_app(db_url)) as c:
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while hub.warmed < len(codes):  # the rooms live before come back in the background
            assert time.monotonic() < deadline, hub.warmed
            time.sleep(0.02)
        for code in codes:
            r = _room(c, code)
            game, views, seq = saved[code]
            assert r.game.to_dict() == game and r.seq == seq
            assert [r.game.view(p).to_dict() for p in range(3)] == views
            with c.websocket_connect(f"/ws/{code}") as ws:
                ws.send_json({"type": "hello", "token": tokens[code][1]})
                assert ws.receive_json()["view"] == views[1]


def test_hosts_keys_seats_and_listed_rooms_round_trip(db_url: str) -> None:
    """Migration 0002's columns: the host (the first person seated), avatar colours, the rejoin
    keys' hashes (replaced only over the token they belong to), seats given to bots or freed, and
    the listed rooms with free seats."""
    store = Store(db_url)
    store.migrate()
    seats = [
        StoredSeat(0, None, None, None),
        StoredSeat(1, None, None, None),
        StoredSeat(2, "greedy", None, None),
    ]
    store.create_room("LISTED", {"s": 1}, seats, {"players": 3}, 3, 1, 7, listed=True)
    store.create_room("HIDDEN", {"s": 2}, seats, {"players": 3}, 3, 1, 8)
    assert store.take_seat(
        "LISTED", 1, "Ben", "b" * 64, color="#15803d", rejoin_hash="r" * 64, code_hash="c" * 64
    )
    assert store.take_seat("LISTED", 0, "Ana", "a" * 64)
    room = store.load_room("LISTED")
    assert room is not None and room.host == 1 and room.created is not None  # Ben sat first
    assert room.seats[1] == StoredSeat(1, None, "Ben", "b" * 64, "#15803d", "r" * 64, "c" * 64)
    assert not store.replace_secrets("LISTED", 1, "x" * 64, Secrets("n" * 64, "m" * 64, "k" * 64))
    assert store.replace_secrets("LISTED", 1, "b" * 64, Secrets("n" * 64, "m" * 64, "k" * 64))
    room = store.load_room("LISTED")
    assert room is not None and room.seats[1] == StoredSeat(
        1, None, "Ben", "n" * 64, "#15803d", "m" * 64, "k" * 64
    )
    assert [r.code for r in store.listed_rooms()] == []  # no free seat left
    assert store.set_seat("LISTED", 1, None, {"s": 3})  # freed
    assert not store.set_seat("LISTED", 9, None, {"s": 3})
    listed = store.listed_rooms()
    assert [r.code for r in listed] == ["LISTED"] and listed[0].host == 1 and listed[0].settings == {"s": 3}
    assert store.set_seat("LISTED", 1, "cautious", {"s": 4})
    room = store.load_room("LISTED")
    assert (
        room is not None
        and room.seats[1] == StoredSeat(1, "cautious", None, None)
        and room.settings == {"s": 4}
    )
    assert store.listed_rooms() == []
    store.close()


# ---- the write path (issue 31): the store's own threads, SQLite's group commit


def test_appends_from_the_loop_are_committed_in_the_stores_writer_and_grouped(db_url: str) -> None:
    import asyncio  # noqa: PLC0415
    import threading  # noqa: PLC0415

    store = Store(db_url)
    store.migrate()
    games = [
        store.create_room(f"ROOM{i:04d}", {}, [], {"players": 2}, 2, 1, secrets.randbits(64))
        for i in range(40)
    ]
    threads: set[str] = set()
    one = store.append

    def spy_one(*args: object, **kwargs: object) -> None:
        threads.add(threading.current_thread().name)
        one(*args, **kwargs)  # type: ignore[arg-type]

    store.append = spy_one  # type: ignore[method-assign]
    assert store.group is not None  # SQLite and PostgreSQL: one writer, batches
    many = store.group._insert

    def spy_many(rows: list[tuple[int, int, str | None, str, str]]) -> set[tuple[int, int]]:
        threads.add(threading.current_thread().name)
        return many(rows)

    store.group._insert = spy_many  # type: ignore[method-assign]

    async def main(seq: int, duplicate: bool) -> list[BaseException | None]:
        calls = [store.append_async(g, seq, "0", "draw", code=f"ROOM{i:04d}") for i, g in enumerate(games)]
        if duplicate:
            calls.append(store.append_async(games[0], seq, "1", "pass", code="ROOM0000"))
        out = await asyncio.gather(*calls, return_exceptions=True)
        return list(out)

    assert asyncio.run(main(0, False)) == [None] * len(games)
    # Rows of many rooms waiting together share a transaction (PostgreSQL too: one a row there
    # could not keep up with a reconnect storm's thousand rooms).
    assert store.group.rows == len(games) and store.group.transactions < len(games)
    out = asyncio.run(main(1, True))
    assert out[:-1] == [None] * len(games)
    assert isinstance(out[-1], IntegrityError)  # refused alone: the others are committed
    for i in range(len(games)):
        room = store.load_room(f"ROOM{i:04d}")
        assert room is not None and room.game.log == (("0", "draw"), ("0", "draw"))
    assert threading.current_thread().name not in threads
    assert threads and all(t.startswith("unotable-db") for t in threads)
    assert threads == {"unotable-db-writer"}
    store.close()


def test_a_batch_is_written_in_few_statements_and_answered_with_one_wake_up(db_url: str) -> None:
    """The writer gives the GIL up around each statement and each wake-up of the loop, and
    waits for the busy loop to let it go each time (up to 5 ms): a batch is one statement (SQLite:
    one per 199 rows) and one wake-up, not one of each a row."""
    import asyncio  # noqa: PLC0415

    from unotable.web.groupcommit import SQLITE_ROWS, GroupCommit, _Pending  # noqa: PLC0415

    store = Store(db_url)
    store.migrate()
    game = store.create_room("BATCH1", {}, [], {"players": 2}, 2, 1, secrets.randbits(64))
    assert store.group is not None
    group: GroupCommit = store.group
    statements: list[str] = []
    raw = group.engine.raw_connection()
    group._raw = raw
    cursor = raw.cursor

    class Counting:
        def __init__(self) -> None:
            self.cur = cursor()

        def execute(self, sql: str, *args: Any) -> object:
            statements.append(sql)
            return self.cur.execute(sql, *args)

        def executemany(self, sql: str, rows: list[Any]) -> object:
            statements.extend([sql] * len(rows))
            return self.cur.executemany(sql, rows)

        def __getattr__(self, name: str) -> object:
            return getattr(self.cur, name)

    raw.cursor = Counting  # type: ignore[method-assign,assignment]
    n = 2 * SQLITE_ROWS + 52
    wake_ups = 0

    async def main() -> None:
        nonlocal wake_ups
        loop = asyncio.get_running_loop()
        threadsafe = loop.call_soon_threadsafe

        def counted(*args: Any) -> Any:
            nonlocal wake_ups
            wake_ups += getattr(args[0], "__module__", "") == "unotable.web.groupcommit"  # not to_thread's
            return threadsafe(*args)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
        batch = [_Pending((game, seq, "0", "draw", "BATCH1"), loop, loop.create_future()) for seq in range(n)]
        await asyncio.to_thread(group._write, batch)
        assert await asyncio.gather(*(p.done for p in batch)) == [None] * n

    asyncio.run(main())
    assert wake_ups == 1
    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT")]
    expected = 1 if group.postgres else -(-n // SQLITE_ROWS)
    assert len(inserts) == expected, len(inserts)
    room = store.load_room("BATCH1")
    assert room is not None and len(room.game.log) == n
    store.close()


def test_sqlite_the_writer_never_checkpoints_its_companion_does(tmp_path: Path) -> None:
    """A commit that took the WAL past 1,000 pages copied them back itself, syncs included, and
    every room's action waited behind it (up to a second at 1,000 rooms): the writer's
    connection does not checkpoint, a thread of its own does, passively."""
    import asyncio  # noqa: PLC0415

    store = Store(f"sqlite:///{tmp_path}/unotable.db")
    store.migrate()
    game = store.create_room("WALWAL", {}, [], {"players": 2}, 2, 1, secrets.randbits(64))
    assert store.group is not None
    group = store.group

    async def main() -> None:
        await asyncio.gather(
            *(store.append_async(game, seq, "0", "draw", code="WALWAL") for seq in range(300))
        )

    asyncio.run(main())
    cur = group._raw.cursor()
    cur.execute("PRAGMA wal_autocheckpoint")
    assert cur.fetchone()[0] == 0
    cur.close()
    deadline = time.monotonic() + 30
    while group.checkpoints < 2:  # one at least after the rows were committed
        assert time.monotonic() < deadline
        time.sleep(0.05)
    with store.engine.connect() as conn:
        busy, frames, copied = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
    assert busy == 0 and frames == copied
    store.close()
    assert group._checkpointer is None
    room = Store(f"sqlite:///{tmp_path}/unotable.db").load_room("WALWAL")
    assert room is not None and len(room.game.log) == 300


def test_sqlite_every_write_holds_the_stores_lock(tmp_path: Path) -> None:
    """SQLite makes a second writer poll for its lock, sleeping up to 100 ms a try (the moves'
    writer slept up to a second while rooms were being made): every transaction of the process
    that writes holds the store's own lock, so the next writer wakes as soon as one commits."""
    import asyncio  # noqa: PLC0415
    from datetime import UTC, datetime  # noqa: PLC0415

    from sqlalchemy import event  # noqa: PLC0415

    store = Store(f"sqlite:///{tmp_path}/unotable.db")
    store.migrate()
    assert store.writes is not None and store.group is not None
    lock: Any = store.writes
    held: list[tuple[str, bool]] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def before(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        verb = statement.split(maxsplit=1)[0].upper()
        if verb in ("INSERT", "UPDATE", "DELETE"):
            held.append((verb, lock._is_owned()))

    rows = store.group._insert_rows

    def spy(*args: Any) -> set[tuple[int, int]]:
        held.append(("group", lock._is_owned()))
        return rows(*args)

    store.group._insert_rows = spy  # type: ignore[method-assign,assignment]
    seats = [StoredSeat(0, None, None, None), StoredSeat(1, None, None, None)]
    game = store.create_room("LOCKED", {}, seats, {"players": 2}, 2, 1, secrets.randbits(64))
    assert store.take_seat("LOCKED", 0, "Ana", "h" * 64)
    store.append(game, 0, "0", "draw", code="LOCKED")

    async def main() -> None:
        await asyncio.gather(*(store.append_async(game, seq, "0", "draw", code="LOCKED") for seq in (1, 2)))

    asyncio.run(main())
    second = store.new_game("LOCKED", 2, {}, 2, 1, secrets.randbits(64))
    store.finish(second)
    store.touch("LOCKED")
    store.expire(datetime.now(UTC), 0, 0, 0)
    verbs = {verb for verb, _ in held}
    assert {"INSERT", "UPDATE", "DELETE", "group"} <= verbs, held
    assert all(owned for _, owned in held), held
    store.close()


def _rows(store: Store, prefix: str) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of the rooms whose codes begin with ``prefix`` (the prefix taken off), without
    ids and times (which differ from store to store) but with the times' types."""
    from sqlalchemy import text  # noqa: PLC0415

    kind = "pg_typeof({})::text" if store.postgres else "typeof({})"
    tables = {
        "rooms": f"code, settings, game_number, host, listed, creator, {kind.format('created_at')}, "
        f"{kind.format('active_at')}",
        "seats": "room_code, player, bot, name, token_hash, color, rejoin_hash, code_hash, address",
        "occupants": "room_code, player, game_number, seq, name, bot",
        "games": f"room_code, number, rules, players, rounds, seed, finished, {kind.format('created_at')}",
    }
    with store.engine.connect() as conn:
        return {
            t: sorted(
                (str(r[0])[len(prefix) :], *r[1:])
                for r in conn.execute(
                    text(f"SELECT {cols} FROM {t} WHERE {cols.split(',')[0]} LIKE :p"), {"p": prefix + "%"}
                )
            )
            for t, cols in tables.items()
        }


def test_rooms_and_seats_are_made_by_the_moves_writer_as_sqlalchemy_would(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room made and a seat taken are the moves' writer's work (web/sqlitewrites.py,
    web/pgwrites.py: made in the store's threads they took the GIL back from the busy event loop
    at every statement, and on SQLite held the store's lock meanwhile, and every room's moves
    waited behind them), with rows the same as SQLAlchemy's models write, a duplicate refused
    alone, and rooms made from many threads at once sharing its commits."""
    import threading  # noqa: PLC0415
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    from unotable.web import pgwrites, sqlitewrites  # noqa: PLC0415

    ours = Store(db_url)
    ours.migrate()
    theirs = Store(db_url)
    theirs._writer_writes = lambda: False  # type: ignore[method-assign]
    seats = [
        StoredSeat(0, None, None, None),
        StoredSeat(1, "greedy", None, None),
        StoredSeat(2, None, "Cleo", "c" * 63, "#123456", "r" * 64, "k" * 64),
    ]
    for store, tag in ((ours, "W"), (theirs, "S")):
        code = f"{tag}SAME"
        seats[2] = StoredSeat(2, None, "Cleo", "c" * 63 + tag, "#123456", "r" * 64, "k" * 64)
        game = store.create_room(
            code, {"a": [1, "é"]}, seats, {"players": 3}, 3, 2, 2**127 + 5, creator="x" * 64
        )
        assert game >= 1
        assert store.take_seat(
            code, 0, "Ana", "h" * 63 + tag, color="#abcdef", address="y" * 64, since=(0, 3)
        )
        assert not store.take_seat(code, 0, "Ben", "g" * 63 + tag)  # taken
        assert not store.take_seat(code, 1, "Ben", "g" * 63 + tag)  # a bot's
        store.create_room(f"{tag}LISTED", {}, [], {"players": 2}, 2, 1, 7, listed=True)
    mine, sqlalchemys = _rows(ours, "W"), _rows(theirs, "S")
    for rows in (mine, sqlalchemys):  # the tokens were told apart: the rest must be the same
        rows["seats"] = [(*r[:4], r[4][:63] if r[4] else r[4], *r[5:]) for r in rows["seats"]]
    assert mine == sqlalchemys
    a, b = ours.load_room("WSAME"), theirs.load_room("SSAME")
    assert a is not None and b is not None
    assert a.settings == b.settings and a.host == b.host == 0
    assert [s.player for s in a.seats] == [s.player for s in b.seats]
    assert a.occupants == b.occupants and a.game.seed == b.game.seed == 2**127 + 5
    assert a.created is not None and b.created is not None
    assert abs((a.created - b.created).total_seconds()) < 60  # read back as SQLAlchemy's times are
    theirs.close()

    where: set[str] = set()
    writes: Any = pgwrites if ours.postgres else sqlitewrites
    made = writes.create_room

    def spy(*args: Any, **kwargs: Any) -> int:
        where.add(threading.current_thread().name)
        result: int = made(*args, **kwargs)
        return result

    monkeypatch.setattr(writes, "create_room", spy)
    assert ours.group is not None
    before = ours.group.jobs

    def make(code: str) -> int | BaseException:
        try:
            return ours.create_room(code, {}, seats[:1], {"players": 2}, 2, 1, 9)
        except IntegrityError as exc:
            return exc

    with ThreadPoolExecutor(8) as pool:
        out = list(pool.map(make, [f"R{i:03d}" for i in range(40)] + ["WSAME"]))
    assert where == {"unotable-db-writer"}
    assert all(isinstance(g, int) for g in out[:-1]) and len(set(out[:-1])) == 40
    assert isinstance(out[-1], IntegrityError)  # the duplicate alone, nothing of it written
    assert ours.group.jobs - before == 40
    assert len([r for r in _rows(ours, "W")["seats"] if r[0] == "SAME"]) == 3
    assert all(ours.load_room(f"R{i:03d}") is not None for i in range(40))
    ours.close()


def _one_round(group: Any, block: Any, calls: list[tuple[str, Any]]) -> tuple[dict[str, Any], int]:
    """The outcomes of ``calls`` (name, work), each run from a thread of its own and queued
    together while the writer is kept busy by a first job (which then does ``block``'s work,
    its outcome ``"block"``): one round of jobs. Also the writer's count of jobs before it."""
    import threading  # noqa: PLC0415

    hold, holding = threading.Event(), threading.Event()
    out: dict[str, Any] = {}

    def first(cur: Any) -> Any:  # keeps the writer busy while the others queue behind it
        holding.set()
        hold.wait(10)
        return block(cur)

    def call(name: str, work: Any) -> None:
        try:
            out[name] = group.run(work)
        except Exception as exc:  # each outcome is checked by the caller
            out[name] = exc

    threads = [threading.Thread(target=call, args=("block", first))]
    threads[0].start()
    assert holding.wait(10)
    threads += [threading.Thread(target=call, args=c) for c in calls]
    for t in threads[1:]:
        t.start()
    time.sleep(0.2)  # all of them queued behind the first: one round
    jobs: int = group.jobs
    hold.set()
    for t in threads:
        t.join(10)
    return out, jobs


def test_sqlite_a_writers_job_that_fails_late_takes_nothing_with_it(tmp_path: Path) -> None:
    """The writer's jobs share a transaction without a savepoint each: one refused at its first
    statement wrote nothing and the others go on; one that fails after writing rolls the
    transaction back, and the others are made again without it."""

    from sqlalchemy import text  # noqa: PLC0415

    store = Store(f"sqlite:///{tmp_path}/unotable.db")
    store.migrate()
    group = store.group
    assert group is not None
    store.create_room("TAKEN", {}, [], {"players": 2}, 2, 1, 1)

    def room(code: str, then_fail: bool = False) -> Any:
        def work(cur: Any) -> str:
            cur.execute(
                "INSERT INTO rooms (code, created_at, settings, game_number, listed) "
                "VALUES (?, '2026-12-04 00:00:00.000000', '{}', 0, 0)",
                (code,),
            )
            cur.execute("UPDATE rooms SET game_number = 1 WHERE code = ?", (code,))
            if then_fail:
                raise RuntimeError("a mistake after writing")
            return code

        return work

    calls = [("ok1", room("OK1")), ("dup", room("TAKEN")), ("late", room("LATE", True)), ("ok2", room("OK2"))]
    out, _ = _one_round(group, lambda _cur: None, calls)
    assert out["ok1"] == "OK1" and out["ok2"] == "OK2"
    assert isinstance(out["dup"], IntegrityError)
    assert isinstance(out["late"], RuntimeError)
    with store.engine.connect() as conn:
        rows: dict[str, int] = {r[0]: r[1] for r in conn.execute(text("SELECT code, game_number FROM rooms"))}
    assert rows == {"TAKEN": 0, "OK1": 1, "OK2": 1}  # nothing of LATE's, the duplicate's nothing
    store.close()


@pytest.mark.parametrize("pipelined", [True, False], ids=["pipeline", "no-pipeline"])
def test_postgresql_a_writers_job_that_fails_takes_nothing_with_it(
    pipelined: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: a round's jobs are sent together between ``BEGIN`` and ``COMMIT`` (one trip:
    web/pgwrites.py), each reading its answer once the trip is back. One the server refuses
    aborts the transaction: it is rolled back, that job answered with its error, and the others
    sent again without it; one that fails before sending anything is left out the same way.
    The same one trip at a time where psycopg's pipeline is not supported (libpq before 14)."""

    from sqlalchemy import text  # noqa: PLC0415

    from unotable.web import groupcommit  # noqa: PLC0415

    from .conftest import fresh_postgres, postgres_url  # noqa: PLC0415

    monkeypatch.setattr(groupcommit, "_pipelines", lambda: pipelined)

    store = Store(fresh_postgres(postgres_url()))
    store.migrate()
    group = store.group
    assert group is not None
    store.create_room("TAKEN", {}, [], {"players": 2}, 2, 1, 1)

    def block(cur: Any) -> Any:
        cur.execute("SELECT 1")
        return lambda: cur.fetchone()[0]

    def room(code: str, fail_first: bool = False) -> Any:
        def work(cur: Any) -> Any:
            if fail_first:
                raise RuntimeError("a mistake before sending")
            cur.execute(
                "INSERT INTO rooms (code, created_at, settings, game_number, listed) "
                "VALUES (%s, now(), '{}', 1, false) RETURNING code",
                (code,),
            )
            return lambda: cur.fetchone()[0]

        return work

    calls = [
        ("ok1", room("OK1")),
        ("dup", room("TAKEN")),
        ("early", room("EARLY", True)),
        ("ok2", room("OK2")),
    ]
    out, jobs = _one_round(group, block, calls)
    assert out["block"] == 1 and out["ok1"] == "OK1" and out["ok2"] == "OK2"
    assert isinstance(out["dup"], IntegrityError)
    assert isinstance(out["early"], RuntimeError)
    assert group.jobs - jobs == 3  # the block, OK1, OK2
    with store.engine.connect() as conn:
        rows: dict[str, int] = {r[0]: r[1] for r in conn.execute(text("SELECT code, game_number FROM rooms"))}
    assert rows == {"TAKEN": 0, "OK1": 1, "OK2": 1}
    store.create_room("AFTER", {}, [], {"players": 2}, 2, 1, 1)  # the writer's connection is sound
    store.close()


def test_sqlite_the_writer_commits_waiting_moves_before_the_rooms_and_seats_queued_with_them(
    tmp_path: Path,
) -> None:
    """Moves first, then at most JOBS_A_ROUND jobs a round: a room being made or a seat taken
    (several statements, each a trip of the GIL to the busy loop) never holds up everyone's
    moves for more than a few jobs."""
    import asyncio  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from unotable.web.groupcommit import JOBS_A_ROUND  # noqa: PLC0415

    store = Store(f"sqlite:///{tmp_path}/unotable.db")
    store.migrate()
    group = store.group
    assert group is not None
    game = store.create_room("MOVES", {}, [], {"players": 2}, 2, 1, 1)
    order: list[str] = []
    rounds: list[int] = []
    write, run_jobs = group._write, group._run_jobs

    def writes(batch: list[Any]) -> bool:
        order.append("moves")
        return write(batch)

    def jobs_round(jobs: list[Any]) -> bool:
        rounds.append(len(jobs))
        return run_jobs(jobs)

    group._write = writes  # type: ignore[method-assign]
    group._run_jobs = jobs_round  # type: ignore[method-assign]
    hold, holding = threading.Event(), threading.Event()

    def block(_cur: Any) -> None:
        holding.set()
        hold.wait(10)

    def job(name: str) -> Any:
        def work(_cur: Any) -> str:
            order.append(name)
            return name

        return work

    out: dict[str, Any] = {}

    def call(name: str, work: Any) -> None:
        out[name] = group.run(work)

    names = [f"job{n}" for n in range(10)]
    threads = [threading.Thread(target=call, args=("block", block))]
    threads[0].start()
    assert holding.wait(10)
    for name in names:  # each queued in turn behind the first
        threads.append(threading.Thread(target=call, args=(name, job(name))))
        threads[-1].start()
        time.sleep(0.02)

    async def main() -> None:
        move = asyncio.create_task(store.append_async(game, 0, "0", "draw", code="MOVES"))
        await asyncio.sleep(0.2)  # queued after the ten
        hold.set()
        await move

    asyncio.run(main())
    for t in threads:
        t.join(10)
    assert [out[name] for name in names] == names
    assert order == ["moves"] + [f"job{n}" for n in range(10)]
    assert rounds == [1] + [JOBS_A_ROUND] * (10 // JOBS_A_ROUND) + (
        [10 % JOBS_A_ROUND] if 10 % JOBS_A_ROUND else []
    )
