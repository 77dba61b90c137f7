"""One bot against others, hand by hand: the deals of ``unotable.env.evaluate``, in parallel.

Plays exactly the games ``evaluate(bot, opponents, hands, players, seed=seed)`` plays (the same
table seeds, the bots made and reseeded the same way, each deal once from every seat), but deal
by deal (every seat of a deal, then the next deal) on ``--workers`` processes, writing one JSON
line per deal to ``--out`` as it ends: which seats the bot won from, and the milliseconds of
each of its decisions (wall clock, and the process's CPU time: on a loaded machine the first
includes the waits for a core). So a run stopped early still holds whole seat-rotated deals,
the figure for the full count equals ``evaluate``'s, and two runs with the same seed
(``expert`` and ``search`` in the same seat against the same opponents) pair hand by hand.
``--summary`` prints a finished or partial file's figures (win rate with its Wilson interval,
decisions' median and 99th percentile, and with ``--pair`` the paired difference against
another file).

``python bench/bot_match.py --bot expert --opponents search --players 2 --hands 10000 --seed 2026
--workers 2 --out runs/expert_search2.jsonl``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from unotable.bots.base import reseed_twister
from unotable.env.driver import DECLINE, Driver, make_rules
from unotable.env.evaluation import _chunks, wilson
from unotable.env.vector import seat_specs
from unotable.sim import BotSpec

_JOB: dict[str, Any] = {}


def _init(bot: str, opponents: str, players: int) -> None:
    _JOB.update(bot=bot, opponents=opponents, players=players, rules=make_rules(players=players))


def play_deal(table_seed: int) -> dict[str, Any]:
    """The deal seeded ``table_seed`` played once with the bot in each seat."""
    rules = _JOB["rules"]
    n = rules.players
    won: list[int] = []
    ms: list[float] = []
    cpu: list[float] = []
    for seat in range(n):
        ring: list[str | None] = [None if p == seat else _JOB["opponents"] for p in range(n)]
        seats = seat_specs(ring, seat, n)
        assert seats is not None
        specs = [BotSpec.parse(_JOB["bot"] if s is None else s) for s in seats]
        d = Driver(rules)
        bots = [s.make(p) for p, s in enumerate(specs)]
        for p, b in enumerate(bots):
            reseed_twister(b, table_seed + p)  # as evaluate reseeds them
        d.reset(table_seed)
        rewards = [0.0] * n
        acted = False
        while not d.done or not acted:
            if d.done:
                d.reset()
            acted = acted or d.actor == seat
            b = bots[d.actor]
            view = d.view_of(d.actor)
            assert view is not None
            t0, c0 = time.perf_counter(), time.process_time()
            if d.window:
                choice = b.react(view)
                aid = DECLINE if choice is None else choice
            else:
                aid = b.act(view)
            if d.actor == seat:
                ms.append(round(1000 * (time.perf_counter() - t0), 3))
                cpu.append(round(1000 * (time.process_time() - c0), 3))
            rewards = d.act(aid)
        if rewards[seat] > 0:
            won.append(seat)
    return {"seed": table_seed, "won": won, "ms": ms, "cpu": cpu}


def table_seeds(hands: int, players: int, seed: int) -> list[int]:
    """The table seeds ``evaluate`` deals from (``hands`` rounded up to whole deals)."""
    out: list[int] = []
    for chunk_seed, size in _chunks(-(-hands // players), seed, 256):
        rng = random.Random(chunk_seed)
        out.extend(rng.getrandbits(63) for _ in range(size))
    return out


def deals(path: Path) -> list[dict[str, Any]]:
    """A run file's deals (its lines but the header)."""
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return [r for r in rows if r.get("seed") is not None]


def p99(ordered: list[float]) -> float:
    """The 99th percentile of sorted figures (0 for none)."""
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0


def summary(path: Path, pair: Path | None = None) -> dict[str, Any]:
    """A run's figures (those of its deals so far)."""
    with path.open() as f:
        players = json.loads(f.readline())["players"]  # the header, the file's first line
    rows = deals(path)
    hands = len(rows) * players
    wins = sum(len(r["won"]) for r in rows)
    low, high = wilson(wins, hands)
    ms = sorted(t for r in rows for t in r["ms"])
    cpu = sorted(t for r in rows for t in r.get("cpu", ()))
    out: dict[str, Any] = {
        "file": str(path),
        "deals": len(rows),
        "hands": hands,
        "wins": wins,
        "rate": wins / hands if hands else 0.0,
        "low": low,
        "high": high,
        "decisions": len(ms),
        "median_ms": statistics.median(ms) if ms else 0.0,
        "p99_ms": p99(ms),
        "mean_ms": statistics.fmean(ms) if ms else 0.0,
        "median_cpu_ms": statistics.median(cpu) if cpu else 0.0,
        "p99_cpu_ms": p99(cpu),
        "mean_cpu_ms": statistics.fmean(cpu) if cpu else 0.0,
    }
    if pair is not None:
        other = {r["seed"]: r for r in deals(pair)}
        diffs = []
        for r in rows:
            o = other.get(r["seed"])
            if o is None:
                continue
            for seat in range(players):
                diffs.append((seat in r["won"]) - (seat in o["won"]))
        if len(diffs) > 1:
            mean = statistics.fmean(diffs)
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
            out["paired_hands"] = len(diffs)
            out["paired_diff"] = mean
            out["paired_half"] = half
            out["pair_rate"] = sum(len(other[r["seed"]]["won"]) for r in rows if r["seed"] in other) / max(
                1, len(diffs)
            )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--opponents", default="search")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument(
        "--skip", type=int, default=0, help="start at this deal (a second run on other deals, another file)"
    )
    ap.add_argument("--summary", type=Path, help="print the figures of a run's file and stop")
    ap.add_argument("--pair", type=Path, help="with --summary: the paired difference against this run")
    args = ap.parse_args(argv)
    if args.summary:
        print(json.dumps(summary(args.summary, args.pair), indent=1))
        return 0
    if args.out is None:
        ap.error("--out is needed to run")
    seeds = table_seeds(args.hands, args.players, args.seed)
    fresh = not args.out.exists()
    done = set() if fresh else {r["seed"] for r in deals(args.out)}  # resume
    todo = [s for s in seeds[args.skip :] if s not in done]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as f:
        if fresh:
            meta = {"bot": args.bot, "opponents": args.opponents, "players": args.players}
            f.write(json.dumps({**meta, "hands": args.hands, "seed": None}) + "\n")
        job = (args.bot, args.opponents, args.players)
        with contextlib.ExitStack() as stack:
            if args.workers > 1:
                pool = stack.enter_context(multiprocessing.Pool(args.workers, _init, job))
                rows: Iterator[dict[str, Any]] = pool.imap(play_deal, todo)
            else:
                _init(*job)
                rows = map(play_deal, todo)
            for i, row in enumerate(rows):
                f.write(json.dumps(row) + "\n")
                f.flush()
                if (i + 1) % 50 == 0:
                    print(f"{len(done) + i + 1}/{len(seeds)} deals", file=sys.stderr, flush=True)
    print(json.dumps(summary(args.out), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
