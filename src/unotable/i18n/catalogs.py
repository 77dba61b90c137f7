"""The catalogues' commands, with Babel (the ``dev`` extra): extract, update, compile, check.

    python -m unotable.i18n.catalogs extract   # locale/unotable.pot and locale/web.json from the sources
    python -m unotable.i18n.catalogs update    # merge the .pot into each language's .po
    python -m unotable.i18n.catalogs compile   # each .po -> its .mo (committed beside it)
    python -m unotable.i18n.catalogs all       # the three, in order (``make catalogs``)
    python -m unotable.i18n.catalogs check     # exit 1, saying why, if a catalogue is not complete

Python sources are read with Babel's Python extractor and the keywords ``_``, ``N_``,
``ngettext``, ``pgettext``, ``pgettext_marker`` and ``plural_marker``; the page's
``web/static/*.js`` with its JavaScript extractor and the keywords ``t`` and ``tn`` (docs/i18n.md,
"The page's words"). ``locale/web.json`` lists the msgids the browser needs (``GET
/api/words/{lang}``): those of the page and those of the Python modules whose words reach the
page (:data:`WEB_SOURCES`).

This module is for developers and the tests; nothing at run time imports it.
"""

from __future__ import annotations

import io
import json
import re
import string
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from unotable.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, WEB_MESSAGES

PACKAGE: Final = Path(__file__).resolve().parent.parent
"""The ``unotable`` package: every source is named relative to its parent (``unotable/cli.py``)."""
TEMPLATE: Final = LOCALE_DIR / f"{DOMAIN}.pot"
WEB_LIST: Final = WEB_MESSAGES
TRANSLATED: Final = tuple(lang for lang in LANGUAGES if lang != "en")

PY_KEYWORDS: Final = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "plural_marker": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_marker": ((1, "c"), 2),
}
JS_KEYWORDS: Final = {"t": None, "tn": (1, 2)}
COMMENT_TAGS: Final = ("i18n:",)
"""A comment ``# i18n: …`` (``// i18n: …``) just above a message reaches the translators."""

WEB_SOURCES: Final = ("unotable/web/", "unotable/bots/", "unotable/house.py", "unotable/rules.py",
                      "unotable/names.py", "unotable/ruletext.py")  # fmt: skip
"""Python sources whose marked words the browser shows too (server errors, house rules, bots,
card names, the editions' notes in the form): their msgids join the page's in ``web.json``."""

HEADER: Final = {
    "copyright_holder": "the unotable authors",
    "msgid_bugs_address": "issues of the unotable repository",
    "last_translator": "the unotable developers (docs/i18n.md)",
}
"""The catalogues' header (Babel's placeholders otherwise: FIRST AUTHOR, EMAIL@ADDRESS)."""
LANGUAGE_TEAMS: Final = {
    "pt": "Português (Portugal)",
    "pt_BR": "Português (Brasil)",
    "fr": "Français (Canada, as the Cars 2 book)",
}

NOT_WEB: Final = ("unotable/web/serve.py",)
"""Sources under those whose words are the command's, not the page's."""

PLURAL_FORMS: Final = {
    "pt": "nplurals=2; plural=(n != 1);",
    "pt_BR": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}
"""Portuguese: one form for 1 and another for 0 and 2+; French: one for 0 and 1, another for 2+."""

MsgId = str | tuple[str, str]


Keywords = dict[str, Any]


def _sources() -> list[tuple[str, Path, Keywords]]:
    found: list[tuple[str, Path, Keywords]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "native" not in path.parts and path.name != "catalogs.py":
            found.append(("python", path, dict(PY_KEYWORDS)))
    for path in sorted((PACKAGE / "web" / "static").rglob("*.js")):
        found.append(("javascript", path, dict(JS_KEYWORDS)))
    return found


def _location(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def extract() -> Catalog:
    """The template: every marked message of the sources now, with where it is."""
    catalog = Catalog(project="unotable", version="0.1", charset="utf-8", fuzzy=False, **HEADER)
    catalog.header_comment = "# The words of unotable, in English (the msgids): make catalogs extracts them."
    for method, path, keywords in _sources():
        found = extract_from_file(method, str(path), keywords=keywords, comment_tags=COMMENT_TAGS,
                                  options={"encoding": "utf-8"}, strip_comment_tags=True)  # fmt: skip
        for lineno, message, comments, context in found:
            catalog.add(message, None, [(_location(path), lineno)], auto_comments=comments, context=context)
    return catalog


def key(message: Message) -> MsgId:
    """A message's identity: its msgid (after its context and ``\x04``, if it has one), or
    (singular, plural)."""
    mid = message.id
    if isinstance(mid, (list, tuple)):
        return str(mid[0]), str(mid[1])
    return f"{message.context}\x04{mid}" if message.context else str(mid)


def messages(catalog: Catalog) -> dict[MsgId, Message]:
    """The messages of ``catalog`` by identity, the header left out."""
    return {key(m): m for m in catalog if m.id}


def web_ids(catalog: Catalog) -> list[MsgId]:
    """The msgids the browser needs, in the catalogue's order."""
    return [
        key(m)
        for m in catalog
        if m.id
        and any(
            loc.endswith(".js") or (loc.startswith(WEB_SOURCES) and loc not in NOT_WEB)
            for loc, _line in m.locations
        )
    ]


def _write_po(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, ignore_obsolete=True, include_lineno=False, include_previous=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def read(path: Path, locale: str | None = None) -> Catalog:
    """A ``.po`` or ``.pot`` file."""
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=DOMAIN)


def po_path(lang: str) -> Path:
    """Where the catalogue of ``lang`` lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def command_extract() -> Catalog:
    """Write the template and the browser's list (the template only if its messages changed,
    so that its date moves only then)."""
    template = extract()
    old = read(TEMPLATE) if TEMPLATE.exists() else None
    if old is None or _listing(old) != _listing(template):
        _write_po(TEMPLATE, template)
    WEB_LIST.write_text(json.dumps(web_ids(template), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return template


def _listing(catalog: Catalog) -> list[tuple[MsgId, list[str], list[str]]]:
    return [(key(m), sorted({loc for loc, _ in m.locations}), list(m.auto_comments)) for m in catalog if m.id]


def command_update(template: Catalog | None = None) -> None:
    """Merge the template into each language's catalogue: new messages come in empty (or fuzzy,
    from a near one), messages no longer in the sources go."""
    template = template or read(TEMPLATE)
    for lang in TRANSLATED:
        path = po_path(lang)
        if path.exists():
            catalog = read(path, lang)
        else:
            catalog = Catalog(
                locale=lang, project="unotable", version="0.1", charset="utf-8", fuzzy=False, **HEADER
            )
        _two_plural_forms(catalog, lang)
        catalog.last_translator = HEADER["last_translator"]
        catalog.msgid_bugs_address = HEADER["msgid_bugs_address"]
        catalog.copyright_holder = HEADER["copyright_holder"]
        catalog.header_comment = (
            f"# {LANGUAGE_TEAMS[lang]} words of unotable: the terms are docs/i18n.md's.\n"
            "# Distributed under the same license as unotable (MIT)."
        )
        catalog.language_team = f"{LANGUAGE_TEAMS[lang]} <{HEADER['msgid_bugs_address']}>"
        catalog.update(template)
        _write_po(path, catalog)


def _two_plural_forms(catalog: Catalog, lang: str) -> None:
    """Our plural rule: two forms (Babel's, from CLDR, has a third for millions, which gettext's
    catalogues of Portuguese and French have never used)."""
    headers = [(name, value) for name, value in catalog.mime_headers if name.lower() != "plural-forms"]
    catalog.mime_headers = [*headers, ("Plural-Forms", PLURAL_FORMS[lang])]


def command_compile() -> None:
    """Compile each catalogue to its ``.mo`` (fuzzy and empty translations left out)."""
    for lang in TRANSLATED:
        catalog = read(po_path(lang), lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        po_path(lang).with_suffix(".mo").write_bytes(buffer.getvalue())


_PERCENT: Final = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrfixXeEgGc]")


def placeholders(text: str) -> list[str]:
    """The fields a message is filled with: ``{name}`` fields (with their conversion and format)
    and ``%(name)s`` / ``%s`` ones (argparse's messages), sorted; ``{`` with no field is an error.
    A translation may use a field more than once (or in another order), never another field."""
    found: list[str] = []
    try:
        for _literal, field, spec, conversion in string.Formatter().parse(text):
            if field is not None:
                found.append(
                    "{"
                    + field
                    + ("!" + conversion if conversion else "")
                    + (":" + spec if spec else "")
                    + "}"
                )
    except ValueError:
        found.append("<unbalanced braces>")
    found += _PERCENT.findall(text.replace("%%", ""))
    return sorted(found)


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """What is wrong with the catalogue of ``lang``: messages missing, untranslated, fuzzy or
    stale, translations whose fields differ from the original's, a wrong plural rule, a ``.mo``
    that is not the ``.po`` compiled."""
    template = template or extract()
    catalog = read(po_path(lang), lang)
    want, have = messages(template), messages(catalog)
    out = [f"{lang}: missing {mid!r}" for mid in want if mid not in have]
    out += [f"{lang}: stale {mid!r} (no longer in the sources)" for mid in have if mid not in want]
    if catalog.plural_forms != PLURAL_FORMS[lang]:
        out.append(f"{lang}: plural rule {catalog.plural_forms!r}, not {PLURAL_FORMS[lang]!r}")
    for mid, message in have.items():
        if mid not in want:
            continue
        raw = message.string
        strings = [str(s or "") for s in raw] if isinstance(raw, (list, tuple)) else [str(raw or "")]
        if message.fuzzy or not all(strings):
            out.append(f"{lang}: {'fuzzy' if message.fuzzy else 'untranslated'} {mid!r}")
            continue
        out += [f"{lang}: {mid!r} -> {s!r}: {error}" for s in strings if (error := _fields_differ(mid, s))]
    out += _mo_problems(lang, catalog)
    return out


def _fields_differ(mid: MsgId, translation: str) -> str | None:
    if isinstance(mid, str):
        want = sorted(set(placeholders(mid)))
        got = sorted(set(placeholders(translation)))
        return None if got == want else f"fields {got} instead of {want}"
    allowed = set(placeholders(mid[0])) | set(placeholders(mid[1]))
    got_set = set(placeholders(translation))
    if not got_set <= allowed:
        return f"fields {sorted(got_set - allowed)} not in the original"
    # The singular's fields other than the count must all be there (a form may spell the count out).
    needed = set(placeholders(mid[0])) - {"{n}", "{count}"}
    if not needed <= got_set:
        return f"fields {sorted(needed - got_set)} left out"
    return None


def _mo_problems(lang: str, catalog: Catalog) -> list[str]:
    mo = po_path(lang).with_suffix(".mo")
    if not mo.exists():
        return [f"{lang}: {mo.name} missing: run make catalogs"]
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    if buffer.getvalue() != mo.read_bytes():
        return [f"{lang}: {mo.name} is not its .po compiled: run make catalogs"]
    return []


def web_problems(template: Catalog | None = None) -> list[str]:
    """Whether ``locale/web.json`` lists the browser's msgids of the sources now."""
    template = template or extract()
    want = [list(m) if isinstance(m, tuple) else m for m in web_ids(template)]
    have = json.loads(WEB_LIST.read_text(encoding="utf-8")) if WEB_LIST.exists() else None
    return [] if have == want else ["locale/web.json is not the browser's msgids now: run make catalogs"]


def check(langs: Iterable[str] = TRANSLATED) -> list[str]:
    """Every problem of every catalogue."""
    template = extract()
    out = web_problems(template)
    for lang in langs:
        out += problems(lang, template)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "all"
    if command in ("extract", "all"):
        template = command_extract()
        print(f"{TEMPLATE.relative_to(PACKAGE.parent)}: {len(messages(template))} messages")
    if command in ("update", "all"):
        command_update()
    if command in ("compile", "all"):
        command_compile()
    if command == "check":
        found = check()
        for line in found:
            print(line)
        return 1 if found else 0
    if command not in ("extract", "update", "compile", "all", "check"):
        print(f"unknown command {command!r}: extract, update, compile, all or check", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
