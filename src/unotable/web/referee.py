"""The suggestion penalty, given by the table's vote (RULES §8, P-193, P-343): who must ask for
whose penalty, who has asked in this hand, and the table's ``penalize SEAT suggestion`` once
every person playing the hand but the accused has asked.

The room is read through :class:`RefereeRoom` (the names of a room this module uses), so that
this module does not import :mod:`~unotable.web.room`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from unotable.engine import check
from unotable.errors import IllegalActionError
from unotable.events import Event
from unotable.match import Game
from unotable.web.gamelog import GameLog
from unotable.web.protocol import ProtocolError
from unotable.web.seats import Seat
from unotable.web.settings import RoomSettings


class RefereeRoom(Protocol):
    """What :class:`Referee` reads and calls of its room."""

    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def settings(self) -> RoomSettings: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def log(self) -> GameLog: ...
    @property
    def game(self) -> Game: ...
    @property
    def game_number(self) -> int: ...
    @property
    def started(self) -> bool: ...
    @property
    def in_play(self) -> bool: ...

    def display_name(self, player: int) -> str: ...

    def _touched(self) -> None: ...

    def _game_changed(self, events: list[Event]) -> None: ...


class Referee:
    """A room's votes for the suggestion penalty."""

    def __init__(self, room: RefereeRoom) -> None:
        self.room = room
        self._votes: dict[int, set[int]] = {}
        self._votes_hand = (-1, -1)

    def voters_against(self, accused: int) -> set[int]:
        """The people who must all ask for ``accused``'s suggestion penalty for the table to give
        it (P-193): every person playing this hand but ``accused`` (bots do not vote)."""
        game = self.room.game
        return {
            s.player
            for s in self.room.seats
            if s.bot is None and not s.free and s.player != accused and game.seat_of(s.player) is not None
        }

    def votes(self) -> dict[int, set[int]]:
        """Who has asked for whose suggestion penalty in this hand (accused -> people)."""
        hand = (self.room.game_number, self.room.game.hand_index)
        if self._votes_hand != hand:
            self._votes_hand = hand
            self._votes = {}
        return self._votes

    def penalized(self) -> set[int]:
        """The players given the suggestion penalty in this hand (read from the hand's log)."""
        game = self.room.game
        out = set()
        for actor, text in game.log[-1]:
            words = text.split()
            if actor == "table" and words[0] == "penalize" and words[-1] == "suggestion":
                out.add(game.deal.seating[int(words[1])])
        return out

    def table(self) -> dict[str, Any]:
        """The table's ``suggestion`` and ``suggestion_votes`` (docs/web.md, "The table")."""
        room = self.room
        game = room.game
        on = room.settings.room.suggestion_penalty
        given = self.penalized() if room.started and not game.hand_over else set()
        return {
            "suggestion": {
                "on": on,
                "cards": room.settings.rules.edition.suggestion_penalty,  # what it costs (RULES §8)
                "open": sorted(p for p in game.deal.seating if p not in given)
                if on and room.in_play and not game.hand_over
                else [],
                "given": sorted(given),
            },
            "suggestion_votes": {
                str(accused): {"asked": sorted(asked), "needed": sorted(self.voters_against(accused))}
                for accused, asked in sorted(self.votes().items())
            },
        }

    async def penalize(self, voter: int, accused: int) -> bool:
        """Person ``voter`` asks for ``accused``'s suggestion penalty (RULES §8, the referee's
        ``penalize SEAT suggestion``), if the room allows it. The table gives it once every
        person playing this hand but ``accused`` has asked (P-193), and once a hand at most per
        accused (P-343); whether it was given now.

        :raises ProtocolError: ``penalty_off``, ``not_started``, ``game_over``, ``illegal``,
            ``penalty_given`` or ``storage``; nothing changes then.
        """
        async with self.room.lock:
            return await self._penalize(voter, accused)

    async def _penalize(self, voter: int, accused: int) -> bool:
        room = self.room
        if not room.settings.room.suggestion_penalty:
            raise ProtocolError("penalty_off")
        if not room.started:
            raise ProtocolError("not_started")
        game = room.game
        if game.finished:
            raise ProtocolError("game_over")
        if accused == voter:
            raise ProtocolError("illegal", detail="you cannot ask for your own penalty")
        seat = game.seat_of(accused) if 0 <= accused < len(room.seats) else None
        if seat is None:
            raise ProtocolError("illegal", detail=f"player {accused} does not play in this hand")
        voters = self.voters_against(accused)
        if voter not in voters:
            raise ProtocolError("illegal", detail="you do not play in this hand")
        if accused in self.penalized():
            raise ProtocolError("penalty_given", name=room.display_name(accused))
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
            room._touched()  # everyone sees who asks
            return False
        del self._votes[accused]
        room._game_changed(await room.log.apply("table", text, "table"))
        return True
