"""What a vector env's backend writes into (:class:`Batch`) and what it offers (:class:`Backend`).

Their own module so that both backends, :class:`~unotable.env.vector.PythonBackend` and the
native core's :class:`~unotable.env.native.NativeEnvBackend`, import them without importing each
other (``unotable.env.vector`` loads the native one by name, on demand). Imports numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt


@dataclass
class Batch:
    """The arrays of a vector env, shared with it (copy what you keep across steps).

    ``observation`` (N, D) float32, ``action_mask`` (N, A) int8, ``agent`` (N,) int64: the
    player to act at each table; ``rewards`` (N, P) float32: what the last step brought each
    player (against bots: everything since the learner's last action, the bots' turns
    included); ``terminated`` and ``truncated`` (N,) bool: the table's episode ended in the
    last step (and a new one was dealt); ``final_observation`` (N, D) float32: for those tables
    (other rows are stale), the observation of the position the episode ended in, seen by the
    learner (self-play: by the player who took the last action), as an observation between
    turns (``window_turn`` 0).
    """

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    agent: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    final_observation: npt.NDArray[np.float32]

    @property
    def ended(self) -> npt.NDArray[np.bool_]:
        """The tables whose episode ended in the last step (terminated or truncated)."""
        return self.terminated | self.truncated

    def info(self) -> dict[str, Any]:
        """The step's info as Gymnasium's vector envs give it: ``final_observation`` and
        ``final_info`` (also under Gymnasium 1's names ``final_obs``), each with its ``_``
        mask of the tables that ended. ``final_observation`` is the (N, D) array: read the rows
        the mask marks. ``final_info`` holds a dict per ended table (``terminated``,
        ``truncated``), None elsewhere."""
        ended = self.ended
        final_info = np.full(len(ended), None, dtype=object)
        for i in np.flatnonzero(ended):
            final_info[i] = {"terminated": bool(self.terminated[i]), "truncated": bool(self.truncated[i])}
        return {
            "final_observation": self.final_observation,
            "_final_observation": ended,
            "final_obs": self.final_observation,
            "_final_obs": ended,
            "final_info": final_info,
            "_final_info": ended.copy(),
        }


class Backend(Protocol):
    """What steps the tables: the seam where a native core plugs in."""

    name: str

    def reset(self, seeds: list[int], out: Batch) -> None:
        """Deal every table from its seed and write its first turn into ``out``."""
        ...

    def step(self, actions: npt.NDArray[np.int64], out: Batch) -> None:
        """Apply one legal env action per table, write the results into ``out`` (auto-reset)."""
        ...
