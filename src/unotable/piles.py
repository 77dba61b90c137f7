"""The moves of the state that every effect shares (part of the rules core, below
:mod:`unotable.effects`): the next seat (past those No Mercy knocked out), drawing and
reshuffling (RULES §3, R-6), what each seat knows of another's hand, asking for a colour, closing
a response window, and the end of a hand (:func:`end_hand`, RULES §9; its scores are
:mod:`unotable.scoring`'s) with No Mercy's knock-outs (docs/rules.md §14, NM-9).
"""

from __future__ import annotations

from collections.abc import Sequence

from unotable import sides
from unotable.cards import CARD_COLOR, NO_COLOR
from unotable.events import Event
from unotable.scoring import score_hand
from unotable.shuffle import _shuffle
from unotable.sides import reshuffle as _reshuffle_sides
from unotable.sides import take as _take
from unotable.state import PHASE_CHOOSE_COLOR, PHASE_GAME_OVER, PHASE_HAND_OVER, PHASE_TURN, State


def _nx(st: State, seat: int, d: int) -> int:
    """The seat after ``seat`` in direction ``d``: with No Mercy's mercy rule, the next one
    still in the hand (a seat knocked out holds no card: docs/rules.md §14, NM-9)."""
    n = st.n
    s = (seat + d) % n
    if st.tables.mercy:
        hands = st.hands
        while not hands[s] and s != seat:
            s = (s + d) % n
    return s


def _ask_color(st: State, chooser: int, then: int) -> None:
    st.phase = PHASE_CHOOSE_COLOR
    st.current = chooser
    st.after_color = then


def _clear_response(st: State) -> None:
    st.pend_card = -1
    st.pend_from = -1
    st.pend_guilty = False
    st.pend_color = NO_COLOR
    st.pend_draw = 0
    st.phase = PHASE_TURN


def _reshuffle(st: State, ev: list[Event] | None) -> bool:
    """RULES §3: the discard pile but its top card becomes the new draw pile."""
    discard = st.discard
    if len(discard) <= 1:
        return False
    if st.backs is not None:  # UNO Flip: each card with its other face (docs/rules.md §15)
        count = _reshuffle_sides(st)
        if ev is not None:
            ev.append(Event("reshuffle", count=count))
        return True
    pile = discard[:-1]
    _shuffle(st, pile)
    st.draw = pile
    st.discard = [discard[-1]]
    if ev is not None:
        ev.append(Event("reshuffle", count=len(pile)))
    return True


def _draw_cards(st: State, seat: int, k: int, ev: list[Event] | None, reason: str = "") -> int:
    """``seat`` draws up to ``k`` cards, reshuffling as needed; what there is, if not enough (R-6)."""
    hand = st.hands[seat]
    got = 0
    pile = st.draw
    room = min(st.tables.hand_limit, st.tables.mercy or st.tables.hand_limit) - len(hand)  # NM-9: out at 25
    if k > room:  # RULES §11.5: a hand at the limit draws no more
        k = max(room, 0)
    while got < k:
        if not pile:
            if not _reshuffle(st, ev):
                break
            pile = st.draw
        if st.backs is not None:  # UNO Flip: its other face comes with it
            _take(st, seat)
        else:
            hand.append(pile.pop())
        got += 1
    if got:
        st.exposed &= ~(1 << seat)
        st.drew_facing[seat] = -1
    if ev is not None:
        ev.append(Event("draw", seat=seat, cards=tuple(hand[len(hand) - got :]), count=got,
                        visible_to=frozenset((seat,)), reason=reason))  # fmt: skip
    return got


def _forget(st: State, seat: int, t: int) -> None:
    """``seat`` played ``t``: whoever knew a copy of it in that hand knows one fewer."""
    d = st.known.get(seat)
    if d:
        for viewer, cards in list(d.items()):
            if t in cards:
                cards.remove(t)
                if not cards:
                    del d[viewer]
        if not d:
            del st.known[seat]


def _reveal(st: State, owner: int, viewers: Sequence[int], ev: list[Event] | None, reason: str) -> None:
    hand = st.hands[owner]
    d = st.known.setdefault(owner, {})
    for v in viewers:
        d[v] = hand[:]
    if ev is not None:
        ev.append(Event("reveal", seat=owner, cards=tuple(hand), visible_to=frozenset((owner, *viewers)),
                        reason=reason))  # fmt: skip


def end_hand(st: State, winner: int, ev: list[Event] | None = None) -> None:
    """Score the hand that ``winner`` went out of (RULES §9) and end it."""
    st.winner = winner
    st.current = -1
    st.exposed = 0
    st.wrong_seat = -1
    st.wrong_snapshot = None
    st.drawn = -1
    st.after_color = -1
    st.series = -1
    _clear_response(st)
    score_hand(st)
    st.phase = PHASE_GAME_OVER if st.game_winners else PHASE_HAND_OVER
    if ev is not None:
        ev.append(Event("hand_over", seat=winner, points=st.hand_points))
        if st.game_winners:
            ev.append(Event("game_over", seat=st.game_winners[0], count=len(st.game_winners)))


def _mercy(st: State, ev: list[Event] | None) -> None:
    """docs/rules.md §14, NM-9: after an action, every seat holding 25 cards or more is knocked
    out (its cards go face down under the draw pile: every card of the discard pile is seen);
    the last seat left wins the hand."""
    hands = st.hands
    limit = st.tables.mercy
    out = [s for s in range(st.n) if len(hands[s]) >= limit]
    if st.phase >= PHASE_HAND_OVER:
        return
    if not out:
        if st.after_color >= 0 and not hands[st.after_color]:  # knocked out since it was chosen
            st.after_color = _nx(st, st.after_color, st.direction)
        return
    for s in out:
        hand = hands[s]
        hands[s] = []
        st.draw[0:0] = hand
        st.known.pop(s, None)
        st.exposed &= ~(1 << s)
        st.drew_facing[s] = -1
        if ev is not None:
            ev.append(Event("knocked_out", seat=s, count=len(hand)))
    left = [s for s in range(st.n) if hands[s]]
    if len(left) == 1:
        end_hand(st, left[0], ev)
        return
    if st.after_color >= 0 and not hands[st.after_color]:  # a Roulette's victim plays, then the next
        st.after_color = _nx(st, st.after_color, st.direction)
    if st.current >= 0 and not hands[st.current]:  # the seat to act is out: the next plays
        st.phase = PHASE_TURN
        st.drawn = -1
        st.after_color = -1
        _clear_response(st)
        st.current = _nx(st, st.current, st.direction)
        if ev is not None:
            ev.append(Event("turn", seat=st.current))


def _draw_until(st: State, seat: int, color: int, extra: int, ev: list[Event] | None, reason: str) -> None:
    """docs/rules.md §15, FL-7: ``seat`` draws cards until one of ``color`` comes (a wild card
    has none), or the draw pile and the discard pile run out, then ``extra`` more (a lost
    challenge's penalty). Only ``seat`` sees their faces."""
    got: list[int] = []
    hand = st.hands[seat]
    steps: list[Event] = []  # the reshuffles among them are told; the cards, in one draw
    while len(hand) < st.tables.hand_limit:
        if not _draw_cards(st, seat, 1, steps):
            break
        got.append(hand[-1])
        if CARD_COLOR[hand[-1]] == color:
            break
    if extra:
        before = len(hand)
        _draw_cards(st, seat, extra, steps)
        got += hand[before:]
    if ev is not None:
        ev += [e for e in steps if e.kind == "reshuffle"]
        ev.append(Event("draw", seat=seat, cards=tuple(got), count=len(got), visible_to=frozenset((seat,)),
                        reason=reason))  # fmt: skip


def _flip_played(st: State, seat: int, ev: list[Event] | None) -> bool:
    """docs/rules.md §15, FL-3, FL-4: ``seat`` played a Flip: everything turns over and the
    Flip's other face is matched; if it is a wild card, its player names the colour (then
    whether the phase is ``choose_color``); else the next player plays."""
    sides.turn_over(st, seat, ev)
    top = st.discard[-1]
    if st.tables.wild[top]:
        _ask_color(st, seat, _nx(st, seat, st.direction))
        return True
    st.color = CARD_COLOR[top]
    st.current = _nx(st, seat, st.direction)
    return False
