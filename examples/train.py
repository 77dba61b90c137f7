"""Train the learned bot: behaviour cloning of ``greedy``, then masked PPO with self-play and
games against ``greedy`` (and a few against ``random``), on CPU with PyTorch.

    pip install -e '.[train]'
    python examples/train.py --minutes 45 --out runs/learned   # resumes from a checkpoint there
    python examples/train.py --out runs/learned --export src/unotable/bots/learned.npz

The network reads the learned bot's own features (``unotable.bots.learned``: the env's
observation for ten seats) and outputs one logit per notation action (seats relative) plus
``decline``; illegal actions are masked. Rewards: +1 for the winner of a hand, -1 for the
others. A checkpoint (model, optimiser, counters) is written every ``--save-every`` updates
and at the end, with the numpy weights (``learned.npz``) beside it.
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
from unotable.bots.base import Bot
from unotable.bots.learned import LAYOUT, NUM_ACTIONS, choices, features
from unotable.env.driver import DECLINE, Driver
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


@dataclass
class Table:
    """One training table: who the network plays, the bots, and the episode's decisions."""

    driver: Driver
    kind: str  # self, greedy or random
    bots: dict[int, Bot] = field(default_factory=dict)
    learners: set[int] = field(default_factory=set)
    traj: dict[int, list[tuple[np.ndarray, np.ndarray, int, float, float]]] = field(default_factory=dict)
    rewards: list[float] = field(default_factory=list)


def new_table(i: int, rng: random.Random) -> Table:
    edition, players = CONFIGS[i % len(CONFIGS)]
    kind = KINDS[(i // len(CONFIGS)) % len(KINDS)]
    t = Table(Driver(Rules(edition=find_edition(edition), players=players)), kind)
    start_episode(t, rng)
    return t


def start_episode(t: Table, rng: random.Random) -> None:
    d = t.driver
    d.reset(rng.getrandbits(62))
    n = d.players
    if t.kind == "self":
        t.learners = set(range(n))
        t.bots = {}
    else:
        me = rng.randrange(n)
        t.learners = {me}
        t.bots = {p: make_bot(t.kind, rng.getrandbits(32)) for p in range(n) if p != me}
    t.traj = {p: [] for p in t.learners}
    t.rewards = [0.0] * n


def bot_move(t: Table) -> bool:
    """Let a bot (or a forced choice) act; False if the network must decide."""
    d = t.driver
    v = d.view_of(d.actor)
    assert v is not None
    if d.actor in t.bots:
        bot = t.bots[d.actor]
        if d.window:
            r = bot.react(v)
            return _act(t, DECLINE if r is None else r)
        return _act(t, bot.act(v))
    _, ids = choices(v, d.window)
    if len(ids) == 1:
        return _act(t, ids[0])
    return False


def _act(t: Table, aid: int) -> bool:
    for p, r in enumerate(t.driver.act(aid)):
        t.rewards[p] += r
    return True


@dataclass
class Stats:
    games: dict[str, list[float]] = field(default_factory=dict)
    """Per opponent kind and table size (``greedy2``...): 1 for each hand the network won."""


def finish(t: Table, gamma: float, lam: float, ready: list[Any], stats: Stats) -> None:
    for p, steps in t.traj.items():
        r = t.rewards[p]
        if t.kind != "self":
            stats.games.setdefault(f"{t.kind}{t.driver.players}", []).append(1.0 if r > 0 else 0.0)
        if not steps:
            continue
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


def collect(
    tables: list[Table], net: Net, rng: random.Random, need: int, stats: Stats, gamma: float, lam: float
) -> list[Any]:
    ready: list[Any] = []
    while len(ready) < need:
        batch: list[tuple[int, np.ndarray, np.ndarray, list[int], list[int]]] = []
        for i, t in enumerate(tables):
            d = t.driver
            while True:
                if d.done:
                    finish(t, gamma, lam, ready, stats)
                    start_episode(t, rng)
                elif not bot_move(t):
                    break
            v = d.view_of(d.actor)
            assert v is not None
            net_ids, ids = choices(v, d.window)
            x = features(v, d.window)
            m = np.zeros(NUM_ACTIONS, np.bool_)
            m[net_ids] = True
            batch.append((i, x, m, net_ids, ids))
        xs = torch.from_numpy(np.stack([b[1] for b in batch]))
        ms = torch.from_numpy(np.stack([b[2] for b in batch]))
        with torch.no_grad():
            logits, values = net(xs, ms)
            dist = torch.distributions.Categorical(logits=logits)
            acts = dist.sample()
            logps = dist.log_prob(acts)
        for k, (i, x, m, net_ids, ids) in enumerate(batch):
            t = tables[i]
            a = int(acts[k])
            aid = ids[net_ids.index(a)]
            t.traj[t.driver.actor].append((x, m, a, float(logps[k]), float(values[k])))
            _act(t, aid)
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
                aid = DECLINE if r is None else r
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
    tables = [new_table(i, rng) for i in range(args.tables)]
    stats = Stats()
    while True:
        elapsed = time.monotonic() - t0
        if elapsed > args.minutes * 60 or (args.updates and state["updates"] >= args.updates):
            break
        ready = collect(tables, net, rng, args.batch, stats, gamma=0.995, lam=0.95)
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
