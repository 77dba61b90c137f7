"""How strong a policy is: ``evaluate(policy, opponents, hands, players)``.

The policy plays one seat against the project's bots over the same deals at every seat: each
deal is played once with the policy in each seat (seat-rotated), and every seat sees the same
deals (paired), so the luck of the cards weighs the same on every seat. The result is the win
rate of hands with its Wilson score interval. The deals are those of :class:`VectorEnv`
tables reset from the seed, so a seed gives the same deals whatever the policy.

A hand still going after ``max_hand_actions`` actions (the env's cap, on by default) is
truncated and counts as not won; :attr:`Evaluation.truncated` says how many were. A policy
that does not take the mask (a plain Stable-Baselines3 ``PPO``'s ``predict(obs)``) may choose
an action the mask forbids: it is replaced by the legal action with the lowest env id (a fixed
rule: plays first, in the action table's order), and :attr:`Evaluation.illegal` counts those
choices out of :attr:`Evaluation.decisions`. Imports numpy.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from unotable.bots.base import reseed_twister
from unotable.bots.spec import BotSpec
from unotable.env.driver import DECLINE, HAND_ACTION_CAP, Driver, check_cap, make_rules
from unotable.env.vector import VectorEnv, seat_specs
from unotable.errors import ConfigError
from unotable.rules import Rules

BatchPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]
"""``policy(observations (N, D), masks (N, A)) -> actions (N,)``: one env action per row."""


@dataclass(frozen=True)
class Evaluation:
    """Hands won out of hands played, and the win rate's confidence interval (Wilson).

    ``truncated``: hands cut at the hand cap (counted as not won); ``illegal``: the policy's
    choices the mask forbade, replaced by the lowest legal env id, out of ``decisions``.
    """

    wins: int
    hands: int
    low: float
    high: float
    confidence: float = 0.95
    truncated: int = 0
    illegal: int = 0
    decisions: int = 0

    @property
    def rate(self) -> float:
        """Hands won / hands played."""
        return self.wins / self.hands if self.hands else 0.0

    def __str__(self) -> str:
        text = (
            f"{100 * self.rate:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}] over {self.hands:,} hands"
        )
        if self.truncated:
            text += f", {self.truncated:,} truncated"
        if self.illegal:
            text += f", {self.illegal:,} of {self.decisions:,} choices illegal (mapped)"
        return text


def wilson(wins: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` at ``confidence``."""
    if n <= 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    p = wins / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if wins <= 0 else max(0.0, center - half)
    high = 1.0 if wins >= n else min(1.0, center + half)
    return low, high


def takes_masks(predict: Callable[..., Any]) -> bool:
    """Whether a model's ``predict`` takes ``action_masks`` (sb3-contrib's ``MaskablePPO``) or
    not (Stable-Baselines3's ``PPO``, ``A2C``, ``DQN``), read from its signature."""
    try:
        params = inspect.signature(predict).parameters
    except (TypeError, ValueError):
        return False
    return "action_masks" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _batch_policy(policy: Any) -> BatchPolicy:
    """A callable on batches; a model with ``predict`` (Stable-Baselines3, sb3-contrib's
    ``MaskablePPO``) is asked for its deterministic action, under the mask when its ``predict``
    takes one."""
    predict = getattr(policy, "predict", None)
    if predict is not None:
        if takes_masks(predict):

            def masked_policy(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
                action, _ = predict(obs, action_masks=mask.astype(bool), deterministic=True)
                return action

            return masked_policy

        def model_policy(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> Any:
            action, _ = predict(obs, deterministic=True)
            return action

        return model_policy
    if not callable(policy):
        raise ConfigError(
            f"a policy is a bot spec, a callable on batches or a model with predict, not {policy!r}"
        )
    fn: BatchPolicy = policy
    return fn


def evaluate(
    policy: str | BatchPolicy | Any,
    opponents: str | Sequence[str] = "greedy",
    hands: int = 1000,
    players: int = 2,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    batch: int = 256,
    confidence: float = 0.95,
    backend: str = "auto",
    max_hand_actions: int | None = HAND_ACTION_CAP,
    **options: Any,
) -> Evaluation:
    """The win rate of ``policy`` against ``opponents`` over ``hands`` hands (rounded up to a
    whole number of deals, each played once from every seat).

    :param policy: a batch policy ``policy(observations, masks) -> actions`` over the env's
        observation and mask (flat vectors, as :class:`VectorEnv` gives them), a model with
        ``predict(obs, action_masks=...)`` (sb3-contrib's ``MaskablePPO``) or ``predict(obs)``
        (Stable-Baselines3's ``PPO``: its illegal choices are mapped, see the module's
        docstring), or a bot spec (``"greedy"``, ``"search:budget=100"``) to measure a project
        bot the same way.
    :param opponents: the other players' bots (one spec, or one per other player in seat
        order from the policy's seat).
    :param players: the table's size (ignored when ``rules`` is given).
    :param rules: the rules (else built from ``players`` and ``options``, e.g. ``edition``).
    :param seed: the deals' seed.
    :param batch: tables stepped together.
    :param max_hand_actions: the hand cap (see :class:`~unotable.env.driver.Driver`): a hand
        that long is truncated and counts as not won (None: no cap, and a policy that only
        draws may never finish).
    :raises ConfigError: for a bad policy, opponent or option.
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise ConfigError(f"hands must be a positive integer, not {hands!r}")
    if not 0 < confidence < 1:
        raise ConfigError(f"confidence must be between 0 and 1, not {confidence!r}")
    check_cap("max_hand_actions", max_hand_actions)
    the_rules = make_rules(rules, **options) if rules is not None else make_rules(players=players, **options)
    n = the_rules.players
    deals = -(-hands // n)
    tally = Tally()
    for seat in range(n):
        # the same opponent sits at the same place relative to the policy's seat
        others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != n - 1:
            raise ConfigError(f"give one opponent per other player ({n - 1}), not {len(others)}")
        ring = [others[(p - seat - 1) % n] if p != seat else None for p in range(n)]
        if isinstance(policy, str):
            _bot_wins(policy, the_rules, ring, seat, deals, seed, batch, max_hand_actions, tally)
        else:
            play = _batch_policy(policy)
            _policy_wins(play, the_rules, ring, seat, deals, seed, batch, backend, max_hand_actions, tally)
    total = deals * n
    low, high = wilson(tally.wins, total, confidence)
    return Evaluation(
        tally.wins, total, low, high, confidence, tally.truncated, tally.illegal, tally.decisions
    )


@dataclass
class Tally:
    """What the hands of an evaluation came to, summed over seats."""

    wins: int = 0
    truncated: int = 0
    illegal: int = 0
    decisions: int = 0


def legal_actions(
    actions: npt.NDArray[np.int64], mask: npt.NDArray[np.int8]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """``actions`` with each one its row of ``mask`` forbids (or out of range) replaced by the
    row's lowest legal env id, and which rows were replaced."""
    rows = np.arange(len(actions))
    inside = (actions >= 0) & (actions < mask.shape[1])
    ok = inside.copy()
    ok[inside] = mask[rows[inside], actions[inside]] != 0
    bad: npt.NDArray[np.bool_] = ~ok
    if bad.any():
        actions = np.where(ok, actions, mask.argmax(1))
    return actions, bad


def _chunks(deals: int, seed: int, batch: int) -> list[tuple[int, int]]:
    """(reset seed, tables) of each chunk of deals."""
    rng = random.Random(seed)
    out = []
    left = deals
    while left > 0:
        size = min(batch, left)
        out.append((rng.getrandbits(63), size))
        left -= size
    return out


def _policy_wins(
    policy: BatchPolicy,
    rules: Rules,
    ring: list[str | None],
    seat: int,
    deals: int,
    seed: int,
    batch: int,
    backend: str,
    max_hand_actions: int | None,
    tally: Tally,
) -> None:
    for chunk_seed, size in _chunks(deals, seed, batch):
        v = VectorEnv(
            size, rules, opponents=ring, player=seat, backend=backend, max_hand_actions=max_hand_actions
        )
        b = v.reset(chunk_seed)
        result = np.zeros(size, np.int8)  # 0: playing, 1: won, -1: lost
        while (result == 0).any():
            playing = result == 0
            actions = np.asarray(policy(b.observation, b.action_mask), dtype=np.int64).reshape(size)
            actions, bad = legal_actions(actions, b.action_mask)
            tally.decisions += int(playing.sum())
            tally.illegal += int((bad & playing).sum())
            b = v.step(actions)
            done = b.ended & playing
            tally.truncated += int((b.truncated & playing).sum())
            result[done] = np.where(b.rewards[done, seat] > 0, 1, -1)
        tally.wins += int((result == 1).sum())


def _bot_wins(
    spec: str,
    rules: Rules,
    ring: list[str | None],
    seat: int,
    deals: int,
    seed: int,
    batch: int,
    max_hand_actions: int | None,
    tally: Tally,
) -> None:
    """The same deals as :func:`_policy_wins` (a VectorEnv table's: its seed, its bots reseeded
    ``seed + player``), the policy a bot deciding from its view."""
    seats = seat_specs(ring, seat, rules.players)
    assert seats is not None
    specs = [BotSpec.parse(spec if s is None else s) for s in seats]
    for chunk_seed, size in _chunks(deals, seed, batch):
        rng = random.Random(chunk_seed)
        for table_seed in [rng.getrandbits(63) for _ in range(size)]:
            d = Driver(rules, max_hand_actions=max_hand_actions)
            bots = [s.make(p) for p, s in enumerate(specs)]
            for p, bot in enumerate(bots):
                reseed_twister(bot, table_seed + p)
            d.reset(table_seed)
            rewards = [0.0] * rules.players
            acted = False
            while not d.done or not acted:
                if d.done:  # the bots ended it before the policy's turn: VectorEnv deals again
                    d.reset()
                acted = acted or d.actor == seat
                tally.decisions += d.actor == seat
                bot = bots[d.actor]
                view = d.view_of(d.actor)
                assert view is not None
                if d.window:
                    choice = bot.react(view)
                    aid = DECLINE if choice is None else choice
                else:
                    aid = bot.act(view)
                rewards = d.act(aid)
            tally.wins += rewards[seat] > 0
            tally.truncated += d.truncated
