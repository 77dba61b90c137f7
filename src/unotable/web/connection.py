"""One WebSocket of a room, and the one table of the messages a client may send
(:data:`MESSAGES`: each type's fields, who may send it, and its handler).

A message is parsed against the table (:func:`~unotable.web.protocol.parse`), its sender
checked (a seat's message carries the connection's seat's token), then handled; anything refused
raises :class:`~unotable.web.protocol.ProtocolError`, which :meth:`Connection.run` (the one
place that catches it) sends back as an ``error``, nothing changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from unotable.web.cluster import RECONNECT
from unotable.web.fanout import Listener
from unotable.web.metrics import Metrics
from unotable.web.protocol import Message, ProtocolError, RateLimit, dumps, parse
from unotable.web.room import Room

DEFAULT_RATE: Final = 10.0
"""Messages a second one connection may send, by default (a person clicks far fewer)."""
FLOOD_CLOSE: Final = 200
"""Messages refused in a row for coming too fast before the connection is closed."""
IDLE_SECONDS: Final = 35.0
"""A connection the client has sent nothing on for this long is closed with :data:`IDLE_CLOSE`
(the page pings every 10 s, so 35 s is three missed pings: the client is gone, or frozen, or
cut off without a word). uvicorn's own WebSocket pings (every 20 s, 20 s to answer) find a dead
peer too, but a live browser tab answers those whatever its page does."""
IDLE_CLOSE: Final = 4408
"""The close code of a connection closed for its silence (:data:`IDLE_SECONDS`); a client that
is alive after all reconnects, as on any close."""

ANYONE: Final = "anyone"
"""Who may send a message: any connection (``hello``, ``ping``)."""
WATCHER: Final = "watcher"
"""A connection that has said hello: a seat (with its token) or a spectator (token null)."""
SEAT: Final = "seat"
"""A seat's connection, with its token."""

Handler = Callable[["Connection", Message, "int | None"], Awaitable[dict[str, Any] | None]]
"""A message's handler: the connection, the message and the sender's player (``None``: a
spectator); a direct answer to send back, if any."""


@dataclass(frozen=True)
class MessageType:
    """One type of client message: its fields (True: required; else optional and nullable), who
    may send it, and its handler."""

    fields: dict[str, bool]
    who: str
    handle: Handler


async def _hello(c: Connection, m: Message, _: int | None) -> None:
    await c.hello(m.token)


async def _ping(c: Connection, m: Message, _: int | None) -> dict[str, Any]:
    return {"type": "pong"}


async def _act(c: Connection, m: Message, player: int | None) -> None:
    assert player is not None and m.action is not None
    start = time.perf_counter()
    if await c.room.act(player, m.action):
        metrics: Metrics = c.ws.app.state.metrics
        metrics.actions.inc()
        metrics.action_seconds.observe(time.perf_counter() - start)


async def _next_hand(c: Connection, m: Message, _: int | None) -> None:
    await c.room.next_hand()


async def _rematch(c: Connection, m: Message, _: int | None) -> None:
    await c.room.rematch()


async def _penalize(c: Connection, m: Message, player: int | None) -> None:
    assert player is not None and m.player is not None
    await c.room.penalize(player, m.player)


async def _free_seat(c: Connection, m: Message, player: int | None) -> None:
    assert player is not None and m.player is not None
    await c.room.set_seat(player, m.player, None)


async def _seat_bot(c: Connection, m: Message, player: int | None) -> None:
    assert player is not None and m.player is not None and m.bot is not None
    await c.room.set_seat(player, m.player, m.bot)


async def _react(c: Connection, m: Message, player: int | None) -> None:
    assert m.reaction is not None
    address = c.ws.client.host if c.ws.client else ""
    if not c.room.chat_log.allow_reaction(player, address):  # per seat, not per connection
        raise ProtocolError("slow_down")
    c.room.react(player, m.reaction)


async def _qr(c: Connection, m: Message, player: int | None) -> dict[str, Any]:
    assert player is not None and m.token is not None
    return {"type": "qr", "qr_svg": await c.room.rejoin_qr(player, m.token, c.base)}


async def _chat(c: Connection, m: Message, player: int | None) -> None:
    assert player is not None and m.text is not None
    c.room.chat(player, m.text)


MESSAGES: Final[dict[str, MessageType]] = {
    "hello": MessageType({"token": False}, ANYONE, _hello),
    "act": MessageType({"token": True, "action": True}, SEAT, _act),
    "next_hand": MessageType({"token": True}, SEAT, _next_hand),
    "rematch": MessageType({"token": True}, SEAT, _rematch),
    "penalize": MessageType({"token": True, "player": True}, SEAT, _penalize),
    "free_seat": MessageType({"token": True, "player": True}, SEAT, _free_seat),
    "seat_bot": MessageType({"token": True, "player": True, "bot": True}, SEAT, _seat_bot),
    "react": MessageType({"token": False, "reaction": True}, WATCHER, _react),
    "chat": MessageType({"token": True, "text": True}, SEAT, _chat),
    "ping": MessageType({}, ANYONE, _ping),
    "qr": MessageType({"token": True}, SEAT, _qr),
}
"""Every message a client may send (docs/web.md, "What the client sends")."""
FIELDS: Final = {name: kind.fields for name, kind in MESSAGES.items()}
"""Message type -> its fields, as :func:`~unotable.web.protocol.parse` reads them."""


class Connection:
    """One WebSocket of a room: its rate limits, and once it has said hello, its listener.

    :param base: the page's address (``http://host:port``) for the seat's rejoin link.
    """

    def __init__(self, ws: WebSocket, room: Room, rate: float = DEFAULT_RATE, base: str = "") -> None:
        self.ws = ws
        self.room = room
        self.base = base
        self.limit = RateLimit(rate, 3 * rate)
        self.listener: Listener | None = None
        self.writer: asyncio.Task[None] | None = None

    async def reply(self, message: dict[str, Any]) -> None:
        """Send one message to this client, after whatever is queued for it."""
        if self.listener is not None:
            self.listener.send_json(message)
        else:
            await self.ws.send_text(dumps(message))

    async def _write(self, listener: Listener) -> None:
        while True:
            text = await listener.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(listener.close_code if listener.closed else 1000)
                return
            await self.ws.send_text(text)

    async def hello(self, token: str | None) -> None:
        """Become a seat's connection (``token``) or a spectator's (``None``).

        :raises ProtocolError: ``bad_message`` (hello twice) or ``bad_token``.
        """
        if self.listener is not None:
            raise ProtocolError("bad_message", detail="hello was already said")
        player = None
        if token is not None:
            seat = self.room.seat_by_token(token)
            if seat is None:
                raise ProtocolError("bad_token")
            player = seat.player
        listener = Listener(player)
        await self.room.welcome(listener, token, self.base)
        self.listener = listener
        self.writer = asyncio.get_running_loop().create_task(self._write(listener))
        hub = getattr(self.ws.app.state, "hub", None)
        if hub is not None and hub.rooms.get(self.room.code) is not self.room:
            # The room left this node's memory between the socket's opening and its hello (it
            # moved to another node, or was unloaded): its copy here is stopped and would say
            # nothing more. The client reconnects to wherever the room lives now.
            listener.close(RECONNECT)

    async def handle(self, m: Message) -> dict[str, Any] | None:
        """Check who sent ``m`` and hand it to its handler; a direct answer, if any.

        :raises ProtocolError: for anything refused (nothing changes then).
        """
        kind = MESSAGES[m.type]
        player = None
        if kind.who != ANYONE:
            if self.listener is None:
                raise ProtocolError("hello_first")
            player = self.listener.player
            if player is None and (kind.who == SEAT or m.token is not None):
                raise ProtocolError("spectator")
            if player is not None:
                seat = None if m.token is None else self.room.seat_by_token(m.token)
                if seat is None or seat.player != player:
                    raise ProtocolError("wrong_token")
        return await kind.handle(self, m, player)

    async def run(self) -> None:
        """Serve the connection until the client leaves (or floods, or its token is retired)."""
        ws = self.ws
        try:
            while True:
                try:
                    msg = await asyncio.wait_for(ws.receive(), IDLE_SECONDS)
                except TimeoutError:  # silent too long: closed, the client reconnects if it can
                    if self.listener is not None:
                        self.listener.close(IDLE_CLOSE)
                    else:
                        await ws.close(IDLE_CLOSE)
                    return
                if msg["type"] == "websocket.disconnect":
                    return
                if self.listener is not None and self.listener.closed:
                    return
                if not self.limit.allow():
                    refused = self.limit.refused
                    if refused == 1 or refused % 50 == 0:
                        await self.reply(ProtocolError("too_fast").to_dict())
                    if refused >= FLOOD_CLOSE:
                        if self.listener is not None:
                            self.listener.close()
                        else:
                            await ws.close(1008)
                        return
                    continue
                if msg.get("text") is None:  # a binary frame: refused, never parsed
                    await self.reply(ProtocolError("binary_frame").to_dict())
                    continue
                raw: str = msg["text"]
                try:
                    answer = await self.handle(parse(raw, FIELDS))
                except ProtocolError as exc:
                    answer = exc.to_dict()
                if answer is not None:
                    await self.reply(answer)
        except WebSocketDisconnect:
            return
        finally:
            if self.listener is not None:
                self.room.leave(self.listener)
            if self.writer is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(self.writer, 5.0)


__all__ = ["DEFAULT_RATE", "FIELDS", "IDLE_CLOSE", "IDLE_SECONDS", "MESSAGES", "Connection", "MessageType"]
