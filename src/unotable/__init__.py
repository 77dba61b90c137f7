"""unotable: UNO with the exact rules of your box, fast enough for research.

The core (this package's ``cards``, ``rules``, ``notation``, ``state``, ``engine``, ``views``,
``events``, ``scenario``) is pure Python with no third-party imports. ``COMPILED`` says whether
the optional native core (:mod:`unotable.native`, C) is loaded.
"""

from unotable.cards import CARD_CODE, COLORS, parse_card
from unotable.engine import (
    apply,
    check,
    deal,
    from_position,
    legal_actions,
    legal_ids,
    new_hand,
    pending_draw,
    step,
)
from unotable.errors import (
    ConfigError,
    IllegalActionError,
    NotationError,
    ScenarioError,
    UnoError,
)
from unotable.events import Event
from unotable.native import COMPILED
from unotable.notation import TABLE, format_action, parse_action
from unotable.rules import EDITIONS, HOUSE_PRESETS, Edition, Rules, find_edition, parse_house
from unotable.state import Phase, State
from unotable.views import View, view

__all__ = [
    "CARD_CODE",
    "COLORS",
    "COMPILED",
    "EDITIONS",
    "HOUSE_PRESETS",
    "TABLE",
    "ConfigError",
    "Edition",
    "Event",
    "IllegalActionError",
    "NotationError",
    "Phase",
    "Rules",
    "ScenarioError",
    "State",
    "UnoError",
    "View",
    "apply",
    "check",
    "deal",
    "find_edition",
    "format_action",
    "from_position",
    "legal_actions",
    "legal_ids",
    "new_hand",
    "parse_action",
    "parse_card",
    "parse_house",
    "pending_draw",
    "step",
    "view",
]

__version__ = "0.1.0"
