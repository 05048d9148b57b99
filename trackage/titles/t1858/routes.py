"""1858 route rules: H trains count hex edges, E/D/M trains count cities, each train runs
on its own gauge (broad or metre, dual track for both), wounded trains earn half."""

from __future__ import annotations

from ...core.routes import RouteError, RouteRules


def hex_train(train) -> bool:
    return isinstance(train.distance, int)


def hex_edge_cost(chain) -> int:
    paths = chain.paths
    return sum(0 if a.tile.hex is b.tile.hex else 1 for a, b in zip(paths, paths[1:]))


class RouteRules1858(RouteRules):
    def track_type(self, train) -> str:
        return self.game.track_type(train)

    def skip_route_track_type(self, train):
        return "broad" if self.track_type(train) == "narrow" else "narrow"

    def route_distance(self, route) -> int:
        if hex_train(route.train):
            return sum(hex_edge_cost(c) for c in route.chains if c is not None)
        return super().route_distance(route)

    def check_distance(self, route, visits, train=None) -> None:
        train = train if train is not None else route.train
        if hex_train(train):
            d = self.route_distance(route)
            if d > train.distance:
                raise RouteError(f"{d} is too many hex edges for {train.name} train", rule="route-too-long")
            return
        super().check_distance(route, visits, train)

    def check_other(self, route) -> None:
        tracks = {p.track for p in route.paths}
        if self.track_type(route.train) == "narrow":
            if "broad" in tracks:
                raise RouteError("Route cannot contain broad gauge track", rule="route-gauge")
        elif "narrow" in tracks:
            raise RouteError("Route cannot contain metre gauge track", rule="route-gauge")

    def revenue_for(self, route, stops) -> int:
        revenue = super().revenue_for(route, stops)
        if route.train.obsolete:
            revenue //= 2
        return revenue
