"""Per-title tweaks of the rule bot's thresholds (keys read by ``stock``/``operate``; the
default when a title leaves one out):

- ``bid_margin`` (1.2), ``bid_extra`` (10): bid at most value * margin + extra;
- ``bid_reserve`` (0): cash kept back after a bid; ``max_holdings`` (none): no bid once the
  player runs or holds this many operators and privates;
- ``par_cash_share`` (1.0): the part of the floating cost the player must hold to par;
- ``trainless_closes`` (False): an operator that ends its train step without a train is
  nationalised (1861, 1867), so one without a train buys whatever it can, as if forced."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

TWEAKS: MappingProxyType[str, MappingProxyType[str, Any]] = MappingProxyType({
    "1822": MappingProxyType({"bid_margin": 1.0, "bid_extra": 20, "bid_reserve": 100, "max_holdings": 3}),
    "1861": MappingProxyType({"trainless_closes": True}),
    "1867": MappingProxyType({"trainless_closes": True}),
})

NO_TWEAKS: MappingProxyType[str, Any] = MappingProxyType({})


def tweaks_for(title: str) -> dict[str, Any]:
    return dict(TWEAKS.get(title, NO_TWEAKS))
