"""Screens shown over the table: the help, the end of a hand, the end of the game. They show
what the app gives them (text built from public results and the human's view) and answer with a
word when dismissed."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class TextScreen(ModalScreen[str]):
    """A page of text over the table (help, the end of a hand); its keys dismiss it with a word."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss('close')", "Close"),
        Binding("enter", "dismiss('next')", "Continue"),
        Binding("q", "dismiss('quit')", "Quit"),
    ]

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll {
        width: 80; max-width: 100%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, body: Text | str, title: str, *, kind: str) -> None:
        super().__init__(classes=kind)
        self.body = body
        self.title_text = title
        self.kind = kind

    def compose(self) -> ComposeResult:
        """The text in a scrolling box."""
        box = VerticalScroll()
        box.border_title = self.title_text
        with box:
            yield Static(self.body, id="text-body")


class HelpScreen(TextScreen):
    """Keys and rules; any of Esc, Enter, ?, F1 or Q closes it (it never quits the game)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,f1,q", "dismiss('close')", "Close help"),
    ]

    def __init__(self, body: str) -> None:
        super().__init__(body, "Help (Esc closes)", kind="help")
