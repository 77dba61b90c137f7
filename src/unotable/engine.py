"""The rules of a hand (RULES.md §2-9): set-up, legal actions, and their effects.

The API is functional: :func:`new_hand` / :func:`deal` / :func:`from_position` make a state,
:func:`legal_actions` lists what a seat may do, :func:`apply` returns a new state and the
events. :func:`legal_ids` and :func:`step` are the same rules on integer action ids, mutating a
state the caller owns: the hot path of simulations and search.
"""

from __future__ import annotations

import struct
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from hashlib import shake_128
from typing import Final

from unotable.cards import (
    BLANK,
    CARD_CODE,
    CARD_COLOR,
    CARD_VALUE,
    COLORS,
    DRAW_THREE,
    DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    IS_WILD,
    MATER,
    NO_COLOR,
    NUM_CARD_TYPES,
    POINTS,
    REVERSE,
    SEVEN,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from unotable.errors import ConfigError, IllegalActionError, NotationError, PositionError
from unotable.events import Event
from unotable.invariants import InvariantError, check_invariants
from unotable.notation import (
    ACCEPT_ID,
    ACTION_ARG,
    ACTION_CARD,
    ACTION_FIELDS,
    ACTION_KIND,
    ACTION_TEXT,
    ACTION_UNO,
    CATCH_IDS,
    CHALLENGE_ID,
    COLOR_IDS,
    DRAW_ID,
    INVISIBILITY_IDS,
    INVISIBILITY_UNO_IDS,
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
    PASS_ID,
    PENALIZE_IDS,
    TABLE,
    TABLE_SEAT,
    UNO_ID,
    WRONG_IDS,
    parse_action,
    play_ids,
)
from unotable.rules import HAND_SIZE, BlankEffect, Rules, birthday_day
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

# Card effects, per card type.
E_NUMBER: Final = 0
E_SKIP: Final = 1
E_REVERSE: Final = 2
E_DRAW: Final = 3
E_WILD: Final = 4
E_WD4: Final = 5
E_HOWLER: Final = 6
E_INVIS: Final = 7
E_MATER: Final = 8
E_BLANK: Final = 9
# House rules (RULES §11) give some cards effects of their own, last in the chain of ``step`` so
# that plain official play never tests for them.
E_SEVEN: Final = 10
"""A 7 with ``seven_zero``: its player swaps hands with the seat it names."""
E_ZERO: Final = 11
"""A 0 with ``seven_zero``: every hand passes to the next seat."""
E_STACK: Final = 12
"""A Draw Two with ``stacking`` (editions without response windows): it opens ``respond`` only
for a seat holding an answer."""


UNO_PENALTY: Final = 2
"""Cards drawn by a player caught not calling UNO (RULES §7)."""
WRONG_CARD_PENALTY: Final = 2
"""Cards drawn by a player whose wrong card is pointed out (RULES §8)."""
CHALLENGE_PENALTY: Final = 2
"""Cards drawn, beyond the four, by the loser of a Wild Draw Four challenge (RULES §4)."""
_JULY_31: Final = 211


def _base_effect(t: int) -> int:
    if t == WILD:
        return E_WILD
    if t == WILD_DRAW_FOUR:
        return E_WD4
    if t == HOWLER:
        return E_HOWLER
    if t == INVISIBILITY:
        return E_INVIS
    if t == MATER:
        return E_MATER
    value = CARD_VALUE[t]
    if value == SKIP:
        return E_SKIP
    if value == REVERSE:
        return E_REVERSE
    if value in (DRAW_TWO, DRAW_THREE):
        return E_DRAW
    if value == BLANK:
        return E_BLANK
    return E_NUMBER


class Tables:
    """Everything about a :class:`Rules` that the hot path looks up rather than computes."""

    __slots__ = (
        "answers", "base_effect", "blank", "deck", "deck_bytes", "deck_set", "draw_amount", "draw_to_match",
        "effect", "jump_in", "lenient", "matching", "must_play_drawn", "n", "of_color", "play", "play_last",
        "play_two", "playable", "playable_set", "points", "response_windows", "rules", "seven_zero",
        "stacking", "suggestion_penalty", "symbol", "ways", "wild",
    )  # fmt: skip

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        """The rules the tables were built for, with :func:`table_key`'s options at their defaults."""
        self.n = rules.players
        edition = rules.edition
        self.draw_amount = edition.draw_amount
        self.response_windows = edition.response_windows
        self.suggestion_penalty = edition.suggestion_penalty
        self.must_play_drawn = rules.must_play_drawn
        self.lenient = rules.lenient_plays
        self.stacking = rules.stacking
        self.seven_zero = rules.seven_zero
        self.jump_in = rules.jump_in
        self.draw_to_match = rules.draw_to_match
        # base_effect: what the card does as printed (a first card, a position); effect: what it
        # does when played at this table, house rules included.
        self.base_effect: tuple[int, ...] = tuple(_base_effect(t) for t in range(NUM_CARD_TYPES))
        effect = list(self.base_effect)
        for t in range(NUM_CARD_TYPES):
            if self.seven_zero and not IS_WILD[t] and CARD_VALUE[t] in (0, SEVEN):
                effect[t] = E_SEVEN if CARD_VALUE[t] == SEVEN else E_ZERO
            elif self.stacking and not self.response_windows and effect[t] == E_DRAW:
                effect[t] = E_STACK
        self.effect: tuple[int, ...] = tuple(effect)
        # answers[t]: with stacking, the card types that answer the draw card t (RULES §11).
        draws = [t for t in range(NUM_CARD_TYPES) if self.base_effect[t] in (E_DRAW, E_WD4)]
        kind = {t: WILD_DRAW_FOUR if t == WILD_DRAW_FOUR else CARD_VALUE[t] for t in draws}
        self.answers: tuple[frozenset[int], ...] = tuple(
            frozenset(a for a in draws if self.stacking == "any" or kind[a] == kind[t])
            if self.stacking and t in kind
            else frozenset()
            for t in range(NUM_CARD_TYPES)
        )
        self.blank: tuple[BlankEffect | None, ...] = tuple(
            rules.blank_effect(CARD_COLOR[t]) if CARD_VALUE[t] == BLANK else None
            for t in range(NUM_CARD_TYPES)
        )
        # A card names a colour when played: wild cards, and custom blanks with a wild effect.
        self.wild: tuple[bool, ...] = tuple(
            IS_WILD[t] or (self.blank[t] is not None and self.blank[t].wild)  # type: ignore[union-attr]
            for t in range(NUM_CARD_TYPES)
        )
        # Symbols match symbols: numbers and action values; custom blanks match the same effect.
        effects = sorted({b for b in self.blank if b is not None}, key=repr)
        symbol: list[int | None] = []
        for t in range(NUM_CARD_TYPES):
            b = self.blank[t]
            if self.wild[t]:
                symbol.append(None)
            elif b is not None:
                symbol.append(100 + effects.index(b))
            else:
                symbol.append(CARD_VALUE[t])
        self.symbol = tuple(symbol)
        # playable[(color + 1) * NUM_CARD_TYPES + top][card]
        self.playable: list[tuple[bool, ...]] = []
        for color in range(-1, 4):
            for top in range(NUM_CARD_TYPES):
                st = symbol[top]
                self.playable.append(
                    tuple(
                        self.wild[t] or CARD_COLOR[t] == color or (st is not None and symbol[t] == st)
                        for t in range(NUM_CARD_TYPES)
                    )
                )
        # The same as sets, to intersect with a hand in one C call.
        self.playable_set: list[frozenset[int]] = [
            frozenset(t for t in range(NUM_CARD_TYPES) if ok[t]) for ok in self.playable
        ]
        # matching[color][top]: the same sets by colour to match and top card, the colour -1 (none
        # called yet) last, so that the hot path looks them up with no arithmetic.
        self.matching: list[list[frozenset[int]]] = [
            self.playable_set[(c + 1) * NUM_CARD_TYPES : (c + 2) * NUM_CARD_TYPES] for c in (0, 1, 2, 3, -1)
        ]
        # of_color[c]: the card types of colour c that make a Wild Draw Four illegal (wild
        # blanks left out).
        self.of_color: tuple[frozenset[int], ...] = tuple(
            frozenset(t for t in range(NUM_CARD_TYPES) if CARD_COLOR[t] == c and not self.wild[t])
            for c in range(4)
        )
        n = self.n
        swap = self.seven_zero
        # play[seat][card]: the ids of every way ``seat`` may play ``card`` (a Howler names
        # another seat, and so does a 7 with seven_zero); play_two[seat][card] adds the
        # spellings with ``uno``; play_last[seat][card]: as the last card (a 7 swaps nothing).
        self.play: list[list[tuple[int, ...]]] = []
        self.play_two: list[list[tuple[int, ...]]] = []
        self.play_last: list[list[tuple[int, ...]]] = []
        for seat in range(n):
            plain = [
                play_ids(t, uno=False, wild=self.wild[t], seat=seat, players=n, swap=swap)
                for t in range(NUM_CARD_TYPES)
            ]
            called = [
                play_ids(t, uno=True, wild=self.wild[t], seat=seat, players=n, swap=swap)
                for t in range(NUM_CARD_TYPES)
            ]
            self.play.append(plain)
            self.play_two.append([p + c for p, c in zip(plain, called, strict=True)])
            wild = self.wild
            last = [play_ids(t, uno=False, wild=wild[t], seat=seat, players=n) for t in range(NUM_CARD_TYPES)]
            self.play_last.append(last if swap else plain)
        self.points: tuple[int, ...] = POINTS
        self.deck: tuple[int, ...] = tuple(rules.deck())
        # ways[len(hand)][seat][card]: the play ids of a seat holding that many cards (one
        # lookup on the hot path instead of a test of the hand's size).
        self.ways: list[list[list[tuple[int, ...]]]] = [self.play, self.play_last, self.play_two]
        self.ways += [self.play] * (len(self.deck) - 2)  # a hand holds fewer cards than the deck
        self.deck_set: frozenset[int] = frozenset(self.deck)
        self.deck_bytes: bytes = bytes(self.deck)
        """The deck as bytes, one card each: what a shuffle of the whole deck starts from."""

    def holds_color(self, hand: Sequence[int], color: int) -> bool:
        """Whether ``hand`` holds a card of ``color``, wild cards (a wild blank too) not counted:
        what makes a Wild Draw Four illegal (RULES §3)."""
        return not self.of_color[color].isdisjoint(hand)

    def is_playable(self, color: int, top: int, card: int) -> bool:
        """Whether ``card`` matches ``top`` with ``color`` to match (RULES §3)."""
        return self.playable[(color + 1) * NUM_CARD_TYPES + top][card]


TABLES_CACHED: Final = 64
"""Distinct tables kept at most (least recently used dropped first): a long-lived process, such
as a server with a room per table, meets new rules all the time, but few distinct tables."""
_TABLES: OrderedDict[Rules, Tables] = OrderedDict()
"""Tables by :func:`table_key`, most recently used last."""
_TABLES_BY_ID: dict[int, tuple[Rules, Tables]] = {}
"""The same by the identity of a ``Rules`` object (kept alive here, so its id stays its own):
hashing a ``Rules`` hashes every field, and every new hand looks its tables up."""


def table_key(rules: Rules) -> Rules:
    """What the lookup tables of ``rules`` depend on: the rules with the options that never
    change what is playable or drawn (target, mode, scoring, birthdays) at their defaults."""
    return replace(rules, target=500, mode="solo", scoring="standard", birthdays=None, seed=None)


def tables_for(rules: Rules) -> Tables:
    """The (cached) lookup tables of ``rules``."""
    known = _TABLES_BY_ID.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    key = table_key(rules)
    tb = _TABLES.get(key)
    if tb is None:
        tb = _TABLES[key] = Tables(key)
        if len(_TABLES) > TABLES_CACHED:
            _TABLES.popitem(last=False)
    else:
        _TABLES.move_to_end(key)
    if len(_TABLES_BY_ID) >= 1024:
        _TABLES_BY_ID.clear()
    _TABLES_BY_ID[id(rules)] = (rules, tb)
    return tb


# --------------------------------------------------------------------------------------------
# Randomness: a SplitMix64 state kept in the state seeds each shuffle.

_M64: Final = (1 << 64) - 1


def _next_random(st: State) -> int:
    """Advance the state's SplitMix64 generator; a 64-bit random number."""
    x = st.rng = (st.rng + 0x9E3779B97F4A7C15) & _M64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


# A shuffle sorts the cards on random keys, with every per-card step in C: each key is a
# little-endian double in [1, 2) whose lowest byte is the card itself, whose next 44 bits are
# random (SHAKE-128 of a 64-bit number from the state's generator) and whose top 12 bits are
# the sign and exponent of 1.0. Doubles sort natively; the lowest byte of each sorted key is the
# card. Two different cards tie on their random bits with probability 2**-44 (the lower card
# type then goes first): about 3e-10 per shuffle of a whole deck, far below anything a
# simulation can see.
_KEY_EXPONENT_LOW: Final = bytes(0xF0 | (b & 0x0F) for b in range(256))
"""Byte 6 of a key: the exponent's low nibble (0xF), four random bits below it."""
_KEY_EXPONENT_HIGH: Final = b"\x3f"
"""Byte 7 of a key: sign 0 and the exponent's high bits."""
_KEY_STRUCTS: dict[int, struct.Struct] = {}
assert NUM_CARD_TYPES <= 256, "a card must fit in a key's lowest byte"


def _shuffle(st: State, cards: list[int], as_bytes: bytes | None = None) -> None:
    """Shuffle ``cards`` in place, uniformly, from the state's generator (see the keys above);
    ``as_bytes``, if given, is ``bytes(cards)``."""
    n = len(cards)
    keys = bytearray(shake_128(_next_random(st).to_bytes(8, "little")).digest(8 * n))
    keys[::8] = bytes(cards) if as_bytes is None else as_bytes
    keys[6::8] = keys[6::8].translate(_KEY_EXPONENT_LOW)
    keys[7::8] = _KEY_EXPONENT_HIGH * n
    layout = _KEY_STRUCTS.get(n)
    if layout is None:
        layout = _KEY_STRUCTS[n] = struct.Struct(f"<{n}d")
    cards[:] = layout.pack(*sorted(layout.unpack(keys)))[::8]


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
) -> tuple[State, list[Event]]:
    """A hand dealt from ``deck`` as given, top card first (a scenario's ``start``).

    :raises ConfigError: if ``deck`` is not the whole deck of ``rules`` or the dealer is no seat.
    """
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
    for _ in range(4 * len(pile) + 8):
        if not pile:
            raise ConfigError("the draw pile ran out while turning the first card")
        t = pile.pop()
        fx = tb.base_effect[t]  # a first card is turned, not played: no house rule applies
        if fx in (E_WD4, E_HOWLER, E_INVIS, E_BLANK):
            # back into the middle, floor(k/2) cards above it.
            k = len(pile)
            pile.insert(k - k // 2, t)
            if ev is not None:
                ev.append(Event("returned", cards=(t,), count=k // 2))
            continue
        break
    else:
        raise ConfigError("no card of the draw pile can start the discard pile")
    st.discard = [t]
    if ev is not None:
        ev.append(Event("first_card", cards=(t,)))
    st.direction = 1
    if fx in (E_WILD, E_MATER):
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
        _draw_cards(st, first, tb.draw_amount, ev, "first card")
        st.current = (first + 1) % n
        if ev is not None:
            ev.append(Event("skip", seat=first))
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
) -> State:
    """A state from an explicit position (a scenario's ``position``).

    ``draw_pile`` is top card first, ``discard`` bottom first (top card last). Phases other than
    ``turn`` are set up as a player would read the table: in ``after_draw`` the drawn card is the
    last card of the current hand; in ``choose_color`` a lone Wild or Mater is a first card
    (the chooser then plays), otherwise the next seat plays after the call; in ``respond`` the
    top card was played on ``current`` by the seat before it (for a Wild Draw Four, guilty if
    that seat holds the colour of the card below it).

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
    if st.phase != PHASE_CHOOSE_COLOR and color == NO_COLOR:
        raise ConfigError(f"a colour to match is needed in phase {st.phase_name}")
    if st.phase == PHASE_AFTER_DRAW:
        if not hand or not st.tables.is_playable(color, top, hand[-1]):
            raise ConfigError(
                "in after_draw, the last card of the current hand must be a playable drawn card"
            )
        st.drawn = hand[-1]
    elif st.phase == PHASE_CHOOSE_COLOR:
        first = len(st.discard) == 1 and st.tables.base_effect[top] in (E_WILD, E_MATER)
        st.after_color = current if first else (current + direction) % n
    elif st.phase == PHASE_RESPOND:
        fx = st.tables.base_effect[top]
        if not _opens_respond(st, fx, top, hand):
            raise PositionError(
                f"no respond phase after {CARD_CODE[top]} in {rules.edition.name} with {n} players:"
                " its effect applies at once"
            )
        st.pend_card = top
        st.pend_draw = 4 if fx == E_WD4 else st.tables.draw_amount if fx == E_DRAW else 0
        st.pend_from = (current - direction) % n
        if len(st.discard) > 1:
            st.pend_color = CARD_COLOR[st.discard[-2]]
        if fx == E_WD4 and len(st.discard) > 1:
            below = CARD_COLOR[st.discard[-2]]
            st.pend_guilty = below != NO_COLOR and st.tables.holds_color(st.hands[st.pend_from], below)
    try:
        check_invariants(st)
    except InvariantError as exc:
        raise PositionError(str(exc)) from None
    return st


def _opens_respond(st: State, fx: int, top: int, hand: Sequence[int]) -> bool:
    """Whether ``top`` (of base effect ``fx``) can have opened a ``respond`` phase for the seat
    holding ``hand`` (NOTATION.md): a Wild Draw Four in every edition; in Harry Potter, every
    action card played on a seat (a Reverse only with two players, where it acts as a Skip);
    with ``stacking``, a draw card whose seat holds an answer to it (RULES §11)."""
    tb = st.tables
    if fx == E_WD4:
        return True
    if fx == E_DRAW and tb.stacking and not tb.answers[top].isdisjoint(hand):
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


def _game_winners(st: State) -> list[int]:
    """Who has won the game with the scores of ``st`` once its hand is over (by team in team
    modes): the first to the target; in ``challenge`` the last one standing (RULES §10); with
    ``scoring: lowest`` the lowest totals once one reaches the target (R-11)."""
    rules = st.rules
    target = rules.target
    scores = st.scores
    if rules.teams:
        team = st.winner % 2
        return [team] if scores[team] >= target and rules.mode in ("partners", "teams") else []
    if rules.mode == "challenge":
        standing = [s for s in range(st.n) if scores[s] < target]
        return (standing or [st.winner]) if len(standing) <= 1 else []
    if rules.scoring == "lowest":
        if max(scores) < target:
            return []
        low = min(scores)
        return [s for s in range(st.n) if scores[s] == low]
    return [st.winner] if scores[st.winner] >= target else []


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


def step(st: State, seat: int, aid: int, ev: list[Event] | None = None) -> None:
    """Apply legal action ``aid`` of ``seat`` to ``st`` in place; events go to ``ev`` if given.

    The action must be legal (see :func:`legal_ids`): nothing is checked here.
    """
    kind, t, arg, uno = ACTION_FIELDS[aid]
    if kind == KIND_PLAY:  # RULES §3-§6 (the hot path, inline)
        tb = st.tables
        hand = st.hands[seat]
        if tb.lenient:
            _lenient_play(st, seat, t)
        hand.remove(t)
        st.discard.append(t)
        if st.known and seat in st.known:
            _forget(st, seat, t)
        left = len(hand)
        # The turn begins: windows close; an UNO not called opens one (RULES §7).
        st.exposed = 1 << seat if left == 1 and not uno else 0
        if st.phase:  # after a draw
            st.phase = PHASE_TURN
            st.drawn = -1
        if ev is not None:
            howler = t == HOWLER
            ev.append(
                Event(
                    "play",
                    seat=seat,
                    cards=(t,),
                    target=arg if howler else None,
                    color=arg if arg >= 0 and not NAMES_SEAT[t] else None,  # a 7's seat: see "swap"
                    reason=("jump_in " if seat != st.current else "") + ("uno" if uno else ""),
                )
            )
        fx = tb.effect[t]
        if fx == E_NUMBER and left:  # the commonest play, first
            st.color = CARD_COLOR[t]
            st.current = (seat + st.direction) % st.n
            if ev is not None:
                ev.append(Event("turn", seat=st.current))
            return
        prev_color = st.color
        c = CARD_COLOR[t]
        if c >= 0:
            st.color = c
        d = st.direction
        n = st.n
        if left == 0:
            _go_out(st, seat, t, fx, arg, ev)
            return
        if fx == E_NUMBER:
            st.current = (seat + d) % n
        elif fx == E_SKIP:
            victim = (seat + d) % n
            if tb.response_windows:
                _open_response(st, victim, t, seat, False, prev_color, ev)
                return
            st.current = (victim + d) % n
            if ev is not None:
                ev.append(Event("skip", seat=victim))
        elif fx == E_REVERSE:
            d = st.direction = -d
            if ev is not None:
                ev.append(Event("reverse", seat=seat))
            if n == 2:  # RULES §6: a Skip with two players
                victim = (seat + d) % n
                if tb.response_windows:
                    _open_response(st, victim, t, seat, False, prev_color, ev)
                    return
                st.current = seat
                if ev is not None:
                    ev.append(Event("skip", seat=victim))
            else:
                st.current = (seat + d) % n
        elif fx == E_DRAW:
            victim = (seat + d) % n
            if tb.response_windows:  # with stacking, it may answer a stack: the total grows
                _open_response(st, victim, t, seat, False, prev_color, ev, st.pend_draw + tb.draw_amount)
                return
            _draw_cards(st, victim, tb.draw_amount, ev, CARD_CODE[t])
            st.current = (victim + d) % n
            if ev is not None:
                ev.append(Event("skip", seat=victim))
        elif fx in (E_WILD, E_INVIS):
            st.color = arg
            st.current = (seat + d) % n
        elif fx == E_WD4:
            # Legal only without a card of the colour to match (RULES §3); judged if challenged.
            guilty = prev_color >= 0 and tb.holds_color(hand, prev_color)
            st.color = arg
            _open_response(st, (seat + d) % n, t, seat, guilty, prev_color, ev, st.pend_draw + 4)
            return
        elif fx == E_HOWLER:
            if tb.response_windows:
                _open_response(st, arg, t, seat, False, prev_color, ev)
                return
            _reveal(st, arg, [v for v in range(n) if v != arg], ev, "howler")
            _ask_color(st, seat, (seat + d) % n)
        elif fx == E_MATER:
            for other in range(n):
                if other != seat:
                    _reveal(st, other, [seat], ev, "mater")
            _ask_color(st, seat, (seat + d) % n)
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
        if not pile:
            if not _reshuffle(st, ev):
                # a player who chose to draw and finds nothing passes.
                st.current = (seat + st.direction) % st.n
                if ev is not None:
                    ev.append(Event("pass", seat=seat, reason="nothing to draw"))
                    ev.append(Event("turn", seat=st.current))
                return
            pile = st.draw
        t = pile.pop()
        st.hands[seat].append(t)
        if ev is not None:
            ev.append(Event("draw", seat=seat, cards=(t,), count=1, visible_to=frozenset((seat,))))
        if st.tables.playable[facing][t]:
            st.phase = PHASE_AFTER_DRAW
            st.drawn = t
        elif st.tables.draw_to_match:  # RULES §11: it draws on
            _draw_to_match(st, seat, facing, ev)
        else:
            st.current = (seat + st.direction) % st.n
            if ev is not None:
                ev.append(Event("turn", seat=st.current))
    elif kind == KIND_PASS:
        st.phase = PHASE_TURN
        st.drawn = -1
        st.drew_facing[seat] = -1  # it keeps a playable card
        st.current = (seat + st.direction) % st.n
        if ev is not None:
            ev.append(Event("pass", seat=seat))
            ev.append(Event("turn", seat=st.current))
    elif kind == KIND_COLOR:
        st.color = arg
        st.phase = PHASE_TURN
        st.current = st.after_color
        st.after_color = -1
        if ev is not None:
            ev.append(Event("color", seat=seat, color=st.color))
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
        _draw_cards(st, target, UNO_PENALTY, ev, "caught without UNO")
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


def _reshuffle(st: State, ev: list[Event] | None) -> bool:
    """RULES §3: the discard pile but its top card becomes the new draw pile."""
    discard = st.discard
    if len(discard) <= 1:
        return False
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
    while got < k:
        if not pile:
            if not _reshuffle(st, ev):
                break
            pile = st.draw
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


def _ask_color(st: State, chooser: int, then: int) -> None:
    st.phase = PHASE_CHOOSE_COLOR
    st.current = chooser
    st.after_color = then


def _special_play(
    st: State, seat: int, t: int, fx: int, arg: int, uno: bool, prev_color: int, ev: list[Event] | None
) -> None:
    """The effects ``step`` leaves out of its chain: a custom blank's, and the house rules' of
    RULES §11 (the card is on the discard pile; ``seat`` holds cards still)."""
    if fx == E_BLANK:
        _blank_effect(st, seat, t, arg, ev)
        return
    n = st.n
    d = st.direction
    if fx == E_STACK:
        tb = st.tables
        total = st.pend_draw + tb.draw_amount  # an answer adds to the stack it answers
        victim = (seat + d) % n
        if not tb.answers[t].isdisjoint(st.hands[victim]):
            _open_response(st, victim, t, seat, False, prev_color, ev, total)
            return
        _clear_response(st)  # no answer held: it applies at once, as in RULES §3
        _draw_cards(st, victim, total, ev, CARD_CODE[t])
        st.current = (victim + d) % n
        if ev is not None:
            ev.append(Event("skip", seat=victim))
    else:
        if fx == E_SEVEN:
            dest = list(range(n))
            dest[seat], dest[arg] = arg, seat
            if ev is not None:
                ev.append(Event("swap", seat=seat, target=arg))
        else:  # E_ZERO
            dest = [(s + d) % n for s in range(n)]
            if ev is not None:
                ev.append(Event("pass_hands", seat=seat, reason="left" if d == 1 else "right"))
        _move_hands(st, seat, dest, uno)
        st.current = (seat + d) % n
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
    if st.known:
        moved: dict[int, dict[int, list[int]]] = {}
        for owner, by_viewer in st.known.items():
            owner_now = dest[owner]
            kept = {v: cards for v, cards in by_viewer.items() if v != owner_now}
            if kept:
                moved[owner_now] = kept
        st.known = moved
    exposed = st.exposed & ~changed
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
        if not st.draw and not _reshuffle(st, ev):
            st.current = (seat + st.direction) % st.n
            if ev is not None:
                ev.append(Event("pass", seat=seat, reason="nothing to draw"))
                ev.append(Event("turn", seat=st.current))
            return
        t = st.draw.pop()
        hand.append(t)
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
    victim = (seat + d) % n
    if effect.reveal:
        _reveal(st, victim, [v for v in range(n) if v != victim], ev, "blank")
    if effect.draw:
        _draw_cards(st, victim, effect.draw, ev, CARD_CODE[t])
    if effect.skip or (effect.reverse and n == 2):
        st.current = (victim + d) % n
        if ev is not None:
            ev.append(Event("skip", seat=victim))
    else:
        st.current = victim
    if ev is not None:
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


def _clear_response(st: State) -> None:
    st.pend_card = -1
    st.pend_from = -1
    st.pend_guilty = False
    st.pend_color = NO_COLOR
    st.pend_draw = 0
    st.phase = PHASE_TURN


def _accept(st: State, seat: int, ev: list[Event] | None) -> None:
    t = st.pend_card
    player = st.pend_from
    total = st.pend_draw
    d = st.direction
    n = st.n
    _clear_response(st)
    if ev is not None:
        stacked = total > (4 if t == WILD_DRAW_FOUR else st.tables.draw_amount)
        ev.append(Event("accept", seat=seat, cards=(t,), count=total, reason="stack" if stacked else ""))
    if t == HOWLER:
        _reveal(st, seat, [v for v in range(n) if v != seat], ev, "howler")
        _ask_color(st, player, (player + d) % n)
        return
    if total:  # a draw card, or with stacking the whole stack
        _draw_cards(st, seat, total, ev, CARD_CODE[t])
    st.current = (seat + d) % n
    if ev is not None:
        ev.append(Event("skip", seat=seat))
        ev.append(Event("turn", seat=st.current))


def _challenge(st: State, seat: int, ev: list[Event] | None) -> None:
    offender = st.pend_from
    guilty = st.pend_guilty
    total = st.pend_draw  # 4, or with stacking the whole stack (RULES §11)
    _clear_response(st)
    if ev is not None:
        ev.append(Event("challenge", seat=seat, target=offender, reason="guilty" if guilty else "not guilty"))
    _reveal(st, offender, [seat], ev, "challenge")
    if guilty:  # the offender draws 4; the challenger plays normally; the colour stands
        _draw_cards(st, offender, total, ev, "guilty Wild Draw Four")
        st.current = seat
    else:
        _draw_cards(st, seat, total + CHALLENGE_PENALTY, ev, "lost challenge")
        st.current = (seat + st.direction) % st.n
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
    if left == 1 and not uno:
        st.exposed |= 1 << seat
    if ev is not None:
        ev.append(Event("invisibility", seat=seat, cards=(INVISIBILITY,), color=color, target=player,
                        reason="uno" if uno else ""))  # fmt: skip
    if left == 0:
        _go_out(st, seat, INVISIBILITY, E_INVIS, color, ev)
        return
    st.current = (player + st.direction) % st.n if t == HOWLER else seat
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
    st.current = (offender + st.direction) % st.n
    if ev is not None:
        ev.append(Event("turn", seat=st.current))


def _go_out(st: State, seat: int, t: int, fx: int, arg: int, ev: list[Event] | None) -> None:
    """RULES §9, R-10: the hand is over; a last draw card still makes the next player draw."""
    tb = st.tables
    if fx in (E_WILD, E_WD4, E_INVIS) or (fx == E_BLANK and tb.wild[t]):
        st.color = arg
    d = st.direction
    if fx == E_BLANK:
        effect = tb.blank[t]
        assert effect is not None
        if effect.reverse:
            d = st.direction = -d
        if effect.draw:
            _draw_cards(st, (seat + d) % st.n, effect.draw, ev, CARD_CODE[t])
    elif fx in (E_DRAW, E_STACK):  # a stack still pending is drawn whole (RULES §11)
        _draw_cards(st, (seat + d) % st.n, st.pend_draw + tb.draw_amount, ev, CARD_CODE[t])
    elif fx == E_WD4:
        _draw_cards(st, (seat + d) % st.n, st.pend_draw + 4, ev, CARD_CODE[t])
    elif fx == E_REVERSE:
        st.direction = -d
    end_hand(st, seat, ev)


def hand_points(st: State) -> list[int]:
    """The points of the cards in each seat's hand now."""
    points = st.tables.points.__getitem__
    return [sum(map(points, h)) for h in st.hands]


def end_hand(st: State, winner: int, ev: list[Event] | None = None) -> None:
    """Score the hand that ``winner`` went out of (RULES §9) and end it."""
    rules = st.rules
    st.winner = winner
    st.current = -1
    st.exposed = 0
    st.wrong_seat = -1
    st.wrong_snapshot = None
    st.drawn = -1
    st.after_color = -1
    _clear_response(st)
    points = hand_points(st)
    if rules.teams:  # RULES §10: the winning team scores every card in the other team's hands
        team = winner % 2
        st.hand_points = sum(points[s] for s in range(st.n) if s % 2 != team)
        st.scores[team] += st.hand_points
    elif rules.mode == "challenge" or rules.scoring == "lowest":  # each is charged their own cards
        for s in range(st.n):
            st.scores[s] += points[s]
        st.hand_points = sum(points)
    else:
        st.hand_points = sum(points) - points[winner]
        st.scores[winner] += st.hand_points
    st.game_winners = _game_winners(st)
    st.phase = PHASE_GAME_OVER if st.game_winners else PHASE_HAND_OVER
    if ev is not None:
        ev.append(Event("hand_over", seat=winner, points=st.hand_points))
        if st.game_winners:
            ev.append(Event("game_over", seat=st.game_winners[0], count=len(st.game_winners)))
