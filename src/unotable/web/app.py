"""The Starlette app: the page, the room API over HTTP, and play over a WebSocket (docs/web.md).

HTTP (JSON in and out, bodies of at most :data:`MAX_BODY` bytes):

- ``GET /api/options``: editions, modes, bots (and the bots by strength, with their measured
  figures: ``bot_levels``) and bounds, for the page's form.
- ``POST /api/rooms``: a new room from its settings (:mod:`~unotable.web.settings`); its code.
- ``GET /api/rooms?open=1``: the listed rooms waiting for players.
- ``POST /api/play-now`` ``{"name": ...}``: a room with you and three greedy bots, and your seat.
- ``GET /api/rooms/{code}``: the room as everyone sees it.
- ``POST /api/rooms/{code}/join`` ``{"name": ..., "player": optional, "color": optional}``: a
  seat's token.
- ``POST /api/rooms/{code}/rejoin`` ``{"secret": ...}`` or ``{"code": ...}``: a seat taken back
  with a new token.
- ``GET /api/rooms/{code}/games/{number}?from=&count=``: a finished game, step by step
  (public), a page of steps at a time.

``/ws/{code}``: the WebSocket of a room (:mod:`~unotable.web.connection`). A refused request's
:class:`~unotable.web.protocol.ProtocolError` becomes its JSON error in one handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import mimetypes
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final, Literal

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from unotable import house
from unotable.bots import BOT_NAMES
from unotable.bots.levels import levels_json
from unotable.cards import CARD_CODE
from unotable.events import Event
from unotable.match import GAME_PLAYERS, Game
from unotable.rules import EDITIONS, HOUSE_PRESETS, MAX_PLAYERS, MIN_PLAYERS, MODES, TEAM_SIZES, Rules
from unotable.ruletext import EDITION_NOTES
from unotable.web.cluster import (
    COOKIE_NAME,
    LEASE_SECONDS,
    NODE_COOKIE,
    NODE_COOKIE_SECONDS,
    RECONNECT,
    RENEW_SECONDS,
    UNREACHABLE,
    Cluster,
    RoomElsewhereError,
)
from unotable.web.collector import Collector
from unotable.web.connection import DEFAULT_RATE, Connection
from unotable.web.fanout import events_for, view_for
from unotable.web.gamelog import replay, score_rows
from unotable.web.guard import Guard, Limits
from unotable.web.hub import Hub, Lifecycle, address_key
from unotable.web.lang import LanguageMiddleware, words_route
from unotable.web.metrics import CONTENT_TYPE, Metrics
from unotable.web.pacing import Pacer
from unotable.web.protocol import MAX_MESSAGE, ProtocolError, RateLimit, dumps
from unotable.web.records import StoredGame
from unotable.web.relay import NodeAuth, Relay, relayed
from unotable.web.room import Room, new_seed
from unotable.web.seats import PALETTE, clean_color, clean_name, stints_of
from unotable.web.settings import (
    AUTO_ACCEPT_RANGE,
    BOT_DELAY_RANGE,
    BOT_OPTIONS,
    DEFAULT_AWAY_BOT,
    DEFAULT_BOT_DELAY,
    GRACE_RANGE,
    MORE_TIME_RANGE,
    ROUNDS_RANGE,
    TARGET_RANGE,
    TURN_SECONDS_RANGE,
    SettingsError,
    parse_settings,
)
from unotable.web.shell import asset_version, manifest_route, page_route, worker_route
from unotable.web.social import MAX_CHAT, REACTIONS
from unotable.web.storage import Store

log = logging.getLogger("unotable.web")

STATIC: Final = Path(__file__).with_name("static")
# The page is ES modules (static/js/): a browser runs a module script only if served with a
# JavaScript type, and under ``nosniff`` no other. Said here, not left to the host's MIME table
# (Windows' registry may say text/plain).
mimetypes.add_type("text/javascript", ".js")
MAX_BODY: Final = 8 * 1024
"""Bytes in an HTTP request body at most."""
WAIT_SECONDS: Final = 0.5
"""How often, about, a node waiting for a room's lease to run out asks again (jittered)."""
REPLAY_PAGE: Final = 200
"""Steps of a replay sent at most in one answer (``count``'s default and ceiling)."""
STATUS: Final[dict[str, int]] = {
    "bad_rejoin": 403,
    "too_many_rooms": 429,
    "server_full": 503,
    "replays_busy": 503,
    "too_many_seats": 429,
    "no_room": 404,
    "no_game": 404,
    "room_full": 409,
    "seat_taken": 409,
    "too_big": 413,
    "too_fast": 429,
    "storage": 503,
}
"""HTTP status by error code (400 otherwise)."""


async def protocol_error(request: Request, exc: Exception) -> Response:
    """The one handler of a refused request: its JSON error and status."""
    assert isinstance(exc, ProtocolError)
    return JSONResponse({"error": exc.code, "message": exc.text}, status_code=STATUS.get(exc.code, 400))


async def elsewhere(request: Request, exc: Exception) -> Response:
    """A room another node owns: the same request to it (:class:`~unotable.web.relay.Relay`);
    a request relayed already, or one for a silent owner (frozen, lost: its lease runs out
    soon), is refused instead (``storage``, 503: the client asks again)."""
    assert isinstance(exc, RoomElsewhereError)
    relay: Relay | None = request.app.state.relay
    if relay is None or relayed(request) or not exc.url or exc.silent:
        err = ProtocolError("storage")
        return JSONResponse({"error": err.code, "message": err.text}, status_code=503)
    return await relay.http(request, exc.url)


async def _json_body(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ProtocolError("too_big", size=length, limit=MAX_BODY)
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise ProtocolError("too_big", size=f"over {len(body)}", limit=MAX_BODY)
    except ClientDisconnect:  # the client left mid-body: nobody to answer, nothing to log
        raise ProtocolError("bad_json") from None
    request._body = body  # kept: a room placed on another node relays the request, body and all
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json") from None


async def _object(request: Request, keys: set[str], shape: str) -> dict[str, Any]:
    """The request's JSON body: an object of (some of) ``keys``; ``bad_request`` otherwise."""
    data = await _json_body(request)
    if not isinstance(data, dict) or set(data) - keys:
        raise ProtocolError("bad_request", detail=f"send {shape}")
    return data


def _limit(conn: HTTPConnection, limits: dict[str, RateLimit], rate: float, burst: float) -> RateLimit | None:
    """The client's token bucket in ``limits``, at this node's share of the service's ``rate``
    and ``burst``; None for a request another node relayed (that node counted it).

    Each request is counted once, by the node the client reached, and each of the service's
    live nodes allows a client ``1 / nodes`` of the flags' rate and burst: however a load
    balancer spreads a client's requests, the service as a whole lets through no more than the
    flags say (P-462). One node alone allows all of it."""
    if relayed(conn):
        return None
    cluster: Cluster | None = conn.app.state.cluster
    share = 1.0 / cluster.live_nodes if cluster is not None else 1.0
    host = conn.client.host if conn.client else ""
    limit = limits.get(host)
    if limit is None:
        if len(limits) >= 10_000:
            limits.clear()
        limit = limits[host] = RateLimit(rate * share, burst * share)
    else:  # the service grew or shrank since: the bucket follows the new share
        limit.rate, limit.burst = rate * share, burst * share
        limit.tokens = min(limit.tokens, limit.burst)
    return limit


def _check_rate(request: Request) -> None:
    """Refuse a client (by address) that sends requests that change things too fast (P-190)."""
    rate: float = request.app.state.rate
    limit = _limit(request, request.app.state.http_limits, rate, 3 * rate)
    if limit is not None and not limit.allow():
        raise ProtocolError("too_fast")


class ClientFaultFilter(logging.Filter):
    """Makes uvicorn's report of a client's broken input (a WebSocket text frame that is not
    UTF-8) one warning line, without the traceback it comes with: the server is not at fault."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, UnicodeDecodeError) and "from client" in record.getMessage():
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_client_faults() -> None:
    """Install :class:`ClientFaultFilter` on uvicorn's error log (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFaultFilter) for f in logger.filters):
        logger.addFilter(ClientFaultFilter())


def _address(conn: HTTPConnection) -> str:
    """The client's address (the proxy's ``X-Forwarded-For`` if trusted: ``--forwarded-allow-ips``)."""
    return conn.client.host if conn.client else ""


def _check_lookup(conn: HTTPConnection) -> None:
    """Refuse a client (by address) that looks up rooms or replays too fast (guessing codes)."""
    rate = _hub(conn).lifecycle.lookups_per_second
    if not rate:
        return
    limit = _limit(conn, conn.app.state.lookup_limits, rate, 4 * rate)
    if limit is not None and not limit.allow():
        raise ProtocolError("too_fast")


async def _check_seats(request: Request) -> str:
    """The hash of the client's address, once it is known to hold fewer seats than its quota
    (:attr:`~unotable.web.hub.Lifecycle.seats_per_address`) in games that go on."""
    hub = _hub(request)
    key = address_key(_address(request))
    limit = hub.lifecycle.seats_per_address
    if limit:
        try:
            held = await asyncio.to_thread(hub.store.seats_of, key)
        except Exception:
            log.exception("could not count an address's seats")
            raise ProtocolError("storage") from None
        if held >= limit:
            raise ProtocolError("too_many_seats", limit=limit)
    return key


def _hub(request: HTTPConnection) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def base_url(conn: HTTPConnection) -> str:
    """The address rejoin links and their QR codes point to: the server's ``--public-url``, else
    the page's address as the person opened it (``http://host:port``), unless that is this
    machine's own name (localhost) and the server knows its network address (``lan_url``)."""
    public: str | None = conn.app.state.public_url
    if public:
        return public.rstrip("/")
    lan: str | None = conn.app.state.lan_url
    if lan and (conn.url.hostname or "") in ("localhost", "127.0.0.1", "::1"):
        return lan.rstrip("/")
    scheme = {"ws": "http", "wss": "https"}.get(conn.url.scheme, conn.url.scheme)
    host = conn.headers.get("host") or conn.url.netloc
    return f"{scheme}://{host}"


async def _room(request: Request) -> Room:
    _check_lookup(request)
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


async def options(request: Request) -> Response:
    """What the page's form offers."""
    return JSONResponse(
        {
            "editions": {name: e.title for name, e in EDITIONS.items()},
            "edition_notes": {name: list(EDITION_NOTES.get(name, ())) for name in EDITIONS},
            "modes": list(MODES),
            "team_sizes": {k: list(v) for k, v in TEAM_SIZES.items()},
            "game_players": GAME_PLAYERS,
            "players": [MIN_PLAYERS, MAX_PLAYERS],
            "bots": list(BOT_NAMES),
            "bot_levels": levels_json(),
            "bot_options": {k: list(v[:2]) for k, v in BOT_OPTIONS.items()},
            "target": list(TARGET_RANGE),
            "rounds": list(ROUNDS_RANGE),
            "turn_seconds": list(TURN_SECONDS_RANGE),
            "bot_delay": [*BOT_DELAY_RANGE, DEFAULT_BOT_DELAY],
            "house": list(HOUSE_PRESETS),
            "house_presets": HOUSE_PRESETS,
            "room": {
                "grace_seconds": list(GRACE_RANGE),
                "auto_accept_seconds": list(AUTO_ACCEPT_RANGE),
                "more_time_seconds": list(MORE_TIME_RANGE),
                "away_bot": DEFAULT_AWAY_BOT,
            },
            "reactions": list(REACTIONS),
            "chat_max": MAX_CHAT,
            "colors": list(PALETTE),
            "house_rules": house.to_json(),
            "house_preset_labels": dict(house.PRESET_LABELS),
        }
    )


async def healthz(request: Request) -> Response:
    """``GET /healthz``: the process answers."""
    return JSONResponse({"status": "ok"})


def _check_probe(conn: HTTPConnection) -> None:
    """Refuse a client (by address) that asks ``/readyz`` or ``/metrics`` too often
    (:attr:`~unotable.web.hub.Lifecycle.probes_per_second`, ten times that at once). Each node
    counts its own: a load balancer or Prometheus asks each node by itself."""
    state = conn.app.state
    rate: float = state.probes_per_second
    if not rate:
        return
    limits: dict[str, RateLimit] = state.probe_limits
    host = conn.client.host if conn.client else ""
    limit = limits.get(host)
    if limit is None:
        if len(limits) >= 10_000:
            limits.clear()
        limit = limits[host] = RateLimit(rate, 10 * rate)
    if not limit.allow():
        raise ProtocolError("too_fast")


async def readyz(request: Request) -> Response:
    """``GET /readyz``: the server has started and its database answers (else 503); the
    database is asked at most once a second, once for every request meanwhile
    (:attr:`Hub.ready <unotable.web.hub.Hub.ready>`)."""
    _check_probe(request)
    hub: Hub | None = getattr(request.app.state, "hub", None)
    if hub is None:
        return JSONResponse({"status": "starting"}, status_code=503)
    if not await hub.ready.get():
        return JSONResponse({"status": "database unavailable"}, status_code=503)
    return JSONResponse({"status": "ready"})


async def metrics_page(request: Request) -> Response:
    """``GET /metrics``: Prometheus' text format."""
    _check_probe(request)
    metrics: Metrics = request.app.state.metrics
    return Response(metrics.render(), media_type=CONTENT_TYPE)


def _owned_here(request: Request, response: Response) -> Response:
    """``response`` (about a room this node holds) with the :data:`NODE_COOKIE` naming this node,
    in a service of several: the documented nginx site then sends the room's WebSockets here."""
    cluster: Cluster | None = request.app.state.cluster
    if cluster is not None and COOKIE_NAME.fullmatch(cluster.name):
        secure = request.url.scheme == "https"
        response.set_cookie(
            NODE_COOKIE,
            cluster.name,
            max_age=NODE_COOKIE_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=secure,
        )
    return response


async def create_room(request: Request) -> Response:
    """``POST /api/rooms``."""
    _check_rate(request)
    data = await _json_body(request)
    try:
        settings = parse_settings(data)
    except SettingsError as exc:
        raise ProtocolError("bad_settings", detail=str(exc)) from None
    room = await _hub(request).create(settings, _address(request), place=not relayed(request))
    return _owned_here(request, JSONResponse({"code": room.code, "url": f"/r/{room.code}"}, status_code=201))


async def open_rooms(request: Request) -> Response:
    """``GET /api/rooms?open=1``: the listed rooms waiting for players."""
    return JSONResponse({"rooms": await _hub(request).open_rooms()})


async def play_now(request: Request) -> Response:
    """``POST /api/play-now``: a room with the person and three greedy bots, and their seat."""
    _check_rate(request)
    data = await _object(
        request, {"name", "color", "edition"}, "{name, color (optional), edition (optional)}"
    )
    edition = data.get("edition", "classic")
    try:
        settings = parse_settings({"edition": edition, "seats": ["human", "greedy", "greedy", "greedy"]})
    except SettingsError as exc:
        raise ProtocolError("bad_settings", detail=str(exc)) from None
    name = clean_name(data.get("name"))
    clean_color(data.get("color"), name)  # refused before the room is made
    key = await _check_seats(request)
    room = await _hub(request).create(settings, _address(request), place=not relayed(request))
    token, player = await room.join(name, 0, data.get("color"), key)
    body = {"code": room.code, "url": f"/r/{room.code}", "token": token, "player": player}
    return _owned_here(request, JSONResponse(body, status_code=201))


async def get_room(request: Request) -> Response:
    """``GET /api/rooms/{code}``."""
    return _owned_here(request, JSONResponse(await room_info(await _room(request))))


async def join_room(request: Request) -> Response:
    """``POST /api/rooms/{code}/join``."""
    _check_rate(request)
    room = await _room(request)
    data = await _object(request, {"name", "player", "color"}, "{name, player (optional), color (optional)}")
    player = data.get("player")
    if player is not None and (
        isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(room.seats)
    ):
        raise ProtocolError("bad_player", last=len(room.seats) - 1)
    key = await _check_seats(request)
    token, seat = await room.join(data.get("name"), player, data.get("color"), key)
    return _owned_here(request, JSONResponse({"token": token, "player": seat, "code": room.code}))


async def rejoin_room(request: Request) -> Response:
    """``POST /api/rooms/{code}/rejoin``."""
    _check_rate(request)
    room = await _room(request)
    data = await _object(request, {"secret", "code"}, "{secret} or {code}")
    secret, code = data.get("secret"), data.get("code")
    if (secret is None) == (code is None) or not all(
        v is None or (isinstance(v, str) and 0 < len(v) <= 64) for v in (secret, code)
    ):
        raise ProtocolError("bad_request", detail="send {secret} or {code}")
    token, player = await room.rejoin(secret, code)
    return _owned_here(request, JSONResponse({"token": token, "player": player, "code": room.code}))


def game_steps(
    room: Room, number: int, apart: Callable[..., list[dict[str, Any]]] | None = None
) -> list[dict[str, Any]] | None:
    """Game ``number`` of ``room``, finished, step by step as a spectator saw it, with every hand
    face up (the game is over, P-186) and the scores; ``None`` if there is no such finished game.
    ``apart(replay_steps, rules, stored)`` runs the replay elsewhere (a worker process:
    :meth:`Hub.apart <unotable.web.hub.Hub.apart>`); here otherwise."""
    stored = room.store.load_game(room.code, number)
    if stored is None or not stored.finished:
        return None
    if apart is not None:
        return apart(replay_steps, room.settings.rules, stored)
    return replay_steps(room.settings.rules, stored)


def replay_steps(rules: Rules, stored: StoredGame) -> list[dict[str, Any]]:
    """The steps of the finished game ``stored`` under ``rules`` (see :func:`game_steps`)."""
    steps: list[dict[str, Any]] = []

    def step(game: Game, seat: str | None, action: str | None, events: list[Event]) -> None:
        steps.append(
            {
                "hand": game.hand_index,
                "seat": seat,
                "action": action,
                "seating": list(game.deal.seating),
                "events": events_for(game, None, events),
                "view": view_for(game, None),
                "standings": game.standings().to_dict(),
                "hands": [[CARD_CODE[c] for c in hand] for hand in game.state.hands],
                "score_rows": score_rows(game),
            }
        )

    replay(rules, stored, step)
    return steps


def replay_stints(room: Room, player: int, number: int) -> list[dict[str, Any]]:
    """Who sat in ``player``'s seat during game ``number``: ``{"name", "bot", "step"}`` each,
    from the replay's step ``step`` on (P-580): whoever sat down when the log had ``n`` rows
    plays row ``n``, the replay's step ``n + 1``. Empty for a room stored before seats had a
    history (the page then names whoever sits there now)."""
    return [
        {"name": name, "bot": bot, "step": seq + 1 if seq else 0}
        for seq, name, bot in stints_of(room.occupants, player, number)
    ]


def _whole(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isdigit() or len(text) > 7:
        raise ProtocolError("bad_request", detail=f"{name} is a whole number")
    return int(text)


async def game_replay(request: Request) -> Response:
    """``GET /api/rooms/{code}/games/{number}?from=&count=``: steps ``from`` (0) to ``from +
    count`` (at most :data:`REPLAY_PAGE`) of a finished game, and ``next`` (where the next page
    starts, ``null`` after the last); computed once per game and kept (:meth:`Hub.replay`), each
    page kept as sent (and gzipped) so that a page fetched again costs nothing to make."""
    room = await _room(request)
    text = request.path_params["number"]
    start = _whole(request, "from", 0)
    count = min(_whole(request, "count", REPLAY_PAGE), REPLAY_PAGE)
    if count < 1:
        raise ProtocolError("bad_request", detail=f"count is 1 to {REPLAY_PAGE}")
    number = int(text) if text.isdigit() and len(text) < 6 else -1
    hub = _hub(request)
    players = [
        {"player": s.player, "name": s.name, "bot": s.bot, "sat": replay_stints(room, s.player, number)}
        for s in room.seats
    ]
    gzipped = "gzip" in request.headers.get("accept-encoding", "").lower()
    key = (room.code, number, start, count, json.dumps(players), gzipped)
    body = hub.replay_pages.get(key)
    if body is None:
        steps = None
        if number >= 0:
            steps = await hub.replay(room, number, lambda: game_steps(room, number, hub.apart))
        if steps is None:
            raise ProtocolError("no_game", number=text, room=room.code)
        end = min(start + count, len(steps))
        page = {
            "code": room.code,
            "number": number,
            "players": players,
            "total": len(steps),
            "from": start,
            "steps": steps[start:end],
            "next": end if end < len(steps) else None,
        }
        body = json.dumps(page, ensure_ascii=False, separators=(",", ":")).encode()  # as JSONResponse
        if gzipped:
            body = gzip.compress(body, 6)
        body = hub.replay_pages.put(key, body)
    headers = {"vary": "Accept-Encoding"}
    if gzipped:  # already compressed: the gzip middleware lets it through as it is
        headers["content-encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


async def _room_or_relay(ws: WebSocket, code: str) -> Room | Literal[False] | None:
    """Room ``code`` for the (accepted) WebSocket ``ws``: the live room if this node holds it
    (taking its lease if need be), ``None`` if there is no such room, ``False`` once the socket
    was relayed to the owner (or closed). An owner that does not answer (frozen, lost), one whose
    heartbeat is silent (not tried: :data:`~unotable.web.cluster.SILENT_SECONDS`), or a room
    nobody holds (its owner is handing it over) is waited for here, until its lease runs out and
    this node takes the room: the client plays again as soon as it can, without a round trip."""
    relay: Relay | None = ws.app.state.relay
    dead: set[str] = set()
    deadline = time.monotonic() + LEASE_SECONDS + RENEW_SECONDS
    while True:
        try:
            return await _hub(ws).get(code)
        except RoomElsewhereError as exc:
            if relay is None or relayed(ws) or _hub(ws).stopping:  # the client asks another node
                await ws.close(RECONNECT if _hub(ws).stopping else UNREACHABLE)
                return False
            if exc.url and exc.url not in dead and not exc.silent:  # a silent owner: wait for its lease
                if await relay.socket(ws, exc.url, code):
                    return False
                dead.add(exc.url)
            if time.monotonic() > deadline:
                await ws.close(UNREACHABLE)
                return False
            await asyncio.sleep(WAIT_SECONDS * (0.5 + random.random()))


async def room_socket(ws: WebSocket) -> None:
    """``/ws/{code}``."""
    await ws.accept()
    code = ws.path_params["code"]
    try:
        _check_lookup(ws)
    except ProtocolError as exc:
        await ws.send_text(dumps(exc.message()))
        await ws.close(1008)
        return
    room = await _room_or_relay(ws, code)
    if room is False:
        return
    if room is None:
        await ws.send_text(dumps(ProtocolError("no_room", room=code).message()))
        await ws.close(4404)
        return
    await Connection(ws, room, ws.app.state.rate, base_url(ws)).run()


def create_app(
    database_url: str,
    *,
    seeds: Callable[[], int] | None = None,
    rate: float = DEFAULT_RATE,
    public_url: str | None = None,
    lan_url: str | None = None,
    limits: Limits | None = None,
    origins: tuple[str, ...] = (),
    durability: str = "full",
    lifecycle: Lifecycle | None = None,
    node: str | None = None,
    advertise: str | None = None,
    collect: bool = False,
    pacer: Pacer | None = None,
) -> Starlette:
    """The app over the database at ``database_url`` (migrated on start; games resumed).

    :param seeds: where new games' seeds come from (default: 128 bits from :mod:`secrets`);
        the tests give fixed ones to deal known hands.
    :param rate: messages a second one connection may send (three times that at once).
    :param public_url: the address rejoin links use (default: the one each page was opened at).
    :param lan_url: the machine's network address, for pages opened at localhost.
    :param limits: the connection limits (:class:`~unotable.web.guard.Limits`' defaults).
    :param origins: the origins allowed besides the server's own (:class:`~unotable.web.guard.Guard`).
    :param durability: ``"full"`` or ``"normal"`` (:data:`~unotable.web.storage.DURABILITY`).
    :param lifecycle: how long rooms live and the quotas per address
        (:class:`~unotable.web.hub.Lifecycle`'s defaults).
    :param node: this node's name in a service of several on one PostgreSQL database, with
        ``advertise`` (where the other nodes reach it): :mod:`~unotable.web.cluster`. Without
        them, the one server alone.
    :param collect: run the process's garbage collection for a server holding many rooms
        (:class:`~unotable.web.collector.Collector`; a policy of the whole process, so `uno
        serve`, which owns its process, asks for it, and an app embedded elsewhere does not).
    :param pacer: what lets new connections in at the loop's pace, if the server's protocols
        use one (:mod:`~unotable.web.pacing`): its figures go to ``/metrics``.
    """

    metrics = Metrics()
    quiet_client_faults()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(database_url, durability)
        store.observe = metrics.database_seconds.observe
        store.migrate()
        cluster = relay = None
        if node is not None and advertise is not None:
            cluster = Cluster(store, node, advertise)
            cluster.start()
            relay = Relay(cluster)
        # Nothing is loaded before the server answers: each room is loaded on its first visit
        # (Hub.get), and the rooms live before a restart in the background just after the start
        # (Hub.warm_up), so that a reconnect storm finds them loaded.
        hub = Hub(store, seeds or new_seed, lifecycle, cluster)
        if cluster is not None:
            loop = asyncio.get_running_loop()

            drops: set[asyncio.Task[None]] = set()

            def lost(code: str) -> None:
                task = loop.create_task(hub.drop(code))
                drops.add(task)
                task.add_done_callback(drops.discard)

            cluster.on_lost = lost
            cluster.on_renewed = hub.rebalance
            metrics.watch_cluster(
                rooms_owned=lambda: len(cluster.owned),
                relayed_sockets=lambda: relay.sockets if relay else 0,
                relayed_requests=lambda: relay.requests if relay else 0,
                takeovers=lambda: cluster.takeovers,
                lost=lambda: cluster.lost_rooms,
                live_nodes=lambda: cluster.live_nodes,
            )
        app.state.cluster = cluster
        app.state.relay = relay
        # SIGTERM: `uno serve` hands every room over before uvicorn drains the connections.
        app.state.hand_over = hub.hand_over if cluster is not None else None
        hub.start_sweeping()
        hub.start_warming()
        app.state.hub = hub
        collector = Collector() if collect else None  # pauses short however many rooms are held
        if collector is not None:
            collector.start()
        app.state.collector = collector
        metrics.watch(
            rooms_live=lambda: len(hub.rooms),
            rooms_playing=lambda: sum(1 for r in hub.rooms.values() if r.started and not r.game.finished),
            rooms_paused=lambda: hub.paused,
        )
        app.state.rate = rate
        app.state.public_url = public_url
        app.state.lan_url = lan_url
        app.state.http_limits = {}
        app.state.lookup_limits = {}
        try:
            yield
        finally:
            if collector is not None:
                await collector.stop()
            if cluster is not None:  # hand the rooms over: stop them, then give their leases back
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(cluster.mark_stopping)
            await hub.close()
            if cluster is not None:
                await cluster.stop()
            if relay is not None:
                await relay.close()
            store.close()

    routes = [
        Route("/", page_route),
        Route("/r/{code}", page_route),
        Route("/r/{code}/replay/{number}", page_route),
        Route("/manifest.webmanifest", manifest_route),
        Route("/sw.js", worker_route),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_page),
        Route("/api/options", options),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", open_rooms, methods=["GET"]),
        Route("/api/play-now", play_now, methods=["POST"]),
        Route("/api/rooms/{code}", get_room),
        Route("/api/rooms/{code}/join", join_room, methods=["POST"]),
        Route("/api/rooms/{code}/rejoin", rejoin_room, methods=["POST"]),
        Route("/api/rooms/{code}/games/{number}", game_replay),
        WebSocketRoute("/ws/{code}", room_socket),
        Route("/api/words/{lang}", words_route),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # The language first, so that the guard's refusals are in the request's language too.
    guard = Middleware(Guard, limits=limits or Limits(), origins=origins, metrics=metrics)
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(NodeAuth),
            Middleware(LanguageMiddleware),
            guard,
            Middleware(GZipMiddleware, minimum_size=1024),
        ],
        exception_handlers={ProtocolError: protocol_error, RoomElsewhereError: elsewhere},
    )
    app.state.metrics = metrics
    app.state.asset_version = asset_version()
    app.state.cluster = app.state.relay = app.state.hand_over = None
    app.state.probes_per_second = (lifecycle or Lifecycle()).probes_per_second
    app.state.probe_limits = {}

    def of_hub(read: Callable[[Hub], float]) -> Callable[[], float]:
        def figure() -> float:
            hub: Hub | None = getattr(app.state, "hub", None)
            return 0.0 if hub is None else float(read(hub))

        return figure

    metrics.watch_tenants(
        bot_decisions=of_hub(lambda h: h.thinker.decisions),
        bot_cpu_seconds=of_hub(lambda h: h.thinker.cpu_seconds),
        bot_deferred=of_hub(lambda h: h.thinker.deferred),
        bot_waiting=of_hub(lambda h: h.thinker.waiting),
        rooms_refused_full=of_hub(lambda h: h.refused_full),
        replay_steps=of_hub(lambda h: h.replay_steps),
    )
    if pacer is not None:
        paced = pacer
        metrics.watch_pacing(
            waiting=lambda: len(paced.waiting),
            entering=lambda: len(paced.entering),
            window=lambda: paced.window,
            waited=lambda: paced.waited,
            refused=lambda: paced.refused,
        )
    return app


__all__ = ["MAX_BODY", "MAX_MESSAGE", "create_app", "game_steps", "replay_steps", "room_info"]
