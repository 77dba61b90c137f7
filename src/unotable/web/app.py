"""The Starlette app: the page, the room API over HTTP, and play over a WebSocket (docs/web.md).

HTTP (JSON in and out, bodies of at most :data:`MAX_BODY` bytes):

- ``GET /api/options``: editions, modes, bots and bounds, for the page's form.
- ``POST /api/rooms``: a new room from its settings (:mod:`~unotable.web.settings`); its code.
- ``GET /api/rooms/{code}``: the room as everyone sees it.
- ``POST /api/rooms/{code}/join`` ``{"name": ..., "player": optional}``: a seat's token.
- ``GET /api/rooms/{code}/games/{number}``: a finished game, step by step (public).

``/ws/{code}``: the WebSocket of a room (:mod:`~unotable.web.protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from unotable import house
from unotable.bots import BOT_NAMES
from unotable.match import GAME_PLAYERS
from unotable.rules import EDITIONS, HOUSE_PRESETS, MAX_PLAYERS, MIN_PLAYERS, MODES, TEAM_SIZES
from unotable.web.lang import LanguageMiddleware, words_route
from unotable.web.protocol import MAX_MESSAGE, Message, ProtocolError, RateLimit, parse
from unotable.web.room import Hub, Listener, Room, replay
from unotable.web.settings import (
    BOT_DELAY_RANGE,
    BOT_OPTIONS,
    DEFAULT_BOT_DELAY,
    ROUNDS_RANGE,
    TARGET_RANGE,
    TURN_SECONDS_RANGE,
    SettingsError,
    parse_settings,
)
from unotable.web.storage import Store

log = logging.getLogger("unotable.web")

STATIC: Final = Path(__file__).with_name("static")
MAX_BODY: Final = 8 * 1024
"""Bytes in an HTTP request body at most."""
DEFAULT_RATE: Final = 10.0
"""Messages a second one connection may send, by default (a person clicks far fewer)."""
FLOOD_CLOSE: Final = 200
"""Messages refused in a row for coming too fast before the connection is closed."""
STATUS: Final[dict[str, int]] = {
    "no_room": 404,
    "no_game": 404,
    "room_full": 409,
    "seat_taken": 409,
    "too_big": 413,
    "too_fast": 429,
    "storage": 503,
}
"""HTTP status by error code (400 otherwise)."""


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": exc.code, "message": exc.text}, status_code=STATUS.get(exc.code, 400))


async def _json_body(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ProtocolError("too_big", size=length, limit=MAX_BODY)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ProtocolError("too_big", size=f"over {len(body)}", limit=MAX_BODY)
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json") from None


def _check_rate(request: Request) -> None:
    """Refuse a client (by address) that sends requests that change things too fast (P-190)."""
    limits: dict[str, RateLimit] = request.app.state.http_limits
    host = request.client.host if request.client else ""
    limit = limits.get(host)
    if limit is None:
        if len(limits) >= 10_000:
            limits.clear()
        rate: float = request.app.state.rate
        limit = limits[host] = RateLimit(rate, 3 * rate)
    if not limit.allow():
        raise ProtocolError("too_fast")


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _room(request: Request) -> Room:
    code = request.path_params["code"]
    room = await _hub(request).get(code)
    if room is None:
        raise ProtocolError("no_room", room=code)
    return room


async def room_info(room: Room) -> dict[str, Any]:
    """A room as everyone sees it (no token, no seed)."""
    info = room.table()
    info["finished_games"] = await asyncio.to_thread(room.store.finished_games, room.code)
    return info


async def page(request: Request) -> Response:
    """The page (one HTML file; its script reads the address)."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def options(request: Request) -> Response:
    """What the page's form offers."""
    return JSONResponse(
        {
            "editions": {name: e.title for name, e in EDITIONS.items()},
            "modes": list(MODES),
            "team_sizes": {k: list(v) for k, v in TEAM_SIZES.items()},
            "game_players": GAME_PLAYERS,
            "players": [MIN_PLAYERS, MAX_PLAYERS],
            "bots": list(BOT_NAMES),
            "bot_options": {k: list(v[:2]) for k, v in BOT_OPTIONS.items()},
            "target": list(TARGET_RANGE),
            "rounds": list(ROUNDS_RANGE),
            "turn_seconds": list(TURN_SECONDS_RANGE),
            "bot_delay": [*BOT_DELAY_RANGE, DEFAULT_BOT_DELAY],
            "house": list(HOUSE_PRESETS),
            "house_presets": HOUSE_PRESETS,
            "house_rules": house.to_json(),
            "house_preset_labels": dict(house.PRESET_LABELS),
        }
    )


async def create_room(request: Request) -> Response:
    """``POST /api/rooms``."""
    try:
        _check_rate(request)
        data = await _json_body(request)
        try:
            settings = parse_settings(data)
        except SettingsError as exc:
            raise ProtocolError("bad_settings", detail=str(exc)) from None
        room = await _hub(request).create(settings)
    except ProtocolError as exc:
        return _error(exc)
    return JSONResponse({"code": room.code, "url": f"/r/{room.code}"}, status_code=201)


async def get_room(request: Request) -> Response:
    """``GET /api/rooms/{code}``."""
    try:
        return JSONResponse(await room_info(await _room(request)))
    except ProtocolError as exc:
        return _error(exc)


async def join_room(request: Request) -> Response:
    """``POST /api/rooms/{code}/join``."""
    try:
        _check_rate(request)
        room = await _room(request)
        data = await _json_body(request)
        if not isinstance(data, dict) or set(data) - {"name", "player"}:
            raise ProtocolError("bad_request", detail="send {name, player (optional)}")
        player = data.get("player")
        if player is not None and (
            isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(room.seats)
        ):
            raise ProtocolError("seat_taken", player=player)
        token, seat = await room.join(data.get("name"), player)
    except ProtocolError as exc:
        return _error(exc)
    return JSONResponse({"token": token, "player": seat, "code": room.code})


async def game_replay(request: Request) -> Response:
    """``GET /api/rooms/{code}/games/{number}``."""
    try:
        room = await _room(request)
        text = request.path_params["number"]
        number = int(text) if text.isdigit() and len(text) < 6 else -1
        steps: list[dict[str, Any]] = []
        if number < 0 or not await asyncio.to_thread(replay, room.store, room, number, steps.append):
            raise ProtocolError("no_game", number=text, room=room.code)
    except ProtocolError as exc:
        return _error(exc)
    players = [{"player": s.player, "name": s.name, "bot": s.bot} for s in room.seats]
    return JSONResponse({"code": room.code, "number": number, "players": players, "steps": steps})


class Connection:
    """One WebSocket of a room: its rate limit, and once it has said hello, its listener."""

    def __init__(self, ws: WebSocket, room: Room, rate: float = DEFAULT_RATE) -> None:
        self.ws = ws
        self.room = room
        self.limit = RateLimit(rate, 3 * rate)
        self.listener: Listener | None = None
        self.writer: asyncio.Task[None] | None = None

    async def reply(self, message: dict[str, Any]) -> None:
        """Send one message to this client, after whatever is queued for it."""
        text = json.dumps(message)
        if self.listener is not None:
            self.listener.send(text)
        else:
            await self.ws.send_text(text)

    async def _write(self, listener: Listener) -> None:
        while True:
            text = await listener.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(1008 if listener.closed else 1000)
                return
            await self.ws.send_text(text)

    async def handle(self, m: Message) -> dict[str, Any] | None:
        """Act on one checked message; a direct answer, if any.

        :raises ProtocolError: for anything refused (nothing changes then).
        """
        room = self.room
        if m.type == "ping":
            return {"type": "pong"}
        if m.type == "hello":
            if self.listener is not None:
                raise ProtocolError("bad_message", detail="hello was already said")
            player = None
            if m.token is not None:
                seat = room.seat_by_token(m.token)
                if seat is None:
                    raise ProtocolError("bad_token")
                player = seat.player
            self.listener = Listener(player)
            self.writer = asyncio.get_running_loop().create_task(self._write(self.listener))
            room.welcome(self.listener)
            return None
        if self.listener is None:
            raise ProtocolError("hello_first")
        player = self.listener.player
        if player is None:
            raise ProtocolError("spectator")
        assert m.token is not None
        seat = room.seat_by_token(m.token)
        if seat is None or seat.player != player:
            raise ProtocolError("wrong_token")
        if m.type == "act":
            assert m.action is not None
            await room.act(player, m.action)
        elif m.type == "next_hand":
            await room.next_hand()
        elif m.type == "rematch":
            await room.rematch()
        elif m.type == "penalize":
            assert m.player is not None
            await room.penalize(player, m.player)
        return None

    async def run(self) -> None:
        """Serve the connection until the client leaves (or floods)."""
        ws = self.ws
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                if self.listener is not None and self.listener.closed:
                    return
                raw: str | bytes = msg.get("text") or msg.get("bytes") or b""
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
                try:
                    answer = await self.handle(parse(raw))
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


async def room_socket(ws: WebSocket) -> None:
    """``/ws/{code}``."""
    await ws.accept()
    code = ws.path_params["code"]
    room = await _hub(ws).get(code)
    if room is None:
        await ws.send_text(json.dumps(ProtocolError("no_room", room=code).to_dict()))
        await ws.close(4404)
        return
    await Connection(ws, room, ws.app.state.rate).run()


def create_app(
    database_url: str, *, seeds: Callable[[], int] | None = None, rate: float = DEFAULT_RATE
) -> Starlette:
    """The app over the database at ``database_url`` (migrated on start; games resumed).

    :param seeds: where new games' seeds come from (default: 128 bits from :mod:`secrets`);
        the tests give fixed ones to deal known hands.
    :param rate: messages a second one connection may send (three times that at once).
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(database_url)
        store.migrate()
        hub = Hub(store) if seeds is None else Hub(store, seeds)
        resumed = await hub.resume()
        hub.start_sweeping()
        if resumed:
            log.info("resumed %d game(s)", resumed)
        app.state.hub = hub
        app.state.rate = rate
        app.state.http_limits = {}
        try:
            yield
        finally:
            await hub.close()
            store.close()

    routes = [
        Route("/", page),
        Route("/r/{code}", page),
        Route("/r/{code}/replay/{number}", page),
        Route("/api/options", options),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", get_room),
        Route("/api/rooms/{code}/join", join_room, methods=["POST"]),
        Route("/api/rooms/{code}/games/{number}", game_replay),
        WebSocketRoute("/ws/{code}", room_socket),
        Route("/api/words/{lang}", words_route),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(LanguageMiddleware)])


__all__ = ["MAX_BODY", "MAX_MESSAGE", "create_app", "room_info"]
