"""A seat's view as compact text in the notation's codes (docs/notation.md), for the bridges'
string observations. Built from the seat's :class:`~unotable.views.View` alone, so it shows
only what docs/rules.md lets that seat know. Standard library only.
"""

from __future__ import annotations

import json

from unotable.events import Event
from unotable.views import View


def view_text(v: View, *, window: bool = False, legal: list[str] | None = None) -> str:
    """``v`` as lines of ``key: value`` in the notation's codes; ``legal`` (the actions offered
    in this turn, as text) ends it when given. ``window``: the seat's turn is an out-of-turn
    moment (it may act or ``decline``)."""
    d = v.to_dict()
    lines = [
        f"seat: {d['seat'] if d['seat'] is not None else '-'} of {len(v.hand_sizes)}",
        f"phase: {d['phase']}{' (out-of-turn moment)' if window else ''}",
        f"current: {d['current'] if d['current'] is not None else '-'}",
        f"direction: {'up' if v.direction > 0 else 'down'}",
        f"top: {d['discard'][-1]}",
        f"color: {d['color'] or '-'}",
        f"hand: {' '.join(d['hand']) or '-'}",
        "hand sizes: " + " ".join(f"{s}:{k}" for s, k in enumerate(v.hand_sizes)),
        f"draw pile: {v.draw_pile_size}",
    ]
    if d["drawn"] is not None:
        lines.append(f"drawn: {d['drawn']}")
    if d["pending"] is not None:
        p = d["pending"]
        lines.append(f"pending: {p['card']} from {p['from']}, draw {p['draw']}")
    if v.uno_exposed:
        lines.append("uno exposed: " + " ".join(map(str, v.uno_exposed)))
    if d["wrong_seat"] is not None:
        lines.append(f"wrong card by: {d['wrong_seat']}")
    if d["known"]:
        lines.append("known: " + "; ".join(f"{s}: {' '.join(c)}" for s, c in sorted(d["known"].items())))
    if v.rules.multi_play and d.get("series"):
        lines.append(f"series: {d['series']}")
    lines.append("scores: " + " ".join(map(str, v.scores)))
    if v.winner >= 0:
        lines.append(f"winner: {v.winner}")
    if legal is not None:
        lines.append("legal: " + ", ".join(legal))
    return "\n".join(lines)


def event_text(event: Event, seat: int | None) -> str:
    """``event`` as ``seat`` may see it, one line of JSON in the notation's codes."""
    return json.dumps(event.for_seat(seat).to_dict(), separators=(",", ":"), sort_keys=True)
