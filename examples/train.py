"""Train the learned bot: behaviour cloning of ``greedy``, then masked PPO with self-play and
games against ``greedy`` (and a few against ``random``), on CPU with PyTorch.

    pip install -e '.[train]'
    python examples/train.py --minutes 45 --out runs/learned   # resumes from a checkpoint there
    python examples/train.py --out runs/learned --export src/unotable/bots/learned.npz

The network reads the learned bot's own features (``unotable.bots.learned``: the env's
observation for ten seats) and outputs one logit per notation action (seats relative) plus
``decline``; illegal actions are masked. The rollouts run on ``unotable.env.VectorEnv``
(the native core's tables when it is built; the greedy and random bots played inside it), one
VectorEnv per configuration and kind of opponent, their observations mapped to the network's
ten-seat input and its actions back to each env's ids (``Mapper``); one forward pass a step
for every table. Rewards: +1 for the winner of a hand, -1 for the others. A checkpoint (model,
optimiser, counters) is written every ``--save-every`` updates and at the end, with the numpy
weights (``learned.npz``) beside it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from unotable.bots import make_bot
from unotable.bots.learned import DECLINE, LAYOUT, NUM_ACTIONS, choices, features, relative_ids
from unotable.env import VectorEnv, action_table
from unotable.env.batch import Batch
from unotable.env.driver import DECLINE as DRIVER_DECLINE
from unotable.env.driver import Driver
from unotable.env.encoding import layout_for
from unotable.rules import Rules, find_edition

CONFIGS = (
    ("classic", 2),
    ("classic", 4),
    ("harry-potter", 2),
    ("cars2", 2),
    ("classic", 2),
    ("harry-potter", 4),
)
"""(edition, players) of the training tables, in turn."""
KINDS = ("greedy", "self", "greedy", "self", "greedy", "self", "greedy", "random")
"""Who the network plays against at a table, in turn: itself, greedy bots or random bots."""


class Net(nn.Module):
    """Two ReLU layers, a policy head and a value head."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(LAYOUT.size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, NUM_ACTIONS)
        self.v = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(x)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)

    def export(self, path: Path) -> None:
        """The policy (trunk and policy head) as numpy arrays, for ``unotable.bots.learned``."""
        linears = [m for m in self.trunk if isinstance(m, nn.Linear)] + [self.pi]
        arrays: dict[str, Any] = {"layers": np.array(len(linears))}
        for i, lin in enumerate(linears):
            arrays[f"w{i}"] = lin.weight.detach().numpy().T.astype(np.float16)
            arrays[f"b{i}"] = lin.bias.detach().numpy().astype(np.float16)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)


class Mapper:
    """Between one configuration's env (its observation and action ids) and the network's
    (the learned bot's ten-seat layout, its actions with seats relative to the actor)."""

    def __init__(self, rules: Rules) -> None:
        env_layout = layout_for(rules)
        self.columns = np.concatenate(
            [LAYOUT.by_name[s.name].start + np.arange(s.size) for s in env_layout.segments]
        )
        """Per env observation index, its index in the network's input (a segment's seats are
        its first rows there: the same encoding, of fewer seats)."""
        table = action_table(rules)
        n = rules.players
        self.to_net = np.full((n, table.size), -1, np.int64)
        self.to_env = np.full((n, NUM_ACTIONS), -1, np.int64)
        for seat in range(n):
            rel = relative_ids(seat, n)
            for e, aid in enumerate(table.ids):
                self.to_net[seat, e] = rel[aid]
                self.to_env[seat, rel[aid]] = e
            self.to_net[seat, table.decline] = DECLINE
            self.to_env[seat, DECLINE] = table.decline

    def inputs(self, b: Batch) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The network's inputs and masks for every table of a batch."""
        x = np.zeros((len(b.agent), LAYOUT.size), np.float32)
        x[:, self.columns] = b.observation
        m = np.zeros((len(b.agent), NUM_ACTIONS), np.bool_)
        rows, cols = np.nonzero(b.action_mask)
        m[rows, self.to_net[b.agent[rows], cols]] = True
        return x, m


@dataclass
class Group:
    """Tables of one configuration stepped together on a VectorEnv (the native core when it
    plays them), the network at every seat (self-play) or at player 0 against bots."""

    env: VectorEnv
    kind: str  # self, greedy or random
    mapper: Mapper
    batch: Batch
    traj: list[dict[int, list[tuple[np.ndarray, np.ndarray, int, float, float]]]]
    rewards: np.ndarray  # (tables, players): each table's episode so far


def new_groups(tables: int, rng: random.Random) -> list[Group]:
    """The training tables: each configuration of CONFIGS against each kind of KINDS, in
    proportion (``tables`` in all, one at least per group)."""
    groups = []
    kinds = {k: KINDS.count(k) for k in dict.fromkeys(KINDS)}
    for edition, players in dict.fromkeys(CONFIGS):
        rules = Rules(edition=find_edition(edition), players=players)
        share = CONFIGS.count((edition, players)) / len(CONFIGS)
        for kind, count in kinds.items():
            n = max(1, round(tables * share * count / len(KINDS)))
            env = VectorEnv(n, rules, opponents=None if kind == "self" else kind)
            b = env.reset(rng.getrandbits(62))
            groups.append(
                Group(env, kind, Mapper(rules), b, [{} for _ in range(n)], np.zeros((n, players), np.float32))
            )
    return groups


@dataclass
class Stats:
    games: dict[str, list[float]] = field(default_factory=dict)
    """Per opponent kind and table size (``greedy2``...): 1 for each hand the network won."""


def finish(g: Group, i: int, gamma: float, lam: float, ready: list[Any], stats: Stats) -> None:
    """Table ``i``'s episode ended: its decisions, with their advantages, join ``ready``."""
    if g.kind != "self":
        stats.games.setdefault(f"{g.kind}{g.env.players}", []).append(1.0 if g.rewards[i, 0] > 0 else 0.0)
    for p, steps in g.traj[i].items():
        r = float(g.rewards[i, p])
        values = [s[4] for s in steps]
        adv = [0.0] * len(steps)
        gae = 0.0
        for k in range(len(steps) - 1, -1, -1):
            nxt = values[k + 1] if k + 1 < len(steps) else 0.0
            rew = r if k == len(steps) - 1 else 0.0
            delta = rew + gamma * nxt - values[k]
            gae = delta + gamma * lam * gae
            adv[k] = gae
        for k, (x, m, a, logp, v) in enumerate(steps):
            ready.append((x, m, a, logp, adv[k], adv[k] + v))
    g.traj[i] = {}
    g.rewards[i] = 0


def collect(groups: list[Group], net: Net, need: int, stats: Stats, gamma: float, lam: float) -> list[Any]:
    """Step every group's tables with the network's sampled actions (one forward pass for all)
    until ``need`` decisions are ready; a decision with one choice is taken but not learned."""
    ready: list[Any] = []
    while len(ready) < need:
        inputs = [g.mapper.inputs(g.batch) for g in groups]
        xs = torch.from_numpy(np.concatenate([x for x, _ in inputs]))
        ms = torch.from_numpy(np.concatenate([m for _, m in inputs]))
        with torch.no_grad():
            logits, values = net(xs, ms)
            dist = torch.distributions.Categorical(logits=logits)
            acts = dist.sample()
            logps = dist.log_prob(acts)
        start = 0
        for g, (x, m) in zip(groups, inputs, strict=True):
            n = len(x)
            a_net = acts[start : start + n].numpy()
            agents = g.batch.agent.copy()
            actions = g.mapper.to_env[agents, a_net]
            choices = m.sum(1)
            for i in range(n):
                if choices[i] > 1:
                    k = start + i
                    g.traj[i].setdefault(int(agents[i]), []).append(
                        (x[i], m[i], int(a_net[i]), float(logps[k]), float(values[k]))
                    )
            start += n
            g.batch = g.env.step(actions)
            g.rewards += g.batch.rewards
            for i in np.flatnonzero(g.batch.terminated | g.batch.truncated):
                finish(g, int(i), gamma, lam, ready, stats)
    return ready


def ppo_update(
    net: Net, opt: torch.optim.Optimizer, ready: list[Any], args: argparse.Namespace
) -> dict[str, float]:
    x = torch.from_numpy(np.stack([r[0] for r in ready]))
    m = torch.from_numpy(np.stack([r[1] for r in ready]))
    a = torch.tensor([r[2] for r in ready])
    old = torch.tensor([r[3] for r in ready])
    adv = torch.tensor([r[4] for r in ready], dtype=torch.float32)
    ret = torch.tensor([r[5] for r in ready], dtype=torch.float32)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    n = len(ready)
    info: dict[str, float] = {}
    for _ in range(args.epochs):
        perm = torch.randperm(n)
        for s in range(0, n, args.minibatch):
            idx = perm[s : s + args.minibatch]
            logits, v = net(x[idx], m[idx])
            dist = torch.distributions.Categorical(logits=logits)
            logp = dist.log_prob(a[idx])
            ratio = torch.exp(logp - old[idx])
            pg = -torch.min(ratio * adv[idx], torch.clamp(ratio, 0.8, 1.2) * adv[idx]).mean()
            vl = ((v - ret[idx]) ** 2).mean()
            ent = dist.entropy().mean()
            loss = pg + 0.5 * vl - args.entropy * ent
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            info = {"pg": pg.item(), "v": vl.item(), "ent": ent.item()}
    return info


def clone_greedy(net: Net, opt: torch.optim.Optimizer, decisions: int, rng: random.Random) -> float:
    """Behaviour cloning: the network learns greedy's choices (and the hands' outcomes)."""
    xs, ms, ys, results = [], [], [], []
    i = 0
    while len(xs) < decisions:
        edition, players = CONFIGS[i % len(CONFIGS)]
        i += 1
        d = Driver(Rules(edition=find_edition(edition), players=players))
        d.reset(rng.getrandbits(62))
        bots = [make_bot("greedy", rng.getrandbits(32)) for _ in range(players)]
        seats: list[int] = []
        while not d.done:
            v = d.view_of(d.actor)
            assert v is not None
            net_ids, ids = choices(v, d.window)
            if d.window:
                r = bots[d.actor].react(v)
                aid = DRIVER_DECLINE if r is None else r
            else:
                aid = bots[d.actor].act(v)
            if len(ids) > 1:
                m = np.zeros(NUM_ACTIONS, np.bool_)
                m[net_ids] = True
                xs.append(features(v, d.window))
                ms.append(m)
                ys.append(net_ids[ids.index(aid)])
                seats.append(d.actor)
            d.act(aid)
        w = d.state.winner
        results += [1.0 if s == w else -1.0 for s in seats]
    x = torch.from_numpy(np.stack(xs))
    m = torch.from_numpy(np.stack(ms))
    y = torch.tensor(ys)
    z = torch.tensor(results)
    n = len(xs)
    acc = 0.0
    for epoch in range(4):
        perm = torch.randperm(n)
        correct = 0
        for s in range(0, n, 512):
            idx = perm[s : s + 512]
            logits, v = net(x[idx], m[idx])
            loss = nn.functional.cross_entropy(logits, y[idx]) + 0.5 * ((v - z[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += int((logits.argmax(-1) == y[idx]).sum())
        acc = correct / n
        print(f"clone epoch {epoch}: {n} decisions, agreement with greedy {acc:.3f}", flush=True)
    return acc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=Path("runs/learned"), help="checkpoint folder")
    p.add_argument("--minutes", type=float, default=30.0, help="stop after this long")
    p.add_argument("--updates", type=int, default=0, help="stop after this many PPO updates (0: no limit)")
    p.add_argument("--tables", type=int, default=48)
    p.add_argument("--batch", type=int, default=8192, help="decisions per PPO update")
    p.add_argument("--minibatch", type=int, default=1024)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--entropy", type=float, default=0.005)
    p.add_argument("--clone", type=int, default=200_000, help="greedy decisions to clone first (0: none)")
    p.add_argument("--save-every", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--export", type=Path, help="only write the numpy weights of the checkpoint here")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    ckpt = args.out / "checkpoint.pt"
    state: dict[str, Any] = {"updates": 0, "decisions": 0, "cloned": False, "seconds": 0.0}
    if ckpt.exists():
        saved = torch.load(ckpt, weights_only=False)
        net.load_state_dict(saved["model"])
        opt.load_state_dict(saved["optimizer"])
        state = saved["state"]
        rng.setstate(saved["rng"])
        print(f"resumed from {ckpt}: {state}", flush=True)
    if args.export is not None:
        net.export(args.export)
        print(f"wrote {args.export}")
        return 0

    def save() -> None:
        args.out.mkdir(parents=True, exist_ok=True)
        tmp = ckpt.with_suffix(".tmp")
        torch.save(
            {"model": net.state_dict(), "optimizer": opt.state_dict(), "state": state, "rng": rng.getstate()},
            tmp,
        )
        tmp.replace(ckpt)
        net.export(args.out / "learned.npz")

    t0 = time.monotonic()
    if not state["cloned"] and args.clone > 0:
        clone_greedy(net, opt, args.clone, rng)
        state["cloned"] = True
        save()
    groups = new_groups(args.tables, rng)
    stats = Stats()
    while True:
        elapsed = time.monotonic() - t0
        if elapsed > args.minutes * 60 or (args.updates and state["updates"] >= args.updates):
            break
        ready = collect(groups, net, args.batch, stats, gamma=0.995, lam=0.95)
        info = ppo_update(net, opt, ready, args)
        state["updates"] += 1
        state["decisions"] += len(ready)
        wins = " ".join(f"{k} {np.mean(v[-1000:]):.3f}" for k, v in sorted(stats.games.items()) if v)
        line = (
            f"update {state['updates']} decisions {state['decisions']} "
            f"{len(ready) / max(time.monotonic() - t0 - elapsed, 1e-9):.0f}/s won (last 1000) {wins} | "
            + " ".join(f"{k} {v:.3f}" for k, v in info.items())
        )
        print(line, flush=True)
        if state["updates"] % args.save_every == 0:
            save()
    save()
    print(f"saved {ckpt} and {args.out / 'learned.npz'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
