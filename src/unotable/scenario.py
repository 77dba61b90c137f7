"""Scenario files (docs/notation.md): a position, the actions taken from it, what must hold after.

:func:`load` checks a file strictly (unknown keys are errors); :func:`run` plays it and returns
the failed expectations, each naming the key, the expected and the actual value.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unotable import jsontext
from unotable.cards import CARD_CODE, DARK_COLOR_BY_CODE, NO_COLOR, color_code, parse_card, parse_color
from unotable.engine import apply, deal, from_position, legal_actions, pending_draw
from unotable.errors import (
    ERROR_CODES,
    ConfigError,
    IllegalActionError,
    NotationError,
    ScenarioError,
    UnoError,
)
from unotable.i18n import N_, _
from unotable.rules import Rules
from unotable.state import PHASE_BY_NAME, PHASE_NAMES, Phase, State

MAX_FILE_BYTES = 10_000_000
"""A scenario file larger than this is refused unread (a whole game's actions fit in 1 MB)."""

TOP_KEYS = {"description", "rules", "position", "start", "actions", "expect"}
POSITION_KEYS = {
    "hands",
    "draw_pile",
    "discard",
    "color",
    "current",
    "direction",
    "dealer",
    "phase",
    "scores",
}
START_KEYS = {"dealer", "deck"}
EXPECT_KEYS = {
    "hands", "hand_sizes", "draw_pile", "draw_pile_size", "discard_top", "color", "current", "phase",
    "direction", "legal", "winner", "game_winners", "hand_points", "scores", "known", "error",
    "pending_draw", "series", "side",
}  # fmt: skip


@dataclass(frozen=True)
class Scenario:
    """A checked scenario file."""

    name: str
    description: str
    rules: Rules
    position: Mapping[str, Any] | None
    start: Mapping[str, Any] | None
    actions: list[tuple[int | str, str]]
    expect: Mapping[str, Any]


@dataclass(frozen=True)
class Failure:
    """One expectation that does not hold."""

    scenario: str
    key: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return _("{scenario}: {key}: expected {expected}, actual {actual}").format(
            scenario=self.scenario,
            key=self.key,
            expected=json.dumps(self.expected),
            actual=json.dumps(self.actual),
        )


def _fail(name: str, where: str, message: str) -> ScenarioError:
    return ScenarioError(f"{name}: {where}: {message}")


def load(path: str | Path) -> Scenario:
    """Read and check a scenario file.

    :raises ScenarioError: (one line, naming the file and what is wrong) if it cannot be read,
        is not JSON, is not an object, or has unknown keys or values of the wrong type.
    """
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ScenarioError(
            _("{file}: cannot read: {error}").format(file=name, error=exc.strerror or exc)
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError(
            _("{file}: larger than {size} MB").format(file=name, size=MAX_FILE_BYTES // 1_000_000)
        )
    try:
        data = jsontext.loads(raw)
    except jsontext.JSONTextError as exc:
        raise ScenarioError(f"{name}: {exc}") from None
    return parse(data, name)


def parse(data: Any, name: str = "<scenario>") -> Scenario:
    """Check a scenario's JSON value.

    :raises ScenarioError: as :func:`load`.
    """
    if not isinstance(data, dict):
        raise ScenarioError(
            _("{file}: a scenario is a JSON object, not {type}").format(file=name, type=type(data).__name__)
        )
    _only(name, "scenario", data, TOP_KEYS)
    for key in ("rules", "actions", "expect"):
        if key not in data:
            raise _fail(name, "scenario", _("missing key {key!r}").format(key=key))
    if ("position" in data) == ("start" in data):
        raise _fail(name, "scenario", _("needs exactly one of 'position' and 'start'"))
    description = data.get("description", "")
    if not isinstance(description, str):
        raise _fail(name, "description", _("must be a string"))
    try:
        rules = Rules.from_dict(data["rules"])
    except ConfigError as exc:
        raise _fail(name, "rules", str(exc)) from None
    position = data.get("position")
    start = data.get("start")
    if "position" in data:
        if not isinstance(position, dict):
            raise _fail(name, "position", _("must be an object"))
        _only(name, "position", position, POSITION_KEYS)
        for key in ("hands", "draw_pile", "discard", "color", "current"):
            if key not in position:
                raise _fail(name, "position", _("missing key {key!r}").format(key=key))
    if "start" in data:
        if not isinstance(start, dict):
            raise _fail(name, "start", _("must be an object"))
        _only(name, "start", start, START_KEYS)
        for key in START_KEYS:
            if key not in start:
                raise _fail(name, "start", _("missing key {key!r}").format(key=key))
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list):
        raise _fail(name, "actions", _("must be a list of [seat, action] pairs"))
    actions: list[tuple[int | str, str]] = []
    for i, item in enumerate(raw_actions):
        if not isinstance(item, list) or len(item) != 2:
            raise _fail(name, f"actions[{i}]", _("must be a [seat, action] pair"))
        seat, action = item
        if not _is_actor(seat) or not isinstance(action, str):
            raise _fail(name, f"actions[{i}]", _('must be [seat, action]: a seat or "table", and a string'))
        actions.append((seat, action))
    expect = data["expect"]
    if not isinstance(expect, dict):
        raise _fail(name, "expect", _("must be an object"))
    _only(name, "expect", expect, EXPECT_KEYS)
    _check_expect(name, expect)
    return Scenario(name, description, rules, position, start, actions, expect)


def _only(name: str, where: str, obj: Mapping[str, Any], allowed: set[str]) -> None:
    for key in obj:
        if key not in allowed:
            raise _fail(name, where, _("unknown key {key!r}").format(key=key))


def _is_actor(value: Any) -> bool:
    return value == "table" or (isinstance(value, int) and not isinstance(value, bool))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_EXPECT_SHAPES: dict[str, tuple[str, Any]] = {
    "hands": (
        N_("must be a list of lists of card codes"),
        lambda v: isinstance(v, list) and all(map(_is_str_list, v)),
    ),
    "hand_sizes": (N_("must be a list of integers"), lambda v: isinstance(v, list) and all(map(_is_int, v))),
    "draw_pile": (N_("must be a list of card codes"), _is_str_list),
    "draw_pile_size": (N_("must be an integer"), _is_int),
    "discard_top": (N_("must be a card code"), lambda v: isinstance(v, str)),
    "color": (N_("must be a colour letter or null"), lambda v: v is None or isinstance(v, str)),
    "current": (N_("must be a seat or null"), lambda v: v is None or _is_int(v)),
    "direction": (N_("must be 1 or -1"), _is_int),
    "winner": (N_("must be a seat or null"), lambda v: v is None or _is_int(v)),
    "game_winners": (
        N_("must be a list of integers"),
        lambda v: isinstance(v, list) and all(map(_is_int, v)),
    ),
    "hand_points": (N_("must be an integer or null"), lambda v: v is None or _is_int(v)),
    "scores": (N_("must be a list of integers"), lambda v: isinstance(v, list) and all(map(_is_int, v))),
    "phase": (N_("must be a phase name"), lambda v: isinstance(v, str)),
    "series": (N_("must be a card code or null"), lambda v: v is None or isinstance(v, str)),
    "side": (N_("must be light or dark"), lambda v: v in ("light", "dark")),
}
"""The JSON shape of each simple ``expect`` key (``legal``, ``known`` and ``error`` are checked
on their own)."""


def _check_expect(name: str, expect: Mapping[str, Any]) -> None:
    for key, (shape, ok) in _EXPECT_SHAPES.items():
        if key in expect and not ok(expect[key]):
            raise _fail(name, f"expect.{key}", _(shape))
    if "error" in expect:
        err = expect["error"]
        if not isinstance(err, dict) or set(err) != {"index", "code"}:
            raise _fail(name, "expect.error", _('must be {"index": I, "code": CODE}'))
        if err["code"] not in ERROR_CODES:
            raise _fail(name, "expect.error", _("unknown error code {code!r}").format(code=err["code"]))
        if not isinstance(err["index"], int) or isinstance(err["index"], bool):
            raise _fail(name, "expect.error", _("index must be an integer"))
    if "legal" in expect:
        legal = expect["legal"]
        if (
            not isinstance(legal, dict)
            or set(legal) != {"seat", "actions"}
            or not _is_str_list(legal["actions"])
            or not _is_actor(legal["seat"])
        ):
            raise _fail(name, "expect.legal", _('must be {"seat": S, "actions": [...]}'))
    if "known" in expect:
        known = expect["known"]
        if not isinstance(known, dict) or not all(
            isinstance(v, dict) and all(map(_is_str_list, v.values())) for v in known.values()
        ):
            raise _fail(name, "expect.known", _('must be {"VIEWER": {"SEAT": [cards]}}'))
    if "phase" in expect and expect["phase"] not in PHASE_BY_NAME:
        raise _fail(name, "expect.phase", _("unknown phase {phase!r}").format(phase=expect["phase"]))


def _cards(name: str, where: str, value: Any) -> list[int]:
    if not isinstance(value, list):
        raise _fail(name, where, _("must be a list of card codes"))
    try:
        return [parse_card(code) for code in value]
    except NotationError as exc:
        raise _fail(name, where, str(exc)) from None


def _two_faced(name: str, where: str, value: Any) -> tuple[list[int], list[int] | None]:
    """Cards written ``FACE/OTHER`` (UNO Flip: the face shown, then the other: docs/notation.md)
    as their faces and other faces; cards of one face, and ``None``."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _fail(name, where, _("must be a list of card codes"))
    if not any("/" in code for code in value):
        return _cards(name, where, value), None
    faces: list[int] = []
    backs: list[int] = []
    try:
        for code in value:
            face, slash, other = code.partition("/")
            if not slash:
                raise NotationError(f"{code!r} has no other face (FACE/OTHER)")
            faces.append(parse_card(face))
            backs.append(parse_card(other))
    except NotationError as exc:
        raise _fail(name, where, str(exc)) from None
    return faces, backs


def _int(name: str, where: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(name, where, _("must be an integer, not {value!r}").format(value=value))
    return value


def initial_state(sc: Scenario) -> State:
    """The state a scenario starts from.

    :raises ScenarioError: if the position or start does not fit the rules.
    """
    name = sc.name
    seed = sc.rules.seed or 0
    try:
        if sc.start is not None:
            deck, deck_backs = _two_faced(name, "start.deck", sc.start["deck"])
            dealer = _int(name, "start.dealer", sc.start["dealer"])
            st, _events = deal(sc.rules, deck, dealer, seed=seed, backs=deck_backs)
            return st
        pos = sc.position
        if pos is None:
            raise _fail(name, "position", _("must be an object"))
        hands_raw = pos["hands"]
        if not isinstance(hands_raw, list):
            raise _fail(name, "position.hands", _("must be a list of hands"))
        two = [_two_faced(name, f"position.hands[{i}]", h) for i, h in enumerate(hands_raw)]
        two.append(_two_faced(name, "position.draw_pile", pos["draw_pile"]))
        two.append(_two_faced(name, "position.discard", pos["discard"]))
        hands = [faces for faces, _backs in two[:-2]]
        backs = [b if b is not None else [] for _faces, b in two]
        flip = any(b is not None for _faces, b in two)
        color_raw = pos["color"]
        color: int = NO_COLOR
        if color_raw is None:
            pass
        else:
            try:
                color = (
                    DARK_COLOR_BY_CODE[color_raw]
                    if flip and color_raw in DARK_COLOR_BY_CODE
                    else parse_color(color_raw)
                )
            except NotationError as exc:
                raise _fail(name, "position.color", str(exc)) from None
        phase_raw = pos.get("phase", "turn")
        if not isinstance(phase_raw, str) or phase_raw not in PHASE_BY_NAME:
            raise _fail(name, "position.phase", _("unknown phase {phase!r}").format(phase=phase_raw))
        phase = Phase(PHASE_BY_NAME[phase_raw])
        current_raw = pos["current"]
        current = -1 if current_raw is None else _int(name, "position.current", current_raw)
        scores_raw = pos.get("scores")
        scores: list[int] | None = None
        if scores_raw is not None:
            if not isinstance(scores_raw, list):
                raise _fail(name, "position.scores", _("must be a list of integers"))
            scores = [_int(name, "position.scores", s) for s in scores_raw]
        dealer_raw = pos.get("dealer")
        return from_position(
            sc.rules,
            hands=hands,
            draw_pile=two[-2][0],
            discard=two[-1][0],
            backs=backs if flip else None,
            color=color,
            current=current,
            direction=_int(name, "position.direction", pos.get("direction", 1)),
            dealer=None if dealer_raw is None else _int(name, "position.dealer", dealer_raw),
            phase=phase,
            scores=scores,
            seed=seed,
        )
    except ConfigError as exc:
        where = "start" if sc.start is not None else "position"
        raise _fail(name, where, str(exc)) from None


def run(sc: Scenario) -> list[Failure]:
    """Play a scenario; the expectations that do not hold (empty when it passes).

    :raises ScenarioError: if the scenario's position does not fit its rules.
    """
    st = initial_state(sc)
    failures: list[Failure] = []
    expected_error = sc.expect.get("error")
    for i, (seat, action) in enumerate(sc.actions):
        try:
            st, _events = apply(st, seat, action)
        except IllegalActionError as exc:
            if expected_error is not None and expected_error["index"] == i:
                if exc.code != expected_error["code"]:
                    failures.append(Failure(sc.name, "error", expected_error, {"index": i, "code": exc.code}))
                expected_error = None
                break
            failures.append(
                Failure(
                    sc.name,
                    f"actions[{i}]",
                    _("{seat}: {action} applies").format(seat=seat, action=action),
                    str(exc),
                )
            )
            return failures
        if expected_error is not None and expected_error["index"] == i:
            failures.append(Failure(sc.name, "error", sc.expect["error"], {"index": i, "code": None}))
            return failures
    if expected_error is not None:
        failures.append(Failure(sc.name, "error", expected_error, _("no such action")))
    for key, expected in sc.expect.items():
        if key == "error":
            continue
        actual, ok = _compare(st, key, expected)
        if not ok:
            failures.append(Failure(sc.name, key, expected, actual))
    return failures


def _multiset(cards: Any) -> Counter[str] | None:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return None
    return Counter(cards)


def _codes(st: State, place: int, expected: Any, i: int) -> list[str]:
    """The codes of hand ``place`` (``n``: the draw pile, top card last; ``n + 1``: the discard
    pile), written ``FACE/OTHER`` if the expectation ``expected[i]`` writes them so (UNO Flip)."""
    cards = st.hands[place] if place < st.n else st.draw if place == st.n else st.discard
    two = (
        st.backs is not None
        and isinstance(expected, list)
        and i < len(expected)
        and isinstance(expected[i], list)
        and any(isinstance(c, str) and "/" in c for c in expected[i])
    )
    if not two or st.backs is None:
        return [CARD_CODE[c] for c in cards]
    return [f"{CARD_CODE[c]}/{CARD_CODE[b]}" for c, b in zip(cards, st.backs[place], strict=True)]


def _compare(st: State, key: str, expected: Any) -> tuple[Any, bool]:
    """The actual value of ``key`` and whether it matches ``expected``."""
    if key == "hands":
        actual: Any = [sorted(_codes(st, s, expected, i)) for i, s in enumerate(range(st.n))]
        ok = (
            isinstance(expected, list)
            and len(expected) == st.n
            and all(_multiset(e) == Counter(a) for e, a in zip(expected, actual, strict=False))
        )
        return actual, ok
    if key == "hand_sizes":
        actual = [len(h) for h in st.hands]
    elif key == "draw_pile":
        actual = list(reversed(_codes(st, st.n, [expected], 0)))
    elif key == "draw_pile_size":
        actual = len(st.draw)
    elif key == "discard_top":
        actual = _codes(st, st.n + 1, [[expected]], 0)[-1]
    elif key == "color":
        actual = color_code(st.color, st.side == 1) if st.color >= 0 else None
    elif key == "side":  # UNO Flip (docs/rules.md §15)
        actual = "dark" if st.side else "light"
    elif key == "current":
        actual = st.current if st.current >= 0 else None
    elif key == "phase":
        actual = PHASE_NAMES[st.phase]
    elif key == "direction":
        actual = st.direction
    elif key == "winner":
        actual = st.winner if st.winner >= 0 else None
    elif key == "game_winners":
        actual = sorted(st.game_winners)
        return actual, isinstance(expected, list) and sorted(expected, key=str) == actual
    elif key == "hand_points":
        actual = st.hand_points
    elif key == "pending_draw":
        actual = pending_draw(st)
    elif key == "series":  # docs/rules.md §11.5 multi_play
        actual = CARD_CODE[st.series] if st.series >= 0 else None
    elif key == "scores":
        actual = list(st.scores)
    elif key == "legal":
        seat = expected["seat"]
        try:
            actual = sorted(legal_actions(st, seat))
        except NotationError as exc:
            return str(exc), False
        return {"seat": seat, "actions": actual}, set(expected["actions"]) == set(actual) and len(
            expected["actions"]
        ) == len(set(expected["actions"]))
    elif key == "known":
        actual = {}
        ok = True
        for viewer, by_seat in expected.items():
            actual[viewer] = {}
            for seat, cards in by_seat.items():
                try:
                    have = st.known.get(int(seat), {}).get(int(viewer), [])
                except ValueError:
                    return _("bad seat in known: {viewer}/{seat}").format(viewer=viewer, seat=seat), False
                codes = sorted(CARD_CODE[c] for c in have)
                actual[viewer][seat] = codes
                if _multiset(cards) != Counter(codes):
                    ok = False
        return actual, ok
    else:  # pragma: no cover - keys are checked on load
        raise ScenarioError(f"unknown expect key {key!r}")
    return actual, actual == expected


def run_files(paths: list[str]) -> tuple[int, int, list[str]]:
    """Run scenario files; (passed, failed, report lines)."""
    passed = failed = 0
    lines: list[str] = []
    for path in paths:
        try:
            failures = run(load(path))
        except UnoError as exc:
            failed += 1
            lines.append(f"{exc}")
            continue
        if failures:
            failed += 1
            lines += [str(f) for f in failures]
        else:
            passed += 1
    return passed, failed, lines
