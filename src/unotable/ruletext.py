"""The rules of a table in words, for people (docs/rules.md): :func:`rules_text`, the paragraphs
the terminal's help screen shows (``?``) and the MCP server's ``rules`` gives a model, with the
edition's title and the game format's name (:func:`edition_title`, :func:`mode_name`).

Part of the rules core (standard library and :mod:`unotable.i18n` only), so the terminal
(:mod:`unotable.tui.words` re-exports these names) and the MCP server read one text without
importing each other. Each sentence is a whole English msgid (docs/i18n.md).
"""

from __future__ import annotations

import textwrap
from typing import Final

from unotable import house
from unotable.i18n import N_, _
from unotable.rules import Rules

EDITION_TITLES: Final = {
    "classic": N_("UNO"),
    "harry-potter": N_("Harry Potter UNO"),
    "cars2": N_("Cars 2 UNO"),
    "modern": N_("UNO (2018 deck)"),
    "all-wild": N_("UNO All Wild"),
    "no-mercy": N_("UNO Show 'Em No Mercy"),
    "flip": N_("UNO Flip"),
}
MODE_NAMES: Final = {
    "solo": N_("solo"),
    "partners": N_("partners"),
    "teams": N_("teams"),
    "rotating-partners": N_("rotating partners"),
    "two-tables": N_("two tables"),
    "challenge": N_("challenge"),
    "elimination": N_("elimination"),
}


def edition_title(name: str) -> str:
    """An edition's title for people ("Harry Potter UNO")."""
    return _(EDITION_TITLES[name]) if name in EDITION_TITLES else name


def mode_name(mode: str) -> str:
    """A game format for people ("rotating partners")."""
    return _(MODE_NAMES[mode]) if mode in MODE_NAMES else mode


WIDTH: Final = 70
"""Columns of the help text (it fits an 80-column terminal)."""

_EDITION_NOTES: Final[dict[str, tuple[str, ...]]] = {
    "classic": (
        N_("Deck: 108 cards: 0-9 in four colours, Skip, Reverse, Draw Two (+2), Wild, Wild Draw Four."),
    ),
    "harry-potter": (
        N_(
            "Deck: 110 cards: 0-9 in four colours, Skip, Reverse, Draw Three (+3), Wild, Wild Draw Four, "
            "one Howler and one Invisibility."
        ),
        N_(
            "Howler (wild): choose another player, who must show their whole hand to the table; then "
            "you call the colour."
        ),
        N_(
            "Invisibility (wild): play it as a Wild, or out of turn to cancel an action card played on "
            "you (Skip, Draw Three, Wild Draw Four, Howler; Reverse with two players). The effect is "
            "cancelled, you call the colour, and the card counts as a plain card."
        ),
        N_(
            "Every action card played on a player waits for their answer (accept, or Invisibility), "
            "whether or not they hold Invisibility, so the pause gives nothing away."
        ),
    ),
    "cars2": (
        N_(
            "Deck: 112 cards: 0-9 in four colours, Skip, Reverse, Draw Two (+2), Wild, Wild Draw Four, "
            "and four Mater secret agents."
        ),
        N_(
            "Mater (wild): you alone see every opponent's hand (shown on their panels until they play "
            "those cards), then you call the colour."
        ),
    ),
    "modern": (
        N_(
            "Deck: 112 cards: 0-9 in four colours, Skip, Reverse, Draw Two (+2), Wild, Wild Draw Four, "
            "one Wild Shuffle Hands and three Wild Customizable."
        ),
        N_(
            "Wild Shuffle Hands (wild): every hand, yours included, is gathered, shuffled and dealt out "
            "again one card at a time from your left; then you call the colour. Played as your last "
            "card, it deals you back in."
        ),
        N_("Wild Customizable (wild): a Wild, or the rule your table wrote on it (option custom)."),
    ),
    "all-wild": (
        N_(
            "Deck: 112 cards, every one wild: Wild, Wild Reverse, Wild Skip, Wild Skip Two, Wild Draw "
            "Two, Wild Draw Four, Wild Targeted Draw Two and Wild Forced Swap. Any card plays on any "
            "card, and no colour is ever called."
        ),
        N_(
            "Wild Skip Two: the next two players lose their turns. Wild Draw Four: the next player draws "
            "4 and loses their turn; it is never challenged."
        ),
        N_(
            "Wild Targeted Draw Two: name any other player; they draw 2 and keep their turn. Wild Forced "
            "Swap: name another player and swap hands with them (as your last card it swaps nothing)."
        ),
        N_("Scoring: 20 points for each Wild left in a hand, 50 for every other card."),
    ),
    "no-mercy": (
        N_(
            "Deck: 168 cards: two of each number 0-9 in four colours, Skip, Reverse, Draw Two, Skip "
            "Everyone, Discard All and Draw Four, and the wild Reverse Draw Four, Draw Six, Draw Ten "
            "and Colour Roulette. No plain Wild, and no challenge."
        ),
        N_(
            "Box rules always on: stack a draw card on one drawing as many or fewer (any colour); a 7 "
            "swaps hands with a player you name, a 0 passes every hand on; with nothing played, draw "
            "until a card plays, and play it."
        ),
        N_(
            "Skip Everyone: you play again. Discard All: your other cards of its colour go with it. "
            "Wild Reverse Draw Four: the direction changes, then the next player draws 4. Wild Colour "
            "Roulette: the next player names a colour and takes every card turned until one of it."
        ),
        N_(
            "Mercy rule: a player with 25 cards or more is out of the hand; the last one left wins it. "
            "Scoring: Skip Everyone and Discard All 30, wild cards 50."
        ),
    ),
    "flip": (
        N_(
            "Deck: 112 two-sided cards. Light side: 1-9 in red, yellow, green and blue, Draw One, Skip, "
            "Reverse, Flip, Wild and Wild Draw Two. Dark side: 1-9 in pink, teal, orange and purple, Draw "
            "Five, Skip Everyone, Reverse, Flip, Wild and Wild Draw Color."
        ),
        N_(
            "You hold your cards light side in; the others see their dark side, and you see the other "
            "side of theirs. Flip: every hand, the draw pile and the discard pile turn over; play goes on "
            "on the other side."
        ),
        N_(
            "Skip Everyone: you play again. Wild Draw Color: the next player draws until a card of the "
            "colour named comes. Wild Draw Two and Wild Draw Color may be challenged, as a Wild Draw Four."
        ),
        N_(
            "Scoring, by the side in play: Draw One 10, Draw Five, Skip, Reverse and Flip 20, Skip "
            "Everyone 30, Wilds 40, Wild Draw Two 50, Wild Draw Color 60."
        ),
    ),
}


def _house_notes(rules: Rules) -> list[str]:
    """The house rules in force (RULES §11), for people."""
    out: list[str] = []
    if rules.preset not in (None, "official"):
        out.append(_("House rules: the {preset} preset.").format(preset=rules.preset))
    if rules.stacking and not rules.edition.no_mercy:  # No Mercy's is in its notes (NM-1)
        out.append(
            _(
                "Stacking: a draw card played on you may be answered with a draw card of the same kind, "
                "in any colour (Enter); the total passes to the next player, who answers again or accepts "
                "(A) and draws it all. A Wild Draw Four on a stack may be challenged: guilty, its player "
                "draws the whole total; innocent, the challenger draws the total and 2 more."
            )
            if rules.stacking == "same"
            else _(
                "Stacking: a draw card played on you may be answered with a draw card (any draw card), "
                "in any colour (Enter); the total passes to the next player, who answers again or accepts "
                "(A) and draws it all. A Wild Draw Four on a stack may be challenged: guilty, its player "
                "draws the whole total; innocent, the challenger draws the total and 2 more."
            )
        )
    if rules.seven_zero:
        out.append(
            _(
                "Seven-O: a 7 swaps your hand with a player you name (a number or a click); a 0 passes "
                "every hand to the next player. Not as your last card. A player left with one card by a "
                "swap must call UNO (U) before anyone catches them."
            )
        )
    if rules.jump_in:
        out.append(
            _(
                "Jump-in: whenever a turn waits, if you hold the card identical to the top card (same "
                "colour and value, never a wild card), press J to play it at once; play goes on from you."
            )
        )
    if rules.draw_to_match:
        out.append(
            _(
                "Draw to match: when you draw as your turn you keep drawing until a card plays; then play "
                "it or keep it."
            )
        )
    # Issue 27's rules (docs/rules.md §11.5): each record's note, in the records' order.
    for rule, value in house.active(rules.house):
        note = rule.note(value)
        if rule.name not in ("stacking", "seven_zero", "jump_in", "draw_to_match") and note is not None:
            out.append(_(note))
    return out


def rules_text(rules: Rules, players: int) -> str:
    """The rules of ``rules`` for people, as the help screen shows them."""
    e = rules.edition
    head = _("RULES: {title} ({name}), {players} players, mode {mode}").format(
        title=edition_title(e.name), name=e.name, players=players, mode=mode_name(rules.mode)
    )
    lines = [head, ""]
    for text in rules_paragraphs(rules):
        lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="  ")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


EDITION_NOTES: Final = _EDITION_NOTES
"""What sets each edition apart, untranslated (the page's form shows them with its own ``t()``)."""


def edition_notes(name: str) -> list[str]:
    """What sets an edition apart (its deck and its own cards), for people."""
    return [_(text) for text in _EDITION_NOTES.get(name, ())]


def rules_paragraphs(rules: Rules) -> list[str]:
    """The rules of ``rules`` for people, one paragraph each (the help screen and the player's
    guide, :mod:`unotable.tui.guide`)."""
    e = rules.edition
    amount = e.draw_amount
    paragraphs = edition_notes(e.name)
    paragraphs.append(
        _(
            "On your turn, play a card that matches the top card by colour (after a wild card: the "
            "colour called), by number or by symbol, or any wild card; or draw one card. You may draw "
            "even when you could play. If the card you draw is playable, you must (must_play_drawn)."
        )
        if rules.must_play_drawn
        else _(
            "On your turn, play a card that matches the top card by colour (after a wild card: the "
            "colour called), by number or by symbol, or any wild card; or draw one card. You may draw "
            "even when you could play. If the card you draw is playable, you may play it at once, or keep it."
        )
    )
    paragraphs.append(
        (
            _(
                "Skip: the next player loses their turn. Reverse: play changes direction. Draw Two: the "
                "next player draws {n} and loses their turn. With two players Reverse acts as a Skip, and "
                "after a Skip, Reverse or draw card its player plays again."
            )
            if amount == 2
            else _(
                "Skip: the next player loses their turn. Reverse: play changes direction. Draw Three: the "
                "next player draws {n} and loses their turn. With two players Reverse acts as a Skip, and "
                "after a Skip, Reverse or draw card its player plays again."
            )
        ).format(n=amount)
    )
    paragraphs += [
        _(
            "Wild: call any colour. Wild Draw Four: call a colour; the next player draws 4 and loses "
            "their turn. It is legal only when you hold no card of the colour to match, but you may "
            "bluff: the player it falls on may challenge instead of drawing. If you held that colour, "
            "you draw 4 instead; if not, the challenger draws 6."
        ),
        _(
            "UNO: whoever plays their next-to-last card must call UNO, with the play or after it. Until "
            "the next player begins their turn, anyone may catch a player who holds one card and has "
            "not called: they draw 2."
        ),
    ]
    paragraphs += _house_notes(rules)
    if rules.lenient_plays:
        paragraphs.append(
            _(
                "lenient_plays: a card that does not match is accepted; until the next turn begins "
                "anyone may point it out (W): the card goes back and its player draws 2."
            )
        )
    if rules.scoring == "lowest" or rules.mode in ("challenge", "elimination"):
        paragraphs.append(
            _(
                "When a hand ends, each player is charged the points left in their own hand (numbers "
                "their face value; Skip, Reverse and draw cards 20; wild cards 50)."
            )
        )
    else:
        paragraphs.append(
            _(
                "When a player goes out, they score the points left in the other hands (numbers their "
                "face value; Skip, Reverse and draw cards 20; wild cards 50)."
            )
        )
    t = rules.target
    goal = {
        "solo": _("The first player to {target} points wins (the lowest total wins when someone reaches it).")
        if rules.scoring == "lowest"
        else _("The first player to {target} points wins."),
        "partners": _(
            "Partners sit across (seats 0 and 2 against 1 and 3); the first team to {target} wins."
        ),
        "teams": _("Even seats against odd seats; the first team to {target} wins."),
        "rotating-partners": _(
            "Each player partners each other player for four hands; the highest total wins."
        ),
        "two-tables": _(
            "Two tables of four; every pair partners once, for four hands; the highest total wins."
        ),
        "challenge": _("Reaching {target} points eliminates a player; the last player left wins."),
        "elimination": _(
            "After each hand the player left with the most points in their hand is out (a tie: the "
            "most cards; still tied, all of them); the last player left wins."
        ),
    }.get(rules.mode, "")
    paragraphs.append(goal.format(target=t))
    return paragraphs
