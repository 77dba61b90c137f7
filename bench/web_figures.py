"""``make bench-web``'s figures kept and drawn: ``--json PATH`` keeps every run's figures in one
file (the runs of each ``make bench-web``, on SQLite, on PostgreSQL and the storm, each replacing
its own earlier ones), and ``--plot PATH`` draws what that file holds:

- for each database, the p99 over the whole run (connect phase included) against the number of
  rooms, our tree (one node, two behind nginx) and the previous release, with the 50 ms target;
- the reconnect storm: the other rooms' p99 a second, from 2 s before the storm to 10 s after,
  ours and the release's, with the 100 ms target.

``--replot`` draws the file again without running anything (docs/figures/bench_web.png).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

ROOMS_TARGET: Final = 0.050
"""The capacity target: p99 under 50 ms (seconds)."""
STORM_TARGET: Final = 0.100
"""The storm's: the other rooms' p99 under 100 ms (seconds)."""
KIND: Final = "unotable bench-web"
"""What the file says it is (another JSON file is not taken for one)."""


def _key(run: dict[str, Any]) -> tuple[Any, ...]:
    """Runs with the same key are the same measure; a later one replaces an earlier one."""
    return run["kind"], run["database"], run["tree"], run.get("nodes", 1), run["rooms"]


def load(path: Path) -> list[dict[str, Any]]:
    """The runs kept in ``path`` (none if there is no such file). Raises :class:`ValueError` if
    it is not the benchmark's."""
    if not path.exists():
        return []
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(doc, dict) or doc.get("kind") != KIND or not isinstance(doc.get("runs"), list):
        raise ValueError(f"{path} is not a file of make bench-web's figures")
    runs: list[dict[str, Any]] = doc["runs"]
    for i, run in enumerate(runs):
        if not (
            isinstance(run, dict)
            and run.get("kind") in ("rooms", "storm")
            and isinstance(run.get("database"), str)
            and isinstance(run.get("tree"), str)
            and isinstance(run.get("rooms"), int)
            and isinstance(run.get("nodes", 1), int)
        ):
            raise ValueError(f"{path}: run {i + 1} is not one of make bench-web's runs")
    return runs


def record(path: Path, runs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep ``runs`` in ``path`` beside those already there (replacing the same measures); all
    the runs kept, in order."""
    kept = {_key(r): r for r in load(path)}
    for run in runs:
        kept[_key(run)] = run
    ordered = sorted(kept.values(), key=_key)
    doc = {"kind": KIND, "written": time.strftime("%Y-%m-%d %H:%M:%S"), "runs": ordered}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(clean(doc), indent=1, allow_nan=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return ordered


def _label(run: dict[str, Any]) -> str:
    nodes = run.get("nodes", 1)
    tree = str(run["tree"])
    if tree.startswith("release-"):  # bench_web's name for the previous release's tree
        tree = f"previous release ({tree.removeprefix('release-')})"
    return tree + (f", {nodes} nodes behind nginx" if nodes > 1 else "")


def _style(run: dict[str, Any]) -> dict[str, Any]:
    """Ours in blue (solid one node, dashed two), the release in grey."""
    if run["tree"] != "ours":
        return {"color": "#7f7f7f", "linestyle": ":", "marker": "s"}
    if run.get("nodes", 1) > 1:
        return {"color": "#1f77b4", "linestyle": "--", "marker": "^"}
    return {"color": "#1f77b4", "linestyle": "-", "marker": "o"}


def plot(runs: list[dict[str, Any]], out: Path) -> None:
    """Draw ``runs`` (as :func:`record` keeps them) into the image ``out``."""
    import matplotlib  # noqa: PLC0415 - the optional extra "plot"

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    databases = sorted({r["database"] for r in runs if r["kind"] == "rooms"}, reverse=True)  # SQLite first
    storms = [r for r in runs if r["kind"] == "storm"]
    panels = len(databases) + (1 if storms else 0)
    if not panels:
        raise ValueError("nothing to draw: no run kept")
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.4), squeeze=False)
    for ax, database in zip(axes[0], databases, strict=False):
        lines: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for r in runs:
            if r["kind"] == "rooms" and r["database"] == database:
                lines.setdefault((r["tree"], r.get("nodes", 1)), []).append(r)
        for line in lines.values():
            points = sorted((r for r in line if r["p99"] is not None), key=lambda r: r["rooms"])
            if not points:
                continue
            xs = [r["rooms"] for r in points]
            ys = [1000 * r["p99"] for r in points]
            ax.plot(xs, ys, label=_label(points[0]), **_style(points[0]))
        ax.axhline(1000 * ROOMS_TARGET, color="#d62728", linewidth=1, label="target: 50 ms")
        ax.set_yscale("log")
        ax.set_xlabel("person-paced rooms (2 people each)")
        ax.set_ylabel("action to update, p99 over the whole run (ms)")
        ax.set_title(f"{database}, --durability full")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    if storms:
        ax = axes[0][-1]
        for r in storms:
            seconds = list(range(-2, -2 + len(r["other_p99_by_1s"])))
            ys = [float("nan") if x is None else 1000 * x for x in r["other_p99_by_1s"]]
            style = _style(r)
            if r["database"] == "PostgreSQL":
                style["marker"] = "x"
            ax.plot(seconds, ys, label=f"{_label(r)} ({r['database']})", **style)
        ax.axhline(1000 * STORM_TARGET, color="#d62728", linewidth=1, label="target: 100 ms")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xlabel("seconds from the storm (2,000 clients reconnecting at once)")
        ax.set_ylabel("the other rooms' p99 in each second (ms)")
        others = sorted({r["rooms"] for r in storms})
        ax.set_title(f"Reconnect storm, {'/'.join(map(str, others))} other rooms playing")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    written = sorted({r["when"] for r in runs if r.get("when")})
    if written:
        fig.suptitle(f"make bench-web, one 2-core machine with its clients ({written[0][:10]})", fontsize=10)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def summary(runs: list[dict[str, Any]]) -> list[str]:
    """A line a run kept, shortened (what ``--replot`` prints)."""
    return [
        f"storm {r['database']} tree={r['tree']} welcomed_within_5s={r['within_5s']}/{r['reconnecting']} "
        f"other_p99_during_ms={_ms(r['other_p99_during'])}"
        for r in runs
        if r["kind"] == "storm"
    ] + [
        f"rooms {r['database']} tree={r['tree']} nodes={r.get('nodes', 1)} rooms={r['rooms']} "
        f"p99_ms={_ms(r['p99'])} server_cpu_ms_per_action={_num(r.get('cpu_ms'))}"
        for r in runs
        if r["kind"] == "rooms"
    ]


def _ms(seconds: float | None) -> str:
    return "nan" if seconds is None else f"{1000 * seconds:.1f}"


def _num(value: float | None) -> str:
    return "nan" if value is None else f"{value:.2f}"


def clean(value: Any) -> Any:
    """``value`` with every float that is not finite (a quantile of nothing) as ``None``: JSON
    has no NaN."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value
