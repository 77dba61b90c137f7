"""The ladder's script (``bench/ladder.py``): paired, seat-rotated deals on RLCard's rules, every
agent choosing among the moves the preset offers, cells resumed where they stopped; the shipped
DQN's weights load into RLCard's own agent."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("rlcard")
pytest.importorskip("torch")

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_a_deal_is_played_from_both_seats_and_replays_equal() -> None:
    ladder = load("ladder")
    for a, b in (("greedy", "uno-rule-v1"), ("rlcard-dqn", "random"), ("learned", "greedy")):
        row = ladder.play_deal((a, b, 7))
        assert row["seed"] == 7 and len(row["a"]) == 2 and set(row["a"]) <= {0.0, 0.5, 1.0}
        assert all(n > 0 for n in row["actions"]) and row["decisions"][a] > 0 and row["decisions"][b] > 0
        again = ladder.play_deal((a, b, 7))
        assert again["a"] == row["a"] and again["actions"] == row["actions"]  # seeded: the same hands


def test_cells_resume_and_the_summary_pairs_deals(tmp_path: Path) -> None:
    ladder = load("ladder")
    argv = ["--hands", "6", "--slow-hands", "2", "--agents", "random,greedy", "--dir", str(tmp_path)]
    assert ladder.main([*argv, "--json", str(tmp_path / "l.json")]) == 0
    path = ladder.cell_file(tmp_path, "random", "greedy")
    first = path.read_text()
    assert len(first.splitlines()) == 3  # 3 deals, 6 hands
    assert ladder.main(argv) == 0
    assert path.read_text() == first  # nothing left to play: nothing played again
    ladder.main([*argv[:1], "10", *argv[2:]])
    rows = ladder.rows(path)
    assert [r["seed"] for r in rows] == [2026 + i for i in range(5)]  # extended, not replayed
    figures = json.loads((tmp_path / "l.json").read_text())["cells"]["random|greedy"]
    assert (
        figures["hands"] == 6 and 0 <= figures["paired_low"] <= figures["rate"] <= figures["paired_high"] <= 1
    )
    s = ladder.summary([{"a": a, "actions": [40, 50]} for a in ([1.0, 0.0], [1.0, 1.0], [0.0, 0.5])])
    assert s["hands"] == 6 and s["rate"] == pytest.approx(3.5 / 6) and s["truncated"] == 1
    flipped = ladder._rate({"x|y": s}, "y", "x")
    assert flipped["rate"] == pytest.approx(1 - s["rate"]) and flipped["paired_low"] == pytest.approx(
        1 - s["paired_high"]
    )


def test_the_shipped_dqn_loads_and_plays_legal_moves() -> None:
    import rlcard  # noqa: PLC0415

    import unotable.interop.rlcard  # noqa: F401, PLC0415

    train = load("train_rlcard_dqn")
    weights = BENCH.parent / "tests" / "data" / "rlcard_dqn_uno.pt"
    assert weights.stat().st_size < 1_000_000
    agent = train.load_agent(weights)
    env = rlcard.make("unotable-uno", config={"seed": 3})
    state, _ = env.reset()
    for _ in range(20):
        if env.is_over():
            break
        action, _ = agent.eval_step(state)
        assert action in state["legal_actions"]
        state, _ = env.step(action)
