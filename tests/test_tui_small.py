"""The terminal game at 80x24, the smallest common terminal (issue 34): when your first turn
comes, the log shows the whole play before it: every line since the first card or since you
last acted (a forced draw, a skip), whichever is later."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console

from unotable.bots import Bot, make_bot
from unotable.match import Game
from unotable.rules import Rules
from unotable.tui import words
from unotable.tui.app import UnoApp
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, Table
from unotable.tui.widgets import card_text

SMALL = (80, 24)
LOG_ROWS = 6
"""The log's lines at 80x24."""
NEVER = 10_000.0
"""A bot delay no test waits out: the test moves the clock with ``advance_clock``."""
FIRST_CARD = "The first card is"
YOU = "You "
"""Your own lines (drew, are skipped, played) in English, the tests' language."""


def make_table(seed: int) -> Table:
    """You at seat 0 against three greedy bots."""
    game = Game.new(Rules(players=4, target=100), seed)
    bots: dict[int, Bot] = {p: make_bot("greedy", seed * 10 + p) for p in range(1, 4)}
    return Table(game, bots, human=0, names=["You", *BOT_NAMES_FOR_PEOPLE[1:4]], seed=seed)


def screen_text(app: UnoApp) -> str:
    console = Console(width=SMALL[0], height=SMALL[1], file=io.StringIO(), record=True, force_terminal=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


async def first_turn(app: UnoApp) -> tuple[list[str], str]:
    """The log's lines since the first card or your last act, and the screen, once it is your turn."""
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(200):
            await pilot.pause()
            if app.table.game.current_player == 0 and not app.busy:
                break
            app.advance_clock()
        text = screen_text(app)
        for _ in range(100):  # the log scrolls to its end with an animation
            await pilot.pause(0.02)
            again = screen_text(app)
            if again == text:
                break
            text = again
        history = app.log_history
        first = max(i for i, line in enumerate(history) if line.startswith(FIRST_CARD))
        start = max(i for i, line in enumerate(history) if i == first or (i > first and line.startswith(YOU)))
        return history[start + 1 :], text


def test_the_play_before_your_first_turn_is_on_the_screen_at_80x24() -> None:
    busy = 0
    for seed in range(1, 40):
        app = UnoApp(make_table(seed), delay=NEVER)
        lines, text = asyncio.run(first_turn(app))
        # A quiet first round (4 lines) fitted before; 5 or 6 lines are the usual busy round (a
        # Draw Two and its skip) and must fit now. Longer ones (Reverses back and forth) still
        # scroll: PageUp shows them (docs/architecture.md).
        if not 5 <= len(lines) <= LOG_ROWS:
            continue
        busy += 1
        for line in lines:
            assert line[:60] in text, f"seed {seed}: {line!r} is not on the screen:\n{text}"
        if busy == 2:
            break
    assert busy == 2, "fewer than two first rounds of 5 or 6 lines among these seeds"


def test_a_bot_s_last_card_stays_on_its_panel_at_80x24() -> None:
    # A compact panel has one line for the last move: "played" and a long card (green Draw Two)
    # do not fit 22 columns together, and the card went to a line the panel cannot show.
    long_ones = 0
    for seed in range(1, 40):
        app = UnoApp(make_table(seed), delay=NEVER)
        _lines, text = asyncio.run(first_turn(app))
        panels = "\n".join(text.splitlines()[1:5])
        for seat, last in app.last_moves.items():
            if seat == 0 or not isinstance(last, int):
                continue
            name = card_text(last).plain.strip()
            assert name in panels, f"seed {seed}: {name!r} is not on its panel:\n{panels}"
            long_ones += len(words.LAST_PLAYED) + len(card_text(last).plain) > 22
        if long_ones >= 2:
            break
    assert long_ones >= 2, "fewer than two long cards on the panels among these seeds"


def test_a_flip_game_on_the_dark_side_fits_80x24() -> None:
    """UNO Flip on its dark side at 80x24: the side in the title, each opponent's count with the
    faces of their cards turned to you (their colours' initials, and how many more, on a compact
    panel), the draw pile with its top card's other face, the top card, the prompt, your hand
    and the log's newest line are all on the screen."""
    from test_tui import drive, settled_screen  # noqa: PLC0415
    from test_tui_flip import SEED, FlipHuman  # noqa: PLC0415 - the scripted Flip player
    from unotable.rules import FLIP  # noqa: PLC0415
    from unotable.state import Phase  # noqa: PLC0415
    from unotable.tui import flipside  # noqa: PLC0415

    game = Game.new(Rules(edition=FLIP, players=4, target=2000), SEED)
    bots: dict[int, Bot] = {p: make_bot("greedy", SEED * 10 + p) for p in range(1, 4)}
    table = Table(game, bots, human=0, names=["You", *BOT_NAMES_FOR_PEOPLE[1:4]], seed=SEED)
    app = UnoApp(table, delay=NEVER)

    async def go() -> tuple[str, bool]:
        async with app.run_test(size=SMALL) as pilot:

            def dark_turn() -> bool:
                v = table.view()
                return v is not None and v.side == 1 and v.current == v.seat and v.phase == Phase.TURN

            await drive(app, pilot, FlipHuman(), dark_turn)
            return await settled_screen(app, pilot), app.compact

    text, compact = asyncio.run(go())
    v = table.view()
    assert v is not None and compact
    lines = text.splitlines()
    assert lines[0].lstrip().startswith("dark side · UNO Flip"), lines[0]
    width = 80 // 3 - 4
    for seat in range(1, 4):
        rows = 1 if seat in app.last_moves else 2  # a compact panel's two lines, less the last move
        faces = flipside.faces_text(v.backs[seat], width, rows, f"{v.hand_sizes[seat]}:").plain
        for line in faces.split("\n"):
            assert line.strip() in text, f"seat {seat}: {line!r} is not on the screen:\n{text}"
    assert f"{words.DRAW_PILE} {v.draw_pile_size}" in text
    assert flipside.faces_text([v.draw_back], 10).plain.strip() in text
    assert card_text(v.top).plain.strip() in text and "Your turn:" in text and "Your hand:" in text
    assert app.log_history[-1][:60] in text
