"""The benchmark script runs and prints its figures (``--quick --no-rlcard``); no timing is judged."""

from __future__ import annotations

import importlib.util
import json
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


def test_quick_web_bench_prints_its_figures(tmp_path: Path) -> None:
    """``make bench-web`` in its quick mode (our tree only): a line per number of rooms with every
    figure, the rooms held, and the reconnect storm's line; both runs kept in one ``--json`` file
    and drawn by ``--plot``."""
    pytest.importorskip("websockets", reason="the web benchmark needs the web extra")
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    kept, drawn = tmp_path / "figures.json", tmp_path / "figures.png"
    keep = ["--json", str(kept), "--plot", str(drawn)]
    proc = subprocess.run(
        [sys.executable, str(WEB_BENCH), "--quick", "--no-baseline", *keep],
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
    rooms = json.loads(kept.read_text())["runs"]
    assert [(r["kind"], r["rooms"], r["nodes"]) for r in rooms] == [("rooms", 10, 1), ("rooms", 50, 1)]
    assert all(r["actions"] > 0 and r["p99"] > 0 and r["database"] == "SQLite" for r in rooms)
    drawn.unlink()
    storm = subprocess.run(
        [sys.executable, str(WEB_BENCH), "--quick", "--no-baseline", "--storm", "--storm-rooms", "10", *keep],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert storm.returncode == 0, storm.stdout + storm.stderr
    line = next(x for x in storm.stdout.splitlines() if x.startswith("storm tree=ours"))
    assert "reconnecting=20 " in line and "welcomed=20 " in line, line
    runs = json.loads(kept.read_text())["runs"]  # the storm beside the rooms, not instead of them
    assert [r["kind"] for r in runs] == ["rooms", "rooms", "storm"], runs
    assert runs[2]["reconnecting"] == 20 and len(runs[2]["other_p99_by_1s"]) == 12
    assert drawn.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _web_figures() -> ModuleType:
    path = WEB_BENCH.parent / "web_figures.py"
    spec = importlib.util.spec_from_file_location("bench_web_figures", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(tree: str, rooms: int, p99: float, *, nodes: int = 1, database: str = "SQLite") -> dict[str, object]:
    return {"kind": "rooms", "database": database, "tree": tree, "nodes": nodes, "rooms": rooms, "p99": p99}


def test_web_figures_keep_each_measure_once_and_the_latest(tmp_path: Path) -> None:
    """``--json``: a run replaces the same measure's earlier one (tree, nodes, rooms, database,
    kind) and leaves the others; a NaN is kept as null; a file of something else is refused."""
    figures = _web_figures()
    path = tmp_path / "figures.json"
    figures.record(path, [_run("ours", 200, 0.020), _run("ours", 1000, 0.040)])
    figures.record(path, [_run("ours", 1000, 0.030), _run("ours", 1000, 0.030, database="PostgreSQL")])
    figures.record(path, [figures.clean(_run("release", 1000, float("nan")))])
    runs = figures.load(path)
    assert [(r["database"], r["tree"], r["rooms"], r["p99"]) for r in runs] == [
        ("PostgreSQL", "ours", 1000, 0.030),
        ("SQLite", "ours", 200, 0.020),
        ("SQLite", "ours", 1000, 0.030),
        ("SQLite", "release", 1000, None),
    ]
    assert "NaN" not in path.read_text()
    other = tmp_path / "other.json"
    other.write_text('{"runs": []}')
    with pytest.raises(ValueError, match="not a file of make bench-web's figures"):
        figures.load(other)
    broken = json.loads(path.read_text())
    del broken["runs"][1]["rooms"]
    other.write_text(json.dumps(broken))
    with pytest.raises(ValueError, match="run 2 is not one of make bench-web's"):
        figures.record(other, [_run("ours", 200, 0.010)])
    assert json.loads(other.read_text()) == broken  # refused: the file left as it was


def test_web_bench_replot_draws_the_file_and_refuses_what_it_cannot(tmp_path: Path) -> None:
    """``--replot`` draws the kept figures without running anything; without ``--json`` or
    with a file that is not the benchmark's it says so (exit 2) and draws nothing."""
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    figures = _web_figures()
    path, png = tmp_path / "figures.json", tmp_path / "figures.png"
    storm = {"kind": "storm", "database": "SQLite", "tree": "ours", "rooms": 200, "reconnecting": 2000}
    storm |= {"within_5s": 2000, "other_p99_during": 0.06, "other_p99_by_1s": [0.004, None] + [0.05] * 10}
    figures.record(path, [_run("ours", 500, 0.02), _run("release", 500, 0.2), storm])
    cmd = [sys.executable, str(WEB_BENCH), "--replot"]
    done = subprocess.run(
        [*cmd, "--json", str(path), "--plot", str(png)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "storm SQLite tree=ours welcomed_within_5s=2000/2000 other_p99_during_ms=60.0" in done.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    png.unlink()
    bare = subprocess.run([*cmd, "--plot", str(png)], capture_output=True, text=True, check=False)
    assert bare.returncode == 2 and "--replot needs --json" in bare.stderr
    (tmp_path / "other.json").write_text("[1, 2]")
    wrong = subprocess.run(
        [*cmd, "--json", str(tmp_path / "other.json"), "--plot", str(png)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert wrong.returncode == 2 and "is not a file of make bench-web's figures" in wrong.stderr
    assert not png.exists()
