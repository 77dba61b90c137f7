"""The house rules of RULES §11 in the terminal game: a human jumps in with J while the bots
think, names the seat a 7 swaps with, and sees the stack's total; ``--house`` sets them up."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys

from rich.console import Console

from unotable.bots import Bot, make_bot
from unotable.cards import CARD_VALUE, SEVEN
from unotable.cli import build_parser
from unotable.match import Game
from unotable.rules import HOUSE_PRESETS, Rules, parse_house
from unotable.state import Phase
from unotable.tui.app import UnoApp
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, Table, card_sort_key
from unotable.tui.launch import setup

NEVER = 10_000.0
"""A bot delay no test waits out: the test moves the clock with ``advance_clock``."""


def screen_text(app: UnoApp) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def human_actions(table: Table) -> list[str]:
    return [a for hand in table.game.to_dict()["hands"] for seat, a in hand if seat == 0]


def party_table(seed: int) -> Table:
    rules = Rules(players=3, target=300, **parse_house("party"))
    game = Game.new(rules, seed)
    bots: dict[int, Bot] = {p: make_bot("greedy", seed * 10 + p, jump_in=0.0) for p in (1, 2)}
    return Table(game, bots, human=0, names=["You", *BOT_NAMES_FOR_PEOPLE[1:3]], seed=seed)


def test_a_human_jumps_in_with_j_and_names_the_seat_a_seven_swaps_with() -> None:
    table = party_table(4)
    app = UnoApp(table, delay=NEVER)
    seen: dict[str, bool] = {"jump": False, "swap_prompt": False, "stack_total": False}

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(4000):
                if table.game.finished or (seen["jump"] and seen["swap_prompt"]):
                    return
                if app.between_hands:
                    await pilot.press("enter")
                    continue
                v = table.view()
                ch = table.choices()
                if v is None:
                    app.advance_clock()
                    continue
                if ch.uno is not None:
                    await pilot.press("u")
                elif app.picking in ("color", "invis"):
                    await pilot.press("r")
                elif app.picking == "target":
                    seen["swap_prompt"] |= "Swap hands with whom?" in screen_text(app)
                    await pilot.press(str((v.seat + 1) % 3))
                elif v.current != v.seat and ch.plays:
                    await pilot.pause()
                    assert "J jumps in" in screen_text(app), screen_text(app)
                    before = len(human_actions(table))
                    await pilot.press("j")
                    if app.picking == "target":
                        await pilot.press(str((v.seat + 1) % 3))
                    acts = human_actions(table)
                    assert len(acts) == before + 1 and acts[-1].startswith("play "), acts[-3:]
                    seen["jump"] = True
                elif v.current != v.seat:
                    if not app.advance_clock():
                        raise AssertionError("stuck")
                elif v.phase == Phase.RESPOND:
                    if v.pending_draw > 2:
                        seen["stack_total"] |= f"draw {v.pending_draw}" in screen_text(app)
                    await pilot.press("a")
                elif v.phase == Phase.CHOOSE_COLOR:
                    await pilot.press("g")
                elif v.phase == Phase.AFTER_DRAW:
                    await pilot.press("p")
                elif not ch.plays:
                    await pilot.press("d")
                else:
                    hand = sorted(v.hand, key=card_sort_key)
                    sevens = [i for i, c in enumerate(hand) if c in ch.plays and CARD_VALUE[c] == SEVEN]
                    index = sevens[0] if sevens else next(i for i, c in enumerate(hand) if c in ch.plays)
                    app.cursor = index
                    await pilot.press("enter")

    asyncio.run(go())
    assert seen["jump"], "no chance to jump in came up"
    assert seen["swap_prompt"], "no 7 was played"


def test_play_takes_house_rules_and_saves_them() -> None:
    parser = build_parser()
    args = parser.parse_args(["play", "--auto", "--fast", "--house", "popular,jump_in", "--seed", "5"])
    made = setup(args)
    assert made.table.game.rules.house == {**HOUSE_PRESETS["popular"], "jump_in": True}
    saved = made.table.game.to_dict()["rules"]
    assert saved["stacking"] == "same" and saved["draw_to_match"] is True and saved["jump_in"] is True


def test_a_bots_only_game_with_every_house_rule_as_text() -> None:
    argv = ["play", "--auto", "--fast", "--text", "--target", "100", "--seed", "3", "--house", "party"]
    argv += ["--bots", "greedy,random,cautious,search:budget=10"]
    proc = subprocess.run(
        [sys.executable, "-m", "unotable", *argv], capture_output=True, text=True, check=False, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-2].startswith("Game over:")
    assert proc.stderr == ""
