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
NUM_CARD_TYPES: Final = 91
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
    return tuple(colors), tuple(values), tuple(codes), tuple(names)


CARD_COLOR, CARD_VALUE, CARD_CODE, CARD_NAME = _build_tables()
"""Per card type: colour index (``NO_COLOR`` for wilds), value (wilds: their own type), code
of the notation, and a name for people."""

CARD_BY_CODE: Final[dict[str, int]] = {code: t for t, code in enumerate(CARD_CODE)}
COLOR_BY_CODE: Final[dict[str, int]] = {c: i for i, c in enumerate(COLORS)}

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
    if value in (NM_SKIP_ALL, NM_DISCARD_ALL):  # docs/rules.md §14, NM-10
        return 30
    if IS_WILD[t] or value == BLANK:
        return 50
    if value <= 9:
        return value
    return 20


POINTS: Final = tuple(_points(t) for t in range(NUM_CARD_TYPES))
"""Per card type: points at the end of a hand (RULES §1; R-2 for Mater; 50 for a custom blank;
40 for the modern deck's Wild Shuffle Hands and Wild Customizable, §12; 20 for All Wild's
plain Wild, §13)."""


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
