"""Cards and actions of the notation: codes, tables and round trips."""

from __future__ import annotations

import pytest

from unotable.cards import CARD_CODE, NUM_CARD_TYPES, POINTS, parse_card, parse_color
from unotable.errors import NotationError
from unotable.notation import ACTION_ID, ACTION_TEXT, ACTIONS, decode, format_action, parse_action


def test_every_card_code_round_trips() -> None:
    assert len(set(CARD_CODE)) == NUM_CARD_TYPES
    for t, code in enumerate(CARD_CODE):
        assert parse_card(code) == t


@pytest.mark.parametrize(
    ("code", "points"),
    [("R0", 0), ("B9", 9), ("GS", 20), ("YR", 20), ("R+2", 20), ("B+3", 20), ("W", 50), ("W+4", 50),
     ("HOWLER", 50), ("INVIS", 50), ("MATER", 50), ("YBLANK", 50)],
)  # fmt: skip
def test_card_points(code: str, points: int) -> None:
    assert POINTS[parse_card(code)] == points


@pytest.mark.parametrize("bad", ["r7", "R10", "X1", "", "WILD", "R +2", " R7", "W4"])
def test_bad_card_codes(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_card(bad)


def test_colours() -> None:
    assert [parse_color(c) for c in "RYGB"] == [0, 1, 2, 3]
    with pytest.raises(NotationError):
        parse_color("r")


def test_every_action_has_one_spelling_that_round_trips() -> None:
    assert len(ACTION_TEXT) == len(set(ACTION_TEXT)) == len(ACTIONS)
    for aid, text in enumerate(ACTION_TEXT):
        assert parse_action(text) == aid
        assert format_action(aid) == text
        assert decode(aid).text() == text


@pytest.mark.parametrize(
    "text",
    ["play R7", "play W+4 R uno", "play HOWLER 3", "play MATER", "play INVIS B", "draw", "pass",
     "color G", "uno", "catch 9", "challenge", "accept", "invisibility Y uno", "wrong 0",
     "penalize 2 suggestion", "play YBLANK", "play GBLANK R"],
)  # fmt: skip
def test_spellings_of_notation(text: str) -> None:
    assert text in ACTION_ID


@pytest.mark.parametrize(
    "text",
    ["play W", "play R7 G", "play", "Play R7", "play  R7", "play R7 UNO", "play HOWLER", "play MATER R",
     "catch", "catch x", "catch 10", "penalize 1", "colour G", "color", "uno uno", "draw 2", "invisibility",
     "play W+4 R uno uno", ""],
)  # fmt: skip
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_non_string_action_is_refused() -> None:
    with pytest.raises(NotationError):
        parse_action(7)  # type: ignore[arg-type]
