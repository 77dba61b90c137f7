"""UNO as an OpenSpiel Python game: ``pyspiel.load_game("python_unotable")``.

Importing this module registers the game with OpenSpiel (as OpenSpiel's own Python games do),
so ``pyspiel.load_game("python_unotable(players=3,edition=harry-potter,house=party)")`` works
after ``import unotable.interop.openspiel``. Parameters: ``edition`` (a name or alias,
default ``classic``), ``players`` (2 to 10, default 2), ``house`` (house rules as ``uno play
--house`` writes them, docs/rules.md §11: ``popular``, ``stacking=same,jump_in``...; default
none; in a game string ``+`` separates rules and ``:`` gives a value, as ``,`` and ``=`` are
OpenSpiel's own: ``house=stacking:same+jump_in``) and ``max_actions`` (the cap after which a hand is
truncated, a draw: every return 0).

One game is one hand, explicitly stochastic: the first four moves are chance nodes, each a
uniform byte, which together seed the hand's generator (the deal, every later draw and every
reshuffle come from it, RULES's randomness living in the state); no seat observes them, so
every draw is a chance event hidden from the players, resolved at the root as OpenSpiel's
card games deal a shuffled deck. The players then take turns as in the research env
(docs/env.md): phase turns, and out-of-turn moments (a late ``uno``, a ``catch``, a ``wrong``
card) where a seat acts or ``decline``s, asked in the order of play. Actions are the env's ids
for the rules (``unotable.env.action_table``), ``decline`` last; ``action_to_string`` gives the
notation. Returns are zero-sum, as OpenSpiel's n-player games make them (Liar's Poker): -1 to
each player who did not go out and ``players - 1`` to the winner (+1/-1 heads-up); 0 each for a
truncated hand.

Observations come from the seat's :class:`~unotable.views.View` only: the observation tensor
is the env's flat encoding (docs/env.md), the observation string the view in the notation's
codes with the actions offered; the information state string (perfect recall) is every event
of the hand as that seat saw it, with every action taken. The public observer (no private
information) encodes the view of nobody.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Final

import numpy as np
import pyspiel

from unotable.determinize import determinize
from unotable.env.encoding import Layout, layout_for
from unotable.errors import ConfigError
from unotable.interop.table import MAX_ACTIONS, Table
from unotable.interop.text import event_text, view_text
from unotable.rules import Rules, find_edition, parse_house
from unotable.views import View, view

SHORT_NAME: Final = "python_unotable"
SEED_BYTES: Final = 4
"""Chance nodes at the root: each a byte of the hand's 32-bit seed."""
DEFAULT_PARAMS: Final[dict[str, Any]] = {
    "edition": "classic",
    "players": 2,
    "house": "",
    "max_actions": MAX_ACTIONS,
}

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="UNO (unotable)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The rules the game's parameters describe.

    :raises ConfigError: for an unknown edition, house rule or player count.
    """
    # OpenSpiel's game strings keep "," and "=" for themselves: "+" and ":" stand for them.
    house = str(params.get("house", "")).replace("+", ",").replace(":", "=")
    options = parse_house(house) if house else {}
    return Rules(
        edition=find_edition(str(params.get("edition", "classic"))), players=int(params["players"]), **options
    )


class UnoGame(pyspiel.Game):
    """The game: its rules and action table, made from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULT_PARAMS, **(params or {})}
        unknown = sorted(set(p) - set(DEFAULT_PARAMS))
        if unknown:
            raise ConfigError(f"not a parameter of {SHORT_NAME}: {', '.join(unknown)}")
        self.rules = rules_from_params(p)
        self.max_actions = int(p["max_actions"])
        table = Table(self.rules, max_actions=self.max_actions)  # validates max_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=table.actions_table.size,
            max_chance_outcomes=256,
            num_players=self.rules.players,
            min_utility=-1.0,
            max_utility=float(self.rules.players - 1),
            utility_sum=0.0,
            max_game_length=self.max_actions,
        )
        super().__init__(_GAME_TYPE, info, p)
        self.layout: Layout = layout_for(self.rules)

    def new_initial_state(self) -> UnoState:
        """The root: the first chance node."""
        return UnoState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> UnoObserver:
        """An observer of the kind ``iig_obs_type`` asks for (default: the seat's observation)."""
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        return UnoObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class UnoState(pyspiel.State):
    """A hand: the seed's bytes while they are dealt, then the table."""

    def __init__(self, game: UnoGame) -> None:
        super().__init__(game)
        self.seed_bytes: list[int] = []
        self.hand = _Hand(Table(game.rules, max_actions=game.max_actions))

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while the seed is dealt, ``TERMINAL`` at the end."""
        if len(self.seed_bytes) < SEED_BYTES:
            return int(pyspiel.PlayerId.CHANCE)
        if self.hand.table.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.hand.table.actor

    def _legal_actions(self, player: int) -> list[int]:
        """The env ids ``player`` may take now, ascending (none when it is not its turn)."""
        if player != self.hand.table.actor:
            return []
        return self.hand.table.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each byte of the seed, uniform."""
        assert self.is_chance_node()
        return [(b, 1.0 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.seed_bytes.append(action)
            if len(self.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed_bytes), "big")
                self.hand.table.deal(seed)
                n = self.hand.table.rules.players
                viewers: list[int | None] = [*range(n), None]
                self.hand.logs = [[event_text(e, s) for e in self.hand.table.events] for s in viewers]
            return
        t = self.hand.table
        seat = t.actor
        before = len(t.events)
        t.act(action)
        line = f"{seat}: {t.actions_table.texts[action]}"
        new = t.events[before:]
        n = len(self.hand.logs) - 1
        for s, lines in enumerate(self.hand.logs):
            lines.append(line)
            lines.extend(event_text(e, s if s < n else None) for e in new)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> UnoState:
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt again
        at random (``unotable.determinize``, from its view alone), for OpenSpiel's ISMCTS.

        ``probability_sampler()`` (a uniform number in [0, 1)) seeds the deal. The copy keeps
        this state's history and information states, so it is for search only: do not
        serialize it, and key search nodes by observation (``use_observation_string=True``):
        another seat's information state still holds its real cards.
        """
        out: UnoState = self.clone()
        t = out.hand.table
        if t.st is not None and not t.over:
            rng = random.Random(int(float(probability_sampler()) * 2**53))
            t.st = determinize(t.view(player_id), rng)
        return out

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self.hand.table.actions_table.texts[action])

    def is_terminal(self) -> bool:
        """Whether the hand is over (won, or truncated at ``max_actions``)."""
        return len(self.seed_bytes) == SEED_BYTES and self.hand.table.over

    def returns(self) -> list[float]:
        """-1 to each player who did not go out, ``players - 1`` to the winner; 0 each before the
        end or if truncated."""
        n = self.hand.table.rules.players
        if len(self.seed_bytes) < SEED_BYTES or self.hand.table.winner < 0:
            return [0.0] * n
        return [float(n - 1) if s == self.hand.table.winner else -1.0 for s in range(n)]

    def __str__(self) -> str:
        """For debugging: the seed's bytes, then the public view (no hand)."""
        if len(self.seed_bytes) < SEED_BYTES:
            return f"dealing seed bytes {self.seed_bytes}"
        return view_text(self.hand.table.view(None))


class _Hand:
    """A state's hand and each seat's information state so far, copied cheaply: OpenSpiel
    clones a Python state by deep-copying each of its attributes."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.logs: list[list[str]] = []
        """Per seat, its information state's lines so far (events as it saw them, actions),
        then the public one (events as nobody in particular sees them)."""

    def public(self) -> str:
        """The public information state: every action, and the events as nobody sees them."""
        return "\n".join(self.logs[-1]) if self.logs else ""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        out = _Hand(self.table.copy())
        out.logs = [list(lines) for lines in self.logs]
        return out


class UnoObserver:
    """OpenSpiel's PyObserver: a tensor and a string for one seat.

    With ``perfect_recall`` the string is the seat's information state (every event as it
    saw it and every action; no tensor). Otherwise the tensor is the env's encoding of the
    seat's view (of the view of nobody, for an observer of public information only) and the
    string that view as text with the actions offered.
    """

    def __init__(self, game: UnoGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = 0 if self.perfect_recall else game.layout.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {"observation": self.tensor}

    def _view(self, state: UnoState, player: int) -> View | None:
        if state.hand.table.st is None:
            return None
        if self.private:
            return state.hand.table.view(player)
        return replace(view(state.hand.table.state, None), seat=player)

    def set_from(self, state: UnoState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        self.tensor.fill(0)
        if self.perfect_recall:
            return
        v = self._view(state, player)
        if v is not None:
            t = state.hand.table
            self.game.layout.encode(v, t.window and t.actor == player, self.tensor)

    def string_from(self, state: UnoState, player: int) -> str:
        """``player``'s observation (or information state) of ``state`` as text."""
        if self.perfect_recall:
            if not state.hand.logs:
                return ""
            # the public information state: the actions and the events as nobody sees them
            return "\n".join(state.hand.logs[player]) if self.private else state.hand.public()
        v = self._view(state, player)
        if v is None:
            return ""
        t = state.hand.table
        mine = t.actor == player
        legal = [t.actions_table.texts[a] for a in t.legal()] if mine and self.private else None
        return view_text(v, window=t.window and mine, legal=legal)


pyspiel.register_game(_GAME_TYPE, UnoGame)
