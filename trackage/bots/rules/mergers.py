"""Rules for 1861's and 1867's merger rounds: a player's minor converts to a major, or merges
with the player's other minors, before the minors are nationalised (at a loss) later on.

Each rule scores a listed action (None: no opinion)."""

from __future__ import annotations

from typing import Any

from .common import controlled_by, finalize

Scored = tuple[float, dict[str, Any]]


def _merging(game: Any) -> list[Any] | None:
    step = game.round.active_step() if hasattr(game.round, "active_step") else None
    merging = getattr(step, "merging", None)
    return list(merging) if merging is not None else None


def score_convert(game: Any, player: Any, entity: Any, action: dict[str, Any]) -> Scored | None:
    """Convert its own minor (it keeps its trains and track as a major, out of nationalisation)."""
    if not controlled_by(entity, player):
        return None
    return 50.0, finalize(action)


def score_merge(game: Any, player: Any, entity: Any, action: dict[str, Any]) -> Scored | None:
    """Name a major for a conversion or a merge under way; merge in the player's own minors;
    another player's minor only to complete a merge already begun."""
    other = game.corporation_by_id(action.get("corporation")) if action.get("corporation") else None
    if other is None or not controlled_by(entity, player):
        return None
    if getattr(other, "type", None) != "minor":
        return 55.0, finalize(action)
    if controlled_by(other, player):
        return 40.0 + float(getattr(other, "cash", 0)) / 1000.0, finalize(action)
    if _merging(game) is not None:
        return 5.0, finalize(action)
    return None
