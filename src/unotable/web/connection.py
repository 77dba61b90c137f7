"""One WebSocket of a room, and the handler of each message a client may send
(:data:`HANDLERS`; :mod:`unotable.web.messages` declares the messages: fields, who may send).

A message is parsed as declared (:func:`~unotable.web.protocol.parse`), its sender checked
(a seat's message carries the connection's seat's token; the host's, the host's), then handled;
anything refused raises :class:`~unotable.web.protocol.ProtocolError`, which
:meth:`Connection.run` (the one place that catches it) sends back as an ``error``, nothing
changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect

from unotable.web.cluster import RECONNECT
from unotable.web.fanout import Listener
from unotable.web.messages import (
    ANYONE,
    HOST,
    SEAT,
    Act,
    AnswerAsk,
    AskQr,
    AskSeat,
    ClientMessage,
    FreeSeat,
    Hello,
    MoreTime,
    NextHand,
    Penalize,
    Ping,
    Pong,
    Qr,
    React,
    Rematch,
    SeatBot,
    SendChat,
    ServerMessage,
)
from unotable.web.metrics import Metrics
from unotable.web.protocol import ProtocolError, RateLimit, dumps, parse
from unotable.web.room import Room
from unotable.web.wsprotocol import send_now, welcomed

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

M = TypeVar("M", bound=ClientMessage)
Answer = Pong | Qr | None
"""A handler's direct answer to its sender, if any."""
Handler = Callable[["Connection", M, "int | None"], Awaitable[Answer]]
"""A message's handler: the connection, the message and the sender's player (``None``: a
spectator, or a connection before its hello)."""
HANDLERS: Final[dict[type[ClientMessage], Handler[Any]]] = {}
"""Each client message type's handler (:data:`~unotable.web.messages.CLIENT_MESSAGES` declares
the types: their fields and who may send them)."""


def _on(kind: type[M]) -> Callable[[Handler[M]], Handler[M]]:
    """Make the decorated function the handler of the messages of type ``kind``."""

    def register(handle: Handler[M]) -> Handler[M]:
        HANDLERS[kind] = handle
        return handle

    return register


def _seated(kind: type[M]) -> Callable[[Callable[[Connection, M, int], Awaitable[Answer]]], Handler[M]]:
    """Make the decorated function the handler of ``kind``, a message only a seat may send
    (:meth:`Connection.handle` checks it; the handler gets the seat's player)."""

    def register(handle: Callable[[Connection, M, int], Awaitable[Answer]]) -> Handler[M]:
        async def seated(c: Connection, m: M, player: int | None) -> Answer:
            if player is None:  # pragma: no cover - Connection.handle refuses it first
                raise ProtocolError("spectator")
            return await handle(c, m, player)

        HANDLERS[kind] = seated
        return seated

    return register


@_on(Hello)
async def _hello(c: Connection, m: Hello, _: int | None) -> None:
    await c.hello(m.token, changes=m.changes)


@_on(Ping)
async def _ping(c: Connection, m: Ping, _: int | None) -> Pong:
    return Pong()


@_seated(Act)
async def _act(c: Connection, m: Act, player: int) -> None:
    start = time.perf_counter()
    if await c.room.act(player, m.action):
        metrics: Metrics = c.ws.app.state.metrics
        metrics.actions.inc()
        metrics.action_seconds.observe(time.perf_counter() - start)


@_seated(NextHand)
async def _next_hand(c: Connection, m: NextHand, _: int) -> None:
    await c.room.next_hand()


@_seated(Rematch)
async def _rematch(c: Connection, m: Rematch, _: int) -> None:
    await c.room.rematch()


@_seated(Penalize)
async def _penalize(c: Connection, m: Penalize, player: int) -> None:
    await c.room.referee.penalize(player, m.player)


@_seated(FreeSeat)
async def _free_seat(c: Connection, m: FreeSeat, player: int) -> None:
    await c.room.set_seat(player, m.player, None)


@_seated(SeatBot)
async def _seat_bot(c: Connection, m: SeatBot, player: int) -> None:
    await c.room.set_seat(player, m.player, m.bot)


@_on(React)
async def _react(c: Connection, m: React, player: int | None) -> None:
    address = c.ws.client.host if c.ws.client else ""
    if not c.room.chat_log.allow_reaction(player, address):  # per seat, not per connection
        raise ProtocolError("slow_down")
    c.room.react(player, m.reaction)


@_seated(MoreTime)
async def _more_time(c: Connection, m: MoreTime, player: int) -> None:
    c.room.more_time(player)


@_on(AskSeat)
async def _ask_seat(c: Connection, m: AskSeat, _: int | None) -> None:
    if c.listener is None:  # pragma: no cover - Connection.handle refuses it first
        raise ProtocolError("hello_first")
    c.room.asks.ask(c.listener, m.player, m.name, c.ws.client.host if c.ws.client else "")


@_seated(AnswerAsk)
async def _answer_ask(c: Connection, m: AnswerAsk, player: int) -> None:
    await c.room.asks.answer(player, m.ask, m.give)


@_seated(AskQr)
async def _qr(c: Connection, m: AskQr, player: int) -> Qr:
    return Qr(qr_svg=await c.room.rejoin_qr(player, m.token, c.base))


@_seated(SendChat)
async def _chat(c: Connection, m: SendChat, player: int) -> None:
    c.room.chat(player, m.text)


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

    async def reply(self, message: ServerMessage) -> None:
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
            listener.writing = True  # what comes meanwhile queues behind it
            try:
                await self.ws.send_text(text)
            finally:
                listener.writing = False

    async def hello(self, token: str | None, *, changes: bool = False) -> None:
        """Become a seat's connection (``token``) or a spectator's (``None``); ``changes``: the
        client keeps the table (its updates carry the table's changes only).

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
        listener = Listener(player, changes=changes)
        listener.direct = send_now(self.ws.scope)
        await self.room.welcome(listener, token, self.base)
        welcomed(self.ws.scope)
        self.listener = listener
        self.writer = asyncio.get_running_loop().create_task(self._write(listener))
        hub = getattr(self.ws.app.state, "hub", None)
        if hub is not None and hub.rooms.get(self.room.code) is not self.room:
            # The room left this node's memory between the socket's opening and its hello (it
            # moved to another node, or was unloaded): its copy here is stopped and would say
            # nothing more. The client reconnects to wherever the room lives now.
            listener.close(RECONNECT)

    async def handle(self, m: ClientMessage) -> Answer:
        """Check who sent ``m`` (as its type declares) and hand it to its handler; a direct
        answer, if any.

        :raises ProtocolError: for anything refused (nothing changes then).
        """
        who = m.WHO
        player = None
        if who != ANYONE:
            if self.listener is None:
                raise ProtocolError("hello_first")
            player = self.listener.player
            token: str | None = getattr(m, "token", None)
            if player is None and (who in (SEAT, HOST) or token is not None):
                raise ProtocolError("spectator")
            if player is not None:
                seat = None if token is None else self.room.seat_by_token(token)
                if seat is None or seat.player != player:
                    raise ProtocolError("wrong_token")
            if who == HOST and player != self.room.host:
                raise ProtocolError("not_host")
        return await HANDLERS[type(m)](self, m, player)

    async def run(self) -> None:
        """Serve the connection until the client leaves (or floods, or its token is retired)."""
        ws = self.ws
        try:
            while True:
                try:  # a deadline on this task (no task and future of its own, as wait_for made)
                    async with asyncio.timeout(IDLE_SECONDS):
                        msg = await ws.receive()
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
                        await self.reply(ProtocolError("too_fast").message())
                    if refused >= FLOOD_CLOSE:
                        if self.listener is not None:
                            self.listener.close()
                        else:
                            await ws.close(1008)
                        return
                    continue
                if msg.get("text") is None:  # a binary frame: refused, never parsed
                    await self.reply(ProtocolError("binary_frame").message())
                    continue
                raw: str = msg["text"]
                answer: ServerMessage | None
                try:
                    answer = await self.handle(parse(raw))
                except ProtocolError as exc:
                    answer = exc.message()
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


__all__ = ["DEFAULT_RATE", "HANDLERS", "IDLE_CLOSE", "IDLE_SECONDS", "Connection"]
