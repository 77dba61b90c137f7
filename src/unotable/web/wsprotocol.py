"""The WebSocket protocol uvicorn runs for the server: its own (``websockets``' sans-I/O), reading
paused only when a connection has :data:`BACKLOG` messages the app has not taken yet.

uvicorn's pauses reading the socket after every message received and resumes it when the app
takes it: two ``epoll_ctl`` calls and the selector's bookkeeping for every action of every
person, where the app takes each message at once (docs/performance.md, "2026-12-04,
afternoon"). A client that floods is still held back: past :data:`BACKLOG` messages waiting,
reading pauses as before (and the connection's rate limit refuses the flood,
web/connection.py).

Sending, it offers the app a way below Starlette: the scope's extension :data:`SEND_NOW` is a
plain function that writes one text message to the socket at once and says whether it could
(not while the peer is slow to read, nor once the socket closes). A room's connections send
through it when nothing of theirs is queued (web/fanout.py), without a task's wake-up and the
middleware's layers of ``send`` for each message.

It imports the standard library only (uvicorn and websockets inside :func:`websocket_protocol`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from unotable.web.pacing import Pacer

BACKLOG: Final = 8
"""Messages received and not yet taken by the app before reading the socket pauses."""
SEND_NOW: Final = "unotable.send_now"
"""The scope's extension (``scope["extensions"][SEND_NOW]``): a function that writes one text
message at once, True if it did (False: send it the ASGI way)."""

WELCOMED: Final = "unotable.welcomed"
"""The scope's extension (``scope["extensions"][WELCOMED]``): a function the app calls once the
connection is welcomed, which gives its place among those being let in to the next (web/pacing.py)."""

SendNow = Callable[[str], bool]


def send_now(scope: Mapping[str, Any]) -> SendNow | None:
    """The connection's direct send (:data:`SEND_NOW`), if its server offers one."""
    extensions = scope.get("extensions") or {}
    found: SendNow | None = extensions.get(SEND_NOW)
    return found


def welcomed(scope: Mapping[str, Any]) -> None:
    """Say the connection is welcomed (:data:`WELCOMED`), if its server asks to know."""
    extensions = scope.get("extensions") or {}
    done: Callable[[], None] | None = extensions.get(WELCOMED)
    if done is not None:
        done()


def websocket_protocol(pacer: Pacer | None = None) -> type[asyncio.Protocol]:
    """uvicorn's ``websockets-sansio`` protocol, pausing reading only past :data:`BACKLOG`; a
    connection keeps its place among those ``pacer`` lets in until the app welcomes it or it
    closes."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import (  # noqa: PLC0415 - the web extra
        WebSocketsSansIOProtocol,
    )
    from websockets.exceptions import InvalidState  # noqa: PLC0415 - the web extra
    from websockets.protocol import State  # noqa: PLC0415

    class BacklogWebSocket(WebSocketsSansIOProtocol):
        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the handshake was taken (the app's task starts later)
                scope["extensions"][SEND_NOW] = self.send_now
                if pacer is not None:
                    scope["extensions"][WELCOMED] = self.welcomed

        def welcomed(self) -> None:
            if pacer is not None:
                pacer.entered(self.transport)

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            self.welcomed()

        def send_now(self, text: str) -> bool:
            """Write ``text`` as one text frame at once; False if the socket is not open and
            accepted, or the peer is not reading (the transport's buffer is full)."""
            if (
                not self.handshake_complete
                or self.close_sent
                or self.disconnected
                or self.initial_response is not None
                or not self.writable.is_set()
                or self.conn.state is not State.OPEN
                or self.transport.is_closing()
            ):
                return False
            try:
                self.conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True

        def send_receive_event_to_app(self) -> None:
            if self.read_paused or self.queue.qsize() + 1 >= BACKLOG:
                super().send_receive_event_to_app()  # pauses reading (once) as uvicorn's does
                return
            self.read_paused = True  # says "paused already" to uvicorn's, which then does not pause
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = False

    return BacklogWebSocket


__all__ = ["BACKLOG", "SEND_NOW", "WELCOMED", "SendNow", "send_now", "websocket_protocol", "welcomed"]
