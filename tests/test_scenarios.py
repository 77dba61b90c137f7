"""The conformance suite: every scenario file of the project and the shared examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from unotable.scenario import load, run

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.json"))


def test_the_suite_is_there() -> None:
    assert len(SCENARIOS) >= 100
    assert len(list((Path(__file__).parent / "scenarios" / "upstream").glob("*.json"))) >= 8


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_scenario(path: Path) -> None:
    failures = run(load(path))
    assert not failures, "\n".join(str(f) for f in failures)
