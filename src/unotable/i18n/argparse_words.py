"""The sentences :mod:`argparse` says to a person (usage, bad flags, help headings), marked here so
that they join the catalogues, and :func:`install`, which makes argparse say them in the language
in force. argparse looks its ``_`` and ``ngettext`` up in its own module when it speaks, so
replacing them there is enough (its msgids are Python 3.11's)."""

from __future__ import annotations

import argparse
from typing import Final

from unotable.i18n import N_, _, ngettext, plural_marker

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


def install() -> None:
    """Make argparse speak the language in force (from now on, in this process)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
