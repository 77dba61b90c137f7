"""Sampling the hidden cards a seat cannot see: states consistent with its view.

Search bots plan on such samples (determinizations); nothing here looks at a real state.

Beside what the view shows for sure (its own hand, the discard pile, cards revealed to it, hand
sizes, a playable card just drawn by the seat in turn), :func:`determinize` can use one piece
of inference: :attr:`View.drew_facing <unotable.views.View.drew_facing>`. A seat that chose to
draw facing a colour and a top card, and has taken no card since, most likely held no card that
matched them (no wild card either): players rarely draw by choice. With probability ``trust``
(per seat, per sample) such a seat's unknown cards are dealt only from the unseen cards that do
not match; otherwise (a draw by choice) they are dealt at random like the rest.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

from unotable.cards import NUM_CARD_TYPES, WILD_DRAW_FOUR
from unotable.engine import tables_for
from unotable.state import Phase, State, seed_to_rng
from unotable.tables import CHALLENGED
from unotable.views import View

DEFAULT_TRUST: Final = 0.9
"""How far :func:`determinize` believes, by default, that a seat which chose to draw held no
card it could play then (per seat and sample; the rest are draws by choice)."""


def unseen_cards(v: View) -> list[int]:
    """The cards ``v.seat`` has not seen: the deck less its hand, the discard pile and the cards
    it knows in other hands. They lie in the other hands (the unknown part) and the draw pile."""
    edition = v.rules.edition
    # UNO Flip: the faces of the side in play (docs/rules.md §15)
    pool = Counter(edition.dark_deck() if v.side else tables_for(v.rules).deck)
    pool.subtract(v.hand)
    pool.subtract(v.discard)
    for cards in v.known.values():
        pool.subtract(cards)
    if any(count < 0 for count in pool.values()):
        raise ValueError("the view holds more copies of a card than the deck has")
    return sorted(pool.elements())


def determinize(
    v: View, rng: random.Random, *, trust: float = DEFAULT_TRUST, unseen: list[int] | None = None
) -> State:
    """A full state consistent with ``v``: the unseen cards dealt at random to the other hands
    (beside the cards ``v.seat`` knows there) and the draw pile.

    A wrong card that could still be pointed out is treated as pointed out never (its undo
    needs the hidden state before it). A pending Wild Draw Four is guilty if the sampled hand of
    its player holds the colour that was to be matched.

    :param trust: the probability, per seat with a :attr:`~unotable.views.View.drew_facing`
        record and per sample, that the seat is dealt no card matching what it faced when it
        chose to draw (0: every hidden card dealt uniformly, as if the record were unknown).
        A seat known to hold such a card is never constrained; if too few unseen cards fail to
        match, the rest of its hand is dealt from those that match. Sizes and cards are exact
        whatever ``trust``.
    :param unseen: ``unseen_cards(v)``, if the caller has it already (it is not changed).
    :raises ValueError: if the view does not add up (more copies of a card than the deck has,
        or unseen cards that do not fill the hidden places).
    """
    if not 0.0 <= trust <= 1.0:
        raise ValueError(f"trust must be from 0 to 1, not {trust!r}")
    if v.rules.edition.flip:
        return _flip_world(v, rng)
    rules = v.rules
    tables = tables_for(rules)
    unseen = unseen_cards(v) if unseen is None else unseen[:]
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
    if v.series >= 0 and v.current >= 0 and v.current != v.seat:
        # docs/rules.md §11.5 multi_play: the seat in a series announced a card that follows it.
        follows = tables.series_next[v.series]
        if not any(c in follows for c in v.known.get(v.current, ())):
            matching = [i for i, c in enumerate(unseen) if c in follows]
            if not matching:
                raise ValueError("no unseen card could be the card that follows the series")
            reserved.append(unseen.pop(rng.choice(matching)))
    n = len(v.hand_sizes)
    dealt: list[list[int]] = [[] for _ in range(n)]
    takes = [0] * n
    for seat, size in enumerate(v.hand_sizes):
        if seat != v.seat:
            takes[seat] = size - len(v.known.get(seat, ())) - (len(reserved) if seat == v.current else 0)
    # Seats that most likely could not play when they chose to draw take their cards first,
    # from the unseen cards that did not match; the others share the rest uniformly.
    if trust > 0.0:
        for seat, facing in enumerate(v.drew_facing):
            if facing is None or seat == v.seat or takes[seat] <= 0:
                continue
            ok = tables.playable[(facing[0] + 1) * NUM_CARD_TYPES + facing[1]]
            if any(ok[c] for c in v.known.get(seat, ())):
                continue  # it did hold a card it could play: a draw by choice
            if trust < 1.0 and rng.random() >= trust:
                continue
            # ``unseen`` is shuffled: its first non-matching cards are a uniform choice of them
            chosen: list[int] = []
            rest: list[int] = []
            need = takes[seat]
            for c in unseen:
                if len(chosen) < need and not ok[c]:
                    chosen.append(c)
                else:
                    rest.append(c)
            short = need - len(chosen)
            if short > 0:  # too few cards could fail to match: the rest matched after all
                chosen += rest[:short]
                rest = rest[short:]
            dealt[seat] = chosen
            takes[seat] = 0
            unseen = rest
    at = 0
    for seat, take in enumerate(takes):
        if take > 0:
            dealt[seat] = unseen[at : at + take]
            at += take
    hands = [
        list(v.hand)
        if seat == v.seat
        else [*v.known.get(seat, ()), *dealt[seat], *(reserved if seat == v.current else ())]
        for seat in range(n)
    ]
    draw = unseen[at:]
    if len(draw) != v.draw_pile_size or any(t < 0 for t in takes):
        raise ValueError(
            f"the view does not add up: {len(draw)} unseen cards left for a draw pile of {v.draw_pile_size}"
        )
    return _state(v, hands, draw, drawn, rng, None)


def _state(
    v: View,
    hands: list[list[int]],
    draw: list[int],
    drawn: int,
    rng: random.Random,
    backs: list[list[int]] | None,
) -> State:
    """The state of a world: ``hands`` and ``draw`` (top card last) dealt, the rest as ``v`` shows."""
    rules = v.rules
    tables = tables_for(rules)
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
    st.pend_draw = v.pending_draw
    st.series = v.series
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
    st.side = v.side
    st.backs = backs
    if backs is not None:  # UNO Flip's Wild Draw Two and Wild Draw Color are judged as a Wild Draw Four
        st.pend_guilty = (
            v.pending_card in CHALLENGED
            and v.pending_color >= 0
            and tables.holds_color(hands[v.pending_from], v.pending_color)
        )
    return st


def _flip_world(v: View, rng: random.Random) -> State:
    """UNO Flip (docs/rules.md §15, FL-2): a world dealt from what ``v.seat`` sees. The faces in
    play it has not seen (the others' hands but what it knows of them, the draw pile) come from
    the side's deck less its hand, the discard pile and what it knows; the other faces it has not
    seen (its own cards', the discard pile's, the draw pile's below its top) from the other side's
    deck less the others' hands' and the draw pile's top, both at random (FL-1 pairs at random)."""
    rules = v.rules
    tables = tables_for(rules)
    light, dark = rules.edition.base_deck(), rules.edition.dark_deck()
    faces_deck, backs_deck = (dark, light) if v.side else (light, dark)
    n = len(v.hand_sizes)
    faces = Counter(faces_deck)
    faces.subtract(v.hand)
    faces.subtract(v.discard)
    for cards in v.known.values():
        faces.subtract(cards)
    backs = Counter(backs_deck)
    for s in range(n):
        if s != v.seat:
            backs.subtract(v.backs[s])
    if v.draw_back >= 0:
        backs[v.draw_back] -= 1
    if any(c < 0 for c in faces.values()) or any(c < 0 for c in backs.values()):
        raise ValueError("the view holds more copies of a face than the deck has")
    face_pool = sorted(faces.elements())
    back_pool = sorted(backs.elements())
    rng.shuffle(face_pool)
    rng.shuffle(back_pool)
    drawn = v.drawn
    hands: list[list[int]] = []
    other: list[list[int]] = []
    for s in range(n):
        if s == v.seat:
            hands.append(list(v.hand))
            other.append([back_pool.pop() for _ in v.hand])
            continue
        known = list(v.known.get(s, ()))
        hand = known + [face_pool.pop() for _ in range(v.hand_sizes[s] - len(known))]
        if v.phase == Phase.AFTER_DRAW and s == v.current and drawn < 0 and hand:
            # it drew a playable card: its last card is one of the unseen faces that play
            matching = [i for i, c in enumerate(face_pool) if tables.is_playable(v.color, v.top, c)]
            if matching:
                i = rng.choice(matching)
                face_pool[i], hand[-1] = hand[-1], face_pool[i]
            drawn = hand[-1]
        mine = list(v.backs[s])
        rng.shuffle(mine)
        hands.append(hand)
        other.append(mine)
    discard_backs = [back_pool.pop() for _ in v.discard]
    draw = face_pool
    if len(draw) != v.draw_pile_size or len(back_pool) + (v.draw_back >= 0) != len(draw):
        raise ValueError(
            f"the view does not add up: {len(draw)} unseen faces for a draw pile of {v.draw_pile_size}"
        )
    draw_backs = back_pool + ([v.draw_back] if v.draw_back >= 0 else [])
    return _state(v, hands, draw, drawn, rng, [*other, draw_backs, discard_backs])
