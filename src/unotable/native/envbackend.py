"""The old place of the native env backend, now :mod:`unotable.env.native` (issue 22 item 5):
its names re-exported for code that imports them from here."""

from __future__ import annotations

from unotable.env.native import GAME_MODES, SEGMENTS, NativeEnvBackend, env_backend, env_unsupported

__all__ = ["GAME_MODES", "SEGMENTS", "NativeEnvBackend", "env_backend", "env_unsupported"]
