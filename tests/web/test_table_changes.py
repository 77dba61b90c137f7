"""A client that keeps the table (``hello``'s ``changes``) is sent only the table's changes;
every welcome, a reconnect's too, carries the whole table; other clients get it whole as before
(docs/web.md, "The table's changes")."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from unotable.web.app import create_app
from unotable.web.client import choose
from unotable.web.fanout import table_changes

SEED = 1234


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as c:
        yield c


def full_room(client: TestClient) -> tuple[str, list[str]]:
    r = client.post("/api/rooms", json={"players": 3, "seats": ["human"] * 3, "bot_delay": 0})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    tokens = []
    for name in ("Ana", "Ben", "Cleo"):
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    return code, tokens


def merged(table: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """What the page does with an update's table (table.js)."""
    return {**table, **(update.get("table") or {})}


def test_a_client_that_keeps_the_table_is_sent_only_its_changes(client: TestClient) -> None:
    code, tokens = full_room(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    game = hub.rooms[code].game
    current = game.current_player
    with (
        client.websocket_connect(f"/ws/{code}") as whole,
        client.websocket_connect(f"/ws/{code}") as part,
        client.websocket_connect(f"/ws/{code}") as seat,
    ):
        whole.send_json({"type": "hello", "token": None})
        w = whole.receive_json()
        part.send_json({"type": "hello", "token": None, "changes": True})
        p = part.receive_json()
        assert w["type"] == p["type"] == "welcome" and p["table"] == w["table"]  # a welcome: whole
        kept = p["table"]
        seat.send_json({"type": "hello", "token": tokens[current], "changes": True})
        assert seat.receive_json()["table"]["settings"]  # whole again
        # A seat came online: the players changed, nothing else.
        w, p = whole.receive_json(), part.receive_json()
        assert w["type"] == p["type"] == "update"
        assert set(p["table"]) == {"players"} and p["table"]["players"] == w["table"]["players"]
        assert "settings" in w["table"]  # a client that did not ask gets the whole table
        kept = merged(kept, p)
        assert kept == w["table"]
        # An action that changes nothing on the table: no table at all.
        seat.send_json({"type": "act", "token": tokens[current], "action": "draw"})
        w, p, s = whole.receive_json(), part.receive_json(), seat.receive_json()
        assert p["seq"] == w["seq"] == s["seq"] == 1
        assert "table" not in p and "table" not in s and w["table"] == kept
        assert p["view"] == w["view"]
    # A reconnect is a new connection: its welcome has the whole table.
    with client.websocket_connect(f"/ws/{code}") as again:
        again.send_json({"type": "hello", "token": None, "changes": True})
        welcome = again.receive_json()
        assert welcome["type"] == "welcome"
        assert welcome["table"] == {**kept, "players": welcome["table"]["players"]}
        assert set(welcome["table"]) == set(kept)


def test_changes_must_be_true_or_false(client: TestClient) -> None:
    code, _ = full_room(client)
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None, "changes": "yes"})
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "bad_message" and "changes" in m["message"]


def test_table_changes_lists_the_keys_that_differ() -> None:
    before = {"a": 1, "b": [1, 2], "gone": 0}
    assert table_changes(before, {"a": 1, "b": [1, 2], "gone": 0}) is None
    assert table_changes(before, {"a": 2, "b": [1, 2], "new": 3}) == {"a": 2, "new": 3, "gone": None}


def test_the_standings_are_made_again_only_when_a_hand_ends(client: TestClient) -> None:
    code, _ = full_room(client)
    room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
    game = room.game
    first = room.table()
    rng = random.Random(7)
    portal = client.portal
    assert portal is not None
    for _ in range(2000):  # the seats play (the first legal action that is not a draw, if any)
        if game.hand_over:
            break
        player = next(p for p in range(3) if game.view(p).legal)
        action = choose(game.view(player).to_dict(), rng)
        assert action is not None
        assert portal.call(room.act, player, action)
        if not game.hand_over:
            again = room.table()
            assert again["standings"] is first["standings"] and again["score_rows"] is first["score_rows"]
    assert game.hand_over
    after = room.table()
    assert after["standings"] is not first["standings"]
    assert after["standings"] == game.standings().to_dict() and after["standings"]["hands_played"] == 1
    assert after["score_rows"] == [list(game.results[0].credit)]
