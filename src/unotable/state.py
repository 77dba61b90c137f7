"""The state of a hand: one mutable record, cheap to copy, compared by value.

The public API of :mod:`unotable.engine` never mutates a state it is given: ``apply`` copies,
then steps. Simulations and search use the in-place ``step`` on a copy they own.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from unotable.rules import Rules
    from unotable.tables import Tables


class Phase(IntEnum):
    """Phases of a hand (docs/notation.md): what the ``current`` seat is asked to decide."""

    TURN = 0
    AFTER_DRAW = 1
    CHOOSE_COLOR = 2
    RESPOND = 3
    HAND_OVER = 4
    GAME_OVER = 5


# The phases as plain ints for hot paths (an int compares faster than an IntEnum member).
PHASE_TURN: Final = int(Phase.TURN)
PHASE_AFTER_DRAW: Final = int(Phase.AFTER_DRAW)
PHASE_CHOOSE_COLOR: Final = int(Phase.CHOOSE_COLOR)
PHASE_RESPOND: Final = int(Phase.RESPOND)
PHASE_HAND_OVER: Final = int(Phase.HAND_OVER)
PHASE_GAME_OVER: Final = int(Phase.GAME_OVER)


PHASE_NAMES: Final = ("turn", "after_draw", "choose_color", "respond", "hand_over", "game_over")
PHASE_BY_NAME: Final = {name: i for i, name in enumerate(PHASE_NAMES)}

_MASK64: Final = (1 << 64) - 1


def seed_to_rng(seed: int) -> int:
    """The generator state for an integer seed (any size, negative included)."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK64
    return x or 1


class State:
    """Everything about a hand, hidden parts included. Seats are ``0..n-1``.

    Piles are lists of card types with the top card *last* (``draw[-1]`` is drawn next,
    ``discard[-1]`` is the card to match). ``rng`` is the seeded generator's state (SplitMix64),
    the only source of randomness; it never leaves the core.
    """

    __slots__ = (
        "after_color",
        "backs",
        "color",
        "current",
        "dealer",
        "direction",
        "discard",
        "draw",
        "drawn",
        "drew_facing",
        "exposed",
        "game_winners",
        "hand_points",
        "hands",
        "known",
        "n",
        "pend_card",
        "pend_color",
        "pend_draw",
        "pend_from",
        "pend_guilty",
        "phase",
        "rng",
        "rules",
        "scores",
        "series",
        "side",
        "tables",
        "winner",
        "wrong_seat",
        "wrong_snapshot",
    )

    rules: Rules
    tables: Tables
    n: int
    hands: list[list[int]]
    draw: list[int]
    discard: list[int]
    color: int
    """The colour to match; -1 before a first wild card's colour is called."""
    current: int
    """The seat the phase waits for; -1 when the hand is over."""
    direction: int
    dealer: int
    phase: int
    drawn: int
    """In ``after_draw``, the card just drawn; else -1."""
    drew_facing: list[int]
    """Per seat, what it faced when it last chose to draw on its turn, as the index
    ``(color + 1) * NUM_CARD_TYPES + top`` of ``Tables.playable``, while it has taken no other card
    since (a draw, a penalty) and has kept no playable card it drew; else -1. Public: everyone
    at the table saw it draw."""
    after_color: int
    """In ``choose_color``, the seat that plays once the colour is called."""
    pend_card: int
    """In ``respond``, the action card played on ``current``."""
    pend_from: int
    """In ``respond``, the seat that played it."""
    pend_color: int
    """In ``respond``, the colour to match when it was played (public; judges a challenge)."""
    pend_guilty: bool
    """In ``respond`` to a Wild Draw Four: its player held the colour to match (hidden)."""
    pend_draw: int
    """In ``respond``: the cards ``current`` draws on ``accept`` (with ``stacking``, the total of
    the stack; public); 0 in every other phase."""
    series: int
    """docs/rules.md §11.5 multi_play: after a ``play CARD more``, that card (``current`` plays
    another that may follow it, in the same turn); else -1. Public."""
    exposed: int
    """Bit mask of seats holding one card, not called UNO, inside their window (RULES §7)."""
    wrong_seat: int
    """With ``lenient_plays``: the seat whose wrong card may still be pointed out, or -1."""
    wrong_snapshot: State | None
    """The state just before that wrong card (never mutated)."""
    known: dict[int, dict[int, list[int]]]
    """``known[owner][viewer]``: cards of owner's hand revealed to viewer and not played since."""
    scores: list[int]
    winner: int
    hand_points: int | None
    game_winners: list[int]
    rng: int
    side: int
    """UNO Flip (docs/rules.md §15): the side every card shows its owner, 0 light, 1 dark
    (public); 0 in the other editions."""
    backs: list[list[int]] | None
    """UNO Flip: the other face of every card, aligned with where the card lies: ``backs[s]``
    with ``hands[s]``, ``backs[n]`` with ``draw``, ``backs[n + 1]`` with ``discard`` (hidden:
    a view shows only what its seat sees of them, FL-2); ``None`` in the other editions."""

    def copy(self) -> State:
        """An independent copy (piles and hands copied; the wrong-card snapshot is shared, as it is
        never mutated)."""
        new = State.__new__(State)
        new.rules = self.rules
        new.tables = self.tables
        new.n = self.n
        new.hands = [h[:] for h in self.hands]
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.color = self.color
        new.current = self.current
        new.direction = self.direction
        new.dealer = self.dealer
        new.phase = self.phase
        new.drawn = self.drawn
        new.drew_facing = self.drew_facing[:]
        new.after_color = self.after_color
        new.pend_card = self.pend_card
        new.pend_from = self.pend_from
        new.pend_guilty = self.pend_guilty
        new.pend_color = self.pend_color
        new.pend_draw = self.pend_draw
        new.series = self.series
        new.exposed = self.exposed
        new.wrong_seat = self.wrong_seat
        new.wrong_snapshot = self.wrong_snapshot
        new.known = {o: {v: c[:] for v, c in d.items()} for o, d in self.known.items()} if self.known else {}
        new.scores = self.scores[:]
        new.winner = self.winner
        new.hand_points = self.hand_points
        new.game_winners = self.game_winners[:]
        new.rng = self.rng
        new.side = self.side
        new.backs = None if self.backs is None else [b[:] for b in self.backs]
        return new

    def assign(self, other: State) -> None:
        """Make this state a copy of ``other`` (used to undo a wrong card)."""
        fresh = other.copy()
        for name in State.__slots__:
            setattr(self, name, getattr(fresh, name))

    def _key(self) -> tuple[object, ...]:
        known = {o: {v: sorted(c) for v, c in d.items() if c} for o, d in self.known.items()}
        known = {o: d for o, d in known.items() if d}
        return (
            self.rules, self.n, self.hands, self.draw, self.discard, self.color, self.current,
            self.direction, self.dealer, self.phase, self.drawn, self.drew_facing, self.after_color,
            self.pend_card, self.pend_from, self.pend_guilty, self.pend_color, self.pend_draw, self.exposed,
            self.series, self.wrong_seat,
            self.wrong_snapshot, known, self.scores, self.winner, self.hand_points, self.game_winners,
            self.rng, self.side, self.backs,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def phase_name(self) -> str:
        """The phase as docs/notation.md names it."""
        return PHASE_NAMES[self.phase]

    def __repr__(self) -> str:
        return (
            f"<State {self.rules.edition.name} n={self.n} phase={self.phase_name} "
            f"current={self.current} hands={[len(h) for h in self.hands]}>"
        )
