"""1858 India route rules: 1858's plus the Pullman bonus of the train it is attached to."""

from __future__ import annotations

from ..t1858.routes import RouteRules1858
from .steps import pullman_bonus


class RouteRulesIndia(RouteRules1858):
    def stop_value(self, route, stop) -> int:
        return super().stop_value(route, stop) + pullman_bonus(self.game, route, [stop])

    def revenue_for(self, route, stops) -> int:
        return super().revenue_for(route, stops) + pullman_bonus(self.game, route, stops)
