"""Bots by name: ``make_bot(name, seed, budget)``.

Levels of the ladder: ``random`` (level 1), ``rule`` (level 2, rules of thumb), ``search``
(level 3, the rule bot with a short look-ahead). One line each in ``_KINDS``."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from .base import BotBase
from .random_bot import RandomBot
from .rule_bot import RuleBot
from .search_bot import SearchBot

_KINDS: MappingProxyType[str, Callable[[int, float | None], BotBase]] = MappingProxyType({
    "random": RandomBot,
    "rule": RuleBot,
    "search": SearchBot,
})

BOT_NAMES: tuple[str, ...] = tuple(_KINDS)


def make_bot(name: str, seed: int, budget: float | None = None) -> BotBase:
    """A new bot of kind ``name`` with its own random stream from ``seed`` and ``budget``
    seconds per decision."""
    try:
        kind = _KINDS[name]
    except KeyError:
        raise ValueError(f"make_bot: unknown bot {name!r} (known: {', '.join(BOT_NAMES)})") from None
    return kind(seed, budget)
