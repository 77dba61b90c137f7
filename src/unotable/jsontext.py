"""JSON read from files, flags and messages a person or a program outside may have written.

``json.loads`` raises ``RecursionError`` on deeply nested input and ``ValueError`` on an integer
of more digits than Python converts; :func:`loads` turns every such case into one clear error,
so that no input file or flag ends in a traceback. Standard library only.
"""

from __future__ import annotations

import json
from typing import Any, Final

MAX_DEPTH: Final = 64
"""Nesting deeper than this is refused: nothing this project reads is nested beyond a few levels."""


class JSONTextError(ValueError):
    """Text that is not JSON this project will read; the message says why, in one line."""


def loads(text: str | bytes) -> Any:
    """The JSON value of ``text``.

    :raises JSONTextError: if it is not UTF-8, not JSON, nested deeper than :data:`MAX_DEPTH`,
        or holds an integer too long to convert.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONTextError(f"not UTF-8 text (byte {exc.start})") from None
    if _too_deep(text):
        raise JSONTextError(f"nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JSONTextError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:  # pragma: no cover - _too_deep refuses these first
        raise JSONTextError(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # an integer of more digits than int() converts
        raise JSONTextError(f"not JSON this program reads: {exc}".split(";")[0]) from None


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings nest deeper than :data:`MAX_DEPTH` (a linear scan in C
    for the common case: text with few brackets is never walked character by character)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False
