"""RLCard's UNO and ours side by side, through RLCard's own API (docs/interop.md).

The same agents play heads-up hands on ``rlcard.make("uno")`` (RLCard's game) and on
``rlcard.make("unotable-uno")`` (this project's rules core through ``unotable.interop.rlcard``,
preset ``rlcard`` by default): RLCard's ``uno-rule-v1`` in seat 0 against its ``RandomAgent``,
seats swapped every other hand, with each env seeded from ``--seed``. Prints, per env, the rule
agent's win rate with a 95% Wilson interval, the mean hand length in actions and hands/s.

    python bench/interop_rlcard.py --hands 2000
"""

from __future__ import annotations

import argparse
import time

import rlcard
from rlcard import models
from rlcard.agents import RandomAgent

import unotable.interop.rlcard  # registers unotable-uno
from unotable.sim.stats import wilson


def run(env_id: str, hands: int, seed: int, preset: str) -> str:
    """One line of figures for ``hands`` hands on ``env_id``."""
    config: dict[str, object] = {"seed": seed}
    if env_id != "uno":
        config["preset"] = preset
    env = rlcard.make(env_id, config=config)
    rule = models.load("uno-rule-v1").agents[0]
    rand = RandomAgent(num_actions=env.num_actions)
    wins = draws = actions = 0
    start = time.perf_counter()
    for i in range(hands):
        seat = i % 2
        env.set_agents([rule, rand] if seat == 0 else [rand, rule])
        trajectories, payoffs = env.run(is_training=False)
        actions += sum((len(t) - 1) // 2 for t in trajectories)
        wins += payoffs[seat] > 0
        draws += payoffs[seat] == 0
    took = time.perf_counter() - start
    lo, hi = wilson(wins, hands)
    name = env_id if env_id == "uno" else f"{env_id} ({preset})"
    return (
        f"{name:28} uno-rule-v1 wins {wins / hands:6.1%} [{lo:.1%}, {hi:.1%}]"
        f"  draws {draws:4d}  actions/hand {actions / hands:6.1f}  hands/s {hands / took:7.1f}"
    )


def main() -> None:
    """Parse the arguments and print the figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--preset", default="rlcard", choices=unotable.interop.rlcard.PRESETS)
    a = p.parse_args()
    for env_id in ("uno", "unotable-uno"):
        print(run(env_id, a.hands, a.seed, a.preset), flush=True)


if __name__ == "__main__":
    main()
