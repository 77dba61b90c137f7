"""The out-of-turn race (:mod:`unotable.race`): one seeding rule, one driver, used by the
simulator and the terminal game; games saved before the race had one module resume exactly."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from unotable import savefile
from unotable.engine import new_hand, step
from unotable.race import first_reaction, race_order, race_seed, window_open
from unotable.rules import Rules
from unotable.seeds import derive_seed
from unotable.sim import derive_seed as sim_derive_seed
from unotable.state import PHASE_HAND_OVER, PHASE_TURN
from unotable.tui.controller import Table

DATA = Path(__file__).parent / "data"


def test_the_order_depends_on_the_game_seed_and_its_place_only() -> None:
    seats = [0, 1, 2, 3, 4, 5]
    assert race_order(seats, 7, 2, 31) == race_order(seats, 7, 2, 31)
    orders = {tuple(race_order(seats, 7, h, k)) for h in range(4) for k in range(40)}
    assert len(orders) > 60, "different places give different orders"
    assert sorted(race_order(seats, 7, 0, 0)) == seats
    assert race_order(seats, 7, 0, 0) != race_order(seats, 8, 0, 0) or race_order(
        seats, 7, 0, 1
    ) != race_order(seats, 8, 0, 1)


def test_the_seeding_rule_is_the_one_saved_games_and_rooms_were_played_with() -> None:
    """The terminal (``derive_seed(seed, "race", hand, action)``) and the web room (``game``,
    ``seq``) shuffled their bots with this generator before the race had a module: the one
    rule keeps it, so no saved game or room needs another reader."""
    for seed, hand, k in [(0, 0, 0), (9, 3, 17), (2**127 + 5, 11, 200)]:
        assert race_seed(seed, hand, k) == derive_seed(seed, "race", hand, k)
        old = ["a", "b", "c", "d", "e"]
        random.Random(derive_seed(seed, "race", hand, k)).shuffle(old)
        assert race_order(["a", "b", "c", "d", "e"], seed, hand, k) == old


def test_first_reaction_asks_in_order_and_stops_at_the_first_taker() -> None:
    order = race_order(list(range(8)), 3, 1, 5)
    asked: list[int] = []

    def react(who: int) -> int | None:
        asked.append(who)
        return 100 + who if who in (order[3], order[6]) else None

    assert first_reaction(range(8), 3, 1, 5, react) == (order[3], 100 + order[3])
    assert asked == order[:4]
    assert first_reaction(range(8), 3, 1, 5, lambda _: None) is None
    assert first_reaction([], 3, 1, 5, react) is None


def test_window_open_follows_the_exposed_uno_the_wrong_card_and_jump_in() -> None:
    st, _ = new_hand(Rules(players=3), 4, dealer=0)
    assert st.phase != PHASE_TURN or not window_open(st)
    jump, _ = new_hand(Rules(players=3, jump_in=True), 4, dealer=0)
    assert window_open(jump) == (jump.phase == PHASE_TURN)
    st.exposed = 1
    assert window_open(st)
    st.exposed = 0
    st.wrong_seat = 2
    assert window_open(st)


def test_a_window_closes_when_the_hand_is_over() -> None:
    from unotable.engine import legal_ids  # noqa: PLC0415

    st, _ = new_hand(Rules(players=2, jump_in=True), 12, dealer=0)
    rnd = random.Random(1)
    while st.phase < PHASE_HAND_OVER:
        step(st, st.current, rnd.choice(legal_ids(st, st.current)))
    assert not window_open(st)


def test_derive_seed_is_the_cores_and_still_the_simulators() -> None:
    assert sim_derive_seed is derive_seed


def test_a_game_saved_before_the_race_module_resumes_as_it_was_played(tmp_path: Path) -> None:
    """``race-2026-cut.jsonl`` is the first lines of a bots-only game (``jump_in``, bots that
    forget UNO half the time, so races happen) saved by ``uno play`` before the race had a
    module. Resumed from the cut, it replays those lines and plays on to the very same game as
    ``race-2026-whole.jsonl``: the race's order is as it was; the bots' decisions follow the bot
    table's seeding since issue 35 made it cheap (:func:`unotable.bots.table.decision_seed`,
    :class:`unotable.bots.rng.BotRandom`), with which the whole file was written again (the
    game saved before it ended one hand earlier)."""
    from unotable.cli import build_parser  # noqa: PLC0415
    from unotable.tui.launch import setup  # noqa: PLC0415

    path = tmp_path / "game.jsonl"
    shutil.copy(DATA / "race-2026-cut.jsonl", path)
    table: Table = setup(build_parser().parse_args(["play", "--auto", "--fast", "--resume", str(path)])).table
    g = table.game
    while not g.finished:
        if g.hand_over:
            table.next_hand()
            continue
        move = table.next_bot_move()
        assert move is not None
        table.apply(move.player, move.action)
    assert savefile.load(path)[0] == savefile.load(DATA / "race-2026-whole.jsonl")[0]
