"""A room's game and its log: the one replay of a stored log, the log's growth (each action
committed before anyone hears of it, P-182), and what the finished hands show face up.

A game is stored as its rules, seed and action log (:mod:`~unotable.web.storage`); replaying
the log through a fresh :class:`~unotable.match.Game` gives the same game, so a live room, a
room loaded after a restart and a finished game's replay are all made by :func:`replay`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from unotable.cards import CARD_CODE
from unotable.engine import hand_points
from unotable.events import Event
from unotable.match import Game
from unotable.rules import Rules
from unotable.web.protocol import ProtocolError
from unotable.web.records import StoredGame
from unotable.web.storage import DEAL, LeaseLostError, Store

log = logging.getLogger("unotable.web")

Step = Callable[[Game, str | None, str | None, list[Event]], None]
"""Called after each step of a replay: the game then, the actor's seat (``"table"`` for the
referee, ``None`` for a deal), the action (``None`` for the first deal) and its events."""


def replay(rules: Rules, stored: StoredGame, on_step: Step | None = None) -> Game:
    """The game ``stored`` (its seed and log) under ``rules``, replayed action by action;
    ``on_step`` hears of every step, the first deal included."""
    game = Game.new(rules, stored.seed, players=stored.players, rounds=stored.rounds)
    if on_step is not None:
        on_step(game, None, None, list(game.deal_events))
    for seat, action in stored.log:
        if action == DEAL:
            events = list(game.next_hand())
        else:
            actor: int | str = "table" if seat == "table" else int(seat or 0)
            events = game.apply_seat(actor, action)
        if on_step is not None:
            on_step(game, seat, action, events)
    return game


def hands_face_up(game: Game) -> list[dict[str, Any]]:
    """Every hand left when the last hand ended, laid face up to be counted (P-140), by seat of
    that hand's table, with its points as the books count them; ``[]`` before any hand ends."""
    if not game.results:
        return []
    result = game.results[-1]
    st = result.state
    points = hand_points(st)
    return [
        {
            "player": player,
            "seat": seat,
            "cards": [CARD_CODE[c] for c in st.hands[seat]],
            "points": points[seat],
        }
        for seat, player in enumerate(result.deal.seating)
    ]


def score_rows(game: Game) -> list[list[int]]:
    """What each finished hand added to each game score (by team in partners and teams, else by
    player), one row a hand, oldest first."""
    return [list(r.credit) for r in game.results]


class GameLog:
    """A room's current game: the :class:`~unotable.match.Game`, its stored id and number, its
    seed, and the length of its stored log (``seq``)."""

    def __init__(self, store: Store, code: str, rules: Rules, stored: StoredGame) -> None:
        self.store = store
        self.code = code
        self.ends: list[int] = []
        """The log's length as each finished hand ended (the seats' history, P-580)."""
        steps = 0

        def step(game: Game, seat: str | None, action: str | None, events: list[Event]) -> None:
            nonlocal steps
            if action is not None:
                steps += 1
            if len(game.results) > len(self.ends):
                self.ends.append(steps)

        self.game = replay(rules, stored, step)
        self.game_id = stored.id
        self.number = stored.number
        self.seed = stored.seed
        self.seq = len(stored.log)
        if self.game.finished and not stored.finished:
            self.mark_finished()

    @property
    def hand_events(self) -> list[Event]:
        """The current hand's events so far (its deal's, then each action's)."""
        return self.game.hand_events

    async def record(self, seat: str | None, action: str) -> None:
        """Commit row ``seq`` of the log (the actor's seat of the hand's table, ``"table"`` or
        ``None`` for a deal, and the action) before it is applied.

        :raises ProtocolError: ``storage`` if the database refuses it (nothing changed).
        """
        try:
            await self.store.append_async(self.game_id, self.seq, seat, action, code=self.code)
        except LeaseLostError:
            log.warning("room %s: action %d refused, another node owns the room now", self.code, self.seq)
            raise ProtocolError("storage") from None
        except SQLAlchemyError:
            log.exception("room %s: could not store action %d", self.code, self.seq)
            raise ProtocolError("storage") from None
        self.seq += 1

    async def apply(self, actor: int | str, text: str, seat: str) -> list[Event]:
        """Store then apply ``text`` (already checked) for player ``actor`` (or ``"table"``),
        whose seat at the hand's table is ``seat``; its events."""
        await self.record(seat, text)
        events = self.game.apply(actor, text)
        if len(self.game.results) > len(self.ends):
            self.ends.append(self.seq)
        if self.game.finished:
            await self.store.call(self.mark_finished)
        return events

    async def deal(self) -> list[Event]:
        """Store then deal the next hand; its events."""
        await self.record(None, DEAL)
        return list(self.game.next_hand())

    def mark_finished(self) -> None:
        """Flag the game finished in the database (its log says so too; the flag serves
        listings)."""
        try:
            self.store.finish(self.game_id)
        except SQLAlchemyError:
            log.exception("room %s: could not mark game %d finished", self.code, self.number)


__all__ = ["GameLog", "Step", "hands_face_up", "replay", "score_rows"]
