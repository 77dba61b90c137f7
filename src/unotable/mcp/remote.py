"""A seat at a real ``uno serve`` room, for ``uno mcp``: join, observe, act, leave.

:class:`RoomSeat` takes a seat as the page does (docs/web.md): ``POST /api/rooms/CODE/join``
(or ``/rejoin`` with a seat's own rejoin link), then the WebSocket ``/ws/CODE`` with the seat's
token. A task reads every message the server sends the seat; :meth:`RoomSeat.observe` answers
from the last one (the seat's view, its legal actions, the table everyone sees) and the events
since the last answer, in the same compact form as :meth:`unotable.mcp.table.Table.observe`, and
:meth:`RoomSeat.act` sends one of the seat's actions and waits for the server's answer. The
server is the referee: an action it refuses comes back as a :class:`RoomError` carrying its
error code and sentence, and it changed nothing there.

Everything an answer holds comes from what the server sent this seat (its own view and the
events as its seat may see them); the seat's token and rejoin link never appear in an answer
but :meth:`RoomSeat.leave`'s (the rejoin link, to take the seat back from a browser).

Standard library, ``websockets`` (the ``[web]`` extra, loaded when a room is joined), and the
core's cards, events, narration and rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Final

from unotable.cards import CARD_CODE, COLOR_NAMES, COLORS, parse_card
from unotable.errors import ConfigError, UnoError
from unotable.events import Event
from unotable.i18n import _
from unotable.mcp import words
from unotable.names import card_name
from unotable.narrate import describe
from unotable.rules import Rules
from unotable.ruletext import rules_text
from unotable.web.messages import (
    Act,
    ClientMessage,
    Error,
    Hello,
    NextHand,
    Ping,
    Pong,
    Rematch,
    Retired,
    Update,
    Welcome,
    read_server,
)

DEFAULT_SERVER: Final = "http://127.0.0.1:8000"
"""Where a bare room code is looked for (``uno serve``'s default address)."""
WAIT: Final = 30.0
"""Seconds ``observe`` and ``act`` wait by default for the seat's next decision."""
MAX_WAIT: Final = 120.0
ANSWER_SECONDS: Final = 15.0
"""How long an action waits for the server's answer before it is given up as lost."""
NEXT: Final = "next"
REMATCH: Final = "rematch"
_CODE: Final = re.compile(r"[A-Za-z0-9]{4,16}")


class RoomError(UnoError, ValueError):
    """A request the server (or this client, before sending it) refuses; nothing changed."""


def parse_room(room: str, server: str | None = None) -> tuple[str, str, str | None]:
    """``(base URL, room code, rejoin secret or None)`` of a room code or an invite link
    (``http://host:8000/r/CODE``, a seat's rejoin link ``.../r/CODE?rejoin=SECRET``).

    :raises RoomError: for anything else.
    """
    text = str(room).strip()
    if "://" in text:
        url = urllib.parse.urlsplit(text)
        parts = [p for p in url.path.split("/") if p]
        if url.scheme not in ("http", "https") or not url.netloc or len(parts) != 2 or parts[0] != "r":
            raise RoomError(_(words.BAD_ROOM).format(room=text))
        code = parts[1]
        secret = urllib.parse.parse_qs(url.query).get("rejoin", [None])[0]
        base = f"{url.scheme}://{url.netloc}"
    else:
        code, secret = text, None
        base = (server or DEFAULT_SERVER).strip().rstrip("/")
        url = urllib.parse.urlsplit(base)
        if url.scheme not in ("http", "https") or not url.netloc or url.path or url.query:
            raise RoomError(_(words.BAD_SERVER).format(server=base))
    if not _CODE.fullmatch(code):
        raise RoomError(_(words.BAD_ROOM).format(room=text))
    return base, code.upper(), secret


def _http(base: str, method: str, path: str, body: Any) -> Any:
    """One JSON request; the server's refusal as a :class:`RoomError` with its code."""
    data = json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=ANSWER_SECONDS) as res:
            return json.loads(res.read())
    except urllib.error.HTTPError as exc:
        try:
            err = json.loads(exc.read())
            code, message = str(err["error"]), str(err.get("message", ""))
        except (ValueError, KeyError, TypeError):
            code, message = str(exc.code), exc.reason
        raise RoomError(_(words.SERVER_REFUSED).format(code=code, message=message)) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RoomError(_(words.NO_SERVER).format(server=base, reason=reason)) from None


def _event(d: dict[str, Any]) -> Event:
    """An event as the server sent it (``Event.to_dict``) back into an :class:`Event`."""
    color = d.get("color")
    return Event(
        kind=str(d["kind"]),
        seat=d.get("seat"),
        cards=tuple(parse_card(c) for c in d.get("cards", ())),
        count=int(d.get("count", 0)),
        target=d.get("target"),
        color=COLORS.index(color) if color in COLORS else None,
        points=d.get("points"),
        reason=str(d.get("reason", "")),
    )


class RoomSeat:
    """A seat at a room of a ``uno serve`` (see the module's docstring). Make one with
    :meth:`join`."""

    def __init__(self, base: str, code: str, token: str, player: int) -> None:
        self.base = base
        self.code = code
        self.token = token
        self.player = player
        self.last: Welcome | Update | None = None
        self.table: dict[str, Any] = {}
        """The room's table as last sent (a welcome's whole; an update's changes laid over it)."""
        """The last ``welcome`` or ``update`` the server sent."""
        self.rejoin: str | None = None
        self._events: list[dict[str, Any]] = []
        self._errors: list[Error] = []
        self._offered: list[str] = []
        self._told: dict[str, Any] = {}
        self._changed = asyncio.Event()
        self._closed: str | None = None
        self._pongs = 0
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def join(
        cls, room: str, name: str, player: int | None = None, server: str | None = None
    ) -> RoomSeat:
        """Take a seat of ``room`` (a code, an invite link, or the seat's own rejoin link) as
        ``name`` (``player``: a seat by number, else the first free one), and connect.

        :raises RoomError: for a bad room or server, or anything the server refuses.
        """
        base, code, secret = parse_room(room, server)
        if secret is not None:
            body: dict[str, Any] = {"secret": secret}
            got = await asyncio.to_thread(_http, base, "POST", f"/api/rooms/{code}/rejoin", body)
        else:
            body = {"name": str(name)}
            if player is not None:
                body["player"] = player
            got = await asyncio.to_thread(_http, base, "POST", f"/api/rooms/{code}/join", body)
        seat = cls(base, code, str(got["token"]), int(got["player"]))
        await seat._connect()
        return seat

    async def _connect(self) -> None:
        try:
            from websockets.asyncio.client import connect  # noqa: PLC0415 - the [web] extra
        except ImportError as exc:
            raise ConfigError(_(words.NEEDS_WEB).format(error=exc)) from None
        ws_base = "ws" + self.base.removeprefix("http")
        try:
            self._ws = await connect(f"{ws_base}/ws/{self.code}", max_size=2**22)
            await self._ws.send(json.dumps(Hello(token=self.token).to_dict()))
        except OSError as exc:
            raise RoomError(_(words.NO_SERVER).format(server=self.base, reason=exc)) from None
        self._reader = asyncio.create_task(self._read())
        await self._until(lambda: self.last is not None or bool(self._errors), ANSWER_SECONDS)
        if self.last is None:
            await self.leave()
            raise self._refusal()

    async def _read(self) -> None:
        """Keep every message the server sends (the reader task)."""
        from websockets.exceptions import ConnectionClosed  # noqa: PLC0415

        try:
            async for raw in self._ws:
                try:
                    m = read_server(json.loads(raw))
                except ValueError:  # not a message of the protocol (nor JSON): skipped
                    continue
                if isinstance(m, Welcome | Update):
                    self.last = m
                    self.table = m.table if isinstance(m, Welcome) else {**self.table, **(m.table or {})}
                    self._events += m.events
                    if isinstance(m, Welcome) and m.rejoin:
                        self.rejoin = m.rejoin.get("link")
                elif isinstance(m, Error):
                    self._errors.append(m)
                elif isinstance(m, Pong):
                    self._pongs += 1
                elif isinstance(m, Retired):
                    self._closed = _(words.RETIRED).format(message=m.message)
                self._changed.set()
        except ConnectionClosed:
            pass
        if self._closed is None:
            self._closed = _(words.CONNECTION_LOST).format(server=self.base)
        self._changed.set()

    async def _until(self, done: Any, seconds: float) -> bool:
        """Wait until ``done()`` (checked at every message) or ``seconds``; whether it held."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not done():
            left = deadline - loop.time()
            if left <= 0 or self._closed is not None:
                return bool(done())
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return True

    def _refusal(self) -> RoomError:
        if self._errors:
            e = self._errors[-1]
            return RoomError(_(words.SERVER_REFUSED).format(code=e.code, message=e.message))
        return RoomError(self._closed or _(words.CONNECTION_LOST).format(server=self.base))

    # ---- what the seat may know

    def legal(self) -> list[str]:
        """The seat's actions now, in the notation (``next`` between hands, ``rematch`` once
        the game is over)."""
        m = self.last
        if m is None or self._closed is not None:
            return []
        t = self.table
        if t["status"] == "finished":
            return [REMATCH]
        if t["status"] != "playing":
            return []
        if t["hand_over"]:
            return [NEXT]
        return list(m.view["legal"]) if m.view else []

    def _your_move(self) -> bool:
        """Whether the seat has a decision: its turn, a hand or game over, or an out-of-turn
        action it was not offered in the last answer (a late UNO, a catch)."""
        legal = self.legal()
        if not legal or self.last is None:
            return False
        v = self.last.view or {}
        turn = v.get("current") is not None and v.get("current") == v.get("seat")
        return turn or legal[0] in (NEXT, REMATCH) or bool(set(legal) - set(self._offered))

    def _names(self) -> list[str]:
        """The name of each seat of the hand's table."""
        assert self.last is not None
        t = self.table
        players = {p["player"]: p for p in t["players"]}
        return [self._name(players[p], seat) for seat, p in enumerate(t["seating"])]

    def _name(self, p: dict[str, Any], seat: int) -> str:
        if p["player"] == self.player:
            return _(words.REMOTE_YOU).format(name=p["name"])
        if p.get("bot"):
            return _(words.BOT_NAME).format(bot=p["bot"], seat=seat)
        if p.get("name"):
            return str(p["name"])
        return _(words.FREE_SEAT).format(seat=seat)

    async def observe(self, wait: float = WAIT) -> dict[str, Any]:
        """The seat's answer once it has a decision to make (see :meth:`_your_move`), the hand
        or game is over, or after ``wait`` seconds: the view, the legal actions and the events
        since the last answer (which this call consumes).

        :raises RoomError: if the connection is gone (taken back elsewhere, freed, lost).
        """
        await self._until(self._your_move, wait)
        if self.last is None or (self._closed is not None and not self._events):
            raise self._refusal()
        return self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.last is not None
        m, t = self.last, self.table
        names = self._names()
        events = []
        for d in self._events:
            text = describe(_event(d), names)
            if text is not None:
                events.append(text)
        self._events = []
        legal = self.legal()
        self._offered = legal
        out: dict[str, Any] = {}
        if t["status"] != "playing" or not m.view:
            out["status"] = t["status"]
        v = m.view
        if v:
            current = v.get("current")
            out |= {
                "hand": v["hand"],
                "top_card": v["discard"][-1] if v["discard"] else None,
                "color": COLOR_NAMES[COLORS.index(v["color"])] if v.get("color") in COLORS else None,
                "cards_held": v["hand_sizes"],
                "whose_turn": None if current is None or t["hand_over"] else names[current],
                "your_turn": current == v["seat"] and not t["hand_over"] and t["status"] == "playing",
            }
        out |= {"legal_actions": legal, "events": events}
        if v:
            if v.get("drawn"):
                out["drawn"] = v["drawn"]
            if v.get("pending"):
                p = v["pending"]
                out["pending"] = {"card": p["card"], "from_seat": p["from"], "draw": p["draw"]}
            known = {s: cards for s, cards in v.get("known", {}).items() if cards}
            if known:
                out["known_cards"] = known
            if v.get("uno_exposed"):
                out["catchable_seats"] = v["uno_exposed"]
            if v.get("wrong_seat") is not None:
                out["wrong_seat"] = v["wrong_seat"]
            if v.get("direction", 1) != 1:
                out["direction"] = "down"
        for clock in ("timer", "answer"):  # seconds left to act, when they run for this seat
            c = t.get(clock)
            if c and c.get("player") == self.player:
                out["seconds_left"] = c["seconds"]
        players = {p["player"]: p for p in t["players"]}
        seat_of = {p: s for s, p in enumerate(t["seating"])}

        def name(player: int) -> str:
            return self._name(players[player], seat_of.get(player, player))

        if t["hand_over"] and t.get("last_hand"):
            h = t["last_hand"]
            out["hand_over"] = True
            out["hand_result"] = _(words.HAND_WON).format(name=name(h["winner"]), points=h["points"])
        st = t["standings"]
        if t["status"] == "finished":
            out["game_over"] = True
            winners = ", ".join(name(p) for p in st.get("winners", []))
            out["game_result"] = _(words.GAME_WON).format(names=winners)
        told = {
            "you": {"player": self.player, "seat": seat_of.get(self.player), "room": self.code},
            "seats": names,
            "scores": {
                "by": "team" if st["by_team"] else "player",
                "scores": (
                    {f"team {i}": s for i, s in enumerate(st["scores"])}
                    if st["by_team"]
                    else {name(p): s for p, s in enumerate(st["scores"])}
                ),
                "target": t["settings"]["rules"].get("target", 500),
                "hands_played": st["hands_played"],
            },
        }
        for key, value in told.items():
            if self._told.get(key) != value:
                out[key] = value
        self._told = told
        return out

    def rules_in_words(self) -> str:
        """The room's rules in words, how to write actions, and every card code of its deck."""
        if self.last is None:
            raise self._refusal()
        settings = self.table["settings"]["rules"]
        try:
            rules = Rules.from_dict(settings)
        except ConfigError as exc:
            raise RoomError(str(exc)) from None
        cards = ", ".join(f"{CARD_CODE[c]} = {card_name(c)}" for c in sorted(set(rules.deck())))
        return (
            f"{rules_text(rules, rules.players)}\n{_(words.NOTATION)}\n{_(words.CARDS).format(cards=cards)}\n"
        )

    # ---- acting

    async def act(self, action: str, wait: float = WAIT) -> dict[str, Any]:
        """Send one of the seat's actions (``next`` deals the next hand, ``rematch`` starts a new
        game), wait for the server's answer, then as :meth:`observe` for the next decision.

        :raises RoomError: if it is not one of the seat's actions now, or the server refuses it
            (its error code and sentence); nothing changed.
        """
        if self._closed is not None or self.last is None:
            raise self._refusal()
        text = " ".join(str(action).split())
        legal = self.legal()
        text = {a.lower(): a for a in legal}.get(text.lower(), text)
        if text not in legal:
            if not legal:
                raise RoomError(_(words.NO_ACTIONS_ROOM))
            raise RoomError(_(words.NOT_LEGAL).format(action=text, legal=", ".join(legal)))
        message: ClientMessage
        if text == NEXT:
            message = NextHand(token=self.token)
        elif text == REMATCH:
            message = Rematch(token=self.token)
        else:
            message = Act(token=self.token, action=text)
        errors, pongs = len(self._errors), self._pongs
        # The server reads a connection's messages in order and answers a ping after all it
        # queued for it: at the pong, the update of the action (or its refusal) has come, and
        # no earlier update is taken for the state after it.
        await self._ws.send(json.dumps(message.to_dict()))
        await self._ws.send(json.dumps(Ping().to_dict()))
        if not await self._until(lambda: self._pongs > pongs, ANSWER_SECONDS):
            raise self._refusal() if self._closed else RoomError(_(words.NO_ANSWER))
        if len(self._errors) > errors:
            raise self._refusal()
        self._offered = []  # whatever is offered after an action is new
        return await self.observe(wait)

    async def leave(self) -> dict[str, Any]:
        """Close the connection (the room's away bot plays the seat after its grace, as for a
        person who left); the seat's rejoin link, to take it back."""
        if self._closed is None:
            self._closed = _(words.LEFT)
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        out: dict[str, Any] = {"left": self.code, "player": self.player}
        if self.rejoin:
            out["rejoin_link"] = self.rejoin
        return out
