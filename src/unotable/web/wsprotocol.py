"""The WebSocket protocol uvicorn runs for the server: its own (``websockets``' sans-I/O), reading
paused only when a connection has :data:`BACKLOG` messages the app has not taken yet.

uvicorn's pauses reading the socket after every message received and resumes it when the app
takes it: two ``epoll_ctl`` calls and the selector's bookkeeping for every action of every
person, where the app takes each message at once (docs/performance.md, "2026-12-04,
afternoon"). A client that floods is still held back: past :data:`BACKLOG` messages waiting,
reading pauses as before (and the connection's rate limit refuses the flood,
web/connection.py).

It imports the standard library only (uvicorn inside :func:`websocket_protocol`).
"""

from __future__ import annotations

import asyncio
from typing import Final

BACKLOG: Final = 8
"""Messages received and not yet taken by the app before reading the socket pauses."""


def websocket_protocol() -> type[asyncio.Protocol]:
    """uvicorn's ``websockets-sansio`` protocol, pausing reading only past :data:`BACKLOG`."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import (  # noqa: PLC0415 - the web extra
        WebSocketsSansIOProtocol,
    )

    class BacklogWebSocket(WebSocketsSansIOProtocol):
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


__all__ = ["BACKLOG", "websocket_protocol"]
