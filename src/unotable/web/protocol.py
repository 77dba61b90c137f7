"""The WebSocket protocol: what a client may send, checked for size and shape (docs/web.md).

A client's messages are JSON objects of at most :data:`MAX_MESSAGE` bytes, of the types
:mod:`unotable.web.messages` declares (each type's fields, their checks, and who may send it;
:data:`unotable.web.connection.HANDLERS` has each type's handler)::

    {"type": "hello", "token": "..."}          # first: a seat's token, or null to watch
    {"type": "act", "token": "...", "action": "play R7 uno"}
    {"type": "free_seat", "token": "...", "player": 2}   # the host's
    {"type": "react", "token": null, "reaction": "gg"}
    ...

:func:`parse` turns text into the :class:`~unotable.web.messages.ClientMessage` of its type
(checking each field as declared) or raises :class:`ProtocolError` with the code and sentence the client
gets back. :class:`RateLimit` refuses floods.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any, Final

import orjson

from unotable.web.messages import CLIENT_MESSAGES, Check, ClientMessage, Error, ServerMessage
from unotable.web.words import error_text


def dumps(message: ServerMessage, shared: Shared | None = None) -> str:
    """A server message as JSON text (orjson: compact UTF-8, a tenth of :func:`json.dumps`'s
    time on a table of 3-4 KiB; clients parse the same values either way).

    :param shared: the fields of :data:`SHARED` already encoded, by the identity of their value,
        for messages made from the same values (one action's ``update`` to every player shares
        one ``table``): each is encoded once and copied into every message as is.
    """
    data = message.to_dict()
    if shared is not None:
        for key in SHARED:
            value = data.get(key)
            if value is None:
                continue
            known = shared.get(id(value))
            if known is None:  # the value is kept with its encoding: its id is not reused meanwhile
                known = shared[id(value)] = (value, orjson.Fragment(orjson.dumps(value, option=_OPTIONS)))
            data[key] = known[1]
    return orjson.dumps(data, option=_OPTIONS).decode()


_OPTIONS: Final = orjson.OPT_NON_STR_KEYS
SHARED: Final = ("table",)
"""The fields :func:`dumps` may encode once for several messages."""
Shared = dict[int, tuple[object, orjson.Fragment]]
"""What :func:`dumps` keeps of the shared fields it encoded: their value and its JSON."""


MAX_MESSAGE: Final = 1024
"""Bytes in one client message at most."""


class ProtocolError(Exception):
    """A message the server refuses: ``code`` (see :mod:`~unotable.web.words`) and a sentence."""

    def __init__(self, code: str, **fields: object) -> None:
        self.code = code
        self.text = error_text(code, **fields)
        super().__init__(self.text)

    def message(self) -> Error:
        """The ``error`` message sent to the client."""
        return Error(code=self.code, message=self.text)


def parse(text: str | bytes) -> ClientMessage:
    """The client's message in ``text``, of one of the types of
    :data:`~unotable.web.messages.CLIENT_MESSAGES`, each field checked by its declaration (a field
    with a default may be left out or null).

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
    cls = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError("unknown_type", type=kind, known=", ".join(CLIENT_MESSAGES))
    fields = _FIELDS[cls.TYPE]
    for key in data:
        if key != "type" and key not in fields:
            raise ProtocolError("bad_message", detail=f"{kind} has no field {key!r}")
    values: dict[str, Any] = {}
    for key, (required, check) in fields.items():
        if required and key not in data:
            raise ProtocolError("bad_message", detail=f"{kind} needs the field {key!r}")
        value = data.get(key)
        if value is None and not required:
            continue
        problem = check(value)
        if problem is not None:
            raise ProtocolError("bad_message", detail=f"{key} {problem}")
        values[key] = value
    return cls(**values)


_FIELDS: Final[dict[str, dict[str, tuple[bool, Check]]]] = {
    name: {
        f.name: (f.default is dataclasses.MISSING, f.metadata["check"])
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
    }
    for name, cls in CLIENT_MESSAGES.items()
}
"""Per client message type, per field: whether it is required, and its check."""


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


__all__ = ["MAX_MESSAGE", "ProtocolError", "RateLimit", "dumps", "parse"]
