"""Every message of the WebSocket protocol, both ways, declared once (docs/web.md, "The
WebSocket").

Each message is a frozen dataclass: its type name (``TYPE``), who may send it (``WHO``: for a
client's message :data:`ANYONE`, :data:`WATCHER`, :data:`SEAT` or :data:`HOST`; else
:data:`SERVER`), and its fields with their types and a line of docs each. A client's message
also declares each field's check; a field with a default may be left out or null, the others
must be there and not null.

- The server builds what it sends as :class:`ServerMessage` objects (``to_dict``, then
  :func:`unotable.web.protocol.dumps`) and reads what a client sends into a
  :class:`ClientMessage` (:func:`unotable.web.protocol.parse`, which runs the checks).
- The Python client (:mod:`unotable.web.client`) builds what it sends with the same classes and
  reads what it gets with :func:`read_server`.
- The docs' tables (:func:`markdown`) and the page's ``static/js/protocol.js``
  (:func:`javascript`) are made from these declarations (``python -m unotable.web.messages
  --md`` or ``--js``); a test checks that both are up to date.

Standard library only: the client and the generator import it without the server's packages.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, TypeVar

ANYONE: Final = "anyone"
"""Who may send a message: any connection, before its hello too (``hello``, ``ping``)."""
WATCHER: Final = "watcher"
"""A connection that has said hello: a seat's (with its token) or a spectator's (token null)."""
SEAT: Final = "seat"
"""A seat's connection, with its token."""
HOST: Final = "host"
"""The host's seat's connection, with its token (another seat gets ``not_host``)."""
SERVER: Final = "server"
"""The server: every message a client gets."""

MAX_TOKEN: Final = 64
MAX_ACTION: Final = 40
MAX_PLAYER_NUMBER: Final = 100
"""Player numbers a message may name are below this (a room has at most ten, or eight)."""
MAX_BOT: Final = 80
MAX_REACTION: Final = 32
MAX_TEXT: Final = 600
"""Characters of a ``chat`` message's text at most here; the room's own bound (120 once spaces
are collapsed) gives the clear ``bad_chat``."""

Check = Callable[[Any], "str | None"]
"""What is wrong with a field's value (``None``: nothing)."""


def _string(limit: int) -> Check:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and 0 < len(value) <= limit:
            return None
        return f"must be a string of 1 to {limit} characters"

    return check


def _player(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_PLAYER_NUMBER:
        return f"must be a whole number from 0 to {MAX_PLAYER_NUMBER - 1}"
    return None


def _text(limit: int, doc: str) -> dict[str, Any]:
    """A client's string field of 1 to ``limit`` characters."""
    return {"check": _string(limit), "bound": f"1 to {limit} characters", "doc": doc}


_TOKEN: Final = _text(MAX_TOKEN, "the connection's seat's token")
MAX_NAME: Final = 40
"""Characters of a name a message may carry (the room's own bound, 24 once spaces are
collapsed, gives the clear ``bad_name``)."""
MAX_ASK: Final = 2**31 - 1


def _whole(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ASK:
        return f"must be a whole number from 0 to {MAX_ASK}"
    return None


_PLAYER: Final = {"check": _player, "bound": f"0 to {MAX_PLAYER_NUMBER - 1}", "doc": "a player number"}


def _boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


def _doc(text: str, **more: Any) -> dict[str, Any]:
    return {"doc": text, **more}


class Message:
    """What every message has: its type name, who may send it, and its JSON form."""

    TYPE: ClassVar[str]
    WHO: ClassVar[str]
    NAMES: ClassVar[tuple[str, ...]] = ()
    """Its fields' names, in order (set by its declaration)."""
    OMIT: ClassVar[frozenset[str]] = frozenset()
    """Fields left out of the JSON when ``None`` (rather than sent as null)."""

    def to_dict(self) -> dict[str, Any]:
        """The message as a JSON object: ``type`` first, then its fields in order."""
        out: dict[str, Any] = {"type": self.TYPE}
        omit = self.OMIT
        for name in self.NAMES:
            value = getattr(self, name)
            if value is None and name in omit:
                continue
            out[name] = value
        return out


class ClientMessage(Message):
    """A message a client sends (read and checked by :func:`unotable.web.protocol.parse`)."""


class ServerMessage(Message):
    """A message the server sends (read by a client with :func:`read_server`)."""

    WHO: ClassVar[str] = SERVER

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> typing.Self:
        """The message of the JSON object ``data`` (its fields by name; unknown keys ignored).

        :raises ValueError: for a field that is missing.
        """
        try:
            return cls(**{name: data[name] for name in cls.NAMES if name in data})
        except TypeError as exc:
            raise ValueError(f"{cls.TYPE}: {exc}") from None


M = TypeVar("M", bound=Message)

CLIENT_MESSAGES: Final[dict[str, type[ClientMessage]]] = {}
"""Every message a client may send, by type name (docs/web.md, "What the client sends")."""
SERVER_MESSAGES: Final[dict[str, type[ServerMessage]]] = {}
"""Every message the server sends, by type name (docs/web.md, "What the server sends")."""


def _declare(registry: dict[str, Any]) -> Callable[[type[M]], type[M]]:
    def register(cls: type[M]) -> type[M]:
        if cls.TYPE in registry:  # pragma: no cover - a declaration made twice
            raise RuntimeError(f"message type {cls.TYPE!r} declared twice")
        made = dataclasses.fields(cls)  # type: ignore[arg-type]
        cls.NAMES = tuple(f.name for f in made)
        cls.OMIT = frozenset(f.name for f in made if f.metadata.get("omit"))
        registry[cls.TYPE] = cls
        return cls

    return register


# ---- what a client sends


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Hello(ClientMessage):
    """First, on every connection: a seat's token, or null to watch."""

    TYPE: ClassVar[str] = "hello"
    WHO: ClassVar[str] = ANYONE
    token: str | None = field(default=None, metadata=_text(MAX_TOKEN, "a seat's token; null to watch"))
    changes: bool = field(
        default=False,
        metadata={
            "check": _boolean,
            "bound": "true or false",
            "doc": "true: the client keeps the last table: each `update` carries only its changes"
            ' ("The table\'s changes")',
        },
    )


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Act(ClientMessage):
    """An action of the seat, as the view's `legal` lists it."""

    TYPE: ClassVar[str] = "act"
    WHO: ClassVar[str] = SEAT
    token: str = field(metadata=_TOKEN)
    action: str = field(metadata=_text(MAX_ACTION, "in the notation of the hand's table: `play W+4 G uno`"))


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class NextHand(ClientMessage):
    """Deal the next hand, once a hand is over."""

    TYPE: ClassVar[str] = "next_hand"
    WHO: ClassVar[str] = SEAT
    token: str = field(metadata=_TOKEN)


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Rematch(ClientMessage):
    """Start the room's next game, once its game is over."""

    TYPE: ClassVar[str] = "rematch"
    WHO: ClassVar[str] = SEAT
    token: str = field(metadata=_TOKEN)


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Penalize(ClientMessage):
    """Ask for a player's suggestion penalty (a vote)."""

    TYPE: ClassVar[str] = "penalize"
    WHO: ClassVar[str] = SEAT
    token: str = field(metadata=_TOKEN)
    player: int = field(metadata=_PLAYER | {"doc": "the accused player"})


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class FreeSeat(ClientMessage):
    """Make a seat (not the host's own) a free person's seat."""

    TYPE: ClassVar[str] = "free_seat"
    WHO: ClassVar[str] = HOST
    token: str = field(metadata=_TOKEN)
    player: int = field(metadata=_PLAYER | {"doc": "the seat's player"})


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class SeatBot(ClientMessage):
    """Give a seat (not the host's own) to a bot."""

    TYPE: ClassVar[str] = "seat_bot"
    WHO: ClassVar[str] = HOST
    token: str = field(metadata=_TOKEN)
    player: int = field(metadata=_PLAYER | {"doc": "the seat's player"})
    bot: str = field(metadata=_text(MAX_BOT, "a bot spec as in the settings' `seats`: `greedy`"))


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class React(ClientMessage):
    """A reaction shown to every connection."""

    TYPE: ClassVar[str] = "react"
    WHO: ClassVar[str] = WATCHER
    token: str | None = field(
        default=None, metadata=_text(MAX_TOKEN, "the seat's token; null for a spectator")
    )
    reaction: str = field(metadata=_text(MAX_REACTION, "one of the reactions: `gg`, ..."))


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class SendChat(ClientMessage):
    """A line of chat shown to every connection, if the room's `chat` is on."""

    TYPE: ClassVar[str] = "chat"
    WHO: ClassVar[str] = SEAT
    token: str = field(metadata=_TOKEN)
    text: str = field(metadata=_text(MAX_TEXT, "plain text, 120 characters once spaces are collapsed"))


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Ping(ClientMessage):
    """Keep the connection open (the page pings every 10 s); answered `pong`."""

    TYPE: ClassVar[str] = "ping"
    WHO: ClassVar[str] = ANYONE


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class AskQr(ClientMessage):
    """Ask for the seat's rejoin QR code; answered `qr`."""

    TYPE: ClassVar[str] = "qr"
    WHO: ClassVar[str] = SEAT
    token: str = field(metadata=_TOKEN)


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class MoreTime(ClientMessage):
    """Add the room's `more_time_seconds` to the seat's running timer, once a hand."""

    TYPE: ClassVar[str] = "more_time"
    WHO: ClassVar[str] = SEAT
    token: str = field(metadata=_TOKEN)


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class AskSeat(ClientMessage):
    """A spectator asks for an away person's seat back (it was theirs): the host gives or refuses."""

    TYPE: ClassVar[str] = "ask_seat"
    WHO: ClassVar[str] = WATCHER
    token: str | None = field(
        default=None, metadata=_text(MAX_TOKEN, "null: only a spectator asks (a seat's token gets `seated`)")
    )
    player: int = field(metadata=_PLAYER | {"doc": "the away seat's player"})
    name: str = field(metadata=_text(MAX_NAME, "the asker's name, as the host is shown it"))


@_declare(CLIENT_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class AnswerAsk(ClientMessage):
    """The host gives an away seat back to whoever asked for it, or refuses."""

    TYPE: ClassVar[str] = "answer_ask"
    WHO: ClassVar[str] = HOST
    token: str = field(metadata=_TOKEN)
    ask: int = field(
        metadata={"check": _whole, "bound": f"0 to {MAX_ASK}", "doc": "the ask's number, from `seat_ask`"}
    )
    give: bool = field(
        metadata={"check": _boolean, "bound": "true or false", "doc": "true: give; false: refuse"}
    )


# ---- what the server sends


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Welcome(ServerMessage):
    """After `hello`, to that connection: the hand so far as its seat sees it."""

    TYPE: ClassVar[str] = "welcome"
    seq: int = field(metadata=_doc("as in `update`"))
    you: int | None = field(metadata=_doc("as in `update`"))
    seat: int | None = field(metadata=_doc("as in `update`"))
    events: list[dict[str, Any]] = field(metadata=_doc("the hand's events so far, as that seat may see them"))
    view: dict[str, Any] = field(metadata=_doc("as in `update`"))
    table: dict[str, Any] = field(metadata=_doc('the whole table ("The table"), whatever `hello` said'))
    rejoin: dict[str, Any] | None = field(
        default=None,
        metadata=_doc("to a seat only (left out for a spectator): `{url, link, code}`", omit=True),
    )
    chat: tuple[Chat, ...] = field(default=(), metadata=_doc("the room's last chat lines"))

    def to_dict(self) -> dict[str, Any]:
        """The message as a JSON object (its chat lines too)."""
        out = super().to_dict()
        out["chat"] = [line.to_dict() for line in self.chat]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> typing.Self:
        """The message of the JSON object ``data`` (its chat lines too)."""
        made = super().from_dict(data)
        return dataclasses.replace(made, chat=tuple(Chat.from_dict(line) for line in data.get("chat", ())))


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Update(ServerMessage):
    """After every change, to every connection: the change as its seat may see it."""

    TYPE: ClassVar[str] = "update"
    seq: int = field(metadata=_doc("the length of the game's log"))
    you: int | None = field(metadata=_doc("the connection's player (null: a spectator)"))
    seat: int | None = field(metadata=_doc("their seat at this hand's table"))
    events: list[dict[str, Any]] = field(metadata=_doc("the change's events as that seat may see them"))
    view: dict[str, Any] = field(metadata=_doc("the seat's view (a spectator's: the view of nobody)"))
    table: dict[str, Any] | None = field(
        default=None,
        metadata=_doc(
            'what everyone sees of the room ("The table"); to a client that said `changes` in its'
            " `hello`, only the keys that changed since the table it was last sent (left out if none)",
            omit=True,
        ),
    )


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Error(ServerMessage):
    """A message refused (nothing changed), to its sender."""

    TYPE: ClassVar[str] = "error"
    code: str = field(metadata=_doc("what was refused: `bad_json`, `illegal`, ..."))
    message: str = field(metadata=_doc("a sentence for a person, in the connection's language"))


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Pong(ServerMessage):
    """The answer to `ping`."""

    TYPE: ClassVar[str] = "pong"


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Retired(ServerMessage):
    """To each connection of a seat whose token stopped working; then closed (4001)."""

    TYPE: ClassVar[str] = "retired"
    reason: str = field(
        metadata=_doc("`rejoined`, `freed`, `bot` or `given` (the host gave it back to whoever asked)")
    )
    message: str = field(metadata=_doc("a sentence for a person"))


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Chat(ServerMessage):
    """A line of chat, to every connection (and in `welcome`)."""

    TYPE: ClassVar[str] = "chat"
    player: int = field(metadata=_doc("who said it"))
    name: str = field(metadata=_doc("their name"))
    text: str = field(metadata=_doc("plain text, 1 to 120 characters"))
    at: str = field(metadata=_doc("when: ISO 8601 UTC, to the second"))


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Reaction(ServerMessage):
    """A reaction, to every connection."""

    TYPE: ClassVar[str] = "reaction"
    player: int | None = field(metadata=_doc("who reacted (null: a spectator)"))
    reaction: str = field(metadata=_doc("one of the reactions: `gg`, ..."))


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class Qr(ServerMessage):
    """The answer to `qr`: the seat's rejoin QR code."""

    TYPE: ClassVar[str] = "qr"
    qr_svg: str = field(metadata=_doc("an SVG document (paths only) of the rejoin `link`"))


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class SeatAsk(ServerMessage):
    """To the host's connections: someone watching asks for an away seat back (answer `answer_ask`)."""

    TYPE: ClassVar[str] = "seat_ask"
    ask: int = field(metadata=_doc("the ask's number"))
    player: int = field(metadata=_doc("the away seat's player"))
    name: str = field(metadata=_doc("the name the asker gave"))


@_declare(SERVER_MESSAGES)
@dataclass(frozen=True, kw_only=True)
class AskAnswer(ServerMessage):
    """To the asking connection only: what became of its ask for a seat back."""

    TYPE: ClassVar[str] = "ask_answer"
    player: int = field(metadata=_doc("the seat asked for"))
    reason: str = field(
        metadata=_doc(
            "`given`, `refused`, `back` (its person came back), `gone` (the seat was freed or given to a bot)"
        )
    )
    token: str | None = field(
        default=None, metadata=_doc("`given` only: the seat's new token (the old one is revoked)", omit=True)
    )


def read_server(data: Any) -> ServerMessage | None:
    """The server's message in the decoded JSON ``data``; ``None`` for a type this code does not
    know (a newer server's: a client skips it).

    :raises ValueError: for a message that is not an object, or lacks a field of its type.
    """
    if not isinstance(data, dict):
        raise ValueError("a server message is a JSON object")
    cls = SERVER_MESSAGES.get(data.get("type"))  # type: ignore[arg-type]
    return None if cls is None else cls.from_dict(data)


# ---- the declarations as data: the docs' tables and the page's module


@dataclass(frozen=True)
class FieldInfo:
    """One field of a message as the docs and the page see it."""

    name: str
    type: str
    """``string``, ``integer``, ``object``, ``array``, or ``X or null``."""
    required: bool
    """Whether the field is always there (a client's: must be)."""
    bound: str
    """A client's field's bound (``1 to 64 characters``), else empty."""
    doc: str


_WORDS: Final[dict[Any, str]] = {str: "string", int: "integer", bool: "boolean", float: "number"}


def _type_word(hint: Any) -> str:
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        named = [_type_word(a) for a in args if a is not type(None)]
        return " or ".join(named) + (" or null" if type(None) in args else "")
    if origin in (list, tuple):
        return "array"
    if origin is dict or hint is dict:
        return "object"
    return _WORDS.get(hint, getattr(hint, "TYPE", "object"))


def fields_of(cls: type[Message]) -> list[FieldInfo]:
    """The fields of the message ``cls``, in order."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        word = _type_word(hints[f.name])
        if f.name == "chat" and cls is Welcome:
            word = "array of `chat`"
        out.append(FieldInfo(f.name, word, required, f.metadata.get("bound", ""), f.metadata["doc"]))
    return out


def markdown() -> str:
    """The docs' tables of messages (docs/web.md), made from the declarations."""
    lines = [
        "| client sends | who may | fields (`?`: may be left out or null) | what it does |",
        "| --- | --- | --- | --- |",
    ]
    for name, cls in CLIENT_MESSAGES.items():
        parts = [
            f"`{f.name}{'' if f.required else '?'}`: {f.type}, {f.bound}: {f.doc}" for f in fields_of(cls)
        ]
        lines.append(f"| `{name}` | {cls.WHO} | {'; '.join(parts) or '-'} | {_line(cls)} |")
    lines += ["", "| server sends | fields (`?`: may be left out) | what it is |", "| --- | --- | --- |"]
    for name, sent in SERVER_MESSAGES.items():
        parts = [f"`{f.name}{'' if f.required else '?'}`: {f.type}: {f.doc}" for f in fields_of(sent)]
        lines.append(f"| `{name}` | {'; '.join(parts) or '-'} | {_line(sent)} |")
    return "\n".join(lines) + "\n"


def _line(cls: type[Message]) -> str:
    return (cls.__doc__ or "").strip().splitlines()[0]


JS_HEADER: Final = """\
// The WebSocket protocol's message types and their fields, both ways (docs/web.md).
// Made by `python -m unotable.web.messages --js` from src/unotable/web/messages.py:
// do not edit; a test checks it is up to date.
"""


def javascript() -> str:
    """The page's ES module ``static/js/protocol.js``: each direction's type names and, per
    type, who may send it and its fields (name -> ``{type, required}``)."""

    def table(registry: Mapping[str, type[Message]]) -> dict[str, Any]:
        return {
            name: {
                "who": cls.WHO,
                "fields": {f.name: {"type": f.type, "required": f.required} for f in fields_of(cls)},
            }
            for name, cls in registry.items()
        }

    def constant(name: str) -> str:
        return name.upper()

    out = [JS_HEADER]
    for label, registry in (("CLIENT", CLIENT_MESSAGES), ("SERVER", SERVER_MESSAGES)):
        names = {constant(n): n for n in registry}
        out.append(f"/** The type names of the messages the {label.lower()} sends. */")
        out.append(f"export const {label} = Object.freeze({json.dumps(names, indent=2)});\n")
        out.append(f"/** Per type the {label.lower()} sends: who may send it and its fields. */")
        out.append(f"export const {label}_MESSAGES = freeze({json.dumps(table(registry), indent=2)});\n")
    out.append(
        "function freeze(value) {\n"
        '  for (const inner of Object.values(value)) if (typeof inner === "object") freeze(inner);\n'
        "  return Object.freeze(value);\n"
        "}\n"
    )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """``--md``: print the docs' tables; ``--js``: print the page's module."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--md"]:
        sys.stdout.write(markdown())
    elif args == ["--js"]:
        sys.stdout.write(javascript())
    else:
        sys.stderr.write("usage: python -m unotable.web.messages --md | --js\n")
        return 2
    return 0


__all__ = [
    "ANYONE",
    "CLIENT_MESSAGES",
    "HOST",
    "MAX_ACTION",
    "MAX_ASK",
    "MAX_BOT",
    "MAX_NAME",
    "MAX_PLAYER_NUMBER",
    "MAX_REACTION",
    "MAX_TEXT",
    "MAX_TOKEN",
    "SEAT",
    "SERVER",
    "SERVER_MESSAGES",
    "WATCHER",
    "Act",
    "AnswerAsk",
    "AskAnswer",
    "AskQr",
    "AskSeat",
    "Chat",
    "ClientMessage",
    "Error",
    "FieldInfo",
    "FreeSeat",
    "Hello",
    "Message",
    "MoreTime",
    "NextHand",
    "Penalize",
    "Ping",
    "Pong",
    "Qr",
    "React",
    "Reaction",
    "Rematch",
    "Retired",
    "SeatAsk",
    "SeatBot",
    "SendChat",
    "ServerMessage",
    "Update",
    "Welcome",
    "fields_of",
    "javascript",
    "main",
    "markdown",
    "read_server",
]

if __name__ == "__main__":
    raise SystemExit(main())
