"""How each house rule of RULES §11 changes hand length and the first bot's edge (issue 14).

Runs ``uno simulate`` (classic, 4 players) for every house rule alone and the presets, three
line-ups each: four greedy bots (hand length), greedy at seat 0 against three random bots, and
search at seat 0 against three greedy bots; then prints the markdown table of
``docs/bots.md`` and draws ``docs/figures/house_rules.png``. Each run's JSON is kept in
``--dir``, and a run whose JSON is there already is not run again.

``.venv/bin/python bench/house_rules.py [--hands 4000] [--search-hands 600] [--dir DIR]``
(one worker per run, at low priority: hours on a busy machine for the search line-up).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

HOUSES: Final = (
    "official",
    "stacking=same",
    "stacking=any",
    "seven_zero",
    "jump_in",
    "draw_to_match",
    "popular",
    "party",
)
LINEUPS: Final = {
    "greedy": "greedy",
    "greedy_random_random_random": "greedy,random,random,random",
    "search": "search:budget=100,greedy,greedy,greedy",
}
SEED: Final = 14


def tag(house: str, lineup: str) -> str:
    """The file name (without ``.json``) of one run."""
    return f"{house.replace('=', '_')}-{lineup}"


def run(folder: Path, house: str, lineup: str, hands: int) -> dict[str, Any]:
    """One ``uno simulate`` run's results (run now unless its JSON is in ``folder``)."""
    path = folder / f"{tag(house, lineup)}.json"
    if not path.exists():
        command = [sys.executable, "-m", "unotable", "simulate", "--hands", str(hands), "--players", "4"]
        command += ["--bots", LINEUPS[lineup], "--house", house, "--seed", str(SEED), "--workers", "1"]
        command += ["--quiet", "--json", str(path)]
        subprocess.run(["nice", "-n", "15", *command], check=True)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def rate(results: dict[str, Any]) -> str:
    """Seat 0's win rate and its 95% interval, in percent."""
    seat = results["seats"][0]
    low, high = seat["ci95"]
    return f"{100 * seat['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"


def main(argv: list[str] | None = None) -> int:
    """Run what is missing, print the table, draw the chart."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=4000, help="hands per greedy run (4000)")
    parser.add_argument("--search-hands", type=int, default=600, help="hands per search run (600)")
    parser.add_argument("--dir", type=Path, default=Path("bench/house-rules"), help="where the JSON goes")
    parser.add_argument("--plot", type=Path, default=Path("docs/figures/house_rules.png"), help="the chart")
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    lengths: list[float] = []
    greedy_rates: list[float] = []
    search_rates: list[float] = []
    head = ["`--house`", "actions per hand, 4 greedy", "change"]
    head += ["greedy against 3 random", "search against 3 greedy"]
    print("| " + " | ".join(head) + " |")
    print("| --- | ---: | ---: | ---: | ---: |")
    base = 0.0
    for house in HOUSES:
        alone = run(args.dir, house, "greedy", args.hands)
        against_random = run(args.dir, house, "greedy_random_random_random", args.hands)
        against_greedy = run(args.dir, house, "search", args.search_hands)
        length = float(alone["hand_length"]["mean_actions"])
        base = base or length
        lengths.append(length)
        greedy_rates.append(100 * against_random["seats"][0]["win_rate"])
        search_rates.append(100 * against_greedy["seats"][0]["win_rate"])
        change = f"{100 * (length / base - 1):+.0f}%"
        print(f"| `{house}` | {length:.1f} | {change} | {rate(against_random)} | {rate(against_greedy)} |")
    import matplotlib  # noqa: PLC0415 - the optional extra "plot"

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = list(HOUSES)
    left.barh(names, lengths, color="#4a7ab5")
    left.set_xlabel("actions per hand, four greedy bots")
    left.invert_yaxis()
    width = 0.4
    ys = range(len(names))
    right.barh([y - width / 2 for y in ys], greedy_rates, width, label="greedy vs 3 random", color="#5a9e5a")
    right.barh([y + width / 2 for y in ys], search_rates, width, label="search vs 3 greedy", color="#c9803a")
    right.axvline(25, color="grey", linewidth=0.8, linestyle="--")
    right.set_yticks(list(ys), [""] * len(names))
    right.invert_yaxis()
    right.set_xlabel("seat 0's win rate, % (25%: an equal share)")
    fig.legend(loc="lower right", ncol=2, fontsize=8)
    fig.suptitle("House rules (RULES §11), classic, 4 players")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(args.plot, dpi=110)
    print(f"chart: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
