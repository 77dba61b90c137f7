"""Widgets of the terminal game: card faces, the hand, opponents' panels and the draw pile. They
display what they are given; the app decides what that is, from the human's view only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text
from textual.containers import HorizontalScroll
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from unotable.cards import CARD_COLOR, DARK_FACE
from unotable.tui import words

COLOR_CLASSES: Final = ("red", "yellow", "green", "blue")
"""CSS class of each colour index (wild cards: ``wild``)."""
DARK_CLASSES: Final = ("pink", "teal", "orange", "purple")
"""UNO Flip's dark side (docs/rules.md §15): CSS class of each of its colours (its wild cards:
``darkwild``)."""
COLOR_STYLES: Final = ("bold white on #c62828", "bold black on #f9a825", "bold white on #2e7d32",
                       "bold white on #1565c0")  # fmt: skip
"""Rich styles of each colour, for text (a card's name, a colour to match)."""
DARK_STYLES: Final = ("bold white on #e0218a", "bold black on #00a5a5", "bold black on #ff7f11",
                      "bold white on #6a1b9a")  # fmt: skip
"""Rich styles of the dark side's colours (pink, teal, orange, purple): in 256 colours each far
from the light colour it stands for (pink 162 and red 160, teal 37 and green 29, orange 208 and
yellow 214, purple 54 and blue 25), its words at a contrast of 4.4 to 9.4, and each of its own
lightness in a monochrome terminal (NO_COLOR), where the card's name says its colour anyway."""
CARD_CLASSES: Final = (*COLOR_CLASSES, "wild", *DARK_CLASSES, "darkwild")
"""Every CSS class of a card face's colour."""
WILD_STYLE: Final = "bold white on #333333"
DARK_WILD_STYLE: Final = "bold #ff7f11 on #111111"
"""The dark side's wild cards: black, their words in its orange."""


def color_style(color: int, dark: bool = False) -> str:
    """The Rich style of a colour (``dark``: UNO Flip's dark side's) or, below 0, of a wild card."""
    if color < 0:
        return DARK_WILD_STYLE if dark else WILD_STYLE
    return (DARK_STYLES if dark else COLOR_STYLES)[color]


def card_style(card: int) -> str:
    """The Rich style of a card's name in running text."""
    return color_style(CARD_COLOR[card], DARK_FACE[card])


def card_class(card: int) -> str:
    """The CSS class of a card face: its colour's, or ``wild`` (``darkwild`` on UNO Flip's dark side)."""
    color = CARD_COLOR[card]
    if DARK_FACE[card]:
        return DARK_CLASSES[color] if color >= 0 else "darkwild"
    return COLOR_CLASSES[color] if color >= 0 else "wild"


def card_text(card: int) -> Text:
    """A card's name in words on its colour ("blue Draw Two")."""
    return Text(f" {words.card_name(card)} ", style=card_style(card))


def cards_text(cards: Sequence[int]) -> Text:
    """Cards' names in words on their colours, separated by spaces."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


def cards_in_lines(label: str, cards: Sequence[int], width: int) -> Text:
    """``label`` then the cards' names on their colours, in lines of ``width`` columns that break
    only between two cards, never inside one ("blue Draw Two" stays whole; a card wider than a
    line gets a line of its own)."""
    out = Text(label)
    column = len(label)
    for i, card in enumerate(cards):
        piece = card_text(card)
        gap = 1 if i else 0
        if column + gap + len(piece) > width and column > 0:
            out.append("\n")
            column = 0
            gap = 0
        if gap:
            out.append(" ")
        out.append_text(piece)
        column += gap + len(piece)
    return out


def color_text(color: int, dark: bool = False) -> Text:
    """A colour's name on its colour (``dark``: a colour of UNO Flip's dark side)."""
    if color < 0:
        return Text(words.COLOR_TO_CALL, style="bold")
    return Text(f" {words.color_name(color, dark).upper()} ", style=color_style(color, dark))


class CardView(Static):
    """One card face, coloured; clicking it asks to play it."""

    class Chosen(Message):
        """The card at ``index`` of the hand was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, card: int, index: int = -1, *, id: str | None = None) -> None:
        super().__init__(classes="card", id=id)
        self.card = card
        self.index = index
        self.set_card(card)
        self.can_focus = False

    def set_card(self, card: int) -> None:
        """Show ``card``."""
        mine = card_class(card)
        for cls in CARD_CLASSES:
            self.set_class(cls == mine, cls)
        self.card = card
        value, name = words.card_face(card)
        self.update(Text(f"{value}\n{name}", justify="center"))
        if self.index >= 0:
            self.border_title = str((self.index + 1) % 10) if self.index < 10 else ""

    def on_click(self, event: Click) -> None:
        """A click on a card of the hand plays it."""
        event.stop()
        if self.index >= 0:
            self.post_message(self.Chosen(self.index))


class HandRow(HorizontalScroll):
    """The human's hand, sorted, with a cursor; playable cards bright, the others dimmed.

    Card widgets are kept and reused (hidden when the hand shrinks): remounting them on every
    change would restyle the whole row."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[int, ...] = ()
        self.views: list[CardView] = []
        self._last: tuple[tuple[int, ...], int, frozenset[int]] | None = None

    def show(self, cards: Sequence[int], cursor: int, playable: set[int]) -> None:
        """Show ``cards`` with the cursor on ``cursor``; cards not in ``playable`` are dimmed."""
        cards = tuple(cards)
        key = (cards, cursor, frozenset(playable))
        if key == self._last:
            return
        self._last = key
        self.cards = cards
        if len(self.views) < len(cards):
            new = [CardView(c, i) for i, c in enumerate(cards[len(self.views) :], start=len(self.views))]
            self.views += new
            self.mount_all(new)
        for i, w in enumerate(self.views):
            if i < len(cards):
                if w.card != cards[i]:
                    w.set_card(cards[i])
                w.display = True
                w.set_class(i == cursor, "selected")
                w.set_class(cards[i] not in playable, "dim")
            else:
                w.display = False
        if 0 <= cursor < len(cards):
            target = self.views[cursor]
            self.call_after_refresh(self.scroll_to_widget, target, animate=False)


class OpponentPanel(Static):
    """One other seat: name, card count, score, cards known to the human, and its UNO state.
    Clicking it catches the player (when exposed) or chooses them as a Howler's target."""

    class Clicked(Message):
        """The panel of ``seat`` was clicked."""

        def __init__(self, seat: int) -> None:
            self.seat = seat
            super().__init__()

    def __init__(self, seat: int) -> None:
        super().__init__(classes="opponent")
        self.seat = seat
        self.can_focus = False

    def on_click(self, event: Click) -> None:
        """Tell the app which panel was clicked."""
        event.stop()
        self.post_message(self.Clicked(self.seat))


class DrawPile(Static):
    """The draw pile; clicking it draws."""

    class Clicked(Message):
        """The draw pile was clicked."""

    def on_click(self, event: Click) -> None:
        """Tell the app to draw."""
        event.stop()
        self.post_message(self.Clicked())
