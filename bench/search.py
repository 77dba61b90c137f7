"""The search bot's decisions, Python against the native core, at the same budget (issue 16).

Positions: every decision of the seat to play with more than one candidate, in hands played by
four (or two) greedy bots from seeds 0, 1, ...; each decided by ``search`` with ``native=false``
(the whole search in Python) and by ``search`` (the whole search in the core), from the same
generator state, so both play the same playouts (the script checks that they choose alike).
Prints ms per decision and playouts per second for each, and the ratio; ``--budgets`` adds
native budgets alone (what the native decision costs at 10x-50x the playouts).

``.venv/bin/python bench/search.py [--players 4] [--decisions 60] [--budget 500] [--budgets 5000,12000]``
"""

from __future__ import annotations

import argparse
import time

from rich.progress import Progress

from unotable.bots import make_bot
from unotable.bots.search import SearchBot
from unotable.engine import new_hand, step
from unotable.native import COMPILED
from unotable.rules import Rules
from unotable.views import View, view


def positions(players: int, count: int) -> list[View]:
    """``count`` views of the seat to play with more than one search candidate."""
    greedy = make_bot("greedy", 0)
    probe = SearchBot(0)
    out: list[View] = []
    seed = 0
    while len(out) < count:
        st = new_hand(Rules(players=players), seed)[0]
        seed += 1
        while st.current >= 0 and len(out) < count:
            v = view(st, st.current)
            if len(probe.candidates(v, list(v.legal))) > 1:
                out.append(v)
            step(st, st.current, greedy.act(v))
    return out


def timed(
    views: list[View], budget: int, native: bool, progress: Progress, label: str
) -> tuple[float, int, list[int]]:
    """Seconds, playouts and choices of ``search`` over ``views``."""
    task = progress.add_task(label, total=len(views))
    seconds = 0.0
    playouts = 0
    choices = []
    for i, v in enumerate(views):
        bot = SearchBot(i, budget=budget, native=native)
        start = time.perf_counter()
        choices.append(bot.choose(v, list(v.legal)))
        seconds += time.perf_counter() - start
        playouts += bot.playouts
        progress.advance(task)
    return seconds, playouts, choices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--budget", type=int, default=500)
    parser.add_argument("--budgets", default="", help="native budgets alone, comma-separated")
    args = parser.parse_args()
    if not COMPILED:
        raise SystemExit("the native core is not loaded: nothing to compare")
    views = positions(args.players, args.decisions)
    with Progress(transient=True) as progress:
        py_s, py_n, py_choices = timed(views, args.budget, False, progress, "python")
        nat_s, nat_n, nat_choices = timed(views, args.budget, True, progress, "native")
        extra = [
            (b, timed(views, b, True, progress, f"native {b}"))
            for b in (int(x) for x in args.budgets.split(",") if x.strip())
        ]
    if py_choices != nat_choices:
        raise SystemExit("the native search chose otherwise than the Python one: a bug")
    d = len(views)
    print(f"# classic, {args.players} players, {d} decisions of the seat to play, budget {args.budget}")
    print(f"python  {1000 * py_s / d:8.2f} ms/decision {py_n / py_s:10.0f} playouts/s")
    print(f"native  {1000 * nat_s / d:8.2f} ms/decision {nat_n / nat_s:10.0f} playouts/s")
    for b, (s, n, _) in extra:
        print(f"native budget {b}: {1000 * s / d:8.2f} ms/decision {n / s:10.0f} playouts/s")
    print(f"search_native_speedup={py_s / nat_s:.1f} same_choices={py_choices == nat_choices}")


if __name__ == "__main__":
    main()
