"""What each house rule of issue 27 (docs/rules.md §11.5) does to the game: hand length, the
first player's edge, the spread of scores (docs/bots.md).

Four greedy bots, classic, 4 players, ``--hands`` single hands per rule (the same seeds for every
rule), on the Python core (the native core plays none of these rules; the official baseline is
played on the same core). For each rule alone, and the presets: the mean actions per hand, the
win rate of the player after the dealer (25% is an equal share), and the points a hand scores
(mean and standard deviation), each with a 95% interval; then the markdown table of
docs/bots.md and ``docs/figures/house_rules27.png``. The results go to ``--json``.

``.venv/bin/python bench/house_rules27.py [--hands 2000] [--json FILE] [--plot FILE]``
(one process at low priority; about 15 minutes for 3,000 hands a rule on a busy machine). A
``[forgetful]`` run has four greedy bots that forget UNO 30% of the time (``forget_uno=0.3``),
a ``[random]`` run four random bots: the rules greedy bots never meet.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Final

from unotable.bots.spec import parse_bots
from unotable.rules import Rules, parse_house
from unotable.sim import HandRecord, SimConfig, simulate

HOUSES: Final = (
    "official",
    "stacking=same",
    "stacking=same,stack_cards=draws",
    "stacking=same,stack_cards=fours",
    "stacking=same,stack_cards=up",
    "stacking=same,deflect=both",
    "forced_play",
    "no_bluffing",
    "uno_penalty=4",
    "uno_call=strict",
    "uno_call=silent",
    "no_action_finish",
    "hand_limit=25",
    "double_finish",
    "hand_limit=12",
    "multi_play=number",
    "multi_play=identical",
    "party",
    "crazy",
    # Rules greedy bots never meet (they always call UNO, never draw holding a playable card):
    # the same with bots that forget UNO 30% of the time, and with random bots.
    "official [forgetful]",
    "uno_penalty=4 [forgetful]",
    "uno_call=strict [forgetful]",
    "uno_call=silent [forgetful]",
    "official [random]",
    "forced_play [random]",
)
LINEUPS: Final = {"": "greedy", "forgetful": "greedy:forget_uno=0.3", "random": "random"}
"""The bots of a run by the ``[tag]`` after its house rules (none: four greedy bots)."""
SEED: Final = 27
Z: Final = 1.96


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``k`` of ``n``."""
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return c - h, c + h


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean, standard deviation, and the half-width of the mean's 95% interval."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, sd, Z * sd / math.sqrt(n)


def measure(house: str, hands: int) -> dict[str, Any]:
    """One rule's figures from ``hands`` greedy hands."""
    spec, _, lineup = house.partition(" [")
    rules = Rules(players=4, **parse_house(spec))
    bots = tuple(parse_bots(LINEUPS[lineup.rstrip("]")], 4))
    cfg = SimConfig(rules=rules, bots=bots, hands=hands, seed=SEED, core="python")
    records = [r for r in simulate(cfg, workers=1) if isinstance(r, HandRecord)]
    n = len(records)
    actions = [float(r.tally.actions) for r in records]
    points = [float(max(r.points)) for r in records]
    first = sum(1 for r in records if r.winner == (r.dealer + 1) % 4)
    a_m, a_sd, a_h = mean_ci(actions)
    p_m, p_sd, p_h = mean_ci(points)
    low, high = wilson(first, n)
    return {
        "house": house,
        "hands": n,
        "actions": [a_m, a_h],
        "actions_sd": a_sd,
        "first_player": [first / n, low, high],
        "points": [p_m, p_h],
        "points_sd": p_sd,
    }


def main(argv: list[str] | None = None) -> int:
    """Measure every rule (those in ``--json`` already are kept), print the table, draw the chart."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=2000, help="hands per rule (2000)")
    parser.add_argument("--json", type=Path, default=Path("docs/figures/house_rules27.json"))
    parser.add_argument("--plot", type=Path, default=Path("docs/figures/house_rules27.png"))
    args = parser.parse_args(argv)
    os.nice(15)
    done: dict[str, Any] = json.loads(args.json.read_text()) if args.json.exists() else {}
    for house in HOUSES:
        if house not in done or done[house]["hands"] != args.hands:
            done[house] = measure(house, args.hands)
            args.json.write_text(json.dumps(done, indent=1) + "\n")
            print(f"{house}: done", file=sys.stderr, flush=True)
    print("| `--house` [bots] | actions per hand | player after the dealer wins | points per hand (sd) |")
    print("| --- | ---: | ---: | ---: |")
    for house in HOUSES:
        d = done[house]
        (am, ah), (fp, lo, hi), (pm, ph) = d["actions"], d["first_player"], d["points"]
        print(
            f"| `{house}` | {am:.1f} ± {ah:.1f} | {100 * fp:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%) "
            f"| {pm:.1f} ± {ph:.1f} ({d['points_sd']:.0f}) |"
        )
    import matplotlib  # noqa: PLC0415 - the optional extra "plot"

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    names = list(HOUSES)
    ys = list(range(len(names)))
    fig, axes = plt.subplots(1, 3, figsize=(13, 7), sharey=True)
    series = [
        ([done[h]["actions"][0] for h in names], [done[h]["actions"][1] for h in names], "actions per hand"),
        (
            [100 * done[h]["first_player"][0] for h in names],
            [
                [100 * (done[h]["first_player"][0] - done[h]["first_player"][1]) for h in names],
                [100 * (done[h]["first_player"][2] - done[h]["first_player"][0]) for h in names],
            ],
            "player after the dealer wins, %",
        ),
        ([done[h]["points"][0] for h in names], [done[h]["points"][1] for h in names], "points per hand"),
    ]
    for ax, (values, err, label) in zip(axes, series, strict=True):
        ax.barh(ys, values, xerr=err, color="#4a7ab5", ecolor="#333333", capsize=2)
        ax.set_xlabel(label)
    axes[0].set_xscale("log")  # random bots' hands are twenty times longer
    axes[0].set_xlabel("actions per hand (log scale)")
    axes[1].axvline(25, color="grey", linewidth=0.8, linestyle="--")
    axes[0].set_yticks(ys, names, fontsize=8)
    axes[0].invert_yaxis()
    fig.suptitle(
        f"Issue 27's house rules, classic, 4 greedy bots (else as marked), {args.hands} hands each, "
        "95% intervals"
    )
    fig.tight_layout()
    fig.savefig(args.plot, dpi=100)
    print(f"chart: {args.plot}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
