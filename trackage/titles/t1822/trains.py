"""1822's trains: a train's own kind while a pullman rides on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .config import EXTRA_PERMANENTS

if TYPE_CHECKING:
    from .game import Game1822


def train_kind(game: Game1822, train) -> str:
    """A train's own name, also while a pullman is attached to it (the reference decides
    crowding before the attachment renames the train)."""
    if train is getattr(game, "_pullman_train", None) and game._pullman_saved:
        return game._pullman_saved[0]
    return train.name


def kind_counts(game: Game1822, holder) -> tuple[int, int, int]:
    """``holder``'s trains by :func:`train_kind`: (normal, permanent 2P/LP, pullman P+) (the
    pullman's rider looked up once, not per train: asked at every step question)."""
    rider = getattr(game, "_pullman_train", None)
    saved = game._pullman_saved if rider is not None else None
    normal = permanents = pullmans = 0
    for t in holder.trains:
        n = saved[0] if saved and t is rider else t.name
        if n in EXTRA_PERMANENTS:
            permanents += 1
        elif n == "P+":
            pullmans += 1
        else:
            normal += 1
    return normal, permanents, pullmans
