"""Lets new connections in at the pace the event loop can take, so that a reconnect storm does
not stall the rooms already playing.

When a node restarts, every person of its rooms reconnects within a second. Each connection's
request, its WebSocket handshake, the app's checks and its welcome cost the event loop about a
millisecond; 2,000 of them arriving together took the loop for one to two seconds, and every
action of the rooms still playing waited behind them (docs/performance.md, "2026-12-04, night").

The :class:`Pacer` keeps at most :attr:`Pacer.window` connections *being let in* at once: from
the moment the server starts reading one until its first response is complete (plain HTTP) or
its room has welcomed it (a WebSocket), or :data:`HOLD` seconds have passed. A connection beyond
the window waits, unread, in order of arrival. The window adapts to the loop, as TCP's does to
the network: a tick of :data:`TICK` seconds that fires more than :data:`LATE` seconds after it
was due (the loop is busy) takes a quarter off it, and a tick on time while connections wait
adds :data:`GROW`, between :data:`LEAST` and :data:`MOST`. So rooms already playing come
first: the same holds for the connect phase of a busy node (rooms made and joined over HTTP
while others play). However busy the loop, each tick lets in at least the share of those waiting
that brings the first of them in within :data:`WAIT` seconds, so a storm is welcomed within a
few seconds, spread evenly over them. A quiet server never makes anyone wait.

It imports the standard library only.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Callable, Hashable
from typing import Final

TICK: Final = 0.01
"""Seconds between two looks at the loop while connections are being let in."""
LATE: Final = 0.005
"""A tick this much later than due shrinks the window (20 ms let the connect phase's requests
hold the loop for the moves of the rooms already playing: p99 60-83 ms against 40-58 ms at 5 ms,
docs/performance.md)."""
FIRST: Final = 32
"""Connections let in at once at the start."""
LEAST: Final = 4
MOST: Final = 512
GROW: Final = 2
"""Added to the window each tick on time while connections wait."""
WAIT: Final = 4.0
"""Seconds within which everyone waiting now is let in, however busy the loop: each tick lets in
at least the share of those waiting that keeps the first of them within it. 4 s, not 3 (issue 31,
2026-12-04): 2,000 reconnecting clients were welcomed within 4.1-4.4 s (3.4-3.5 s at 3) and the
other rooms' p99 meanwhile was 88-109 ms (202-294 ms at 3), the welcomes' work spread over the
first seconds, while few of the storm's rooms play yet."""
HOLD: Final = 1.0
"""Seconds after which a connection let in stops counting (a client that never says hello
holds a place no longer than this)."""
QUEUED: Final = 20_000
"""Connections waiting beyond this many are refused (closed; the page retries)."""


class Pacer:
    """The connections being let in (keyed by their transport), and those waiting their turn."""

    def __init__(
        self,
        *,
        tick: float = TICK,
        late: float = LATE,
        first: int = FIRST,
        least: int = LEAST,
        most: int = MOST,
        hold: float = HOLD,
        wait: float = WAIT,
    ) -> None:
        self.tick, self.late, self.least, self.most, self.hold = tick, late, least, most, hold
        self.window = first
        self.entering: dict[Hashable, float] = {}
        """The connections being let in, and when (the loop's time)."""
        self.wait = wait
        self.waiting: deque[tuple[Hashable, Callable[[], None], float]] = deque()
        """Those waiting their turn, in order: key, what starts it, since when."""
        self.waited = 0
        """Connections that waited their turn, since the start (for /metrics and tests)."""
        self.refused = 0
        self._due = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def enter(self, key: Hashable, start: Callable[[], None]) -> bool:
        """Let the connection ``key`` in now (True), or call ``start`` when its turn comes
        (False; the caller stops reading it meanwhile). Raises :class:`OverflowError` if too
        many wait already (the caller closes it)."""
        loop = asyncio.get_running_loop()
        if not self.waiting and len(self.entering) < self.window:
            self.entering[key] = loop.time()
            self._keep_ticking(loop)
            return True
        if len(self.waiting) >= QUEUED:
            self.refused += 1
            raise OverflowError("too many connections waiting")
        self.waiting.append((key, start, loop.time()))
        self.waited += 1
        self._keep_ticking(loop)
        return False

    def entered(self, key: Hashable) -> None:
        """The connection ``key`` is in (or gone): its place goes to the next one waiting."""
        if self.entering.pop(key, None) is not None:
            self._let_in(asyncio.get_running_loop())

    def _let_in(self, loop: asyncio.AbstractEventLoop, least: int = 0) -> None:
        """Let in those waiting while the window has room, and at least ``least`` of them."""
        while self.waiting and (len(self.entering) < self.window or least > 0):
            key, start, _ = self.waiting.popleft()
            self.entering[key] = loop.time()
            least -= 1
            start()

    def _keep_ticking(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is None:
            self._due = loop.time() + self.tick
            self._timer = loop.call_at(self._due, self._on_tick)

    def _on_tick(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._timer = None
        if now - self._due > self.late:
            self.window = max(self.least, self.window * 3 // 4)
        elif self.waiting:
            self.window = min(self.most, self.window + GROW)
        for key in [k for k, at in self.entering.items() if now - at > self.hold]:
            del self.entering[key]
        least = 0
        if self.waiting:  # the share that lets the first one waiting in within `wait`
            left = self.wait - (now - self.waiting[0][2])
            least = math.ceil(len(self.waiting) * self.tick / max(self.tick, left))
        self._let_in(loop, least)
        if self.entering or self.waiting:
            self._keep_ticking(loop)

    def close(self) -> None:
        """Stop ticking and forget everyone (the server is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.entering.clear()
        self.waiting.clear()


__all__ = ["FIRST", "GROW", "HOLD", "LATE", "LEAST", "MOST", "QUEUED", "TICK", "WAIT", "Pacer"]
