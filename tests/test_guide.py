"""The player's guide (issue 34): docs/play*.md and the page's guide.LANG.html are what
``python -m unotable.tui.guide`` writes from the catalogues now, cover every edition and house
rule, picture the cards, and speak their language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest

from unotable import house
from unotable.i18n import LANGUAGES, _, use_language
from unotable.rules import EDITIONS
from unotable.ruletext import edition_notes, edition_title
from unotable.tui import guide

DOCS: Final = Path(__file__).resolve().parent.parent / "docs"

ENGLISH: Final = re.compile(
    r"\b(the|and|with|your|you|played|draws?|hand|cards?|Skip|Reverse|Draw|Wild|player|turn|colour|"
    r"House|rules|Values|play)\b"
)
"""English words that must not be in the Portuguese or French guide (outside `code`)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_written_guides_are_current(lang: str) -> None:
    """Edit the catalogues or the rules, then run ``python -m unotable.tui.guide``."""
    built = guide.build(lang, guide.read_figures(DOCS))
    assert (DOCS / guide.doc_name(lang)).read_text(encoding="utf-8") == built.markdown
    assert (guide.STATIC / guide.page_name(lang)).read_text(encoding="utf-8") == built.html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_edition_and_house_rule_with_pictures(lang: str) -> None:
    text = (DOCS / guide.doc_name(lang)).read_text(encoding="utf-8")
    for name in EDITIONS:
        assert f"({name})" in text
        assert (DOCS / "figures" / guide.figure_name(name)).exists()
        assert f"figures/{guide.figure_name(name)}" in text
    for rule in house.HOUSE_RULES:
        assert f"(`{rule.name}`)" in text
    for preset in house.PRESETS:
        assert f"**{preset}**" in text
    page = (guide.STATIC / guide.page_name(lang)).read_text(encoding="utf-8")
    assert page.count("<figure") == len(EDITIONS) and page.count("<svg") > 10
    assert f'<html lang="{lang.replace("_", "-")}">' in page


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_guide_speaks_its_language(lang: str) -> None:
    text = (DOCS / guide.doc_name(lang)).read_text(encoding="utf-8")
    text = re.sub(r"`[^`]*`|\([a-z0-9-]+\)|\*\*[a-z]+\*\*|!\[[^\]]*\]\([^)]*\)|--house [a-z_,]+", "", text)
    english = [line for line in text.splitlines() if ENGLISH.search(line)]
    assert english == [], english[:3]


def test_the_cards_are_the_pages_own_art() -> None:
    """The pictures are cards.js's faces (its frame and field colours), side by side."""
    picture = (DOCS / "figures" / guide.figure_name("classic")).read_text(encoding="utf-8")
    assert picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert picture.count('viewBox="0 0 100 150"') == len(guide.CARDS["classic"])
    for colour in ("#d72600", "#f8d626", "#379711", "#0956bf"):
        assert colour in picture


@pytest.mark.parametrize("lang", LANGUAGES)
def test_uno_flip_s_page_in_every_language(lang: str) -> None:
    """UNO Flip's section (issue 36): its cards' picture (both sides), its notes, how a Flip goes
    and what a player sees of the others, in the guide's language."""
    with use_language(lang):
        title = f"### {edition_title('flip')} (flip)"
        paragraphs = [*edition_notes("flip"), *(_(text) for text in guide._FLIP_NOTES)]
    text = (DOCS / guide.doc_name(lang)).read_text(encoding="utf-8")
    section = text.split(title, 1)[1].split("\n## ", 1)[0]
    assert f"figures/{guide.figure_name('flip')}" in section
    assert all(p in section for p in paragraphs) and len(paragraphs) == 7
    if lang != "en":
        assert not any(p in section for p in guide._FLIP_NOTES), "the notes are translated"
    picture = (DOCS / "figures" / guide.figure_name("flip")).read_text(encoding="utf-8")
    assert picture.count('viewBox="0 0 100 150"') == len(guide.CARDS["flip"])
