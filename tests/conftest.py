"""Shared helpers for the tests."""

from __future__ import annotations

from pathlib import Path

SCENARIO_DIR = Path(__file__).parent / "scenarios"
