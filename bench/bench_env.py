"""``make bench-env``: env steps per second, ours (single and vectorized) against RLCard's env.

A *step* is one action taken through the environment, with the next observation and action
mask built (RLCard: its state dict with the 4x4x15 observation and legal ids). Actions are
uniform over the legal ones (``legal[word() % len(legal)]``, ``bench/picks.py``; the vector
env picks uniformly among each table's mask with numpy: the argmax of uniform noise times the
mask, timed too). Ours play the classic rules
in full (so ``draw`` is always legal and out-of-turn moments are turns, ``decline`` included);
RLCard's env offers ``draw`` only with nothing to play.

- ``single``: :func:`unotable.env.raw_env`, the PettingZoo loop ``last()`` + ``step()``, on the
  backend ``backend="auto"`` takes (the native core's table when built: the header says);
  ``single-py`` is the same on the Python engine;
- ``vector``: :class:`unotable.env.VectorEnv` with ``--tables`` tables (512 by default), one
  ``step`` moving every table (its steps are counted per table), on the backend
  ``backend="auto"`` takes: the native core's (``unotable.env.native.env_backend``) when it is
  built, which the header says; then ``vector-py`` is the same on the Python backend;
- ``rlcard``: ``rlcard.make("uno")`` in ``bench/.venv-rlcard`` (``bench/rlcard_env_worker.py``).

Rounds alternate ours and theirs; each figure is the median over rounds. The last line is
``env_ratio_vs_rlcard_2p=X env_ratio_vs_rlcard_4p=Y pettingzoo_ratio_vs_rlcard_2p=Z
pettingzoo_ratio_vs_rlcard_4p=W``: the vectorized env, then the PettingZoo env (one table, one
step at a time, as RLCard's), against RLCard's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from picks import random_words
from unotable.env import VectorEnv, raw_env

BENCH_DIR: Final = Path(__file__).resolve().parent
RLCARD_PYTHON: Final = BENCH_DIR / ".venv-rlcard" / "bin" / "python"
WORKER: Final = BENCH_DIR / "rlcard_env_worker.py"


def single_steps(players: int, steps: int, seed: int, backend: str = "auto") -> float:
    """Steps per second of the AEC env."""
    e = raw_env(players=players, backend=backend)
    word = random_words(seed)
    e.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.reset()
            obs, *_ = e.last()
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[word() % len(legal)]))
    return steps / (time.perf_counter() - start)


def vector_steps(
    players: int, steps: int, seed: int, tables: int, backend: str = "auto", opponents: str | None = None
) -> float:
    """Steps per second (summed over tables) of the vector env on ``backend``; with
    ``opponents``, the learner's steps (the bots' moves in between are not counted)."""
    v = VectorEnv(tables, players=players, backend=backend, opponents=opponents)
    rng = np.random.default_rng(seed)
    b = v.reset(seed)
    noise = np.empty(b.action_mask.shape, np.float32)
    rounds = max(1, steps // tables)
    start = time.perf_counter()
    for _ in range(rounds):
        rng.random(dtype=np.float32, out=noise)  # uniform among each table's legal actions
        noise *= b.action_mask
        b = v.step(noise.argmax(1))
    return rounds * tables / (time.perf_counter() - start)


def vector_backend(players: int, tables: int) -> str:
    """The backend ``VectorEnv(backend="auto")`` takes here: ``native`` when the core is built."""
    return VectorEnv(tables, players=players).backend.name


class RLCardEnv:
    """RLCard's env in its own venv (``bench/rlcard_env_worker.py``)."""

    def __init__(self) -> None:
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        self.proc = subprocess.Popen(
            [str(RLCARD_PYTHON), str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        hello = self._read()
        if "error" in hello:
            raise RuntimeError(hello["error"])
        self.versions = hello

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the RLCard env worker ended early (exit code {self.proc.poll()})")
        data: dict[str, Any] = json.loads(line)
        return data

    def steps_per_second(self, players: int, steps: int, seed: int) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"players": players, "steps": steps, "seed": seed}) + "\n")
        self.proc.stdin.flush()
        r = self._read()
        return float(r["steps"]) / float(r["seconds"])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="env steps per second, ours against RLCard's env")
    p.add_argument("--quick", action="store_true", help="a short run (a few seconds)")
    p.add_argument("--no-rlcard", action="store_true", help="leave RLCard out (nan ratios)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--steps", type=int, default=40_000, help="steps per figure and round")
    p.add_argument("--tables", type=int, default=512, help="tables of the vector env")
    p.add_argument(
        "--opponents",
        default="greedy",
        help="the bots of the vs-bots figure (the learner's steps against them), or 'none'",
    )
    args = p.parse_args(argv)
    rounds, steps = (1, 3000) if args.quick else (args.rounds, args.steps)
    backend = vector_backend(2, args.tables)
    # the native backend is timed on more steps: 40,000 are 78 calls of 512 tables, 20 ms
    vector_steps_count = steps if backend == "python" else 10 * steps
    rlcard: RLCardEnv | None = None
    if not args.no_rlcard:
        try:
            rlcard = RLCardEnv()
            print(
                f"# RLCard {rlcard.versions['rlcard']} (numpy {rlcard.versions['numpy']}) in {RLCARD_PYTHON}"
            )
        except (OSError, RuntimeError) as exc:
            print(f"# RLCard is not available ({exc}): its figures are nan")
    print(
        f"# {rounds} rounds of {steps} steps per figure ({vector_steps_count} for the vector env), "
        f"vector env of {args.tables} tables on the {backend} backend"
        + ("" if backend == "python" else " (vector-py: the same on the python backend)")
    )
    single_backend = raw_env(players=2).backend
    print(f"# single: the PettingZoo env on the {single_backend} backend")
    kinds: tuple[str, ...] = (
        ("single", "vector", "rlcard")
        if backend == "python"
        else ("single", "single-py", "vector-py", "vector", "rlcard")
    )
    opponents = None if args.opponents == "none" else args.opponents
    if opponents is not None:
        kinds += ("vs-bots",)
        print(f"# vs-bots: the vector env's learner steps against {opponents} bots in the other seats")
    ratios = {}
    aec_ratios = {}
    for players in (2, 4):
        figures: dict[str, list[float]] = {k: [] for k in kinds}
        for r in range(rounds):
            seed = 1000 * players + r
            figures["single"].append(single_steps(players, steps, seed))
            if "single-py" in figures:
                figures["single-py"].append(single_steps(players, steps // 4, seed, "python"))
            if rlcard is not None:
                figures["rlcard"].append(rlcard.steps_per_second(players, steps, seed))
            figures["vector"].append(vector_steps(players, vector_steps_count, seed, args.tables))
            if "vector-py" in figures:
                figures["vector-py"].append(vector_steps(players, steps, seed, args.tables, "python"))
            if opponents is not None:
                figures["vs-bots"].append(
                    vector_steps(players, vector_steps_count // 2, seed, args.tables, opponents=opponents)
                )
        med = {k: statistics.median(v) if v else float("nan") for k, v in figures.items()}
        for k in kinds:
            print(f"classic {players}p {k:>9}: {med[k]:>10.0f} steps/s")
        ratios[players] = med["vector"] / med["rlcard"]
        aec_ratios[players] = med["single"] / med["rlcard"]
        print(
            f"classic {players}p vector ({backend}) / rlcard: {ratios[players]:.2f}x   "
            f"single / rlcard: {med['single'] / med['rlcard']:.2f}x"
        )
    if rlcard is not None:
        rlcard.close()
    print(
        f"env_ratio_vs_rlcard_2p={ratios[2]:.2f} env_ratio_vs_rlcard_4p={ratios[4]:.2f} "
        f"pettingzoo_ratio_vs_rlcard_2p={aec_ratios[2]:.2f} pettingzoo_ratio_vs_rlcard_4p={aec_ratios[4]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
