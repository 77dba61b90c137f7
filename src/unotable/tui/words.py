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

from unotable.bots.words import bot_description, bot_title
from unotable.cards import (
    AW_DRAW_FOUR,
    AW_DRAW_TWO,
    AW_REVERSE,
    AW_SKIP,
    AW_SKIP_TWO,
    AW_SWAP,
    AW_TARGET,
    AW_WILD,
    BLANK,
    CARD_COLOR,
    CARD_VALUE,
    DARK_FACE,
    DRAW_THREE,
    DRAW_TWO,
    FL_DARK_WILD,
    FL_DRAW_FIVE,
    FL_DRAW_ONE,
    FL_FLIP,
    FL_WILD,
    FL_WILD_DRAW_COLOR,
    FL_WILD_DRAW_TWO,
    HOWLER,
    INVISIBILITY,
    MATER,
    NM_DISCARD_ALL,
    NM_DRAW_FOUR,
    NM_ROULETTE,
    NM_SKIP_ALL,
    NM_WILD_REVERSE_FOUR,
    NM_WILD_SIX,
    NM_WILD_TEN,
    REVERSE,
    SKIP,
    WILD,
    WILD_CUSTOM,
    WILD_DRAW_FOUR,
    WILD_SHUFFLE,
)
from unotable.i18n import N_, _, ngettext, pgettext
from unotable.names import card_name, color_name, join_names
from unotable.ruletext import WIDTH, edition_notes, edition_title, mode_name, rules_paragraphs, rules_text
from unotable.state import Phase

__all__ = [
    "card_name",
    "color_name",
    "edition_notes",
    "edition_title",
    "join_names",
    "mode_name",
    "rules_paragraphs",
    "rules_text",
]
"""Re-exported: the screens name cards, editions and modes through here, the help shows the rules."""

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
  P T O V          UNO Flip's dark side: call pink, teal, orange
                   or purple
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
    "TARGET_ASK": N_("Who draws two? "),
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
        NM_SKIP_ALL: pgettext("card face", "SkipAll"),
        NM_DISCARD_ALL: pgettext("card face", "Discard"),
        NM_DRAW_FOUR: pgettext("card face", "Draw 4"),
        FL_DRAW_ONE: pgettext("card face", "Draw 1"),
        FL_DRAW_FIVE: pgettext("card face", "Draw 5"),
        FL_FLIP: pgettext("card face", "Flip"),
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
        AW_WILD: (pgettext("card face", "Wild"), ""),
        AW_REVERSE: (pgettext("card face", "Wild"), pgettext("card face", "Reverse")),
        AW_SKIP: (pgettext("card face", "Wild"), pgettext("card face", "Skip")),
        AW_SKIP_TWO: (pgettext("card face", "Skip"), pgettext("card face", "Two")),
        AW_DRAW_TWO: (pgettext("card face", "Wild"), pgettext("card face", "Draw 2")),
        AW_DRAW_FOUR: (pgettext("card face", "Wild"), pgettext("card face", "Draw 4")),
        AW_TARGET: (pgettext("card face", "Target"), pgettext("card face", "Draw 2")),
        AW_SWAP: (pgettext("card face", "Forced"), pgettext("card face", "Swap")),
        NM_WILD_REVERSE_FOUR: (pgettext("card face", "Rev."), pgettext("card face", "Draw 4")),
        NM_WILD_SIX: (pgettext("card face", "Wild"), pgettext("card face", "Draw 6")),
        NM_WILD_TEN: (pgettext("card face", "Wild"), pgettext("card face", "Draw 10")),
        NM_ROULETTE: (pgettext("card face", "Colour"), pgettext("card face", "Wheel")),
        FL_WILD: (pgettext("card face", "Wild"), ""),
        FL_WILD_DRAW_TWO: (pgettext("card face", "Wild"), pgettext("card face", "Draw 2")),
        FL_DARK_WILD: (pgettext("card face", "Wild"), ""),
        FL_WILD_DRAW_COLOR: (pgettext("card face", "Draw"), pgettext("card face", "Color")),
    }
    return faces[card]


def _face_color(color: int, dark: bool = False) -> str:
    """A colour on a card face: 7 columns at most ("vermelho" is 8: the Portuguese face says "verm.");
    with ``dark``, UNO Flip's dark side's."""
    if dark:
        return (
            pgettext("card face", "pink"),
            pgettext("card face", "teal"),
            pgettext("card face", "orange"),
            pgettext("card face", "purple"),
        )[color]
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
    return _face_value(CARD_VALUE[card]), _face_color(color, DARK_FACE[card])


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


def no_match(card: int, top: int, color: int, dark: bool = False) -> str:
    """A card that does not match (``dark``: the colour is UNO Flip's dark side's)."""
    return _("The {card} does not match the {top} ({color} to match).").format(
        card=card_name(card), top=card_name(top), color=color_name(color, dark)
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
    "dark_color(0)": N_("Pink"),
    "dark_color(1)": N_("Teal"),
    "dark_color(2)": N_("Orange"),
    "dark_color(3)": N_("Purple"),
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
