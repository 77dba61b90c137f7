"""``uno simulate`` and :mod:`unotable.sim`: reproducible results on any number of workers,
the JSON and PNG outputs, one-line errors, and the Ray backend when Ray is there."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from unotable import Rules, find_edition
from unotable.cli import main
from unotable.errors import ConfigError
from unotable.sim import (
    BotSpec,
    SimConfig,
    derive_seed,
    parse_bots,
    results_without_timing,
    simulate,
    summarize,
    wilson,
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse exits on bad arguments
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seeds_are_derived_from_the_seed_and_the_hand_only() -> None:
    assert derive_seed(1, "hand", 3) == derive_seed(1, "hand", 3)
    assert len({derive_seed(1, "hand", i) for i in range(1000)}) == 1000
    assert derive_seed(1, "hand", 3) != derive_seed(2, "hand", 3)


def test_bot_specs() -> None:
    specs = parse_bots("search:budget=20:reward=points,greedy:forget_uno=0.1,random", 3)
    assert specs[0] == BotSpec("search", (("budget", 20), ("reward", "points")))
    assert specs[1].make(0).forget_uno == 0.1
    assert parse_bots("greedy", 4) == (BotSpec("greedy"),) * 4
    with pytest.raises(ConfigError, match="lists 3 bots for 4 seats"):
        parse_bots("greedy,random,greedy", 4)
    with pytest.raises(ConfigError, match="unknown bot"):
        parse_bots("clever", 2)
    with pytest.raises(ConfigError, match="key=value"):
        parse_bots("greedy:fast", 2)


@pytest.mark.parametrize(
    ("edition", "players", "bots", "games"),
    [
        ("classic", 4, "greedy,random,search:budget=6,random", 0),
        ("harry-potter", 3, "greedy:forget_uno=0.3", 0),
        ("cars2", 2, "greedy,aggressive", 2),
    ],
)
def test_results_do_not_depend_on_the_number_of_workers(
    edition: str, players: int, bots: str, games: int
) -> None:
    rules = Rules(edition=find_edition(edition), players=players, target=150)
    cfg = SimConfig(rules, parse_bots(bots, players), hands=0 if games else 24, games=games, seed=9)
    one = summarize(cfg, simulate(cfg, workers=1))
    two = summarize(cfg, simulate(cfg, workers=2))
    assert results_without_timing(one) == results_without_timing(two)
    assert sum(s["wins"] for s in one["seats"]) >= (games or 24)


def test_simulate_command_writes_json_and_the_same_results_for_one_or_two_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs: list[dict[str, Any]] = []
    for workers in ("1", "2"):
        path = tmp_path / f"w{workers}.json"
        argv = ["simulate", "--hands", "40", "--players", "4", "--bots", "greedy,random,random,random"]
        argv += ["--seed", "5", "--workers", workers, "--json", str(path), "--quiet"]
        code, out, err = run(argv, capsys)
        assert code == 0, err
        assert "greedy" in out and "95% CI" in out
        outputs.append(json.loads(path.read_text()))
    data = outputs[0]
    assert results_without_timing(outputs[0]) == results_without_timing(outputs[1])
    assert data["hands"] == 40
    assert [s["bot"] for s in data["seats"]] == ["greedy", "random", "random", "random"]
    for seat in data["seats"]:
        assert set(seat) >= {"bot", "wins", "win_rate", "ci95"}
        low, high = seat["ci95"]
        assert 0 <= low <= seat["win_rate"] <= high <= 1
        assert seat["win_rate"] == pytest.approx(seat["wins"] / 40)
    assert sum(s["wins"] for s in data["seats"]) == 40
    assert sum(p["wins"] for p in data["positions"]) == 40
    assert data["hand_length"]["mean_actions"] > 0
    assert sum(data["hand_length"]["histogram"].values()) == 40
    assert math.isclose(sum(s["advantage"] for s in data["seats"]), 0.0, abs_tol=1e-9)


def test_simulate_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.json"
    argv = ["simulate", "--games", "3", "--players", "3", "--bots", "greedy", "--target", "100"]
    argv += ["--workers", "1", "--json", str(path), "--quiet"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    data = json.loads(path.read_text())
    assert data["games"] == 3 and data["hands"] >= 3
    assert sum(s["wins"] for s in data["seats"]) >= 3
    assert "games" in out


def test_simulate_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "chart.png"
    argv = ["simulate", "--hands", "20", "--bots", "greedy,random", "--workers", "1"]
    argv += ["--plot", str(path), "--quiet"]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hands", "0"], "positive"),
        (["--hands", "ten"], "whole number"),
        (["--hands", "5", "--games", "5"], "not allowed with"),
        (["--players", "11"], "from 2 to 10"),
        (["--edition", "star-wars"], "unknown edition"),
        (["--mode", "chaos"], "invalid choice"),
        (["--bots", "clever"], "unknown bot"),
        (["--players", "4", "--bots", "greedy,random,random"], "3 bots for 4 seats"),
        (["--bots", "search:budget=-1"], "budget"),
        (["--bots", "greedy:speed=3"], "has no option 'speed' (its options: action_bias,"),
        (["--bots", "search:budget=100000000"], "budget must be a whole number from 1 to 20000"),
        (["--bots", "search:time_budget=1e9"], "time_budget"),
        (["--hands", "100000000000"], "at most 1,000,000 hands"),
        (["--games", "2000000"], "at most 1,000,000 games"),
        (["--target", "1000000000"], "target must be a whole number from 1 to 100000"),
        (["--hands", "9" * 5000], "whole number"),
        (["--seed", "9" * 5000], "invalid int value"),
        (["--option", "blanks=" + "[" * 100_000], "nested more than 64 levels"),
        (["--option", "target=" + "9" * 5000], "4300 digits"),
        (["--option", 'birthdays=["0\u00b2-01","01-01","01-01","01-01"]', "--edition", "hp"], "MM-DD"),
        (["--option", "stacking=true"], "not implemented"),
        (["--option", "nonsense"], "KEY=VALUE"),
        (["--mode", "partners", "--players", "3"], "partners"),
        (["--workers", "0"], "positive"),
        (["--backend", "spark"], "invalid choice"),
        (["--address", "1.2.3.4:6379"], "--backend ray"),
        (["--json", "/no/such/folder/out.json"], "no folder"),
        (["--json", "/tmp"], "/tmp: it is a folder"),
        (["--plot", "/"], "/: it is a folder"),
        (["--json", "x" * 5000], "File name too long"),
        (["--frobnicate"], "unrecognized"),
    ],
)
def test_bad_flags_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["simulate", "--quiet", *argv], capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert message in lines[0]


def test_ray_backend_gives_the_local_results() -> None:
    ray = pytest.importorskip("ray")
    rules = Rules(players=3)
    cfg = SimConfig(rules, parse_bots("greedy,random,search:budget=4", 3), hands=12, seed=3)
    try:
        remote = summarize(cfg, simulate(cfg, backend="ray", workers=2))
    finally:
        ray.shutdown()
    local = summarize(cfg, simulate(cfg, workers=1))
    assert results_without_timing(remote) == results_without_timing(local)
