"""``uno serve``: its flags, and the server they start (uvicorn running :func:`create_app`).

This module imports nothing of the ``web`` extra until the server starts, so ``uno --help``
works without it and ``uno serve`` can say how to install it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import ipaddress
import logging
import os
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Final

from unotable import argtypes
from unotable.i18n import N_, _
from unotable.web import words
from unotable.web.guard import Limits
from unotable.web.lifecycle import DAY, Lifecycle

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
WS_MAX_SIZE: Final = 16 * 1024
"""Bytes in one WebSocket frame at most (larger ones close the connection; the protocol's own
limit, with a clear error, is smaller)."""
if TYPE_CHECKING:
    import uvicorn

INSTALL_HINT: Final = N_(
    "uno serve needs the web extra: run `make setup`, or `pip install 'unotable[web]'` "
    "(from a clone: pip install -e '.[web]')"
)


def default_data_dir() -> Path:
    """Where the SQLite database lives by default: ``$XDG_DATA_HOME/unotable`` or
    ``~/.local/share/unotable`` (P-181)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "unotable"


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``uno serve``."""
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=_("address to listen on ({default})").format(default=DEFAULT_HOST),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=_("port to listen on ({default})").format(default=DEFAULT_PORT),
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help=_("database URL, e.g. postgresql://user@host/db (default: SQLite in the data folder)"),
    )
    parser.add_argument(
        "--node-name",
        metavar="NAME",
        default=None,
        help=_(
            "with a PostgreSQL database, this server's name among the servers that share it "
            "(default: the machine's name and the port)"
        ),
    )
    parser.add_argument(
        "--advertise",
        metavar="URL",
        default=None,
        help=_(
            "with a PostgreSQL database, the address the other servers reach this one at "
            "(default: http://HOST:PORT, with the machine's network address for --host 0.0.0.0)"
        ),
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=10.0,
        help=_("messages a second one connection may send, three times that at once (10)"),
    )
    parser.add_argument(
        "--durability",
        choices=("full", "normal"),
        default="full",
        help=_(
            "full: every acknowledged move is on the disk before the answer, and survives a "
            "power cut (the default); normal: faster commits that survive a killed server only"
        ),
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default="",
        help=_(
            "comma-separated addresses of proxies whose X-Forwarded-For and X-Forwarded-Proto "
            "are believed (default: none; behind nginx on the same machine: 127.0.0.1)"
        ),
    )
    parser.add_argument(
        "--allow-origin",
        metavar="URL",
        action="append",
        default=[],
        help=_(
            "an origin whose pages may use this server besides its own "
            "(e.g. https://uno.example.org); may be repeated"
        ),
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=Limits.max_connections,
        help=_("HTTP requests and WebSockets open at once, in all ({default})").format(
            default=Limits.max_connections
        ),
    )
    parser.add_argument(
        "--connections-per-address",
        type=int,
        default=Limits.per_address,
        help=_("the same from one client address ({default})").format(default=Limits.per_address),
    )
    parser.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=_(
            "one JSON line a request on standard error: time, client, method, path (no query "
            "string), status, milliseconds (on; --no-access-log turns it off)"
        ),
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=None,
        help=_("folder of the SQLite database ({default})").format(default=default_data_dir()),
    )
    life = Lifecycle()
    parser.add_argument(
        "--waiting-hours",
        type=argtypes.duration,
        metavar="H",
        default=life.waiting / 3600,
        help=_(
            "delete a room still waiting for players H hours after its last activity ({default:g})"
        ).format(default=life.waiting / 3600),
    )
    parser.add_argument(
        "--finished-days",
        type=argtypes.duration,
        metavar="D",
        default=life.finished / DAY,
        help=_(
            "keep a finished room (its replays) D days after its last activity, then delete it ({default:g})"
        ).format(default=life.finished / DAY),
    )
    parser.add_argument(
        "--idle-days",
        type=argtypes.duration,
        metavar="D",
        default=life.idle / DAY,
        help=_("close (delete) an unfinished game nobody has played for D days ({default:g})").format(
            default=life.idle / DAY
        ),
    )
    parser.add_argument(
        "--unload-minutes",
        type=argtypes.duration,
        metavar="M",
        default=life.unload / 60,
        help=_(
            "take a room nobody is connected to out of memory after M minutes; it stays stored "
            "({default:g}). A room nobody is connected to is paused at once."
        ).format(default=life.unload / 60),
    )
    parser.add_argument(
        "--rooms-per-address",
        type=argtypes.count,
        metavar="N",
        default=life.rooms_per_address,
        help=_("rooms whose game goes on one client address may make (0: no limit; {default})").format(
            default=life.rooms_per_address
        ),
    )
    parser.add_argument(
        "--seats-per-address",
        type=argtypes.count,
        metavar="N",
        default=life.seats_per_address,
        help=_("seats one client address may hold in games that go on (0: no limit; {default})").format(
            default=life.seats_per_address
        ),
    )
    parser.add_argument(
        "--lookups-per-second",
        type=argtypes.amount,
        metavar="N",
        default=life.lookups_per_second,
        help=_(
            "room and replay lookups one client address may make a second, four times that at once "
            "(0: no limit; {default:g})"
        ).format(default=life.lookups_per_second),
    )
    parser.add_argument(
        "--max-rooms",
        type=argtypes.count,
        metavar="N",
        default=life.max_rooms,
        help=_(
            "rooms whose game goes on the server holds at most, whoever made them (with --node, "
            "the service's); past it no room is made (0: no limit; {default})"
        ).format(default=life.max_rooms),
    )
    parser.add_argument(
        "--bot-workers",
        type=argtypes.positive,
        metavar="N",
        default=life.bot_workers,
        help=_(
            "processes in which the bots that think long (search, expert) decide, at a lower "
            "priority than the server (default here: {default}, one per core but one)"
        ).format(default=life.bot_workers),
    )
    parser.add_argument(
        "--bot-cpu-share",
        type=argtypes.amount,
        metavar="S",
        default=life.bot_cpu_share,
        help=_(
            "seconds of processor a room's bots may spend a second; a room past it has its bots' "
            "next decisions put off, never changed (0: no budget; {default:g})"
        ).format(default=life.bot_cpu_share),
    )
    parser.add_argument(
        "--probes-per-second",
        type=argtypes.amount,
        metavar="N",
        default=life.probes_per_second,
        help=_(
            "/readyz and /metrics requests one client address may make a second, ten times that "
            "at once (0: no limit; {default:g})"
        ).format(default=life.probes_per_second),
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        default=None,
        help=_(
            "the address friends open (e.g. https://uno.example.org), for the rejoin links and QR "
            "codes (default: the address each page was opened at, or with --host 0.0.0.0 the "
            "machine's network address when it was opened at localhost)"
        ),
    )


def lifecycle_of(args: argparse.Namespace) -> Lifecycle:
    """The rooms' lifecycle and quotas from ``uno serve``'s flags."""
    return Lifecycle(
        waiting=args.waiting_hours * 3600,
        finished=args.finished_days * DAY,
        idle=args.idle_days * DAY,
        unload=args.unload_minutes * 60,
        rooms_per_address=max(0, args.rooms_per_address),
        seats_per_address=max(0, args.seats_per_address),
        lookups_per_second=max(0.0, args.lookups_per_second),
        probes_per_second=max(0.0, args.probes_per_second),
        max_rooms=max(0, args.max_rooms),
        bot_workers=max(1, args.bot_workers),
        bot_cpu_share=max(0.0, args.bot_cpu_share),
    )


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other machines may reach (not loopback, not link-local),
    found with the standard library: the source address of the default route (a UDP socket
    "connected" to a documentation address sends nothing), then the host name's addresses."""
    found: list[str] = []
    for probe in ("192.0.2.1", "10.255.255.255"):
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            found.append(str(s.getsockname()[0]))
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    out: list[str] = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in out:
            out.append(address)
    return out


def friend_urls(host: str, port: int) -> list[str]:
    """The addresses friends on the same network can open for a server listening on ``host``:
    every network address of the machine for ``0.0.0.0`` (or ``::``), ``host`` itself when it is
    neither loopback nor a name, none for a loopback address."""
    if host in ("0.0.0.0", "::", ""):
        return [f"http://{a}:{port}/" for a in lan_addresses()]
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return [] if host == "localhost" else [f"http://{host}:{port}/"]
    if ip.is_loopback:
        return []
    return [f"http://[{host}]:{port}/" if ip.version == 6 else f"http://{host}:{port}/"]


def _shown(url: str) -> str:
    """The URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _sep, user = head.partition("://")
    return f"{scheme}://{user.split(':')[0]}@{tail}"


EXIT_BAD_ARGUMENTS: Final = 2
"""``uno serve``'s exit status for a bad command line (a flag's value, an unknown database
kind, a host that is no address): running it again as it is would fail again."""
EXIT_CANNOT_START: Final = 1
"""``uno serve``'s exit status when the command line is good but the server cannot start: the
database cannot be reached or opened, the address cannot be listened on (taken, not this
machine's). It may succeed later, e.g. once the database is up (docs/deploy.md)."""


def listen_problem(host: str, port: int) -> tuple[int, str] | None:
    """Why the server could not listen on ``host`` and ``port``, found before it says where it
    serves: ``(EXIT_BAD_ARGUMENTS, line)`` for a host that is no address nor a name this machine
    resolves, ``(EXIT_CANNOT_START, line)`` for an address it cannot bind now; ``None`` when it
    can. The socket is bound as uvicorn binds it (``SO_REUSEADDR``), then closed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except socket.gaierror:
        return EXIT_BAD_ARGUMENTS, _(
            "--host takes an address of this machine (e.g. 127.0.0.1, 0.0.0.0) or a name it resolves, "
            "not {value!r}"
        ).format(value=host)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            why = _("another program listens on port {port} (choose another with --port)").format(port=port)
        elif exc.errno == errno.EADDRNOTAVAIL:
            why = _("{host} is not an address of this machine (0.0.0.0: all of them)").format(host=host)
        elif exc.errno == errno.EACCES:
            why = _("ports below 1024 need the administrator's rights (choose another with --port)")
        else:
            why = exc.strerror or str(exc)
        return EXIT_CANNOT_START, _("cannot listen on {host} port {port}: {why}").format(
            host=host, port=port, why=why
        )
    return None


DATABASE_KINDS: Final = ("postgresql", "sqlite")
CONNECT_SECONDS: Final = 10
"""How long ``uno serve`` waits for PostgreSQL to answer before it says it cannot reach it."""


def database_problem(url: str) -> tuple[int, str] | None:
    """Why the server could not use the database at ``url`` (a SQLAlchemy URL, from
    :func:`~unotable.web.storage.database_url`), found before it starts: ``(EXIT_BAD_ARGUMENTS,
    line)`` for a URL that names no database the server keeps its rooms in,
    ``(EXIT_CANNOT_START, line)`` for one it cannot connect to or open; ``None`` when a
    connection opens. The line never shows the password."""
    from sqlalchemy import create_engine  # noqa: PLC0415 - the web extra, present by now
    from sqlalchemy.engine import make_url  # noqa: PLC0415
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError  # noqa: PLC0415

    example = _(
        "--database takes postgresql://user:password@host/database (or nothing, for SQLite), not {value!r}"
    )
    try:
        kind = make_url(url).get_backend_name()
    except ArgumentError:
        return EXIT_BAD_ARGUMENTS, example.format(value=_shown(url))
    if kind not in DATABASE_KINDS:
        return EXIT_BAD_ARGUMENTS, example.format(value=_shown(url))
    connect_args = {"connect_timeout": CONNECT_SECONDS} if kind == "postgresql" else {}
    try:
        engine = create_engine(url, connect_args=connect_args)
    except (SQLAlchemyError, ImportError) as exc:
        return EXIT_BAD_ARGUMENTS, _("cannot use the database {database}: {error}").format(
            database=_shown(url), error=_first_line(exc)
        )
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as exc:
        return EXIT_CANNOT_START, _("cannot reach the database {database}: {error}").format(
            database=_shown(url), error=_first_line(getattr(exc, "orig", None) or exc)
        )
    finally:
        engine.dispose()
    return None


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _fail(message: str, command: str = "serve") -> None:
    """One line on standard error: ``uno serve: error: …`` (or ``uno cluster``'s)."""
    line = _("uno cluster: error: {message}") if command == "cluster" else _("uno serve: error: {message}")
    print(line.format(message=message), file=sys.stderr)


def run_serve(args: argparse.Namespace) -> int:
    """Run ``uno serve`` until interrupted; the exit status."""
    try:
        import uvicorn  # noqa: PLC0415, F401 - the extra may be missing (used by run_uvicorn)

        from unotable.web.app import create_app  # noqa: PLC0415
        from unotable.web.guard import header_timeout_protocol  # noqa: PLC0415
        from unotable.web.pacing import Pacer  # noqa: PLC0415
        from unotable.web.storage import database_url  # noqa: PLC0415
        from unotable.web.wsprotocol import websocket_protocol  # noqa: PLC0415
    except ImportError as exc:
        _fail(f"{_(INSTALL_HINT)} ({exc})")
        return 2
    if not 0 < args.rate <= 100_000:
        _fail(_("--rate must be from 0 to 100000, not {value}").format(value=args.rate))
        return 2
    if not 1 <= args.max_connections <= 1_000_000:
        _fail(
            _("--max-connections must be from 1 to 1000000, not {value}").format(value=args.max_connections)
        )
        return 2
    if not 1 <= args.connections_per_address <= args.max_connections:
        _fail(
            _("--connections-per-address must be from 1 to --max-connections, not {value}").format(
                value=args.connections_per_address
            )
        )
        return 2
    for origin in args.allow_origin:
        scheme, sep, rest = origin.partition("://")
        if scheme not in ("http", "https") or not sep or not rest or "/" in rest.rstrip("/"):
            _fail(
                _("--allow-origin takes an origin such as https://uno.example.org, not {value!r}").format(
                    value=origin
                )
            )
            return 2
    if not 0 < args.port < 65536:
        _fail(_("--port must be from 1 to 65535, not {value}").format(value=args.port))
        return 2
    trusted = [ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip()]
    for ip in trusted:
        try:
            if ip != "*":
                ipaddress.ip_network(ip, strict=False)
        except ValueError:
            _fail(
                _(
                    "--forwarded-allow-ips takes addresses such as 127.0.0.1 or 10.0.0.0/8, not {value!r}"
                ).format(value=ip)
            )
            return 2
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    if not args.database:
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _fail(_("cannot make {folder}: {error}").format(folder=data_dir, error=exc.strerror or exc))
            return 2
    if args.public_url is not None:
        scheme, sep, rest = args.public_url.partition("://")
        if scheme not in ("http", "https") or not sep or not rest:
            _fail(
                _("--public-url takes an address such as https://uno.example.org, not {value!r}").format(
                    value=args.public_url
                )
            )
            return 2
    url = database_url(args.database, data_dir)
    node = advertise = None
    if url.startswith("postgresql"):
        from unotable.web.cluster import default_advertise, default_node_name  # noqa: PLC0415

        node = args.node_name or default_node_name(args.port)
        advertise = args.advertise or default_advertise(args.host, args.port, lan_addresses())
        scheme, sep, rest = advertise.partition("://")
        if scheme not in ("http", "https") or not sep or not rest:
            _fail(
                _("--advertise takes an address such as http://10.0.0.5:8000, not {value!r}").format(
                    value=advertise
                )
            )
            return 2
    elif args.node_name is not None or args.advertise is not None:
        _fail(_("--node-name and --advertise need a PostgreSQL database (--database postgresql://...)"))
        return 2
    # Before the address is printed: a line that says where it serves is true.
    problem = listen_problem(args.host, args.port) or database_problem(url)
    if problem is not None:
        _fail(problem[1])
        return problem[0]
    print(
        _("uno serve: http://{host}:{port}/  (database: {database})").format(
            host=args.host, port=args.port, database=_shown(url)
        ),
        flush=True,
    )
    friends = friend_urls(args.host, args.port)
    if node is not None:
        shown = _("uno serve: node {node}, reached by the other nodes at {url}")
        print(shown.format(node=node, url=advertise), flush=True)
    if friends:
        print(words.serving_friends(friends), flush=True)
    elif args.host in ("0.0.0.0", "::", ""):
        print(words.no_network_address(), flush=True)
    if args.access_log:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        access = logging.getLogger("unotable.web.access")
        access.addHandler(handler)
        access.setLevel(logging.INFO)
        access.propagate = False
    limits = Limits(max_connections=args.max_connections, per_address=args.connections_per_address)
    pacer = Pacer()  # new connections let in at the loop's pace (a reconnect storm)
    app = create_app(
        url,
        rate=args.rate,
        limits=limits,
        origins=tuple(args.allow_origin),
        durability=args.durability,
        lifecycle=lifecycle_of(args),
        public_url=args.public_url,
        lan_url=friends[0] if friends and args.host in ("0.0.0.0", "::", "") else None,
        node=node,
        advertise=advertise,
        collect=True,
        pacer=pacer,
    )
    run_uvicorn(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=WS_MAX_SIZE,
        log_level="warning",
        access_log=False,  # uvicorn's shows the query string; the guard's line does not
        http=header_timeout_protocol(limits.header_seconds, pacer),
        ws=websocket_protocol(pacer),
        # No permessage-deflate: compressing each message cost 7-8% of the server's CPU an
        # action, and an update is small since it carries the table's changes only (docs/web.md).
        ws_per_message_deflate=False,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,
        # No WebSocket pings of uvicorn's: a connection the app hears nothing from for 35 s is
        # closed anyway (web/connection.py's idle close; a frame of uvicorn's pong does not
        # count as heard), and the page pings every 10 s. They cost 3% of the loop at 2,000
        # connections (a ping every 20 s each) and found no peer the idle close would not.
        ws_ping_interval=None,
    )
    return 0


def run_uvicorn(app: Any, **options: Any) -> None:
    """Serve ``app`` with uvicorn (``options``: :class:`uvicorn.Config`'s) until a signal stops
    it, handing the rooms over first (:func:`handing_over_server`)."""
    import uvicorn  # noqa: PLC0415 - the extra, present by now

    handing_over_server(uvicorn.Server)(uvicorn.Config(app, **options)).run()


HAND_OVER_SECONDS: Final = 10.0
"""The longest SIGTERM's hand-over of the rooms may take before the connections are drained
anyway (their leases then run out by themselves)."""


def handing_over_server(base: type[uvicorn.Server]) -> type[uvicorn.Server]:
    """uvicorn's server, whose first SIGTERM (or Ctrl-C) first hands every room to another node
    (the app's ``state.hand_over``, set in a cluster) and only then stops listening and drains
    the connections: uvicorn alone would wait for every connection to close before the app's
    shutdown gave the leases back, and the rooms would stall meanwhile (issue 31: 1.9 to 22 s)."""

    class Server(base):  # type: ignore[valid-type,misc]
        _loop: asyncio.AbstractEventLoop | None = None
        _handing_over = False

        async def serve(self, sockets: list[socket.socket] | None = None) -> None:
            self._loop = asyncio.get_running_loop()
            await super().serve(sockets)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            app = self.config.app
            hand_over = getattr(getattr(app, "state", None), "hand_over", None)
            if self.should_exit or self._handing_over or hand_over is None or self._loop is None:
                super().handle_exit(sig, frame)
                return
            self._handing_over = True
            self._captured_signals.append(sig)  # uvicorn raises it again once it has shut down
            self._loop.call_soon_threadsafe(self._start_hand_over, hand_over)

        def _start_hand_over(self, hand_over: Callable[[], Awaitable[int]]) -> None:
            assert self._loop is not None
            task = self._loop.create_task(self._hand_over(hand_over), name="hand-over")
            self._task = task  # kept until done

        async def _hand_over(self, hand_over: Callable[[], Awaitable[int]]) -> None:
            start = time.monotonic()
            try:
                async with asyncio.timeout(HAND_OVER_SECONDS):
                    moved = await hand_over()
                logging.getLogger("unotable.web").warning(
                    "handed %d room(s) over in %.0f ms; draining the connections",
                    moved,
                    1000 * (time.monotonic() - start),
                )
            except Exception:
                logging.getLogger("unotable.web").exception("the hand-over failed; draining anyway")
            finally:
                self.should_exit = True

    return Server


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``uno cluster``."""
    parser.add_argument("action", choices=("status",), help=_("status: the nodes, their rooms and leases"))
    parser.add_argument(
        "--database", metavar="URL", required=True, help=_("the service's PostgreSQL database URL")
    )
    parser.add_argument("--json", action="store_true", help=_("print JSON instead of a table"))


def run_cluster(args: argparse.Namespace) -> int:
    """``uno cluster status``: the nodes (address, heartbeat, rooms) and every room's lease."""
    try:
        import json  # noqa: PLC0415

        from sqlalchemy.exc import SQLAlchemyError  # noqa: PLC0415

        from unotable.web.cluster import LEASE_SECONDS, status  # noqa: PLC0415
        from unotable.web.storage import Store, database_url  # noqa: PLC0415
    except ImportError as exc:
        _fail(f"{_(INSTALL_HINT)} ({exc})", "cluster")
        return 2
    url = database_url(args.database, Path("."))
    if not url.startswith("postgresql"):
        _fail(_("uno cluster needs a PostgreSQL database (--database postgresql://...)"), "cluster")
        return 2
    problem = database_problem(url)
    if problem is not None:
        _fail(problem[1], "cluster")
        return problem[0]
    store = Store(url)
    try:
        nodes, leases = status(store)
    except SQLAlchemyError as exc:
        _fail(_("cannot read the database: {error}").format(error=_first_line(exc)), "cluster")
        return 1
    finally:
        store.close()
    if args.json:
        out = {
            "nodes": [
                {"name": n.name, "url": n.url, "started": n.started.isoformat(),
                 "heartbeat_age": n.heartbeat_age, "stopping": n.stopping, "rooms": n.rooms}
                for n in nodes
            ],
            "leases": [
                {"room": x.code, "node": x.node, "fence": x.fence, "expires_in": x.expires_in} for x in leases
            ],
        }  # fmt: skip
        print(json.dumps(out, indent=2))
        return 0
    print(_("{count} node(s)").format(count=len(nodes)))
    for n in nodes:
        state = (
            _("stopping")
            if n.stopping
            else _("silent (no heartbeat)")
            if n.heartbeat_age > LEASE_SECONDS
            else _("up")
        )
        print(
            _("  {name}  {url}  {state}, heartbeat {age:.1f} s ago, {rooms} room(s)").format(
                name=n.name, url=n.url, state=state, age=n.heartbeat_age, rooms=n.rooms
            )
        )
    live = [x for x in leases if x.expires_in > 0]
    print(_("{count} room lease(s), {live} live").format(count=len(leases), live=len(live)))
    for x in leases:
        print(
            _("  {room}  {node}  fence {fence}, expires in {left:.1f} s").format(
                room=x.code, node=x.node, fence=x.fence, left=x.expires_in
            )
        )
    return 0


__all__ = [
    "add_cluster_arguments",
    "add_serve_arguments",
    "default_data_dir",
    "friend_urls",
    "lan_addresses",
    "lifecycle_of",
    "run_cluster",
    "run_serve",
]
