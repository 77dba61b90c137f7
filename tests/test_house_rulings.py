"""Issue 32's rulings (docs/rules.md §11.7, H-41 to H-56) as Hypothesis properties: random tables
and hands are built around each ruling's case (a draw pending under ``stacking``, ``stack_cards``,
``deflect``, ``no_action_finish``, ``no_bluffing``, ``jump_in``; a series; the hand limit; the end of
an elimination hand; a strict late ``uno``), and the engine's legal sets, phases and error codes
are compared with an independent reading of the text (``expected_code`` of test_properties is the
reading of docs/notation.md's codes)."""

from __future__ import annotations

import random
from typing import Any, Final

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from test_properties import deflects, expected_code, stacks_on
from unotable.cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_VALUE,
    COLORS,
    DRAW_THREE,
    DRAW_TWO,
    INVISIBILITY,
    IS_WILD,
    POINTS,
    REVERSE,
    SKIP,
    WILD_DRAW_FOUR,
    parse_card,
)
from unotable.engine import apply, check, deal, from_position, legal_actions, legal_ids, new_hand, step
from unotable.errors import IllegalActionError, NotationError
from unotable.house import preset
from unotable.notation import ACTION_TEXT, decode, parse_action
from unotable.rules import Rules
from unotable.state import Phase, State
from unotable.views import view

SETTINGS: Final = settings(max_examples=150, deadline=None)
DRAWS: Final = (WILD_DRAW_FOUR, DRAW_TWO, DRAW_THREE)


def kind_of(card: int) -> int:
    """A draw card's kind: ``WILD_DRAW_FOUR`` or its value (any other card: its value)."""
    return WILD_DRAW_FOUR if card == WILD_DRAW_FOUR else CARD_VALUE[card]


def spellings(card: int, held: int) -> set[str]:
    """Every spelling of a play of ``card`` by a seat holding ``held`` cards (no seven_zero)."""
    code = CARD_CODE[card]
    plain = [f"play {code} {c}" for c in COLORS] if IS_WILD[card] else [f"play {code}"]
    return {*plain, *(f"{p} uno" for p in plain)} if held == 2 else set(plain)


def playing(legal: list[str]) -> set[str]:
    """The legal set without the UNO window's actions (catches, a late ``uno``)."""
    return {a for a in legal if not a.startswith("catch") and a != "uno"}


def assert_codes(state: State, seats: list[int]) -> None:
    """Every action of the notation by ``seats``: legal, or refused with docs/notation.md's code."""
    for seat in seats:
        legal = set(legal_actions(state, seat))
        for text in ACTION_TEXT:
            if text in legal:
                continue
            with pytest.raises(IllegalActionError) as refused:
                check(state, seat, text)
            assert refused.value.code == expected_code(state, seat, text), (seat, text)


# --------------------------------------------------------------------------------------------
# A draw pending: H-41 to H-48, H-54, H-56.


@st.composite
def draw_tables(draw: st.DrawFn) -> tuple[Rules, State, random.Random]:
    """Rules with stacking (and every rule of issue 32's questions about a pending draw), and a
    position where seat 0 holds a draw card to play on the next seat; the hands are rich in draw
    cards, Skips and Reverses, some of one card."""
    edition = draw(st.sampled_from(["classic", "harry-potter", "cars2"]))
    players = draw(st.integers(2, 4))
    data: dict[str, Any] = {"edition": edition, "players": players}
    data["stacking"] = draw(st.sampled_from(["same", "any"]))
    data["stack_cards"] = draw(st.sampled_from([False, "draws", "fours", "up"]))
    data["deflect"] = draw(st.sampled_from([False, "reverse", "skip", "both"]))
    for name in ("no_action_finish", "no_bluffing", "jump_in"):
        data[name] = draw(st.booleans())
    data["uno_call"] = draw(st.sampled_from([False, "strict", "silent"]))
    rules = Rules.from_dict(data)
    rnd = random.Random(draw(st.integers(0, 2**32)))
    deck = rules.deck()
    rnd.shuffle(deck)
    first = draw(st.sampled_from([WILD_DRAW_FOUR, parse_card(f"R+{rules.edition.draw_amount}")]))
    deck.remove(first)
    rich = [c for c in deck if kind_of(c) in (*DRAWS, SKIP, REVERSE) or c == INVISIBILITY]
    # Red Skips and Reverses (red stays the colour to match) and draw cards first: deflections.
    rich.sort(key=lambda c: (CARD_COLOR[c] == 0 and kind_of(c) in (SKIP, REVERSE)) or kind_of(c) in DRAWS)
    rich = rich[: len(rich) - draw(st.integers(0, 6))]
    hands = [[first]]
    for _ in range(players - 1):
        hands.append([rich.pop() for _ in range(draw(st.integers(1, 4)))])
    hands[0] += [c for c in deck if CARD_VALUE[c] in range(1, 9) and CARD_COLOR[c] == 1][
        : draw(st.integers(1, 3))
    ]
    for c in hands[0][1:] + [c for h in hands[1:] for c in h]:
        deck.remove(c)
    top = next(c for c in deck if CARD_COLOR[c] == 0 and CARD_VALUE[c] in range(1, 9))
    deck.remove(top)
    state = from_position(rules, hands=hands, draw_pile=deck[:30], discard=[top], color=0, current=0)
    return rules, state, rnd


def respond_opens(state: State, victim: int, pending: int) -> bool:
    """H-1, H-4, H-43, H-44: a draw opens ``respond`` in Harry Potter and after a Wild Draw Four
    always; otherwise for a seat holding a card that stacks on it or deflects it, however many
    cards it holds."""
    rules = state.rules
    if rules.edition.response_windows or pending == WILD_DRAW_FOUR:
        return True
    hand = state.hands[victim]
    return any(
        (kind_of(c) in DRAWS and stacks_on(rules, kind_of(pending), kind_of(c)))
        or deflects(rules, state.color, c)
        for c in hand
    )


def respond_set(state: State) -> set[str]:
    """The legal set (windows aside) of the seat a draw is pending on, as §11, §11.5 and H-41 to
    H-48, H-54 read: accept; a challenge of a Wild Draw Four on top; Invisibility; the cards that
    stack on the draw or deflect it (by colour, H-48), none as a last card with no_action_finish."""
    rules = state.rules
    seat = state.current
    hand = state.hands[seat]
    out = {"accept"}
    if state.pend_card == WILD_DRAW_FOUR and state.discard[-1] == WILD_DRAW_FOUR and not rules.no_bluffing:
        out.add("challenge")  # H-45: never once deflected
    lone = len(hand) == 1 and rules.no_action_finish  # H-16, H-54: every answer is an action card
    if rules.edition.response_windows and INVISIBILITY in hand and not lone:
        out |= {f"invisibility {c}" for c in COLORS}
        if len(hand) == 2:
            out |= {f"invisibility {c} uno" for c in COLORS}
    pending = kind_of(state.pend_card)
    for c in set(hand):
        answers = kind_of(c) in DRAWS and stacks_on(rules, pending, kind_of(c))
        if (answers or deflects(rules, state.color, c)) and not lone:
            out |= spellings(c, len(hand))
    return out


@settings(max_examples=300, deadline=None)
@given(draw_tables())
def test_a_pending_draw_is_answered_and_refused_as_the_rulings_say(
    case: tuple[Rules, State, random.Random],
) -> None:
    """H-41 to H-48, H-54, H-56 over random tables: who gets ``respond`` (A1, A2), the respond
    seat's legal set (A3, A6, A12), where a Reverse sends the draw (A5), no jump-in while it waits
    and the identical card's jump-in once it is taken (A4), and every error code (fixes 1 and 2,
    A14) of the seat in respond and of another seat."""
    rules, state, rnd = case
    n = rules.players
    first = state.hands[0][0]
    play = (
        f"play {CARD_CODE[first]} {rnd.choice('RRG')}"
        if first == WILD_DRAW_FOUR
        else f"play {CARD_CODE[first]}"
    )
    sender, victim, pending = 0, 1 % n, first
    before = state
    state, _ = apply(state, 0, play)
    opens = respond_opens(judged(before, state, 0, first), victim, pending)
    for _ in range(8):
        if opens:  # A1, A2 (H-43, H-44)
            assert state.phase == Phase.RESPOND and state.current == victim
        else:
            assert state.phase != Phase.RESPOND or state.current != victim
        if state.phase != Phase.RESPOND or state.pend_card not in DRAWS:
            break
        seat = state.current
        expected = respond_set(state)
        event("respond: " + ("a play" if any(a.startswith("play") for a in expected) else "no play"))
        if not rules.edition.response_windows and not any(
            stacks_on(rules, kind_of(state.pend_card), k) for k in (WILD_DRAW_FOUR, rules.edition.draw_value)
        ):
            event("respond: stack_cards leaves no answer (H-41)")
        assert playing(legal_actions(state, seat)) == expected
        assert_codes(state, [seat, (seat + 1) % n])
        for other in range(n):  # H-8, H-46: nobody jumps in while the draw waits
            if other != seat:
                assert not any(a.startswith("play") for a in legal_actions(state, other))
        choices = sorted(playing(legal_actions(state, seat)))
        plays = [a for a in choices if a.startswith("play")]
        action = rnd.choice(plays if plays and rnd.random() < 0.8 else choices)
        card = decode(parse_action(action)).card if action.startswith("play") else -1
        before = state
        state, events = apply(state, seat, action)
        if card < 0 or state.phase >= Phase.HAND_OVER:
            break
        deflected = [e for e in events if e.kind == "deflect"]
        if deflected:
            target = deflected[0].target
            assert target is not None
            if CARD_VALUE[card] == REVERSE:  # H-47: back to the seat the draw came from
                event("a Reverse deflects" + (" after a deflection" if state.discard[-2] != pending else ""))
                assert target == sender
            else:
                assert target == (seat + before.direction) % n
            victim = target
        else:  # a stacked draw card lands on the next seat
            pending = card
            victim = (seat + before.direction) % n
        sender = seat
        opens = respond_opens(judged(before, state, seat, card), victim, pending)
    if state.phase == Phase.TURN and state.series < 0 and rules.jump_in:
        top = state.discard[-1]
        for other in range(n):  # H-46: the identical card jumps in on any top card, a deflector too
            if other == state.current:
                continue
            hand = state.hands[other]
            may = top in hand and not IS_WILD[top] and not (len(hand) == 1 and rules.no_action_finish)
            if may and kind_of(top) in (SKIP, REVERSE):
                event("a jump-in on a deflecting card (H-46)")
            assert any(a.split()[:2] == ["play", CARD_CODE[top]] for a in legal_actions(state, other)) == may


def judged(before: State, after: State, seat: int, card: int) -> State:
    """The table as the next seat's ``respond`` is judged once ``seat`` played ``card``: the hands
    of ``before`` without that card (the next seat has drawn nothing yet), the colour of ``after``
    (a Wild Draw Four's call)."""
    table = before.copy()
    table.hands[seat].remove(card)
    table.color = after.color
    return table


# --------------------------------------------------------------------------------------------
# A7 (H-49): the colour in a series.


@SETTINGS
@given(st.sampled_from(["number", "identical"]), st.integers(0, 2**32))
def test_the_colour_in_a_series_is_the_card_just_played(value: str, seed: int) -> None:
    rules = Rules(players=3, multi_play=value)
    rnd = random.Random(seed)
    number = rnd.randrange(1, 10)
    mine = [parse_card(f"{c}{number}") for c in COLORS for _ in range(2 if number else 1)]
    rnd.shuffle(mine)
    hand = [*mine[: rnd.randrange(2, 7)], parse_card("Y0"), parse_card("B0")]
    top = parse_card(f"{CARD_CODE[hand[0]][0]}{(number % 9) + 1}")
    others = [[parse_card("G0")], [parse_card("R0")]]
    state = from_position(
        rules, hands=[hand, *others], draw_pile=[], discard=[top], color=CARD_COLOR[top], current=0
    )
    while True:
        more = [a for a in legal_actions(state, 0) if a.endswith("more")]
        if not more:
            break
        action = rnd.choice(more)
        state, _ = apply(state, 0, action)
        card = decode(parse_action(action)).card
        assert state.series == card
        assert state.color == CARD_COLOR[card]  # H-49
        assert view(state, 1).color == CARD_COLOR[card]


# --------------------------------------------------------------------------------------------
# A8 (H-50): ``more`` on a card that is not a number.


@pytest.mark.parametrize("code", sorted({CARD_CODE[c] for c in Rules().deck()}))
def test_more_is_spelt_only_for_number_cards(code: str) -> None:
    """H-50: a card that is not a number has no ``more`` spelling (``bad_notation``); a 7 or a 0
    has one, which seven_zero refuses (``not_allowed_now``); the codes are the notation's."""
    card = parse_card(code)
    number = not IS_WILD[card] and CARD_VALUE[card] <= 9
    text = f"play {code} R more" if IS_WILD[card] else f"play {code} more"
    if not number:
        with pytest.raises(NotationError):
            parse_action(text)
    letter = "R" if IS_WILD[card] else code[0]
    value = CARD_VALUE[card] if number else 0
    twin = parse_card(f"{'G' if letter != 'G' else 'B'}{value}") if number else card
    rules = Rules(players=3, multi_play="number", seven_zero=True)
    state = from_position(
        rules,
        hands=[[card, twin, parse_card("Y8")], [parse_card("G2")], [parse_card("G3")]],
        draw_pile=[],
        discard=[parse_card(f"{letter}{value % 9 + 1}")],
        color=COLORS.index(letter),
        current=0,
    )
    try:
        check(state, 0, text)
    except IllegalActionError as refused:
        code = refused.code
    else:  # a number card that begins a series
        assert number and value not in (0, 7)
        return
    if not number:
        assert code == "bad_notation"
    elif value in (0, 7):
        assert code == "not_allowed_now"
    assert code == expected_code(state, 0, text)


# --------------------------------------------------------------------------------------------
# A9 (H-51): the hand limit, reshuffles and a first draw card.


@SETTINGS
@given(st.integers(8, 12), st.integers(1, 12), st.booleans(), st.integers(0, 2**32))
def test_a_seat_at_the_limit_draws_nothing_and_reshuffles_nothing(
    limit: int, discards: int, forced: bool, seed: int
) -> None:
    rules = Rules(players=2, hand_limit=limit)
    deck = rules.deck()
    random.Random(seed).shuffle(deck)
    numbers = [c for c in deck if CARD_VALUE[c] <= 9 and not IS_WILD[c] and CARD_COLOR[c] != 0]
    full = numbers[:limit]
    discard = [*numbers[limit : limit + discards], parse_card("R5")]
    if forced:  # a Draw Two lands on the seat at the limit (H-19)
        hands, current, action = [[parse_card("R+2"), parse_card("R1")], full], 0, "play R+2"
    else:  # the seat at the limit draws as its turn (H-18)
        hands, current, action = [full, [parse_card("R1"), parse_card("R2")]], 0, "draw"
    state = from_position(rules, hands=hands, draw_pile=[], discard=discard, color=0, current=current)
    after, events = apply(state, current, action)
    assert not after.draw and not any(e.kind == "reshuffle" for e in events)  # H-51
    assert len(after.hands[1 if forced else 0]) == limit
    assert after.discard == state.discard + ([parse_card("R+2")] if forced else [])


@SETTINGS
@given(
    st.sampled_from(["classic", "harry-potter", "cars2"]),
    st.integers(8, 12),
    st.integers(2, 6),
    st.integers(0, 2**32),
)
def test_a_first_draw_card_stops_at_the_limit(edition: str, limit: int, players: int, seed: int) -> None:
    rules = Rules.from_dict({"edition": edition, "players": players, "hand_limit": limit})
    deck = rules.deck()
    random.Random(seed).shuffle(deck)
    first = next(c for c in deck if CARD_VALUE[c] in (DRAW_TWO, DRAW_THREE))
    deck.remove(first)
    deck.insert(7 * players, first)
    dealer = seed % players
    state, _ = deal(rules, deck, dealer, seed=seed)
    assert state.discard == [first]
    victim = (dealer + 1) % players
    assert len(state.hands[victim]) == min(7 + rules.edition.draw_amount, limit)  # H-51


# --------------------------------------------------------------------------------------------
# A10 (H-52), A11 (H-53): the end of a hand.


@SETTINGS
@given(st.integers(2, 6), st.booleans(), st.integers(0, 2**32))
def test_elimination_hand_points_is_the_total_charged(players: int, double: bool, seed: int) -> None:
    rules = Rules(players=players, mode="elimination", double_finish=double)
    deck = rules.deck()
    rnd = random.Random(seed)
    rnd.shuffle(deck)
    last = rnd.choice([parse_card("R+2"), parse_card("R4"), parse_card("W+4")])
    deck.remove(last)
    deck.remove(parse_card("R3"))
    hands = [[last]] + [[deck.pop() for _ in range(rnd.randrange(1, 6))] for _ in range(players - 1)]
    state = from_position(
        rules, hands=hands, draw_pile=deck[:20], discard=[parse_card("R3")], color=0, current=0
    )
    state, _ = apply(
        state, 0, f"play {CARD_CODE[last]} G" if last == WILD_DRAW_FOUR else f"play {CARD_CODE[last]}"
    )
    factor = 2 if double and last != parse_card("R4") else 1
    charged = [factor * sum(POINTS[c] for c in h) for h in state.hands]
    assert state.hand_points == sum(charged)  # H-52
    assert state.scores == charged


def test_crazy_leaves_double_finish_off_and_no_hand_ends_on_a_draw_card() -> None:
    """H-53: the combination means nothing, so the preset leaves it out; a table that has both
    never ends a hand on a draw card (every hand of the crazy rules played to its end)."""
    assert preset("crazy")["no_action_finish"] and not preset("crazy")["double_finish"]
    for edition in ("classic", "harry-potter", "cars2"):
        rules = Rules.from_dict({"edition": edition, "players": 3, **preset("crazy"), "double_finish": True})
        for seed in range(30):
            state, _ = new_hand(rules, seed)
            rnd = random.Random(seed)
            for _ in range(600):
                if state.phase >= Phase.HAND_OVER:
                    break
                seat = state.current
                ids = legal_ids(state, seat)
                assert ids
                step(state, seat, rnd.choice(ids))
            if state.phase >= Phase.HAND_OVER:
                top = state.discard[-1]
                assert not IS_WILD[top] and CARD_VALUE[top] <= 9, CARD_CODE[top]


# --------------------------------------------------------------------------------------------
# A12 (H-54), A13 (H-55).


@SETTINGS
@given(st.integers(2, 5), st.booleans(), st.integers(0, 2**32))
def test_a_lone_refused_card_leaves_the_draw(players: int, forced: bool, seed: int) -> None:
    rules = Rules(players=players, no_action_finish=True, forced_play=forced)
    rnd = random.Random(seed)
    deck = rules.deck()
    rnd.shuffle(deck)
    card = rnd.choice([c for c in deck if IS_WILD[c] or CARD_VALUE[c] > 9])
    deck.remove(card)
    hands = [[card]] + [[deck.pop(), deck.pop()] for _ in range(players - 1)]
    top = next(c for c in deck if CARD_COLOR[c] == CARD_COLOR[card] or CARD_COLOR[card] < 0)
    deck.remove(top)
    colour = max(CARD_COLOR[top], 0)
    state = from_position(rules, hands=hands, draw_pile=deck[:10], discard=[top], color=colour, current=0)
    assert legal_actions(state, 0) == ["draw"]
    assert_codes(state, [0])


@SETTINGS
@given(st.integers(2, 5), st.booleans(), st.booleans())
def test_a_strict_late_uno_is_not_your_turn_for_a_seat_with_nothing_to_do(
    players: int, identical: bool, jump_in: bool
) -> None:
    rules = Rules(players=players, uno_call="strict", jump_in=jump_in)
    second = parse_card("R1") if identical else parse_card("G4")
    hands = [[parse_card("R1"), second]] + [
        [parse_card(f"Y{k}"), parse_card(f"B{k}")] for k in range(1, players)
    ]
    state = from_position(rules, hands=hands, draw_pile=[], discard=[parse_card("R3")], color=0, current=0)
    state, _ = apply(state, 0, "play R1")
    assert state.exposed & 1
    legal = legal_actions(state, 0)
    with pytest.raises(IllegalActionError) as refused:
        check(state, 0, "uno")
    assert refused.value.code == ("not_allowed_now" if legal else "not_your_turn")  # H-55
    assert bool(legal) == (identical and jump_in)
    assert_codes(state, list(range(players)))


@SETTINGS
@given(st.integers(3, 5), st.sampled_from(["RS", "RR"]), st.booleans(), st.integers(0, 2**32))
def test_the_identical_card_jumps_in_on_a_deflection_once_the_draw_is_taken(
    players: int, deflector: str, answer: bool, seed: int
) -> None:
    """H-8, H-46 (A4): while the deflected draw waits nobody jumps in; once it is taken (accepted,
    or applied at once to a seat with no answer) the seat holding the identical card may jump in."""
    rules = Rules(players=players, stacking="same", deflect="both", jump_in=True)
    rnd = random.Random(seed)
    card = parse_card(deflector)
    hands = [[parse_card("R+2"), parse_card("Y1")], [card, parse_card("Y2")]]
    hands += [[parse_card(f"B{k}"), parse_card(f"G{k}")] for k in range(2, players)]
    holder = rnd.choice([s for s in range(players) if s != 1])
    hands[holder].append(card)
    victim = 2 if deflector == "RS" else 0
    if answer and victim != holder:
        hands[victim].append(parse_card("G+2"))
    state = from_position(
        rules,
        hands=hands,
        draw_pile=[parse_card(f"Y{k}") for k in range(3, 9)],
        discard=[parse_card("R5")],
        color=0,
        current=0,
    )
    state, _ = apply(state, 0, "play R+2")
    state, _ = apply(state, 1, f"play {deflector}")
    if state.phase == Phase.RESPOND:
        assert state.current == victim
        assert not any(
            a.startswith("play") for s in range(players) if s != victim for a in legal_actions(state, s)
        )
        state, _ = apply(state, victim, "accept")
    assert state.phase == Phase.TURN and state.discard[-1] == card
    if holder != state.current:
        assert f"play {deflector}" in legal_actions(state, holder)
        state, _ = apply(state, holder, f"play {deflector}")
        assert state.discard[-1] == card and state.pend_draw == 0
