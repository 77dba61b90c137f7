"""Shared helpers for the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

SCENARIO_DIR = Path(__file__).parent / "scenarios"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests (long statistical runs) have no time limit; the others fail if they hang."""
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(pytest.mark.timeout(0))
