"""The shuffles tried as the one both engines could share (issue 16), their Python side counted.

The native core's deals are the Python engine's: SHAKE-128 keys for every card, sorted. In C that
is six Keccak permutations a deck, the larger part of a short hand, while a Fisher-Yates from the
state's SplitMix64 generator costs a tenth of it; the issue allows changing both engines to a
shuffle a C loop runs cheaply, provided the Python engine gets no slower. This script counts, with
Valgrind's callgrind, the instructions a shuffle of the 108-card classic deck costs in Python for
each candidate (a run of ``--shuffles`` shuffles less a run of none), after checking each against a
plain per-card reference:

- ``engine``: ``engine._shuffle`` as it is (SHAKE-128 keys, 44 random bits above the card in a
  double, sorted).
- ``splitmix-lanes``: the keys are SplitMix64 of the counters 1..n from one number of the state's
  generator, computed for all cards at once on one big integer, lanes 128 bits apart (each round
  masked back to the low 64 bits of each lane), then sorted as the engine's doubles.
- ``lowbias32-lanes``: a 32-bit mixer (lowbias32) of the counters, lanes 64 bits apart, the
  number's upper half XORed in: distinct keys, so no ties; half the big-integer width.
- ``fisher-yates``: Fisher-Yates with exact bounds (several indices from one 64-bit number by
  the batched multiply-shift method, rejection where the leftover is short), a Python loop.

Figures and the decision: docs/performance.md (the native core) and P-200 in docs/rulings.md.
Run ``.venv/bin/python bench/shuffles.py [--shuffles N]``; needs ``valgrind`` on the PATH.
"""

from __future__ import annotations

import argparse
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import Final

from unotable.engine import new_hand
from unotable.rules import Rules
from unotable.shuffle import _next_random, _shuffle
from unotable.state import State

M64: Final = (1 << 64) - 1
M32: Final = (1 << 32) - 1
GAMMA: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB
MANTISSA: Final = ((1 << 52) - 1) & ~0xFF
"""The 44 random bits of a key: the mantissa but its lowest byte (the card)."""
EXPONENT: Final = 0x3FF << 52
"""The sign and exponent of a double in [1, 2)."""

Shuffle = Callable[[State, list[int]], None]


def _splitmix(x: int) -> int:
    z = ((x ^ (x >> 30)) * MIX1) & M64
    z = ((z ^ (z >> 27)) * MIX2) & M64
    return z ^ (z >> 31)


_LANES: dict[int, tuple[int, int, int, int, int, struct.Struct, struct.Struct]] = {}


def splitmix_lanes(st: State, cards: list[int]) -> None:
    """SplitMix64 keys of the counters 1..n, all at once on one big integer."""
    n = len(cards)
    lanes = _LANES.get(n)
    if lanes is None:
        ones = sum(1 << (128 * i) for i in range(n))
        counters = sum(((i + 1) * GAMMA) << (128 * i) for i in range(n))
        spread = struct.Struct("<" + "d8x" * n)
        lanes = _LANES[n] = (
            ones,
            counters,
            ones * M64,
            ones * MANTISSA,
            ones * EXPONENT,
            spread,
            struct.Struct(f"<{n}d"),
        )
    ones, counters, low, mantissa, exponent, spread, packed = lanes
    x = (_next_random(st) * ones + counters) & low
    x = (((x ^ (x >> 30)) & low) * MIX1) & low
    x = (((x ^ (x >> 27)) & low) * MIX2) & low
    x = ((x ^ (x >> 31)) & mantissa) | exponent
    keys = bytearray(x.to_bytes(16 * n, "little"))
    keys[::16] = bytes(cards)
    cards[:] = packed.pack(*sorted(spread.unpack(keys)))[::8]


def splitmix_reference(st: State, cards: list[int]) -> None:
    """What :func:`splitmix_lanes` computes, card by card."""
    seed = _next_random(st)
    keys = [(_splitmix((seed + (i + 1) * GAMMA) & M64) & MANTISSA, c) for i, c in enumerate(cards)]
    cards[:] = [c for _, c in sorted(keys)]


_LANES32: dict[int, tuple[int, int, int, int, struct.Struct]] = {}


def lowbias32_lanes(st: State, cards: list[int]) -> None:
    """lowbias32 keys of the counters (32 bits, distinct), lanes 64 bits apart."""
    n = len(cards)
    lanes = _LANES32.get(n)
    if lanes is None:
        ones = sum(1 << (64 * i) for i in range(n))
        counters = sum(((i + 1) * 0x9E3779B9) << (64 * i) for i in range(n))
        lanes = _LANES32[n] = (ones, counters, ones * M32, ones * (0x3FF0 << 48), struct.Struct(f"<{n}d"))
    ones, counters, low, exponent, packed = lanes
    s = _next_random(st)
    x = ((s & M32) * ones + counters) & low
    x = (((x ^ (x >> 16)) & low) * 0x7FEB352D) & low
    x = (((x ^ (x >> 15)) & low) * 0x846CA68B) & low
    x = ((x ^ (x >> 16) ^ ((s >> 32) * ones)) & low) << 8 | exponent
    keys = bytearray(x.to_bytes(8 * n, "little"))
    keys[::8] = bytes(cards)
    cards[:] = packed.pack(*sorted(packed.unpack(keys)))[::8]


def lowbias32_reference(st: State, cards: list[int]) -> None:
    """What :func:`lowbias32_lanes` computes, card by card."""
    s = _next_random(st)
    keys = []
    for i, c in enumerate(cards):
        x = ((s & M32) + (i + 1) * 0x9E3779B9) & M32
        x = ((x ^ (x >> 16)) * 0x7FEB352D) & M32
        x = ((x ^ (x >> 15)) * 0x846CA68B) & M32
        keys.append(((x ^ (x >> 16)) ^ (s >> 32), c))
    cards[:] = [c for _, c in sorted(keys)]


BATCH_LIMIT: Final = 1 << 32
"""The product of the bounds one 64-bit number serves (the batched multiply-shift)."""
_PLANS: dict[int, list[tuple[int, tuple[int, ...], int, int]]] = {}


def _plan(n: int) -> list[tuple[int, tuple[int, ...], int, int]]:
    """Groups of Fisher-Yates steps: (first index, bounds, their product, 2**64 mod product)."""
    groups = []
    i = n - 1
    while i > 0:
        product, bounds = 1, list[int]()
        while i - len(bounds) > 0 and product * (i - len(bounds) + 1) <= BATCH_LIMIT:
            bounds.append(i - len(bounds) + 1)
            product *= bounds[-1]
        groups.append((i, tuple(bounds), product, (1 << 64) % product))
        i -= len(bounds)
    return groups


def fisher_yates(st: State, cards: list[int]) -> None:
    """Fisher-Yates, exact: the indices of a group are the mixed-radix digits of one number."""
    n = len(cards)
    groups = _PLANS.get(n)
    if groups is None:
        groups = _PLANS[n] = _plan(n)
    for top, bounds, product, threshold in groups:
        x = _next_random(st)
        while (x * product) & M64 < threshold:  # Lemire's rejection, for the whole group
            x = _next_random(st)
        i = top
        for b in bounds:
            x *= b
            j = x >> 64
            x &= M64
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1


def fisher_yates_reference(st: State, cards: list[int]) -> None:
    """What :func:`fisher_yates` computes, one index at a time from the group's number."""
    for top, bounds, product, threshold in _plan(len(cards)):
        x = _next_random(st)
        while (x * product) & M64 < threshold:
            x = _next_random(st)
        number = (x * product) >> 64
        digits = []
        for b in reversed(bounds):
            number, d = divmod(number, b)
            digits.append(d)
        for i, j in zip(range(top, top - len(bounds), -1), reversed(digits), strict=True):
            cards[i], cards[j] = cards[j], cards[i]


CANDIDATES: Final[dict[str, tuple[Shuffle, Shuffle | None]]] = {
    "engine": (_shuffle, None),
    "splitmix-lanes": (splitmix_lanes, splitmix_reference),
    "lowbias32-lanes": (lowbias32_lanes, lowbias32_reference),
    "fisher-yates": (fisher_yates, fisher_yates_reference),
}


def check(name: str, seeds: Sequence[int] = range(200)) -> None:
    """:raises AssertionError: if the candidate is not a permutation or differs from its reference."""
    shuffle, reference = CANDIDATES[name]
    st, twin = new_hand(Rules(), 0)[0], new_hand(Rules(), 0)[0]
    deck = sorted(Rules().deck())
    for seed in seeds:
        for length in (len(deck), 40, 2):
            mine = deck[:length]
            st.rng = twin.rng = seed or 1
            shuffle(st, mine)
            assert sorted(mine) == deck[:length], name
            if reference is not None:
                theirs = deck[:length]
                reference(twin, theirs)
                assert (mine, st.rng) == (theirs, twin.rng), name


def _child(name: str, shuffles: int) -> None:
    shuffle = CANDIDATES[name][0]
    st = new_hand(Rules(), 1)[0]
    deck = sorted(Rules().deck())
    shuffle(st, list(deck))  # the tables and caches are made before counting
    for _ in range(shuffles):
        shuffle(st, list(deck))


def _count(name: str, shuffles: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/out",
                sys.executable,
                __file__,
                "--child",
                name,
                str(shuffles),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise RuntimeError(f"the counted run failed: {proc.stderr.strip()[-500:]}")
    return int(found.group(1))


def main(argv: Sequence[str] | None = None) -> int:
    """Check every candidate, then count and print; see the module's docstring."""
    parser = argparse.ArgumentParser(description="instructions per Python shuffle of each candidate")
    parser.add_argument("--shuffles", type=int, default=1000, help="shuffles per count (1000)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return 0
    for name in CANDIDATES:
        check(name)
    if shutil.which("valgrind") is None:
        print("# valgrind is not on the PATH: every candidate checked, nothing counted")
        return 0
    print(f"# instructions per shuffle of the 108-card deck in Python, {args.shuffles} shuffles a count")
    base = {name: _count(name, 0) for name in CANDIDATES}
    for name in CANDIDATES:
        per = (_count(name, args.shuffles) - base[name]) / args.shuffles
        print(f"shuffle candidate={name} instructions_per_shuffle={per:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
