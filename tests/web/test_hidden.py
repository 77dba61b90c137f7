"""Hidden information over the real WebSocket: whole games played by clients of two seats, bots in
the others, a spectator watching; then every message each of them got is checked against the
core, replayed from the stored log: its view is exactly the core's ``view`` of its seat (the
spectator's: the core's view of nobody, no hand), its events exactly the events redacted for its
seat (the spectator's: as nobody in particular sees them), and no draw by another seat names a
card."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest

from unotable.events import Event
from unotable.match import Game
from unotable.views import public_event, view
from unotable.web.client import SeatClient
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


@dataclass
class Truth:
    """Every point of every game of a room, by (game number, seq)."""

    steps: dict[tuple[int, int], Step] = field(default_factory=dict)


def snapshot(game: Game, events: list[Event], hand_events: list[Event]) -> Step:
    views: dict[int | None, dict[str, Any]] = {p: game.view(p).to_dict() for p in game.deal.seating}
    views[None] = view(game.state, None).to_dict()
    return Step(tuple(game.deal.seating), views, list(events), list(hand_events))


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
    for m in client.messages:
        if m["type"] not in ("welcome", "update"):
            continue
        step = t.steps[m["table"]["game_number"], m["seq"]]
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
        checked += 1
    return checked


CASES = [
    ("classic", 4, "solo", "official"),
    ("harry-potter", 4, "solo", "official"),
    ("cars2", 3, "solo", "official"),
    ("classic", 4, "partners", "official"),
    ("harry-potter", 2, "solo", "official"),
    ("classic", 4, "challenge", "official"),
    ("classic", 4, "solo", "party"),
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
            e
            for e in client.errors
            if e["code"] not in ("illegal", "hand_running", "game_running", "game_over")
        ]
