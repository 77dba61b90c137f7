"""Where the rooms' bots think: off the event loop, off the storage's threads, fairly across rooms
and within a CPU budget per room (docs/web.md, "Bots").

A bot whose decisions take long (``thinks_long``: ``search``, ``expert``) is asked in a pool of
worker processes of its own (:class:`Thinker`), ``--bot-workers`` of them, each lowered in
priority (``os.nice``) so that the server's own process keeps the processor when both want it.
What crosses to a worker is the :class:`Decision`: the bot's spec, its seed and the seat's view
(never the state); the worker makes the bot afresh from them, as the room would have, so a
decision is the same wherever it is made and a resumed game plays on exactly (P-183).

- **Fair.** A room has at most one decision waiting or thinking at a time, and waiting decisions
  go to the workers oldest first: one room per turn, so twenty rooms of ``expert`` bots made by
  one address delay another room's bot by at most one decision each, never starve it. At most
  ``queue`` decisions wait at once (:class:`ThinkerBusyError` past it; the room tries again).
- **A CPU budget per room.** Each room may spend ``cpu_share`` seconds of a worker's CPU per
  second on its bots, ``burst`` seconds of it at once. A room past its budget has its next
  decision put off until the budget has grown back: the decision itself is never cut short or
  changed (it is the same as without a budget), it only comes later.
- A quick bot's decision (``greedy``, ``random``, ``learned``: 20-100 microseconds) is made on
  the event loop, where it costs less than sending it to a process and back.

Standard library only (and the bots).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Final

from unotable.bots import BaseBot, make_bot
from unotable.bots.spec import BotSpec
from unotable.views import View
from unotable.web.lifecycle import BOT_CPU_SHARE, BOT_WORKERS
from unotable.web.settings import DEFAULT_FORGET_UNO

log = logging.getLogger("unotable.web")

BOT_BURST: Final = 2.0
"""Seconds of CPU a room's bots may spend at once before the budget puts their decisions off."""
QUEUE: Final = 2_000
"""Decisions waiting for a worker at most (one per room)."""
NICE: Final = 10
"""How much lower the workers' priority is than the server's (``os.nice``)."""


def make_room_bot(spec: BotSpec, seed: int) -> BaseBot:
    """A room's bot from its spec, seeded (UNO forgotten as often as ``uno play``'s bots unless
    the spec says otherwise)."""
    options = {"forget_uno": DEFAULT_FORGET_UNO, **dict(spec.options)}
    bot = make_bot(spec.name, seed, **options)
    bot.name = spec.label
    return bot


@dataclass(frozen=True)
class Decision:
    """A bot's decision still to be made: what a worker needs to make it (picklable)."""

    spec: BotSpec
    seed: int
    """The bot's seed at this point of the log (P-183)."""
    view: View
    """The bot's seat's view: all the bot may know."""
    slow: bool = False
    """Whether the bot ``thinks_long`` (its decision goes to a worker process)."""

    def __call__(self) -> int:
        """The decision, made here: the bot made afresh from its spec and seed, asked once."""
        return make_room_bot(self.spec, self.seed).act(self.view)


def decide(decision: Decision) -> tuple[int, float]:
    """``decision`` made (in a worker) and the CPU seconds it took."""
    start = time.process_time()
    aid = decision()
    return aid, time.process_time() - start


def lower_priority(nice: int) -> None:
    """A worker's initializer: lower its priority below the server's."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(nice)


def worker_pool(workers: int, nice: int = NICE) -> ProcessPoolExecutor:
    """``workers`` processes at a lower priority than the server's (``nice``), started by a fork
    server where there is one (never a fork of the server's threads), else spawned."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context(method), initializer=lower_priority, initargs=(nice,)
    )


Answer = tuple[int, float]
"""A decision made: the action's id and the CPU seconds it took."""


class ThinkerBusyError(Exception):
    """Too many decisions wait for a worker already: the room tries again a little later."""


class _Budget:
    """A room's bots' CPU budget: a bucket of CPU seconds, refilled at ``share`` per second."""

    def __init__(self, share: float, burst: float) -> None:
        self.share = share
        self.burst = burst
        self.seconds = burst
        self.at = time.monotonic()

    def refill(self, now: float) -> None:
        self.seconds = min(self.burst, self.seconds + (now - self.at) * self.share)
        self.at = now

    def wait(self) -> float:
        """Seconds until the budget is no longer overdrawn (0: none)."""
        self.refill(time.monotonic())
        return 0.0 if self.seconds >= 0 or self.share <= 0 else -self.seconds / self.share


class Thinker:
    """The rooms' bots' decisions: quick ones on the loop, long ones in worker processes, fairly
    across rooms and within each room's CPU budget (see the module's docstring).

    :param workers: worker processes (started on the first long decision).
    :param cpu_share: CPU seconds per second a room's bots may spend (0: no budget).
    :param burst: CPU seconds a room's bots may spend at once.
    :param queue: decisions waiting for a worker at most.
    """

    def __init__(
        self,
        workers: int = BOT_WORKERS,
        *,
        cpu_share: float = BOT_CPU_SHARE,
        burst: float = BOT_BURST,
        queue: int = QUEUE,
        nice: int = NICE,
    ) -> None:
        self.workers = max(1, workers)
        self.cpu_share = cpu_share
        self.burst = burst
        self.queue = queue
        self.nice = nice
        self.decisions = 0
        """Decisions made in the workers."""
        self.cpu_seconds = 0.0
        """Their CPU time, in all."""
        self.deferred = 0
        """Decisions put off because their room was past its CPU budget."""
        self.order: list[str] = []
        """Rooms in the order their decisions went to a worker (the last 1,000; for the tests)."""
        self._pool: Executor | None = None
        self._waiting: OrderedDict[str, tuple[Decision, asyncio.Future[tuple[int, float]]]] = OrderedDict()
        self._running = 0
        self._budgets: dict[str, _Budget] = {}

    @property
    def waiting(self) -> int:
        """Decisions waiting for a worker now."""
        return len(self._waiting)

    @property
    def running(self) -> int:
        """Decisions being made by the workers now."""
        return self._running

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = worker_pool(self.workers, self.nice)
        return self._pool

    def budget_wait(self, room: str) -> float:
        """Seconds ``room``'s next long decision is put off for its CPU budget (0: none)."""
        budget = self._budgets.get(room)
        return 0.0 if budget is None else budget.wait()

    def charge(self, room: str, seconds: float) -> None:
        """Count ``seconds`` of CPU against ``room``'s budget."""
        if self.cpu_share <= 0:
            return
        budget = self._budgets.get(room)
        if budget is None:
            if len(self._budgets) >= 10 * self.queue:
                self._budgets.clear()
            budget = self._budgets[room] = _Budget(self.cpu_share, self.burst)
        budget.refill(time.monotonic())
        budget.seconds -= seconds

    async def decide(self, room: str, decision: Decision) -> int:
        """``decision``, made for ``room``: on the loop if quick, else in a worker once it is the
        room's turn and within its budget.

        :raises ThinkerBusyError: if :attr:`queue` decisions wait already.
        :raises RuntimeError: if ``room`` has a decision waiting or thinking already.
        """
        if not decision.slow:
            return decision()
        wait = self.budget_wait(room)
        if wait > 0:
            self.deferred += 1
            await asyncio.sleep(wait)
        if room in self._waiting:
            raise RuntimeError(f"room {room} has a decision waiting already")
        if len(self._waiting) >= self.queue:
            raise ThinkerBusyError
        future: asyncio.Future[tuple[int, float]] = asyncio.get_running_loop().create_future()
        self._waiting[room] = (decision, future)
        self._dispatch()
        try:
            aid, seconds = await future
        finally:
            entry = self._waiting.get(room)
            if entry is not None and entry[1] is future:
                del self._waiting[room]
        self.charge(room, seconds)
        return aid

    def _dispatch(self) -> None:
        """Send waiting decisions to free workers, the oldest first (one per room: round-robin)."""
        while self._running < self.workers and self._waiting:
            room, (decision, future) = self._waiting.popitem(last=False)
            if future.done():  # its room stopped waiting
                continue
            self.order.append(room)
            del self.order[:-1000]
            try:
                done = self._executor().submit(decide, decision)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._broken(exc)
                future.set_exception(ThinkerBusyError())
                continue
            self._running += 1
            asyncio.wrap_future(done).add_done_callback(functools.partial(self._finished, future=future))

    def _finished(self, done: asyncio.Future[Answer], future: asyncio.Future[Answer]) -> None:
        self._running -= 1
        exc = None if done.cancelled() else done.exception()
        if isinstance(exc, BrokenProcessPool):
            self._broken(exc)
        if not future.done():
            if done.cancelled():
                future.set_exception(ThinkerBusyError())
            elif exc is not None:
                future.set_exception(ThinkerBusyError() if isinstance(exc, BrokenProcessPool) else exc)
            else:
                aid, seconds = done.result()
                self.decisions += 1
                self.cpu_seconds += seconds
                future.set_result((aid, seconds))
        self._dispatch()

    def _broken(self, exc: BaseException) -> None:
        """A worker died: the pool is made again for the next decision."""
        log.warning("the bots' worker pool broke (%s); starting it again", exc)
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (decisions in flight are dropped: their rooms are stopping)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        for _, future in self._waiting.values():
            if not future.done():
                future.cancel()
        self._waiting.clear()


__all__ = [
    "BOT_BURST",
    "BOT_CPU_SHARE",
    "BOT_WORKERS",
    "Decision",
    "Thinker",
    "ThinkerBusyError",
    "decide",
    "lower_priority",
    "make_room_bot",
    "worker_pool",
]
