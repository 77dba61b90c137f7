"""The terminal game in Portuguese and French (issue 25), and its three fixes: the box between
hands says which key goes on, a stack prompt puts the cursor on a card that may answer it, and
the cards on an opponent's panel never wrap in the middle of a card."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from test_tui import NEVER, screen_text
from unotable.bots import Bot, make_bot
from unotable.cards import CARD_VALUE, DRAW_TWO, SKIP, WILD_DRAW_FOUR, card_type
from unotable.i18n import _, set_language
from unotable.match import Game
from unotable.names import card_name
from unotable.rules import Rules, parse_house
from unotable.state import Phase
from unotable.tui import words
from unotable.tui.app import UnoApp
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, HUMAN_NAME, Table, card_sort_key
from unotable.tui.widgets import cards_in_lines


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def stacking_table(seed: int) -> Table:
    rules = Rules(players=3, target=200, **parse_house("stacking=any"))
    game = Game.new(rules, seed)
    bots: dict[int, Bot] = {p: make_bot("greedy", seed * 10 + p) for p in (1, 2)}
    return Table(game, bots, human=0, names=[_(HUMAN_NAME), *BOT_NAMES_FOR_PEOPLE[1:3]], seed=seed)


@pytest.mark.parametrize("lang", ["fr", "pt"])
def test_a_game_on_the_screen_in_the_language_with_its_keys_and_stack_cursor(lang: str) -> None:
    """A human's game in French or Portuguese: the table, prompts and the box between hands are in
    the language (the box names the key that goes on), and each time a draw card waits for an
    answer a stack allows, the cursor is on a card that may answer (it was put on a number card
    while the others played)."""
    set_language(lang)
    table = stacking_table(5)
    app = UnoApp(table, delay=NEVER)
    seen = {"box_keys": False, "stack_prompts": 0, "table": False}
    next_hand = {"fr": "Entrée : manche suivante", "pt": "Enter: mão seguinte"}[lang]
    your_turn = {"fr": "À toi : ", "pt": "A tua vez: "}[lang]

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _step in range(3000):
                if table.game.finished or (seen["box_keys"] and seen["stack_prompts"] >= 2):
                    return
                if app.between_hands:
                    await pilot.pause()
                    text = screen_text(app)
                    assert next_hand in text, text
                    seen["box_keys"] = True
                    await pilot.press("enter")
                    continue
                v = table.view()
                ch = table.choices()
                if v is None:
                    app.advance_clock()
                    continue
                hand = sorted(v.hand, key=card_sort_key)
                if ch.uno is not None:
                    await pilot.press("u")
                elif app.picking in ("color", "invis"):
                    await pilot.press("r")
                elif v.current != v.seat:
                    numbers = [i for i, c in enumerate(hand) if CARD_VALUE[c] <= 9]
                    if numbers:
                        app.cursor = numbers[-1]  # a card that never answers a stack
                    if not app.advance_clock():
                        raise AssertionError("stuck")
                elif v.phase == Phase.RESPOND:
                    if ch.plays:
                        await pilot.pause()
                        assert hand[app.cursor] in ch.plays, (hand, app.cursor, ch.plays)
                        seen["stack_prompts"] += 1
                        await pilot.press("enter")
                    else:
                        await pilot.press("a")
                elif v.phase == Phase.CHOOSE_COLOR:
                    await pilot.press("g")
                elif v.phase == Phase.AFTER_DRAW:
                    await pilot.press("p")
                elif not ch.plays:
                    await pilot.press("d")
                else:
                    if not seen["table"]:
                        await pilot.pause()
                        text = screen_text(app)
                        assert your_turn in text, text
                        seen["table"] = True
                    app.cursor = next(i for i, c in enumerate(hand) if c in ch.plays)
                    await pilot.press("enter")

    asyncio.run(go())
    assert seen["box_keys"], "no hand ended"
    assert seen["stack_prompts"] >= 1, "no stack came to the human"
    assert seen["table"]


@pytest.mark.parametrize("lang", ["en", "pt", "fr"])
@pytest.mark.parametrize("width", [12, 18, 25, 31, 40])
def test_cards_on_a_panel_break_between_cards_only(lang: str, width: int) -> None:
    set_language(lang)
    cards = [
        card_type(2, DRAW_TWO),
        WILD_DRAW_FOUR,
        card_type(3, SKIP),
        card_type(0, 7),
        card_type(1, DRAW_TWO),
    ]
    text = cards_in_lines(words.SHOWN, cards, width)
    lines = text.plain.split("\n")
    names = [f" {card_name(c)} " for c in cards]
    flat = " ".join(line.strip() for line in lines)
    for name in names:
        assert any(name.strip() in line for line in lines), (name, lines)  # whole on one line
        assert name.strip() in flat
    for line in lines:  # a line is over the width only when it holds a single card wider than it
        if len(line) > width:
            assert sum(name.strip() in line for name in names) == 1 and line.strip() in (
                *(n.strip() for n in names),
                (words.SHOWN + names[0]).strip(),
            ), (line, width)
