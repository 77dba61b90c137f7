"""A room's settings as the page asks for them, read and bounded (P-180).

The request is JSON::

    {"edition": "classic", "players": 4, "mode": "solo", "target": 500, "rounds": 1,
     "options": {"must_play_drawn": false, "lenient_plays": false, "scoring": "standard"},
     "seats": ["human", "human", "greedy", "search:budget=200"],
     "turn_seconds": 0, "bot_delay": 1.0, "house": "party",
     "room": {"grace_seconds": 20, "away_bot": "greedy", "auto_accept_seconds": 3,
              "suggestion_penalty": false, "chat": false, "spectator_reactions": false,
              "listed": false}}

``house`` (RULES §11) is a preset (``official``, ``popular``, ``party``), a spec as ``uno play
--house`` reads it (``"popular,jump_in"``), or an object giving house rules by name
(``{"stacking": "any", "seven_zero": true}``; the rest are off). Left out: no house rules.

``seats`` has one entry per player of the whole game (8 in ``two-tables``): ``"human"`` for a
person, or a bot spec (``random``, ``greedy``, ``aggressive``, ``cautious``, ``search``, with the
options :data:`BOT_OPTIONS` allows). ``room`` holds the room's own options (:class:`RoomOptions`:
absent people, Harry Potter's answer window (``null``: off), "More time", the suggestion
penalty, chat, listing); each is optional. Anything else is refused with :class:`SettingsError`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final

from unotable import house
from unotable.bots import BOT_NAMES
from unotable.bots.spec import BotSpec
from unotable.errors import ConfigError, UnoError
from unotable.match import GAME_PLAYERS, Game
from unotable.rules import HOUSE_PRESETS, MODES, Rules, parse_house

HUMAN: Final = "human"
"""A person's seat in ``seats``."""
OPTION_KEYS: Final = ("must_play_drawn", "lenient_plays", "scoring")
"""Rules options the page may set besides edition, players, mode and target."""
BOT_OPTIONS: Final[dict[str, tuple[float, float, bool]]] = {
    "forget_uno": (0.0, 1.0, False),
    "late_uno": (0.0, 1.0, False),
    "catch": (0.0, 1.0, False),
    "budget": (10, 1000, True),
}
"""Bot options a room may set: (low, high, whole number). ``budget`` is the search bot's only."""
TARGET_RANGE: Final = (1, 10_000)
ROUNDS_RANGE: Final = (1, 4)
TURN_SECONDS_RANGE: Final = (5, 600)
"""A turn timer is 0 (off) or this many seconds."""
BOT_DELAY_RANGE: Final = (0.0, 10.0)
DEFAULT_BOT_DELAY: Final = 1.0
DEFAULT_FORGET_UNO: Final = 0.2
"""How often a room's bots forget UNO unless their spec says otherwise (as ``uno play``)."""
GRACE_RANGE: Final = (0.0, 600.0, 20.0)
"""Seconds a person may be offline before a bot plays for them: (low, high, default)."""
AUTO_ACCEPT_RANGE: Final = (0.0, 120.0, 3.0)
"""Seconds of Harry Potter's answer window: (low, high, default); ``null`` turns it off (the
room waits for the answer, as it waits for a turn without a turn timer)."""
MORE_TIME_RANGE: Final = (0.0, 300.0, 30.0)
"""Seconds a person's "More time" adds to their turn or answer window, once a hand: (low, high,
default); 0 gives no "More time"."""
DEFAULT_AWAY_BOT: Final = "greedy"
KEYS: Final = frozenset(
    {
        "edition",
        "players",
        "mode",
        "target",
        "rounds",
        "options",
        "seats",
        "turn_seconds",
        "bot_delay",
        "house",
        "room",
    }
)


@dataclass(frozen=True)
class RoomOptions:
    """A room's own options (docs/web.md, "Room settings"): defaults for a room stored before
    they existed."""

    grace_seconds: float = GRACE_RANGE[2]
    """A person offline this long while a game is in play is away: ``away_bot`` plays for them."""
    away_bot: str = DEFAULT_AWAY_BOT
    """The bot spec that plays an away person's seat, or a seat freed during a game."""
    auto_accept_seconds: float | None = AUTO_ACCEPT_RANGE[2]
    """Harry Potter: the answer window of a person an action card is played on (P-342);
    ``None``: off, the room waits for the answer (the turn timer, if any, still runs)."""
    more_time_seconds: float = MORE_TIME_RANGE[2]
    """What a person's "More time" (once a hand) adds to their turn timer or answer window."""
    suggestion_penalty: bool = False
    """Whether the table may give the suggestion penalty (RULES §8) at all."""
    chat: bool = False
    """Whether seated people may chat."""
    spectator_reactions: bool = False
    """Whether spectators may send reactions."""
    listed: bool = False
    """Whether the room is listed among the open rooms while it has free seats."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (every option)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def parse(cls, data: Any) -> RoomOptions:
        """The options from the page's ``room`` object (or as stored), each checked.

        :raises SettingsError: naming what is wrong.
        """
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise SettingsError("room must be an object of room options")
        known = [f.name for f in fields(cls)]
        for key in data:
            if key not in known:
                raise SettingsError(f"unknown room option {key!r} (known: {', '.join(known)})")
        values: dict[str, Any] = {}
        for key, (low, high, _) in (
            ("grace_seconds", GRACE_RANGE),
            ("auto_accept_seconds", AUTO_ACCEPT_RANGE),
            ("more_time_seconds", MORE_TIME_RANGE),
        ):
            if key in data:
                value = data[key]
                if value is None and key == "auto_accept_seconds":  # off: wait for the answer
                    values[key] = None
                    continue
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
                    off = " or null (off)" if key == "auto_accept_seconds" else ""
                    raise SettingsError(
                        f"room: {key} must be from {low:g} to {high:g} seconds{off}, not {value!r}"
                    )
                values[key] = float(value)
        for key in ("suggestion_penalty", "chat", "spectator_reactions", "listed"):
            if key in data:
                if not isinstance(data[key], bool):
                    raise SettingsError(f"room: {key} must be true or false, not {data[key]!r}")
                values[key] = data[key]
        if "away_bot" in data:
            values["away_bot"] = parse_bot(data["away_bot"], "room: away_bot")
        return cls(**values)


class SettingsError(UnoError, ValueError):
    """Settings that do not make a room; the message says what is wrong."""


@dataclass(frozen=True)
class RoomSettings:
    """What a room plays: the rules, the seats, the bots' pace and the turn timer."""

    rules: Rules
    rounds: int
    seats: tuple[str | None, ...]
    """Per player: a bot spec's label, or ``None`` for a person."""
    turn_seconds: int
    """0: no timer; else a person's seconds to act before the server acts for them."""
    bot_delay: float
    """Seconds a bot waits before it acts (twice that while an out-of-turn window is open)."""
    room: RoomOptions = field(default_factory=RoomOptions)
    """The room's own options."""

    @property
    def players(self) -> int:
        """Players in the whole game."""
        return len(self.seats)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, read back by :meth:`from_dict` (as stored, and as shown to everyone)."""
        return {
            "rules": self.rules.to_dict(),
            "rounds": self.rounds,
            "seats": list(self.seats),
            "turn_seconds": self.turn_seconds,
            "bot_delay": self.bot_delay,
            "room": self.room.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoomSettings:
        """Settings as :meth:`to_dict` wrote them (from the database), checked once for each
        distinct value (settings are immutable: the rooms of a reconnect storm, made with the
        same options, share one).

        :raises SettingsError: if they do not make a game.
        """
        try:
            key = json.dumps(data, sort_keys=True)
        except (TypeError, ValueError):
            return cls._from_dict(data)
        return _stored_settings(key)

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> RoomSettings:
        try:
            rules = Rules.from_dict(data["rules"])
            seats = tuple(data["seats"])
            room = RoomOptions.parse(data.get("room"))
            out = cls(
                rules, int(data["rounds"]), seats, int(data["turn_seconds"]), float(data["bot_delay"]), room
            )
            Game.new(rules, 0, players=len(seats), rounds=out.rounds)
        except (KeyError, TypeError, ValueError, ConfigError) as exc:
            raise SettingsError(f"stored settings are unreadable: {exc}") from None
        return out

    def bot(self, player: int) -> BotSpec | None:
        """The bot spec of ``player``'s seat, or ``None`` for a person."""
        label = self.seats[player]
        return None if label is None else BotSpec.parse(label)


@functools.lru_cache(maxsize=256)
def _stored_settings(text: str) -> RoomSettings:
    """:meth:`RoomSettings.from_dict` of stored settings as JSON text (sorted keys), kept."""
    return RoomSettings._from_dict(json.loads(text))


def _int(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SettingsError(f"{key} must be a whole number from {low} to {high}, not {value!r}")
    return value


def parse_house_setting(value: Any) -> dict[str, Any]:
    """Every house rule's value from the ``house`` setting (a preset or spec, or an object).

    :raises SettingsError: for an unknown preset or rule, or a bad value.
    """
    if isinstance(value, str):
        try:
            return parse_house(value)
        except ConfigError as exc:
            raise SettingsError(f"house: {exc}") from None
    if not isinstance(value, Mapping):
        raise SettingsError(
            f"house must be a preset ({', '.join(HOUSE_PRESETS)}) or an object of house rules, not {value!r}"
        )
    try:
        return house.values_from(value)
    except ConfigError as exc:
        raise SettingsError(f"house: {exc}") from None


def parse_bot(text: Any, where: str) -> str:
    """A bot spec's label, checked against :data:`BOT_OPTIONS`.

    :raises SettingsError: for an unknown bot, option or value.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > 80:
        raise SettingsError(f"{where} must be {HUMAN!r} or a bot ({', '.join(BOT_NAMES)}), not {text!r}")
    # The keys first: parsing a spec makes the bot once, and no option a room may not set may
    # reach a bot's constructor (the learned bot's ``weights`` would open a path on the server).
    for part in text.split(":")[1:]:
        key = part.partition("=")[0].strip()
        if key not in BOT_OPTIONS:
            raise SettingsError(f"{where}: bot option {key!r} is not offered here")
    try:
        spec = BotSpec.parse(text)
    except ConfigError as exc:
        raise SettingsError(f"{where}: {exc}") from None
    for key, value in spec.options:
        bounds = BOT_OPTIONS.get(key)
        if bounds is None or (key == "budget" and spec.name != "search"):
            raise SettingsError(f"{where}: bot option {key!r} is not offered here")
        low, high, whole = bounds
        ok = isinstance(value, int) if whole else isinstance(value, (int, float))
        if isinstance(value, bool) or not ok or not low <= value <= high:
            raise SettingsError(f"{where}: {key} must be from {low:g} to {high:g}, not {value!r}")
    return spec.label


def parse_settings(data: Any) -> RoomSettings:
    """The settings of a new room from the page's request.

    :raises SettingsError: naming what is wrong.
    """
    if not isinstance(data, Mapping):
        raise SettingsError("the settings must be a JSON object")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise SettingsError(f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise SettingsError("options must be an object")
    for key in options:
        if key not in OPTION_KEYS:
            raise SettingsError(f"unknown option {key!r} (known: {', '.join(OPTION_KEYS)})")
    mode = data.get("mode", "solo")
    if mode not in MODES:
        raise SettingsError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    rules_data: dict[str, Any] = {
        "edition": data.get("edition", "classic"),
        "players": data.get("players", 4),
        "mode": mode,
        "target": _int(data, "target", 500, *TARGET_RANGE),
        **options,
    }
    if "house" in data:
        rules_data.update(parse_house_setting(data["house"]))
    if mode == "two-tables":
        rules_data["players"] = 4
    try:
        rules = Rules.from_dict(rules_data)
    except ConfigError as exc:
        raise SettingsError(str(exc)) from None
    rounds = _int(data, "rounds", 1, *ROUNDS_RANGE)
    players = GAME_PLAYERS.get(mode, rules.players)
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise SettingsError(f"seats must list {players} entries, one per player ({HUMAN!r} or a bot)")
    labels = tuple(None if s == HUMAN else parse_bot(s, f"seat {i}") for i, s in enumerate(seats))
    turn = data.get("turn_seconds", 0)
    low, high = TURN_SECONDS_RANGE
    if isinstance(turn, bool) or not isinstance(turn, int) or not (turn == 0 or low <= turn <= high):
        raise SettingsError(f"turn_seconds must be 0 (no timer) or from {low} to {high}, not {turn!r}")
    delay = data.get("bot_delay", DEFAULT_BOT_DELAY)
    dlow, dhigh = BOT_DELAY_RANGE
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not dlow <= delay <= dhigh:
        raise SettingsError(f"bot_delay must be from {dlow:g} to {dhigh:g} seconds, not {delay!r}")
    try:
        Game.new(rules, 0, players=players, rounds=rounds)
    except ConfigError as exc:
        raise SettingsError(str(exc)) from None
    room = RoomOptions.parse(data.get("room"))
    return RoomSettings(rules, rounds, labels, turn, float(delay), room)


__all__ = [
    "BOT_OPTIONS",
    "HUMAN",
    "RoomOptions",
    "RoomSettings",
    "SettingsError",
    "parse_bot",
    "parse_house_setting",
    "parse_settings",
]
