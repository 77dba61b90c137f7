"""Typed errors. Every error refuses; none repairs."""

from __future__ import annotations

from typing import Final, Literal

ErrorCode = Literal["bad_notation", "not_your_turn", "not_in_hand", "not_playable", "not_allowed_now"]
ERROR_CODES: Final = ("bad_notation", "not_your_turn", "not_in_hand", "not_playable", "not_allowed_now")
"""The notation's error codes, in the order in which they are judged."""


class UnoError(Exception):
    """Base class of every error this package raises on purpose."""


class ConfigError(UnoError, ValueError):
    """A rules configuration is wrong: unknown edition, option or card, or a value of the wrong type."""


class NotationError(UnoError, ValueError):
    """A string is not a card or action of the notation."""


class ScenarioError(UnoError, ValueError):
    """A scenario file is malformed (its content, not the rules it tests)."""


class IllegalActionError(UnoError):
    """An action is refused; the state is unchanged.

    :ivar code: the notation's error code (see ``ERROR_CODES``).
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code


class PositionError(ConfigError):
    """A position (a scenario's ``position``, a saved state) that no game could reach: more copies
    of a card than the deck holds, a hand over with no winner, a phase its cards cannot open.

    :ivar code: always ``"bad_position"``.
    """

    code: Final = "bad_position"

    def __init__(self, message: str) -> None:
        super().__init__(f"bad_position: {message}")
