"""The ``uno`` command: scenario runs, bots-only play, and one-line errors for bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unotable.cli import main
from unotable.errors import UnoError
from unotable.match import Game
from unotable.rules import Rules

UPSTREAM = sorted((Path(__file__).parent / "scenarios" / "upstream").glob("*.json"))
GOOD: dict[str, Any] = json.loads(UPSTREAM[0].read_text())


def write(tmp_path: Path, name: str, content: Any) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse exits on bad arguments
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_scenarios_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["scenario", *map(str, UPSTREAM)], capsys)
    assert code == 0
    assert f"{len(UPSTREAM)} passed, 0 failed" in out


def test_a_failing_expectation_names_file_key_expected_and_actual(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(json.dumps(GOOD))
    data["expect"] = {"current": 2, "hand_sizes": [9, 9, 9]}
    path = write(tmp_path, "wrong.json", data)
    code, out, _ = run(["scenario", path], capsys)
    assert code == 1
    assert f"{path}: hand_sizes: expected [9, 9, 9], actual" in out
    assert "0 passed, 1 failed" in out


def bad_files() -> list[tuple[str, Any, str]]:
    unknown_key = json.loads(json.dumps(GOOD)) | {"extra": 1}
    unknown_expect = json.loads(json.dumps(GOOD))
    unknown_expect["expect"]["colour"] = "R"
    bad_option = json.loads(json.dumps(GOOD))
    bad_option["rules"]["players"] = "three"
    bad_card = json.loads(json.dumps(GOOD))
    bad_card["position"]["hands"][0][0] = "R11"
    both = json.loads(json.dumps(GOOD)) | {"start": {"dealer": 0, "deck": []}}
    short_deck = {k: v for k, v in GOOD.items() if k != "position"} | {"start": {"dealer": 0, "deck": ["R1"]}}
    bad_pair = json.loads(json.dumps(GOOD))
    bad_pair["actions"] = [[0]]
    bad_error = json.loads(json.dumps(GOOD))
    bad_error["expect"]["error"] = {"index": 0, "code": "oops"}
    return [
        ("not JSON", "{not json", "not JSON"),
        ("JSON that is not an object", [1, 2], "a scenario is a JSON object, not list"),
        ("unknown top-level key", unknown_key, "unknown key 'extra'"),
        ("unknown expect key", unknown_expect, "expect: unknown key 'colour'"),
        ("option of the wrong type", bad_option, "players must be an integer"),
        ("card not of the notation", bad_card, "not a card: 'R11'"),
        ("position and start", both, "exactly one of 'position' and 'start'"),
        ("partial deck", short_deck, "the deck must be the whole"),
        ("action not a pair", bad_pair, "[seat, action] pair"),
        ("unknown error code", bad_error, "unknown error code 'oops'"),
    ]


@pytest.mark.parametrize(("what", "content", "message"), bad_files(), ids=[b[0] for b in bad_files()])
def test_malformed_scenario_is_one_line_and_non_zero(
    what: str, content: Any, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "bad.json", content)
    code, out, err = run(["scenario", path], capsys)
    assert code == 1, what
    lines = [line for line in out.splitlines() if not line.startswith("scenarios:")]
    assert len(lines) == 1 and lines[0].startswith(path) and message in lines[0], out
    assert "Traceback" not in out + err


def test_an_action_in_bad_notation_fails_unless_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(json.dumps(GOOD))
    data["actions"] = [[0, "play r1"]]
    code, out, _ = run(["scenario", write(tmp_path, "a.json", data)], capsys)
    assert code == 1 and "bad_notation" in out
    data["expect"] = {"error": {"index": 0, "code": "bad_notation"}}
    code, out, _ = run(["scenario", write(tmp_path, "b.json", data)], capsys)
    assert code == 0, out
    data["actions"] = [[7, "draw"]]
    code, out, _ = run(["scenario", write(tmp_path, "c.json", data)], capsys)
    assert code == 0, out


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["scenario", "/nonexistent/x.json"], capsys)
    assert code == 1 and "/nonexistent/x.json: cannot read" in out


@pytest.mark.parametrize(
    "argv",
    [["fly"], ["play", "--players", "11"], ["play", "--players", "two"],
     ["play", "--edition", "monopoly"], ["play", "--seed", "x"], ["scenario"]],
)  # fmt: skip
def test_bad_arguments_get_one_line_and_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1 and err.startswith("uno") and ": error: " in err


def test_plain_uno_lists_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([], capsys)
    assert code == 0 and err == ""
    for command in ("scenario", "play", "simulate"):
        assert re.search(rf"^\s+{command}\s+\S", out, re.MULTILINE), out


def test_needs_n_players_is_grammatical() -> None:
    with pytest.raises(UnoError, match=r"these rules \(partners\) need 4 players, not 3"):
        Game.new(Rules(players=4, mode="partners"), 1, players=3)
    with pytest.raises(UnoError, match=r"a game of two tables of 4 needs 8 players, not 4"):
        Game.new(Rules(players=4, mode="two-tables"), 1, players=4)


@pytest.mark.parametrize(
    ("edition", "players"),
    [("classic", 4), ("harry-potter", 3), ("cars2", 2), ("modern", 3), ("all-wild", 3), ("no-mercy", 4)],
)
def test_play_plays_a_bots_only_hand(edition: str, players: int, capsys: pytest.CaptureFixture[str]) -> None:
    # Without a terminal, ``play --auto --fast`` prints a bots-only game (the full screen: test_tui).
    argv = ["play", "--auto", "--fast", "--target", "100", "--edition", edition, "--players", str(players)]
    code, out, _ = run([*argv, "--seed", "5"], capsys)
    assert code == 0
    assert "went out and scored" in out and out.strip().splitlines()[-1].startswith("Scores:")
    again = run([*argv, "--seed", "5"], capsys)[1]
    assert again == out


def test_the_console_command_runs_without_traceback(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.json", "[]")
    proc = subprocess.run(
        [sys.executable, "-m", "unotable", "scenario", bad], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "a scenario is a JSON object" in proc.stdout
