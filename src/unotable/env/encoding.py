"""Observations: a seat's :class:`~unotable.views.View` written into a flat ``float32`` vector.

Only the view is read, never the state. Seats are *relative*: index 0 is the observing seat,
index ``k`` the seat ``k`` places after it in seat order (``(seat + k) % n``), whatever the
direction of play. :class:`Layout` names the segments of the vector in order; ``docs/env.md``
documents them. Needs numpy (nothing else outside the standard library).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from unotable.cards import CLASSIC_CARD_TYPES
from unotable.env.actions import IS_WINDOW, ActionTable
from unotable.rules import MAX_PLAYERS, Rules
from unotable.views import View

T: Final = CLASSIC_CARD_TYPES
"""Card types in the first three editions' observations; a later edition's layout has one per
card type of its card space (docs/env.md), which leaves theirs unchanged."""
PHASES: Final = 6
"""turn, after_draw, choose_color, respond, hand_over, game_over."""
SCORE_SCALE: Final = 100.0
"""Scores and the draw pile's size are written divided by this."""
F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Segment:
    """A named part of the vector: ``shape`` values from ``start`` on, and their range."""

    name: str
    shape: tuple[int, ...]
    start: int
    high: float
    low: float = 0.0
    doc: str = ""

    @property
    def size(self) -> int:
        """How many values."""
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        """One past the segment's last index."""
        return self.start + self.size


class Layout:
    """The observation vector of one configuration (``rules.players`` seats at most)."""

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        self.n = n
        self.teams = rules.teams
        T = self.t = rules.edition.card_space  # noqa: N806 - the module's T, per edition
        deck = len(rules.deck())
        slots = rules.score_slots
        parts: list[tuple[str, tuple[int, ...], float, float, str]] = [
            ("hand", (T,), deck, 0.0, "own hand: count of each card type"),
            ("top", (T,), 1, 0.0, "the card to match (one-hot card type)"),
            ("color", (5,), 1, 0.0, "colour in force: R, Y, G, B, none called yet"),
            ("direction", (1,), 1, 0.0, "1 when play goes up in seat order, 0 when down"),
            ("phase", (PHASES,), 1, 0.0, "phase of the hand (one-hot)"),
            ("window_turn", (1,), 1, 0.0, "1 when this turn is an out-of-turn moment (act or decline)"),
            ("current", (n,), 1, 0.0, "the seat the phase waits for (relative one-hot)"),
            ("drawn", (T,), 1, 0.0, "in own after_draw: the card just drawn (one-hot)"),
            ("pending_from", (n,), 1, 0.0, "respond: who played the action card (relative one-hot)"),
            ("pending_color", (5,), 1, 0.0, "respond: colour to match when it was played, or none"),
            ("after_color", (n,), 1, 0.0, "choose_color: the seat that plays next (relative one-hot)"),
            ("hand_sizes", (n,), deck, 0.0, "cards held by each seat (relative)"),
            ("uno_exposed", (n,), 1, 0.0, "seats with one card, no UNO called, still catchable"),
            ("drew_facing", (n, 5), 1, 0.0,
             "per seat: the colour (R, Y, G, B, none) in force when it last chose to draw, "
             "while that still tells it held no match (else zeros)"),
            ("wrong_seat", (n,), 1, 0.0, "lenient plays: the seat whose wrong card can be pointed out"),
            ("dealer", (n,), 1, 0.0, "the dealer (relative one-hot)"),
            ("known", (max(n - 1, 1), T), deck, 0.0, "cards of each other seat this seat knows"),
            ("discard", (T,), deck, 0.0, "the discard pile: count of each card type"),
            ("draw_pile", (1,), deck / SCORE_SCALE, 0.0, "cards in the draw pile / 100"),
            ("scores", (slots,), 1e4, -1e4, "game scores / 100: own side first, then in seat order"),
        ]  # fmt: skip
        if rules.stacking:
            stack_doc = "stacking: the cards the stack makes the next seat draw"
            parts.append(("pending_draw", (1,), 4 * deck, 0.0, stack_doc))
        if rules.deflect:  # docs/rules.md §11.5: once deflected, the draw card is not the top card
            parts.append(
                ("pending_card", (T,), 1, 0.0, "deflect: in respond, the card whose draw is pending")
            )
        if rules.multi_play:  # docs/rules.md §11.5: the card a series goes on from
            parts.append(("series", (T,), 1, 0.0, "multi_play: the card a series goes on from (one-hot)"))
        if rules.edition.flip:  # docs/rules.md §15, FL-2: the side in play, the faces turned to this seat
            parts.append(("side", (1,), 1, 0.0, "flip: 1 when the dark side is in play"))
            parts.append(("other_faces", (max(n - 1, 1), T), deck, 0.0,
                          "flip: each other seat's cards by the faces turned towards this seat"))  # fmt: skip
            parts.append(("draw_top_other", (T,), 1, 0.0, "flip: the other face of the draw pile's top card"))
        segments: list[Segment] = []
        start = 0
        for name, shape, high, low, doc in parts:
            seg = Segment(name, shape, start, float(high), low, doc)
            segments.append(seg)
            start = seg.stop
        self.segments: tuple[Segment, ...] = tuple(segments)
        self.by_name = {s.name: s for s in segments}
        self.size = start
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.zeros(self.size, dtype=np.float32)
        for s in segments:
            self.low[s.start : s.stop] = s.low
            self.high[s.start : s.stop] = s.high
        o = self.by_name
        self._hand = o["hand"].start
        self._top = o["top"].start
        self._color = o["color"].start
        self._dir = o["direction"].start
        self._phase = o["phase"].start
        self._window = o["window_turn"].start
        self._current = o["current"].start
        self._drawn = o["drawn"].start
        self._pfrom = o["pending_from"].start
        self._pcolor = o["pending_color"].start
        self._after = o["after_color"].start
        self._sizes = o["hand_sizes"].start
        self._exposed = o["uno_exposed"].start
        self._facing = o["drew_facing"].start
        self._wrong = o["wrong_seat"].start
        self._dealer = o["dealer"].start
        self._known = o["known"].start
        self._discard = o["discard"].start
        self._pile = o["draw_pile"].start
        self._scores = o["scores"].start
        self._stack = o["pending_draw"].start if "pending_draw" in o else -1
        self._pcard = o["pending_card"].start if "pending_card" in o else -1
        self._series = o["series"].start if "series" in o else -1
        self._side = o["side"].start if "side" in o else -1
        self._others = o["other_faces"].start if "other_faces" in o else -1
        self._draw_back = o["draw_top_other"].start if "draw_top_other" in o else -1

    def encode(self, v: View, window: bool, out: F32) -> None:
        """Write ``v`` (``window``: the seat's turn is an out-of-turn moment) into ``out``."""
        seat = v.seat
        sizes = v.hand_sizes
        n = len(sizes)  # this table (a challenge game's tables shrink)
        rel = _ROTATIONS[n][seat]  # absolute seat -> relative
        idx = list(map(self._hand.__add__, v.hand))
        idx += map(self._discard.__add__, v.discard)
        idx.append(self._top + v.discard[-1])
        color = v.color
        idx.append(self._color + (color if color >= 0 else 4))
        if v.direction > 0:
            idx.append(self._dir)
        idx.append(self._phase + int(v.phase))
        if window:
            idx.append(self._window)
        if v.current >= 0:
            idx.append(self._current + rel[v.current])
        if v.drawn >= 0:
            idx.append(self._drawn + v.drawn)
        if v.pending_from >= 0:
            if self._pcard >= 0 and v.pending_card >= 0:
                idx.append(self._pcard + v.pending_card)
            idx.append(self._pfrom + rel[v.pending_from])
            idx.append(self._pcolor + (v.pending_color if v.pending_color >= 0 else 4))
        if v.after_color >= 0:
            idx.append(self._after + rel[v.after_color])
        if v.series >= 0 and self._series >= 0:
            idx.append(self._series + v.series)
        if self._side >= 0:  # UNO Flip (FL-2): counts of the faces turned towards this seat
            if v.side:
                idx.append(self._side)
            if v.draw_back >= 0:
                idx.append(self._draw_back + v.draw_back)
            for s_abs, faces in enumerate(v.backs):
                if faces and s_abs != seat:
                    base = self._others + (rel[s_abs] - 1) * self.t
                    idx += map(base.__add__, faces)
        for s in v.uno_exposed:
            idx.append(self._exposed + rel[s])
        for s, f in enumerate(v.drew_facing):
            if f is not None:
                idx.append(self._facing + rel[s] * 5 + (f[0] if f[0] >= 0 else 4))
        if v.wrong_seat >= 0:
            idx.append(self._wrong + rel[v.wrong_seat])
        idx.append(self._dealer + rel[v.dealer])
        for owner, cards in v.known.items():
            idx += map((self._known + (rel[owner] - 1) * self.t).__add__, cards)
        out[:] = np.bincount(idx, minlength=self.size)
        base = self._sizes
        out[base : base + n] = sizes[seat:] + sizes[:seat]
        out[self._pile] = v.draw_pile_size / SCORE_SCALE
        if self._stack >= 0:
            out[self._stack] = v.pending_draw
        scores = v.scores
        if any(scores):
            base = self._scores
            if self.teams:
                team = seat % 2
                out[base] = scores[team] / SCORE_SCALE
                out[base + 1] = scores[1 - team] / SCORE_SCALE
            else:
                m = len(scores)
                out[base : base + m] = [scores[(seat + k) % m] / SCORE_SCALE for k in range(m)]

    def split(self, flat: F32) -> dict[str, F32]:
        """The dict form of a flat vector: one (reshaped) view of it per segment."""
        return {s.name: flat[s.start : s.stop].reshape(s.shape) for s in self.segments}


def write_mask(v: View, window: bool, table: ActionTable, out: I8) -> None:
    """Mark in ``out`` the env actions ``v``'s seat may take in this turn.

    A window turn offers the out-of-turn actions of :func:`turn_ids` and ``decline``; a phase
    turn offers the answers to the phase (``uno`` spellings included).
    """
    out[:] = 0
    env_id = table.env_id
    for a in turn_ids(v.legal, window, v.seat == v.current):
        out[env_id[a]] = 1
    if window:
        out[table.decline] = 1


def turn_ids(legal: tuple[int, ...] | list[int], window: bool, is_current: bool) -> list[int]:
    """The notation ids offered in a turn: in a window turn, the seat's out-of-turn actions
    (all of its legal actions if it is not the current seat, else those of the window kinds);
    in a phase turn, the others."""
    if not window:
        return [a for a in legal if not IS_WINDOW[a]]
    if not is_current:
        return list(legal)
    return [a for a in legal if IS_WINDOW[a]]


_ROTATIONS: Final = {
    n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in range(1, MAX_PLAYERS + 1)
}
"""``_ROTATIONS[n][seat][s]``: seat ``s`` counted from ``seat`` at a table of ``n``."""

_LAYOUTS: dict[Rules, Layout] = {}


def layout_for(rules: Rules) -> Layout:
    """The (cached) layout of ``rules``."""
    lay = _LAYOUTS.get(rules)
    if lay is None:
        lay = _LAYOUTS[rules] = Layout(rules)
    return lay
