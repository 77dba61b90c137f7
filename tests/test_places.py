"""Places in a game's standings (docs/rules.md §10): players level share the better place and the
next is skipped ("1st=, 1st=, 3rd"); partners share their team's place without being "level"."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from unotable.i18n import set_language
from unotable.match import Game
from unotable.rules import Rules
from unotable.tui import results


def play_one_hand(game: Game, seed: int) -> None:
    """Random plays (playing far more often than drawing) until the hand is over."""
    rng = random.Random(seed)
    while not game.hand_over:
        player = game.current_player
        assert player is not None
        actions = game.legal_actions(player)
        plays = [a for a in actions if a != "draw" and not a.startswith(("catch", "uno", "wrong"))]
        game.apply(player, rng.choice(plays) if plays and rng.random() < 0.95 else rng.choice(actions))


def test_before_the_first_hand_everyone_is_first_equal() -> None:
    s = Game.new(Rules(players=4), 1).standings()
    assert s.places == (1, 1, 1, 1)
    assert all(s.shares_place(p) for p in range(4))
    assert s.to_dict()["places"] == [1, 1, 1, 1]


def test_after_a_hand_the_others_share_second_place() -> None:
    game = Game.new(Rules(players=4), 3)
    play_one_hand(game, 3)
    s = game.standings()
    winner = game.results[-1].winner
    assert s.places[winner] == 1 and not s.shares_place(winner)
    others = [p for p in range(4) if p != winner]
    assert all(s.scores[p] == 0 for p in others)  # standard scoring: only the winner scores
    assert [s.places[p] for p in others] == [2, 2, 2]
    assert all(s.shares_place(p) for p in others)


def test_lowest_scoring_ranks_the_fewest_points_first() -> None:
    game = Game.new(Rules(players=3, scoring="lowest"), 5)
    play_one_hand(game, 5)
    s = game.standings()
    order = sorted(range(3), key=lambda p: s.scores[p])
    assert s.places[order[0]] == 1
    for a, b in pairwise(order):
        assert (s.places[a] == s.places[b]) == (s.scores[a] == s.scores[b])
        assert s.places[a] <= s.places[b]


def test_partners_share_their_team_s_place_without_a_mark() -> None:
    game = Game.new(Rules(players=4, mode="partners"), 2)
    s = game.standings()
    assert s.places == (1, 1, 1, 1) and all(s.shares_place(p) for p in range(4))  # both teams on 0
    play_one_hand(game, 2)
    s = game.standings()
    team = game.results[-1].winner % 2
    assert s.places == tuple(1 if p % 2 == team else 2 for p in range(4))
    assert not any(s.shares_place(p) for p in range(4))


@pytest.mark.parametrize(
    ("lang", "alone", "shared"),
    [
        ("en", "2nd", "2nd="),
        ("pt", "2.º", "2.º ex aequo"),
        ("fr", "2e", "2e ex æquo"),
        ("pt_BR", "2º", "2º empatado"),
    ],
)
def test_a_shared_place_is_marked_in_every_language(lang: str, alone: str, shared: str) -> None:
    set_language(lang)
    try:
        assert results.place(2) == alone and results.place(2, shared=True) == shared
    finally:
        set_language("en")
