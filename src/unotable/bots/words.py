"""The bots for people, in the language in force (:mod:`unotable.i18n`): each bot's name and a
line on how it plays. The names people read are msgids equal to the bots' codes (``"greedy"``),
so that the web page's ``t(code)`` finds them too; the codes themselves (``--bots greedy``) never
change."""

from __future__ import annotations

from typing import Final

from unotable.i18n import N_, _

BOT_TITLES: Final = {
    "random": N_("random"),
    "greedy": N_("greedy"),
    "aggressive": N_("aggressive"),
    "cautious": N_("cautious"),
    "search": N_("search"),
    "expert": N_("expert"),
    "learned": N_("learned"),
}
"""Each bot's name for people (a msgid equal to its code)."""

BOT_DESCRIPTIONS: Final = {
    "random": N_("plays any legal action, at random"),
    "greedy": N_("plays as a sensible person would: follows its main colour, keeps wild cards for last"),
    "aggressive": N_("greedy, but hits the next player with action cards more, bluffs and challenges more"),
    "cautious": N_("greedy, but keeps its action cards, never bluffs and challenges less"),
    "search": N_("thinks ahead: plays out many guesses of the hidden hands before each decision"),
    "expert": N_(
        "search with ten to twenty times the guesses, played out by the native core when it is built"
    ),
    "learned": N_("plays what a neural network trained on many games advises"),
}
"""How each bot plays, in a line."""


def bot_title(label: str) -> str:
    """A bot's name for people: a bot's code translated, its options (``search:budget=100``) as
    they are."""
    name, sep, options = label.partition(":")
    if name not in BOT_TITLES:
        return label
    return _(BOT_TITLES[name]) + sep + options


def bot_description(name: str) -> str:
    """How the bot called ``name`` plays ("" for a name it does not know)."""
    return _(BOT_DESCRIPTIONS[name]) if name in BOT_DESCRIPTIONS else ""
