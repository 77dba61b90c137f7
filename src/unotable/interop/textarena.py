"""UNO as a TextArena env (``str -> str``), registered as ``UNO-v0``.

``import unotable.interop.textarena`` registers with TextArena ``UNO-v0`` (TextArena's default
wrappers: ``LLMObservationWrapper``, ``ActionFormattingWrapper``), ``UNO-v0-train`` (its
board-game wrappers: the prompt, the game's messages and the current board) and ``UNO-v0-raw``
(no wrapper), as TextArena's own envs are registered. Then::

    env = textarena.make("UNO-v0")
    env.reset(num_players=2, seed=0)
    done = False
    while not done:
        player, observation = env.get_observation()
        done, info = env.step(agents[player](observation))
    rewards, game_info = env.close()

Keyword arguments of ``make``: ``edition`` (default ``classic``), ``house`` (house rules as
``uno play --house`` writes them), ``max_actions`` (a hand still going after that many actions
ends in a draw). One episode is one hand with the research env's turn model (docs/env.md): the
player to act may be the seat the phase waits for or a seat with an out-of-turn moment (a late
``uno``, a ``catch``), who may ``decline``.

What a player reads: at the start, a prompt (the rules in brief and how to answer); after each
action, what happened as that player may see it (the narration of ``uno play``: another
player's draw says how many cards, never which); at its turn, its board: its view in the
notation's codes (docs/notation.md) with the actions offered. A reply is an action in brackets,
``[play R5]``, ``[draw]``, ``[play W G uno]``, ``[decline]`` (the first bracketed action that
is offered, case ignored). A reply with none is refused as TextArena's envs refuse an invalid
move: the player is told why and asked again, and after ``error_allowance`` such replies the hand
ends with -1 for it (+1 for the other of two players, 0 for the others at a larger table).
"""

from __future__ import annotations

import random
import re
from typing import Any, Final

import textarena as ta
from textarena.envs.registration import ENV_REGISTRY, register_with_versions
from textarena.wrappers import (
    ActionFormattingWrapper,
    GameMessagesAndCurrentBoardObservationWrapper,
    LLMObservationWrapper,
)

from unotable.i18n import _
from unotable.interop.table import MAX_ACTIONS, Table
from unotable.interop.text import view_text
from unotable.narrate import describe
from unotable.rules import Rules, find_edition, parse_house

ENV_ID: Final = "UNO-v0"
_BRACKETS: Final = re.compile(r"\[([^\[\]]*)\]")


def _names(n: int) -> list[str]:
    """TextArena's names of the players (its role tags)."""
    return [f"Player {s}" for s in range(n)]


class UnoEnv(ta.Env):
    """A hand of UNO for 2 to 10 players (see the module's docstring)."""

    def __init__(
        self,
        edition: str = "classic",
        house: str = "",
        max_actions: int = MAX_ACTIONS,
        error_allowance: int = 1,
    ) -> None:
        super().__init__()
        self.edition = find_edition(edition)
        self.house: dict[str, Any] = parse_house(house) if house else {}
        self.max_actions = max_actions
        self.error_allowance = error_allowance
        Table(Rules(edition=self.edition, **self.house), max_actions=max_actions)  # refuse bad options now
        self.table: Table | None = None

    # ---- TextArena's API

    def reset(self, num_players: int, seed: int | None = None) -> None:
        """Deal a hand for ``num_players`` (the same seed deals the same hand)."""
        rules = Rules(edition=self.edition, players=num_players, **self.house)
        state_type = ta.TwoPlayerState if num_players == 2 else ta.FFAMultiPlayerState
        self.state = state_type(num_players=num_players, seed=seed, error_allowance=self.error_allowance)
        self.table = Table(rules, max_actions=self.max_actions)
        self.state.reset(
            game_state={"edition": self.edition.name, "players": num_players},
            player_prompt_function=self._prompt,
        )
        self.table.deal(seed if seed is not None else random.SystemRandom().getrandbits(63))
        self._tell(0)
        self._next()

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """The current player's reply: the first bracketed action it holds that is offered."""
        t = self._table
        player = t.actor
        chosen = self._parse(action)
        if chosen is None:
            offered = ", ".join(f"[{t.actions_table.texts[a]}]" for a in t.legal())
            self.state.set_invalid_move(
                reason=_("Answer with one of the actions offered, in brackets: {actions}.").format(
                    actions=offered
                )
            )
            if self.state.num_players > 2 and self.state.current_player_id in self.state.elimination_order:
                self._eliminated()
            return self.state.step(rotate_player=False)  # type: ignore[no-any-return]
        self.state.add_observation(
            from_id=player,
            message=f"[{t.actions_table.texts[chosen]}]",
            observation_type=ta.ObservationType.PLAYER_ACTION,
        )
        before = len(t.events)
        t.act(chosen)
        self._tell(before)
        self._next()
        return self.state.step(rotate_player=False)  # type: ignore[no-any-return]

    def get_board_str(self) -> str:
        """The board of the player to act (TextArena's board wrappers show it)."""
        return self._board(self._table.actor) if not self._table.over else ""

    # ---- inside

    @property
    def _table(self) -> Table:
        assert self.table is not None, "reset() first"
        return self.table

    def _parse(self, reply: str) -> int | None:
        """The env id of the first bracketed action of ``reply`` that is offered now, or None."""
        t = self._table
        offered = {t.actions_table.texts[a].lower(): a for a in t.legal()}
        for inside in _BRACKETS.findall(reply if isinstance(reply, str) else ""):
            aid = offered.get(" ".join(inside.split()).lower())
            if aid is not None:
                return aid
        return None

    def _prompt(self, player_id: int, game_state: dict[str, Any]) -> str:
        return _(
            "You are Player {seat} in a hand of UNO ({edition}, {players} players). Match the top card "
            "by colour, number or symbol, or play a Wild; the first to play their last card wins. "
            "At your turn you see your hand, the other hands' sizes and the actions offered. "
            "Answer with one action in square brackets, written as offered: [play R5], [draw], "
            "[play W G uno] (a wild card with the colour you call, and uno with your next-to-last "
            "card), [pass], [decline]."
        ).format(seat=player_id, edition=self.edition.title, players=game_state["players"])

    def _board(self, seat: int) -> str:
        t = self._table
        legal = [t.actions_table.texts[a] for a in t.legal()] if seat == t.actor else None
        return view_text(t.view(seat), window=t.window and seat == t.actor, legal=legal)

    def _tell(self, start: int) -> None:
        """Tell each player what happened since event ``start``, as it may see it."""
        t = self._table
        names = _names(t.rules.players)
        for e in t.events[start:]:
            for seat in range(t.rules.players):
                text = describe(e.for_seat(seat), names)
                if text:
                    self.state.add_observation(
                        to_id=seat, message=text, observation_type=ta.ObservationType.GAME_MESSAGE
                    )

    def _next(self) -> None:
        """End the game, or give the turn to the actor with its board."""
        t = self._table
        st = self.state
        if t.over:
            if t.truncated:
                st.set_draw(
                    reason=_("The hand reached {n} actions and ends in a draw.").format(n=t.max_actions)
                )
            else:
                reason = _("Player {seat} played their last card.").format(seat=t.winner)
                if isinstance(st, ta.TwoPlayerState):  # its set_winners is broken in 0.7.4
                    st.set_winner(player_id=t.winner, reason=reason)
                else:
                    st.set_winners(player_ids=[s for s, r in enumerate(t.returns()) if r > 0], reason=reason)
            return
        if isinstance(st, ta.FFAMultiPlayerState):
            st.manually_set_current_player_id(t.actor, force=True)
        else:
            st.manually_set_current_player_id(t.actor)
        st.add_observation(
            to_id=t.actor, message=self._board(t.actor), observation_type=ta.ObservationType.GAME_BOARD
        )

    def _eliminated(self) -> None:
        """A player out of allowance at a table of three or more: the hand ends, -1 for it and
        0 for the others (nobody went out)."""
        st = self.state
        st.set_game_outcome(
            reward_dict={s: (-1 if s in st.elimination_order else 0) for s in range(st.num_players)},
            reason=_("A player was eliminated for invalid replies."),
        )


if ENV_ID not in ENV_REGISTRY:
    register_with_versions(
        id=ENV_ID,
        entry_point="unotable.interop.textarena:UnoEnv",
        wrappers={
            "default": [LLMObservationWrapper, ActionFormattingWrapper],
            "-train": [GameMessagesAndCurrentBoardObservationWrapper, ActionFormattingWrapper],
        },
    )
