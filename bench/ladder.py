"""The ladder: every bot of the project, RLCard's rule agent and a trained RLCard DQN, heads-up
on RLCard's rules (docs/bots.md, "The ladder").

Every hand is played on ``rlcard.make("unotable-uno")`` with the ``rlcard`` preset
(:mod:`unotable.interop.rlcard`), so RLCard's agents play by the rules they were written for
and every agent chooses among the same moves: RLCard's agents (``uno-rule-v1``, the DQN of
``bench/train_rlcard_dqn.py``) through RLCard's state and ids, the project's bots (``random``,
``greedy``, ``search``, ``expert``, ``learned``) through their seat's view
(``game.table.view(seat)``, its legal actions narrowed to the moves the preset offers, which
RLCard's spelling names one to one), never anything else of the state.

**Paired and seat-rotated.** Deal ``i`` (the env's generator seeded ``seed + i``: the same cards,
the same dealer, the same first colours) is played twice, the two agents swapping seats; every
cell plays the same deals. A hand scores 1 to its winner, 0 to the loser, a half each if the
bridge truncates it (2,000 actions; it happens rarely). A cell's figure is the row agent's mean
score over its hands with a 95% interval over the deals' paired means (the two hands of a deal
are one sample: the luck of the deal cancels), and Wilson's interval of the hands for comparison.

Each cell is a file ``DIR/A_vs_B.jsonl``, one line per deal as it ends: a run stopped (or
killed) is resumed where it stopped, and a run with larger counts extends the cells. Prints the
table in Markdown, writes the figures to ``--json`` and draws them with ``--plot``.

``nice -n 19 python bench/ladder.py --hands 1000 --slow-hands 200 --workers 2 --dir runs/ladder
--json docs/figures/ladder.json --plot docs/figures/ladder.png``
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import rlcard
from rlcard import models
from rlcard.games.uno.utils import ACTION_LIST

import unotable.interop.rlcard as bridge  # registers unotable-uno
from unotable.notation import ACTION_ID, ACTION_TEXT, ACTION_UNO
from unotable.sim import BotSpec
from unotable.sim.stats import wilson

sys.path.insert(0, str(Path(__file__).parent))

AGENTS = ("random", "greedy", "learned", "uno-rule-v1", "rlcard-dqn", "search", "expert")
"""The ladder's agents, the project's bots by their spec, RLCard's by their model's name."""
SLOW = frozenset({"search", "expert"})
"""Agents whose cells get ``--slow-hands`` (their decisions take 10-100 ms each)."""
DQN_WEIGHTS = Path(__file__).parent.parent / "tests" / "data" / "rlcard_dqn_uno.pt"

_AGENTS: dict[str, Player] = {}


class Player:
    """One agent at the table: :meth:`choose` answers the current player's move, in RLCard's
    spelling, from what that seat may know."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.bot: Any = None
        self.agent: Any = None
        if name == "uno-rule-v1":
            self.agent = models.load("uno-rule-v1").agents[0]
        elif name == "rlcard-dqn":
            import train_rlcard_dqn  # noqa: PLC0415 - torch only when the DQN plays

            self.agent = train_rlcard_dqn.load_agent(DQN_WEIGHTS)
        else:
            self.bot = BotSpec.parse(name).make(0)

    def reseed(self, seed: int) -> None:
        """Seed the agent's generators for a hand (RLCard's rule agent draws from numpy's)."""
        if self.bot is not None:
            self.bot.reseed(seed)

    def choose(self, env: Any, seat: int) -> str:
        """The move of ``seat`` (whose turn it is)."""
        game = env.game
        if self.agent is not None:
            state = env._extract_state(game.get_state(seat))  # the seat's RLCard state
            action, _ = self.agent.eval_step(state)
            return str(action) if self.agent.use_raw else str(ACTION_LIST[int(action)])
        moves: dict[str, int] = game._moves  # RLCard's spelling -> the notation id it takes
        by_id = {aid: name for name, aid in moves.items()}
        for name, aid in moves.items():  # the bridge's next-to-last play calls UNO: the bot's
            if ACTION_UNO[aid]:  # spelling without the call is the same move
                by_id[ACTION_ID[ACTION_TEXT[aid].removesuffix(" uno")]] = name
        view = dataclasses.replace(game.table.view(seat), legal=tuple(sorted(by_id)))
        aid = self.bot.act(view)
        if aid not in by_id:
            raise RuntimeError(f"{self.name} chose {aid}, not one of the moves {moves}")
        return by_id[aid]


def _player(name: str) -> Player:
    if name not in _AGENTS:
        _AGENTS[name] = Player(name)
    return _AGENTS[name]


def play_deal(job: tuple[str, str, int]) -> dict[str, Any]:
    """Deal ``seed`` played twice, ``a`` in seat 0 then in seat 1: the scores of ``a``, the
    actions, and the CPU milliseconds and decisions of each agent."""
    a, b, seed = job
    env = rlcard.make(bridge.ENV_ID, config={"seed": seed, "preset": "rlcard"})
    scores: list[float] = []
    actions: list[int] = []
    cpu = {a: 0.0, b: 0.0}
    decisions = {a: 0, b: 0}
    for first in (a, b):
        names = [first, b if first == a else a]
        players = [_player(n) for n in names]
        env.game.np_random = np.random.RandomState(seed)
        np.random.seed(seed)  # uno-rule-v1's random choices
        for p, player in enumerate(players):
            player.reseed(seed + p)
        _, seat = env.reset()
        n = 0
        while not env.is_over():
            c0 = time.process_time()
            move = players[seat].choose(env, seat)
            cpu[names[seat]] += time.process_time() - c0
            decisions[names[seat]] += 1
            _, seat = env.step(move, raw_action=True)
            n += 1
        payoff = env.get_payoffs()[names.index(a)]
        scores.append(1.0 if payoff > 0 else 0.0 if payoff < 0 else 0.5)
        actions.append(n)
    return {
        "seed": seed,
        "a": scores,
        "actions": actions,
        "cpu_ms": {k: round(1000 * v, 2) for k, v in cpu.items()},
        "decisions": decisions,
    }


def cell_file(folder: Path, a: str, b: str) -> Path:
    return folder / f"{a}_vs_{b}.jsonl"


def rows(path: Path) -> list[dict[str, Any]]:
    """The deals of a cell's file so far (a last line cut short by a kill is left out)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return out


def summary(deals: list[dict[str, Any]]) -> dict[str, Any]:
    """A cell's figures: the row agent's mean score, its paired 95% interval (over deals) and
    Wilson's (over hands), hands, truncated hands, mean actions per hand."""
    per_deal = [statistics.fmean(d["a"]) for d in deals]
    hands = 2 * len(deals)
    if not per_deal:
        return {"deals": 0, "hands": 0}
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal)) if len(per_deal) > 1 else 1.0
    wins = sum(s for d in deals for s in d["a"])
    low, high = wilson(round(wins), hands)
    return {
        "deals": len(deals),
        "hands": hands,
        "rate": mean,
        "paired_low": max(0.0, mean - half),
        "paired_high": min(1.0, mean + half),
        "wilson_low": low,
        "wilson_high": high,
        "truncated": sum(s == 0.5 for d in deals for s in d["a"]),
        "actions": statistics.fmean(x for d in deals for x in d["actions"]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="hands of a cell (two per deal)")
    ap.add_argument("--slow-hands", type=int, default=200, help="hands of a cell with search or expert")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--dir", type=Path, default=Path("runs/ladder"))
    ap.add_argument("--agents", default=",".join(AGENTS), help="the agents, comma-separated")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--plot", type=Path, help="draw the table as a heat map to this PNG")
    ap.add_argument("--only-table", action="store_true", help="print the table of the files so far")
    args = ap.parse_args(argv)
    agents = [a for a in args.agents.split(",") if a]
    cells = [(a, b) for i, a in enumerate(agents) for b in agents[i + 1 :]]
    args.dir.mkdir(parents=True, exist_ok=True)
    if not args.only_table:
        run(cells, args)
    figures = {f"{a}|{b}": summary(rows(cell_file(args.dir, a, b))) for a, b in cells}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"seed": args.seed, "cells": figures}, indent=1) + "\n")
    print(table(figures, agents))
    print(times(args.dir, cells, agents))
    if args.plot:
        plot(figures, agents, args.plot)
    return 0


def run(cells: list[tuple[str, str]], args: argparse.Namespace) -> None:
    """Play the deals every cell still lacks, cheap cells first, with a progress bar."""
    jobs: list[tuple[str, str, int]] = []
    for a, b in sorted(cells, key=lambda c: len(SLOW & set(c))):
        want = (args.slow_hands if SLOW & {a, b} else args.hands + 1) // 2
        have = {d["seed"] for d in rows(cell_file(args.dir, a, b))}
        jobs += [(a, b, args.seed + i) for i in range(want) if args.seed + i not in have]
    if not jobs:
        return
    bar = Progress(len(jobs))
    files: dict[tuple[str, str], Any] = {}
    with contextlib.ExitStack() as stack:
        if args.workers > 1:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(args.workers))
            results: Iterable[dict[str, Any]] = pool.imap(play_deal, jobs, chunksize=4)
        else:
            results = map(play_deal, jobs)
        for job, row in zip(jobs, results, strict=True):
            key = job[:2]
            if key not in files:
                files[key] = cell_file(args.dir, *key).open("a")
            files[key].write(json.dumps(row) + "\n")
            files[key].flush()
            bar.update(f"{key[0]} vs {key[1]}")
    for f in files.values():
        f.close()
    bar.close()


class Progress:
    """A progress bar on stderr: deals done, the rate, the time left, the cell being played."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.start = total, 0, time.perf_counter()

    def update(self, cell: str) -> None:
        self.done += 1
        took = time.perf_counter() - self.start
        rate = self.done / took if took > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        filled = 30 * self.done // self.total
        print(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} deals, {rate:.1f}/s, "
            f"{left / 60:.0f} min left ({cell})   ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    def close(self) -> None:
        print(file=sys.stderr)


def _rate(figures: dict[str, dict[str, Any]], a: str, b: str) -> dict[str, Any] | None:
    """The row agent ``a``'s figures against ``b`` (the cell ``b|a`` turned round)."""
    f = figures.get(f"{a}|{b}")
    if f is not None and f["hands"]:
        return f
    f = figures.get(f"{b}|{a}")
    if f is None or not f["hands"]:
        return None
    flip = {"paired_low": "paired_high", "paired_high": "paired_low"}
    flip |= {"wilson_low": "wilson_high", "wilson_high": "wilson_low"}
    out = dict(f)
    out["rate"] = 1 - f["rate"]
    for k, other in flip.items():
        out[k] = 1 - f[other]
    return out


def table(figures: dict[str, dict[str, Any]], agents: list[str]) -> str:
    """Markdown: the row agent's mean score against the column's (paired 95% interval), hands;
    and each agent's mean over its row."""
    head = "| heads-up, `rlcard` rules | " + " | ".join(f"`{a}`" for a in agents) + " | mean |"
    out = ["", head, "| --- " * (len(agents) + 2) + "|"]
    for a in agents:
        cells, rates = [], []
        for b in agents:
            f = None if a == b else _rate(figures, a, b)
            if f is None:
                cells.append("" if a == b else "-")
                continue
            rates.append(f["rate"])
            lo, hi = 100 * f["paired_low"], 100 * f["paired_high"]
            cells.append(f"{100 * f['rate']:.1f} ({lo:.1f}-{hi:.1f}), {f['hands']:,}")
        mean = f"{100 * statistics.fmean(rates):.1f}" if rates else "-"
        out.append(f"| `{a}` | " + " | ".join(cells) + f" | {mean} |")
    return "\n".join(out)


def times(folder: Path, cells: list[tuple[str, str]], agents: list[str]) -> str:
    """Markdown: each agent's mean CPU time per decision over every cell it played."""
    out = ["", "| agent | CPU per decision | decisions |", "| --- | ---: | ---: |"]
    for agent in agents:
        ms = n = 0.0
        for a, b in cells:
            if agent in (a, b):
                for d in rows(cell_file(folder, a, b)):
                    ms += d["cpu_ms"][agent]
                    n += d["decisions"][agent]
        if n:
            out.append(f"| `{agent}` | {ms / n:.2f} ms | {int(n):,} |")
    return "\n".join(out)


def plot(figures: dict[str, dict[str, Any]], agents: list[str], out: Path) -> None:
    """The table as a heat map: each cell the row agent's score less a half, its score and
    hands written in it."""
    import matplotlib  # noqa: PLC0415 - the optional extra "plot"

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fig, ax = plt.subplots(figsize=(9, 7.4))
    grid = [[float("nan")] * len(agents) for _ in agents]
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            f = None if a == b else _rate(figures, a, b)
            if f is None:
                continue
            grid[i][j] = edge = 100 * (f["rate"] - 0.5)
            half = 50 * (f["paired_high"] - f["paired_low"])
            ax.text(j, i, f"{100 * f['rate']:.1f}%\n±{half:.1f}\n{f['hands']:,}",
                    ha="center", va="center", fontsize=7.5,
                    color="white" if abs(edge) > 30 else "black")  # fmt: skip
    ax.imshow(grid, cmap="RdBu", vmin=-50, vmax=50)
    ax.set_xticks(range(len(agents)), agents, rotation=30, ha="right")
    ax.set_yticks(range(len(agents)), agents)
    ax.set_xlabel("against")
    ax.set_ylabel("agent")
    ax.set_title("The ladder: heads-up on RLCard's rules (unotable-uno, preset rlcard)\n"
                 "row agent's score (win 1, truncated ½), paired 95% half-width, hands")  # fmt: skip
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
