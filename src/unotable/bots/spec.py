"""Bots written as text: ``name`` or ``name:key=value:key=value``, one per seat.

:class:`BotSpec` is how ``uno simulate``, ``uno play``, the web rooms and the env name their
bots; :func:`parse_bots` reads the command line's comma-separated list. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unotable.bots import BOT_NAMES, BaseBot, make_bot
from unotable.bots.levels import LEVEL_BOTS
from unotable.errors import ConfigError
from unotable.i18n import _


def parse_value(text: str) -> Any:
    """A bot option's value: ``true``/``false``/``none``, an integer, a number, else the text."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class BotSpec:
    """A bot by name, with options: written ``name`` or ``name:key=value:key=value``; a
    strength (``easy``, ``medium``, ``hard``, ``expert``: :mod:`unotable.bots.levels`) stands
    for its bot."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """The spec written ``text``, checked by making the bot once.

        :raises ConfigError: for an unknown bot, a malformed option or one the bot refuses.
        """
        name, *parts = text.strip().split(":")
        options: list[tuple[str, Any]] = []
        for part in parts:
            key, eq, value = part.partition("=")
            if not eq or not key:
                raise ConfigError(
                    _("bot option {part} of {spec} is not key=value").format(part=repr(part), spec=repr(text))
                )
            options.append((key.strip(), parse_value(value.strip())))
        bot = name.strip().lower()
        spec = cls(LEVEL_BOTS.get(bot, bot), tuple(options))
        spec.make(0)
        return spec

    def make(self, seed: int) -> BaseBot:
        """A fresh bot of this spec with its generator seeded ``seed``.

        :raises ConfigError: for an unknown bot or an option it refuses.
        """
        try:
            return make_bot(self.name, seed, **dict(self.options))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None

    @property
    def label(self) -> str:
        """The spec as written."""
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options)])


def parse_bots(text: str, seats: int) -> tuple[BotSpec, ...]:
    """One spec per seat from a comma-separated list; a single spec fills every seat.

    :raises ConfigError: if the number of specs is neither 1 nor ``seats``, or a spec is bad.
    """
    parts = [p for p in (s.strip() for s in text.split(",")) if p]
    if not parts:
        raise ConfigError(
            _("--bots needs at least one bot (known: {known})").format(known=", ".join(BOT_NAMES))
        )
    specs = [BotSpec.parse(p) for p in parts]
    if len(specs) == 1:
        return tuple(specs) * seats
    if len(specs) != seats:
        raise ConfigError(
            _("--bots lists {count} bots for {seats} seats (give one, or one per seat)").format(
                count=len(specs), seats=seats
            )
        )
    return tuple(specs)


__all__ = ["BotSpec", "parse_bots", "parse_value"]
