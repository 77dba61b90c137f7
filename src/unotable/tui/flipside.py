"""UNO Flip in the terminal (docs/rules.md §15): the side in play, the faces of the others' cards
turned towards the human (FL-2), the draw pile's top's other face, and the dark side's colours
and their keys (P T O V, the notation's letters). Like the rest of the board it draws only what
the human's view carries (``View.side``, ``View.backs``, ``View.draw_back``), and every word
comes from the catalogues.

The others' cards are shown as short marks grouped by colour ("pink 5 7 SE · teal +5 · W+C"),
each group on its colour: the colour's word says it in a monochrome terminal (NO_COLOR) too. A
narrow panel gets the colour's initial instead of its word, and what still does not fit is
counted ("(+3)").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Final

from rich.text import Text

from unotable.cards import (
    CARD_CODE,
    CARD_COLOR,
    CARD_VALUE,
    DARK_FACE,
    FL_DARK_WILD,
    FL_DRAW_FIVE,
    FL_DRAW_ONE,
    FL_FLIP,
    FL_WILD,
    FL_WILD_DRAW_COLOR,
    FL_WILD_DRAW_TWO,
    NM_SKIP_ALL,
    REVERSE,
    SKIP,
)
from unotable.i18n import N_, _, pgettext
from unotable.names import color_name
from unotable.tui.controller import card_sort_key
from unotable.tui.widgets import color_style

DARK_KEYS: Final = "PTOV"
"""The keys that call the dark side's colours, by colour index: the notation's letters (pink,
teal, orange, purple: docs/notation.md); the light side's are R Y G B."""
LIGHT_KEYS: Final = "RYGB"
_DARK_BUTTONS: Final = (N_("Pink (P)"), N_("Teal (T)"), N_("Orange (O)"), N_("Purple (V)"))
SIDE_WORDS: Final = (N_("light side"), N_("dark side"))
"""The side in play, for the title line."""
DARK_COLOR_KEYS_ONLY: Final = N_(
    "The dark side is up: its colours are P pink, T teal, O orange and V purple."
)
"""R Y G B pressed on the dark side."""
LIGHT_COLOR_KEYS_ONLY: Final = N_(
    "The light side is up: its colours are R red, Y yellow, G green and B blue."
)
"""T O V pressed on the light side."""


def draw_color_choice(who: str, named: int, held: int, can_challenge: bool) -> str:
    """The answers to a Wild Draw Color played on the human (docs/rules.md §15, FL-7): draw until
    a card of the colour ``named`` comes, or challenge (``held``: the dark colour that was to be
    matched when it was played)."""
    color = color_name(named, True)
    if not can_challenge:
        return _("A: accept (draw until a {color} card comes)").format(color=color)
    if held < 0:
        return _(
            "A: accept (draw until a {color} card comes) · X: challenge ({name} draws until one comes "
            "if they held the colour to match; if not, you draw until one comes and 2 more)"
        ).format(color=color, name=who)
    return _(
        "A: accept (draw until a {color} card comes) · X: challenge ({name} draws until one comes if "
        "they held {held}; if not, you draw until one comes and 2 more)"
    ).format(color=color, name=who, held=color_name(held, True))


def side_word(side: int) -> str:
    """``"light side"`` or ``"dark side"``, in the language in force."""
    return _(SIDE_WORDS[side])


def dark_button(color: int) -> str:
    """The label of the button that calls a dark colour, with its key."""
    return _(_DARK_BUTTONS[color])


def color_keys(dark: bool) -> str:
    """The four keys that call a colour on the side in play."""
    return DARK_KEYS if dark else LIGHT_KEYS


def mark(card: int) -> str:
    """A card's short mark on the others' panels: its number, or its action's ("+5", "SE"), or
    its wild card's ("W", "W+C"); its colour is the group's."""
    value = CARD_VALUE[card]
    if CARD_COLOR[card] >= 0 and value <= 9:
        return str(value)
    marks = {
        SKIP: pgettext("card mark", "S"),
        REVERSE: pgettext("card mark", "R"),
        FL_DRAW_ONE: pgettext("card mark", "+1"),
        FL_FLIP: pgettext("card mark", "F"),
        FL_DRAW_FIVE: pgettext("card mark", "+5"),
        NM_SKIP_ALL: pgettext("card mark", "SE"),
        FL_WILD: pgettext("card mark", "W"),
        FL_DARK_WILD: pgettext("card mark", "W"),
        FL_WILD_DRAW_TWO: pgettext("card mark", "W+2"),
        FL_WILD_DRAW_COLOR: pgettext("card mark", "W+C"),
    }
    return marks.get(value) or CARD_CODE[card]  # a Flip face always has one; the code otherwise


def _initial(color: int, dark: bool) -> str:
    """A colour's initial, for narrow panels (each side's four are distinct in every language)."""
    if dark:
        return (
            pgettext("colour initial", "P"),
            pgettext("colour initial", "T"),
            pgettext("colour initial", "O"),
            pgettext("colour initial", "V"),
        )[color]
    return (
        pgettext("colour initial", "R"),
        pgettext("colour initial", "Y"),
        pgettext("colour initial", "G"),
        pgettext("colour initial", "B"),
    )[color]


def _groups(cards: Sequence[int], short: bool) -> list[tuple[str, str]]:
    """(text, style) of each colour's group of ``cards``, sorted as a hand is, wild cards last."""
    out = []
    ordered = sorted(cards, key=card_sort_key)
    for color, group in groupby(ordered, key=lambda c: CARD_COLOR[c]):
        members = list(group)
        dark = DARK_FACE[members[0]]
        marks = " ".join(mark(c) for c in members)
        if color >= 0:
            label = _initial(color, dark) if short else color_name(color, dark)
            text = f"{label}{marks}" if short else f"{label} {marks}"
        else:
            text = marks
        out.append((f" {text} ", color_style(color, dark)))
    return out


def faces_text(cards: Sequence[int], width: int, lines: int = 1, label: str = "") -> Text:
    """``cards`` (the faces of a hand turned towards the human) as their colours' groups of marks,
    after ``label``, in at most ``lines`` lines of ``width`` columns: with the colours' words if
    they fit, else their initials ("P5 7 SE"), else as many cards as fit and how many are
    left out ("P5 7 (+3)")."""
    for short in (False, True):
        groups = _groups(cards, short)
        text = _lay_out(groups, width, lines, label)
        if text is not None:
            return text
    ordered = sorted(cards, key=card_sort_key)
    for keep in range(len(ordered) - 1, -1, -1):  # the first cards that fit, then how many more
        shown = _groups(ordered[:keep], True)
        text = _lay_out([*shown, (f" {more(len(ordered) - keep)}", "bold")], width, lines, label)
        if text is not None:
            return text
    return Text(f"{label} {more(len(cards))}", style="bold")  # a width even that does not fit


def more(count: int) -> str:
    """How many of the others' cards a panel too narrow for them all leaves out ("(+3)")."""
    return f"(+{count})"


def _lay_out(groups: Sequence[tuple[str, str]], width: int, lines: int, label: str) -> Text | None:
    """The groups after ``label`` in lines that break between two groups, or None when they need
    more than ``lines`` lines. Each group has a space at either end: two groups side by side
    are two spaces apart, on their colours or without."""
    out = Text(label)
    column = len(label)
    used = 1
    for text, style in groups:
        if column + len(text) > width:
            if column == 0 or used == lines:
                return None
            out.append("\n")
            used += 1
            column = 0
        out.append(text, style=style)
        column += len(text)
    return out
