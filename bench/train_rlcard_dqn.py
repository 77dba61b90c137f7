"""Train RLCard's own DQN agent on this project's UNO through the RLCard bridge (the ladder's DQN).

RLCard's ``DQNAgent`` (PyTorch, CPU), unchanged, on ``rlcard.make("unotable-uno")`` with the
``rlcard`` preset, heads-up, as RLCard's ``examples/run_rl.py`` trains it: against RLCard's
``RandomAgent``, the learner's trajectories ``reorganize``d into transitions and ``feed``ed one
by one; here the learner changes seats every hand (the bridge draws the dealer, so seat 0 is not
always first). Every ``--eval-every`` hands it plays ``--eval-hands`` greedy hands (``eval_step``)
against random and prints its win rate. At the end it writes the Q-network's weights alone
(``q_estimator.qnet.state_dict()``, a few hundred kB at most; not RLCard's checkpoint, which holds
the replay memory) to ``--out``; :func:`load_agent` makes the agent again from them.

``nice -n 19 python bench/train_rlcard_dqn.py --minutes 5 --out tests/data/rlcard_dqn_uno.pt``
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import rlcard
import torch
from rlcard.agents import DQNAgent, RandomAgent
from rlcard.utils import reorganize

import unotable.interop.rlcard  # noqa: F401 - registers unotable-uno

LAYERS = [64, 64]
"""The Q-network's hidden layers (RLCard's examples use [64, 64])."""


def make_agent(num_actions: int, state_shape: list[int], **kw: Any) -> DQNAgent:
    """A DQN agent of the ladder's shape, on the CPU."""
    return DQNAgent(
        num_actions=num_actions,
        state_shape=state_shape,
        mlp_layers=LAYERS,
        device=torch.device("cpu"),
        **kw,
    )


def load_agent(path: Path) -> DQNAgent:
    """The trained agent of ``path`` (weights written by this script), for ``eval_step``."""
    agent = make_agent(61, [4, 4, 15])
    agent.q_estimator.qnet.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    agent.q_estimator.qnet.eval()
    return agent


def win_rate(env: Any, agent: DQNAgent, hands: int, seed: int) -> float:
    """The agent's share of ``hands`` heads-up hands won against random (greedy play)."""
    rand = RandomAgent(num_actions=env.num_actions)
    np.random.seed(seed)
    wins = 0.0
    for i in range(hands):
        seat = i % 2
        env.set_agents([agent, rand] if seat == 0 else [rand, agent])
        _, payoffs = env.run(is_training=False)
        wins += 1.0 if payoffs[seat] > 0 else 0.5 if payoffs[seat] == 0 else 0.0
    return wins / hands


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="stop training after this long")
    ap.add_argument("--episodes", type=int, default=1_000_000, help="or after this many hands")
    ap.add_argument("--eval-every", type=int, default=2000)
    ap.add_argument("--eval-hands", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=Path("tests/data/rlcard_dqn_uno.pt"))
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(1)
    env = rlcard.make("unotable-uno", config={"seed": args.seed, "preset": "rlcard"})
    test_env = rlcard.make("unotable-uno", config={"seed": args.seed + 1, "preset": "rlcard"})
    agent = make_agent(env.num_actions, env.state_shape[0])
    rand = RandomAgent(num_actions=env.num_actions)
    start = time.perf_counter()
    episode = 0
    while episode < args.episodes and time.perf_counter() - start < 60 * args.minutes:
        seat = episode % 2
        env.set_agents([agent, rand] if seat == 0 else [rand, agent])
        trajectories, payoffs = env.run(is_training=True)
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):  # RLCard's per-update log
            for ts in reorganize(trajectories, payoffs)[seat]:
                agent.feed(ts)
        episode += 1
        if episode % args.eval_every == 0:
            rate = win_rate(test_env, agent, args.eval_hands, args.seed + episode)
            took = time.perf_counter() - start
            print(
                f"{episode:7d} hands  {agent.train_t:7d} updates  {took:6.0f} s"
                f"  against random: {100 * rate:5.1f}%",
                flush=True,
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(agent.q_estimator.qnet.state_dict(), args.out)
    print(
        f"{episode} hands, {agent.train_t} updates; weights in {args.out} ({args.out.stat().st_size:,} bytes)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
