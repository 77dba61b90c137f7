"""The server's side of the heartbeat (issue 31): a socket its client has said nothing on for
:data:`~unotable.web.connection.IDLE_SECONDS` is closed with
:data:`~unotable.web.connection.IDLE_CLOSE`, so a client frozen or lost without a word does not
hold a seat's connection (nor nginx's) for an hour; one that pings, as the page does, stays."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from unotable.web import connection
from unotable.web.cluster import RECONNECT
from unotable.web.connection import IDLE_CLOSE
from unotable.web.hub import Hub

from .conftest import LiveServer


def test_a_silent_socket_is_closed_and_a_pinging_one_stays(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connection, "IDLE_SECONDS", 1.0)
    code = live.room({"players": 2, "seats": ["human", "greedy"], "bot_delay": 0})
    token, _ = live.join(code, "Ana")

    async def scenario() -> None:
        url = f"{live.ws}/ws/{code}"
        async with connect(url) as silent, connect(url) as pinging, connect(url) as mute:
            await silent.send(json.dumps({"type": "hello", "token": token}))
            await pinging.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(await silent.recv())["type"] == "welcome"
            assert json.loads(await pinging.recv())["type"] == "welcome"
            pongs = 0

            async def ping() -> None:  # twice as often as the idle time, like the page
                nonlocal pongs
                while True:
                    await pinging.send(json.dumps({"type": "ping"}))
                    while json.loads(await asyncio.wait_for(pinging.recv(), 5))["type"] != "pong":
                        pass
                    pongs += 1
                    await asyncio.sleep(0.5)

            pinger = asyncio.create_task(ping())
            with pytest.raises(ConnectionClosed) as closed:  # said hello, then nothing
                while True:
                    await asyncio.wait_for(silent.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == IDLE_CLOSE
            with pytest.raises(ConnectionClosed) as closed:  # said nothing at all
                while True:
                    await asyncio.wait_for(mute.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == IDLE_CLOSE
            closed_at, deadline = pongs, time.monotonic() + 30
            while pongs < closed_at + 4 and not pinger.done():  # answered past the idle time
                assert time.monotonic() < deadline, f"{pongs - closed_at} pongs since the others closed"
                await asyncio.sleep(0.05)
            assert not pinger.done(), pinger  # still open, still answered
            pinger.cancel()

    asyncio.run(scenario())


def test_a_room_that_left_memory_before_the_hello_sends_the_client_on(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket opened on a room that then moved to another node (or was unloaded) before its
    hello came: the client is welcomed and closed with 1012 to reconnect to the room where it
    lives now, not left on a stopped copy that never says anything again (a room stuck at its
    first step, seen when rebalancing unloaded rooms just made)."""
    code = live.room({"players": 2, "seats": ["greedy", "greedy"], "bot_delay": 0})
    app: Any = live.server.config.app
    hub: Hub = app.state.hub
    loop = live.server.servers[0].get_loop()
    served = threading.Event()
    run = connection.Connection.run

    async def noted_run(self: connection.Connection) -> None:
        if self.room.code == code:
            served.set()
        await run(self)

    monkeypatch.setattr(connection.Connection, "run", noted_run)

    async def scenario() -> None:
        async with connect(f"{live.ws}/ws/{code}") as ws:
            deadline = time.monotonic() + 30
            while not served.is_set():  # the room is served to this socket
                assert time.monotonic() < deadline, "the socket was never served its room"
                await asyncio.sleep(0.01)
            await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(hub.drop(code), loop))
            await ws.send(json.dumps({"type": "hello", "token": None}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == RECONNECT
        async with connect(f"{live.ws}/ws/{code}") as ws:  # back: the room is loaded again and plays
            await ws.send(json.dumps({"type": "hello", "token": None}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["seq"] < 3:
                pass

    asyncio.run(scenario())
