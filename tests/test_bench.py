"""The benchmark script runs and prints its figures (``--quick --no-rlcard``); no timing is judged."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from unotable.native import COMPILED

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench.py"

TABLES = [
    ("classic", 2),
    ("classic", 4),
    ("harry-potter", 2),
    ("harry-potter", 4),
    ("cars2", 2),
    ("cars2", 4),
    ("classic", 10),
]
NUMBER = r"\d+(?:\.\d+)?"


def test_quick_bench_prints_every_figure() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--quick", "--no-rlcard"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for edition, players in TABLES:
        for policy in ("uniform", "plays-first"):
            engine = re.compile(
                rf"^engine edition={edition} players={players} policy={policy} "
                rf"hands_per_s={NUMBER} actions_per_hand={NUMBER} us_per_pair={NUMBER} "
            )
            assert any(engine.match(line) for line in lines), (
                f"no engine line for {edition} {players}p {policy}"
            )
        state = re.compile(
            rf"^state edition={edition} players={players} bytes_deep=\d+ bytes_tracemalloc=-?\d+$"
        )
        assert any(state.match(line) for line in lines), f"no state line for {edition} {players}p"
    for players in (2, 4):
        stripped = re.compile(
            rf"^stripped players={players} hands_per_s={NUMBER} actions_per_hand={NUMBER} "
            rf"ours_over_stripped={NUMBER} "
        )
        assert any(stripped.match(line) for line in lines), f"no stripped line for {players}p"
    assert any(line.startswith("# RLCard comparison: skipped") for line in lines)
    assert any(
        line.startswith("ratio_vs_rlcard_uniform_2p=nan ratio_vs_rlcard_uniform_4p=nan") for line in lines
    )
    assert lines[-1] == (
        "ratio_vs_rlcard_2p=nan ratio_vs_rlcard_4p=nan "
        "native_ratio_vs_rlcard_2p=nan native_ratio_vs_rlcard_4p=nan"
    )
    if COMPILED:
        for edition, players in TABLES:
            for policy in ("uniform", "plays-first"):
                for deals in ("engine", "fast"):
                    line = re.compile(
                        rf"^native edition={edition} players={players} policy={policy} deals={deals} "
                        rf"hands_per_s={NUMBER} actions_per_hand={NUMBER} over_python={NUMBER} "
                    )
                    assert any(line.match(x) for x in lines), f"no native line: {edition} {players}p {policy}"
        assert any(re.match(r"^native_state bytes_per_table=\d+ ", x) for x in lines)
    else:
        assert any(x.startswith("# native core: not loaded") for x in lines)


INSTRUCTIONS = BENCH.parent / "instructions.py"


def test_instruction_counts_child_plays_the_benchmarks_hands() -> None:
    """The part of ``bench/instructions.py`` that callgrind counts, run here without Valgrind."""
    for part in ("hands", "deal"):
        proc = subprocess.run(
            [sys.executable, str(INSTRUCTIONS), "--part", part, "--child", "ours", "2", "3", "-"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        actions = int(proc.stdout.split()[-1])
        assert (actions > 3) if part == "hands" else (actions == 0)


def test_instruction_counts_say_when_valgrind_is_missing() -> None:
    proc = subprocess.run(
        [sys.executable, str(INSTRUCTIONS), "--hands", "5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/nonexistent"},
    )
    assert proc.returncode == 1
    assert "valgrind is not installed" in proc.stdout


def test_stripped_reference_plays_whole_hands_reproducibly() -> None:
    """The stripped loop (a ceiling for pure Python) ends every hand, as short as RLCard's."""
    sys.path.insert(0, str(BENCH.parent))
    try:
        import picks  # noqa: PLC0415 - bench/ is not a package
        import stripped  # noqa: PLC0415
    finally:
        sys.path.remove(str(BENCH.parent))
    for players in (2, 4):
        seeds = range(100, 300)
        actions = stripped.play_stripped(players, seeds, picks.random_words(1))
        assert actions == stripped.play_stripped(players, seeds, picks.random_words(1))
        assert 30 < actions / len(seeds) < 80  # RLCard's hands: 45 (2p) and 49 (4p) actions


def test_quick_env_bench_prints_its_figures() -> None:
    """``bench/bench_env.py`` runs (the env needs the [rl] extra) and ends with its ratio line."""
    pytest.importorskip("pettingzoo")
    script = BENCH.parent / "bench_env.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--quick", "--no-rlcard"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for players in (2, 4):
        for kind in ("single", "vector"):
            assert re.search(rf"^classic {players}p +{kind}: +\d+ steps/s$", proc.stdout, re.M), lines
    backend = "native" if COMPILED else "python"
    assert re.search(rf"^# .* tables on the {backend} backend", proc.stdout, re.M), lines
    assert re.search(rf"^# single: the PettingZoo env on the {backend} backend", proc.stdout, re.M), lines
    assert lines[-1] == (
        "env_ratio_vs_rlcard_2p=nan env_ratio_vs_rlcard_4p=nan "
        "pettingzoo_ratio_vs_rlcard_2p=nan pettingzoo_ratio_vs_rlcard_4p=nan"
    )


def _shuffles_module() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "shuffles.py"
    spec = importlib.util.spec_from_file_location("bench_shuffles", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shuffle_candidates_match_their_references() -> None:
    """bench/shuffles.py's candidates (P-200) are permutations equal to their plain references."""
    shuffles = _shuffles_module()
    for name in shuffles.CANDIDATES:
        shuffles.check(name, range(30))
    real = shuffles.CANDIDATES["splitmix-lanes"]
    broken = shuffles.CANDIDATES["lowbias32-lanes"][0], real[1]  # another shuffle, same reference
    shuffles.CANDIDATES["splitmix-lanes"] = broken
    try:
        with pytest.raises(AssertionError):
            shuffles.check("splitmix-lanes", range(3))
    finally:
        shuffles.CANDIDATES["splitmix-lanes"] = real


WEB_BENCH = BENCH.parent / "bench_web.py"


def test_quick_web_bench_prints_its_figures() -> None:
    """``make bench-web`` in its quick mode (our tree only): a line per number of rooms with every
    figure, the rooms held, and the reconnect storm's line."""
    pytest.importorskip("websockets", reason="the web benchmark needs the web extra")
    proc = subprocess.run(
        [sys.executable, str(WEB_BENCH), "--quick", "--no-baseline"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for rooms in (10, 50):
        line = next(x for x in proc.stdout.splitlines() if x.startswith(f"tree=ours nodes=1 rooms={rooms} "))
        for key in (
            "actions_per_s",
            "p50_ms",
            "p99_ms",
            "warm_p99_ms",
            "server_cpu_ms_per_action",
            "client_cores",
        ):
            assert re.search(rf"\b{key}={NUMBER}\b", line), (key, line)
        assert int(re.search(r"actions=(\d+)", line).group(1)) > 0  # type: ignore[union-attr]
        timeline = re.search(r"\bp99_ms_by_5s=(\S+)", line)  # 8 s: two windows
        assert timeline is not None and len(timeline.group(1).split(",")) == 2, line
    assert re.search(r"^held tree=ours nodes=1 rooms_at_p99_under_50ms=\d+", proc.stdout, re.M)
    storm = subprocess.run(
        [sys.executable, str(WEB_BENCH), "--quick", "--no-baseline", "--storm", "--storm-rooms", "10"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert storm.returncode == 0, storm.stdout + storm.stderr
    line = next(x for x in storm.stdout.splitlines() if x.startswith("storm tree=ours"))
    assert "reconnecting=20 " in line and "welcomed=20 " in line, line
