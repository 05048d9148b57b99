"""Shared test helpers: where the shared fixtures and traces live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trackage.titles import new_game

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


def ref(g, e=None):
    """The entity fields of an action by ``e`` (default: whoever acts now)."""
    return g.index.ref(e or g.current_entity())


@pytest.fixture
def unit1_game():
    """A fresh 4-player 1825 Unit 1 game (players P1-P4)."""
    return new_game("1825", [{"id": i, "name": f"P{i}"} for i in range(1, 5)], ["unit_1"], seed=3)


@pytest.fixture
def operating_game(unit1_game):
    """1825 Unit 1, 4 players: LNWR sold out and operating first, GWR floated."""
    g = unit1_game
    g.process({"type": "par", **ref(g), "corporation": "LNWR", "share_price": "100,0,15"})
    for i in range(1, 9):
        g.process({"type": "buy_shares", **ref(g), "shares": [f"LNWR_{i}"], "percent": 10})
    g.process({"type": "par", **ref(g), "corporation": "GWR", "share_price": "90,0,14"})
    for i in range(1, 5):
        g.process({"type": "buy_shares", **ref(g), "shares": [f"GWR_{i}"], "percent": 10})
    while g.round.name == "Stock Round":
        g.process({"type": "pass", **ref(g)})
    assert g.current_entity().id == "LNWR"
    return g
