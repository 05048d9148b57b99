"""Shared test helpers: where the shared fixtures and traces live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TRACKAGE_SHARED", REPO.parent / "shared"))
FIXTURES = Path(os.environ.get("TRACKAGE_FIXTURES", SHARED / "fixtures"))
TRACES = Path(os.environ.get("TRACKAGE_TRACES", SHARED / "traces"))


def fixture_files(title: str) -> list[Path]:
    d = FIXTURES / title
    return sorted(d.glob("*.json")) if d.is_dir() else []


def require_fixtures(title: str) -> list:
    files = fixture_files(title)
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"NO FIXTURES: folder {FIXTURES / title} is absent (set TRACKAGE_FIXTURES)"))]
    return files
