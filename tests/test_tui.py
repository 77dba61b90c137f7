"""The terminal game (``uno play``), driven with Textual's pilot by scripted keys.

The bots' clock is driven by the tests: the app is made with a delay no test waits out, and
``advance_clock()`` lets the waiting bot act when the scripted human has nothing to press. So
each out-of-turn moment happens deterministically: the human always gets the chance the delay
gives a person. The deals come from fixed seeds, chosen so that each moment occurs early.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from unotable import savefile
from unotable.bots import Bot, make_bot
from unotable.cards import CARD_CODE, CARD_NAME, HOWLER, MATER
from unotable.cli import build_parser, main
from unotable.errors import UnoError
from unotable.events import Event
from unotable.match import Game
from unotable.narrate import describe
from unotable.notation import ACTION_ARG, ACTION_ID, ACTION_TEXT
from unotable.rules import Rules, find_edition
from unotable.state import Phase
from unotable.tui.app import UnoApp
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, Table, card_sort_key, play_needs
from unotable.tui.launch import setup
from unotable.tui.screens import HelpScreen
from unotable.tui.widgets import CardView, OpponentPanel
from unotable.views import view

NEVER: float = 10_000.0
"""A bot delay no test waits out: the tests move the clock with ``advance_clock``."""
SIZE = (120, 40)


def make_table(
    seed: int,
    *,
    edition: str = "classic",
    players: int = 3,
    target: int = 100,
    forget: float = 1.0,
    catch: float = 0.0,
    save: Path | None = None,
) -> Table:
    """The human at seat 0 against greedy bots that forget UNO at ``forget`` and never call it late."""
    rules = Rules(edition=find_edition(edition), players=players, target=target)
    game = Game.new(rules, seed)
    bots: dict[int, Bot] = {
        p: make_bot("greedy", seed * 10 + p, forget_uno=forget, catch=catch, late_uno=0.0)
        for p in range(1, players)
    }
    names = ["You", *BOT_NAMES_FOR_PEOPLE[1:players]]
    return Table(game, bots, human=0, names=names, seed=seed, save=save)


def screen_text(app: UnoApp) -> str:
    """The characters on the screen, as a person would read them."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, force_terminal=True)
    # Textual has no public call for the screen as text: render the compositor's full update.
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


async def settled_screen(app: UnoApp, pilot: Pilot[int]) -> str:
    """The screen once it stops changing: the log scrolls to its end with an animation, so a
    screen read during one shows the log part-way."""
    text = screen_text(app)
    for _ in range(100):
        await pilot.pause(0.02)
        again = screen_text(app)
        if again == text:
            return text
        text = again
    raise AssertionError("the screen kept changing for 2 seconds")


def human_actions(table: Table) -> list[str]:
    """Every action the human (seat 0 in solo games) took, in the notation."""
    return [a for hand in table.game.to_dict()["hands"] for seat, a in hand if seat == 0]


class Human:
    """A scripted player who presses keys from what the screen offers.

    :param uno: ``"alternate"`` (the call armed with ``U`` before the play, then a late ``U``
        the next time), or ``"never"``.
    """

    def __init__(self, uno: str = "alternate") -> None:
        self.uno = uno
        self.drawn = 0
        self.arm_next = True

    def keys(self, app: UnoApp) -> list[str]:
        """The keys to press now, or ``[]`` when the human waits for the bots."""
        t = app.table
        if app.between_hands:
            return ["enter"]
        v = t.view()
        if v is None:
            return []
        ch = t.choices()
        if ch.uno is not None and self.uno != "never":
            return ["u"]
        if ch.catch:
            return ["c"]
        if app.picking in ("color", "invis"):
            return ["r"]
        if app.picking == "target":
            return [str((v.seat + 1) % v.rules.players)]
        if v.current != v.seat:
            return []
        if v.phase == Phase.RESPOND:
            if ch.challenge is not None:
                return ["x"]
            return ["i"] if ch.invisibility else ["a"]
        if v.phase == Phase.CHOOSE_COLOR:
            return ["g"]
        if v.phase == Phase.AFTER_DRAW:
            self.drawn += 1
            return ["p"] if self.drawn % 2 else ["k"]
        if not ch.plays:
            return ["d"]
        if len(v.hand) == 2 and self.uno == "alternate" and not app.uno_armed:
            self.arm_next = not self.arm_next
            if not self.arm_next:
                return ["u"]  # arm the call: the play carries it
        hand = sorted(v.hand, key=card_sort_key)
        index = next(i for i, c in enumerate(hand) if c in ch.plays)
        if index < 10:
            return [str((index + 1) % 10), "enter"]
        return ["right"] * ((index - app.cursor) % len(hand)) + ["enter"]


async def drive(
    app: UnoApp, pilot: Pilot[int], human: Human, until: Callable[[], bool], limit: int = 3000
) -> None:
    """Press the human's keys, and let the bots act when the human has nothing to do, until
    ``until()`` holds."""
    await pilot.pause()
    for _ in range(limit):
        if until():
            return
        keys = human.keys(app)
        if keys:
            for key in keys:
                await pilot.press(key)
                if until():
                    return
            continue
        if not app.advance_clock():
            raise AssertionError(f"stuck: {app.table.game!r}, picking {app.picking!r}")
    raise AssertionError(f"{until} did not happen in {limit} steps")


def run(coro: Callable[[], object]) -> None:
    asyncio.run(coro())  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# A whole game by keys.


def test_a_whole_game_by_keys_with_every_moment() -> None:
    """Seed 48 (3 players, to 100) is a two-hand game in which the human plays, draws, keeps
    and plays drawn cards, calls colours, calls UNO with the play and late, catches a bot that
    forgot, and challenges a Wild Draw Four."""
    table = make_table(48)
    app = UnoApp(table, delay=NEVER)
    human = Human()
    hand_screens: list[str] = []

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def over() -> bool:
                if app.between_hands and "is over" in screen_text(app):
                    text = screen_text(app)
                    if text not in hand_screens:
                        hand_screens.append(text)
                return table.game.finished and app.between_hands

            await drive(app, pilot, human, over)
            text = await settled_screen(app, pilot)
            assert re.search(r"(You win|[A-Z][a-z]+ wins) the game!", text), text
            assert "Standings" in text and "UNO missed" in text
            await pilot.press("enter")
        assert app.return_code == 0 and not app.new_game

    run(go)
    acts = human_actions(table)
    kinds = Counter(a.split()[0] for a in acts)
    assert kinds["play"] and kinds["draw"] and kinds["pass"] and kinds["catch"] and kinds["challenge"]
    assert any(a.startswith(("play W", "color")) for a in acts), "a colour call"
    assert any(a.startswith("play") and a.endswith(" uno") for a in acts), "UNO called with the play"
    assert "uno" in acts, "a late UNO call"
    assert len(table.game.results) == 2 and hand_screens, "a scoreboard between the hands"
    log = "\n".join(app.log_history)
    assert "You caught" in log and "without UNO" in log
    assert "You challenged" in log
    assert "You called UNO!" in log


def test_bots_catch_the_human_only_after_a_visible_wait() -> None:
    """The human forgets UNO: the bots wait twice their delay (shown), then catch."""
    table = make_table(122, forget=0.0, catch=1.0)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            seat = 0

            def exposed() -> bool:
                v = table.view()
                return v is not None and seat in v.uno_exposed

            await drive(app, pilot, Human(uno="never"), exposed)
            await pilot.pause()
            assert app.busy and app.wait_seconds == 2 * NEVER
            assert "press U now" in screen_text(app)
            before = len(table.view().hand)  # type: ignore[union-attr]
            app.advance_clock()
            await pilot.pause()
            assert any("caught you without UNO" in line for line in app.log_history)
            assert len(table.view().hand) == before + 2  # type: ignore[union-attr]

    run(go)


def test_a_late_uno_call_beats_the_bots() -> None:
    table = make_table(122, forget=0.0, catch=1.0)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def exposed() -> bool:
                v = table.view()
                return v is not None and 0 in v.uno_exposed

            await drive(app, pilot, Human(uno="never"), exposed)
            await pilot.press("u")
            assert app.table.view().uno_exposed == ()  # type: ignore[union-attr]
            app.advance_clock()
            await pilot.pause()
            assert not any("caught you" in line for line in app.log_history)

    run(go)


def test_the_mouse_plays_a_card_and_draws() -> None:
    table = make_table(35)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def my_turn() -> bool:
                v = table.view()
                return v is not None and v.current == v.seat and v.phase == Phase.TURN and not app.picking

            await drive(app, pilot, Human(), my_turn)
            v = table.view()
            assert v is not None
            ch = table.choices()
            card = next(w for w in app.query(CardView) if w.display and w.id != "top" and w.card in ch.plays)
            code = CARD_CODE[card.card]
            await pilot.click(card)
            if app.picking == "color":
                await pilot.click("#b-blue")
            assert human_actions(table)[-1].startswith(f"play {code}")
            await drive(app, pilot, Human(), my_turn)
            await pilot.click("#pile")
            assert human_actions(table)[-1] == "draw"

    run(go)


# --------------------------------------------------------------------------------------------
# Harry Potter and Cars 2 moments.


def test_howler_target_and_invisibility_by_keys() -> None:
    """Seed 159 (Harry Potter): the human plays the Howler on seat 1 with the key ``1`` and
    calls its colour, and cancels an action card with Invisibility (``i``, then a colour)."""
    table = make_table(159, edition="harry-potter", target=1000)
    app = UnoApp(table, delay=NEVER)
    seen_target_prompt: list[bool] = []

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def done() -> bool:
                if app.picking == "target":
                    seen_target_prompt.append("whose hand must be shown" in screen_text(app))
                acts = human_actions(table)
                return any(a.startswith("play HOWLER") for a in acts) and any(
                    a.startswith("invisibility") for a in acts
                )

            await drive(app, pilot, Human(), done)

    run(go)
    acts = human_actions(table)
    assert any(a.startswith("play HOWLER 1") for a in acts)
    assert any(a.startswith("invisibility R") for a in acts)
    assert seen_target_prompt and all(seen_target_prompt)


def test_mater_shows_the_hands_on_the_panels_then_the_colour_is_called() -> None:
    """Seed 22 (Cars 2): the human's first play is Mater; every opponent's panel then shows the
    cards the human saw, and ``g`` calls green."""
    table = make_table(22, edition="cars2", target=1000)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def choosing() -> bool:
                v = table.view()
                return v is not None and v.current == v.seat and v.phase == Phase.CHOOSE_COLOR

            await drive(app, pilot, Human(), choosing)
            await pilot.pause()
            assert human_actions(table)[-1] == "play MATER"
            v = table.view()
            assert v is not None
            for panel in app.query(OpponentPanel):
                known = v.known[panel.seat]
                assert len(known) == v.hand_sizes[panel.seat]
                shown = str(panel.render())
                assert "shown:" in shown
                # The cards wrap between two cards only (never inside a name), up to the last move.
                lines = shown.split("shown:")[1].split("\n")
                lines = [x for x in lines if x.strip() and not x.startswith("played ")]
                names = [n.strip() for x in lines for n in re.split(r"\s{2,}", x.strip())]
                assert Counter(names) == Counter(CARD_NAME[c] for c in known), "cards named in words"
            assert "Call the colour" in screen_text(app)
            await pilot.press("g")
            assert human_actions(table)[-1] == "color G"

    run(go)


# --------------------------------------------------------------------------------------------
# Nothing hidden on the screen.


def hidden_twin(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with every card ``seat`` cannot see (other hands but the cards revealed to
    it, and the draw pile) dealt anew among those places, sizes kept."""
    twin = Game.from_json(game.to_json())
    st = twin.state  # the twin is the test's own: rearranging its hidden cards is the point
    known = view(st, seat).known
    kept: dict[int, list[int]] = {}
    pool = list(st.draw)
    for s in range(st.n):
        if s == seat:
            continue
        left = Counter(known.get(s, ()))
        kept[s] = []
        for c in st.hands[s]:
            if left[c] > 0:
                left[c] -= 1
                kept[s].append(c)
            else:
                pool.append(c)
    rng.shuffle(pool)
    for s, cards in kept.items():
        need = len(st.hands[s]) - len(cards)
        st.hands[s] = cards + [pool.pop() for _ in range(need)]
    st.draw = pool
    return twin


@pytest.mark.parametrize(
    ("seed", "edition"),
    [
        (120, "classic"),
        (151, "harry-potter"),
        (22, "cars2"),
        (22, "modern"),
        (22, "all-wild"),
        (22, "no-mercy"),
    ],
)
def test_the_screen_is_the_same_whatever_the_hidden_cards(seed: int, edition: str) -> None:
    """At each of the human's decisions, the screen drawn for a game whose hidden cards are
    dealt anew is exactly the screen of the real game: nothing hidden reaches the screen."""
    table = make_table(seed, edition=edition, target=1000)
    app = UnoApp(table, delay=NEVER)
    rng = random.Random(seed)
    checks: list[bool] = []

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            human = Human()

            async def compare() -> None:
                real = table.game
                twin = hidden_twin(real, 0, rng)
                before = await settled_screen(app, pilot)
                table.game = twin
                app.refresh_table()
                after = await settled_screen(app, pilot)
                table.game = real
                app.refresh_table()
                await pilot.pause()
                assert after == before
                checks.append(twin.state.hands != real.state.hands)

            for _ in range(300):
                if len(checks) >= 6:
                    break
                keys = human.keys(app)
                v = table.view()
                if keys and v is not None and v.current == v.seat and not app.picking:
                    await compare()
                if keys:
                    for key in keys:
                        await pilot.press(key)
                elif not app.advance_clock():
                    break

    run(go)
    assert len(checks) >= 6 and sum(checks) >= 3, "the hidden cards were dealt differently"


def test_the_hand_row_shows_exactly_the_humans_cards() -> None:
    table = make_table(120)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            v = table.view()
            assert v is not None
            shown = [w.card for w in app.query("CardView.card") if w.display and w.id != "top"]  # type: ignore[attr-defined]
            assert sorted(shown) == sorted(v.hand)

    run(go)


# --------------------------------------------------------------------------------------------
# Help, save, resume, and the bots-only game.


def test_help_shows_keys_and_the_editions_rules_and_the_bots_wait() -> None:
    table = make_table(151, edition="harry-potter")
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await drive(app, pilot, Human(), lambda: app.busy)
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            assert not app.busy, "the bots wait while the help is open"
            text = screen_text(app)
            assert "KEYS" in text and "Help" in text
            body = str(app.screen.body)
            assert "Howler" in body and "Invisibility" in body and "Draw Three" in body
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)
            assert app.busy

    run(go)


def test_quit_saves_and_resume_replays_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    table = make_table(120, save=path)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await drive(app, pilot, Human(), lambda: len(human_actions(table)) >= 4)
            await pilot.press("q")
            assert app.is_running, "one q only asks"
            await pilot.press("q")
        assert app.return_code == 0

    run(go)
    header = json.loads(path.read_text().splitlines()[0])
    assert header["format"] == "unotable-game-log"
    assert header["settings"] == table.settings
    assert savefile.load(path)[0] == table.game
    args = build_parser().parse_args(["play", "--resume", str(path)])
    resumed = setup(args)
    assert resumed.table.game.to_dict()["hands"] == table.game.to_dict()["hands"]
    assert resumed.save == path


def test_a_saved_game_keeps_who_plays_each_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = setup(build_parser().parse_args(
        ["play", "--players", "3", "--bots", "search:budget=5,random", "--seed", "4", "--save", str(path)]
    ))  # fmt: skip
    assert first.table.game.seats == (None, "search:budget=5", "random")
    first.table.save()
    assert json.loads(path.read_text().splitlines()[0])["seats"] == [None, "search:budget=5", "random"]
    resumed = setup(build_parser().parse_args(["play", "--resume", str(path)]))
    assert {p: b.name for p, b in resumed.table.bots.items()} == {1: "search:budget=5", 2: "random"}
    assert resumed.table.game == first.table.game
    with pytest.raises(UnoError, match="would change player 1's saved bot 'search:budget=5'"):
        setup(build_parser().parse_args(["play", "--resume", str(path), "--auto", "--bots", "cautious"]))
    args = ["play", "--resume", str(path), "--auto", "--bots", "cautious,search:budget=5,random"]
    watched = setup(build_parser().parse_args(args))
    assert watched.table.game.seats == ("cautious", "search:budget=5", "random")
    lines = path.read_text().splitlines()
    saved = json.loads(lines[0])

    def rewrite(**changes: Any) -> None:
        path.write_text("\n".join([json.dumps({**saved, **changes}), *lines[1:]]) + "\n")

    for seats, message in (([None], "3 entries"), ([None, "", "random"], r"seats\[1\]")):
        rewrite(seats=seats)
        with pytest.raises(UnoError, match=message):
            setup(build_parser().parse_args(["play", "--resume", str(path)]))
    rewrite(seats=[None, "clever", "random"])
    with pytest.raises(UnoError, match=r"unknown bot.*saved in"):
        setup(build_parser().parse_args(["play", "--resume", str(path)]))


def test_auto_fast_plays_a_whole_game_on_the_full_screen() -> None:
    rules = Rules(players=3, target=60)
    game = Game.new(rules, 5)
    bots: dict[int, Bot] = {p: make_bot("greedy", p, forget_uno=0.2) for p in range(3)}
    table = Table(game, bots, human=None, watch=0, names=BOT_NAMES_FOR_PEOPLE[:3], seed=5)
    app = UnoApp(table, delay=0.0, auto=True)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(2000):
                if table.game.finished and app.between_hands:
                    break
                await pilot.pause(0.01)
            await pilot.pause()
            assert table.game.finished
            assert "wins the game!" in screen_text(app)
            await pilot.press("enter")
        assert app.return_code == 0

    run(go)


def test_auto_fast_without_a_terminal_prints_the_game_and_ends() -> None:
    argv = [
        "play",
        "--auto",
        "--fast",
        "--target",
        "100",
        "--seed",
        "3",
        "--bots",
        "greedy,random,cautious,search:budget=20",
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "unotable", *argv], capture_output=True, text=True, check=False, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("UNO, 4 players") and "seed" not in lines[0].lower()
    assert any("went out and scored" in line for line in lines)
    assert (
        lines[-2].startswith("Game over:")
        and lines[-2].endswith("Seed 3.")
        and lines[-1].startswith("Scores:")
    )
    assert sum("Seed" in line for line in lines) == 1, "the seed is shown only at the end"
    assert proc.stderr == ""
    again = subprocess.run(
        [sys.executable, "-m", "unotable", *argv], capture_output=True, text=True, check=False, timeout=120
    )
    assert again.stdout == proc.stdout, "the same seed plays the same game"


def test_the_saved_bots_only_game_resumes_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "auto.json"
    assert main(["play", "--auto", "--fast", "--target", "50", "--seed", "9", "--save", str(path)]) == 0
    first = capsys.readouterr().out
    game, _ = savefile.load(path)
    assert game.finished
    assert main(["play", "--auto", "--fast", "--resume", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == first.splitlines()[-1]


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--bots", "wizard"],
        ["play", "--bots", "greedy,random"],
        ["play", "--option", "colour=red"],
        ["play", "--option", "nokey"],
        ["play", "--option", "target=50", "--target", "60"],
        ["play", "--mode", "partners", "--players", "3"],
        ["play", "--forget-rate", "2"],
        ["play", "--delay", "-1"],
        ["play", "--players", "1"],
        ["play", "--edition", "monopoly"],
        ["play", "--resume", "/nonexistent/game.json"],
        ["play", "--resume", "x.json", "--edition", "cars2"],
        ["play", "--text"],
        ["play"],
    ],
)
def test_bad_flags_get_one_line_and_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1 and err.startswith("uno") and ": error: " in err


def test_sentences_say_you() -> None:
    """The person at the table is spoken to in whole second-person sentences (narrate's ``you``)."""
    names = ["You", "Ben", "Cleo"]
    assert describe(Event("skip", seat=0), names, you=0) == "You are skipped."
    assert describe(Event("skip", seat=1), names, you=0) == "Ben is skipped."
    assert describe(Event("game_over", seat=0), names, you=0) == "You win the game!"
    assert describe(Event("catch", seat=1, target=0), names, you=0) == "Ben caught you without UNO."
    assert (
        describe(Event("challenge", seat=1, target=0, reason="guilty"), names, you=0)
        == "Ben challenged your Wild Draw Four: guilty."
    )
    assert describe(Event("play", seat=2, target=0, cards=(HOWLER,), color=1), names, you=0) == (
        "Cleo played Howler on you and called yellow."
    )
    assert (
        describe(Event("draw", seat=0, count=2, reason="R+2"), names, you=0)
        == "You drew 2 cards (red Draw Two)."
    )
    assert describe(Event("draw", seat=1, count=1), names, you=0) == "Ben drew 1 card."


def test_play_needs() -> None:
    assert play_needs([ACTION_ID["play R5"]]) == ""
    assert play_needs([ACTION_ID[f"play W {c}"] for c in "RYGB"]) == "color"
    howler = [ACTION_ID[f"play HOWLER {s}"] for s in (1, 2)]
    assert play_needs(howler) == "target" and ACTION_ARG[howler[0]] == 1
    assert ACTION_TEXT[howler[0]].split()[1] == CARD_CODE[HOWLER] and CARD_CODE[MATER] == "MATER"
