"""Editions and options as data, and the clear errors for bad configuration."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unotable.cards import CARD_CODE, POINTS, parse_card
from unotable.errors import ConfigError
from unotable.rules import EDITIONS, BlankEffect, Rules, birthday_day, find_edition


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("classic", 108),
        ("harry-potter", 110),
        ("cars2", 112),
        ("modern", 112),
        ("all-wild", 112),
        ("no-mercy", 168),
    ],
)
def test_deck_sizes(name: str, size: int) -> None:
    assert len(Rules(edition=find_edition(name)).deck()) == size


def test_deck_contents() -> None:
    classic = Counter(CARD_CODE[c] for c in Rules().deck())
    assert classic["R0"] == 1 and classic["R7"] == 2 and classic["B+2"] == 2
    assert classic["W"] == 4 and classic["W+4"] == 4 and "R+3" not in classic
    hp = Counter(CARD_CODE[c] for c in Rules(edition=find_edition("harry-potter")).deck())
    assert hp["G+3"] == 2 and hp["HOWLER"] == 1 and hp["INVIS"] == 1 and "G+2" not in hp
    cars = Counter(CARD_CODE[c] for c in Rules(edition=find_edition("cars2")).deck())
    assert cars["MATER"] == 4 and cars["Y+2"] == 2


def test_the_modern_deck() -> None:
    """docs/rules.md §12: classic's 108 cards, one Wild Shuffle Hands and three Wild
    Customizable, 40 points each; no blanks."""
    modern = Counter(CARD_CODE[c] for c in Rules(edition=find_edition("modern")).deck())
    classic = Counter(CARD_CODE[c] for c in Rules().deck())
    assert modern - classic == Counter({"SHUFFLE": 1, "CUSTOM": 3}) and not classic - modern
    assert POINTS[parse_card("SHUFFLE")] == POINTS[parse_card("CUSTOM")] == 40
    assert find_edition("2018").name == "modern" and EDITIONS["modern"].suggestion_penalty == 4
    assert not EDITIONS["modern"].has_blanks and EDITIONS["modern"].has_custom


def test_the_all_wild_deck() -> None:
    """docs/rules.md §13, AW-2, AW-9: 112 cards, all wild, none naming a colour; a Wild 20 points,
    the rest 50; no blanks, no Wild Customizable."""
    deck = Counter(CARD_CODE[c] for c in Rules(edition=find_edition("all-wild")).deck())
    assert deck == Counter(
        {"AW": 26, "AWREV": 18, "AWSKIP": 18, "AW+2": 18, "AWSKIP2": 8, "AW+4": 8, "AWT+2": 8, "AWSWAP": 8}
    )
    assert POINTS[parse_card("AW")] == 20
    assert {POINTS[parse_card(code)] for code in deck if code != "AW"} == {50}
    edition = EDITIONS["all-wild"]
    assert find_edition("All_Wild") is edition and edition.card_space == 75
    assert EDITIONS["modern"].card_space == 67 and EDITIONS["classic"].card_space == 65
    assert not edition.has_blanks and not edition.has_custom and edition.suggestion_penalty == 4
    with pytest.raises(ConfigError, match="no blank cards"):
        Rules.from_dict({"edition": "all-wild", "blanks": {"R": "R1"}})
    with pytest.raises(ConfigError, match="no Wild Customizable"):
        Rules.from_dict({"edition": "all-wild", "custom": {"draw": 2}})


def test_the_no_mercy_deck() -> None:
    """docs/rules.md §14: 168 cards, two of every number and no plain Wild or Wild Draw Four; 30
    points for a Skip Everyone or a Discard All, 20 for a Draw Four, 50 for its wild cards."""
    deck = Counter(CARD_CODE[c] for c in Rules(edition=find_edition("no-mercy")).deck())
    for color in "RYGB":
        assert all(deck[f"{color}{v}"] == 2 for v in range(10))
        assert deck[f"{color}S"] == deck[f"{color}R"] == deck[f"{color}+2"] == deck[f"{color}DA"] == 3
        assert deck[f"{color}SE"] == deck[f"{color}+4"] == 2
    assert deck["WR+4"] == deck["WCR"] == 8 and deck["W+6"] == deck["W+10"] == 4
    assert "W" not in deck and "W+4" not in deck and sum(deck.values()) == 168
    assert POINTS[parse_card("RSE")] == POINTS[parse_card("BDA")] == 30 and POINTS[parse_card("G+4")] == 20
    assert {POINTS[parse_card(c)] for c in ("WR+4", "W+6", "W+10", "WCR")} == {50}
    edition = EDITIONS["no-mercy"]
    assert find_edition("No_Mercy") is edition and edition.card_space == 91
    assert EDITIONS["all-wild"].card_space == 75 and not edition.has_blanks


def test_no_mercy_box_rules() -> None:
    """NM-1: the box's rules are house rules always in force; a narrower stacking is refused."""
    rules = Rules.from_dict({"edition": "no-mercy", "players": 3})
    assert rules.stacking == "any" and rules.seven_zero and rules.draw_to_match and rules.must_play_drawn
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(ConfigError, match="stacks a draw card on any drawing as many or more"):
        Rules.from_dict({"edition": "no-mercy", "stacking": "same"})
    with pytest.raises(ConfigError, match="stacks a draw card on any drawing as many or more"):
        Rules.from_dict({"edition": "no-mercy", "stacking": "any", "stack_cards": "up"})
    with pytest.raises(ConfigError, match="no blank cards"):
        Rules.from_dict({"edition": "no-mercy", "blanks": {"R": "R1"}})


def test_all_wild_refuses_no_action_finish() -> None:
    """AW-10: every card is a wild card, so with no_action_finish no hand could end."""
    with pytest.raises(ConfigError, match="no_action_finish cannot be played with the all-wild deck"):
        Rules.from_dict({"edition": "all-wild", "no_action_finish": True})
    assert Rules.from_dict({"edition": "modern", "no_action_finish": True}).no_action_finish


def test_the_custom_option() -> None:
    """M-5: the rule written on the Wild Customizable, always a wild card's; modern only."""
    rules = Rules.from_dict({"edition": "modern", "custom": {"draw": 2, "skip": True}})
    assert rules.custom == BlankEffect(draw=2, skip=True, wild=True)
    assert rules.to_dict()["custom"] == {"draw": 2, "skip": True}
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"edition": "modern", "custom": {}}).custom is None
    assert Rules.from_dict({"edition": "modern", "custom": None}).custom is None
    with pytest.raises(ConfigError, match="the classic deck has no Wild Customizable"):
        Rules.from_dict({"custom": {"draw": 2}})
    with pytest.raises(ConfigError, match="must be wild"):
        Rules(edition=find_edition("modern"), custom=BlankEffect(draw=2))
    for bad, message in (
        ({"wild": False}, "unknown effect 'wild'"),
        ([1], "effect object"),
        ({"draw": 99}, "draw"),
    ):
        with pytest.raises(ConfigError, match=message):
            Rules.from_dict({"edition": "modern", "custom": bad})


def test_suggestion_penalties_and_draw_cards() -> None:
    assert [EDITIONS[e].suggestion_penalty for e in ("classic", "harry-potter", "cars2")] == [4, 2, 2]
    assert [EDITIONS[e].draw_amount for e in ("classic", "harry-potter", "cars2")] == [2, 3, 2]


def test_aliases() -> None:
    assert find_edition("HP").name == "harry-potter"
    assert find_edition("Cars").name == "cars2"


def test_blanks_are_left_out_unless_defined() -> None:
    rules = Rules.from_dict({"edition": "classic", "blanks": {"Y": "Y7", "R": {"draw": 2, "skip": True}}})
    deck = Counter(CARD_CODE[c] for c in rules.deck())
    assert len(rules.deck()) == 110
    assert deck["Y7"] == 3 and deck["RBLANK"] == 1 and "GBLANK" not in deck
    assert rules.blank_effect(0) == BlankEffect(draw=2, skip=True)
    assert rules.blank_effect(1) is None


def test_rules_round_trip() -> None:
    data: dict[str, Any] = {
        "edition": "classic",
        "players": 3,
        "must_play_drawn": True,
        "lenient_plays": True,
        "scoring": "lowest",
        "target": 250,
        "blanks": {"G": {"wild": True}, "Y": "W"},
        "seed": 5,
    }
    rules = Rules.from_dict(data)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["blanks"] == {"Y": "W", "G": {"wild": True}}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"edition": "monopoly"}, "unknown edition"),
        ({"edition": 3}, "edition must be a string"),
        ({"players": 1}, "players"),
        ({"players": 11}, "players"),
        ({"players": "4"}, "players"),
        ({"players": True}, "players"),
        ({"colour": "R"}, "unknown rules option 'colour'"),
        ({"must_play_drawn": "yes"}, "must_play_drawn"),
        ({"lenient_plays": 1}, "lenient_plays"),
        ({"scoring": "highest"}, "scoring"),
        ({"target": 0}, "target"),
        ({"target": "500"}, "target"),
        ({"mode": "duel"}, "mode"),
        ({"stacking": True}, 'stacking must be false, "same" or "any", not true'),
        ({"stacking": "both"}, "stacking must be"),
        ({"seven_zero": "yes"}, "seven_zero must be true or false"),
        ({"jump_in": 1}, "jump_in must be true or false"),
        ({"draw_to_match": None}, "draw_to_match must be true or false"),
        ({"jump_out": True}, "unknown rules option 'jump_out'"),
        ({"edition": "cars2", "blanks": {"R": "R7"}}, "no blank"),
        ({"blanks": {"X": "R7"}}, "colour letter"),
        ({"blanks": {"R": "R77"}}, "not a card"),
        ({"blanks": {"R": "HOWLER"}}, "not a card of this deck"),
        ({"blanks": {"R": {"teleport": True}}}, "unknown effect"),
        ({"blanks": {"R": {"draw": -1}}}, "draw"),
        ({"blanks": {"R": {"skip": "yes"}}}, "skip"),
        ({"blanks": ["R7"]}, "blanks"),
        ({"birthdays": ["07-31"]}, "one entry per player"),
        ({"players": 2, "birthdays": ["13-01", None]}, "MM-DD"),
        ({"seed": "x"}, "seed"),
    ],
)
def test_bad_configuration_is_a_clear_error(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Rules.from_dict(data)


def test_rules_must_be_an_object() -> None:
    with pytest.raises(ConfigError, match="object"):
        Rules.from_dict([])  # type: ignore[arg-type]


def test_birthday_days() -> None:
    assert birthday_day("01-01") == 0
    assert birthday_day("07-31") == 211
    assert birthday_day("12-31") == 364
    assert birthday_day("02-29") == birthday_day("02-28")
    assert birthday_day("02-30") is None
    assert birthday_day("7-31x") is None


def test_replacement_blank_is_the_card() -> None:
    rules = Rules.from_dict({"blanks": {"B": "R3"}})
    assert Counter(rules.deck())[parse_card("R3")] == 3


def test_tables_are_shared_by_rules_that_differ_only_in_scoring_options() -> None:
    from unotable.engine import tables_for  # noqa: PLC0415 - the cache under test

    a = tables_for(Rules(players=3, target=100))
    b = tables_for(Rules(players=3, target=200, scoring="lowest"))
    c = tables_for(Rules(players=3, must_play_drawn=True))
    assert a is b
    assert a is not c


def test_memory_stays_flat_over_thousands_of_rules() -> None:
    """A server makes a ``Rules`` per room: the table cache must not grow with them (issue 12)."""
    import gc  # noqa: PLC0415
    import tracemalloc  # noqa: PLC0415

    from unotable.engine import TABLES_CACHED, new_hand  # noqa: PLC0415
    from unotable.tables import _TABLES  # noqa: PLC0415

    editions = [find_edition(e) for e in ("classic", "harry-potter", "cars2")]

    def make(i: int) -> None:
        rules = Rules(
            edition=editions[i % 3], players=2 + i % 9, target=1 + i, must_play_drawn=bool(i // 27 % 2)
        )
        new_hand(rules, i)

    for i in range(300):  # every distinct table (3 x 9 x 2 = 54) made once
        make(i)
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for i in range(300, 3300):
            make(i)
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(_TABLES) <= TABLES_CACHED
    assert after - before < 2_000_000, f"{(after - before) / 1e6:.1f} MB more after 3,000 rules"


def test_the_table_cache_is_bounded() -> None:
    from unotable.engine import TABLES_CACHED, tables_for  # noqa: PLC0415
    from unotable.tables import _TABLES  # noqa: PLC0415

    for blank in range(TABLES_CACHED + 20):
        effect = BlankEffect(draw=blank % 21, skip=bool(blank // 21 % 2), reverse=bool(blank // 42 % 2))
        tables_for(Rules(blanks=((0, effect),)))
    assert len(_TABLES) == TABLES_CACHED
