"""The bot table (unotable.bots.table, issue 35): one seeding rule, one list of out-of-turn kinds
and one race, so the same seeded table plays the same game through every interface that drives
bots around a person: the terminal's driver (``uno play``), the MCP server (``uno mcp``) and a
web room's driver (``uno serve``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

from unotable.bots import BaseBot, make_bot
from unotable.bots.base import WINDOW_KINDS, out_of_turn
from unotable.bots.spec import BotSpec, parse_bots
from unotable.bots.table import OUT_OF_TURN_KINDS, BotTable
from unotable.match import Game
from unotable.mcp.table import YOU
from unotable.mcp.table import Table as McpTable
from unotable.notation import ACTION_ID, ACTION_KIND, ACTION_TEXT, Kind
from unotable.rules import Rules, find_edition, parse_house
from unotable.seeds import derive_seed
from unotable.sim import hand as sim_hand
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
