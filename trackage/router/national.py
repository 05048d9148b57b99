"""Hard run states for benches and tests: the national of 1867/1861 in a log's late states,
running a single 5+5E (it pays its 5 best stops and visits any number of others, so its
routes cross the whole map)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.errors import GameError
from ..core.trains import Train
from .logstates import run_routes_states


def with_national_train(game: Any, train_name: str = "5+5E") -> Any:
    """``game`` (changed in place: use a copy) with its national owning one ``train_name``
    (a new card of the depot's spec) and no other train; returns the national."""
    national = game.national
    spec = next((t.spec for t in game.depot.trains if t.name == train_name), None)
    if spec is None:
        raise GameError(f"national state: no {train_name} train in {game.title}'s depot")
    train = Train(spec, max(t.index for t in game.depot.trains if t.base == spec["name"]) + 1)
    train.owner = national
    national.trains = [train]
    return national


def national_states(path: str | Path, *, last: int = 30, every: int = 3,
                    train_name: str = "5+5E") -> Iterator[tuple[int, Any, Any]]:
    """(action id, game copy, its national with one ``train_name``) for every ``every``-th of
    the last ``last`` run_routes states of a 1867/1861 log (same log, same states)."""
    states = list(run_routes_states(path))[-last:]
    for action, game in states[::every]:
        yield int(action["id"]), game, with_national_train(game, train_name)
