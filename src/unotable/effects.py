"""What actions do (RULES §3-§9, §11): :func:`step` applies a legal action in place,
:func:`apply` checks it and returns a new state; the response windows, wrong cards, the
editions' and house rules' effects (the moves they share, drawing and the end of a hand among
them, are :mod:`unotable.piles`').

Part of the rules core (:mod:`unotable.engine` re-exports every name).
"""

from __future__ import annotations

from typing import Final

from unotable import sides
from unotable.cards import (
    AW_TARGET,
    CARD_CODE,
    CARD_COLOR,
    HOWLER,
    INVISIBILITY,
    NM_ROULETTE,
    NM_WILD_REVERSE_FOUR,
    NUM_CARD_TYPES,
)
from unotable.events import Event
from unotable.legality import check, seat_index
from unotable.notation import (
    ACTION_FIELDS,
    ACTION_MORE,
    KIND_ACCEPT,
    KIND_CATCH,
    KIND_CHALLENGE,
    KIND_COLOR,
    KIND_DRAW,
    KIND_INVISIBILITY,
    KIND_PASS,
    KIND_PENALIZE,
    KIND_PLAY,
    KIND_UNO,
    KIND_WRONG,
    NAMES_SEAT,
)
from unotable.piles import (
    _ask_color,
    _clear_response,
    _draw_cards,
    _draw_until,
    _flip_played,
    _forget,
    _mercy,
    _nx,
    _reshuffle,
    _reveal,
    end_hand,
)
from unotable.shuffle import _shuffle
from unotable.state import (
    PHASE_AFTER_DRAW,
    PHASE_RESPOND,
    PHASE_TURN,
    State,
)
from unotable.tables import (
    CHALLENGED,
    E_BLANK,
    E_DISCARD_ALL,
    E_DRAW,
    E_DRAW_COLOR,
    E_FLIP,
    E_HOWLER,
    E_INVIS,
    E_MATER,
    E_NUMBER,
    E_REVERSE,
    E_ROULETTE,
    E_SEVEN,
    E_SHUFFLE,
    E_SKIP,
    E_SKIP2,
    E_SKIP_ALL,
    E_STACK,
    E_TARGET,
    E_WD4,
    E_WILD,
)

UNO_PENALTY: Final = 2
"""Cards drawn by a player caught not calling UNO (RULES §7)."""
WRONG_CARD_PENALTY: Final = 2
"""Cards drawn by a player whose wrong card is pointed out (RULES §8)."""
CHALLENGE_PENALTY: Final = 2
"""Cards drawn, beyond the four, by the loser of a Wild Draw Four challenge (RULES §4)."""


# --------------------------------------------------------------------------------------------
# Applying actions.


def apply(st: State, seat: int | str, action: str | int) -> tuple[State, list[Event]]:
    """The state after ``seat`` takes ``action``, and the events; ``st`` is not changed.

    :param action: the action in the notation, or its id.
    :raises IllegalActionError: with the notation's error code if the action is refused.
    """
    aid = check(st, seat, action)
    new = st.copy()
    events: list[Event] = []
    step(new, seat_index(st, seat), aid, events)
    return new, events


def step(st: State, seat: int, aid: int, ev: list[Event] | None = None) -> None:
    """Apply legal action ``aid`` of ``seat`` to ``st`` in place; events go to ``ev`` if given.

    The action must be legal (see :func:`legal_ids`): nothing is checked here.
    """
    _step(st, seat, aid, ev)
    if st.tables.mercy:  # docs/rules.md §14, NM-9
        _mercy(st, ev)


def _step(st: State, seat: int, aid: int, ev: list[Event] | None = None) -> None:
    kind, t, arg, uno = ACTION_FIELDS[aid]
    if kind == KIND_PLAY:  # RULES §3-§6 (the hot path, inline)
        tb = st.tables
        hand = st.hands[seat]
        if tb.lenient:
            _lenient_play(st, seat, t)
        if st.backs is None:
            hand.remove(t)
            st.discard.append(t)
        else:  # UNO Flip: the card goes with its other face (docs/rules.md §15)
            sides.discard(st, seat, t)
        if st.known and seat in st.known:
            _forget(st, seat, t)
        left = len(hand)
        # The turn begins: windows close; an UNO not called opens one (RULES §7).
        st.exposed = 1 << seat if left == 1 and not uno and tb.uno_call != "silent" else 0
        deflecting = False
        if st.phase:  # after a draw, or an answer in ``respond``
            # RULES §11.5: a Reverse or a Skip played on a pending draw sends it on.
            deflecting = st.phase == PHASE_RESPOND and t in tb.deflectors[st.color] and st.pend_draw > 0
            st.phase = PHASE_TURN
            st.drawn = -1
        if ev is not None:
            howler = t == HOWLER
            ev.append(
                Event(
                    "play",
                    seat=seat,
                    cards=(t,),
                    target=arg if howler or t == AW_TARGET else None,
                    color=arg if arg >= 0 and not NAMES_SEAT[t] else None,  # a 7's seat: see "swap"
                    dark=st.side == 1,
                    reason=("jump_in " if seat != st.current else "") + ("uno" if uno else ""),
                )
            )
        if deflecting:
            _deflect(st, seat, t, left, ev)
            return
        fx = tb.effect[t]
        if fx == E_NUMBER and left:  # the commonest play, first
            st.color = CARD_COLOR[t]
            if tb.multi_play and _series(st, seat, t, aid, ev):
                return
            st.current = _nx(st, seat, st.direction)
            if ev is not None:
                ev.append(Event("turn", seat=st.current))
            return
        prev_color = st.color
        c = CARD_COLOR[t]
        if c >= 0:
            st.color = c
        elif t in tb.draws_named:  # No Mercy's wild draw cards name the colour (docs/rules.md §14)
            st.color = arg
            if t == NM_WILD_REVERSE_FOUR:  # NM-6: the direction changes, then the next draws
                st.direction = -st.direction
                if ev is not None:
                    ev.append(Event("reverse", seat=seat))
        d = st.direction
        n = st.n
        if left == 0 and fx != E_SHUFFLE:  # M-3: a last Wild Shuffle Hands deals cards back
            _go_out(st, seat, t, fx, arg, ev)
            return
        if fx == E_NUMBER:
            st.current = _nx(st, seat, d)
        elif fx == E_SKIP:
            victim = _nx(st, seat, d)
            if tb.response_windows:
                _open_response(st, victim, t, seat, False, prev_color, ev)
                return
            st.current = _nx(st, victim, d)
            if ev is not None:
                ev.append(Event("skip", seat=victim))
        elif fx == E_REVERSE:
            d = st.direction = -d
            if ev is not None:
                ev.append(Event("reverse", seat=seat))
            if n == 2:  # RULES §6: a Skip with two players
                victim = _nx(st, seat, d)
                if tb.response_windows:
                    _open_response(st, victim, t, seat, False, prev_color, ev)
                    return
                st.current = seat
                if ev is not None:
                    ev.append(Event("skip", seat=victim))
            else:
                st.current = _nx(st, seat, d)
        elif fx == E_DRAW:
            victim = _nx(st, seat, d)
            if tb.response_windows:  # with stacking, it may answer a stack: the total grows
                _open_response(st, victim, t, seat, False, prev_color, ev, st.pend_draw + tb.draws[t])
                return
            _draw_cards(st, victim, tb.draws[t], ev, CARD_CODE[t])
            st.current = _nx(st, victim, d)
            if ev is not None:
                ev.append(Event("skip", seat=victim))
        elif fx in (E_WILD, E_INVIS):
            st.color = arg
            st.current = _nx(st, seat, d)
        elif fx == E_WD4:
            # Legal only without a card of the colour to match (RULES §3); judged if challenged.
            guilty = prev_color >= 0 and tb.holds_color(hand, prev_color)
            st.color = arg
            _open_response(st, _nx(st, seat, d), t, seat, guilty, prev_color, ev, st.pend_draw + tb.draws[t])
            return
        elif fx == E_HOWLER:
            if tb.response_windows:
                _open_response(st, arg, t, seat, False, prev_color, ev)
                return
            _reveal(st, arg, [v for v in range(n) if v != arg], ev, "howler")
            _ask_color(st, seat, _nx(st, seat, d))
        elif fx == E_MATER:
            for other in range(n):
                if other != seat:
                    _reveal(st, other, [seat], ev, "mater")
            _ask_color(st, seat, _nx(st, seat, d))
        else:  # E_BLANK and the effects of house rules
            _special_play(st, seat, t, fx, arg, uno, prev_color, ev)
            return
        if ev is not None and st.phase == PHASE_TURN:
            ev.append(Event("turn", seat=st.current))
    elif kind == KIND_DRAW:  # RULES §3, R-5, R-6 (the second commonest action, inline)
        st.exposed = 0  # the turn begins: windows close
        if st.wrong_seat >= 0:
            st.wrong_seat = -1
            st.wrong_snapshot = None
        facing = st.drew_facing[seat] = (st.color + 1) * NUM_CARD_TYPES + st.discard[-1]
        pile = st.draw
        if len(st.hands[seat]) >= st.tables.hand_limit:  # RULES §11.5: it draws no more
            st.current = _nx(st, seat, st.direction)
            if ev is not None:
                ev.append(Event("pass", seat=seat, reason="hand limit"))
                ev.append(Event("turn", seat=st.current))
            return
        if not pile:
            if not _reshuffle(st, ev):
                # a player who chose to draw and finds nothing passes.
                st.current = _nx(st, seat, st.direction)
                if ev is not None:
                    ev.append(Event("pass", seat=seat, reason="nothing to draw"))
                    ev.append(Event("turn", seat=st.current))
                return
            pile = st.draw
        if st.backs is None:
            t = pile.pop()
            st.hands[seat].append(t)
        else:
            t = sides.take(st, seat)
        if ev is not None:
            ev.append(Event("draw", seat=seat, cards=(t,), count=1, visible_to=frozenset((seat,))))
        if st.tables.playable[facing][t]:
            st.phase = PHASE_AFTER_DRAW
            st.drawn = t
        elif st.tables.draw_to_match:  # RULES §11: it draws on
            _draw_to_match(st, seat, facing, ev)
        else:
            st.current = _nx(st, seat, st.direction)
            if ev is not None:
                ev.append(Event("turn", seat=st.current))
    elif kind == KIND_PASS:
        st.phase = PHASE_TURN
        st.drawn = -1
        st.drew_facing[seat] = -1  # it keeps a playable card
        st.current = _nx(st, seat, st.direction)
        if ev is not None:
            ev.append(Event("pass", seat=seat))
            ev.append(Event("turn", seat=st.current))
    elif kind == KIND_COLOR:
        if st.discard[-1] == NM_ROULETTE:  # docs/rules.md §14, NM-7: its victim named it
            _roulette(st, seat, arg, ev)
            return
        st.color = arg
        st.phase = PHASE_TURN
        st.current = st.after_color
        st.after_color = -1
        if ev is not None:
            ev.append(Event("color", seat=seat, color=st.color, dark=st.side == 1))
            ev.append(Event("turn", seat=st.current))
    elif kind == KIND_ACCEPT:
        _accept(st, seat, ev)
    elif kind == KIND_CHALLENGE:
        _challenge(st, seat, ev)
    elif kind == KIND_INVISIBILITY:
        _invisibility(st, seat, arg, uno, ev)
    elif kind == KIND_UNO:
        st.exposed &= ~(1 << seat)
        if ev is not None:
            ev.append(Event("uno", seat=seat))
    elif kind == KIND_CATCH:
        target = arg
        st.exposed &= ~(1 << target)
        if ev is not None:
            ev.append(Event("catch", seat=seat, target=target))
        _draw_cards(st, target, st.tables.uno_penalty, ev, "caught without UNO")
    elif kind == KIND_WRONG:
        _undo_wrong(st, seat, arg, ev)
    elif kind == KIND_PENALIZE:
        target = arg
        if ev is not None:
            ev.append(
                Event("penalty", target=target, count=st.tables.suggestion_penalty, reason="suggestion")
            )
        _draw_cards(st, target, st.tables.suggestion_penalty, ev, "suggestion")
    else:  # pragma: no cover - every kind is handled above
        raise AssertionError(f"unknown action kind {kind}")


def _series(st: State, seat: int, t: int, aid: int, ev: list[Event] | None) -> bool:
    """docs/rules.md §11.5 multi_play: after ``seat``'s number card ``t``, whether its turn goes
    on (a ``play CARD more``: another card of that number follows); the series ends with a play
    without ``more``. Only the colour of each card counts: number cards have no other effect."""
    if ACTION_MORE[aid]:
        st.series = t
        st.current = seat
        if ev is not None:
            ev.append(Event("turn", seat=seat, reason="more"))
        return True
    st.series = -1
    return False


def _lenient_play(st: State, seat: int, t: int) -> None:
    """With ``lenient_plays``, before ``seat`` plays ``t``: the window on an earlier wrong card
    closes, and a wrong card opens one, with the state to go back to (R-13)."""
    if st.wrong_seat >= 0:
        st.wrong_seat = -1
        st.wrong_snapshot = None
    if st.phase == PHASE_TURN and not st.tables.playable[(st.color + 1) * NUM_CARD_TYPES + st.discard[-1]][t]:
        snapshot = st.copy()
        st.wrong_seat = seat
        st.wrong_snapshot = snapshot


def _special_play(
    st: State, seat: int, t: int, fx: int, arg: int, uno: bool, prev_color: int, ev: list[Event] | None
) -> None:
    """The effects ``step`` leaves out of its chain: a custom blank's, and the house rules' of
    RULES §11 (the card is on the discard pile; ``seat`` holds cards still)."""
    if fx == E_BLANK:
        _blank_effect(st, seat, t, arg, ev)
        return
    if fx == E_SHUFFLE:
        _shuffle_hands(st, seat, arg, uno, ev)
        return
    n = st.n
    d = st.direction
    if fx == E_SKIP_ALL:  # docs/rules.md §14, NM-4: every other player; the player plays again
        if ev is not None:
            for i in range(1, n):
                if st.hands[(seat + i * d) % n]:
                    ev.append(Event("skip", seat=(seat + i * d) % n))
        st.current = seat
    elif fx == E_DISCARD_ALL:  # NM-5: the player's other cards of its colour go under it
        if _discard_all(st, seat, t, ev):
            return
        st.current = _nx(st, seat, d)
    elif fx == E_ROULETTE:  # NM-7: the next player names the colour they turn cards for
        victim = _nx(st, seat, d)
        _ask_color(st, victim, _nx(st, victim, d))
    elif fx == E_SKIP2:  # docs/rules.md §13, AW-5: the next two players, never the player itself
        skipped = min(2, n - 1)
        if ev is not None:
            for i in range(1, skipped + 1):
                ev.append(Event("skip", seat=(seat + i * d) % n))
        st.current = (seat + (skipped + 1) * d) % n
    elif fx == E_TARGET:  # docs/rules.md §13, AW-6: the seat named draws two; play goes on
        _draw_cards(st, arg, 2, ev, CARD_CODE[t])
        st.current = _nx(st, seat, d)
    elif fx == E_FLIP:  # docs/rules.md §15, FL-3
        if _flip_played(st, seat, ev):
            return
    elif fx == E_DRAW_COLOR:  # FL-7: challenged as a Wild Draw Four; accepted, drawn until the colour
        st.color = arg
        guilty = prev_color >= 0 and st.tables.holds_color(st.hands[seat], prev_color)
        _open_response(st, _nx(st, seat, d), t, seat, guilty, prev_color, ev)
        return
    elif fx == E_STACK:
        tb = st.tables
        total = st.pend_draw + tb.draws[t]  # an answer adds to the stack it answers
        victim = _nx(st, seat, d)
        if _can_answer(st, victim, t):
            _open_response(st, victim, t, seat, False, prev_color, ev, total)
            return
        _clear_response(st)  # no answer held: it applies at once, as in RULES §3
        _draw_cards(st, victim, total, ev, CARD_CODE[t])
        st.current = _nx(st, victim, d)
        if ev is not None:
            ev.append(Event("skip", seat=victim))
    else:
        if fx == E_SEVEN:
            dest = list(range(n))
            dest[seat], dest[arg] = arg, seat
            if ev is not None:
                ev.append(Event("swap", seat=seat, target=arg))
        else:  # E_ZERO
            dest = [_nx(st, s, d) if st.hands[s] else s for s in range(n)]  # NM-9: the out stay out
            if ev is not None:
                ev.append(Event("pass_hands", seat=seat, reason="left" if d == 1 else "right"))
        _move_hands(st, seat, dest, uno)
        st.current = _nx(st, seat, d)
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _discard_all(st: State, seat: int, t: int, ev: list[Event] | None) -> bool:
    """docs/rules.md §14, NM-5: ``seat`` played the Discard All ``t``; every card of its colour
    left in the hand goes onto the discard pile under it (wild cards have no colour: kept).
    Whether that emptied the hand (it is then over, won by ``seat``)."""
    color = CARD_COLOR[t]
    hand = st.hands[seat]
    gone = [x for x in hand if CARD_COLOR[x] == color]
    if gone:
        st.hands[seat] = hand = [x for x in hand if CARD_COLOR[x] != color]
        st.discard[-1:-1] = gone
        if st.known and seat in st.known:
            for x in gone:
                _forget(st, seat, x)
        if ev is not None:
            ev.append(Event("discard_all", seat=seat, cards=tuple(gone), count=len(gone)))
    if not hand:
        end_hand(st, seat, ev)
        return True
    if len(hand) == 1 and gone and st.tables.uno_call is False:  # UNO is called as an action
        st.exposed |= 1 << seat
    return False


def _roulette(st: State, seat: int, color: int, ev: list[Event] | None) -> None:
    """docs/rules.md §14, NM-7: ``seat``, on whom a Wild Colour Roulette was played, named
    ``color``: it turns cards face up from the draw pile until one of that colour comes (wild
    cards have none), takes them all, and loses its turn; ``color`` is the colour to match."""
    st.color = color
    st.phase = PHASE_TURN
    then = st.after_color
    st.after_color = -1
    if ev is not None:
        ev.append(Event("color", seat=seat, color=color))
    hand = st.hands[seat]
    turned: list[int] = []
    while len(hand) < min(st.tables.hand_limit, st.tables.mercy or st.tables.hand_limit):
        if not st.draw and not _reshuffle(st, ev):
            break
        x = st.draw.pop()
        hand.append(x)
        turned.append(x)
        if CARD_COLOR[x] == color:
            break
    if turned:
        st.exposed &= ~(1 << seat)
        st.drew_facing[seat] = -1
        known = st.known.setdefault(seat, {})
        for viewer in range(st.n):
            if viewer != seat:
                known.setdefault(viewer, []).extend(turned)
    if ev is not None:  # turned face up: every seat sees them
        ev.append(Event("draw", seat=seat, cards=tuple(turned), count=len(turned), reason="WCR"))
        ev.append(Event("skip", seat=seat))
    st.current = then
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _shuffle_hands(st: State, seat: int, arg: int, uno: bool, ev: list[Event] | None) -> None:
    """docs/rules.md §12, M-2, M-3: the Wild Shuffle Hands. Every hand is gathered (the player's
    own too), shuffled, and dealt out one card at a time from the seat on the player's left
    (``seat + 1``, whatever the direction of play), round to the player; its player has called
    ``arg``. Nothing known of the old hands holds of the new ones. A seat left with one card
    must call UNO (its player's ``uno`` suffix counts for it); a player dealt no card back has
    gone out."""
    n = st.n
    st.color = arg
    pool = [card for hand in st.hands for card in hand]
    _shuffle(st, pool)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i, card in enumerate(pool):
        hands[(seat + 1 + i) % n].append(card)
    st.hands = hands
    st.known = {}
    st.drew_facing = [-1] * n
    exposed = 0
    if st.tables.uno_call is False:
        for s in range(n):
            if len(hands[s]) == 1 and not (s == seat and uno):
                exposed |= 1 << s
    st.exposed = exposed
    if ev is not None:
        ev.append(Event("shuffle_hands", seat=seat, count=len(pool)))
    if not hands[seat]:  # M-3: the cards ran out before the deal came round to the player
        end_hand(st, seat, ev)
        return
    st.current = _nx(st, seat, st.direction)
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _move_hands(st: State, seat: int, dest: list[int], uno: bool) -> None:
    """RULES §11 seven_zero: the hand of each seat ``s`` goes to seat ``dest[s]``; what was known
    of a hand (and what its draws told) follows it; a seat whose hand changed and that now holds
    one card must call UNO, but ``seat``'s call made with its play counts."""
    n = st.n
    hands = st.hands
    facing = st.drew_facing
    old_hands = hands[:]
    old_facing = facing[:]
    changed = 0
    for s in range(n):
        r = dest[s]
        if r != s:
            hands[r] = old_hands[s]
            facing[r] = old_facing[s]
            changed |= 1 << r
    if st.backs is not None:
        sides.move_hands(st, dest)
    if st.known:
        moved: dict[int, dict[int, list[int]]] = {}
        for owner, by_viewer in st.known.items():
            owner_now = dest[owner]
            kept = {v: cards for v, cards in by_viewer.items() if v != owner_now}
            if kept:
                moved[owner_now] = kept
        st.known = moved
    exposed = st.exposed & ~changed
    # docs/rules.md §11.5, H-14, H-15: with silent UNO nobody is caught; with strict UNO a hand
    # that came by a 7 or a 0 counts as called (no card was played from it to call with).
    if st.tables.uno_call is False:
        for s in range(n):
            if changed >> s & 1 and len(hands[s]) == 1 and not (s == seat and uno):
                exposed |= 1 << s
    st.exposed = exposed


def _draw_to_match(st: State, seat: int, facing: int, ev: list[Event] | None) -> None:
    """RULES §11 draw_to_match: ``seat`` drew an unplayable card as its turn and draws on until a
    card plays (``after_draw``), or until nothing is left to draw (the turn passes)."""
    ok = st.tables.playable[facing]
    hand = st.hands[seat]
    while True:
        if st.tables.mercy and len(hand) >= st.tables.mercy:  # NM-9: knocked out (``step``)
            return
        if len(hand) >= st.tables.hand_limit:  # RULES §11.5: it stops at the limit, and passes
            st.current = _nx(st, seat, st.direction)
            if ev is not None:
                ev.append(Event("pass", seat=seat, reason="hand limit"))
                ev.append(Event("turn", seat=st.current))
            return
        if not st.draw and not _reshuffle(st, ev):
            st.current = _nx(st, seat, st.direction)
            if ev is not None:
                ev.append(Event("pass", seat=seat, reason="nothing to draw"))
                ev.append(Event("turn", seat=st.current))
            return
        if st.backs is None:
            t = st.draw.pop()
            hand.append(t)
        else:
            t = sides.take(st, seat)
        if ev is not None:
            ev.append(Event("draw", seat=seat, cards=(t,), count=1, visible_to=frozenset((seat,))))
        if ok[t]:
            st.phase = PHASE_AFTER_DRAW
            st.drawn = t
            return


def _blank_effect(st: State, seat: int, t: int, arg: int, ev: list[Event] | None) -> None:
    effect = st.tables.blank[t]
    assert effect is not None
    n = st.n
    if effect.wild:
        st.color = arg
    if effect.reverse:
        st.direction = -st.direction
        if ev is not None:
            ev.append(Event("reverse", seat=seat))
    d = st.direction
    victim = _nx(st, seat, d)
    if effect.reveal:
        _reveal(st, victim, [v for v in range(n) if v != victim], ev, "blank")
    if effect.draw:
        _draw_cards(st, victim, effect.draw, ev, CARD_CODE[t])
    if effect.skip or (effect.reverse and n == 2):
        st.current = _nx(st, victim, d)
        if ev is not None:
            ev.append(Event("skip", seat=victim))
    else:
        st.current = victim
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _can_answer(st: State, victim: int, t: int) -> bool:
    """Whether ``victim`` holds an answer to the pending draw card ``t``: a draw card that stacks
    on it, or a card that deflects it (RULES §11, §11.5)."""
    tb = st.tables
    hand = st.hands[victim]
    return not tb.answers[t].isdisjoint(hand) or not tb.deflectors[st.color].isdisjoint(hand)


def _deflect(st: State, seat: int, t: int, left: int, ev: list[Event] | None) -> None:
    """RULES §11.5 deflect: ``seat`` played the Reverse or Skip ``t`` on the draw pending on it;
    the whole draw passes on (Skip) or back (Reverse: the direction changes) to the next seat,
    which answers it in turn, as if the deflector had played it (a Wild Draw Four deflected is
    no longer challenged: H-5)."""
    tb = st.tables
    if tb.base_effect[t] == E_REVERSE:
        st.direction = -st.direction
        if ev is not None:
            ev.append(Event("reverse", seat=seat))
    victim = _nx(st, seat, st.direction)
    total = st.pend_draw
    card = st.pend_card
    if ev is not None:
        ev.append(Event("deflect", seat=seat, target=victim, count=total, cards=(card,)))
    if left == 0:  # H-7: the hand ends; the seat it was sent to draws it
        _draw_cards(st, victim, total, ev, CARD_CODE[card])
        end_hand(st, seat, ev)
        return
    if tb.response_windows or card in CHALLENGED or _can_answer(st, victim, card):
        st.phase = PHASE_RESPOND
        st.current = victim
        st.pend_from = seat  # the draw now comes from the deflector (H-5: no challenge any more)
        st.pend_guilty = False
        if ev is not None:
            ev.append(Event("turn", seat=victim, reason="respond"))
        return
    _clear_response(st)  # no answer held: it applies at once (H-4)
    _draw_cards(st, victim, total, ev, CARD_CODE[card])
    st.current = _nx(st, victim, st.direction)
    if ev is not None:
        ev.append(Event("skip", seat=victim))
        ev.append(Event("turn", seat=st.current))


def _open_response(
    st: State,
    victim: int,
    t: int,
    player: int,
    guilty: bool,
    prev_color: int,
    ev: list[Event] | None,
    draw: int = 0,
) -> None:
    """``player``'s action card ``t`` falls on ``victim``, who answers it in ``respond``; it
    draws ``draw`` cards if it accepts."""
    st.phase = PHASE_RESPOND
    st.pend_color = prev_color
    st.current = victim
    st.pend_card = t
    st.pend_from = player
    st.pend_guilty = guilty
    st.pend_draw = draw
    if ev is not None:
        ev.append(Event("turn", seat=victim, reason="respond"))


def _accept(st: State, seat: int, ev: list[Event] | None) -> None:
    t = st.pend_card
    player = st.pend_from
    total = st.pend_draw
    d = st.direction
    n = st.n
    _clear_response(st)
    if ev is not None:
        stacked = total > st.tables.draws[t]
        ev.append(Event("accept", seat=seat, cards=(t,), count=total, reason="stack" if stacked else ""))
    if t == HOWLER:
        _reveal(st, seat, [v for v in range(n) if v != seat], ev, "howler")
        _ask_color(st, player, _nx(st, player, d))
        return
    if st.tables.base_effect[t] == E_DRAW_COLOR:  # FL-7: until a card of the colour named comes
        _draw_until(st, seat, st.color, 0, ev, CARD_CODE[t])
    elif total:  # a draw card, or with stacking the whole stack
        _draw_cards(st, seat, total, ev, CARD_CODE[t])
    st.current = _nx(st, seat, d)
    if ev is not None:
        ev.append(Event("skip", seat=seat))
        ev.append(Event("turn", seat=st.current))


def _challenge(st: State, seat: int, ev: list[Event] | None) -> None:
    offender = st.pend_from
    guilty = st.pend_guilty
    total = st.pend_draw  # 4, or with stacking the whole stack (RULES §11)
    until = st.tables.base_effect[st.pend_card] == E_DRAW_COLOR  # FL-7: draws until the colour
    _clear_response(st)
    if ev is not None:
        ev.append(Event("challenge", seat=seat, target=offender, reason="guilty" if guilty else "not guilty"))
    _reveal(st, offender, [seat], ev, "challenge")
    if guilty:  # the offender draws 4; the challenger plays normally; the colour stands
        if until:
            _draw_until(st, offender, st.color, 0, ev, "guilty Wild Draw Color")
        else:
            _draw_cards(st, offender, total, ev, "guilty Wild Draw Four")
        st.current = seat
    else:
        if until:
            _draw_until(st, seat, st.color, CHALLENGE_PENALTY, ev, "lost challenge")
        else:
            _draw_cards(st, seat, total + CHALLENGE_PENALTY, ev, "lost challenge")
        st.current = _nx(st, seat, st.direction)
        if ev is not None:
            ev.append(Event("skip", seat=seat))
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _invisibility(st: State, seat: int, color: int, uno: bool, ev: list[Event] | None) -> None:
    """RULES §5, R-8: the action card is cancelled; play goes on as after a plain card."""
    t = st.pend_card
    player = st.pend_from
    _clear_response(st)
    hand = st.hands[seat]
    hand.remove(INVISIBILITY)
    st.discard.append(INVISIBILITY)
    if st.known:
        _forget(st, seat, INVISIBILITY)
    st.color = color
    left = len(hand)
    if left == 1 and not uno and st.tables.uno_call != "silent":
        st.exposed |= 1 << seat
    if ev is not None:
        ev.append(Event("invisibility", seat=seat, cards=(INVISIBILITY,), color=color, target=player,
                        reason="uno" if uno else ""))  # fmt: skip
    if left == 0:
        _go_out(st, seat, INVISIBILITY, E_INVIS, color, ev)
        return
    st.current = _nx(st, player, st.direction) if t == HOWLER else seat
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _undo_wrong(st: State, seat: int, offender: int, ev: list[Event] | None) -> None:
    """R-13: undo everything since the wrong card; its player takes it back and draws 2."""
    snapshot = st.wrong_snapshot
    assert snapshot is not None
    rng = st.rng
    wrong_card = st.discard[len(snapshot.discard)] if len(st.discard) > len(snapshot.discard) else None
    st.assign(snapshot)
    st.rng = rng
    st.exposed = 0
    if ev is not None:
        ev.append(
            Event("wrong", seat=seat, target=offender, cards=(wrong_card,) if wrong_card is not None else ())
        )
    _draw_cards(st, offender, WRONG_CARD_PENALTY, ev, "wrong card")
    st.phase = PHASE_TURN
    st.drawn = -1
    st.current = _nx(st, offender, st.direction)
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _go_out(st: State, seat: int, t: int, fx: int, arg: int, ev: list[Event] | None) -> None:
    """RULES §9, R-10: the hand is over; a last draw card still makes the next player draw."""
    tb = st.tables
    if fx in (E_WILD, E_WD4, E_INVIS, E_DRAW_COLOR) or (fx == E_BLANK and tb.wild[t]):
        st.color = arg
    d = st.direction
    if fx == E_BLANK:
        effect = tb.blank[t]
        assert effect is not None
        if effect.reverse:
            d = st.direction = -d
        if effect.draw:
            _draw_cards(st, _nx(st, seat, d), effect.draw, ev, CARD_CODE[t])
    elif fx in (E_DRAW, E_STACK):  # a stack still pending is drawn whole (RULES §11)
        _draw_cards(st, _nx(st, seat, d), st.pend_draw + tb.draws[t], ev, CARD_CODE[t])
    elif fx == E_TARGET:  # AW-6: the seat named still draws two
        _draw_cards(st, arg, 2, ev, CARD_CODE[t])
    elif fx == E_WD4:
        _draw_cards(st, _nx(st, seat, d), st.pend_draw + tb.draws[t], ev, CARD_CODE[t])
    elif fx == E_REVERSE:
        st.direction = -d
    elif fx == E_DRAW_COLOR:  # FL-7: the next player still draws until the colour named
        _draw_until(st, _nx(st, seat, d), arg, 0, ev, CARD_CODE[t])
    elif fx == E_FLIP:  # FL-8: a last Flip still turns everything over; the hand is scored so
        sides.turn_over(st, seat, ev)
    end_hand(st, seat, ev)
