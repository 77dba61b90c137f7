"""The randomness of a hand: a SplitMix64 generator whose state lives in the :class:`State`,
and the shuffle it seeds (the deck, the dealer's draw, the discard pile made a draw pile).

Part of the rules core (:mod:`unotable.engine` re-exports its names).
"""

from __future__ import annotations

import struct
from hashlib import shake_128
from typing import Final

from unotable.cards import NUM_CARD_TYPES
from unotable.state import State

# --------------------------------------------------------------------------------------------
# Randomness: a SplitMix64 state kept in the state seeds each shuffle.

_M64: Final = (1 << 64) - 1


def _next_random(st: State) -> int:
    """Advance the state's SplitMix64 generator; a 64-bit random number."""
    x = st.rng = (st.rng + 0x9E3779B97F4A7C15) & _M64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


# A shuffle sorts the cards on random keys, with every per-card step in C: each key is a
# little-endian double in [1, 2) whose lowest byte is the card itself, whose next 44 bits are
# random (SHAKE-128 of a 64-bit number from the state's generator) and whose top 12 bits are
# the sign and exponent of 1.0. Doubles sort natively; the lowest byte of each sorted key is the
# card. Two different cards tie on their random bits with probability 2**-44 (the lower card
# type then goes first): about 3e-10 per shuffle of a whole deck, far below anything a
# simulation can see.
_KEY_EXPONENT_LOW: Final = bytes(0xF0 | (b & 0x0F) for b in range(256))
"""Byte 6 of a key: the exponent's low nibble (0xF), four random bits below it."""
_KEY_EXPONENT_HIGH: Final = b"\x3f"
"""Byte 7 of a key: sign 0 and the exponent's high bits."""
_KEY_STRUCTS: dict[int, struct.Struct] = {}
assert NUM_CARD_TYPES <= 256, "a card must fit in a key's lowest byte"


def _shuffle(st: State, cards: list[int], as_bytes: bytes | None = None) -> None:
    """Shuffle ``cards`` in place, uniformly, from the state's generator (see the keys above);
    ``as_bytes``, if given, is ``bytes(cards)``."""
    n = len(cards)
    keys = bytearray(shake_128(_next_random(st).to_bytes(8, "little")).digest(8 * n))
    keys[::8] = bytes(cards) if as_bytes is None else as_bytes
    keys[6::8] = keys[6::8].translate(_KEY_EXPONENT_LOW)
    keys[7::8] = _KEY_EXPONENT_HIGH * n
    layout = _KEY_STRUCTS.get(n)
    if layout is None:
        layout = _KEY_STRUCTS[n] = struct.Struct(f"<{n}d")
    cards[:] = layout.pack(*sorted(layout.unpack(keys)))[::8]
