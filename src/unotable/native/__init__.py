"""The optional native core (issue 16): the rules of a hand in C, with loops that run inside it.

What lives here: ``_core.c`` (the C extension ``unotable.native._core``, built by ``setup.py``
with the machine's compiler when there is one), this loader, ``core`` (the Python glue:
tables, states in and out, and the batched loops). They may import the standard library and the
rules core's public modules. The research env's vector tables in C (:func:`env_backend`) have
their glue in :mod:`unotable.env.native` (numpy), loaded only when :func:`env_backend` is called;
``envbackend`` re-exports it from its old place. Nothing in the rules core imports this package but
``unotable.COMPILED``.

``COMPILED`` says whether the extension is loaded. It is False when it was not built (no
compiler at install time) or when the environment variable ``UNOTABLE_PURE`` is set to anything
but ``""`` or ``"0"``; every caller then runs the Python engine.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unotable.env.native import NativeEnvBackend
    from unotable.rules import Rules

PURE_ENV = "UNOTABLE_PURE"
"""Set it (to anything but ``""`` or ``"0"``) to run in pure Python even with the core built."""


def _load() -> ModuleType | None:
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    try:
        from unotable.native import _core  # noqa: PLC0415 - optional by design
    except ImportError:
        return None
    return _core


core_module: ModuleType | None = _load()
"""The extension module, or None."""
COMPILED: bool = core_module is not None
"""Whether the native core is loaded."""


def env_backend(rules: Rules, num_envs: int, **options: Any) -> NativeEnvBackend:
    """The research env's vector tables in C (:mod:`unotable.env.native`; needs numpy, the ``[rl]`` extra).

    :raises ConfigError: (``NativeUnsupportedError``) without the native core, or for rules or an
        episode it does not play; ``VectorEnv(backend="auto")`` then uses the Python engine.
    """
    from unotable.env.native import env_backend as make  # noqa: PLC0415 - numpy on demand

    return make(rules, num_envs, **options)


__all__ = ["COMPILED", "PURE_ENV", "core_module", "env_backend"]
