"""Bots by name: ``make_bot(name, seed, budget)``.

Levels of the ladder: ``random`` (level 1), ``rule`` (level 2, rules of thumb), ``search``
(level 3, the rule bot with a short look-ahead). One line each in ``_KINDS``. Variants of a
level, for samples rather than for the ladder, in ``_VARIANTS``: ``rule-varied`` (the rule bot
with limits and tie-breaks drawn from its seed, :mod:`.varied_rule_bot`)."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from .base import BotBase
from .random_bot import RandomBot
from .rule_bot import RuleBot
from .search_bot import SearchBot
from .varied_rule_bot import VariedRuleBot

_KINDS: MappingProxyType[str, Callable[[int, float | None], BotBase]] = MappingProxyType({
    "random": RandomBot,
    "rule": RuleBot,
    "search": SearchBot,
})

_VARIANTS: MappingProxyType[str, Callable[[int, float | None], BotBase]] = MappingProxyType({
    "rule-varied": VariedRuleBot,
})

BOT_NAMES: tuple[str, ...] = tuple(_KINDS)
VARIANT_NAMES: tuple[str, ...] = tuple(_VARIANTS)


def make_bot(name: str, seed: int, budget: float | None = None) -> BotBase:
    """A new bot of kind ``name`` with its own random stream from ``seed`` and ``budget``
    seconds per decision."""
    kind = _KINDS.get(name) or _VARIANTS.get(name)
    if kind is None:
        known = ", ".join(BOT_NAMES + VARIANT_NAMES)
        raise ValueError(f"make_bot: unknown bot {name!r} (known: {known})")
    return kind(seed, budget)
