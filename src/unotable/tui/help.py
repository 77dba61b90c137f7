"""The in-game help: the keys, and the rules of the edition and options being played (RULES.md)."""

from __future__ import annotations

import textwrap
from typing import Final

from unotable.rules import Rules

KEYS: Final = """\
KEYS

  ← → or 1-9, 0    choose a card of your hand (0: the 10th)
  Enter or click   play the chosen card (a click plays it at once)
  D                draw a card (or click the draw pile)
  P / K            after drawing a playable card: play it / keep it
  R Y G B          call a colour (after a Wild, Wild Draw Four,
                   Howler, Mater or Invisibility)
  1-9, 0 or click  the player whose hand a Howler shows (the
                   numbers on the panels)
  Esc              take back a card chosen before its colour or
                   target
  A / X / I        a card played on you: accept it / challenge a
                   Wild Draw Four / cancel it with Invisibility
  U                UNO: before you play your next-to-last card
                   (the play carries the call), or just after,
                   before anyone catches you
  C                catch a player who has one card and did not
                   call UNO (or click their panel)
  W                point out a wrong card (option lenient_plays)
  J                jump in: play the card identical to the top
                   card out of turn (house rule jump_in)
  ? or F1          this help (↑ ↓ scroll; Esc closes)
  Q                quit (press it twice; --save has saved the game)

OUT OF TURN

  Nothing closes on a clock you cannot see. A bot thinks for a
  moment before each action (the bar under the prompt fills up
  meanwhile). When you may call UNO late or catch someone, the bots
  wait twice as long, and the prompt says what you can do. A window
  closes only as the rules say: when the next player begins their
  turn (plays or draws). While this help is open, the bots wait.
"""


WIDTH: Final = 70
"""Columns of the help text (it fits an 80-column terminal)."""

_EDITION_NOTES: Final[dict[str, tuple[str, ...]]] = {
    "classic": ("Deck: 108 cards: 0-9 in four colours, Skip, Reverse, Draw Two (+2), Wild, Wild Draw Four.",),
    "harry-potter": (
        "Deck: 110 cards: 0-9 in four colours, Skip, Reverse, Draw Three (+3), Wild, Wild Draw Four, "
        "one Howler and one Invisibility.",
        "Howler (wild): choose another player, who must show their whole hand to the table; then "
        "you call the colour.",
        "Invisibility (wild): play it as a Wild, or out of turn to cancel an action card played on "
        "you (Skip, Draw Three, Wild Draw Four, Howler; Reverse with two players). The effect is "
        "cancelled, you call the colour, and the card counts as a plain card.",
        "Every action card played on a player waits for their answer (accept, or Invisibility), "
        "whether or not they hold Invisibility, so the pause gives nothing away.",
    ),
    "cars2": (
        "Deck: 112 cards: 0-9 in four colours, Skip, Reverse, Draw Two (+2), Wild, Wild Draw Four, "
        "and four Mater secret agents.",
        "Mater (wild): you alone see every opponent's hand (shown on their panels until they play "
        "those cards), then you call the colour.",
    ),
}


def _house_notes(rules: Rules) -> list[str]:
    """The house rules in force (RULES §11), for people."""
    out: list[str] = []
    if rules.preset not in (None, "official"):
        out.append(f"House rules: the {rules.preset} preset.")
    if rules.stacking:
        which = "of the same kind" if rules.stacking == "same" else "(any draw card)"
        out.append(
            f"Stacking: a draw card played on you may be answered with a draw card {which}, in any "
            "colour (Enter); the total passes to the next player, who answers again or accepts (A) "
            "and draws it all. A Wild Draw Four on a stack may be challenged: guilty, its player "
            "draws the whole total; innocent, the challenger draws the total and 2 more."
        )
    if rules.seven_zero:
        out.append(
            "Seven-O: a 7 swaps your hand with a player you name (a number or a click); a 0 passes "
            "every hand to the next player. Not as your last card. A player left with one card by a "
            "swap must call UNO (U) before anyone catches them."
        )
    if rules.jump_in:
        out.append(
            "Jump-in: whenever a turn waits, if you hold the card identical to the top card (same "
            "colour and value, never a wild card), press J to play it at once; play goes on from you."
        )
    if rules.draw_to_match:
        out.append(
            "Draw to match: when you draw as your turn you keep drawing until a card plays; then play "
            "it or keep it."
        )
    return out


def rules_text(rules: Rules, players: int) -> str:
    """The rules of ``rules`` for people, as the help screen shows them."""
    e = rules.edition
    draw = f"Draw {'Two' if e.draw_amount == 2 else 'Three'}"
    drawn = "you must (must_play_drawn)" if rules.must_play_drawn else "you may play it at once, or keep it"
    paragraphs = [
        *_EDITION_NOTES.get(e.name, ()),
        "On your turn, play a card that matches the top card by colour (after a wild card: the "
        "colour called), by number or by symbol, or any wild card; or draw one card. You may draw "
        f"even when you could play. If the card you draw is playable, {drawn}.",
        f"Skip: the next player loses their turn. Reverse: play changes direction. {draw}: the "
        f"next player draws {e.draw_amount} and loses their turn. With two players Reverse acts as "
        "a Skip, and after a Skip, Reverse or draw card its player plays again.",
        "Wild: call any colour. Wild Draw Four: call a colour; the next player draws 4 and loses "
        "their turn. It is legal only when you hold no card of the colour to match, but you may "
        "bluff: the player it falls on may challenge instead of drawing. If you held that colour, "
        "you draw 4 instead; if not, the challenger draws 6.",
        "UNO: whoever plays their next-to-last card must call UNO, with the play or after it. Until "
        "the next player begins their turn, anyone may catch a player who holds one card and has "
        "not called: they draw 2.",
    ]
    paragraphs += _house_notes(rules)
    if rules.lenient_plays:
        paragraphs.append(
            "lenient_plays: a card that does not match is accepted; until the next turn begins "
            "anyone may point it out (W): the card goes back and its player draws 2."
        )
    points = "(numbers their face value; Skip, Reverse and draw cards 20; wild cards 50)"
    if rules.scoring == "lowest" or rules.mode == "challenge":
        paragraphs.append(
            f"When a hand ends, each player is charged the points left in their own hand {points}."
        )
    else:
        paragraphs.append(f"When a player goes out, they score the points left in the other hands {points}.")
    t = rules.target
    paragraphs.append(
        {
            "solo": f"The first player to {t} points wins"
            + (" (the lowest total wins when someone reaches it)." if rules.scoring == "lowest" else "."),
            "partners": f"Partners sit across (seats 0 and 2 against 1 and 3); the first team to {t} wins.",
            "teams": f"Even seats against odd seats; the first team to {t} wins.",
            "rotating-partners": "Each player partners each other player for four hands; "
            "the highest total wins.",
            "two-tables": "Two tables of four; every pair partners once, for four hands; "
            "the highest total wins.",
            "challenge": f"Reaching {t} points eliminates a player; the last player left wins.",
        }.get(rules.mode, "")
    )
    lines = [f"RULES: {e.title} ({e.name}), {players} players, mode {rules.mode}", ""]
    for text in paragraphs:
        lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="  ")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
