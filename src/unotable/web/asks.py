"""Asking for an away person's seat back (issue 34, docs/web.md, P-581): a spectator asks, the
host's connections are shown the ask, the host gives the seat (the asker gets a new token of
it; the old one stops working) or refuses. Asks live in memory only: a restart forgets them.

The room is read through :class:`AskRoom` (the names of a room this module uses), so that this
module does not import :mod:`~unotable.web.room`.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import time
from typing import Any, Final, Protocol

from unotable.web.fanout import Fanout, Listener
from unotable.web.messages import AskAnswer, SeatAsk
from unotable.web.protocol import ProtocolError
from unotable.web.records import Secrets
from unotable.web.seats import Seat, clean_name, secrets_of

ASK_SECONDS: Final = 15.0
"""Seconds between two asks for a seat back from one address (P-581)."""


class AskRoom(Protocol):
    """What :class:`SeatAsks` reads and calls of its room."""

    host: int | None
    seats: list[Seat]
    fanout: Fanout
    lock: asyncio.Lock

    def absent(self, player: int, now: float | None = None) -> bool: ...

    async def _store_keys(self, seat: Seat, old: str, keys: Secrets) -> None: ...

    def _retire(self, player: int, reason: str) -> None: ...

    def _touched(self) -> None: ...


class Ask:
    """A spectator's ask for an away seat back, waiting for the host's answer."""

    def __init__(self, number: int, player: int, name: str, listener: Listener) -> None:
        self.number = number
        self.player = player
        self.name = name
        self.listener = listener

    def message(self) -> SeatAsk:
        """What the host's connections are shown."""
        return SeatAsk(ask=self.number, player=self.player, name=self.name)


class SeatAsks:
    """A room's asks for a seat back waiting for the host, by number."""

    def __init__(self, room: AskRoom) -> None:
        self.room = room
        self.waiting: dict[int, Ask] = {}
        self._numbers = itertools.count(1)
        self._asked_at: dict[str, float] = {}
        """When each address last asked (monotonic seconds)."""

    def ask(self, listener: Listener, player: int, name: Any, address: str) -> None:
        """A spectator's connection (``listener``) asks for ``player``'s away seat back, as
        ``name``: the host's connections are shown the ask (``seat_ask``) to give or refuse.

        :raises ProtocolError: ``seated``, ``no_seat``, ``bad_name``, ``not_away``,
            ``host_away``, ``ask_pending`` or ``slow_down``; nothing changes then.
        """
        room = self.room
        if listener.player is not None:
            raise ProtocolError("seated")
        if not 0 <= player < len(room.seats):
            raise ProtocolError("no_seat", player=player)
        name = clean_name(name)
        if not room.absent(player):
            raise ProtocolError("not_away", player=player + 1)
        if room.host is None or room.host == player or not room.fanout.of(room.host):
            raise ProtocolError("host_away")
        if any(a.player == player or a.listener is listener for a in self.waiting.values()):
            raise ProtocolError("ask_pending")
        now = time.monotonic()
        if now - self._asked_at.get(address, -ASK_SECONDS) < ASK_SECONDS:
            raise ProtocolError("slow_down")
        self._asked_at[address] = now
        if len(self._asked_at) > 256:  # forget the old ones
            self._asked_at = {a: t for a, t in self._asked_at.items() if now - t < ASK_SECONDS}
        ask = Ask(next(self._numbers), player, name, listener)
        self.waiting[ask.number] = ask
        for lst in room.fanout.of(room.host):
            lst.send_json(ask.message())

    async def answer(self, host: int, number: int, give: bool) -> None:
        """The host gives (``give``) or refuses ask ``number``. Given, the asker's connection
        gets a new token of the seat (``ask_answer``); the seat's old token and rejoin keys stop
        working and its connections, if any, are retired (P-345).

        :raises ProtocolError: ``not_host``, ``no_ask``, ``not_away`` or ``storage``.
        """
        room = self.room
        if host != room.host:
            raise ProtocolError("not_host")
        async with room.lock:
            ask = self.waiting.pop(number, None)
            if ask is None:
                raise ProtocolError("no_ask")
            if not give:
                ask.listener.send_json(AskAnswer(player=ask.player, reason="refused"))
                return
            seat = room.seats[ask.player]
            if seat.token_hash is None or not room.absent(ask.player):
                ask.listener.send_json(AskAnswer(player=ask.player, reason="back"))
                raise ProtocolError("not_away", player=ask.player + 1)
            token = secrets.token_urlsafe(32)
            keys = secrets_of(token)
            try:
                await room._store_keys(seat, seat.token_hash, keys)
            except ProtocolError:
                self.waiting[number] = ask  # nothing changed: the host may try again
                raise
            seat.take(seat.name, seat.color, keys)
            room._retire(ask.player, "given")
            ask.listener.send_json(AskAnswer(player=ask.player, reason="given", token=token))
            room._touched()

    def drop(self, player: int | None, reason: str, listener: Listener | None = None) -> None:
        """Forget the asks for ``player``'s seat (or of ``listener``), telling their askers why."""
        for number, ask in list(self.waiting.items()):
            if ask.player == player or ask.listener is listener:
                del self.waiting[number]
                if ask.listener is not listener:
                    ask.listener.send_json(AskAnswer(player=ask.player, reason=reason))

    def show_host(self, listener: Listener) -> None:
        """A host's connection just came: the asks still waiting for an answer."""
        for ask in self.waiting.values():
            listener.send_json(ask.message())
