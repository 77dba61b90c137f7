"""Determinizations: full states consistent with what one seat sees."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from unotable import Rules, find_edition, new_hand, view
from unotable.bots import GreedyBot
from unotable.determinize import determinize, unseen_cards
from unotable.engine import legal_ids, step, tables_for
from unotable.invariants import check_invariants
from unotable.notation import ACTION_TEXT
from unotable.state import Phase, State


def test_determinized_states_agree_with_the_view_and_keep_every_card() -> None:
    policy = random.Random(3)
    for edition in ("classic", "harry-potter", "cars2", "modern", "all-wild", "no-mercy", "flip"):
        rules = Rules(edition=find_edition(edition), players=4)
        for seed in range(15):
            st, _ = new_hand(rules, seed, record=False)
            deck = Counter(rules.deck())
            for _ in range(policy.randrange(40)):
                if st.phase >= Phase.HAND_OVER:
                    break
                step(st, st.current, policy.choice(legal_ids(st, st.current)))
            for seat in range(4):
                v = view(st, seat)
                sample = determinize(v, random.Random(seed))
                check_invariants(sample, deck)
                assert view(sample, seat) == v
                assert sample.hands[seat] == st.hands[seat]
                assert [len(h) for h in sample.hands] == [len(h) for h in st.hands]


def test_cards_seen_with_mater_stay_where_they_are() -> None:
    rules = Rules(edition=find_edition("cars2"), players=3)
    policy = random.Random(5)
    for seed in range(200):
        st, _ = new_hand(rules, seed, record=False)
        while st.phase < Phase.HAND_OVER and not st.known:
            ids = legal_ids(st, st.current)
            mater = [a for a in ids if ACTION_TEXT[a].startswith("play MATER")]
            step(st, st.current, mater[0] if mater else policy.choice(ids))
        if st.known:
            break
    seer = st.current
    v = view(st, seer)
    assert v.known and all(v.known[o] == tuple(sorted(st.hands[o])) for o in range(3) if o != seer)
    for k in range(5):
        sample = determinize(v, random.Random(k))
        for other in range(3):
            assert sorted(sample.hands[other]) == sorted(st.hands[other])
        assert sorted(sample.draw) == sorted(unseen_cards(v)) == sorted(st.draw)


def drew_facing_views(count: int) -> list[tuple[State, int]]:
    """(state, viewer) pairs from greedy play where another seat's view shows it drew facing a
    card (some of them while that seat holds a playable drawn card: ``after_draw``)."""
    rules = Rules(players=4)
    found: list[tuple[State, int]] = []
    seed = 0
    while len(found) < count:
        st, _ = new_hand(rules, seed, record=False)
        seed += 1
        bots = [GreedyBot(s) for s in range(4)]
        while st.phase < Phase.HAND_OVER and len(found) < count:
            for viewer in range(4):
                facing = view(st, viewer).drew_facing
                if any(f is not None for s, f in enumerate(facing) if s != viewer):
                    found.append((st.copy(), viewer))
                    break
            step(st, st.current, bots[st.current].act(view(st, st.current)))
    return found


def test_trusted_draws_deal_no_card_that_would_have_matched() -> None:
    deck = Counter(Rules(players=4).deck())
    after_draw = 0
    uniform_matches = 0
    for i, (st, viewer) in enumerate(drew_facing_views(60)):
        v = view(st, viewer)
        tables = tables_for(v.rules)
        for k in range(5):
            sample = determinize(v, random.Random(100 * i + k), trust=1.0)
            check_invariants(sample, deck)
            assert view(sample, viewer) == v
            assert [len(h) for h in sample.hands] == [len(h) for h in st.hands]
            for seat, facing in enumerate(v.drew_facing):
                if facing is None or seat == viewer:
                    continue
                hand = sample.hands[seat]
                if v.phase == Phase.AFTER_DRAW and seat == v.current:
                    after_draw += 1
                    assert tables.is_playable(v.color, v.top, hand[-1])  # the card it just drew
                    hand = hand[:-1]
                assert not any(tables.is_playable(facing[0], facing[1], c) for c in hand), (seat, facing)
            # the same view dealt uniformly does give such seats matching cards at times
            loose = determinize(v, random.Random(100 * i + k), trust=0.0)
            uniform_matches += any(
                tables.is_playable(f[0], f[1], c)
                for seat, f in enumerate(v.drew_facing)
                if f is not None and seat != viewer
                for c in loose.hands[seat]
            )
    assert after_draw > 0
    assert uniform_matches > 20


def test_trust_is_a_probability_per_seat_and_sample() -> None:
    v, seat = next(
        (view(st, viewer), s)
        for st, viewer in drew_facing_views(10)
        for s, f in enumerate(view(st, viewer).drew_facing)
        if f is not None and s != viewer and st.phase == Phase.TURN
    )
    with pytest.raises(ValueError, match="trust"):
        determinize(v, random.Random(0), trust=1.5)
    tables = tables_for(v.rules)
    facing = v.drew_facing[seat]
    assert facing is not None

    def matched(trust: float) -> int:
        rnd = random.Random(4)
        return sum(
            any(
                tables.is_playable(facing[0], facing[1], c)
                for c in determinize(v, rnd, trust=trust).hands[seat]
            )
            for _ in range(400)
        )

    loose, half, strict = matched(0.0), matched(0.5), matched(1.0)
    assert strict == 0
    assert loose > 100
    assert 0.3 * loose < half < 0.7 * loose
