"""What the search bot gains with the playouts the native core buys in the same time (issue 16).

For each table size, ``search`` in seat 0 against ``greedy`` bots at budget 500 (the default:
what a decision of the search in Python buys in about 50 ms at four players) and at the budget
whose native decision costs as much (``bench/search.py``), and ``greedy`` in seat 0 for the
baseline; all on the same deals (the same seed). It runs :func:`unotable.sim.simulate`, which is
what ``uno simulate`` runs (the same seed gives the same numbers as
``uno simulate --seed S --hands N --bots search:budget=B,greedy,...``), keeps each hand's winner,
and prints each line-up's win rate with its 95% Wilson interval and the paired differences
(same deals: the mean of the per-hand difference of wins, 95% normal interval); ``--plot`` draws
them, ``--json`` keeps every hand's winner.

``.venv/bin/python bench/search_gain.py --hands 10000 --workers 2 --seed 2026 \\
    --budgets 2:15000,4:20000 --plot docs/figures/search_budget.png --json runs/search_gain.json``
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from unotable.rules import Rules
from unotable.sim import HandRecord, SimConfig, parse_bots, simulate, wilson
from unotable.simcli import progress_bar

Z95 = 1.959963984540054


def winners(players: int, lineup: str, hands: int, seed: int, workers: int) -> tuple[list[int], float]:
    """Each hand's winner (seat), and the seconds the run took."""
    cfg = SimConfig(Rules(players=players), parse_bots(lineup, players), hands=hands, seed=seed)
    start = time.perf_counter()
    with progress_bar(hands, f"{lineup} hands") as advance:
        records = simulate(cfg, workers=workers, progress=advance)
    return [r.winner for r in records if isinstance(r, HandRecord)], time.perf_counter() - start


def paired(a: list[int], b: list[int]) -> tuple[float, float]:
    """Mean and 95% half-width of (seat 0 won in ``a``) - (seat 0 won in ``b``), hand by hand."""
    d = [(x == 0) - (y == 0) for x, y in zip(a, b, strict=True)]
    m = sum(d) / len(d)
    var = sum((x - m) ** 2 for x in d) / (len(d) - 1)
    return m, Z95 * math.sqrt(var / len(d))


def lineups(players: int, budget: int) -> list[str]:
    """Greedy, search at 500 and search at ``budget`` in seat 0, against greedy bots."""
    others = ",greedy" * (players - 1)
    return [f"greedy{others}", f"search:budget=500{others}", f"search:budget={budget}{others}"]


def report(kept: dict[str, list[int]], plot: Path | None) -> None:
    """Print each line-up's win rate and the paired differences; draw them into ``plot``."""
    rows = []
    by_players: dict[int, list[tuple[str, list[int]]]] = {}
    for key, won in kept.items():
        players = int(key.split(":")[0])
        lineup = key.split(":", 1)[1]
        by_players.setdefault(players, []).append((lineup, won))
        k = sum(1 for w in won if w == 0)
        lo, hi = wilson(k, len(won))
        rows.append((players, lineup, k, len(won), lo, hi))
        print(f"{players}p {lineup:44} {k:6} / {len(won)}  {100 * k / len(won):5.1f}% ", end="")
        print(f"({100 * lo:.1f}-{100 * hi:.1f}%)")
    for players, runs in by_players.items():
        for i in range(1, len(runs)):
            for j in range(i):
                m, h = paired(runs[i][1], runs[j][1])
                print(f"{players}p paired, {runs[i][0].split(',')[0]} - {runs[j][0].split(',')[0]}: ", end="")
                print(f"{100 * m:+.2f} +- {100 * h:.2f} points")
    if plot is None:
        return
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    sizes = sorted(by_players)
    fig, axes = plt.subplots(1, len(sizes), figsize=(4.6 * len(sizes), 3.8), squeeze=False)
    for ax, players in zip(axes[0], sizes, strict=True):
        mine = [r for r in rows if r[0] == players]
        labels = [r[1].split(",")[0].replace("search:budget=", "search ") for r in mine]
        rates = [100 * r[2] / r[3] for r in mine]
        errs = [[100 * (r[2] / r[3] - r[4]) for r in mine], [100 * (r[5] - r[2] / r[3]) for r in mine]]
        bars = ax.bar(
            labels, rates, yerr=errs, capsize=6, color=["#888888", "#5b8cc9", "#c9803a"][: len(mine)]
        )
        ax.bar_label(bars, labels=[f"{x:.1f}%" for x in rates], label_type="center", color="white")
        ax.axhline(100 / players, color="black", linewidth=0.8, linestyle=":")
        ax.set_ylim(100 / players - 10, max(100 / players + 12, 100 * max(r[5] for r in mine) + 3))
        ax.set_title(f"seat 0 against {players - 1} greedy, {mine[0][3]:,} hands", fontsize=10)
        ax.set_ylabel("seat 0 wins (%), 95% Wilson")
    fig.tight_layout()
    fig.savefig(plot, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--budgets", default="4:20000,2:15000", help="players:budget of the second search")
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--json", type=Path, help="every hand's winner, written after each line-up")
    parser.add_argument("--replot", type=Path, help="report and plot a --json file of an earlier run")
    args = parser.parse_args()
    if args.replot:
        report(json.loads(args.replot.read_text())["winners"], args.plot)
        return
    kept: dict[str, list[int]] = {}
    for item in args.budgets.split(","):
        players, budget = (int(x) for x in item.split(":"))
        for lineup in lineups(players, budget):
            won, seconds = winners(players, lineup, args.hands, args.seed, args.workers)
            kept[f"{players}:{lineup}"] = won
            print(f"{players}p {lineup}: {sum(1 for w in won if w == 0)} wins, {seconds:.0f} s", flush=True)
            if args.json:
                args.json.write_text(json.dumps({"seed": args.seed, "hands": args.hands, "winners": kept}))
    report(kept, args.plot)


if __name__ == "__main__":
    main()
