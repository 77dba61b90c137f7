"""The more house rules of docs/rules.md §11.5 (stack_cards to double_finish): the examples beside
the scenario files, the bots and the env under every rule (the combinations refused and the
presets: test_house_records.py; several cards at once: test_multi_play.py)."""

from __future__ import annotations

from typing import Any

import pytest

from unotable.bots import make_bot
from unotable.cards import parse_card
from unotable.engine import apply, from_position, legal_actions, legal_ids, new_hand
from unotable.errors import IllegalActionError
from unotable.house import HOUSE_RULE, HOUSE_RULES, preset
from unotable.rules import Rules, find_edition
from unotable.sim import SimConfig, parse_bots, simulate
from unotable.state import Phase, State

PILE12 = ["B1", "B2", "B3", "B4", "B6", "B7", "B8", "B9", "G4", "G5", "G6", "G7"]
NEW = [r for r in HOUSE_RULES if r.name not in ("stacking", "seven_zero", "jump_in", "draw_to_match")]


def position(rules: Rules, hands: list[list[str]], pile: list[str], top: str, color: int = 0) -> State:
    return from_position(
        rules,
        hands=[[parse_card(c) for c in h] for h in hands],
        draw_pile=[parse_card(c) for c in pile],
        discard=[parse_card(top)],
        color=color,
        current=0,
    )


# ---- each rule, by example


def test_uno_penalty_is_what_a_catch_draws() -> None:
    for penalty in (1, 4, 10):
        st = position(Rules(players=3, uno_penalty=penalty), [["R1", "G1"], ["B5"], ["Y3"]], PILE12, "R5")
        st, _ = apply(st, 0, "play R1")
        st, events = apply(st, 2, "catch 0")
        assert len(st.hands[0]) == 1 + penalty
        assert [e.count for e in events if e.kind == "draw"] == [penalty]


def test_forced_play_refuses_the_draw_with_a_reason() -> None:
    st = position(Rules(players=2, forced_play=True), [["R1", "G1"], ["B5"]], ["B1"], "R5")
    with pytest.raises(IllegalActionError, match="forced_play") as info:
        apply(st, 0, "draw")
    assert info.value.code == "not_allowed_now"


def test_no_action_finish_refuses_every_kind_of_last_action_card() -> None:
    for edition, card, play in (
        ("classic", "RS", "play RS"),
        ("classic", "R+2", "play R+2"),
        ("classic", "W+4", "play W+4 G"),
        ("harry-potter", "HOWLER", "play HOWLER 1"),
        ("cars2", "MATER", "play MATER"),
    ):
        rules = Rules(edition=find_edition(edition), players=2, no_action_finish=True)
        st = position(rules, [[card], ["B5", "B6"]], ["B1"], "R5")
        assert legal_actions(st, 0) == ["draw"], edition
        with pytest.raises(IllegalActionError, match="no_action_finish"):
            apply(st, 0, play)


def test_a_deflection_is_narrated() -> None:
    from unotable.narrate import describe  # noqa: PLC0415

    rules = Rules(players=3, stacking="same", deflect="both")
    st = position(rules, [["R+2", "G1"], ["RS", "Y5"], ["Y3", "Y4"]], PILE12[:6], "R5")
    st, _ = apply(st, 0, "play R+2")
    st, events = apply(st, 1, "play RS")
    said = [describe(e, ["Ana", "Bo", "Cy"]) for e in events]
    assert "Bo sent the red Draw Two on to Cy: 2 cards." in said


def test_double_finish_doubles_in_lowest_scoring_too() -> None:
    for double in (False, True):
        rules = Rules(players=3, scoring="lowest", double_finish=double)
        st = position(rules, [["R+2"], ["B5"], ["Y3"]], ["G2", "B3"], "R5")
        st, _ = apply(st, 0, "play R+2")
        assert st.hand_points == (2 if double else 1) * (5 + 2 + 3 + 3)


# ---- bots and simulation under every rule


@pytest.mark.parametrize("rule", NEW, ids=lambda r: r.name)
def test_bots_play_every_rule_legally(rule: Any) -> None:
    """Greedy, aggressive and search (its worlds and rollouts) answer only with legal actions
    (the simulator refuses any other, BotError) with each rule at a value other than official."""
    needed = {need: HOUSE_RULE[need].bare for need in rule.needs}
    value = rule.presets.get("crazy", rule.bare)
    rules = Rules(players=3, **{**needed, rule.name: value})
    bots = tuple(parse_bots("greedy,aggressive,search:budget=8", 3))
    records = simulate(SimConfig(rules=rules, bots=bots, hands=6, seed=5), workers=1)
    assert len(records) == 6


@pytest.mark.parametrize("edition", ["classic", "harry-potter", "cars2"])
def test_the_crazy_preset_plays_to_the_end(edition: str) -> None:
    rules = Rules(edition=find_edition(edition), players=4, **preset("crazy"))
    bots = tuple(parse_bots("greedy,search:budget=8,cautious,random", 4))
    records = simulate(SimConfig(rules=rules, bots=bots, hands=8, seed=27), workers=1)
    assert len(records) == 8


def test_greedy_plays_when_forced_to_instead_of_drawing() -> None:
    """A bluffing Wild Draw Four the greedy bot would never play, but forced_play leaves no draw."""
    from unotable.views import view  # noqa: PLC0415

    rules = Rules(players=2, forced_play=True)
    st = position(rules, [["W+4", "R1", "G2", "G3"], ["B5", "B6", "B7", "B8"]], ["B1"], "Y5", color=1)
    bot = make_bot("greedy", seed=1)
    v = view(st, 0)
    assert bot.act(v) in legal_ids(st, 0)


# ---- the env


def test_the_env_encodes_the_pending_card_with_deflect() -> None:
    pytest.importorskip("numpy")
    from unotable.env.encoding import layout_for  # noqa: PLC0415
    from unotable.views import view  # noqa: PLC0415

    plain = layout_for(Rules(players=3, stacking="same"))
    assert "pending_card" not in plain.by_name
    rules = Rules(players=3, stacking="same", deflect="both")
    lay = layout_for(rules)
    seg = lay.by_name["pending_card"]
    assert seg.start == plain.size + 0 or seg.start >= plain.size
    st = position(rules, [["R+2", "G1"], ["RS", "Y5"], ["Y+2", "Y4"]], PILE12[:6], "R5")
    st, _ = apply(st, 0, "play R+2")
    st, _ = apply(st, 1, "play RS")
    assert st.phase == Phase.RESPOND and st.current == 2
    import numpy as np  # noqa: PLC0415

    out = np.zeros(lay.size, dtype=np.float32)
    lay.encode(view(st, 2), False, out)
    hot = np.flatnonzero(out[seg.start : seg.stop])
    assert list(hot) == [parse_card("R+2")]
    top = lay.by_name["top"]
    assert list(np.flatnonzero(out[top.start : top.stop])) == [parse_card("RS")]


def test_a_new_hand_deals_under_every_rule() -> None:
    rules = Rules(players=5, **preset("crazy"))
    st = new_hand(rules, 3)[0]
    assert all(len(h) == 7 for h in st.hands)
