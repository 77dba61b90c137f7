"""What a room does by itself: its bots (and the bots that play for away people), the turn timer,
Harry Potter's answer window, the end of a person's grace, and dealing between hands of bots.

The :class:`Driver` is one task per room. After every change of the room it asks
:func:`next_move` what the room would do next if nobody acts first, waits that long (woken by
any change, which makes it ask again) and does it, unless the room changed meanwhile. Bots act
from their own views, after ``bot_delay`` seconds (twice that while an out-of-turn window is
open, so people can call UNO or catch first). A bot's choice is seeded by the game's seed, its
player number and the game's place, by the bot table's rule (:mod:`unotable.bots.table`, P-183),
so a resumed game plays on exactly as it would have, and as ``uno play`` and ``uno mcp`` play it.
A bot's decision is made by the hub's :class:`~unotable.web.thinker.Thinker`: a bot
whose decisions take long (``thinks_long``: ``search``, ``expert``) in a worker process, fairly
across rooms and within the room's CPU budget, never on the event loop nor in the threads the
database writes use; a decision that comes back after the room changed is not applied.
While nobody is connected to the room (:attr:`Room.paused`) the driver does nothing: a room
nobody watches costs no processor time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from unotable.bots.spec import BotSpec
from unotable.bots.table import OUT_OF_TURN_KINDS, decision_seed, out_of_turn, table_seed
from unotable.cards import CARD_COLOR
from unotable.match import Game
from unotable.notation import ACTION_TEXT, Kind
from unotable.race import first_reaction, window_open
from unotable.state import Phase
from unotable.web.gamelog import GameLog
from unotable.web.protocol import ProtocolError
from unotable.web.seats import Presence, Seat
from unotable.web.settings import RoomSettings
from unotable.web.storage import DEAL
from unotable.web.thinker import Decision, Thinker, ThinkerBusyError, make_room_bot

log = logging.getLogger("unotable.web")

LANDING_SECONDS: Final = 1.5
"""Seconds the page takes to show a change (a card's flight and the effects after it, motion.js,
1.3 s at most): the turn timer and the answer window count from the landing, so a person has
the whole of their time to read and answer. The server's own figure, the same for every seat: a
slow or malicious page cannot stretch anyone's time (docs/web.md, "Time to answer")."""

OUT_OF_TURN = tuple(sorted(Kind(k).name.lower() for k in OUT_OF_TURN_KINDS))
"""Actions a seat may take out of turn, as the notation spells them: not answers to its phase
(the bot table's kinds, :data:`unotable.bots.table.OUT_OF_TURN_KINDS`)."""


@dataclass(frozen=True)
class Move:
    """What the room does by itself after ``delay`` seconds: a bot's, an away person's or a
    timed-out person's action (``action``), dealing the next hand (``action`` is :data:`DEAL`),
    or nothing but a look again (``action`` empty, no ``think``: a person's grace ends)."""

    player: int | None
    action: str
    delay: float
    think: Decision | None = None
    """A bot's decision still to be made (``action`` is then empty)."""
    pause: float | None = None
    """The whole pause this move waits for when it is a timer's (the turn timer, the answer
    window), counted from the room's last change: the same for every seat."""


class Room(Protocol):
    """What the driver reads of a room and asks it to do: :class:`unotable.web.room.Room` is one
    (the driver does not import it, so the room and its driver form no import cycle)."""

    @property
    def code(self) -> str:
        """The room's code (for the logs and the thinker's fairness)."""
        ...

    @property
    def settings(self) -> RoomSettings:
        """The room's settings (the delays and timers)."""
        ...

    @property
    def seats(self) -> Sequence[Seat]:
        """One per player."""
        ...

    @property
    def presence(self) -> Presence:
        """Who is connected, and when a person's grace ends."""
        ...

    @property
    def log(self) -> GameLog:
        """The game's stored log (its seed seeds the race)."""
        ...

    @property
    def game(self) -> Game:
        """The game under way."""
        ...

    @property
    def version(self) -> int:
        """Counts the room's changes: a move decided at one version is not done at another."""
        ...

    @property
    def started(self) -> bool:
        """Whether the game has started."""
        ...

    @property
    def in_play(self) -> bool:
        """Started and not finished."""
        ...

    @property
    def paused(self) -> bool:
        """Nobody is connected: nothing moves."""
        ...

    def someone_waits(self) -> bool:
        """Whether a connected person waits for the game to go on."""
        ...

    def bot_spec(self, player: int) -> BotSpec | None:
        """The bot that plays ``player`` now (an away person's stand-in included), or None."""
        ...

    def left(self, seconds: float) -> float:
        """What is left of a pause of ``seconds`` counted from the landing of the room's last
        change (:data:`LANDING_SECONDS`), with the "More time" given since."""
        ...

    async def act(self, player: int, action: str, *, version: int | None = None) -> bool:
        """``player`` takes ``action``, unless the room is no longer at ``version``."""
        ...

    async def next_hand(self, *, version: int | None = None) -> bool:
        """Deal the next hand, unless the room is no longer at ``version``."""
        ...

    def presence_changed(self) -> None:
        """Someone's grace ended."""
        ...


def answer_window(legal: Iterable[int]) -> bool:
    """Whether a seat's answers (its legal actions but the out-of-turn ones) are Accept and
    perhaps Invisibility and nothing else: Harry Potter's answer window (P-342)."""
    answers = {ACTION_TEXT[a].split(" ")[0] for a in legal} - set(OUT_OF_TURN)
    return "accept" in answers and answers <= {"accept", "invisibility"}


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
    answers = [t for t in texts if not t.startswith(OUT_OF_TURN)]
    return answers[0] if answers else texts[0]


def next_move(room: Room) -> Move | None:
    """What ``room`` does next by itself, if nobody acts first (see :class:`Move`)."""
    move = _game_move(room)
    wake = room.presence.next_away(time.monotonic()) if room.in_play and room.someone_waits() else None
    if wake is not None and (move is None or wake < move.delay):
        return Move(None, "", wake)
    return move


def _game_move(room: Room) -> Move | None:
    game = room.game
    s = room.settings
    if not room.started or game.finished:
        return None
    bots = {p: spec for p in range(len(room.seats)) if (spec := room.bot_spec(p)) is not None}
    if game.hand_over:
        if len(bots) == len(room.seats):
            return Move(None, DEAL, 3 * s.bot_delay)
        if s.turn_seconds:
            return Move(None, DEAL, room.left(s.turn_seconds), pause=s.turn_seconds)
        return None
    seating = game.deal.seating
    seed = table_seed(room.log.seed)  # the bot table's seeding (unotable.bots.table), as uno play's
    views = {p: game.view(p) for p in seating}
    any_view = next(iter(views.values()))
    window = bool(any_view.uno_exposed) or any_view.wrong_seat >= 0
    # The out-of-turn race (unotable.race, as in uno play and uno mcp): while a window is open
    # (an exposed UNO, a wrong card, a turn waiting at a jump_in table), the room's bots, in seat
    # order, are asked in the race's seeded order before the phase's seat decides; each decision
    # by a fresh bot seeded as the bot table reseeds its bots (P-183).
    if bots and window_open(game.state):
        hand, done = game.actions_played

        def react(racer: int) -> int | None:
            v = views[racer]
            if not out_of_turn(v):
                return None
            return make_room_bot(bots[racer], decision_seed(seed, "react", racer, hand, done)).react(v)

        won = first_reaction([p for p in seating if p in bots], seed, hand, done, react)
        if won is not None:
            return Move(won[0], ACTION_TEXT[won[1]], 2 * s.bot_delay)
    p = game.current_player
    if p is None:
        return None
    if p in bots:
        hand, done = game.actions_played
        bot = make_room_bot(bots[p], decision_seed(seed, "act", p, hand, done))
        think = Decision(bots[p], bot.seed, views[p], bot.thinks_long)
        return Move(p, "", (2 if window else 1) * s.bot_delay, think)
    v = views[p]
    if v.phase == Phase.RESPOND and answer_window(v.legal) and s.room.auto_accept_seconds is not None:
        pause = s.room.auto_accept_seconds
        return Move(p, "accept", room.left(pause), pause=pause)
    if s.turn_seconds:
        return Move(p, timeout_action(v.legal, v.hand), room.left(s.turn_seconds), pause=s.turn_seconds)
    return None


_SHARED: list[Thinker] = []


def shared_thinker() -> Thinker:
    """The process's one :class:`Thinker` for rooms no hub gave one (made on first use)."""
    if not _SHARED:
        _SHARED.append(Thinker())
    return _SHARED[0]


class Driver:
    """The task that makes a room's own moves."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.thinker: Thinker | None = None
        """Where the room's bots think: the hub's (see :func:`shared_thinker` otherwise)."""
        self.changed: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start driving, on the running loop."""
        if self._task is None:
            self.changed = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"room-{self.room.code}")

    def poke(self) -> None:
        """The room changed: look again."""
        if self.changed is not None:
            self.changed.set()

    async def stop(self) -> None:
        """Stop driving."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _drive(self) -> None:
        changed = self.changed
        assert changed is not None
        room = self.room
        while True:
            changed.clear()
            version = room.version
            move = None if room.paused else next_move(room)  # nobody connected: nothing moves
            if move is not None and move.think is not None:
                thinker = self.thinker or shared_thinker()
                try:
                    aid = await thinker.decide(room.code, move.think)
                except ThinkerBusyError:  # every worker's queue is full: look again later
                    await asyncio.sleep(1.0)
                    continue
                move = Move(move.player, ACTION_TEXT[aid], move.delay)
            if room.version != version:
                continue
            if move is None:
                await changed.wait()
                continue
            if move.delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), move.delay)
                if room.version != version:
                    continue
            try:
                if move.action == DEAL:
                    await room.next_hand(version=version)
                elif move.action:
                    assert move.player is not None
                    await room.act(move.player, move.action, version=version)
                else:
                    room.presence_changed()  # a grace ended: the seat is away now
            except ProtocolError as exc:  # a storage failure: try again after a pause
                log.warning("room %s: the room's own move %s failed: %s", room.code, move, exc.text)
                await asyncio.sleep(1.0)


__all__ = [
    "LANDING_SECONDS",
    "Driver",
    "Move",
    "answer_window",
    "make_room_bot",
    "next_move",
    "shared_thinker",
    "timeout_action",
]
