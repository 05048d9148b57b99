"""1825's route rules: double-headed 2-trains, halts for T trains, tile 200 pass-through,
no route starting and ending in a town, one stop per hex."""

from __future__ import annotations

from ...core.routes import NoToken, Route, RouteError, RouteRules

NO_TOWN_ENDS_EXEMPT = ("3T", "4T", "U3", "2+2")
T_TRAINS = ("3T", "4T")


class _DummyTrain:
    """A stand-in train whose stop allowance grows by the tile-200 stations it passes."""

    def __init__(self, spec: dict, extra: int):
        self.name = spec["name"]
        self.multiplier = 1
        self.spec = {"requires_token": False}
        self.distance = [{**row, "visit": row["pay"] + extra} for row in spec["distance"]]


class RouteRules1825(RouteRules):
    def __init__(self, game):
        super().__init__(game)
        self.dummy = {d["name"]: d for d in game.data["dummy_trains"]}

    # -- double headers
    def _double_header_pair(self, a, b) -> bool:
        corp = a.corporation
        common = [s for s in a.visited_stops if s in b.visited_stops]
        if not common:
            return False
        c = common[0]
        if c.is_city and self.board.blocks(c, corp):
            return False
        if all(s.is_town for s in a.visited_stops) or all(s.is_town for s in b.visited_stops):
            return False
        a_tok = self.first_tokened([s for s in a.visited_stops if s.is_city], corp) is not None
        b_tok = self.first_tokened([s for s in b.visited_stops if s.is_city], corp) is not None
        if not a_tok and not b_tok:
            return False
        if c.is_town:
            return True
        return not (a_tok and b_tok)

    def double_headers(self, routes) -> list:
        pairs = []
        used: set = set()
        for a in routes:
            if a.train.distance != 2 or len(a.visited_stops) != 2 or id(a) in used:
                continue
            for b in routes:
                if b is a or b.train.distance != 2 or len(b.visited_stops) != 2 or id(b) in used:
                    continue
                if self._double_header_pair(a, b):
                    pairs.append((a, b))
                    used.update((id(a), id(b)))
                    break
        return pairs

    def _run_double_headers(self, route) -> list:
        """``double_headers`` of the route's run, worked out once for the run and kept with
        each of its routes (for exactly these routes, in this order)."""
        run = route.routes
        kept = route.memo.get("double_headers")
        if kept is not None and len(kept[0]) == len(run) and all(a is b for a, b in zip(kept[0], run, strict=True)):
            return kept[1]
        pairs = self.double_headers(run)
        entry = (tuple(run), pairs)
        for r in run:
            r.memo["double_headers"] = entry
        return pairs

    def _buddies(self, route):
        for pair in self._run_double_headers(route):
            if any(r is route for r in pair):
                return pair
        return ()

    def is_double_header(self, route) -> bool:
        return bool(self._buddies(route))

    # -- tile 200
    def _num_tile200(self, route, visits) -> int:
        phase = self.game.phase.name
        if not phase[:1].isdigit() or int(phase[:1]) <= 2 or route.train.name not in self.dummy:
            return 0
        corp = route.corporation
        return sum(1 for n in visits[1:-1] if n.tile.name == "200" and self.city_tokened_by(n, corp))

    # -- checks
    def check_distance(self, route, visits, train=None):
        n = self._num_tile200(route, visits)
        if n:
            super().check_distance(route, visits, _DummyTrain(self.dummy[route.train.name], n))
        else:
            super().check_distance(route, visits, train)
        by_hex: dict = {}
        for v in visits:
            by_hex.setdefault(v.hex, []).append(v)
        for stops in by_hex.values():
            if len(stops) > 1 and not (route.train.name in T_TRAINS and all(s.is_town for s in stops)):
                raise RouteError("Cannot visit multiple towns/cities in same hex", rule="route-same-hex")
        if route.train.name in NO_TOWN_ENDS_EXEMPT or not visits:
            return
        if visits[0].is_town and visits[-1].is_town:
            raise RouteError("Route cannot begin/end in a town", rule="route-town-ends")
        end_town = visits[0].is_town or visits[-1].is_town
        if end_town and route.train.distance == 2 and self.is_double_header(route):
            end_town = False
        if end_town:
            raise RouteError("Route cannot begin/end in a town", rule="route-town-ends")

    def check_route_token(self, route, token):
        if token is None and not self.is_double_header(route):
            raise NoToken("Route must contain token")

    def check_connected(self, route, corporation):
        if route.train.distance == 2:
            return
        super().check_connected(route, corporation)

    def compute_stops(self, route, train=None):
        n = self._num_tile200(route, route.visited_stops)
        if n:
            return super().compute_stops(route, _DummyTrain(self.dummy[route.train.name], n))
        return super().compute_stops(route, train)

    # -- revenue
    def stop_revenue(self, stop, route):
        if stop.tile.label == "HALT" and route.train.name not in T_TRAINS:
            return 0
        return super().stop_revenue(stop, route)

    def revenue_for(self, route, stops):
        # (only a 2-train's route can be half of a double header: another's buddies are none,
        # so the run's pairs are not looked up for it; they are worked out, and kept, when
        # a 2-train's route asks)
        buddies = self._buddies(route) if route.train.distance == 2 else ()
        if not buddies:
            return sum(self.stop_revenue(s, route) for s in stops)
        first, last = buddies
        total = 0
        for s in stops:
            if last is route and s in first.stops:
                continue
            total += self.stop_revenue(s, route)
        return total

    # -- the router's hooks
    def router_meter(self, train) -> dict | None:
        """Tokened tile-200 stations do not use up a train's distance (generously: also at
        the ends; the distance check decides)."""
        if train.name not in self.dummy:
            return None
        phase = self.game.phase.name
        if not phase[:1].isdigit() or int(phase[:1]) <= 2:
            return None
        corp = self.train_owner(train)
        return {"free": lambda node: node.tile.name == "200" and self.city_tokened_by(node, corp)}

    def router_start_radius(self, train) -> int:
        """2-trains may run without a token as the second half of a double header: routes
        may start one stop away from a token."""
        return 1 if train.distance == 2 else 0

    def router_bound(self, route: Route) -> int | None:
        """A 2-stop route of a 2-train that is illegal alone may still run as half of a
        double header: at most its stops' value."""
        try:
            return route.revenue(recompute=True, suppress_check_route_combination=True)
        except RouteError:
            stops = route.visited_stops
            if route.train.distance != 2 or len(stops) != 2 or stops[0].hex is stops[1].hex:
                return None
            return sum(self.stop_revenue(s, route) for s in stops)

    def router_unique_stop_hexes(self, train) -> bool:
        """One stop per hex, but T trains may stop at several towns of a hex."""
        return train.name not in T_TRAINS
