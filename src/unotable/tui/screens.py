"""Screens shown over the table: the help, the end of a hand, the end of the game, and a
terminal too small to play. They show public results (the hands laid face up to be counted, the
scores, each player's record) and answer with a word when dismissed. Every word comes from
:mod:`unotable.tui.words`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from unotable.tui import results, words
from unotable.tui.controller import Table
from unotable.tui.record import game_record, hands_left, score_rows
from unotable.tui.widgets import card_text


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

    def __init__(self, body: RenderableType, title: str, *, kind: str, keys: str = "") -> None:
        super().__init__(classes=kind)
        self.body = body
        self.title_text = title
        self.kind = kind
        self.keys = keys

    def compose(self) -> ComposeResult:
        """The text in a scrolling box (↑ ↓ scroll it), the keys on its lower border."""
        box = VerticalScroll()
        box.border_title = self.title_text
        box.border_subtitle = self.keys
        with box:
            yield Static(self.body, id="text-body")


class HelpScreen(TextScreen):
    """Keys and rules; any of Esc, Enter, ?, F1 or Q closes it (it never quits the game)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,f1,q", "dismiss('close')", "Close help"),
    ]

    def __init__(self, body: str) -> None:
        super().__init__(body, words.HELP_TITLE, kind="help")


class GameOverScreen(TextScreen):
    """The end of the game: N asks for a new game with the same settings; Q, Enter or Esc quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "dismiss('new')", "New game"),
        Binding("escape,enter,q", "dismiss('quit')", "Quit"),
    ]

    def __init__(self, body: RenderableType) -> None:
        super().__init__(body, words.GAME_OVER_TITLE, kind="game-over", keys=words.GAME_OVER_KEYS)


class TooSmallScreen(ModalScreen[str]):
    """Said instead of the table while the terminal is too small to draw it (Q still quits)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "dismiss('quit')", "Quit")]

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen > Static { width: 100%; height: auto; padding: 0 1; background: $error 30%; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        """One paragraph: how large the terminal is and how large it must be."""
        yield Static(self.text, id="too-small")

    def say(self, text: str) -> None:
        """Update the sizes shown."""
        self.text = text
        self.query_one("#too-small", Static).update(text)


# ---- what the screens between hands and at the end say


def _grid(*headers: str, right_from: int = 1) -> RichTable:
    grid = RichTable(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    for i, h in enumerate(headers):
        grid.add_column(h, justify="right" if i >= right_from else "left", overflow="fold")
    return grid


def hand_over_body(table: Table) -> RenderableType:
    """After a hand: who went out, every hand laid face up with its points, the scores hand by
    hand, and the keys."""
    g = table.game
    parts: list[RenderableType] = []
    result = g.results[-1] if g.results else None
    if result is not None:
        charged = g.rules.scoring == "lowest" or g.rules.mode in ("challenge", "elimination")
        parts.append(
            Text(
                results.went_out(table.display_name(result.winner), result.hand_points, charged), style="bold"
            )
        )
        out = [p for p in result.deal.seating if p in g.standings().eliminated]
        if out:  # docs/rules.md §10: who this hand put out of the game
            parts.append(Text(words.out_of_the_game([table.display_name(p) for p in out]), style="bold red"))
        parts.append(Text(""))
        parts.append(Text(words.CARDS_LEFT_HEADER, style="bold"))
        left = _grid(words.PLAYER_COLUMN, words.POINTS_COLUMN, words.CARDS_COLUMN, right_from=1)
        left.columns[2].justify = "left"
        for row in hands_left(g):
            cards: RenderableType = (
                Columns([card_text(c) for c in row.cards], padding=(0, 1))
                if row.cards
                else Text(words.WENT_OUT_CELL, style="italic")
            )
            left.add_row(table.display_name(row.player), str(row.points), cards)
        parts.append(left)
        parts.append(Text(""))
    parts.append(scores_by_hand(table))
    return Group(*parts)


def hand_over_keys(table: Table) -> str:
    """The keys of the screen between hands."""
    return words.NEXT_HAND_KEYS + (words.SAVED_NOTE if table.save_path else "")


def scores_by_hand(table: Table) -> RenderableType:
    """The scores hand by hand (by team in partners and teams), with the totals."""
    lines = table.scores_lines()
    grid = _grid(words.HAND_COLUMN, *(name for name, _ in lines))
    for i, credit in enumerate(score_rows(table.game)):
        grid.add_row(str(i + 1), *(str(c) for c in credit))
    grid.add_row(words.TOTAL_ROW, *(str(points) for _, points in lines), style="bold")
    return Group(Text(words.SCORES_BY_HAND, style="bold"), grid)


def game_over_body(table: Table) -> RenderableType:
    """The end of the game: who won, the standings with each player's record, the scores hand
    by hand, the seed (now that the game is over, for a replay), and the keys."""
    g = table.game
    parts: list[RenderableType] = [
        Text(results.game_won([table.display_name(p) for p in g.winners]), style="bold green"),
        Text(""),
    ]
    parts += [standings(table), Text(""), Text(results.replay_line(g.seed))]
    if g.results:
        parts += [Text(""), hand_over_body(table)]
    return Group(*parts)


def standings(table: Table) -> RenderableType:
    """Each player in order of the standings, with their points and their record."""
    g = table.game
    record = game_record(g)
    grid = _grid(*results.record_columns(), right_from=2)
    places = g.standings()
    for p in table.ranking():
        r = record.players[p]
        grid.add_row(
            results.place(places.places[p], places.shares_place(p)),
            table.display_name(p),
            str(table.points_of(p)),
            str(r.hands_won),
            str(r.uno_missed),
            str(r.caught),
            str(r.catches),
            f"{r.challenges_won}/{r.challenges_lost}",
        )
    return Group(Text(words.RECORD_HEADER, style="bold"), grid, Text(words.RECORD_NOTE, style="dim"))
