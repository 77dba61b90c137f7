"""Seats that never stall, over the WebSocket and HTTP in process (issue 21): presence, the away
person played by a bot after the room's grace, rejoin from another device, the host's seat
controls, Harry Potter's answer window, reactions and chat, open rooms, "play now", the end of a
hand and replays with hands face up, the spectator's view."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from unotable.cards import CARD_CODE, INVISIBILITY
from unotable.engine import hand_points
from unotable.match import Game
from unotable.state import Phase
from unotable.views import view
from unotable.web.app import create_app
from unotable.web.client import choose
from unotable.web.driver import LANDING_SECONDS, next_move
from unotable.web.records import Secrets, StoredGame
from unotable.web.room import Room
from unotable.web.seats import Seat
from unotable.web.settings import parse_settings
from unotable.web.social import REACTIONS
from unotable.web.storage import Store

from .test_api import make_room, room

SEED = 20261201
WS = Any
"""A TestClient WebSocket session."""


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as c:
        yield c


def join(client: TestClient, code: str, name: str, **extra: Any) -> tuple[str, int]:
    r = client.post(f"/api/rooms/{code}/join", json={"name": name, **extra})
    assert r.status_code == 200, r.text
    return r.json()["token"], r.json()["player"]


def people(client: TestClient, n: int = 3, **room_options: Any) -> tuple[str, list[str]]:
    """A room of ``n`` people (Ana, Ben, Cleo...) with these room options; its code and tokens."""
    code = make_room(client, {"players": n, "seats": ["human"] * n, "bot_delay": 0, "room": room_options})
    names = ["Ana", "Ben", "Cleo", "Dan"][:n]
    return code, [join(client, code, name)[0] for name in names]


def hello(ws: WS, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    m: dict[str, Any] = ws.receive_json()
    assert m["type"] == "welcome", m
    return m


def pump(ws: WS, token: str, until: Callable[[dict[str, Any]], bool], limit: int = 3000) -> dict[str, Any]:
    """Read ``ws``'s messages, playing its seat (plays first, else draws), until one satisfies
    ``until``; that message."""
    rng = random.Random(1)
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if until(m):
            return m
        if m["type"] in ("welcome", "update") and m["table"]["status"] == "playing":
            if m["table"]["hand_over"]:
                ws.send_json({"type": "next_hand", "token": token})
                continue
            action = choose(m["view"], rng, forget=0.0, react=0.0)
            if action is not None:
                ws.send_json({"type": "act", "token": token, "action": action})
    raise AssertionError("the awaited message never came")


def wait(ws: WS, until: Callable[[dict[str, Any]], bool], limit: int = 500) -> dict[str, Any]:
    """The first of ``ws``'s next messages that satisfies ``until`` (the others skipped)."""
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if until(m):
            return m
    raise AssertionError("the awaited message never came")


def seat_of(m: dict[str, Any], player: int) -> dict[str, Any]:
    seat: dict[str, Any] = m["table"]["players"][player]
    return seat


# ---- presence and the away person


def test_presence_follows_connections_and_your_own_seat_is_never_offline(client: TestClient) -> None:
    code, tokens = people(client)
    with client.websocket_connect(f"/ws/{code}") as ana:
        m = hello(ana, tokens[0])
        assert seat_of(m, 0)["connected"] and seat_of(m, 0)["online"]  # in her own welcome
        assert not seat_of(m, 1)["connected"] and not seat_of(m, 1)["away"]
        with client.websocket_connect(f"/ws/{code}") as ben:
            hello(ben, tokens[1])
            m = ana.receive_json()
            assert m["type"] == "update" and seat_of(m, 1)["connected"] and m["events"] == []
        m = ana.receive_json()
        assert not seat_of(m, 1)["connected"] and not seat_of(m, 1)["away"]  # within the grace
    avatars = [seat_of(m, p)["avatar"] for p in range(3)]
    assert [a["initial"] for a in avatars] == ["A", "B", "C"]
    assert all(a["color"].startswith("#") and len(a["color"]) == 7 for a in avatars)


def test_an_absent_person_is_played_by_the_away_bot_after_the_grace_and_gets_the_seat_back(
    client: TestClient,
) -> None:
    code, tokens = people(client, 2, grace_seconds=0.2)
    r = room(client, code)
    with client.websocket_connect(f"/ws/{code}") as ana:
        hello(ana, tokens[0])

        def ben_played_away(m: dict[str, Any]) -> bool:
            if m["type"] != "update" or not seat_of(m, 1)["away"]:
                return False
            ben_seat = m["table"]["seating"].index(1)
            return any(e.get("seat") == ben_seat and e["kind"] in ("play", "draw") for e in m["events"])

        m = pump(ana, tokens[0], ben_played_away)
        assert seat_of(m, 1)["away_bot"] == "greedy" and not seat_of(m, 1)["connected"]
        assert seat_of(m, 0)["away"] is False
        with client.websocket_connect(f"/ws/{code}") as ben:
            welcome = hello(ben, tokens[1])
            assert not seat_of(welcome, 1)["away"] and seat_of(welcome, 1)["connected"]
            assert welcome["view"]["seat"] == welcome["seat"] and welcome["view"]["hand"]  # his hand back
            # Ana plays on until it is Ben's turn: then nobody plays for him.
            m = pump(
                ana,
                tokens[0],
                lambda m: (
                    (m["type"] == "update" and m["table"]["status"] != "playing")
                    or (
                        m["type"] == "update"
                        and m["view"]["current"] == m["table"]["seating"].index(1)
                        and not m["table"]["hand_over"]
                    )
                ),
            )
            if m["table"]["status"] == "playing":
                assert not seat_of(m, 1)["away"]
                assert client.portal.call(next_move, r) is None  # type: ignore[union-attr]


def test_nobody_is_played_for_while_nobody_waits(client: TestClient) -> None:
    """Away bots play only while another person is connected: an empty table does not play on."""
    code, _ = people(client, 2, grace_seconds=0)
    r = room(client, code)
    assert not r.is_away(0) and not r.is_away(1)
    assert client.portal.call(next_move, r) is None  # type: ignore[union-attr]


# ---- rejoin from another device


def test_a_welcome_after_the_qr_code_still_carries_the_keys_only(client: TestClient) -> None:
    """The QR code asked for on one device never rides along in a later welcome (it is 4-8 kB;
    only ``qr`` answers carry it)."""
    code, tokens = people(client)
    with client.websocket_connect(f"/ws/{code}") as first:
        hello(first, tokens[0])
        first.send_json({"type": "qr", "token": tokens[0]})
        svg = first.receive_json()["qr_svg"]
        with client.websocket_connect(f"/ws/{code}") as second:
            assert set(hello(second, tokens[0])["rejoin"]) == {"url", "link", "code"}
            second.send_json({"type": "qr", "token": tokens[0]})
            assert second.receive_json()["qr_svg"] == svg  # made once per token


def test_a_rejoin_code_takes_the_seat_back_and_retires_the_old_token(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as c:
        code, tokens = people(c)
        with c.websocket_connect(f"/ws/{code}") as old, c.websocket_connect(f"/ws/{code}") as watcher:
            welcome = hello(old, tokens[0])
            keys = welcome["rejoin"]
            assert set(keys) == {"url", "link", "code"}  # the QR code only when asked for
            assert keys["url"].startswith(f"/r/{code}?rejoin=") and keys["link"].endswith(keys["url"])
            assert keys["link"].startswith("http://testserver/")
            assert len(keys["code"]) == 9 and keys["code"][4] == "-"
            old.send_json({"type": "qr", "token": tokens[0]})
            qr = old.receive_json()
            assert qr["type"] == "qr" and set(qr) == {"type", "qr_svg"}
            assert qr["qr_svg"].startswith("<svg") and "<script" not in qr["qr_svg"]
            spectator = hello(watcher, None)
            assert "rejoin" not in spectator
            watcher.send_json(
                {"type": "qr", "token": tokens[0]}
            )  # a seat's token on a spectator's connection
            assert watcher.receive_json()["code"] == "spectator"
            # (a spectator coming shows nothing new on the table: the seats hear nothing of it)
            # A second device types the short code, in any case and spacing.
            typed = keys["code"].lower().replace("-", " ")
            r = c.post(f"/api/rooms/{code}/rejoin", json={"code": typed})
            assert r.status_code == 200, r.text
            new_token = r.json()["token"]
            assert r.json()["player"] == 0 and new_token != tokens[0]
            retired = old.receive_json()
            assert retired["type"] == "retired" and retired["reason"] == "rejoined"
            assert "another device" in retired["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                old.receive_json()
            assert closed.value.code == 4001
            assert "rejoin" not in watcher.receive_json()  # the table again, never the keys
        for body in ({"code": keys["code"]}, {"secret": keys["url"].split("=", 1)[1]}):
            r = c.post(f"/api/rooms/{code}/rejoin", json=body)
            assert r.status_code == 403 and r.json()["error"] == "bad_rejoin"
        for body in ({}, {"code": "x", "secret": "y"}, {"code": 3}, {"pin": "1"}):
            assert c.post(f"/api/rooms/{code}/rejoin", json=body).status_code == 400
        with c.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0]})
            assert ws.receive_json()["code"] == "bad_token"
        with c.websocket_connect(f"/ws/{code}") as ws:
            fresh = hello(ws, new_token)["rejoin"]
            assert fresh["code"] != keys["code"] and fresh["url"] != keys["url"]
    # After a restart: the new keys still open the seat (the database keeps their hashes).
    with TestClient(create_app(sqlite_url)) as c:
        secret = fresh["url"].split("=", 1)[1]
        r = c.post(f"/api/rooms/{code}/rejoin", json={"secret": secret})
        assert r.status_code == 200 and r.json()["player"] == 0


def test_a_seat_taken_before_rejoin_keys_existed_gets_them_at_its_next_hello(client: TestClient) -> None:
    code, tokens = people(client)
    r = room(client, code)
    old = r.seats[0]
    assert old.token_hash is not None
    r.store.replace_secrets(code, 0, old.token_hash, Secrets(old.token_hash))  # as migrated from 0001
    old.rejoin_hash = old.code_hash = None
    with client.websocket_connect(f"/ws/{code}") as ws:
        keys = hello(ws, tokens[0])["rejoin"]
    assert r.seats[0].rejoin_hash is not None
    answer = client.post(f"/api/rooms/{code}/rejoin", json={"code": keys["code"]})
    assert answer.status_code == 200 and answer.json()["player"] == 0


def test_the_rejoin_link_uses_the_public_url_when_given(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, public_url="http://192.168.1.20:8000/")) as c:
        code, tokens = people(c)
        with c.websocket_connect(f"/ws/{code}") as ws:
            keys = hello(ws, tokens[1])["rejoin"]
    assert keys["link"] == "http://192.168.1.20:8000" + keys["url"]


# ---- the host's controls


def test_the_host_frees_a_seat_or_gives_it_to_a_bot_and_others_cannot(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as c:
        code, tokens = people(c)
        with (
            c.websocket_connect(f"/ws/{code}") as ana,
            c.websocket_connect(f"/ws/{code}") as ben,
            c.websocket_connect(f"/ws/{code}") as cleo,
        ):
            m = hello(ana, tokens[0])
            assert m["table"]["host"] == 0 and seat_of(m, 0)["host"] and not seat_of(m, 1)["host"]
            hello(ben, tokens[1])
            hello(cleo, tokens[2])
            ana.receive_json(), ana.receive_json(), ben.receive_json()  # the others came
            for ws, message, error in (
                (ben, {"type": "free_seat", "token": tokens[1], "player": 2}, "not_host"),
                (ben, {"type": "seat_bot", "token": tokens[1], "player": 2, "bot": "greedy"}, "not_host"),
                (ana, {"type": "free_seat", "token": tokens[0], "player": 0}, "host_self"),
                (ana, {"type": "free_seat", "token": tokens[0], "player": 9}, "no_seat"),
                (ana, {"type": "seat_bot", "token": tokens[0], "player": 2, "bot": "robot"}, "bad_bot"),
                (
                    ana,
                    {"type": "seat_bot", "token": tokens[0], "player": 2, "bot": "learned:weights=/x"},
                    "bad_bot",
                ),
                (ana, {"type": "free_seat", "token": tokens[1], "player": 2}, "wrong_token"),
                (ana, {"type": "seat_bot", "token": tokens[0], "player": 2}, "bad_message"),
            ):
                ws.send_json(message)
                assert ws.receive_json()["code"] == error, message
            r = room(c, code)
            p = r.game.current_player
            assert p is not None
            c.portal.call(r.act, p, r.game.legal_actions(p)[0])  # type: ignore[union-attr]
            for ws in (ana, ben, cleo):  # play has started
                assert ws.receive_json()["seq"] == 1
            ana.send_json({"type": "seat_bot", "token": tokens[0], "player": 2, "bot": "cautious"})
            retired = cleo.receive_json()
            assert retired["type"] == "retired" and retired["reason"] == "bot"
            m = wait(ana, lambda m: seat_of(m, 2)["bot"] is not None)
            assert seat_of(m, 2)["bot"] == "cautious" and seat_of(m, 2)["name"] is None
            ana.send_json({"type": "free_seat", "token": tokens[0], "player": 1})
            retired = wait(ben, lambda m: m["type"] == "retired")
            assert retired["reason"] == "freed"
            m = wait(ana, lambda m: m["type"] == "update" and seat_of(m, 1)["free"])
            assert m["table"]["status"] == "playing"
            assert seat_of(m, 1)["away"] and seat_of(m, 1)["away_bot"] == "greedy"  # nobody sits there
            _, player = join(c, code, "Dan")
            assert player == 1
            m = wait(ana, lambda m: m["type"] == "update" and seat_of(m, 1)["name"] == "Dan")
            assert not seat_of(m, 1)["away"]
        with c.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": tokens[2]})
            assert ws.receive_json()["code"] == "bad_token"
    with TestClient(create_app(sqlite_url)) as c:
        info = c.get(f"/api/rooms/{code}").json()
        assert [p["name"] or p["bot"] for p in info["players"]] == ["Ana", "Dan", "cautious"]
        assert info["host"] == 0 and info["settings"]["room"]["away_bot"] == "greedy"


# ---- Harry Potter's answer window


def test_the_answer_window_is_the_same_with_or_without_invisibility(tmp_path: Path) -> None:
    """An action card played on a person whose answers are Accept (and perhaps Invisibility):
    the server accepts after the room's fixed pause either way (P-342)."""
    store = Store(f"sqlite:///{tmp_path / 'u.db'}")
    settings = parse_settings(
        {
            "edition": "harry-potter",
            "players": 3,
            "seats": ["human"] * 3,
            "room": {"auto_accept_seconds": 2.5},
        }
    )
    seen: dict[bool, int] = {True: 0, False: 0}
    for seed in range(40):
        stored = StoredGame(0, 0, settings.rules.to_dict(), 3, 1, seed, False, ())
        seats = [Seat(p, None, name, f"{p}" * 64) for p, name in enumerate(("Ana", "Ben", "Cleo"))]
        r = Room(store, "TEST01", settings, seats, stored)
        rng = random.Random(seed)
        while not r.game.hand_over:
            p = r.game.current_player
            assert p is not None
            v = r.game.view(p)
            answers = {a.split(" ")[0] for a in v.legal_actions} - {"uno", "catch", "wrong", "penalize"}
            if v.phase == Phase.RESPOND and answers <= {"accept", "invisibility"}:
                move = next_move(r)
                assert move is not None and move.player == p and move.action == "accept"
                assert move.pause == 2.5 and 0 <= move.delay <= 2.5 + LANDING_SECONDS
                assert r.table()["answer"]["player"] == p
                seen[INVISIBILITY in v.hand] += 1
            elif v.phase == Phase.RESPOND:
                assert next_move(r) is None  # a challenge to weigh: no window (no timer here)
                assert r.table()["answer"] is None
            actors = r.game.actors()
            actor = rng.choice(actors)
            r.game.apply(actor, rng.choice(r.game.legal_actions(actor)))
    store.close()
    assert seen[True] > 0 and seen[False] > 0, seen


def test_the_server_accepts_for_a_person_after_the_pause(client: TestClient) -> None:
    """Over the WebSocket: Ben plays his turns but never answers an action card played on him;
    the server accepts it for him after the pause."""
    code = make_room(
        client,
        {
            "edition": "harry-potter",
            "players": 2,
            "seats": ["human", "human"],
            "bot_delay": 0,
            "room": {"auto_accept_seconds": 0.1},
        },
    )
    tokens = [join(client, code, name)[0] for name in ("Ana", "Ben")]
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{code}") as ana, client.websocket_connect(f"/ws/{code}") as ben:
        hello(ana, tokens[0])
        mb = hello(ben, tokens[1])
        ma = ana.receive_json()  # the table again: Ben came
        for _ in range(3000):
            assert ma["seq"] == mb["seq"]
            if any(e["kind"] == "accept" and e.get("seat") == mb["seat"] for e in mb["events"]):
                assert mb["table"]["answer"] is None
                return
            assert ma["table"]["status"] == "playing"
            if ma["table"]["hand_over"]:
                ana.send_json({"type": "next_hand", "token": tokens[0]})
            for ws, m, token in ((ana, ma, tokens[0]), (ben, mb, tokens[1])):
                v = m["view"]
                if ma["table"]["hand_over"] or v["current"] != v["seat"]:
                    continue
                if ws is ben and m["table"]["answer"] is not None:
                    assert m["table"]["answer"]["player"] == 1 and v["phase"] == "respond"
                    continue  # Ben waits: the server answers
                action = choose(v, rng, forget=0.0, react=0.0)
                assert action is not None
                ws.send_json({"type": "act", "token": token, "action": action})
            ma, mb = ana.receive_json(), ben.receive_json()  # every update reaches both
    raise AssertionError("no action card was played on Ben")


# ---- reactions and chat


def test_reactions_reach_everyone_within_bounds(client: TestClient) -> None:
    code, tokens = people(client, spectator_reactions=False)
    with client.websocket_connect(f"/ws/{code}") as ana, client.websocket_connect(f"/ws/{code}") as watcher:
        hello(ana, tokens[0])
        hello(watcher, None)  # a spectator shows nothing new on the table: Ana hears nothing of it
        ana.send_json({"type": "react", "token": tokens[0], "reaction": "gg"})
        for ws in (ana, watcher):
            assert ws.receive_json() == {"type": "reaction", "player": 0, "reaction": "gg"}
        ana.send_json({"type": "react", "token": tokens[0], "reaction": "<b>hi</b>"})
        assert ana.receive_json()["code"] == "bad_reaction"
        watcher.send_json({"type": "react", "token": None, "reaction": "wow"})
        assert watcher.receive_json()["code"] == "no_spectator_reactions"
        watcher.send_json({"type": "react", "token": tokens[0], "reaction": "wow"})
        assert watcher.receive_json()["code"] == "spectator"
        codes = []
        for _ in range(6):  # 3 at once, then 1 a second
            ana.send_json({"type": "react", "token": tokens[0], "reaction": "clap"})
            codes.append(ana.receive_json().get("code"))
        assert "slow_down" in codes and codes.count(None) <= 3


def test_spectators_react_when_the_room_allows_it(client: TestClient) -> None:
    code, _ = people(client, spectator_reactions=True)
    with client.websocket_connect(f"/ws/{code}") as watcher:
        hello(watcher, None)
        watcher.send_json({"type": "react", "token": None, "reaction": REACTIONS[0]})
        assert watcher.receive_json() == {"type": "reaction", "player": None, "reaction": REACTIONS[0]}


def test_chat_is_off_unless_allowed_then_bounded_rate_limited_and_plain_text(client: TestClient) -> None:
    code, tokens = people(client)
    with client.websocket_connect(f"/ws/{code}") as ana:
        hello(ana, tokens[0])
        ana.send_json({"type": "chat", "token": tokens[0], "text": "hello"})
        assert ana.receive_json()["code"] == "chat_off"
    code, tokens = people(client, chat=True)
    with client.websocket_connect(f"/ws/{code}") as ana, client.websocket_connect(f"/ws/{code}") as watcher:
        hello(ana, tokens[0])
        hello(watcher, None)  # (Ana hears nothing of it: the table shows nothing new)
        text = "<img src=x onerror=alert(1)>  well   played"
        ana.send_json({"type": "chat", "token": tokens[0], "text": text})
        for ws in (ana, watcher):
            m = ws.receive_json()
            assert m["type"] == "chat" and m["player"] == 0 and m["name"] == "Ana"
            assert m["text"] == "<img src=x onerror=alert(1)> well played"  # text, spaces collapsed
        for bad in ("x" * 121, "   ", "bell\u0007"):
            ana.send_json({"type": "chat", "token": tokens[0], "text": bad})
            assert ana.receive_json()["code"] in ("bad_chat", "bad_message"), bad
        watcher.send_json({"type": "chat", "token": None, "text": "hi"})
        assert watcher.receive_json()["code"] == "bad_message"  # a spectator has no token to chat with
        codes = []
        for i in range(5):
            ana.send_json({"type": "chat", "token": tokens[0], "text": f"line {i}"})
            codes.append(ana.receive_json().get("code"))
        assert codes.count("slow_down") >= 2
        with client.websocket_connect(f"/ws/{code}") as late:
            history = hello(late, tokens[1])["chat"]
            assert history[0]["text"] == "<img src=x onerror=alert(1)> well played"
            assert len(history) == 1 + codes.count(None)


# ---- open rooms and "play now"


def test_listed_rooms_waiting_for_players_are_listed(client: TestClient) -> None:
    listed = make_room(
        client, {"players": 3, "seats": ["human", "human", "greedy"], "room": {"listed": True}}
    )
    hidden = make_room(client, {"players": 3, "seats": ["human", "human", "greedy"]})
    join(client, listed, "Ana")
    rooms = client.get("/api/rooms?open=1").json()["rooms"]
    assert [r["code"] for r in rooms] == [listed]
    assert rooms[0] == {
        "code": listed,
        "url": f"/r/{listed}",
        "edition": "classic",
        "title": rooms[0]["title"],
        "mode": "solo",
        "players": 3,
        "free_seats": 1,
        "host": "Ana",
        "created": rooms[0]["created"],
    }
    assert rooms[0]["created"].endswith("Z") and hidden not in str(rooms)
    join(client, listed, "Ben")
    deadline = time.monotonic() + 10  # the list is read again at most once a second
    while client.get("/api/rooms?open=1").json()["rooms"] != []:  # full now
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_play_now_seats_you_with_three_greedy_bots(client: TestClient) -> None:
    r = client.post("/api/play-now", json={"name": "Ana", "color": "#1D4ED8"})
    assert r.status_code == 201, r.text
    data = r.json()
    assert data["player"] == 0 and data["url"] == f"/r/{data['code']}"
    with client.websocket_connect(f"/ws/{data['code']}") as ws:
        m = hello(ws, data["token"])
        assert m["table"]["status"] == "playing" and m["you"] == 0
        assert [p["bot"] for p in m["table"]["players"]] == [None, "greedy", "greedy", "greedy"]
        assert seat_of(m, 0)["avatar"] == {"color": "#1d4ed8", "initial": "A"}
    for body in ({"name": ""}, {"name": "Ana", "color": "red"}, {"name": "Ana", "seats": 3}):
        assert client.post("/api/play-now", json=body).status_code == 400, body
    assert client.post("/api/play-now", json={"name": "Ana", "edition": "cars2"}).status_code == 201


# ---- the end of a hand, replays and the spectator's view


def test_the_end_of_a_hand_lays_every_hand_face_up_with_the_scores_hand_by_hand(client: TestClient) -> None:
    code = make_room(
        client, {"players": 3, "seats": ["greedy", "random", "cautious"], "bot_delay": 0, "target": 60}
    )
    r = room(client, code)
    with client.websocket_connect(f"/ws/{code}") as ws:
        m = hello(ws, None)
        rows_seen = 0
        for _ in range(20000):
            m = ws.receive_json()
            table = m["table"]
            if table["hand_over"]:
                last = table["last_hand"]
                result = r.game.results[table["hand"]]
                points = hand_points(result.state)
                assert [{k: v for k, v in h.items() if k != "by"} for h in last["hands"]] == [
                    {
                        "player": p,
                        "seat": s,
                        "cards": [CARD_CODE[c] for c in result.state.hands[s]],
                        "points": points[s],
                    }
                    for s, p in enumerate(result.deal.seating)
                ]
                assert table["score_rows"] == [list(x.credit) for x in r.game.results[: table["hand"] + 1]]
                rows_seen = len(table["score_rows"])
            else:
                assert table["last_hand"] is None
            assert m["view"] == view(r.game.state, None).to_dict() or m["seq"] != r.seq
            if table["status"] == "finished":
                break
    assert rows_seen >= 1
    steps = client.get(f"/api/rooms/{code}/games/0").json()["steps"]
    final = steps[-1]
    assert final["score_rows"] == [list(x.credit) for x in r.game.results]
    assert final["hands"] == [[CARD_CODE[c] for c in h] for h in r.game.state.hands]
    assert all(len(s["hands"]) == 3 for s in steps)
    first = Game.new(r.settings.rules, SEED, players=3)
    assert steps[0]["hands"] == [[CARD_CODE[c] for c in h] for h in first.state.hands]
    assert steps[0]["view"] == view(first.state, None).to_dict()


def test_the_options_offer_the_room_options(client: TestClient) -> None:
    data = client.get("/api/options").json()
    assert data["room"]["grace_seconds"] == [0.0, 600.0, 20.0]
    assert data["reactions"] == list(REACTIONS) and data["chat_max"] == 120
    assert len(data["colors"]) >= 8


@pytest.mark.parametrize(
    ("room_options", "fragment"),
    [
        ({"grace": 3}, "unknown room option 'grace'"),
        ({"grace_seconds": -1}, "grace_seconds must be from 0 to 600"),
        ({"auto_accept_seconds": True}, "auto_accept_seconds"),
        ({"chat": "yes"}, "chat must be true or false"),
        ({"away_bot": "learned:weights=/etc/passwd"}, "'weights' is not offered"),
        ([1], "room must be an object"),
    ],
)
def test_bad_room_options_are_refused(client: TestClient, room_options: Any, fragment: str) -> None:
    r = client.post("/api/rooms", json={"players": 3, "seats": ["human"] * 3, "room": room_options})
    assert r.status_code == 400 and fragment in r.json()["message"], r.text


def test_a_stored_room_of_before_reads_as_the_defaults() -> None:
    from unotable.web.settings import RoomOptions, RoomSettings  # noqa: PLC0415

    settings = parse_settings({"players": 3, "seats": ["human"] * 3}).to_dict()
    del settings["room"]
    assert RoomSettings.from_dict(settings).room == RoomOptions()
    assert time.monotonic() > 0
