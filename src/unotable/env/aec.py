"""The PettingZoo AEC environment: ``raw_env(**kwargs)`` and ``env(**kwargs)``.

Agents are ``player_0`` ... ``player_{P-1}`` (P: the episode's players). A turn is given to
one agent at a time by :class:`~unotable.env.driver.Driver`; its observation is a dict with
``observation`` (the flat vector of :class:`~unotable.env.encoding.Layout`, or its dict form
with ``obs_type="dict"``) and ``action_mask`` (``int8``, 1 for each env action it may take
now; all zeros for an agent whose turn it is not). Imports pettingzoo, gymnasium and numpy.

The table is played by the Python engine (``backend="python"``) or, when the native core is
built and plays the configuration, by one of its C tables (``backend="native"``, taken by
``"auto"``): the same episodes from the same seed (its generator is the Driver's, continued in
C), about four times the steps a second.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, NoReturn

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from unotable.env.actions import ActionTable, action_table
from unotable.env.driver import DECLINE, HAND_ACTION_CAP, Driver, make_rules
from unotable.env.encoding import Layout, layout_for, write_mask
from unotable.env.vector import load_backend
from unotable.errors import ConfigError
from unotable.rules import Rules
from unotable.views import View, view

OBS_TYPES = ("flat", "dict")
AEC_BACKENDS = ("auto", "python", "native")


def observation_space(layout: Layout, table: ActionTable, obs_type: str) -> gymnasium.spaces.Dict:
    """The space of one agent's observation."""
    if obs_type == "flat":
        obs: gymnasium.spaces.Space[Any] = gymnasium.spaces.Box(
            layout.low, layout.high, (layout.size,), np.float32
        )
    else:
        obs = gymnasium.spaces.Dict(
            {s.name: gymnasium.spaces.Box(s.low, s.high, s.shape, np.float32) for s in layout.segments}
        )
    mask = gymnasium.spaces.Box(0, 1, (table.size,), np.int8)
    return gymnasium.spaces.Dict({"observation": obs, "action_mask": mask})


class raw_env(AECEnv[str, dict[str, Any], int]):  # noqa: N801  # PettingZoo's spelling
    """UNO as a PettingZoo AEC environment, over any :class:`Rules`.

    :param rules: the rules (else built from ``edition``, ``players`` and other options).
    :param episode: ``"hand"`` (one hand) or ``"game"`` (a whole game, in the rules' mode).
    :param reward: ``"win"`` (+1 / -1 per hand) or ``"points"`` (see the driver).
    :param obs_type: ``"flat"`` (one Box vector) or ``"dict"`` (a Box per segment).
    :param window_order: ``"random"`` or ``"play"`` (who is asked first out of turn).
    :param max_actions: truncate an episode after this many actions (None: never).
    :param max_cycles: PettingZoo's name for the same limit counted in cycles (one action per
        agent): an episode is truncated after ``max_cycles`` times the number of agents actions.
        Give one of ``max_actions`` and ``max_cycles``, not both.
    :param max_hand_actions: truncate the episode when a hand reaches this many actions
        (declines included; default :data:`~unotable.env.driver.HAND_ACTION_CAP`, 10,000; None:
        never, and a hand where every seat keeps drawing then never ends).
    :param render_mode: ``"human"`` (each step prints the selected agent's view; ``render()``
        prints it and returns None) or ``"ansi"`` (``render()`` returns it), or None.
    :param backend: ``"auto"`` (the native core's table when it is built and plays these rules
        and episode, as :class:`~unotable.env.vector.VectorEnv` decides; else the Python
        engine), ``"python"`` or ``"native"`` (``ConfigError`` saying why when it cannot).
        ``self.backend`` says which one runs; ``self.driver`` is the Python table's Driver
        (None on the native backend).
    :raises ConfigError: for a bad parameter.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "unotable_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        episode: str = "hand",
        reward: str = "win",
        obs_type: str = "flat",
        window_order: str = "random",
        max_actions: int | None = None,
        max_cycles: int | None = None,
        max_hand_actions: int | None = HAND_ACTION_CAP,
        render_mode: str | None = None,
        backend: str = "auto",
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = make_rules(rules, **options)
        max_actions = cycles_to_actions(max_actions, max_cycles, self.rules, episode)
        if obs_type not in OBS_TYPES:
            raise ConfigError(f"obs_type must be one of {', '.join(OBS_TYPES)}, not {obs_type!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be human, ansi or None, not {render_mode!r}")
        if backend not in AEC_BACKENDS:
            raise ConfigError(f"backend must be one of {', '.join(AEC_BACKENDS)}, not {backend!r}")
        kwargs: dict[str, Any] = {
            "episode": episode,
            "reward": reward,
            "window_order": window_order,
            "max_actions": max_actions,
            "max_hand_actions": max_hand_actions,
        }
        check = Driver(self.rules, **kwargs)
        self.players = check.players
        self.max_actions = max_actions
        """The episode's action limit (None: none)."""
        self.max_hand_actions = max_hand_actions
        """The hand cap (None: none)."""
        self._core: Any = None
        if backend != "python":
            table = load_backend(backend, self.rules, 1, **kwargs)  # the vector env's choice
            if table.name == "native":
                self._core = table.core  # type: ignore[attr-defined]  # NativeEnvBackend's
        self.backend = "python" if self._core is None else "native"
        """Which backend plays the table: ``"python"`` or ``"native"``."""
        self.driver: Driver | None = check if self._core is None else None
        self.obs_type = obs_type
        self.render_mode = render_mode
        self.table = action_table(self.rules)
        self.layout = layout_for(self.rules)
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        space = observation_space(self.layout, self.table, obs_type)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.table.size) for a in self.possible_agents}
        self.agents: list[str] = []
        if self._core is not None:
            self._obs = np.zeros(self.layout.size, np.float32)
            self._mask = np.zeros(self.table.size, np.int8)
            self._rw = np.zeros(self.rules.players, np.float32)
            self._core.bind(self._obs, self._mask, self._rw)
            self._seeded = False
        self._actor = -1
        self._window = False
        self._done = True
        self._hands = 0
        self._paid = False

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(size)``: the env action ids (``action_to_text`` names them)."""
        return self.action_spaces[agent]

    def action_to_text(self, action: int) -> str:
        """The notation of env action ``action``."""
        return self.table.to_text(action)

    def text_to_action(self, text: str) -> int:
        """The env action id of ``text``."""
        return self.table.from_text(text)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode (a seed makes it and everything after it reproducible)."""
        if self.driver is not None:
            self.driver.reset(seed)
        else:
            self._native_reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = False
        if self.driver is not None:
            self.agent_selection = self.possible_agents[self.driver.actor]
            self._set_infos()
            return
        self.agent_selection = self.possible_agents[self._actor]
        for p, a in enumerate(self.possible_agents):
            self.infos[a] = {"window_turn": self._window and p == self._actor, "hands": 0}

    def _native_reset(self, seed: int | None) -> None:
        """Deal on the C table: from ``seed`` as the Driver (its generator ``Random(seed)``),
        or on from its generator (a fresh one from the system at the first reset)."""
        core = self._core
        if seed is None and self._seeded:
            self._actor, window = core.deal()
        else:
            if seed is None:
                seed = random.SystemRandom().getrandbits(64)
            words = np.array(random.Random(seed).getstate()[1], np.uint32).tobytes()
            size, n = self.layout.size, self.rules.players
            core.reset(
                words,
                self._obs.reshape(1, size),
                self._mask.reshape(1, -1),
                np.zeros(1, np.int64),
                self._rw.reshape(1, n),
                np.zeros(1, np.bool_),
                np.zeros(1, np.bool_),
                np.zeros((1, size), np.float32),
                b"",
            )
            self._seeded = True
            self._actor, window, _ = core.turn(0)
        self._window = bool(window)
        self._done = False
        self._hands = 0

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and action mask, from its seat's view alone."""
        player = self._index[agent]
        if self.driver is None:
            if player == self._actor and not self._done:
                flat, mask = self._obs.copy(), self._mask.copy()
            else:
                flat, mask = np.zeros(self.layout.size, np.float32), np.zeros(self.table.size, np.int8)
                if self._seeded:
                    self._core.observe_seat(player, flat)
            seen: Any = flat if self.obs_type == "flat" else self.layout.split(flat)
            return {"observation": seen, "action_mask": mask}
        flat = np.zeros(self.layout.size, np.float32)
        mask = np.zeros(self.table.size, np.int8)
        d = self.driver
        v = d.view_of(player)
        if v is not None:
            its_turn = player == d.actor
            window = its_turn and d.window
            self.layout.encode(v, window, flat)
            if its_turn:
                write_mask(v, window, self.table, mask)
        obs: Any = flat if self.obs_type == "flat" else self.layout.split(flat)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent takes env action ``action``.

        :raises ValueError: if the action is not one it may take now (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self.driver is None:
            self._native_step(agent, action)
            return
        d = self.driver
        aid = self._notation_id(action)
        self._cumulative_rewards[agent] = 0.0
        rewards = d.act(aid)
        self.rewards = {a: rewards[p] for p, a in enumerate(self.possible_agents)}
        if d.done:
            flags = dict.fromkeys(self.agents, True)
            if d.truncated:
                self.truncations = flags
            else:
                self.terminations = flags
        else:
            self.agent_selection = self.possible_agents[d.actor]
        self._accumulate_rewards()
        self._set_infos()
        if self.render_mode == "human":
            self.render()

    def _native_step(self, agent: str, action: int | None) -> None:
        """:meth:`step` on the C table (the same rewards, flags and infos as the Driver's)."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            self._refuse(action)
        try:
            end, actor, window, scored = self._core.act(action)
        except (ValueError, OverflowError):
            self._refuse(action)
        self._cumulative_rewards[agent] = 0.0
        infos = self.infos
        if self._paid:  # the last step paid: this one pays nothing unless it scores too
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        if scored:
            self._hands += 1
            rw = self._rw.tolist()
            self.rewards = {a: rw[p] for p, a in enumerate(self.possible_agents)}
            self._paid = True
            for a, r in self.rewards.items():
                self._cumulative_rewards[a] += r
            for a in self.possible_agents:
                infos[a] = {"window_turn": False, "hands": self._hands}
        if end:
            self._done = True
            self._actor = -1
            self._window = False
            flags = dict.fromkeys(self.agents, True)
            if end == 2:
                self.truncations = flags
            else:
                self.terminations = flags
            infos[agent] = {"window_turn": False, "hands": self._hands}
        else:
            new = self.possible_agents[actor]
            infos[agent] = {"window_turn": False, "hands": self._hands}
            infos[new] = {"window_turn": bool(window), "hands": self._hands}
            self._actor = actor
            self._window = bool(window)
            self.agent_selection = new
        if self.render_mode == "human":
            self.render()

    def _refuse(self, action: Any) -> NoReturn:
        """Raise the error :meth:`step` gives for an action the actor may not take now."""
        table = self.table
        if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action is an env action id, not {action!r}")
        a = int(action)
        if not 0 <= a < table.size:
            raise ValueError(f"no env action {a} (ids go from 0 to {table.size - 1})")
        if a == table.decline and not self._window:
            raise ValueError("decline is offered only in an out-of-turn moment")
        raise ValueError(f"{table.texts[a]!r} is not an action {self.agent_selection} may take now")

    def _view(self, player: int) -> View | None:
        """``player``'s view now (on the native backend, of the C table's hand made a state)."""
        if self.driver is not None:
            return self.driver.view_of(player)
        from unotable.native import core as native  # noqa: PLC0415 - the native backend's

        st = native.to_state(self._core.state(0), self.rules)
        return view(st, player)

    def _notation_id(self, action: int | None) -> int:
        assert self.driver is not None
        table = self.table
        if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action is an env action id, not {action!r}")
        a = int(action)
        if not 0 <= a < table.size:
            raise ValueError(f"no env action {a} (ids go from 0 to {table.size - 1})")
        if a == table.decline:
            if not self.driver.window:
                raise ValueError("decline is offered only in an out-of-turn moment")
            return DECLINE
        aid = table.ids[a]
        if aid not in self.driver.offered():
            raise ValueError(f"{table.texts[a]!r} is not an action {self.agent_selection} may take now")
        return aid

    def _set_infos(self) -> None:
        d = self.driver
        assert d is not None
        for p, a in enumerate(self.possible_agents):
            if a in self.infos:
                self.infos[a] = {"window_turn": d.window and p == d.actor, "hands": d.hands}

    def render(self) -> str | None:
        """The selected agent's view as text (its own hand only): returned in ``"ansi"`` mode,
        printed in ``"human"`` mode (which returns None, as PettingZoo's API wants)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        v = self._view(self._index[self.agent_selection])
        window = self.driver.window if self.driver is not None else self._window
        text = "" if v is None else _describe(v, window)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _describe(v: View, window: bool) -> str:
    d = v.to_dict()
    what = "out-of-turn moment" if window else d["phase"]
    return (
        f"seat {v.seat} ({what}): top {d['discard'][-1]} colour {d['color']} hand {' '.join(d['hand'])}"
        f" | sizes {d['hand_sizes']} | legal {', '.join(d['legal'])}"
    )


def cycles_to_actions(
    max_actions: int | None, max_cycles: int | None, rules: Rules, episode: str
) -> int | None:
    """The action limit that ``max_cycles`` (PettingZoo's name: cycles of one action per agent)
    stands for, or ``max_actions`` itself.

    :raises ConfigError: if both are given, or ``max_cycles`` is not a positive integer.
    """
    if max_cycles is None:
        return max_actions
    if max_actions is not None:
        raise ConfigError("give max_actions or max_cycles, not both")
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise ConfigError(f"max_cycles must be a positive integer or None, not {max_cycles!r}")
    return max_cycles * Driver(rules, episode=episode).players


def env(**kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """:class:`raw_env` in PettingZoo's classic wrappers: an illegal action ends the episode
    with -1 for its agent, out-of-range actions are refused, and the API order is enforced."""
    e: AECEnv[str, dict[str, Any], int] = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
