"""A welcome tells the room's other connections only what changed (issue 31: every welcome sent
the others the whole table again, a second message per connect and per reconnect in a storm).

A seat's second connection, a spectator, or a connection that closes while its seat has another
shows nothing new: the others hear nothing. A seat coming online or going offline changes the
table: the others hear it. Nothing here waits on a clock: "heard nothing" is checked by the next
message being the one after (an action's update)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from unotable.web.app import create_app

SETTINGS = {"players": 2, "seats": ["human", "human"], "bot_delay": 0}


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: 5)) as c:
        yield c


def _room(client: TestClient) -> tuple[str, list[str]]:
    r = client.post("/api/rooms", json=SETTINGS)
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    tokens = []
    for name in ("Ana", "Ben"):
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


def _hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    m: dict[str, Any] = ws.receive_json()
    assert m["type"] == "welcome"
    return m


def _online(m: dict[str, Any]) -> list[bool]:
    return [p["online"] for p in m["table"]["players"]]


def _act(ws: WebSocketTestSession, token: str, m: dict[str, Any]) -> None:
    """The seat of ``token`` (whose turn it is in ``m``) draws or plays its first legal action."""
    legal = m["view"]["legal"]
    assert legal, m["view"]
    ws.send_json({"type": "act", "token": token, "action": legal[0]})


def test_a_connection_that_shows_nothing_new_is_not_sent_to_the_others(client: TestClient) -> None:
    code, tokens = _room(client)
    with client.websocket_connect(f"/ws/{code}") as a, client.websocket_connect(f"/ws/{code}") as b:
        ma = _hello(a, tokens[0])
        mb = _hello(b, tokens[1])
        came = a.receive_json()  # Ben came online: that changed the table
        assert came["type"] == "update" and _online(came) == [True, True]
        assert came["events"] == [] and came["seq"] == mb["seq"] == ma["seq"]
        # Ben's second connection (a second tab), a spectator, then both gone again: the table
        # shows the same seats online throughout, so Ana hears none of it.
        with client.websocket_connect(f"/ws/{code}") as b2, client.websocket_connect(f"/ws/{code}") as s:
            _hello(b2, tokens[1])
            _hello(s, None)
        mover, token, latest = (a, tokens[0], came) if came["view"]["legal"] else (b, tokens[1], mb)
        _act(mover, token, latest)
        after = a.receive_json()  # the next thing Ana hears is the move itself
        assert after["type"] == "update" and after["seq"] == came["seq"] + 1 and after["events"]
    # Ben's only connection closing does change the table: Ana hears it.
    with client.websocket_connect(f"/ws/{code}") as a:
        _hello(a, tokens[0])
        with client.websocket_connect(f"/ws/{code}") as b:
            _hello(b, tokens[1])
            assert _online(a.receive_json()) == [True, True]
        went = a.receive_json()
        assert went["type"] == "update" and _online(went) == [True, False]
