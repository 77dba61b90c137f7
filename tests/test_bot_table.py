"""The bot table (unotable.bots.table, issue 35): one seeding rule, one list of out-of-turn kinds
and one race, so the same seeded table plays the same game through every interface that drives
bots: the terminal's driver (``uno play``), the MCP server (``uno mcp``), a web room's driver
(``uno serve``) and the simulator (``uno simulate``)."""

from __future__ import annotations

import pickle
from types import SimpleNamespace
from typing import cast

import pytest

from unotable.bots import BaseBot, make_bot
from unotable.bots.base import WINDOW_KINDS, out_of_turn
from unotable.bots.rng import CHEAP, BotRandom
from unotable.bots.spec import BotSpec, parse_bots
from unotable.bots.table import OUT_OF_TURN_KINDS, BotTable, decision_seed
from unotable.engine import new_hand, step
from unotable.match import Game
from unotable.mcp.table import YOU
from unotable.mcp.table import Table as McpTable
from unotable.notation import ACTION_ID, ACTION_KIND, ACTION_TEXT, Kind
from unotable.rules import Rules, find_edition, parse_house
from unotable.seeds import derive_seed
from unotable.sim import SimConfig, play_game, run_game, run_hand
from unotable.sim import hand as sim_hand
from unotable.state import PHASE_HAND_OVER
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE
from unotable.tui.controller import Table as TerminalTable
from unotable.web import driver as web_driver

BOTS = "greedy:forget_uno=0.5:late_uno=0.5,random:forget_uno=0.3,greedy:forget_uno=0.4:catch=0.7"
"""Bots that forget UNO and catch often, so the out-of-turn race decides many actions."""


def _person() -> BaseBot:
    """The person at seat 0 in both runs: a greedy bot that forgets UNO, reseeded from the
    game's place before each decision, so it decides the same in the same position whichever
    interface asks."""
    return make_bot("greedy", 0, forget_uno=0.5)


def _decide(person: BaseBot, game: Game, seed: int) -> int:
    hand, k = game.actions_played
    person.reseed(derive_seed(seed, "person", hand, k))
    return person.act(game.view(YOU))


def _through_the_terminal(rules: Rules, seed: int, hands: int) -> list[list[tuple[int | str, str]]]:
    game = Game.new(rules, seed)
    specs = dict(enumerate(parse_bots(BOTS, rules.players - 1), start=1))
    bots = BotTable.from_specs(specs, seed)
    names = ["You", *BOT_NAMES_FOR_PEOPLE[1 : rules.players]]
    table = TerminalTable(game, bots.bots, human=YOU, names=names, seed=bots.seed)
    person = _person()
    for n in range(hands):
        while not game.hand_over:
            move = table.next_bot_move()
            if move is not None:
                table.apply(move.player, move.action)
            else:
                table.apply(YOU, _decide(person, game, seed))
        if n + 1 < hands and not game.finished:
            table.next_hand()
    return [list(h) for h in game.log]


def _through_mcp(rules: Rules, seed: int, hands: int, house: str) -> list[list[tuple[int | str, str]]]:
    table = McpTable(players=rules.players, bots=BOTS, seed=seed, house_rules=house)
    game = table.game
    person = _person()
    for n in range(hands):
        while not game.hand_over:
            table.act(ACTION_TEXT[_decide(person, game, seed)])
        if n + 1 < hands and not game.finished:
            table.act("next")
    return [list(h) for h in game.log]


class _Room:
    """A room of the web driver's (:class:`unotable.web.driver.Room`): the person at seat 0 is
    connected and acts at once (no timer, no grace), the others are the room's bots."""

    def __init__(self, game: Game, specs: dict[int, BotSpec], seed: int) -> None:
        self.code = "TEST"
        self.game = game
        self.log = SimpleNamespace(seed=seed)
        self.settings = SimpleNamespace(
            bot_delay=0.0, turn_seconds=0, room=SimpleNamespace(auto_accept_seconds=3)
        )
        self.seats = [None] * game.players
        self.specs = specs
        self.version = 0
        self.started = self.in_play = True
        self.paused = False

    def someone_waits(self) -> bool:
        return False

    def bot_spec(self, player: int) -> BotSpec | None:
        return self.specs.get(player)

    def left(self, seconds: float) -> float:
        return 0.0


def _through_the_web_driver(rules: Rules, seed: int, hands: int) -> list[list[tuple[int | str, str]]]:
    """The room's own moves as :func:`unotable.web.driver.next_move` gives them (a bot's decision
    made as the thinker's workers make it: ``Decision()``), the person's in between."""
    game = Game.new(rules, seed)
    specs = dict(enumerate(parse_bots(BOTS, rules.players - 1), start=1))
    room = _Room(game, specs, seed)
    person = _person()
    for n in range(hands):
        while not game.hand_over:
            move = web_driver.next_move(cast(web_driver.Room, room))
            if move is None:
                game.apply(YOU, _decide(person, game, seed))
                continue
            assert move.player is not None
            action = move.action if move.think is None else ACTION_TEXT[move.think()]
            game.apply(move.player, ACTION_ID[action])
        if n + 1 < hands and not game.finished:
            game.next_hand()
    return [list(h) for h in game.log]


@pytest.mark.parametrize(("seed", "house"), [(1, ""), (7, ""), (35, "jump_in")])
def test_the_same_seeded_table_plays_the_same_game_in_the_terminal_under_mcp_and_in_a_web_room(
    seed: int, house: str
) -> None:
    rules = Rules(edition=find_edition("classic"), players=4, **(parse_house(house) if house else {}))
    terminal = _through_the_terminal(rules, seed, hands=3)
    mcp = _through_mcp(rules, seed, hands=3, house=house)
    web = _through_the_web_driver(rules, seed, hands=3)
    assert terminal == mcp
    assert terminal == web
    assert sum(len(h) for h in terminal) > 100
    raced = [a for h in terminal for s, a in h if s != YOU and a.split()[0] in ("uno", "catch")]
    assert raced, "no bot ever acted out of turn: the race was not exercised"


ALL_BOTS = BOTS + ",random:forget_uno=0.2:catch=0.5:late_uno=0.8"
"""A table of bots only (the simulator has no person): the web's bots forget UNO at its default
rate unless the spec says, so every spec says."""

Log = list[list[tuple[int | str, str]]]


def _bots_only_through_sim(rules: Rules, seed: int) -> tuple[Log, tuple[int, ...]]:
    """Game 0 of a simulation whose game seed is ``seed`` (:func:`unotable.sim.play_game`, what
    ``run_game`` plays): its log and winners."""
    cfg = SimConfig(rules, tuple(parse_bots(ALL_BOTS, rules.players)), games=1, core="python")
    game, _ = play_game(cfg, seed)
    return [list(h) for h in game.log], game.standings().winners


def _bots_only_through_the_terminal(rules: Rules, seed: int) -> tuple[Log, tuple[int, ...]]:
    game = Game.new(rules, seed)
    bots = BotTable.from_specs(dict(enumerate(parse_bots(ALL_BOTS, rules.players))), seed)
    table = TerminalTable(
        game, bots.bots, human=None, names=BOT_NAMES_FOR_PEOPLE[: rules.players], seed=bots.seed
    )
    while not game.finished:
        move = table.next_bot_move()
        if move is None:
            table.next_hand()
        else:
            table.apply(move.player, move.action)
    return [list(h) for h in game.log], game.standings().winners


def _bots_only_through_a_web_room(rules: Rules, seed: int) -> tuple[Log, tuple[int, ...]]:
    game = Game.new(rules, seed)
    room = _Room(game, dict(enumerate(parse_bots(ALL_BOTS, rules.players))), seed)
    while not game.finished:
        move = web_driver.next_move(cast(web_driver.Room, room))
        assert move is not None
        if move.player is None:  # a hand of bots over: the room deals the next
            game.next_hand()
            continue
        action = move.action if move.think is None else ACTION_TEXT[move.think()]
        game.apply(move.player, ACTION_ID[action])
    return [list(h) for h in game.log], game.standings().winners


@pytest.mark.parametrize(("seed", "house"), [(3, ""), (35, "jump_in")])
def test_the_simulator_plays_a_seeded_table_of_bots_as_the_terminal_and_a_web_room_do(
    seed: int, house: str
) -> None:
    """``uno simulate``'s game ``i`` is the game of seed ``derive_seed(seed, "game", i)`` at the
    bot table (issue 35): the same whole game, hand for hand and action for action, as the
    terminal's bots-only game and a web room of bots play from that seed (``uno mcp`` always
    seats a person: the test above)."""
    rules = Rules(players=4, target=400, **(parse_house(house) if house else {}))
    sim = _bots_only_through_sim(rules, seed)
    assert sim == _bots_only_through_the_terminal(rules, seed)
    assert sim == _bots_only_through_a_web_room(rules, seed)
    log, _ = sim
    assert len(log) > 1 and sum(len(h) for h in log) > 100
    raced = [a for h in log for _, a in h if a.split()[0] in ("uno", "catch")]
    assert raced, "no bot ever acted out of turn: the race was not exercised"


def test_the_simulators_game_is_the_game_of_its_derived_seed() -> None:
    """``run_game`` plays game ``i`` from ``derive_seed(seed, "game", i)`` by the table: its
    record is that game's."""
    rules = Rules(players=4, target=150)
    cfg = SimConfig(rules, tuple(parse_bots(ALL_BOTS, 4)), games=2, seed=11, core="python")
    for i in range(2):
        record = run_game(cfg, i)
        log, winners = _bots_only_through_the_terminal(rules, derive_seed(11, "game", i))
        assert (record.hands, record.hand_actions) == (len(log), [len(h) for h in log])
        assert tuple(record.winners) == winners


def test_a_hand_of_the_simulator_is_a_hand_of_the_table_of_its_seed() -> None:
    """``run_hand`` plays hand ``i`` as hand number ``i`` of the bot table of the simulation's
    seed: the same decisions as that table driven by hand (``BotTable.next_move``'s rule on a
    bare hand), whatever the worker or chunk."""
    rules = Rules(players=4)
    specs = tuple(parse_bots(ALL_BOTS, 4))
    cfg = SimConfig(rules, specs, hands=5, seed=21, core="python")
    for i in (0, 4):
        st, _ = new_hand(rules, derive_seed(21, "hand", i), dealer=i % 4, record=False)
        table = BotTable.from_specs(dict(enumerate(specs)), 21)
        k = 0
        while st.phase < PHASE_HAND_OVER:
            move = table.reaction_at(st, range(4), i, k) or table.act_at(st, range(4), i, k)
            assert move is not None
            step(st, move.player, move.action)
            k += 1
        record = run_hand(cfg, i)
        assert (record.winner, record.tally.actions) == (st.winner, k)


def test_the_race_asks_every_bot_of_the_table_in_seat_order_not_only_those_holding_an_action() -> None:
    """The candidates are the table's players in seat order (``uno mcp`` filtered them first and
    sorted them by player number, so the same seed raced differently there)."""
    game = Game.new(Rules(players=4), 3)
    table = BotTable.from_specs({p: BotSpec("greedy") for p in (1, 2, 3)}, 3)
    assert table.candidates(game) == [p for p in game.deal.seating if p != YOU]


def test_one_list_of_out_of_turn_kinds() -> None:
    """The simulator, the web driver and the bots read the bot table's kinds."""
    assert OUT_OF_TURN_KINDS == WINDOW_KINDS
    assert sim_hand.OUT_OF_TURN is OUT_OF_TURN_KINDS
    assert set(web_driver.OUT_OF_TURN) == {Kind(k).name.lower() for k in OUT_OF_TURN_KINDS}
    game = Game.new(Rules(players=3), 5)
    for p in range(3):
        v = game.view(p)
        assert out_of_turn(v) == [a for a in v.legal if ACTION_KIND[a] in OUT_OF_TURN_KINDS]


def test_a_bad_bot_is_refused_when_the_table_is_made() -> None:
    with pytest.raises(ValueError, match="nonsense"):
        BotTable.from_specs({1: BotSpec("greedy", (("nonsense", 1),))}, 0)


def test_the_bots_generator_is_cheap_to_seed_and_the_same_from_the_same_seed() -> None:
    """``BotRandom``: its first draws after an integer seed are SplitMix64 steps, then the
    Mersenne Twister seeded from the next step; the same seed gives the same numbers whatever
    was drawn before, and its whole state (both parts) survives ``getstate``/``setstate`` and
    pickling."""
    r = BotRandom(7)
    first = [r.random() for _ in range(CHEAP + 5)] + [r.choice(range(10)) for _ in range(20)]
    r.seed(7)
    assert [r.random() for _ in range(CHEAP + 5)] + [r.choice(range(10)) for _ in range(20)] == first
    assert BotRandom(8).random() != BotRandom(7).random()
    r.seed(7)
    r.random()
    state, copy = r.getstate(), pickle.loads(pickle.dumps(r))
    ahead = [r.getrandbits(64) for _ in range(CHEAP + 3)]
    assert [copy.getrandbits(64) for _ in range(CHEAP + 3)] == ahead
    r.setstate(state)
    assert [r.getrandbits(64) for _ in range(CHEAP + 3)] == ahead
    twist = BotRandom(7)
    twist.twister()  # the cheap draws left unused: the Twister's numbers from the start
    assert twist.random() not in first[:CHEAP]


def test_a_bot_is_reseeded_lazily_and_a_decision_that_draws_nothing_seeds_nothing() -> None:
    """``BaseBot.reseed`` stores the seed; the generator takes it at the bot's next draw. A
    greedy bot's decision draws nothing, so the table's reseeding before it costs no seeding."""
    bot = make_bot("greedy", 1)
    seeded: list[object] = []
    bot._rng.seed = lambda a=None, version=2: seeded.append(a)  # type: ignore[method-assign]
    game = Game.new(Rules(players=3), 4)
    table = BotTable({p: bot if p == game.current_player else make_bot("greedy", p) for p in range(3)}, 9)
    move = table.next_move(game)
    assert move is not None and seeded == []
    bot.reseed(12345)
    bot.rng.random()
    assert seeded == [12345]


def test_a_tables_decision_seeds_are_the_web_drivers() -> None:
    """The table keeps each hand's derived seed; its decision seeds are the module's function's,
    which the web room's driver calls for its fresh bots."""
    table = BotTable({}, 99)
    for what, p, hand, k in [("act", 1, 0, 0), ("react", 2, 3, 41), ("act", 1, 0, 7)]:
        assert table.decision_seed(what, p, hand, k) == decision_seed(99, what, p, hand, k)
    assert decision_seed(99, "act", 1, 0, 0) != decision_seed(99, "act", 1, 0, 1)
