"""The research environment's vector env on the native core (issue 15): ``env_backend``.

:class:`NativeEnvBackend` is a :class:`unotable.env.batch.Backend` whose tables live in C
(``envloop.h``'s ``EnvBatch``): each step applies one env action per table, finds who acts next
(window turns, then the phase turn, as :class:`unotable.env.driver.Driver`), and writes the
observation (:func:`unotable.env.encoding.layout_for`'s layout, from the acting seat's view
only), the mask, the agent, the rewards and the end flags straight into the vector env's numpy
arrays, with no Python object per table. It writes exactly what
:class:`~unotable.env.vector.PythonBackend` writes from the same seeds: the C tables deal as the
Python engine deals, and draw the deal seeds and the random window order from a copy of each
Driver's ``random.Random`` (its Mersenne Twister, continued in C).

What it plays: the rules the native core plays (no house rules, no ``lenient_plays``), in hand
episodes, and in game episodes of the modes ``solo``, ``partners`` and ``teams`` (hands dealt
as :class:`unotable.match.Game` deals them: ``hand_seed``, the dealer passing left, the scores
carried); in self-play, or against the bots ``greedy`` and ``random`` at their defaults, which
it plays in C as the Python bots play (``envloop.h``: the same decisions from the same seat's
knowledge, the random bot drawing from a copy of its Python generator). Anything else (the
other modes' games: their seatings and schedules; other bots) raises
:class:`NativeUnsupportedError` (a ``ConfigError``), and ``VectorEnv(backend="auto")`` then
steps the Python engine.

This module is the native core's glue for :mod:`unotable.env` (issue 22 moved it here from
``unotable.native``; issue 35 removed the old names there, which made an import cycle): it
imports numpy, ``unotable.env`` (the action table, the layout, the Driver's checks, the
:class:`~unotable.env.batch.Batch`) and ``unotable.native``'s public names, and nothing imports
it but :func:`unotable.env.vector.load_backend` (on demand). ``unotable.native`` does not import
the env.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from unotable.engine import dealer_candidates
from unotable.env.actions import action_table
from unotable.env.driver import Driver
from unotable.env.encoding import layout_for
from unotable.native import core_module
from unotable.native.core import NativeUnsupportedError, native_tables, unsupported
from unotable.rules import Rules

if TYPE_CHECKING:
    from unotable.env.batch import Batch
    from unotable.native._core import EnvBatch
    from unotable.native._core import State as NativeState

SEGMENTS: Final = (
    "hand",
    "top",
    "color",
    "direction",
    "phase",
    "window_turn",
    "current",
    "drawn",
    "pending_from",
    "pending_color",
    "after_color",
    "hand_sizes",
    "uno_exposed",
    "drew_facing",
    "wrong_seat",
    "dealer",
    "known",
    "discard",
    "draw_pile",
    "scores",
)
"""The layout's segments in the order the C code takes their offsets (after the size)."""


NATIVE_BOTS: Final = {"random": 0, "greedy": 2}
"""The bots the C tables play (their specs, without options), and their ``policies.h`` ids."""
LEARNER: Final = 255
"""The ``seats`` byte of the learner's seat."""

GAME_MODES: Final = ("solo", "partners", "teams")
"""The modes whose whole games the native backend plays (one table, the players in their seats)."""


def env_unsupported(rules: Rules, episode: str = "hand") -> str | None:
    """Why the native env backend cannot step tables of ``rules`` (or ``episode``), or None."""
    reason = unsupported(rules)
    if reason is not None:
        return reason
    if episode == "game" and rules.mode not in GAME_MODES:
        return (
            f"the native env backend plays game episodes of the modes {', '.join(GAME_MODES)} only, "
            f"not {rules.mode} (its seatings and schedules are the Python engine's)"
        )
    return None


class NativeEnvBackend:
    """``num_envs`` tables in C (see the module's docstring); options as :class:`Driver`'s.

    :raises NativeUnsupportedError: for rules or an episode the native core does not play.
    :raises ConfigError: for a bad option (the Driver's checks).
    """

    name = "native"

    def __init__(
        self, rules: Rules, num_envs: int, *, seats: Sequence[str | None] | None = None, **options: Any
    ) -> None:
        check = Driver(rules, **options)  # the options' checks, as the Python backend's
        reason = env_unsupported(rules, check.episode)
        if reason is not None:
            raise NativeUnsupportedError(reason)
        code = b""
        self.random_seats: tuple[int, ...] = ()
        if seats is not None:
            for spec in seats:
                if spec is not None and spec not in NATIVE_BOTS:
                    raise NativeUnsupportedError(
                        f"the native env backend plays the bots {', '.join(NATIVE_BOTS)} (without options), "
                        f"not {spec}"
                    )
            code = bytes(LEARNER if s is None else NATIVE_BOTS[s] for s in seats)
            self.random_seats = tuple(p for p, s in enumerate(seats) if s == "random")
        assert core_module is not None
        self.rules = rules
        self.num_envs = num_envs
        self.table = action_table(rules)
        self.layout = layout_for(rules)
        self.players = rules.players
        lay = self.layout.by_name
        offsets = array("i", [self.layout.size, *(lay[s].start for s in SEGMENTS)])
        cands = dealer_candidates(rules)
        dealer = cands[0] if len(cands) == 1 else -1
        self._core: EnvBatch = core_module.EnvBatch(
            native_tables(rules),
            num_envs,
            check.reward == "points",
            check.window_order == "play",
            check.max_actions or 0,
            dealer,
            bytes(cands) if dealer < 0 else b"",
            array("h", self.table.ids).tobytes(),
            offsets.tobytes(),
            check.episode == "game",
            code,
            check.max_hand_actions or 0,
        )

    def _arrays(self, out: Batch) -> tuple[Any, ...]:
        n, d, a, p = self.num_envs, self.layout.size, self.table.size, self.players
        wanted = (
            ("observation", out.observation, np.float32, (n, d)),
            ("action_mask", out.action_mask, np.int8, (n, a)),
            ("agent", out.agent, np.int64, (n,)),
            ("rewards", out.rewards, np.float32, (n, p)),
            ("terminated", out.terminated, np.bool_, (n,)),
            ("truncated", out.truncated, np.bool_, (n,)),
            ("final_observation", out.final_observation, np.float32, (n, d)),
        )
        for name, arr, dtype, shape in wanted:
            if arr.dtype != dtype or arr.shape != shape or not arr.flags.c_contiguous:
                raise ValueError(
                    f"{name} must be a C-contiguous {np.dtype(dtype).name} array of shape {shape}"
                )
        return tuple(arr for _, arr, _, _ in wanted)

    def reset(self, seeds: list[int], out: Batch) -> None:
        """Deal every table from its seed (as ``Driver.reset(seed)``); see :class:`Backend`."""
        if len(seeds) != self.num_envs:
            raise ValueError(f"give one seed per table ({self.num_envs}), not {len(seeds)}")
        words = array("I")
        bot_words = array("I")
        for seed in seeds:
            words.extend(random.Random(seed).getstate()[1])
            for p in self.random_seats:  # as PythonBackend reseeds its bots: seed + player
                bot_words.extend(random.Random(seed + p).getstate()[1])
        obs, mask, agent, rewards, terminated, truncated, final = self._arrays(out)
        self._core.reset(
            words.tobytes(), obs, mask, agent, rewards, terminated, truncated, final, bot_words.tobytes()
        )

    def step(self, actions: npt.NDArray[np.int64], out: Batch) -> None:
        """See :class:`Backend` (an action its table does not offer: ValueError, nothing changes)."""
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"give one action per table: shape ({self.num_envs},), not {acts.shape}")
        self._core.step(acts, *self._arrays(out))

    @property
    def core(self) -> EnvBatch:
        """The C tables (the PettingZoo env steps its one table through ``bind``/``act``)."""
        return self._core

    # ---- for tests

    def state(self, table: int) -> NativeState:
        """A copy of table ``table``'s hand (``core.to_state`` makes it a Python state)."""
        return self._core.state(table)

    def turn(self, table: int) -> tuple[int, bool, int]:
        """``(agent, window turn, actions in the episode)`` at table ``table``."""
        actor, window, actions = self._core.turn(table)
        return actor, bool(window), actions

    def load(self, table: int, state: NativeState) -> None:
        """Table ``table`` plays on from a copy of ``state`` (its turns found afresh)."""
        self._core.load(table, state)

    def observe(self, table: int, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        """Write table ``table``'s turn into one observation row and one mask row; its agent."""
        agent: int = self._core.observe(table, obs, mask)
        return agent


def env_backend(rules: Rules, num_envs: int, **options: Any) -> NativeEnvBackend:
    """The native :class:`~unotable.env.batch.Backend` (see the module's docstring)."""
    return NativeEnvBackend(rules, num_envs, **options)
