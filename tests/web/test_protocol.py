"""The WebSocket protocol's declarations (web/messages.py): the server builds and checks every
message through them, the docs' tables and the page's protocol.js are made from them, and the
Python client reads them back."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web tests need the web extra (make setup installs it)")

from unotable.web import connection, messages
from unotable.web.connection import HANDLERS
from unotable.web.fanout import Listener
from unotable.web.messages import (
    ANYONE,
    CLIENT_MESSAGES,
    HOST,
    SEAT,
    SERVER,
    SERVER_MESSAGES,
    WATCHER,
    Act,
    Chat,
    ClientMessage,
    Error,
    Hello,
    Penalize,
    Pong,
    React,
    Reaction,
    SeatBot,
    Update,
    Welcome,
    fields_of,
    javascript,
    markdown,
    read_server,
)
from unotable.web.protocol import ProtocolError, Shared, dumps, parse

WEB = Path(messages.__file__).parent
ROOT = WEB.parents[2]
DOCS = ROOT / "docs" / "web.md"
PROTOCOL_JS = WEB / "static" / "js" / "protocol.js"
BUILDERS = ("app", "client", "connection", "fanout", "hub", "protocol", "room", "social", "../mcp/remote")
"""The modules that build or read the protocol's messages: no dict of a message by hand."""


def _message_dicts(source: str) -> list[int]:
    """Lines of ``source`` that make or change a dict's ``"type"`` key by hand."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            if "type" in keys:
                lines.append(node.lineno)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            if isinstance(node.slice, ast.Constant) and node.slice.value == "type":
                lines.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            lines += [node.lineno for k in node.keywords if k.arg == "type"]
    return lines


def test_the_check_finds_a_message_made_by_hand() -> None:
    assert _message_dicts('m = {"type": "pong"}\nn = {}\nn["type"] = "x"\no = dict(type=1)') == [1, 3, 4]
    assert _message_dicts('m = {"kind": "pong"}\nm["seq"] = 1') == []


@pytest.mark.parametrize("module", BUILDERS)
def test_no_module_makes_a_message_by_hand(module: str) -> None:
    """Every message is built through its declaration (web/messages.py), none as a dict."""
    source = (WEB / f"{module}.py").read_text(encoding="utf-8")
    assert _message_dicts(source) == [], f"{module}.py builds a message as a dict"


def test_every_client_message_has_one_handler_and_a_sender() -> None:
    assert set(HANDLERS) == set(CLIENT_MESSAGES.values())
    assert {cls.WHO for cls in CLIENT_MESSAGES.values()} <= {ANYONE, WATCHER, SEAT, HOST}
    assert {cls.WHO for cls in SERVER_MESSAGES.values()} == {SERVER}
    for cls in CLIENT_MESSAGES.values():  # a seat's message names the seat by its token
        if cls.WHO in (SEAT, HOST):
            assert next((f.name, f.type, f.required) for f in fields_of(cls)) == ("token", "string", True)


def test_the_type_names_are_todays() -> None:
    """The wire is unchanged but for additions at the end (issue 34: `more_time`): the same type
    names, in the order ``unknown_type`` lists them."""
    assert list(CLIENT_MESSAGES) == [
        "hello",
        "act",
        "next_hand",
        "rematch",
        "penalize",
        "free_seat",
        "seat_bot",
        "react",
        "chat",
        "ping",
        "qr",
        "more_time",
        "ask_seat",  # issue 34: a seat asked back through the host
        "answer_ask",
    ]
    assert set(SERVER_MESSAGES) == {
        "welcome",
        "update",
        "error",
        "pong",
        "retired",
        "chat",
        "reaction",
        "qr",
        "seat_ask",
        "ask_answer",
    }


def test_parse_gives_the_declared_class() -> None:
    assert parse('{"type": "act", "token": "t", "action": "draw"}') == Act(token="t", action="draw")
    assert parse('{"type": "hello"}') == Hello(token=None)
    assert parse('{"type": "hello", "token": null}') == Hello(token=None)
    assert parse('{"type": "react", "reaction": "gg"}') == React(token=None, reaction="gg")
    assert parse('{"type": "penalize", "token": "t", "player": 3}') == Penalize(token="t", player=3)
    assert parse('{"type": "seat_bot", "token": "t", "player": 1, "bot": "greedy"}') == SeatBot(
        token="t", player=1, bot="greedy"
    )


@pytest.mark.parametrize(
    ("text", "code", "detail"),
    [
        ('{"type": "act", "token": "t"}', "bad_message", "needs the field 'action'"),
        ('{"type": "act", "token": "t", "action": null}', "bad_message", "action must be"),
        ('{"type": "react", "token": "t"}', "bad_message", "needs the field 'reaction'"),
        ('{"type": "penalize", "token": "t", "player": true}', "bad_message", "player must be"),
        ('{"type": "penalize", "token": "t", "player": 100}', "bad_message", "player must be"),
        ('{"type": "ping", "token": "t"}', "bad_message", "no field 'token'"),
        ('{"type": "pong"}', "unknown_type", "pong"),
        ('{"type": "welcome"}', "unknown_type", "welcome"),
        ("[1]", "bad_json", ""),
    ],
)
def test_parse_refuses_what_the_declarations_do_not_allow(text: str, code: str, detail: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(text)
    assert caught.value.code == code and detail in caught.value.text
    error = caught.value.message()
    assert isinstance(error, Error) and json.loads(dumps(error)) == {
        "type": "error",
        "code": code,
        "message": caught.value.text,
    }


def _examples() -> list[Any]:
    line = Chat(player=1, name="Ben", text="hi", at="2026-12-03T22:00:00Z")
    table = {"code": "ABCD2345", "players": [{"player": 0}], "settings": {"room": {}}}
    view = {"seat": 0, "hand": ["R7"], "legal": ["draw"]}
    return [
        Welcome(seq=3, you=0, seat=1, events=[{"kind": "deal"}], view=view, table=table, chat=(line,)),
        Welcome(seq=3, you=0, seat=1, events=[], view=view, table=table, rejoin={"code": "AB-12"}),
        Update(seq=4, you=None, seat=None, events=[], view=view, table=table),
        line,
        Reaction(player=None, reaction="gg"),
        Pong(),
        Error(code="illegal", message="No."),
    ]


@pytest.mark.parametrize("message", _examples(), ids=lambda m: m.TYPE)
def test_what_the_server_sends_reads_back_as_the_same_class(message: Any) -> None:
    data = json.loads(dumps(message))
    assert data["type"] == message.TYPE and next(iter(data)) == "type"
    assert read_server(data) == message


def test_the_wire_is_todays() -> None:
    """A spectator's welcome has no ``rejoin`` key (not a null one); a seat's has its keys."""
    spectator, seat, update = _examples()[:3]
    assert list(json.loads(dumps(spectator))) == [
        "type",
        "seq",
        "you",
        "seat",
        "events",
        "view",
        "table",
        "chat",
    ]
    assert json.loads(dumps(spectator))["chat"] == [
        {"type": "chat", "player": 1, "name": "Ben", "text": "hi", "at": "2026-12-03T22:00:00Z"}
    ]
    assert json.loads(dumps(seat))["rejoin"] == {"code": "AB-12"}
    assert list(json.loads(dumps(update))) == ["type", "seq", "you", "seat", "events", "view", "table"]
    assert dumps(Pong()) == '{"type":"pong"}'


def test_a_client_skips_a_type_it_does_not_know_and_refuses_a_broken_one() -> None:
    assert read_server({"type": "fireworks", "colour": "red"}) is None
    with pytest.raises(ValueError, match="update"):
        read_server({"type": "update", "seq": 1})
    with pytest.raises(ValueError):
        read_server(["update"])


def test_the_docs_table_is_made_from_the_declarations() -> None:
    """docs/web.md shows every message and field as declared (``--md`` remakes it)."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("<!-- messages: made by")
    start = text.index("\n", start) + 1
    end = text.index("<!-- messages: end -->")
    assert text[start:end] == markdown(), "docs/web.md: run python -m unotable.web.messages --md"
    for name, cls in {**CLIENT_MESSAGES, **SERVER_MESSAGES}.items():
        assert f"`{name}`" in text[start:end]
        for field in cls.NAMES:
            assert f"`{field}" in text[start:end]


def test_the_pages_protocol_module_is_up_to_date() -> None:
    """static/js/protocol.js is what ``python -m unotable.web.messages --js`` writes."""
    assert PROTOCOL_JS.read_text(encoding="utf-8") == javascript(), (
        "run: python -m unotable.web.messages --js > src/unotable/web/static/js/protocol.js"
    )
    text = PROTOCOL_JS.read_text(encoding="utf-8")
    for name in (*CLIENT_MESSAGES, *SERVER_MESSAGES):
        assert f'"{name}"' in text


def test_the_command_prints_both() -> None:
    for flag, made in (("--md", markdown()), ("--js", javascript())):
        out = subprocess.run(
            [sys.executable, "-m", "unotable.web.messages", flag],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONPATH": str(WEB.parents[1])},
        )
        assert out.stdout == made
    assert messages.main(["--nothing"]) == 2


def test_the_declarations_import_only_the_standard_library() -> None:
    """The client and the generator use them without the server's packages."""
    tree = ast.parse(Path(messages.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                assert name.split(".")[0] in sys.stdlib_module_names or name == "__future__", name


class _Seat:
    def __init__(self, player: int) -> None:
        self.player = player


class _Room:
    """Only what the sender's check reads: seats by token (``t0``, ``t1``) and the host (0)."""

    host = 0

    def seat_by_token(self, token: str) -> _Seat | None:
        return _Seat(int(token[1:])) if token in ("t0", "t1") else None


def _refusal(m: Any, player: int | None, *, said_hello: bool = True) -> str | None:
    """The code :meth:`Connection.handle` refuses ``m`` with, from ``player``'s connection
    (``None``: a spectator's); ``None`` if it reached its handler."""
    c = connection.Connection(object(), _Room())  # type: ignore[arg-type]
    c.listener = Listener(player) if said_hello else None
    reached: list[Any] = []

    async def handler(_: Any, message: Any, who: int | None) -> None:
        reached.append((message, who))

    handlers = dict(HANDLERS)
    HANDLERS[type(m)] = handler
    try:
        asyncio.run(c.handle(m))
    except ProtocolError as exc:
        return exc.code
    finally:
        HANDLERS.clear()
        HANDLERS.update(handlers)
    assert reached == [(m, None if m.WHO == ANYONE else player)]
    return None


def _sample(cls: type[ClientMessage], token: str | None) -> ClientMessage:
    values = {"token": token, "action": "draw", "player": 1, "bot": "greedy", "reaction": "gg", "text": "hi"}
    values |= {"name": "Ana", "ask": 1, "give": True, "changes": True}
    return cls(**{name: values[name] for name in cls.NAMES})


@pytest.mark.parametrize("cls", list(CLIENT_MESSAGES.values()), ids=lambda cls: cls.TYPE)
def test_who_may_send_is_checked_as_declared(cls: type[ClientMessage]) -> None:
    """Before the handler runs: hello first, a seat's own token, no spectator for a seat's
    message, the host's seat for the host's."""
    who = cls.WHO
    if who == ANYONE:
        assert _refusal(_sample(cls, None) if cls.NAMES else cls(), None, said_hello=False) is None
        return
    assert _refusal(_sample(cls, "t0"), 0, said_hello=False) == "hello_first"
    assert _refusal(_sample(cls, "t1"), 0) == "wrong_token"
    assert _refusal(_sample(cls, "t0"), 0) is None  # the host's seat: anything
    assert _refusal(_sample(cls, "t1"), 1) == ("not_host" if who == HOST else None)
    assert _refusal(_sample(cls, "t0"), None) == "spectator"
    if who == WATCHER:
        assert _refusal(_sample(cls, None), None) is None


def test_one_actions_messages_share_one_encoding_of_the_table() -> None:
    """The table every player's update carries is encoded once per action, and each message's
    text is what it would be alone."""
    table: dict[str, Any] = {"code": "ABCD2345", "players": [{"player": p, "name": None} for p in range(3)]}
    made = [
        Update(seq=1, you=p, seat=p, events=[{"kind": "draw", "seat": p}], view={}, table=table)
        for p in range(3)
    ]
    shared: Shared = {}
    texts = [dumps(m, shared) for m in made]
    assert texts == [dumps(m) for m in made]
    assert list(shared) == [id(table)] and shared[id(table)][0] is table
    other = {**table, "code": "EFGH6789"}
    assert (
        json.loads(dumps(Update(seq=2, you=0, seat=0, events=[], view={}, table=other), shared))["table"]
        == other
    )
    assert len(shared) == 2


def test_the_page_reads_the_declared_type_names() -> None:
    """Every message type the page's scripts compare a message's ``type`` with is one the server
    sends (static/**/*.js: ``m.type === "welcome"``, or protocol.js's ``SERVER.WELCOME``)."""
    compared: dict[str, set[str]] = {}
    for script in (WEB / "static").rglob("*.js"):
        if script == PROTOCOL_JS:
            continue
        text = script.read_text(encoding="utf-8")
        names = re.findall(r"\.type\s*[!=]==?\s*\"([a-z_]+)\"", text)
        names += [name.lower() for name in re.findall(r"\bSERVER\.([A-Z_]+)\b", text)]
        for name in names:
            compared.setdefault(name, set()).add(script.name)
    assert compared, "the page reads no message type: the patterns no longer match its scripts"
    unknown = {name: sorted(where) for name, where in compared.items() if name not in SERVER_MESSAGES}
    assert not unknown, f"the page reads message types the server never sends: {unknown}"
