"""What saving costs a game of ``uno play`` (issue 12): CPU seconds of a whole bots-only game
played with ``--save`` and without, and the size of the file.

Before, the whole game was rewritten as indented JSON after every action (a 3,043-action game:
24 s of CPU with ``--save``, 0.66 s without); now each action appends one line and syncs it.

Run: ``.venv/bin/python bench/saves.py [--seed S] [--target T]``; prints one line per run and a
last line ``save_cpu_s=X nosave_cpu_s=Y actions=N``.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu_of(argv: list[str]) -> float:
    """CPU seconds (user + system) of a child process running ``uno`` with ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "unotable", *argv], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Time the same seeded game with and without ``--save``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--target", type=int, default=1000)
    args = parser.parse_args()
    game = ["play", "--auto", "--text", "--fast", "--bots", "random", "--seed", str(args.seed)]
    game += ["--target", str(args.target)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        saved = cpu_of([*game, "--save", str(path)])
        actions = path.read_text().count("\n[")
        plain = cpu_of(game)
        size = path.stat().st_size
    print(f"with --save: {saved:.2f} s CPU, {actions} actions, file {size / 1000:.0f} kB")
    print(f"without:     {plain:.2f} s CPU")
    print(f"save_cpu_s={saved:.2f} nosave_cpu_s={plain:.2f} actions={actions}")


if __name__ == "__main__":
    main()
