"""How long rooms live and the quotas per address (docs/web.md, "Room lifecycle" and "Limits"):
standard library only, so that ``uno serve --help`` reads the defaults without the web extra.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final

IDLE_UNLOAD: Final = 600.0
"""Seconds a room may go without any connection before it leaves memory (P-192): its game
waits in the database, and the next visit loads it again."""
DAY: Final = 86_400.0
MAX_ROOMS: Final = 2_000
"""Rooms one node holds at most by default (``--max-rooms``): twice the thousand person-paced
rooms a node is sized for (issue 31), so that a full node refuses new rooms clearly instead of
slowing every room it holds."""
BOT_WORKERS: Final = max(1, (os.cpu_count() or 2) - 1)
"""Worker processes for the bots that think long by default (``--bot-workers``): one core fewer
than the machine has (one at least), so the server keeps a core of its own."""
BOT_CPU_SHARE: Final = 0.25
"""Seconds of a worker's CPU a room's bots may spend per second by default (``--bot-cpu-share``)."""


@dataclass(frozen=True)
class Lifecycle:
    """How long rooms live, and the quotas per address (docs/web.md, "Room lifecycle" and
    "Limits"; ``uno serve --help``). Times in seconds, counted from a room's last activity (made,
    a seat taken, an action, a rematch, its last connection leaving)."""

    waiting: float = DAY
    """A room still waiting for players is deleted after this long."""
    finished: float = 30 * DAY
    """A room whose game is over is kept this long for its replays, then deleted."""
    idle: float = 7 * DAY
    """An unfinished game nobody plays is closed (deleted) after this long."""
    unload: float = IDLE_UNLOAD
    """A room nobody is connected to leaves memory after this long (it stays stored)."""
    rooms_per_address: int = 20
    """Rooms whose game goes on that one address may have made (0: no limit)."""
    seats_per_address: int = 10
    """Seats one address may hold in rooms whose game goes on (0: no limit)."""
    lookups_per_second: float = 10.0
    """Room and replay lookups (the room's info, its WebSocket, a replay page) one address may
    make a second, four times that at once (0: no limit)."""
    probes_per_second: float = 10.0
    """``/readyz`` and ``/metrics`` requests one address may make of a node a second, ten times
    that at once (0: no limit)."""
    max_rooms: int = MAX_ROOMS
    """Rooms whose game goes on that this node may hold, made by anyone (0: no limit); in a
    service of several nodes, the service's rooms, counted in the database."""
    bot_workers: int = BOT_WORKERS
    """Worker processes in which the bots that think long decide (:mod:`~unotable.web.thinker`)."""
    bot_cpu_share: float = BOT_CPU_SHARE
    """CPU seconds per second a room's bots may spend in the workers (0: no budget)."""


__all__ = ["BOT_CPU_SHARE", "BOT_WORKERS", "DAY", "IDLE_UNLOAD", "MAX_ROOMS", "Lifecycle"]
