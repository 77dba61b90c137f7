"""RLCard's side of the comparison in ``bench.py``: random-vs-random hands of RLCard's UNO.

Run by ``bench.py`` with the Python of ``bench/.venv-rlcard`` (RLCard and numpy live there, never
in the project's ``.venv``). It is a small server so that ``bench.py`` can alternate rounds of
ours and theirs without paying RLCard's import on each round:

- on start it writes one JSON line, ``{"rlcard": VERSION, "numpy": VERSION, "python": VERSION}``,
  or ``{"error": MESSAGE}`` (and exits 1) if RLCard cannot be imported;
- then, for each JSON line ``{"players": N, "hands": H, "seed": S}`` read on stdin, it plays ``H``
  hands and writes ``{"hands": H, "seconds": T, "actions": A, "unfinished": U, "errors": E}``.

The loop is RLCard's bare game, as its environment drives it: ``UnoGame(num_players=N)`` (built
directly: ``rlcard.make("uno")`` always seats 2), ``init_game()``, then ``get_legal_actions()``,
a uniform choice (``legal[word() % len(legal)]``, as ours: ``bench/picks.py``) and ``step(action)`` until
``is_over()``. In RLCard's game ``draw`` is legal only with nothing to play (a drawn card that
can go is played at once), and nobody calls UNO. The timed part is the same as ours: dealing
and playing the hands, the random choice included.

RLCard has no type hints and is not installed where mypy runs, so it is imported dynamically and
handled as ``Any``.
"""

from __future__ import annotations

import importlib
import json
import platform
import sys
import time
from typing import Any

from picks import random_words

MAX_ACTIONS = 100_000
"""A hand still going after this many actions is counted as unfinished (never seen)."""


def play(game_class: Any, np_module: Any, players: int, hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` random hands of ``players`` seats; time and count them."""
    game = game_class(num_players=players)
    # UnoGame makes an unseeded RandomState in __init__; init_game hands it to the dealer, the
    # players and the round, so setting it here seeds every shuffle and colour RLCard draws.
    game.np_random = np_module.random.RandomState(seed)
    word = random_words(seed)
    actions = 0
    unfinished = 0
    errors = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for _ in range(hands):
        try:
            game.init_game()
            n = 0
            while not game.is_over():
                legal = game.get_legal_actions()
                game.step(legal[word() % len(legal)])
                n += 1
                if n >= MAX_ACTIONS:
                    unfinished += 1
                    break
        except (IndexError, ValueError):  # e.g. a draw with every card in the hands
            errors += 1
            continue
        actions += n
    seconds = time.perf_counter() - start
    return {
        "hands": hands,
        "seconds": seconds,
        "cpu_seconds": time.process_time() - cpu,
        "actions": actions,
        "unfinished": unfinished,
        "errors": errors,
    }


def main() -> int:
    """Serve ``play`` requests from stdin until it closes."""
    try:
        np_module: Any = importlib.import_module("numpy")
        rlcard: Any = importlib.import_module("rlcard")
        game_module: Any = importlib.import_module("rlcard.games.uno.game")
    except Exception as exc:  # any import failure ends the comparison, with the reason
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
        return 1
    hello = {
        "rlcard": rlcard.__version__,
        "numpy": np_module.__version__,
        "python": platform.python_version(),
    }
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        result = play(
            game_module.UnoGame,
            np_module,
            int(request["players"]),
            int(request["hands"]),
            int(request["seed"]),
        )
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
