"""What each seat may do now (:func:`legal_ids`, :func:`legal_actions`, :func:`actors`) and, for
an action refused, why (:func:`check`: the notation's first error code that applies).

Part of the rules core (:mod:`unotable.engine` re-exports every name).
"""

from __future__ import annotations

from unotable.cards import BLANK, CARD_CODE, CARD_VALUE, COLORS, HOWLER, INVISIBILITY, IS_WILD, WILD_DRAW_FOUR
from unotable.errors import IllegalActionError, NotationError
from unotable.notation import (
    ACCEPT_ID,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_TEXT,
    ACTION_UNO,
    CATCH_IDS,
    CHALLENGE_ID,
    COLOR_IDS,
    DRAW_ID,
    INVISIBILITY_IDS,
    INVISIBILITY_UNO_IDS,
    KIND_CATCH,
    KIND_INVISIBILITY,
    KIND_PENALIZE,
    KIND_PLAY,
    KIND_WRONG,
    NAMES_SEAT,
    PASS_ID,
    PENALIZE_IDS,
    TABLE,
    TABLE_SEAT,
    UNO_ID,
    WRONG_IDS,
    parse_action,
)
from unotable.state import (
    PHASE_AFTER_DRAW,
    PHASE_CHOOSE_COLOR,
    PHASE_HAND_OVER,
    PHASE_RESPOND,
    PHASE_TURN,
    State,
)

# --------------------------------------------------------------------------------------------
# Legal actions.


def legal_ids(st: State, seat: int) -> list[int]:
    """Ids of the legal actions of ``seat`` (``TABLE_SEAT`` for the referee), in no set order."""
    if seat == st.current:  # -1 once the hand is over
        phase = st.phase
        tb = st.tables
        hand = st.hands[seat]
        if phase == PHASE_TURN:
            if tb.lenient and len(hand) > 1:
                cards: set[int] | frozenset[int] = set(hand)
            else:
                cards = tb.matching[st.color][st.discard[-1]].intersection(hand)
            ids = tb.ways[len(hand)][seat]
            out = [DRAW_ID]
            for t in cards:
                out += ids[t]
        elif phase == PHASE_AFTER_DRAW:
            out = list(tb.ways[len(hand)][seat][st.drawn])
            if not tb.must_play_drawn:
                out.append(PASS_ID)
        elif phase == PHASE_CHOOSE_COLOR:
            out = list(COLOR_IDS)
        else:  # respond
            out = [ACCEPT_ID]
            if st.pend_card == WILD_DRAW_FOUR:
                out.append(CHALLENGE_ID)
            if INVISIBILITY in hand and tb.response_windows:
                out += INVISIBILITY_IDS
                if len(hand) == 2:
                    out += INVISIBILITY_UNO_IDS
            if tb.stacking:  # RULES §11: a draw card answers the draw card played on this seat
                ids = tb.ways[len(hand)][seat]
                for t in tb.answers[st.pend_card].intersection(hand):
                    out += ids[t]
    elif seat == TABLE_SEAT:
        return list(PENALIZE_IDS[: st.n]) if st.phase < PHASE_HAND_OVER else []
    elif st.tables.jump_in and st.phase == PHASE_TURN:
        out = _jump_in_ids(st, seat)
    else:
        out = []
    if st.exposed or st.wrong_seat >= 0:  # both closed once the hand is over
        _window_ids(st, seat, out)
    return out


def _jump_in_ids(st: State, seat: int) -> list[int]:
    """RULES §11 jump_in: ``seat`` (not the current one) may play the card identical to the top
    card, never a wild card, while a ``turn`` phase waits."""
    top = st.discard[-1]
    hand = st.hands[seat]
    tb = st.tables
    if top in hand and not tb.wild[top]:
        return list(tb.ways[len(hand)][seat][top])
    return []


def pending_draw(st: State) -> int:
    """The cards the seat in ``respond`` would draw on ``accept`` (a stack's total with
    ``stacking``); 0 in every other phase (NOTATION.md's ``pending_draw``)."""
    return st.pend_draw if st.phase == PHASE_RESPOND else 0


def _window_ids(st: State, seat: int, out: list[int]) -> None:
    exposed = st.exposed
    if exposed:
        for x in range(st.n):
            if exposed >> x & 1:
                out.append(UNO_ID if x == seat else CATCH_IDS[x])
    w = st.wrong_seat
    if w >= 0 and w != seat:
        out.append(WRONG_IDS[w])


def legal_actions(st: State, seat: int | str) -> list[str]:
    """The legal actions of ``seat`` (an int, or ``"table"`` for the referee), in the notation,
    in a fixed order (plays by card, then draw, pass, colours, and the out-of-turn actions).

    :raises NotationError: if ``seat`` is not a seat of this table.
    """
    return [ACTION_TEXT[a] for a in sorted(legal_ids(st, seat_index(st, seat)))]


def seat_index(st: State, seat: int | str) -> int:
    """The engine's number for ``seat``: itself for a seat, ``TABLE_SEAT`` for ``"table"``.

    :raises NotationError: if it is neither a seat of this table nor ``"table"``.
    """
    if seat == TABLE:
        return TABLE_SEAT
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.n:
        raise NotationError(f"no seat {seat!r} at this table of {st.n}")
    return seat


def actors(st: State) -> list[int]:
    """The seats that have at least one legal action now (the referee not included)."""
    return [s for s in range(st.n) if legal_ids(st, s)]


def check(st: State, seat: int | str, action: str | int) -> int:
    """The id of ``action`` if ``seat`` may take it now.

    :raises IllegalActionError: with the first error code of NOTATION.md that applies.
    """
    try:
        s = seat_index(st, seat)
        if isinstance(action, int) and not isinstance(action, bool):
            if not 0 <= action < len(ACTION_TEXT):
                raise NotationError(f"no action with id {action}")
            aid = action
        else:
            aid = parse_action(action)  # type: ignore[arg-type]
    except NotationError as exc:
        raise IllegalActionError("bad_notation", str(exc)) from None
    text = ACTION_TEXT[aid]
    kind = ACTION_KIND[aid]
    card = ACTION_CARD[aid]
    arg = ACTION_ARG[aid]
    tb = st.tables
    names_seat = kind in (KIND_CATCH, KIND_WRONG, KIND_PENALIZE) or (kind == KIND_PLAY and NAMES_SEAT[card])
    if names_seat and arg >= st.n:
        raise IllegalActionError("bad_notation", f"{text!r}: there is no seat {arg} at this table of {st.n}")
    if kind == KIND_PLAY and CARD_VALUE[card] == BLANK and not IS_WILD[card] and (arg >= 0) != tb.wild[card]:
        how = "names a colour" if tb.wild[card] else "names no colour"
        raise IllegalActionError("bad_notation", f"{text!r}: this blank {how} when played")
    legal = legal_ids(st, s)
    if aid in legal:
        return aid
    who = "the table" if s == TABLE_SEAT else f"seat {s}"
    if not legal:
        raise IllegalActionError("not_your_turn", f"{who} has no legal action now ({st.phase_name})")
    if kind == KIND_PLAY and s == st.current and st.phase in (PHASE_TURN, PHASE_AFTER_DRAW):
        if card not in st.hands[s]:
            raise IllegalActionError("not_in_hand", f"{CARD_CODE[card]} is not in seat {s}'s hand")
        if st.phase == PHASE_AFTER_DRAW and card != st.drawn:
            raise IllegalActionError(
                "not_playable", f"only the card just drawn ({CARD_CODE[st.drawn]}) may be played"
            )
        if not tb.is_playable(st.color, st.discard[-1], card):
            raise IllegalActionError(
                "not_playable",
                f"{CARD_CODE[card]} does not match {CARD_CODE[st.discard[-1]]}"
                f" with {COLORS[st.color]} to match",
            )
    if kind == KIND_PLAY and s == st.current and st.phase == PHASE_RESPOND and tb.answers[st.pend_card]:
        # RULES §11 stacking: the seat a draw card fell on may play, an answer only.
        if card not in st.hands[s]:
            raise IllegalActionError("not_in_hand", f"{CARD_CODE[card]} is not in seat {s}'s hand")
        if card not in tb.answers[st.pend_card]:
            raise IllegalActionError(
                "not_playable", f"{CARD_CODE[card]} does not answer the {CARD_CODE[st.pend_card]} (stacking)"
            )
    if kind == KIND_PLAY and s >= 0 and tb.seven_zero and NAMES_SEAT[card] and card != HOWLER:
        if arg < 0 and len(st.hands[s]) > 1:
            example = f"play {CARD_CODE[card]} {(s + 1) % st.n}"
            message = f"{text!r}: a 7 names the seat it swaps with ({example!r})"
            raise IllegalActionError("not_allowed_now", message)
        if arg == s:
            raise IllegalActionError("not_allowed_now", f"{text!r}: a 7 swaps hands with another seat")
    if (
        kind == KIND_INVISIBILITY
        and s == st.current
        and st.phase == PHASE_RESPOND
        and INVISIBILITY not in st.hands[s]
    ):
        raise IllegalActionError("not_in_hand", f"seat {s} holds no Invisibility")
    if ACTION_UNO[aid]:
        raise IllegalActionError("not_allowed_now", f"{text!r}: 'uno' goes only with the next-to-last card")
    raise IllegalActionError("not_allowed_now", f"{text!r} is not allowed now ({who}, phase {st.phase_name})")
