"""Making the state of a hand (RULES §2): a shuffled deal (:func:`new_hand`), a deal of a given
deck (:func:`deal`), the dealer's choice, the first card, and an explicit position
(:func:`from_position`, a scenario's ``position``).

Part of the rules core (:mod:`unotable.engine` re-exports every name).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from unotable import sides
from unotable.cards import AW_SWAP, CARD_CODE, CARD_COLOR, CARD_VALUE, DARK_FACE, IS_WILD, NO_COLOR
from unotable.effects import _can_answer
from unotable.errors import ConfigError, PositionError
from unotable.events import Event
from unotable.invariants import InvariantError, check_invariants
from unotable.piles import _draw_cards
from unotable.rules import HAND_SIZE, Rules, birthday_day
from unotable.scoring import _game_winners
from unotable.shuffle import _shuffle
from unotable.state import (
    PHASE_AFTER_DRAW,
    PHASE_CHOOSE_COLOR,
    PHASE_GAME_OVER,
    PHASE_HAND_OVER,
    PHASE_RESPOND,
    PHASE_TURN,
    Phase,
    State,
    seed_to_rng,
)
from unotable.tables import (
    E_BLANK,
    E_DRAW,
    E_DRAW_COLOR,
    E_FLIP,
    E_HOWLER,
    E_INVIS,
    E_MATER,
    E_NUMBER,
    E_REVERSE,
    E_SHUFFLE,
    E_SKIP,
    E_SKIP2,
    E_TARGET,
    E_WD4,
    E_WILD,
    tables_for,
)

_JULY_31: Final = 211


# --------------------------------------------------------------------------------------------
# Making a state.


def _empty_state(rules: Rules, seed: int, scores: Sequence[int] | None) -> State:
    st = State.__new__(State)
    st.rules = rules
    st.tables = tables_for(rules)
    n = st.n = rules.players
    st.hands = [[] for _ in range(n)]
    st.draw = []
    st.discard = []
    st.color = NO_COLOR
    st.current = 0
    st.direction = 1
    st.dealer = n - 1
    st.phase = PHASE_TURN
    st.drawn = -1
    st.drew_facing = [-1] * n
    st.after_color = -1
    st.pend_card = -1
    st.pend_from = -1
    st.pend_guilty = False
    st.pend_color = NO_COLOR
    st.pend_draw = 0
    st.series = -1
    st.exposed = 0
    st.wrong_seat = -1
    st.wrong_snapshot = None
    st.known = {}
    slots = rules.score_slots
    if scores is None:
        st.scores = [0] * slots
    else:
        if len(scores) != slots:
            whose = "team (2)" if rules.teams else f"player ({n})"
            raise ConfigError(f"scores must have one entry per {whose}, not {len(scores)}")
        st.scores = list(scores)
    st.winner = -1
    st.hand_points = None
    st.game_winners = []
    st.rng = seed_to_rng(seed)
    st.side = 0
    st.backs = [[] for _ in range(n + 2)] if rules.edition.flip else None
    return st


def new_hand(
    rules: Rules,
    seed: int,
    *,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
    record: bool = True,
) -> tuple[State, list[Event]]:
    """A hand dealt from a shuffled deck (RULES §2).

    :param seed: seeds the state's generator, the only source of randomness.
    :param dealer: names the dealer directly; otherwise the edition's method chooses one.
    :param scores: the game scores carried into this hand.
    :param record: return the events (the dealer's choice, the deal, the first card); with
        ``False`` the list is empty, which simulations prefer.
    :raises ConfigError: if ``dealer`` or ``scores`` do not fit the table.
    """
    st = _empty_state(rules, seed, scores)
    events: list[Event] = []
    if dealer is None:
        dealer = _choose_dealer(st, events)
    elif not 0 <= dealer < st.n:
        raise ConfigError(f"dealer must be a seat from 0 to {st.n - 1}, not {dealer}")
    if rules.edition.flip:  # docs/rules.md §15, FL-1: the faces paired anew, then shuffled
        deck = sides.pair_faces(st, list(st.tables.deck), rules.edition.dark_deck())
    else:
        deck = list(st.tables.deck)
        _shuffle(st, deck, st.tables.deck_bytes)
    _deal(st, deck, dealer, events if record else None)
    return st, events if record else []


def deal(
    rules: Rules,
    deck: Sequence[int],
    dealer: int,
    *,
    seed: int = 0,
    scores: Sequence[int] | None = None,
    backs: Sequence[int] | None = None,
) -> tuple[State, list[Event]]:
    """A hand dealt from ``deck`` as given, top card first (a scenario's ``start``); UNO Flip's
    ``backs`` are the dark faces of its light faces, card for card (docs/rules.md §15).

    :raises ConfigError: if ``deck`` is not the whole deck of ``rules`` or the dealer is no seat.
    """
    if rules.edition.flip and (backs is None or sorted(backs) != sorted(rules.edition.dark_deck())):
        raise ConfigError("a deal of the flip deck needs the dark face of every card (FACE/OTHER)")
    if backs is not None and not rules.edition.flip:
        raise ConfigError(f"the {rules.edition.name} deck has cards of one face: no other faces")
    expected = sorted(rules.deck())
    if sorted(deck) != expected:
        raise ConfigError(
            f"the deck must be the whole {rules.edition.name} deck of {len(expected)} cards "
            f"(got {len(deck)} cards{_deck_difference(list(deck), expected)})"
        )
    st = _empty_state(rules, seed, scores)
    if not 0 <= dealer < st.n:
        raise ConfigError(f"dealer must be a seat from 0 to {st.n - 1}, not {dealer}")
    events: list[Event] = []
    if st.backs is not None and backs is not None:
        st.backs[st.n] = list(backs)
    _deal(st, list(deck), dealer, events)
    return st, events


def _deck_difference(deck: list[int], expected: list[int]) -> str:
    extra = list(deck)
    missing: list[int] = []
    for c in expected:
        if c in extra:
            extra.remove(c)
        else:
            missing.append(c)
    parts = []
    if missing:
        parts.append("missing " + " ".join(CARD_CODE[c] for c in missing[:8]))
    if extra:
        parts.append("extra " + " ".join(CARD_CODE[c] for c in extra[:8]))
    return ": " + ", ".join(parts) if parts else ""


def dealer_candidates(rules: Rules) -> list[int]:
    """The seats among which the dealer is drawn (RULES §2.1): all, or in Harry Potter those whose
    birthday is closest to 31 July (a lone one deals without a draw)."""
    if rules.edition.dealer_method == "birthday" and rules.birthdays is not None:
        distances: dict[int, int] = {}
        for seat, text in enumerate(rules.birthdays):
            day = birthday_day(text) if text is not None else None
            if day is not None:
                d = abs(day - _JULY_31)
                distances[seat] = min(d, 365 - d)
        if distances:
            best = min(distances.values())
            return [s for s, d in distances.items() if d == best]
    return list(range(rules.players))


def _choose_dealer(st: State, events: list[Event]) -> int:
    rules = st.rules
    candidates = dealer_candidates(rules)
    if len(candidates) == 1:  # at least two players: only a birthday singles one out
        events.append(Event("dealer", seat=candidates[0], reason="birthday"))
        return candidates[0]
    if rules.edition.dealer_method == "random":  # AW-3: a deck with no number decides nothing
        seats = list(candidates)
        _shuffle(st, seats)
        events.append(Event("dealer", seat=seats[0], reason="random"))
        return seats[0]
    # Draw: highest number deals, symbols count zero, tied highest draw again.
    deck = rules.deck()
    _shuffle(st, deck)
    while True:
        drawn: dict[int, int] = {}
        for seat in candidates:
            if not deck:
                deck = rules.deck()
                _shuffle(st, deck)
            card = deck.pop()
            drawn[seat] = card
            events.append(Event("dealer_draw", seat=seat, cards=(card,)))
        value = {s: (CARD_VALUE[c] if CARD_VALUE[c] <= 9 and not IS_WILD[c] else 0) for s, c in drawn.items()}
        best = max(value.values())
        candidates = [s for s in candidates if value[s] == best]
        if len(candidates) == 1:
            events.append(Event("dealer", seat=candidates[0], reason="draw"))
            return candidates[0]


def _deal(st: State, deck: list[int], dealer: int, events: list[Event] | None) -> None:
    """Seven cards each, one at a time from the top, starting at the dealer's left (RULES §2.2)."""
    n = st.n
    st.dealer = dealer
    dealt = HAND_SIZE * n
    for j in range(n):  # the j-th card of each round goes to the j-th seat from the dealer's left
        st.hands[(dealer + 1 + j) % n] = deck[j:dealt:n]
    st.draw = deck[dealt:][::-1]
    if st.backs is not None:  # UNO Flip: the other faces, dealt with their cards
        sides.deal_backs(st, st.backs[n], dealt, dealer)
    if events is not None:
        events.append(Event("deal", seat=dealer, count=HAND_SIZE))
        for seat in range(n):
            events.append(Event("draw", seat=seat, cards=tuple(st.hands[seat]), count=HAND_SIZE,
                                visible_to=frozenset((seat,)), reason="deal"))  # fmt: skip
    _turn_first_card(st, events)


def _turn_first_card(st: State, ev: list[Event] | None) -> None:
    """RULES §2.4: turn the first card and apply its first-card rule."""
    tb = st.tables
    n = st.n
    pile = st.draw
    first = (st.dealer + 1) % n
    under: list[int] = []
    backs = st.backs[n] if st.backs is not None else None
    back = -1
    for _ in range(4 * len(pile) + 8):
        if not pile:
            raise ConfigError("the draw pile ran out while turning the first card")
        t = pile.pop()
        if backs is not None:
            back = backs.pop()
        fx = tb.base_effect[t]  # a first card is turned, not played: no house rule applies
        if st.rules.edition.no_mercy and fx != E_NUMBER:  # docs/rules.md §14, NM-3: turn another
            under.append(t)
            if ev is not None:
                ev.append(Event("first_card", cards=(t,), reason="covered"))
            continue
        if fx in (E_WD4, E_HOWLER, E_INVIS, E_BLANK, E_TARGET, E_DRAW_COLOR) or t == AW_SWAP:  # AW-4, FL-5
            # back into the middle, floor(k/2) cards above it.
            k = len(pile)
            pile.insert(k - k // 2, t)
            if backs is not None:
                backs.insert(k - k // 2, back)
            if ev is not None:
                ev.append(Event("returned", cards=(t,), count=k // 2))
            continue
        break
    else:
        raise ConfigError("no card of the draw pile can start the discard pile")
    st.discard = [*under, t]
    if ev is not None:
        ev.append(Event("first_card", cards=(t,)))
    st.direction = 1
    if st.backs is not None:
        st.backs[n + 1] = [back]
        if fx == E_FLIP:  # FL-5: everything turns over; the dark face, not played, is matched
            sides.turn_over(st, first, ev)
            t = st.discard[-1]
            fx = E_WILD if tb.wild[t] else E_NUMBER
    if fx in (E_WILD, E_MATER, E_SHUFFLE) and tb.wild[t]:  # M-4: a Wild Shuffle Hands is a Wild
        st.color = NO_COLOR
        st.phase = PHASE_CHOOSE_COLOR
        st.current = first
        st.after_color = first
        return
    st.color = CARD_COLOR[t]
    if fx == E_SKIP:
        st.current = (first + 1) % n
        if ev is not None:
            ev.append(Event("skip", seat=first))
    elif fx == E_REVERSE:
        st.direction = -1
        st.current = st.dealer
        if ev is not None:
            ev.append(Event("reverse", seat=st.dealer))
    elif fx == E_DRAW:
        _draw_cards(st, first, tb.draws[t], ev, "first card")
        st.current = (first + 1) % n
        if ev is not None:
            ev.append(Event("skip", seat=first))
    elif fx == E_SKIP2:  # AW-4, AW-5: the first two players lose their turns (one, with two players)
        skipped = min(2, n - 1)
        st.current = (first + skipped) % n
        if ev is not None:
            for i in range(skipped):
                ev.append(Event("skip", seat=(first + i) % n))
    else:
        st.current = first
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def from_position(
    rules: Rules,
    *,
    hands: Sequence[Sequence[int]],
    draw_pile: Sequence[int],
    discard: Sequence[int],
    color: int,
    current: int,
    direction: int = 1,
    dealer: int | None = None,
    phase: Phase = Phase.TURN,
    scores: Sequence[int] | None = None,
    seed: int = 0,
    backs: Sequence[Sequence[int]] | None = None,
) -> State:
    """A state from an explicit position (a scenario's ``position``).

    ``draw_pile`` is top card first, ``discard`` bottom first (top card last). Phases other than
    ``turn`` are set up as a player would read the table: in ``after_draw`` the drawn card is the
    last card of the current hand; in ``choose_color`` a lone Wild or Mater is a first card
    (the chooser then plays), otherwise the next seat plays after the call; in ``respond`` the
    top card was played on ``current`` by the seat before it (for a Wild Draw Four, guilty if
    that seat holds the colour of the card below it).

    UNO Flip (docs/rules.md §15) needs ``backs``: the other face of every card, as ``hands``,
    ``draw_pile`` and ``discard`` list them, one list each (``n + 2`` lists); the side in play
    is the one the faces show.

    :raises ConfigError: if the position does not fit the rules.
    """
    n = rules.players
    st = _empty_state(rules, seed, scores)
    if len(hands) != n:
        raise ConfigError(f"hands must list {n} seats, not {len(hands)}")
    if not discard:
        raise ConfigError("the discard pile must hold at least one card")
    if direction not in (1, -1):
        raise ConfigError(f"direction must be 1 or -1, not {direction}")
    deck_cards = st.tables.deck_set
    everything = Counter(c for h in hands for c in h)
    everything.update(draw_pile)
    everything.update(discard)
    if rules.edition.flip:
        everything = _flip_position(st, [*hands, draw_pile, discard], backs)
    elif backs is not None:
        raise ConfigError(f"the {rules.edition.name} deck has cards of one face: no other faces")
    for card in everything:
        if card not in deck_cards:
            raise ConfigError(f"{CARD_CODE[card]} is not a card of this {rules.edition.name} deck")
    over_deck = everything - Counter(st.tables.deck)
    if over_deck:
        card, extra = next(iter(over_deck.items()))
        held = everything[card]
        raise PositionError(
            f"{held} copies of {CARD_CODE[card]}, but the {rules.edition.name} deck holds {held - extra}"
        )
    st.hands = [list(h) for h in hands]
    st.draw = list(draw_pile)[::-1]
    st.discard = list(discard)
    if st.backs is not None:
        st.backs[n] = st.backs[n][::-1]
    st.direction = direction
    st.dealer = (n - 1) if dealer is None else dealer
    if not 0 <= st.dealer < n:
        raise ConfigError(f"dealer must be a seat from 0 to {n - 1}, not {st.dealer}")
    st.color = color
    st.phase = int(phase)
    over = st.phase in (PHASE_HAND_OVER, PHASE_GAME_OVER)
    if over:
        _finished_position(st)
        return st
    if not 0 <= current < n:
        raise ConfigError(f"current must be a seat from 0 to {n - 1}, not {current}")
    st.current = current
    top = st.discard[-1]
    hand = st.hands[current]
    colorless = rules.edition.only_specials  # AW-1: All Wild has no colour to match
    if st.phase != PHASE_CHOOSE_COLOR and color == NO_COLOR and not colorless:
        raise ConfigError(f"a colour to match is needed in phase {st.phase_name}")
    if st.phase == PHASE_AFTER_DRAW:
        if not hand or not st.tables.is_playable(color, top, hand[-1]):
            raise ConfigError(
                "in after_draw, the last card of the current hand must be a playable drawn card"
            )
        st.drawn = hand[-1]
    elif st.phase == PHASE_CHOOSE_COLOR:
        first = len(st.discard) == 1 and st.tables.base_effect[top] in (E_WILD, E_MATER, E_SHUFFLE)
        first = first and st.tables.wild[top]
        st.after_color = current if first else (current + direction) % n
    elif st.phase == PHASE_RESPOND:
        fx = st.tables.base_effect[top]
        if not _opens_respond(st, fx, top, hand):
            raise PositionError(
                f"no respond phase after {CARD_CODE[top]} in {rules.edition.name} with {n} players:"
                " its effect applies at once"
            )
        st.pend_card = top
        st.pend_draw = st.tables.draws[top] if fx in (E_WD4, E_DRAW) else 0
        st.pend_from = (current - direction) % n
        if len(st.discard) > 1:
            st.pend_color = CARD_COLOR[st.discard[-2]]
        if fx in (E_WD4, E_DRAW_COLOR) and len(st.discard) > 1:
            below = CARD_COLOR[st.discard[-2]]
            st.pend_guilty = below != NO_COLOR and st.tables.holds_color(st.hands[st.pend_from], below)
    try:
        check_invariants(st)
    except InvariantError as exc:
        raise PositionError(str(exc)) from None
    return st


def _opens_respond(st: State, fx: int, top: int, hand: Sequence[int]) -> bool:
    """Whether ``top`` (of base effect ``fx``) can have opened a ``respond`` phase for the seat
    holding ``hand`` (docs/notation.md): a Wild Draw Four in every edition; in Harry Potter, every
    action card played on a seat (a Reverse only with two players, where it acts as a Skip);
    with ``stacking``, a draw card whose seat holds an answer to it (RULES §11), or with
    ``deflect`` a card that deflects it (§11.5, H-4)."""
    tb = st.tables
    if fx in (E_WD4, E_DRAW_COLOR):
        return True
    if fx == E_DRAW and tb.stacking and _can_answer(st, st.current, top):
        return True
    if not tb.response_windows:
        return False
    return fx in (E_SKIP, E_DRAW, E_HOWLER) or (fx == E_REVERSE and st.n == 2)


def _finished_position(st: State) -> None:
    """Set up a position whose hand is over: its winner is the one seat with no cards; in
    ``game_over``, the game's winners follow from the scores as :func:`end_hand` judges them."""
    st.current = -1
    empty = [s for s in range(st.n) if not st.hands[s]]
    if len(empty) != 1:
        raise PositionError(
            f"a hand over needs exactly one seat with no cards (its winner), not {len(empty)}"
        )
    st.winner = empty[0]
    if st.phase == PHASE_GAME_OVER:
        st.game_winners = _game_winners(st)
        if not st.game_winners:
            raise PositionError(f"game_over, but no score has reached the target {st.rules.target}")


def _flip_position(
    st: State, places: list[Sequence[int]], backs: Sequence[Sequence[int]] | None
) -> Counter[int]:
    """UNO Flip's position (docs/rules.md §15): checks that every card shows one side and has a
    face of the other side behind it, sets ``st.side`` and ``st.backs``; the light faces, whose
    copies :func:`from_position` counts against the deck (so are the dark ones here).

    :raises ConfigError: if the other faces are missing or do not fit.
    """
    n = st.n
    if backs is None or len(backs) != n + 2:
        raise ConfigError(
            "a position of the flip deck needs the other face of every card (FACE/OTHER, docs/notation.md)"
        )
    faces = [t for cards in places for t in cards]
    st.side = 1 if faces and DARK_FACE[faces[0]] else 0
    for cards, other in zip(places, backs, strict=True):
        if len(cards) != len(other):
            raise ConfigError("every card of the flip deck needs its other face")
        for t, b in zip(cards, other, strict=True):
            if DARK_FACE[t] != bool(st.side) or DARK_FACE[b] == bool(st.side):
                side = "dark" if st.side else "light"
                raise ConfigError(
                    f"{CARD_CODE[t]}/{CARD_CODE[b]}: every card must show the {side} side, "
                    "with a face of the other side behind it"
                )
    st.backs = [list(b) for b in backs]
    dark = Counter(b if st.side == 0 else t for cards, other in zip(places, backs, strict=True)
                   for t, b in zip(cards, other, strict=True))  # fmt: skip
    over = dark - Counter(st.rules.edition.dark_deck())
    if over:
        card, extra = next(iter(over.items()))
        raise PositionError(
            f"{dark[card]} copies of {CARD_CODE[card]}, but the flip deck holds {dark[card] - extra}"
        )
    return Counter(t if st.side == 0 else b for cards, other in zip(places, backs, strict=True)
                   for t, b in zip(cards, other, strict=True))  # fmt: skip
