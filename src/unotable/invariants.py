"""Checks that hold in every state the rules can reach; used by tests, soaks and benchmarks."""

from __future__ import annotations

from collections import Counter

from unotable.cards import CARD_CODE, DARK_FACE
from unotable.state import Phase, State
from unotable.tables import E_DRAW_COLOR, E_WD4


class InvariantError(AssertionError):
    """A state broke an invariant of the rules: a bug in the engine."""


def check_invariants(st: State, deck: Counter[int] | None = None) -> None:
    """Raise :class:`InvariantError` if ``st`` breaks an invariant.

    :param deck: the multiset of every card in play; each must be in exactly one place.
    """
    n = st.n
    if st.backs is not None:
        _check_sides(st)
    if deck is not None:
        here: Counter[int] = Counter(st.draw)
        here.update(st.discard)
        for h in st.hands:
            here.update(h)
        if st.backs is not None and st.side:  # UNO Flip: the deck is its light faces
            here = Counter(t for b in st.backs for t in b)
        if here != deck:
            extra = here - deck
            missing = deck - here
            raise InvariantError(
                f"cards not conserved: extra {[CARD_CODE[c] for c in extra.elements()]}, "
                f"missing {[CARD_CODE[c] for c in missing.elements()]}"
            )
    if not st.discard:
        raise InvariantError("empty discard pile")
    if st.direction not in (1, -1):
        raise InvariantError(f"direction {st.direction}")
    for s in range(n):
        if st.exposed >> s & 1 and len(st.hands[s]) != 1:
            raise InvariantError(f"seat {s} is open to a catch with {len(st.hands[s])} cards")
    if st.exposed >> n:
        raise InvariantError("a seat beyond the table is open to a catch")
    phase = st.phase
    if phase != Phase.RESPOND and st.pend_draw:
        raise InvariantError(f"{st.pend_draw} cards pending outside respond")
    if st.series >= 0 and (
        phase != Phase.TURN or st.tables.series_next[st.series].isdisjoint(st.hands[st.current])
    ):  # docs/rules.md §11.5 multi_play, H-25: a series goes on in a turn, with a card to follow
        raise InvariantError(f"a series after {CARD_CODE[st.series]} with no card to follow it")
    if phase >= Phase.HAND_OVER:
        standing = st.tables.mercy and sum(1 for h in st.hands if h) == 1  # NM-9: last one left
        if st.current != -1 or st.winner < 0 or (st.hands[st.winner] and not standing):
            raise InvariantError("a finished hand needs no current seat and a winner with no cards")
        if (phase == Phase.GAME_OVER) != bool(st.game_winners):
            raise InvariantError("game_over exactly when there are game winners")
        return
    if not 0 <= st.current < n:
        raise InvariantError(f"current seat {st.current} in phase {st.phase_name}")
    if st.tables.mercy and sum(1 for h in st.hands if h) >= 2 and st.hands[st.current]:
        pass  # docs/rules.md §14, NM-9: a seat knocked out holds nothing while the hand goes on
    elif any(not h for h in st.hands):
        raise InvariantError("a seat has no cards but the hand goes on")
    if st.rules.edition.only_specials:  # AW-1: All Wild has no colour to match
        if st.color != -1:
            raise InvariantError(f"colour {st.color} in a deck with no colour")
    elif phase != Phase.CHOOSE_COLOR and not 0 <= st.color < 4:
        raise InvariantError(f"no colour to match in phase {st.phase_name}")
    if phase == Phase.AFTER_DRAW:
        if st.drawn not in st.hands[st.current]:
            raise InvariantError("the drawn card is not in the drawer's hand")
        if not st.tables.is_playable(st.color, st.discard[-1], st.drawn):
            raise InvariantError("after_draw with an unplayable drawn card")
    elif phase == Phase.RESPOND:
        if st.pend_card < 0 or not 0 <= st.pend_from < n or st.pend_from == st.current:
            raise InvariantError("respond without an action card played on the current seat")
        fx = st.tables.base_effect[st.pend_card]
        if st.pend_guilty and fx not in (E_WD4, E_DRAW_COLOR):
            raise InvariantError("guilt judged for a card other than Wild Draw Four")
        if st.pend_draw < 0 or (fx == E_WD4 and st.pend_draw < st.tables.draws[st.pend_card]):
            raise InvariantError(f"{st.pend_draw} cards pending on a {CARD_CODE[st.pend_card]}")
        single = st.tables.draws[st.pend_card]
        if st.pend_draw > single and not st.rules.stacking:
            raise InvariantError(f"a stack of {st.pend_draw} cards without stacking")
    elif phase == Phase.CHOOSE_COLOR and not 0 <= st.after_color < n:
        raise InvariantError("choose_color without the seat that plays next")
    if st.wrong_seat >= 0 and st.wrong_snapshot is None:
        raise InvariantError("a wrong card without the state to undo it to")
    for owner, by_viewer in st.known.items():
        hand = Counter(st.hands[owner])
        for viewer, cards in by_viewer.items():
            if viewer == owner:
                raise InvariantError(f"seat {owner} is recorded as knowing its own hand")
            if Counter(cards) - hand:
                raise InvariantError(f"seat {viewer} knows cards seat {owner} does not hold")


def _check_sides(st: State) -> None:
    """UNO Flip (docs/rules.md §15): every card shows the side in play, its other face lies with
    it (``backs`` aligned with the hands and piles), and pairs a light face with a dark one."""
    places = [*st.hands, st.draw, st.discard]
    if len(st.backs or ()) != len(places):
        raise InvariantError("the other faces do not list every hand and pile")
    for cards, backs in zip(places, st.backs or (), strict=True):
        if len(cards) != len(backs):
            raise InvariantError("a hand or pile and its other faces differ in length")
        if any(DARK_FACE[t] != bool(st.side) for t in cards):
            raise InvariantError(f"a card shows the other side than side {st.side}")
        if any(DARK_FACE[t] == bool(st.side) for t in backs):
            raise InvariantError("a card has the same side on both faces")
