"""Events written for people ("Ana played a Wild Draw Four and called green")."""

from __future__ import annotations

from collections.abc import Sequence

from unotable.cards import CARD_BY_CODE, CARD_NAME, COLOR_NAMES
from unotable.events import Event

_REASONS = {"howler": "the Howler", "mater": "Mater", "blank": "a blank card"}
"""Reasons of the engine's events that are not already words."""


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(CARD_NAME[c] for c in cards)


def _reason(reason: str) -> str:
    """An event's reason in words: a card's code (the card that made a player draw) by its name."""
    card = CARD_BY_CODE.get(reason)
    if card is not None:
        return CARD_NAME[card]
    return _REASONS.get(reason, reason)


def describe(event: Event, names: Sequence[str]) -> str | None:
    """One sentence for ``event`` as its viewer sees it, or ``None`` for bookkeeping events.

    Pass the event through :meth:`Event.for_seat` first: hidden cards are then absent and the
    sentence says only how many.
    """
    e = event
    who = names[e.seat] if e.seat is not None and 0 <= e.seat < len(names) else "The table"
    target = names[e.target] if e.target is not None and 0 <= e.target < len(names) else ""
    color = COLOR_NAMES[e.color] if e.color is not None and e.color >= 0 else ""
    k = e.kind
    if k == "dealer_draw":
        return f"{who} drew {_cards(e.cards)} for the deal."
    if k == "dealer":
        return f"{who} deals."
    if k == "first_card":
        return f"The first card is {_cards(e.cards)}."
    if k == "returned":
        return f"{_cards(e.cards)} goes back into the middle of the pile."
    if k == "play":
        words = e.reason.split()
        text = f"{who} {'jumped in with' if 'jump_in' in words else 'played'} {_cards(e.cards)}"
        if target:
            text += f" on {target}"
        if color:
            text += f" and called {color}"
        if "uno" in words:
            text += ": UNO!"
        return text + ("" if text.endswith("!") else ".")
    if k == "draw":
        if e.reason == "deal":
            return f"{who} was dealt {_cards(e.cards)}." if e.cards else None
        what = _cards(e.cards) if e.cards else f"{e.count} card{'s' if e.count != 1 else ''}"
        why = f" ({_reason(e.reason)})" if e.reason else ""
        return f"{who} drew {what}{why}." if e.count else f"{who} had nothing to draw."
    if k == "pass":
        return f"{who} passed{' (nothing to draw)' if e.reason else ''}."
    if k == "color":
        return f"{who} called {color}."
    if k == "uno":
        return f"{who} called UNO!"
    if k == "catch":
        return f"{who} caught {target} without UNO: 2 cards."
    if k == "challenge":
        return f"{who} challenged {target}'s Wild Draw Four: {e.reason}."
    if k == "accept":
        if e.reason == "stack":
            return f"{who} accepted the stack: {e.count} cards."
        return f"{who} accepted the {_cards(e.cards)}."
    if k == "swap":
        return f"{who} swapped hands with {target}."
    if k == "deflect":
        return f"{who} sent the {_cards(e.cards)} on to {target}: {e.count} cards."
    if k == "pass_hands":
        return f"Every hand passes to the {e.reason}."
    if k == "invisibility":
        return f"{who} cancelled it with Invisibility and called {color}."
    if k == "reveal":
        shown = _cards(e.cards) if e.cards else "their hand"
        return f"{who} showed {shown} ({_reason(e.reason)})."
    if k == "skip":
        return f"{who} is skipped."
    if k == "reverse":
        return "Play changes direction."
    if k == "reshuffle":
        return f"The discard pile is shuffled into a new draw pile ({e.count} cards)."
    if k == "penalty":
        return f"{target} draws {e.count} for a suggestion."
    if k == "wrong":
        return f"{who} pointed out {target}'s wrong card."
    if k == "hand_over":
        return f"{who} went out and scored {e.points} points."
    if k == "game_over":
        return f"{who} wins the game!"
    return None
