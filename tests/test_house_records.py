"""The house rules declared once (issue 22 item 4): one record per rule, read by every layer."""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

import pytest

from unotable import argtypes, house
from unotable.errors import ConfigError
from unotable.house import HOUSE_RULE, HOUSE_RULES, HouseRule, active, values_from
from unotable.rules import HOUSE_PRESETS, Rules, parse_house
from unotable.rules import HOUSE_RULES as HOUSE_NAMES

# docs/rules.md §11's presets, written out by hand: the records must make exactly these.
# Issue 27's rules, official in every preset but crazy.
NEW_OFFICIAL: dict[str, Any] = {
    "stack_cards": False,
    "deflect": False,
    "forced_play": False,
    "no_bluffing": False,
    "uno_penalty": 2,
    "uno_call": False,
    "no_action_finish": False,
    "hand_limit": 112,
    "double_finish": False,
    "multi_play": False,
}
BOOK_PRESETS: dict[str, dict[str, Any]] = {
    "official": {
        "stacking": False,
        "seven_zero": False,
        "jump_in": False,
        "draw_to_match": False,
        **NEW_OFFICIAL,
    },
    "popular": {
        "stacking": "same",
        "seven_zero": False,
        "jump_in": False,
        "draw_to_match": True,
        **NEW_OFFICIAL,
    },
    "party": {"stacking": "any", "seven_zero": True, "jump_in": True, "draw_to_match": True, **NEW_OFFICIAL},
    "crazy": {
        "stacking": "any",
        "seven_zero": True,
        "jump_in": True,
        "draw_to_match": True,
        "stack_cards": "up",
        "deflect": "both",
        "forced_play": True,
        "no_bluffing": True,
        "uno_penalty": 4,
        "uno_call": "strict",
        "no_action_finish": True,
        "hand_limit": 25,
        "double_finish": False,  # H-53: no_action_finish leaves it nothing to double
        "multi_play": "number",
    },
}

# A rule with a number for a value, as issue 27 will add (the missed-UNO penalty): the record
# must hold it.
PENALTY = HouseRule(
    name="uno_penalty",
    kind="int",
    values=(1, 6),
    default=2,
    label="Missed UNO penalty",
    help="A player caught without calling UNO draws this many cards.",
    presets={"party": 4},
    notes={None: "Caught without calling UNO: draw the table's number of cards."},
)


def test_every_house_option_of_rules_has_one_record() -> None:
    defaults = {f.name: f.default for f in dataclasses.fields(Rules)}
    assert tuple(r.name for r in HOUSE_RULES) == HOUSE_NAMES
    assert len(set(HOUSE_NAMES)) == len(HOUSE_NAMES)
    for rule in HOUSE_RULES:
        assert rule.name in defaults, rule.name
        assert defaults[rule.name] == rule.default and type(defaults[rule.name]) is type(rule.default)
        assert rule.default in rule.values or rule.kind == "int"
        assert HOUSE_RULE[rule.name] is rule


def test_the_presets_are_made_from_the_records() -> None:
    assert HOUSE_PRESETS == BOOK_PRESETS
    for name, values in BOOK_PRESETS.items():
        assert house.preset(name) == values
        assert Rules(**values).preset == name
    assert set(house.PRESET_LABELS) == set(house.PRESETS)
    with pytest.raises(ConfigError, match="unknown preset 'wild'"):
        house.preset("wild")


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: r.name)
def test_each_value_round_trips_through_the_house_text(rule: HouseRule) -> None:
    values: list[Any] = list(range(rule.values[0], rule.values[1] + 1) if rule.kind == "int" else rule.values)
    needed = {need: HOUSE_RULE[need].bare for need in rule.needs}  # §11.6: what it needs, on
    for value in values:
        assert parse_house(rule.spell(value))[rule.name] == value
        rules = Rules.from_dict({**needed, rule.name: value})
        assert Rules.from_dict(rules.to_dict()) == rules
        assert (rule.name in rules.to_dict()) == rule.is_on(value)
        if rule.needs and rule.is_on(value):
            with pytest.raises(ConfigError, match=f"needs {rule.needs[0]}"):
                Rules.from_dict({rule.name: value})
        assert (rule.note(value) is None) == (not rule.is_on(value))
    assert parse_house(rule.name)[rule.name] == rule.bare


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, 'option stacking must be false, "same" or "any", not true'),
        ("both", "option stacking must be false"),
        (0, "option stacking must be false"),
    ],
)
def test_a_value_the_record_does_not_take_is_refused(value: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Rules(stacking=value)
    with pytest.raises(ConfigError, match=message):
        values_from({"stacking": value})


def test_bool_rules_refuse_numbers_and_text() -> None:
    for value in (1, 0, "yes", None):
        with pytest.raises(ConfigError, match="option jump_in must be true or false"):
            HOUSE_RULE["jump_in"].check(value)
    with pytest.raises(ConfigError, match=r"bad value 'maybe' for jump_in \(true or false\)"):
        parse_house("jump_in=maybe")
    with pytest.raises(ConfigError, match=r"bad value 'both' for stacking \(same, any or false\)"):
        parse_house("stacking=both")


def test_values_from_an_object() -> None:
    assert values_from({"jump_in": True}) == {**BOOK_PRESETS["official"], "jump_in": True}
    with pytest.raises(ConfigError, match="unknown house rule 'bluffing'"):
        values_from({"bluffing": True})
    with pytest.raises(ConfigError, match="must be an object"):
        values_from("party")  # type: ignore[arg-type]


def test_active_lists_the_rules_off_the_books_in_record_order() -> None:
    rules = Rules(**parse_house("jump_in,stacking=any"))
    assert [(r.name, v) for r, v in active(rules.house)] == [("stacking", "any"), ("jump_in", True)]
    assert active(Rules().house) == []


def test_a_numeric_rule_fits_the_record() -> None:
    assert PENALTY.check(4) == 4
    for bad in (0, 7, True, 2.0, "3"):
        with pytest.raises(ConfigError, match="uno_penalty must be a whole number from 1 to 6"):
            PENALTY.check(bad)
    assert PENALTY.parse("5") == 5
    with pytest.raises(ConfigError, match=r"bad value '9' for uno_penalty \(from 1 to 6\)"):
        PENALTY.parse("9")
    assert PENALTY.spell(4) == "uno_penalty=4" and PENALTY.parse(PENALTY.spell(4)[12:]) == 4
    assert not PENALTY.is_on(2) and PENALTY.is_on(3)
    assert PENALTY.note(2) is None and PENALTY.note(5) is not None
    with pytest.raises(ConfigError, match="uno_penalty needs a value"):
        PENALTY.parse(None)
    data = PENALTY.to_json()
    assert data["kind"] == "int" and data["values"] == [1, 6] and data["default"] == 2
    assert data["presets"] == {"party": 4}


def test_a_record_that_contradicts_itself_is_refused_when_declared() -> None:
    with pytest.raises(ValueError, match="kind"):
        HouseRule(name="x", kind="text", values=(), default="", label="X", help="X.")
    with pytest.raises(ValueError, match="one label per value"):
        HouseRule(name="x", kind="choice", values=(False, "a"), default=False, label="X", help="X.")
    with pytest.raises(ValueError, match="no preset"):
        HouseRule(name="x", kind="bool", values=(0, 1), default=0, label="", help="", presets={"a": 1})
    with pytest.raises(ConfigError):
        HouseRule(name="x", kind="bool", values=(False, True), default=False, label="X", help="X.", bare=3)


def test_the_records_as_json_for_the_web_form() -> None:
    data = json.loads(json.dumps(house.to_json()))
    assert [d["name"] for d in data] == list(HOUSE_NAMES)
    for d in data:
        assert {"name", "kind", "values", "default", "label", "help", "presets", "native"} <= set(d)
        assert d["kind"] in house.KINDS and d["label"] and d["help"].endswith(".")
        for preset, value in d["presets"].items():
            assert HOUSE_PRESETS[preset][d["name"]] == value
    stacking = next(d for d in data if d["name"] == "stacking")
    assert stacking["values"] == [False, "same", "any"] and len(stacking["value_labels"]) == 3


def test_the_command_line_help_names_every_rule_and_preset() -> None:
    for rule in HOUSE_RULES:
        assert rule.name in argtypes.house_help()
    for name in house.PRESETS:
        assert name in argtypes.house_help()
    parser = argparse.ArgumentParser()
    parser.add_argument("--house", type=argtypes.house, help=argtypes.house_help())
    assert "stacking=same|any" in parser.format_help().replace("\n", " ").replace("  ", " ")
    parsed = parser.parse_args(["--house", "popular,jump_in"]).house
    assert parsed == {**BOOK_PRESETS["popular"], "jump_in": True}


@pytest.mark.parametrize(
    "spec",
    ["popular", "party", "crazy", "stacking=same,seven_zero", "jump_in", "uno_call=silent,hand_limit=30"],
)
def test_the_terminals_rules_help_says_each_rules_note(spec: str) -> None:
    """The ``?`` help of the terminal shows, for each house rule in force, its record's note."""
    from unotable.tui import words  # noqa: PLC0415

    rules = Rules(players=4, **parse_house(spec))
    shown = " ".join(words.rules_text(rules, 4).split())
    on = active(rules.house)
    assert on
    for rule, value in on:
        note = rule.note(value)
        assert note is not None and " ".join(note.split()) in shown, rule.name
    for rule in HOUSE_RULES:
        if not rule.is_on(rules.house[rule.name]):
            assert all(" ".join(n.split()) not in shown for n in rule.notes.values()), rule.name
