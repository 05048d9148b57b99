"""Level 1: the random bot, a weighted draw over the seat's legal actions with a price drawn
in the allowed range (the random player of ``trackage.playout``)."""

from __future__ import annotations

from typing import Any

from ..core.errors import GameError
from ..playout import choose as weighted_choice
from .base import BotBase, seat_actions


class RandomBot(BotBase):
    name = "random"

    def choose(self, game: Any, seat: int) -> dict[str, Any]:
        actions = seat_actions(game, seat)
        if not actions:
            raise GameError(f"random bot: seat {seat} has no legal action in {game.round.name}", rule="not-your-turn")
        action = game.playout_choose(self.rng, actions) or weighted_choice(self.rng, actions, game.PLAYOUT_WEIGHTS)
        action["id"] = len(game.actions) + 1
        return dict(action)
