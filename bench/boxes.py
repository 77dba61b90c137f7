"""What each box (edition) does to the game (issue 36): hand length, the first player's edge and
the spread of a hand's points, with 95% intervals, for greedy bots at every seat.

For every edition and 2 and 4 players it plays the hands ``uno simulate --bots greedy --seed 36``
plays (the simulator's own :func:`unotable.sim.runs.run_hand`, Python core, dealer ``i mod n``),
then prints the markdown table of ``docs/bots.md`` and draws ``docs/figures/boxes.png``.

``.venv/bin/python bench/boxes.py [--hands 2000] [--plot docs/figures/boxes.png]`` (one process;
minutes on a quiet machine). It prints figures and judges nothing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from unotable.bots.spec import BotSpec
from unotable.rules import EDITIONS, Rules
from unotable.sim import SimConfig
from unotable.sim.runs import run_hand

SEED: Final = 36
PLAYERS: Final = (2, 4)


@dataclass
class Box:
    """The figures of one edition at one table size."""

    edition: str
    players: int
    hands: int
    actions: list[int]
    first_wins: int
    points: list[int]

    def mean_ci(self, values: list[int]) -> tuple[float, float]:
        """The mean and the half-width of its 95% interval (normal approximation)."""
        mean = statistics.fmean(values)
        return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))

    def first_rate(self) -> tuple[float, float, float]:
        """The first player's win rate and its 95% Wilson interval."""
        n, p, z = self.hands, self.first_wins / self.hands, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return p, centre - half, centre + half


def bar(done: int, total: int, width: int = 30) -> str:
    """A text progress bar."""
    filled = width * done // total if total else width
    return "[" + "#" * filled + "." * (width - filled) + "]"


def play(edition: str, players: int, hands: int, step: str = "") -> Box:
    """``hands`` hands of greedy bots at a table of ``edition``; the progress on stderr, after
    ``step`` ("3/14")."""
    rules = Rules(edition=EDITIONS[edition], players=players)
    cfg = SimConfig(rules, (BotSpec("greedy"),) * players, hands=hands, seed=SEED, core="python")
    box = Box(edition, players, hands, [], 0, [])
    for i in range(hands):
        record = run_hand(cfg, i)
        box.actions.append(record.tally.actions)
        box.first_wins += (record.winner - record.dealer - 1) % players == 0
        box.points.append(sum(record.points))
        if (i + 1) % 50 == 0 or i + 1 == hands:
            label = f"{step} {edition}, {players} players: {i + 1}/{hands} hands "
            print(f"\r{bar(i + 1, hands)} {label}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return box


def table(boxes: list[Box]) -> None:
    """The markdown table of docs/bots.md."""
    head = "| edition | players | actions per hand | first player wins (fair share) |"
    print(
        head + " points of a hand: mean, median, 90th percentile | actions: median, 99th percentile, most |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for b in boxes:
        mean, half = b.mean_ci(b.actions)
        rate, low, high = b.first_rate()
        pmean, phalf = b.mean_ci(b.points)
        cuts = statistics.quantiles(b.points, n=10)
        median = statistics.median(b.points)
        p99 = statistics.quantiles(b.actions, n=100)[-1]
        print(
            f"| {b.edition} | {b.players} | {mean:.1f} ± {half:.1f} | {100 * rate:.1f}% ({100 * low:.1f}-"
            f"{100 * high:.1f}%; {100 / b.players:.0f}%) | {pmean:.0f} ± {phalf:.0f}, {median:.0f},"
            f" {cuts[-1]:.0f} | {statistics.median(b.actions):.0f}, {p99:.0f}, {max(b.actions)} |"
        )


def plot(boxes: list[Box], path: Path) -> None:
    """Three panels: actions per hand, the first player's win rate over the fair share, the
    spread of a hand's points (4 players)."""
    import matplotlib  # noqa: PLC0415 - only to draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    names = list(dict.fromkeys(b.edition for b in boxes))
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    for k, players in enumerate(PLAYERS):
        row = [next(b for b in boxes if b.edition == e and b.players == players) for e in names]
        xs = [i + (k - 0.5) * 0.38 for i in range(len(names))]
        means = [b.mean_ci(b.actions) for b in row]
        axes[0].bar(
            xs, [m for m, _ in means], 0.36, yerr=[h for _, h in means], capsize=3, label=f"{players} players"
        )
        rates = [b.first_rate() for b in row]
        edge = [100 * (r - 1 / players) for r, _, _ in rates]
        err = [[100 * (r - lo) for r, lo, _ in rates], [100 * (hi - r) for r, _, hi in rates]]
        axes[1].bar(xs, edge, 0.36, yerr=err, capsize=3, label=f"{players} players")
    four = [next(b for b in boxes if b.edition == e and b.players == 4) for e in names]
    axes[2].boxplot([b.points for b in four], whis=(5, 95), showfliers=False)
    axes[0].set_title("actions per hand (mean, 95% CI)")
    axes[1].set_title("first player's win rate minus the fair share\n(percentage points, 95% CI)")
    axes[1].axhline(0, color="black", linewidth=0.8)
    axes[2].set_title("points of a hand, 4 players (5th-95th percentile)")
    for ax in axes[:2]:
        ax.set_xticks(range(len(names)), names, rotation=25, ha="right")
        ax.legend()
    axes[2].set_xticks(range(1, len(names) + 1), names, rotation=25, ha="right")
    fig.suptitle(f"Each box with greedy bots at every seat ({boxes[0].hands} hands per table, seed {SEED})")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main(argv: list[str] | None = None) -> int:
    """Play every table, print the table, draw the chart."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=2000, help="hands per table (2000)")
    parser.add_argument("--plot", type=Path, default=Path("docs/figures/boxes.png"), help="the chart")
    parser.add_argument(
        "--editions",
        default=",".join(EDITIONS),
        help="the editions, comma-separated (all); the chart needs all",
    )
    args = parser.parse_args(argv)
    names = [EDITIONS[name.strip()].name for name in args.editions.split(",")]
    tables = [(e, p) for e in names for p in PLAYERS]
    boxes = [play(e, p, args.hands, f"{k}/{len(tables)}") for k, (e, p) in enumerate(tables, 1)]
    table(boxes)
    if len(names) < len(EDITIONS):  # a chart of some boxes would not be docs/bots.md's
        return 0
    plot(boxes, args.plot)
    print(f"chart: {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
