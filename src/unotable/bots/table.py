"""The bot table: the bots a program plays at one game's table, as one object (issue 35).

Which players the bots play, how each bot is seeded, which actions are taken out of turn, who
races for an open window and in which order: the terminal (``uno play``) and the MCP server
(``uno mcp``) and the simulator (``uno simulate``: :mod:`unotable.sim.runs`) ask a
:class:`BotTable` what its bots do next, and a web room's driver seeds the fresh bot of each
decision with :func:`decision_seed` and races with :func:`table_seed`, so the same game seed,
rules and bots give the same game under all four.

The rules of the table:

- **Seeding.** :meth:`BotTable.from_specs` makes the bot of player ``p`` with the seed
  ``derive_seed(game_seed, "bot", p)`` and keeps ``derive_seed(game_seed, "table")`` as the
  table's seed. Before every decision the bot is reseeded from the table's seed and the game's
  place (:attr:`unotable.match.Game.actions_played`): :func:`decision_seed` of (``"react"``,
  ``p``, ``hand``, ``k``) for a reaction to an open window, of (``"act"``, ...) for its phase's
  decision, so a game resumed from its log plays on exactly as the uninterrupted one would have.
  Both are cheap (one derivation per player and hand, a SplitMix64 step per decision; the bot's
  generator, :class:`~unotable.bots.rng.BotRandom`, is seeded only if it draws, and cheaply),
  so the simulator plays its hands and games by this rule too.
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

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from unotable.bots import make_bot
from unotable.bots.base import WINDOW_KINDS, Bot, out_of_turn
from unotable.bots.rng import GOLDEN, mix64
from unotable.bots.spec import BotSpec
from unotable.engine import legal_ids
from unotable.match import Game
from unotable.notation import ACTION_KIND, ACTION_TEXT, KIND_PLAY
from unotable.race import first_reaction, window_open
from unotable.seeds import derive_seed
from unotable.state import PHASE_HAND_OVER, State
from unotable.views import View, view

OUT_OF_TURN_KINDS: Final = WINDOW_KINDS
"""The kinds of action (``notation.Kind``) a seat takes out of turn while a window is open:
``uno``, ``catch``, ``wrong``, ``penalize`` (and a play by a seat whose turn it is not, a jump-in:
see :func:`out_of_turn`)."""


_HAND_SEEDS_KEPT: Final = 256
"""The hands' seeds a table keeps (:meth:`BotTable.decision_seed`) before it forgets them all."""


def table_seed(game_seed: int) -> int:
    """The seed of the bots' decisions at the table of the game seeded ``game_seed``."""
    return derive_seed(game_seed, "table")


def decision_seed(seed: int, what: str, player: int, hand: int, action: int) -> int:
    """The seed of player ``player``'s bot for a decision (``what``: ``"react"`` to an open
    window, ``"act"`` for its phase) after ``action`` actions of hand ``hand`` at the table
    seeded ``seed`` (:func:`table_seed`): the hand's seed of that player and kind of decision,
    ``derive_seed(seed, what, player, hand)``, stepped ``action`` times by SplitMix64 (so a
    table derives one seed per hand, not one per decision: :meth:`BotTable.decision_seed`)."""
    return mix64(derive_seed(seed, what, player, hand) + action * GOLDEN)


@dataclass(frozen=True)
class TableMove:
    """What a bot of the table does now: who, which action id, whether out of turn."""

    player: int
    action: int
    out_of_turn: bool


class BotError(RuntimeError):
    """A bot answered with an action that is not legal for it now."""


def _text(aid: object) -> str:
    if isinstance(aid, int) and 0 <= aid < len(ACTION_TEXT):
        return repr(ACTION_TEXT[aid])
    return repr(aid)


def _may_react(st: State, seat: int) -> bool:
    """Whether ``seat`` holds an out-of-turn action now (:func:`out_of_turn` of its view, read
    from the legal ids without making the view)."""
    current = st.current
    return any(
        ACTION_KIND[a] in OUT_OF_TURN_KINDS or (seat != current and ACTION_KIND[a] == KIND_PLAY)
        for a in legal_ids(st, seat)
    )


class BotTable:
    """The bots of one game's table, by player number, and the seed of their decisions.

    :param bots: a bot for each player the program plays (the others are people).
    :param seed: the table's seed (see the module's docstring; :meth:`from_specs` derives it
        from the game's seed).
    """

    def __init__(self, bots: Mapping[int, Bot], seed: int) -> None:
        self.bots: dict[int, Bot] = dict(bots)
        self.seed = seed
        self._hand_seeds: dict[tuple[str, int, int], int] = {}

    def decision_seed(self, what: str, player: int, hand: int, action: int) -> int:
        """:func:`decision_seed` at this table, the hand's part derived once per hand."""
        key = (what, player, hand)
        base = self._hand_seeds.get(key)
        if base is None:
            if len(self._hand_seeds) > _HAND_SEEDS_KEPT:
                self._hand_seeds.clear()
            base = self._hand_seeds[key] = derive_seed(self.seed, what, player, hand)
        return mix64(base + action * GOLDEN)

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
        nobody acts.

        :raises BotError: if a bot reacts with an action that is not out of turn now.
        """
        if game.hand_over:
            return None
        hand, k = game.actions_played
        return self.reaction_at(game.state, game.deal.seating, hand, k, game.seat_view)

    def next_move(self, game: Game) -> TableMove | None:
        """What a bot does now: the race for an open window first, then the current player's bot
        decides. ``None`` when the hand waits for a person or is over.

        :raises BotError: if a bot answers with an action that is not legal for it now.
        """
        if game.hand_over:
            return None
        hand, k = game.actions_played
        st, seating = game.state, game.deal.seating
        move = self.reaction_at(st, seating, hand, k, game.seat_view)
        if move is not None:
            return move
        return self.act_at(st, seating, hand, k, game.seat_view)

    # ---- the same on a bare hand (the simulator's single hands, a game's hand in play)

    def reaction_at(
        self,
        st: State,
        seating: Sequence[int],
        hand: int,
        k: int,
        view_of: Callable[[int], View] | None = None,
    ) -> TableMove | None:
        """:meth:`reaction` in the hand ``st`` whose seat ``s`` the player ``seating[s]`` holds,
        hand number ``hand`` of the game after ``k`` of its actions; ``view_of(seat)`` gives a
        seat's view (by default ``views.view(st, seat)``).

        :raises BotError: if a bot reacts with an action that is not out of turn now.
        """
        if not window_open(st):
            return None
        bots = self.bots
        see = view_of if view_of is not None else functools.partial(view, st)

        def react(seat: int) -> int | None:
            if not _may_react(st, seat):
                return None
            p = seating[seat]
            bot = bots[p]
            v = see(seat)
            bot.reseed(self.decision_seed("react", p, hand, k))
            aid = bot.react(v)
            if aid is not None and aid not in out_of_turn(v):
                raise BotError(
                    f"bot {bot.name} at seat {seat} reacted {_text(aid)}, not an out-of-turn action now"
                )
            return aid

        # the seats of the table's players in seat order: race_order draws the same order of
        # them as of the players themselves (a permutation of positions)
        seats = [s for s, p in enumerate(seating) if p in bots]
        taken = first_reaction(seats, self.seed, hand, k, react)
        return None if taken is None else TableMove(seating[taken[0]], taken[1], True)

    def act_at(
        self,
        st: State,
        seating: Sequence[int],
        hand: int,
        k: int,
        view_of: Callable[[int], View] | None = None,
    ) -> TableMove | None:
        """The current player's bot's phase decision in the hand ``st`` (arguments as in
        :meth:`reaction_at`); ``None`` if the hand is over or waits for a person.

        :raises BotError: if the bot answers with an action that is not legal for it now.
        """
        seat = st.current
        if st.phase >= PHASE_HAND_OVER or seat < 0:
            return None
        p = seating[seat]
        bot = self.bots.get(p)
        if bot is None:
            return None
        v = view_of(seat) if view_of is not None else view(st, seat)
        bot.reseed(self.decision_seed("act", p, hand, k))
        aid = bot.act(v)
        if aid not in v.legal:
            raise BotError(f"bot {bot.name} at seat {seat} chose {_text(aid)}, not legal now")
        return TableMove(p, aid, False)


__all__ = [
    "OUT_OF_TURN_KINDS",
    "BotError",
    "BotTable",
    "TableMove",
    "decision_seed",
    "out_of_turn",
    "table_seed",
]
