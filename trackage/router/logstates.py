"""The states of a log just before each of its ``run_routes`` (for benches and tests)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.log import filter_actions, load_log
from ..replay import game_from_log

if TYPE_CHECKING:
    from ..core.game import Game


def run_routes_states(path_or_data: str | Path | dict[str, Any], *,
                      every: int = 1) -> Iterator[tuple[dict[str, Any], object]]:
    """Yield (the logged run_routes action, a copy of the game just before it); with
    ``every`` > 1 only every n-th one."""
    data = load_log(path_or_data) if not isinstance(path_or_data, dict) else path_or_data
    actions = filter_actions(data["actions"])
    game = game_from_log(data)
    found: list[tuple[dict[str, Any], Game]] = []
    count = [0]
    applied = [0]

    def on_action(g: Game, _action: dict[str, Any]) -> None:
        applied[0] += 1
        k = applied[0]
        if k < len(actions) and actions[k].get("type") == "run_routes":
            count[0] += 1
            if count[0] % every == 0:
                found.append((actions[k], g.copy()))

    with contextlib.suppress(Exception):  # a log that stops replaying gives the states before
        game.load(actions, trace=on_action)
    yield from found


def state_before(path_or_data: str | Path | dict[str, Any], action_id: int) -> tuple[object, dict[str, Any]]:
    """(the game just before the live action ``action_id`` of a log, that action)."""
    data = load_log(path_or_data) if not isinstance(path_or_data, dict) else path_or_data
    actions = filter_actions(data["actions"])
    k = next(i for i, a in enumerate(actions) if a.get("id") == action_id)
    game = game_from_log(data)
    game.load(actions[:k])
    return game, actions[k]
