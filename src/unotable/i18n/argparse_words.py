"""The sentences :mod:`argparse` says to a person (usage, bad flags, help headings), marked here so
that they join the catalogues, and :func:`install`, which makes argparse say them in the language
in force. argparse looks its ``_`` and ``ngettext`` up in its own module when it speaks, so
replacing them there is enough (its msgids are Python 3.11's).

The names of the options' values in the help (``--save FILE``, ``--idle-days D``) are words too:
:data:`METAVARS` lists every one the commands use (context ``metavar``), and :func:`install`
makes the help formatter show them translated (``--save FICHIER``), as the help sentences name
them."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Final

from unotable.i18n import N_, _, ngettext, pgettext, pgettext_marker, plural_marker

MESSAGES: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unexpected option string: %s"),
)
"""argparse's messages that reach a person."""
PLURALS: Final = (plural_marker("expected %s argument", "expected %s arguments"),)

METAVARS: Final = frozenset(
    (
        pgettext_marker("metavar", "ADDRESS"),
        pgettext_marker("metavar", "BOTS"),
        pgettext_marker("metavar", "COMMAND"),
        pgettext_marker("metavar", "CONNECTIONS_PER_ADDRESS"),
        pgettext_marker("metavar", "D"),
        pgettext_marker("metavar", "DELAY"),
        pgettext_marker("metavar", "DIR"),
        pgettext_marker("metavar", "EDITION"),
        pgettext_marker("metavar", "FILE"),
        pgettext_marker("metavar", "FILE.png"),
        pgettext_marker("metavar", "FORGET_RATE"),
        pgettext_marker("metavar", "GAMES"),
        pgettext_marker("metavar", "H"),
        pgettext_marker("metavar", "HANDS"),
        pgettext_marker("metavar", "HOST"),
        pgettext_marker("metavar", "IPS"),
        pgettext_marker("metavar", "KEY=VALUE"),
        pgettext_marker("metavar", "LANG"),
        pgettext_marker("metavar", "M"),
        pgettext_marker("metavar", "MAX_CONNECTIONS"),
        pgettext_marker("metavar", "N"),
        pgettext_marker("metavar", "NAME"),
        pgettext_marker("metavar", "PLAYERS"),
        pgettext_marker("metavar", "PORT"),
        pgettext_marker("metavar", "RATE"),
        pgettext_marker("metavar", "ROUNDS"),
        pgettext_marker("metavar", "RULES"),
        pgettext_marker("metavar", "S"),
        pgettext_marker("metavar", "SEED"),
        pgettext_marker("metavar", "TARGET"),
        pgettext_marker("metavar", "URL"),
        pgettext_marker("metavar", "WORKERS"),
        pgettext_marker("metavar", "action"),
        pgettext_marker("metavar", "files"),
    )
)
"""The names of the options' values, as the commands' parsers spell them (given, or argparse's
default: the option's name in capitals). A name not listed is shown as it is."""


def metavar_word(name: str) -> str:
    """The name of an option's value in the language in force (``FILE``: ``FICHIER``)."""
    return pgettext("metavar", name) if name in METAVARS else name


_ORIGINAL_METAVAR_FORMATTER: Final = argparse.HelpFormatter._metavar_formatter


def _metavar_formatter(
    self: argparse.HelpFormatter, action: argparse.Action, default_metavar: str
) -> Callable[[int], tuple[str, ...]]:
    if isinstance(action.metavar, str):
        name = metavar_word(action.metavar)
    elif action.metavar is None and action.choices is None:
        name = metavar_word(default_metavar)
    else:
        return _ORIGINAL_METAVAR_FORMATTER(self, action, default_metavar)

    def formatted(size: int) -> tuple[str, ...]:
        return (name,) * size

    return formatted


def install() -> None:
    """Make argparse speak the language in force (from now on, in this process)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    argparse.HelpFormatter._metavar_formatter = _metavar_formatter  # type: ignore[method-assign]
