"""One hand for the bridges: whose turn it is, what it may do, and the end.

:class:`Table` plays one hand over the engine's public API (``new_hand``, ``legal_ids``,
``step``, ``view``) with the research env's turn model (docs/env.md): after every action each
seat that may act out of turn (a late ``uno``, a ``catch``, a ``wrong`` card) gets a window
turn, in the order of play from the seat the phase waits for (deterministic, so a bridge
needs no generator of its own), where it acts or declines; then the seat the phase waits for
gets its phase turn. A hand still going after ``max_actions`` actions is truncated (the rules
core plays on for ever when every seat keeps drawing from an empty pile: the cap is the
bridge's, not a rule). Actions are env action ids (:mod:`unotable.env.actions`). Standard
library only.
"""

from __future__ import annotations

from typing import Final

from unotable.engine import legal_ids, new_hand, step
from unotable.env.actions import ActionTable, action_table
from unotable.env.encoding import turn_ids
from unotable.errors import ConfigError
from unotable.events import Event
from unotable.rules import Rules
from unotable.state import PHASE_HAND_OVER, State
from unotable.views import View, view

MAX_ACTIONS: Final = 2000
"""The default cap on a hand's actions (declines included). Random heads-up hands of the
classic edition take about 1,100 actions (docs/env.md), so the cap truncates only hands that
a policy drags out (hoarding the deck, then passing on an empty pile)."""


class Table:
    """One hand at one table (see the module's docstring).

    :raises ConfigError: if ``max_actions`` is not a positive integer.
    """

    def __init__(self, rules: Rules, *, max_actions: int = MAX_ACTIONS) -> None:
        if isinstance(max_actions, bool) or not isinstance(max_actions, int) or max_actions < 1:
            raise ConfigError(f"max_actions must be a positive integer, not {max_actions!r}")
        self.rules = rules
        self.actions_table: ActionTable = action_table(rules)
        self.max_actions = max_actions
        self.st: State | None = None
        self.actor = -1
        """The seat whose turn it is (-1 before the deal and once the hand is over)."""
        self.window = False
        """Whether the actor's turn is an out-of-turn moment (it may decline)."""
        self.truncated = False
        self.actions = 0
        self.events: list[Event] = []
        """Everything that happened, in full: give a seat only ``event.for_seat(seat)``."""
        self.history: list[tuple[int, int]] = []
        """(seat, env action id) of every action taken: all public in UNO (a play shows its
        card, a draw does not show the card drawn)."""
        self._queue: list[int] = []

    def copy(self) -> Table:
        """An independent copy (the state copied, the rest shared or copied shallowly)."""
        out = Table.__new__(Table)
        out.__dict__.update(self.__dict__)
        out.st = None if self.st is None else self.st.copy()
        out.events = list(self.events)
        out.history = list(self.history)
        out._queue = list(self._queue)
        return out

    def __deepcopy__(self, memo: dict[int, object]) -> Table:
        return self.copy()

    # ---- the hand

    def deal(self, seed: int) -> None:
        """Deal the hand ``seed`` says (every later draw comes from the same generator)."""
        self.st, self.events = new_hand(self.rules, seed)
        self.actions = 0
        self.truncated = False
        self.history = []
        self._open_round()
        self._next_turn()

    @property
    def state(self) -> State:
        """The hand (the bridge's bookkeeping only: what a seat sees comes from :meth:`view`)."""
        assert self.st is not None, "deal() first"
        return self.st

    @property
    def over(self) -> bool:
        """Whether the hand has ended (won or truncated)."""
        return self.st is not None and self.actor < 0

    @property
    def winner(self) -> int:
        """The seat that went out, or -1 (the hand goes on, or was truncated)."""
        return self.state.winner if self.state.phase >= PHASE_HAND_OVER else -1

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now (``None``: what everyone may know)."""
        return view(self.state, seat)

    def offered(self) -> list[int]:
        """The notation ids the actor may take in this turn (``decline`` not included)."""
        if self.actor < 0:
            return []
        st = self.state
        return turn_ids(legal_ids(st, self.actor), self.window, self.actor == st.current)

    def legal(self) -> list[int]:
        """The env action ids the actor may take in this turn, ascending."""
        table = self.actions_table
        ids = sorted(table.env_id[a] for a in self.offered())
        if self.window:
            ids.append(table.decline)
        return ids

    def act(self, action: int) -> None:
        """The actor takes env action ``action``.

        :raises ValueError: if the hand is over or ``action`` is not offered now; nothing
            changes then.
        """
        if self.actor < 0:
            raise ValueError("the hand is over")
        table = self.actions_table
        seat = self.actor
        if action == table.decline and self.window:
            pass
        elif isinstance(action, int) and 0 <= action < table.decline and table.ids[action] in self.offered():
            step(self.state, seat, table.ids[action], self.events)
        else:
            raise ValueError(f"action {action!r} is not offered to seat {seat} now")
        self.history.append((seat, action))
        self.actions += 1
        if self.state.phase >= PHASE_HAND_OVER:
            self._end()
            return
        if self.actions >= self.max_actions:
            self.truncated = True
            self._end()
            return
        if action == table.decline:
            self._next_turn()
            return
        self._open_round()
        self._next_turn()

    def returns(self) -> list[float]:
        """+1 to the winner, -1 to every other seat (team modes: +1 to the winner's side); all 0
        while the hand goes on or once it was truncated."""
        n = self.rules.players
        w = self.winner
        if w < 0:
            return [0.0] * n
        teams = self.rules.teams
        return [1.0 if (s % 2 == w % 2 if teams else s == w) else -1.0 for s in range(n)]

    # ---- inside

    def _end(self) -> None:
        self.actor = -1
        self.window = False
        self._queue = []

    def _open_round(self) -> None:
        """Queue the seats that may act out of turn now, in the order of play."""
        st = self.state
        n, cur, d = st.n, st.current, st.direction
        queue = []
        for s in range(n):
            ids = legal_ids(st, s)
            if ids and turn_ids(ids, True, s == cur):
                queue.append(s)
        queue.sort(key=lambda s: ((s - cur) * d) % n)
        queue.reverse()  # popped from the end
        self._queue = queue

    def _next_turn(self) -> None:
        if self._queue:
            self.actor = self._queue.pop()
            self.window = True
            return
        self.window = False
        self.actor = self.state.current
