"""Bots: players for trackage's games, on the engine's public API only.

A bot answers ``choose(game, seat)`` with an action ready for ``game.process``. Levels:
``random`` (:mod:`.random_bot`), ``rule`` (:mod:`.rule_bot`, its rules in :mod:`.rules`; varied by
its seed: :mod:`.varied_rule_bot`),
``search`` (:mod:`.search_bot`, its scoring in :mod:`.search_eval`). Tournaments between
bots: :mod:`.tournament` (on a Ray cluster: :mod:`.cluster`).
"""

from __future__ import annotations

from .base import Bot, BotBase, acting_seat, seat_actions
from .random_bot import RandomBot
from .registry import BOT_NAMES, make_bot
from .rule_bot import RuleBot

__all__ = ["BOT_NAMES", "Bot", "BotBase", "RandomBot", "RuleBot", "acting_seat", "make_bot", "seat_actions"]
