"""Cards and colours named for people, in the language in force (:mod:`unotable.i18n`).

Each card is one whole msgid per colour ("red Skip", "blue {number}") so that each language
agrees its colour with the card as it must ("carte Passer rouge", "carta Saltar vermelha").
English names have no article ("red Draw Two"): an English sentence says "the {card}" where it
needs one; Portuguese and French names carry theirs ("o 7 vermelho", "la carte +2 rouge") and
their sentences do not add one. The notation's codes (``R+2``) never change: they are not words.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    DARK_FACE,
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
    MATER,
    NM_DISCARD_ALL,
    NM_DRAW_FOUR,
    NM_ROULETTE,
    NM_SKIP_ALL,
    NM_WILD_REVERSE_FOUR,
    NM_WILD_SIX,
    NM_WILD_TEN,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE,
)
from unotable.i18n import N_, _

COLOR_WORDS: Final = (N_("red"), N_("yellow"), N_("green"), N_("blue"))
"""Colour names by colour index (English msgids)."""

_NUMBERS: Final = (N_("red {number}"), N_("yellow {number}"), N_("green {number}"), N_("blue {number}"))
_ACTIONS: Final[dict[int, tuple[str, str, str, str]]] = {
    SKIP: (N_("red Skip"), N_("yellow Skip"), N_("green Skip"), N_("blue Skip")),
    REVERSE: (N_("red Reverse"), N_("yellow Reverse"), N_("green Reverse"), N_("blue Reverse")),
    DRAW_TWO: (N_("red Draw Two"), N_("yellow Draw Two"), N_("green Draw Two"), N_("blue Draw Two")),
    DRAW_THREE: (
        N_("red Draw Three"),
        N_("yellow Draw Three"),
        N_("green Draw Three"),
        N_("blue Draw Three"),
    ),
    BLANK: (N_("red Blank"), N_("yellow Blank"), N_("green Blank"), N_("blue Blank")),
    NM_SKIP_ALL: (
        N_("red Skip Everyone"),
        N_("yellow Skip Everyone"),
        N_("green Skip Everyone"),
        N_("blue Skip Everyone"),
    ),
    NM_DISCARD_ALL: (
        N_("red Discard All"),
        N_("yellow Discard All"),
        N_("green Discard All"),
        N_("blue Discard All"),
    ),
    NM_DRAW_FOUR: (N_("red Draw Four"), N_("yellow Draw Four"), N_("green Draw Four"), N_("blue Draw Four")),
    FL_DRAW_ONE: (N_("red Draw One"), N_("yellow Draw One"), N_("green Draw One"), N_("blue Draw One")),
    FL_FLIP: (N_("red Flip"), N_("yellow Flip"), N_("green Flip"), N_("blue Flip")),
}
DARK_COLOR_WORDS: Final = (N_("pink"), N_("teal"), N_("orange"), N_("purple"))
"""UNO Flip's dark colours by colour index (docs/rules.md §15)."""
_DARK_NUMBERS: Final = (
    N_("pink {number}"),
    N_("teal {number}"),
    N_("orange {number}"),
    N_("purple {number}"),
)
_DARK_ACTIONS: Final[dict[int, tuple[str, str, str, str]]] = {
    FL_DRAW_FIVE: (
        N_("pink Draw Five"),
        N_("teal Draw Five"),
        N_("orange Draw Five"),
        N_("purple Draw Five"),
    ),
    REVERSE: (N_("pink Reverse"), N_("teal Reverse"), N_("orange Reverse"), N_("purple Reverse")),
    NM_SKIP_ALL: (
        N_("pink Skip Everyone"),
        N_("teal Skip Everyone"),
        N_("orange Skip Everyone"),
        N_("purple Skip Everyone"),
    ),
    FL_FLIP: (N_("pink Flip"), N_("teal Flip"), N_("orange Flip"), N_("purple Flip")),
}
_WILDS: Final = {
    WILD: N_("Wild"),
    WILD_DRAW_FOUR: N_("Wild Draw Four"),
    HOWLER: N_("Howler"),
    INVISIBILITY: N_("Invisibility"),
    MATER: N_("Mater"),
    WILD_SHUFFLE: N_("Wild Shuffle Hands"),
    WILD_CUSTOM: N_("Wild Customizable"),
    AW_WILD: N_("Wild"),
    AW_REVERSE: N_("Wild Reverse"),
    AW_SKIP: N_("Wild Skip"),
    AW_SKIP_TWO: N_("Wild Skip Two"),
    AW_DRAW_TWO: N_("Wild Draw Two"),
    AW_DRAW_FOUR: N_("Wild Draw Four"),
    AW_TARGET: N_("Wild Targeted Draw Two"),
    AW_SWAP: N_("Wild Forced Swap"),
    NM_WILD_REVERSE_FOUR: N_("Wild Reverse Draw Four"),
    NM_WILD_SIX: N_("Wild Draw Six"),
    NM_WILD_TEN: N_("Wild Draw Ten"),
    NM_ROULETTE: N_("Wild Colour Roulette"),
    FL_WILD: N_("Wild"),
    FL_WILD_DRAW_TWO: N_("Wild Draw Two"),
    FL_DARK_WILD: N_("Wild"),
    FL_WILD_DRAW_COLOR: N_("Wild Draw Color"),
}


def card_name(card: int) -> str:
    """A card in words: "blue Draw Two", "Wild Draw Four" ("la carte +2 bleue" in French)."""
    color = CARD_COLOR[card]
    if color < 0:
        return _(_WILDS[card])
    value = CARD_VALUE[card]
    dark = DARK_FACE[card]  # UNO Flip's dark side has colours of its own
    if value <= 9:
        return _((_DARK_NUMBERS if dark else _NUMBERS)[color]).format(number=value)
    return _((_DARK_ACTIONS if dark else _ACTIONS)[value][color])


def cards_text(cards: Sequence[int]) -> str:
    """Cards in words, one after the other: "red 7, blue Skip"."""
    return ", ".join(card_name(c) for c in cards)


def color_name(color: int, dark: bool = False) -> str:
    """A colour in words ("no colour" for a wild card's, before one is called); with ``dark``,
    UNO Flip's dark side's ("pink")."""
    if color < 0:
        return _("no colour")
    return _((DARK_COLOR_WORDS if dark else COLOR_WORDS)[color])


def join_names(names: Sequence[str]) -> str:
    """``"Ana"``, ``"Ana and Ben"``, ``"Ana, Ben and Cleo"`` (in the language in force)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
