"""1858 India route rules: 1858's plus the Pullman bonus of the train it is attached to."""

from __future__ import annotations

from ..t1858.routes import RouteRules1858
from .steps import pullman_bonus


class RouteRulesIndia(RouteRules1858):
    def stop_value(self, route, stop) -> int:
        return super().stop_value(route, stop) + pullman_bonus(self.game, route, [stop])

    def revenue_for(self, route, stops) -> int:
        return super().revenue_for(route, stops) + pullman_bonus(self.game, route, stops)

    def router_train_key(self, train) -> tuple:
        return super().router_train_key(train) + (pullman_bonus_per_stop(self.game, train),)

    def router_route_bound(self, train, corp, stops, base: int) -> int:
        base = super().router_route_bound(train, corp, stops, base)
        per = pullman_bonus_per_stop(self.game, train)
        return base + (per * sum(1 for s in stops() if s.kind in ("city", "offboard")) if per else 0)


def pullman_bonus_per_stop(game, train) -> int:
    """What the Pullman attached to ``train`` adds per paying stop (0 without one)."""
    if getattr(game.round, "pullmans", {}).get(train.owner) is not train:
        return 0
    return (getattr(train, "multiplier", None) or 1) * (5 if train.obsolete else 10)
