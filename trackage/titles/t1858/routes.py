"""1858 route rules: H trains count hex edges, E/D/M trains count cities, each train runs
on its own gauge (broad or metre, dual track for both), wounded trains earn half."""

from __future__ import annotations

from itertools import pairwise

from ...core.routes import RouteError, RouteRules
from .game import Game1858


def hex_train(train) -> bool:
    return isinstance(train.distance, int)


def hex_edge_cost(chain) -> int:
    n = 0
    for a, b in pairwise(chain.paths):  # (a plain loop: asked for every path pair of an H train's run)
        if a.hex is not b.hex:
            n += 1
    return n


class RouteRules1858(RouteRules):
    game: Game1858

    def track_type(self, train) -> str:
        g = self.game
        if type(g).track_type is Game1858.track_type and type(g).train_spec is Game1858.train_spec:
            # (the game's answer read in place: the train's own variant; asked twice per run)
            return train.variants[train.name].get("track_type", "broad")
        return g.track_type(train)

    def skip_route_track_type(self, train):
        return "broad" if self.track_type(train) == "narrow" else "narrow"

    def route_distance(self, route) -> int:
        if isinstance(route.train.distance, int):  # (:func:`hex_train` inline)
            return sum(hex_edge_cost(c) for c in route.chains if c is not None)
        return super().route_distance(route)

    def check_distance(self, route, visits, train=None) -> None:
        train = train if train is not None else route.train
        if isinstance(train.distance, int):  # (:func:`hex_train` inline: asked for every run)
            d = self.route_distance(route)
            if d > train.distance:
                raise RouteError(f"{d} is too many hex edges for {train.name} train", rule="route-too-long")
            return
        super().check_distance(route, visits, train)

    def check_other(self, route) -> None:
        tracks = {p.track for p in route.paths}
        train = route.train
        # (:meth:`track_type` inline when it is the game's own: asked for every run)
        g = self.game
        if (type(self).track_type is RouteRules1858.track_type and type(g).track_type is Game1858.track_type
                and type(g).train_spec is Game1858.train_spec):
            kind = train.variants[train.name].get("track_type", "broad")
        else:
            kind = self.track_type(train)
        if kind == "narrow":
            if "broad" in tracks:
                raise RouteError("Route cannot contain broad gauge track", rule="route-gauge")
        elif "narrow" in tracks:
            raise RouteError("Route cannot contain metre gauge track", rule="route-gauge")

    def stop_value(self, route, stop) -> int:
        """What one stop adds (before halving; the base ``revenue_for`` of that stop alone);
        titles add per-stop bonuses."""
        return self.stop_revenue(stop, route)

    def compute_stops(self, route, train=None) -> list:
        """The paying stops of a typed-distance train: per stop type the best ones up to
        its pay limit (the most stops, then the best revenue, as the reference's search)."""
        train = train if train is not None else route.train
        visits = self.revenue_stops(route)
        distance = train.distance
        if isinstance(distance, (int, float)):
            return visits
        if not visits:
            return []
        if len(distance) == 2:
            # (two rows, the shortest first as the stable sort orders them: no sort)
            first, second = distance
            rows = [first, second] if len(first["nodes"]) <= len(second["nodes"]) else [second, first]
        else:
            rows = sorted(distance, key=lambda h: len(h["nodes"]))
        by_row: list = [[] for _ in rows]
        # (the base's stop type, a stop's kind, read in place)
        stop_type = None if type(self).stop_type is RouteRules.stop_type else self.stop_type
        for i, s in enumerate(visits):
            t = s.kind if stop_type is None else stop_type(s, train)
            for ri, h in enumerate(rows):
                if t in h["nodes"]:
                    by_row[ri].append(i)
                    break
        # a stop's value is asked only where it orders a choice: a row with more stops than it
        # pays (a row paying nothing, or all its stops, takes none or all; the picked stops are
        # sorted by place below), or the token search
        values: dict[int, int] = {}

        def value(i: int) -> int:
            v = values.get(i)
            if v is None:
                v = values[i] = self.stop_value(route, visits[i])
            return v

        chosen: list = []
        for ri, h in enumerate(rows):
            row = by_row[ri]
            pay = int(h.get("pay") or 0)
            chosen.append(sorted(row, key=lambda i: (-value(i), i))[:pay] if 0 < pay < len(row) else row[:pay])
        picked = [i for c in chosen for i in c]
        corp = route.corporation
        if self.requires_token(train) and self.first_tokened([visits[i] for i in picked], corp) is None:
            best = None
            for ri, cand in enumerate(by_row):
                limit = int(rows[ri].get("pay") or 0)
                if limit == 0:
                    continue
                for t in cand:
                    if not self.city_tokened_by(visits[t], corp):
                        continue
                    others = [i for i in picked if i not in chosen[ri]]
                    mine = sorted([i for i in chosen[ri] if i != t], key=lambda i: (-value(i), i))
                    trial = others + [t] + mine[:limit - 1] if len(chosen[ri]) >= limit else others + chosen[ri] + [t]
                    rev = self.revenue_for(route, [visits[i] for i in sorted(trial)])
                    if best is None or len(trial) > len(best[1]) or (len(trial) == len(best[1]) and rev > best[0]):
                        best = (rev, trial)
            if best is None:
                return []
            picked = best[1]
        stops = [visits[i] for i in sorted(picked)]
        return stops if stops and self.stops_revenue(route, stops) > 0 else []

    def revenue_for(self, route, stops) -> int:
        revenue = super().revenue_for(route, stops)
        if route.train.obsolete:
            revenue //= 2
        return revenue

    # -- the router's hooks
    def router_meter(self, train) -> dict | None:
        """H trains count hex edges, not stops."""
        return {"hex_edges": int(train.distance)} if hex_train(train) else None

    def router_free_stop(self, train, node) -> bool:
        """A stop whose type no distance row pays (towns for E and D trains) earns nothing
        and only lengthens a route that ends there."""
        d = train.distance
        if isinstance(d, (int, float)):
            return False
        t = self.stop_type(node, train)
        rows = [r for r in d if t in r["nodes"]]
        return bool(rows) and all(not (r.get("pay") or 0) for r in rows)

    def router_base_bound(self, train, corp, base: int) -> int:
        """Wounded (obsolete) trains earn half (the bound needs no stops)."""
        return base // 2 if train.obsolete else base

    def router_bound_slack(self, train, corp) -> int | None:
        """``router_base_bound`` never adds to the stop values."""
        return 0
