"""Examples of the engine's API: set-up, refusal, purity, events and views."""

from __future__ import annotations

from collections import Counter

import pytest

from unotable import (
    ConfigError,
    IllegalActionError,
    Rules,
    apply,
    deal,
    find_edition,
    from_position,
    legal_actions,
    new_hand,
    parse_card,
    shuffle,
    view,
)
from unotable.cards import CARD_CODE
from unotable.engine import check
from unotable.invariants import check_invariants
from unotable.state import Phase, State


def cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def position(rules: Rules, hands: list[list[str]], top: str = "R9", color: int = 0, pile: int = 5) -> State:
    return from_position(
        rules,
        hands=[cards(*h) for h in hands],
        draw_pile=cards(*(["G1", "G2", "G3", "Y1", "Y2", "Y3", "B1", "B2"][:pile])),
        discard=cards(top),
        color=color,
        current=0,
    )


@pytest.mark.parametrize("edition", ["classic", "harry-potter", "cars2"])
@pytest.mark.parametrize("players", [2, 3, 4, 7, 10])
def test_new_hand_deals_seven_each_and_keeps_every_card(edition: str, players: int) -> None:
    rules = Rules(edition=find_edition(edition), players=players)
    for seed in range(20):
        st, events = new_hand(rules, seed)
        check_invariants(st, Counter(rules.deck()))
        sizes = sorted(len(h) for h in st.hands)
        assert sizes[0] == 7 and sizes[-1] in (7, 9, 10)  # a first draw card adds 2 or 3
        assert any(e.kind == "first_card" for e in events)


def test_same_seed_same_hand_other_seed_other_hand() -> None:
    rules = Rules(players=4)
    a, ev_a = new_hand(rules, 42)
    b, ev_b = new_hand(rules, 42)
    c, _ = new_hand(rules, 43)
    assert a == b and ev_a == ev_b
    assert a != c


def test_dealer_by_draw_is_the_highest_number_and_ties_draw_again() -> None:
    rules = Rules(players=5)
    ties = 0
    for seed in range(60):
        _, events = new_hand(rules, seed)
        draws = [e for e in events if e.kind == "dealer_draw"]
        dealer = next(e.seat for e in events if e.kind == "dealer")
        candidates = list(range(5))
        while True:  # replay the rounds; each candidate draws once a round
            round_, draws = draws[: len(candidates)], draws[len(candidates) :]
            assert [e.seat for e in round_] == candidates
            value = {e.seat: int(CARD_CODE[e.cards[0]][1:]) if CARD_CODE[e.cards[0]][1:].isdigit() else 0
                     for e in round_}  # fmt: skip
            best = max(value.values())
            candidates = [s for s in candidates if value[s] == best]
            if len(candidates) == 1:
                break
            ties += 1
        assert not draws and candidates == [dealer]
    assert ties > 0


def test_harry_potter_birthday_closest_to_31_july_deals() -> None:
    rules = Rules(edition=find_edition("harry-potter"), players=3, birthdays=("01-15", "08-02", "07-20"))
    st, events = new_hand(rules, 1)
    assert st.dealer == 1
    assert [e.reason for e in events if e.kind == "dealer"] == ["birthday"]
    across_new_year = Rules(edition=find_edition("harry-potter"), players=2, birthdays=("01-31", None))
    assert new_hand(across_new_year, 1)[0].dealer == 0


def test_birthday_ties_and_unknowns_fall_back_to_the_draw() -> None:
    tied = Rules(edition=find_edition("harry-potter"), players=3, birthdays=("07-30", "08-01", "01-01"))
    for seed in range(10):
        st, events = new_hand(tied, seed)
        assert st.dealer in (0, 1)
        assert {e.seat for e in events if e.kind == "dealer_draw"} <= {0, 1}
    unknown = Rules(edition=find_edition("harry-potter"), players=3, birthdays=(None, None, None))
    _, events = new_hand(unknown, 0)
    assert [e.reason for e in events if e.kind == "dealer"] == ["draw"]


def test_named_dealer_and_bad_dealer() -> None:
    assert new_hand(Rules(players=3), 0, dealer=2)[0].dealer == 2
    with pytest.raises(ConfigError):
        new_hand(Rules(players=3), 0, dealer=3)


def test_deal_needs_the_whole_deck() -> None:
    rules = Rules(players=2)
    deck = rules.deck()
    with pytest.raises(ConfigError, match="whole classic deck"):
        deal(rules, deck[:-1], 0)
    with pytest.raises(ConfigError, match="extra R\\+3"):
        deal(rules, [*deck[:-1], parse_card("R+3")], 0)


def test_apply_does_not_change_its_input() -> None:
    rules = Rules(players=3)
    st = position(rules, [["R1", "G5"], ["Y7"], ["B2", "B9"]])
    before = st.copy()
    after, events = apply(st, 0, "play R1 uno")
    assert st == before
    assert after != before
    assert [e.kind for e in events][:1] == ["play"]


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, "play R", "bad_notation"),
        (5, "draw", "bad_notation"),
        ("dealer", "draw", "bad_notation"),
        (0, "catch 3", "bad_notation"),
        (1, "draw", "not_your_turn"),
        (0, "play B2", "not_in_hand"),
        (0, "play G5", "not_playable"),
        (0, "play R1 uno", "not_allowed_now"),
        (0, "challenge", "not_allowed_now"),
        (0, "play HOWLER 1", "not_in_hand"),
        ("table", "draw", "not_allowed_now"),
    ],
)
def test_refusals_carry_the_notation_error_code(seat: int | str, action: str, code: str) -> None:
    rules = Rules(players=3)
    st = position(rules, [["R1", "G5", "Y2"], ["Y7", "Y8"], ["B2", "B9"]])
    before = st.copy()
    with pytest.raises(IllegalActionError) as info:
        apply(st, seat, action)
    assert info.value.code == code
    assert st == before


def test_action_ids_are_accepted_too() -> None:
    rules = Rules(players=3)
    st = position(rules, [["R1", "G5", "Y2"], ["Y7"], ["B2"]])
    aid = check(st, 0, "draw")
    assert apply(st, 0, aid)[0] == apply(st, 0, "draw")[0]
    with pytest.raises(IllegalActionError) as info:
        apply(st, 0, 10_000)
    assert info.value.code == "bad_notation"


def test_a_draw_is_seen_only_by_its_drawer() -> None:
    rules = Rules(players=3)
    st = position(rules, [["G5", "Y2"], ["Y7"], ["B2"]])
    _, events = apply(st, 0, "draw")
    draw = next(e for e in events if e.kind == "draw")
    assert draw.for_seat(0).cards == draw.cards == tuple(cards("G1"))
    assert draw.for_seat(1).cards == () and draw.for_seat(1).count == 1
    assert draw.for_seat(None).cards == ()


def test_view_holds_only_what_the_seat_may_know() -> None:
    rules = Rules(players=3, seed=99)
    st, _ = new_hand(rules, 7)
    v = view(st, 1)
    assert v.hand == tuple(st.hands[1])
    assert v.hand_sizes == tuple(len(h) for h in st.hands)
    assert v.draw_pile_size == len(st.draw)
    assert v.rules.seed is None
    data = v.to_dict()
    assert "draw" not in data and "rng" not in data and "seed" not in data["rules"]
    assert set(data["legal"]) == set(legal_actions(st, 1))


def test_view_shows_cards_revealed_by_a_challenge_to_the_challenger_only() -> None:
    rules = Rules(players=3)
    st = position(rules, [["W+4", "R3", "G5"], ["B1", "B2"], ["B3", "B4"]], pile=8)
    st, _ = apply(st, 0, "play W+4 G")
    st, events = apply(st, 1, "challenge")
    assert view(st, 1).known == {0: tuple(sorted(cards("R3", "G5")))}
    assert view(st, 2).known == {}
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.for_seat(2).cards == ()


def test_position_errors() -> None:
    rules = Rules(players=2)
    with pytest.raises(ConfigError, match="hands must list 2"):
        from_position(rules, hands=[[]], draw_pile=[], discard=cards("R1"), color=0, current=0)
    with pytest.raises(ConfigError, match="not a card of this classic deck"):
        from_position(rules, hands=[cards("R+3"), []], draw_pile=[], discard=cards("R1"), color=0, current=0)
    with pytest.raises(ConfigError, match="current"):
        from_position(rules, hands=[[], []], draw_pile=[], discard=cards("R1"), color=0, current=2)
    with pytest.raises(ConfigError, match="discard"):
        from_position(rules, hands=[[], []], draw_pile=[], discard=[], color=0, current=0)


def test_hand_over_scores_and_game_over() -> None:
    rules = Rules(players=3, target=30)
    st = position(rules, [["R1"], ["Y7", "W"], ["B2", "BS"]])
    st = from_position(
        rules,
        hands=[cards("R+2"), cards("Y7", "W"), cards("B2", "BS")],
        draw_pile=cards("G1", "G2"),
        discard=cards("R9"),
        color=0,
        current=0,
        scores=[0, 0, 0],
    )
    st, _ = apply(st, 0, "play R+2")
    assert st.phase == Phase.GAME_OVER
    assert st.hand_points == 7 + 50 + 1 + 2 + 2 + 20
    assert st.scores == [82, 0, 0] and st.game_winners == [0]
    assert legal_actions(st, 1) == [] and legal_actions(st, "table") == []


def test_views_show_what_a_seat_faced_when_it_chose_to_draw_until_it_takes_another_card() -> None:
    rules = Rules(players=3)
    st = position(rules, [["G5", "Y2"], ["R3", "Y7"], ["R+2", "B2"]])
    st, _ = apply(st, 0, "draw")  # G1 does not match R9: the turn passes
    assert all(view(st, s).drew_facing == ((0, parse_card("R9")), None, None) for s in range(3))
    assert view(st, 1).to_dict()["drew_facing"][0] == {"color": "R", "top": "R9"}
    st, _ = apply(st, 1, "play R3")
    st, _ = apply(st, 2, "play R+2")  # seat 0 takes two more cards: what it faced no longer tells
    assert view(st, 1).drew_facing == (None, None, None)


def test_keeping_a_playable_drawn_card_clears_what_the_seat_faced() -> None:
    rules = Rules(players=2)
    st = from_position(
        rules, hands=[cards("G5", "Y2"), cards("B7")], draw_pile=cards("R1", "G2"), discard=cards("R9"),
        color=0, current=0,
    )  # fmt: skip
    st, _ = apply(st, 0, "draw")
    assert st.phase == Phase.AFTER_DRAW and view(st, 1).drew_facing[0] == (0, parse_card("R9"))
    st, _ = apply(st, 0, "pass")
    assert view(st, 1).drew_facing[0] is None


# --------------------------------------------------------------------------------------------
# The shuffle.


def test_the_shuffle_permutes_every_pile_and_depends_only_on_the_generator() -> None:
    for edition in ("classic", "harry-potter", "cars2"):
        rules = Rules(edition=find_edition(edition), players=4)
        deck = rules.deck()
        for size in (0, 1, 2, 3, 40, len(deck)):
            st, _ = new_hand(rules, size)
            twin = st.copy()
            pile = deck[:size]
            again = pile[:]
            shuffle._shuffle(st, pile)
            shuffle._shuffle(twin, again)
            assert sorted(pile) == sorted(deck[:size])
            assert pile == again and st.rng == twin.rng
    st, _ = new_hand(Rules(), 1)
    same = [7, 7, 7]
    shuffle._shuffle(st, same)
    assert same == [7, 7, 7]


def test_the_shuffle_is_uniform() -> None:
    """20,000 shuffles of ten cards: where the first card lands, and the order of two cards,
    against a uniform shuffle (chi-square, 9 degrees of freedom, below its 1e-6 tail of 46.7)."""
    st, _ = new_hand(Rules(), 2026)
    trials = 20_000
    lands = [0] * 10
    before = 0
    for _ in range(trials):
        pile = list(range(10))
        shuffle._shuffle(st, pile)
        lands[pile.index(0)] += 1
        before += pile.index(3) < pile.index(8)
    expected = trials / 10
    chi2 = sum((k - expected) ** 2 / expected for k in lands)
    assert chi2 < 46.7, lands
    assert abs(before - trials / 2) < 5 * (trials / 4) ** 0.5


def test_a_shuffle_of_hands_keeps_every_card_and_hides_the_new_hands() -> None:
    """docs/rules.md §12, M-2: the Wild Shuffle Hands gathers every hand and deals it out again
    from the player's left; each seat sees only its own new hand, and nothing known before
    holds of the new hands."""
    rules = Rules(edition=find_edition("modern"), players=3)
    hands = [["SHUFFLE", "R1", "R2"], ["B1", "B2", "B3", "B4"], ["G1", "G2"]]
    st = from_position(
        rules,
        hands=[[parse_card(c) for c in h] for h in hands],
        draw_pile=[parse_card(c) for c in ("Y1", "Y2")],
        discard=[parse_card("R9")],
        color=0,
        current=0,
    )
    st.known = {1: {0: [parse_card("B1")]}}  # seat 0 had seen one of seat 1's cards
    before = Counter(c for h in st.hands for c in h) - Counter([parse_card("SHUFFLE")])
    after, events = apply(st, 0, "play SHUFFLE G")
    assert Counter(c for h in after.hands for c in h) == before
    assert [len(h) for h in after.hands] == [2, 3, 3]
    assert after.known == {} and after.current == 1
    shuffle = [e for e in events if e.kind == "shuffle_hands"]
    assert len(shuffle) == 1 and shuffle[0].count == 8 and not shuffle[0].cards
    for seat in range(3):
        v = view(after, seat)
        assert sorted(v.hand) == sorted(after.hands[seat]) and not v.known


def test_all_wild_dealer_is_drawn_at_random_and_play_keeps_no_colour() -> None:
    """docs/rules.md §13, AW-3: a deck with no number cannot choose its dealer by the draw (every
    card would tie forever): the dealer is chosen at random, seeded; AW-1: the colour to match
    stays null for the whole hand (the invariants check it after each step)."""
    rules = Rules(edition=find_edition("all-wild"), players=4)
    dealers: Counter[int] = Counter()
    for seed in range(80):
        st, events = new_hand(rules, seed)
        assert not [e for e in events if e.kind == "dealer_draw"]
        assert [(e.seat, e.reason) for e in events if e.kind == "dealer"] == [(st.dealer, "random")]
        assert new_hand(rules, seed)[0].dealer == st.dealer  # seeded
        dealers[st.dealer] += 1
        assert st.color == -1 and st.phase == Phase.TURN
    assert set(dealers) == {0, 1, 2, 3}


def test_an_all_wild_forced_swap_moves_what_was_known_with_the_hands() -> None:
    """AW-7: the Wild Forced Swap swaps hands as a 7 of seven_zero does: what a seat had seen of
    a hand follows the hand; each seat sees its new hand."""
    rules = Rules(edition=find_edition("all-wild"), players=3)
    hands = [["AWSWAP", "AW", "AWSKIP"], ["AW+2", "AW+4"], ["AWREV"]]
    st = from_position(
        rules,
        hands=[[parse_card(c) for c in h] for h in hands],
        draw_pile=[parse_card(c) for c in ("AW", "AW")],
        discard=[parse_card("AW")],
        color=-1,
        current=0,
    )
    st.known = {1: {2: [parse_card("AW+4")]}}  # seat 2 had seen seat 1's Wild Draw Four
    after, events = apply(st, 0, "play AWSWAP 1")
    assert [sorted(CARD_CODE[c] for c in h) for h in after.hands] == [
        ["AW+2", "AW+4"],
        ["AW", "AWSKIP"],
        ["AWREV"],
    ]
    assert after.known == {0: {2: [parse_card("AW+4")]}}
    assert [(e.seat, e.target) for e in events if e.kind == "swap"] == [(0, 1)]
    assert sorted(view(after, 0).hand) == sorted(after.hands[0])


def test_a_hand_knocked_out_by_the_mercy_rule_stays_hidden() -> None:
    """docs/rules.md §14, NM-9: the cards of a seat knocked out go face down under the draw pile,
    never onto the discard pile that every view shows; the seat's hand size is 0 in every view."""
    rules = Rules(edition=find_edition("no-mercy"), players=3)
    big = ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "Y1", "Y2", "Y3"] * 2
    st = from_position(
        rules,
        hands=[
            [parse_card(c) for c in ("R+4", "R5")],
            [parse_card(c) for c in big[:22]],
            [parse_card("B1")] * 2,
        ],
        draw_pile=[parse_card(c) for c in ("Y4", "Y5", "Y6", "Y7", "Y8")],
        discard=[parse_card("R3")],
        color=0,
        current=0,
    )
    after, events = apply(st, 0, "play R+4")
    assert [e.kind for e in events if e.kind == "knocked_out"] == ["knocked_out"]
    for seat in (0, 2):
        seen = view(after, seat)
        assert seen.discard == (parse_card("R3"), parse_card("R+4")) and seen.hand_sizes[1] == 0
        assert 1 not in seen.known
    assert len(after.draw) == 2 + 25 and after.current == 2
