"""unotable as a research environment (optional extra ``[rl]``: pettingzoo, gymnasium, numpy).

- :mod:`~unotable.env.actions`: the fixed action space of a configuration, ``action_to_text``
  and ``text_to_action`` (standard library);
- :mod:`~unotable.env.encoding`: observations, from a seat's view only (numpy);
- :mod:`~unotable.env.driver`: who acts next, window turns, episodes and rewards (standard
  library);
- :mod:`~unotable.env.aec`: the PettingZoo AEC env, ``env`` and ``raw_env``;
- :mod:`~unotable.env.single`: a Gymnasium env where one seat learns against project bots;
- :mod:`~unotable.env.vector`: N tables stepped together into one numpy array, in self-play or
  one learner against bots;
- :mod:`~unotable.env.evaluation`: ``evaluate``, a policy's win rate against bots over paired,
  seat-rotated deals, with its Wilson interval.

``import unotable.env`` registers the Gymnasium id ``unotable/UNO-v0`` (when gymnasium is
installed): ``gymnasium.make("unotable/UNO-v0", players=2, opponents="greedy", obs_type="box")``
makes a :class:`~unotable.env.single.SingleAgentEnv` (one learner against the project's bots),
its keyword arguments those of the class (rules options, opponents, observation type...).

This package uses the core's public API (engine, views, match, bots) and nothing of the other
outer parts. ``docs/env.md`` documents the action ids, the observation layout and the turns.
Names that need pettingzoo or gymnasium load on first use, so the learned bot can use the
encoding with numpy alone. ``ConfigError`` (a bad parameter of any env) and ``HAND_ACTION_CAP``
(the default cap on a hand's actions) are here too.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from unotable.env.actions import DECLINE_TEXT, ActionTable, action_table, action_to_text, text_to_action
from unotable.env.driver import HAND_ACTION_CAP
from unotable.errors import ConfigError

if TYPE_CHECKING:
    from unotable.env.aec import env, raw_env
    from unotable.env.evaluation import Evaluation, evaluate
    from unotable.env.single import SingleAgentEnv
    from unotable.env.vector import VectorEnv

_LAZY = {
    "env": "aec",
    "raw_env": "aec",
    "SingleAgentEnv": "single",
    "VectorEnv": "vector",
    "evaluate": "evaluation",
    "Evaluation": "evaluation",
}

GYM_ID = "unotable/UNO-v0"
"""The Gymnasium id of :class:`~unotable.env.single.SingleAgentEnv`."""


def _register() -> None:
    """Register :data:`GYM_ID` with Gymnasium, if it is installed (the env loads on ``make``)."""
    if importlib.util.find_spec("gymnasium") is None:
        return
    from gymnasium.envs.registration import register, registry  # noqa: PLC0415 - optional

    if GYM_ID not in registry:
        register(id=GYM_ID, entry_point="unotable.env.single:SingleAgentEnv", disable_env_checker=False)


_register()


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'unotable.env' has no attribute {name!r}")
    try:
        mod = importlib.import_module(f"unotable.env.{module}")
    except ImportError as exc:
        raise ImportError(
            f"unotable.env.{name} needs the [rl] extra: pip install 'unotable[rl]' ({exc})"
        ) from exc
    return getattr(mod, name)


__all__ = [
    "DECLINE_TEXT",
    "GYM_ID",
    "HAND_ACTION_CAP",
    "ActionTable",
    "ConfigError",
    "Evaluation",
    "SingleAgentEnv",
    "VectorEnv",
    "action_table",
    "action_to_text",
    "env",
    "evaluate",
    "raw_env",
    "text_to_action",
]
