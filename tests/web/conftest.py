"""Fixtures of the web tests: databases (SQLite always; PostgreSQL when a URL is given), an
in-process server on a loopback port, and helpers to make rooms and read what clients got."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web tests need the web extra (make setup installs it)")

import uvicorn
from sqlalchemy import create_engine, text

from unotable.web.app import create_app
from unotable.web.client import http_json
from unotable.web.guard import Limits, header_timeout_protocol
from unotable.web.lifecycle import Lifecycle
from unotable.web.pacing import Pacer
from unotable.web.schema import Base
from unotable.web.serve import WS_MAX_SIZE
from unotable.web.wsprotocol import websocket_protocol

POSTGRES_ENV = "UNOTABLE_TEST_POSTGRES"
"""A PostgreSQL URL (``postgresql://user@host/db``) for the storage tests; .ci/run sets it."""


def postgres_url() -> str:
    """The PostgreSQL URL of the tests, or a skip (a failure in CI, which must run them)."""
    url = os.environ.get(POSTGRES_ENV)
    if url:
        return url
    if os.environ.get("CI"):
        pytest.fail(f"{POSTGRES_ENV} is not set: CI must run the storage tests on PostgreSQL (.ci/run)")
    pytest.skip(f"no PostgreSQL server: set {POSTGRES_ENV}=postgresql://user@host/db to run this on it")


def fresh_postgres(url: str) -> str:
    """Empty the test database (every table of the server and Alembic's), its SQLAlchemy URL."""
    full = "postgresql+psycopg://" + url.split("://", 1)[1]
    engine = create_engine(full)
    with engine.begin() as conn:
        Base.metadata.drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    engine.dispose()
    return full


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: SQLite in a temporary folder, and PostgreSQL when configured."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'unotable.db'}"
    return fresh_postgres(postgres_url())


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database."""
    return f"sqlite:///{tmp_path / 'unotable.db'}"


class LiveServer:
    """The app served by uvicorn in a thread, on a free loopback port."""

    def __init__(
        self,
        url: str,
        seeds: Callable[[], int] | None = None,
        *,
        limits: Limits | None = None,
        header_seconds: float | None = None,
        trusted: str | None = None,
        lifecycle: Lifecycle | None = None,
        pacer: Pacer | None = None,
    ) -> None:
        # Every test client comes from 127.0.0.1: the per-address cap is the total's, and no
        # quota per address applies, unless a test sets its own limits and lifecycle.
        limits = limits or Limits(max_connections=10_000, per_address=10_000)
        lifecycle = lifecycle or Lifecycle(rooms_per_address=0, seats_per_address=0, lookups_per_second=0)
        self.pacer = pacer or Pacer()  # as `uno serve`: new connections let in at the loop's pace
        config = uvicorn.Config(
            create_app(url, seeds=seeds, rate=1000.0, limits=limits, lifecycle=lifecycle, pacer=self.pacer),
            host="127.0.0.1",
            port=0,
            ws_max_size=WS_MAX_SIZE,
            log_level="warning",
            http=header_timeout_protocol(header_seconds or limits.header_seconds, self.pacer),
            ws=websocket_protocol(self.pacer),
            ws_per_message_deflate=False,
            # As `uno serve`: no proxy's forwarded headers are believed unless named.
            proxy_headers=trusted is not None,
            forwarded_allow_ips=trusted,
        )
        self.url = url
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(30)

    def room(self, settings: dict[str, Any]) -> str:
        """A new room's code."""
        code: str = http_json(self.http, "POST", "/api/rooms", settings)["code"]
        return code

    def join(self, code: str, name: str, player: int | None = None) -> tuple[str, int]:
        """Take a seat: its token and player number."""
        body: dict[str, Any] = {"name": name}
        if player is not None:
            body["player"] = player
        r = http_json(self.http, "POST", f"/api/rooms/{code}/join", body)
        return r["token"], r["player"]


@pytest.fixture
def live(sqlite_url: str) -> Iterator[LiveServer]:
    """A live server over a fresh SQLite database."""
    server = LiveServer(sqlite_url)
    yield server
    server.stop()
