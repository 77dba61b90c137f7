"""RLCard's side of ``bench_env.py``: steps of RLCard's UNO *environment* with random legal actions.

Run with the Python of ``bench/.venv-rlcard`` (RLCard and numpy live there, never in the
project's ``.venv``), as a small server like ``rlcard_worker.py``:

- on start it writes ``{"rlcard": VERSION, "numpy": VERSION, "python": VERSION}``, or
  ``{"error": MESSAGE}`` (and exits 1) if RLCard cannot be imported;
- for each line ``{"players": N, "steps": S, "seed": X}`` on stdin it runs ``S`` env steps and
  writes ``{"steps": S, "seconds": T, "hands": H}``.

The env is ``rlcard.make("uno", config={"seed": X})``. RLCard's env always seats 2 (its
``game_num_players`` is honoured only by the poker games and blackjack), so for more players
its game is configured directly (``env.game.configure``) and ``env.num_players`` set to match.
Each step is RLCard's ``env.step(action)``, which plays the action and builds the next
player's state (the 4x4x15 observation and the legal action ids); the action is
``legal[word() % len(legal)]`` over ``state["legal_actions"]``, with ``bench/picks.py``'s stream
as ours. A hand's end is read from ``env.is_over()`` and followed by ``env.reset()``, timed too.
"""

from __future__ import annotations

import importlib
import json
import platform
import sys
import time
from typing import Any

from picks import random_words


def run(rlcard: Any, players: int, steps: int, seed: int) -> dict[str, Any]:
    """``steps`` env steps of a ``players``-seat RLCard UNO env."""
    env = rlcard.make("uno", config={"seed": seed})
    if players != env.num_players:
        env.game.configure({"game_num_players": players})
        env.num_players = players
    word = random_words(seed)
    hands = 0
    start = time.perf_counter()
    state, _ = env.reset()
    for _ in range(steps):
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[word() % len(legal)])
        if env.is_over():
            hands += 1
            state, _ = env.reset()
    return {"steps": steps, "seconds": time.perf_counter() - start, "hands": hands}


def main() -> int:
    """Serve ``run`` requests from stdin until it closes."""
    try:
        np_module: Any = importlib.import_module("numpy")
        rlcard: Any = importlib.import_module("rlcard")
    except Exception as exc:  # any import failure ends the comparison, with the reason
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
        return 1
    print(
        json.dumps(
            {
                "rlcard": rlcard.__version__,
                "numpy": np_module.__version__,
                "python": platform.python_version(),
            }
        ),
        flush=True,
    )
    for line in sys.stdin:
        req = json.loads(line)
        print(json.dumps(run(rlcard, req["players"], req["steps"], req["seed"])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
