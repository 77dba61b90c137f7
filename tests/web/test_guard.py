"""The server's guard (issue 23): hardening headers, origin and content-type checks, connection
limits and slow clients, with the app in process and with real sockets on loopback."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from unotable.web.app import create_app
from unotable.web.guard import CSP, Limits
from unotable.web.serve import add_serve_arguments, run_serve
from unotable.web.storage import Store

from .conftest import LiveServer, fresh_postgres, postgres_url

ROOM = {"edition": "classic", "players": 2, "seats": ["human", "greedy"], "bot_delay": 0}


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, origins=("https://uno.example.org",))) as c:
        yield c


def rooms_in(url: str) -> int:
    path = url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        (n,) = db.execute("SELECT count(*) FROM rooms").fetchone()
    return int(n)


@pytest.mark.parametrize("path", ["/", "/r/ABCD", "/api/options", "/api/rooms/NOPE", "/static/js/main.js"])
def test_every_response_carries_the_hardening_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert "default-src 'self'" in CSP and "frame-ancestors 'none'" in CSP and "unsafe-inline" not in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"


def test_the_page_has_no_inline_script_or_style(client: TestClient) -> None:
    html = client.get("/").text
    assert "<script>" not in html and "<style" not in html and " style=" not in html
    assert " on" + "click=" not in html


def test_a_text_plain_post_makes_no_room(client: TestClient, sqlite_url: str) -> None:
    before = rooms_in(sqlite_url)
    r = client.post("/api/rooms", content=json.dumps(ROOM), headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert r.json()["error"] == "bad_content_type"
    r = client.post(
        "/api/rooms",
        content=b"edition=classic",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 415
    assert rooms_in(sqlite_url) == before


def test_a_post_from_another_sites_page_is_refused(client: TestClient, sqlite_url: str) -> None:
    before = rooms_in(sqlite_url)
    for headers in ({"origin": "https://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"}):
        r = client.post("/api/rooms", json=ROOM, headers=headers)
        assert r.status_code == 403, headers
        assert r.json()["error"] == "bad_origin"
        assert r.headers["content-security-policy"] == CSP
    assert rooms_in(sqlite_url) == before
    # Its own origin, an allowed one, and a program that sends none are served.
    for headers in ({"origin": "http://testserver"}, {"origin": "https://uno.example.org"}, {}):
        assert client.post("/api/rooms", json=ROOM, headers=headers).status_code == 201
    assert rooms_in(sqlite_url) == before + 3


def test_a_websocket_from_another_site_is_refused(client: TestClient) -> None:
    code = client.post("/api/rooms", json=ROOM).json()["code"]
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/{code}", headers={"origin": "https://evil.example"}),
    ):
        pass
    assert refused.value.code == 1008
    for headers in ({"origin": "http://testserver"}, {}):
        with client.websocket_connect(f"/ws/{code}", headers=headers) as ws:
            ws.send_text(json.dumps({"type": "hello", "token": None}))
            assert json.loads(ws.receive_text())["type"]


def _open(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def _closed_within(s: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``s`` (reads EOF or a reset) within ``seconds``."""
    s.settimeout(seconds)
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


@pytest.fixture
def strict(sqlite_url: str) -> Iterator[LiveServer]:
    """A live server with small limits: 4 connections an address, 6 in all, 1 s for slow clients."""
    limits = Limits(max_connections=6, per_address=4, header_seconds=1.0, body_seconds=1.0, hello_seconds=1.0)
    server = LiveServer(sqlite_url, limits=limits)
    yield server
    server.stop()


def _port(server: LiveServer) -> int:
    return int(server.http.rsplit(":", 1)[1])


def test_slowloris_headers_are_cut_off(strict: LiveServer) -> None:
    s = _open(_port(strict))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    assert _closed_within(s, 15.0)
    s.close()
    # A whole request on a kept-alive connection answers; the next slow head is cut off too.
    s = _open(_port(strict))
    s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    s.settimeout(10)
    assert s.recv(64).startswith(b"HTTP/1.1 200")
    s.sendall(b"GET / HTTP/1.1\r\nHo")
    assert _closed_within(s, 15.0)
    s.close()


def test_a_half_sent_body_is_refused_in_time(strict: LiveServer) -> None:
    s = _open(_port(strict))
    s.sendall(
        b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 200\r\n\r\n{"edition": '
    )
    s.settimeout(15)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk:
            break
        answer += chunk
    s.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:80]


def test_a_silent_websocket_is_closed(strict: LiveServer) -> None:
    code = strict.room(ROOM)

    async def silent() -> int | None:
        async with connect(f"{strict.ws}/ws/{code}") as ws:
            try:
                await asyncio.wait_for(ws.recv(), 15.0)
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
            return None

    assert asyncio.run(silent()) == 1008


def test_connections_per_address_and_in_all_are_capped(strict: LiveServer) -> None:
    code = strict.room(ROOM)

    async def scenario() -> tuple[int, int]:
        open_ws = []
        for _ in range(4):
            ws = await connect(f"{strict.ws}/ws/{code}")
            await ws.send(json.dumps({"type": "hello", "token": None}))
            await ws.recv()
            open_ws.append(ws)
        with pytest.raises(InvalidStatus) as fifth:
            await connect(f"{strict.ws}/ws/{code}")
        refused_ws = fifth.value.response.status_code
        # An HTTP request from the same address is refused too, with a clear answer.
        loop = asyncio.get_running_loop()

        def get() -> int:
            s = _open(_port(strict))
            s.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            s.settimeout(10)
            head = s.recv(4096)
            s.close()
            return int(head.split()[1])

        refused_http = await loop.run_in_executor(None, get)
        for ws in open_ws:
            await ws.close()
        return refused_ws, refused_http

    ws_status, http_status = asyncio.run(scenario())
    assert ws_status == 403
    assert http_status == 429
    # Once they are closed, the address is served again.
    deadline = time.monotonic() + 10
    while True:
        try:
            strict.room(ROOM)
            break
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.mark.parametrize(
    "argv",
    [
        ["--max-connections", "0"],
        ["--connections-per-address", "0"],
        ["--max-connections", "10", "--connections-per-address", "11"],
        ["--allow-origin", "evil.example"],
        ["--allow-origin", "https://uno.example.org/path"],
        ["--durability", "sometimes"],
    ],
)
def test_bad_serve_flags_say_so(argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="uno serve", exit_on_error=False)
    add_serve_arguments(parser)
    try:
        args = parser.parse_args([*argv, "--data-dir", str(tmp_path)])
    except (argparse.ArgumentError, SystemExit):
        return  # argparse refused it itself (choices)
    assert run_serve(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("uno serve: error: ") and err.count("\n") == 1


def test_sqlite_durability(tmp_path: Path) -> None:
    """``full``: the moves' writer syncs its commits (``synchronous=FULL``), a room made among
    them (web/sqlitewrites.py); the store's other writes commit without a sync of their own and
    wait for the log's next sync (the writer's commit, or the log file synced alone);
    ``normal``: nothing waits for a sync."""
    for durability, level in (("full", 2), ("normal", 1)):
        store = Store(f"sqlite:///{tmp_path / durability}.db", durability)
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 1
        assert store.group is not None
        store.migrate()
        syncs, jobs = store.group.syncs, store.group.jobs
        store.create_room("DURABL", {}, [], {"players": 2}, 2, 1, 7)
        assert store.group.jobs == jobs + 1 and store.group.syncs == syncs  # the writer's commit
        store.touch("DURABL")  # another write: committed without a sync, then the log synced
        assert store.group.syncs == syncs + (durability == "full")
        game = store.load_room("DURABL")
        assert game is not None
        asyncio.run(store.append_async(game.game.id, 0, "0", "draw", code="DURABL"))
        cur = store.group._raw.cursor()
        cur.execute("PRAGMA synchronous")
        assert cur.fetchone()[0] == level
        cur.close()
        store.close()
    with pytest.raises(ValueError, match="durability"):
        Store(f"sqlite:///{tmp_path / 'x'}.db", "sometimes")


def test_postgres_durability() -> None:
    url = fresh_postgres(postgres_url())
    for durability, setting in (("full", "on"), ("normal", "off")):
        store = Store(url, durability)
        with store.engine.connect() as conn:
            assert conn.execute(text("SHOW synchronous_commit")).scalar() == setting
        store.close()


# ---- operations: health, readiness, metrics, the access log


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}


def _metric(text_: str, name: str) -> float:
    total = 0.0
    for line in text_.splitlines():
        if line.startswith(name) and not line.startswith("#"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_metrics_count_rooms_connections_actions_and_refusals(client: TestClient) -> None:
    before = client.get("/metrics")
    assert before.headers["content-type"].startswith("text/plain")
    assert _metric(before.text, "unotable_actions_total") == 0
    people = {"players": 2, "seats": ["human", "human"], "bot_delay": 0}
    code = client.post("/api/rooms", json=people).json()["code"]
    tokens = [
        client.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"] for n in ("Ana", "Ben")
    ]
    client.post("/api/rooms", json=ROOM, headers={"origin": "https://evil.example"})
    with client.websocket_connect(f"/ws/{code}") as a, client.websocket_connect(f"/ws/{code}") as b:
        for ws, token in ((a, tokens[0]), (b, tokens[1])):
            ws.send_text(json.dumps({"type": "hello", "token": token}))
        welcome = [json.loads(a.receive_text()), json.loads(b.receive_text())]
        mid = client.get("/metrics").text
        assert _metric(mid, "unotable_connections") >= 2  # the two sockets (and this request)
        seat = next(i for i, w in enumerate(welcome) if w["view"]["current"] == w["view"]["seat"])
        ws = (a, b)[seat]
        # Any legal action of the seat whose turn it is (a dealt hand may open on a colour to
        # call, where a draw is not legal).
        action = welcome[seat]["view"]["legal"][0]
        ws.send_text(json.dumps({"type": "act", "token": tokens[seat], "action": action}))
        while not json.loads(ws.receive_text())["events"]:
            pass  # the table's updates for the other's hello, then the draw's
    after = client.get("/metrics").text
    assert _metric(after, "unotable_rooms_live") >= 1
    assert _metric(after, "unotable_rooms_playing") >= 1
    assert _metric(after, "unotable_actions_total") == 1
    assert _metric(after, "unotable_action_seconds_count") == 1
    assert _metric(after, "unotable_database_seconds_count") >= 3
    assert 'unotable_connections_refused_total{reason="bad_origin"} 1.0' in after
    assert 'unotable_http_requests_total{method="POST",status="201"}' in after


def test_the_access_log_is_one_line_a_request_without_secrets(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="unotable.web.access"):
        code = client.post("/api/rooms", json=ROOM).json()["code"]
        token = client.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["token"]
        client.get(f"/r/{code}?rejoin=SECRET-IN-THE-QUERY")
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "unotable.web.access"]
    assert [(x["method"], x["path"], x["status"]) for x in lines] == [
        ("POST", "/api/rooms", 201),
        ("POST", f"/api/rooms/{code}/join", 200),
        ("GET", f"/r/{code}", 200),
    ]
    text_ = caplog.text
    assert "SECRET" not in text_ and token not in text_
