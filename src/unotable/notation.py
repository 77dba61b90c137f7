"""Actions of the notation (docs/notation.md) as small integers, and their one spelling each.

Every action any table of up to ten players can name has an id in ``ACTIONS``; its text is
``ACTION_TEXT[id]`` and ``ACTION_ID[text]`` maps back. The engine works with ids on its hot
path and with text at its edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from unotable.cards import (
    ALL_WILD_CARDS,
    AW_SWAP,
    AW_TARGET,
    BLANK,
    CARD_CODE,
    CARD_VALUE,
    CLASSIC_CARD_TYPES,
    COLORS,
    DARK_FACE,
    FL_DARK_FIRST,
    FL_FIRST,
    HOWLER,
    INVISIBILITY,
    IS_WILD,
    MATER,
    NAMES_COLOR,
    NM_FIRST,
    NUM_CARD_TYPES,
    SEVEN,
    WILD_CUSTOM,
    WILD_SHUFFLE,
    color_code,
)
from unotable.errors import NotationError
from unotable.rules import MAX_PLAYERS

TABLE: Final = "table"
"""The referee's pseudo-seat, which takes ``penalize`` actions."""
TABLE_SEAT: Final = -2
"""The referee's pseudo-seat as the engine numbers it."""


NAMES_SEAT: Final[tuple[bool, ...]] = tuple(
    t in (HOWLER, AW_TARGET, AW_SWAP) or (not IS_WILD[t] and CARD_VALUE[t] == SEVEN)
    for t in range(NUM_CARD_TYPES)
)
"""Per card type: a play of it may name a seat (the Howler; a 7, with ``seven_zero``; All Wild's
Wild Targeted Draw Two and Wild Forced Swap)."""
OPENS_SERIES: Final[tuple[bool, ...]] = tuple(
    not IS_WILD[t] and CARD_VALUE[t] <= 9 for t in range(NUM_CARD_TYPES)
)
"""Per card type: a number card, which with ``multi_play`` may be played with ``more``
(docs/rules.md §11.5)."""


class Kind(IntEnum):
    """The kinds of action."""

    PLAY = 0
    DRAW = 1
    PASS = 2
    COLOR = 3
    UNO = 4
    CATCH = 5
    CHALLENGE = 6
    ACCEPT = 7
    INVISIBILITY = 8
    WRONG = 9
    PENALIZE = 10


# The kinds as plain ints for hot paths (an int compares faster than an IntEnum member).
KIND_PLAY: Final = int(Kind.PLAY)
KIND_DRAW: Final = int(Kind.DRAW)
KIND_PASS: Final = int(Kind.PASS)
KIND_COLOR: Final = int(Kind.COLOR)
KIND_UNO: Final = int(Kind.UNO)
KIND_CATCH: Final = int(Kind.CATCH)
KIND_CHALLENGE: Final = int(Kind.CHALLENGE)
KIND_ACCEPT: Final = int(Kind.ACCEPT)
KIND_INVISIBILITY: Final = int(Kind.INVISIBILITY)
KIND_WRONG: Final = int(Kind.WRONG)
KIND_PENALIZE: Final = int(Kind.PENALIZE)


@dataclass(frozen=True, slots=True)
class Action:
    """A decoded action: its kind, the card played, an argument (colour or seat), the UNO call."""

    kind: Kind
    card: int = -1
    arg: int = -1
    """A colour index (wild plays, ``color``, ``invisibility``) or a seat (Howler, a 7 with
    ``seven_zero``, catch, ...)."""
    uno: bool = False
    more: bool = False
    """With ``multi_play`` (docs/rules.md §11.5): another card of the same number follows this
    one in the same turn (``play R5 more``)."""

    def text(self) -> str:
        """The action's one spelling."""
        k = self.kind
        suffix = (" more" if self.more else "") + (" uno" if self.uno else "")
        if k is Kind.PLAY:
            code = CARD_CODE[self.card]
            if self.arg < 0:
                return f"play {code}{suffix}"
            arg = str(self.arg) if NAMES_SEAT[self.card] else color_code(self.arg, DARK_FACE[self.card])
            return f"play {code} {arg}{suffix}"
        if k is Kind.COLOR:  # UNO Flip's dark side names its own colours (``card``: a dark face)
            return f"color {color_code(self.arg, self.card >= 0 and DARK_FACE[self.card])}"
        if k is Kind.INVISIBILITY:
            return f"invisibility {COLORS[self.arg]}{suffix}"
        if k is Kind.CATCH:
            return f"catch {self.arg}"
        if k is Kind.WRONG:
            return f"wrong {self.arg}"
        if k is Kind.PENALIZE:
            return f"penalize {self.arg} suggestion"
        return k.name.lower()


def _build() -> list[Action]:
    acts: list[Action] = []
    for t in range(CLASSIC_CARD_TYPES):
        for uno in (False, True):
            if t == HOWLER:
                acts += [Action(Kind.PLAY, t, s, uno) for s in range(MAX_PLAYERS)]
            elif t == MATER:
                acts.append(Action(Kind.PLAY, t, -1, uno))
            elif IS_WILD[t]:
                acts += [Action(Kind.PLAY, t, c, uno) for c in range(4)]
            else:
                acts.append(Action(Kind.PLAY, t, -1, uno))
                if CARD_VALUE[t] == BLANK:  # a wild custom blank names its colour
                    acts += [Action(Kind.PLAY, t, c, uno) for c in range(4)]
    acts.append(Action(Kind.DRAW))
    acts.append(Action(Kind.PASS))
    acts += [Action(Kind.COLOR, arg=c) for c in range(4)]
    acts.append(Action(Kind.UNO))
    acts += [Action(Kind.CATCH, arg=s) for s in range(MAX_PLAYERS)]
    acts.append(Action(Kind.CHALLENGE))
    acts.append(Action(Kind.ACCEPT))
    acts += [Action(Kind.INVISIBILITY, INVISIBILITY, c, uno) for uno in (False, True) for c in range(4)]
    acts += [Action(Kind.WRONG, arg=s) for s in range(MAX_PLAYERS)]
    acts += [Action(Kind.PENALIZE, arg=s) for s in range(MAX_PLAYERS)]
    # RULES §11 seven_zero: a 7 names the seat it swaps hands with. Last, so that the ids of the
    # actions before stay what they were.
    for t in range(CLASSIC_CARD_TYPES):
        if NAMES_SEAT[t] and t != HOWLER:
            acts += [Action(Kind.PLAY, t, s, uno) for uno in (False, True) for s in range(MAX_PLAYERS)]
    # docs/rules.md §11.5 multi_play: a number card with another of its number to follow.
    for t in range(FL_FIRST):
        if OPENS_SERIES[t]:
            acts += [Action(Kind.PLAY, t, -1, uno, more=True) for uno in (False, True)]
    # The later editions' wild cards (docs/rules.md §12): last again, so that the ids of the
    # first three editions' actions, and those the native core knows, stay what they were.
    for t in (WILD_SHUFFLE, WILD_CUSTOM):
        for uno in (False, True):
            acts += [Action(Kind.PLAY, t, c, uno) for c in range(4)]
    # UNO All Wild's cards (docs/rules.md §13), last again: they name no colour; the Wild
    # Targeted Draw Two names the seat that draws, the Wild Forced Swap the seat it swaps with
    # (and none as a last card: AW-7).
    for t in ALL_WILD_CARDS:
        for uno in (False, True):
            if t != AW_TARGET:
                acts.append(Action(Kind.PLAY, t, -1, uno))
            if NAMES_SEAT[t]:
                acts += [Action(Kind.PLAY, t, s, uno) for s in range(MAX_PLAYERS)]
    # UNO Show 'Em No Mercy's cards (docs/rules.md §14), last again: its coloured cards name
    # nothing, its wild draw cards a colour, its Wild Colour Roulette none (its victim does, NM-7).
    for t in range(NM_FIRST, FL_FIRST):
        for uno in (False, True):
            if NAMES_COLOR[t]:
                acts += [Action(Kind.PLAY, t, c, uno) for c in range(4)]
            else:
                acts.append(Action(Kind.PLAY, t, -1, uno))
    # UNO Flip's cards (docs/rules.md §15), last again: its own light cards and its dark faces
    # (a dark wild names a dark colour, P, T, O or V), the dark colours called, the dark
    # numbers played with ``more``.
    for t in range(FL_FIRST, NUM_CARD_TYPES):
        for uno in (False, True):
            if NAMES_COLOR[t]:
                acts += [Action(Kind.PLAY, t, c, uno) for c in range(4)]
            else:
                acts.append(Action(Kind.PLAY, t, -1, uno))
    acts += [Action(Kind.COLOR, FL_DARK_FIRST, c) for c in range(4)]
    for t in range(FL_FIRST, NUM_CARD_TYPES):
        if OPENS_SERIES[t]:
            acts += [Action(Kind.PLAY, t, -1, uno, more=True) for uno in (False, True)]
        if NAMES_SEAT[t]:  # a dark 7 with seven_zero
            acts += [Action(Kind.PLAY, t, s, uno) for uno in (False, True) for s in range(MAX_PLAYERS)]
    return acts


ACTIONS: Final[tuple[Action, ...]] = tuple(_build())
"""Every action of the notation, by id."""
ACTION_TEXT: Final[tuple[str, ...]] = tuple(a.text() for a in ACTIONS)
ACTION_ID: Final[dict[str, int]] = {text: i for i, text in enumerate(ACTION_TEXT)}
ACTION_KIND: Final[tuple[int, ...]] = tuple(int(a.kind) for a in ACTIONS)
ACTION_CARD: Final[tuple[int, ...]] = tuple(a.card for a in ACTIONS)
ACTION_ARG: Final[tuple[int, ...]] = tuple(a.arg for a in ACTIONS)
ACTION_UNO: Final[tuple[bool, ...]] = tuple(a.uno for a in ACTIONS)
ACTION_MORE: Final[tuple[bool, ...]] = tuple(a.more for a in ACTIONS)
"""Per action id: a ``play ... more`` of ``multi_play`` (docs/rules.md §11.5)."""
ACTION_FIELDS: Final[tuple[tuple[int, int, int, bool], ...]] = tuple(
    (int(a.kind), a.card, a.arg, a.uno) for a in ACTIONS
)
"""Per action id: (kind, card, arg, uno), unpacked in one step on the hot path."""


def parse_action(text: str) -> int:
    """The id of an action written in the notation, e.g. ``"play W+4 R uno"``.

    :raises NotationError: if it is not an action of the notation (exactly one spelling each).
    """
    if not isinstance(text, str):
        raise NotationError(f"an action is a string, not {type(text).__name__}")
    try:
        return ACTION_ID[text]
    except KeyError:
        raise NotationError(f"not an action of the notation: {text!r}") from None


def format_action(aid: int) -> str:
    """The one spelling of action ``aid``."""
    return ACTION_TEXT[aid]


def decode(aid: int) -> Action:
    """The decoded action of id ``aid``."""
    return ACTIONS[aid]


def _id(kind: Kind, card: int = -1, arg: int = -1, uno: bool = False, more: bool = False) -> int:
    return ACTION_ID[Action(kind, card, arg, uno, more).text()]


DRAW_ID: Final = _id(Kind.DRAW)
PASS_ID: Final = _id(Kind.PASS)
UNO_ID: Final = _id(Kind.UNO)
CHALLENGE_ID: Final = _id(Kind.CHALLENGE)
ACCEPT_ID: Final = _id(Kind.ACCEPT)
COLOR_IDS: Final = tuple(_id(Kind.COLOR, arg=c) for c in range(4))
DARK_COLOR_IDS: Final = tuple(_id(Kind.COLOR, FL_DARK_FIRST, c) for c in range(4))
"""UNO Flip's dark side: ``color P``, ``color T``, ``color O``, ``color V`` (docs/rules.md §15)."""
CATCH_IDS: Final = tuple(_id(Kind.CATCH, arg=s) for s in range(MAX_PLAYERS))
WRONG_IDS: Final = tuple(_id(Kind.WRONG, arg=s) for s in range(MAX_PLAYERS))
PENALIZE_IDS: Final = tuple(_id(Kind.PENALIZE, arg=s) for s in range(MAX_PLAYERS))
INVISIBILITY_IDS: Final = tuple(_id(Kind.INVISIBILITY, INVISIBILITY, c) for c in range(4))
INVISIBILITY_UNO_IDS: Final = tuple(_id(Kind.INVISIBILITY, INVISIBILITY, c, True) for c in range(4))
MORE_IDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    (_id(Kind.PLAY, t, more=True), _id(Kind.PLAY, t, uno=True, more=True)) if OPENS_SERIES[t] else ()
    for t in range(NUM_CARD_TYPES)
)
"""Per card type: the ids of ``play CARD more`` and ``play CARD more uno`` (number cards only)."""


def play_ids(
    card: int,
    *,
    uno: bool,
    wild: bool,
    seat: int = -1,
    players: int = 0,
    swap: bool = False,
    last: bool = False,
) -> tuple[int, ...]:
    """Ids of every way to play ``card``: one per colour for a wild, one per other seat for a
    Howler and a Wild Targeted Draw Two, for a 7 when ``swap`` (``seven_zero``, not the last
    card), and for a Wild Forced Swap unless it is the ``last`` card (AW-7).

    :param wild: the card names a colour (wild cards, and custom blanks with a ``wild`` effect).
    :param seat: for a card that names a seat, the player, who cannot name themselves.
    """
    if card in (HOWLER, AW_TARGET) or (not last and (card == AW_SWAP or (swap and NAMES_SEAT[card]))):
        return tuple(_id(Kind.PLAY, card, s, uno) for s in range(players) if s != seat)
    if wild and card != MATER:
        return tuple(_id(Kind.PLAY, card, c, uno) for c in range(4))
    return (_id(Kind.PLAY, card, -1, uno),)
