"""Live rooms: a :class:`~unotable.match.Game`, its seats and tokens, its bots and turn timer, and
what each connection may see.

Everything here runs on the server's one event loop and changes a room synchronously: an action
is checked against the seat's legal actions, written to the database (committed), applied to
the game, then queued to every connection, so actions are resolved in the order they arrive and
nobody hears of one that was not stored (P-182). Each connection gets its own player's
:class:`~unotable.views.View` and the events redacted for its seat (``Event.for_seat``);
a spectator gets :func:`public_view` and events as a spectator sees them.

Bots act from their own views, after ``bot_delay`` seconds (twice that while an out-of-turn
window is open, so people can call UNO or catch first). A bot's choice is seeded by the game's
seed, its player number and the length of the log (P-183), so a resumed game plays on exactly
as it would have.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import random
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy.exc import SQLAlchemyError

from unotable.bots import BaseBot, make_bot
from unotable.bots.base import out_of_turn
from unotable.cards import CARD_COLOR
from unotable.engine import check
from unotable.errors import IllegalActionError
from unotable.events import Event
from unotable.match import Game
from unotable.notation import ACTION_TEXT
from unotable.sim import BotSpec, derive_seed
from unotable.state import Phase
from unotable.web.protocol import ProtocolError
from unotable.web.settings import DEFAULT_FORGET_UNO, RoomSettings
from unotable.web.storage import DEAL, Store, StoredGame, StoredRoom, StoredSeat

log = logging.getLogger("unotable.web")

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Room codes use letters and digits that cannot be mistaken for one another."""
CODE_LENGTH: Final = 6
MAX_NAME: Final = 24
"""Characters in a player's name at most."""
PUBLIC_VIEW_KEYS: Final = (
    "rules",
    "hand_sizes",
    "discard",
    "draw_pile_size",
    "color",
    "current",
    "direction",
    "dealer",
    "phase",
    "drew_facing",
    "pending",
    "uno_exposed",
    "wrong_seat",
    "scores",
    "winner",
    "hand_points",
    "game_winners",
)
"""The fields of a view every seat sees alike (P-184): a spectator gets these and nothing else."""
IDLE_UNLOAD: Final = 600.0
"""Seconds a room may go without any connection before it leaves memory (P-192): its game
waits in the database, and the next visit loads it again."""
QUEUE_LIMIT: Final = 500
"""Messages waiting for one connection at most; a connection that falls further behind is closed."""


def hash_token(token: str) -> str:
    """What the database keeps of a seat's token (the token itself is only the browser's)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    """A fresh room code (about 30 bits; the database refuses a taken one)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_seed() -> int:
    """A game's seed: 128 bits from :mod:`secrets`."""
    return secrets.randbits(128)


def clean_name(name: Any) -> str:
    """A player's name, stripped; raises ``bad_name`` unless it is 1 to :data:`MAX_NAME` printable
    characters."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", limit=MAX_NAME)
    text = " ".join(name.split())
    if not 0 < len(text) <= MAX_NAME or any(unicodedata.category(c)[0] == "C" for c in text):
        raise ProtocolError("bad_name", limit=MAX_NAME)
    return text


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The part of a seat's view (``View.to_dict()``) every seat sees alike: no hand, no known
    cards, no drawn card, no legal actions."""
    out = {key: view[key] for key in PUBLIC_VIEW_KEYS}
    out.update(seat=None, hand=[], known={}, drawn=None, legal=[])
    return out


@dataclass
class Seat:
    """A player's seat: a bot (``bot``), or a person's, free until someone takes it."""

    player: int
    bot: str | None
    name: str | None = None
    token_hash: str | None = None

    @property
    def free(self) -> bool:
        """A person's seat nobody has taken."""
        return self.bot is None and self.token_hash is None


@dataclass(frozen=True)
class Move:
    """What the room does by itself after ``delay`` seconds: a bot's or a timed-out person's
    action (``action``), or dealing the next hand (``action`` is :data:`DEAL`)."""

    player: int | None
    action: str
    delay: float
    think: Callable[[], int] | None = None
    """A bot's decision still to be made (``action`` is then empty): called off the event loop
    for the search bot, which thinks for a while."""


class Listener:
    """One connection's outbox: the player it is (``None``: a spectator) and its queued messages
    (``None`` at the end closes it)."""

    def __init__(self, player: int | None) -> None:
        self.player = player
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, text: str) -> None:
        """Queue one message (already JSON); close a connection that has fallen too far behind."""
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        """End the connection once what is queued is sent."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


class Room:
    """A live room. Make one with :meth:`Hub.create` or load one with :meth:`Hub.get`."""

    def __init__(
        self,
        store: Store,
        code: str,
        settings: RoomSettings,
        seats: list[Seat],
        stored: StoredGame,
        seeds: Callable[[], int] = new_seed,
    ) -> None:
        self.store = store
        self.seeds = seeds
        self.code = code
        self.settings = settings
        self.seats = seats
        self.listeners: set[Listener] = set()
        self.version = 0
        self.last_change = time.monotonic()
        self.alone_since: float | None = time.monotonic()
        """Since when nobody has been connected (``None`` while someone is)."""
        self._changed: asyncio.Event | None = None
        self._driver: asyncio.Task[None] | None = None
        self._specs = {p: BotSpec.parse(s.bot) for p, s in enumerate(seats) if s.bot is not None}
        self._votes: dict[int, set[int]] = {}
        self._votes_hand = (-1, -1)
        self._lock = asyncio.Lock()
        """Held from an action's check to its broadcast: one change at a time, in arrival order,
        while other rooms go on during the database's commit."""
        self._load(stored)

    # ---- the game and its log

    def _load(self, stored: StoredGame) -> None:
        """Replay a stored game: the same rules, seed and actions give the same game."""
        game = Game.new(self.settings.rules, stored.seed, players=stored.players, rounds=stored.rounds)
        game.seats = self.settings.seats
        events = list(game.deal_events)
        for seat, action in stored.log:
            if action == DEAL:
                events = list(game.next_hand())
            else:
                actor: int | str = "table" if seat == "table" else int(seat or 0)
                events += game.apply_seat(actor, action)
        self.game = game
        self.game_id = stored.id
        self.game_number = stored.number
        self.seed = stored.seed
        self.seq = len(stored.log)
        self.hand_events: list[Event] = events
        if game.finished and not stored.finished:
            self.store.finish(stored.id)

    @property
    def started(self) -> bool:
        """Whether every person's seat is taken (play starts then)."""
        return not any(s.free for s in self.seats)

    @property
    def status(self) -> str:
        """``waiting`` (free seats), ``playing`` or ``finished``."""
        if self.game.finished:
            return "finished"
        return "playing" if self.started else "waiting"

    def seat_by_token(self, token: str) -> Seat | None:
        """The person's seat this token opens, or ``None``."""
        h = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, h):
                return seat
        return None

    async def _commit(self, seat: str | None, action: str) -> None:
        try:
            await asyncio.to_thread(self.store.append, self.game_id, self.seq, seat, action)
        except SQLAlchemyError:
            log.exception("room %s: could not store action %d", self.code, self.seq)
            raise ProtocolError("storage") from None
        self.seq += 1

    async def act(self, player: int, action: str, *, version: int | None = None) -> bool:
        """``player`` takes ``action`` (the notation of the hand's table): checked, stored, applied
        and sent to everyone. With ``version`` (the room's own moves), nothing is done unless
        the table is still as it was then; whether the action was taken.

        :raises ProtocolError: ``not_started``, ``game_over``, ``illegal`` (with the engine's
            reason) or ``storage``; nothing changes then.
        """
        async with self._lock:
            if version is not None and version != self.version:
                return False
            await self._act(player, action)
            return True

    async def _act(self, player: int, action: str) -> None:
        if not self.started:
            raise ProtocolError("not_started")
        game = self.game
        if game.finished:
            raise ProtocolError("game_over")
        seat = game.seat_of(player)
        if seat is None:
            raise ProtocolError("illegal", detail=f"you do not play in hand {game.hand_index + 1}")
        try:
            aid = check(game.state, seat, action)
        except IllegalActionError as exc:
            raise ProtocolError("illegal", detail=str(exc)) from None
        text = ACTION_TEXT[aid]
        await self._commit(str(seat), text)
        events = game.apply(player, text)
        self.hand_events += events
        if game.finished:
            self._finish()
        self._changed_now(events)

    # ---- the referee: the suggestion penalty, by the table's vote

    def voters_against(self, accused: int) -> set[int]:
        """The people who must all ask for ``accused``'s suggestion penalty for the table to give
        it (P-193): every person playing this hand but ``accused`` (bots do not vote)."""
        game = self.game
        return {
            s.player
            for s in self.seats
            if s.bot is None and s.player != accused and game.seat_of(s.player) is not None
        }

    def votes(self) -> dict[int, set[int]]:
        """Who has asked for whose suggestion penalty in this hand (accused -> people)."""
        if self._votes_hand != (self.game_number, self.game.hand_index):
            self._votes_hand = (self.game_number, self.game.hand_index)
            self._votes = {}
        return self._votes

    async def penalize(self, voter: int, accused: int) -> bool:
        """Person ``voter`` asks for ``accused``'s suggestion penalty (RULES §8, the referee's
        ``penalize SEAT suggestion``). The table gives it once every person playing this hand but
        ``accused`` has asked (P-193); whether it was given now.

        :raises ProtocolError: ``not_started``, ``game_over``, ``illegal`` or ``storage``;
            nothing changes then.
        """
        async with self._lock:
            return await self._penalize(voter, accused)

    async def _penalize(self, voter: int, accused: int) -> bool:
        if not self.started:
            raise ProtocolError("not_started")
        game = self.game
        if game.finished:
            raise ProtocolError("game_over")
        if accused == voter:
            raise ProtocolError("illegal", detail="you cannot ask for your own penalty")
        seat = game.seat_of(accused) if 0 <= accused < len(self.seats) else None
        if seat is None:
            raise ProtocolError("illegal", detail=f"player {accused} does not play in this hand")
        voters = self.voters_against(accused)
        if voter not in voters:
            raise ProtocolError("illegal", detail="you do not play in this hand")
        text = f"penalize {seat} suggestion"
        try:
            check(game.state, "table", text)
        except IllegalActionError as exc:
            raise ProtocolError("illegal", detail=str(exc)) from None
        asked = self.votes().setdefault(accused, set())
        if voter in asked:
            return False  # asked already: nothing changes
        asked.add(voter)
        if asked < voters:
            self._changed_now([])  # everyone sees who asks
            return False
        del self._votes[accused]
        await self._commit("table", text)
        events = game.apply("table", text)
        self.hand_events += events
        self._changed_now(events)
        return True

    async def next_hand(self, *, version: int | None = None) -> bool:
        """Deal the next hand (stored first); with ``version``, only if the table is as it was
        then. Whether it was dealt.

        :raises ProtocolError: ``hand_running``, ``game_over`` or ``storage``.
        """
        async with self._lock:
            if version is not None and version != self.version:
                return False
            await self._next_hand()
            return True

    async def _next_hand(self) -> None:
        game = self.game
        if game.finished:
            raise ProtocolError("game_over")
        if not game.hand_over:
            raise ProtocolError("hand_running")
        await self._commit(None, DEAL)
        self.hand_events = list(game.next_hand())
        self._changed_now(self.hand_events)

    async def rematch(self) -> None:
        """A new game with the same settings and seats, once this one is over.

        :raises ProtocolError: ``game_running`` or ``storage``.
        """
        async with self._lock:
            await self._rematch()

    async def _rematch(self) -> None:
        if not self.game.finished:
            raise ProtocolError("game_running")
        seed = self.seeds()
        number = self.game_number + 1
        s = self.settings
        try:
            game_id = await asyncio.to_thread(
                self.store.new_game, self.code, number, s.rules.to_dict(), s.players, s.rounds, seed
            )
        except SQLAlchemyError:
            log.exception("room %s: could not store a rematch", self.code)
            raise ProtocolError("storage") from None
        self._load(StoredGame(game_id, number, s.rules.to_dict(), s.players, s.rounds, seed, False, ()))
        self._changed_now(self.hand_events)

    def _finish(self) -> None:
        try:
            self.store.finish(self.game_id)
        except SQLAlchemyError:  # the log says it is over; the flag only serves listings
            log.exception("room %s: could not mark game %d finished", self.code, self.game_number)

    async def join(self, name: Any, player: int | None) -> tuple[str, int]:
        """Give a person's seat (``player``, or the first free one) to ``name``: its token and
        the player number.

        :raises ProtocolError: ``bad_name``, ``room_full``, ``seat_taken`` or ``storage``.
        """
        async with self._lock:
            return await self._join(clean_name(name), player)

    async def _join(self, name: str, player: int | None) -> tuple[str, int]:
        free = [s.player for s in self.seats if s.free]
        if player is None:
            if not free:
                raise ProtocolError("room_full")
            player = free[0]
        elif player not in free:
            raise ProtocolError("seat_taken", player=player)
        token = secrets.token_urlsafe(32)
        h = hash_token(token)
        try:
            ok = await asyncio.to_thread(self.store.take_seat, self.code, player, name, h)
        except SQLAlchemyError:
            log.exception("room %s: could not store a seat", self.code)
            raise ProtocolError("storage") from None
        if not ok:
            raise ProtocolError("seat_taken", player=player)
        seat = self.seats[player]
        seat.name = name
        seat.token_hash = h
        self._changed_now([])
        return token, player

    # ---- what each connection sees

    def table(self) -> dict[str, Any]:
        """What everyone sees of the room: seats, names, standings, the hand's number, the timer."""
        game = self.game
        online = {lst.player for lst in self.listeners if lst.player is not None}
        results = game.results
        last = results[-1] if results and game.hand_over else None
        timer = None
        if self.settings.turn_seconds and self.started and not game.hand_over:
            p = game.current_player
            if p is not None and self.seats[p].bot is None:
                left = self.last_change + self.settings.turn_seconds - time.monotonic()
                timer = {"player": p, "seconds": max(0.0, round(left, 1))}
        return {
            "code": self.code,
            "status": self.status,
            "game_number": self.game_number,
            "hand": game.hand_index,
            "hand_over": game.hand_over,
            "players": [
                {
                    "player": s.player,
                    "name": s.name,
                    "bot": s.bot,
                    "free": s.free,
                    "online": s.bot is not None or s.player in online,
                }
                for s in self.seats
            ],
            "seating": list(game.deal.seating),
            "standings": game.standings().to_dict(),
            "last_hand": None
            if last is None
            else {"winner": last.winner, "points": last.hand_points, "credit": list(last.credit)},
            "settings": {
                "rules": self.settings.rules.to_dict(),
                "rounds": self.settings.rounds,
                "turn_seconds": self.settings.turn_seconds,
                "bot_delay": self.settings.bot_delay,
            },
            "timer": timer,
            "suggestion_votes": {
                str(accused): {"asked": sorted(asked), "needed": sorted(self.voters_against(accused))}
                for accused, asked in sorted(self.votes().items())
            },
        }

    def message(
        self,
        player: int | None,
        events: Iterable[Event],
        kind: str = "update",
        table: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The message for ``player``'s connections (``None``: a spectator's): the events as its
        seat sees them, its view, and the table (``table``, if already made)."""
        game = self.game
        seat = None if player is None else game.seat_of(player)
        if seat is not None and player is not None:
            view = game.view(player).to_dict()
        else:
            view = public_view(game.view(game.player_at(0)).to_dict())
        return {
            "type": kind,
            "seq": self.seq,
            "you": player,
            "seat": seat,
            "events": [e.for_seat(seat).to_dict() for e in events],
            "view": view,
            "table": self.table() if table is None else table,
        }

    def welcome(self, listener: Listener) -> None:
        """Send a new connection the hand so far (as its seat sees it) and the table."""
        listener.send(json.dumps(self.message(listener.player, self.hand_events, "welcome")))
        self._broadcast([])
        self.listeners.add(listener)
        self.alone_since = None

    def leave(self, listener: Listener) -> None:
        """Forget a closed connection."""
        self.listeners.discard(listener)
        listener.close()
        if not self.listeners:
            self.alone_since = time.monotonic()
        self._broadcast([])

    def _broadcast(self, events: list[Event]) -> None:
        cache: dict[int | None, str] = {}
        table = self.table() if self.listeners else None
        for lst in list(self.listeners):
            text = cache.get(lst.player)
            if text is None:
                text = cache[lst.player] = json.dumps(self.message(lst.player, events, table=table))
            lst.send(text)
            if lst.closed:
                self.listeners.discard(lst)

    def _changed_now(self, events: list[Event]) -> None:
        self.version += 1
        self.last_change = time.monotonic()
        self._broadcast(events)
        if self._changed is not None:
            self._changed.set()

    # ---- bots, timer and deals: what the room does by itself

    def bot(self, player: int) -> BaseBot:
        """``player``'s bot for the decision at this point of the log (P-183)."""
        spec = self._specs[player]
        options = {"forget_uno": DEFAULT_FORGET_UNO, **dict(spec.options)}
        bot = make_bot(
            spec.name, derive_seed(self.seed, "bot", player, self.game_number, self.seq), **options
        )
        bot.name = spec.label
        return bot

    def next_move(self) -> Move | None:
        """What the room does next by itself, if nobody acts first (see :class:`Move`)."""
        game = self.game
        s = self.settings
        if not self.started or game.finished:
            return None
        if game.hand_over:
            if all(seat.bot is not None for seat in self.seats):
                return Move(None, DEAL, 3 * s.bot_delay)
            if s.turn_seconds:
                return Move(None, DEAL, self._left(s.turn_seconds))
            return None
        if not self._specs and not s.turn_seconds:
            return None  # people only, no timer: the room never acts by itself in a hand
        seating = game.deal.seating
        views = {p: game.view(p) for p in seating}
        any_view = next(iter(views.values()))
        window = bool(any_view.uno_exposed) or any_view.wrong_seat >= 0
        # RULES §11 jump_in: while a turn waits, the bots holding the top card's twin may jump in.
        jump = game.rules.jump_in and any_view.phase == Phase.TURN
        if window or jump:
            race = [p for p in seating if p in self._specs]
            random.Random(derive_seed(self.seed, "race", self.game_number, self.seq)).shuffle(race)
            for racer in race:
                v = views[racer]
                if out_of_turn(v):
                    aid = self.bot(racer).react(v)
                    if aid is not None:
                        return Move(racer, ACTION_TEXT[aid], 2 * s.bot_delay)
        p = game.current_player
        if p is None:
            return None
        if p in self._specs:
            return Move(
                p, "", (2 if window else 1) * s.bot_delay, functools.partial(self.bot(p).act, views[p])
            )
        if s.turn_seconds:
            return Move(p, timeout_action(views[p].legal, views[p].hand), self._left(s.turn_seconds))
        return None

    def _left(self, seconds: float) -> float:
        return max(0.0, self.last_change + seconds - time.monotonic())

    def start(self) -> None:
        """Start the room's driver (bots, timer, deals) on the running loop."""
        if self._driver is None:
            self._changed = asyncio.Event()
            self._driver = asyncio.get_running_loop().create_task(self._drive(), name=f"room-{self.code}")

    async def stop(self) -> None:
        """Stop the driver and close every connection."""
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
            self._driver = None
        for lst in list(self.listeners):
            lst.close()

    async def _drive(self) -> None:
        changed = self._changed
        assert changed is not None
        while True:
            changed.clear()
            version = self.version
            move = self.next_move()
            if move is not None and move.think is not None:
                think = move.think
                aid = await asyncio.to_thread(think) if self._slow() else think()
                move = Move(move.player, ACTION_TEXT[aid], move.delay)
            if self.version != version:
                continue
            if move is None:
                await changed.wait()
                continue
            if move.delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), move.delay)
                if self.version != version:
                    continue
            try:
                if move.action == DEAL:
                    await self.next_hand(version=version)
                else:
                    assert move.player is not None
                    await self.act(move.player, move.action, version=version)
            except ProtocolError as exc:  # a storage failure: try again after a pause
                log.warning("room %s: the room's own move %s failed: %s", self.code, move, exc.text)
                await asyncio.sleep(1.0)

    def _slow(self) -> bool:
        """Whether a bot here thinks long enough (search) to think off the event loop."""
        return any(spec.name == "search" for spec in self._specs.values())


def timeout_action(legal: Iterable[int], hand: Iterable[int]) -> str:
    """What a person who let the turn timer run out does (P-185): keep a drawn card (``pass``),
    else draw, else accept, else call the colour they hold most, else their first legal answer."""
    texts = [ACTION_TEXT[a] for a in legal]
    for choice in ("pass", "draw", "accept"):
        if choice in texts:
            return choice
    colors = [t for t in texts if t.startswith("color ")]
    if colors:
        counts = [0, 0, 0, 0]
        for card in hand:
            if CARD_COLOR[card] >= 0:
                counts[CARD_COLOR[card]] += 1
        best = max(range(4), key=lambda c: (counts[c], -c))
        return colors[best] if len(colors) == 4 else colors[0]
    answers = [t for t in texts if not t.startswith(("uno", "catch", "wrong", "penalize"))]
    return answers[0] if answers else texts[0]


class Hub:
    """Every live room of the server, over one :class:`Store`."""

    def __init__(self, store: Store, seeds: Callable[[], int] = new_seed) -> None:
        self.store = store
        self.seeds = seeds
        """Where games' seeds come from: :func:`new_seed`, or a fixed list in tests."""
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None

    async def create(self, settings: RoomSettings) -> Room:
        """A new room: stored, then live.

        :raises ProtocolError: ``storage`` if the database refuses it.
        """
        seed = self.seeds()
        seats = [Seat(p, label) for p, label in enumerate(settings.seats)]
        stored_seats = [StoredSeat(s.player, s.bot, None, None) for s in seats]
        for _ in range(20):
            code = new_code()
            if code in self.rooms:
                continue
            try:
                game_id = await asyncio.to_thread(
                    self.store.create_room,
                    code,
                    settings.to_dict(),
                    stored_seats,
                    settings.rules.to_dict(),
                    settings.players,
                    settings.rounds,
                    seed,
                )
            except SQLAlchemyError:
                log.exception("could not store room %s", code)
                continue
            rules = settings.rules.to_dict()
            stored = StoredGame(game_id, 0, rules, settings.players, settings.rounds, seed, False, ())
            room = Room(self.store, code, settings, seats, stored, self.seeds)
            self.rooms[code] = room
            room.start()
            return room
        raise ProtocolError("storage")

    async def get(self, code: str) -> Room | None:
        """The live room ``code``, loaded from the database if need be."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        async with self._loading:
            room = self.rooms.get(code)
            if room is None:
                room = await asyncio.to_thread(self._load, code)
                if room is None:
                    return None
                self.rooms[code] = room
                room.start()
        return room

    def _load(self, code: str) -> Room | None:
        stored = self.store.load_room(code)
        return None if stored is None else self._room(stored)

    def _room(self, stored: StoredRoom) -> Room:
        settings = RoomSettings.from_dict(stored.settings)
        seats = [Seat(s.player, s.bot, s.name, s.token_hash) for s in stored.seats]
        return Room(self.store, stored.code, settings, seats, stored.game, self.seeds)

    async def resume(self) -> int:
        """Load every room whose game goes on (after a restart); how many."""
        codes = await asyncio.to_thread(self.store.room_codes, active_only=True)
        for code in codes:
            await self.get(code)
        return len(codes)

    async def sweep(self, idle: float = IDLE_UNLOAD) -> int:
        """Unload the rooms nobody has been connected to for ``idle`` seconds; how many."""
        now = time.monotonic()
        gone = 0
        async with self._loading:
            for code, room in list(self.rooms.items()):
                if room.alone_since is not None and now - room.alone_since >= idle:
                    async with room._lock:  # never in the middle of a change
                        del self.rooms[code]
                        await room.stop()
                    gone += 1
        return gone

    def start_sweeping(self, every: float = 60.0) -> None:
        """Sweep idle rooms out of memory every ``every`` seconds, on the running loop."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                await self.sweep()

        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(loop(), name="sweeper")

    async def close(self) -> None:
        """Stop every room."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for room in list(self.rooms.values()):
            await room.stop()


def replay(store: Store, room: Room, number: int, on_step: Callable[[dict[str, Any]], None]) -> bool:
    """Game ``number`` of ``room``, finished, step by step as a spectator saw it: ``on_step`` gets
    each step (the actor, the action, the public events and the public view); False if there is
    no such finished game (P-186)."""
    stored = store.load_game(room.code, number)
    if stored is None or not stored.finished:
        return False
    game = Game.new(room.settings.rules, stored.seed, players=stored.players, rounds=stored.rounds)

    def step(seat: str | None, action: str | None, events: list[Event]) -> None:
        on_step(
            {
                "hand": game.hand_index,
                "seat": seat,
                "action": action,
                "seating": list(game.deal.seating),
                "events": [e.for_seat(None).to_dict() for e in events],
                "view": public_view(game.view(game.player_at(0)).to_dict()),
                "standings": game.standings().to_dict(),
            }
        )

    step(None, None, list(game.deal_events))
    for seat, action in stored.log:
        if action == DEAL:
            step(None, DEAL, list(game.next_hand()))
        else:
            actor: int | str = "table" if seat == "table" else int(seat or 0)
            step(seat, action, game.apply_seat(actor, action))
    return True


__all__ = [
    "CODE_ALPHABET",
    "MAX_NAME",
    "Hub",
    "Listener",
    "Move",
    "Room",
    "Seat",
    "clean_name",
    "hash_token",
    "public_view",
    "replay",
    "timeout_action",
]
