"""The conformance suite: every scenario file of the project and the shared examples.

The project's files are ``tests/scenarios/`` (with ``upstream/``, the copies of the examples the
format was published with). When a ``shared/scenarios/`` folder stands beside the repository (as
in the workspace the project grew in; ``UNOTABLE_SHARED`` names another ``shared`` folder), its
files are run too, and the copies in ``upstream/`` are checked against them; otherwise those
tests are skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from unotable.scenario import load, run

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.json"))
UPSTREAM = Path(__file__).parent / "scenarios" / "upstream"
SHARED = (
    Path(os.environ.get("UNOTABLE_SHARED") or Path(__file__).resolve().parents[2] / "shared") / "scenarios"
)
"""The shared scenario files beside the repository (the clone's parent folder in CI)."""
SHARED_SCENARIOS = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []
needs_shared = pytest.mark.skipif(not SHARED_SCENARIOS, reason=f"no shared scenario files at {SHARED}")


def test_the_suite_is_there() -> None:
    assert len(SCENARIOS) >= 100
    assert len(list((Path(__file__).parent / "scenarios" / "upstream").glob("*.json"))) >= 8


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_scenario(path: Path) -> None:
    failures = run(load(path))
    assert not failures, "\n".join(str(f) for f in failures)


@needs_shared
@pytest.mark.parametrize("path", SHARED_SCENARIOS, ids=lambda p: p.name)
def test_shared_scenario(path: Path) -> None:
    failures = run(load(path))
    assert not failures, "\n".join(str(f) for f in failures)


@needs_shared
def test_the_upstream_copies_are_the_shared_files() -> None:
    """Each copy in ``tests/scenarios/upstream/`` says what the shared file of its name says."""
    copies = sorted(UPSTREAM.glob("*.json"))
    shared = {p.name: p for p in SHARED_SCENARIOS}
    assert copies
    for copy in copies:
        assert copy.name in shared, f"{copy.name} is not among the shared files"
        assert json.loads(copy.read_text()) == json.loads(shared[copy.name].read_text()), copy.name
