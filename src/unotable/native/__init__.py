"""The optional native core (issue 16): the rules of a hand in C, with loops that run inside it.

What lives here: ``_core.c`` (the C extension ``unotable.native._core``, built by ``setup.py``
with the machine's compiler when there is one), this loader, ``core`` (the Python glue:
tables, states in and out, and the batched loops). They may import the standard library and the
rules core's public modules, never the layers above (``bots``, ``sim``, ``env``). The research
env's vector tables in C have their glue in :mod:`unotable.env.native` (numpy), which imports
this package, not the other way round. Nothing in the rules core imports this package but
``unotable.COMPILED``.

``COMPILED`` says whether the extension is loaded. It is False when it was not built (no
compiler at install time) or when the environment variable ``UNOTABLE_PURE`` is set to anything
but ``""`` or ``"0"``; every caller then runs the Python engine.
"""

from __future__ import annotations

import os
from types import ModuleType

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


__all__ = ["COMPILED", "PURE_ENV", "core_module"]
