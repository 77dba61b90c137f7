"""Every sentence the server sends a person, by code (the page shows its own words for a code it
knows, from ``static/js/strings.js``, and these otherwise). One place, so it can be translated."""

from __future__ import annotations

from typing import Final

from unotable.i18n import N_, _

ERRORS: Final[dict[str, str]] = {
    "bad_json": N_("The message is not a JSON object."),
    "too_big": N_("The message is too long ({size} bytes; at most {limit})."),
    "bad_message": N_("The message is malformed: {detail}."),
    "unknown_type": N_("Unknown message type {type!r} (known: {known})."),
    "hello_first": N_("Say hello first (with your seat's token, or none to watch)."),
    "bad_token": N_("That token is not a seat of this room."),
    "wrong_token": N_("That token is not the one of this connection's seat."),
    "spectator": N_("Spectators cannot act: take a seat to play."),
    "not_started": N_("The game has not started: seats are still free."),
    "illegal": N_("Not legal now: {detail}"),
    "hand_running": N_("The hand is still in play."),
    "game_over": N_("The game is over."),
    "game_running": N_("The game is still in play."),
    "too_fast": N_("Too many messages: slow down."),
    "no_room": N_("There is no room {room!r}."),
    "room_full": N_("Every seat of this room is taken: you can watch."),
    "seat_taken": N_("Seat {player} is taken or is not a person's seat."),
    "bad_settings": N_("These settings do not make a game: {detail}"),
    "bad_name": N_("A name is 1 to {limit} letters, digits, spaces or punctuation."),
    "bad_request": N_("Bad request: {detail}"),
    "no_game": N_("There is no finished game {number} in room {room!r}."),
    "storage": N_("The game could not be saved; nothing changed. Try again."),
    "not_host": N_("Only the host can do that."),
    "host_self": N_("The host cannot free or hand over their own seat."),
    "no_seat": N_("There is no seat {player} in this room."),
    "bad_bot": N_("That is not a bot this room can seat: {detail}"),
    "bad_color": N_("A colour is written #rrggbb, for example #1d4ed8."),
    "bad_rejoin": N_("That rejoin link or code is not valid (any more)."),
    "penalty_off": N_("This room does not give the suggestion penalty."),
    "penalty_given": N_("{name} has already been given the suggestion penalty in this hand."),
    "chat_off": N_("This room has no chat."),
    "no_more_time": N_("This room gives no more time."),
    "no_clock": N_("No timer runs for you now."),
    "more_time_used": N_("You have already had more time in this hand."),
    "bad_chat": N_("A chat message is 1 to {limit} characters of text."),
    "bad_reaction": N_("Unknown reaction (known: {known})."),
    "no_spectator_reactions": N_("Spectators cannot send reactions in this room."),
    "slow_down": N_("You are sending these too fast: wait a moment."),
    "bad_origin": N_("Refused: this request comes from another site's page."),
    "bad_content_type": N_("Refused: send the request's body as application/json."),
    "too_many_connections": N_("Too many connections from your address at once: close some and try again."),
    "server_busy": N_("The server has as many connections as it can take: try again in a moment."),
    "slow_request": N_("The request's body took too long to arrive."),
    "too_many_rooms": N_(
        "Your address already has {limit} rooms whose games go on: finish or leave one before making another."
    ),
    "server_full": N_(
        "This server already holds as many games as it can ({limit}): join an open room, or try again later."
    ),
    "replays_busy": N_("Many replays are being prepared just now: try again in a moment."),
    "too_many_seats": N_("Your address already holds {limit} seats in games that go on: leave one first."),
    "bad_player": N_("The seat to take is a number from 0 to {last}."),
    "binary_frame": N_("Messages are JSON text: binary frames are refused."),
    "seated": N_("You already have a seat here."),
    "not_away": N_("Seat {player} is not away: only an away person's seat can be asked back."),
    "host_away": N_("The host is not at the table now: nobody can give the seat back. Try again later."),
    "ask_pending": N_("That seat has been asked for already: wait for the host's answer."),
    "no_ask": N_("That ask is no longer waiting for an answer."),
}
"""Error code -> sentence (an English msgid with ``str.format`` fields, translated when sent)."""


def error_text(code: str, **fields: object) -> str:
    """The sentence for error ``code`` with its fields filled in, in the language in force (the
    request's or connection's: :class:`unotable.web.lang.LanguageMiddleware`)."""
    return _(ERRORS[code]).format(**fields)


RETIRED: Final[dict[str, str]] = {
    "rejoined": N_("Your seat was taken back on another device: this page now only watches."),
    "freed": N_("The host freed your seat: this page now only watches."),
    "bot": N_("The host gave your seat to a bot: this page now only watches."),
    "given": N_(
        "The host gave your seat to whoever asked for it on another device: this page now only watches."
    ),
}
"""Why a connection's token stopped working -> the sentence it gets (``retired``)."""


def serving_friends(urls: list[str]) -> str:
    """What ``uno serve`` says when friends on the same network can open it."""
    return _("Friends on the same network can open: {urls}").format(urls="  ".join(urls))


def no_network_address() -> str:
    """What ``uno serve --host 0.0.0.0`` says when the machine has no network address."""
    return _("No network address found: only this machine can open the game.")


def retired_text(reason: str) -> str:
    """The sentence for a connection whose seat's token stopped working for ``reason``, in the
    language in force."""
    return _(RETIRED[reason])


__all__ = ["ERRORS", "RETIRED", "error_text", "no_network_address", "retired_text", "serving_friends"]
