"""Sampling the hidden cards a seat cannot see: states consistent with its view.

Search bots plan on such samples (determinizations); nothing here looks at a real state.
"""

from __future__ import annotations

import random
from collections import Counter

from unotable.cards import NUM_CARD_TYPES, WILD_DRAW_FOUR
from unotable.engine import tables_for
from unotable.state import Phase, State, seed_to_rng
from unotable.views import View


def unseen_cards(v: View) -> list[int]:
    """The cards ``v.seat`` has not seen: the deck less its hand, the discard pile and the cards
    it knows in other hands. They lie in the other hands (the unknown part) and the draw pile."""
    pool = Counter(tables_for(v.rules).deck)
    pool.subtract(v.hand)
    pool.subtract(v.discard)
    for cards in v.known.values():
        pool.subtract(cards)
    if any(count < 0 for count in pool.values()):
        raise ValueError("the view holds more copies of a card than the deck has")
    return sorted(pool.elements())


def determinize(v: View, rng: random.Random) -> State:
    """A full state consistent with ``v``: the unseen cards dealt at random to the other hands
    (beside the cards ``v.seat`` knows there) and the draw pile.

    A wrong card that could still be pointed out is treated as pointed out never (its undo
    needs the hidden state before it). A pending Wild Draw Four is guilty if the sampled hand of
    its player holds the colour that was to be matched.
    """
    rules = v.rules
    tables = tables_for(rules)
    unseen = unseen_cards(v)
    rng.shuffle(unseen)
    drawn = v.drawn
    reserved: list[int] = []
    if v.phase == Phase.AFTER_DRAW and drawn < 0:
        # Another seat drew a playable card: it is one of the unseen cards that match.
        matching = [i for i, c in enumerate(unseen) if tables.is_playable(v.color, v.top, c)]
        if not matching:
            raise ValueError("no unseen card could be the playable card just drawn")
        drawn = unseen.pop(rng.choice(matching))
        reserved.append(drawn)
    hands: list[list[int]] = []
    at = 0
    for seat, size in enumerate(v.hand_sizes):
        if seat == v.seat:
            hands.append(list(v.hand))
            continue
        known = list(v.known.get(seat, ()))
        extra = reserved if seat == v.current else []
        take = size - len(known) - len(extra)
        hands.append(known + unseen[at : at + take] + extra)
        at += take
    draw = unseen[at:]
    if len(draw) != v.draw_pile_size:
        raise ValueError(
            f"the view does not add up: {len(draw)} unseen cards left for a draw pile of {v.draw_pile_size}"
        )
    st = State.__new__(State)
    st.rules = rules
    st.tables = tables
    st.n = rules.players
    st.hands = hands
    st.draw = draw
    st.discard = list(v.discard)
    st.color = v.color
    st.current = v.current
    st.direction = v.direction
    st.dealer = v.dealer
    st.phase = int(v.phase)
    st.drawn = drawn
    st.drew_facing = [-1 if f is None else (f[0] + 1) * NUM_CARD_TYPES + f[1] for f in v.drew_facing]
    st.after_color = v.after_color
    st.pend_card = v.pending_card
    st.pend_from = v.pending_from
    st.pend_color = v.pending_color
    st.pend_guilty = (
        v.pending_card == WILD_DRAW_FOUR
        and v.pending_color >= 0
        and tables.holds_color(hands[v.pending_from], v.pending_color)
    )
    st.exposed = sum(1 << s for s in v.uno_exposed)
    st.wrong_seat = -1
    st.wrong_snapshot = None
    st.known = {owner: {v.seat: list(cards)} for owner, cards in v.known.items() if cards}
    st.scores = list(v.scores)
    st.winner = v.winner
    st.hand_points = v.hand_points
    st.game_winners = list(v.game_winners)
    st.rng = seed_to_rng(rng.getrandbits(64))
    return st
