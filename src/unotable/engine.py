"""The rules of a hand (docs/rules.md §2-9): set-up, legal actions, and their effects.

The API is functional: :func:`new_hand` / :func:`deal` / :func:`from_position` make a state,
:func:`legal_actions` lists what a seat may do, :func:`apply` returns a new state and the
events. :func:`legal_ids` and :func:`step` are the same rules on integer action ids, mutating a
state the caller owns: the hot path of simulations and search.

This module is the engine's front: every name is defined in one of its parts and re-exported
here, where callers import it from.

- :mod:`unotable.tables`: the lookup tables of a table's rules (:class:`Tables`, the card
  effects ``E_*``, :func:`tables_for`);
- :mod:`unotable.shuffle`: the state's generator and the shuffle;
- :mod:`unotable.dealing`: making a state (:func:`new_hand`, :func:`deal`,
  :func:`from_position`, the dealer's choice, the first card);
- :mod:`unotable.legality`: :func:`legal_ids`, :func:`legal_actions`, :func:`actors`,
  :func:`check` (why an action is refused);
- :mod:`unotable.scoring`: the points of a hand (:func:`hand_points`, :func:`charged_points`,
  :func:`eliminated_seats`, the game's winners);
- :mod:`unotable.piles`: the moves every effect shares (the next seat, drawing, reshuffling,
  :func:`end_hand`, No Mercy's knock-outs);
- :mod:`unotable.effects`: :func:`step`, :func:`apply` and what each action does;
- :mod:`unotable.race`: :func:`window_open` (may anyone act out of turn now) and the order of
  the out-of-turn race.

The parts import one another only downwards (tables and shuffle, then scoring, legality,
piles, effects, dealing), and :mod:`unotable.state` imports none of them.
"""

from __future__ import annotations

from unotable.dealing import deal, dealer_candidates, from_position, new_hand
from unotable.effects import (
    CHALLENGE_PENALTY,
    UNO_PENALTY,
    WRONG_CARD_PENALTY,
    apply,
    step,
)
from unotable.legality import actors, check, legal_actions, legal_ids, pending_draw, seat_index
from unotable.piles import end_hand
from unotable.race import window_open
from unotable.scoring import charged_points, eliminated_seats, hand_points
from unotable.tables import (
    E_BLANK,
    E_DRAW,
    E_HOWLER,
    E_INVIS,
    E_MATER,
    E_NUMBER,
    E_REVERSE,
    E_SEVEN,
    E_SHUFFLE,
    E_SKIP,
    E_STACK,
    E_WD4,
    E_WILD,
    E_ZERO,
    TABLES_CACHED,
    Tables,
    table_key,
    tables_for,
)

__all__ = [
    "CHALLENGE_PENALTY",
    "E_BLANK",
    "E_DRAW",
    "E_HOWLER",
    "E_INVIS",
    "E_MATER",
    "E_NUMBER",
    "E_REVERSE",
    "E_SEVEN",
    "E_SHUFFLE",
    "E_SKIP",
    "E_STACK",
    "E_WD4",
    "E_WILD",
    "E_ZERO",
    "TABLES_CACHED",
    "UNO_PENALTY",
    "WRONG_CARD_PENALTY",
    "Tables",
    "actors",
    "apply",
    "charged_points",
    "check",
    "deal",
    "dealer_candidates",
    "eliminated_seats",
    "end_hand",
    "from_position",
    "hand_points",
    "legal_actions",
    "legal_ids",
    "new_hand",
    "pending_draw",
    "seat_index",
    "step",
    "table_key",
    "tables_for",
    "window_open",
]
