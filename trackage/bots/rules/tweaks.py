"""Per-title tweaks of the rule bot's thresholds (keys read by ``stock``/``operate``; the
default when a title leaves one out):

- ``bid_margin`` (1.2), ``bid_extra`` (10): bid at most value * margin + extra;
- ``bid_reserve`` (0): cash kept back after a bid; ``max_holdings`` (none): no bid once the
  player runs or holds this many operators and privates;
- ``par_cash_share`` (1.0): the part of the floating cost the player must hold to par;
- ``price_margin`` (1.0): a private is bought from another player at most at its face value
  times this;
- ``buy_when_trainless`` (False): an operator without a train buys whatever it can, as if
  forced (1861, 1867: one that ends its train step without a train is nationalised; 1858:
  it earns nothing and its price drops);
- ``president_pays`` (True): a president may be made to pay for a train (not in 1858), so
  what that may cost is kept back before buying shares or bidding."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

TWEAKS: MappingProxyType[str, MappingProxyType[str, Any]] = MappingProxyType({
    "1822": MappingProxyType({"bid_margin": 1.0, "bid_extra": 20, "bid_reserve": 100, "max_holdings": 3}),
    "1861": MappingProxyType({"buy_when_trainless": True}),
    "1867": MappingProxyType({"buy_when_trainless": True}),
    "1858": MappingProxyType({"buy_when_trainless": True, "president_pays": False}),
    "1858India": MappingProxyType({"buy_when_trainless": True, "president_pays": False}),
})

NO_TWEAKS: MappingProxyType[str, Any] = MappingProxyType({})


def tweaks_for(title: str) -> dict[str, Any]:
    return dict(TWEAKS.get(title, NO_TWEAKS))
