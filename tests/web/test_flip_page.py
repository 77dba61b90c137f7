"""UNO Flip on the page (issue 36, docs/web.md "UNO Flip"): what the server sends a Flip room's
seats and spectators over the WebSocket, and the form's settings. The rendering is
test_browser_flip.py's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from unotable.cards import CARD_CODE
from unotable.web.app import create_app
from unotable.web.settings import SettingsError, parse_settings

from .test_api import hub, join, make_room

FLIP_SEED = 108
"""UNO Flip, three players: Ana (player 0) plays first and holds a green Flip (GF) that plays."""


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: FLIP_SEED)) as c:
        yield c


def flip_room(client: TestClient) -> tuple[str, list[str]]:
    code = make_room(client, {"edition": "flip", "players": 3, "seats": ["human"] * 3, "bot_delay": 0})
    return code, [join(client, code, name)[0] for name in ("Ana", "Ben", "Cleo")]


def true_faces(client: TestClient, code: str) -> tuple[list[list[str]], list[str]]:
    """The true game's other faces: per seat, sorted (as a view sorts them), and the draw pile's."""
    room = client.portal.call(hub(client).get, code)  # type: ignore[union-attr]
    assert room is not None and room.game is not None
    st = room.game.state
    assert st.backs is not None
    return [[CARD_CODE[c] for c in sorted(st.backs[s])] for s in range(st.n)], [
        CARD_CODE[c] for c in st.backs[st.n]
    ]


def test_the_form_offers_flip_with_its_house_rules() -> None:
    """The page no longer refuses UNO Flip; its house rules are the engine's (FL-11), and a bad
    one is still refused with a clear error."""
    seats = ["human", "greedy", "greedy"]
    settings = parse_settings({"edition": "flip", "players": 3, "seats": seats, "bot_delay": 0})
    assert settings.rules.edition.name == "flip"
    party = parse_settings(
        {"edition": "flip", "players": 3, "seats": seats, "bot_delay": 0, "house": "party"}
    )
    assert party.rules.seven_zero and party.rules.stacking
    with pytest.raises(SettingsError, match="stacking"):
        parse_settings({"edition": "flip", "players": 3, "seats": seats, "house": {"stacking": "sideways"}})


def test_the_options_describe_flip(client: TestClient) -> None:
    """The form's edition list has UNO Flip, with its notes (the page translates them)."""
    data = client.get("/api/options").json()
    assert data["editions"]["flip"] == "UNO Flip"
    assert any("pink, teal, orange and purple" in note for note in data["edition_notes"]["flip"])
    assert set(data["edition_notes"]) == set(data["editions"])


def test_each_seat_sees_the_faces_turned_to_it_and_a_spectator_none(client: TestClient) -> None:
    """FL-2 over the wire: Ana's welcome has the side up, the draw pile's other face and the
    other faces of Ben's and Cleo's cards (the true ones), never of her own; a spectator's has
    the side and the draw pile's other face only. Ana's Flip turns everything over: the update
    says the dark side is up, narrates the flip, and Ben now sees Ana's light faces."""
    code, tokens = flip_room(client)
    faces, draw = true_faces(client, code)
    with (
        client.websocket_connect(f"/ws/{code}") as ana,
        client.websocket_connect(f"/ws/{code}") as ben,
        client.websocket_connect(f"/ws/{code}") as watcher,
    ):
        ana.send_json({"type": "hello", "token": tokens[0]})
        welcome = ana.receive_json()
        view = welcome["view"]
        assert view["side"] == "light" and view["draw_top_other"] == draw[-1]
        assert view["other_faces"] == {"1": faces[1], "2": faces[2]}
        assert "GF" in view["hand"] and "play GF" in view["legal"]
        watcher.send_json({"type": "hello", "token": None})
        seen = watcher.receive_json()["view"]
        assert seen["side"] == "light" and seen["draw_top_other"] == draw[-1] and seen["other_faces"] == {}
        ben.send_json({"type": "hello", "token": tokens[1]})
        assert ben.receive_json()["view"]["other_faces"] == {"0": faces[0], "2": faces[2]}
        assert ana.receive_json()["type"] == "update"  # Ben came in
        assert watcher.receive_json()["type"] == "update"
        hand = view["hand"]
        ana.send_json({"type": "act", "token": tokens[0], "action": "play GF"})
        update = next_update(ana, welcome["seq"])
        assert update["view"]["side"] == "dark"
        assert {"kind": "flip", "seat": 0, "reason": "dark"} in update["events"]
        now, _ = true_faces(client, code)
        ana_light = [c for c in hand if c != "GF"]
        assert (
            sorted(next_update(ben, welcome["seq"])["view"]["other_faces"]["0"])
            == sorted(ana_light)
            == sorted(now[0])
        )
        assert next_update(watcher, welcome["seq"])["view"]["other_faces"] == {}
        assert all(c[0] in "PTOVD" for c in update["view"]["hand"])  # her dark faces now


def next_update(ws: Any, after: int) -> dict[str, Any]:
    """The next update of a seq past ``after`` (others only say who came in)."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == "update" and m["seq"] > after:
            return m
