"""Hypothesis properties of the engine over random reachable states (STYLE.md, "Habits").

A state is reached by dealing a hand from random rules (edition, 2-10 players, options, classic
blanks, carried scores) and a seed, then taking a sequence of legal actions that Hypothesis
chooses: which seat acts (the current seat mostly, sometimes another seat with a legal action,
such as a catch, a late ``uno`` or ``wrong``, and sometimes the ``table``) and which of its
legal actions it takes. Every property is checked on states reached that way.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unotable.cards import (
    AW_DRAW_FOUR,
    AW_DRAW_TWO,
    AW_SWAP,
    AW_TARGET,
    BLANK,
    CARD_CODE,
    CARD_COLOR,
    CARD_VALUE,
    COLORS,
    DRAW_THREE,
    DRAW_TWO,
    FL_DRAW_FIVE,
    FL_DRAW_ONE,
    FL_WILD_DRAW_COLOR,
    FL_WILD_DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    IS_WILD,
    NM_DISCARD_ALL,
    NM_DRAW_FOUR,
    NUM_CARD_TYPES,
    POINTS,
    REVERSE,
    SKIP,
    WILD_DRAW_FOUR,
    parse_card,
)
from unotable.engine import (
    actors,
    apply,
    check,
    from_position,
    legal_actions,
    legal_ids,
    new_hand,
    seat_index,
    step,
)
from unotable.errors import ERROR_CODES, IllegalActionError, NotationError
from unotable.events import Event
from unotable.house import HOUSE_RULE, sensible
from unotable.house import HOUSE_RULES as HOUSE_RULE_RECORDS
from unotable.house import official as official_house
from unotable.invariants import check_invariants
from unotable.notation import (
    ACTION_ID,
    ACTION_TEXT,
    ACTIONS,
    DRAW_ID,
    TABLE,
    Kind,
    decode,
    format_action,
    parse_action,
)
from unotable.rules import CLASSIC, EDITIONS, MAX_PLAYERS, Rules
from unotable.state import Phase, State
from unotable.tables import NM_DRAWS
from unotable.views import view

MAX_STEPS: Final = 160
"""Longest action sequence Hypothesis draws from a fresh deal."""

PROPERTY_SETTINGS: Final = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CHEAP_SETTINGS: Final = settings(max_examples=200, deadline=None)

Seat = int | str

# --------------------------------------------------------------------------------------------
# Random rules and random reachable states.

REPLACEABLE: Final = sorted({CARD_CODE[c] for c in CLASSIC.base_deck()})
"""Card codes a classic blank may stand for."""

blank_effects = st.fixed_dictionaries(
    {},
    optional={
        "draw": st.integers(0, 4),
        "skip": st.booleans(),
        "reverse": st.booleans(),
        "wild": st.booleans(),
        "reveal": st.booleans(),
    },
)
blank_sets = st.one_of(
    st.just({"R": "R7", "Y": {"draw": 1, "skip": True}, "G": {"wild": True}, "B": {"reverse": True}}),
    st.dictionaries(
        st.sampled_from(COLORS), st.one_of(st.sampled_from(REPLACEABLE), blank_effects), max_size=4
    ),
)
birthdays = st.one_of(
    st.none(),
    st.builds(lambda m, d: f"{m:02d}-{d:02d}", st.integers(1, 12), st.integers(1, 28)),
)


custom_rules = st.fixed_dictionaries(
    {},
    optional={
        "draw": st.integers(0, 4),
        "skip": st.booleans(),
        "reverse": st.booleans(),
        "reveal": st.booleans(),
    },
)
"""A rule written on the modern deck's Wild Customizable (docs/rules.md §12, M-5)."""


@st.composite
def rules_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """The JSON form of random rules: every edition, 2-10 players, the options of docs/rules.md."""
    edition = draw(st.sampled_from(sorted(EDITIONS)))
    players = draw(st.integers(2, MAX_PLAYERS))
    data: dict[str, Any] = {"edition": edition, "players": players}
    if draw(st.booleans()):
        data["must_play_drawn"] = True
    if draw(st.booleans()):
        data["lenient_plays"] = True
    if draw(st.booleans()):
        data["scoring"] = "lowest"
    data["target"] = draw(st.sampled_from([500, 100, 1]))
    if "scoring" not in data and data["target"] == 500 and draw(st.booleans()):
        data["mode"] = "elimination"  # docs/rules.md §10, H-36 to H-38: the hand's end differs
    if edition == "classic" and draw(st.booleans()):
        data["blanks"] = draw(blank_sets)
    if edition == "harry-potter" and draw(st.booleans()):
        data["birthdays"] = draw(st.lists(birthdays, min_size=players, max_size=players))
    if edition == "modern" and draw(st.booleans()):  # docs/rules.md §12, M-5
        data["custom"] = draw(custom_rules)
    # RULES §11: every house rule, alone and in any combination.
    data["stacking"] = draw(st.sampled_from([False, "same", "any"]))
    for name in ("seven_zero", "jump_in", "draw_to_match"):
        if draw(st.booleans()):
            data[name] = True
    # Issue 27's rules (docs/rules.md §11.5), any value; a combination §11.6 refuses is made
    # sensible (the rule needing another is put back to official).
    for rule in HOUSE_RULE_RECORDS[4:]:
        if draw(st.booleans()):
            low_high = range(rule.values[0], rule.values[1] + 1) if rule.kind == "int" else rule.values
            data[rule.name] = draw(st.sampled_from(list(low_high)))
    house_values = sensible({**official_house(), **{k: v for k, v in data.items() if k in HOUSE_RULE}})
    data.update({k: v for k, v in house_values.items() if k in data or HOUSE_RULE[k].is_on(v)})
    if edition == "all-wild":  # docs/rules.md §13, AW-10: refused with a deck of wild cards only
        data.pop("no_action_finish", None)
    if edition == "no-mercy":  # docs/rules.md §14, NM-1: the box stacks any draw as large or larger
        data.pop("stack_cards", None)
        data["stacking"] = "any"
    return data


@dataclass(frozen=True)
class Script:
    """How to reach a state: rules, a seed, the deal, and Hypothesis's choices: two bytes per
    step (one byte string, which Hypothesis draws and shrinks much faster than a list)."""

    rules: Rules
    seed: int
    dealer: int | None
    scores: tuple[int, ...] | None
    choices: bytes


@st.composite
def scripts(draw: st.DrawFn, max_steps: int = MAX_STEPS) -> Script:
    """A random :class:`Script`."""
    rules = Rules.from_dict(draw(rules_dicts()))
    n = rules.players
    seed = draw(st.integers(-(2**63), 2**64))
    dealer = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    scores = draw(st.one_of(st.none(), st.lists(st.integers(0, 600), min_size=n, max_size=n)))
    length = draw(st.one_of(st.integers(0, max_steps), st.integers(max_steps // 2, max_steps)))
    choices = draw(st.binary(min_size=2 * length, max_size=2 * length))
    return Script(rules, seed, dealer, None if scores is None else tuple(scores), choices)


def pick(state: State, a: int, b: int) -> tuple[Seat, str] | None:
    """Turn one of Hypothesis's choices into a seat and one of its legal actions (None: over).

    ``a`` picks the seat: the table (about 2 %), another seat with a legal action (about 20 %),
    else the current seat. ``b`` picks the action; the current seat prefers plays to drawing,
    so that hands reach their end. Choices shrink towards the current seat's first play.
    """
    acting = actors(state)
    if not acting:
        return None
    others = [s for s in acting if s != state.current]
    seat: Seat
    if a >= 250:
        seat = TABLE
    elif a >= 200 and others:
        seat = others[a % len(others)]
    else:
        seat = state.current
    ids = sorted(legal_ids(state, seat_index(state, seat)))
    if seat == state.current and state.phase == Phase.TURN:
        plays = [i for i in ids if i != DRAW_ID]
        if plays and b % 5 != 4:
            return seat, ACTION_TEXT[plays[(b // 5) % len(plays)]]
    return seat, ACTION_TEXT[ids[b % len(ids)]]


@dataclass
class Trace:
    """What a script did: ``states[i + 1]`` is ``apply(states[i], *moves[i])``."""

    states: list[State]
    moves: list[tuple[Seat, str]]
    events: list[list[Event]]


def run(script: Script) -> Trace:
    """Deal and take the script's actions through the public, text API."""
    state, events = new_hand(script.rules, script.seed, dealer=script.dealer, scores=script.scores)
    trace = Trace([state], [], [events])
    for a, b in zip(script.choices[::2], script.choices[1::2], strict=True):
        move = pick(state, a, b)
        if move is None:
            break
        state, events = apply(state, *move)
        trace.states.append(state)
        trace.moves.append(move)
        trace.events.append(events)
    return trace


def sample(trace: Trace, data: st.DataObject, k: int = 3) -> list[State]:
    """The last state of a trace and ``k`` more chosen by Hypothesis."""
    last = len(trace.states) - 1
    picks = data.draw(st.lists(st.integers(0, last), max_size=k, unique=True), label="states")
    return [trace.states[i] for i in sorted({last, *picks})]


def seats_of(state: State) -> list[Seat]:
    """Every seat of the table, and the referee."""
    return [*range(state.n), TABLE]


# --------------------------------------------------------------------------------------------
# An independent reading of docs/notation.md's error codes, to compare the engine's refusals with.


def names_colour(rules: Rules, card: int) -> bool:
    """Whether playing ``card`` names a colour (wild cards and wild custom blanks)."""
    if IS_WILD[card]:
        return True
    effect = rules.blank_effect(CARD_COLOR[card]) if CARD_VALUE[card] == BLANK else None
    return effect is not None and effect.wild


def symbol(rules: Rules, card: int) -> object:
    """What a card matches besides its colour: its value, or a custom blank's effect."""
    if CARD_VALUE[card] == BLANK:
        return ("blank", rules.blank_effect(CARD_COLOR[card]))
    return CARD_VALUE[card]


def matches(rules: Rules, colour: int, top: int, card: int) -> bool:
    """RULES §3: by colour (the called one after a wild), by number or symbol, or any wild."""
    if names_colour(rules, card) or CARD_COLOR[card] == colour:
        return True
    return not names_colour(rules, top) and symbol(rules, card) == symbol(rules, top)


def nm_draws(card: int) -> int:
    """No Mercy's draw cards (docs/rules.md §14) and what each draws; 0 for any other card."""
    wild = {"WR+4": 4, "W+6": 6, "W+10": 10}
    if IS_WILD[card]:
        return wild.get(CARD_CODE[card], 0)
    return {DRAW_TWO: 2, NM_DRAW_FOUR: 4}.get(CARD_VALUE[card], 0)


def stacks_on(rules: Rules, pending: int, answer: int) -> bool:
    """Whether a draw card of kind ``answer`` answers one of kind ``pending`` (``WILD_DRAW_FOUR``
    or a draw value), as docs/rules.md §11 and §11.5 (stack_cards) say."""
    four_p, four_a = pending == WILD_DRAW_FOUR, answer == WILD_DRAW_FOUR
    if rules.stack_cards == "draws":
        return not four_p and not four_a
    if rules.stack_cards == "fours":
        return four_p and four_a
    if rules.stack_cards == "up":
        return answer == pending or (four_a and not four_p)
    return rules.stacking == "any" or answer == pending


def deflects(rules: Rules, colour: int, card: int) -> bool:
    """docs/rules.md §11.5 deflect: whether ``card`` may send a pending draw on or back: a Skip
    or a Reverse, as the rule says, of the colour to match (H-48: never by symbol)."""
    kinds = {"reverse": (REVERSE,), "skip": (SKIP,), "both": (REVERSE, SKIP)}.get(str(rules.deflect), ())
    return not IS_WILD[card] and CARD_VALUE[card] in kinds and CARD_COLOR[card] == colour


def follows(rules: Rules, prev: int, card: int) -> bool:
    """docs/rules.md §11.5 multi_play: whether ``card`` may follow ``prev`` in a series (number
    cards; not a 7 or a 0 with seven_zero; of the same number, or identical)."""
    if IS_WILD[card] or CARD_VALUE[card] > 9 or (rules.seven_zero and CARD_VALUE[card] in (0, 7)):
        return False
    return card == prev or (rules.multi_play == "number" and CARD_VALUE[card] == CARD_VALUE[prev])


def expected_code(state: State, seat: Seat, action: str | int) -> str:
    """The first error code of docs/notation.md that applies to an illegal ``action`` of ``seat``."""
    if isinstance(action, bool) or (isinstance(action, int) and not 0 <= action < len(ACTION_TEXT)):
        return "bad_notation"
    aid = action if isinstance(action, int) else ACTION_ID.get(action)
    if aid is None:
        return "bad_notation"
    try:
        s = seat_index(state, seat)
    except NotationError:
        return "bad_notation"
    act = decode(aid)
    seven = not IS_WILD[act.card] and CARD_VALUE[act.card] == 7 if act.kind is Kind.PLAY else False
    names_seat = act.kind in (Kind.CATCH, Kind.WRONG, Kind.PENALIZE) or (
        act.kind is Kind.PLAY and (act.card in (HOWLER, AW_TARGET, AW_SWAP) or seven)
    )
    if names_seat and act.arg >= state.n:
        return "bad_notation"
    blank = act.kind is Kind.PLAY and CARD_VALUE[act.card] == BLANK
    if blank and (act.arg >= 0) != names_colour(state.rules, act.card):
        return "bad_notation"
    if not legal_ids(state, s):
        return "not_your_turn"
    playing = s == state.current and state.phase in (Phase.TURN, Phase.AFTER_DRAW)
    if act.kind is Kind.PLAY and playing and state.series >= 0:
        # docs/rules.md §11.5 multi_play, H-25: in a series only a card that follows it plays.
        if act.card not in state.hands[s]:
            return "not_in_hand"
        if not follows(state.rules, state.series, act.card):
            return "not_playable"
    if act.kind is Kind.PLAY and playing:
        if act.card not in state.hands[s]:
            return "not_in_hand"
        if state.phase == Phase.AFTER_DRAW and act.card != state.drawn:
            return "not_playable"
        if not matches(state.rules, state.color, state.discard[-1], act.card):
            return "not_playable"
    rules = state.rules
    if act.kind is Kind.PLAY and s == state.current and state.phase == Phase.RESPOND and rules.stacking:
        pending = state.pend_card
        draw_cards = (
            WILD_DRAW_FOUR,
            DRAW_TWO,
            DRAW_THREE,
            AW_DRAW_TWO,
            FL_DRAW_ONE,
            FL_DRAW_FIVE,
        )  # AW-8, FL-11
        fours = (WILD_DRAW_FOUR, AW_DRAW_FOUR, FL_WILD_DRAW_TWO)
        kind = WILD_DRAW_FOUR if pending in fours else CARD_VALUE[pending]
        if rules.edition.no_mercy and nm_draws(pending):  # docs/rules.md §14, NM-2: as many or more
            if act.card not in state.hands[s]:
                return "not_in_hand"
            if nm_draws(act.card) < nm_draws(pending) and not deflects(rules, state.color, act.card):
                return "not_playable"
        elif kind in draw_cards:
            # RULES §11: the seat a draw fell on may answer it, even when stack_cards or its hand
            # leave it no answer (docs/rules.md H-41, H-56); a card that may deflect it (H-48: of
            # the colour to match) is refused, if at all, for another reason (H-42).
            if act.card not in state.hands[s]:
                return "not_in_hand"
            answer = WILD_DRAW_FOUR if act.card in fours else CARD_VALUE[act.card]
            stacks = answer in draw_cards and stacks_on(rules, kind, answer)
            if not stacks and not deflects(rules, state.color, act.card):
                return "not_playable"
    if (
        act.kind is Kind.INVISIBILITY
        and s == state.current
        and state.phase == Phase.RESPOND
        and INVISIBILITY not in state.hands[s]
    ):
        return "not_in_hand"
    return "not_allowed_now"


MALFORMED: Final[tuple[str, ...]] = (
    "",
    " ",
    "play",
    "play ",
    "play R7 ",
    " play R7",
    "play  R7",
    "PLAY R7",
    "play r7",
    "play R10",
    "play X7",
    "play W",
    "play W+4",
    "play W r",
    "play W+4 X",
    "play W R G",
    "play R7 R",
    "play R7 UNO",
    "play R7 uno uno",
    "play MATER R",
    "play HOWLER",
    "play HOWLER R",
    "play HOWLER -1",
    "play HOWLER 10",
    "play INVIS",
    "play BLANK",
    "draw uno",
    "draw 1",
    "Draw",
    "pass uno",
    "color",
    "color W",
    "color r",
    "colour R",
    "uno uno",
    "catch",
    "catch -1",
    "catch 10",
    "catch 01",
    "catch R",
    "challenge uno",
    "accept 1",
    "invisibility",
    "invisibility W",
    "wrong",
    "wrong 10",
    "penalize 0",
    "penalize 10 suggestion",
    "penalize table suggestion",
    "table",
    "play R7\n",
)


REFUSAL_CANDIDATES: Final[tuple[str | int, ...]] = (
    *ACTION_TEXT,
    *MALFORMED,
    -1,
    len(ACTION_TEXT),
    10**9,
    True,
)
"""Actions to try on every seat: every spelling of the notation (those naming a seat beyond the
table included: they are ``bad_notation``), malformed strings, ids out of range, a bool."""


def deck_of(state: State) -> Counter[int]:
    return Counter(state.rules.deck())


def state_copy(state: State) -> tuple[State, State | None]:
    """An independent copy of the state and of its wrong-card snapshot (shared by ``copy``)."""
    snap = state.wrong_snapshot
    return state.copy(), None if snap is None else snap.copy()


def assert_unchanged(state: State, before: tuple[State, State | None]) -> None:
    assert state == before[0]
    if before[1] is not None:
        assert state.wrong_snapshot == before[1]


# --------------------------------------------------------------------------------------------
# Properties.


@PROPERTY_SETTINGS
@given(scripts())
def test_every_card_is_in_exactly_one_place(script: Script) -> None:
    """Cards are conserved, and every other invariant holds, after any sequence of legal actions."""
    trace = run(script)
    deck = deck_of(trace.states[0])
    for state in trace.states:
        check_invariants(state, deck)


@PROPERTY_SETTINGS
@given(scripts())
def test_same_seed_and_actions_give_equal_states_and_events(script: Script) -> None:
    """Determinism: the seed is the only randomness. ``step`` on a copy agrees with ``apply``."""
    first = run(script)
    state, events = new_hand(script.rules, script.seed, dealer=script.dealer, scores=script.scores)
    assert state == first.states[0]
    assert events == first.events[0]
    for i, (seat, text) in enumerate(first.moves):
        state, events = apply(state, seat, text)
        assert state == first.states[i + 1]
        assert events == first.events[i + 1]
        # The same action by id, and by the in-place hot path.
        by_id, events_by_id = apply(first.states[i], seat, ACTION_ID[text])
        assert by_id == state
        assert events_by_id == events
        owned = first.states[i].copy()
        stepped: list[Event] = []
        step(owned, seat_index(owned, seat), ACTION_ID[text], stepped)
        assert owned == state
        assert stepped == events
    assert run(script).states == first.states


@PROPERTY_SETTINGS
@given(scripts(), st.data())
def test_legal_actions_apply_and_nothing_else_does(script: Script, data: st.DataObject) -> None:
    """Every legal action of every seat and the table applies (to a state that keeps every
    invariant); every other action is refused with the code docs/notation.md gives it, and the state
    is unchanged."""
    trace = run(script)
    deck = deck_of(trace.states[0])
    for state in sample(trace, data):
        before = state_copy(state)
        for seat in seats_of(state):
            legal = legal_actions(state, seat)
            assert len(set(legal)) == len(legal), "every legal action has exactly one spelling"
            for text in legal:
                assert check(state, seat, text) == ACTION_ID[text]
                new, _ = apply(state, seat, text)
                check_invariants(new, deck)
            legal_set = set(legal)
            for action in REFUSAL_CANDIDATES:
                if isinstance(action, str) and action in legal_set:
                    continue
                with pytest.raises(IllegalActionError) as refused:
                    apply(state, seat, action)
                assert refused.value.code in ERROR_CODES
                assert refused.value.code == expected_code(state, seat, action), (seat, action)
            assert_unchanged(state, before)
        assert set(actors(state)) == {s for s in range(state.n) if legal_actions(state, s)}
        if state.phase < Phase.HAND_OVER:
            assert state.current in actors(state)


@PROPERTY_SETTINGS
@given(scripts(), st.data())
def test_seats_that_do_not_exist_are_bad_notation(script: Script, data: st.DataObject) -> None:
    """A seat outside the table refuses every action with ``bad_notation`` and changes nothing."""
    trace = run(script)
    state = trace.states[-1]
    before = state_copy(state)
    bad_seats: list[Any] = [-1, state.n, MAX_PLAYERS, 10**6, "0", "TABLE", "Table", "", True, None, 1.0]
    seat = data.draw(st.sampled_from(bad_seats))
    for action in data.draw(st.lists(st.sampled_from([*ACTION_TEXT, *MALFORMED]), max_size=20)):
        with pytest.raises(IllegalActionError) as refused:
            apply(state, seat, action)
        assert refused.value.code == "bad_notation"
        with pytest.raises(NotationError):
            legal_actions(state, seat)
    assert_unchanged(state, before)


@PROPERTY_SETTINGS
@given(scripts(), st.data())
def test_apply_never_mutates_its_input(script: Script, data: st.DataObject) -> None:
    """``apply`` leaves its input alone, and the state it returns shares nothing mutable with it:
    playing on in place from the result leaves the input (and its wrong-card snapshot) as it was."""
    trace = run(script)
    for state in sample(trace, data, k=1):
        before = state_copy(state)
        for seat in seats_of(state):
            for text in legal_actions(state, seat):
                new, _ = apply(state, seat, text)
                assert_unchanged(state, before)
                for _ in range(data.draw(st.integers(0, 8), label="steps in place")):
                    movers = actors(new)
                    if not movers:
                        break
                    mover = movers[data.draw(st.integers(0, len(movers) - 1), label="mover")]
                    ids = sorted(legal_ids(new, mover))
                    step(new, mover, ids[data.draw(st.integers(0, len(ids) - 1), label="action")])
                assert_unchanged(state, before)


def shuffle_hidden(state: State, seat: int, rnd: random.Random) -> State:
    """A copy of ``state`` in which every card ``seat`` does not see is shuffled: the other hands'
    cards not known to ``seat`` and the whole draw pile, every hand and the pile keeping its
    size, and the known cards (and a drawn card held in ``after_draw``) staying in place. The
    generator state, hidden too, is replaced."""
    new = state.copy()
    slots: list[tuple[int, int]] = []
    pool: list[int] = list(state.draw)
    for owner in range(state.n):
        if owner == seat:
            continue
        keep = Counter(state.known.get(owner, {}).get(seat, []))
        if state.phase == Phase.AFTER_DRAW and owner == state.current:
            keep[state.drawn] += 1
        for i, card in enumerate(state.hands[owner]):
            if keep[card] > 0:
                keep[card] -= 1
            else:
                slots.append((owner, i))
                pool.append(card)
    rnd.shuffle(pool)
    for (owner, i), card in zip(slots, pool, strict=False):
        new.hands[owner][i] = card
    new.draw = pool[len(slots) :]
    assert len(new.draw) == len(state.draw)
    new.rng = rnd.getrandbits(64) or 1
    return new


@PROPERTY_SETTINGS
@given(scripts(), st.data())
def test_views_do_not_depend_on_hidden_cards(script: Script, data: st.DataObject) -> None:
    """A seat's view and legal actions are the same whatever the cards it cannot see are
    (docs/rules.md, STYLE.md: views, not state, leave the core). The hidden guilt of a pending Wild
    Draw Four may change with the shuffle; it must not show in the view."""
    trace = run(script)
    rnd = data.draw(st.randoms(use_true_random=False))
    for state in sample(trace, data, k=2):
        for seat in range(state.n):
            mine = view(state, seat)
            assert mine.legal == tuple(sorted(legal_ids(state, seat)))
            assert mine.hand == tuple(state.hands[seat])
            other = shuffle_hidden(state, seat, rnd)
            theirs = view(other, seat)
            assert theirs == mine
            assert theirs.to_dict() == mine.to_dict()
            assert set(legal_actions(other, seat)) == set(legal_actions(state, seat))
            if state.pend_card == WILD_DRAW_FOUR:
                flipped = state.copy()
                flipped.pend_guilty = not state.pend_guilty
                assert view(flipped, seat) == mine


@PROPERTY_SETTINGS
@given(scripts())
def test_hands_end_and_score_as_the_rulings_say(script: Script) -> None:
    """docs/rules.md H-52 to H-54 (issue 32): with ``no_action_finish`` a hand ends only on a number
    card (so ``double_finish`` never doubles there); in ``elimination``, ``challenge`` and with
    ``scoring: lowest`` the hand's points are the total charged to all players, each their own
    cards, doubled for a hand won on a draw card with ``double_finish``."""
    trace = run(script)
    state = trace.states[-1]
    rules = state.rules
    if state.winner < 0:
        return
    top = state.discard[-1]
    # No Mercy (docs/rules.md §14, NM-9): a winner left standing holds cards, and nothing doubles
    went_out = not state.hands[state.winner]
    if rules.no_action_finish and went_out:  # a hand won by knock-outs ends on any card
        # A Discard All played from a hand of two or more empties it by its effect (NM-5): it
        # was not the last card (Hypothesis found the example).
        assert (not IS_WILD[top] and CARD_VALUE[top] <= 9) or CARD_VALUE[top] == NM_DISCARD_ALL, CARD_CODE[
            top
        ]
    on_draw = top in (
        WILD_DRAW_FOUR,
        AW_DRAW_TWO,
        AW_DRAW_FOUR,
        *NM_DRAWS,
        FL_WILD_DRAW_TWO,
        FL_WILD_DRAW_COLOR,
    ) or (
        not IS_WILD[top]
        and CARD_VALUE[top] in (DRAW_TWO, DRAW_THREE, NM_DRAW_FOUR, FL_DRAW_ONE, FL_DRAW_FIVE)
    )  # All Wild's Draw Two and Draw Four are draw cards (its Targeted Draw Two is not: AW-6); No Mercy's
    factor = 2 if rules.double_finish and on_draw and went_out else 1
    charged = [factor * sum(POINTS[c] for c in hand) for hand in state.hands]
    if rules.mode in ("elimination", "challenge") or rules.scoring == "lowest":
        assert state.hand_points == sum(charged)
    elif not rules.teams:
        assert state.hand_points == sum(charged) - charged[state.winner]  # 0 for a winner gone out


@PROPERTY_SETTINGS
@given(scripts())
def test_wild_draw_four_challenges_are_judged_by_rules_4(script: Script) -> None:
    """RULES §3-4: a Wild Draw Four is guilty exactly when its player held, after playing it, a
    card of the colour to match (wild cards not counting); a challenge shows the offender's hand
    to the challenger, and the loser draws 4 (guilty offender) or 6 (challenger, who is skipped),
    or what there is (R-6). With stacking (RULES §11), the whole total, or the total plus 2."""
    trace = run(script)
    rules = script.rules
    for i, (seat, text) in enumerate(trace.moves):
        before, after = trace.states[i], trace.states[i + 1]
        if text.startswith(("play W+4", "play LW+2", "play DW+C")) and after.phase == Phase.RESPOND:
            assert isinstance(seat, int)
            hand = after.hands[seat]
            colour = before.color
            assert after.pend_guilty == any(
                CARD_COLOR[c] == colour and not names_colour(rules, c) for c in hand
            )
        if text == "challenge":
            assert isinstance(seat, int)
            offender = before.pend_from
            assert sorted(after.known[offender][seat]) == sorted(before.hands[offender])
            pile = len(before.draw) + len(before.discard) - 1
            total = before.pend_draw
            if before.pend_card == FL_WILD_DRAW_COLOR:  # docs/rules.md §15, FL-7: its own scenarios
                continue
            single = before.tables.draws[before.pend_card]  # 4; UNO Flip's Wild Draw Two 2 (FL-6)
            assert total == single or (rules.stacking and total > single)
            if before.pend_guilty:
                loser, penalty, nxt = offender, total, seat
            else:
                loser, penalty, nxt = seat, total + 2, (seat + before.direction) % before.n
            room = max(rules.hand_limit - len(before.hands[loser]), 0)  # §11.5 hand_limit, H-19
            assert len(after.hands[loser]) == len(before.hands[loser]) + min(penalty, pile, room)
            assert after.current == nxt
            assert after.phase == Phase.TURN
            assert after.color == before.color


def test_a_wild_blank_does_not_make_a_wild_draw_four_guilty() -> None:
    """Seat 0 holds W+4, the green wild blank and R1 with green to match: W+4 is legal (no
    green card but a wild one), so a challenge fails."""
    rules = Rules.from_dict({"edition": "classic", "players": 2, "blanks": {"G": {"wild": True}}})
    state = from_position(
        rules,
        hands=[[parse_card("W+4"), parse_card("GBLANK"), parse_card("R1")], [parse_card("Y1")] * 2],
        draw_pile=[parse_card(f"B{v}") for v in range(1, 8)],
        discard=[parse_card("G5")],
        color=COLORS.index("G"),
        current=0,
    )
    state, _ = apply(state, 0, "play W+4 Y")
    assert not state.pend_guilty
    state, _ = apply(state, 1, "challenge")
    assert [len(h) for h in state.hands] == [2, 8]


@CHEAP_SETTINGS
@given(st.integers(0, len(ACTION_TEXT) - 1))
def test_action_ids_round_trip(aid: int) -> None:
    """``parse_action(format_action(id)) == id``; the decoded action spells the same."""
    text = format_action(aid)
    assert parse_action(text) == aid
    assert decode(aid).text() == text
    assert ACTIONS[aid] == decode(aid)


def test_every_action_and_card_round_trips() -> None:
    """Every action id and every card code of the notation, exhaustively."""
    assert len(set(ACTION_TEXT)) == len(ACTION_TEXT)
    for aid in range(len(ACTION_TEXT)):
        assert parse_action(format_action(aid)) == aid
    assert len(set(CARD_CODE)) == NUM_CARD_TYPES
    for card in range(NUM_CARD_TYPES):
        assert parse_card(CARD_CODE[card]) == card
        assert CARD_CODE[parse_card(CARD_CODE[card])] == CARD_CODE[card]


@CHEAP_SETTINGS
@given(st.one_of(st.text(max_size=24), st.sampled_from([*ACTION_TEXT, *MALFORMED, *CARD_CODE])))
def test_text_is_an_action_or_a_card_exactly_when_it_round_trips(text: str) -> None:
    """Any string is either an action's one spelling (and round-trips) or a ``NotationError``;
    the same for card codes."""
    try:
        aid = parse_action(text)
    except NotationError:
        assert text not in ACTION_ID
    else:
        assert format_action(aid) == text
    try:
        card = parse_card(text)
    except NotationError:
        assert text not in CARD_CODE
    else:
        assert CARD_CODE[card] == text


@PROPERTY_SETTINGS
@given(scripts())
def test_legal_action_strings_parse_back(script: Script) -> None:
    """Every legal action string of every state reached parses to an id spelt the same."""
    trace = run(script)
    for state in trace.states[-20:]:
        for seat in seats_of(state):
            for text in legal_actions(state, seat):
                assert format_action(parse_action(text)) == text
            assert sorted(ACTION_ID[t] for t in legal_actions(state, seat)) == sorted(
                legal_ids(state, seat_index(state, seat))
            )


@PROPERTY_SETTINGS
@given(scripts(), st.data())
def test_random_refusals_leave_the_state_unchanged(script: Script, data: st.DataObject) -> None:
    """Any action by any seat either applies or is refused with one of ``ERROR_CODES`` (the one
    docs/notation.md says), the state unchanged."""
    trace = run(script)
    state = data.draw(st.sampled_from(trace.states), label="state")
    before = state_copy(state)
    seats: Sequence[Any] = [*seats_of(state), -1, state.n, "x"]
    actions = st.one_of(
        st.sampled_from([*ACTION_TEXT, *MALFORMED]),
        st.text(max_size=20),
        st.integers(-3, len(ACTION_TEXT) + 3),
    )
    for _ in range(30):
        seat = data.draw(st.sampled_from(seats), label="seat")
        action = data.draw(actions, label="action")
        try:
            new, _ = apply(state, seat, action)
        except IllegalActionError as refused:
            assert refused.code in ERROR_CODES
            assert refused.code == expected_code(state, seat, action)
        else:
            check_invariants(new, deck_of(state))
        assert_unchanged(state, before)
