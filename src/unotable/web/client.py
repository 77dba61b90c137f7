"""A program that plays a seat of a room over the WebSocket, as a browser would: for the tests
(hidden information, faults) and ``make bench-web``.

It reads only what the server sends its seat, as the typed messages of
:mod:`unotable.web.messages` (:func:`~unotable.web.messages.read_server`), builds what it sends
with the same declarations, and picks among the legal actions listed in its view: plays first
(a drawn card too), else draws; it calls UNO unless it forgets (``forget``), and catches or
calls late when it may (``react``). Standard library plus ``websockets``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from unotable.web.messages import (
    Act,
    ClientMessage,
    Error,
    Hello,
    NextHand,
    Rematch,
    Update,
    Welcome,
    read_server,
)


def http_json(base: str, method: str, path: str, body: Any = None, timeout: float = 30.0) -> Any:
    """One JSON request to the server at ``base`` (``http://host:port``); the decoded answer.

    :raises RuntimeError: with the server's error for a status of 400 or more.
    """
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as exc:
        raise RuntimeError(f"{method} {path}: {exc.code} {exc.read().decode(errors='replace')}") from None


def choose(
    view: dict[str, Any], rng: random.Random, *, forget: float = 0.2, react: float = 0.5
) -> str | None:
    """An action for the seat whose ``view`` (``View.to_dict()``) this is, or ``None``.

    Out of turn: a late UNO or a catch with probability ``react``. In turn: a play if any
    (with the UNO call unless it forgets, with probability ``forget``), else keep a drawn card,
    accept, draw, or the first colour.
    """
    legal: list[str] = view["legal"]
    if not legal:
        return None
    window = [a for a in legal if a == "uno" or a.startswith(("catch ", "wrong "))]
    if window and rng.random() < react:
        return rng.choice(window)
    if view["current"] != view["seat"]:
        return None
    answers = [a for a in legal if a not in window and not a.startswith("penalize")]
    plays = [a for a in answers if a.startswith(("play ", "invisibility ")) and not a.endswith(" uno")]
    if plays:
        pick = rng.choice(plays)
        twin = pick + " uno"
        if twin in legal and rng.random() >= forget:
            return twin
        return pick
    for first in ("challenge", "pass", "accept", "draw"):
        if first in answers and (first != "challenge" or rng.random() < 0.3):
            return first
    return answers[0] if answers else None


@dataclass
class SeatClient:
    """One connection to a room: a seat's (with ``token``) or a spectator's (without).

    :param ws_base: ``ws://host:port``.
    :param play: whether it acts (a spectator or a silent seat only listens).
    """

    ws_base: str
    code: str
    token: str | None
    seed: int = 0
    play: bool = True
    forget: float = 0.2
    react: float = 0.5
    messages: list[dict[str, Any]] = field(default_factory=list)
    """Every message received, in order, as sent (decoded JSON)."""
    latencies: list[float] = field(default_factory=list)
    """Seconds from each action sent to the first update that follows it."""
    errors: list[Error] = field(default_factory=list)
    keep: bool = True
    """Keep every message (the tests); the benchmark keeps none."""
    changes: bool = True
    """Say ``changes`` in ``hello``: updates carry the table's changes only (``False`` for a
    server older than 2026-12-04, which refuses the field)."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.last: Welcome | Update | None = None
        self.table: dict[str, Any] = {}
        """The room's table as last known (an update carries its changes only: ``hello``'s
        ``changes``)."""
        self._sent_at: float | None = None
        self._acted_seq = -1

    async def run(self, *, games: int = 1, timeout: float = 600.0) -> None:
        """Play (or watch) until ``games`` games of the room are over."""
        async with connect(f"{self.ws_base}/ws/{self.code}", max_size=2**22) as ws:
            await _send(ws, Hello(token=self.token, changes=self.changes))
            await asyncio.wait_for(self._loop(ws, games), timeout)

    async def _loop(self, ws: ClientConnection, games: int) -> None:
        seen_finished: set[int] = set()
        rematched: set[int] = set()
        try:
            async for raw in ws:
                data = json.loads(raw)
                if self.keep:
                    self.messages.append(data)
                m = read_server(data)
                if isinstance(m, Error):
                    self.errors.append(m)
                    if m.code == "too_fast" and self.last is not None:
                        await asyncio.sleep(0.5)  # the server dropped our message: try again
                        self._acted_seq = -1
                        await self._act(ws, self.last)
                    continue
                if not isinstance(m, Welcome | Update):
                    continue
                if self._sent_at is not None and m.seq > self._acted_seq:
                    self.latencies.append(time.perf_counter() - self._sent_at)
                    self._sent_at = None
                self.last = m
                if isinstance(m, Welcome):
                    self.table = dict(m.table)
                elif m.table is not None:
                    self.table = {**self.table, **m.table}
                table = self.table
                if table["status"] == "finished":
                    seen_finished.add(table["game_number"])
                    if len(seen_finished) >= games:
                        return
                    if self.play and self.token is not None and table["game_number"] not in rematched:
                        rematched.add(table["game_number"])
                        await _send(ws, Rematch(token=self.token))
                    continue
                if self.play and self.token is not None:
                    await self._act(ws, m)
        except ConnectionClosed:
            return

    async def _act(self, ws: ClientConnection, m: Welcome | Update) -> None:
        token = self.token
        table = self.table
        if token is None or table["status"] != "playing" or m.seat is None:
            return
        if table["hand_over"]:
            if m.seq != self._acted_seq:
                self._acted_seq = m.seq
                await _send(ws, NextHand(token=token))
            return
        if m.seq == self._acted_seq:
            return  # one action per state: wait for the next
        action = choose(m.view, self.rng, forget=self.forget, react=self.react)
        if action is None:
            return
        self._acted_seq = m.seq
        self._sent_at = time.perf_counter()
        await _send(ws, Act(token=token, action=action))


async def _send(ws: ClientConnection, message: ClientMessage) -> None:
    await ws.send(json.dumps(message.to_dict()))


__all__ = ["SeatClient", "choose", "http_json"]
