"""The bots' generator: :class:`BotRandom`, cheap to seed, as a bot table reseeds before every
decision (:mod:`unotable.bots.table`).

Python's ``random.Random`` (the Mersenne Twister) costs about 6 us to seed and to draw its first
number: more than a step of the engine, and a table of random bots draws once or twice a
decision. A :class:`BotRandom` seeded with an integer answers its first :data:`CHEAP` draws
(``random()``, ``getrandbits(k)`` for ``k`` up to 64, and so ``choice``, ``shuffle``,
``randrange`` ...) from SplitMix64 steps of the seed, and seeds a Mersenne Twister from the next
step only if the bot draws more (a search's sampled worlds, its playouts): a decision costs what
it draws, and a long one draws at C speed. The same seed always gives the same numbers.

Standard library only (the bots' own layer).
"""

from __future__ import annotations

import random
from typing import Any, Final

CHEAP: Final = 8
"""Draws after seeding answered by SplitMix64 before the Mersenne Twister takes over."""
_M64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15
"""SplitMix64's increment."""
_TO_UNIT: Final = 1.0 / (1 << 53)


def mix64(x: int) -> int:
    """SplitMix64's finalizer: a 64-bit number whose bits all depend on every bit of ``x``."""
    x &= _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


class BotRandom(random.Random):
    """A ``random.Random`` whose first :data:`CHEAP` draws after an integer seed come from
    SplitMix64 (see the module's docstring); any other seed (``None``, text, bytes) seeds the
    Mersenne Twister at once, as ``random.Random`` does."""

    _x: int
    _cheap: int
    _twister: bool

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Seed afresh: an integer lazily (see the class), anything else as ``random.Random``."""
        if isinstance(a, int) and not isinstance(a, bool):
            self._x = a & _M64
            self._cheap = CHEAP
            self._twister = False
        else:
            super().seed(a, version)
            self._cheap = 0
            self._twister = True
        self.gauss_next = None

    def _step(self) -> int:
        x = self._x = (self._x + GOLDEN) & _M64
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def _randbelow(self, n: int) -> int:
        """A number from 0 to ``n - 1`` (``choice``, ``shuffle``, ``randrange`` ask it): one step
        scaled to ``n`` while the cheap draws last (a bias below ``n / 2**64``), else the
        Twister's, as ``random.Random`` does."""
        if self._cheap and 0 < n <= _M64:
            self._cheap -= 1
            return (self._step() * n) >> 64
        if not self._twister:
            self._wind()
        below: int = super()._randbelow(n)  # type: ignore[misc]
        return below

    def _wind(self) -> None:
        """Seed the Mersenne Twister from the next step (once the cheap draws are used up)."""
        self._cheap = 0
        super().seed(self._step())
        self._twister = True

    def seed_twister(self, a: int) -> None:
        """Seed as ``random.Random(a)`` is seeded, the Mersenne Twister at once (no cheap draws)."""
        random.Random.seed(self, a)
        self._cheap = 0
        self._twister = True

    def twister(self) -> None:
        """Draw from the Mersenne Twister from now on, the cheap draws left unused (a search
        does, so that its native twin, which follows the Twister's state, draws the same)."""
        if not self._twister:
            self._wind()

    def random(self) -> float:
        """The next float in [0, 1)."""
        if self._cheap:
            self._cheap -= 1
            return (self._step() >> 11) * _TO_UNIT
        if not self._twister:
            self._wind()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """The next ``k`` random bits as an integer."""
        if self._cheap and 0 < k <= 64:
            self._cheap -= 1
            return self._step() >> (64 - k)
        if not self._twister:
            self._wind()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        """The whole state (the Twister's and the cheap part's), for :meth:`setstate` and pickling."""
        return (super().getstate(), self._x, self._cheap, self._twister)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Restore a state of :meth:`getstate`."""
        twister, self._x, self._cheap, self._twister = state
        super().setstate(twister)


__all__ = ["CHEAP", "GOLDEN", "BotRandom", "mix64"]
