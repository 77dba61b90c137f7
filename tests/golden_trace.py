"""The golden trace of the rules engine: every state, legal set, event and refusal of a few
hundred seeded hands over every edition, hand-level option and house rule.

Each hand is played by a seeded chooser that takes the phase's actions and, often, the
out-of-turn ones (UNO calls, catches, wrong cards, jump-ins, the referee's penalties). After the
deal and after each action it hashes: the whole state (hidden parts included), the legal action
ids of every seat and of the referee, the events, the pending draw and the actors, the error
``check`` gives for a few illegal actions, and now and then the state :func:`from_position`
rebuilds from the table. One line per hand: the configuration, the seed, the number of
actions, and the first 8 hex digits of each step's hash (so a difference says where).

``tests/test_golden.py`` checks the engine against ``tests/data/golden-trace.txt``; after a
change that is meant to change the rules' behaviour, write the file again with
``.venv/bin/python tests/golden_trace.py --write`` (and say why in the commit).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from unotable.cards import CLASSIC_CARD_TYPES, NUM_CARD_TYPES, SKIP, card_type
from unotable.engine import (
    actors,
    check,
    deal,
    from_position,
    legal_ids,
    new_hand,
    pending_draw,
    step,
)
from unotable.errors import ConfigError, IllegalActionError
from unotable.events import Event
from unotable.notation import ACTION_CARD, ACTION_KIND, ACTION_MORE, ACTION_TEXT, TABLE_SEAT, Kind
from unotable.rules import BlankEffect, Rules, find_edition
from unotable.state import PHASE_HAND_OVER, PHASE_TURN, Phase, State

GOLDEN: Final = Path(__file__).parent / "data" / "golden-trace.txt"
ACTIONS_BEFORE_MORE: Final = ACTION_MORE.index(True)
"""The notation's actions before multi_play's ``play CARD more`` (numbered last): the refusals of
the tables without that rule are drawn among these, as before it existed."""
ACTIONS_BEFORE_LATER: Final = next(
    (i for i, card in enumerate(ACTION_CARD) if card >= CLASSIC_CARD_TYPES), len(ACTION_TEXT)
)
"""The notation's actions before the later editions' cards (docs/rules.md §12, numbered last):
the refusals are drawn among these, as before those editions existed."""
HANDS_PER_CONFIG: Final = 8
STEP_CAP: Final = 400
"""A hand still going after this many actions is cut (the chooser draws a lot)."""

PARTY: Final[dict[str, Any]] = {"stacking": "any", "seven_zero": True, "jump_in": True, "draw_to_match": True}
"""Every house rule on (RULES §11's party preset)."""
CRAZY: Final[dict[str, Any]] = {
    "stack_cards": "up",
    "deflect": "both",
    "forced_play": True,
    "no_bluffing": True,
    "uno_penalty": 4,
    "uno_call": "strict",
    "no_action_finish": True,
    "hand_limit": 25,
    "double_finish": True,
}
"""Issue 27's rules as the crazy preset has them (docs/rules.md §11.5)."""
CONFIGS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("classic-2", {"players": 2}),
    ("classic-3", {"players": 3}),
    ("classic-4", {}),
    ("classic-7", {"players": 7}),
    ("classic-10", {"players": 10}),
    ("classic-must-play-drawn", {"must_play_drawn": True, "players": 3}),
    ("classic-lenient", {"lenient_plays": True}),
    ("classic-lenient-2", {"lenient_plays": True, "players": 2}),
    ("classic-lowest", {"scoring": "lowest", "players": 3}),
    ("classic-partners", {"mode": "partners"}),
    ("classic-teams-6", {"mode": "teams", "players": 6}),
    ("classic-challenge", {"mode": "challenge", "players": 5}),
    ("classic-blanks", {"blanks": "mixed"}),
    ("classic-blanks-2", {"blanks": "mixed", "players": 2, "lenient_plays": True}),
    ("classic-stacking-same", {"stacking": "same"}),
    ("classic-stacking-any", {"stacking": "any", "players": 3}),
    ("classic-seven-zero", {"seven_zero": True}),
    ("classic-seven-zero-2", {"seven_zero": True, "players": 2}),
    ("classic-jump-in", {"jump_in": True}),
    ("classic-draw-to-match", {"draw_to_match": True, "players": 3}),
    ("classic-party", PARTY),
    (
        "classic-party-lenient",
        {"stacking": "same", "seven_zero": True, "jump_in": True, "lenient_plays": True},
    ),
    ("hp-2", {"edition": "harry-potter", "players": 2}),
    ("hp-4", {"edition": "harry-potter"}),
    ("hp-birthdays", {"edition": "harry-potter", "players": 3, "birthdays": ("07-30", None, "08-02")}),
    ("hp-lenient", {"edition": "harry-potter", "players": 3, "lenient_plays": True}),
    ("hp-must-play-drawn", {"edition": "harry-potter", "must_play_drawn": True}),
    ("hp-partners", {"edition": "harry-potter", "mode": "partners"}),
    ("hp-stacking", {"edition": "harry-potter", "stacking": "same", "players": 3}),
    (
        "hp-party",
        {
            "edition": "harry-potter",
            "stacking": "any",
            "seven_zero": True,
            "jump_in": True,
            "draw_to_match": True,
        },
    ),
    ("cars2-2", {"edition": "cars2", "players": 2}),
    ("cars2-4", {"edition": "cars2"}),
    ("cars2-6", {"edition": "cars2", "players": 6, "scoring": "lowest"}),
    ("cars2-lenient", {"edition": "cars2", "lenient_plays": True, "players": 3}),
    (
        "cars2-party",
        {"edition": "cars2", "stacking": "same", "seven_zero": True, "jump_in": True, "draw_to_match": True},
    ),
    ("cars2-teams", {"edition": "cars2", "mode": "teams", "players": 4, "must_play_drawn": True}),
    # Issue 27's house rules (docs/rules.md §11.5), added as new lines after the old ones.
    ("classic-stack-cards-up", {"stacking": "same", "stack_cards": "up", "players": 3}),
    ("classic-stack-cards-draws", {"stacking": "any", "stack_cards": "draws"}),
    ("classic-stack-cards-fours", {"stacking": "same", "stack_cards": "fours", "players": 3}),
    ("classic-deflect", {"stacking": "same", "deflect": "both"}),
    ("classic-deflect-2", {"stacking": "any", "deflect": "reverse", "players": 2}),
    ("hp-deflect", {"edition": "harry-potter", "stacking": "same", "deflect": "skip", "players": 3}),
    ("classic-forced-play", {"forced_play": True, "players": 3}),
    ("classic-no-bluffing", {"no_bluffing": True}),
    ("classic-uno-penalty", {"uno_penalty": 4, "players": 3}),
    ("classic-uno-strict", {"uno_call": "strict", "seven_zero": True}),
    ("classic-uno-silent", {"uno_call": "silent", "players": 3}),
    ("classic-no-action-finish", {"no_action_finish": True, "players": 3}),
    ("hp-no-action-finish", {"edition": "harry-potter", "no_action_finish": True}),
    ("classic-hand-limit", {"hand_limit": 12, "players": 2}),
    ("classic-double-finish", {"double_finish": True, "mode": "partners"}),
    ("classic-crazy", {**PARTY, **CRAZY}),
    ("hp-crazy", {"edition": "harry-potter", **PARTY, **CRAZY, "players": 3}),
    ("cars2-crazy", {"edition": "cars2", **PARTY, **CRAZY, "uno_call": "silent", "uno_penalty": 2}),
    # Issue 27's several cards at once (docs/rules.md §11.5), new lines after the old ones.
    ("classic-multi-play", {"multi_play": "number", "players": 3}),
    ("classic-multi-play-identical", {"multi_play": "identical", "jump_in": True, "lenient_plays": True}),
    ("classic-multi-play-2", {"multi_play": "number", "seven_zero": True, "players": 2}),
    ("hp-multi-play", {"edition": "harry-potter", "multi_play": "number", "uno_call": "strict"}),
    ("classic-crazy-multi-play", {**PARTY, **CRAZY, "multi_play": "number"}),
    ("classic-elimination", {"mode": "elimination", "players": 3}),
    # The modern deck (docs/rules.md §12), new lines after the old ones.
    ("modern-2", {"edition": "modern", "players": 2}),
    ("modern-4", {"edition": "modern"}),
    (
        "modern-custom",
        {"edition": "modern", "players": 3, "custom": BlankEffect(wild=True, draw=2, skip=True)},
    ),
    ("modern-party", {"edition": "modern", **PARTY, "uno_call": "strict"}),
    # UNO All Wild (docs/rules.md §13), new lines after the old ones.
    ("all-wild-2", {"edition": "all-wild", "players": 2}),
    ("all-wild-5", {"edition": "all-wild", "players": 5}),
    ("all-wild-party", {"edition": "all-wild", **PARTY, "stacking": "any"}),
    # UNO Show 'Em No Mercy (docs/rules.md §14), new lines after the old ones.
    ("no-mercy-2", {"edition": "no-mercy", "players": 2}),
    ("no-mercy-4", {"edition": "no-mercy", "players": 4}),
    ("no-mercy-6", {"edition": "no-mercy", "players": 6, "jump_in": True, "uno_call": "strict"}),
    # UNO Flip (docs/rules.md §15), new lines after the old ones.
    ("flip-2", {"edition": "flip", "players": 2}),
    ("flip-4", {"edition": "flip", "players": 4}),
    ("flip-party", {"edition": "flip", **PARTY, "players": 5}),
)
"""The tables traced: every edition, each hand-level option and house rule alone, and mixed."""

MIXED_BLANKS: Final = (
    (0, card_type(1, SKIP)),  # the red blank is a yellow Skip
    (1, BlankEffect(draw=2, skip=True)),
    (2, BlankEffect(wild=True, reveal=True)),
    (3, BlankEffect(reverse=True, draw=1)),
)


def rules_of(options: dict[str, Any]) -> Rules:
    """The rules of a traced configuration."""
    kw = dict(options)
    kw["edition"] = find_edition(kw.get("edition", "classic"))
    if kw.get("blanks") == "mixed":
        kw["blanks"] = MIXED_BLANKS
    return Rules(**kw)


def _canon(x: object) -> object:
    """A form of ``x`` whose JSON text is the same for equal values."""
    if isinstance(x, State):
        return state_form(x)
    if isinstance(x, dict):
        return [[_canon(k), _canon(v)] for k, v in sorted(x.items())]
    if isinstance(x, (list, tuple)):
        return [_canon(v) for v in x]
    return x


def state_form(st: State) -> dict[str, object]:
    """Every field of the state but its rules and tables (fixed by the configuration), with the
    cards revealed to each seat as a sorted list and the empty entries left out."""
    out: dict[str, object] = {}
    for name in sorted(State.__slots__):
        if name in ("rules", "tables"):
            continue
        value = getattr(st, name)
        if name == "series" and value < 0:  # multi_play's field, left out when unused: the old lines stay
            continue
        if (name == "side" and not value) or (name == "backs" and value is None):  # UNO Flip's, likewise
            continue
        if name == "drew_facing":  # recorded as (colour + 1) * 65 + top, before docs/rules.md §12
            value = [
                f if f < 0 else (f // NUM_CARD_TYPES) * CLASSIC_CARD_TYPES + f % NUM_CARD_TYPES for f in value
            ]
        if name == "known":
            value = {
                o: {v: sorted(c) for v, c in d.items() if c} for o, d in value.items() if any(d.values())
            }
        out[name] = _canon(value)
    return out


def event_form(e: Event) -> dict[str, object]:
    """An event with who may see its cards."""
    d = e.to_dict()
    if e.visible_to is not None:
        d["visible_to"] = sorted(e.visible_to)
    return d


def _illegal(st: State, rnd: random.Random, legal: dict[int, list[int]]) -> list[str]:
    """What ``check`` says of three actions not legal now (the error code and message)."""
    out = []
    for _ in range(3):
        seat = rnd.choice([*range(st.n), TABLE_SEAT, st.n + 1])
        aid = rnd.randrange(ACTIONS_BEFORE_LATER if st.tables.multi_play else ACTIONS_BEFORE_MORE)
        if aid in legal.get(seat, ()):
            continue
        try:
            check(st, seat, aid)
        except IllegalActionError as exc:
            out.append(str(exc))
        else:
            out.append(f"accepted {seat} {aid}")
    return out


def _position(st: State) -> object:
    """The state ``from_position`` rebuilds from the visible table of a ``turn`` phase."""
    try:
        again = from_position(
            st.rules,
            hands=st.hands,
            draw_pile=st.draw[::-1],
            discard=st.discard,
            color=st.color,
            current=st.current,
            direction=st.direction,
            dealer=st.dealer,
            phase=Phase.TURN,
            scores=st.scores,
            seed=st.rng,
            backs=None if st.backs is None else [*st.backs[: st.n], st.backs[st.n][::-1], st.backs[st.n + 1]],
        )
    except ConfigError as exc:
        return str(exc)
    return [state_form(again), {s: legal_ids(again, s) for s in range(again.n)}]


def _choose(st: State, rnd: random.Random, legal: dict[int, list[int]]) -> tuple[int, int]:
    """The chooser: the referee's penalty one time in forty, an out-of-turn action one time in
    four when there is one, else the phase's seat's action, a play rather than a draw when it
    can."""
    table = legal.get(TABLE_SEAT, [])
    if table and rnd.random() < 0.025:
        return TABLE_SEAT, rnd.choice(table)
    others = [(s, a) for s, ids in legal.items() if s not in (st.current, TABLE_SEAT) for a in ids]
    if others and rnd.random() < 0.25:
        return rnd.choice(others)
    mine = legal.get(st.current, [])
    if not mine:
        return rnd.choice(others or [(TABLE_SEAT, a) for a in table])
    plays = [a for a in mine if ACTION_KIND[a] == int(Kind.PLAY)]
    if plays and rnd.random() < 0.8:
        return st.current, rnd.choice(plays)
    return st.current, rnd.choice(mine)


def trace_hand(rules: Rules, seed: int) -> Iterator[str]:
    """The hashes of the steps of one hand (the deal first)."""
    rnd = random.Random(seed)
    if seed % 4 == 3:  # a deck given as is (a scenario's start), dealt by a given dealer
        deck = rules.deck()
        rnd.shuffle(deck)
        backs = rules.edition.dark_deck() or None  # UNO Flip: the dark faces, paired at random
        if backs is not None:
            rnd.shuffle(backs)
        st, events = deal(rules, deck, seed % rules.players, seed=seed, backs=backs)
    else:
        st, events = new_hand(rules, seed, dealer=None if seed % 2 else seed % rules.players)
    for k in range(STEP_CAP + 1):
        legal = {s: legal_ids(st, s) for s in [*range(st.n), TABLE_SEAT]}
        legal = {s: ids for s, ids in legal.items() if ids}
        record: list[object] = [
            state_form(st),
            sorted(legal.items()),
            [event_form(e) for e in events],
            pending_draw(st),
            actors(st),
            _illegal(st, rnd, legal),
        ]
        if st.phase == PHASE_TURN and k % 7 == 3:
            record.append(_position(st))
        text = json.dumps(record, separators=(",", ":"), sort_keys=True)
        yield hashlib.blake2b(text.encode(), digest_size=4).hexdigest()
        if st.phase >= PHASE_HAND_OVER or k == STEP_CAP:
            return
        seat, aid = _choose(st, rnd, legal)
        events = []
        step(st, seat, aid, events)


def trace_lines() -> Iterator[str]:
    """The golden file's lines: one per hand."""
    for name, options in CONFIGS:
        rules = rules_of(options)
        for i in range(HANDS_PER_CONFIG):
            seed = 1000 * i + len(name)
            steps = list(trace_hand(rules, seed))
            yield f"{name} {seed} {len(steps)} {' '.join(steps)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {GOLDEN.name} instead of checking it")
    args = parser.parse_args(argv)
    lines = list(trace_lines())
    if args.write:
        GOLDEN.write_text("\n".join(lines) + "\n")
        print(f"wrote {len(lines)} hands, {sum(int(x.split()[2]) for x in lines)} steps to {GOLDEN}")
        return 0
    want = GOLDEN.read_text().splitlines()
    bad = [(a, b) for a, b in zip(lines, want, strict=False) if a != b]
    for got, expected in bad[:5]:
        steps = list(zip(got.split()[3:], expected.split()[3:], strict=False))
        at = next((i for i, (a, b) in enumerate(steps) if a != b), len(steps))
        print(f"{' '.join(expected.split()[:2])}: differs from step {at} (0: the deal)", file=sys.stderr)
    if bad or len(lines) != len(want):
        print(f"{len(bad)} hands differ ({len(lines)} traced, {len(want)} in the file)", file=sys.stderr)
        return 1
    print(f"{len(lines)} hands match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
