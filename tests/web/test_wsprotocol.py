"""The server's WebSocket protocol reads on while the app takes each message as it comes, and
pauses reading only when a connection's messages wait; it writes a room's messages at once,
below Starlette, while the peer reads (web/wsprotocol.py, web/fanout.py)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocket
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.sync.client import connect

from unotable.cli import main
from unotable.web import serve
from unotable.web.client import choose
from unotable.web.fanout import Listener
from unotable.web.wsprotocol import BACKLOG, SEND_NOW, websocket_protocol

from .conftest import LiveServer


class Transport:
    """Counts pauses and resumes of reading; keeps what is written."""

    def __init__(self) -> None:
        self.paused = 0
        self.resumed = 0
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        self.resumed += 1


async def _app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never called
    pass


def test_reading_pauses_only_when_messages_wait() -> None:
    async def main() -> Transport:
        config = Config(app=_app, ws=websocket_protocol())
        config.load()
        made: Any = config.ws_protocol_class
        proto: Any = made(config=config, server_state=ServerState(), app_state={})
        transport = proto.transport = Transport()

        def arrives(text: str) -> None:
            proto.curr_msg_data_type = "text"
            proto.frames = [text.encode()]
            proto.send_receive_event_to_app()

        for n in range(20):  # the app takes each message as it comes: reading never pauses
            arrives(f"m{n}")
            assert (await proto.receive())["text"] == f"m{n}"
        assert transport.paused == 0
        for n in range(BACKLOG - 1):  # messages wait: reading goes on up to the backlog
            arrives(f"w{n}")
        assert transport.paused == 0
        arrives("last")  # the backlog is full: reading pauses, once
        arrives("past")
        assert transport.paused == 1
        taken = [(await proto.receive())["text"] for _ in range(BACKLOG + 1)]
        assert taken == [f"w{n}" for n in range(BACKLOG - 1)] + ["last", "past"]
        return transport

    transport = asyncio.run(main())
    assert transport.resumed == 1  # once every waiting message was taken


def test_uno_serve_runs_it_without_compression(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started: dict[str, Any] = {}
    monkeypatch.setattr(serve, "run_uvicorn", lambda app, **kw: started.update(kw, app=app))
    monkeypatch.setattr(serve, "listen_problem", lambda host, port: None)
    assert main(["serve", "--no-access-log", "--data-dir", str(tmp_path)]) == 0
    assert issubclass(started["ws"], WebSocketsSansIOProtocol)
    assert started["ws"] is not WebSocketsSansIOProtocol  # ours: reading paused past the backlog
    assert started["ws_per_message_deflate"] is False
    assert started["ws_ping_interval"] is None  # the idle close finds silent peers (connection.py)


HANDSHAKE = (
    b"GET /ws/ABCD HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def test_send_now_writes_a_frame_at_once_only_while_the_socket_is_open_and_read() -> None:
    async def main() -> None:
        accepted = asyncio.Event()
        done = asyncio.Event()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            assert (await receive())["type"] == "websocket.connect"
            assert scope["extensions"][SEND_NOW]("early") is False  # not accepted yet
            await send({"type": "websocket.accept"})
            accepted.set()
            await done.wait()

        config = Config(app=app, ws=websocket_protocol())
        config.load()
        made: Any = config.ws_protocol_class
        proto: Any = made(config=config, server_state=ServerState(), app_state={})
        transport = proto.transport = Transport()
        proto.data_received(HANDSHAKE)
        send_now = proto.scope["extensions"][SEND_NOW]
        await asyncio.wait_for(accepted.wait(), 5)
        transport.written.clear()
        assert send_now("héllo") is True
        assert transport.written == [b"\x81\x06" + "héllo".encode()]  # one text frame, unmasked
        proto.pause_writing()  # the peer is not reading: the buffer is full
        assert send_now("later") is False
        proto.resume_writing()
        assert send_now("later") is True
        await proto.send({"type": "websocket.close", "code": 1000})
        assert send_now("after") is False
        assert len(transport.written) == 3  # héllo, later and the close frame: nothing after it
        done.set()

    asyncio.run(main())


def test_a_listener_sends_at_once_only_while_nothing_waits_before_it() -> None:
    async def main() -> None:
        written: list[str] = []
        takes = [True]

        def direct(text: str) -> bool:
            if takes[0]:
                written.append(text)
            return takes[0]

        listener = Listener(0)
        listener.direct = direct
        listener.send("a")
        assert written == ["a"] and listener.queue.empty()
        takes[0] = False  # the peer is slow: queued
        listener.send("b")
        takes[0] = True
        listener.send("c")  # "b" waits: "c" goes behind it, not before
        assert written == ["a"]
        assert [listener.queue.get_nowait() for _ in range(2)] == ["b", "c"]
        listener.writing = True  # the writer holds a message not yet sent
        listener.send("d")
        assert written == ["a"] and listener.queue.get_nowait() == "d"
        listener.writing = False
        listener.close(1000)
        listener.send("e")  # closed: nothing more
        assert written == ["a"] and listener.queue.get_nowait() is None and listener.queue.empty()

    asyncio.run(main())


def test_a_served_rooms_messages_go_below_starlette_in_order(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through uvicorn, every message after the hello is written by the protocol's send_now:
    Starlette's ``send_text`` is never called, and both seats hear every update in order."""
    through_starlette: list[str] = []
    original = WebSocket.send_text

    async def counted(self: WebSocket, data: str) -> None:
        through_starlette.append(data)
        await original(self, data)

    monkeypatch.setattr(WebSocket, "send_text", counted)
    server = LiveServer(sqlite_url, seeds=lambda: 7)
    try:
        code = server.room({"players": 2, "seats": ["human", "human"], "bot_delay": 0})
        tokens = [server.join(code, name)[0] for name in ("Ana", "Ben")]
        with connect(f"{server.ws}/ws/{code}") as a, connect(f"{server.ws}/ws/{code}") as b:
            sockets = [a, b]
            latest: list[dict[str, Any]] = []
            for ws, token in zip(sockets, tokens, strict=True):
                ws.send(json.dumps({"type": "hello", "token": token}))
                latest.append(json.loads(ws.recv(5)))
            json.loads(a.recv(5))  # Ben came online
            seqs: list[list[int]] = [[], []]
            rng = random.Random(3)
            for _ in range(12):
                mover = next(i for i, m in enumerate(latest) if m["view"]["current"] == m["view"]["seat"])
                action = choose(latest[mover]["view"], rng, react=0.0)
                assert action is not None
                sockets[mover].send(json.dumps({"type": "act", "token": tokens[mover], "action": action}))
                for i, ws in enumerate(sockets):
                    m = json.loads(ws.recv(5))
                    assert m["type"] == "update"
                    seqs[i].append(m["seq"])
                    latest[i] = m
                if any(m["table"].get("status") == "finished" for m in latest if m.get("table")):
                    break
        assert seqs[0] == seqs[1] == list(range(1, len(seqs[0]) + 1))
        assert through_starlette == []
    finally:
        server.stop()
