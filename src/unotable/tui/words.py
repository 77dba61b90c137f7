"""Every word the terminal game shows a person, in one place (so that it can be translated):
the keys and their help, the rules of the edition being played (docs/rules.md), the prompts, the
one-line answers to a key that does nothing now, the screens between hands and at the end of a
game, and the summary printed on quit. Cards are named in words ("blue Draw Two", "Wild Draw
Four"), never in the notation's codes.

The events of a hand are told by :mod:`unotable.narrate` (shared with the plain-text run).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Final

from unotable import house
from unotable.cards import (
    BLANK,
    CARD_COLOR,
    CARD_NAME,
    CARD_VALUE,
    COLOR_NAMES,
    DRAW_THREE,
    DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    MATER,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from unotable.rules import Rules
from unotable.state import Phase

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
  + / -            the bots play faster / slower
  N                skip ahead: the bots play at once until you
                   have something to do
  PgUp / PgDn      scroll the log (End: back to the newest line)
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


def settings_text(delay: float, auto_accept: bool, harry_potter: bool) -> str:
    """The settings of this game that the player can change, for the help."""
    lines = ["SETTINGS", "", f"  Bots think {seconds(delay)} before each action (+ and - change it)."]
    if harry_potter:
        state = "on" if auto_accept else "off"
        lines += [
            f"  auto_accept is {state}: an action card played on you is accepted",
            "  at once when you hold no Invisibility (and cannot challenge or",
            "  catch anyone). Set it with --option auto_accept=true or false.",
        ]
    return "\n".join(lines) + "\n"


def seconds(delay: float) -> str:
    """A bot's thinking time for people."""
    if delay <= 0:
        return "no time"
    return f"{delay:g} second" + ("" if delay == 1 else "s")


# ---- cards and colours


_FACE_VALUES: Final = {
    SKIP: "Skip",
    REVERSE: "Reverse",
    DRAW_TWO: "Draw 2",
    DRAW_THREE: "Draw 3",
    BLANK: "Blank",
}
_FACE_WILDS: Final = {
    WILD: ("Wild", ""),
    WILD_DRAW_FOUR: ("Wild", "Draw 4"),
    HOWLER: ("Howler", ""),
    INVISIBILITY: ("Invisi-", "bility"),
    MATER: ("Mater", ""),
}


def card_face(card: int) -> tuple[str, str]:
    """A card face in two short lines (7 columns at most): its value, and its colour."""
    color = CARD_COLOR[card]
    if color < 0:
        return _FACE_WILDS.get(card, (CARD_NAME[card], ""))
    value = CARD_VALUE[card]
    return _FACE_VALUES.get(value, str(value)), COLOR_NAMES[color]


def card_name(card: int) -> str:
    """A card in words: "blue Draw Two", "Wild Draw Four"."""
    return CARD_NAME[card]


def color_name(color: int) -> str:
    """A colour in words."""
    return COLOR_NAMES[color] if color >= 0 else "no colour"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def times(count: int) -> str:
    """``"once"``, ``"twice"``, ``"3 times"``."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def join_names(names: Sequence[str]) -> str:
    """``"Ana"``, ``"Ana and Ben"``, ``"Ana, Ben and Cleo"``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def verb(names: Sequence[str], one: str, many: str) -> str:
    """The verb for a subject of ``names`` (``"You"`` takes the plural form)."""
    return one if len(names) == 1 and names[0] != YOU else many


YOU: Final = "You"


# ---- the table


TITLE: Final = "UNO"
LOG_TITLE: Final = "What happened"
DRAW_PILE: Final = "DRAW"
HAND_HEADER: Final = "— Hand {number} —"
RESUMED: Final = "— the game goes on from where it was saved —"
SITTING_OUT: Final = "You sit out this hand; the bots play it."
NOT_AT_TABLE: Final = "You are not at the table for this hand: the bots play it, then the scores follow."
BOTS_ONLY_PROMPT: Final = "Bots play every seat; you see {name}'s view.  ? help · q quit"


def title(
    edition: str,
    players: int,
    mode: str,
    hand: int,
    target: int,
    auto: bool,
    scores: str,
    width: int = 1000,
    house: str = "",
) -> str:
    """The title line in ``width`` columns: the least needed parts give way first (the seed is
    never shown during play: it would give away the deck). ``house``: the house rules in force."""
    parts = [f"UNO {edition}", f"{players} players", mode if mode != "solo" else "", scores,
             f"hand {hand}", f"to {target}", "bots only" if auto else "", "? help", house]  # fmt: skip
    for drop in (None, 7, 1, 8, 5, 0):
        if drop is not None:
            parts[drop] = ""
        line = " · ".join(p for p in parts if p)
        if len(line) <= width:
            break
    return line


def house_rules(preset: str | None, on: Sequence[str]) -> str:
    """The house rules in force (RULES §11), for the title line: a preset's name, or the rules."""
    if preset == "official":
        return ""
    return f"{preset} rules" if preset else ", ".join(name.replace("_", "-") for name in on)


def scores_title(target: int) -> str:
    """The title of the scores box."""
    return f"Scores (to {target})"


def hand_of_total(hand: int, total: int) -> str:
    """Scheduled modes: where the game is."""
    return f"hand {hand} of {total}"


def eliminated(names: Sequence[str]) -> str:
    """Challenge: who is out."""
    return "out: " + ", ".join(names)


def panel_title(seat: int, name: str, kind: str, width: int) -> str:
    """An opponent's panel title that fits ``width`` columns: seat, name and, if it fits, the bot."""
    full = f"{seat} {name} · {kind}" if kind else f"{seat} {name}"
    if len(full) <= width:
        return full
    short = f"{seat} {name}"
    return short if len(short) <= width else short[: max(width - 1, 1)] + "…"


def card_count(count: int, width: int) -> str:
    """How many cards an opponent holds, after their backs if ``width`` leaves room for them."""
    backs = f"{'▮' * min(count, 10)}{'+' if count > 10 else ''} " if count else ""
    text = plural(count, "card")
    return backs + text if len(backs) + len(text) + 12 <= width else text


POINTS_TAG: Final = "{points} pts"
DEALER_TAG: Final = "dealer"
PARTNER_TAG: Final = "partner"
SHOWN: Final = "shown: "
LAST_PLAYED: Final = "played "
LAST_DREW: Final = "drew a card"
LAST_KEPT: Final = "kept the card drawn"
NO_UNO_CATCH: Final = "NO UNO! press C to catch"
NO_UNO: Final = "NO UNO!"
UNO_STATUS: Final = "UNO!"


def panel_status(phase: Phase) -> str:
    """What the current player is doing, short enough for the border of their panel."""
    return {
        Phase.TURN: "▶ to play",
        Phase.AFTER_DRAW: "▶ play or keep?",
        Phase.CHOOSE_COLOR: "▶ calling a colour",
        Phase.RESPOND: "▶ to answer",
    }.get(phase, "")


def phase_word(phase: Phase, yours: bool, pending_draw: int = 0) -> str:
    """What the current seat is doing: after a bot's name ("Ben to play"), or alone for you."""
    if phase == Phase.TURN:
        return "your turn" if yours else "to play"
    if phase == Phase.AFTER_DRAW:
        return "your turn: play or keep the card drawn" if yours else "to play or keep the card drawn"
    if phase == Phase.CHOOSE_COLOR:
        return "your turn: call the colour" if yours else "to call the colour"
    if phase == Phase.RESPOND:
        what = "your answer to the card played on you" if yours else "to answer the card played on them"
        return what + (f" ({pending_draw} to draw)" if pending_draw else "")
    return ""


MATCH: Final = "Match: "
COLOR_TO_CALL: Final = " to be called "
NOW: Final = "Now: "


def order_line(names: Sequence[str], clockwise: bool, width: int = 1000) -> str:
    """Who plays next, in order, with the direction, in ``width`` columns (the middle of a long
    order gives way to "…")."""
    arrow = "⟳" if clockwise else "⟲"
    line = f"Order {arrow} " + " → ".join(names)
    keep = len(names) - 2
    while len(line) > width and keep >= 1:
        line = f"Order {arrow} " + " → ".join([*names[:keep], "…", names[-1]])
        keep -= 1
    return line


def dealer_line(name: str) -> str:
    """Who dealt."""
    return f"Dealer: {name}"


def called_by(name: str) -> str:
    """After the colour to match: who called it (a wild card or Invisibility)."""
    return f" called by {name}"


def reversed_by(name: str) -> str:
    """After the order: who changed the direction, just now."""
    return f" (reversed by {name})"


def hand_title(count: int, owner: str | None, more: bool = False) -> str:
    """The title of the hand row: yours, or the watched bot's (``more``: not all in view)."""
    title = f"Your hand: {count}" if owner is None else f"{owner}'s hand: {count}"
    return title + (" (← → shows them all)" if more else "")


def bot_thinking(name: str, you_can_act: bool) -> str:
    """The line beside the clock's bar."""
    return f"{name} is thinking…" + (" act before the bar fills!" if you_can_act else "")


OTHERS_WATCHING: Final = "the others are watching…"
SPEED_HINT: Final = "   (+/- speed · N skip ahead)"
SKIPPING: Final = "skipping ahead to your next decision…"

# ---- prompts


def call_color_for(what: str) -> str:
    """Asking for the colour of a wild card or of Invisibility."""
    return f"Call a colour for {what}: "


def your_card(card: int) -> str:
    """``"your Wild Draw Four"``."""
    return f"your {card_name(card)}"


INVISIBILITY_WORD: Final = "Invisibility"
BACK_HINT: Final = "  (Esc: back)"
HOWLER_ASK: Final = "Howler: whose hand must be shown? "
SWAP_ASK: Final = "Swap hands with whom? "
HOWLER_HINT: Final = " — press the number or click the panel (Esc: back)"
YOUR_TURN: Final = "Your turn: "
CHOOSE_A_CARD: Final = "choose a card (← → or 1-9) and press Enter, or click it; D draws."
NOTHING_MATCHES: Final = "nothing in your hand matches — press D to draw."
CALL_THE_COLOR: Final = "Call the colour: "


def drew_playable(card: int) -> str:
    """After drawing a card that can be played."""
    return f"You drew the {card_name(card)}, which you can play: "


def play_or_keep(can_keep: bool) -> str:
    """The keys after drawing a playable card."""
    return "P plays it" + (", K keeps it." if can_keep else " (you must).")


def played_on_you(who: str, card: int) -> str:
    """An action card waits for your answer."""
    if card == WILD_DRAW_FOUR:
        return f"{who} played a Wild Draw Four on you. "
    if card == HOWLER:
        return f"{who} played the Howler on you. "
    return f"{who} played the {card_name(card)} on you. "


def challenge_choice(who: str, held: int, total: int = 4) -> str:
    """The answers to a Wild Draw Four (``total``: the cards it makes draw, a stack's with stacking)."""
    what = color_name(held) if held >= 0 else "the colour"
    return (
        f"A: accept (draw {total}) · X: challenge ({who} draws {total} if they held {what}; "
        f"if not, you draw {total + 2})"
    )


SHOW_YOUR_HAND: Final = "A: show your hand to the table"
ACCEPT_IT: Final = "A: accept it"


def accept_draw(total: int) -> str:
    """Accepting a draw card (or a stack of them, RULES §11)."""
    return f"A: accept it (draw {total})"


PASS_THE_STACK: Final = " · Enter: pass the stack on with a draw card"
OR_INVISIBILITY: Final = " · I: cancel it with Invisibility"
PRESS_U_NOW: Final = " You hold one card and have not called UNO: press U now! "


def press_c(names: Sequence[str]) -> str:
    """Somebody can be caught."""
    return f" {join_names(names)} did not call UNO: press C to catch (2 cards)! "


def press_w(names: Sequence[str]) -> str:
    """A wrong card can be pointed out."""
    return f" {join_names(names)} played a wrong card: W points it out "


def press_j(card: int) -> str:
    """A jump-in is possible (RULES §11 ``jump_in``)."""
    return f" You hold the same {card_name(card)}: J jumps in! "


NO_JUMP_IN: Final = "No jump-in now: it needs the card identical to the top one, while a turn waits."
UNO_ARMED: Final = " UNO armed: your next play calls UNO "
TWO_CARDS_LEFT: Final = "Two cards left: press U before you play to call UNO with it."


def auto_accepted(card: int) -> str:
    """The answer given for you (option auto_accept)."""
    return f"Accepted the {card_name(card)} for you: you hold no Invisibility (auto_accept)."


# ---- a key that does nothing now says why

NOT_YOUR_TURN: Final = "It is not your turn."
ONLY_DRAWN: Final = "Only the card you drew ({card}) can be played now — or K keeps it."
NO_TARGET: Final = "Seat {seat} cannot be the {card}'s target."
UNO_TAKEN_BACK: Final = "UNO call taken back."
TOO_SMALL_TITLE: Final = "Terminal too small"


def no_match(card: int, top: int, color: int) -> str:
    """A card that does not match."""
    return f"The {card_name(card)} does not match the {card_name(top)} ({color_name(color)} to match)."


def cannot_draw(whose_turn: str | None) -> str:
    """D at the wrong moment."""
    if whose_turn is None:
        return "You cannot draw now."
    if whose_turn == YOU:
        return "You cannot draw now: answer the card in front of you first."
    return f"You cannot draw now: it is {whose_turn}'s turn."


DREW_UNPLAYABLE: Final = "The card you drew cannot be played: your turn passes."


def uno_not_now(cards: int) -> str:
    """U with more than two cards (or none to call)."""
    if cards > 2:
        return f"UNO goes with your next-to-last card: you hold {plural(cards, 'card')} (press U at two)."
    return "There is no UNO to call now."


def nobody_to_catch(caught_by: str | None, caught: str | None) -> str:
    """C with nobody to catch; or just after someone else caught the player."""
    if caught_by is not None and caught is not None:
        return f"{caught_by} caught {caught} first."
    return "Nobody can be caught: only a player with one card who did not call UNO."


NO_WRONG_CARD: Final = "There is no wrong card to point out."
NOTHING_TO_ANSWER: Final = "No card is waiting for your answer."
NOTHING_TO_CHALLENGE: Final = "Only a Wild Draw Four played on you can be challenged."
NO_INVISIBILITY: Final = "You hold no Invisibility that can cancel a card now."
NO_DRAWN_CARD: Final = "P and K answer a card you just drew; you have not drawn one."
NO_COLOR_TO_CALL: Final = "There is no colour to call now."
NOTHING_TO_SKIP: Final = "Nothing to skip: it is your move."


def speed_now(delay: float) -> str:
    """After + or -."""
    return f"Bots now think {seconds(delay)} before each action."


def too_small(width: int, height: int, min_width: int, min_height: int) -> str:
    """A terminal too small to play."""
    return (
        f"This terminal is {width} columns by {height} rows:"
        f" UNO needs at least {min_width} by {min_height}.\n"
        "Make the window larger (or the font smaller); the game waits."
    )


def quit_again(saved: bool) -> str:
    """After one Q."""
    return "Press Q again to quit" + (" (the game is saved)." if saved else ".")


# ---- keys in the footer and on the buttons

KEY_NAMES: Final = {"enter": "⏎", "escape": "Esc"}
KEY_DESCRIPTIONS: Final = {
    "enter": "Play",
    "draw": "Draw",
    "play_drawn": "Play it",
    "keep": "Keep it",
    "color(0)": "Red",
    "color(1)": "Yellow",
    "color(2)": "Green",
    "color(3)": "Blue",
    "accept": "Accept",
    "challenge": "Challenge",
    "invisibility": "Invisibility",
    "uno": "UNO!",
    "catch": "Catch",
    "wrong": "Wrong card",
    "cancel": "Back",
    "skip_ahead": "Skip ahead",
    "faster": "Faster",
    "slower": "Slower",
    "help": "Help",
    "quit_game": "Quit",
}
BUTTON_LABELS: Final = {
    "draw": "Draw (D)",
    "play": "Play it (P)",
    "keep": "Keep it (K)",
    "red": "Red (R)",
    "yellow": "Yellow (Y)",
    "green": "Green (G)",
    "blue": "Blue (B)",
    "accept": "Accept (A)",
    "challenge": "Challenge (X)",
    "invis": "Invisibility (I)",
    "uno": "UNO! (U)",
    "catch": "Catch (C)",
    "wrong": "Wrong card (W)",
    "back": "Back (Esc)",
    "help": "Help (?)",
}
UNO_ARMED_BUTTON: Final = "UNO! armed (U)"


def catch_button(names: Sequence[str]) -> str:
    """The catch button names who can be caught."""
    return "Catch " + " & ".join(names) + " (C)"


def bots_speed(delay: float) -> str:
    """The bots' speed, in the footer."""
    return f"bots: {delay:g} s" if delay > 0 else "bots: at once"


# ---- between hands and at the end


def went_out(winner: str, points: int, charged: bool) -> str:
    """The first line after a hand."""
    how = "was charged" if charged else "scored"
    return f"{winner} went out. The hand {how} {plural(points, 'point')}."


HELP_TITLE: Final = "Help (Esc closes)"
PLAYER_COLUMN: Final = "player"
CARDS_COLUMN: Final = "cards left"
CARDS_LEFT_HEADER: Final = "Cards left (laid face up to be counted)"
WENT_OUT_CELL: Final = "went out"
POINTS_COLUMN: Final = "points"
SCORES_BY_HAND: Final = "Scores hand by hand"
HAND_COLUMN: Final = "hand"
TOTAL_ROW: Final = "total"
NEXT_HAND_KEYS: Final = "↑ ↓ scroll · Enter: next hand · Q: quit"
SAVED_NOTE: Final = " (the game is saved)"


def hand_over_title(hand: int) -> str:
    """The title of the screen between hands."""
    return f"Hand {hand} is over"


GAME_OVER_TITLE: Final = "Game over"


def game_won(names: Sequence[str]) -> str:
    """ "You win the game!", "Ana wins the game!", "Ana and Ben win the game!"."""
    return f"{join_names(names)} {verb(names, 'wins', 'win')} the game!"


RECORD_HEADER: Final = "Standings"
RECORD_COLUMNS: Final = ("player", "points", "hands won", "UNO missed", "caught", "catches", "challenges")
RECORD_NOTE: Final = (
    "UNO missed: UNO not called in time (with the next-to-last card, or late before the next turn); "
    "caught: times caught for it (2 cards); catches: other players caught; challenges: Wild Draw Fours "
    "challenged, won/lost."
)


def replay_line(seed: int) -> str:
    """The seed, shown once the game is over: the same deals again."""
    return f"Seed {seed}: play the same deals again with uno play --seed {seed} (and the same flags)."


GAME_OVER_KEYS: Final = "↑ ↓ scroll · N: new game, same settings · Q or Enter: quit"


def place(n: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def summary(
    *,
    edition: str,
    players: int,
    target: int,
    hands: int,
    finished: bool,
    leaders: Sequence[str],
    leader_points: int,
    you: tuple[int, int] | None,
    record: tuple[int, int, int, int, int, int] | None,
    seed: int | None,
    save: str | None,
) -> str:
    """The one paragraph printed when the game is left.

    :param leaders: the winners (finished) or the leaders; ``leader_points`` their points.
    :param you: your place and points, if you played.
    :param record: your hands won, UNO calls missed, times caught, catches, challenges won and lost.
    :param seed: shown only for a finished game.
    """
    game = f"{edition} ({players} players, to {target})"
    if hands == 0 and not finished:
        return f"{game}: left during the first hand." + (
            f" Saved: uno play --resume {save} goes on." if save else ""
        )
    done = plural(hands, "hand")
    if finished:
        text = f"{game}: {join_names(leaders)} won after {done}"
    else:
        text = f"{game}, left after {done}: {join_names(leaders)} {verb(leaders, 'leads', 'lead')}"
    text += f" with {plural(leader_points, 'point')}."
    if you is not None and record is not None and YOU not in leaders:
        text += f" You {'finished' if finished else 'are'} {place(you[0])} with {plural(you[1], 'point')}."
    if record is not None:
        won, missed, caught, catches, ch_won, ch_lost = record
        parts = [f"won {plural(won, 'hand')}" if won else "won no hand"]
        parts.append(f"missed UNO {times(missed)}" if missed else "never missed UNO")
        if caught:
            parts.append(f"were caught {times(caught)}")
        parts.append(f"made {plural(catches, 'catch', 'catches')}" if catches else "caught nobody")
        if ch_won or ch_lost:
            parts.append(f"won {ch_won} of {plural(ch_won + ch_lost, 'challenge')}")
        text += " You " + join_names(parts) + "."
    if finished and seed is not None:
        text += f" Seed {seed} (uno play --seed {seed} deals the same cards again)."
    if not finished and save:
        text += f" Saved: uno play --resume {save} goes on."
    return text


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
    # Issue 27's rules (docs/rules.md §11.5): each record's note, in the records' order.
    for rule, value in house.active(rules.house):
        note = rule.note(value)
        if rule.name not in ("stacking", "seven_zero", "jump_in", "draw_to_match") and note is not None:
            out.append(note)
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
