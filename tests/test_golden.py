"""The engine plays the golden trace (``tests/data/golden-trace.txt``, written by
``tests/golden_trace.py``): every state, legal set, event and refusal of 560 seeded hands over
every edition, hand-level option and house rule, unchanged by a refactoring."""

from __future__ import annotations

from golden_trace import CONFIGS, GOLDEN, HANDS_PER_CONFIG, trace_lines


def test_the_engine_plays_the_golden_trace() -> None:
    want = GOLDEN.read_text().splitlines()
    assert len(want) == len(CONFIGS) * HANDS_PER_CONFIG
    for got, expected in zip(trace_lines(), want, strict=True):
        name, seed = expected.split()[:2]
        if got != expected:
            steps = list(zip(got.split()[3:], expected.split()[3:], strict=False))
            at = next((i for i, (a, b) in enumerate(steps) if a != b), len(steps))
            raise AssertionError(f"{name} seed {seed}: the trace differs from step {at} (0: the deal)")


def test_the_trace_covers_every_edition_and_house_rule() -> None:
    from unotable.rules import EDITIONS, HOUSE_RULES  # noqa: PLC0415

    editions = {opts.get("edition", "classic") for _, opts in CONFIGS}
    assert editions == set(EDITIONS)
    for rule in (
        *HOUSE_RULES,
        "must_play_drawn",
        "lenient_plays",
        "scoring",
        "mode",
        "blanks",
        "birthdays",
        "custom",
    ):
        assert any(rule in opts for _, opts in CONFIGS), rule
