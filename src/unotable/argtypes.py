"""Argument types shared by the ``uno`` subcommands: each turns bad text into a one-line error."""

from __future__ import annotations

import argparse
import math
from typing import Any

from unotable import jsontext
from unotable.errors import UnoError
from unotable.house import PRESETS, spell_rules
from unotable.i18n import LANGUAGES, _, normalize
from unotable.rules import MAX_PLAYERS, MIN_PLAYERS, find_edition, parse_house


def players(text: str) -> int:
    """A number of players at a table."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("players must be a whole number, not {text!r}").format(text=text)
        ) from None
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            _("players must be from {low} to {high}, not {value}").format(
                low=MIN_PLAYERS, high=MAX_PLAYERS, value=value
            )
        )
    return value


def edition(text: str) -> str:
    """An edition's name (aliases accepted)."""
    try:
        return find_edition(text).name
    except UnoError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def positive(text: str) -> int:
    """A positive whole number."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a positive whole number, not {text!r}").format(text=text)
        ) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(
            _("expected a positive whole number, not {value}").format(value=value)
        )
    return value


def _number(text: str) -> float:
    """A finite number (``nan`` and ``inf`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(_("expected a number, not {text!r}").format(text=text))
    return value


def duration(text: str) -> float:
    """A positive, finite length of time (hours, days or minutes: the flag says which)."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(_("expected a length of time above 0, not {text}").format(text=text))
    return value


def count(text: str) -> int:
    """A whole number from 0 (0 meaning no limit, where the flag says so)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a whole number from 0, not {text!r}").format(text=text)
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(_("expected a whole number from 0, not {value}").format(value=value))
    return value


def amount(text: str) -> float:
    """A finite number from 0 (0 meaning no limit, where the flag says so)."""
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(_("expected a number from 0, not {text}").format(text=text))
    return value


def rate(text: str) -> float:
    """A rate from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a rate is a number from 0 to 1, not {text!r}").format(text=text)
        ) from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(_("a rate must be from 0 to 1, not {text}").format(text=text))
    return value


def seconds(text: str) -> float:
    """A delay from 0 to 60 seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a delay is a number of seconds, not {text!r}").format(text=text)
        ) from None
    if not 0.0 <= value <= 60.0:
        raise argparse.ArgumentTypeError(
            _("a delay must be from 0 to 60 seconds, not {text}").format(text=text)
        )
    return value


def house(text: str) -> dict[str, Any]:
    """House rules (RULES §11): a preset (``official``, ``popular``, ``party``) or rules, e.g.
    ``stacking=same,jump_in``; every house rule's value."""
    try:
        return parse_house(text)
    except UnoError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def house_help() -> str:
    """The help of ``--house``, for every command that takes it (the presets and the rules with
    their values from the records of :mod:`unotable.house`)."""
    return _(
        "house rules (docs/rules.md §11): a preset ({presets}), or rules by name, with a value where "
        "they take one ({rules}), separated by commas, e.g. popular,jump_in"
    ).format(presets=", ".join(PRESETS), rules=spell_rules())


def language(text: str) -> str:
    """A language offered (``en``, ``pt``, ``pt_BR``, ``fr``; a locale name such as ``pt_PT`` or a
    tag such as ``pt-BR`` is read too)."""
    lang = normalize(text)
    if lang is None:
        raise argparse.ArgumentTypeError(
            _("unknown language {text!r} (languages: {languages})").format(
                text=text, languages=", ".join(LANGUAGES)
            )
        )
    return lang


def rules_option(text: str) -> tuple[str, Any]:
    """A rules option ``KEY=VALUE``; the value is JSON (``true``, ``200``, ``"lowest"``) or text."""
    key, eq, value = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise argparse.ArgumentTypeError(
            _("an option is KEY=VALUE (e.g. must_play_drawn=true), not {text!r}").format(text=text)
        )
    try:
        parsed: Any = jsontext.loads(value)
    except jsontext.JSONTextError as exc:
        if value.lstrip()[:1] in ("[", "{") or "not JSON:" not in str(exc):
            raise argparse.ArgumentTypeError(_("option {key}: {error}").format(key=key, error=exc)) from None
        parsed = value.strip()
    return key, parsed
