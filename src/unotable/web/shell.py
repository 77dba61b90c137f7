"""The page as an app a phone installs (issue 34, item 5): its manifest, its service worker and
the version of what it keeps offline.

- ``GET /manifest.webmanifest`` is the web app manifest (``application/manifest+json``): the
  name, the icons (``static/icon-*.png``, made from ``static/icon.svg`` and
  ``static/icon-maskable.svg`` by ``python -m tests.web.icons``), the colours, ``display:
  standalone``, ``start_url``, and the description and ``lang`` in the request's language.
- ``GET /sw.js`` is the service worker (``static/worker/sw.js``), served from the site's root so that
  its scope is the whole site, headed by the assets' version and the list of what it keeps
  (:func:`shell_files`): the page, its modules, its style, its icons and the catalogues. Its
  bytes change whenever the version does, which is how a browser learns of an upgrade: the new
  worker keeps the new files under a new cache name and deletes the old caches.
- :func:`asset_version` is the package's version and a hash of the files the page is made of
  (``static/``, the catalogues): a changed file is a new version even under the same release.

It imports the standard library, Starlette and the i18n helpers only.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from unotable import __version__
from unotable.i18n import LANGUAGES, LOCALE_DIR, _, language

STATIC: Final = Path(__file__).with_name("static")
THEME: Final = "#07201a"
"""The header's green: the browser's bar (and the splash's background is the page's)."""
BACKGROUND: Final = "#0b2e1f"
ICONS: Final = (
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-192.png", 192, "maskable"),
    ("icon-maskable-512.png", 512, "maskable"),
)
"""The manifest's PNG icons: file, size in pixels, purpose."""


@cache
def asset_version(static: Path = STATIC, locale: Path = LOCALE_DIR) -> str:
    """The package's version and the first 12 hex digits of a SHA-256 over the page's files and
    the compiled catalogues (``0.1.0-3f2a9c0d1e4b``)."""
    digest = hashlib.sha256()
    files = sorted(p for p in static.rglob("*") if p.is_file())
    files += [*sorted(locale.rglob("*.mo")), locale / "web.json"]
    for path in files:
        if path.is_file():
            digest.update(path.relative_to(path.parents[1]).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
    return f"{__version__}-{digest.hexdigest()[:12]}"


def shell_files(static: Path = STATIC) -> list[str]:
    """The addresses the service worker keeps offline: the page, every file of ``static/``
    (the worker aside), the manifest and each language's words."""
    kept = ["/", "/manifest.webmanifest"]
    for path in sorted(static.rglob("*")):
        if path.is_file() and path.parent.name != "worker" and not path.name.startswith("."):
            kept.append("/static/" + path.relative_to(static).as_posix())
    kept += [f"/api/words/{lang}" for lang in LANGUAGES]
    return kept


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest, its words in ``lang`` (the current language's catalogue)."""
    return {
        "id": "/",
        "name": "unotable",
        "short_name": "unotable",
        "description": _("UNO with friends at one table, in the browser: make a room and share its link."),
        "lang": lang.replace("_", "-"),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": [
            {"src": f"/static/{name}", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for name, size, purpose in ICONS
        ]
        + [{"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }


async def manifest_route(request: Request) -> Response:
    """``GET /manifest.webmanifest``: in the request's language, kept an hour by caches."""
    lang = language()
    return JSONResponse(
        manifest(lang),
        media_type="application/manifest+json",
        headers={
            "Cache-Control": "public, max-age=3600",
            "Content-Language": lang,
            "Vary": "Accept-Language",
        },
    )


def worker_script(version: str, static: Path = STATIC) -> str:
    """The service worker's text: its version and list, then ``static/worker/sw.js``."""
    head = (
        "// Made by unotable.web.shell: the version of the page's files and what is kept offline.\n"
        f"const VERSION = {json.dumps(version)};\n"
        f"const SHELL = {json.dumps(shell_files(static))};\n"
    )
    return head + (static / "worker" / "sw.js").read_text(encoding="utf-8")


async def worker_route(request: Request) -> Response:
    """``GET /sw.js``: never cached by HTTP caches (the browser must see an upgrade at once);
    ``Service-Worker-Allowed: /`` states the scope it is served for."""
    version: str = request.app.state.asset_version
    return Response(
        worker_script(version),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


def page_text(version: str, static: Path = STATIC) -> str:
    """``index.html`` with the assets' version in its ``unotable-version`` meta."""
    return (static / "index.html").read_text(encoding="utf-8").replace("{{version}}", version)


async def page_route(request: Request) -> Response:
    """The page (one HTML file; its script reads the address), revalidated on each load so that
    an upgrade shows at once (the service worker keeps a copy for offline use)."""
    version: str = request.app.state.asset_version
    return Response(page_text(version), media_type="text/html", headers={"Cache-Control": "no-cache"})


__all__ = [
    "BACKGROUND",
    "ICONS",
    "THEME",
    "asset_version",
    "manifest",
    "manifest_route",
    "page_route",
    "page_text",
    "shell_files",
    "worker_route",
    "worker_script",
]
