"""Every word the terminal game shows a person, in one place, in the language in force
(:mod:`unotable.i18n`): the keys and their help, the rules of the edition being played
(docs/rules.md), the prompts, the one-line answers to a key that does nothing now, the screens between
hands and at the end of a game, and the summary printed on quit. Cards are named in words ("blue
Draw Two", "Wild Draw Four"; :mod:`unotable.names`), never in the notation's codes.

Each sentence is a whole English msgid with named fields. The plain texts are read as module
attributes (``words.LOG_TITLE``): :func:`__getattr__` translates each when it is read, so that it
follows the language set after this module was imported. The keys are the same in every language
(R Y G B call red, yellow, green, blue): the letters shown are the keys to press (docs/i18n.md).

The events of a hand are told by :mod:`unotable.narrate` (shared with the plain-text run).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Final

from unotable import house
from unotable.bots.words import bot_description, bot_title
from unotable.cards import (
    BLANK,
    CARD_COLOR,
    CARD_VALUE,
    DRAW_THREE,
    DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    MATER,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE,
)
from unotable.i18n import N_, _, language, ngettext, pgettext
from unotable.names import card_name, color_name, join_names
from unotable.rules import Rules
from unotable.state import Phase

__all__ = ["card_name", "color_name", "join_names"]  # re-exported: the screens name cards through here

_TEXT: Final[dict[str, str]] = {
    # the help
    "KEYS": N_("""\
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
  M                play the chosen card with more of its number
                   after it (house rule multi_play)
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
"""),
    "HELP_TITLE": N_("Help (Esc closes)"),
    # the table
    "TITLE": N_("UNO"),
    "LOG_TITLE": N_("What happened"),
    "DRAW_PILE": N_("DRAW"),
    "RESUMED": N_("— the game goes on from where it was saved —"),
    "SITTING_OUT": N_("You sit out this hand; the bots play it."),
    "NOT_AT_TABLE": N_("You are not at the table for this hand: the bots play it, then the scores follow."),
    "DEALER_TAG": N_("dealer"),
    "PARTNER_TAG": N_("partner"),
    "LAST_DREW": N_("drew a card"),
    "LAST_KEPT": N_("kept the card drawn"),
    "NO_UNO_CATCH": N_("NO UNO! press C to catch"),
    "NO_UNO": N_("NO UNO!"),
    "UNO_STATUS": N_("UNO!"),
    "YOU": N_("You"),
    "SHOWN": N_("shown: "),
    "LAST_PLAYED": N_("played "),
    "MATCH": N_("Match: "),
    "COLOR_TO_CALL": N_(" to be called "),
    "NOW": N_("Now: "),
    "OTHERS_WATCHING": N_("the others are watching…"),
    "SPEED_HINT": N_("   (+/- speed · N skip ahead)"),
    "SKIPPING": N_("skipping ahead to your next decision…"),
    # prompts
    "BACK_HINT": N_("  (Esc: back)"),
    "HOWLER_ASK": N_("Howler: whose hand must be shown? "),
    "SWAP_ASK": N_("Swap hands with whom? "),
    "HOWLER_HINT": N_(" — press the number or click the panel (Esc: back)"),
    "YOUR_TURN": N_("Your turn: "),
    "CHOOSE_A_CARD": N_("choose a card (← → or 1-9) and press Enter, or click it; D draws."),
    "NOTHING_MATCHES": N_("nothing in your hand matches — press D to draw."),
    "MORE_HINT": N_(" M plays it with more of its number after it."),
    "IN_SERIES": N_("play another card of the same number (Enter, or M to keep going after it)."),
    "CALL_THE_COLOR": N_("Call the colour: "),
    "SHOW_YOUR_HAND": N_("A: show your hand to the table"),
    "ACCEPT_IT": N_("A: accept it"),
    "PASS_THE_STACK": N_(" · Enter: pass the stack on with a draw card"),
    "OR_INVISIBILITY": N_(" · I: cancel it with Invisibility"),
    "PRESS_U_NOW": N_(" You hold one card and have not called UNO: press U now! "),
    "NO_JUMP_IN": N_("No jump-in now: it needs the card identical to the top one, while a turn waits."),
    "UNO_ARMED": N_(" UNO armed: your next play calls UNO "),
    "TWO_CARDS_LEFT": N_("Two cards left: press U before you play to call UNO with it."),
    # a key that does nothing now says why
    "NOT_YOUR_TURN": N_("It is not your turn."),
    "UNO_TAKEN_BACK": N_("UNO call taken back."),
    "TOO_SMALL_TITLE": N_("Terminal too small"),
    "DREW_UNPLAYABLE": N_("The card you drew cannot be played: your turn passes."),
    "NO_WRONG_CARD": N_("There is no wrong card to point out."),
    "NOTHING_TO_ANSWER": N_("No card is waiting for your answer."),
    "NOTHING_TO_CHALLENGE": N_("Only a Wild Draw Four played on you can be challenged."),
    "NO_INVISIBILITY": N_("You hold no Invisibility that can cancel a card now."),
    "NO_DRAWN_CARD": N_("P and K answer a card you just drew; you have not drawn one."),
    "NO_MORE": N_("M plays a card with another of its number after it: that card cannot now."),
    "NO_COLOR_TO_CALL": N_("There is no colour to call now."),
    "NOTHING_TO_SKIP": N_("Nothing to skip: it is your move."),
    # buttons
    "UNO_ARMED_BUTTON": N_("UNO! armed (U)"),
    # between hands and at the end
    "PLAYER_COLUMN": N_("player"),
    "CARDS_COLUMN": N_("cards left"),
    "CARDS_LEFT_HEADER": N_("Cards left (laid face up to be counted)"),
    "WENT_OUT_CELL": N_("went out"),
    "POINTS_COLUMN": N_("points"),
    "SCORES_BY_HAND": N_("Scores hand by hand"),
    "HAND_COLUMN": N_("hand"),
    "TOTAL_ROW": N_("total"),
    "NEXT_HAND_KEYS": N_("↑ ↓ scroll · Enter: next hand · Q: quit"),
    "SAVED_NOTE": N_(" (the game is saved)"),
    "GAME_OVER_TITLE": N_("Game over"),
    "RECORD_HEADER": N_("Standings"),
    "RECORD_NOTE": N_(
        "UNO missed: UNO not called in time (with the next-to-last card, or late before the next turn); "
        "caught: times caught for it (2 cards); catches: other players caught; challenges: Wild Draw Fours "
        "challenged, won/lost."
    ),
    "GAME_OVER_KEYS": N_("↑ ↓ scroll · N: new game, same settings · Q or Enter: quit"),
}
"""The plain texts by attribute name (English msgids), translated when read."""


def __getattr__(name: str) -> str:
    """``words.NAME``: the plain text ``NAME`` in the language in force."""
    try:
        return _(_TEXT[name])
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


EDITION_TITLES: Final = {
    "classic": N_("UNO"),
    "harry-potter": N_("Harry Potter UNO"),
    "cars2": N_("Cars 2 UNO"),
    "modern": N_("UNO (2018 deck)"),
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


def bots_text(bots: Sequence[tuple[str, str]]) -> str:
    """The bots at the table, for the help: each player's name, its bot, how it plays."""
    lines = [_("BOTS"), ""]
    for name, label in bots:
        kind = label.partition(":")[0]
        text = _("{name}: {bot}, {description}.").format(
            name=name, bot=bot_title(label), description=bot_description(kind)
        )
        lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    ")
    return "\n".join(lines) + "\n"


def settings_text(delay: float, auto_accept: bool, harry_potter: bool) -> str:
    """The settings of this game that the player can change, for the help."""
    lines = [_("SETTINGS"), "", "  " + _("Bots think {time} before each action (+ and - change it).").format(
        time=seconds(delay))]  # fmt: skip
    if harry_potter:
        text = (
            _(
                "auto_accept is on: an action card played on you is accepted at once when you hold no "
                "Invisibility (and cannot challenge or catch anyone). Set it with --option "
                "auto_accept=true or false."
            )
            if auto_accept
            else _(
                "auto_accept is off: an action card played on you waits for your answer even when you "
                "hold no Invisibility. Set it with --option auto_accept=true or false."
            )
        )
        lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(lines) + "\n"


def seconds(delay: float) -> str:
    """A bot's thinking time for people."""
    if delay <= 0:
        return _("no time")
    return ngettext("{seconds:g} second", "{seconds:g} seconds", 1 if delay == 1 else 2).format(seconds=delay)


# ---- cards and colours


def _face_value(value: int) -> str:
    """An action card's value on its face, 7 columns at most (msgids in the context "card face")."""
    faces = {
        SKIP: pgettext("card face", "Skip"),
        REVERSE: pgettext("card face", "Reverse"),
        DRAW_TWO: pgettext("card face", "Draw 2"),
        DRAW_THREE: pgettext("card face", "Draw 3"),
        BLANK: pgettext("card face", "Blank"),
    }
    return faces.get(value, str(value))


def _face_wild(card: int) -> tuple[str, str]:
    """A wild card's face in two lines of 7 columns at most."""
    faces = {
        WILD: (pgettext("card face", "Wild"), ""),
        WILD_DRAW_FOUR: (pgettext("card face", "Wild"), pgettext("card face", "Draw 4")),
        HOWLER: (pgettext("card face", "Howler"), ""),
        INVISIBILITY: (pgettext("card face", "Invisi-"), pgettext("card face", "bility")),
        MATER: (pgettext("card face", "Mater"), ""),
        WILD_SHUFFLE: (pgettext("card face", "Shuffle"), pgettext("card face", "Hands")),
        WILD_CUSTOM: (pgettext("card face", "Wild"), pgettext("card face", "Custom")),
    }
    return faces[card]


def _face_color(color: int) -> str:
    """A colour on a card face: 7 columns at most ("vermelho" is 8: the Portuguese face says "verm.")."""
    faces = (
        pgettext("card face", "red"),
        pgettext("card face", "yellow"),
        pgettext("card face", "green"),
        pgettext("card face", "blue"),
    )
    return faces[color]


def card_face(card: int) -> tuple[str, str]:
    """A card face in two short lines (7 columns at most): its value, and its colour."""
    color = CARD_COLOR[card]
    if color < 0:
        return _face_wild(card)
    return _face_value(CARD_VALUE[card]), _face_color(color)


def plural(count: int, one: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"`` (English only: for tests and logs; people read :func:`cards`)."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def cards(count: int) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return ngettext("{n} card", "{n} cards", count).format(n=count)


def points(count: int) -> str:
    """``"1 point"``, ``"30 points"``."""
    return ngettext("{n} point", "{n} points", count).format(n=count)


def hand_count(count: int) -> str:
    """``"1 hand"``, ``"3 hands"``."""
    return ngettext("{n} hand", "{n} hands", count).format(n=count)


def times(count: int) -> str:
    """``"once"``, ``"twice"``, ``"3 times"``."""
    if count == 1:
        return _("once")
    if count == 2:
        return _("twice")
    return ngettext("{n} time", "{n} times", count).format(n=count)


def verb(names: Sequence[str], one: str, many: str) -> str:
    """The English verb for a subject of ``names`` (``"You"`` takes the plural form)."""
    return one if len(names) == 1 and names[0] != "You" else many


def _you(names: Sequence[str]) -> bool:
    return list(names) == [_("You")]


# ---- the table


HAND_HEADER_MSGID: Final = N_("— Hand {number} —")


def hand_header(number: int) -> str:
    """The log's line before a hand."""
    return _(HAND_HEADER_MSGID).format(number=number)


def bots_only_prompt(name: str) -> str:
    """The prompt of a bots-only game."""
    return _("Bots play every seat; you see {name}'s view.  ? help · q quit").format(name=name)


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
    parts = [
        edition_title(edition),
        ngettext("{n} player", "{n} players", players).format(n=players),
        mode_name(mode) if mode != "solo" else "",
        scores,
        _("hand {number}").format(number=hand),
        _("to {target}").format(target=target),
        _("bots only") if auto else "",
        _("? help"),
        house,
    ]
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
    if preset:
        return _("{preset} rules").format(preset=preset)
    return ", ".join(name.replace("_", "-") for name in on)


def scores_title(target: int) -> str:
    """The title of the scores box."""
    return _("Scores (to {target})").format(target=target)


def hand_of_total(hand: int, total: int) -> str:
    """Scheduled modes: where the game is."""
    return _("hand {hand} of {total}").format(hand=hand, total=total)


def eliminated(names: Sequence[str]) -> str:
    """Challenge and elimination: who is out."""
    return _("out: {names}").format(names=", ".join(names))


def out_of_the_game(names: Sequence[str]) -> str:
    """Elimination and challenge: who the hand just ended put out of the game."""
    return ngettext("{names} is out of the game.", "{names} are out of the game.", len(names)).format(
        names=", ".join(names)
    )


def panel_title(seat: int, name: str, kind: str, width: int) -> str:
    """An opponent's panel title that fits ``width`` columns: seat, name and, if it fits, the bot."""
    full = f"{seat} {name} · {bot_title(kind)}" if kind else f"{seat} {name}"
    if len(full) <= width:
        return full
    short = f"{seat} {name}"
    return short if len(short) <= width else short[: max(width - 1, 1)] + "…"


def card_count(count: int, width: int) -> str:
    """How many cards an opponent holds, after their backs if ``width`` leaves room for them."""
    backs = f"{'▮' * min(count, 10)}{'+' if count > 10 else ''} " if count else ""
    text = cards(count)
    return backs + text if len(backs) + len(text) + 12 <= width else text


def points_tag(count: int) -> str:
    """An opponent's points, on their panel."""
    return ngettext("{points} pt", "{points} pts", count).format(points=count)


def panel_status(phase: Phase) -> str:
    """What the current player is doing, short enough for the border of their panel."""
    return {
        Phase.TURN: _("▶ to play"),
        Phase.AFTER_DRAW: _("▶ play or keep?"),
        Phase.CHOOSE_COLOR: _("▶ calling a colour"),
        Phase.RESPOND: _("▶ to answer"),
    }.get(phase, "")


def phase_word(phase: Phase, yours: bool, pending_draw: int = 0) -> str:
    """What the current seat is doing: after a bot's name ("Ben to play"), or alone for you."""
    if phase == Phase.TURN:
        return _("your turn") if yours else _("to play")
    if phase == Phase.AFTER_DRAW:
        return _("your turn: play or keep the card drawn") if yours else _("to play or keep the card drawn")
    if phase == Phase.CHOOSE_COLOR:
        return _("your turn: call the colour") if yours else _("to call the colour")
    if phase == Phase.RESPOND:
        if pending_draw:
            if yours:
                return _("your answer to the card played on you ({n} to draw)").format(n=pending_draw)
            return _("to answer the card played on them ({n} to draw)").format(n=pending_draw)
        return _("your answer to the card played on you") if yours else _("to answer the card played on them")
    return ""


def who_does(name: str, what: str) -> str:
    """A bot's name and what it is doing ("Ben to play")."""
    return _("{name} {doing}").format(name=name, doing=what)


def order_line(names: Sequence[str], clockwise: bool, width: int = 1000) -> str:
    """Who plays next, in order, with the direction, in ``width`` columns (the middle of a long
    order gives way to "…")."""
    arrow = "⟳" if clockwise else "⟲"
    line = _("Order {arrow} {names}").format(arrow=arrow, names=" → ".join(names))
    keep = len(names) - 2
    while len(line) > width and keep >= 1:
        line = _("Order {arrow} {names}").format(
            arrow=arrow, names=" → ".join([*names[:keep], "…", names[-1]])
        )
        keep -= 1
    return line


def dealer_line(name: str) -> str:
    """Who dealt."""
    return _("Dealer: {name}").format(name=name)


def called_by(name: str) -> str:
    """After the colour to match: who called it (a wild card or Invisibility); ``words.YOU``: you."""
    if name == _("You"):
        return _(" called by you")
    return _(" called by {name}").format(name=name)


def reversed_by(name: str) -> str:
    """After the order: who changed the direction, just now; ``words.YOU``: you."""
    if name == _("You"):
        return _(" (reversed by you)")
    return _(" (reversed by {name})").format(name=name)


def hand_title(count: int, owner: str | None, more: bool = False) -> str:
    """The title of the hand row: yours, or the watched bot's (``more``: not all in view)."""
    if owner is None:
        text = _("Your hand: {count}").format(count=count)
    else:
        text = _("{name}'s hand: {count}").format(name=owner, count=count)
    return text + (_(" (← → shows them all)") if more else "")


def bot_thinking(name: str, you_can_act: bool) -> str:
    """The line beside the clock's bar."""
    if you_can_act:
        return _("{name} is thinking… act before the bar fills!").format(name=name)
    return _("{name} is thinking…").format(name=name)


# ---- prompts


def call_color_for(card: int) -> str:
    """Asking for the colour of a wild card just chosen (or of Invisibility, played out of turn)."""
    if card == INVISIBILITY:
        return _("Call a colour for Invisibility: ")
    return _("Call a colour for your {card}: ").format(card=card_name(card))


def drew_playable(card: int) -> str:
    """After drawing a card that can be played."""
    return _("You drew the {card}, which you can play: ").format(card=card_name(card))


def play_or_keep(can_keep: bool) -> str:
    """The keys after drawing a playable card."""
    return _("P plays it, K keeps it.") if can_keep else _("P plays it (you must).")


def played_on_you(who: str, card: int) -> str:
    """An action card waits for your answer."""
    return _("{name} played the {card} on you. ").format(name=who, card=card_name(card))


def challenge_choice(who: str, held: int, total: int = 4) -> str:
    """The answers to a Wild Draw Four (``total``: the cards it makes draw, a stack's with stacking)."""
    if held >= 0:
        return _(
            "A: accept (draw {total}) · X: challenge ({name} draws {total} if they held {color}; "
            "if not, you draw {more})"
        ).format(total=total, name=who, color=color_name(held), more=total + 2)
    return _(
        "A: accept (draw {total}) · X: challenge ({name} draws {total} if they held the colour; "
        "if not, you draw {more})"
    ).format(total=total, name=who, more=total + 2)


def accept_draw(total: int) -> str:
    """Accepting a draw card (or a stack of them, RULES §11)."""
    return _("A: accept it (draw {total})").format(total=total)


def press_c(names: Sequence[str]) -> str:
    """Somebody can be caught."""
    return _(" {names} did not call UNO: press C to catch (2 cards)! ").format(names=join_names(names))


def press_w(names: Sequence[str]) -> str:
    """A wrong card can be pointed out."""
    return _(" {names} played a wrong card: W points it out ").format(names=join_names(names))


def press_j(card: int) -> str:
    """A jump-in is possible (RULES §11 ``jump_in``)."""
    return _(" You hold the same {card}: J jumps in! ").format(card=card_name(card))


def auto_accepted(card: int) -> str:
    """The answer given for you (option auto_accept)."""
    return _("Accepted the {card} for you: you hold no Invisibility (auto_accept).").format(
        card=card_name(card)
    )


# ---- a key that does nothing now says why


def only_drawn(card: int) -> str:
    """Another card chosen after drawing a playable one."""
    return _("Only the card you drew ({card}) can be played now — or K keeps it.").format(
        card=card_name(card)
    )


def no_target(seat: int, card: int) -> str:
    """A Howler's or a 7's target that cannot be."""
    return _("Seat {seat} cannot be the {card}'s target.").format(seat=seat, card=card_name(card))


def no_match(card: int, top: int, color: int) -> str:
    """A card that does not match."""
    return _("The {card} does not match the {top} ({color} to match).").format(
        card=card_name(card), top=card_name(top), color=color_name(color)
    )


def cannot_draw(whose_turn: str | None) -> str:
    """D at the wrong moment (``whose_turn``: ``words.YOU`` or a name)."""
    if whose_turn is None:
        return _("You cannot draw now.")
    if whose_turn == _("You"):
        return _("You cannot draw now: answer the card in front of you first.")
    return _("You cannot draw now: it is {name}'s turn.").format(name=whose_turn)


def uno_not_now(count: int) -> str:
    """U with more than two cards (or none to call)."""
    if count > 2:
        return _("UNO goes with your next-to-last card: you hold {count} (press U at two).").format(
            count=cards(count)
        )
    return _("There is no UNO to call now.")


def nobody_to_catch(caught_by: str | None, caught: str | None) -> str:
    """C with nobody to catch; or just after someone else caught the player."""
    if caught_by is not None and caught is not None:
        return _("{name} caught {other} first.").format(name=caught_by, other=caught)
    return _("Nobody can be caught: only a player with one card who did not call UNO.")


def speed_now(delay: float) -> str:
    """After + or -."""
    return _("Bots now think {time} before each action.").format(time=seconds(delay))


def too_small(width: int, height: int, min_width: int, min_height: int) -> str:
    """A terminal too small to play."""
    return _(
        "This terminal is {width} columns by {height} rows: UNO needs at least {min_width} by "
        "{min_height}.\nMake the window larger (or the font smaller); the game waits."
    ).format(width=width, height=height, min_width=min_width, min_height=min_height)


def quit_again(saved: bool) -> str:
    """After one Q."""
    return _("Press Q again to quit (the game is saved).") if saved else _("Press Q again to quit.")


# ---- keys in the footer and on the buttons

KEY_NAMES: Final = {"enter": "⏎", "escape": "Esc"}
_KEY_DESCRIPTIONS: Final = {
    "enter": N_("Play"),
    "draw": N_("Draw"),
    "play_drawn": N_("Play it"),
    "keep": N_("Keep it"),
    "color(0)": N_("Red"),
    "color(1)": N_("Yellow"),
    "color(2)": N_("Green"),
    "color(3)": N_("Blue"),
    "accept": N_("Accept"),
    "challenge": N_("Challenge"),
    "invisibility": N_("Invisibility"),
    "uno": N_("UNO!"),
    "catch": N_("Catch"),
    "wrong": N_("Wrong card"),
    "cancel": N_("Back"),
    "skip_ahead": N_("Skip ahead"),
    "faster": N_("Faster"),
    "slower": N_("Slower"),
    "help": N_("Help"),
    "quit_game": N_("Quit"),
}
_BUTTON_LABELS: Final = {
    "draw": N_("Draw (D)"),
    "play": N_("Play it (P)"),
    "keep": N_("Keep it (K)"),
    "red": N_("Red (R)"),
    "yellow": N_("Yellow (Y)"),
    "green": N_("Green (G)"),
    "blue": N_("Blue (B)"),
    "accept": N_("Accept (A)"),
    "challenge": N_("Challenge (X)"),
    "invis": N_("Invisibility (I)"),
    "uno": N_("UNO! (U)"),
    "catch": N_("Catch (C)"),
    "wrong": N_("Wrong card (W)"),
    "back": N_("Back (Esc)"),
    "help": N_("Help (?)"),
}


def key_description(action: str, default: str) -> str:
    """What a key does, in the footer."""
    return _(_KEY_DESCRIPTIONS[action]) if action in _KEY_DESCRIPTIONS else default


def button_label(key: str) -> str:
    """A button's label, with its key."""
    return _(_BUTTON_LABELS[key])


def catch_button(names: Sequence[str]) -> str:
    """The catch button names who can be caught."""
    return _("Catch {names} (C)").format(names=" & ".join(names))


def bots_speed(delay: float) -> str:
    """The bots' speed, in the footer."""
    return _("bots: {seconds:g} s").format(seconds=delay) if delay > 0 else _("bots: at once")


# ---- between hands and at the end


def went_out(winner: str, score: int, charged: bool) -> str:
    """The first line after a hand."""
    if charged:
        return ngettext(
            "{name} went out. The hand was charged {n} point.",
            "{name} went out. The hand was charged {n} points.",
            score,
        ).format(name=winner, n=score)
    return ngettext(
        "{name} went out. The hand scored {n} point.", "{name} went out. The hand scored {n} points.", score
    ).format(name=winner, n=score)


def hand_over_title(hand: int) -> str:
    """The title of the screen between hands."""
    return _("Hand {number} is over").format(number=hand)


def game_won(names: Sequence[str]) -> str:
    """ "You win the game!", "Ana wins the game!", "Ana and Ben win the game!"."""
    if _you(names):
        return _("You win the game!")
    return ngettext("{names} wins the game!", "{names} win the game!", len(names)).format(
        names=join_names(names)
    )


_RECORD_COLUMNS: Final = (
    N_("player"),
    N_("points"),
    N_("hands won"),
    N_("UNO missed"),
    N_("caught"),
    N_("catches"),
    N_("challenges"),
)


def record_columns() -> tuple[str, ...]:
    """The columns of the standings."""
    return tuple(_(c) for c in _RECORD_COLUMNS)


def replay_line(seed: int) -> str:
    """The seed, shown once the game is over: the same deals again."""
    return _(
        "Seed {seed}: play the same deals again with uno play --seed {seed} (and the same flags)."
    ).format(seed=seed)


def place(n: int) -> str:
    """1st, 2nd, 3rd, 4th... (1.º in Portugal's Portuguese, 1º in Brazil's, 1er and 2e in French)."""
    lang = language()
    if lang == "pt":
        return f"{n}.º"
    if lang == "pt_BR":
        return f"{n}º"
    if lang == "fr":
        return "1er" if n == 1 else f"{n}e"
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

    :param edition: the edition's name (``"cars2"``).
    :param leaders: the winners (finished) or the leaders; ``leader_points`` their points.
    :param you: your place and points, if you played.
    :param record: your hands won, UNO calls missed, times caught, catches, challenges won and lost.
    :param seed: shown only for a finished game.
    """
    game = _("{edition} ({players} players, to {target})").format(
        edition=edition_title(edition), players=players, target=target
    )
    saved = " " + _("Saved: uno play --resume {file} goes on.").format(file=save) if save else ""
    if hands == 0 and not finished:
        return _("{game}: left during the first hand.").format(game=game) + saved
    fields = {"game": game, "hands": hand_count(hands), "names": join_names(leaders),
              "points": points(leader_points)}  # fmt: skip
    if finished:
        if _you(leaders):
            text = _("{game}: you won after {hands} with {points}.").format(**fields)
        else:
            text = ngettext(
                "{game}: {names} won after {hands} with {points}.",
                "{game}: {names} won after {hands} with {points}.",
                len(leaders),
            ).format(**fields)
    elif _you(leaders):
        text = _("{game}, left after {hands}: you lead with {points}.").format(**fields)
    else:
        text = ngettext(
            "{game}, left after {hands}: {names} leads with {points}.",
            "{game}, left after {hands}: {names} lead with {points}.",
            len(leaders),
        ).format(**fields)
    if you is not None and record is not None and _("You") not in leaders:
        mine = {"place": place(you[0]), "points": points(you[1])}
        text += " " + (
            _("You finished {place} with {points}.") if finished else _("You are {place} with {points}.")
        ).format(**mine)
    if record is not None:
        text += " " + _record(record)
    if finished and seed is not None:
        text += " " + _("Seed {seed} (uno play --seed {seed} deals the same cards again).").format(seed=seed)
    if not finished and save:
        text += saved
    return text


def _record(record: tuple[int, int, int, int, int, int]) -> str:
    """Your record in one sentence of whole parts."""
    won, missed, caught, catches, ch_won, ch_lost = record
    parts = [ngettext("{n} hand won", "{n} hands won", won).format(n=won) if won else _("no hand won")]
    parts.append(_("UNO missed {times}").format(times=times(missed)) if missed else _("UNO never missed"))
    if caught:
        parts.append(_("caught {times}").format(times=times(caught)))
    parts.append(
        ngettext("{n} catch", "{n} catches", catches).format(n=catches) if catches else _("nobody caught")
    )
    if ch_won or ch_lost:
        total = ch_won + ch_lost
        parts.append(
            ngettext("{won} of {n} challenge won", "{won} of {n} challenges won", total).format(
                won=ch_won, n=total
            )
        )
    return _("Your game: {record}.").format(record=", ".join(parts))


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
}


def _house_notes(rules: Rules) -> list[str]:
    """The house rules in force (RULES §11), for people."""
    out: list[str] = []
    if rules.preset not in (None, "official"):
        out.append(_("House rules: the {preset} preset.").format(preset=rules.preset))
    if rules.stacking:
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
