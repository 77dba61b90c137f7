"""The player's guide (issue 34): how to play each edition and each house rule, for a person at the
table, in every language, from the same catalogues as the terminal's help and the page.

    python -m unotable.tui.guide            # docs/play.md, play.pt.md, play.pt_BR.md, play.fr.md and
                                            # web/static/guide.{lang}.html (the page's help links to it)
    python -m unotable.tui.guide --figures  # also docs/figures/cards-*.svg, the page's own card art
                                            # (js/cards.js run in chromium by Playwright: the dev extra)

Each paragraph is a catalogue message: the rules are :func:`unotable.ruletext.rules_paragraphs`
(what the terminal's help says), the editions' cards :func:`unotable.ruletext.edition_notes`, the
house rules their records' label, help and notes (:mod:`unotable.house`). ``tests/test_guide.py``
fails when a written guide is not what this module writes now.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from unotable import house
from unotable.i18n import LANGUAGES, N_, _, use_language
from unotable.rules import EDITIONS, Rules
from unotable.tui import words

PACKAGE: Final = Path(__file__).resolve().parent.parent
STATIC: Final = PACKAGE / "web" / "static"
FIGURES: Final = "figures"

CARDS: Final[dict[str, tuple[str, ...]]] = {
    "classic": ("R7", "Y9", "GS", "BR", "Y+2", "W", "W+4"),
    "harry-potter": ("R+3", "HOWLER", "INVIS"),
    "cars2": ("MATER",),
    "modern": ("SHUFFLE", "CUSTOM"),
    "all-wild": ("AW", "AWSKIP2", "AWT+2", "AWSWAP"),
    "no-mercy": ("RSE", "GDA", "B+4", "WR+4", "W+6", "W+10", "WCR"),
    "flip": ("Y+1", "GF", "LW", "LW+2", "P7", "T+5", "OSE", "VR", "PF", "DW", "DW+C"),
}
"""The cards each edition's picture shows (the notation's codes): the classic deck's kinds, then
what each other edition adds."""

_TITLE: Final = N_("How to play: the player's guide")
_INTRO: Final = N_(
    "unotable plays UNO with the exact rules of the box: the classic deck, Harry Potter, Cars 2, "
    "the 2018 deck, All Wild, Show 'Em No Mercy and UNO Flip. This guide is for the people at the table: "
    "what each card does, how a turn goes, what each edition adds and what each house rule "
    "changes. The terminal's help (? or F1) and the page's keys (?) say the same in fewer words."
)
_CARDS_TITLE: Final = N_("The cards and a turn")
_EDITIONS_TITLE: Final = N_("The editions")
_HOUSE_TITLE: Final = N_("House rules")
_HOUSE_INTRO: Final = N_(
    "Before a game the host may choose house rules: on the page, under House rules when making a "
    "room; in the terminal, with --house (a preset or rule names, e.g. --house popular,jump_in). "
    "Without them, the game follows the book."
)
_PRESETS_TITLE: Final = N_("Presets")
_VALUES: Final = N_("Values: {values}.")
_PICTURE: Final = N_("The cards of {edition}")
_FLIP_NOTES: Final = (
    N_(
        "How a Flip works: everything turns over at once. Your hand turns round, so you now hold the "
        "faces the others saw; the draw pile is turned over as a pile, and each card of the discard "
        "pile in its place, so the Flip's other face becomes the card to match, without its effect (if "
        "it is a wild card, the Flip's player names the colour). A Flip turned as the first card starts "
        "the hand on the dark side."
    ),
    N_(
        "What you see of the others: the faces of their cards turned towards you (on the light side, "
        "their dark faces) and the other face of the draw pile's top card; never the other side of "
        "your own cards. The hand is scored by the faces of the side in play when it ends."
    ),
    N_(
        "In the terminal the title says which side is up; each opponent's panel shows the faces turned "
        "to you by colour (pink 5 7 SE: the numbers, +1 and +5, S Skip, SE Skip Everyone, R Reverse, F "
        "Flip, W Wild, W+2 Wild Draw Two, W+C Wild Draw Color), and the draw pile its top card's other "
        "face. On the dark side the keys P, T, O and V call pink, teal, orange and purple. On the page "
        "the others' cards face you, and the felt darkens on the dark side."
    ),
)
"""UNO Flip's page in the guide, after its edition notes: how a Flip goes and what a player sees
(docs/rules.md §15, FL-2 to FL-5, FL-8)."""


@dataclass(frozen=True)
class Guide:
    """One language's guide: its Markdown (for docs/) and its HTML page (for the page's help)."""

    lang: str
    markdown: str
    html: str


def doc_name(lang: str) -> str:
    """The guide's file in docs/: ``play.md`` in English, ``play.LANG.md`` otherwise."""
    return "play.md" if lang == "en" else f"play.{lang}.md"


def page_name(lang: str) -> str:
    """The guide's page among the page's static files."""
    return f"guide.{lang}.html"


def figure_name(edition: str) -> str:
    """The picture of an edition's cards in docs/figures."""
    return f"cards-{edition}.svg"


def _sections() -> list[tuple[int, str, list[str], str | None]]:
    """(level, title, paragraphs, picture) in the language in force."""
    out: list[tuple[int, str, list[str], str | None]] = [(1, _(_TITLE), [_(_INTRO)], None)]
    classic = Rules(edition=EDITIONS["classic"])
    turn = words.rules_paragraphs(classic)[len(words.edition_notes("classic")) :]
    out.append((2, _(_CARDS_TITLE), turn, "classic"))
    out.append((2, _(_EDITIONS_TITLE), [], None))
    for name in EDITIONS:
        picture = None if name == "classic" else name  # shown with the cards above
        notes = words.edition_notes(name) + ([_(text) for text in _FLIP_NOTES] if name == "flip" else [])
        out.append((3, f"{words.edition_title(name)} ({name})", notes, picture))
    out.append((2, _(_HOUSE_TITLE), [_(_HOUSE_INTRO)], None))
    presets = [f"**{name}**: {_(label)}" for name, label in house.PRESET_LABELS.items()]
    out.append((3, _(_PRESETS_TITLE), presets, None))
    for rule in house.HOUSE_RULES:
        paragraphs = [_(rule.help)]
        if rule.value_labels:
            paragraphs.append(_(_VALUES).format(values="; ".join(_(v) for v in rule.value_labels)))
        seen: set[str] = set()
        for note in rule.notes.values():
            if note not in seen:
                seen.add(note)
                paragraphs.append(_(note))
        out.append((3, f"{_(rule.label)} (`{rule.name}`)", paragraphs, None))
    return out


def _markdown(
    sections: Sequence[tuple[int, str, list[str], str | None]], edition_titles: dict[str, str]
) -> str:
    lines: list[str] = []
    for level, title, paragraphs, picture in sections:
        lines += ["#" * level + " " + title, ""]
        if picture is not None:
            alt = _(_PICTURE).format(edition=edition_titles[picture])
            lines += [f"![{alt}]({FIGURES}/{figure_name(picture)})", ""]
        for text in paragraphs:
            lines += [text, ""]
    return "\n".join(lines).rstrip() + "\n"


def _inline(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)


def _html(
    lang: str,
    sections: Sequence[tuple[int, str, list[str], str | None]],
    edition_titles: dict[str, str],
    figures: dict[str, str],
) -> str:
    body: list[str] = []
    for level, title, paragraphs, picture in sections:
        body.append(f"<h{level}>{_inline(title)}</h{level}>")
        if picture is not None and picture in figures:
            alt = html.escape(_(_PICTURE).format(edition=edition_titles[picture]))
            body.append(f'<figure role="img" aria-label="{alt}">{figures[picture]}</figure>')
        body += [f"<p>{_inline(text)}</p>" for text in paragraphs]
    tag = lang.replace("_", "-")
    title = html.escape(_(_TITLE))
    return (
        f'<!doctype html>\n<html lang="{tag}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="dark">\n'
        f"<title>{title}</title>\n"
        '<link rel="stylesheet" href="/static/style.css">\n'
        '</head>\n<body>\n<main class="guide">\n' + "\n".join(body) + "\n</main>\n</body>\n</html>\n"
    )


def build(lang: str, figures: dict[str, str] | None = None) -> Guide:
    """The guide in ``lang``; ``figures`` (edition -> SVG markup) go into the HTML page."""
    with use_language(lang):
        sections = _sections()
        titles = {name: words.edition_title(name) for name in EDITIONS}
        return Guide(lang, _markdown(sections, titles), _html(lang, sections, titles, figures or {}))


def read_figures(docs: Path) -> dict[str, str]:
    """The pictures of the cards already in docs/figures (edition -> SVG markup)."""
    out: dict[str, str] = {}
    for name in EDITIONS:
        path = docs / FIGURES / figure_name(name)
        if path.exists():
            out[name] = path.read_text(encoding="utf-8").strip()
    return out


def draw_figures(docs: Path) -> None:
    """Draw each edition's cards with the page's own art (``cards.js`` run in chromium) into
    docs/figures/cards-EDITION.svg: one picture, the cards side by side."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - the dev extra, only here

    # js/cards.js is an ES module with no imports: its exports, as a classic script's globals.
    module = (STATIC / "js" / "cards.js").read_text(encoding="utf-8")
    script = re.sub(r"^export ", "", module, flags=re.M)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            page = browser.new_page()
            page.set_content(f"<!doctype html><script>{script}</script>")
            for edition, codes in CARDS.items():
                faces: list[str] = page.evaluate(
                    "(codes) => codes.map((c) => Cards.face(c, {}))", list(codes)
                )
                parts = []
                for i, face in enumerate(faces):
                    inner = re.sub(r"^<svg[^>]*>|</svg>$", "", face)
                    place = f'x="{i * 110}" y="0" width="100" height="150" viewBox="0 0 100 150"'
                    parts.append(f"<svg {place}>{inner}</svg>")
                width = len(faces) * 110 - 10
                picture = (
                    f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} 150" width="{width}" '
                    f'height="150">' + "".join(parts) + "</svg>\n"
                )
                (docs / FIGURES / figure_name(edition)).write_text(picture, encoding="utf-8")
        finally:
            browser.close()


def write(docs: Path) -> list[Path]:
    """Write every language's guide (docs/ and the page's static files); returns the files."""
    figures = read_figures(docs)
    written: list[Path] = []
    for lang in LANGUAGES:
        guide = build(lang, figures)
        for path, text in ((docs / doc_name(lang), guide.markdown), (STATIC / page_name(lang), guide.html)):
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    args = list(sys.argv[1:] if argv is None else argv)
    docs = PACKAGE.parent.parent / "docs"
    if "--figures" in args:
        draw_figures(docs)
    for path in write(docs):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
