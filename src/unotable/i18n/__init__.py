"""The words a person reads, in English, Portuguese (Portugal's and Brazil's) or French (issues 25, 34).

Built on the standard library's :mod:`gettext` only, so that the rules core may import it: the
catalogues ``locale/{pt,pt_BR,fr}/LC_MESSAGES/unotable.po`` beside this file are compiled to ``.mo``
files that are committed with them (``make catalogs`` extracts, updates and compiles them with
Babel; ``tests/test_i18n.py`` fails when a ``.mo`` does not match its ``.po``). English is the
source language: its messages are the msgids themselves.

- ``_("…")`` translates a message now, in the language in force.
- ``ngettext("{n} card", "{n} cards", n)`` picks the plural form of the language in force
  (Portuguese: ``n != 1``; French: ``n > 1``), then ``.format(n=n)`` fills it in.
- French elides at the edges of the fields it fills in: ``"la main de {name}"`` with Ana is
  "la main d'Ana", ``"le tour de {card}"`` with "le 7 rouge" is "le tour du 7 rouge"
  (:func:`elide`, applied by the ``format`` of every French message).
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
import re
import string
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
LANGUAGES: Final = ("en", "pt", "pt_BR", "fr")
"""The languages offered, English first (the source language and the fallback): ``pt`` is
Portugal's Portuguese (and that of the other countries that follow its norm), ``pt_BR`` Brazil's."""
LANGUAGE_NAMES: Final = {
    "en": "English",
    "pt": "Português (Portugal)",
    "pt_BR": "Português (Brasil)",
    "fr": "Français",
}
"""Each language in its own words, for pickers."""
PLURALS: Final = {"en": "n!=1", "pt": "n!=1", "pt_BR": "n!=1", "fr": "n>1"}
"""Each language's plural rule as the browser's catalogue states it (two forms each)."""
DEFAULT: Final = "en"

_process_language: str = DEFAULT
_scoped_language: ContextVar[str | None] = ContextVar("unotable_language", default=None)


def normalize(tag: str | None) -> str | None:
    """The language offered for a locale name or language tag, or ``None`` if none fits.

    ``"pt-BR"``, ``"pt_BR.UTF-8"`` and ``"pt_br"`` give ``"pt_BR"``; ``"pt_PT.UTF-8"``,
    ``"pt-AO"`` and ``"pt"`` give ``"pt"`` (Portugal's norm, that of every other Portuguese
    country); ``"fr_CA"`` gives ``"fr"``; ``"C"``, ``"POSIX"``, ``""`` and languages not
    offered give ``None``.
    """
    if not tag:
        return None
    parts = tag.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")
    base = parts[0].lower()
    if base == "pt" and any(part.upper() == "BR" for part in parts[1:]):
        return "pt_BR"
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


_ELIDED: Final = ("de", "que", "le", "la", "je", "me", "te", "se", "ne", "jusque", "lorsque", "puisque")
"""French words that drop their vowel before a vowel or a mute h ("d'Ana", "qu'Éva")."""
_APOSTROPHE: Final = "\u2019"
_TAIL: Final = re.compile(
    r"(?:(?<=^)|(?<=[\s(«\"“" + _APOSTROPHE + r"'/—-]))(" + "|".join(_ELIDED) + r"|à) $", re.IGNORECASE
)
_CONTRACTED: Final = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au", ("à", "les"): "aux"}
_MUTE_H: Final = frozenset(
    {"hélène", "hugo", "henri", "hector", "hermione", "homère", "honoré", "hortense", "hubert", "hippolyte",
     "héloïse", "hervé", "huguette", "hôpital", "heure", "heures", "homme", "histoire", "hiver", "honneur"}
)  # fmt: skip
"""Words and names whose h is mute (elided before: "d'Hermione"); any other h is taken as
aspirated, as French writes "de Harry" and "de Hagrid"."""
_VOWELS: Final = frozenset("aeiouàâäéèêëîïôöùûüœæ")


def _elides_before(value: str) -> bool:
    word = re.split(r"[\s,.;:!?'" + _APOSTROPHE + r"()«»\"-]", value, maxsplit=1)[0].lower()
    if not word:
        return False
    if word[0] in _VOWELS:
        return True
    if word[0] == "y":  # Yves, Yvonne elide; Yann, Yolande do not
        return len(word) > 1 and word[1] not in _VOWELS
    return word in _MUTE_H


def elide(before: str, value: str) -> tuple[str, str]:
    """French at the edge of a field: the text ``before`` a field and the ``value`` filling it,
    elided or contracted as French writes them ("la main de " + "Ana" -> "la main d'" + "Ana";
    "le tour de " + "le 7 rouge" -> "le tour du " + "7 rouge"; "que " + "Éva" -> "qu'" + "Éva").
    Anything else is returned as it is."""
    match = _TAIL.search(before)
    if not match:
        return before, value
    word = match.group(1)
    head = before[: match.start(1)]
    article, space, rest = value.partition(" ")
    contracted = _CONTRACTED.get((word.lower(), article.lower())) if space else None
    if contracted is not None and rest:
        if word[0].isupper():
            contracted = contracted.capitalize()
        return f"{head}{contracted} ", rest
    if word.lower() != "à" and _elides_before(value):
        return f"{head}{word[:-1]}'", value
    return before, value


class _French(str):
    """A French message: its ``format`` elides at the edges of the fields (:func:`elide`)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        out: list[str] = []
        auto = 0
        for literal, name, spec, conversion in _FORMATTER.parse(self):
            out.append(literal)
            if name is None:
                continue
            field = name
            if field == "":
                field = str(auto)
                auto += 1
            obj, _used = _FORMATTER.get_field(field, args, kwargs)
            obj = _FORMATTER.convert_field(obj, conversion)
            value = _FORMATTER.format_field(obj, _FORMATTER.vformat(spec or "", args, kwargs))
            before = "".join(out)
            before, value = elide(before, value)
            out = [before, value]
        return "".join(out)

    def format_map(self, mapping: Mapping[str, object]) -> str:  # type: ignore[override]
        return self.format(**mapping)


_FORMATTER: Final = string.Formatter()


def _in_language(text: str) -> str:
    # argparse asks for the translation of None (a group without a title): it stays None.
    return _French(text) if isinstance(text, str) and language() == "fr" else text


def _(message: str) -> str:
    """``message`` (an English msgid) in the language in force."""
    return _in_language(translator(language()).gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the language in force (not yet formatted:
    call ``.format(n=n, …)`` on the result)."""
    return _in_language(translator(language()).ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, as meant in ``context`` (the same English words may
    need two translations: a colour in a sentence, and on a card face seven columns wide)."""
    return _in_language(translator(language()).pgettext(context, message))


def N_(message: str) -> str:  # noqa: N802 - the conventional name of gettext's marker
    """Mark ``message`` for extraction, unchanged: it is translated where it is shown."""
    return message


def pgettext_marker(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for extraction, unchanged (a table entry ``pgettext``
    reads later)."""
    del context
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
    "elide",
    "from_accept_language",
    "from_environment",
    "language",
    "ngettext",
    "normalize",
    "pgettext",
    "pgettext_marker",
    "plural_marker",
    "resolve_language",
    "set_language",
    "translator",
    "use_language",
]
