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
NUM_CARD_TYPES: Final = 67
CLASSIC_CARD_TYPES: Final = 65
"""The card types of the three first editions (classic, Harry Potter, Cars 2): the card space
of the native core and of those editions' env observations, which later cards leave unchanged."""

WILD_CODES: Final = ("W", "W+4", "HOWLER", "INVIS", "MATER", "SHUFFLE", "CUSTOM")
WILD_NAMES: Final = (
    "Wild",
    "Wild Draw Four",
    "Howler",
    "Invisibility",
    "Mater",
    "Wild Shuffle Hands",
    "Wild Customizable",
)


def card_type(color: int, value: int) -> int:
    """The card type of a coloured card.

    :raises ValueError: if the colour or value is out of range.
    """
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
    return tuple(colors), tuple(values), tuple(codes), tuple(names)


CARD_COLOR, CARD_VALUE, CARD_CODE, CARD_NAME = _build_tables()
"""Per card type: colour index (``NO_COLOR`` for wilds), value (wilds: their own type), code
of the notation, and a name for people."""

CARD_BY_CODE: Final[dict[str, int]] = {code: t for t, code in enumerate(CARD_CODE)}
COLOR_BY_CODE: Final[dict[str, int]] = {c: i for i, c in enumerate(COLORS)}

IS_WILD: Final = tuple(CARD_COLOR[t] == NO_COLOR for t in range(NUM_CARD_TYPES))
"""Per card type: printed as a wild card (a custom blank may still behave as one)."""


def _points(t: int) -> int:
    value = CARD_VALUE[t]
    if t in (WILD_SHUFFLE, WILD_CUSTOM):  # docs/rules.md §12: the modern sheet's 40
        return 40
    if IS_WILD[t] or value == BLANK:
        return 50
    if value <= 9:
        return value
    return 20


POINTS: Final = tuple(_points(t) for t in range(NUM_CARD_TYPES))
"""Per card type: points at the end of a hand (RULES §1; R-2 for Mater; 50 for a custom blank;
40 for the modern deck's Wild Shuffle Hands and Wild Customizable, §12)."""


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
