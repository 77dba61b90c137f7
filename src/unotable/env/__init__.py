"""unotable as a research environment (optional extra ``[rl]``: pettingzoo, gymnasium, numpy).

- :mod:`~unotable.env.actions`: the fixed action space of a configuration, ``action_to_text``
  and ``text_to_action`` (standard library);
- :mod:`~unotable.env.encoding`: observations, from a seat's view only (numpy);
- :mod:`~unotable.env.driver`: who acts next, window turns, episodes and rewards (standard
  library);
- :mod:`~unotable.env.aec`: the PettingZoo AEC env, ``env`` and ``raw_env``;
- :mod:`~unotable.env.single`: a Gymnasium env where one seat learns against project bots;
- :mod:`~unotable.env.vector`: N tables stepped together into one numpy array.

This package uses the core's public API (engine, views, match, bots) and nothing of the other
outer parts. ``docs/env.md`` documents the action ids, the observation layout and the turns.
Names that need pettingzoo or gymnasium load on first use, so the learned bot can use the
encoding with numpy alone.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from unotable.env.actions import DECLINE_TEXT, ActionTable, action_table, action_to_text, text_to_action

if TYPE_CHECKING:
    from unotable.env.aec import env, raw_env
    from unotable.env.single import SingleAgentEnv
    from unotable.env.vector import VectorEnv

_LAZY = {"env": "aec", "raw_env": "aec", "SingleAgentEnv": "single", "VectorEnv": "vector"}


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
    "ActionTable",
    "SingleAgentEnv",
    "VectorEnv",
    "action_table",
    "action_to_text",
    "env",
    "raw_env",
    "text_to_action",
]
