"""Hidden information over the real WebSocket: whole games played by clients of two seats, bots in
the others, a spectator watching; then every message each of them got is checked against the
core, replayed from the stored log: its view is exactly the core's ``view`` of its seat (the
spectator's: the core's view of nobody, no hand), its events exactly the events redacted for its
seat (the spectator's: as nobody in particular sees them), and no draw by another seat names a
card."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from websockets.asyncio.client import connect

from unotable.cards import CARD_CODE
from unotable.events import Event
from unotable.match import Game
from unotable.views import public_event, view
from unotable.web.client import SeatClient, http_json
from unotable.web.gamelog import hands_face_up
from unotable.web.settings import RoomSettings
from unotable.web.storage import DEAL, Store

from .conftest import LiveServer


@dataclass
class Step:
    """The true game at one point of its log."""

    seating: tuple[int, ...]
    views: dict[int | None, dict[str, Any]]
    events: list[Event]
    """The events of the change that led here."""
    hand_events: list[Event]
    """The current hand's events so far."""
    hands_up: list[dict[str, Any]] | None
    """Every hand laid face up, once the hand is over (else ``None``)."""
    other_faces: list[list[str]] | None = None
    """UNO Flip: each seat's cards' other faces, sorted, and last the draw pile's (its top card
    last); ``None`` in the other editions."""


@dataclass
class Truth:
    """Every point of every game of a room, by (game number, seq)."""

    steps: dict[tuple[int, int], Step] = field(default_factory=dict)


def snapshot(game: Game, events: list[Event], hand_events: list[Event]) -> Step:
    views: dict[int | None, dict[str, Any]] = {p: game.view(p).to_dict() for p in game.deal.seating}
    views[None] = view(game.state, None).to_dict()
    hands_up = hands_face_up(game) if game.hand_over else None
    backs = game.state.backs
    other = None
    if backs is not None:
        n = game.state.n
        other = [[CARD_CODE[c] for c in sorted(backs[s])] for s in range(n)] + [
            [CARD_CODE[c] for c in backs[n]]
        ]
    return Step(tuple(game.deal.seating), views, list(events), list(hand_events), hands_up, other)


def truth(store: Store, code: str, numbers: range) -> Truth:
    out = Truth()
    room = store.load_room(code)
    assert room is not None
    settings = RoomSettings.from_dict(room.settings)
    for n in numbers:
        stored = store.load_game(code, n)
        assert stored is not None and stored.finished
        game = Game.new(settings.rules, stored.seed, players=stored.players, rounds=stored.rounds)
        hand = list(game.deal_events)
        out.steps[n, 0] = snapshot(game, hand, hand)
        for seq, (seat, action) in enumerate(stored.log, start=1):
            if action == DEAL:
                events = list(game.next_hand())
                hand = list(events)
            else:
                events = game.apply_seat("table" if seat == "table" else int(seat or 0), action)
                hand += events
            out.steps[n, seq] = snapshot(game, events, hand)
    return out


def check_client(client: SeatClient, player: int | None, t: Truth) -> int:
    """Check every message of one client; how many were checked."""
    checked = 0
    table: dict[str, Any] = {}
    for m in client.messages:
        if m["type"] not in ("welcome", "update"):
            continue
        # an update carries the table's changes only (hello's `changes`), a welcome all of it
        table = m["table"] if m["type"] == "welcome" else {**table, **(m.get("table") or {})}
        step = t.steps[table["game_number"], m["seq"]]
        seat = step.seating.index(player) if player in step.seating else None
        assert m["you"] == player and m["seat"] == seat
        assert m["view"] == step.views[player if seat is not None else None]
        source = step.hand_events if m["type"] == "welcome" else step.events if m["events"] else []
        n = len(step.seating)
        expected = [e.for_seat(seat) if seat is not None else public_event(e, n) for e in source]
        assert m["events"] == [e.to_dict() for e in expected]
        for e in m["events"]:
            if e["kind"] == "draw" and e.get("seat") != seat:
                assert "cards" not in e, e
        if player is None:
            assert m["view"]["hand"] == [] and m["view"]["legal"] == [] and m["view"]["drawn"] is None
        last_hand = table["last_hand"]
        hands_up = (
            None
            if last_hand is None
            else [{k: v for k, v in h.items() if k != "by"} for h in last_hand["hands"]]
        )
        assert hands_up == step.hands_up  # (issue 34's `by`: who played each, names only)
        if step.other_faces is not None:
            check_flip_faces(m, seat, step.other_faces)
        assert "rejoin" not in m or (m["type"] == "welcome" and player is not None)
        checked += 1
    return checked


def check_flip_faces(m: dict[str, Any], seat: int | None, other: list[list[str]]) -> None:
    """UNO Flip (docs/rules.md §15, FL-2): a seat's message shows the true other faces of every
    other seat's cards and of the draw pile's top card, and never those of its own cards; a
    spectator's, no hand's other faces at all (docs/web.md: a spectator may talk to a player,
    who does not see the other side of their own cards)."""
    view = m["view"]
    n = len(view["hand_sizes"])
    draw = other[n]
    assert view["side"] in ("light", "dark")
    assert view["draw_top_other"] == (draw[-1] if draw else None)
    faces = view["other_faces"]
    if seat is None:
        assert faces == {}
    else:
        assert str(seat) not in faces
        assert faces == {str(s): other[s] for s in range(n) if s != seat and other[s]}
    for e in m["events"]:  # an event names faces in play only, never a card's other face
        assert not {"other_faces", "backs", "draw_top_other"} & set(e), e


def shows_away(m: dict[str, Any], player: int) -> bool:
    """Whether update ``m`` shows ``player`` away (its table's changes name the players)."""
    players = (m.get("table") or {}).get("players")
    return bool(players and players[player]["away"])


CASES = [
    ("classic", 4, "solo", "official"),
    ("harry-potter", 4, "solo", "official"),
    ("cars2", 3, "solo", "official"),
    ("classic", 4, "partners", "official"),
    ("harry-potter", 2, "solo", "official"),
    ("classic", 4, "challenge", "official"),
    ("classic", 4, "solo", "party"),
    ("flip", 3, "solo", "official"),
]
"""(edition, players, mode, house rules): ``party`` swaps hands with a 7 and passes them with a
0, which a seat then knows."""


@pytest.mark.parametrize(("edition", "players", "mode", "house"), CASES)
def test_no_message_names_a_card_its_seat_may_not_know(
    live: LiveServer, edition: str, players: int, mode: str, house: str
) -> None:
    bots = ["greedy:forget_uno=0.5", "random", "cautious"][: players - 2]
    code = live.room(
        {
            "edition": edition,
            "players": players,
            "mode": mode,
            "seats": ["human", "human", *bots],
            "bot_delay": 0,
            "target": 200,
            "options": {"lenient_plays": edition == "classic" and mode == "solo"},
            "house": house,
        }
    )
    tokens = [live.join(code, name)[0] for name in ("Ana", "Ben")]
    games = 3
    clients = [SeatClient(live.ws, code, tokens[i], seed=i + 1, forget=0.4, react=0.6) for i in range(2)]
    spectator = SeatClient(live.ws, code, None, play=False)

    async def main() -> None:
        await asyncio.gather(*(c.run(games=games, timeout=300) for c in [*clients, spectator]))

    asyncio.run(main())
    store = Store(live.url)
    try:
        t = truth(store, code, range(games))
    finally:
        store.close()
    for player, client in ((0, clients[0]), (1, clients[1]), (None, spectator)):
        assert check_client(client, player, t) > 50
        assert not [
            e for e in client.errors if e.code not in ("illegal", "hand_running", "game_running", "game_over")
        ]
    if edition == "flip":  # the games went through Flips; the replay shows no card's other face
        assert any(m.get("view", {}).get("side") == "dark" for m in spectator.messages)
        replay = http_json(live.http, "GET", f"/api/rooms/{code}/games/0")
        assert replay["steps"] and all(
            step["view"]["other_faces"] == {} and "draw_top_other" in step["view"] for step in replay["steps"]
        )


def test_takeovers_rejoins_reactions_and_the_end_of_hands_show_nothing_hidden(live: LiveServer) -> None:
    """Ben comes, reacts, chats and leaves; the away bot plays his seat; he takes it back with his
    short code on another "device" and plays to the end. Every message of everyone is checked as
    above, the hands laid face up at the end of each hand are the true ones, and nobody but Ben
    ever receives his rejoin keys."""
    code = live.room(
        {
            "edition": "harry-potter",
            "players": 3,
            "seats": ["human", "human", "greedy"],
            "bot_delay": 0.02,
            "target": 150,
            "room": {"grace_seconds": 0.2, "chat": True, "spectator_reactions": True},
        }
    )
    tokens = [live.join(code, name)[0] for name in ("Ana", "Ben")]
    ana = SeatClient(live.ws, code, tokens[0], seed=5, forget=0.3, react=0.5)
    spectator = SeatClient(live.ws, code, None, play=False)
    first: list[dict[str, Any]] = []
    later: list[SeatClient] = []

    async def ben() -> None:
        async with connect(f"{live.ws}/ws/{code}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[1]}))
            first.append(json.loads(await ws.recv()))
            await ws.send(json.dumps({"type": "react", "token": tokens[1], "reaction": "gg"}))
            await ws.send(json.dumps({"type": "chat", "token": tokens[1], "text": "<b>bye</b> for now"}))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.5):
                    async for raw in ws:
                        first.append(json.loads(raw))
        deadline = time.monotonic() + 60
        while not any(m["type"] == "update" and shows_away(m, 1) for m in ana.messages):
            assert time.monotonic() < deadline, "Ben was never shown away"  # the room's bot plays for him
            await asyncio.sleep(0.05)
        keys = first[0]["rejoin"]
        answer = await asyncio.to_thread(
            http_json, live.http, "POST", f"/api/rooms/{code}/rejoin", {"code": keys["code"]}
        )
        back = SeatClient(live.ws, code, answer["token"], seed=7, forget=0.3, react=0.5)
        later.append(back)
        await back.run(games=1, timeout=300)

    async def main() -> None:
        await asyncio.gather(ana.run(games=1, timeout=300), spectator.run(games=1, timeout=300), ben())

    asyncio.run(main())
    store = Store(live.url)
    try:
        t = truth(store, code, range(1))
    finally:
        store.close()
    ben_first = SeatClient(live.ws, code, tokens[1])
    ben_first.messages = first
    for player, client in ((0, ana), (None, spectator), (1, ben_first), (1, later[0])):
        assert check_client(client, player, t) > 0
    assert check_client(ana, 0, t) > 10
    secrets_of_ben = [first[0]["rejoin"]["code"], first[0]["rejoin"]["url"].split("=", 1)[1]]
    secrets_of_ana = [ana.messages[0]["rejoin"]["code"], ana.messages[0]["rejoin"]["url"].split("=", 1)[1]]
    for client, theirs in (
        (ana, secrets_of_ben),
        (spectator, secrets_of_ben + secrets_of_ana),
        (later[0], secrets_of_ana),
    ):
        text = json.dumps(client.messages)
        assert not [s for s in theirs if s in text]
    away = [m for m in ana.messages if m["type"] == "update" and shows_away(m, 1)]
    assert away, "Ben was never shown away"
    for client in (ana, spectator):
        reactions = [m for m in client.messages if m["type"] == "reaction"]
        assert reactions == [{"type": "reaction", "player": 1, "reaction": "gg"}]
        chats = [m for m in client.messages if m["type"] == "chat"]
        assert [(m["player"], m["text"]) for m in chats] == [(1, "<b>bye</b> for now")]
