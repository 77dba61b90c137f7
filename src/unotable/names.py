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
    DRAW_THREE,
    DRAW_TWO,
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
}


def card_name(card: int) -> str:
    """A card in words: "blue Draw Two", "Wild Draw Four" ("la carte +2 bleue" in French)."""
    color = CARD_COLOR[card]
    if color < 0:
        return _(_WILDS[card])
    value = CARD_VALUE[card]
    if value <= 9:
        return _(_NUMBERS[color]).format(number=value)
    return _(_ACTIONS[value][color])


def cards_text(cards: Sequence[int]) -> str:
    """Cards in words, one after the other: "red 7, blue Skip"."""
    return ", ".join(card_name(c) for c in cards)


def color_name(color: int) -> str:
    """A colour in words ("no colour" for a wild card's, before one is called)."""
    return _(COLOR_WORDS[color]) if color >= 0 else _("no colour")


def join_names(names: Sequence[str]) -> str:
    """``"Ana"``, ``"Ana and Ben"``, ``"Ana, Ben and Cleo"`` (in the language in force)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
