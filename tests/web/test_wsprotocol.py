"""The server's WebSocket protocol reads on while the app takes each message as it comes, and
pauses reading only when a connection's messages wait (web/wsprotocol.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from unotable.cli import main
from unotable.web import serve
from unotable.web.wsprotocol import BACKLOG, websocket_protocol


class Transport:
    """Counts pauses and resumes of reading."""

    def __init__(self) -> None:
        self.paused = 0
        self.resumed = 0

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
