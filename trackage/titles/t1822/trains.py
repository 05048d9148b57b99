"""1822's trains: a train's own kind while a pullman rides on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game1822


def train_kind(game: Game1822, train) -> str:
    """A train's own name, also while a pullman is attached to it (the reference decides
    crowding before the attachment renames the train)."""
    if train is getattr(game, "_pullman_train", None) and game._pullman_saved:
        return game._pullman_saved[0]
    return train.name
