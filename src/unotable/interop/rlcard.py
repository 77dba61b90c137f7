"""An env with RLCard's UNO API and action ids, over this project's rules core.

``import unotable.interop.rlcard`` registers ``unotable-uno`` with RLCard, so
``rlcard.make("unotable-uno", config={"seed": 0})`` gives a :class:`UnoEnv`: RLCard's ``Env``
(``reset``, ``step``, ``step_back``, ``set_agents``, ``run``, ``get_payoffs``...) with RLCard's
61 action ids (``r-0`` ... ``y-wild_draw_4``, then ``draw``), its observation (``obs`` of shape
(4, 4, 15): three planes of the hand by count, one of the card to match) and its raw state
(``raw_obs``, ``raw_legal_actions``), so RLCard's agents (DQN, NFSP, ``uno-rule-v1``) play and
train on it unchanged.

Config keys besides RLCard's (``seed``, ``allow_step_back``): ``game_num_players`` (default 2),
``preset`` and ``max_actions`` (a hand still going after that many actions is truncated: every
payoff 0). The presets (docs/interop.md lists every difference from RLCard's game):

- ``"rlcard"`` (default): RLCard's simplified rules over the core: :data:`RLCARD_OPTIONS` (no
  UNO call; a Wild Draw Four is never challenged) and, in this bridge, what RLCard's game does:
  ``draw`` offered only when no card plays, a Wild Draw Four only when no other card plays; a
  drawn card played for the player if it is a wild card (a random colour) or of the colour in
  force, else kept; a first card that is a Wild given a random colour.
- ``"official"``: the rules of docs/rules.md (classic edition); a play of the next-to-last card
  always calls UNO, and a Wild Draw Four is never challenged (RLCard has no id for it).

Ids with more than one meaning here: ``draw`` also keeps a drawn card (``pass``) and takes a
pending draw (``accept``); ``c-wild`` also names colour ``c`` when the first card turned is a
Wild (``color C``). Out-of-turn moments, which neither preset opens, are declined for every
seat. An action id that is not legal is refused (``ValueError``), where RLCard's own env plays a
random legal action instead.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

import numpy as np
import rlcard
from rlcard.envs import Env
from rlcard.games.uno.utils import ACTION_LIST, ACTION_SPACE

from unotable.cards import CARD_COLOR, CARD_VALUE, COLORS, WILD, WILD_DRAW_FOUR
from unotable.errors import ConfigError
from unotable.interop.table import MAX_ACTIONS, Table
from unotable.notation import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_KIND,
    ACTION_UNO,
    KIND_ACCEPT,
    KIND_COLOR,
    KIND_DRAW,
    KIND_PASS,
    KIND_PLAY,
)
from unotable.rules import Rules
from unotable.state import PHASE_AFTER_DRAW, PHASE_CHOOSE_COLOR
from unotable.views import View

ENV_ID: Final = "unotable-uno"
NUM_ACTIONS: Final = 61
RLCARD_OPTIONS: Final[dict[str, Any]] = {"no_bluffing": True, "uno_call": "silent"}
"""The core's options nearest RLCard's rules (docs/interop.md)."""
PRESETS: Final = ("rlcard", "official")
_TRAITS: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw_2")
_LETTER: Final = tuple(c.lower() for c in COLORS)  # our colour index -> RLCard's letter
_PLANE_COLOR: Final = {"r": 0, "g": 1, "b": 2, "y": 3}  # RLCard's COLOR_MAP


def preset_rules(preset: str = "rlcard", players: int = 2) -> Rules:
    """The rules of ``preset`` (``"rlcard"`` or ``"official"``) for ``players``.

    :raises ConfigError: for another preset or a bad number of players.
    """
    if preset not in PRESETS:
        raise ConfigError(f"preset must be one of {', '.join(PRESETS)}, not {preset!r}")
    return Rules(players=players, **(RLCARD_OPTIONS if preset == "rlcard" else {}))


def card_string(card: int, color: int = -1) -> str:
    """A card in RLCard's spelling (``r-7``, ``g-draw_2``, ``b-wild``); a wild card takes
    ``color`` (the one called), ``r`` when none is."""
    if card in (WILD, WILD_DRAW_FOUR):
        trait = "wild" if card == WILD else "wild_draw_4"
        return f"{_LETTER[color] if color >= 0 else 'r'}-{trait}"
    return f"{_LETTER[CARD_COLOR[card]]}-{_TRAITS[CARD_VALUE[card]]}"


def _rlcard_action(aid: int) -> str | None:
    """The RLCard action a notation id stands for here, or None (it has none)."""
    kind = ACTION_KIND[aid]
    if kind == KIND_PLAY:
        card = ACTION_CARD[aid]
        if card in (WILD, WILD_DRAW_FOUR):
            return card_string(card, ACTION_ARG[aid])
        return card_string(card) if ACTION_ARG[aid] < 0 else None
    if kind in (KIND_DRAW, KIND_PASS, KIND_ACCEPT):
        return "draw"
    if kind == KIND_COLOR:
        return f"{_LETTER[ACTION_ARG[aid]]}-wild"
    return None


class UnoGame:
    """RLCard's game interface (``init_game``, ``step``, ``get_state``...) over a
    :class:`~unotable.interop.table.Table`."""

    def __init__(
        self,
        preset: str = "rlcard",
        num_players: int = 2,
        max_actions: int = MAX_ACTIONS,
        allow_step_back: bool = False,
    ) -> None:
        self.preset = preset
        self.rules = preset_rules(preset, num_players)
        self.num_players = num_players
        self.allow_step_back = allow_step_back
        self.np_random = np.random.RandomState()
        self.table = Table(self.rules, max_actions=max_actions)
        self.history: list[tuple[Table, list[str]]] = []
        self.played: list[str] = []
        """The discard pile in RLCard's spelling, each wild with the colour called for it."""
        self._moves: dict[str, int] = {}

    def configure(self, game_config: dict[str, Any]) -> None:
        """RLCard's hook for ``game_`` keys (the env passes them at construction)."""

    def init_game(self) -> tuple[dict[str, Any], int]:
        """Deal a hand (its seed from ``np_random``); the first state and player."""
        self.table.deal(int(self.np_random.randint(0, 2**31 - 1)))
        self.history = []
        self.played = []
        self._follow(0)
        self._settle()
        player = self.get_player_id()
        return self.get_state(player), player

    def step(self, action: str) -> tuple[dict[str, Any], int]:
        """The current player takes ``action`` (RLCard's spelling).

        :raises ValueError: if it is not legal now; nothing changes then.
        """
        aid = self._moves.get(action)
        if aid is None:
            raise ValueError(f"{action!r} is not a legal action of player {self.get_player_id()} now")
        if self.allow_step_back:
            self.history.append((self.table.copy(), list(self.played)))
        t = self.table
        before = len(t.events)
        t.act(t.actions_table.env_id[aid])
        self._follow(before)
        self._settle()
        player = self.get_player_id()
        return self.get_state(player), player

    def step_back(self) -> bool:
        """Undo the last step (with ``allow_step_back``); False at the root."""
        if not self.history:
            return False
        self.table, self.played = self.history.pop()
        self._moves = self._legal_moves()
        return True

    def _settle(self) -> None:
        """Take the moves RLCard's players never make: decline every out-of-turn moment, take
        a pending draw that cannot be answered; then list the current player's moves."""
        t = self.table
        while not t.over:
            if t.window:
                before = len(t.events)
                t.act(t.actions_table.decline)
                self._follow(before)
                continue
            offered = t.offered()
            aid = -1
            if len(offered) == 1 and ACTION_KIND[offered[0]] == KIND_ACCEPT:
                aid = offered[0]
            elif self.preset == "rlcard" and t.state.phase in (PHASE_AFTER_DRAW, PHASE_CHOOSE_COLOR):
                aid = self._rlcard_move(offered)
            if aid < 0:
                break
            before = len(t.events)
            t.act(t.actions_table.env_id[aid])
            self._follow(before)
        self._moves = self._legal_moves()

    def _rlcard_move(self, offered: list[int]) -> int:
        """What RLCard's game does for its player after a draw or on a first Wild: play the
        drawn card if it is a wild card (a random colour) or of the colour in force, else keep it
        (``pass``); a first Wild gets a random colour."""
        t = self.table
        color = int(self.np_random.randint(4))
        if t.state.phase == PHASE_CHOOSE_COLOR:
            return next(a for a in offered if ACTION_KIND[a] == KIND_COLOR and ACTION_ARG[a] == color)
        card = t.view(t.actor).drawn
        wild = card in (WILD, WILD_DRAW_FOUR)
        if wild or CARD_COLOR[card] == t.state.color:
            plays = [
                a
                for a in offered
                if ACTION_KIND[a] == KIND_PLAY
                and ACTION_CARD[a] == card
                and (not wild or ACTION_ARG[a] == color)
            ]
            if plays:
                return max(plays, key=lambda a: ACTION_UNO[a])  # the next-to-last card calls UNO
        return next(a for a in offered if ACTION_KIND[a] == KIND_PASS)

    def _legal_moves(self) -> dict[str, int]:
        """The current player's moves, RLCard's spelling -> notation id."""
        t = self.table
        if t.over:
            return {}
        offered = t.offered()
        if self.preset == "rlcard":  # RLCard offers draw only when no card plays, and a Wild
            # Draw Four only when no other card plays
            if any(ACTION_KIND[a] == KIND_PLAY for a in offered):
                offered = [a for a in offered if ACTION_KIND[a] != KIND_DRAW]
            others = [a for a in offered if ACTION_KIND[a] == KIND_PLAY and ACTION_CARD[a] != WILD_DRAW_FOUR]
            if others:
                offered = [
                    a
                    for a in offered
                    if not (ACTION_KIND[a] == KIND_PLAY and ACTION_CARD[a] == WILD_DRAW_FOUR)
                ]
        moves: dict[str, int] = {}
        for aid in offered:
            name = _rlcard_action(aid)
            if name is None:
                continue
            if name not in moves or ACTION_UNO[aid]:  # the next-to-last card always calls UNO
                moves[name] = aid
        return moves

    def _follow(self, start: int) -> None:
        """Keep the discard pile in RLCard's spelling from the events since ``start``."""
        for e in self.table.events[start:]:
            if e.kind in ("play", "first_card") and e.cards:
                self.played.append(card_string(e.cards[-1], e.color if e.color is not None else -1))
            elif e.kind == "color" and self.played and e.color is not None:
                self.played[-1] = card_string(self.table.state.discard[-1], e.color)
            elif e.kind == "reshuffle":
                self.played = self.played[-1:]

    def get_state(self, player_id: int) -> dict[str, Any]:
        """RLCard's raw state of ``player_id``, from its view alone."""
        v = self.table.view(player_id)
        mine = player_id == self.get_player_id()
        return {
            "hand": [card_string(c) for c in v.hand],
            "target": _target(v),
            "played_cards": list(self.played),
            "legal_actions": list(self._moves) if mine else [],
            "num_cards": list(v.hand_sizes),
            "num_players": self.num_players,
            "current_player": self.get_player_id(),
        }

    def get_payoffs(self) -> list[float]:
        """+1 to the winner, -1 to the others; 0 each while the hand goes on or if truncated."""
        return self.table.returns()

    def get_legal_actions(self) -> list[str]:
        """The current player's legal actions, in RLCard's spelling."""
        return list(self._moves)

    def get_num_players(self) -> int:
        """Players at the table."""
        return self.num_players

    @staticmethod
    def get_num_actions() -> int:
        """RLCard's 61 UNO actions."""
        return NUM_ACTIONS

    def get_player_id(self) -> int:
        """The seat to act (the last one to have acted once the hand is over)."""
        t = self.table
        if t.over:
            return t.history[-1][0] if t.history else 0
        return t.actor

    def is_over(self) -> bool:
        """Whether the hand has ended (won or truncated)."""
        return self.table.over


def _target(v: View) -> str:
    """The card to match in RLCard's spelling, a wild with the colour in force."""
    return card_string(v.top, v.color)


def encode(state: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.int_]]:
    """RLCard's UNO observation of a raw state: (4, 4, 15), planes 0-2 the hand (no copy, one,
    two of each card; a wild card marked in every colour), plane 3 the card to match."""
    obs = np.zeros((4, 4, 15), dtype=int)
    obs[0] = 1
    counts: dict[str, int] = {}
    for card in state["hand"]:
        counts[card] = counts.get(card, 0) + 1
    for card, count in counts.items():
        color, trait = card.split("-")
        t = _TRAITS.index(trait) if trait in _TRAITS else (13 if trait == "wild" else 14)
        if t >= 13:
            obs[0, :, t] = 0
            obs[1, :, t] = 1
        else:
            obs[0, _PLANE_COLOR[color], t] = 0
            obs[min(count, 2), _PLANE_COLOR[color], t] = 1
    color, trait = state["target"].split("-")
    t = _TRAITS.index(trait) if trait in _TRAITS else (13 if trait == "wild" else 14)
    obs[3, _PLANE_COLOR[color], t] = 1
    return obs


class UnoEnv(Env):
    """RLCard's ``Env`` for UNO over this project's rules (see the module's docstring).

    :raises ConfigError: for an unknown preset, a bad number of players or ``max_actions``.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        config = {"allow_step_back": False, "seed": None, **(config or {})}
        self.name = "unotable-uno"
        self.default_game_config = {"game_num_players": 2}
        self.game = UnoGame(
            str(config.get("preset", "rlcard")),
            int(config.get("game_num_players", 2)),
            config.get("max_actions", MAX_ACTIONS),
        )
        super().__init__(config)
        self.game.allow_step_back = bool(config["allow_step_back"])
        self.state_shape = [[4, 4, 15] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def _extract_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "obs": encode(state),
            "legal_actions": OrderedDict((ACTION_SPACE[a], None) for a in state["legal_actions"]),
            "raw_obs": state,
            "raw_legal_actions": list(state["legal_actions"]),
            "action_record": self.action_recorder,
        }

    def get_payoffs(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        """+1 to the winner, -1 to the others (0 each for a truncated hand)."""
        return np.array(self.game.get_payoffs())

    def _decode_action(self, action_id: int) -> str:
        """RLCard's action of ``action_id``.

        :raises ValueError: if it is not one of the 61 ids.
        """
        if not 0 <= int(action_id) < NUM_ACTIONS:
            raise ValueError(f"no UNO action {action_id!r} (ids go from 0 to {NUM_ACTIONS - 1})")
        return str(ACTION_LIST[int(action_id)])

    def _get_legal_actions(self) -> OrderedDict[int, None]:
        return OrderedDict((ACTION_SPACE[a], None) for a in self.game.get_legal_actions())

    def get_perfect_information(self) -> dict[str, Any]:
        """Every hand (RLCard's name for it: a cheat's view, for debugging and human display)."""
        st = self.game.table.state
        return {
            "num_players": self.num_players,
            "hand_cards": [[card_string(c) for c in h] for h in st.hands],
            "played_cards": list(self.game.played),
            "target": _target(self.game.table.view(None)),
            "current_player": self.game.get_player_id(),
            "legal_actions": self.game.get_legal_actions(),
        }


if ENV_ID not in rlcard.envs.registration.registry.env_specs:
    rlcard.envs.register(env_id=ENV_ID, entry_point="unotable.interop.rlcard:UnoEnv")
