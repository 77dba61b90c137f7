"""Events: what happened, each marked with who may see it in full."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from unotable.cards import CARD_CODE, color_code


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a hand.

    ``kind`` is one of: ``dealer_draw``, ``dealer``, ``deal``, ``first_card``, ``returned``
    (a first card put back into the pile), ``play``, ``draw``, ``pass``, ``color``, ``uno``,
    ``catch``, ``challenge``, ``accept``, ``invisibility``, ``reveal``, ``skip``, ``reverse``,
    ``reshuffle``, ``penalty``, ``wrong``, ``turn``, ``hand_over``, ``game_over``; with the house
    rules of RULES §11, ``swap`` (a 7: ``seat`` and ``target`` swapped hands) and ``pass_hands``
    (a 0: every hand passed one seat, ``reason`` ``left`` or ``right``), ``deflect`` (§11.5:
    ``seat`` sent the pending draw ``cards`` of ``count`` cards on to ``target``); a ``play`` out of turn
    (a jump-in) has ``jump_in`` among the words of its ``reason`` (with ``uno``, the call made
    with the play, as for any play); an ``accept`` of a stack
    of draw cards has ``reason`` ``stack`` and ``count`` its total; in the modern deck
    (docs/rules.md §12), ``shuffle_hands`` (``seat`` played the Wild Shuffle Hands: ``count``
    cards were gathered and dealt out again; each seat sees only its own new hand); in No Mercy
    (docs/rules.md §14), ``discard_all`` (``seat``'s other ``cards`` of the Discard All's colour,
    ``count`` of them, went under it) and ``knocked_out`` (``seat`` held ``count`` cards: the
    mercy rule put it out of the hand, its cards face down under the draw pile).

    ``cards`` are seen only by the seats in ``visible_to`` when it is not ``None``; every seat
    sees the rest of the event (who, how many, which colour). Use :meth:`for_seat`.
    """

    kind: str
    seat: int | None = None
    cards: tuple[int, ...] = ()
    count: int = 0
    target: int | None = None
    color: int | None = None
    points: int | None = None
    visible_to: frozenset[int] | None = None
    reason: str = ""
    dark: bool = False
    """UNO Flip (docs/rules.md §15): ``color`` is a colour of the dark side (pink, teal, orange,
    purple: ``P``, ``T``, ``O``, ``V``)."""

    def for_seat(self, seat: int | None) -> Event:
        """The event as ``seat`` may see it (``None``: a spectator who sees only public facts)."""
        if self.visible_to is None or (seat is not None and seat in self.visible_to):
            return self
        return replace(self, cards=())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form using the notation's card and colour codes."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = [CARD_CODE[c] for c in self.cards]
        if self.count:
            out["count"] = self.count
        if self.target is not None:
            out["target"] = self.target
        if self.color is not None and self.color >= 0:
            out["color"] = color_code(self.color, self.dark)
        if self.points is not None:
            out["points"] = self.points
        if self.reason:
            out["reason"] = self.reason
        return out
