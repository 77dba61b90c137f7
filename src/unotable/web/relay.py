"""A node that does not own a room relays its clients to the owner (docs/web.md, "Several
nodes"): a room's WebSocket becomes a WebSocket to the owner's ``/ws/{code}``, frame for frame,
and a room's HTTP call the same call to the owner. So any node answers for any room, and a plain
load balancer in front (nginx round-robin) works.

A relayed request carries the service's secret (:data:`~unotable.web.cluster.NODE_HEADER`) and
the client's address, host and scheme; :class:`NodeAuth` on the owner believes them only with
the right secret, so the owner's guard, quotas and rejoin links see the real client. A relayed
request is never relayed again (the owner answers or refuses), so no request goes round.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any, Final

import httpx
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from unotable.web.cluster import CLIENT_HEADER, NODE_HEADER, RECONNECT, Cluster
from unotable.web.protocol import ProtocolError
from unotable.web.wsprotocol import welcomed

HOST_HEADER: Final = "x-unotable-host"
"""The ``Host`` the client asked the first node for (the owner's rejoin links use it)."""
SCHEME_HEADER: Final = "x-unotable-scheme"
"""The scheme the client used (``http``/``https``, ``ws``/``wss``)."""
RELAYED: Final = "unotable.relayed"
"""The scope key :class:`NodeAuth` sets on a request another node relayed."""
PASSED_HEADERS: Final = ("content-type", "accept-language", "user-agent")
"""The client's headers passed on to the owner (besides the relay's own)."""
OPEN_SECONDS: Final = 3.0
"""Time for the owner to accept a relayed WebSocket (or answer a relayed request: 10 s)."""
PING_SECONDS: Final = 5.0
"""A relayed WebSocket pings the owner this often and drops it when a ping goes unanswered as
long (a frozen owner): its client then reconnects."""
SENDABLE: Final = range(3000, 5000)
"""Close codes of the application's own, passed on as they are."""
PASSED_CODES: Final = (1000, 1008, 1011, 1012, 1013)
"""The standard close codes passed on as they are (others, and none, become RECONNECT)."""


def relayed(conn: HTTPConnection) -> bool:
    """Whether another node relayed this request (with the service's secret)."""
    return bool(conn.scope.get(RELAYED))


class NodeAuth:
    """ASGI middleware, outermost: a request relayed by another node with the service's secret
    is seen as the client's own (its address, host and scheme; no ``Origin`` check again: the
    first node made it). The relay's headers are removed from every request, believed or not."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = scope.get("headers", [])
            ours = {
                k.decode("latin-1"): bytes(v).decode("latin-1")
                for k, v in headers
                if k.startswith(b"x-unotable-")
            }
            if ours:
                rest = [(k, v) for k, v in headers if not k.startswith(b"x-unotable-")]
                cluster: Cluster | None = getattr(scope["app"].state, "cluster", None)
                token = ours.get(NODE_HEADER, "")
                if cluster is not None and cluster.secret and secrets.compare_digest(token, cluster.secret):
                    host = ours.get(HOST_HEADER)
                    rest = [(k, v) for k, v in rest if k not in (b"origin", b"host")]
                    if host:
                        rest.append((b"host", host.encode("latin-1")))
                    scope = dict(scope, headers=rest, client=(ours.get(CLIENT_HEADER, ""), 0))
                    scheme = ours.get(SCHEME_HEADER)
                    if scheme in ("http", "https", "ws", "wss"):
                        scope["scheme"] = scheme
                    scope[RELAYED] = True
                else:
                    scope = dict(scope, headers=rest)
        await self.app(scope, receive, send)


class Relay:
    """This node's relays to the rooms' owners."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.client = httpx.AsyncClient(timeout=10.0)
        self.sockets = 0
        """Relayed WebSockets open now."""
        self.requests = 0
        """HTTP requests relayed since the start."""

    async def close(self) -> None:
        """Close the HTTP client's connections."""
        await self.client.aclose()

    def _headers(self, conn: HTTPConnection) -> dict[str, str]:
        out = {
            NODE_HEADER: self.cluster.secret,
            CLIENT_HEADER: conn.client.host if conn.client else "",
            HOST_HEADER: conn.headers.get("host", ""),
            SCHEME_HEADER: conn.url.scheme,
        }
        for name in PASSED_HEADERS:
            value = conn.headers.get(name)
            if value is not None:
                out[name] = value
        return out

    async def http(self, request: Request, url: str) -> Response:
        """The owner's answer to ``request`` (relayed to ``url``), or ``storage`` (503) if it
        does not answer: the client asks again, and within a lease the room has a live owner."""
        body = await request.body()
        target = url + request.url.path + (f"?{request.url.query}" if request.url.query else "")
        self.requests += 1
        try:
            answer = await self.client.request(
                request.method, target, content=body, headers=self._headers(request)
            )
        except httpx.HTTPError:
            return _unreachable()
        out = Response(
            answer.content, status_code=answer.status_code, media_type=answer.headers.get("content-type")
        )
        for cookie in answer.headers.get_list("set-cookie"):  # the owner's NODE_COOKIE: route to it
            out.headers.append("set-cookie", cookie)
        return out

    async def socket(self, ws: WebSocket, url: str, code: str) -> bool:
        """Join the (accepted) client's WebSocket to room ``code``'s at the owner (``url``) until
        either side closes; the owner's close code reaches the client (:data:`RECONNECT` for an
        owner that died or dropped the room). False, the client's socket left open, if the owner
        does not answer within :data:`OPEN_SECONDS` (frozen, lost: its lease runs out soon)."""
        scheme = "wss" if url.startswith("https:") else "ws"
        target = f"{scheme}://{url.split('://', 1)[1]}/ws/{code}"
        if ws.url.query:
            target += f"?{ws.url.query}"
        try:
            upstream = await connect(
                target,
                additional_headers=self._headers(ws),
                open_timeout=OPEN_SECONDS,
                ping_interval=PING_SECONDS,
                ping_timeout=PING_SECONDS,
                max_size=64 * 1024 * 1024,
                compression=None,
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI):
            return False
        self.sockets += 1
        welcomed(ws.scope)  # the owner welcomes it: its place among those let in here is free
        try:
            await self._pump(ws, upstream)
        finally:
            self.sockets -= 1
        return True

    async def _pump(self, ws: WebSocket, upstream: ClientConnection) -> None:
        async def up() -> None:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                data: Any = message.get("text")
                if data is None:
                    data = message.get("bytes")
                if data is not None:
                    await upstream.send(data)

        async def down() -> None:
            async for data in upstream:
                if isinstance(data, str):
                    await ws.send_text(data)
                else:
                    await ws.send_bytes(data)

        tasks = [asyncio.create_task(up()), asyncio.create_task(down())]
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for task in done:
            with contextlib.suppress(ConnectionClosed, WebSocketDisconnect, RuntimeError, OSError):
                task.result()
        if tasks[1] in done:  # the owner closed: pass its code on
            code = upstream.close_code
            sent = code if code is not None and (code in SENDABLE or code in PASSED_CODES) else RECONNECT
            with contextlib.suppress(Exception):
                await ws.close(sent)
        with contextlib.suppress(Exception):
            await upstream.close()


def _unreachable() -> Response:
    err = ProtocolError("storage")
    body = {"error": err.code, "message": err.text}
    return JSONResponse(body, status_code=503, headers={"retry-after": "1"})


__all__ = ["HOST_HEADER", "RELAYED", "SCHEME_HEADER", "NodeAuth", "Relay", "relayed"]
