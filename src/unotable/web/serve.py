"""``uno serve``: its flags, and the server they start (uvicorn running :func:`create_app`).

This module imports nothing of the ``web`` extra until the server starts, so ``uno --help``
works without it and ``uno serve`` can say how to install it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Final

from unotable.i18n import N_, _

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
WS_MAX_SIZE: Final = 16 * 1024
"""Bytes in one WebSocket frame at most (larger ones close the connection; the protocol's own
limit, with a clear error, is smaller)."""
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
        "--rate",
        type=float,
        default=10.0,
        help=_("messages a second one connection may send, three times that at once (10)"),
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=None,
        help=_("folder of the SQLite database ({default})").format(default=default_data_dir()),
    )


def _shown(url: str) -> str:
    """The URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _sep, user = head.partition("://")
    return f"{scheme}://{user.split(':')[0]}@{tail}"


def run_serve(args: argparse.Namespace) -> int:
    """Run ``uno serve`` until interrupted; the exit status."""
    try:
        import uvicorn  # noqa: PLC0415 - the extra may be missing

        from unotable.web.app import create_app  # noqa: PLC0415
        from unotable.web.storage import database_url  # noqa: PLC0415
    except ImportError as exc:
        print(_("uno serve: error: {message}").format(message=f"{_(INSTALL_HINT)} ({exc})"), file=sys.stderr)
        return 2
    if not 0 < args.rate <= 100_000:
        print(
            _("uno serve: error: --rate must be from 0 to 100000, not {value}").format(value=args.rate),
            file=sys.stderr,
        )
        return 2
    if not 0 < args.port < 65536:
        print(
            _("uno serve: error: --port must be from 1 to 65535, not {value}").format(value=args.port),
            file=sys.stderr,
        )
        return 2
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    if not args.database:
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(
                _("uno serve: error: cannot make {folder}: {error}").format(
                    folder=data_dir, error=exc.strerror or exc
                ),
                file=sys.stderr,
            )
            return 2
    url = database_url(args.database, data_dir)
    print(
        _("uno serve: http://{host}:{port}/  (database: {database})").format(
            host=args.host, port=args.port, database=_shown(url)
        ),
        flush=True,
    )
    uvicorn.run(
        create_app(url, rate=args.rate),
        host=args.host,
        port=args.port,
        ws_max_size=WS_MAX_SIZE,
        log_level="warning",
    )
    return 0


__all__ = ["add_serve_arguments", "default_data_dir", "run_serve"]
