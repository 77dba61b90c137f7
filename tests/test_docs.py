"""The repository stands alone (issue 22 item 8): its rules reference and its notation are its own
documents, they say everything the code relies on, and nothing points outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from unotable import house, scenario
from unotable.cards import CARD_CODE
from unotable.errors import ERROR_CODES
from unotable.notation import Kind
from unotable.rules import HOUSE_PRESETS, MODES, SCORING_MODES
from unotable.state import PHASE_NAMES

ROOT = Path(__file__).resolve().parents[1]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
NOTATION = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
SECTIONS = (
    "Editions",
    "Setup",
    "A turn",
    "Wild Draw Four challenge",
    "Invisibility (Harry Potter)",
    "Two players",
    "Calling UNO",
    "Penalties",
    "End of a hand, scoring, winning",
    "Partners, teams and tournaments",
    "House rules beyond the books",
    "The modern deck (`modern`)",
    "UNO All Wild (`all-wild`)",
    "UNO Show 'Em No Mercy (`no-mercy`)",
    "UNO Flip (`flip`)",
)


def section(text: str, number: int) -> str:
    """Section ``number`` of docs/rules.md, up to the next heading of its level."""
    start = text.index(f"\n## {number}. ")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else None]


def test_rules_has_every_section_the_code_cites_in_order() -> None:
    headings = re.findall(r"^## (\d+)\. (.+)$", RULES, flags=re.MULTILINE)
    assert headings == [(str(i), name) for i, name in enumerate(SECTIONS, 1)]


@pytest.mark.parametrize("number", range(1, 14))
def test_rules_states_every_ruling(number: int) -> None:
    """Each ruling R-n is stated in its section (in bold) and listed at the end."""
    assert RULES.count(f"**R-{number}.**") + RULES.count(f"(R-{number})") >= 1
    assert re.search(rf"^\| R-{number} \| §\d+ \| .+ \|$", RULES, flags=re.MULTILINE)


def test_rules_names_every_option_mode_and_house_rule() -> None:
    for option in ("must_play_drawn", "lenient_plays", "target", "scoring: lowest", "mode", "stacking"):
        assert f"`{option}" in RULES, option
    for mode in MODES:
        assert f"`{mode}`" in section(RULES, 10), mode
    assert "lowest" in SCORING_MODES
    house_rules = section(RULES, 11)
    for rule in house.HOUSE_RULES:
        assert f"**`{rule.name}`**" in house_rules, rule.name
    for preset in HOUSE_PRESETS:
        assert f"`{preset}`" in house_rules, preset


def test_notation_names_every_code_key_and_phase_of_the_format() -> None:
    for code in ERROR_CODES:
        assert f"`{code}`" in NOTATION, code
    keys = scenario.TOP_KEYS | scenario.POSITION_KEYS | scenario.START_KEYS | scenario.EXPECT_KEYS
    for key in sorted(keys):
        assert f"`{key}`" in NOTATION or f'"{key}"' in NOTATION, key
    for phase in PHASE_NAMES:
        assert f"`{phase}`" in NOTATION, phase
    for kind in Kind:
        word = kind.name.lower().replace("invisibility", "invisibility COLOUR")
        assert f"`{word}" in NOTATION, word
    all_wild = ("AW", "AWREV", "AWSKIP", "AWSKIP2", "AW+2", "AW+4", "AWT+2", "AWSWAP")
    for code in ("W", "W+4", "HOWLER", "INVIS", "MATER", "SHUFFLE", "CUSTOM", *all_wild, "+2", "+3", "BLANK"):
        assert f"`{code}`" in NOTATION or f"+ `{code}`" in NOTATION, code
    no_mercy = ("WR+4", "W+6", "W+10", "WCR")
    for code in (*no_mercy, "SE", "DA", "+4"):
        assert f"`{code}`" in NOTATION, code
    coloured = {c + v for c in "RYGB" for v in ("SE", "DA", "+4")}
    flip = ("LW", "LW+2", "DW", "DW+C")  # UNO Flip (docs/rules.md §15): its wilds, its coloured codes
    for code in (*flip, "+1", "F", "+5", "P", "T", "O", "V"):
        assert f"`{code}`" in NOTATION, code
    coloured |= {c + v for c in "RYGB" for v in ("+1", "F")}
    coloured |= {c + v for c in "PTOV" for v in (*"123456789", "+5", "R", "SE", "F")}
    assert set(CARD_CODE[61:]) == {
        *flip,
        "W+4",
        "HOWLER",
        "INVIS",
        "MATER",
        "SHUFFLE",
        "CUSTOM",
        *all_wild,
        *coloured,
        *no_mercy,
    }


TEXT_FILES = ("*.py", "*.md", "*.json", "*.c", "*.h", "*.pyi", "*.toml", "*.cfg", "*.txt", "*.yml", "*.js")


def test_nothing_points_outside_the_repository() -> None:
    """No file of the project names a file beside it (the shared folder of the workspace it grew
    in): its rules, notation and scenario examples are its own."""
    roots = [ROOT / name for name in ("src", "tests", "docs", "bench", "examples", ".ci")]
    files = [ROOT / "README.md", ROOT / "Makefile", ROOT / "pyproject.toml", ROOT / "setup.py"]
    for root in roots:
        if root.is_dir():
            files += [
                p
                for pattern in TEXT_FILES
                for p in root.rglob(pattern)
                if not any(part.startswith(".venv") for part in p.parts)
            ]
    outside = re.compile(r"\.\./shared|/work/|shared/(RULES|NOTATION)")
    this = Path(__file__).resolve()
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in files
        if path.resolve() != this
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if outside.search(line)
    ]
    assert not found, found
