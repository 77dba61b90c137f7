"""The house rules of RULES §11 beyond what scenario files check: options and presets, views,
samples for search, saved games. The rules themselves are checked by ``scenarios/house_*.json``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unotable.bots import make_bot
from unotable.cards import CARD_CODE, NUM_CARD_TYPES, parse_card
from unotable.determinize import determinize
from unotable.engine import apply, from_position, pending_draw, tables_for
from unotable.errors import ConfigError, IllegalActionError, ScenarioError
from unotable.house import HOUSE_RULE
from unotable.house import official as official_house
from unotable.match import Game
from unotable.notation import ACTION_ID, ACTION_TEXT
from unotable.rules import HOUSE_PRESETS, HOUSE_RULES, Rules, find_edition, parse_house
from unotable.scenario import parse
from unotable.sim import HandRecord, SimConfig, parse_bots, simulate
from unotable.state import Phase, State
from unotable.views import view


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def position(rules: Rules, hands: list[list[str]], pile: list[str], discard: list[str], color: int) -> State:
    return from_position(
        rules,
        hands=[cards(*h) for h in hands],
        draw_pile=cards(*pile),
        discard=cards(*discard),
        color=color,
        current=0,
    )


# ---- options and presets


def house(stacking: bool | str, seven_zero: bool, jump_in: bool, draw_to_match: bool) -> dict[str, Any]:
    return {
        **official_house(),
        "stacking": stacking,
        "seven_zero": seven_zero,
        "jump_in": jump_in,
        "draw_to_match": draw_to_match,
    }


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("official", house(False, False, False, False)),
        ("popular", house("same", False, False, True)),
        ("party", house("any", True, True, True)),
        ("stacking=same,jump_in", house("same", False, True, False)),
        ("party, seven_zero=false", house("any", False, True, True)),
        ("Stacking", house("same", False, False, False)),
        ("popular,stacking=off", house(False, False, False, True)),
        ("draw-to-match=yes", house(False, False, False, True)),
        ("stacking=any,stacking=false", house(False, False, False, False)),
    ],
)
def test_house_rules_by_preset_and_by_name(spec: str, expected: dict[str, Any]) -> None:
    assert parse_house(spec) == expected
    rules = Rules(**parse_house(spec))
    assert rules.house == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("jump_out", "unknown house rule 'jump_out'"),
        ("famous", "unknown house rule 'famous'"),
        ("stacking=both", "bad value 'both' for stacking"),
        ("jump_in=maybe", "bad value 'maybe' for jump_in"),
        ("popular=true", "unknown house rule 'popular'"),
        ("", "no house rules given"),
        (" , ", "no house rules given"),
    ],
)
def test_bad_house_rules_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_house(spec)


@pytest.mark.parametrize("name", sorted(HOUSE_PRESETS))
def test_presets_round_trip_through_the_rules_dict(name: str) -> None:
    rules = Rules(edition=find_edition("hp"), players=3, **HOUSE_PRESETS[name])
    data = rules.to_dict()
    assert Rules.from_dict(data) == rules
    assert rules.preset == name
    for key in HOUSE_RULES:
        assert (key in data) == HOUSE_RULE[key].is_on(HOUSE_PRESETS[name][key])


def test_a_mix_is_no_preset() -> None:
    assert Rules(jump_in=True).preset is None


def test_a_scenario_with_an_unknown_house_rule_or_a_bad_value_does_not_load() -> None:
    base = {"position": {"hands": [["R1"], ["R2"]], "draw_pile": [], "discard": ["R3"], "color": "R",
                         "current": 0}, "actions": [], "expect": {}}  # fmt: skip
    with pytest.raises(ScenarioError, match="unknown rules option 'seven_eleven'"):
        parse({**base, "rules": {"edition": "classic", "players": 2, "seven_eleven": True}})
    with pytest.raises(ScenarioError, match='stacking must be false, "same" or "any", not true'):
        parse({**base, "rules": {"edition": "classic", "players": 2, "stacking": True}})
    with pytest.raises(ScenarioError, match="jump_in must be true or false"):
        parse({**base, "rules": {"edition": "classic", "players": 2, "jump_in": "yes"}})


# ---- the plain rules stay on their own path


def test_plain_rules_give_cards_their_printed_effects() -> None:
    """Without house rules, no card takes a house rule's effect: ``step`` never leaves its chain
    of official effects (what keeps the hot path as fast as before)."""
    for edition in ("classic", "harry-potter", "cars2"):
        tb = tables_for(Rules(edition=find_edition(edition), players=4))
        assert tb.effect == tb.base_effect
        assert not any(tb.answers)
        assert tb.play_last == tb.play


# ---- engine details


def test_a_seven_without_a_seat_says_how_to_name_one() -> None:
    st = position(Rules(players=3, seven_zero=True), [["R7", "G1"], ["B1"], ["Y1"]], ["B2"], ["R5"], 0)
    with pytest.raises(IllegalActionError, match="names the seat it swaps with") as refused:
        apply(st, 0, "play R7")
    assert refused.value.code == "not_allowed_now"


def test_what_a_draw_told_follows_the_hand() -> None:
    """``drew_facing`` says a hand held no card matching what it faced: after a swap it is said
    of the seat now holding that hand (the inference of ``determinize`` stays right)."""
    rules = Rules(players=3, seven_zero=True)
    st = position(rules, [["Y1", "Y2"], ["R7", "G1", "G2"], ["B1", "B2", "B3"]], ["B4", "B5"], ["R5"], 0)
    st, _ = apply(st, 0, "draw")  # B4: no match, the turn passes
    assert st.current == 1 and st.drew_facing[0] >= 0
    facing = st.drew_facing[0]
    st, events = apply(st, 1, "play R7 0")
    assert st.drew_facing[1] == facing and st.drew_facing[0] == -1
    assert [e.kind for e in events if e.kind in ("swap", "pass_hands")] == ["swap"]
    assert sorted(st.hands[1]) == sorted(cards("Y1", "Y2", "B4"))


def test_views_show_the_stack_to_everyone() -> None:
    rules = Rules(players=3, stacking="same")
    st = position(rules, [["R+2", "G1", "Y2"], ["G+2", "Y5", "Y6"], ["B+2", "Y4"]], ["B1"] * 2, ["R5"], 0)
    st, _ = apply(st, 0, "play R+2")
    st, _ = apply(st, 1, "play G+2")
    assert pending_draw(st) == 4
    for seat in range(3):
        v = view(st, seat)
        assert v.pending_draw == 4
        assert v.to_dict()["pending"] == {"card": "G+2", "from": 1, "draw": 4}
    st, _ = apply(st, 2, "accept")
    assert pending_draw(st) == 0 and view(st, 0).pending_draw == 0
    assert view(st, 0).to_dict()["pending"] is None


def test_samples_for_search_keep_the_stack() -> None:
    rules = Rules(players=3, **parse_house("party"))
    hands = [["R+2", "G1", "Y2"], ["W+4", "Y5", "Y6"], ["B+2", "Y4"]]
    rest = Counter(rules.deck())
    rest.subtract(cards(*[c for h in hands for c in h], "R5"))
    pile = [CARD_CODE[c] for c in sorted(rest.elements())]
    st = position(rules, hands, pile, ["R5"], 0)
    st, _ = apply(st, 0, "play R+2")
    st, _ = apply(st, 1, "play W+4 G")
    v = view(st, 2)
    sample = determinize(v, random.Random(1))
    assert sample.pend_draw == 6 and sample.phase == Phase.RESPOND
    assert view(sample, 2) == v


def test_saved_games_carry_the_house_rules() -> None:
    rules = Rules(players=4, **parse_house("party"))
    game = Game.new(rules, 3)
    for _ in range(60):
        player = game.current_player
        if player is None:
            break
        game.apply(player, game.legal_actions(player)[0])
    saved = game.to_json()
    again = Game.from_json(saved)
    assert again == game
    assert again.rules.house == HOUSE_PRESETS["party"]
    assert again.state == game.state


def test_every_card_type_has_a_play_table() -> None:
    tb = tables_for(Rules(players=5, seven_zero=True))
    assert len(tb.ways) == len(tb.deck) + 1
    assert all(len(per_seat) == NUM_CARD_TYPES for ways in tb.ways[:3] for per_seat in ways)


# ---- bots


def test_greedy_passes_a_stack_on_rather_than_drawing_it() -> None:
    rules = Rules(players=3, stacking="any")
    hands = [["R+2", "G1", "Y2"], ["G+2", "W+4", "Y6", "Y7"], ["Y3", "Y4"]]
    st = position(rules, hands, ["B1"] * 2, ["R5"], 0)
    st, _ = apply(st, 0, "play R+2")
    bot = make_bot("greedy", 1)
    assert ACTION_TEXT[bot.act(view(st, 1))] == "play G+2"  # the Draw Two before the Wild Draw Four


def test_greedy_swaps_with_the_opponent_holding_fewest_cards() -> None:
    rules = Rules(players=4, seven_zero=True)
    hands = [["R7", "G1", "G2", "G3", "G4"], ["B1", "B2", "B3"], ["Y1"], ["B4", "B5", "B6", "B7"]]
    st = position(rules, hands, ["B8"] * 2, ["R5"], 0)
    bot = make_bot("greedy", 1)
    assert ACTION_TEXT[bot.act(view(st, 0))] == "play R7 2"


def test_greedy_jumps_in_unless_a_seven_brings_a_bigger_hand() -> None:
    rules = Rules(players=4, mode="partners", jump_in=True, seven_zero=True)
    hands = [["G1", "G2"], ["R1", "Y3"], ["Y4", "B1"], ["GS", "Y7", "Y8"]]
    st = position(rules, hands, ["B8"] * 2, ["G5", "GS"], 2)
    st.current = 1  # seat 1's turn: a jump-in by seat 3 skips seat 0, an opponent
    greedy = make_bot("greedy", 1)
    assert greedy.react(view(st, 3)) == ACTION_ID["play GS"]
    # Seat 1 may jump in with its 7, but every opponent holds more cards than it would keep.
    hands = [["G1", "G2", "B2", "B3"], ["G7", "Y3"], ["Y4", "B1"], ["Y6", "Y7", "Y8", "Y9"]]
    st = position(rules, hands, ["B8"] * 2, ["G5", "G7"], 2)
    assert greedy.react(view(st, 1)) is None
    assert ACTION_TEXT[make_bot("random", 1, jump_in=1.0).react(view(st, 1)) or 0].startswith("play G7 ")


@pytest.mark.parametrize("preset", ["popular", "party"])
@pytest.mark.parametrize("edition", ["classic", "harry-potter", "cars2"])
def test_every_bot_plays_legally_with_house_rules(preset: str, edition: str) -> None:
    """``play_hand`` refuses any action a bot takes that is not legal (``BotError``)."""
    rules = Rules(edition=find_edition(edition), players=4, **parse_house(preset))
    cfg = SimConfig(rules, parse_bots("search:budget=8,greedy,random,aggressive", 4), hands=4, seed=2)
    records = simulate(cfg, workers=1)
    assert len(records) == 4
    assert all(isinstance(r, HandRecord) and 0 <= r.winner < 4 for r in records)


@pytest.mark.slow
def test_greedy_beats_random_under_every_house_rule() -> None:
    """1,000 hands per preset: greedy at seat 0 against three random bots wins far more than its
    share (docs/bots.md has the figures of 4,000 hands)."""
    for preset in ("popular", "party"):
        rules = Rules(players=4, **parse_house(preset))
        cfg = SimConfig(rules, parse_bots("greedy,random,random,random", 4), hands=1000, seed=5)
        wins = sum(1 for r in simulate(cfg, workers=1) if isinstance(r, HandRecord) and r.winner == 0)
        assert wins > 800, (preset, wins)
