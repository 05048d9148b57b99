"""1858's weights for the random player (the playouts)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game1858


def playout_weight(game: Game1858, action: dict) -> float:
    """How likely the random player is to pick ``action``."""
    kind = action["type"]
    if kind == "dividend":
        return game.PLAYOUT_DIVIDENDS.get(action.get("kind"), 1.0)
    if kind == "buy_train":
        train = game.depot.train_by_id(action["train"])
        return 6.0 if train is not None and train.owner is game.depot else 0.2
    if kind == "buy_shares" and action.get("entity_type") == "corporation":
        return 0.2  # redeeming
    return game.PLAYOUT_BIAS.get(kind, 1.0)
