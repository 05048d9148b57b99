"""Bots: players for trackage's games, on the engine's public API only.

A bot answers ``choose(game, seat)`` with an action ready for ``game.process``. Levels:
``random`` (:mod:`.random_bot`); rule-based and search bots are later levels, registered in
:mod:`.registry` once they exist. Tournaments between bots: :mod:`.tournament` (on a Ray
cluster: :mod:`.cluster`).
"""

from __future__ import annotations

from .base import Bot, BotBase, acting_seat, seat_actions
from .random_bot import RandomBot
from .registry import BOT_NAMES, make_bot

__all__ = ["BOT_NAMES", "Bot", "BotBase", "RandomBot", "acting_seat", "make_bot", "seat_actions"]
