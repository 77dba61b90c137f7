"""The WebSocket protocol: what a client may send, checked for size and shape (docs/web.md).

A client's messages are JSON objects of at most :data:`MAX_MESSAGE` bytes, of the types the
one table of message types lists (:data:`unotable.web.connection.MESSAGES`: each type's fields
and its handler)::

    {"type": "hello", "token": "..."}          # first: a seat's token, or null to watch
    {"type": "act", "token": "...", "action": "play R7 uno"}
    {"type": "free_seat", "token": "...", "player": 2}   # the host's
    {"type": "react", "token": null, "reaction": "gg"}
    ...

:func:`parse` turns text into a :class:`Message` (checking each field by its name:
:data:`FIELD_CHECKS`) or raises :class:`ProtocolError` with the code and sentence the client
gets back. :class:`RateLimit` refuses floods.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import orjson

from unotable.web.words import error_text


def dumps(message: Any) -> str:
    """A server message as JSON text (orjson: compact UTF-8, a tenth of :func:`json.dumps`'s
    time on a table of 3-4 KiB; clients parse the same values either way)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


MAX_MESSAGE: Final = 1024
"""Bytes in one client message at most."""
MAX_TOKEN: Final = 64
MAX_ACTION: Final = 40
MAX_PLAYER_NUMBER: Final = 100
"""Player numbers a message may name are below this (a room has at most ten, or eight)."""
MAX_BOT: Final = 80
MAX_REACTION: Final = 32
MAX_TEXT: Final = 600
"""Characters of a chat message's text that :func:`parse` lets through; the room's own bound
(120 once spaces are collapsed) gives the clear ``bad_chat``."""


def _string(limit: int) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and 0 < len(value) <= limit:
            return None
        return f"must be a string of 1 to {limit} characters"

    return check


def _player(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_PLAYER_NUMBER:
        return f"must be a whole number from 0 to {MAX_PLAYER_NUMBER - 1}"
    return None


FIELD_CHECKS: Final[dict[str, Callable[[Any], str | None]]] = {
    "token": _string(MAX_TOKEN),
    "action": _string(MAX_ACTION),
    "player": _player,
    "bot": _string(MAX_BOT),
    "reaction": _string(MAX_REACTION),
    "text": _string(MAX_TEXT),
}
"""Field name -> what is wrong with a value of it (``None``: nothing)."""


class ProtocolError(Exception):
    """A message the server refuses: ``code`` (see :mod:`~unotable.web.words`) and a sentence."""

    def __init__(self, code: str, **fields: object) -> None:
        self.code = code
        self.text = error_text(code, **fields)
        super().__init__(self.text)

    def to_dict(self) -> dict[str, Any]:
        """The error message sent to the client."""
        return {"type": "error", "code": self.code, "message": self.text}


@dataclass(frozen=True)
class Message:
    """A checked client message (the fields its type does not have are ``None``)."""

    type: str
    token: str | None = None
    action: str | None = None
    player: int | None = None
    bot: str | None = None
    reaction: str | None = None
    text: str | None = None


def parse(text: str | bytes, types: Mapping[str, Mapping[str, bool]]) -> Message:
    """The message in ``text``, of one of ``types`` (type -> its fields, True if required; a
    field that is not required may also be null).

    :raises ProtocolError: ``too_big``, ``bad_json``, ``unknown_type`` or ``bad_message``.
    """
    size = len(text.encode("utf-8", "replace") if isinstance(text, str) else text)
    if size > MAX_MESSAGE:
        raise ProtocolError("too_big", size=size, limit=MAX_MESSAGE)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in types:
        raise ProtocolError("unknown_type", type=kind, known=", ".join(types))
    fields = types[kind]
    for key in data:
        if key != "type" and key not in fields:
            raise ProtocolError("bad_message", detail=f"{kind} has no field {key!r}")
    values: dict[str, Any] = {}
    for key, required in fields.items():
        if required and key not in data:
            raise ProtocolError("bad_message", detail=f"{kind} needs the field {key!r}")
        value = data.get(key)
        if value is None and not required:
            continue
        problem = FIELD_CHECKS[key](value)
        if problem is not None:
            raise ProtocolError("bad_message", detail=f"{key} {problem}")
        values[key] = value
    return Message(kind, **values)


class RateLimit:
    """A token bucket: ``burst`` messages at once, ``rate`` a second after that."""

    def __init__(self, rate: float = 10.0, burst: float = 30.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()
        self.refused = 0
        """Messages refused in a row."""

    def allow(self) -> bool:
        """Whether one more message may be handled now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False


__all__ = ["FIELD_CHECKS", "MAX_MESSAGE", "Message", "ProtocolError", "RateLimit", "dumps", "parse"]
