"""Fan-out: a room's connections, and what each of them may see.

Each connection is a :class:`Listener` (the player it is, ``None`` for a spectator, and its
queue of messages, already JSON). A seat's connection gets its player's
:class:`~unotable.views.View` and the events redacted for its seat (``Event.for_seat``); a
spectator gets the core's view of nobody (``views.view(state, None)``) and each event as nobody
in particular sees it (:func:`~unotable.views.public_event`, P-340). One message is made per
player and shared by that player's connections.

A connection whose client said ``changes`` in its ``hello`` keeps the table: its ``update``
carries only the table's keys that changed since the table it was last sent
(:func:`table_changes`; docs/web.md, "The table's changes"), and none when nothing did.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, Final

from unotable.events import Event
from unotable.match import Game
from unotable.views import public_event
from unotable.web.messages import ServerMessage, Update
from unotable.web.protocol import Shared, dumps

QUEUE_LIMIT: Final = 500
"""Messages waiting for one connection at most; a connection that falls further behind is closed."""


class Listener:
    """One connection's outbox: the player it is (``None``: a spectator) and its queued messages
    (``None`` at the end closes it, with ``close_code``)."""

    def __init__(self, player: int | None, *, changes: bool = False) -> None:
        self.player = player
        self.changes = changes
        """The client keeps the table: send it the table's changes only."""
        self.table: dict[str, Any] | None = None
        """The whole table this connection was last sent (set by its welcome, kept by
        :meth:`Fanout.broadcast`)."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1008
        """The WebSocket close code once closed by the server (1008: fell behind)."""
        self.direct: Callable[[str], bool] | None = None
        """Writes one message to the socket at once if it can (web/wsprotocol.py's ``send_now``);
        used while nothing is queued, so that messages keep their order."""
        self.writing = False
        """The connection's writer holds a message taken from the queue and not yet sent."""

    def send(self, text: str) -> None:
        """Send one message (already JSON): at once if nothing is waiting before it and the
        socket takes it, else queued; close a connection that has fallen too far behind."""
        if self.closed:
            return
        direct = self.direct
        if direct is not None and not self.writing and self.queue.empty() and direct(text):
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self.queue.put_nowait(text)

    def send_json(self, message: ServerMessage) -> None:
        """Queue one message (as JSON)."""
        self.send(dumps(message))

    def close(self, code: int = 1008) -> None:
        """End the connection once what is queued is sent."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


def table_changes(before: dict[str, Any], now: dict[str, Any]) -> dict[str, Any] | None:
    """The keys of the table ``now`` whose values differ from ``before``'s (a key gone: null),
    ``None`` if none do. Each value is compared whole: the table's parts are made again when
    they change, never changed in place."""
    changed = {key: value for key, value in now.items() if key not in before or before[key] != value}
    for key in before:
        if key not in now:
            changed[key] = None
    return changed or None


def events_for(game: Game, seat: int | None, events: Iterable[Event]) -> list[dict[str, Any]]:
    """``events`` as ``seat`` of the hand's table may see them (``None``: a spectator)."""
    if seat is None:
        n = game.state.n
        return [public_event(e, n).to_dict() for e in events]
    return [e.for_seat(seat).to_dict() for e in events]


def view_for(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` of the hand's table (``None``: the view of nobody)."""
    return game.seat_view(seat).to_dict()


def seat_message(
    game: Game, seq: int, player: int | None, events: Iterable[Event], table: dict[str, Any]
) -> Update:
    """The ``update`` for ``player``'s connections (``None``: a spectator's)."""
    seat = None if player is None else game.seat_of(player)
    return Update(
        seq=seq,
        you=player,
        seat=seat,
        events=events_for(game, seat, events),
        view=view_for(game, seat),
        table=table,
    )


class Fanout:
    """A room's open connections."""

    def __init__(self) -> None:
        self.listeners: set[Listener] = set()

    def __bool__(self) -> bool:
        return bool(self.listeners)

    def connected(self) -> set[int]:
        """The players with at least one open connection."""
        return {lst.player for lst in self.listeners if lst.player is not None and not lst.closed}

    def add(self, listener: Listener) -> None:
        """A new connection (after its welcome is queued)."""
        self.listeners.add(listener)

    def remove(self, listener: Listener) -> None:
        """Forget a connection and close it."""
        self.listeners.discard(listener)
        listener.close()

    def of(self, player: int) -> list[Listener]:
        """``player``'s connections."""
        return [lst for lst in self.listeners if lst.player == player]

    def send_all(self, message: ServerMessage) -> None:
        """The same message to every connection."""
        text = dumps(message)
        for lst in list(self.listeners):
            lst.send(text)
            if lst.closed:
                self.listeners.discard(lst)

    def broadcast(self, make: Callable[[int | None], ServerMessage], skip: Listener | None = None) -> None:
        """One message per player (``make(player)``), sent to each of its connections (but
        ``skip``); the parts they share (the ``table``) encoded once. A connection that keeps
        the table gets an ``update`` with the table's changes since the one it was last sent
        (worked out once for every connection sent the same table)."""
        made: dict[int | None, ServerMessage] = {}
        cache: dict[tuple[int | None, int], str] = {}
        changes: dict[tuple[int, int], tuple[dict[str, Any] | None]] = {}
        shared: Shared = {}
        for lst in list(self.listeners):
            if lst is skip:
                continue
            message = made.get(lst.player)
            if message is None:
                message = made[lst.player] = make(lst.player)
            table = message.table if isinstance(message, Update) else None
            base = lst.table if lst.changes and table is not None else None
            key = (lst.player, 0 if base is None else id(base))
            text = cache.get(key)
            if text is None:
                if base is not None and isinstance(message, Update) and table is not None:
                    pair = (id(base), id(table))
                    diff = changes.get(pair)
                    if diff is None:
                        diff = changes[pair] = (table_changes(base, table),)
                    message = dataclasses.replace(message, table=diff[0])
                text = cache[key] = dumps(message, shared)
            lst.send(text)
            if table is not None:
                lst.table = table
            if lst.closed:
                self.listeners.discard(lst)


__all__ = ["QUEUE_LIMIT", "Fanout", "Listener", "events_for", "seat_message", "table_changes", "view_for"]
