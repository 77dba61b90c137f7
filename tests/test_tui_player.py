"""The terminal game as a player wants it (issue 17): the screens between hands and at the end,
what the bots did, the speed keys, Harry Potter's auto_accept, words instead of codes, keys that
say why they do nothing, a terminal too small, the seed hidden until the end.

The app is driven with Textual's pilot as in ``test_tui.py`` (its helpers are shared): the bots'
clock moves only when a test calls ``advance_clock``, and screens are read once they settle.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest
from textual.widgets import RichLog

from test_tui import NEVER, SIZE, Human, drive, human_actions, make_table, screen_text, settled_screen
from unotable.bots import Bot, make_bot
from unotable.cards import CARD_CODE, CARD_NAME
from unotable.cli import build_parser
from unotable.engine import hand_points
from unotable.errors import UnoError
from unotable.events import Event
from unotable.match import Game
from unotable.rules import Rules, find_edition
from unotable.state import Phase
from unotable.tui import app as app_module
from unotable.tui import results, words
from unotable.tui.app import UnoApp
from unotable.tui.board import MIN_HEIGHT, MIN_WIDTH
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, Table
from unotable.tui.launch import again, setup
from unotable.tui.record import game_record, hands_left, summary
from unotable.tui.screens import GameOverScreen, TooSmallScreen

CODES = re.compile(r"\b[RYGB](?:\+2|\+3|[0-9]|S|R|BLANK)\b|W\+4|\bINVIS\b|\bHOWLER\b|\bMATER\b")
"""The notation's card codes, which no line a person reads may contain."""


def run(coro: Callable[[], object]) -> None:
    asyncio.run(coro())  # type: ignore[arg-type]


def boxed(text: str) -> list[str]:
    """The lines of the box over the table (between its █ borders)."""
    return [x.split("█")[1] for x in text.splitlines() if x.count("█") >= 2]


def no_codes(text: str) -> None:
    found = CODES.findall(text)
    assert not found, f"card codes {found} in: {text[:400]}"


# --------------------------------------------------------------------------------------------
# Between hands and at the end.


def test_between_hands_every_hand_is_laid_face_up_with_its_points_and_the_scores_by_hand() -> None:
    table = make_table(48, target=1000)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await drive(app, pilot, Human(), lambda: app.between_hands)
            text = await settled_screen(app, pilot)
            result = table.game.results[-1]
            points = hand_points(result.state)
            assert words.CARDS_LEFT_HEADER in text and words.SCORES_BY_HAND in text
            for seat, row in enumerate(hands_left(table.game)):
                assert row.points == points[seat]
                assert list(row.cards) == result.state.hands[seat]
                name = table.display_name(row.player)
                line = next(x for x in boxed(text) if re.match(rf"\s+{name}\s+{row.points}\s", x))
                if row.cards:
                    # The first cards of the hand are on the player's line, by name.
                    assert CARD_NAME[row.cards[0]] in line
                else:
                    assert words.WENT_OUT_CELL in line
            lines = text.splitlines()
            at = next(i for i, x in enumerate(lines) if words.SCORES_BY_HAND in x)
            hand_row = lines[at + 2].split("█")[1]
            assert [int(n) for n in hand_row.split()[1:]] == list(result.credit)
            no_codes(text)
            await pilot.press("enter")
            await pilot.pause()
            assert not app.between_hands and table.game.hand_index == 1

    run(go)


def test_the_game_over_screen_standings_records_seed_and_new_game() -> None:
    table = make_table(48)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            title = screen_text(app).splitlines()[0]
            assert "seed" not in title.lower() and str(table.game.seed) not in title, "no seed during play"

            def over() -> bool:
                return table.game.finished and app.between_hands

            await drive(app, pilot, Human(), over)
            text = await settled_screen(app, pilot)
            assert isinstance(app.screen, GameOverScreen)
            assert "Standings" in text and f"Seed {table.game.seed}" in text
            record = game_record(table.game)
            standings = table.game.standings()
            for p in table.ranking():
                r = record.players[p]
                name = table.display_name(p)
                place = results.place(standings.places[p], standings.shares_place(p))
                cells = [str(table.points_of(p)), str(r.hands_won), str(r.uno_missed), str(r.caught),
                         str(r.catches), f"{r.challenges_won}/{r.challenges_lost}"]  # fmt: skip
                pattern = rf"\s+{re.escape(place)}\s+{name}\s+" + r"\s+".join(re.escape(c) for c in cells)
                assert any(re.match(pattern, x) for x in boxed(text)), name
            assert results.game_won([table.display_name(p) for p in table.game.winners]) in text
            no_codes(text)
            await pilot.press("n")
        assert app.new_game and app.return_code == 0

    run(go)


def test_records_match_the_events_of_the_game() -> None:
    """Catches, challenges and hands won, counted live from the events of a whole bots-only
    game, equal what the record rebuilds from the saved actions; bots that never call UNO miss
    every call and bots that always do miss none."""
    for forget in (1.0, 0.0):
        rules = Rules(players=4, target=300)
        game = Game.new(rules, 11)
        bots: dict[int, Bot] = {
            p: make_bot("greedy", p, forget_uno=forget, catch=0.5, late_uno=0.0) for p in range(4)
        }
        table = Table(game, bots, human=None, names=BOT_NAMES_FOR_PEOPLE[:4], seed=11)
        catches = [0] * 4
        caught = [0] * 4
        challenges = [[0, 0] for _ in range(4)]
        to_one = [0] * 4
        while True:
            if game.hand_over:
                if game.finished:
                    break
                table.next_hand()
                continue
            move = table.next_bot_move()
            assert move is not None
            seating = game.deal.seating
            events: list[Event] = game.apply(move.player, move.action)
            table.actions_taken += 1
            for e in events:
                if e.kind == "catch":
                    assert e.seat is not None and e.target is not None
                    catches[seating[e.seat]] += 1
                    caught[seating[e.target]] += 1
                if e.kind == "challenge":
                    assert e.seat is not None
                    challenges[seating[e.seat]][0 if e.reason == "guilty" else 1] += 1
                one_left = e.seat is not None and len(game.state.hands[e.seat]) == 1
                if e.kind == "play" and e.seat is not None and not game.hand_over and one_left:
                    to_one[seating[e.seat]] += 1
        record = game_record(game)
        assert [r.catches for r in record.players] == catches
        assert [r.caught for r in record.players] == caught
        assert [[r.challenges_won, r.challenges_lost] for r in record.players] == challenges
        assert [r.hands_won for r in record.players] == [
            sum(1 for res in game.results if res.winner == p) for p in range(4)
        ]
        if forget == 1.0:
            assert [r.uno_missed for r in record.players] == to_one and sum(to_one) > 0
            assert sum(catches) > 0
        else:
            assert all(r.uno_missed == 0 for r in record.players)


def test_the_summary_on_quit() -> None:
    table = make_table(48, target=300)
    game = table.game
    text = summary(table)
    assert "left during the first hand" in text and "Seed" not in text, "no seed before the end"
    # Finish the game with the bots playing the human's seat too.
    bot = make_bot("greedy", 1)
    checked = 0
    while not game.finished:
        if game.hand_over:
            text = summary(table)
            hands = len(game.results)
            assert f"left after {words.plural(hands, 'hand')}:" in text and "Seed" not in text, text
            assert re.search(
                r" You are \d(st|nd|rd|th)=? with \d+ points?\.|: you lead with | Your game: \d+ hands? won",
                text,
            ), text
            checked += 1
            table.next_hand()
            continue
        move = table.next_bot_move()
        if move is None:
            move_player = 0
            table.apply(move_player, bot.act(game.view(0)))
        else:
            table.apply(move.player, move.action)
    assert checked >= 1
    text = summary(table)
    assert f"Seed {game.seed}" in text and " won after " in text
    assert "You wins" not in text and "You leads" not in text
    assert "\n" not in text, "one paragraph"
    assert results.game_won(["You"]) == "You win the game!"
    assert results.game_won(["Ana"]) == "Ana wins the game!"
    assert results.game_won(["Ana", "You"]) == "Ana and You win the game!"


def test_a_new_game_keeps_the_settings_with_a_new_seed(tmp_path: object) -> None:
    argv = ["play", "--edition", "hp", "--players", "3", "--bots", "random,cautious", "--target", "200",
            "--seed", "7", "--option", "auto_accept=false"]  # fmt: skip
    args = build_parser().parse_args(argv)
    first = setup(args)
    assert first.auto_accept is False
    first.table.change_settings(delay=0.25)  # as + would
    second = setup(again(args, first.table))
    g1, g2 = first.table.game, second.table.game
    assert g2.rules == g1.rules and g2.seats == g1.seats == (None, "random", "cautious")
    assert g2.seed != g1.seed and second.auto_accept is False
    assert second.delay == 0.25
    assert second.table.settings["forget_rate"] == first.table.settings["forget_rate"]


@pytest.mark.parametrize("value", ["maybe", "1"])
def test_auto_accept_takes_true_or_false(value: str) -> None:
    with pytest.raises(UnoError, match="auto_accept is true or false"):
        setup(build_parser().parse_args(["play", "--option", f"auto_accept={value}"]))


# --------------------------------------------------------------------------------------------
# What the bots did, and the log.


def test_panels_show_each_bots_last_play_and_the_middle_names_colour_and_direction() -> None:
    table = make_table(120, players=4, target=1000)
    app = UnoApp(table, delay=NEVER)
    seen_called_by: list[bool] = []
    seen_reversed: list[bool] = []

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            human = Human()
            for _ in range(400):
                keys = human.keys(app)
                if keys:
                    for key in keys:
                        await pilot.press(key)
                    continue
                if not app.advance_clock():
                    break
                await pilot.pause()
                events = table.last_events
                plays = [e for e in events if e.kind == "play" and e.seat is not None and e.seat != 0]
                if plays:
                    e = plays[-1]
                    assert e.seat is not None
                    panel = app._panels[e.seat]
                    body = str(panel.render())
                    assert words.LAST_PLAYED in body and CARD_NAME[e.cards[0]] in body and "◀" in body
                    info = str(app.query_one("#info").render())
                    if e.color is not None and e.color >= 0:
                        seen_called_by.append(words.called_by(app._names()[e.seat]) in info)
                    if any(x.kind == "reverse" for x in events):
                        seen_reversed.append(words.reversed_by(app._names()[e.seat]) in info)
                if len(seen_called_by) >= 2 and seen_reversed:
                    break

    run(go)
    assert seen_called_by and all(seen_called_by)
    assert seen_reversed and all(seen_reversed)


def test_the_log_follows_its_end_after_a_resize_and_pages_by_keys() -> None:
    table = make_table(120, target=1000)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            log = app.query_one("#log", RichLog)
            app.write_log([f"line {i}: " + "a long line that must wrap " * 4 for i in range(60)])
            await pilot.pause()
            await pilot.resize_terminal(100, 30)
            await settled_screen(app, pilot)
            assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y, "pinned to the newest line"
            width = log.scrollable_content_region.width
            assert all(len(s.text.rstrip()) <= width for s in log.lines), "wrapped to the new width"
            newest = screen_text(app)
            assert "line 59" in newest
            await pilot.press("pageup")
            await pilot.pause()
            assert log.scroll_y < log.max_scroll_y
            app.write_log(["a newer line"])
            await pilot.pause()
            assert log.scroll_y < log.max_scroll_y, "scrolled back, a new line does not pull the view"
            await pilot.press("end")
            await settled_screen(app, pilot)
            assert log.scroll_y == log.max_scroll_y and "a newer line" in screen_text(app)

    run(go)


# --------------------------------------------------------------------------------------------
# Speed.


def test_plus_and_minus_change_the_bots_speed_and_n_skips_to_your_next_decision() -> None:
    table = make_table(120, target=1000)
    app = UnoApp(table, delay=1.0)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("plus")
            assert app.delay == 0.75 and words.speed_now(0.75) in screen_text(app)
            await pilot.press("minus")
            await pilot.press("minus")
            assert app.delay == 1.5
            assert words.bots_speed(1.5) in await settled_screen(app, pilot)
            app.delay = NEVER  # from here on, only N moves the bots
            await drive(app, pilot, Human(), lambda: table.view().current != 0)  # type: ignore[union-attr]
            assert not table.view().legal  # type: ignore[union-attr]
            await pilot.press("n")
            for _ in range(200):
                if table.view().legal:  # type: ignore[union-attr]
                    break
                await pilot.pause(0.01)
            assert table.view().legal, "the bots played on at once to the human's next decision"  # type: ignore[union-attr]
            assert not app.skipping
            await pilot.press("question_mark")
            body = str(app.screen.body)  # type: ignore[attr-defined]
            assert "+ / -" in body and "skip ahead" in body

    run(go)


# --------------------------------------------------------------------------------------------
# Harry Potter: auto_accept.


def hp_table(auto: bool) -> tuple[Table, UnoApp]:
    table = make_table(151, edition="harry-potter", target=1000)
    return table, UnoApp(table, delay=NEVER, auto_accept=auto)


class CountingHuman(Human):
    """Counts the times it had to accept a card played on it."""

    def __init__(self) -> None:
        super().__init__()
        self.answered = 0

    def keys(self, app: UnoApp) -> list[str]:
        keys = super().keys(app)
        if keys == ["a"]:
            self.answered += 1
        return keys


@pytest.mark.parametrize("auto", [True, False])
def test_auto_accept_answers_for_you_only_without_invisibility(auto: bool) -> None:
    table, app = hp_table(auto)
    human = CountingHuman()
    respond_screens: list[str] = []

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:

            def done() -> bool:
                v = table.view()
                if v is not None and v.current == v.seat and v.phase == Phase.RESPOND:
                    respond_screens.append(screen_text(app))
                return human_actions(table).count("accept") >= 2

            await drive(app, pilot, human, done)

    run(go)
    accepted = human_actions(table).count("accept")
    if auto:
        assert human.answered < accepted, "some answers were given for you"
        assert any("(auto_accept)" in line for line in [app.message, *app.log_history]) or human.answered == 0
    else:
        assert human.answered == accepted >= 2 and respond_screens
    for text in respond_screens:
        assert words.TWO_CARDS_LEFT not in text, "no UNO hint while you answer a card"


# --------------------------------------------------------------------------------------------
# Words and keys.


def test_a_hand_of_each_edition_reads_in_words() -> None:
    """The log, the table every few actions and the screen after the hand (the game-over
    screen: test above) name cards in words, and "You" takes its verbs."""
    for seed, edition in ((159, "harry-potter"), (22, "cars2")):  # classic: the game-over test
        table = make_table(seed, edition=edition, target=1000)
        app = UnoApp(table, delay=NEVER)
        texts: list[str] = []

        async def go(app: UnoApp = app, table: Table = table, texts: list[str] = texts) -> None:
            async with app.run_test(size=SIZE) as pilot:
                read_at = [-1]

                def over() -> bool:
                    taken = table.actions_taken
                    if taken % 20 == 0 and taken != read_at[0]:  # a screen every 20 actions
                        read_at[0] = taken
                        texts.append(screen_text(app))
                    return app.between_hands

                await drive(app, pilot, Human(), over)
                texts.append(await settled_screen(app, pilot))

        run(go)
        for line in app.log_history:
            no_codes(line)
        for text in texts:
            no_codes(text)
        assert not any("You wins" in t or "You is" in t for t in [*app.log_history, *texts])


def test_keys_that_do_nothing_now_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table(120, forget=1.0, catch=1.0)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            v = table.view()
            assert v is not None and len(v.hand) > 2
            await pilot.press("u")
            assert app.message == words.uno_not_now(len(v.hand))
            await pilot.press("c")
            assert app.message == words.nobody_to_catch(None, None)
            # A bot catches another: C just after says who was first.
            for _ in range(500):
                last = app._last_catch
                if last is not None and last[0] != 0 and table.actions_taken - last[2] <= 1:
                    break
                keys = Human(uno="never").keys(app)
                keys = [k for k in keys if k != "c"]
                if keys:
                    for key in keys:
                        await pilot.press(key)
                elif not app.advance_clock():
                    break
            last = app._last_catch
            assert last is not None
            await pilot.press("c")
            names = app._names()
            assert app.message == words.nobody_to_catch(names[last[0]], names[last[1]])
            assert app.message in await settled_screen(app, pilot)
            # The line goes once the game has moved on (and it was shown long enough).
            monkeypatch.setattr(app_module, "MESSAGE_SECONDS", 0.0)
            app._expire_message()
            assert app.message, "the game has not moved on yet"
            before = table.actions_taken
            await drive(app, pilot, Human(), lambda: table.actions_taken > before)
            app._expire_message()
            assert app.message == ""

    run(go)


def test_panel_titles_fit_with_ten_players_at_80_columns() -> None:
    rules = Rules(edition=find_edition("classic"), players=10, target=500)
    game = Game.new(rules, 3)
    bots: dict[int, Bot] = {p: make_bot("search", p, budget=5) for p in range(1, 10)}
    table = Table(game, bots, human=0, names=["You", *BOT_NAMES_FOR_PEOPLE[1:10]], seed=3)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settled_screen(app, pilot)
            for panel in app._panels.values():
                assert len(panel.border_title or "") <= panel.size.width - 2, panel.border_title

    run(go)


def test_a_terminal_too_small_says_so_and_the_bots_wait() -> None:
    table = make_table(120)
    app = UnoApp(table, delay=NEVER)

    async def go() -> None:
        async with app.run_test(size=(50, 15)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen) and not app.busy
            text = screen_text(app)
            assert f"at least {MIN_WIDTH} by {MIN_HEIGHT}" in text and "50 columns by 15 rows" in text
            await pilot.press("d")
            assert not human_actions(table), "no key plays under the screen"
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not app.too_small and not isinstance(app.screen, TooSmallScreen)

    run(go)


def test_card_faces_and_names_are_words() -> None:
    for card, name in enumerate(CARD_NAME):
        no_codes(name)
        top, bottom = words.card_face(card)
        assert len(top) <= 7 and len(bottom) <= 7, (CARD_CODE[card], top, bottom)
        no_codes(f"{top} {bottom}")
    assert CARD_NAME[CARD_CODE.index("B+2")] == "blue Draw Two"
    assert CARD_NAME[CARD_CODE.index("W+4")] == "Wild Draw Four"
