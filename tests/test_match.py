"""Whole games (docs/rules.md §9-10, rulings P-18 onwards): schedules, scoring by mode, winners,
the dealer, saving and resuming."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unotable.cards import POINTS
from unotable.engine import new_hand
from unotable.errors import ConfigError, IllegalActionError, NotationError
from unotable.match import (
    HANDS_PER_PARTNERSHIP,
    Game,
    GameError,
    HandResult,
    SavedGameError,
    hand_seed,
    round_robin,
    scheduled_deal,
    table_schedule,
)
from unotable.rules import EDITIONS, Rules, find_edition

Move = tuple[int | str, str] | None
"""A bot's move: (player or "table", action), or ``None`` for dealing the next hand."""

EDITION_NAMES = sorted(EDITIONS)
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def partners_of(seating: tuple[int, ...]) -> set[frozenset[int]]:
    """The pairs of partners at a table of four (seats 0+2 and 1+3)."""
    return {frozenset((seating[0], seating[2])), frozenset((seating[1], seating[3]))}


# --------------------------------------------------------------------------------------------
# Schedules.


@given(st.integers(1, 12).map(lambda k: 2 * k))
def test_round_robin_pairs_everyone_once(n: int) -> None:
    rounds = round_robin(n)
    assert len(rounds) == n - 1
    seen: Counter[frozenset[int]] = Counter()
    for pairs in rounds:
        assert sorted(p for pair in pairs for p in pair) == list(range(n))  # a perfect matching
        seen.update(frozenset(pair) for pair in pairs)
    assert set(seen) == {frozenset(c) for c in combinations(range(n), 2)}
    assert set(seen.values()) == {1}


@given(st.integers(1, 8).map(lambda k: 4 * k))
def test_table_schedule_two_pairs_a_table_everyone_partnered_once(n: int) -> None:
    schedule = table_schedule(n)
    assert len(schedule) == n - 1
    seen: Counter[frozenset[int]] = Counter()
    for tables in schedule:
        assert len(tables) == n // 4
        # every player at exactly one table in the round
        assert sorted(p for table in tables for p in table) == list(range(n))
        for seating in tables:
            assert len(seating) == 4
            pairs = partners_of(seating)
            assert len(pairs) == 2  # two pairs of partners, across
            seen.update(pairs)
    assert set(seen) == {frozenset(c) for c in combinations(range(n), 2)}
    assert set(seen.values()) == {1}


@given(st.sampled_from([4, 8]), st.integers(1, 3))
def test_scheduled_games_partner_each_pair_for_four_hands(players: int, rounds: int) -> None:
    tables = players // 4
    total = (players - 1) * HANDS_PER_PARTNERSHIP * tables * rounds
    assert total == {4: 12, 8: 56}[players] * rounds
    partnered: Counter[frozenset[int]] = Counter()
    hands: Counter[int] = Counter()
    deals = [scheduled_deal(players, h) for h in range(total)]
    for d in deals:
        partnered.update(partners_of(d.seating))
        hands.update(d.seating)
    assert set(partnered) == {frozenset(c) for c in combinations(range(players), 2)}
    assert set(partnered.values()) == {HANDS_PER_PARTNERSHIP * rounds}
    # 12 hands each with rotating partners, 28 with two tables, per round of the schedule
    assert set(hands.values()) == {(players - 1) * HANDS_PER_PARTNERSHIP * rounds}
    for r in range(total // (4 * tables)):
        block = deals[r * 4 * tables : (r + 1) * 4 * tables]
        # in each round, every player sits at one table, the same for its four hands
        for t in range(tables):
            at_table = [d for d in block if d.table == t]
            assert len(at_table) == 4
            assert len({d.seating for d in at_table}) == 1
            assert [d.block_hand for d in at_table] == [0, 1, 2, 3]
        assert sorted(p for t in range(tables) for p in block[t].seating) == list(range(players))


# --------------------------------------------------------------------------------------------
# Seeds.


def test_hand_seeds_are_deterministic_and_distinct() -> None:
    seeds = {hand_seed(s, h) for s in (-(10**30), -1, 0, 1, 2, 10**30) for h in range(60)}
    assert len(seeds) == 6 * 60
    assert hand_seed(7, 3) == hand_seed(7, 3)
    assert all(0 <= s < 2**64 for s in seeds)


# --------------------------------------------------------------------------------------------
# A bot that mostly plays, and whole games.


def bot_move(game: Game, rng: random.Random) -> Move:
    """A random move that plays far more often than it draws; now and then a catch, a late UNO
    call or a referee's penalty."""
    if game.hand_over:
        return None
    r = rng.random()
    if r < 0.002:
        return ("table", rng.choice(game.legal_actions("table")))
    if r < 0.04:
        extra = [
            (p, a) for p in game.actors() for a in game.legal_actions(p) if a.startswith(("catch", "uno"))
        ]
        if extra:
            return rng.choice(extra)
    player = game.current_player
    assert player is not None
    actions = game.legal_actions(player)
    plays = [a for a in actions if a != "draw" and not a.startswith(("catch", "uno", "wrong"))]
    if plays and rng.random() < 0.95:
        return (player, rng.choice(plays))
    return (player, rng.choice(actions))


def do(game: Game, move: Move) -> None:
    """Take a bot's move."""
    if move is None:
        game.next_hand()
    else:
        game.apply(*move)


def play(game: Game, rng: random.Random, limit: int = 200_000) -> list[Move]:
    """Play ``game`` to its end; the moves."""
    moves: list[Move] = []
    while not game.finished:
        assert len(moves) < limit, "the game does not end"
        move = bot_move(game, rng)
        do(game, move)
        moves.append(move)
    return moves


def table_rules(rules: Rules, seating: tuple[int, ...]) -> Rules:
    """The rules of one hand's table (without birthdays)."""
    return replace(rules, players=len(seating))


def hand_scores(result: HandResult, mode: str, scoring: str, players: int) -> tuple[int, list[int]]:
    """The hand's points and what it adds to each game score, computed from its final hands."""
    st = result.state
    seating = result.deal.seating
    left = [sum(POINTS[c] for c in hand) for hand in st.hands]
    win_seat = seating.index(result.winner)
    if mode in ("partners", "teams", "rotating-partners", "two-tables"):
        team = win_seat % 2
        points = sum(p for s, p in enumerate(left) if s % 2 != team)
        if mode in ("partners", "teams"):
            credit = [0, 0]
            credit[team] = points
        else:
            credit = [0] * players
            for s in range(team, len(seating), 2):
                credit[seating[s]] = points
        return points, credit
    credit = [0] * players
    if mode == "challenge" or scoring == "lowest":
        for s, p in enumerate(left):
            credit[seating[s]] = p
        return sum(left), credit
    if not st.tables.mercy:
        assert left[win_seat] == 0
    points = sum(left) - left[win_seat]  # NM-10: the last seat left scores the others' cards (none)
    credit[result.winner] = points
    return points, credit


def check_finished_game(game: Game) -> None:
    """Scores come only from the hands' points; the right players win; the dealer moves left."""
    rules = game.rules
    mode, target, n = rules.mode, rules.target, game.players
    standings = game.standings()
    assert standings.finished and game.finished
    assert standings.hands_played == len(game.results)
    by_team = mode in ("partners", "teams")
    totals = [0] * (2 if by_team else n)
    out: list[int] = []
    last_dealer: dict[int, tuple[int, int]] = {}  # table -> (seat, player)
    for i, result in enumerate(game.results):
        assert result.deal.hand == i
        seating = result.deal.seating
        st = result.state
        assert st.n == len(seating) and st.phase_name in ("hand_over", "game_over")
        win = seating.index(result.winner)
        if st.tables.mercy and st.hands[win]:  # No Mercy: the last seat left wins (docs/rules.md §14, NM-9)
            assert not any(h for s, h in enumerate(st.hands) if s != win)
        else:
            assert len(st.hands[win]) == 0
        # scores only from the hand's points
        points, credit = hand_scores(result, mode, rules.scoring, n)
        assert result.hand_points == points
        assert list(result.credit) == credit
        totals = [a + b for a, b in zip(totals, credit, strict=True)]
        # who sits: challenge drops the eliminated players; other modes seat everyone or follow the schedule
        if mode == "challenge":
            assert seating == tuple(p for p in range(n) if p not in out)
            out += [p for p in seating if totals[p] >= target]
        elif mode in ("rotating-partners", "two-tables"):
            assert result.deal == scheduled_deal(n, i)
        else:
            assert seating == tuple(range(n))
        # the dealer moves left (P-18)
        table = result.deal.table
        if table in last_dealer:
            seat, player = last_dealer[table]
            if mode in ("rotating-partners", "two-tables"):
                assert result.dealer == (seat + 1) % 4
            else:
                nxt = next(q for k in range(1, n + 1) if (q := (player + k) % n) in seating)
                assert seating[result.dealer] == nxt
        last_dealer[table] = (result.dealer, seating[result.dealer])
        last = i == len(game.results) - 1
        # nobody had won before the last hand
        if mode == "solo" or by_team:
            assert (max(totals) >= target) == last
        elif mode == "challenge":
            assert (n - len(out) <= 1) == last
    assert list(standings.scores) == totals
    assert standings.eliminated == tuple(out)
    last_result = game.results[-1]
    if mode == "solo" and rules.scoring == "standard":
        assert game.winners == (last_result.winner,)
    elif mode == "solo":
        low = min(totals)
        assert game.winners == tuple(p for p in range(n) if totals[p] == low)
    elif by_team:
        team = last_result.winner % 2
        assert totals[team] >= target > totals[1 - team]
        assert game.winners == tuple(range(team, n, 2))
    elif mode == "challenge":
        standing = [p for p in range(n) if totals[p] < target]
        # the last one standing wins; with No Mercy's mercy rule (NM-11) the hand's winner may be
        # the last seat left holding cards, charged them, and out while a seat knocked out stays
        assert game.winners == (tuple(standing) or (last_result.winner,))
        assert len(standing) <= 1
        if not rules.edition.no_mercy:
            assert standing == [last_result.winner]
        assert set(out) == set(range(n)) - set(standing)
        assert all(totals[p] >= target for p in out)
        if len(last_result.deal.seating) == 2:  # a head to head: the loser reached the amount
            assert last_result.state.rules.players == 2
    else:
        assert len(game.results) == game.hands_total
        best = max(totals)
        assert game.winners == tuple(p for p in range(n) if totals[p] == best)
        assert set(standings.hands_by_player) == {12 * game.rounds if n == 4 else 28 * game.rounds}
    assert standings.winners == game.winners


def check_deal(game: Game) -> None:
    """The hand in play was dealt from the game's seed for its number (P-19); the first hand at
    each table chose its dealer by the edition's method (P-18)."""
    st = game.state
    first = game.hand_index < (2 if game.rules.mode == "two-tables" else 1)
    fresh, _ = new_hand(
        table_rules(game.rules, game.deal.seating),
        hand_seed(game.seed, game.hand_index),
        dealer=None if first else st.dealer,
        scores=st.scores,
    )
    assert fresh == st


GAMES: list[tuple[str, int, str, int]] = (
    [("solo", p, "standard", 150) for p in range(2, 11)]
    + [("solo", p, "lowest", 150) for p in (2, 3, 5, 10)]
    + [("partners", 4, "standard", 200)]
    + [("teams", p, "standard", 200) for p in (4, 6, 8, 10)]
    + [("rotating-partners", 4, "standard", 500), ("two-tables", 4, "standard", 500)]
    + [("challenge", p, "standard", 120) for p in range(2, 11)]
)


@pytest.mark.parametrize(("mode", "players", "scoring", "target"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_by_random_bots(mode: str, players: int, scoring: str, target: int, seed: int) -> None:
    edition = EDITION_NAMES[(seed + players) % len(EDITION_NAMES)]
    rules = Rules(edition=find_edition(edition), players=players, mode=mode, scoring=scoring, target=target)
    game = Game.new(rules, seed)
    rng = random.Random(seed)
    check_deal(game)
    while not game.finished:
        move = bot_move(game, rng)
        do(game, move)
        if move is None:
            check_deal(game)
    check_finished_game(game)
    with pytest.raises(GameError):
        game.next_hand()


def test_rotating_partners_several_rounds_and_two_tables() -> None:
    game = Game.new(Rules(mode="rotating-partners", players=4), 11, rounds=2)
    assert game.hands_total == 24
    play(game, random.Random(3))
    check_finished_game(game)
    assert game.standings().hands_by_player == (24, 24, 24, 24)
    two = Game.new(Rules(edition=find_edition("hp"), mode="two-tables", players=4), 5)
    assert two.players == 8 and two.hands_total == 56
    play(two, random.Random(4))
    check_finished_game(two)
    assert two.standings().hands_by_player == (28,) * 8


def test_lenient_game_to_the_end() -> None:
    game = Game.new(Rules(players=3, lenient_plays=True, target=100), 9)
    play(game, random.Random(9))
    check_finished_game(game)


def test_same_seed_same_game_other_seed_other_game() -> None:
    rules = Rules(players=4, mode="partners", target=200)
    a, b, c = Game.new(rules, 21), Game.new(rules, 21), Game.new(rules, 22)
    moves = play(a, random.Random(0))
    for move in moves:
        do(b, move)
    assert a == b and a.state == b.state and a.standings() == b.standings()
    assert c.state != Game.new(rules, 21).state


# --------------------------------------------------------------------------------------------
# Players, seats and the dealer.


def test_players_are_mapped_to_seats() -> None:
    game = Game.new(Rules(mode="two-tables", players=4), 3)
    seating = game.deal.seating
    assert game.deal.table == 0 and len(seating) == 4
    away = next(p for p in range(8) if p not in seating)
    assert game.legal_actions(away) == []
    assert game.seat_of(away) is None
    before = game.to_dict()
    with pytest.raises(IllegalActionError) as exc:
        game.apply(away, "draw")
    assert exc.value.code == "not_your_turn"
    with pytest.raises(IllegalActionError) as exc:
        game.apply(8, "draw")
    assert exc.value.code == "bad_notation"
    with pytest.raises(NotationError):
        game.legal_actions(8)
    with pytest.raises(GameError):
        game.view(away)
    assert game.to_dict() == before
    player = game.current_player
    assert player is not None
    seat = game.seat_of(player)
    assert seat is not None and game.player_at(seat) == player
    assert game.legal_actions(player) == game.view(player).legal_actions
    # the second hand is played at the other table
    rng = random.Random(1)
    while not game.hand_over:
        do(game, bot_move(game, rng))
    game.next_hand()
    assert game.deal.table == 1 and set(game.deal.seating).isdisjoint(seating)


def test_rotating_partners_sit_across_and_first_dealer_by_birthday() -> None:
    birthdays = (None, "01-01", "07-30", None)
    rules = Rules(
        edition=find_edition("harry-potter"), mode="rotating-partners", players=4, birthdays=birthdays
    )
    game = Game.new(rules, 2)
    assert game.deal.seating[game.state.dealer] == 2  # closest to 31 July
    rng = random.Random(2)
    seatings = []
    while not game.finished:
        if game.hand_over:
            seatings.append(game.deal.seating)
        do(game, bot_move(game, rng))
    seatings.append(game.deal.seating)
    partnerships = [partners_of(s) for s in seatings]
    for block in range(3):
        assert all(p == partnerships[4 * block] for p in partnerships[4 * block : 4 * block + 4])
    assert len({frozenset(p) for p in partnerships}) == 3
    # every player deals once in each block of four hands
    for block in range(3):
        dealers = [r.deal.seating[r.dealer] for r in game.results[4 * block : 4 * block + 4]]
        assert sorted(dealers) == [0, 1, 2, 3]


def test_challenge_with_birthdays_plays_to_the_end() -> None:
    birthdays = ("07-31", None, "12-25", None, "02-29")
    rules = Rules(edition=find_edition("hp"), mode="challenge", players=5, target=100, birthdays=birthdays)
    game = Game.new(rules, 4)
    assert game.state.dealer == 0
    play(game, random.Random(4))
    check_finished_game(game)
    # an eliminated player has no seat and no action
    loser = game.standings().eliminated[0]
    assert game.seat_of(loser) is None and game.legal_actions(loser) == []


def test_next_hand_only_after_the_hand() -> None:
    game = Game.new(Rules(players=3), 1)
    with pytest.raises(GameError):
        game.next_hand()
    rng = random.Random(5)
    while not game.hand_over:
        do(game, bot_move(game, rng))
    assert game.legal_actions(0) == [] and game.actors() == [] and game.current_player is None
    with pytest.raises(IllegalActionError) as exc:
        game.apply(0, "draw")
    assert exc.value.code == "not_your_turn"
    dealer = game.state.dealer
    game.next_hand()
    assert game.state.dealer == (dealer + 1) % 3
    assert game.state.scores == list(game.standings().scores)


@pytest.mark.parametrize(
    ("rules", "kwargs"),
    [
        (Rules(mode="two-tables", players=4), {"players": 4}),
        (Rules(players=3), {"players": 4}),
        (Rules(players=3), {"rounds": 2}),
        (Rules(mode="rotating-partners", players=4), {"rounds": 0}),
        (Rules(edition=find_edition("hp"), mode="two-tables", players=4, birthdays=(None,) * 4), {}),
    ],
)
def test_bad_game_parameters(rules: Rules, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        Game.new(rules, 1, **kwargs)


def test_challenge_refuses_lowest_scoring() -> None:
    with pytest.raises(ConfigError, match="scoring must be standard"):
        Rules(mode="challenge", players=3, scoring="lowest")


def test_bad_seed() -> None:
    with pytest.raises(ConfigError):
        Game.new(Rules(), True)
    with pytest.raises(ConfigError):
        Game.new(Rules(), "1")  # type: ignore[arg-type]


def test_illegal_action_changes_nothing() -> None:
    game = Game.new(Rules(players=4, mode="partners"), 8)
    player = game.current_player
    assert player is not None
    before, state = game.to_dict(), game.state.copy()
    other = (player + 1) % 4
    refused: list[tuple[int | str, str, str]] = [
        (player, "play R+3", "not_in_hand"),
        (player, "fly", "bad_notation"),
        (other, "draw", "not_your_turn"),
        ("table", "penalize 9 suggestion", "bad_notation"),
    ]
    for who, action, code in refused:
        with pytest.raises(IllegalActionError) as exc:
            game.apply(who, action)
        assert exc.value.code == code
    assert game.to_dict() == before and game.state == state


# --------------------------------------------------------------------------------------------
# Saving and resuming.

RESUMABLE = [
    Rules(players=3, target=150),
    Rules(players=4, scoring="lowest", target=150),
    Rules(edition=find_edition("hp"), players=4, mode="partners", target=200),
    Rules(edition=find_edition("cars2"), players=6, mode="teams", target=200),
    Rules(players=4, mode="rotating-partners"),
    Rules(players=4, mode="two-tables"),
    Rules(edition=find_edition("hp"), players=5, mode="challenge", target=120),
    Rules(players=3, lenient_plays=True, target=100),
]


@SLOW
@given(st.sampled_from(RESUMABLE), st.integers(-(2**40), 2**40), st.floats(0, 1))
def test_save_and_resume_at_any_action(rules: Rules, seed: int, where: float) -> None:
    whole = Game.new(rules, seed)
    moves = play(whole, random.Random(seed))
    cut = int(where * len(moves))
    first = Game.new(rules, seed)
    for move in moves[:cut]:
        do(first, move)
    text = first.to_json()
    resumed = Game.from_json(text)
    assert resumed == first and resumed.state == first.state
    assert resumed.standings() == first.standings()
    assert json.loads(resumed.to_json()) == json.loads(text)
    for move in moves[cut:]:
        do(resumed, move)
    assert resumed == whole
    assert resumed.state == whole.state
    assert resumed.standings() == whole.standings()
    assert resumed.results == whole.results
    assert [r.state for r in resumed.results] == [r.state for r in whole.results]


def test_saved_form() -> None:
    game = Game.new(Rules(players=4, mode="rotating-partners", seed=99), 5, rounds=2)
    data = game.to_dict()
    assert data == {
        "format": "unotable-game",
        "version": 2,
        "rules": {"edition": "classic", "players": 4, "mode": "rotating-partners"},
        "players": 4,
        "rounds": 2,
        "seed": 5,
        "hands": [[]],
    }
    rng = random.Random(0)
    while not game.hand_over:
        do(game, bot_move(game, rng))
    game.next_hand()
    data = json.loads(game.to_json(indent=1))
    assert len(data["hands"]) == 2 and data["hands"][1] == []
    assert all(isinstance(s, int) or s == "table" for s, _ in data["hands"][0])
    assert Game.from_dict(data) == game


def saved_game() -> tuple[Game, dict[str, Any]]:
    """A game two hands in, and its saved form."""
    game = Game.new(Rules(players=3, target=1000), 17)
    rng = random.Random(17)
    while len(game.results) < 2:
        do(game, bot_move(game, rng))
    for _ in range(3):
        do(game, bot_move(game, rng))
    return game, game.to_dict()


def _set(data: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(data))
    out[key] = value
    return out


def _bad_cases() -> list[tuple[str, Any]]:
    _, data = saved_game()
    hands = data["hands"]
    no_hands = {k: v for k, v in data.items() if k != "hands"}
    wrong_action = json.loads(json.dumps(hands))
    wrong_action[1][3] = [wrong_action[1][3][0], "play R+3"]
    wrong_seat = json.loads(json.dumps(hands))
    wrong_seat[0][0] = [5, wrong_action[0][0][1]]
    early_deal = json.loads(json.dumps(hands))
    early_deal[1] = early_deal[1][:0]
    early_deal[0] = early_deal[0][:-1]
    return [
        ("not json", "{nope"),
        ("a list", json.dumps([data])),
        ("a string", json.dumps("game")),
        ("a number", "3"),
        ("unknown key", json.dumps(_set(data, "score", 3))),
        ("missing hands", json.dumps(no_hands)),
        ("bad format", json.dumps(_set(data, "format", "chess"))),
        ("bad version", json.dumps(_set(data, "version", 3))),
        ("old shuffle", json.dumps(_set(data, "version", 1))),
        ("bad seed", json.dumps(_set(data, "seed", "17"))),
        ("bad rules", json.dumps(_set(data, "rules", {"edition": "classic", "players": 3, "speed": 1}))),
        ("rules not an object", json.dumps(_set(data, "rules", []))),
        ("bad players", json.dumps(_set(data, "players", 5))),
        ("bad rounds", json.dumps(_set(data, "rounds", 2))),
        ("hands not a list", json.dumps(_set(data, "hands", {}))),
        ("no hand", json.dumps(_set(data, "hands", []))),
        ("hand not a list", json.dumps(_set(data, "hands", ["draw"]))),
        ("action not a pair", json.dumps(_set(data, "hands", [[[0, "draw", 1]]]))),
        ("action not text", json.dumps(_set(data, "hands", [[[0, 3]]]))),
        ("seat not a seat", json.dumps(_set(data, "hands", [[["0", "draw"]]]))),
        ("illegal action", json.dumps(_set(data, "hands", wrong_action))),
        ("no such seat", json.dumps(_set(data, "hands", wrong_seat))),
        ("deal before the hand is over", json.dumps(_set(data, "hands", early_deal))),
    ]


@pytest.mark.parametrize(("case", "text"), _bad_cases(), ids=[c for c, _ in _bad_cases()])
def test_bad_saved_game_is_refused_and_changes_nothing(case: str, text: str) -> None:
    game, _ = saved_game()
    before = game.to_json()
    with pytest.raises(SavedGameError) as exc:
        Game.from_json(text)
    assert str(exc.value)
    assert isinstance(exc.value, ValueError)
    assert game.to_json() == before
    assert Game.from_json(before) == game


def test_bad_saved_game_messages_name_the_place() -> None:
    cases = dict(_bad_cases())
    with pytest.raises(SavedGameError, match=r"hands\[1\]\[3\] .* is refused \("):
        Game.from_json(cases["illegal action"])
    with pytest.raises(SavedGameError, match=r"unknown key 'score'"):
        Game.from_json(cases["unknown key"])
    with pytest.raises(SavedGameError, match=r"rules: unknown rules option 'speed'"):
        Game.from_json(cases["bad rules"])
    with pytest.raises(SavedGameError, match=r"hands\[1\]: cannot be dealt"):
        Game.from_json(cases["deal before the hand is over"])
    with pytest.raises(SavedGameError, match=r"version 1 games were dealt by an earlier shuffle"):
        Game.from_json(cases["old shuffle"])


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 12) | st.sampled_from(["draw", "table", "play R5", "x", ""]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["edition", "players", "a"]), inner)
    ),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["rules", "players", "rounds", "seed", "hands", "format", "version", "action"]),
    JSON_VALUES,
)
def test_any_corrupted_saved_game_is_refused_with_a_saved_game_error(key: str, value: Any) -> None:
    _, data = saved_game()
    if key == "action":
        data["hands"][0][0] = value
    else:
        data[key] = value
    try:
        loaded = Game.from_dict(data)
    except SavedGameError as exc:
        assert str(exc)
    else:  # the value happened to be acceptable (e.g. the same seat and a legal action)
        assert loaded.to_dict()["hands"] == data["hands"]


def test_a_games_views_are_made_once_per_state_and_are_the_core_views(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 31: the web server asks a game for the same view several times a change (the
    driver, the table, each seat's message): it is made once per state, and is what
    ``views.view`` gives for that state, for every seat and for nobody."""
    import unotable.match as match_module  # noqa: PLC0415
    from unotable.views import view  # noqa: PLC0415

    made: list[int | None] = []

    def counted(state: Any, seat: int | None) -> Any:
        made.append(seat)
        return view(state, seat)

    monkeypatch.setattr(match_module, "view", counted)
    game = Game.new(Rules(players=2), 7, players=2, rounds=1)
    rng = random.Random(3)
    for _ in range(40):
        if game.finished:
            break
        if game.hand_over:
            game.next_hand()
            continue
        made.clear()
        for _ in range(3):
            for seat in (0, 1, None):
                assert game.seat_view(seat) == view(game.state, seat)
            assert game.view(0) is game.seat_view(game.seat_of(0))
        assert sorted(made, key=str) == sorted([0, 1, None], key=str)  # once each
        p = game.current_player
        assert p is not None
        game.apply(p, rng.choice(game.legal_actions(p)))
