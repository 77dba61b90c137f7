"""Cards as small integers, with lookup tables for colour, value, points and notation code.

A *card type* is an ``int`` in ``range(NUM_CARD_TYPES)``. Identical copies of a card (the two
red 7s) share one type: a hand is a list of types. Coloured cards are ``colour * 15 + value``;
wild cards follow them. Every table below is indexed by card type.
"""

from __future__ import annotations

from typing import Final

from unotable.errors import NotationError

COLORS: Final = ("R", "Y", "G", "B")
"""Colour letters of the notation, by colour index."""
COLOR_NAMES: Final = ("red", "yellow", "green", "blue")
"""Colour names for people, by colour index."""
NO_COLOR: Final = -1
"""The colour of a wild card, and the colour to match before a first wild card is called."""

SEVEN: Final = 7
"""The number that swaps hands with ``seven_zero`` (RULES §11)."""
SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
DRAW_THREE: Final = 13
BLANK: Final = 14
"""A blank carrying a custom effect (a replacement blank is simply the card it replaces)."""
VALUES_PER_COLOR: Final = 15
VALUE_CODES: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2", "+3", "BLANK")
VALUE_NAMES: Final = (
    *(str(v) for v in range(10)),
    "Skip",
    "Reverse",
    "Draw Two",
    "Draw Three",
    "Blank",
)

WILD: Final = 60
WILD_DRAW_FOUR: Final = 61
HOWLER: Final = 62
INVISIBILITY: Final = 63
MATER: Final = 64
WILD_SHUFFLE: Final = 65
"""The modern deck's Wild Shuffle Hands (docs/rules.md §12)."""
WILD_CUSTOM: Final = 66
"""The modern deck's Wild Customizable (docs/rules.md §12): a Wild, or the table's own rule."""
AW_WILD: Final = 67
"""UNO All Wild (docs/rules.md §13): its plain Wild, which names no colour (AW-1)."""
AW_REVERSE: Final = 68
AW_SKIP: Final = 69
AW_SKIP_TWO: Final = 70
AW_DRAW_TWO: Final = 71
AW_DRAW_FOUR: Final = 72
AW_TARGET: Final = 73
"""All Wild's Wild Targeted Draw Two: its player names the seat that draws two (AW-6)."""
AW_SWAP: Final = 74
"""All Wild's Wild Forced Swap: its player swaps hands with the seat it names (AW-7)."""
ALL_WILD_CARDS: Final = (
    AW_WILD,
    AW_REVERSE,
    AW_SKIP,
    AW_SKIP_TWO,
    AW_DRAW_TWO,
    AW_DRAW_FOUR,
    AW_TARGET,
    AW_SWAP,
)
"""The card types of UNO All Wild (docs/rules.md §13): wild cards that name no colour."""
NM_SKIP_ALL: Final = 15
"""UNO Show 'Em No Mercy (docs/rules.md §14): the value of its Skip Everyone (four colours)."""
NM_DISCARD_ALL: Final = 16
"""No Mercy's Discard All: its player discards every card of its colour with it (NM-5)."""
NM_DRAW_FOUR: Final = 17
"""No Mercy's coloured Draw Four."""
NM_VALUES: Final = (NM_SKIP_ALL, NM_DISCARD_ALL, NM_DRAW_FOUR)
NM_VALUE_CODES: Final = ("SE", "DA", "+4")
NM_VALUE_NAMES: Final = ("Skip Everyone", "Discard All", "Draw Four")
NM_FIRST: Final = 75
"""The first of No Mercy's card types: its coloured cards, ``75 + colour * 3 + k`` for the k-th
of :data:`NM_VALUES`, then its four wild cards; numbered after All Wild's, so that no earlier
card type changes."""
NM_WILD_REVERSE_FOUR: Final = 87
"""No Mercy's Wild Reverse Draw Four: the direction changes, then the next player draws four."""
NM_WILD_SIX: Final = 88
NM_WILD_TEN: Final = 89
NM_ROULETTE: Final = 90
"""No Mercy's Wild Colour Roulette: the next player names a colour and turns cards until one of
it comes (NM-7)."""
NM_WILD_CODES: Final = ("WR+4", "W+6", "W+10", "WCR")
NM_WILD_NAMES: Final = ("Wild Reverse Draw Four", "Wild Draw Six", "Wild Draw Ten", "Wild Colour Roulette")
FL_DRAW_ONE: Final = 18
"""UNO Flip (docs/rules.md §15): the value of its light side's Draw One (four colours)."""
FL_FLIP: Final = 19
"""UNO Flip's Flip card, on both sides: everything at the table turns over (FL-3)."""
FL_DRAW_FIVE: Final = 20
"""UNO Flip's dark side Draw Five."""
FL_FIRST: Final = 91
"""The first of UNO Flip's card types (docs/rules.md §15), numbered after No Mercy's so that no
earlier card type changes. Its light side's numbers, Skips and Reverses are the classic deck's
red, yellow, green and blue cards; its own light cards are the Draw One and the Flip of each
colour (``91 + colour * 2 + k``), its Wild and Wild Draw Two; then the dark side's cards, pink,
teal, orange and purple (colour indices 0 to 3, as the light side's), ``101 + colour * 13 + k``
for the k-th of :data:`FL_DARK_VALUES`, and its Wild and Wild Draw Color."""
FL_LIGHT_VALUES: Final = (FL_DRAW_ONE, FL_FLIP)
FL_LIGHT_CODES: Final = ("+1", "F")
FL_LIGHT_NAMES: Final = ("Draw One", "Flip")
FL_WILD: Final = 99
"""UNO Flip's light Wild (40 points, not the classic Wild's 50)."""
FL_WILD_DRAW_TWO: Final = 100
"""UNO Flip's light Wild Draw Two: a Wild Draw Four that draws two (challenged as one: FL-6)."""
FL_DARK_FIRST: Final = 101
FL_DARK_VALUES: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, FL_DRAW_FIVE, REVERSE, NM_SKIP_ALL, FL_FLIP)
FL_DARK_VALUE_CODES: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "+5", "R", "SE", "F")
FL_DARK_VALUE_NAMES: Final = (
    *(str(v) for v in range(1, 10)),
    "Draw Five",
    "Reverse",
    "Skip Everyone",
    "Flip",
)
DARK_COLORS: Final = ("P", "T", "O", "V")
"""The dark side's colour letters, by colour index: pink, teal, orange and purple (V, violet:
P is pink's)."""
DARK_COLOR_NAMES: Final = ("pink", "teal", "orange", "purple")
FL_DARK_WILD: Final = 153
"""UNO Flip's dark Wild (40 points)."""
FL_WILD_DRAW_COLOR: Final = 154
"""UNO Flip's dark Wild Draw Color: the next player draws until a card of the colour named
comes, and loses their turn (challenged as a Wild Draw Four: FL-7)."""
FL_WILD_CODES: Final = ("LW", "LW+2", "DW", "DW+C")
FL_WILD_NAMES: Final = ("Wild", "Wild Draw Two", "Wild", "Wild Draw Color")
NUM_CARD_TYPES: Final = 155
CLASSIC_CARD_TYPES: Final = 65
"""The card types of the three first editions (classic, Harry Potter, Cars 2): the card space
of the native core and of those editions' env observations, which later cards leave unchanged."""

WILD_CODES: Final = (
    "W",
    "W+4",
    "HOWLER",
    "INVIS",
    "MATER",
    "SHUFFLE",
    "CUSTOM",
    "AW",
    "AWREV",
    "AWSKIP",
    "AWSKIP2",
    "AW+2",
    "AW+4",
    "AWT+2",
    "AWSWAP",
)
WILD_NAMES: Final = (
    "Wild",
    "Wild Draw Four",
    "Howler",
    "Invisibility",
    "Mater",
    "Wild Shuffle Hands",
    "Wild Customizable",
    "Wild",
    "Wild Reverse",
    "Wild Skip",
    "Wild Skip Two",
    "Wild Draw Two",
    "Wild Draw Four",
    "Wild Targeted Draw Two",
    "Wild Forced Swap",
)


def card_type(color: int, value: int) -> int:
    """The card type of a coloured card (No Mercy's values too, :data:`NM_VALUES`).

    :raises ValueError: if the colour or value is out of range.
    """
    if 0 <= color < 4 and value in NM_VALUES:
        return NM_FIRST + color * 3 + NM_VALUES.index(value)
    if not (0 <= color < 4 and 0 <= value < VALUES_PER_COLOR):
        raise ValueError(f"no coloured card with colour {color} and value {value}")
    return color * VALUES_PER_COLOR + value


def _build_tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...], tuple[str, ...]]:
    colors: list[int] = []
    values: list[int] = []
    codes: list[str] = []
    names: list[str] = []
    for color, letter in enumerate(COLORS):
        for value, vcode in enumerate(VALUE_CODES):
            colors.append(color)
            values.append(value)
            codes.append(letter + vcode)
            names.append(f"{COLOR_NAMES[color]} {VALUE_NAMES[value]}")
    for i, code in enumerate(WILD_CODES):
        colors.append(NO_COLOR)
        values.append(WILD + i)
        codes.append(code)
        names.append(WILD_NAMES[i])
    for color, letter in enumerate(COLORS):  # No Mercy's coloured cards (docs/rules.md §14)
        for k, value in enumerate(NM_VALUES):
            colors.append(color)
            values.append(value)
            codes.append(letter + NM_VALUE_CODES[k])
            names.append(f"{COLOR_NAMES[color]} {NM_VALUE_NAMES[k]}")
    for i, code in enumerate(NM_WILD_CODES):
        colors.append(NO_COLOR)
        values.append(NM_WILD_REVERSE_FOUR + i)
        codes.append(code)
        names.append(NM_WILD_NAMES[i])
    for color, letter in enumerate(COLORS):  # UNO Flip's light cards (docs/rules.md §15)
        for k, value in enumerate(FL_LIGHT_VALUES):
            colors.append(color)
            values.append(value)
            codes.append(letter + FL_LIGHT_CODES[k])
            names.append(f"{COLOR_NAMES[color]} {FL_LIGHT_NAMES[k]}")
    for i in range(2):
        colors.append(NO_COLOR)
        values.append(FL_WILD + i)
        codes.append(FL_WILD_CODES[i])
        names.append(FL_WILD_NAMES[i])
    for color, letter in enumerate(DARK_COLORS):  # its dark side
        for k, value in enumerate(FL_DARK_VALUES):
            colors.append(color)
            values.append(value)
            codes.append(letter + FL_DARK_VALUE_CODES[k])
            names.append(f"{DARK_COLOR_NAMES[color]} {FL_DARK_VALUE_NAMES[k]}")
    for i in range(2, 4):
        colors.append(NO_COLOR)
        values.append(FL_DARK_WILD + i - 2)
        codes.append(FL_WILD_CODES[i])
        names.append(FL_WILD_NAMES[i])
    return tuple(colors), tuple(values), tuple(codes), tuple(names)


CARD_COLOR, CARD_VALUE, CARD_CODE, CARD_NAME = _build_tables()
"""Per card type: colour index (``NO_COLOR`` for wilds), value (wilds: their own type), code
of the notation, and a name for people."""

CARD_BY_CODE: Final[dict[str, int]] = {code: t for t, code in enumerate(CARD_CODE)}
COLOR_BY_CODE: Final[dict[str, int]] = {c: i for i, c in enumerate(COLORS)}
DARK_COLOR_BY_CODE: Final[dict[str, int]] = {c: i for i, c in enumerate(DARK_COLORS)}

IS_WILD: Final = tuple(CARD_COLOR[t] == NO_COLOR for t in range(NUM_CARD_TYPES))
"""Per card type: printed as a wild card (a custom blank may still behave as one)."""
NAMES_COLOR: Final = tuple(
    IS_WILD[t] and t not in ALL_WILD_CARDS and t != NM_ROULETTE for t in range(NUM_CARD_TYPES)
)
"""Per card type: a wild card whose player names a colour (All Wild's name none: AW-1; No
Mercy's Wild Colour Roulette neither, its victim does: NM-7)."""


def _points(t: int) -> int:
    value = CARD_VALUE[t]
    if t in (WILD_SHUFFLE, WILD_CUSTOM):  # docs/rules.md §12: the modern sheet's 40
        return 40
    if t == AW_WILD:  # docs/rules.md §13: All Wild's plain Wild 20, its other cards 50
        return 20
    if value in (NM_SKIP_ALL, NM_DISCARD_ALL):  # docs/rules.md §14, NM-10; §15's Skip Everyone
        return 30
    if t in (FL_WILD, FL_DARK_WILD):  # docs/rules.md §15: UNO Flip's Wilds 40, its wild draws 50, 60
        return 40
    if t == FL_WILD_DRAW_COLOR:
        return 60
    if not IS_WILD[t] and value == FL_DRAW_ONE:
        return 10
    if IS_WILD[t] or value == BLANK:
        return 50
    if value <= 9:
        return value
    return 20


POINTS: Final = tuple(_points(t) for t in range(NUM_CARD_TYPES))
"""Per card type: points at the end of a hand (RULES §1; R-2 for Mater; 50 for a custom blank;
40 for the modern deck's Wild Shuffle Hands and Wild Customizable, §12; 20 for All Wild's
plain Wild, §13; UNO Flip's, §15: Draw One 10, Skip Everyone 30, Wilds 40, Wild Draw Two 50,
Wild Draw Color 60)."""
FL_LIGHT: Final = tuple(
    t for t in range(NUM_CARD_TYPES) if t < 60 and t % VALUES_PER_COLOR in (*range(1, 10), SKIP, REVERSE)
) + tuple(range(FL_FIRST, FL_DARK_FIRST))
"""The card types of UNO Flip's light faces (docs/rules.md §15)."""
FL_DARK: Final = tuple(range(FL_DARK_FIRST, NUM_CARD_TYPES))
"""The card types of UNO Flip's dark faces."""
DARK_FACE: Final = tuple(FL_DARK_FIRST <= t < NUM_CARD_TYPES for t in range(NUM_CARD_TYPES))
"""Per card type: a face of UNO Flip's dark side (its colours are pink, teal, orange, purple)."""


def color_code(color: int, dark: bool = False) -> str:
    """The letter of colour index ``color``: the light side's (R, Y, G, B), or with ``dark`` the
    dark side's (P, T, O, V)."""
    return (DARK_COLORS if dark else COLORS)[color]


def flip_light(color: int, value: int) -> int:
    """The card type of UNO Flip's light face of ``color`` and ``value`` (1-9, ``SKIP``,
    ``REVERSE``, ``FL_DRAW_ONE``, ``FL_FLIP``): its numbers, Skips and Reverses are the classic
    deck's."""
    if value in FL_LIGHT_VALUES:
        return FL_FIRST + color * 2 + FL_LIGHT_VALUES.index(value)
    return card_type(color, value)


def parse_card(code: str) -> int:
    """The card type of a notation code such as ``"R7"``, ``"B+2"`` or ``"W+4"``.

    :raises NotationError: if the code is not a card of the notation.
    """
    try:
        return CARD_BY_CODE[code]
    except (KeyError, TypeError):
        raise NotationError(f"not a card: {code!r}") from None


def parse_color(code: str) -> int:
    """The colour index of a colour letter ``R``, ``Y``, ``G`` or ``B``.

    :raises NotationError: if it is not a colour letter.
    """
    try:
        return COLOR_BY_CODE[code]
    except (KeyError, TypeError):
        raise NotationError(f"not a colour: {code!r}") from None
