"""Events written for people ("Ana played a Wild Draw Four and called green"), in the language in
force (:mod:`unotable.i18n`): one whole sentence per kind of event, with a second-person sentence
when the viewer is the one who acts ("You drew 2 cards") or the one acted on ("Ben caught you
without UNO")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from unotable.cards import CARD_BY_CODE
from unotable.events import Event
from unotable.i18n import N_, _, ngettext
from unotable.names import card_name, cards_text, color_name

_REASONS: Final = {
    "howler": N_("the Howler"),
    "mater": N_("Mater"),
    "blank": N_("a blank card"),
    "challenge": N_("challenge"),
    "first card": N_("first card"),
    "caught without UNO": N_("caught without UNO"),
    "suggestion": N_("suggestion"),
    "guilty Wild Draw Four": N_("guilty Wild Draw Four"),
    "lost challenge": N_("lost challenge"),
    "wrong card": N_("wrong card"),
}
"""The engine's reasons for a draw or a reveal, in words."""


def _reason(reason: str) -> str:
    """An event's reason in words: a card's code (the card that made a player draw) by its name."""
    card = CARD_BY_CODE.get(reason)
    if card is not None:
        return card_name(card)
    return _(_REASONS[reason]) if reason in _REASONS else reason


def describe(event: Event, names: Sequence[str], you: int | None = None) -> str | None:
    """One sentence for ``event`` as its viewer sees it, or ``None`` for bookkeeping events.

    Pass the event through :meth:`Event.for_seat` first: hidden cards are then absent and the
    sentence says only how many. ``you``: the viewer's seat when the viewer is a person spoken to
    ("You drew…"); ``None`` names every seat.
    """
    e = event
    me = you is not None and e.seat == you
    on_me = you is not None and e.target == you
    who = names[e.seat] if e.seat is not None and 0 <= e.seat < len(names) else _("The table")
    target = names[e.target] if e.target is not None and 0 <= e.target < len(names) else ""
    color = color_name(e.color, e.dark) if e.color is not None and e.color >= 0 else ""
    cards = cards_text(e.cards)
    fields = {"who": who, "target": target, "color": color, "cards": cards, "n": e.count}
    text = _sentence(e, me, on_me, bool(target), bool(color))
    if text is None:
        return None
    text = text.format(**fields, reason=_reason(e.reason) if e.reason else "", points=e.points or 0)
    if e.kind == "play" and "uno" in e.reason.split():
        text = _("{sentence} UNO!").format(sentence=text)  # the call goes with the play
    return text


def _sentence(e: Event, me: bool, on_me: bool, has_target: bool, has_color: bool) -> str | None:
    """The msgid, translated, of ``e``'s sentence (its fields not yet filled in)."""
    k = e.kind
    if k == "dealer_draw":
        return _("You drew {cards} for the deal.") if me else _("{who} drew {cards} for the deal.")
    if k == "dealer":
        return _("You deal.") if me else _("{who} deals.")
    if k == "first_card":
        return _("The first card is {cards}.")
    if k == "flip":  # UNO Flip (docs/rules.md §15, FL-3): the reason is the side now in play
        if e.reason == "dark":
            return _("Everything turns over: the dark side is up.")
        return _("Everything turns over: the light side is up.")
    if k == "returned":
        return _("Back into the middle of the pile: {cards}.")
    if k == "play":
        return _play(e, me, on_me, has_target, has_color)
    if k == "draw":
        return _draw(e, me)
    if k == "pass":
        if e.reason == "hand limit":  # RULES §11 hand_limit: a full hand draws no more
            return (
                _("You passed (your hand is at the limit).") if me else _("{who} passed (at the hand limit).")
            )
        if e.reason:
            return _("You passed (nothing to draw).") if me else _("{who} passed (nothing to draw).")
        return _("You passed.") if me else _("{who} passed.")
    if k == "color":
        return _("You called {color}.") if me else _("{who} called {color}.")
    if k == "uno":
        return _("You called UNO!") if me else _("{who} called UNO!")
    if k == "catch":
        # The penalty's cards (2, or the house rule's uno_penalty) are told by the draw that follows.
        if me:
            return _("You caught {target} without UNO.")
        return _("{who} caught you without UNO.") if on_me else _("{who} caught {target} without UNO.")
    if k == "challenge":
        guilty = e.reason == "guilty"
        if me:
            return (_("You challenged {target}'s Wild Draw Four: guilty.") if guilty
                    else _("You challenged {target}'s Wild Draw Four: not guilty."))  # fmt: skip
        if on_me:
            return (_("{who} challenged your Wild Draw Four: guilty.") if guilty
                    else _("{who} challenged your Wild Draw Four: not guilty."))  # fmt: skip
        return (_("{who} challenged {target}'s Wild Draw Four: guilty.") if guilty
                else _("{who} challenged {target}'s Wild Draw Four: not guilty."))  # fmt: skip
    if k == "accept":
        if e.reason == "stack":
            if me:
                return ngettext(
                    "You accepted the stack: {n} card.", "You accepted the stack: {n} cards.", e.count
                )
            return ngettext(
                "{who} accepted the stack: {n} card.", "{who} accepted the stack: {n} cards.", e.count
            )
        return _("You accepted the {cards}.") if me else _("{who} accepted the {cards}.")
    if k == "swap":
        if me:
            return _("You swapped hands with {target}.")
        return _("{who} swapped hands with you.") if on_me else _("{who} swapped hands with {target}.")
    if k == "deflect":
        if me:
            return ngettext(
                "You sent the {cards} on to {target}: {n} card.",
                "You sent the {cards} on to {target}: {n} cards.",
                e.count,
            )
        if on_me:
            return ngettext(
                "{who} sent the {cards} on to you: {n} card.",
                "{who} sent the {cards} on to you: {n} cards.",
                e.count,
            )
        return ngettext(
            "{who} sent the {cards} on to {target}: {n} card.",
            "{who} sent the {cards} on to {target}: {n} cards.",
            e.count,
        )
    if k == "shuffle_hands":
        if me:
            return ngettext(
                "You gathered every hand and dealt the {n} card out again.",
                "You gathered every hand and dealt the {n} cards out again.",
                e.count,
            )
        return ngettext(
            "{who} gathered every hand and dealt the {n} card out again.",
            "{who} gathered every hand and dealt the {n} cards out again.",
            e.count,
        )
    if k == "discard_all":  # docs/rules.md §14, NM-5
        if me:
            return ngettext(
                "You discarded {n} more card of its colour with the Discard All.",
                "You discarded {n} more cards of its colour with the Discard All.",
                e.count,
            )
        return ngettext(
            "{who} discarded {n} more card of its colour with the Discard All.",
            "{who} discarded {n} more cards of its colour with the Discard All.",
            e.count,
        )
    if k == "knocked_out":  # docs/rules.md §14, NM-9: the mercy rule
        if me:
            return ngettext(
                "You hold {n} card: the mercy rule puts you out of the hand.",
                "You hold {n} cards: the mercy rule puts you out of the hand.",
                e.count,
            )
        return ngettext(
            "{who} holds {n} card: the mercy rule puts them out of the hand.",
            "{who} holds {n} cards: the mercy rule puts them out of the hand.",
            e.count,
        )
    if k == "pass_hands":
        return (
            _("Every hand passes to the left.")
            if e.reason == "left"
            else _("Every hand passes to the right.")
        )
    if k == "invisibility":
        if me:
            return _("You cancelled it with Invisibility and called {color}.")
        return _("{who} cancelled it with Invisibility and called {color}.")
    if k == "reveal":
        if e.cards:
            return _("You showed {cards} ({reason}).") if me else _("{who} showed {cards} ({reason}).")
        return _("You showed your hand ({reason}).") if me else _("{who} showed their hand ({reason}).")
    if k == "skip":
        return _("You are skipped.") if me else _("{who} is skipped.")
    if k == "reverse":
        return _("Play changes direction.")
    if k == "reshuffle":
        return ngettext(
            "The discard pile is shuffled into a new draw pile ({n} card).",
            "The discard pile is shuffled into a new draw pile ({n} cards).",
            e.count,
        )
    if k == "penalty":
        if on_me:
            return ngettext(
                "You draw {n} card for a suggestion.", "You draw {n} cards for a suggestion.", e.count
            )
        return ngettext(
            "{target} draws {n} card for a suggestion.", "{target} draws {n} cards for a suggestion.", e.count
        )
    if k == "wrong":
        if me:
            return _("You pointed out {target}'s wrong card.")
        return (
            _("{who} pointed out your wrong card.")
            if on_me
            else _("{who} pointed out {target}'s wrong card.")
        )
    if k == "hand_over":
        if me:
            return ngettext(
                "You went out and scored {points} point.",
                "You went out and scored {points} points.",
                e.points or 0,
            )
        return ngettext(
            "{who} went out and scored {points} point.",
            "{who} went out and scored {points} points.",
            e.points or 0,
        )
    if k == "game_over":
        return _("You win the game!") if me else _("{who} wins the game!")
    return None


def _play(e: Event, me: bool, on_me: bool, has_target: bool, has_color: bool) -> str:
    if "jump_in" in e.reason.split():
        if has_target:
            if me:
                return _("You jumped in with {cards} on {target}.")
            return (
                _("{who} jumped in with {cards} on you.")
                if on_me
                else _("{who} jumped in with {cards} on {target}.")
            )
        return _("You jumped in with {cards}.") if me else _("{who} jumped in with {cards}.")
    if has_target and has_color:
        if me:
            return _("You played {cards} on {target} and called {color}.")
        if on_me:
            return _("{who} played {cards} on you and called {color}.")
        return _("{who} played {cards} on {target} and called {color}.")
    if has_target:
        if me:
            return _("You played {cards} on {target}.")
        return _("{who} played {cards} on you.") if on_me else _("{who} played {cards} on {target}.")
    if has_color:
        return (
            _("You played {cards} and called {color}.")
            if me
            else _("{who} played {cards} and called {color}.")
        )
    return _("You played {cards}.") if me else _("{who} played {cards}.")


def _draw(e: Event, me: bool) -> str | None:
    if e.reason == "deal":
        if not e.cards:
            return None
        return _("You were dealt {cards}.") if me else _("{who} was dealt {cards}.")
    if not e.count:
        return _("You had nothing to draw.") if me else _("{who} had nothing to draw.")
    if e.cards:
        if e.reason:
            return _("You drew {cards} ({reason}).") if me else _("{who} drew {cards} ({reason}).")
        return _("You drew {cards}.") if me else _("{who} drew {cards}.")
    if e.reason:
        if me:
            return ngettext("You drew {n} card ({reason}).", "You drew {n} cards ({reason}).", e.count)
        return ngettext("{who} drew {n} card ({reason}).", "{who} drew {n} cards ({reason}).", e.count)
    if me:
        return ngettext("You drew {n} card.", "You drew {n} cards.", e.count)
    return ngettext("{who} drew {n} card.", "{who} drew {n} cards.", e.count)
