"""Every sentence the server sends a person, by code (the page shows its own words for a code it
knows, from ``static/strings.js``, and these otherwise). One place, so it can be translated."""

from __future__ import annotations

from typing import Final

ERRORS: Final[dict[str, str]] = {
    "bad_json": "The message is not a JSON object.",
    "too_big": "The message is too long ({size} bytes; at most {limit}).",
    "bad_message": "The message is malformed: {detail}.",
    "unknown_type": "Unknown message type {type!r} (known: {known}).",
    "hello_first": "Say hello first (with your seat's token, or none to watch).",
    "bad_token": "That token is not a seat of this room.",
    "wrong_token": "That token is not the one of this connection's seat.",
    "spectator": "Spectators cannot act: take a seat to play.",
    "not_started": "The game has not started: seats are still free.",
    "illegal": "Not legal now: {detail}",
    "hand_running": "The hand is still in play.",
    "game_over": "The game is over.",
    "game_running": "The game is still in play.",
    "too_fast": "Too many messages: slow down.",
    "no_room": "There is no room {room!r}.",
    "room_full": "Every seat of this room is taken: you can watch.",
    "seat_taken": "Seat {player} is taken or is not a person's seat.",
    "bad_settings": "These settings do not make a game: {detail}",
    "bad_name": "A name is 1 to {limit} letters, digits, spaces or punctuation.",
    "bad_request": "Bad request: {detail}",
    "no_game": "There is no finished game {number} in room {room!r}.",
    "storage": "The game could not be saved; nothing changed. Try again.",
    "bad_origin": "Refused: this request comes from another site's page.",
    "bad_content_type": "Refused: send the request's body as application/json.",
    "too_many_connections": "Too many connections from your address at once: close some and try again.",
    "server_busy": "The server has as many connections as it can take: try again in a moment.",
    "slow_request": "The request's body took too long to arrive.",
}
"""Error code -> sentence (with ``str.format`` fields)."""


def error_text(code: str, **fields: object) -> str:
    """The sentence for error ``code`` with its fields filled in."""
    return ERRORS[code].format(**fields)


__all__ = ["ERRORS", "error_text"]
