"""1858 India route rules: 1858's plus the Pullman bonus of the train it is attached to."""

from __future__ import annotations

from ..t1858.routes import RouteRules1858
from .steps import pullman_bonus, pullman_bonus_per_stop, pullman_stops


class RouteRulesIndia(RouteRules1858):
    def stop_value(self, route, stop) -> int:
        return super().stop_value(route, stop) + pullman_bonus(self.game, route, [stop])

    def revenue_for(self, route, stops) -> int:
        return super().revenue_for(route, stops) + pullman_bonus(self.game, route, stops)

    def router_train_key(self, train) -> tuple:
        return super().router_train_key(train) + (pullman_bonus_per_stop(self.game, train),)

    def router_bound_slack(self, train, corp) -> int | None:
        """The Pullman bonus depends on the route's stops: not bounded ahead."""
        return None

    def router_route_bound(self, train, corp, stops, base: int, weakest: int = 0) -> int:
        base = self.router_base_bound(train, corp, base)
        per = pullman_bonus_per_stop(self.game, train)
        return base + (per * pullman_stops(stops()) if per else 0)
