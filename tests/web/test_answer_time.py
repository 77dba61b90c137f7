"""Time to answer (issue 34, item 2): the turn timer and Harry Potter's answer window count from
the card's landing on the page, the answer window can be turned off, and a person's "More time"
adds the room's seconds to their running timer once a hand."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from unotable.state import Phase
from unotable.web.app import create_app
from unotable.web.driver import LANDING_SECONDS, answer_window, next_move
from unotable.web.protocol import ProtocolError
from unotable.web.records import StoredGame
from unotable.web.room import Room
from unotable.web.seats import Seat
from unotable.web.settings import RoomOptions, RoomSettings, parse_settings
from unotable.web.storage import Store

from .test_api import make_room
from .test_api_seats import hello, join

SEED = 20261204


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as c:
        yield c


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'u.db'}")
    yield s
    s.close()


def a_room(store: Store, settings: dict[str, Any], seed: int = 1) -> Room:
    """A room of people (every seat taken) over ``settings``, its game at its first action."""
    rs = parse_settings(settings)
    stored = StoredGame(0, 0, rs.rules.to_dict(), rs.players, 1, seed, False, ())
    names = ("Ana", "Ben", "Cleo", "Dan")[: rs.players]
    seats = [Seat(p, None, name, f"{p}" * 64) for p, name in enumerate(names)]
    return Room(store, "TEST01", rs, seats, stored)


def to_answer_window(r: Room, rng: random.Random) -> int | None:
    """Play random actions until a person faces Harry Potter's answer window; their player."""
    while not r.game.hand_over:
        p = r.game.current_player
        assert p is not None
        v = r.game.view(p)
        if v.phase == Phase.RESPOND and answer_window(v.legal):
            return p
        actor = rng.choice(r.game.actors())
        r.game.apply(actor, rng.choice(r.game.legal_actions(actor)))
    return None


# ---- counted from the landing


def test_the_turn_timer_counts_from_the_landing(store: Store) -> None:
    """Just after a change the turn timer has its whole length left after the page's flight:
    more than ``turn_seconds`` in all, at most that plus the landing."""
    r = a_room(store, {"players": 2, "seats": ["human"] * 2, "turn_seconds": 10})
    move = next_move(r)
    assert move is not None and move.pause == 10
    assert 10 < move.delay <= 10 + LANDING_SECONDS
    seconds = r.table()["timer"]["seconds"]
    assert 10 < seconds <= 10 + LANDING_SECONDS


def test_the_answer_window_counts_from_the_landing(store: Store) -> None:
    hp = {"auto_accept_seconds": 2}
    settings = {"edition": "harry-potter", "players": 3, "seats": ["human"] * 3, "room": hp}
    for seed in range(40):
        r = a_room(store, settings, seed)
        p = to_answer_window(r, random.Random(seed))
        if p is None:
            continue
        move = next_move(r)
        assert move is not None and move.action == "accept" and move.pause == 2
        assert 2 < move.delay <= 2 + LANDING_SECONDS
        assert 2 < r.table()["answer"]["seconds"] <= 2 + LANDING_SECONDS
        return
    raise AssertionError("no answer window in 40 hands")


# ---- the answer window off


def test_an_answer_window_off_waits_for_the_answer(store: Store) -> None:
    """``auto_accept_seconds`` null: the room waits (no move, no countdown); with a turn timer,
    the turn timer runs instead."""
    for turn in (0, 20):
        settings = {
            "edition": "harry-potter",
            "players": 3,
            "seats": ["human"] * 3,
            "turn_seconds": turn,
            "room": {"auto_accept_seconds": None},
        }
        for seed in range(40):
            r = a_room(store, settings, seed)
            if to_answer_window(r, random.Random(seed)) is None:
                continue
            move = next_move(r)
            assert r.table()["answer"] is None
            if turn:
                assert move is not None and move.pause == turn
            else:
                assert move is None
            break
        else:
            raise AssertionError("no answer window in 40 hands")


def test_answer_window_settings_are_checked(client: TestClient) -> None:
    base = {"players": 3, "seats": ["human"] * 3}
    for bad, fragment in (
        ({"auto_accept_seconds": 121}, "auto_accept_seconds must be from 0 to 120 seconds or null (off)"),
        ({"auto_accept_seconds": "off"}, "or null (off)"),
        ({"more_time_seconds": -1}, "more_time_seconds must be from 0 to 300 seconds, not -1"),
        ({"more_time_seconds": None}, "more_time_seconds must be from 0 to 300"),
    ):
        r = client.post("/api/rooms", json={**base, "room": bad})
        assert r.status_code == 400 and fragment in r.json()["message"], r.text
    off = parse_settings({**base, "room": {"auto_accept_seconds": None, "more_time_seconds": 60}})
    assert off.room.auto_accept_seconds is None and off.room.more_time_seconds == 60
    assert RoomSettings.from_dict(off.to_dict()) == off  # stored and read back
    assert RoomOptions().more_time_seconds == 30 and RoomOptions().auto_accept_seconds == 3
    bounds = client.get("/api/options").json()["room"]
    assert bounds["auto_accept_seconds"] == [0, 120, 3] and bounds["more_time_seconds"] == [0, 300, 30]


# ---- More time


def test_more_time_adds_to_the_running_timer_once_a_hand(store: Store) -> None:
    r = a_room(store, {"players": 2, "seats": ["human"] * 2, "turn_seconds": 10})
    p = r.game.current_player
    assert p is not None
    other = 1 - p
    with pytest.raises(ProtocolError) as info:
        r.more_time(other)  # not their timer
    assert info.value.code == "no_clock"
    version = r.version
    r.more_time(p)
    assert r.version == version + 1  # the driver looks again, everyone sees the new countdown
    move = next_move(r)
    assert move is not None and 40 < move.delay <= 40 + LANDING_SECONDS
    assert r.table()["timer"]["seconds"] > 40 and r.table()["more_time"] == {
        "seconds": 30,
        "used": [p],
        "added": 30,
    }
    with pytest.raises(ProtocolError) as info:
        r.more_time(p)
    assert info.value.code == "more_time_used"
    # The next change of the game ends the extra seconds: the next timer is the room's again.
    r._game_changed([])  # what an action does once stored
    move = next_move(r)
    assert move is not None and move.delay <= 10 + LANDING_SECONDS
    assert r.table()["more_time"] == {"seconds": 30, "used": [p], "added": 0}


def test_more_time_needs_a_timer_and_the_rooms_leave(store: Store) -> None:
    untimed = a_room(store, {"players": 2, "seats": ["human"] * 2})
    p = untimed.game.current_player
    assert p is not None
    with pytest.raises(ProtocolError) as info:
        untimed.more_time(p)
    assert info.value.code == "no_clock"
    no_more = {"more_time_seconds": 0}
    none = a_room(store, {"players": 2, "seats": ["human"] * 2, "turn_seconds": 10, "room": no_more})
    with pytest.raises(ProtocolError) as info:
        none.more_time(p)
    assert info.value.code == "no_more_time"


def test_more_time_over_the_websocket(client: TestClient) -> None:
    code = make_room(client, {"players": 2, "seats": ["human"] * 2, "turn_seconds": 20, "bot_delay": 0})
    tokens = [join(client, code, name)[0] for name in ("Ana", "Ben")]
    with client.websocket_connect(f"/ws/{code}") as ws:
        m = hello(ws, tokens[0])
        p = m["table"]["timer"]["player"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        m = hello(ws, tokens[p])
        assert m["table"]["more_time"] == {"seconds": 30, "used": [], "added": 0}
        ws.send_json({"type": "more_time", "token": tokens[p]})
        m = ws.receive_json()
        assert m["type"] == "update" and m["table"]["more_time"]["used"] == [p]
        assert m["table"]["timer"]["seconds"] > 40
        ws.send_json({"type": "more_time", "token": tokens[p]})
        err = ws.receive_json()
        assert err["type"] == "error" and err["code"] == "more_time_used"
        assert "already had more time" in err["message"]
