"""The words a person reads, in English, Portuguese or French (issue 25).

Built on the standard library's :mod:`gettext` only, so that the rules core may import it: the
catalogues ``locale/{pt,fr}/LC_MESSAGES/unotable.po`` beside this file are compiled to ``.mo``
files that are committed with them (``make catalogs`` extracts, updates and compiles them with
Babel; ``tests/test_i18n.py`` fails when a ``.mo`` does not match its ``.po``). English is the
source language: its messages are the msgids themselves.

- ``_("…")`` translates a message now, in the language in force.
- ``ngettext("{n} card", "{n} cards", n)`` picks the plural form of the language in force
  (Portuguese: ``n != 1``; French: ``n > 1``), then ``.format(n=n)`` fills it in.
- ``N_("…")`` only marks a message for extraction (a table of English msgids translated later,
  when it is shown: ``_(TABLE[key])``).
- ``set_language(lang)`` sets the language of the process (the terminal, the commands);
  ``use_language(lang)`` sets it for one block of code in one thread or task (the web server's
  replies in a connection's language); ``translator(lang)`` gives a language's
  :class:`gettext.NullTranslations` without changing anything.

The language comes from ``--lang``, else from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (the first
one set, as POSIX orders them), else English: :func:`resolve_language`.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

DOMAIN: Final = "unotable"
"""The gettext domain: the catalogues are ``locale/LANG/LC_MESSAGES/unotable.mo``."""
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
"""Where the catalogues live, inside the package (so an installed package has them)."""
WEB_MESSAGES: Final = LOCALE_DIR / "web.json"
"""The msgids the browser needs (``GET /api/words/{lang}``), listed by ``make catalogs``."""
LANGUAGES: Final = ("en", "pt", "fr")
"""The languages offered, English first (the source language and the fallback)."""
LANGUAGE_NAMES: Final = {"en": "English", "pt": "Português", "fr": "Français"}
"""Each language in its own words, for pickers."""
PLURALS: Final = {"en": "n!=1", "pt": "n!=1", "fr": "n>1"}
"""Each language's plural rule as the browser's catalogue states it (two forms each)."""
DEFAULT: Final = "en"

_process_language: str = DEFAULT
_scoped_language: ContextVar[str | None] = ContextVar("unotable_language", default=None)


def normalize(tag: str | None) -> str | None:
    """The language offered for a locale name or language tag, or ``None`` if none fits.

    ``"pt_PT.UTF-8"``, ``"pt-BR"`` and ``"pt"`` give ``"pt"``; ``"fr_CA"`` gives ``"fr"``;
    ``"C"``, ``"POSIX"``, ``""`` and languages not offered give ``None``.
    """
    if not tag:
        return None
    base = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the locale variables: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    that is set decides (as POSIX orders them); English if it names no language offered."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return normalize(value) or DEFAULT
    return DEFAULT


def from_accept_language(header: str | None) -> str:
    """The language a browser asks for in an ``Accept-Language`` header (``"pt-PT,pt;q=0.9,en;q=0.8"``):
    the offered language with the highest weight, English when none is offered."""
    best: tuple[float, int, str] | None = None
    for index, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, eq, value = param.strip().partition("=")
            if eq and key.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        lang = normalize(tag)
        if lang is not None and weight > 0 and (best is None or (weight, -index) > (best[0], best[1])):
            best = (weight, -index, lang)
    return best[2] if best else DEFAULT


def resolve_language(flag: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to use: ``flag`` (``--lang``) if given, else the environment's.

    :raises ValueError: if ``flag`` names no language offered.
    """
    if flag:
        lang = normalize(flag)
        if lang is None:
            raise ValueError(flag)
        return lang
    return from_environment(environ)


@cache
def translator(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (English, or a language without a catalogue: the msgids)."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def set_language(lang: str | None) -> str:
    """Set the language of the whole process (every thread); ``None``: the environment's.
    Returns the language now in force.

    :raises ValueError: if ``lang`` names no language offered.
    """
    global _process_language
    _process_language = resolve_language(lang)
    return _process_language


def language() -> str:
    """The language in force here (a :func:`use_language` block's, else the process's)."""
    return _scoped_language.get() or _process_language


@contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Within the block (this thread or task only), translate into ``lang`` (normalized;
    English if not offered)."""
    token = _scoped_language.set(normalize(lang) or DEFAULT)
    try:
        yield language()
    finally:
        _scoped_language.reset(token)


def _(message: str) -> str:
    """``message`` (an English msgid) in the language in force."""
    return translator(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the language in force (not yet formatted:
    call ``.format(n=n, …)`` on the result)."""
    return translator(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, as meant in ``context`` (the same English words may
    need two translations: a colour in a sentence, and on a card face seven columns wide)."""
    return translator(language()).pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 - the conventional name of gettext's marker
    """Mark ``message`` for extraction, unchanged: it is translated where it is shown."""
    return message


def plural_marker(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural message for extraction, unchanged (a table entry ``ngettext`` reads later)."""
    return singular, plural


__all__ = [
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "PLURALS",
    "WEB_MESSAGES",
    "_",
    "from_accept_language",
    "from_environment",
    "language",
    "ngettext",
    "normalize",
    "pgettext",
    "plural_marker",
    "resolve_language",
    "set_language",
    "translator",
    "use_language",
]
