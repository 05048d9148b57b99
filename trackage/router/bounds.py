"""Cheap upper bounds of a route's revenue, from per-stop values.

A stop's value for a train is what the title's ``stop_revenue`` gives it (phase colours and
the train's multiplier included). A route earns at most the sum of its best stop values, as
many as the distance rows pay in all (every stop when the distance is a number); a title's
``router_route_bound(train, corp, stops, base)`` (``stops()`` gives the route's stops) turns that sum
into its bound (adding what its bonuses can add, halving for wounded trains, ...). The search evaluates
a route exactly only when its bound could still matter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.routes import Route, RouteRules

if TYPE_CHECKING:
    from ..core.entities import Corporation, Minor
    from ..core.tiles import RevenueCenter
    from ..core.trains import Train


class StopValues:
    def __init__(self, rules: RouteRules, train: Train, corp: Corporation | Minor):
        self.rules = rules
        self.train = train
        self.corp = corp
        self.dummy = Route(rules, train, connection_data=[])
        d = train.distance
        # every stop may pay (some titles let any stop fill a row's unused pay), at most the
        # rows' total pay of them
        self.pay = None if isinstance(d, (int, float)) else sum(int(r.get("pay") or 0) for r in d)
        self.memo: dict[RevenueCenter, int] = {}
        cls = type(rules)
        # a title whose bound needs no stops gives ``router_base_bound(train, corp, base)``
        # (used when it does not give ``router_route_bound``); None: no such rule
        self.base_hook: Callable[[Train, Corporation | Minor, int], int] | None = (
            rules.router_base_bound if cls.router_route_bound is RouteRules.router_route_bound
            and cls.router_base_bound is not RouteRules.router_base_bound else None)
        # the title's ``router_free_stop``; None: no stop is free
        self.free: Callable[[Train, RevenueCenter], bool] | None = (
            rules.router_free_stop if cls.router_free_stop is not RouteRules.router_free_stop else None)

    def value(self, stop: RevenueCenter) -> int:
        v = self.memo.get(stop)
        if v is None:
            v = 0 if self.free is not None and self.free(self.train, stop) else self._price(stop)
            self.memo[stop] = v
        return v

    def _price(self, stop: RevenueCenter) -> int:
        try:
            return max(0, int(self.rules.stop_revenue(stop, self.dummy)))
        except Exception:  # noqa: BLE001 - a stop the rules cannot price alone: assume nothing
            return 10 ** 6
