"""Plot a training log of ``examples/train.py``: the network's win rate per opponent and table
size (over its last 1,000 hands of each) against decisions trained on.

    python examples/plot_training.py runs/train.log [more logs...] --out docs/figures/learned_training.png
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

LINE = re.compile(r"^update (\d+) decisions (\d+) .*?won \(last 1000\) (.*?) \|")


def read(paths: list[Path]) -> dict[str, list[tuple[int, float]]]:
    """Per series (``greedy2``...): (decisions, win rate) points, in the order of the logs."""
    series: dict[str, list[tuple[int, float]]] = {}
    seen: set[int] = set()
    for path in paths:
        for line in path.read_text().splitlines():
            m = LINE.match(line)
            if not m or int(m.group(1)) in seen:
                continue
            seen.add(int(m.group(1)))
            words = m.group(3).split()
            for name, value in zip(words[::2], words[1::2], strict=True):
                series.setdefault(name, []).append((int(m.group(2)), float(value)))
    return series


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("logs", type=Path, nargs="+")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    series = read(args.logs)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, points in sorted(series.items()):
        xs, ys = zip(*points, strict=True)
        ax.plot([x / 1e6 for x in xs], ys, label=f"vs {name[:-1]}, {name[-1]} players")
    for n in (2, 4):
        ax.axhline(1 / n, color="grey", linewidth=0.5, linestyle=":")
    ax.set_xlabel("decisions trained on (millions, after cloning greedy)")
    ax.set_ylabel("hands won by the network (last 1,000)")
    ax.set_ylim(0, 1)
    ax.legend(loc="center left", bbox_to_anchor=(0.01, 0.72))
    ax.set_title("examples/train.py: masked PPO, self-play and bots")
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
