"""Shared helpers for the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

SCENARIO_DIR = Path(__file__).parent / "scenarios"


SURFACE_FILES = (
    "test_browser*.py",
    "test_tui*.py",
    "test_*_tui.py",
    "test_cluster_failover.py",
    "test_fault.py",
)
"""The modules whose tests drive a browser, a terminal screen or server processes that are
killed: marked ``surface`` (below)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests (long statistical runs) have no time limit; the others fail if they hang.

    The tests of :data:`SURFACE_FILES` are marked ``surface``: what they check lies above the
    rules core (the page, the screen, durability), so the second, pure-Python pass of CI
    (``make test-pure``) leaves them out; ``make test`` runs them, with the native core."""
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(0))
        if any(item.path.match(pattern) for pattern in SURFACE_FILES):
            item.add_marker(pytest.mark.surface)
