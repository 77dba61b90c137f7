"""Issue 12, before the game goes on a network: every bad input refused in one line, no impossible
position accepted, bounded settings and memory, durable saves, resumes that play on exactly, and
unguessable deals. The fuzzers that found the faults stay here, seeded and bounded in size."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unotable import jsontext, savefile
from unotable.bots import Bot
from unotable.cards import CARD_CODE, COLORS, parse_card
from unotable.cli import main
from unotable.engine import from_position, legal_ids, new_hand, step
from unotable.errors import PositionError, UnoError
from unotable.match import Game, SavedGameError
from unotable.notation import ACTION_KIND, Kind
from unotable.rules import Rules, find_edition
from unotable.scenario import parse, run
from unotable.state import PHASE_NAMES, Phase, State
from unotable.tui.controller import BOT_NAMES_FOR_PEOPLE, Table
from unotable.tui.launch import setup

SCENARIO_DIR = Path(__file__).parent / "scenarios"
UPSTREAM = SCENARIO_DIR / "upstream"


def uno(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# ---- 1. no traceback from any input file or flag


def test_json_that_python_cannot_read_is_one_clear_error() -> None:
    for text, message in (
        ("[" * 100_000 + "]" * 100_000, "nested more than 64"),
        ('{"a": ' * 5_000 + "1" + "}" * 5_000, "nested more than 64"),
        ("9" * 5_000, "4300 digits"),
        (b"\xff\xfe{}", "not UTF-8"),
        ("{nope", "not JSON"),
    ):
        with pytest.raises(jsontext.JSONTextError, match=message):
            jsontext.loads(text)
    text = json.dumps(["[{" * 70])
    assert jsontext.loads(text) == ["[{" * 70], "brackets inside strings do not count"


BAD_FILES = {
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "huge_int.json": '{"rules": {"players": ' + "9" * 5000 + "}}",
    "birthday.json": json.dumps(
        {
            "rules": {"edition": "harry-potter", "players": 2, "birthdays": ["0\u00b2-01", None]},
            "start": {"dealer": 0, "deck": []},
            "actions": [],
            "expect": {},
        }
    ),
    "null_position.json": '{"rules": {}, "position": null, "actions": [], "expect": {}}',
    "list_phase.json": json.dumps(
        {
            "rules": {"players": 2},
            "position": {
                "hands": [["R1"], ["R2"]],
                "draw_pile": [],
                "discard": ["R3"],
                "color": "R",
                "current": 0,
                "phase": ["turn"],
            },
            "actions": [],
            "expect": {},
        }
    ),
    "object_legal.json": json.dumps(
        {
            "rules": {"players": 2},
            "position": {
                "hands": [["R1"], ["R2"]],
                "draw_pile": [],
                "discard": ["R3"],
                "color": "R",
                "current": 0,
            },
            "actions": [],
            "expect": {"legal": {"seat": 0, "actions": [{"play": "R1"}]}},
        }
    ),
    "latin1.json": '{"description": "caf\xe9"}',
}


def test_bad_scenario_files_fail_alone_and_the_others_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = []
    for name, text in BAD_FILES.items():
        path = tmp_path / name
        path.write_bytes(text.encode("latin-1") if name == "latin1.json" else text.encode())
        paths.append(str(path))
    good = sorted(str(p) for p in UPSTREAM.glob("*.json"))[:3]
    code, out, err = uno(["scenario", *paths, *good, str(tmp_path)], capsys)
    assert code == 1
    assert err == ""
    lines = out.strip().splitlines()
    assert lines[-1] == f"scenarios: {len(good)} passed, {len(BAD_FILES) + 1} failed"
    assert "Traceback" not in out
    for name in BAD_FILES:
        assert any(line.startswith(str(tmp_path / name)) for line in lines), name


def test_bad_save_targets_and_unreadable_resumes_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"format": "unotable-game", "x": "caf\xe9"}')
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    for argv, message in (
        (["--save", str(tmp_path)], "is a folder"),
        (["--save", "/dev/null/game.json"], "cannot save to /dev/null/game.json"),
        (["--save", str(tmp_path / "no" / "game.json")], "no folder"),
        (["--save", "x" * 5000], "File name too long"),
        (["--resume", "x" * 5000], "File name too long"),
        (["--resume", str(latin)], "not UTF-8"),
        (["--resume", str(deep)], "nested more than 64"),
        (["--resume", str(tmp_path)], "is a folder"),
        (["--option", "blanks=" + "[" * 100_000], "nested more than 64"),
        (["--target", "1000000"], "from 1 to 100000"),
        (["--rounds", "1000", "--mode", "rotating-partners"], "from 1 to 100"),
        (["--bots", "search:budget=100000000"], "budget must be a whole number from 1 to 20000"),
        (["--bots", "greedy:nonsense=1"], "has no option 'nonsense' (its options: action_bias,"),
    ):
        code, out, err = uno(["play", "--auto", "--fast", *argv], capsys)
        assert code == 2, (argv, out, err)
        assert len(err.strip().splitlines()) == 1 and message in err, (argv, err)


VALUES = [
    "",
    "0",
    "-1",
    "1",
    "2",
    "3",
    "11",
    "x",
    "1e9",
    "9" * 5000,
    "[" * 2000,
    "0.5",
    "nan",
    "-0",
    "{}",
    "[]",
    "true",
    "null",
    "\u00b2",
    "100000000000",
    "classic",
    "hp",
    "cars2",
    "greedy",
    "random",
    "search:budget=1",
    "greedy:nonsense=1",
    "random,greedy",
    "solo",
    "partners",
    "lowest",
    "must_play_drawn=true",
    "target=" + "9" * 400,
    "blanks={}",
    "blanks=[[[[",
    "/dev/null/x",
]
FLAGS = {
    "simulate": [
        "--hands",
        "--games",
        "--players",
        "--bots",
        "--edition",
        "--mode",
        "--target",
        "--option",
        "--seed",
        "--workers",
        "--backend",
        "--address",
        "--json",
        "--plot",
        "--frobnicate",
    ],
    "play": [
        "--edition",
        "--players",
        "--mode",
        "--target",
        "--option",
        "--bots",
        "--forget-rate",
        "--rounds",
        "--seed",
        "--save",
        "--resume",
        "--delay",
        "--frobnicate",
    ],
    "scenario": [],
}


def random_command_lines(count: int, seed: int) -> Iterator[list[str]]:
    rnd = random.Random(seed)
    for _ in range(count):
        command = rnd.choice([*FLAGS, "nonsense"])
        argv = [command]
        for _ in range(rnd.randrange(4)):
            flags = FLAGS.get(command) or ["--quiet"]
            argv += [rnd.choice(flags), rnd.choice(VALUES)]
        if command == "simulate" and not any(a in argv for a in ("--hands", "--games")):
            argv += ["--hands", "2"]
        if command == "play":
            argv += ["--auto", "--fast", "--target", "30"] if "--target" not in argv else ["--auto", "--fast"]
        if command == "simulate":
            argv += ["--quiet", "--workers", "1"]
        yield argv


def test_random_command_lines_end_in_0_or_a_one_line_error_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    tried = 0
    for argv in random_command_lines(150, seed=12):
        if "search:budget=1" in argv and "--games" in argv:
            continue  # valid, and slow: a game of search bots
        code, _, err = uno(argv, capsys)
        assert code in (0, 1, 2), (argv, code)
        if code == 2:
            assert len(err.strip().splitlines()) == 1 and ": error: " in err, (argv, err)
        assert "Traceback" not in err
        tried += 1
    assert tried >= 100


def upstream_and_own_scenarios() -> list[Any]:
    return [json.loads(p.read_text()) for p in sorted(SCENARIO_DIR.rglob("*.json"))]


def mutations(count: int, seed: int) -> Iterator[Any]:
    """Scenario files with one to three values replaced, removed or added at random places."""
    rnd = random.Random(seed)
    bases = upstream_and_own_scenarios()
    values: list[Any] = [
        None,
        True,
        0,
        -1,
        1,
        3,
        10**30,
        2.5,
        "",
        "R7",
        "W+4",
        "turn",
        "respond",
        "hand_over",
        "game_over",
        "x",
        [],
        {},
        [1],
        ["R7"],
        ["R7"] * 12,
        {"a": 1},
        [[]],
        [["R7", "W"]],
        "table",
        99,
    ]

    def places(v: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        yield path
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in items:
            yield from places(x, (*path, k))

    for _ in range(count):
        data = json.loads(json.dumps(rnd.choice(bases)))
        for _ in range(rnd.randint(1, 3)):
            path = rnd.choice(list(places(data)))
            if not path:
                continue
            parent = data
            for k in path[:-1]:
                parent = parent[k]
            value = json.loads(json.dumps(rnd.choice(values)))
            r = rnd.random()
            if r < 0.8:
                parent[path[-1]] = value
            elif isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent.append(value)
        yield data


def test_mutated_scenario_files_are_refused_or_run_never_raise() -> None:
    outcomes = {"refused": 0, "ran": 0}
    for data in mutations(3000, seed=7):
        try:
            run(parse(data, "mutant"))
            outcomes["ran"] += 1
        except UnoError:
            outcomes["refused"] += 1
    assert outcomes["refused"] > 1000 and outcomes["ran"] > 100, outcomes


# ---- 2. no impossible position accepted


def position(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "hands": [["R1", "G5"], ["Y7", "W"], ["B2", "B9", "RS"]],
        "draw_pile": ["G2", "G3", "Y1"],
        "discard": ["R9", "R4"],
        "color": "R",
        "current": 0,
        "direction": 1,
        "dealer": 2,
    }
    return {**base, **changes}


@pytest.mark.parametrize(
    ("rules", "pos", "message"),
    [
        (
            {"players": 3},
            position(hands=[["R7"] * 12, ["Y7"], ["B2"]]),
            "12 copies of R7, but the classic deck holds 2",
        ),
        ({"players": 3}, position(discard=["R0", "R0"]), "2 copies of R0, but the classic deck holds 1"),
        ({"players": 3}, position(phase="hand_over"), "exactly one seat with no cards"),
        (
            {"players": 3},
            position(hands=[[], [], ["B2"]], phase="hand_over"),
            "no cards (its winner), not 2",
        ),
        ({"players": 3}, position(hands=[[], ["Y7"], ["B2"]], phase="game_over"), "no score has reached"),
        ({"players": 3}, position(hands=[[], ["Y7"], ["B2"]]), "a seat has no cards but the hand goes on"),
        ({"players": 3}, position(discard=["R9", "R+2"], phase="respond"), "no respond phase after R+2"),
        ({"players": 3}, position(discard=["R9", "RS"], phase="respond"), "no respond phase after RS"),
        (
            {"players": 3, "edition": "hp"},
            position(discard=["R9", "RR"], phase="respond"),
            "no respond phase after RR",
        ),
        (
            {"players": 3, "edition": "hp"},
            position(discard=["R9", "R7"], phase="respond"),
            "no respond phase after R7",
        ),
        (
            {"players": 2},
            position(hands=[["R1"], ["G2"]], discard=["R9", "W"], phase="respond", dealer=1),
            "no respond",
        ),
    ],
)
def test_impossible_positions_are_refused_with_bad_position(
    rules: dict[str, Any], pos: dict[str, Any], message: str
) -> None:
    sc = {"rules": rules, "position": pos, "actions": [], "expect": {}}
    with pytest.raises(UnoError, match=f"bad_position: .*{re.escape(message)}"):
        run(parse(sc, "impossible"))


def test_possible_finished_and_respond_positions_are_accepted() -> None:
    pos = position(hands=[[], ["Y7"], ["B2"]], phase="game_over", scores=[500, 0, 0])
    st = run_state({"players": 3}, pos)
    assert st.winner == 0 and st.game_winners == [0] and st.current == -1
    st = run_state({"players": 3}, position(hands=[[], ["Y7"], ["B2"]], phase="hand_over"))
    assert st.winner == 0 and st.phase == Phase.HAND_OVER
    for edition, players, card in (("hp", 2, "RR"), ("hp", 3, "RS"), ("hp", 4, "R+3"), ("classic", 3, "W+4")):
        hands = [["R1", "G5"], ["Y7", "W"], ["B2"], ["B3"]][:players]
        st = run_state(
            {"players": players, "edition": edition},
            position(hands=hands, discard=["R9", card], current=1, phase="respond", dealer=players - 1),
        )
        assert PHASE_NAMES[st.phase] == "respond"


def run_state(rules: dict[str, Any], pos: dict[str, Any]) -> State:
    from unotable.scenario import initial_state  # noqa: PLC0415

    return initial_state(parse({"rules": rules, "position": pos, "actions": [], "expect": {}}, "ok"))


def test_every_reachable_position_is_accepted_as_written() -> None:
    """Written back as a scenario's position, every state random play reaches is accepted."""
    rnd = random.Random(4)
    checked = 0
    for _ in range(300):
        edition = rnd.choice(["classic", "harry-potter", "cars2"])
        rules = Rules(edition=find_edition(edition), players=rnd.randint(2, 6))
        st, _ = new_hand(rules, rnd.randrange(2**32), record=False)
        for _ in range(rnd.randrange(120)):
            if st.phase >= Phase.HAND_OVER:
                break
            ids = legal_ids(st, st.current)
            plays = [a for a in ids if ACTION_KIND[a] == int(Kind.PLAY)]
            step(st, st.current, rnd.choice(plays if plays and rnd.random() < 0.8 else ids))
        if st.phase == Phase.CHOOSE_COLOR and len(st.discard) == 1:
            continue  # a first Wild: the position cannot say who chose
        again = from_position(
            rules,
            hands=st.hands,
            draw_pile=st.draw[::-1],
            discard=st.discard,
            color=st.color,
            current=st.current,
            direction=st.direction,
            dealer=st.dealer,
            phase=Phase(st.phase),
            scores=st.scores,
        )
        assert again.hands == st.hands and again.phase == st.phase and again.winner == st.winner
        checked += 1
    assert checked > 250


def test_position_error_is_a_config_error_with_its_code() -> None:
    with pytest.raises(PositionError) as info:
        from_position(
            Rules(players=2),
            hands=[[parse_card("R7")] * 3, [1]],
            draw_pile=[],
            discard=[2],
            color=0,
            current=0,
        )
    assert info.value.code == "bad_position" and isinstance(info.value, ValueError)
    assert COLORS and CARD_CODE  # the names the messages use


# ---- 5 and 6. durable, cheap saves; resume indistinguishable from never stopping


def bots_only_table(seed: int, path: Path | None) -> Table:
    args = ["play", "--auto", "--fast", "--players", "4", "--target", "150", "--seed", str(seed)]
    args += ["--bots", "greedy,random,search:budget=8,cautious"]
    if path is not None:
        args += ["--save", str(path)]
    from unotable.cli import build_parser  # noqa: PLC0415

    return setup(build_parser().parse_args(args)).table


def play_to(table: Table, actions: int | None) -> None:
    """Let the bots play until ``actions`` actions (all, if None) or the end of the game."""
    g = table.game
    while actions is None or table.actions_taken < actions:
        if g.hand_over:
            if g.finished:
                return
            table.next_hand()
            continue
        move = table.next_bot_move()
        assert move is not None
        table.apply(move.player, move.action)


def resume(path: Path) -> Table:
    from unotable.cli import build_parser  # noqa: PLC0415

    return setup(build_parser().parse_args(["play", "--auto", "--fast", "--resume", str(path)])).table


def test_a_game_stopped_at_random_points_and_resumed_plays_on_exactly(tmp_path: Path) -> None:
    rnd = random.Random(6)
    for seed in range(4):
        whole = bots_only_table(seed, None)
        play_to(whole, None)
        total = whole.actions_taken
        path = tmp_path / f"g{seed}.jsonl"
        table = bots_only_table(seed, path)
        for stop in sorted(rnd.sample(range(1, total), 3)):
            play_to(table, stop)
            done = table.actions_taken
            table = resume(path)
            table.actions_taken = done
        play_to(table, None)
        assert savefile.load(path)[0] == whole.game, f"seed {seed}"


def test_saves_append_one_line_per_action_and_survive_a_cut_last_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    table = bots_only_table(4, path)  # 113 actions (seed 3: one hand of 20 since issue 35)
    header = path.read_text().splitlines()[0]
    play_to(table, 40)
    lines = path.read_text().splitlines()
    assert lines[0] == header, "the first line is written once"
    deals = sum(1 for line in lines if line.startswith('{"hand"'))
    assert len(lines) == 1 + deals + 40
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('[1, "pla')  # a kill in the middle of an append
    game, settings = savefile.load(path)
    assert game == table.game and settings == table.settings
    stray = tmp_path / f".{path.name}.12345.tmp"
    stray.write_text("half a game")
    resumed = resume(path)
    assert not stray.exists(), "a resume removes the temporary file of an interrupted save"
    assert all(isinstance(json.loads(line), (list, dict)) for line in path.read_text().splitlines())
    assert resumed.game == table.game


def test_a_game_saved_whole_by_version_2_still_resumes(tmp_path: Path) -> None:
    game = Game.new(Rules(players=3), 5)
    for _ in range(30):
        p = game.current_player
        assert p is not None
        game.apply(p, game.legal_actions(p)[0])
    path = tmp_path / "old.json"
    path.write_text(game.to_json(indent=1))
    assert savefile.load(path) == (game, {})
    with pytest.raises(SavedGameError, match="line 3"):
        path.write_text(
            "\n".join(
                [
                    json.dumps(
                        {
                            "format": "unotable-game-log",
                            "version": 1,
                            **{
                                k: v
                                for k, v in game.to_dict().items()
                                if k not in ("hands", "format", "version")
                            },
                        }
                    ),
                    '[0, "draw"]',
                    "{]",
                    "",
                ]
            )
        )
        savefile.load(path)


def test_an_edited_save_says_it_does_not_match_its_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    table = bots_only_table(2, path)
    play_to(table, 30)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["rules"]["edition"] = "cars2"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    code, _, err = uno(["play", "--auto", "--fast", "--resume", str(path)], capsys)
    assert code == 2 and "does not match its rules" in err and len(err.strip().splitlines()) == 1, err


def test_flags_that_would_change_saved_settings_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    code, _, _ = uno(
        [
            "play",
            "--auto",
            "--fast",
            "--forget-rate",
            "0.5",
            "--delay",
            "0.3",
            "--target",
            "20",
            "--seed",
            "1",
            "--save",
            str(path),
        ],
        capsys,
    )
    assert code == 0
    assert json.loads(path.read_text().splitlines()[0])["settings"] == {"forget_rate": 0.5, "delay": 0.3}
    code, _, err = uno(["play", "--auto", "--fast", "--forget-rate", "0.1", "--resume", str(path)], capsys)
    assert code == 2 and "--forget-rate 0.1 would change the saved game's 0.5" in err
    code, _, err = uno(["play", "--auto", "--fast", "--forget-rate", "0.5", "--resume", str(path)], capsys)
    assert code == 0, err


@pytest.mark.skipif(sys.platform != "linux", reason="SIGKILL of a child process")
def test_kill_9_during_save_then_resume_gives_the_uninterrupted_game(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    base = [sys.executable, "-m", "unotable", "play", "--auto", "--text", "--target", "200", "--seed", "77"]
    whole = tmp_path / "whole.jsonl"
    subprocess.run(
        [*base, "--fast", "--save", str(whole)], check=True, capture_output=True, env=env, timeout=300
    )
    total = whole.read_text().count("\n[")
    for k, stop in enumerate((total // 5, total // 2, total - 3)):
        cut = tmp_path / f"cut{k}.jsonl"
        proc = subprocess.Popen(
            [*base, "--delay", "0.003", "--save", str(cut)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if cut.exists() and cut.read_text().count("\n[") >= stop:
                break
            time.sleep(0.001)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        done = cut.read_text().count("\n[")
        assert 0 < done < total, f"killed after {done} of {total} actions: try another wait"
        subprocess.run(
            [sys.executable, "-m", "unotable", "play", "--auto", "--text", "--fast", "--resume", str(cut)],
            check=True,
            capture_output=True,
            env=env,
            timeout=300,
        )
        assert savefile.load(cut)[0] == savefile.load(whole)[0]


# ---- 7. unguessable deals


def test_new_games_get_128_bit_seeds_and_given_seeds_still_reproduce() -> None:
    from unotable.cli import build_parser  # noqa: PLC0415

    seeds = [setup(build_parser().parse_args(["play", "--auto"])).seed for _ in range(16)]
    assert len(set(seeds)) == 16 and max(s.bit_length() for s in seeds) > 120
    again = [setup(build_parser().parse_args(["play", "--auto", "--seed", "42"])) for _ in range(2)]
    assert again[0].table.game == again[1].table.game and again[0].seed == 42


def test_the_table_reseeds_bots_from_the_game_not_from_their_history() -> None:
    game = Game.new(Rules(players=3), 11)
    from unotable.bots import make_bot  # noqa: PLC0415

    def table(bots: dict[int, Bot]) -> Table:
        return Table(Game.from_dict(game.to_dict()), bots, human=None, names=BOT_NAMES_FOR_PEOPLE[:3], seed=9)

    drawn = {p: make_bot("random", 0) for p in range(3)}
    for bot in drawn.values():
        for _ in range(5):
            bot.rng.random()  # these bots have drawn numbers the others have not
    a, b = table({p: make_bot("random", 0) for p in range(3)}), table(dict(drawn))
    move_a, move_b = a.next_bot_move(), b.next_bot_move()
    assert move_a == move_b


def test_mutated_save_files_are_refused_or_resume_never_raise(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    table = bots_only_table(8, path)
    play_to(table, 60)
    lines = path.read_text().splitlines()
    rnd = random.Random(3)
    junk = ["", "[", "{}", "null", "[0]", '[9, "draw"]', '["table", "draw"]', '{"hand": 7}']
    junk += ['{"settings": 3}', '[0, "play R+9"]', "[" * 200, '{"hand": 1}', '[0, "draw", 1]', "9" * 5000]
    outcomes = {"refused": 0, "loaded": 0}
    for _ in range(400):
        mutant = list(lines)
        for _ in range(rnd.randint(1, 3)):
            k = rnd.randrange(len(mutant))
            r = rnd.random()
            if r < 0.4:
                mutant[k] = rnd.choice(junk)
            elif r < 0.6:
                del mutant[k]
            elif r < 0.8 and k:
                mutant[k], mutant[k - 1] = mutant[k - 1], mutant[k]
            else:
                header = json.loads(lines[0])
                key = rnd.choice(sorted(header))
                header[key] = json.loads(
                    rnd.choice(["null", "0", '"x"', "[]", "{}", "-5", "1e400", '{"a": 1}'])
                )
                mutant[0] = json.dumps(header)
        path.write_text("\n".join(mutant) + "\n")
        try:
            savefile.load(path)
            outcomes["loaded"] += 1
        except SavedGameError:
            outcomes["refused"] += 1
    assert outcomes["refused"] > 300, outcomes


def test_a_resumed_hand_shows_its_log_so_far(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    table = bots_only_table(5, path)
    shown = table.deal_lines()
    for _ in range(25):
        move = table.next_bot_move()
        assert move is not None
        shown += table.apply(move.player, move.action)
        if table.game.hand_over:
            break
    assert resume(path).history_lines() == shown
