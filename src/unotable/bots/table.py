"""The bot table: the bots a program plays at one game's table, as one object (issue 35).

Which players the bots play, how each bot is seeded, which actions are taken out of turn, who
races for an open window and in which order: the terminal (``uno play``) and the MCP server
(``uno mcp``) ask a :class:`BotTable` what its bots do next, and a web room's driver seeds the
fresh bot of each decision with :func:`decision_seed` and races with :func:`table_seed`, so the
same game seed, rules and bots give the same game under all three. The simulator asks the same
rule who is out of turn (:data:`OUT_OF_TURN_KINDS`, :func:`out_of_turn`) and the same race
(:func:`unotable.race.first_reaction`), with seeds of its own (bots seeded once per seat).

The rules of the table:

- **Seeding.** :meth:`BotTable.from_specs` makes the bot of player ``p`` with the seed
  ``derive_seed(game_seed, "bot", p)`` and keeps ``derive_seed(game_seed, "table")`` as the
  table's seed. Before every decision the bot is reseeded from the table's seed and the game's
  place (:attr:`unotable.match.Game.actions_played`): ``derive_seed(seed, "react", p, hand, k)``
  for a reaction to an open window, ``derive_seed(seed, "act", p, hand, k)`` for its phase's
  decision, so a game resumed from its log plays on exactly as the uninterrupted one would have.
- **Out of turn.** A late ``uno``, ``catch``, ``wrong``, ``penalize`` and a jump-in (a play by a
  seat whose turn it is not): :func:`out_of_turn`, one list of kinds for every interface.
- **The race.** While a window is open (:func:`unotable.race.window_open`), the candidates are
  the players the table's bots play, in the hand's seat order (every one of them, whether or not
  it holds an out-of-turn action now: filtering first would change the order the race draws);
  they are asked in :func:`unotable.race.race_order` for the table's seed; a bot with no
  out-of-turn action now lets the window pass; the first that acts wins.

Standard library only (the bots' own layer).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from unotable.bots import make_bot
from unotable.bots.base import WINDOW_KINDS, Bot, out_of_turn
from unotable.bots.spec import BotSpec
from unotable.match import Game
from unotable.race import first_reaction, window_open
from unotable.seeds import derive_seed

OUT_OF_TURN_KINDS: Final = WINDOW_KINDS
"""The kinds of action (``notation.Kind``) a seat takes out of turn while a window is open:
``uno``, ``catch``, ``wrong``, ``penalize`` (and a play by a seat whose turn it is not, a jump-in:
see :func:`out_of_turn`)."""


def table_seed(game_seed: int) -> int:
    """The seed of the bots' decisions at the table of the game seeded ``game_seed``."""
    return derive_seed(game_seed, "table")


def decision_seed(seed: int, what: str, player: int, hand: int, action: int) -> int:
    """The seed of player ``player``'s bot for a decision (``what``: ``"react"`` to an open
    window, ``"act"`` for its phase) after ``action`` actions of hand ``hand`` at the table
    seeded ``seed`` (:func:`table_seed`)."""
    return derive_seed(seed, what, player, hand, action)


@dataclass(frozen=True)
class TableMove:
    """What a bot of the table does now: who, which action id, whether out of turn."""

    player: int
    action: int
    out_of_turn: bool


class BotTable:
    """The bots of one game's table, by player number, and the seed of their decisions.

    :param bots: a bot for each player the program plays (the others are people).
    :param seed: the table's seed (see the module's docstring; :meth:`from_specs` derives it
        from the game's seed).
    """

    def __init__(self, bots: Mapping[int, Bot], seed: int) -> None:
        self.bots: dict[int, Bot] = dict(bots)
        self.seed = seed

    @classmethod
    def from_specs(
        cls, specs: Mapping[int, BotSpec], game_seed: int, forget_uno: float | None = None
    ) -> BotTable:
        """The table of ``specs`` (a spec per player the bots play) for the game seeded
        ``game_seed``; ``forget_uno``, when given, is every bot's rate of forgotten UNO calls
        unless its spec sets one. Each bot is named by its spec (``bot.name``).

        :raises ValueError: for an unknown bot or an option its bot refuses.
        """
        bots: dict[int, Bot] = {}
        for player, spec in specs.items():
            options = dict(spec.options)
            if forget_uno is not None:
                options = {"forget_uno": forget_uno, **options}
            bot = make_bot(spec.name, derive_seed(game_seed, "bot", player), **options)
            bot.name = spec.label
            bots[player] = bot
        return cls(bots, table_seed(game_seed))

    def candidates(self, game: Game) -> list[int]:
        """Who races for an open window: the players the bots play, in the hand's seat order."""
        return [p for p in game.deal.seating if p in self.bots]

    def with_window(self, game: Game) -> list[int]:
        """The players the bots play that hold an out-of-turn action now, in seat order."""
        if game.hand_over:
            return []
        return [p for p in self.candidates(game) if out_of_turn(game.view(p))]

    def to_act(self, game: Game) -> int | None:
        """The bot whose phase decision the hand waits for, if the current player is a bot's."""
        p = game.current_player
        return p if p is not None and p in self.bots else None

    def reaction(self, game: Game) -> TableMove | None:
        """The race for an open window (see the module's docstring), or None: no window, or
        nobody acts."""
        if game.hand_over or not window_open(game.state):
            return None
        hand, k = game.actions_played

        def react(p: int) -> int | None:
            v = game.view(p)
            if not out_of_turn(v):
                return None
            self.bots[p].reseed(decision_seed(self.seed, "react", p, hand, k))
            return self.bots[p].react(v)

        taken = first_reaction(self.candidates(game), self.seed, hand, k, react)
        return None if taken is None else TableMove(taken[0], taken[1], True)

    def next_move(self, game: Game) -> TableMove | None:
        """What a bot does now: the race for an open window first, then the current player's bot
        decides. ``None`` when the hand waits for a person or is over."""
        if game.hand_over:
            return None
        move = self.reaction(game)
        if move is not None:
            return move
        actor = self.to_act(game)
        if actor is None:
            return None
        hand, k = game.actions_played
        self.bots[actor].reseed(decision_seed(self.seed, "act", actor, hand, k))
        return TableMove(actor, self.bots[actor].act(game.view(actor)), False)


__all__ = ["OUT_OF_TURN_KINDS", "BotTable", "TableMove", "decision_seed", "out_of_turn", "table_seed"]
