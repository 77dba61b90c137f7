"""Instructions per hand, ours and RLCard's, counted by Valgrind's callgrind (issue 6).

Timings on a shared machine drift; instruction counts do not. This script plays the same
random hands as ``bench.py`` (its plays-first policy, classic, 2 and 4 players) under
``valgrind --tool=callgrind`` and prints the instructions each hand costs, ours, RLCard's and
the stripped reference's (``stripped.py``), and the ratios. Each figure is the count of a run
that plays ``--hands`` hands less that of a run that plays none (so Python's start-up and the
imports cancel out; for ``pairs``, less a run that deals the same hands). Instructions are not
time (the two sides need not run them at the same pace), so ``bench.py``'s ratios remain the
figures of record; this one shows where a change moves the cost, to the instruction.

Modes (``--part``): ``hands`` (dealing and the policy's choices included), ``deal`` (only
``new_hand``), ``pairs`` (recorded hands replayed as ``legal_ids`` + ``step``). With ``hands`` and the native
core loaded, the same count for plays-first hands played in the core's batched loop, with the
engine's deals and with its fast ones (``native_engine_per_hand``, ``native_fast_per_hand``; its
picks are its own, so the hands are not the very same ones).

Run ``bench/.venv`` Python: ``.venv/bin/python bench/instructions.py [--hands N]``; needs
``valgrind`` on the PATH, and RLCard's venv (``make bench`` makes it) for its side.
"""

from __future__ import annotations

import argparse
import importlib
import math
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

BENCH_DIR: Final = Path(__file__).resolve().parent
RLCARD_PYTHON: Final = BENCH_DIR / ".venv-rlcard" / "bin" / "python"
SEED: Final = 1000
PARTS: Final = ("hands", "deal", "pairs")


def _ours(players: int, hands: int, part: str, recorded: str) -> None:
    """Run in the child under callgrind: ``hands`` hands of ours."""
    sys.path.insert(0, str(BENCH_DIR))
    import bench  # noqa: PLC0415 - the child imports what the parent does not need
    import picks  # noqa: PLC0415
    from unotable.engine import legal_ids, new_hand, step  # noqa: PLC0415
    from unotable.rules import Rules, find_edition  # noqa: PLC0415

    rules = Rules(edition=find_edition("classic"), players=players)
    new_hand(rules, 1, dealer=0, record=False)  # the tables are built before counting starts
    seeds = range(SEED, SEED + hands)
    if part == "hands":
        print("actions", bench.run_hands(rules, seeds, True, picks.random_words(SEED)))
    elif part == "deal":
        for s in seeds:
            new_hand(rules, s, dealer=s % players, record=False)
        print("actions", 0)
    else:
        with open(recorded, "rb") as fh:
            games: list[list[int]] = pickle.load(fh)[:hands]
        states = [new_hand(rules, s, dealer=s % players, record=False)[0] for s in seeds]
        if part == "pairs":
            for st, actions in zip(states, games, strict=True):
                for aid in actions:
                    seat = st.current
                    legal_ids(st, seat)
                    step(st, seat, aid)
        print("actions", sum(map(len, games)))


def _stripped(players: int, hands: int) -> None:
    """Run in the child under callgrind: ``hands`` hands of the stripped reference."""
    sys.path.insert(0, str(BENCH_DIR))
    import picks  # noqa: PLC0415
    import stripped  # noqa: PLC0415

    stripped.play_stripped(players, range(1), picks.random_words(SEED))  # tables built, code warm
    print("actions", stripped.play_stripped(players, range(SEED, SEED + hands), picks.random_words(SEED)))


def _native(players: int, hands: int, deals: str) -> None:
    """Run in the child under callgrind: ``hands`` plays-first hands in the native core's loop."""
    from unotable.native import core as native  # noqa: PLC0415
    from unotable.rules import Rules, find_edition  # noqa: PLC0415

    rules = Rules(edition=find_edition("classic"), players=players)
    native.play_hands(rules, [1], ["plays-first"], dealer=0)  # the tables are built before counting
    seeds = range(SEED, SEED + hands)
    result = native.play_hands(rules, seeds, ["plays-first"], pick_seed=SEED, dealer="seed", deals=deals)
    print("actions", sum(result.actions))


def _theirs(players: int, hands: int) -> None:
    """Run in the child under callgrind, with RLCard's Python: ``hands`` hands of RLCard's."""
    sys.path.insert(0, str(BENCH_DIR))
    import rlcard_worker  # noqa: PLC0415

    np_module = importlib.import_module("numpy")  # untyped, and not where mypy runs
    game = importlib.import_module("rlcard.games.uno.game").UnoGame
    rlcard_worker.play(game, np_module, players, 1, SEED)  # warm: RLCard's lazy imports
    result = rlcard_worker.play(game, np_module, players, hands, SEED) if hands else {"actions": 0}
    print("actions", result["actions"])


def count(python: Path | str, args: Sequence[str]) -> tuple[int, int]:
    """Instructions and actions of one child run under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", str(python), __file__, *args],
            capture_output=True,
            text=True,
            check=False,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"the counted run failed: {proc.stderr.strip()[-500:]}")
    found = re.search(r"Collected : (\d+)", proc.stderr)
    actions = re.search(r"^actions (\d+)$", proc.stdout, re.MULTILINE)
    if not found or not actions:
        raise RuntimeError("callgrind printed no count")
    return int(found.group(1)), int(actions.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    """Count and print; see the module's docstring."""
    parser = argparse.ArgumentParser(description="instructions per hand by callgrind, ours and RLCard's")
    parser.add_argument("--hands", type=int, default=200, help="hands per count (200)")
    parser.add_argument("--part", choices=PARTS, default="hands", help="what of ours is counted (hands)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        side, players, hands, recorded = args.child
        if side == "ours":
            _ours(int(players), int(hands), args.part, recorded)
        elif side == "stripped":
            _stripped(int(players), int(hands))
        elif side.startswith("native-"):
            _native(int(players), int(hands), side.removeprefix("native-"))
        else:
            _theirs(int(players), int(hands))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted (apt-get install valgrind)")
        return 1
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    sys.path.insert(0, str(BENCH_DIR))
    import bench  # noqa: PLC0415
    import picks  # noqa: PLC0415
    from unotable.native import COMPILED  # noqa: PLC0415 - RLCard's Python runs this file too
    from unotable.rules import Rules, find_edition  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        for players in (2, 4):
            recorded = f"{tmp}/recorded.pkl"
            if args.part == "pairs":
                rules = Rules(edition=find_edition("classic"), players=players)
                seeds = range(SEED, SEED + args.hands)
                games = bench.play_checked(rules, seeds, True, picks.random_words(SEED))
                Path(recorded).write_bytes(pickle.dumps(games))
            child = ["--part", args.part, "--child", "ours", str(players)]
            if args.part == "pairs":  # less the same deals, played no further
                base, _ = count(sys.executable, ["--part", "deal", *child[2:], str(args.hands), recorded])
            else:
                base, _ = count(sys.executable, [*child, "0", recorded])
            total, actions = count(sys.executable, [*child, str(args.hands), recorded])
            ours = (total - base) / args.hands
            line = (
                f"instructions players={players} part={args.part} ours_per_hand={ours:.0f} "
                f"ours_actions_per_hand={actions / args.hands:.1f}"
            )
            if actions:
                line += f" ours_per_action={(total - base) / actions:.0f}"
            if args.part == "hands":
                child = ["--child", "stripped", str(players)]
                base, _ = count(sys.executable, [*child, "0", "-"])
                total, _ = count(sys.executable, [*child, str(args.hands), "-"])
                reference = (total - base) / args.hands
                line += f" stripped_per_hand={reference:.0f} ours_over_stripped={reference / ours:.2f}"
            native_cost = {"engine": math.nan, "fast": math.nan}
            for deals in native_cost if args.part == "hands" and COMPILED else ():
                child = ["--child", f"native-{deals}", str(players)]
                base, _ = count(sys.executable, [*child, "0", "-"])
                total, native_actions = count(sys.executable, [*child, str(args.hands), "-"])
                cost = native_cost[deals] = (total - base) / args.hands
                line += (
                    f" native_{deals}_per_hand={cost:.0f}"
                    f" native_{deals}_actions_per_hand={native_actions / args.hands:.1f}"
                )
            if args.part == "hands" and RLCARD_PYTHON.exists():
                child = ["--child", "rlcard", str(players)]
                base, _ = count(RLCARD_PYTHON, [*child, "0", "-"])
                total, actions = count(RLCARD_PYTHON, [*child, str(args.hands), "-"])
                theirs = (total - base) / args.hands
                line += (
                    f" rlcard_per_hand={theirs:.0f} rlcard_actions_per_hand={actions / args.hands:.1f}"
                    f" ratio={theirs / ours:.2f}"
                    f" stripped_ratio={theirs / reference:.2f}"
                )
                if COMPILED:
                    line += (
                        f" native_engine_ratio={theirs / native_cost['engine']:.1f}"
                        f" native_fast_ratio={theirs / native_cost['fast']:.1f}"
                    )
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
