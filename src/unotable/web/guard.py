"""What stands between the internet and the app: browser hardening and connection limits.

:class:`Guard` is plain ASGI middleware around the Starlette app. It

- adds the hardening headers (:data:`SECURITY_HEADERS`: a Content-Security-Policy with no
  inline script, ``nosniff``, ``frame-ancestors 'none'``, no referrer) to every response;
- refuses a request that changes something (POST, PUT, PATCH, DELETE) unless its body is
  ``application/json`` and its ``Origin``, when a browser sends one, is the server's own or one
  of the configured origins: a cross-site form or ``text/plain`` POST makes nothing;
- refuses a WebSocket whose ``Origin`` is another site's (a page elsewhere cannot play for a
  visitor);
- caps the connections open at once, in all and per client address (HTTP requests in flight
  and WebSockets), with a clear refusal;
- gives a request's body :attr:`Limits.body_seconds` to arrive, and a WebSocket
  :attr:`Limits.hello_seconds` to send its first message.

:class:`HeaderTimeoutH11` is uvicorn's HTTP/1.1 protocol with a deadline on a request's
headers, which uvicorn does not have: a client that sends them a byte at a time (slowloris) is
cut off after :attr:`Limits.header_seconds`.

It imports the standard library only (uvicorn inside :func:`header_timeout_protocol`); the
refusals' sentences come from :mod:`unotable.web.words`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from unotable.web.pacing import Pacer
from unotable.web.words import error_text

if TYPE_CHECKING:
    from unotable.web.metrics import Metrics

access_log = logging.getLogger("unotable.web.access")
"""One JSON line per HTTP request and per WebSocket: time, client address, method, path (never
the query string, which may hold a rejoin secret), status, milliseconds."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)
"""Added to every HTTP response (and to a refused WebSocket's handshake answer)."""
CHANGING_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Limits:
    """The connection limits (``uno serve``'s flags; docs/web.md has the defaults' reasons)."""

    max_connections: int = 2000
    """HTTP requests in flight and WebSockets open at once, in all."""
    per_address: int = 40
    """The same, from one client address."""
    header_seconds: float = 10.0
    """Time for a request's headers to arrive (:class:`HeaderTimeoutH11`)."""
    body_seconds: float = 10.0
    """Time for a request's body to arrive, once its headers have."""
    hello_seconds: float = 10.0
    """Time for a WebSocket's first message, once it is open."""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class Guard:
    """ASGI middleware: hardening headers, origin and content-type checks, connection limits.

    :param origins: origins allowed besides the server's own (``https://uno.example.org``),
        for a deployment whose page is served under another name than the one the server sees.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        limits: Limits | None = None,
        origins: Iterable[str] = (),
        metrics: Metrics | None = None,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.limits = limits or Limits()
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)
        self.open: dict[str, int] = {}
        """Connections open now, by client address."""
        self.total = 0
        self.refused = 0
        """Connections refused by the limits since the start."""

    # ---- the checks

    def origin_ok(self, scope: Scope) -> bool:
        """Whether the request's ``Origin`` (if any) is the server's own or an allowed one."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True  # not a browser's cross-site request: programs and same-origin GETs
        origin = origin.rstrip("/").lower()
        if origin in self.origins:
            return True
        host = _header(scope, b"host")
        if host is None:
            return False
        host = host.lower()
        return origin in {f"http://{host}", f"https://{host}"}

    def _address(self, scope: Scope) -> str:
        client = scope.get("client")
        return str(client[0]) if client else ""

    def _admit(self, address: str) -> str | None:
        """Count a new connection from ``address``; the refusal's code if over a limit."""
        if self.total >= self.limits.max_connections:
            return self._count_refusal("server_busy")
        if self.open.get(address, 0) >= self.limits.per_address:
            return self._count_refusal("too_many_connections")
        self.total += 1
        self.open[address] = self.open.get(address, 0) + 1
        if self.metrics is not None:
            self.metrics.connections.inc()
        return None

    def _count_refusal(self, reason: str) -> str:
        self.refused += 1
        if self.metrics is not None:
            self.metrics.refused.labels(reason).inc()
        return reason

    def _release(self, address: str) -> None:
        self.total -= 1
        if self.metrics is not None:
            self.metrics.connections.dec()
        left = self.open[address] - 1
        if left:
            self.open[address] = left
        else:
            del self.open[address]

    # ---- ASGI

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address = self._address(scope)
        start = time.perf_counter()
        status = [0]

        async def send_noted(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            elif message["type"] == "websocket.accept":
                status[0] = 101
            elif message["type"] == "websocket.close" and not status[0]:
                status[0] = 403  # closed before the handshake was accepted
            await send(message)

        refusal = self._admit(address)
        try:
            if refusal is not None:
                code = 503 if refusal == "server_busy" else 429
                await (
                    self._refuse_http(send_noted, code, refusal)
                    if kind == "http"
                    else self._refuse_ws(send_noted)
                )
            else:
                try:
                    if kind == "http":
                        await self._http(scope, receive, send_noted)
                    else:
                        await self._websocket(scope, receive, send_noted)
                finally:
                    self._release(address)
        finally:
            self._log(scope, address, status[0], start)

    def _log(self, scope: Scope, address: str, status: int, start: float) -> None:
        method = scope.get("method", "WS")
        if self.metrics is not None and scope["type"] == "http":
            self.metrics.http_requests.labels(method, str(status)).inc()
        if access_log.isEnabledFor(logging.INFO):
            access_log.info(
                json.dumps(
                    {
                        "time": round(time.time(), 3),
                        "client": address,
                        "method": method,
                        "path": scope.get("path", ""),
                        "status": status,
                        "ms": round((time.perf_counter() - start) * 1000, 1),
                    }
                )
            )

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] in CHANGING_METHODS:
            if not self.origin_ok(scope) or _header(scope, b"sec-fetch-site") == "cross-site":
                await self._refuse_http(send, 403, self._count_refusal("bad_origin"))
                return
            media = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if media != "application/json":
                await self._refuse_http(send, 415, self._count_refusal("bad_content_type"))
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {bytes(k).lower() for k, _ in headers}
                headers.extend((k, v) for k, v in SECURITY_HEADERS if k not in present)
                message["headers"] = headers
            await send(message)

        deadline = asyncio.get_running_loop().time() + self.limits.body_seconds
        started = False
        body_done = False

        async def receive_in_time() -> Message:
            nonlocal body_done
            if body_done:
                return await receive()  # after the body: a wait for the client's disconnect
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.001))
            except TimeoutError:
                raise _BodyTimeoutError from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_done = True
            return message

        async def send_tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send_with_headers(message)

        try:
            await self.app(scope, receive_in_time, send_tracked)
        except _BodyTimeoutError:
            if not started:
                await self._refuse_http(send, 408, "slow_request")

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.origin_ok(scope):
            self._count_refusal("bad_origin")
            await self._refuse_ws(send)
            return
        accepted = False
        heard = False
        hello_seconds = self.limits.hello_seconds

        async def receive_hello_in_time() -> Message:
            nonlocal heard
            if not accepted or heard:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), hello_seconds)
            except TimeoutError:
                await send({"type": "websocket.close", "code": 1008, "reason": "no hello"})
                return {"type": "websocket.disconnect", "code": 1008}
            heard = True
            return message

        async def send_tracked(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept":
                accepted = True
            await send(message)

        await self.app(scope, receive_hello_in_time, send_tracked)

    async def _refuse_http(self, send: Send, status: int, code: str) -> None:
        body = json.dumps({"error": code, "message": error_text(code)}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *SECURITY_HEADERS,
        ]
        if status in (429, 503):
            headers.append((b"retry-after", b"10"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _refuse_ws(self, send: Send) -> None:
        # A close before the accept: the handshake is answered 403 and no socket opens.
        await send({"type": "websocket.close", "code": 1008})


class _BodyTimeoutError(Exception):
    """A request's body did not arrive in time."""


def header_timeout_protocol(seconds: float, pacer: Pacer) -> type[asyncio.Protocol]:
    """uvicorn's h11 HTTP protocol, closing a connection whose request headers take longer
    than ``seconds`` to arrive (uvicorn only times out idle keep-alive connections), and letting
    new connections in at the loop's pace (``pacer``, web/pacing.py; the WebSocket protocol of
    :func:`~unotable.web.wsprotocol.websocket_protocol` must share it, to give places back)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol  # noqa: PLC0415 - the web extra

    class HeaderTimeoutH11(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        paced: ClassVar[Pacer] = pacer

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self.cycle is None or self.cycle.response_complete:
                self.transport.close()  # headers still incomplete

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            try:
                now = self.paced.enter(transport, self._let_in)
            except OverflowError:
                transport.close()
                return
            if now:
                self._arm()
            else:  # nothing is read from it, and no time counts for its headers, until its turn
                transport.pause_reading()

        def _let_in(self) -> None:
            if self.transport.is_closing():  # the client gave up while it waited
                self.loop.call_soon(self.paced.entered, self.transport)
                return
            self.transport.resume_reading()
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # a whole request head arrived

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.paced.entered(self.transport)
            if not self.transport.is_closing():
                self._arm()  # the next request's headers get the same time

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)
            self.paced.entered(self.transport)

    HeaderTimeoutH11.__name__ = HeaderTimeoutH11.__qualname__ = "HeaderTimeoutH11"
    return HeaderTimeoutH11


__all__ = ["CSP", "SECURITY_HEADERS", "Guard", "Limits", "header_timeout_protocol"]
