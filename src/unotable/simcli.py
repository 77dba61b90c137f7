"""``uno simulate``: its flags, the progress bar, the table of results, the JSON file and the chart.

The simulation itself is :mod:`unotable.sim` (standard library only); this module adds what a
person sees: a ``rich`` progress bar and table, and a ``matplotlib`` chart (imported only when
``--plot`` asks for one; ``pip install 'unotable[plot]'``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from unotable import argtypes
from unotable.bots import BOT_NAMES
from unotable.errors import ConfigError, UnoError
from unotable.house import active
from unotable.i18n import _, ngettext
from unotable.match import GAME_PLAYERS
from unotable.rules import EDITIONS, MODES, Rules
from unotable.sim import BACKENDS, CORES, BotError, SimConfig, parse_bots, simulate, summarize

DEFAULT_HANDS = 1000


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``uno simulate``."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--hands",
        type=argtypes.positive,
        default=None,
        help=_("single hands to play ({default})").format(default=DEFAULT_HANDS),
    )
    size.add_argument(
        "--games", type=argtypes.positive, default=None, help=_("whole games to play, to the target")
    )
    parser.add_argument(
        "--players",
        type=argtypes.players,
        default=None,
        help=_("players at the table, 2 to 10 (the number of --bots listed, else 4)"),
    )
    parser.add_argument(
        "--bots",
        default="random",
        help=_(
            "one bot for every seat, or one per seat, comma-separated ({bots}); "
            "options as name:key=value:key=value, e.g. search:budget=100 (random)"
        ).format(bots=", ".join(BOT_NAMES)),
    )
    parser.add_argument(
        "--edition",
        type=argtypes.edition,
        default="classic",
        help=_("one of {editions}").format(editions=", ".join(EDITIONS)),
    )
    parser.add_argument("--mode", choices=MODES, default="solo", help=_("game format (solo)"))
    parser.add_argument(
        "--target", type=argtypes.positive, default=None, help=_("points that win a game (500)")
    )
    parser.add_argument(
        "--option",
        type=argtypes.rules_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("a rules option, e.g. lenient_plays=true, scoring=lowest (repeatable)"),
    )
    parser.add_argument(
        "--house", type=argtypes.house, default=None, metavar="RULES", help=argtypes.house_help()
    )
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the whole run (0)"))
    parser.add_argument(
        "--core",
        choices=CORES,
        default="auto",
        help=_(
            "engine: the native core when it can play the table (greedy and random bots with no "
            "options, single hands), python, or native (auto)"
        ),
    )
    parser.add_argument(
        "--workers", type=argtypes.positive, default=None, help=_("processes to run on (one per core)")
    )
    parser.add_argument("--backend", choices=BACKENDS, default="local", help=_("local processes, or Ray"))
    parser.add_argument("--address", default=None, help=_("with --backend ray: the cluster to join (local)"))
    parser.add_argument("--json", metavar="FILE", default=None, help=_("write the results to FILE as JSON"))
    parser.add_argument("--plot", metavar="FILE.png", default=None, help=_("draw the results to a PNG chart"))
    parser.add_argument("-q", "--quiet", action="store_true", help=_("no progress bar"))


def config_from_args(args: argparse.Namespace) -> SimConfig:
    """The simulation the flags ask for.

    :raises ConfigError: when they do not make one (rules, bots, numbers of seats).
    """
    listed = [p for p in args.bots.split(",") if p.strip()]
    two_tables = args.mode == "two-tables"
    if args.players is not None:
        players = args.players
    elif len(listed) > 1 and not two_tables:
        players = len(listed)
    else:
        players = 4
    data: dict[str, Any] = {}
    for key, value in args.option:
        if key in ("edition", "players", "mode", "target"):
            raise ConfigError(_("--option {key}=... : use --{key}").format(key=key))
        data[key] = value
    for key, value in (args.house or {}).items():
        if key in data:
            raise ConfigError(_("{key} is given twice (--house and --option {key}=...)").format(key=key))
        data[key] = value
    data.update(edition=args.edition, players=players, mode=args.mode)
    if args.target is not None:
        data["target"] = args.target
    rules = Rules.from_dict(data)
    games = args.games or 0
    hands = 0 if games else (args.hands or DEFAULT_HANDS)
    seats = GAME_PLAYERS.get(rules.mode, rules.players) if games else rules.players
    bots = parse_bots(args.bots, seats)
    return SimConfig(rules, bots, hands=hands, games=games, seed=args.seed, core=args.core)


def _check_output(path: str | None) -> None:
    """Refuse an output file that cannot be written, before the simulation runs: the file is
    opened for appending (an existing one is left as it is) or made and removed again, so
    whatever the file system says (a folder, no folder, read-only, ``/proc``) is said now."""
    if path is None:
        return
    target = Path(path)
    try:
        if target.is_dir():
            raise ConfigError(_("cannot write to {file}: it is a folder").format(file=path))
        folder = target.resolve().parent
        if not folder.is_dir():
            raise ConfigError(
                _("cannot write to {file}: no folder {folder}").format(file=path, folder=folder)
            )
        existed = target.exists()
        with open(target, "a", encoding="utf-8"):
            pass
        if not existed:
            target.unlink()
    except OSError as exc:
        raise ConfigError(
            _("cannot write to {file}: {error}").format(file=path[:80], error=exc.strerror or exc)
        ) from None


def run_simulate(args: argparse.Namespace) -> int:
    """Run ``uno simulate``; the exit status (2, with one line on stderr, for bad flags)."""
    try:
        cfg = config_from_args(args)
        _check_output(args.json)
        _check_output(args.plot)
        if args.plot and importlib.util.find_spec("matplotlib") is None:
            raise ConfigError(_("--plot needs matplotlib: pip install 'unotable[plot]'"))
        if args.backend == "local" and args.address:
            raise ConfigError(_("--address goes with --backend ray"))
        run(
            cfg,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            json_path=args.json,
            plot_path=args.plot,
            quiet=args.quiet,
        )
    except (UnoError, BotError) as exc:
        print(_("uno simulate: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    except OSError as exc:
        print(_("uno simulate: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    return 0


def run(
    cfg: SimConfig,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    json_path: str | None = None,
    plot_path: str | None = None,
    quiet: bool = True,
) -> dict[str, Any]:
    """Simulate (with a progress bar unless ``quiet``), print the table, write the files; the results."""
    t0 = time.perf_counter()
    unit = _("simulating games") if cfg.games else _("simulating hands")
    if quiet:
        records = simulate(cfg, workers=workers, backend=backend, address=address)
    else:
        with progress_bar(cfg.units, unit) as advance:
            records = simulate(cfg, workers=workers, backend=backend, address=address, progress=advance)
    results = summarize(cfg, records, time.perf_counter() - t0)
    print_table(results)
    try:
        if json_path:
            with open(json_path, "w", encoding="utf-8") as fh:
                json.dump(results, fh, indent=2)
                fh.write("\n")
        if plot_path:
            write_plot(results, plot_path)
    except OSError as exc:
        raise ConfigError(
            _("cannot write to {file}: {error}").format(file=exc.filename, error=exc.strerror or exc)
        ) from None
    return results


@contextmanager
def progress_bar(total: int, unit: str) -> Iterator[Callable[[int], None]]:
    """A ``rich`` progress bar on stderr; the context gives the function that advances it."""
    from rich.console import Console  # noqa: PLC0415 - kept out of `uno --help`
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn(f"[bold]{unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    # auto_refresh off: no refresh thread, so that worker processes are forked safely
    with Progress(*columns, console=Console(stderr=True), transient=True, auto_refresh=False) as bar:
        task = bar.add_task(unit, total=total)
        bar.refresh()

        def advance(k: int) -> None:
            bar.advance(task, k)
            bar.refresh()

        yield advance


def print_table(results: dict[str, Any]) -> None:
    """The win rates with 95% intervals, advantages, mean points and decision times; the
    advantage of each position at the table; the hand lengths."""
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    console = Console(width=max(120, Console().width))
    games = "games" in results
    rows = results["seats"]
    cfg = results["config"]
    rules = cfg["rules"]
    hands = ngettext("{n} hand", "{n} hands", results["hands"]).format(n=results["hands"])
    if games:
        what = _("{games} ({hands})").format(
            games=ngettext("{n} game", "{n} games", results["games"]).format(n=results["games"]), hands=hands
        )
    else:
        what = hands
    house = [rule.spell(value) for rule, value in active(rules)]
    parts = [
        what,
        rules["edition"],
        ngettext("{n} player", "{n} players", rules["players"]).format(n=rules["players"]),
    ]
    if house:
        parts.append(_("house rules {rules}").format(rules=", ".join(house)))
    parts.append(_("seed {seed}").format(seed=cfg["seed"]))
    if "core" in cfg:
        parts.append(_("{core} core").format(core=cfg["core"]))
    table = Table(title=_("{what}: {details}").format(what=parts[0], details=", ".join(parts[1:])))
    columns = [
        _("player") if games else _("seat"),
        _("bot"),
        _("wins"),
        _("win rate"),
        _("95% CI"),
        _("advantage"),
        _("mean score") if games else _("mean points"),
        _("ms/decision"),
        _("UNO lapses"),
        _("caught"),
    ]
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i == 1 else "right")
    ms = results["timing"]["decision_ms"]
    for i, row in enumerate(rows):
        low, high = row["ci95"]
        table.add_row(
            str(i),
            row["bot"],
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{row['advantage']:+.1%}",
            f"{row['mean_points']:.1f}",
            f"{ms[i]:.2f}",
            f"{row['uno_lapses']}/{row['uno_chances']}",
            str(row["caught"]),
        )
    console.print(table)
    if len(results["bots"]) > 1:
        pooled = Table(title=_("by bot (all its seats)"))
        for i, col in enumerate((_("bot"), _("seats"), _("wins"), _("win rate"), _("95% CI"))):
            pooled.add_column(col, justify="left" if i == 0 else "right")
        for row in results["bots"]:
            low, high = row["ci95"]
            pooled.add_row(
                row["bot"],
                ",".join(map(str, row["seats"])),
                str(row["wins"]),
                f"{row['win_rate']:.1%}",
                f"{low:.1%} - {high:.1%}",
            )
        console.print(pooled)
    if "positions" in results:
        pos = Table(title=_("by position (0: the dealer's left, who plays first unless a Reverse is turned)"))
        for col in (_("position"), _("wins"), _("win rate"), _("95% CI"), _("advantage")):
            pos.add_column(col, justify="right")
        for row in results["positions"]:
            low, high = row["ci95"]
            pos.add_row(
                str(row["position"]),
                str(row["wins"]),
                f"{row['win_rate']:.1%}",
                f"{low:.1%} - {high:.1%}",
                f"{row['advantage']:+.1%}",
            )
        console.print(pos)
    if "teams" in results:
        for row in results["teams"]:
            low, high = row["ci95"]
            console.print(
                ngettext(
                    "team {team}: {wins} win, {rate} ({low} - {high})",
                    "team {team}: {wins} wins, {rate} ({low} - {high})",
                    row["wins"],
                ).format(
                    team=row["team"],
                    wins=row["wins"],
                    rate=f"{row['win_rate']:.1%}",
                    low=f"{low:.1%}",
                    high=f"{high:.1%}",
                )
            )
    hl = results["hand_length"]
    timing = results["timing"]
    line = _("mean actions per hand {mean:.1f} (min {min}, max {max})").format(
        mean=hl["mean_actions"], min=hl["min"], max=hl["max"]
    )
    if games:
        line += _(", mean hands per game {mean:.1f}").format(mean=results["mean_hands_per_game"])
    if timing["seconds"]:
        rate = _("{seconds:.1f} s, {rate:.1f} games/s") if games else _("{seconds:.1f} s, {rate:.1f} hands/s")
        line += "; " + rate.format(seconds=timing["seconds"], rate=timing["units_per_second"])
    console.print(line)


def write_plot(results: dict[str, Any], path: str) -> None:
    """A PNG chart: the win rates with their 95% intervals, and the distribution of hand lengths."""
    import matplotlib  # noqa: PLC0415 - the optional extra "plot"

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    rows = results["seats"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    xs = list(range(len(rows)))
    rates = [r["win_rate"] for r in rows]
    # max(0, ...): a bound can differ from the rate by a rounding error on the wrong side.
    err = [
        [max(0.0, r["win_rate"] - r["ci95"][0]) for r in rows],
        [max(0.0, r["ci95"][1] - r["win_rate"]) for r in rows],
    ]
    left.bar(xs, rates, yerr=err, capsize=4, color="#3b7dd8")
    left.axhline(1 / len(rows), color="grey", linestyle="--", linewidth=1, label=_("equal share"))
    left.set_xticks(xs, [f"{i}\n{r['bot']}" for i, r in enumerate(rows)], fontsize=8)
    left.set_ylabel(_("win rate (95% CI)"))
    left.set_title(_("win rate by player") if "games" in results else _("win rate by seat"))
    left.legend(fontsize=8)
    hist = {int(k): v for k, v in results["hand_length"]["histogram"].items()}
    if hist:
        lengths = sorted(hist)
        bins = min(60, max(1, len(lengths)))
        right.hist(lengths, weights=[hist[x] for x in lengths], bins=bins, color="#d8833b")
    right.set_xlabel(_("actions per hand"))
    right.set_ylabel(_("hands"))
    right.set_title(
        ngettext("hand length ({n} hand)", "hand length ({n} hands)", results["hands"]).format(
            n=results["hands"]
        )
    )
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
