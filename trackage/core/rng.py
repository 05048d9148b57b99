"""The reference's linear congruential generator, so seeded shuffles match 18xx.games."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from .rewind import Tracked

T = TypeVar("T")

_A = 1_103_515_245
_C = 12_345
_M = 2**31


class Rng(Tracked):
    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed % _M

    def next(self) -> int:
        self.state = (_A * self.state + _C) % _M
        return self.state

    def shuffle(self, items: list[T]) -> list[T]:
        """Sort by one fresh random key per element, drawn in list order."""
        keyed = [(self.next(), i, item) for i, item in enumerate(items)]
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [k[2] for k in keyed]


def seed_for(game_id: object, settings: dict[str, Any] | None) -> int:
    seed = (settings or {}).get("seed")
    if seed not in (None, ""):
        return int(seed)
    m = re.search(r"\d+", str(game_id or ""))
    return int(m.group(0)) if m else 0
