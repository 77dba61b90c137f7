"""No tenant slows another (issue 31, part 4): bots think in worker processes of their own, fairly
and within a budget per room; reactions limited per seat; the lobby, /readyz and /metrics cheap and
limited; a node-wide cap on rooms; replays bounded."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from unotable.bots.spec import BotSpec
from unotable.bots.table import decision_seed, table_seed
from unotable.match import Game
from unotable.notation import ACTION_TEXT
from unotable.race import window_open
from unotable.rules import Rules
from unotable.web.app import create_app
from unotable.web.hub import REPLAYS_AT_ONCE, REPLAYS_WAITING, Hub
from unotable.web.lifecycle import MAX_ROOMS, Lifecycle
from unotable.web.protocol import ProtocolError
from unotable.web.room import Room
from unotable.web.serve import add_serve_arguments, lifecycle_of
from unotable.web.storage import DEAL
from unotable.web.thinker import Decision, Thinker, make_room_bot
from unotable.web.words import error_text

from .conftest import LiveServer
from .test_api import play_out, three_people
from .test_api_seats import hello, people
from .test_lifecycle import from_address

SEED = 20261203


def hub(client: TestClient) -> Hub:
    h: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return h


def _decision(seed: int, spec: str = "search:budget=20") -> Decision:
    game = Game.new(Rules(players=3), seed)
    p = game.current_player
    assert p is not None
    return Decision(BotSpec.parse(spec), seed, game.view(p), True)


# ---- the bots' workers


def test_a_long_decision_is_made_in_a_lower_priority_worker_and_is_the_same_as_made_here() -> None:
    async def main() -> None:
        thinker = Thinker(1, cpu_share=0)
        try:
            for seed in range(5):
                d = _decision(seed)
                assert await thinker.decide("ROOM01", d) == d()
            assert thinker.decisions == 5 and thinker.cpu_seconds > 0
            pool = thinker._executor()
            worker = await asyncio.wrap_future(pool.submit(os.getpid))
            nice = await asyncio.wrap_future(pool.submit(os.getpriority, os.PRIO_PROCESS, 0))
            assert worker != os.getpid()
            assert nice > os.getpriority(os.PRIO_PROCESS, 0)
        finally:
            thinker.close()

    asyncio.run(main())


def test_a_quick_bots_decision_never_goes_to_a_worker() -> None:
    async def main() -> None:
        thinker = Thinker(1)
        d = Decision(BotSpec.parse("greedy"), 3, _decision(3).view, False)
        assert await thinker.decide("ROOM01", d) == d()
        assert thinker.decisions == 0 and thinker._pool is None

    asyncio.run(main())


def test_twenty_rooms_of_one_address_do_not_starve_another_rooms_bot() -> None:
    """One worker, twenty busy rooms asking again as soon as answered, and one more room: between
    two of its decisions every other room has had at most one (round-robin)."""

    async def main() -> None:
        thinker = Thinker(1, cpu_share=0)

        async def room(code: str, times: int) -> None:
            for i in range(times):
                await thinker.decide(code, _decision(i))

        try:
            busy = [asyncio.create_task(room(f"BUSY{i:02}", 4)) for i in range(20)]
            await asyncio.sleep(0)  # the scenario: the busy rooms ask first
            await room("OTHER1", 3)
            await asyncio.gather(*busy)
        finally:
            thinker.close()
        order = thinker.order
        mine = [i for i, code in enumerate(order) if code == "OTHER1"]
        assert len(mine) == 3
        for a, b in itertools.pairwise(mine):
            between = order[a + 1 : b]
            assert len(between) == len(set(between)) <= 20

    asyncio.run(main())


def test_a_room_past_its_cpu_budget_has_its_decision_put_off_but_not_changed() -> None:
    async def main() -> None:
        thinker = Thinker(1, cpu_share=1.0, burst=0.05)
        try:
            d = _decision(1)
            first = await thinker.decide("ROOM01", d)
            assert thinker.deferred == 0
            thinker.charge("ROOM01", 0.2)  # a long search: the budget is overdrawn by 0.15 s
            assert 0.1 < thinker.budget_wait("ROOM01") <= 0.2
            assert thinker.budget_wait("ROOM02") == 0  # other rooms have their own
            assert await thinker.decide("ROOM01", d) == first
            assert thinker.deferred == 1
        finally:
            thinker.close()

    asyncio.run(main())


def test_a_room_of_search_bots_plays_through_the_workers_exactly_as_its_seed_says(sqlite_url: str) -> None:
    """Every decision of the room's search bots was made in a worker, and each is the one a bot
    made afresh from the seat's view at that point of the log would make (P-183)."""
    settings = {"players": 3, "seats": ["search:budget=20"] * 3, "bot_delay": 0, "target": 50}
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as client:
        code = client.post("/api/rooms", json=settings).json()["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello"})
            for _ in range(200):
                m = ws.receive_json()
                if m.get("seq", 0) >= 30:
                    break
        room: Room = client.portal.call(hub(client).get, code)  # type: ignore[union-attr,assignment]
        thinker = hub(client).thinker
        shown = client.get("/metrics").text
        stored = room.store.load_game(code, 0)
        assert stored is not None
    game = Game.new(Rules.from_dict(stored.rules), stored.seed, players=stored.players, rounds=stored.rounds)
    decided = 0
    spec = BotSpec.parse("search:budget=20")
    for seq, (seat, action) in enumerate(stored.log):
        if action == DEAL:
            game.next_hand()
            continue
        actor = int(seat or 0)
        player = game.deal.seating[actor]
        if game.current_player == player and not window_open(game.state):
            hand, done = game.actions_played
            bot = make_room_bot(spec, decision_seed(table_seed(stored.seed), "act", player, hand, done))
            assert action == ACTION_TEXT[bot.act(game.view(player))], (seq, player)
            decided += 1
        game.apply_seat(actor, action)
    assert decided >= 10 and thinker.decisions >= decided
    found = re.search(r"^unotable_bot_decisions (\S+)$", shown, re.M)
    assert found is not None and float(found.group(1)) >= decided


# ---- reactions per seat, spectators per address


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, seeds=lambda: SEED)) as c:
        yield c


def _reactions_taken(client: TestClient, code: str, token: str | None, connections: int) -> int:
    """Two reactions sent on each of ``connections`` connections of one seat (``None``: a
    spectator, all from one address), one connection after the other; how many went through."""
    taken = 0
    for _ in range(connections):
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, token)
            for _ in range(2):
                ws.send_json({"type": "react", "token": token, "reaction": "gg"})
                while True:
                    m = ws.receive_json()
                    if m["type"] == "reaction":
                        taken += 1
                        break
                    if m["type"] == "error":
                        assert m["code"] == "slow_down"
                        break
    return taken


def test_a_seat_on_many_connections_gets_the_reactions_of_one(client: TestClient) -> None:
    code, tokens = people(client, spectator_reactions=True)
    # 3 at once, then 1 a second: 8 sent in well under the seconds that would allow them all.
    assert _reactions_taken(client, code, tokens[0], 4) <= 5
    assert _reactions_taken(client, code, tokens[1], 1) == 2  # another seat has its own
    assert _reactions_taken(client, code, None, 4) <= 5  # spectators: per address


# ---- the lobby, /readyz and /metrics


def test_the_lobby_is_read_once_however_many_ask_at_once_and_kept_a_second(client: TestClient) -> None:
    h = hub(client)
    reads = []
    listed_rooms = h.store.listed_rooms

    def counted(limit: int = 50) -> Any:
        reads.append(limit)
        time.sleep(0.05)  # a slow database: every request arrives while it is read
        return listed_rooms(limit)

    h.store.listed_rooms = counted  # type: ignore[method-assign]

    async def many() -> list[list[dict[str, Any]]]:
        return await asyncio.gather(*(h.open_rooms() for _ in range(30)))

    lists = client.portal.call(many)  # type: ignore[union-attr]
    assert len(reads) == 1 and all(x == lists[0] for x in lists)
    for _ in range(10):
        assert client.get("/api/rooms?open=1").status_code == 200
    assert len(reads) <= 2  # at most once more if a second went by


def test_readyz_pings_the_database_once_a_second_however_many_ask(client: TestClient) -> None:
    h = hub(client)
    pings = []
    ping = h.store.ping
    h.store.ping = lambda: pings.append(1) or ping()  # type: ignore[method-assign,func-returns-value]
    start = time.monotonic()
    for _ in range(20):
        assert client.get("/readyz").json() == {"status": "ready"}
    assert len(pings) <= 1 + int(time.monotonic() - start)


def test_readyz_and_metrics_refuse_an_address_that_asks_too_often(sqlite_url: str) -> None:
    life = Lifecycle(probes_per_second=1.0)  # ten at once, then one a second
    with TestClient(create_app(sqlite_url, lifecycle=life)) as c:
        codes = [c.get(path).status_code for path in ["/readyz", "/metrics"] * 10]
        refused = c.get("/metrics")
        assert codes.count(200) <= 11 and 429 in codes
        assert refused.status_code == 429
        assert refused.json() == {"error": "too_fast", "message": error_text("too_fast")}
        assert c.get("/healthz").status_code == 200  # the liveness probe is never refused


# ---- a node-wide cap on rooms


def test_no_room_is_made_past_the_nodes_cap_however_many_addresses_ask(db_url: str) -> None:
    server = LiveServer(db_url, trusted="127.0.0.1", lifecycle=Lifecycle(lookups_per_second=0, max_rooms=5))
    try:
        answers = [
            from_address(server, f"203.0.113.{n}", "POST", "/api/rooms", three_people())
            for n in range(1, 9)  # eight addresses, each well within its own quota
        ]
        made = [r for r in answers if r.status_code == 201]
        refused = [r for r in answers if r.status_code != 201]
        assert len(made) == 5 and len(refused) == 3
        for r in refused:
            assert r.status_code == 503
            assert r.json() == {"error": "server_full", "message": error_text("server_full", limit=5)}
        now = from_address(server, "198.51.100.9", "POST", "/api/play-now", {"name": "Ana"})
        assert now.status_code == 503 and now.json()["error"] == "server_full"
        code = made[0].json()["code"]  # the rooms held go on: a seat is taken as before
        assert (
            from_address(
                server, "198.51.100.9", "POST", f"/api/rooms/{code}/join", {"name": "Ana"}
            ).status_code
            == 200
        )
    finally:
        server.stop()


def test_serve_flags_set_the_cap_the_bot_workers_their_budget_and_the_probes() -> None:
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    default = lifecycle_of(parser.parse_args([]))
    assert default.max_rooms == MAX_ROOMS and default.bot_workers >= 1
    args = parser.parse_args(
        ["--max-rooms", "300", "--bot-workers", "3", "--bot-cpu-share", "0.5", "--probes-per-second", "2"]
    )
    life = lifecycle_of(args)
    assert (life.max_rooms, life.bot_workers, life.bot_cpu_share, life.probes_per_second) == (300, 3, 0.5, 2)


# ---- replays


def test_replays_are_computed_one_at_a_time_and_a_crowd_is_refused(client: TestClient) -> None:
    h = hub(client)
    code = client.post("/api/rooms", json=three_people()).json()["code"]
    r: Room = client.portal.call(h.get, code)  # type: ignore[union-attr,assignment]
    running: list[int] = []
    most = [0]

    def compute() -> list[dict[str, Any]]:
        running.append(1)
        most[0] = max(most[0], len(running))
        time.sleep(0.02)  # the scenario: the work itself, long enough for the crowd to overlap
        running.pop()
        return [{"step": 0}]

    async def crowd() -> list[Any]:
        return list(
            await asyncio.gather(*(h.replay(r, n, compute) for n in range(20)), return_exceptions=True)
        )

    out = client.portal.call(crowd)  # type: ignore[union-attr]
    refused = [x for x in out if isinstance(x, ProtocolError)]
    assert most[0] == 1  # one at a time, whoever asks
    assert len(refused) == 20 - REPLAYS_AT_ONCE - REPLAYS_WAITING
    assert all(x.code == "replays_busy" and x.text == error_text("replays_busy") for x in refused)
    assert h.replays_computed == REPLAYS_AT_ONCE + REPLAYS_WAITING


def test_replays_kept_are_bounded_by_their_steps(client: TestClient) -> None:
    h = hub(client)
    h.replay_steps_kept = 1_000
    code = client.post("/api/rooms", json=three_people()).json()["code"]
    r: Room = client.portal.call(h.get, code)  # type: ignore[union-attr,assignment]

    async def cycle() -> None:
        for n in range(30):
            await h.replay(r, n, lambda: [{"step": i} for i in range(300)])
            assert h.replay_steps <= 1_000

    client.portal.call(cycle)  # type: ignore[union-attr]
    assert h.replays_computed == 30 and h.replay_steps == 900  # the last three games


def test_a_replay_page_fetched_again_is_sent_as_kept(client: TestClient) -> None:
    code = client.post("/api/rooms", json=three_people(target=60)).json()["code"]
    for name in ("Ana", "Ben", "Cleo"):
        client.post(f"/api/rooms/{code}/join", json={"name": name})
    h = hub(client)
    r: Room = client.portal.call(h.get, code)  # type: ignore[union-attr,assignment]
    client.portal.call(play_out, r)  # type: ignore[union-attr]
    first = client.get(f"/api/rooms/{code}/games/0?count=50")
    plain = client.get(f"/api/rooms/{code}/games/0?count=50", headers={"Accept-Encoding": "identity"})
    assert first.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert first.json() == plain.json() and len(first.json()["steps"]) == 50
    hits = h.replay_pages.hits
    for _ in range(5):
        again = client.get(f"/api/rooms/{code}/games/0?count=50")
        assert again.content == first.content
    assert h.replay_pages.hits == hits + 5 and h.replays_computed == 1
    assert h._replay_process is not None  # the replay's CPU was spent in the replays' worker


class HeldThinker(Thinker):
    """A thinker whose decisions wait until the test lets them go."""

    def __init__(self, story: list[str]) -> None:
        super().__init__(1)
        self.story = story
        self.go: asyncio.Event | None = None

    async def decide(self, room: str, decision: Decision) -> int:
        self.story.append("asked")
        if self.go is None:
            self.go = asyncio.Event()
        await self.go.wait()
        return decision()


def test_a_decision_that_comes_back_after_its_room_changed_is_not_applied(client: TestClient) -> None:
    h = hub(client)
    settings = {"players": 3, "seats": ["search:budget=20"] * 3, "bot_delay": 0}
    code = client.post("/api/rooms", json=settings).json()["code"]
    r: Room = client.portal.call(h.get, code)  # type: ignore[union-attr,assignment]
    story: list[str] = []
    held = HeldThinker(story)
    r.driver.thinker = held
    act = r.act

    async def noted_act(player: int, action: str, *, version: int | None = None) -> bool:
        story.append("act")
        return await act(player, action, version=version)

    r.act = noted_act  # type: ignore[method-assign]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, None)  # someone watches: the bots start
        deadline = time.monotonic() + 10
        while story != ["asked"]:
            assert time.monotonic() < deadline
            time.sleep(0.01)

        async def change_then_answer() -> None:
            r.presence_changed()  # the room changed while its bot thought
            assert held.go is not None
            held.go.set()

        client.portal.call(change_then_answer)  # type: ignore[union-attr]
        while r.seq < 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    assert story[:3] == ["asked", "asked", "act"]  # asked again, never the stale answer applied
