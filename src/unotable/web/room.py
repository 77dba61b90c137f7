"""A live room: its seats and the people's keys to them, the changes people ask for (actions,
the suggestion penalty, the next hand, a rematch, the host's seat controls, reactions and chat)
and the table everyone sees.

The room's other jobs have modules of their own: the game and its log
(:mod:`~unotable.web.gamelog`), its connections and what each may see
(:mod:`~unotable.web.fanout`), what it does by itself (:mod:`~unotable.web.driver`), its seats'
keys and presence (:mod:`~unotable.web.seats`), asking for a seat back
(:mod:`~unotable.web.asks`), the suggestion penalty's vote (:mod:`~unotable.web.referee`),
"More time" (:mod:`~unotable.web.moretime`), reactions and chat (:mod:`~unotable.web.social`),
and the rooms of the server (:mod:`~unotable.web.hub`).

Everything here runs on the server's one event loop and changes a room synchronously: an action
is checked against the seat's legal actions, written to the database (committed), applied to
the game, then queued to every connection, so actions are resolved in the order they arrive and
nobody hears of one that was not stored (P-182).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, Final

from sqlalchemy.exc import SQLAlchemyError

from unotable.bots.spec import BotSpec
from unotable.engine import check
from unotable.errors import IllegalActionError
from unotable.events import Event
from unotable.match import Game
from unotable.notation import ACTION_TEXT
from unotable.state import Phase
from unotable.web.asks import SeatAsks
from unotable.web.driver import LANDING_SECONDS, Driver, answer_window
from unotable.web.fanout import Fanout, Listener, seat_message
from unotable.web.gamelog import GameLog, hands_face_up, score_rows
from unotable.web.messages import Retired, Update, Welcome
from unotable.web.moretime import MoreTime
from unotable.web.protocol import ProtocolError
from unotable.web.records import Secrets, StoredGame, StoredOccupant
from unotable.web.referee import Referee
from unotable.web.seats import (
    PALETTE,
    Presence,
    Seat,
    clean_color,
    clean_name,
    hash_token,
    initial,
    normal_code,
    qr_svg,
    rejoin_keys,
    seat_history,
    secrets_of,
    stints_of,
)
from unotable.web.settings import RoomSettings, SettingsError, parse_bot
from unotable.web.social import Chat, reaction
from unotable.web.storage import Store
from unotable.web.words import retired_text

log = logging.getLogger("unotable.web")

QR_POOL: Final = ThreadPoolExecutor(1, thread_name_prefix="unotable-qr")
"""The one thread that makes rejoin links' QR codes (asked for one at a time by the pages)."""


def new_seed() -> int:
    """A game's seed: 128 bits from :mod:`secrets`."""
    return secrets.randbits(128)


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
        *,
        host: int | None = None,
        occupants: Sequence[StoredOccupant] = (),
    ) -> None:
        self.store = store
        self.occupants = list(occupants)
        """Who sat in each seat from when, oldest first (P-580)."""
        self._history: dict[
            int, tuple[tuple[int, ...], tuple[str | None, str | None], list[dict[str, Any]]]
        ] = {}
        """Each seat's :meth:`history`, with what it was made from."""
        self.seeds = seeds
        self.code = code
        self.settings = settings
        self.seats = seats
        self.host = host if host is not None else next((s.player for s in seats if s.token_hash), None)
        """The host's player number: the first person who took a seat (``None`` before)."""
        self.fanout = Fanout()
        self.presence = Presence()
        self.presence.grace = settings.room.grace_seconds
        now = time.monotonic()
        for seat in seats:
            if seat.token_hash is not None:
                self.presence.went(seat.player, now)
        self.version = 0
        """Counts every change of the room (the game, seats, presence, votes)."""
        self._shown: tuple[Any, ...] | None = None
        """What every connection was last shown of the table (:meth:`_sight`), ``None`` if not
        known: a change of seats or presence that shows nothing new is not sent."""
        self.last_change = now
        """When the game last changed: the turn timer and the answer window count from it."""
        self.more = MoreTime()
        """The "More time" given (its seconds count on the clock running now) and who asked."""
        self.alone_since: float | None = now
        """Since when nobody has been connected (``None`` while someone is)."""
        self.driver = Driver(self)
        self.asks = SeatAsks(self)
        self.referee = Referee(self)
        """The suggestion penalty's votes (P-193)."""
        """Asks for a seat back waiting for the host (P-581)."""
        self.lock = asyncio.Lock()
        """Held from a change's check to its broadcast: one change at a time, in arrival order,
        while other rooms go on during the database's commit."""
        self._specs: dict[str, BotSpec] = {}
        self._rejoin: dict[int, tuple[str, dict[str, Any]]] = {}
        self._qr: dict[int, tuple[str, str]] = {}
        """Each seat's rejoin QR code, with the token and page address it was made for."""
        self.chat_log = Chat()
        self._settings_dict: tuple[RoomSettings, dict[str, Any]] | None = None
        self._scores: tuple[Game, int, dict[str, Any], list[list[int]]] | None = None
        self.log = GameLog(store, code, settings.rules, stored)
        self.game.seats = settings.seats

    # ---- the game

    @property
    def game(self) -> Game:
        """The game in play (or the last one, once over)."""
        return self.log.game

    @property
    def seq(self) -> int:
        """The length of the game's stored log."""
        return self.log.seq

    @property
    def game_number(self) -> int:
        """The room's current game (a rematch is the next)."""
        return self.log.number

    @property
    def started(self) -> bool:
        """Whether play has started: every seat was taken (a seat freed since does not stop it)."""
        return self.seq > 0 or self.game_number > 0 or not any(s.free for s in self.seats)

    @property
    def in_play(self) -> bool:
        """Whether a game is being played (started, not finished)."""
        return self.started and not self.game.finished

    @property
    def status(self) -> str:
        """``waiting`` (free seats), ``playing`` or ``finished``."""
        if self.game.finished:
            return "finished"
        return "playing" if self.started else "waiting"

    @property
    def paused(self) -> bool:
        """Whether nobody is connected: the room's bots, turn timer and answer window wait (a
        spectator or a seat connecting resumes it, its timers counting from then; P-441)."""
        return not self.fanout

    def seat_by_token(self, token: str) -> Seat | None:
        """The person's seat this token opens, or ``None``."""
        h = hash_token(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, h):
                return seat
        return None

    def someone_waits(self) -> bool:
        """Whether a person is connected to their seat (then absent people hold the table up)."""
        return any(self.seats[p].bot is None for p in self.fanout.connected())

    def is_away(self, player: int, now: float | None = None) -> bool:
        """Whether a bot plays ``player``'s person's seat now: offline past the room's grace, or a
        seat freed during a game, while a game is in play and some other person is connected
        (nobody waits on an empty table)."""
        seat = self.seats[player]
        if seat.bot is not None or not self.in_play:
            return False
        if player in self.fanout.connected() or not self.someone_waits():
            return False
        return seat.free or self.presence.away(player, time.monotonic() if now is None else now)

    def bot_spec(self, player: int) -> BotSpec | None:
        """Who plays ``player``'s seat by itself: its bot, the away bot, or nobody (a person)."""
        seat = self.seats[player]
        label = (
            seat.bot
            if seat.bot is not None
            else self.settings.room.away_bot
            if self.is_away(player)
            else None
        )
        if label is None:
            return None
        spec = self._specs.get(label)
        if spec is None:
            spec = self._specs[label] = BotSpec.parse(label)
        return spec

    def left(self, seconds: float) -> float:
        """Seconds left of a pause of ``seconds`` counted from the landing of the game's last
        change on the page (:data:`~unotable.web.driver.LANDING_SECONDS`), with the "More time"
        given since."""
        return max(0.0, self.last_change + LANDING_SECONDS + self.more.extra + seconds - time.monotonic())

    def clock_player(self) -> int | None:
        """The person whose turn timer or answer window runs now, if any."""
        game = self.game
        p = game.current_player
        if not self.in_play or game.hand_over or p is None or self.bot_spec(p) is not None:
            return None
        v = game.view(p)
        if (
            v.phase == Phase.RESPOND
            and answer_window(v.legal)
            and self.settings.room.auto_accept_seconds is not None
        ):
            return p
        return p if self.settings.turn_seconds else None

    def more_time(self, player: int) -> None:
        """Person ``player``'s "More time": the room's ``more_time_seconds`` added to their
        running turn timer or answer window, once a hand.

        :raises ProtocolError: ``no_more_time`` (the room gives none), ``no_clock`` (no timer
            runs for them now) or ``more_time_used`` (already asked in this hand); nothing
            changes then.
        """
        seconds = self.settings.room.more_time_seconds
        if not seconds:
            raise ProtocolError("no_more_time")
        if self.clock_player() != player:
            raise ProtocolError("no_clock")
        self.more.give(player, (self.game_number, self.game.hand_index), seconds)
        self._touched()

    async def act(self, player: int, action: str, *, version: int | None = None) -> bool:
        """``player`` takes ``action`` (the notation of the hand's table): checked, stored, applied
        and sent to everyone. With ``version`` (the room's own moves), nothing is done unless
        the room is still as it was then; whether the action was taken.

        :raises ProtocolError: ``not_started``, ``game_over``, ``illegal`` (with the engine's
            reason) or ``storage``; nothing changes then.
        """
        async with self.lock:
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
        events = await self.log.apply(player, ACTION_TEXT[aid], str(seat))
        self._game_changed(events)

    async def next_hand(self, *, version: int | None = None) -> bool:
        """Deal the next hand (stored first); with ``version``, only if the room is as it was
        then. Whether it was dealt.

        :raises ProtocolError: ``hand_running``, ``game_over`` or ``storage``.
        """
        async with self.lock:
            if version is not None and version != self.version:
                return False
            if self.game.finished:
                raise ProtocolError("game_over")
            if not self.game.hand_over:
                raise ProtocolError("hand_running")
            self._game_changed(await self.log.deal())
            return True

    async def rematch(self) -> None:
        """A new game with the same settings and seats, once this one is over.

        :raises ProtocolError: ``game_running`` or ``storage``.
        """
        async with self.lock:
            if not self.game.finished:
                raise ProtocolError("game_running")
            seed = self.seeds()
            number = self.game_number + 1
            s = self.settings
            try:
                game_id = await self.store.call(
                    self.store.new_game, self.code, number, s.rules.to_dict(), s.players, s.rounds, seed
                )
            except SQLAlchemyError:
                log.exception("room %s: could not store a rematch", self.code)
                raise ProtocolError("storage") from None
            stored = StoredGame(game_id, number, s.rules.to_dict(), s.players, s.rounds, seed, False, ())
            self.log = GameLog(self.store, self.code, s.rules, stored)
            self.game.seats = s.seats
            self._game_changed(self.log.hand_events)

    # ---- seats: taking one, taking it back, the host's controls

    async def join(
        self, name: Any, player: int | None, color: Any = None, address: str | None = None
    ) -> tuple[str, int]:
        """Give a person's seat (``player``, or the first free one) to ``name``: its token and
        the player number. ``address``: a hash of the taker's address (the seats quota).

        :raises ProtocolError: ``bad_name``, ``bad_color``, ``room_full``, ``seat_taken`` or
            ``storage``.
        """
        name = clean_name(name)
        color = clean_color(color, name)
        async with self.lock:
            free = [s.player for s in self.seats if s.free]
            if player is None:
                if not free:
                    raise ProtocolError("room_full")
                player = free[0]
            elif player not in free:
                raise ProtocolError("seat_taken", player=player)
            token = secrets.token_urlsafe(32)
            keys = secrets_of(token)
            try:
                ok = await self.store.call(
                    self.store.take_seat,
                    self.code,
                    player,
                    name,
                    keys.token_hash,
                    color=color,
                    rejoin_hash=keys.rejoin_hash,
                    code_hash=keys.code_hash,
                    address=address,
                    since=(self.game_number, self.seq),
                )
            except SQLAlchemyError:
                log.exception("room %s: could not store a seat", self.code)
                raise ProtocolError("storage") from None
            if not ok:
                raise ProtocolError("seat_taken", player=player)
            self.seats[player].take(name, color, keys)
            self._sat(player, name, None)
            if self.host is None:
                self.host = player
            self.presence.went(player, time.monotonic())
            self._game_changed([])
            return token, player

    async def rejoin(self, secret: str | None, code: str | None) -> tuple[str, int]:
        """Take a seat back with its rejoin link's ``secret`` or its short ``code``: a new token
        and the player number. The old token and rejoin keys stop working; the connections that
        used them are told (``retired``) and closed (P-345).

        :raises ProtocolError: ``bad_rejoin`` or ``storage``.
        """
        if secret is not None:
            h, attr = hash_token(secret), "rejoin_hash"
        elif code is not None:
            h, attr = hash_token(normal_code(code)), "code_hash"
        else:
            raise ProtocolError("bad_rejoin")
        async with self.lock:
            seat = next(
                (
                    s
                    for s in self.seats
                    if (k := getattr(s, attr)) is not None and s.token_hash and secrets.compare_digest(k, h)
                ),
                None,
            )
            if seat is None or seat.token_hash is None:
                raise ProtocolError("bad_rejoin")
            token = secrets.token_urlsafe(32)
            keys = secrets_of(token)
            await self._store_keys(seat, seat.token_hash, keys)
            self.seats[seat.player].take(seat.name, seat.color, keys)
            self._retire(seat.player, "rejoined")
            self._touched()
            return token, seat.player

    def _sat(self, player: int, name: str | None, bot: str | None) -> None:
        """``player``'s seat has a new occupant from now on (stored already)."""
        self.occupants.append(StoredOccupant(player, self.game_number, self.seq, name, bot))

    def history(self, player: int) -> list[dict[str, Any]]:
        """Who sat in ``player``'s seat during this game, hands from when to when (P-580):
        made again only when a seat changes hands or a hand is dealt or ends (every table
        carries it)."""
        game = self.game
        seat = self.seats[player]
        key = (len(self.occupants), self.game_number, len(self.log.ends), game.hand_index, game.finished)
        cached = self._history.get(player)
        if cached is not None and cached[0] == key and cached[1] == (seat.name, seat.bot):
            return cached[2]
        stints = stints_of(self.occupants, player, self.game_number)
        if not stints:  # a room stored before seats had a history: whoever sits there now
            stints = [(0, seat.name, seat.bot)]
        made = seat_history(stints, self.log.ends, game.hand_index + 1, game.finished)
        self._history[player] = (key, (seat.name, seat.bot), made)
        return made

    # ---- asking for a seat back (P-581)

    def absent(self, player: int, now: float | None = None) -> bool:
        """Whether ``player``'s seat is a person's whose every connection has been gone for the
        room's grace (shown away to everyone; the seat may be asked back)."""
        seat = self.seats[player]
        if seat.token_hash is None or player in self.fanout.connected():
            return False
        return self.presence.away(player, time.monotonic() if now is None else now)

    async def _store_keys(self, seat: Seat, old: str, keys: Secrets) -> None:
        try:
            ok = await self.store.call(self.store.replace_secrets, self.code, seat.player, old, keys)
        except SQLAlchemyError:
            log.exception("room %s: could not store a seat's keys", self.code)
            raise ProtocolError("storage") from None
        if not ok:  # pragma: no cover - only this room changes its seats, under its lock
            raise ProtocolError("storage")

    def _retire(self, player: int, reason: str) -> None:
        """Tell ``player``'s connections that their token no longer works, and close them."""
        self._rejoin.pop(player, None)
        self._qr.pop(player, None)
        message = Retired(reason=reason, message=retired_text(reason))
        for lst in self.fanout.of(player):
            lst.send_json(message)
            lst.close(4001)
            self.fanout.remove(lst)
        self.presence.forget(player)
        if self.seats[player].token_hash is not None:
            self.presence.went(player, time.monotonic())

    async def set_seat(self, host: int, player: int, bot: str | None) -> None:
        """The host frees seat ``player`` (``bot`` ``None``) or gives it to the bot spec ``bot``;
        its person, if any, loses it (P-344).

        :raises ProtocolError: ``not_host``, ``host_self``, ``no_seat``, ``bad_bot`` or
            ``storage``; nothing changes then.
        """
        if host != self.host:
            raise ProtocolError("not_host")
        if not 0 <= player < len(self.seats):
            raise ProtocolError("no_seat", player=player)
        if player == host:
            raise ProtocolError("host_self")
        label = None
        if bot is not None:
            try:
                label = parse_bot(bot, "bot")
            except SettingsError as exc:
                raise ProtocolError("bad_bot", detail=str(exc)) from None
        async with self.lock:
            seat = self.seats[player]
            if seat.bot == label and (label is not None or seat.free):
                return  # already so
            labels = list(self.settings.seats)
            labels[player] = label
            settings = replace(self.settings, seats=tuple(labels))
            try:
                ok = await self.store.call(
                    self.store.set_seat,
                    self.code,
                    player,
                    label,
                    settings.to_dict(),
                    (self.game_number, self.seq),
                )
            except SQLAlchemyError:
                log.exception("room %s: could not store a seat", self.code)
                raise ProtocolError("storage") from None
            if not ok:  # pragma: no cover - the seat exists
                raise ProtocolError("storage")
            self.settings = settings
            self.game.seats = settings.seats
            had_person = seat.token_hash is not None
            seat.bot = label
            seat.take(None, None, None)
            self._sat(player, None, label)
            self.asks.drop(player, "gone")
            if had_person:
                self._retire(player, "freed" if label is None else "bot")
            self.presence.forget(player)
            self._touched()

    # ---- reactions and chat

    def react(self, player: int | None, name: str) -> None:
        """Show everyone ``player``'s reaction (``None``: a spectator's).

        :raises ProtocolError: ``bad_reaction`` or ``no_spectator_reactions``.
        """
        message = reaction(player, name)
        if player is None and not self.settings.room.spectator_reactions:
            raise ProtocolError("no_spectator_reactions")
        self.fanout.send_all(message)

    def chat(self, player: int, text: str) -> None:
        """Show everyone ``player``'s chat message (plain text), if the room allows chat.

        :raises ProtocolError: ``chat_off``, ``bad_chat`` or ``slow_down``.
        """
        if not self.settings.room.chat:
            raise ProtocolError("chat_off")
        self.fanout.send_all(self.chat_log.say(player, self.display_name(player), text))

    # ---- what each connection sees

    def display_name(self, player: int) -> str:
        """A seat's name as people see it: the person's, or the bot's spec."""
        seat = self.seats[player]
        return seat.name or seat.bot or f"{player}"

    def avatar(self, seat: Seat) -> dict[str, str] | None:
        """A taken seat's avatar: its colour and letter."""
        if seat.bot is not None:
            return {"color": PALETTE[seat.player % len(PALETTE)], "initial": initial(seat.bot)}
        if seat.name is None:
            return None
        return {"color": seat.color or clean_color(None, seat.name), "initial": initial(seat.name)}

    def table(self) -> dict[str, Any]:
        """What everyone sees of the room (docs/web.md, "The table")."""
        game = self.game
        now = time.monotonic()
        connected = self.fanout.connected()
        results = game.results
        last = results[-1] if results and game.hand_over else None
        timer = answer = None
        p = game.current_player
        if self.started and not game.hand_over and p is not None and self.bot_spec(p) is None:
            v = game.view(p)
            hp = self.settings.room.auto_accept_seconds
            if v.phase == Phase.RESPOND and answer_window(v.legal) and hp is not None:
                answer = {"player": p, "seconds": round(self.left(hp), 1)}
            if self.settings.turn_seconds:
                timer = {"player": p, "seconds": round(self.left(self.settings.turn_seconds), 1)}
        players = []
        for s in self.seats:
            away = self.is_away(s.player, now)
            on = s.bot is not None or s.player in connected
            players.append(
                {
                    "player": s.player,
                    "name": s.name,
                    "bot": s.bot,
                    "free": s.free,
                    "online": on,
                    "connected": on,
                    "away": away,
                    "away_bot": self.settings.room.away_bot if away else None,
                    "absent": self.absent(s.player, now),
                    "sat": self.history(s.player),
                    "host": s.player == self.host,
                    "avatar": self.avatar(s),
                }
            )
        return {
            "code": self.code,
            "status": self.status,
            "game_number": self.game_number,
            "hand": game.hand_index,
            "hand_over": game.hand_over,
            "host": self.host,
            "players": players,
            "seating": list(game.deal.seating),
            "standings": self._scored()[0],
            "last_hand": None
            if last is None
            else {
                "winner": last.winner,
                "points": last.hand_points,
                "credit": list(last.credit),
                "hands": self._hands_by(hands_face_up(game), game.hand_index),
            },
            "score_rows": self._scored()[1],
            "settings": self.settings_dict(),
            "timer": timer,
            "answer": answer,
            "more_time": {
                "seconds": self.settings.room.more_time_seconds,
                "used": self.more.used((self.game_number, game.hand_index)),
                "added": self.more.extra,
            },
            **self.referee.table(),
        }

    def _scored(self) -> tuple[dict[str, Any], list[list[int]]]:
        """The table's ``standings`` and ``score_rows``: made again only when a hand ends (every
        change of the game's standings comes with a hand's result) or the game is another."""
        game, cached = self.game, self._scores
        if cached is None or cached[0] is not game or cached[1] != len(game.results):
            cached = self._scores = (game, len(game.results), game.standings().to_dict(), score_rows(game))
        return cached[2], cached[3]

    def _hands_by(self, hands: list[dict[str, Any]], hand: int) -> list[dict[str, Any]]:
        """The hands laid face up, each with who played it in that seat (``by``: one, or
        several who took turns in it, the last holding the cards at the end; P-580)."""
        for h in hands:
            h["by"] = [
                {"name": o["name"], "bot": o["bot"]}
                for o in self.history(h["player"])
                if o["from_hand"] <= hand and (o["to_hand"] is None or hand <= o["to_hand"])
            ]
        return hands

    def settings_dict(self) -> dict[str, Any]:
        """The table's ``settings`` (made once per settings: they change only by the host's
        seat controls, which replace them)."""
        cached = self._settings_dict
        if cached is None or cached[0] is not self.settings:
            s = self.settings
            made = {
                "rules": s.rules.to_dict(),
                "rounds": s.rounds,
                "turn_seconds": s.turn_seconds,
                "bot_delay": s.bot_delay,
                "room": s.room.to_dict(),
            }
            cached = self._settings_dict = (s, made)
        return cached[1]

    def message(
        self, player: int | None, events: Iterable[Event], table: dict[str, Any] | None = None
    ) -> Update:
        """The update for ``player``'s connections (``None``: a spectator's): the events as its
        seat sees them, its view, and the table (``table``, if already made)."""
        return seat_message(self.game, self.seq, player, events, self.table() if table is None else table)

    def rejoin_info(self, player: int, token: str, base: str) -> dict[str, Any]:
        """A seat's rejoin link, short code and QR code (docs/web.md, ``welcome``), for its
        ``token`` (the connection's); ``base`` is the page's address (``http://host:port``)."""
        cached = self._rejoin.get(player)
        if cached is not None and cached[0] == token + base:
            return cached[1]
        info = rejoin_keys(self.code, token, base)
        self._rejoin[player] = (token + base, info)
        return info

    async def rejoin_qr(self, player: int, token: str, base: str) -> str:
        """The QR code of ``player``'s rejoin link (an SVG document), for its ``token`` (the
        connection's): made once per token and page address, in the QR codes' own thread (a few
        milliseconds each: never on the event loop, never in the pool the database uses)."""
        key = token + base
        cached = self._qr.get(player)
        if cached is not None and cached[0] == key:
            return cached[1]
        link = self.rejoin_info(player, token, base)["link"]
        svg: str = await asyncio.get_running_loop().run_in_executor(QR_POOL, qr_svg, link)
        self._qr[player] = (key, svg)  # apart from the keys: a welcome carries them, never the QR code
        return svg

    async def welcome(self, listener: Listener, token: str | None = None, base: str = "") -> None:
        """Send a new connection the hand so far (as its seat sees it), the table, and for a
        seat its rejoin keys; tell the others it came."""
        player = listener.player
        if player is not None and token is not None:
            seat = self.seats[player]
            if seat.rejoin_hash is None:  # a seat taken before rejoin keys existed: store them
                async with self.lock:
                    if seat.rejoin_hash is None and seat.token_hash == hash_token(token):
                        keys = secrets_of(token)
                        await self._store_keys(seat, hash_token(token), keys)
                        seat.take(seat.name, seat.color, keys)
            if seat.token_hash != hash_token(token):
                raise ProtocolError("bad_token")  # retired meanwhile
        if self.paused:  # resumed: the timers count from now, not from before the pause
            self.last_change = time.monotonic()
        self.fanout.add(listener)
        self.alone_since = None
        if player is not None:
            self.presence.came(player)
            self.asks.drop(player, "back")
        table = self.table()
        u = self.message(player, self.log.hand_events, table=table)
        rejoin = self.rejoin_info(player, token, base) if player is not None and token is not None else None
        listener.send_json(
            Welcome(
                seq=u.seq,
                you=u.you,
                seat=u.seat,
                events=u.events,
                view=u.view,
                table=table,
                rejoin=rejoin,
                chat=tuple(self.chat_log.lines),
            )
        )
        listener.table = table  # the whole table: a connection's changes count from it
        if player is not None and player == self.host:
            self.asks.show_host(listener)
        self._touched(skip=listener, table=table)  # the same instant: made once

    def leave(self, listener: Listener) -> None:
        """Forget a closed connection (and its ask for a seat back, if any)."""
        self.fanout.remove(listener)
        self.asks.drop(None, "gone", listener)
        player = listener.player
        if player is not None and not self.fanout.of(player) and self.seats[player].token_hash is not None:
            self.presence.went(player, time.monotonic())
        if not self.fanout:
            self.alone_since = time.monotonic()
        self._touched()

    def presence_changed(self) -> None:
        """Someone's grace ended: show it (the driver looks again)."""
        self._touched()

    def _sight(self, table: dict[str, Any]) -> tuple[Any, ...]:
        """What ``table`` shows, for comparing: its countdowns by their deadline (the game's last
        change and whose they are), not by the seconds left at the moment it was made."""
        timer, answer = table["timer"], table["answer"]
        rest = {k: v for k, v in table.items() if k not in ("timer", "answer")}
        return (
            self.seq,
            self.last_change,
            self.more.extra,
            None if timer is None else timer["player"],
            None if answer is None else answer["player"],
            rest,
        )

    def _touched(self, skip: Listener | None = None, table: dict[str, Any] | None = None) -> None:
        """The room changed but not its game (seats, presence, votes): everyone sees the table,
        unless it shows nothing new (a seat's second connection, a spectator's, one that closed
        while its seat has another): the game is as it was, so the view is too. ``table``: the
        table as it is now, if already made."""
        self.version += 1
        if self.fanout:
            table = self.table() if table is None else table
            sight = self._sight(table)
            if sight != self._shown:
                self.fanout.broadcast(lambda p: self.message(p, [], table=table), skip=skip)
                self._shown = sight
        else:
            self._shown = None
        self.driver.poke()

    def _game_changed(self, events: list[Event]) -> None:
        self.last_change = time.monotonic()
        self.more.moved()
        self.version += 1
        if self.fanout:
            table = self.table()
            self.fanout.broadcast(lambda p: self.message(p, events, table=table))
            self._shown = self._sight(table)
        else:
            self._shown = None
        self.driver.poke()

    # ---- the driver

    def start(self) -> None:
        """Start the room's driver (bots, timers, deals) on the running loop."""
        self.driver.start()

    async def stop(self, code: int = 1008) -> None:
        """Stop the driver and close every connection (with close code ``code``)."""
        await self.driver.stop()
        for lst in list(self.fanout.listeners):
            lst.close(code)


__all__ = ["Room", "new_seed"]
