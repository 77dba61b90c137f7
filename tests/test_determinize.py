"""Determinizations: full states consistent with what one seat sees."""

from __future__ import annotations

import random
from collections import Counter

from unotable import Rules, find_edition, new_hand, view
from unotable.determinize import determinize, unseen_cards
from unotable.engine import legal_ids, step
from unotable.invariants import check_invariants
from unotable.notation import ACTION_TEXT
from unotable.state import Phase


def test_determinized_states_agree_with_the_view_and_keep_every_card() -> None:
    policy = random.Random(3)
    for edition in ("classic", "harry-potter", "cars2"):
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
