"""N tables stepped together, observations written into one numpy array, auto-reset.

Each table plays self-play episodes: every step takes one env action per table, for the
player whose turn it is there (``agent[i]``), and returns every table's next turn. When an
episode ends in a step, that step's ``rewards``, ``terminated`` and ``truncated`` say so and
the table is dealt its next episode at once: its observation is already the new one.

The stepping is done by a *backend*. :class:`PythonBackend` drives the Python engine. The
native core (``unotable.native``) offers ``unotable.native.env_backend(rules, num_envs,
**options) -> Backend``, its tables in C writing the same arrays; ``backend="auto"`` takes it
when it is built and plays the configuration (no house rules or lenient plays; hand episodes,
or games of the solo, partners and teams modes), the Python engine otherwise. Imports numpy.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from unotable.env.actions import action_table
from unotable.env.driver import DECLINE, Driver, make_rules
from unotable.env.encoding import layout_for, write_mask
from unotable.errors import ConfigError
from unotable.rules import Rules

BACKENDS = ("auto", "python", "native")


@dataclass
class Batch:
    """The arrays of a vector env, shared with it (copy what you keep across steps).

    ``observation`` (N, D) float32, ``action_mask`` (N, A) int8, ``agent`` (N,) int64: the
    player to act at each table; ``rewards`` (N, P) float32: what the last step brought each
    player; ``terminated`` and ``truncated`` (N,) bool: the table's episode ended in the last
    step (and a new one was dealt).
    """

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    agent: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]


class Backend(Protocol):
    """What steps the tables: the seam where a native core plugs in."""

    name: str

    def reset(self, seeds: list[int], out: Batch) -> None:
        """Deal every table from its seed and write its first turn into ``out``."""
        ...

    def step(self, actions: npt.NDArray[np.int64], out: Batch) -> None:
        """Apply one legal env action per table, write the results into ``out`` (auto-reset)."""
        ...


class PythonBackend:
    """The tables on the Python engine, one :class:`Driver` each."""

    name = "python"

    def __init__(self, rules: Rules, num_envs: int, **options: Any) -> None:
        self.drivers = [Driver(rules, **options) for _ in range(num_envs)]
        self.table = action_table(rules)
        self.layout = layout_for(rules)

    def _write(self, i: int, out: Batch) -> None:
        d = self.drivers[i]
        v = d.view_of(d.actor)
        assert v is not None
        self.layout.encode(v, d.window, out.observation[i])
        write_mask(v, d.window, self.table, out.action_mask[i])
        out.agent[i] = d.actor

    def reset(self, seeds: list[int], out: Batch) -> None:
        """See :class:`Backend`."""
        for i, d in enumerate(self.drivers):
            d.reset(seeds[i])
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
            out.rewards[i] = d.act(DECLINE if a == decline else ids[a], checked=True)
            if d.done:
                out.terminated[i] = not d.truncated
                out.truncated[i] = d.truncated
                d.reset()
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
        try:
            native = importlib.import_module("unotable.native")
            maker = getattr(native, "env_backend", None)
        except ImportError:
            maker = None
        if maker is not None:
            try:
                backend: Backend = maker(rules, num_envs, **options)
            except ConfigError:
                if name == "native":
                    raise  # why the native core cannot step these tables
            else:
                return backend
        elif name == "native":
            raise ConfigError("backend native: unotable.native offers no env_backend (not built here)")
    return PythonBackend(rules, num_envs, **options)


class VectorEnv:
    """``num_envs`` tables of the same rules, stepped together (see the module's docstring).

    :param rules: the rules (else built from ``edition``, ``players`` and other options).
    :param episode, reward, window_order, max_actions: as :class:`~unotable.env.aec.raw_env`.
    :param backend: ``auto``, ``python`` or ``native`` (``self.backend.name`` says which runs).
    :raises ConfigError: for a bad parameter.
    """

    def __init__(
        self,
        num_envs: int,
        rules: Rules | None = None,
        *,
        episode: str = "hand",
        reward: str = "win",
        window_order: str = "random",
        max_actions: int | None = None,
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
        }
        self.players = Driver(self.rules, **kwargs).players
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
