"""Several cards at once (``multi_play``, docs/rules.md §11.5, H-25 to H-35): the
notation's ``more``, the view, the env, the bots, the native core's refusal and the terminal,
beside the scenario files ``house_multi_play_*.json`` that prove the rule itself."""

from __future__ import annotations

import asyncio

import pytest

from unotable.bots import make_bot
from unotable.cards import CLASSIC_CARD_TYPES, parse_card
from unotable.engine import apply, from_position, legal_ids
from unotable.errors import IllegalActionError
from unotable.match import Game
from unotable.notation import (
    ACTION_CARD,
    ACTION_ID,
    ACTION_MORE,
    ACTION_TEXT,
    MORE_IDS,
    OPENS_SERIES,
    parse_action,
)
from unotable.rules import Rules
from unotable.sim import SimConfig, parse_bots, simulate
from unotable.state import Phase, State
from unotable.views import view

PILE = ["B1", "B2", "B3", "B4", "B6", "B8", "Y7", "Y8"]


def position(rules: Rules, hands: list[list[str]], top: str = "R3", color: int = 0) -> State:
    return from_position(
        rules,
        hands=[[parse_card(c) for c in h] for h in hands],
        draw_pile=[parse_card(c) for c in PILE],
        discard=[parse_card(top)],
        color=color,
        current=0,
    )


def test_more_is_one_spelling_per_number_card_numbered_last() -> None:
    more = [a for a, m in enumerate(ACTION_MORE) if m]
    # Old ids unchanged: the more ids follow every earlier action; only the later editions'
    # cards (docs/rules.md §12) are numbered after them, UNO Flip's dark numbers' more ids
    # among those (§15, numbered last).
    old = [a for a in more if ACTION_CARD[a] < CLASSIC_CARD_TYPES]
    assert old == list(range(old[0], old[0] + len(old)))
    assert all(ACTION_CARD[a] >= CLASSIC_CARD_TYPES for a in range(old[-1] + 1, len(ACTION_TEXT)))
    assert all(ACTION_CARD[a] < CLASSIC_CARD_TYPES for a in range(old[0]))
    assert len(more) == 2 * sum(OPENS_SERIES)  # with and without uno
    assert parse_action("play R5 more") == MORE_IDS[parse_card("R5")][0]
    assert parse_action("play R5 more uno") == MORE_IDS[parse_card("R5")][1]
    assert "play R5 uno more" not in ACTION_ID and "play RS more" not in ACTION_ID
    assert "play W more" not in ACTION_ID and "play R7 1 more" not in ACTION_ID


def test_the_view_shows_the_series_and_its_json_only_with_the_rule() -> None:
    rules = Rules(players=3, multi_play="number")
    st = position(rules, [["R5", "B5", "Y2"], ["G1", "G2"], ["Y3", "Y4"]])
    assert view(st, 1).to_dict()["series"] is None
    st, events = apply(st, 0, "play R5 more")
    assert [(e.kind, e.seat, e.reason) for e in events if e.kind == "turn"] == [("turn", 0, "more")]
    for seat in (0, 1, None):
        v = view(st, seat)
        assert v.series == parse_card("R5")
        assert v.to_dict()["series"] == "R5"
    assert "series" not in view(position(Rules(players=3), [["R5"], ["G1"], ["Y3"]]), 0).to_dict()


def test_the_view_says_which_cards_of_its_hand_follow_each_in_a_series() -> None:
    """The page picks several cards at once from the view alone (issue 35): per card of the
    seat's hand, the others that may follow it, from the core's ``series_next``: with
    ``number`` the cards of its number, with ``identical`` only a second copy; none for action
    cards; nothing in the view of nobody nor without the rule."""
    hand = ["R5", "B5", "G5", "Y2", "Y2", "R7", "RS", "W"]
    number = position(Rules(players=3, multi_play="number"), [hand, ["G1", "G2"], ["Y3", "Y4"]])
    assert view(number, 0).to_dict()["follows"] == {
        "R5": ["G5", "B5"],
        "Y2": ["Y2"],
        "G5": ["R5", "B5"],
        "B5": ["R5", "G5"],
    }
    assert view(number, 1).to_dict()["follows"] == {}  # G1 and G2: no two of one number
    assert view(number, None).to_dict()["follows"] == {}
    identical = position(Rules(players=3, multi_play="identical"), [hand, ["G1", "G2"], ["Y3", "Y4"]])
    assert view(identical, 0).to_dict()["follows"] == {"Y2": ["Y2"]}
    assert "follows" not in view(position(Rules(players=3), [hand, ["G1"], ["Y3"]]), 0).to_dict()
    # Each listed card really follows: after "play CARD more" the core offers its plays.
    st, _ = apply(number, 0, "play R5 more")
    assert {a.split(" ")[1] for a in view(st, 0).legal_actions} == {"B5", "G5"}


def test_a_refused_action_inside_a_series_names_the_rule() -> None:
    rules = Rules(players=3, multi_play="number")
    st = position(rules, [["R5", "B5", "R2"], ["G1", "G2"], ["Y3", "Y4"]])
    st, _ = apply(st, 0, "play R5 more")
    with pytest.raises(IllegalActionError, match="multi_play") as info:
        apply(st, 0, "play R2")
    assert info.value.code == "not_playable"
    with pytest.raises(IllegalActionError, match="a card of its number follows") as info:
        apply(st, 0, "draw")
    assert info.value.code == "not_allowed_now"
    with pytest.raises(IllegalActionError, match="needs the house rule multi_play"):
        apply(position(Rules(players=3), [["R5", "B5"], ["G1"], ["Y3"]]), 0, "play R5 more")


def test_a_world_sampled_inside_another_seats_series_gives_it_a_card_to_follow() -> None:
    import random  # noqa: PLC0415

    from unotable.determinize import determinize  # noqa: PLC0415
    from unotable.invariants import check_invariants  # noqa: PLC0415

    rules = Rules(players=3, multi_play="number")
    hands = [["R5", "B5", "Y2", "G7"], ["G1", "G2"], ["Y3", "Y4"]]
    rest = rules.deck()
    for c in [*(c for h in hands for c in h), "R3"]:
        rest.remove(parse_card(c))
    st = from_position(
        rules,
        hands=[[parse_card(c) for c in h] for h in hands],
        draw_pile=rest,
        discard=[parse_card("R3")],
        color=0,
        current=0,
    )
    st, _ = apply(st, 0, "play R5 more")
    rng = random.Random(3)
    for _ in range(20):
        world = determinize(view(st, 1), rng)
        check_invariants(world)
        fives = {parse_card(c) for c in ("R5", "B5", "G5", "Y5")}
        assert world.series == parse_card("R5") and fives.intersection(world.hands[0])
        assert legal_ids(world, 0)


def test_the_env_has_the_more_ids_and_the_series_segment_only_with_the_rule() -> None:
    np = pytest.importorskip("numpy")
    from unotable.env.actions import action_table  # noqa: PLC0415
    from unotable.env.encoding import layout_for, write_mask  # noqa: PLC0415

    plain = Rules(players=3)
    rules = Rules(players=3, multi_play="number")
    assert not any(ACTION_MORE[a] for a in action_table(plain).ids)
    table = action_table(rules)
    assert sum(ACTION_MORE[a] for a in table.ids) == 2 * sum(OPENS_SERIES[t] for t in set(rules.deck()))
    assert table.from_text("play R5 more") < table.decline
    assert "series" not in layout_for(plain).by_name
    lay = layout_for(rules)
    seg = lay.by_name["series"]
    assert seg.stop == lay.size  # the last segment: the other rules' layouts stay as they were
    st = position(rules, [["R5", "B5", "Y2"], ["G1", "G2"], ["Y3", "Y4"]])
    st, _ = apply(st, 0, "play R5 more")
    out = np.zeros(lay.size, dtype=np.float32)
    lay.encode(view(st, 1), False, out)
    assert list(np.flatnonzero(out[seg.start : seg.stop])) == [parse_card("R5")]
    mask = np.zeros(table.size, dtype=np.int8)
    write_mask(view(st, 0), False, table, mask)
    assert [table.texts[i] for i in np.flatnonzero(mask)] == ["play B5", "play B5 uno"]


def test_greedy_sheds_every_card_of_the_number_its_best_colour_last() -> None:
    rules = Rules(players=3, multi_play="number")
    st = position(rules, [["R5", "B5", "G5", "G1", "G2"], ["G3", "G4"], ["Y3", "Y4"]])
    bot = make_bot("greedy", seed=1)
    played = []
    while st.current == 0 and st.phase == Phase.TURN:
        aid = bot.act(view(st, 0))
        assert aid in legal_ids(st, 0)
        played.append(ACTION_TEXT[aid])
        st, _ = apply(st, 0, aid)
    assert played[0] == "play R5 more" and len(played) == 3
    assert played[-1] == "play G5"  # green, the colour it holds most, is the colour in play


@pytest.mark.parametrize("value", ["number", "identical"])
def test_every_bot_plays_multi_play_to_the_end_with_jump_in(value: str) -> None:
    rules = Rules(players=4, multi_play=value, jump_in=True, seven_zero=True)
    bots = tuple(parse_bots("greedy,search:budget=8,random,learned", 4))
    records = simulate(SimConfig(rules=rules, bots=bots, hands=6, seed=11), workers=1)
    assert len(records) == 6


def test_the_native_core_refuses_multi_play_by_its_allow_list() -> None:
    from unotable.native import COMPILED  # noqa: PLC0415
    from unotable.native.core import NativeUnsupportedError, check_supported, unsupported  # noqa: PLC0415

    if not COMPILED:
        pytest.skip("the native core is not built")
    assert unsupported(Rules(players=3)) is None
    assert unsupported(Rules(players=3, multi_play="number")) == (
        "the native core does not play the house rule multi_play (docs/rules.md §11)"
    )
    with pytest.raises(NativeUnsupportedError):
        check_supported(Rules(players=3, multi_play="identical"))


def test_a_person_in_the_terminal_plays_several_cards_with_m() -> None:
    from unotable.tui.app import UnoApp  # noqa: PLC0415
    from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, Table, card_sort_key  # noqa: PLC0415

    rules = Rules(players=3, target=200, multi_play="number")
    seed = 2
    game = Game.new(rules, seed)
    bots = {p: make_bot("greedy", seed * 10 + p) for p in (1, 2)}
    table = Table(game, bots, human=0, names=["You", *BOT_NAMES_FOR_PEOPLE[1:3]], seed=seed)
    app = UnoApp(table, delay=10_000.0)
    seen = {"more": False, "series": False}

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(3000):
                if table.game.finished or seen["series"]:
                    return
                if app.between_hands:
                    await pilot.press("enter")
                    continue
                v = table.view()
                ch = table.choices()
                if v is None or v.current != v.seat:
                    if v is not None and ch.uno is not None:
                        await pilot.press("u")
                    elif not app.advance_clock():
                        raise AssertionError("stuck")
                    continue
                hand = sorted(v.hand, key=card_sort_key)
                if v.phase == Phase.TURN and v.series >= 0:
                    seen["series"] = True
                    index = next(i for i, c in enumerate(hand) if c in ch.plays)
                    app.cursor = index
                    await pilot.press("enter")
                elif ch.more and v.phase == Phase.TURN:
                    app.cursor = next(i for i, c in enumerate(hand) if c in ch.more)
                    await pilot.press("m")
                    seen["more"] = True
                    assert table.view().series >= 0  # type: ignore[union-attr]
                elif app.picking:
                    await pilot.press("r")
                elif v.phase == Phase.RESPOND:
                    await pilot.press("a")
                elif v.phase == Phase.CHOOSE_COLOR:
                    await pilot.press("g")
                elif v.phase == Phase.AFTER_DRAW:
                    await pilot.press("p")
                elif not ch.plays:
                    await pilot.press("d")
                else:
                    app.cursor = next(i for i, c in enumerate(hand) if c in ch.plays)
                    await pilot.press("enter")

    asyncio.run(go())
    assert seen["more"] and seen["series"]
    mine = [a for hand in table.game.to_dict()["hands"] for s, a in hand if s == 0]
    assert any(a.startswith("play ") and " more" in a for a in mine)
