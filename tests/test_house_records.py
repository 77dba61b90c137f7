"""The house rules declared once: one record per rule, read by every layer; what the records
declare they refuse and make no sense with (docs/rules.md §11.6, the combinations refused)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
from collections import OrderedDict
from typing import Any

import pytest

from unotable import argtypes, house, tables
from unotable.bots.rollout import rollout_action
from unotable.engine import legal_ids, new_hand, step, tables_for
from unotable.errors import ConfigError
from unotable.house import (
    HOUSE_RULE,
    HOUSE_RULES,
    Conflict,
    HouseRule,
    Refusal,
    active,
    combination_error,
    official,
    preset,
    refusals,
    sensible,
    values_from,
)
from unotable.notation import ACTION_KIND, ACTION_TEXT, Kind
from unotable.rules import HOUSE_PRESETS, Rules, find_edition, parse_house
from unotable.rules import HOUSE_RULES as HOUSE_NAMES
from unotable.state import PHASE_HAND_OVER, State

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
        for name, value in d["presets"].items():
            assert HOUSE_PRESETS[name][d["name"]] == value
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


# ---- combinations (H-22)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stack_cards": "up"}, "house rule stack_cards=up needs stacking"),
        ({"deflect": "skip"}, "house rule deflect=skip needs stacking"),
        ({"uno_call": "silent", "uno_penalty": 4}, "uno_penalty means nothing with uno_call=silent"),
        ({"hand_limit": 7}, "hand_limit must be a whole number from 8 to 112"),
        ({"uno_penalty": 0}, "uno_penalty must be a whole number from 1 to 10"),
        ({"deflect": True}, 'deflect must be false, "reverse", "skip" or "both"'),
    ],
)
def test_a_combination_that_makes_no_sense_is_refused_at_rules_time(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        Rules(**options)
    with pytest.raises(ConfigError, match=message):
        Rules.from_dict(options)


def test_sensible_puts_back_only_what_is_refused() -> None:
    values = {**official(), "deflect": "both", "stack_cards": "fours", "uno_call": "silent", "uno_penalty": 5}
    assert combination_error(values) is not None
    fixed = sensible(values)
    assert combination_error(fixed) is None
    assert fixed == {**values, "deflect": False, "stack_cards": False, "uno_penalty": 2}
    assert sensible(preset("crazy")) == preset("crazy")


def test_random_combinations_of_every_rule_make_rules_or_a_clear_error() -> None:
    rnd = random.Random(27)
    made = refused = 0
    for _ in range(400):
        values = official()
        for rule in HOUSE_RULES:
            if rnd.random() < 0.5:
                values[rule.name] = (
                    rnd.randint(*rule.values) if rule.kind == "int" else rnd.choice(rule.values)
                )
        error = combination_error(values)
        if error is None:
            Rules(players=rnd.randint(2, 10), **values)
            made += 1
        else:
            with pytest.raises(ConfigError, match=r"docs/rules\.md §11\.6"):
                Rules(**values)
            refused += 1
    assert made > 100 and refused > 50


def test_the_crazy_preset_is_nearly_everything() -> None:
    crazy = preset("crazy")
    on = [r.name for r in HOUSE_RULES if r.is_on(crazy[r.name])]
    # Not double_finish (H-53): with no_action_finish no hand is won on a draw card.
    assert set(on) == {r.name for r in HOUSE_RULES} - {"double_finish"}
    assert crazy["no_action_finish"]
    assert crazy["uno_call"] == "strict"  # not silent: the missed-UNO penalty would mean nothing
    assert Rules(**crazy).preset == "crazy"
    assert parse_house("crazy,hand_limit=30")["hand_limit"] == 30


def test_new_rules_at_their_defaults_change_nothing() -> None:
    assert Rules(**official()) == Rules()
    assert Rules().to_dict() == {"edition": "classic", "players": 4}


# ---- what the records declare they refuse (the search's rollouts check it)

# The rules that refuse an action the books allow, at the values that refuse: before the records
# declared it, `Tables.refuses_more` listed forced_play, no_action_finish, no_bluffing, deflect
# and stack_cards by hand; strict and silent UNO and multi_play's series refuse too.
REFUSING = {
    "stack_cards": ("draws", "fours", "up"),
    "deflect": ("reverse", "skip", "both"),
    "forced_play": (True,),
    "no_bluffing": (True,),
    "uno_call": ("strict", "silent"),
    "no_action_finish": (True,),
    "multi_play": ("number", "identical"),
}


def _on_values(rule: HouseRule) -> list[Any]:
    if rule.kind == "int":
        return [v for v in (rule.values[0], rule.values[1], rule.bare) if rule.is_on(v)]
    return [v for v in rule.values if rule.is_on(v)]


def _rules(**options: Any) -> Rules:
    needs = {"stacking": "same"} if any(HOUSE_RULE[k].needs for k in options) else {}
    return Rules(**{**needs, **options})


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: r.name)
def test_refuses_more_is_made_from_the_records_refusals(rule: HouseRule) -> None:
    for value in _on_values(rule):
        refused = bool(rule.refusals(value))
        assert refused == (value in REFUSING.get(rule.name, ())), (rule.name, value)
        assert tables.Tables(_rules(**{rule.name: value})).refuses_more is refused
    assert rule.refusals(rule.default) == ()
    assert not tables.Tables(Rules()).refuses_more
    assert not tables.Tables(Rules(stacking="any", seven_zero=True, jump_in=True)).refuses_more


def test_a_refusal_names_kinds_of_action_and_values_the_rule_takes() -> None:
    # house.py cannot import the notation (which imports the rules): its copy of the kinds is checked.
    assert tuple(k.name.lower() for k in Kind) == house.ACTION_KINDS
    with pytest.raises(ValueError, match="kinds of play"):
        dataclasses.replace(HOUSE_RULE["forced_play"], refuses=(Refusal(("draw_a_card",), "never"),))
    with pytest.raises(ValueError, match="official value refuses nothing"):
        dataclasses.replace(HOUSE_RULE["forced_play"], refuses=(Refusal(("draw",), "never", (False,)),))
    with pytest.raises(ConfigError, match="uno_call must be"):
        dataclasses.replace(HOUSE_RULE["uno_call"], refuses=(Refusal(("uno",), "never", ("loud",)),))
    assert [x.kinds for _, x in refusals({"uno_call": "strict", "forced_play": True})] == [
        ("draw",),
        ("pass",),
        ("uno",),
    ]


def greedy_refused(rules: Rules, hands: int, seed: int) -> list[str]:
    """The greedy choices of the search's rollouts that ``rules`` refuse, unchecked (each seat's
    action is what a rollout takes, as if ``Tables.refuses_more`` were false), in ``hands`` hands
    played by random legal actions of every seat (so that every kind of state comes up)."""
    rnd = random.Random(seed)
    found: list[str] = []
    for h in range(hands):
        st, _ = new_hand(rules, seed * 1000 + h, record=False)
        for _ in range(400):
            if st.phase >= PHASE_HAND_OVER:
                break
            legal = legal_ids(st, st.current)
            chosen = _unchecked(st)
            if chosen not in legal:
                found.append(f"{ACTION_TEXT[chosen]} ({ACTION_KIND[chosen]}) refused in {st.phase}")
            step(st, st.current, rnd.choice(sorted(legal)))
    return found


def _unchecked(st: State) -> int:
    """:func:`rollout_action` as at a table that declares no refusal (its check skipped)."""
    refuses = st.tables.refuses_more
    try:
        st.tables.refuses_more = False
        return rollout_action(st)
    finally:
        st.tables.refuses_more = refuses


def _not_refusing(rnd: random.Random) -> dict[str, Any]:
    values = official()
    for rule in HOUSE_RULES:
        if rnd.random() < 0.6:
            values[rule.name] = rnd.choice(
                [v for v in _on_values(rule) if not rule.refusals(v)] or [rule.default]
            )
    return sensible(values)


def test_at_a_table_without_a_declared_refusal_the_rollouts_choice_is_always_legal() -> None:
    # What makes it safe for the rollouts to skip their check where no refusal is declared.
    rnd = random.Random(35)
    for i in range(40):
        values = _not_refusing(rnd)
        rules = Rules(
            players=rnd.randint(2, 5), edition=find_edition(rnd.choice(["classic", "harry-potter"])), **values
        )
        assert not tables_for(rules).refuses_more
        assert greedy_refused(rules, hands=3, seed=i) == [], values


def test_a_rule_that_refuses_without_declaring_it_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # no_bluffing refuses the challenge; a record that forgets to say so makes no refusal in force,
    # and the check above finds the rollouts' challenge refused.
    forgetful = dataclasses.replace(HOUSE_RULE["no_bluffing"], refuses=())
    monkeypatch.setattr(
        house, "HOUSE_RULES", tuple(forgetful if r.name == "no_bluffing" else r for r in HOUSE_RULES)
    )
    monkeypatch.setattr(tables, "_TABLES", OrderedDict())
    monkeypatch.setattr(tables, "_TABLES_BY_ID", {})
    rules = Rules(no_bluffing=True)
    assert not tables_for(rules).refuses_more
    found = greedy_refused(rules, hands=12, seed=1)
    assert found and all("challenge" in f for f in found)


# ---- what the records declare they make no sense with


def test_conflicts_come_from_the_records() -> None:
    assert HOUSE_RULE["uno_penalty"].conflicts == (Conflict("uno_call", ("silent",), "nobody is caught"),)
    assert {r.name: r.needs for r in HOUSE_RULES if r.needs} == {
        "stack_cards": ("stacking",),
        "deflect": ("stacking",),
    }
    assert combination_error({**official(), "uno_call": "silent", "uno_penalty": 3}) == (
        "house rule uno_penalty means nothing with uno_call=silent: nobody is caught (docs/rules.md §11.6)"
    )


def test_a_record_may_conflict_with_an_edition(monkeypatch: pytest.MonkeyPatch) -> None:
    picky = dataclasses.replace(
        HOUSE_RULE["seven_zero"], conflicts=(Conflict("edition", ("harry-potter",), "a made-up reason"),)
    )
    monkeypatch.setattr(
        house, "HOUSE_RULES", tuple(picky if r.name == "seven_zero" else r for r in HOUSE_RULES)
    )
    message = "house rule seven_zero means nothing with edition=harry-potter: a made-up reason"
    with pytest.raises(ConfigError, match=message):
        Rules(edition=find_edition("harry-potter"), seven_zero=True)
    Rules(seven_zero=True)
    Rules(edition=find_edition("harry-potter"))
    assert sensible({**official(), "seven_zero": True}, "harry-potter")["seven_zero"] is False
    with pytest.raises(ValueError, match="another option"):
        dataclasses.replace(HOUSE_RULE["seven_zero"], conflicts=(Conflict("seven_zero", (True,), "itself"),))
