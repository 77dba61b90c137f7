"""Every bot against every other bot, heads-up and at four players (docs/bots.md's table).

Each cell is a :mod:`bot_match` run (the deals of ``unotable.env.evaluate``, seed-rotated and
paired: every cell of a row and column plays the same deals): the row's bot in one seat against
the column's bot in every other seat, ``--hands`` hands (``--heavy`` for cells with ``expert``
among the opponents at four players, whose three searching seats cost three times as much). A
cell whose file exists is resumed up to its count of hands, and kept whole if it holds more (so
the runs of the acceptance rows, made with ``bot_match.py`` under the same names, are reused
and a table run again with larger counts extends its cells). Prints the table in Markdown
(and each bot's CPU time per decision), writes the figures to ``--json`` and draws them with ``--plot``.

``python bench/bot_table.py --hands 2000 --heavy 200 --dir runs/table --json docs/figures/bot_table.json
--plot docs/figures/bot_table.png``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bot_match

BOTS = ("random", "greedy", "search", "learned", "expert")


def cell_file(folder: Path, bot: str, opponent: str, players: int) -> Path:
    return folder / f"{bot}_vs_{opponent}_{players}p.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--heavy", type=int, default=200, help="hands of the cells against three experts")
    ap.add_argument("--expert-hands", type=int, default=1000, help="hands of the other cells with expert")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--dir", type=Path, default=Path("runs/table"))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--only-table", action="store_true", help="print the table of the files so far")
    ap.add_argument("--plot", type=Path, help="draw the two tables as heat maps to this PNG")
    args = ap.parse_args(argv)
    cells = []
    for players in (2, 4):
        for bot in BOTS:
            for opp in BOTS:
                if bot == opp or (players == 2 and BOTS.index(bot) < BOTS.index(opp)):
                    continue  # heads-up, b against a is a against b on the same games
                hands = args.hands
                if "expert" in (bot, opp):
                    hands = args.expert_hands
                if players == 4 and opp == "expert":
                    hands = args.heavy
                cells.append((bot, opp, players, hands))
    # cheap cells first
    cells.sort(key=lambda c: ("expert" in c[:2], c[1] == "expert" and c[2] == 4))
    if not args.only_table:
        for bot, opp, players, hands in cells:
            path = cell_file(args.dir, bot, opp, players)
            if path.exists() and bot_match.summary(path)["hands"] >= hands:
                continue  # made before, or elsewhere (the acceptance runs): kept whole
            print(f"{bot} against {opp}, {players} players, {hands} hands", file=sys.stderr, flush=True)
            bot_match.main(
                [
                    "--bot", bot, "--opponents", opp, "--players", str(players), "--hands", str(hands),
                    "--seed", str(args.seed), "--workers", str(args.workers), "--out", str(path),
                ]
            )  # fmt: skip
    figures = {}
    for bot, opp, players, _ in cells:
        path = cell_file(args.dir, bot, opp, players)
        if path.exists():
            figures[f"{bot}|{opp}|{players}"] = bot_match.summary(path)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    print(table(figures))
    print(times(args.dir, [(bot, opp, players) for bot, opp, players, _ in cells]))
    if args.plot:
        plot(figures, args.plot)
    return 0


def _cell(figures: dict[str, dict[str, float]], bot: str, opp: str, players: int) -> str:
    f = figures.get(f"{bot}|{opp}|{players}")
    flip = False
    if f is None and players == 2:
        f, flip = figures.get(f"{opp}|{bot}|{players}"), True
    if f is None or not f["hands"]:
        return "" if bot == opp else "-"
    rate, low, high = f["rate"], f["low"], f["high"]
    if flip:
        rate, low, high = 1 - rate, 1 - high, 1 - low
    return f"{100 * rate:.1f} ({100 * low:.1f}-{100 * high:.1f}), {f['hands']:,}"


def _rate(figures: dict[str, dict[str, float]], bot: str, opp: str, players: int) -> tuple[float, int] | None:
    """The row bot's win rate against the column's and the hands, or None for no figure."""
    f = figures.get(f"{bot}|{opp}|{players}")
    if f is not None and f["hands"]:
        return f["rate"], int(f["hands"])
    f = figures.get(f"{opp}|{bot}|{players}") if players == 2 else None
    if f is not None and f["hands"]:
        return 1 - f["rate"], int(f["hands"])
    return None


def plot(figures: dict[str, dict[str, float]], out: Path) -> None:
    """The two tables as heat maps: each cell the row bot's win rate less an equal share (50%
    heads-up, 25% one against three), its rate and its hands written in it."""
    import matplotlib  # noqa: PLC0415 - the optional extra "plot"

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fig, axes = plt.subplots(1, 2, figsize=(12, 5.4))
    for ax, players in zip(axes, (2, 4), strict=True):
        share = 1 / players
        grid = [[float("nan")] * len(BOTS) for _ in BOTS]
        for i, bot in enumerate(BOTS):
            for j, opp in enumerate(BOTS):
                got = None if bot == opp else _rate(figures, bot, opp, players)
                if got is None:
                    continue
                rate, hands = got
                grid[i][j] = edge = 100 * (rate - share)
                dark = abs(edge) > 60 * share  # white words on the deep colours
                ax.text(j, i, f"{100 * rate:.1f}%\n{hands:,}", ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")  # fmt: skip
        ax.imshow(grid, cmap="RdBu", vmin=-100 * share, vmax=100 * share)
        ax.set_xticks(range(len(BOTS)), BOTS)
        ax.set_yticks(range(len(BOTS)), BOTS)
        ax.set_xlabel("against (every other seat)")
        ax.set_ylabel("bot (one seat)")
        title = "heads-up" if players == 2 else "4 players, one against three"
        ax.set_title(f"{title}: win rate, hands")
    fig.suptitle("Every bot against every other (classic, seed 2026; blue: above an equal share)")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)


def table(figures: dict[str, dict[str, float]]) -> str:
    """Markdown tables: the row's bot's win rate against the column's (95% Wilson), hands."""
    out = []
    for players in (2, 4):
        out.append("")
        out.append("| " + ("heads-up" if players == 2 else "4 players: one against three") + " | "
                   + " | ".join(f"`{b}`" for b in BOTS) + " |")  # fmt: skip
        out.append("| --- " * (len(BOTS) + 1) + "|")
        for bot in BOTS:
            out.append(f"| `{bot}` | " + " | ".join(_cell(figures, bot, o, players) for o in BOTS) + " |")
    return "\n".join(out)


def times(folder: Path, cells: list[tuple[str, str, int]]) -> str:
    """Markdown: each bot's CPU time per decision (median, 99th percentile) over its decisions
    as the row's bot of the cells (the seat the runs time)."""
    out = ["", "| bot | median | 99th percentile | decisions |", "| --- | ---: | ---: | ---: |"]
    for bot in BOTS:
        paths = [cell_file(folder, row, opp, players) for row, opp, players in cells if row == bot]
        runs = [bot_match.deals(path) for path in paths if path.exists()]
        cpu = sorted(t for run in runs for r in run for t in r.get("cpu", ()))
        if cpu:
            median, p99 = statistics.median(cpu), bot_match.p99(cpu)
            out.append(f"| `{bot}` | {median:.2f} ms | {p99:.2f} ms | {len(cpu):,} |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
