"""Train sb3-contrib's MaskablePPO against the greedy bot, then measure it: a few minutes on one core.

    pip install -e '.[train]'
    python examples/maskable_ppo.py                       # 50,000 steps, heads-up against greedy
    python examples/maskable_ppo.py --steps 20000 --players 3 --opponents random --out runs/ppo

The env is ``unotable/UNO-v0`` from ``gymnasium.make`` (registered by ``import unotable.env``)
with ``obs_type="box"``: the observation is one flat vector, which ``MlpPolicy`` takes as it is,
and the mask of legal actions is the env's ``action_masks()``, which MaskablePPO reads. The
result is ``unotable.env.evaluate``'s: the win rate over paired, seat-rotated deals, with its
95% Wilson interval.
"""

from __future__ import annotations

import argparse
import sys
import time

import gymnasium
import torch
from sb3_contrib import MaskablePPO

import unotable.env
from unotable.env import evaluate


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=50_000, help="environment steps to train (default 50,000)")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--edition", default="classic")
    p.add_argument("--opponents", default="greedy", help="the other players' bot (default greedy)")
    p.add_argument("--hands", type=int, default=2000, help="hands to evaluate on (default 2,000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="save the model here (a .zip)")
    args = p.parse_args(argv)
    torch.set_num_threads(1)  # a small network: more threads only contend

    env = gymnasium.make(
        unotable.env.GYM_ID,
        players=args.players,
        edition=args.edition,
        opponents=args.opponents,
        obs_type="box",
    )
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=args.seed, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - start
    print(f"trained {args.steps:,} steps in {took:.0f} s ({args.steps / took:,.0f} steps/s)")
    if args.out:
        model.save(args.out)
    result = evaluate(
        model,
        args.opponents,
        hands=args.hands,
        players=args.players,
        edition=args.edition,
        seed=args.seed + 1,
    )
    print(f"against {args.opponents}, {args.players} players: {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
