"""Helpers of the router tests."""

from __future__ import annotations

from typing import Any

from trackage.router import optimal_routes, solve


def floored_and_full(monkeypatch: Any, game: Any, entity: Any) -> tuple[Any, Any]:
    """A lone train's best run as the router finds it (with its rising floor) and as the full
    walk finds it (no floor: every route walked)."""
    floored = optimal_routes(game, entity)
    with monkeypatch.context() as m:
        m.setattr(solve, "_bound_slack", lambda *_a: None)
        full = optimal_routes(game, entity)
    return floored, full
