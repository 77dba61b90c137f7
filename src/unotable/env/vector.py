"""N tables stepped together, observations written into one numpy array, auto-reset.

Each table plays episodes in one of two ways. **Self-play** (``opponents=None``): every step
takes one env action per table, for the player whose turn it is there (``agent[i]``).
**Against bots** (``opponents="greedy"``, ``"search:budget=50"``, or one spec per other
player): the learner is player ``player`` at every table, and the project's bots play the other
players between its turns, each from its own view; ``agent[i]`` is always the learner. When an
episode ends in a step, that step's ``rewards``, ``terminated`` and ``truncated`` say so,
``final_observation`` holds the observation of the position it ended in (Gymnasium's
convention), and the table is dealt its next episode at once: its observation is already the
new one. A deal the bots end before the learner's first turn is dealt again.

The stepping is done by a *backend* (:class:`~unotable.env.batch.Backend`, writing a
:class:`~unotable.env.batch.Batch`). :class:`PythonBackend` drives the Python engine. The
native core offers ``unotable.env.native.env_backend(rules, num_envs, **options) -> Backend``
(:mod:`unotable.env.native`), its tables in C writing the same arrays,
with the ``greedy`` and ``random`` bots played in C; ``backend="auto"`` takes it when it is
built and plays the configuration (no house rules or lenient plays; hand episodes, or games of
the solo, partners and teams modes; opponents ``greedy`` or ``random`` at their defaults), the
Python engine otherwise. Imports numpy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from unotable.bots.base import Bot, reseed_twister
from unotable.bots.spec import BotSpec
from unotable.env.actions import action_table
from unotable.env.batch import Backend, Batch
from unotable.env.driver import DECLINE, HAND_ACTION_CAP, Driver, make_rules
from unotable.env.encoding import layout_for, write_mask
from unotable.errors import ConfigError
from unotable.rules import Rules

BACKENDS = ("auto", "python", "native")
MAX_REDEALS = 1000
"""Deals in a row the bots may end before the learner's first turn (then the step raises)."""


def seat_specs(
    opponents: str | Sequence[str | None] | None, player: int, players: int
) -> tuple[str | None, ...] | None:
    """Who plays each player: ``None`` for the learner, a bot spec for the others (checked);
    ``None`` for self-play.

    :param opponents: one spec for every other player, or one per other player in player order
        (``players - 1`` of them), or one per player with ``None`` at the learner's.
    :raises ConfigError: for a bad spec, count or player.
    """
    if opponents is None:
        if player != 0:
            raise ConfigError(
                "player is the learner's seat against bots: give opponents too (None: self-play)"
            )
        return None
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ConfigError(f"player must be from 0 to {players - 1}, not {player!r}")
    if isinstance(opponents, str):
        given: list[str | None] = [opponents] * (players - 1)
    else:
        given = list(opponents)
    if len(given) == players and given[player] is None:
        given.pop(player)
    if len(given) != players - 1:
        raise ConfigError(f"give one opponent per other player ({players - 1}), not {len(given)}")
    specs: list[str | None] = []
    for spec in given:
        if not isinstance(spec, str):
            raise ConfigError(f"an opponent is a bot spec such as 'greedy', not {spec!r}")
        specs.append(BotSpec.parse(spec).label)
    specs.insert(player, None)
    return tuple(specs)


class PythonBackend:
    """The tables on the Python engine, one :class:`Driver` each (and its bots, against bots).

    :param seats: per player, ``None`` for the learner and a bot spec for the others
        (:func:`seat_specs`); ``None`` for self-play.
    """

    name = "python"

    def __init__(
        self, rules: Rules, num_envs: int, *, seats: Sequence[str | None] | None = None, **options: Any
    ) -> None:
        self.drivers = [Driver(rules, **options) for _ in range(num_envs)]
        self.table = action_table(rules)
        self.layout = layout_for(rules)
        self.learner = -1 if seats is None else list(seats).index(None)
        self.bots: list[list[Bot | None]] = []
        if seats is not None:
            specs = [None if s is None else BotSpec.parse(s) for s in seats]
            self.bots = [
                [None if s is None else s.make(p) for p, s in enumerate(specs)] for _ in range(num_envs)
            ]

    def _write(self, i: int, out: Batch) -> None:
        d = self.drivers[i]
        v = d.view_of(d.actor)
        assert v is not None
        self.layout.encode(v, d.window, out.observation[i])
        write_mask(v, d.window, self.table, out.action_mask[i])
        out.agent[i] = d.actor

    def _play_bots(self, i: int, rewards: npt.NDArray[np.float32]) -> None:
        """The bots act at table ``i`` until the learner's turn or the episode's end."""
        d = self.drivers[i]
        bots = self.bots[i]
        while not d.done and d.actor != self.learner:
            bot = bots[d.actor]
            v = d.view_of(d.actor)
            assert bot is not None and v is not None
            if d.window:
                choice = bot.react(v)
                aid = DECLINE if choice is None else choice
            else:
                aid = bot.act(v)
            rewards += d.act(aid)

    def _deal(self, i: int, seed: int | None) -> None:
        """Deal table ``i``'s next episode up to the learner's first turn (dealt again while
        the bots end it first; the generator goes on, so a seed keeps it reproducible)."""
        d = self.drivers[i]
        d.reset(seed)
        if not self.bots:
            return
        if seed is not None:
            for p, bot in enumerate(self.bots[i]):
                if bot is not None:
                    reseed_twister(bot, seed + p)  # the native tables follow its Twister
        scratch = np.zeros(d.players, np.float32)
        self._play_bots(i, scratch)
        redeals = 0
        while d.done:
            redeals += 1
            if redeals > MAX_REDEALS:
                raise RuntimeError(f"the bots ended {MAX_REDEALS} deals in a row before the learner's turn")
            d.reset()
            self._play_bots(i, scratch)

    def reset(self, seeds: list[int], out: Batch) -> None:
        """See :class:`Backend`."""
        for i in range(len(self.drivers)):
            self._deal(i, seeds[i])
            self._write(i, out)
        out.rewards[:] = 0
        out.terminated[:] = False
        out.truncated[:] = False

    def step(self, actions: npt.NDArray[np.int64], out: Batch) -> None:
        """See :class:`Backend`."""
        ids = self.table.ids
        decline = self.table.decline
        for i, d in enumerate(self.drivers):
            a = int(actions[i])
            last = d.actor
            out.rewards[i] = d.act(DECLINE if a == decline else ids[a], checked=True)
            if self.bots and not d.done:
                self._play_bots(i, out.rewards[i])
            if d.done:
                out.terminated[i] = not d.truncated
                out.truncated[i] = d.truncated
                seer = self.learner if self.bots else last
                v = d.view_of(seer)
                if v is None:  # not at the last table (a game of two tables)
                    out.final_observation[i] = 0
                else:
                    self.layout.encode(v, False, out.final_observation[i])
                self._deal(i, None)
            else:
                out.terminated[i] = out.truncated[i] = False
            self._write(i, out)


def load_backend(name: str, rules: Rules, num_envs: int, **options: Any) -> Backend:
    """The backend called ``name`` (``auto``: native when present and able to play these rules
    and options, else python).

    :raises ConfigError: for an unknown name, or ``native`` without a native core or for rules
        or options it does not play (the error says why).
    """
    if name not in BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, not {name!r}")
    if name != "python":
        from unotable.env import native  # noqa: PLC0415 - the C core's glue, on demand

        try:
            backend: Backend = native.env_backend(rules, num_envs, **options)
        except ConfigError:
            if name == "native":
                raise  # why the native core cannot step these tables
        else:
            return backend
    return PythonBackend(rules, num_envs, **options)


class VectorEnv:
    """``num_envs`` tables of the same rules, stepped together (see the module's docstring).

    :param rules: the rules (else built from ``edition``, ``players`` and other options).
    :param opponents: ``None`` for self-play; else the bots of the other players: one spec
        (``"greedy"``, ``"search:budget=50"``...) for all, or one per other player in player
        order (or one per player, ``None`` at the learner's).
    :param player: the learner's player number when playing against bots.
    :param episode, reward, window_order, max_actions, max_hand_actions: as
        :class:`~unotable.env.aec.raw_env`.
    :param backend: ``auto``, ``python`` or ``native`` (``self.backend.name`` says which runs).
    :raises ConfigError: for a bad parameter.
    """

    def __init__(
        self,
        num_envs: int,
        rules: Rules | None = None,
        *,
        opponents: str | Sequence[str | None] | None = None,
        player: int = 0,
        episode: str = "hand",
        reward: str = "win",
        window_order: str = "random",
        max_actions: int | None = None,
        max_hand_actions: int | None = HAND_ACTION_CAP,
        backend: str = "auto",
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.rules = make_rules(rules, **options)
        self.num_envs = num_envs
        kwargs: dict[str, Any] = {
            "episode": episode,
            "reward": reward,
            "window_order": window_order,
            "max_actions": max_actions,
            "max_hand_actions": max_hand_actions,
        }
        self.players = Driver(self.rules, **kwargs).players
        self.seats = seat_specs(opponents, player, self.players)
        """Per player: ``None`` for the learner, the bot spec of the others; ``None`` in self-play."""
        self.player = player if self.seats is not None else -1
        """The learner's player number (-1 in self-play)."""
        if self.seats is not None:
            kwargs["seats"] = self.seats
        self.backend = load_backend(backend, self.rules, num_envs, **kwargs)
        self.table = action_table(self.rules)
        self.layout = layout_for(self.rules)
        n = num_envs
        self.batch = Batch(
            observation=np.zeros((n, self.layout.size), np.float32),
            action_mask=np.zeros((n, self.table.size), np.int8),
            agent=np.zeros(n, np.int64),
            rewards=np.zeros((n, self.players), np.float32),
            terminated=np.zeros(n, np.bool_),
            truncated=np.zeros(n, np.bool_),
            final_observation=np.zeros((n, self.layout.size), np.float32),
        )
        self._ready = False

    @property
    def num_actions(self) -> int:
        """The size of the action space."""
        return self.table.size

    def reset(self, seed: int | None = None) -> Batch:
        """Deal every table (table ``i`` from a seed drawn from ``seed``)."""
        rng = random.Random(seed)
        self.backend.reset([rng.getrandbits(63) for _ in range(self.num_envs)], self.batch)
        self._ready = True
        return self.batch

    def step(self, actions: npt.ArrayLike) -> Batch:
        """One env action per table for its ``agent``.

        :raises ValueError: if an action is not one its table's mask allows (nothing changes).
        """
        if not self._ready:
            raise ValueError("reset() first")
        acts = np.asarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"give one action per table: shape ({self.num_envs},), not {acts.shape}")
        size = self.table.size
        if acts.min() < 0 or acts.max() >= size:
            raise ValueError(f"env action ids go from 0 to {size - 1}")
        ok = self.batch.action_mask[np.arange(self.num_envs), acts]
        if not ok.all():
            bad = int(np.flatnonzero(ok == 0)[0])
            raise ValueError(
                f"table {bad}: {self.table.texts[int(acts[bad])]!r} is not allowed for player "
                f"{int(self.batch.agent[bad])} now"
            )
        self.backend.step(acts, self.batch)
        return self.batch
