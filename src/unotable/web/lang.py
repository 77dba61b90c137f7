"""The web's languages (issue 25): the browser's catalogue and the language of each connection.

- ``GET /api/words/{lang}`` answers ``{"lang", "plural", "messages"}`` (docs/i18n.md, "The
  page's words"): every message the page shows (its ``t``/``tn`` msgids and the Python words that reach it:
  server errors, house rules, bots, cards), from the same catalogues as the terminal, listed in
  ``unotable/i18n/locale/web.json`` by ``make catalogs``. A plural message's key is
  ``singular + "\\u0004" + plural`` and its value the language's two forms. Messages without a
  translation are left out (the page shows the English msgid); an unknown language answers English.
- :class:`LanguageMiddleware` sets the language of every request and WebSocket connection from
  its ``?lang=`` (the page's choice) or else its ``Accept-Language`` header, so that the
  sentences the server sends (:mod:`unotable.web.words`) are in that language.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Final
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from unotable.i18n import PLURALS, WEB_MESSAGES, from_accept_language, normalize, translator, use_language

PLURAL_SEPARATOR: Final = "\u0004"
"""Between a plural message's singular and plural in the browser's keys (gettext's own)."""


@cache
def words(lang: str) -> dict[str, Any]:
    """The browser's catalogue of ``lang`` (English if ``lang`` is not offered)."""
    lang = normalize(lang) or "en"
    tr = translator(lang)
    messages: dict[str, Any] = {}
    for mid in json.loads(WEB_MESSAGES.read_text(encoding="utf-8")):
        if isinstance(mid, list):
            singular, plural = mid
            forms = [tr.ngettext(singular, plural, 1), tr.ngettext(singular, plural, 2)]
            if forms != [singular, plural]:
                messages[singular + PLURAL_SEPARATOR + plural] = forms
        elif (text := tr.gettext(mid)) != mid:
            messages[mid] = text
    return {"lang": lang, "plural": PLURALS[lang], "messages": messages}


async def words_route(request: Request) -> Response:
    """``GET /api/words/{lang}``."""
    body = words(str(request.path_params["lang"]))
    return JSONResponse(
        body, headers={"Cache-Control": "public, max-age=300", "Content-Language": body["lang"]}
    )


class LanguageMiddleware:
    """Run each HTTP request and WebSocket connection in its person's language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with use_language(scope_language(scope)):
            await self.app(scope, receive, send)


def scope_language(scope: Scope) -> str:
    """A request's language: its ``?lang=`` if offered, else its ``Accept-Language``."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    for value in query.get("lang", []):
        if (lang := normalize(value)) is not None:
            return lang
    header = ""
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            header = value.decode("latin-1")
    return from_accept_language(header)
