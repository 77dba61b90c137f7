"""Seats with a history and seats asked back (issue 34 item 4): who sat in a seat from which hand
(the table, the hands laid face up, the replay, after a restart), an away person's seat asked
back through the host, and the bad asks refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from unotable.web.app import create_app
from unotable.web.records import StoredOccupant
from unotable.web.seats import seat_history, stints_of

from .test_api import make_room
from .test_api_seats import SEED, hello, join, people, pump, seat_of, wait


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as c:
        yield c


def test_seat_history_counts_hands_from_the_log() -> None:
    # hand 0 is rows 0-9, hand 1 rows 10-19, hand 2 from row 20 (in play)
    ends = [10, 20]
    bot, dan, eve = (0, None, "greedy"), (10, "Dan", None), (15, "Eve", None)
    assert seat_history([bot, dan], ends, 3, False) == [
        {"name": None, "bot": "greedy", "from_hand": 0, "to_hand": 0},
        {"name": "Dan", "bot": None, "from_hand": 1, "to_hand": None},
    ]
    # Eve took over during hand 1: both played it
    assert seat_history([bot, dan, eve], ends, 3, True) == [
        {"name": None, "bot": "greedy", "from_hand": 0, "to_hand": 0},
        {"name": "Dan", "bot": None, "from_hand": 1, "to_hand": 1},
        {"name": "Eve", "bot": None, "from_hand": 1, "to_hand": 2},
    ]
    # sat down after the last hand ended: from the next hand
    assert seat_history([bot, (20, "Dan", None)], ends, 2, False)[1] == {
        "name": "Dan",
        "bot": None,
        "from_hand": 2,
        "to_hand": None,
    }


def test_stints_carry_into_the_next_game_and_a_seat_replaced_at_once_keeps_the_last() -> None:
    rows = [
        StoredOccupant(1, 0, 0, None, "random"),
        StoredOccupant(0, 0, 0, "Ana", None),
        StoredOccupant(1, 0, 30, None, None),  # freed...
        StoredOccupant(1, 0, 30, "Dan", None),  # ...and taken before anyone played
        StoredOccupant(1, 1, 12, None, "greedy"),
    ]
    assert stints_of(rows, 1, 0) == [(0, None, "random"), (30, "Dan", None)]
    assert stints_of(rows, 1, 1) == [(0, "Dan", None), (12, None, "greedy")]  # the rematch
    assert stints_of(rows, 0, 2) == [(0, "Ana", None)]
    assert stints_of(rows, 2, 0) == []


def test_a_newcomer_in_a_bots_seat_is_named_only_for_what_they_played(db_url: str) -> None:
    settings = {"players": 3, "seats": ["human", "random", "greedy"], "bot_delay": 0, "target": 150}
    settings["room"] = {"grace_seconds": 0}
    with TestClient(create_app(db_url, seeds=lambda: SEED, rate=1000.0)) as client:
        code = make_room(client, settings)
        ana = join(client, code, "Ana")[0]
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, ana)
            m = pump(ws, ana, lambda m: m["type"] == "update" and m["table"]["hand_over"])
            assert m["table"]["hand"] == 0 and m["table"]["status"] == "playing"
            points = m["table"]["standings"]["scores"][1]
            ws.send_json({"type": "free_seat", "token": ana, "player": 1})
            wait(ws, lambda m: m["type"] == "update" and seat_of(m, 1)["free"])
            join(client, code, "Dan", player=1)  # never connects: the away bot plays for him
            m = wait(ws, lambda m: m["type"] == "update" and seat_of(m, 1)["name"] == "Dan")
            assert seat_of(m, 1)["sat"] == [
                {"name": None, "bot": "random", "from_hand": 0, "to_hand": 0},
                {"name": "Dan", "bot": None, "from_hand": 1, "to_hand": None},
            ]
            # the hand laid face up is still the bot's, not Dan's
            (mine,) = [h for h in m["table"]["last_hand"]["hands"] if h["player"] == 1]
            assert mine["by"] == [{"name": None, "bot": "random"}]
            assert m["table"]["standings"]["scores"][1] == points  # the seat's score goes on
            joined_at = m["seq"]
            ws.send_json({"type": "next_hand", "token": ana})
            m = pump(ws, ana, lambda m: m["type"] == "update" and m["table"]["status"] == "finished")
        last = m["table"]["hand"]
        assert last >= 1
        sat = [
            {"name": None, "bot": "random", "from_hand": 0, "to_hand": 0},
            {"name": "Dan", "bot": None, "from_hand": 1, "to_hand": last},
        ]
        assert seat_of(m, 1)["sat"] == sat
        (mine,) = [h for h in m["table"]["last_hand"]["hands"] if h["player"] == 1]
        assert mine["by"] == [{"name": "Dan", "bot": None}]
        page = client.get(f"/api/rooms/{code}/games/0").json()
        assert page["players"][1]["sat"] == [
            {"name": None, "bot": "random", "step": 0},
            {"name": "Dan", "bot": None, "step": joined_at + 1},
        ]
        assert page["players"][0]["sat"] == [{"name": "Ana", "bot": None, "step": 0}]
        steps = page["steps"]
        if page["next"] is None:  # the step Dan's stint begins is the next hand's deal
            assert steps[joined_at]["hand"] == 0 and steps[joined_at + 1]["hand"] == 1
    with TestClient(create_app(db_url, seeds=lambda: SEED)) as again:  # after a restart
        info = again.get(f"/api/rooms/{code}").json()
        assert info["players"][1]["sat"] == sat


def _ask_room(client: TestClient) -> tuple[str, list[str]]:
    """Ana (the host) and Ben, whose connection is gone (grace 0: away at once)."""
    return people(client, 2, grace_seconds=0)


def test_an_away_seat_is_asked_back_and_the_host_gives_it(client: TestClient) -> None:
    code, (ana, ben) = _ask_room(client)
    with client.websocket_connect(f"/ws/{code}") as host, client.websocket_connect(f"/ws/{code}") as phone:
        m = hello(host, ana)
        assert seat_of(m, 1)["absent"] and not seat_of(m, 0)["absent"]
        hello(phone, None)
        phone.send_json({"type": "ask_seat", "player": 1, "name": "Ben"})
        ask = wait(host, lambda m: m["type"] == "seat_ask")
        assert ask == {"type": "seat_ask", "ask": ask["ask"], "player": 1, "name": "Ben"}  # no token, no hand
        host.send_json({"type": "answer_ask", "token": ana, "ask": ask["ask"], "give": True})
        given = wait(phone, lambda m: m["type"] == "ask_answer")
        assert given["reason"] == "given" and given["player"] == 1
        token = given["token"]
        assert token and token != ben
        host.send_json({"type": "answer_ask", "token": ana, "ask": ask["ask"], "give": True})
        assert wait(host, lambda m: m["type"] == "error")["code"] == "no_ask"  # answered already
    with client.websocket_connect(f"/ws/{code}") as old:
        old.send_json({"type": "hello", "token": ben})
        assert old.receive_json()["code"] == "bad_token"  # the old token is revoked
    with client.websocket_connect(f"/ws/{code}") as new:
        assert hello(new, token)["you"] == 1


def test_the_host_refuses_and_bad_asks_are_refused_clearly(client: TestClient) -> None:
    code, (ana, ben) = _ask_room(client)

    def refused(ws: Any, message: dict[str, Any]) -> str:
        ws.send_json(message)
        m = wait(ws, lambda m: m["type"] in ("error", "ask_answer"))
        assert m["type"] == "error", m
        code: str = m["code"]
        return code

    with client.websocket_connect(f"/ws/{code}") as phone:
        hello(phone, None)
        assert refused(phone, {"type": "ask_seat", "player": 1, "name": "Ben"}) == "host_away"
        with client.websocket_connect(f"/ws/{code}") as host:
            hello(host, ana)
            assert refused(phone, {"type": "ask_seat", "player": 0, "name": "Ana"}) == "not_away"
            assert refused(phone, {"type": "ask_seat", "player": 7, "name": "Ben"}) == "no_seat"
            assert refused(phone, {"type": "ask_seat", "player": 1, "name": " "}) == "bad_name"
            assert refused(phone, {"type": "ask_seat", "player": "1", "name": "Ben"}) == "bad_message"
            assert refused(host, {"type": "ask_seat", "player": 1, "name": "Ana"}) == "wrong_token"
            assert refused(host, {"type": "ask_seat", "token": ana, "player": 1, "name": "Ana"}) == "seated"
            phone.send_json({"type": "ask_seat", "player": 1, "name": "Ben"})
            ask = wait(host, lambda m: m["type"] == "seat_ask")
            assert refused(phone, {"type": "ask_seat", "player": 1, "name": "Ben"}) == "ask_pending"
            no = {"type": "answer_ask", "token": ana, "ask": ask["ask"], "give": "no"}
            assert refused(host, no) == "bad_message"
            assert refused(phone, {**no, "give": False}) == "spectator"
            host.send_json({**no, "give": False})
            answer = wait(phone, lambda m: m["type"] == "ask_answer")
            assert answer == {"type": "ask_answer", "player": 1, "reason": "refused"}
            # asked again at once: too fast from this address
            assert refused(phone, {"type": "ask_seat", "player": 1, "name": "Ben"}) == "slow_down"
    with client.websocket_connect(f"/ws/{code}") as back:
        assert hello(back, ben)["you"] == 1  # refused: Ben's token still works


def test_an_ask_ends_when_the_person_comes_back(client: TestClient) -> None:
    code, (ana, ben) = _ask_room(client)
    with client.websocket_connect(f"/ws/{code}") as host, client.websocket_connect(f"/ws/{code}") as phone:
        hello(host, ana)
        hello(phone, None)
        phone.send_json({"type": "ask_seat", "player": 1, "name": "Ben"})
        ask = wait(host, lambda m: m["type"] == "seat_ask")
        with client.websocket_connect(f"/ws/{code}") as laptop:
            hello(laptop, ben)
            assert wait(phone, lambda m: m["type"] == "ask_answer")["reason"] == "back"
            host.send_json({"type": "answer_ask", "token": ana, "ask": ask["ask"], "give": True})
            assert wait(host, lambda m: m["type"] == "error")["code"] == "no_ask"
