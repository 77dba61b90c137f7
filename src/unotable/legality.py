"""What each seat may do now (:func:`legal_ids`, :func:`legal_actions`, :func:`actors`) and, for
an action refused, why (:func:`check`: the notation's first error code that applies).

Part of the rules core (:mod:`unotable.engine` re-exports every name).
"""

from __future__ import annotations

from collections.abc import Iterable

from unotable.cards import (
    AW_SWAP,
    AW_TARGET,
    BLANK,
    CARD_CODE,
    CARD_VALUE,
    COLORS,
    INVISIBILITY,
    IS_WILD,
    SEVEN,
)
from unotable.errors import IllegalActionError, NotationError
from unotable.notation import (
    ACCEPT_ID,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_FIELDS,
    ACTION_ID,
    ACTION_KIND,
    ACTION_MORE,
    ACTION_TEXT,
    ACTION_UNO,
    CATCH_IDS,
    CHALLENGE_ID,
    COLOR_IDS,
    DARK_COLOR_IDS,
    DRAW_ID,
    INVISIBILITY_IDS,
    INVISIBILITY_UNO_IDS,
    KIND_CATCH,
    KIND_CHALLENGE,
    KIND_DRAW,
    KIND_INVISIBILITY,
    KIND_PASS,
    KIND_PENALIZE,
    KIND_PLAY,
    KIND_UNO,
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
from unotable.tables import CHALLENGED

# --------------------------------------------------------------------------------------------
# Legal actions.


def legal_ids(st: State, seat: int) -> list[int]:
    """Ids of the legal actions of ``seat`` (``TABLE_SEAT`` for the referee), in no set order."""
    if st.tables.mercy and st.phase < PHASE_HAND_OVER and not all(st.hands):
        return _mercy_ids(st, seat)
    return _legal_ids(st, seat)


def _mercy_ids(st: State, seat: int) -> list[int]:
    """docs/rules.md §14, NM-9: a seat knocked out by the mercy rule (its hand empty while the
    hand goes on) takes no action, and no 7 names it."""
    if 0 <= seat < st.n and not st.hands[seat]:
        return []
    hands = st.hands
    return [
        a
        for a in _legal_ids(st, seat)
        if not (ACTION_KIND[a] == KIND_PENALIZE and not hands[ACTION_FIELDS[a][2]])  # no penalty
        and not (ACTION_KIND[a] == KIND_PLAY and NAMES_SEAT[ACTION_FIELDS[a][1]] and ACTION_FIELDS[a][2] >= 0
                and not hands[ACTION_FIELDS[a][2]])
    ]  # fmt: skip


def _legal_ids(st: State, seat: int) -> list[int]:
    if seat == st.current:  # -1 once the hand is over
        phase = st.phase
        tb = st.tables
        hand = st.hands[seat]
        if phase == PHASE_TURN:
            if st.series >= 0:  # docs/rules.md §11.5 multi_play: the series goes on, nothing else
                return _series_ids(st, seat, tb.series_next[st.series].intersection(hand))
            if tb.lenient and len(hand) > 1:
                cards: set[int] | frozenset[int] = set(hand)
            else:
                cards = tb.matching[st.color][st.discard[-1]].intersection(hand)
            ids = tb.ways[len(hand)][seat]
            out = [DRAW_ID]
            for t in cards:
                out += ids[t]
            if tb.multi_play:  # a wrong card (lenient_plays) begins no series
                out += _more_ids(st, seat, tb.matching[st.color][st.discard[-1]].intersection(hand))
            if tb.forced_play and len(out) > 1:  # RULES §11.5: who can play must
                out = _forced(st, seat, out)
        elif phase == PHASE_AFTER_DRAW:
            out = list(tb.ways[len(hand)][seat][st.drawn])
            if tb.multi_play:
                out += _more_ids(st, seat, (st.drawn,))
            if not (tb.must_play_drawn or (tb.forced_play and out)):
                out.append(PASS_ID)
        elif phase == PHASE_CHOOSE_COLOR:
            out = list(DARK_COLOR_IDS if st.side else COLOR_IDS)  # UNO Flip's dark side: its colours
        else:  # respond
            out = [ACCEPT_ID]
            # A Wild Draw Four is challenged while it is the top card: not once deflected (H-5),
            # never with no_bluffing (docs/rules.md §11.5).
            if st.pend_card in CHALLENGED and st.discard[-1] == st.pend_card and not tb.no_bluffing:
                out.append(CHALLENGE_ID)
            if INVISIBILITY in hand and tb.response_windows and (tb.finishing[INVISIBILITY] or len(hand) > 1):
                out += INVISIBILITY_IDS
                if len(hand) == 2:
                    out += INVISIBILITY_UNO_IDS
            if tb.stacking:  # RULES §11: a draw card answers the draw card played on this seat
                ids = tb.ways[len(hand)][seat]
                for t in tb.answers[st.pend_card].intersection(hand):
                    out += ids[t]
                if tb.deflect and st.pend_draw:  # RULES §11.5: a Reverse or a Skip of the colour in play
                    for t in tb.deflectors[st.color].intersection(hand):
                        out += ids[t]
    elif seat == TABLE_SEAT:
        return list(PENALIZE_IDS[: st.n]) if st.phase < PHASE_HAND_OVER else []
    elif st.tables.jump_in and st.phase == PHASE_TURN and st.series < 0:  # H-29: none in a series
        out = _jump_in_ids(st, seat)
    else:
        out = []
    if st.exposed or st.wrong_seat >= 0:  # both closed once the hand is over
        _window_ids(st, seat, out)
    return out


def _forced(st: State, seat: int, out: list[int]) -> list[int]:
    """RULES §11.5 forced_play: ``out`` without the draw if one of its plays matches the top card
    (with ``lenient_plays`` a wrong card does not count: only a card that truly plays forces)."""
    tb = st.tables
    if not tb.lenient:
        return out[1:]
    hand = st.hands[seat]
    ids = tb.ways[len(hand)][seat]
    if any(ids[t] for t in tb.matching[st.color][st.discard[-1]].intersection(hand)):
        return out[1:]
    return out


def _jump_in_ids(st: State, seat: int) -> list[int]:
    """RULES §11 jump_in: ``seat`` (not the current one) may play the card identical to the top
    card, never a wild card, while a ``turn`` phase waits."""
    top = st.discard[-1]
    hand = st.hands[seat]
    tb = st.tables
    if top in hand and not (tb.wild[top] or IS_WILD[top]):  # All Wild's cards too
        out = list(tb.ways[len(hand)][seat][top])
        if tb.multi_play:  # H-29: a jump-in may begin a series
            out += _more_ids(st, seat, (top,))
        return out
    return []


def _more_ids(st: State, seat: int, cards: Iterable[int]) -> list[int]:
    """docs/rules.md §11.5 multi_play: the ``play CARD more`` ids of ``seat`` for those of
    ``cards`` (truly playable now) after which it still holds a card that may follow them."""
    tb = st.tables
    hand = st.hands[seat]
    more = tb.more_ways[len(hand)]
    out: list[int] = []
    for t in cards:
        nxt = tb.series_next[t]
        if nxt and more[t] and (hand.count(t) > 1 or any(x != t and x in hand for x in nxt)):
            out += more[t]
    return out


def _series_ids(st: State, seat: int, cards: Iterable[int]) -> list[int]:
    """docs/rules.md §11.5 multi_play: in a series, the plays of ``cards`` (those that may follow
    the series' card), each with ``more`` too if another would still follow; and the windows."""
    ids = st.tables.ways[len(st.hands[seat])][seat]
    out: list[int] = []
    for t in cards:
        out += ids[t]
    out += _more_ids(st, seat, cards)
    if st.exposed or st.wrong_seat >= 0:
        _window_ids(st, seat, out)
    return out


def pending_draw(st: State) -> int:
    """The cards the seat in ``respond`` would draw on ``accept`` (a stack's total with
    ``stacking``); 0 in every other phase (docs/notation.md's ``pending_draw``)."""
    return st.pend_draw if st.phase == PHASE_RESPOND else 0


def _window_ids(st: State, seat: int, out: list[int]) -> None:
    exposed = st.exposed
    if exposed:
        late = st.tables.uno_call is False  # RULES §11.5: no late call with strict UNO
        for x in range(st.n):
            if exposed >> x & 1:
                if x != seat:
                    out.append(CATCH_IDS[x])
                elif late:
                    out.append(UNO_ID)
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


def _check_house(st: State, s: int, kind: int, card: int, text: str) -> None:
    """The error of docs/rules.md §11.5-§11.5's refusals, if one applies.

    :raises IllegalActionError: ``not_allowed_now`` naming the house rule.
    """
    tb = st.tables
    if s < 0 or s >= st.n:
        return
    hand = st.hands[s]
    if kind == KIND_DRAW and tb.forced_play and s == st.current and st.phase == PHASE_TURN:
        raise IllegalActionError("not_allowed_now", f"{text!r}: a seat that can play must play (forced_play)")
    if kind == KIND_PASS and tb.forced_play and s == st.current and st.phase == PHASE_AFTER_DRAW:
        raise IllegalActionError(
            "not_allowed_now", f"{text!r}: the card drawn plays and must be played (forced_play)"
        )
    last = (kind == KIND_PLAY and card in hand and not tb.finishing[card]) or (
        kind == KIND_INVISIBILITY and INVISIBILITY in hand
    )
    if last and len(hand) == 1 and tb.no_action_finish:
        raise IllegalActionError(
            "not_allowed_now", f"{text!r}: an action or wild card cannot be the last card (no_action_finish)"
        )
    if kind == KIND_CHALLENGE and tb.no_bluffing and st.phase == PHASE_RESPOND:
        raise IllegalActionError(
            "not_allowed_now", f"{text!r}: a Wild Draw Four is never challenged (no_bluffing)"
        )
    if kind == KIND_PLAY and ACTION_MORE[ACTION_ID.get(text, 0)]:
        if not tb.multi_play:
            raise IllegalActionError("not_allowed_now", f"{text!r}: 'more' needs the house rule multi_play")
        raise IllegalActionError(
            "not_allowed_now", f"{text!r}: no card of seat {s}'s hand would follow it (multi_play)"
        )
    if kind == KIND_UNO and tb.uno_call == "strict" and st.exposed >> s & 1:
        raise IllegalActionError("not_allowed_now", f"{text!r}: no late UNO call (uno_call=strict)")


def _check_series(st: State, s: int, kind: int, card: int, text: str) -> None:
    """The error of an action refused in a series of docs/rules.md §11.5 multi_play.

    :raises IllegalActionError: ``not_in_hand``, ``not_playable`` (a card that does not follow
        the series' card) or ``not_allowed_now`` (anything but a play, or ``more`` with nothing
        left to follow).
    """
    prev = CARD_CODE[st.series]
    if kind != KIND_PLAY:
        raise IllegalActionError(
            "not_allowed_now", f"{text!r}: after 'play {prev} more' a card of its number follows (multi_play)"
        )
    if card not in st.hands[s]:
        raise IllegalActionError("not_in_hand", f"{CARD_CODE[card]} is not in seat {s}'s hand")
    if card not in st.tables.series_next[st.series]:
        how = "identical to" if st.tables.multi_play == "identical" else "of the number of"
        raise IllegalActionError(
            "not_playable", f"{CARD_CODE[card]} is not {how} {prev}: it cannot follow it (multi_play)"
        )


def check(st: State, seat: int | str, action: str | int) -> int:
    """The id of ``action`` if ``seat`` may take it now.

    :raises IllegalActionError: with the first error code of docs/notation.md that applies.
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
    if s == st.current and st.phase == PHASE_TURN and st.series >= 0:
        _check_series(st, s, kind, card, text)
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
    if kind == KIND_PLAY and s == st.current and st.phase == PHASE_RESPOND and tb.stacking and st.pend_draw:
        # RULES §11 stacking: the seat a draw fell on may play, an answer only, even when the
        # rules (stack_cards) or its hand leave it none (docs/rules.md H-41, H-56).
        if card not in st.hands[s]:
            raise IllegalActionError("not_in_hand", f"{CARD_CODE[card]} is not in seat {s}'s hand")
        deflects = tb.deflect and card in tb.deflectors[st.color]  # H-42: refused, if so, for another reason
        if card not in tb.answers[st.pend_card] and not deflects:
            raise IllegalActionError(
                "not_playable", f"{CARD_CODE[card]} does not answer the {CARD_CODE[st.pend_card]} (stacking)"
            )
    if kind == KIND_PLAY and s >= 0 and card in (AW_TARGET, AW_SWAP) and card in st.hands[s]:
        if arg < 0 and len(st.hands[s]) > 1:  # AW-7: only a last Forced Swap names no seat
            message = (
                f"{text!r}: a {CARD_CODE[card]} names a seat ('play {CARD_CODE[card]} {(s + 1) % st.n}')"
            )
            raise IllegalActionError("not_allowed_now", message)
        if arg >= 0 and card == AW_SWAP and len(st.hands[s]) == 1:
            message = f"{text!r}: a last Wild Forced Swap swaps nothing ('play {CARD_CODE[card]}')"
            raise IllegalActionError("not_allowed_now", message)
        if arg == s:
            raise IllegalActionError("not_allowed_now", f"{text!r}: it names another seat, not its player")
    seven = not IS_WILD[card] and CARD_VALUE[card] == SEVEN
    if kind == KIND_PLAY and s >= 0 and tb.seven_zero and seven:
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
    _check_house(st, s, kind, card, text)
    raise IllegalActionError("not_allowed_now", f"{text!r} is not allowed now ({who}, phase {st.phase_name})")
