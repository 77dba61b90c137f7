"""What a simulation plays (:class:`SimConfig`) and whether the native core can play it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from unotable.bots.spec import BotSpec
from unotable.errors import ConfigError
from unotable.match import GAME_PLAYERS
from unotable.rules import Rules

MAX_UNITS: Final = 1_000_000
"""The most hands (or games) of one run: every record is kept to compute the results."""
BACKENDS: Final = ("local", "ray")
CORES: Final = ("auto", "python", "native")
NATIVE_BOTS: Final = {"greedy": "greedy", "random": "random"}
"""Bots the native core plays inside its loop (with no options), by its policy's name."""


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: the rules, the bots (one per seat, or per player of a game), and how many
    hands or games (exactly one of the two is positive) from which seed."""

    rules: Rules
    bots: tuple[BotSpec, ...]
    hands: int = 0
    games: int = 0
    seed: int = 0
    core: str = "auto"
    """Which engine plays: ``auto`` (the native core when it can, see :func:`native_policies`),
    ``python``, or ``native`` (an error if it cannot)."""

    def __post_init__(self) -> None:
        if (self.hands > 0) == (self.games > 0) or self.hands < 0 or self.games < 0:
            raise ConfigError("simulate either a positive number of hands or of games")
        if self.units > MAX_UNITS:
            what = "hands" if self.hands else "games"
            raise ConfigError(
                f"at most {MAX_UNITS:,} {what} in one run, not {self.units:,} (run several seeds for more)"
            )
        if self.core not in CORES:
            raise ConfigError(f"core must be one of {', '.join(CORES)}, not {self.core!r}")
        if self.core == "native":
            reason = native_unavailable(self)
            if reason is not None:
                raise ConfigError(f"core native: {reason}")
        if len(self.bots) != self.participants:
            raise ConfigError(f"{len(self.bots)} bots for {self.participants} players")

    @property
    def participants(self) -> int:
        """Seats of a hand, or players of a game (8 for ``two-tables``)."""
        if self.games:
            return GAME_PLAYERS.get(self.rules.mode, self.rules.players)
        return self.rules.players

    @property
    def units(self) -> int:
        """Hands or games to play."""
        return self.hands or self.games


def native_unavailable(cfg: SimConfig) -> str | None:
    """Why the native core cannot play ``cfg`` (None if it can): it plays single hands (not
    games) of the rules it knows, between ``greedy`` and ``random`` bots with no options."""
    from unotable.native import core as native  # noqa: PLC0415 - optional part

    if cfg.games:
        return "it plays single hands, not whole games"
    for spec in cfg.bots:
        if spec.name not in NATIVE_BOTS or spec.options:
            return f"it plays only {' and '.join(NATIVE_BOTS)} bots with no options, not {spec.label}"
    return native.unsupported(cfg.rules)


def uses_native(cfg: SimConfig) -> bool:
    """Whether :func:`simulate` plays ``cfg`` on the native core."""
    return cfg.core != "python" and native_unavailable(cfg) is None
