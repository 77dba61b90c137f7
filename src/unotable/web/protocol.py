"""The WebSocket protocol: what a client may send, checked for size and shape (docs/web.md).

A client's messages are JSON objects of at most :data:`MAX_MESSAGE` bytes::

    {"type": "hello", "token": "..."}          # first: a seat's token, or null to watch
    {"type": "act", "token": "...", "action": "play R7 uno"}
    {"type": "next_hand", "token": "..."}      # deal the next hand once one is over
    {"type": "rematch", "token": "..."}        # a new game with the same seats, once it is over
    {"type": "penalize", "token": "...", "player": 2}  # ask for the suggestion penalty (a vote)
    {"type": "ping"}

:func:`parse` turns text into a :class:`Message` or raises :class:`ProtocolError` with the
code and sentence the client gets back. :class:`RateLimit` refuses floods.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Final

from unotable.web.words import error_text

MAX_MESSAGE: Final = 1024
"""Bytes in one client message at most."""
MAX_TOKEN: Final = 64
MAX_ACTION: Final = 40
MAX_PLAYER_NUMBER: Final = 100
"""Player numbers a message may name are below this (a room has at most ten, or eight)."""
FIELDS: Final[dict[str, dict[str, bool]]] = {
    "hello": {"token": False},
    "act": {"token": True, "action": True},
    "next_hand": {"token": True},
    "rematch": {"token": True},
    "penalize": {"token": True, "player": True},
    "ping": {},
}
"""Message type -> its fields (True: required)."""


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
    """A checked client message."""

    type: str
    token: str | None = None
    action: str | None = None
    player: int | None = None


def parse(text: str | bytes) -> Message:
    """The message in ``text``.

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
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError("unknown_type", type=kind, known=", ".join(FIELDS))
    fields = FIELDS[kind]
    for key in data:
        if key != "type" and key not in fields:
            raise ProtocolError("bad_message", detail=f"{kind} has no field {key!r}")
    for key, required in fields.items():
        if required and key not in data:
            raise ProtocolError("bad_message", detail=f"{kind} needs the field {key!r}")
    token = data.get("token")
    if token is not None and (not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN):
        raise ProtocolError("bad_message", detail=f"token must be a string of 1 to {MAX_TOKEN} characters")
    if kind != "hello" and "token" in fields and token is None:
        raise ProtocolError("bad_message", detail="token must be a string")
    action = data.get("action")
    if "action" in fields and (not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION):
        raise ProtocolError("bad_message", detail=f"action must be a string of 1 to {MAX_ACTION} characters")
    player = data.get("player")
    if "player" in fields and (
        isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < MAX_PLAYER_NUMBER
    ):
        raise ProtocolError(
            "bad_message", detail=f"player must be a whole number from 0 to {MAX_PLAYER_NUMBER - 1}"
        )
    return Message(kind, token, action, player)


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


__all__ = ["FIELDS", "MAX_MESSAGE", "Message", "ProtocolError", "RateLimit", "parse"]
