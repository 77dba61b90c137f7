"""A game saved to a file as it is played: durable, cheap to keep up to date, safe to resume.

The file is JSON Lines. Its first line is the game as :meth:`Game.to_dict` writes it without its
actions (rules, seed, players, who plays each seat), plus the interface's ``settings``; each
following line is one of:

- ``[seat, "action"]``: an action of the current hand, as in a saved game's ``hands``;
- ``{"hand": i}``: hand ``i`` was dealt (:meth:`Game.next_hand`);
- ``{"settings": {...}}``: settings changed during play (the last ones count).

A file is created whole and atomically (a temporary file in the same folder, flushed and synced,
renamed over the old one, the folder synced); then each action appends one line, flushed and
synced. A process killed in the middle of an append leaves at most a last line without its line
end, which :func:`load` ignores: the game resumes at the action before it. Resuming rewrites the
file whole, which also drops such a line; stray temporary files of an interrupted rewrite are
removed whenever the file is written whole. A game saved whole in one JSON object (version 2, as
``Game.to_json`` writes it) is read too. Standard library only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from unotable import jsontext
from unotable.i18n import _
from unotable.match import Game, SavedGameError

LOG_FORMAT: Final = "unotable-game-log"
LOG_VERSION: Final = 1
MAX_SAVE_BYTES: Final = 50_000_000
"""A save file larger than this is refused unread (a game of 10,000 hands is about 30 MB)."""
_TMP_SUFFIX: Final = ".tmp"


class SaveFile:
    """The file a game is saved to as it goes (see the module's docstring).

    :param path: the file; its folder must exist.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._hands = 0
        """Hands whose deal is in the file."""
        self._actions = 0
        """Actions of the last of those hands in the file."""

    def write(self, game: Game, settings: Mapping[str, Any] | None = None) -> None:
        """Write ``game`` whole, atomically, replacing the file (and any stray temporary file).

        :raises OSError: if the file cannot be written (the old one is then left as it was).
        """
        header = game.to_dict()
        hands = header.pop("hands")
        header["format"], header["version"] = LOG_FORMAT, LOG_VERSION
        header["settings"] = dict(settings or {})
        lines = [json.dumps(header)]
        for i, hand in enumerate(hands):
            if i:
                lines.append(json.dumps({"hand": i}))
            lines += [json.dumps(item) for item in hand]
        folder = self.path.parent
        self._remove_stray_temporaries()
        tmp = folder / f".{self.path.name}.{os.getpid()}{_TMP_SUFFIX}"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write("\n".join(lines) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        _sync_folder(folder)
        self._hands = len(hands)
        self._actions = len(hands[-1])

    def update(self, game: Game) -> None:
        """Append what ``game`` did since the file was last written or updated.

        :raises OSError: if the file cannot be written.
        """
        log = game.log
        lines: list[str] = []
        hands, done = self._hands, self._actions
        while hands <= len(log):
            hand = log[hands - 1]
            lines += [json.dumps([seat, text]) for seat, text in hand[done:]]
            if hands == len(log):
                done = len(hand)
                break
            lines.append(json.dumps({"hand": hands}))
            hands, done = hands + 1, 0
        if not lines:
            return
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self._hands, self._actions = hands, done

    def note_settings(self, settings: Mapping[str, Any]) -> None:
        """Append settings changed during play (they replace the saved ones on resume).

        :raises OSError: if the file cannot be written.
        """
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"settings": dict(settings)}) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def _remove_stray_temporaries(self) -> None:
        for stray in self.path.parent.glob(f".{self.path.name}.*{_TMP_SUFFIX}"):
            stray.unlink(missing_ok=True)


def load(path: Path) -> tuple[Game, dict[str, Any]]:
    """The game saved in ``path`` and its settings (empty for a game saved whole).

    :raises SavedGameError: naming what is wrong, if the file cannot be read, is not a saved
        game, or does not replay (an action its rules refuse: the file does not match them).
    """
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            raise SavedGameError(
                _("{file} is larger than {size} MB").format(file=path, size=MAX_SAVE_BYTES // 1_000_000)
            )
        raw = path.read_bytes()
    except IsADirectoryError:
        raise SavedGameError(_("{file} is a folder, not a saved game").format(file=path)) from None
    except OSError as exc:
        raise SavedGameError(
            _("cannot read {file}: {error}").format(file=path, error=exc.strerror or exc)
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SavedGameError(
            _("{file} is not a saved game: not UTF-8 text (byte {byte})").format(file=path, byte=exc.start)
        ) from None
    first, _newline, rest = text.partition("\n")
    try:
        header = jsontext.loads(first)
    except jsontext.JSONTextError:
        header = None
    if not (isinstance(header, dict) and header.get("format") == LOG_FORMAT):
        return Game.from_json(text), {}  # a game saved whole (or not a saved game: it says why)
    return _replay(header, rest)


def _replay(header: dict[str, Any], rest: str) -> tuple[Game, dict[str, Any]]:
    if header.get("version") != LOG_VERSION:
        raise SavedGameError(
            _("version {version!r} is not supported (only {supported})").format(
                version=header.get("version"), supported=LOG_VERSION
            )
        )
    settings = header.pop("settings", {})
    if not isinstance(settings, dict):
        raise SavedGameError(_("settings must be an object"))
    del header["format"], header["version"]
    lines = rest.split("\n")
    if lines and lines[-1] != "":
        lines.pop()  # an append cut short: the game goes on from the action before it
    hands: list[list[Any]] = [[]]
    for number, line in enumerate(lines, start=2):
        if not line:
            continue
        try:
            item = jsontext.loads(line)
        except jsontext.JSONTextError as exc:
            raise SavedGameError(_("line {number}: {error}").format(number=number, error=exc)) from None
        if isinstance(item, list):
            hands[-1].append(item)
        elif isinstance(item, dict) and set(item) == {"hand"} and item["hand"] == len(hands):
            hands.append([])
        elif isinstance(item, dict) and set(item) == {"settings"} and isinstance(item["settings"], dict):
            settings = item["settings"]
        else:
            raise SavedGameError(
                _("line {number}: not an action, a deal or settings: {line}").format(
                    number=number, line=line[:80]
                )
            )
    header["hands"] = hands
    return Game.from_dict(header), settings


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
