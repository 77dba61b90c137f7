"""The fixed action space of one configuration: env action ids, their notation, and back.

An env action id ``i`` stands for the notation's action ``ActionTable.ids[i]`` (an id of
:data:`unotable.notation.ACTIONS`), except the last id, :data:`DECLINE_TEXT`, which is the env's
own: a seat given an out-of-turn turn takes it to let the moment pass. The table holds every
action a seat of the configuration can ever take, in the notation's order (plays by card type,
each without then with ``uno``; draw; pass; colours; ``uno``; catches; challenge; accept;
Invisibility; wrong cards). docs/env.md lists the ids of the default configuration.

Standard library only (the learned bot uses it with numpy alone).
"""

from __future__ import annotations

from typing import Final

from unotable.cards import AW_SWAP, AW_TARGET, BLANK, CARD_VALUE, HOWLER, INVISIBILITY
from unotable.engine import tables_for
from unotable.errors import NotationError
from unotable.notation import (
    ACTION_ARG,
    ACTION_CARD,
    ACTION_ID,
    ACTION_KIND,
    ACTION_MORE,
    ACTION_TEXT,
    KIND_CATCH,
    KIND_COLOR,
    KIND_INVISIBILITY,
    KIND_PENALIZE,
    KIND_PLAY,
    KIND_UNO,
    KIND_WRONG,
    NAMES_SEAT,
)
from unotable.rules import Rules

DECLINE_TEXT: Final = "decline"
"""The env's own action (not of the notation): let an out-of-turn moment pass."""

IS_WINDOW: Final[tuple[bool, ...]] = tuple(k in (KIND_UNO, KIND_CATCH, KIND_WRONG) for k in ACTION_KIND)
"""Per notation id: an out-of-turn action (a late ``uno``, ``catch S``, ``wrong S``), which a
seat takes in a window turn rather than as the answer to its phase."""

_TABLES: dict[Rules, ActionTable] = {}


class ActionTable:
    """The env action ids of one :class:`Rules` (players, edition, blanks and options).

    :ivar ids: the notation id of each env id but the last (``decline``).
    :ivar env_id: per notation id, its env id, or -1 if no seat of this table can take it.
    :ivar size: how many env ids (``len(ids) + 1``).
    :ivar decline: the env id of ``decline`` (``size - 1``).
    """

    def __init__(self, rules: Rules) -> None:
        tb = tables_for(rules)
        deck = tb.deck_set | frozenset(rules.edition.dark_deck())  # UNO Flip: both faces
        ids = [aid for aid in range(len(ACTION_KIND)) if _possible(aid, rules, tb.wild, deck)]
        self.rules = rules
        self.ids: tuple[int, ...] = tuple(ids)
        env_id = [-1] * len(ACTION_TEXT)
        for i, aid in enumerate(ids):
            env_id[aid] = i
        self.env_id: tuple[int, ...] = tuple(env_id)
        self.size = len(ids) + 1
        self.decline = len(ids)
        self.texts: tuple[str, ...] = (*(ACTION_TEXT[a] for a in ids), DECLINE_TEXT)
        self._by_text = {t: i for i, t in enumerate(self.texts)}

    def to_text(self, action: int) -> str:
        """The notation of env action ``action`` (``"decline"`` for the env's own).

        :raises ValueError: if there is no such env action id.
        """
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < self.size:
            raise ValueError(f"no env action {action!r} (ids go from 0 to {self.size - 1})")
        return self.texts[action]

    def from_text(self, text: str) -> int:
        """The env action id of an action in the notation (or ``"decline"``).

        :raises NotationError: if it is not an action a seat of this table can take.
        """
        i = self._by_text.get(text) if isinstance(text, str) else None
        if i is None:
            raise NotationError(f"not an action of this table's env: {text!r}")
        return i


def _possible(aid: int, rules: Rules, wild: tuple[bool, ...], deck: frozenset[int]) -> bool:
    """Whether a seat at a table of ``rules`` can ever take notation action ``aid``."""
    kind, card, arg, n = ACTION_KIND[aid], ACTION_CARD[aid], ACTION_ARG[aid], rules.players
    if kind == KIND_PENALIZE:  # the referee's, not a seat's
        return False
    if kind == KIND_PLAY:
        if card not in deck or (ACTION_MORE[aid] and not rules.multi_play):
            return False
        if card in (HOWLER, AW_TARGET):  # All Wild's Targeted Draw Two always names one
            return 0 <= arg < n
        if card == AW_SWAP:  # a seat, or none as a last card (docs/rules.md §13, AW-7)
            return arg < n
        if NAMES_SEAT[card]:  # a 7 that swaps hands (RULES §11 seven_zero), or the 7 as a last card
            return arg < 0 or (rules.seven_zero and arg < n)
        return CARD_VALUE[card] != BLANK or (arg >= 0) == wild[card]
    if kind == KIND_COLOR and card >= 0:  # UNO Flip's dark colours (docs/rules.md §15)
        return rules.edition.flip
    if kind == KIND_CATCH:
        return arg < n
    if kind == KIND_WRONG:
        return arg < n and rules.lenient_plays
    if kind == KIND_INVISIBILITY:
        return INVISIBILITY in deck
    return not (aid == ACTION_ID["pass"] and rules.must_play_drawn)


def action_table(rules: Rules) -> ActionTable:
    """The (cached) action table of ``rules``."""
    key = rules
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) >= 256:  # a long-lived process meets many rules: keep the cache bounded
            _TABLES.clear()
        table = _TABLES[key] = ActionTable(rules)
    return table


def action_to_text(action: int, rules: Rules | None = None) -> str:
    """The notation of env action ``action`` for ``rules`` (default: classic, 4 players).

    :raises ValueError: if there is no such env action id.
    """
    return action_table(rules if rules is not None else Rules()).to_text(action)


def text_to_action(text: str, rules: Rules | None = None) -> int:
    """The env action id of ``text`` (the notation, or ``"decline"``) for ``rules`` (default:
    classic, 4 players).

    :raises NotationError: if no seat of that table can take it.
    """
    return action_table(rules if rules is not None else Rules()).from_text(text)
