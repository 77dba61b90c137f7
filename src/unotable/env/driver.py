"""Who acts next at one table: phase turns, out-of-turn moments, hands and games, rewards.

:class:`Driver` plays one episode (a hand, or a whole game to the target) over the engine's
public API (``new_hand``, ``legal_ids``, ``step``, ``view``; :class:`~unotable.match.Game` for
games). It gives turns to *players* (the agents), one at a time:

- after every action (and at a deal), each seat that may act out of turn (a late ``uno``, a
  ``catch``, a ``wrong`` card pointed out) gets a **window turn**, in the order ``window_order``
  says, where it takes one of those actions or ``decline``; an action taken opens a new round
  (the windows changed), and once every such seat has declined,
- the seat the phase waits for gets its **phase turn** (play, draw, pass, a colour, accept,
  challenge, Invisibility...).

Rewards at the end of each hand: ``"win"`` gives +1 to the winner's side and -1 to every
other player at the table; ``"points"`` gives each loser minus the points of the cards it
holds and shares their sum equally among the winner's side (zero-sum). Standard library only.
"""

from __future__ import annotations

import random
from typing import Any, Final

from unotable.engine import legal_ids, new_hand, step
from unotable.env.actions import IS_WINDOW
from unotable.errors import ConfigError
from unotable.match import Game
from unotable.rules import Rules, find_edition
from unotable.state import PHASE_HAND_OVER, State
from unotable.views import View, view

EPISODES: Final = ("hand", "game")
REWARDS: Final = ("win", "points")
WINDOW_ORDERS: Final = ("random", "play")
"""``random``: the seats with an out-of-turn action are asked in a random order each round
(from the episode's seeded generator; a race, as in the simulator); ``play``: from the seat the
phase waits for, then on in the direction of play."""
DECLINE: Final = -1
"""What :meth:`Driver.act` takes for ``decline``."""
HAND_ACTION_CAP: Final = 10_000
"""The default cap on one hand's actions (declines included), after which the env truncates
the episode: the rules let a hand go on for ever once the draw pile is empty and every seat
keeps drawing (R-6), the env does not. Measured (docs/env.md): greedy play never took more
than 238 actions in 10,000 hands, uniform random play over the mask 12,035 at most (99.9% of
hands under 8,400)."""


def make_rules(rules: Rules | None = None, **options: Any) -> Rules:
    """The rules an env plays: ``rules`` as given, or built from ``edition`` (a name), ``players``
    and any other field of :class:`Rules`.

    :raises ConfigError: for both at once, or a bad option.
    """
    if rules is not None:
        if options:
            raise ConfigError(f"give rules or options, not both ({', '.join(sorted(options))})")
        if not isinstance(rules, Rules):
            raise ConfigError(f"rules must be a Rules, not {type(rules).__name__}")
        return rules
    if "edition" in options and isinstance(options["edition"], str):
        options["edition"] = find_edition(options["edition"])
    try:
        return Rules(**options)
    except TypeError as exc:
        raise ConfigError(f"not an option of the rules: {exc}") from None


def check_cap(name: str, value: int | None) -> None:
    """:raises ConfigError: unless ``value`` is a positive integer or None."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ConfigError(f"{name} must be a positive integer or None, not {value!r}")


class Driver:
    """One table's episodes: turns, rewards and the end (see the module's docstring).

    :raises ConfigError: for an unknown ``episode``, ``reward`` or ``window_order``.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        episode: str = "hand",
        reward: str = "win",
        window_order: str = "random",
        max_actions: int | None = None,
        max_hand_actions: int | None = HAND_ACTION_CAP,
    ) -> None:
        if not isinstance(rules, Rules):
            raise ConfigError(f"rules must be a Rules, not {type(rules).__name__}")
        for name, value, known in (
            ("episode", episode, EPISODES),
            ("reward", reward, REWARDS),
            ("window_order", window_order, WINDOW_ORDERS),
        ):
            if value not in known:
                raise ConfigError(f"{name} must be one of {', '.join(known)}, not {value!r}")
        check_cap("max_actions", max_actions)
        check_cap("max_hand_actions", max_hand_actions)
        self.rules = rules
        self.episode = episode
        self.reward = reward
        self.window_order = window_order
        self.max_actions = max_actions
        self.max_hand_actions = max_hand_actions
        self.players = Game.new(rules, 0).players if episode == "game" else rules.players
        """Players of the episode (the agents): 8 for two-tables, else ``rules.players``."""
        self._rng: random.Random | None = None
        self._game: Game | None = None
        self._st: State | None = None
        self._seating: tuple[int, ...] = tuple(range(rules.players))
        self._queue: list[int] = []
        self.actor = -1
        """The player whose turn it is (-1 once the episode is over)."""
        self.window = False
        """Whether the actor's turn is an out-of-turn moment."""
        self.done = False
        self.truncated = False
        self.actions = 0
        """Actions taken in this episode (declines included)."""
        self.hand_actions = 0
        """Actions taken in the hand in play (declines included)."""
        self.hands = 0
        """Hands finished in this episode."""

    # ---- the episode

    def reset(self, seed: int | None = None) -> None:
        """Deal a new episode. A seed restarts the generator the deals come from; without one
        it goes on (a fresh one from the system at the first reset)."""
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random()
        deal_seed = self._rng.getrandbits(63)
        self.done = self.truncated = False
        self.actions = self.hand_actions = self.hands = 0
        if self.episode == "game":
            self._game = Game.new(self.rules, deal_seed)
            self._st = self._game.state
            self._seating = self._game.deal.seating
        else:
            self._st, _ = new_hand(self.rules, deal_seed, record=False)
        self._open_round()
        self._next_turn()

    @property
    def state(self) -> State:
        """The hand in play (for the env's bookkeeping only: observations come from views)."""
        assert self._st is not None, "reset() first"
        return self._st

    @property
    def game(self) -> Game | None:
        """The game, in ``episode="game"``."""
        return self._game

    def seat_of(self, player: int) -> int:
        """``player``'s seat at the current table, or -1 if not at it."""
        try:
            return self._seating.index(player)
        except ValueError:
            return -1

    def view_of(self, player: int) -> View | None:
        """What ``player`` may know now, or None if not at the current table."""
        seat = self.seat_of(player)
        return None if seat < 0 else view(self.state, seat)

    def offered(self) -> list[int]:
        """The notation ids the actor may take in this turn (``decline`` not included)."""
        if self.actor < 0:
            return []
        st = self.state
        seat = self.seat_of(self.actor)
        ids = legal_ids(st, seat)
        if not self.window:
            return [a for a in ids if not IS_WINDOW[a]]
        if seat != st.current:
            return ids
        return [a for a in ids if IS_WINDOW[a]]

    def act(self, aid: int, *, checked: bool = False) -> list[float]:
        """The actor takes notation id ``aid`` (or :data:`DECLINE` in a window turn); the
        rewards it brought, by player.

        :param checked: the caller already knows ``aid`` is offered (read from a mask).
        :raises ValueError: if the episode is over or ``aid`` is not offered in this turn;
            nothing changes then.
        """
        if self.actor < 0:
            raise ValueError("the episode is over: reset() first")
        rewards = [0.0] * self.players
        if aid == DECLINE:
            if not self.window:
                raise ValueError("decline is offered only in an out-of-turn moment")
            self.actions += 1
            self.hand_actions += 1
            if self._capped():
                return rewards
            self._next_turn()
            return rewards
        if not checked and aid not in self.offered():
            raise ValueError(f"action {aid} is not offered to player {self.actor} now")
        seat = self.seat_of(self.actor)
        if self._game is not None:
            self._game.apply_seat(seat, aid)
            self._st = self._game.state
        else:
            step(self.state, seat, aid)
        self.actions += 1
        self.hand_actions += 1
        st = self.state
        if st.phase >= PHASE_HAND_OVER:
            self.hands += 1
            self._score(rewards)
            game = self._game
            if game is None or game.finished:
                self._end()
                return rewards
            game.next_hand()
            self._st = game.state
            self._seating = game.deal.seating
            self.hand_actions = 0
        if self._capped():
            return rewards
        self._open_round()
        self._next_turn()
        return rewards

    # ---- inside

    def _capped(self) -> bool:
        """Truncate the episode if it reached ``max_actions`` or its hand ``max_hand_actions``."""
        if (self.max_actions is not None and self.actions >= self.max_actions) or (
            self.max_hand_actions is not None and self.hand_actions >= self.max_hand_actions
        ):
            self.truncated = True
            self._end()
            return True
        return False

    def _end(self) -> None:
        self.done = True
        self.actor = -1
        self.window = False
        self._queue = []

    def _open_round(self) -> None:
        """Queue the seats that may act out of turn now, in the window order."""
        st = self.state
        queue: list[int] = []
        if st.phase < PHASE_HAND_OVER:
            n = st.n
            cur = st.current
            for s in range(n):
                ids = legal_ids(st, s)
                if ids and (s != cur or any(IS_WINDOW[a] for a in ids)):
                    queue.append(s)
            if len(queue) > 1:
                if self.window_order == "random":
                    assert self._rng is not None
                    self._rng.shuffle(queue)
                else:
                    d = st.direction
                    queue.sort(key=lambda s: ((s - cur) * d) % n)
        queue.reverse()  # popped from the end
        self._queue = queue

    def _next_turn(self) -> None:
        if self._queue:
            self.actor = self._seating[self._queue.pop()]
            self.window = True
            return
        self.window = False
        self.actor = self._seating[self.state.current]

    def _score(self, rewards: list[float]) -> None:
        st = self.state
        n = st.n
        w = st.winner
        teams = st.rules.teams
        side = [s for s in range(n) if (s % 2 == w % 2 if teams else s == w)]
        if self.reward == "win":
            for s in range(n):
                rewards[self._seating[s]] = 1.0 if s in side else -1.0
            return
        points = st.tables.points
        total = 0.0
        for s in range(n):
            if s not in side:
                lost = float(sum(points[t] for t in st.hands[s]))
                rewards[self._seating[s]] = -lost
                total += lost
        for s in side:
            rewards[self._seating[s]] = total / len(side)
