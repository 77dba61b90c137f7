"""The elimination game format (docs/rules.md §10, H-36 to H-40): the player left with the most
points in a hand is out, until one is left; with the scenario files ``mode_elimination_*.json``
for the hand's end."""

from __future__ import annotations

import subprocess
import sys

import pytest

from unotable.bots import make_bot
from unotable.cards import parse_card
from unotable.engine import apply, eliminated_seats, from_position
from unotable.errors import ConfigError
from unotable.match import Game
from unotable.rules import Rules
from unotable.sim import SimConfig, parse_bots, simulate


def play_out(game: Game, bot: str = "greedy") -> Game:
    bots = [make_bot(bot, p) for p in range(game.players)]
    while not game.finished:
        if game.hand_over:
            game.next_hand()
            continue
        p = game.current_player
        assert p is not None
        game.apply(p, bots[p].act(game.view(p)))
    return game


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"scoring": "lowest"}, "mode elimination charges each player their own cards"),
        ({"target": 300}, "leave the target at 500, not 300"),
        ({"players": 4, "target": 1}, "until one player is left"),
    ],
)
def test_what_makes_no_sense_with_elimination_is_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Rules(mode="elimination", **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (5, 2), (7, 3)])
def test_each_hand_puts_someone_out_until_one_is_left(players: int, seed: int) -> None:
    game = play_out(Game.new(Rules(players=players, mode="elimination"), seed))
    s = game.standings()
    assert len(s.winners) == 1 and s.remaining == s.winners
    assert sorted(s.eliminated) == sorted(set(range(players)) - set(s.winners))
    assert 1 <= s.hands_played <= players - 1
    seatings = [r.deal.seating for r in game.results] + [s.winners]
    order: list[int] = []
    for result, after in zip(game.results, seatings[1:], strict=True):
        out = [p for p in result.deal.seating if p not in after]  # who this hand put out
        assert out and result.winner not in out
        points = result.credit  # each player's own cards in this hand
        assert min(points[p] for p in out) >= max(points[p] for p in after)
        order += out
    assert order == list(s.eliminated)
    again = Game.from_json(game.to_json())  # saved games and replays replay it
    assert again == game and again.standings() == s


def test_the_most_points_of_the_hand_not_of_the_game_is_out() -> None:
    rules = Rules(players=4, mode="elimination")
    st = from_position(
        rules,
        hands=[[parse_card(c) for c in h] for h in (["R5"], ["G9"], ["B5", "Y2"], ["Y8"])],
        draw_pile=[parse_card("B1")],
        discard=[parse_card("R3")],
        color=0,
        current=0,
        scores=[0, 0, 200, 0],
    )
    st, _ = apply(st, 0, "play R5")
    assert eliminated_seats(st) == [1]  # 9 points in this hand, though seat 2 has more in all


def test_native_core_refuses_elimination_and_simulations_fall_back() -> None:
    from unotable.native import COMPILED  # noqa: PLC0415
    from unotable.native.core import unsupported  # noqa: PLC0415

    rules = Rules(players=4, mode="elimination")
    if COMPILED:
        assert unsupported(rules) == "the native core does not play the mode elimination (docs/rules.md §10)"
        assert unsupported(Rules(players=4, mode="challenge")) is None
    bots = tuple(parse_bots("greedy,random,search:budget=8,greedy", 4))
    records = simulate(SimConfig(rules=rules, bots=bots, games=3, seed=4), workers=1)
    assert len(records) == 3


def test_the_terminal_says_who_is_out() -> None:
    argv = ["play", "--auto", "--fast", "--text", "--mode", "elimination", "--players", "4", "--seed", "3"]
    proc = subprocess.run(
        [sys.executable, "-m", "unotable", *argv], capture_output=True, text=True, check=False, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].endswith("elimination, until one is left")
    assert sum(line.endswith("out of the game.") for line in lines) == 3
    assert lines[-2].startswith("Game over:")
