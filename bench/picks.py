"""The random pick of both sides of the benchmark (``bench.py`` and ``rlcard_worker.py``).

Both policies choose among ``k`` actions with ``actions[word() % k]``, where ``word`` returns
the next of a stream of uniform 32-bit numbers from a seeded ``random.Random``, made 4,096 at
a time in C (``randbytes`` into an ``array``). A pick then costs one call, a modulo and an
index, where ``actions[int(random() * k)]`` costs a call, a float product and an ``int()``:
about 430 instructions less a pick, on a side whose whole action costs about 13,000 (ours)
or 80,000 (RLCard's). The modulo's bias is below ``k / 2**32``.

This module imports only the standard library: RLCard's Python, in a venv of its own, imports
it too.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterator
from itertools import chain

CHUNK = 4096
"""Numbers made per call of ``randbytes``."""

if array("I").itemsize != 4:  # pragma: no cover - 4 on every platform CPython supports
    raise ImportError("array('I') must hold 32-bit numbers")


def random_words(seed: int) -> Callable[[], int]:
    """A function that returns the next uniform 32-bit number of the stream seeded by ``seed``."""
    rng = random.Random(seed)

    def chunks() -> Iterator[array[int]]:
        while True:
            yield array("I", rng.randbytes(4 * CHUNK))

    return chain.from_iterable(chunks()).__next__
