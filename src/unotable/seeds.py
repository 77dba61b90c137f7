"""Seeds derived from seeds: the one way every part of the project turns a game's (or a
simulation's) seed and a path such as ``("hand", 12)`` into the seed of one generator.

Standard library only; part of the rules core. Seeds never leave the core's callers: no view,
event or message carries one.
"""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from ``seed`` and a path such as ``("hand", 12)``: the same path always
    gives the same seed, different paths give independent ones (BLAKE2b of the path's text)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(
        hashlib.blake2b(text.encode(), digest_size=8, person=b"unotable-sim").digest(), "big"
    )
