"""What one seat may know: the only thing that leaves the core for players, bots and interfaces.

:func:`view` gives a seat's view, or with ``None`` the view of nobody: what every seat may see
(a spectator's, boardgame.io's playerView with no player). :func:`public_event` is an event as
nobody in particular may see it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Final

from unotable.cards import CARD_CODE, NUM_CARD_TYPES, color_code
from unotable.engine import legal_ids, pending_draw
from unotable.events import Event
from unotable.notation import ACTION_TEXT
from unotable.rules import Rules
from unotable.state import PHASE_NAMES, Phase, State
from unotable.tables import tables_for


@dataclass(frozen=True)
class View:
    """A seat's view of a hand (docs/rules.md: its own hand, the others' counts, the discard pile,
    the scores, and the cards revealed to it by a Howler, a Mater or a challenge and not played
    since; with ``seven_zero`` what it knew of a hand follows that hand). It holds no draw-pile
    order, no other hand and no seed."""

    seat: int
    """The seat this view is of; -1 for the view of nobody (:func:`view` with ``None``)."""
    rules: Rules
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    discard: tuple[int, ...]
    """The discard pile, bottom first (every card on it was seen face up)."""
    draw_pile_size: int
    color: int
    current: int
    direction: int
    dealer: int
    phase: Phase
    drawn: int
    """The card this seat just drew, in its own ``after_draw`` phase; else -1."""
    drew_facing: tuple[tuple[int, int] | None, ...]
    """Per seat, ``(color, top)`` when it last chose to draw on its turn, if it has taken no
    other card since and kept no playable card it drew (so, unless it drew by choice, none of
    its cards then held matched them); else None. Everyone saw it draw."""
    pending_card: int
    """In ``respond``: the action card played on ``current``; else -1."""
    pending_from: int
    """In ``respond``: who played it; else -1."""
    pending_color: int
    """In ``respond``: the colour to match when it was played; else -1."""
    pending_draw: int
    """In ``respond``: the cards ``current`` draws if it accepts (with ``stacking``, the stack's
    total); else 0."""
    after_color: int
    """In ``choose_color``: the seat that plays once the colour is called; else -1."""
    uno_exposed: tuple[int, ...]
    """Seats holding one card that have not called UNO and can still be caught."""
    wrong_seat: int
    """With ``lenient_plays``: the seat whose wrong card can still be pointed out, or -1."""
    known: dict[int, tuple[int, ...]]
    """Cards of other seats' hands this seat knows, by seat."""
    scores: tuple[int, ...]
    winner: int
    hand_points: int | None
    game_winners: tuple[int, ...]
    legal: tuple[int, ...]
    """Ids of this seat's legal actions (``legal_actions`` gives them as text)."""
    series: int = -1
    """With ``multi_play``: the card ``current`` played with ``more``, which another card of its
    number now follows in the same turn; else -1 (docs/rules.md §11.5)."""
    side: int = 0
    """UNO Flip (docs/rules.md §15): the side in play, 0 light, 1 dark; 0 in other editions."""
    draw_back: int = -1
    """UNO Flip: the face the draw pile's top card turns up to the table (its side out of play:
    everyone sees it, FL-2); -1 in other editions or with no draw pile."""
    backs: tuple[tuple[int, ...], ...] = ()
    """UNO Flip: per seat, the faces of its cards turned towards the others (FL-2), sorted; this
    seat's own entry is empty (a player does not see the other side of their own cards). Empty
    in other editions and in the view of nobody."""

    @property
    def top(self) -> int:
        """The card to match."""
        return self.discard[-1]

    @property
    def follows(self) -> dict[int, tuple[int, ...]]:
        """With ``multi_play``: per card type in this seat's hand, the card types of its hand that
        may follow that card in a series (docs/rules.md §11.5, the core's ``series_next``; a type
        follows itself only when the hand holds two of it). Only types with one are listed. The
        page picks several cards at once with it, without a rule of its own. Empty in the view
        of nobody (no hand), and made only when asked (views are made often)."""
        if not self.rules.multi_play or not self.hand:
            return {}
        series_next = tables_for(self.rules).series_next
        held = Counter(self.hand)
        out = {}
        for card in sorted(held):
            nxt = tuple(sorted(x for x in series_next[card] & held.keys() if x != card or held[card] > 1))
            if nxt:
                out[card] = nxt
        return out

    @property
    def legal_actions(self) -> list[str]:
        """This seat's legal actions in the notation."""
        return [ACTION_TEXT[a] for a in self.legal]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form in the notation."""
        out: dict[str, Any] = {
            "seat": self.seat if self.seat >= 0 else None,
            "rules": self.rules.to_dict(),
            "hand": [CARD_CODE[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "discard": [CARD_CODE[c] for c in self.discard],
            "draw_pile_size": self.draw_pile_size,
            "color": color_code(self.color, self.side == 1) if self.color >= 0 else None,
            "current": self.current if self.current >= 0 else None,
            "direction": self.direction,
            "dealer": self.dealer,
            "phase": PHASE_NAMES[self.phase],
            "drawn": CARD_CODE[self.drawn] if self.drawn >= 0 else None,
            "drew_facing": [
                None
                if f is None
                else {
                    "color": color_code(f[0], self.side == 1) if f[0] >= 0 else None,
                    "top": CARD_CODE[f[1]],
                }
                for f in self.drew_facing
            ],
            "pending": (
                {"card": CARD_CODE[self.pending_card], "from": self.pending_from, "draw": self.pending_draw}
                if self.pending_card >= 0
                else None
            ),
            "uno_exposed": list(self.uno_exposed),
            "wrong_seat": self.wrong_seat if self.wrong_seat >= 0 else None,
            "known": {str(s): [CARD_CODE[c] for c in cards] for s, cards in self.known.items()},
            "scores": list(self.scores),
            "winner": self.winner if self.winner >= 0 else None,
            "hand_points": self.hand_points,
            "game_winners": list(self.game_winners),
            "legal": self.legal_actions,
        }
        if self.rules.edition.flip:  # docs/rules.md §15: the side in play, the other faces seen
            out["side"] = "dark" if self.side else "light"
            out["draw_top_other"] = CARD_CODE[self.draw_back] if self.draw_back >= 0 else None
            out["other_faces"] = {
                str(s): [CARD_CODE[c] for c in cards] for s, cards in enumerate(self.backs) if cards
            }
        if self.rules.multi_play:  # docs/rules.md §11.5: the card another of its number follows
            out["series"] = CARD_CODE[self.series] if self.series >= 0 else None
            out["follows"] = {
                CARD_CODE[c]: [CARD_CODE[x] for x in nxt] for c, nxt in sorted(self.follows.items())
            }
        return out


PUBLIC_FIELDS: Final = (
    "rules",
    "hand_sizes",
    "discard",
    "draw_pile_size",
    "color",
    "current",
    "direction",
    "dealer",
    "phase",
    "drew_facing",
    "pending_card",
    "pending_from",
    "pending_color",
    "pending_draw",
    "after_color",
    "uno_exposed",
    "wrong_seat",
    "scores",
    "winner",
    "hand_points",
    "game_winners",
    "series",
    "side",
    "draw_back",
)
"""The fields of a :class:`View` that every seat sees alike, and all that the view of nobody (a
spectator's) is made of: an allow-list. A field added to ``View`` is private until it is named
here; the view of nobody never has a seat's value of it (it has its default, or no view of
nobody is made at all)."""


def view(st: State, seat: int | None) -> View:
    """Exactly what ``seat`` may know of ``st``; with ``None``, what every seat may know (the
    view of nobody: the :data:`PUBLIC_FIELDS` only, so no hand, no drawn card, no legal action,
    and of the hands only the cards shown to the whole table, such as a Howler's, at a table of
    more than two).

    :raises ValueError: for a seat not at this table.
    """
    if seat is not None and not 0 <= seat < st.n:
        raise ValueError(f"no seat {seat} at this table of {st.n}")
    if seat is None:
        return _public_view(st)
    known = {}
    for owner, by_viewer in st.known.items():
        cards = by_viewer.get(seat)
        if cards and owner != seat:
            known[owner] = tuple(sorted(cards))
    return View(
        **_public_fields(st),
        seat=seat,
        hand=tuple(st.hands[seat]),
        drawn=st.drawn if st.current == seat else -1,
        known=known,
        legal=tuple(sorted(legal_ids(st, seat))),
        backs=_backs(st, seat),
    )


def _backs(st: State, seat: int) -> tuple[tuple[int, ...], ...]:
    """UNO Flip (FL-2): the other faces of every other seat's cards, as ``seat`` sees them."""
    if st.backs is None:
        return ()
    return tuple(() if s == seat else tuple(sorted(st.backs[s])) for s in range(st.n))


def _public_fields(st: State) -> dict[str, Any]:
    """The :data:`PUBLIC_FIELDS` of ``st``'s views, read from the state (a value read here and
    not named there is left out of the view of nobody, which is then not made: a missing field)."""
    return {
        "rules": replace(st.rules, seed=None) if st.rules.seed is not None else st.rules,
        "hand_sizes": tuple(len(h) for h in st.hands),
        "discard": tuple(st.discard),
        "draw_pile_size": len(st.draw),
        "color": st.color,
        "current": st.current,
        "direction": st.direction,
        "dealer": st.dealer,
        "phase": Phase(st.phase),
        "drew_facing": tuple(
            None if f < 0 else (f // NUM_CARD_TYPES - 1, f % NUM_CARD_TYPES) for f in st.drew_facing
        ),
        "pending_card": st.pend_card,
        "pending_from": st.pend_from,
        "pending_color": st.pend_color,
        "pending_draw": pending_draw(st),
        "after_color": st.after_color,
        "uno_exposed": tuple(s for s in range(st.n) if st.exposed >> s & 1),
        "wrong_seat": st.wrong_seat,
        "scores": tuple(st.scores),
        "winner": st.winner,
        "hand_points": st.hand_points,
        "game_winners": tuple(st.game_winners),
        "series": st.series,
        "side": st.side,
        "draw_back": st.backs[st.n][-1] if st.backs is not None and st.draw else -1,
    }


def _public_view(st: State) -> View:
    """The view of nobody: the public fields, no seat, no hand, no drawn card, no legal action,
    and the cards shown to the whole table; nothing from any seat's view."""
    known = {}
    # Cards shown to the whole table (a Howler's, the Blank's): known to every other seat, and
    # with at least two of them, so that a hand shown to one player alone (a challenge, a Mater)
    # is never taken for one shown to all at a table of two.
    for owner, by_viewer in st.known.items() if st.n > 2 else ():
        common: Counter[int] | None = None
        for other in range(st.n):
            if other == owner:
                continue
            cards = Counter(by_viewer.get(other, ()))
            common = cards if common is None else common & cards
        if common:
            known[owner] = tuple(sorted(common.elements()))
    public = _public_fields(st)
    return View(
        **{name: public[name] for name in PUBLIC_FIELDS}, seat=-1, hand=(), drawn=-1, known=known, legal=()
    )


def public_event(event: Event, seats: int) -> Event:
    """``event`` as nobody in particular may see it (a spectator): its cards only if they are
    public, or shown to the whole table (a Howler's reveal: every one of the table's ``seats``
    sees them, and the table has more than two, so that a hand shown to the one other player is
    never taken for one shown to all), else without them."""
    visible = event.visible_to
    if visible is None or (seats > 2 and all(s in visible for s in range(seats))):
        return event
    return event.for_seat(None)
