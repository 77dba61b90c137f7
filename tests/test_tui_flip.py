"""UNO Flip in the terminal (docs/rules.md §15): a game by keys through the human's own Flip, the
dark side's colours called with P T O V, what the screen shows of the others' cards (the faces
turned towards the human, FL-2) and of the draw pile, and nothing hidden on it."""

from __future__ import annotations

import random
import re

import pytest
from textual.widgets import Static

from test_tui import NEVER, SIZE, Human, drive, human_actions, make_table, run, screen_text, settled_screen
from unotable.cards import CARD_BY_CODE, CARD_VALUE, FL_FLIP
from unotable.cli import build_parser
from unotable.match import Game
from unotable.names import color_name
from unotable.state import Phase
from unotable.tui import flipside, words
from unotable.tui.app import UnoApp
from unotable.tui.controller import card_sort_key
from unotable.tui.launch import setup
from unotable.tui.widgets import DrawPile, OpponentPanel, card_class
from unotable.views import View, view

SEED = 5
"""A four-player Flip game in which the human plays a Flip early and calls a dark colour."""


class FlipHuman(Human):
    """The scripted human, who plays a Flip whenever one plays and calls the dark side's colours
    with its keys (O, orange, for a wild card; T, teal, when the phase asks)."""

    def keys(self, app: UnoApp) -> list[str]:
        v = app.table.view()
        dark = v is not None and v.side == 1
        if dark and app.picking in ("color", "invis"):
            return ["o"]
        if v is not None and v.current == v.seat and not app.picking and v.phase == Phase.TURN:
            ch = app.table.choices()
            hand = sorted(v.hand, key=card_sort_key)
            flips = [i for i, c in enumerate(hand) if c in ch.plays and CARD_VALUE[c] == FL_FLIP]
            if flips and flips[0] < 10 and ch.uno is None and not ch.catch and len(hand) > 2:
                return [str((flips[0] + 1) % 10), "enter"]
        keys = super().keys(app)
        return ["t"] if dark and keys == ["g"] else keys


def cards(*codes: str) -> list[int]:
    return [CARD_BY_CODE[c] for c in codes]


def test_the_others_faces_by_colour_in_words_then_initials_then_counted() -> None:
    faces = cards("T+5", "P7", "DW+C", "PSE", "P5")
    assert flipside.faces_text(faces, 60).plain == " pink 5 7 SE  teal +5  W+C "
    assert flipside.faces_text(faces, 18, 2).plain == " pink 5 7 SE \n teal +5  W+C "
    # too narrow for the words: the colours' initials (R Y G B on the light side)
    assert flipside.faces_text(faces, 22, 1, "5:").plain == "5: P5 7 SE  T+5  W+C "
    light = cards("R1", "Y+1", "GF", "LW+2")
    assert flipside.faces_text(light, 32).plain == " red 1  yellow +1  green F  W+2 "
    # too narrow even so: the cards that fit, and how many are left out
    assert flipside.faces_text(faces, 18, 1, "5:").plain == "5: P5 7 SE  (+2)"
    assert flipside.faces_text(faces, 13, 1, "5:").plain == "5: P5 7  (+3)"
    assert flipside.faces_text(faces, 9, 2, "5:").plain == "5: P5 7 \n (+3)"
    assert flipside.faces_text(faces, 6, 1).plain == " (+5)"


def check_the_faces_turned_to_you(app: UnoApp, v: View) -> None:
    """Each opponent's panel shows its cards' other faces (the view's, for that seat); the draw
    pile shows its top card's other face."""
    for panel in app.query(OpponentPanel):
        faces = v.backs[panel.seat]
        assert len(faces) == v.hand_sizes[panel.seat] > 0
        width = max(4, app.size.width // len(v.backs[1:]) - 4)
        expected = flipside.faces_text(faces, width, 2).plain
        assert expected.strip() and expected in str(panel.render()), (panel.seat, expected)
    assert v.draw_back >= 0
    value, color = words.card_face(v.draw_back)
    pile = str(app.query_one("#pile", DrawPile).render())
    assert value in pile and color in pile
    assert app.query_one("#pile", DrawPile).has_class(card_class(v.draw_back))


def test_a_flip_game_by_keys_through_a_flip_and_the_dark_colours() -> None:
    """The human plays a Flip: the log says everything turns over, the title says the dark side
    is up, the panels show the others' faces turned towards the human on both sides, and a
    wild card's colour is called with the dark side's keys."""
    table = make_table(SEED, edition="flip", players=4, target=2000)
    app = UnoApp(table, delay=NEVER)
    human = FlipHuman()
    seen: dict[int, str] = {}

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def done() -> bool:
                v = table.view()
                mine = v is not None and v.current == v.seat and v.phase == Phase.TURN
                if v is not None and mine and not app.picking and v.side not in seen:
                    check_the_faces_turned_to_you(app, v)
                    seen[v.side] = screen_text(app)
                acts = human_actions(table)
                flipped = any(re.fullmatch(r"play [RYGBPTOV]F( uno)?", a) for a in acts)
                dark_call = any(re.match(r"play DW(\+C)? [PTOV]|color [PTOV]", a) for a in acts)
                return flipped and dark_call and len(seen) == 2

            await drive(app, pilot, human, done)
            assert "UNO Flip" in await settled_screen(app, pilot)

    run(go)
    log = "\n".join(app.log_history)
    assert "Everything turns over: the dark side is up." in log
    assert "dark side · UNO Flip" in seen[1] and "light side · UNO Flip" in seen[0]
    for name in ("pink", "teal", "orange", "purple"):
        assert name in seen[0], f"the light side's screen shows the others' dark faces ({name})"


def test_the_colour_keys_are_the_side_in_plays() -> None:
    """On the dark side R Y G B say which keys call its colours, and P T O V call them; the
    buttons are the dark side's."""
    table = make_table(SEED, edition="flip", players=4, target=2000)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def calling_dark() -> bool:
                v = table.view()
                return v is not None and v.side == 1 and app.key_is_live("dark_color")

            await drive(app, pilot, ColourWaiter(), calling_dark)
            before = human_actions(table)
            await pilot.press("r")
            assert human_actions(table) == before
            assert "its colours are P pink, T teal, O orange and V purple" in screen_text(app)
            assert "Purple (V)" in screen_text(app) and "Blue (B)" not in screen_text(app)
            await pilot.press("v")
            assert human_actions(table)[-1].endswith(" V") or human_actions(table)[-1].endswith(" V uno")

    run(go)


class ColourWaiter(FlipHuman):
    """FlipHuman who stops at the first dark colour to call (the test presses the keys)."""

    def keys(self, app: UnoApp) -> list[str]:
        v = app.table.view()
        if v is not None and v.side == 1 and app.key_is_live("dark_color"):
            return []
        return super().keys(app)


def flip_twin(game: Game, seat: int, rng: random.Random) -> Game:
    """The same UNO Flip game with every face ``seat`` cannot see dealt anew: the faces in play
    of the other hands and of the draw pile, shuffled among those places (sizes kept), each
    other face staying where it is (those are what ``seat`` sees, FL-2)."""
    twin = Game.from_json(game.to_json())
    st = twin.state  # the twin is the test's own: rearranging its hidden faces is the point
    others = [s for s in range(st.n) if s != seat]
    pool = [c for s in others for c in st.hands[s]] + st.draw
    rng.shuffle(pool)
    for s in others:
        size = len(st.hands[s])
        st.hands[s], pool = pool[:size], pool[size:]
    st.draw = pool
    return twin


@pytest.mark.parametrize("size", [SIZE, (80, 24)])
def test_the_screen_is_the_same_whatever_the_hidden_faces(size: tuple[int, int]) -> None:
    """At the human's decisions on both sides, the screen of a game whose hidden faces are dealt
    anew is the real game's: only the faces turned to the human reach the screen."""
    table = make_table(SEED, edition="flip", players=4, target=2000)
    app = UnoApp(table, delay=NEVER)
    rng = random.Random(SEED)
    sides: list[int] = []
    dealt_anew: list[bool] = []

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            human = FlipHuman()
            for _ in range(400):
                if len(sides) >= 6 and set(sides) == {0, 1}:
                    break
                keys = human.keys(app)
                v = table.view()
                if keys and v is not None and v.current == v.seat and not app.picking:
                    real = table.game
                    twin = flip_twin(real, 0, rng)
                    assert view(twin.state, 0).backs == v.backs
                    dealt_anew.append(twin.state.hands[1:] != real.state.hands[1:])
                    before = await settled_screen(app, pilot)
                    table.game = twin
                    app.refresh_table()
                    after = await settled_screen(app, pilot)
                    table.game = real
                    app.refresh_table()
                    await pilot.pause()
                    assert after == before
                    sides.append(v.side)
                if keys:
                    for key in keys:
                        await pilot.press(key)
                elif not app.advance_clock():
                    break

    run(go)
    assert len(sides) >= 6 and set(sides) == {0, 1}, sides
    assert sum(dealt_anew) >= 3, "the hidden faces were dealt differently"


def test_uno_play_offers_flip() -> None:
    game = setup(build_parser().parse_args(["play", "--edition", "flip", "--seed", "3"])).table.game
    assert game.rules.edition.name == "flip"


class DrawCardWaiter(FlipHuman):
    """FlipHuman who stops when a Wild Draw Two or a Wild Draw Color waits for their answer."""

    def keys(self, app: UnoApp) -> list[str]:
        return [] if facing_a_wild_draw(app) else super().keys(app)


def facing_a_wild_draw(app: UnoApp) -> bool:
    v = app.table.view()
    wild_draws = (CARD_BY_CODE["LW+2"], CARD_BY_CODE["DW+C"])
    return v is not None and v.current == v.seat and v.phase == Phase.RESPOND and v.pending_card in wild_draws


@pytest.mark.parametrize(("seed", "code"), [(11, "LW+2"), (6, "DW+C")])
def test_a_wild_draw_two_or_color_says_what_accepting_and_challenging_do(seed: int, code: str) -> None:
    """FL-6, FL-7: the prompt says what A and X do (a Wild Draw Color: draw until its colour
    comes, in the dark side's words), and X challenges."""
    table = make_table(seed, edition="flip", players=4, target=2000)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await drive(app, pilot, DrawCardWaiter(), lambda: facing_a_wild_draw(app))
            v = table.view()
            assert v is not None and v.pending_card == CARD_BY_CODE[code]
            text = " ".join(str(app.query_one("#prompt", Static).render()).split())
            if code == "DW+C":
                named = color_name(v.color, True)
                assert f"A: accept (draw until a {named} card comes) · X: challenge" in text, text
                assert "if not, you draw until one comes and 2 more" in text
            else:
                assert "A: accept (draw 2) · X: challenge" in text and "you draw 4" in text, text
            await pilot.press("x")
            assert human_actions(table)[-1] == "challenge"

    run(go)
    teal = words.no_match(CARD_BY_CODE["P5"], CARD_BY_CODE["T9"], 1, dark=True)
    assert teal == "The pink 5 does not match the teal 9 (teal to match)."
