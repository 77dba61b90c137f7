"""The lookup tables of a table's rules (:class:`Tables`): what each card does, what matches
what, the action ids of every way to play a card; built once per rules and cached.

Part of the rules core (:mod:`unotable.engine` re-exports every name): the effects and the
legality of a hand look things up here rather than compute them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from unotable.cards import (
    AW_DRAW_FOUR,
    AW_DRAW_TWO,
    AW_REVERSE,
    AW_SKIP,
    AW_SKIP_TWO,
    AW_SWAP,
    AW_TARGET,
    AW_WILD,
    BLANK,
    CARD_COLOR,
    CARD_VALUE,
    DRAW_THREE,
    DRAW_TWO,
    FL_DARK_WILD,
    FL_DRAW_FIVE,
    FL_DRAW_ONE,
    FL_FLIP,
    FL_WILD,
    FL_WILD_DRAW_COLOR,
    FL_WILD_DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    IS_WILD,
    MATER,
    NAMES_COLOR,
    NM_DISCARD_ALL,
    NM_DRAW_FOUR,
    NM_ROULETTE,
    NM_SKIP_ALL,
    NM_WILD_REVERSE_FOUR,
    NM_WILD_SIX,
    NM_WILD_TEN,
    NUM_CARD_TYPES,
    POINTS,
    REVERSE,
    SEVEN,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE,
)
from unotable.house import refusals
from unotable.notation import MORE_IDS, OPENS_SERIES, play_ids
from unotable.rules import BlankEffect, Rules

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
E_SHUFFLE: Final = 13
"""The modern deck's Wild Shuffle Hands (docs/rules.md §12): every hand is gathered, shuffled and
dealt out again from the player's left."""
E_SKIP2: Final = 14
"""All Wild's Wild Skip Two (docs/rules.md §13, AW-5): the next two players lose their turns."""
E_TARGET: Final = 15
"""All Wild's Wild Targeted Draw Two (docs/rules.md §13, AW-6): the seat named draws two."""


_ALL_WILD_EFFECTS: Final = {
    AW_WILD: E_WILD,  # naming no colour (AW-1)
    AW_REVERSE: E_REVERSE,
    AW_SKIP: E_SKIP,
    AW_SKIP_TWO: E_SKIP2,
    AW_DRAW_TWO: E_DRAW,
    AW_DRAW_FOUR: E_DRAW,  # four cards, never challenged (AW-8)
    AW_TARGET: E_TARGET,
    AW_SWAP: E_SEVEN,  # the seven_zero 7's swap, always (AW-7)
}
"""What All Wild's cards do (docs/rules.md §13), as the effects of other cards."""

MERCY_LIMIT: Final = 25
"""docs/rules.md §14: No Mercy's mercy rule knocks out a seat holding 25 cards or more."""
E_SKIP_ALL: Final = 16
"""No Mercy's Skip Everyone (docs/rules.md §14, NM-4): every other player loses a turn; its
player plays again."""
E_DISCARD_ALL: Final = 17
"""No Mercy's Discard All (docs/rules.md §14, NM-5): the player's cards of its colour go under it."""
E_ROULETTE: Final = 18
"""No Mercy's Wild Colour Roulette (docs/rules.md §14, NM-7): the next player names a colour and
takes the cards turned until one of it comes."""
NM_DRAWS: Final = {NM_WILD_REVERSE_FOUR: 4, NM_WILD_SIX: 6, NM_WILD_TEN: 10}
"""No Mercy's wild draw cards and what they draw (its coloured Draw Four: 4)."""
E_FLIP: Final = 19
"""UNO Flip's Flip card (docs/rules.md §15, FL-3): every card at the table turns over."""
E_DRAW_COLOR: Final = 20
"""UNO Flip's Wild Draw Color (docs/rules.md §15, FL-7): the next player draws until a card of
the colour named comes; challenged as a Wild Draw Four."""
CHALLENGED: Final = frozenset((WILD_DRAW_FOUR, FL_WILD_DRAW_TWO, FL_WILD_DRAW_COLOR))
"""The cards played only without one of the colour to match, challenged as the Wild Draw Four
(RULES §4; UNO Flip's Wild Draw Two and Wild Draw Color: FL-6, FL-7)."""
FL_DRAWS: Final = {FL_DRAW_ONE: 1, FL_DRAW_FIVE: 5}
"""UNO Flip's coloured draw cards by value, and what they draw."""


def _base_effect(t: int) -> int:
    if t in (WILD, FL_WILD, FL_DARK_WILD):
        return E_WILD
    if t == FL_WILD_DRAW_TWO:  # a Wild Draw Four that draws two (FL-6)
        return E_WD4
    if t == FL_WILD_DRAW_COLOR:
        return E_DRAW_COLOR
    if not IS_WILD[t] and CARD_VALUE[t] == FL_FLIP:
        return E_FLIP
    if not IS_WILD[t] and CARD_VALUE[t] in FL_DRAWS:
        return E_DRAW
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
    if t == WILD_SHUFFLE:
        return E_SHUFFLE
    if t == WILD_CUSTOM:  # a Wild, unless the table wrote a rule on it (Tables._blanks)
        return E_WILD
    if t in _ALL_WILD_EFFECTS:
        return _ALL_WILD_EFFECTS[t]
    if t in NM_DRAWS:  # the Wild Reverse Draw Four changes the direction first (``step``)
        return E_DRAW
    if t == NM_ROULETTE:
        return E_ROULETTE
    value = CARD_VALUE[t]
    if value == NM_SKIP_ALL:
        return E_SKIP_ALL
    if value == NM_DISCARD_ALL:
        return E_DISCARD_ALL
    if value == NM_DRAW_FOUR:
        return E_DRAW
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
        "answers",
        "base_effect",
        "blank",
        "deck",
        "deck_bytes",
        "deck_set",
        "deflect",
        "deflectors",
        "double_finish",
        "draw_amount",
        "draw_to_match",
        "draws",
        "draws_named",
        "effect",
        "finishing",
        "forced_play",
        "hand_limit",
        "jump_in",
        "lenient",
        "matching",
        "mercy",
        "more_ways",
        "multi_play",
        "must_play_drawn",
        "n",
        "no_action_finish",
        "no_bluffing",
        "of_color",
        "play",
        "play_last",
        "play_two",
        "playable",
        "playable_set",
        "points",
        "refuses_more",
        "response_windows",
        "rules",
        "series_next",
        "seven_zero",
        "stacking",
        "suggestion_penalty",
        "symbol",
        "uno_call",
        "uno_penalty",
        "ways",
        "wild",
    )  # fmt: skip

    rules: Rules
    """The rules the tables were built for, with :func:`table_key`'s options at their defaults."""
    n: int
    draw_amount: int
    draws: tuple[int, ...]
    """Per card type: the cards a draw card (effect ``E_DRAW``) makes its victim draw (the
    edition's ``draw_amount``; All Wild's Wild Draw Two 2 and Wild Draw Four 4; the Wild Draw
    Four's 4 and UNO Flip's Wild Draw Two's 2, effect ``E_WD4``; Flip's Draw One 1, Draw Five 5)."""
    mercy: int
    """No Mercy's mercy rule (docs/rules.md §14, NM-9): a seat holding this many cards is out of
    the hand (25, or a lower ``hand_limit``: NM-13; 0: no such rule)."""
    draws_named: frozenset[int]
    """The wild draw cards whose player names a colour with the play (No Mercy's: §14)."""
    response_windows: bool
    suggestion_penalty: int
    must_play_drawn: bool
    lenient: bool
    stacking: bool | str
    seven_zero: bool
    jump_in: bool
    draw_to_match: bool
    deflect: bool | str
    deflectors: tuple[frozenset[int], ...]
    """RULES §11.5: by colour in play, the card types that deflect a pending draw."""
    forced_play: bool
    no_bluffing: bool
    uno_penalty: int
    uno_call: bool | str
    no_action_finish: bool
    hand_limit: int
    double_finish: bool
    multi_play: bool | str
    series_next: tuple[frozenset[int], ...]
    """docs/rules.md §11.5 multi_play: per card type, the card types that may follow it in the
    same turn (empty: it opens no series; always empty without the rule)."""
    more_ways: list[tuple[tuple[int, ...], ...]]
    """``more_ways[len(hand)][card]``: the ids of ``play CARD more`` (and ``... more uno`` for a
    hand of two) of a seat holding that many cards (none for one card)."""
    refuses_more: bool
    """Whether a house rule in force refuses actions the official rules allow (forced play, no
    going out on an action card, no challenge...): what the rollouts check. Derived from the
    records' ``refuses`` (:func:`unotable.house.refusals`), never listed here."""
    finishing: tuple[bool, ...]
    """RULES §11.5: whether each card type may be a hand's last card (all, without the rule)."""
    base_effect: tuple[int, ...]
    """What each card does as printed (a first card, a position)."""
    effect: tuple[int, ...]
    """What each card does when played at this table, house rules included."""
    answers: tuple[frozenset[int], ...]
    """With stacking, the card types that answer each draw card (RULES §11)."""
    blank: tuple[BlankEffect | None, ...]
    wild: tuple[bool, ...]
    """Whether each card names a colour when played: wild cards, and wild custom blanks."""
    symbol: tuple[int | None, ...]
    playable: list[tuple[bool, ...]]
    """``playable[(color + 1) * NUM_CARD_TYPES + top][card]``."""
    playable_set: list[frozenset[int]]
    matching: list[list[frozenset[int]]]
    of_color: tuple[frozenset[int], ...]
    play: list[list[tuple[int, ...]]]
    play_two: list[list[tuple[int, ...]]]
    play_last: list[list[tuple[int, ...]]]
    points: tuple[int, ...]
    deck: tuple[int, ...]
    ways: list[list[list[tuple[int, ...]]]]
    deck_set: frozenset[int]
    deck_bytes: bytes
    """The deck as bytes, one card each: what a shuffle of the whole deck starts from."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._options(rules)
        self._effects()
        self._blanks(rules)
        self._matching()
        self._plays(rules)

    def _options(self, rules: Rules) -> None:
        """The edition's and the table's options the hot path reads."""
        self.n = rules.players
        edition = rules.edition
        self.draw_amount = edition.draw_amount
        self.draws = tuple(
            4
            if t in (AW_DRAW_FOUR, WILD_DRAW_FOUR) or (not IS_WILD[t] and CARD_VALUE[t] == NM_DRAW_FOUR)
            else 2
            if t in (AW_DRAW_TWO, FL_WILD_DRAW_TWO)
            else FL_DRAWS[CARD_VALUE[t]]
            if not IS_WILD[t] and CARD_VALUE[t] in FL_DRAWS
            else NM_DRAWS.get(t, edition.draw_amount)
            for t in range(NUM_CARD_TYPES)
        )
        self.draws_named = frozenset(NM_DRAWS)
        self.mercy = min(MERCY_LIMIT, rules.hand_limit) if edition.no_mercy else 0  # NM-9, NM-13
        self.response_windows = edition.response_windows
        self.suggestion_penalty = edition.suggestion_penalty
        self.must_play_drawn = rules.must_play_drawn
        self.lenient = rules.lenient_plays
        self.stacking = rules.stacking
        self.seven_zero = rules.seven_zero
        self.jump_in = rules.jump_in
        self.draw_to_match = rules.draw_to_match
        self.deflect = rules.deflect
        self.forced_play = rules.forced_play
        self.no_bluffing = rules.no_bluffing
        self.uno_penalty = rules.uno_penalty
        self.uno_call = rules.uno_call
        self.no_action_finish = rules.no_action_finish
        self.hand_limit = rules.hand_limit
        self.double_finish = rules.double_finish
        self.multi_play = rules.multi_play
        self.refuses_more = bool(refusals(rules.house))

    def _effects(self) -> None:
        """Each card's effect, as printed and as played here, and the answers to draw cards."""
        self.base_effect = tuple(_base_effect(t) for t in range(NUM_CARD_TYPES))
        effect = list(self.base_effect)
        for t in range(NUM_CARD_TYPES):
            if self.seven_zero and not IS_WILD[t] and CARD_VALUE[t] in (0, SEVEN):
                effect[t] = E_SEVEN if CARD_VALUE[t] == SEVEN else E_ZERO
        draws = [t for t in range(NUM_CARD_TYPES) if self.base_effect[t] in (E_DRAW, E_WD4)]
        # All Wild's Wild Draw Four is a four for stack_cards, as the Wild Draw Four (AW-8).
        # UNO Flip's Wild Draw Two too (FL-11).
        fours = (WILD_DRAW_FOUR, AW_DRAW_FOUR, FL_WILD_DRAW_TWO)
        kind = {t: WILD_DRAW_FOUR if t in fours else CARD_VALUE[t] for t in draws}
        order = self.rules.stack_cards

        def answers(t: int, a: int) -> bool:
            """Whether draw card ``a`` answers draw card ``t`` (RULES §11, §11.5)."""
            four_t, four_a = kind[t] == WILD_DRAW_FOUR, kind[a] == WILD_DRAW_FOUR
            if order == "draws" and (four_t or four_a):
                return False
            if order == "fours" and not (four_t and four_a):
                return False
            if order == "up":
                return kind[a] == kind[t] or (four_a and not four_t)
            if self.rules.edition.no_mercy:  # docs/rules.md §14, NM-2: as many or more
                return self.draws[a] >= self.draws[t]
            return self.stacking == "any" or kind[a] == kind[t]

        self.answers = tuple(
            frozenset(a for a in draws if answers(t, a)) if self.stacking and t in kind else frozenset()
            for t in range(NUM_CARD_TYPES)
        )
        deflecting = {"reverse": (E_REVERSE,), "skip": (E_SKIP,), "both": (E_REVERSE, E_SKIP)}.get(
            str(self.deflect), ()
        )
        self.deflectors = tuple(
            frozenset(
                t
                for t in range(NUM_CARD_TYPES)
                if self.base_effect[t] in deflecting and CARD_COLOR[t] == c and not IS_WILD[t]
            )
            for c in range(4)
        )
        for t in range(NUM_CARD_TYPES):
            # A draw card opens ``respond`` (editions without windows) only if it can be answered.
            stacks = bool(self.answers[t]) or (self.deflect is not False and effect[t] == E_DRAW)
            if effect[t] == E_DRAW and self.stacking and not self.response_windows and stacks:
                effect[t] = E_STACK
        self.effect = tuple(effect)
        self.finishing = tuple(
            not self.no_action_finish or self.base_effect[t] == E_NUMBER for t in range(NUM_CARD_TYPES)
        )
        # docs/rules.md §11.5 multi_play: a number card (not a 7 or a 0 with seven_zero: H-27) is
        # followed by the cards of its number, or only by its identical copies.
        numbers = [t for t in range(NUM_CARD_TYPES) if OPENS_SERIES[t] and effect[t] == E_NUMBER]
        self.series_next = tuple(
            frozenset(
                x
                for x in numbers
                if t in numbers
                and (x == t or (self.multi_play == "number" and CARD_VALUE[x] == CARD_VALUE[t]))
            )
            if self.multi_play
            else frozenset()
            for t in range(NUM_CARD_TYPES)
        )

    def _blanks(self, rules: Rules) -> None:
        """The custom blanks' effects (and the rule written on a Wild Customizable, which plays
        as a custom blank: docs/rules.md §12, M-5), and which cards name a colour when played."""
        blank = [
            rules.blank_effect(CARD_COLOR[t]) if CARD_VALUE[t] == BLANK and not IS_WILD[t] else None
            for t in range(NUM_CARD_TYPES)
        ]
        if rules.custom is not None:
            blank[WILD_CUSTOM] = rules.custom
            self.base_effect = tuple(
                E_BLANK if t == WILD_CUSTOM else e for t, e in enumerate(self.base_effect)
            )
            self.effect = tuple(E_BLANK if t == WILD_CUSTOM else e for t, e in enumerate(self.effect))
        self.blank = tuple(blank)
        self.wild = tuple(
            NAMES_COLOR[t] or (self.blank[t] is not None and self.blank[t].wild)  # type: ignore[union-attr]
            for t in range(NUM_CARD_TYPES)
        )

    def _matching(self) -> None:
        """What matches what (RULES §3): by colour to match and top card, as flags and as sets."""
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
        self.playable = []
        for color in range(-1, 4):
            for top in range(NUM_CARD_TYPES):
                st = symbol[top]
                self.playable.append(
                    tuple(
                        self.wild[t]
                        or IS_WILD[t]  # All Wild's cards name no colour and play on anything (AW-1)
                        or CARD_COLOR[t] == color
                        or (st is not None and symbol[t] == st)
                        for t in range(NUM_CARD_TYPES)
                    )
                )
        # The same as sets, to intersect with a hand in one C call.
        self.playable_set = [frozenset(t for t in range(NUM_CARD_TYPES) if ok[t]) for ok in self.playable]
        # matching[color][top]: the same sets by colour to match and top card, the colour -1 (none
        # called yet) last, so that the hot path looks them up with no arithmetic.
        self.matching = [
            self.playable_set[(c + 1) * NUM_CARD_TYPES : (c + 2) * NUM_CARD_TYPES] for c in (0, 1, 2, 3, -1)
        ]
        # of_color[c]: the card types of colour c that make a Wild Draw Four illegal (wild
        # blanks left out).
        self.of_color = tuple(
            frozenset(t for t in range(NUM_CARD_TYPES) if CARD_COLOR[t] == c and not self.wild[t])
            for c in range(4)
        )

    def _plays(self, rules: Rules) -> None:
        """The action ids of every way each seat may play each card, and the deck."""
        n = self.n
        swap = self.seven_zero
        wild = self.wild
        # play[seat][card]: the ids of every way ``seat`` may play ``card`` (a Howler names
        # another seat, and so does a 7 with seven_zero); play_two[seat][card] adds the
        # spellings with ``uno``; play_last[seat][card]: as the last card (a 7 swaps nothing).
        self.play = []
        self.play_two = []
        self.play_last = []
        for seat in range(n):
            plain = [
                play_ids(t, uno=False, wild=wild[t], seat=seat, players=n, swap=swap)
                for t in range(NUM_CARD_TYPES)
            ]
            called = [
                play_ids(t, uno=True, wild=wild[t], seat=seat, players=n, swap=swap)
                for t in range(NUM_CARD_TYPES)
            ]
            self.play.append(plain)
            self.play_two.append([p + c for p, c in zip(plain, called, strict=True)])
            last = [
                play_ids(t, uno=False, wild=wild[t], seat=seat, players=n, last=True)
                for t in range(NUM_CARD_TYPES)
            ]
            # A last card names no seat (a 7 of seven_zero, All Wild's Forced Swap: AW-7); with
            # neither, the same lists as ``plain``.
            last = last if swap or AW_SWAP in rules.deck() else plain
            if self.no_action_finish:  # RULES §11.5: an action or wild card is never the last card
                last = [ids if self.finishing[t] else () for t, ids in enumerate(last)]
            self.play_last.append(last)
        self.points = POINTS
        self.deck = tuple(rules.deck())
        # ways[len(hand)][seat][card]: the play ids of a seat holding that many cards (one
        # lookup on the hot path instead of a test of the hand's size).
        self.ways = [self.play, self.play_last, self.play_two]
        self.ways += [self.play] * (len(self.deck) - 2)  # a hand holds fewer cards than the deck
        self.deck_set = frozenset(self.deck)
        self.deck_bytes = bytes(self.deck)
        none: tuple[tuple[int, ...], ...] = ((),) * NUM_CARD_TYPES
        if self.multi_play:
            more = tuple(MORE_IDS[t][:1] if self.series_next[t] else () for t in range(NUM_CARD_TYPES))
            more_two = tuple(MORE_IDS[t] if self.series_next[t] else () for t in range(NUM_CARD_TYPES))
            self.more_ways = [none, none, more_two] + [more] * (len(self.deck) - 2)
        else:
            self.more_ways = [none] * (len(self.deck) + 1)

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
