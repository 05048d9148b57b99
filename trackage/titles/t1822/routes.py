"""1822 route rules: L (local) trains, E trains over tokened cities, destination bonus,
English Channel and France, double hexes."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ...core.routes import (
    Route,
    RouteError,
    RouterBonus,
    RouterBound,
    RouteRules,
    RouteTooLong,
    RouteTooShort,
)

DOUBLE_HEX = ("D35", "F7", "H21", "H37")
ENGLISH_CHANNEL = "P43"
FRANCE = "Q44"


class RouteRules1822(RouteRules):
    def is_local(self, train) -> bool:
        return train.name in ("L", "LP")

    def check_distance(self, route, visits, train=None):
        train = train if train is not None else route.train
        if train.name == "P+":
            raise RouteError("Cannot run Pullman train")
        ec = sum(1 for v in visits if v.hex.id in (ENGLISH_CHANNEL, FRANCE))
        if ec:
            if train.name in ("L", "LP"):
                raise RouteError("LP train cannot have a route over the English Channel")
            if ec == 1:
                raise RouteTooShort("Must connect English Channel to France")
            if ec == 2 and len(visits) == 2:
                raise RouteError("Route must have at least 2 stops; English Channel to France only counts as 1")
        if train.name == "E":
            corp = route.corporation

            def tokened(v):
                return v.is_city and self.board.tokened_by(v, corp, types=("normal", "destination"))
            visited = sum(1 for v in visits if tokened(v))
            if visited < 2:
                raise RouteError("E-train route must have at least 2 tokened cities")
            ends = sum(1 for v in (visits[0], visits[-1]) if tokened(v))
            channel = self.board.tile(self.game.board.hex_by_id(ENGLISH_CHANNEL)).cities
            ok = ends == 2 or (ends == 1 and ec == 2 and bool(channel) and self.board.tokened_by(channel[0], corp))
            if not ok:
                placed = sum(1 for t in corp.tokens if t.used and t.type in ("normal", "destination"))
                if visited == placed:
                    raise RouteTooLong("E-train route cannot extend beyond tokened cities")
                raise RouteError("E-train route must start and end at tokened cities")
        super().check_distance(route, visits, train)

    def revenue_for(self, route, stops):
        hexes = [h.id for h in route.hexes]
        if len(hexes) != len(set(hexes)) and not any(h in DOUBLE_HEX for h in hexes):
            raise RouteError("Route visits same hex twice")
        if route.train.name != "E":
            rev = super().revenue_for(route, stops)
        else:
            corp = route.corporation
            france = next((s for s in stops if s.kind == "offboard" and s.hex.id == FRANCE), None)
            rev = 0
            for s in stops:
                if not s.is_city:
                    continue
                if not self.board.tokened_by(s, corp, types=("normal", "destination")):
                    continue
                if s.hex.id == ENGLISH_CHANNEL:
                    rev += self.stop_revenue(france, route) if france else 0
                else:
                    rev += self.stop_revenue(s, route)
        bonus = self.destination_bonus(route.routes)
        if bonus and bonus[0] is route:
            rev += bonus[1]
        return rev

    def destination_bonus(self, routes):
        # (asked once per route of a run, over all the run's routes: each company's placed
        # destination token is looked up once here, and a run with none pays nothing more)
        best = None
        dests: dict = {}
        for r in routes:
            corp = r.corporation
            try:
                dest = dests[corp]
            except KeyError:
                dest = dests[corp] = self._destination(corp)
            if dest is None or self._home_and_destination(r.visited_stops, corp, dest) != 2:
                continue
            b = (r, self.stop_revenue(dest.city, r))
            if best is None or b[1] >= best[1]:
                best = b
        return best

    def _destination(self, corp):
        """A major's placed destination token, or None."""
        if getattr(corp, "type", None) != "major" or not corp.tokens:
            return None
        return next((t for t in corp.tokens if t.used and t.type == "destination"), None)

    def _home_and_destination(self, stops, corp, dest) -> int:
        """How many of ``stops`` hold the company's home or destination token."""
        home = corp.tokens[0]
        # (the board's tokens by city, read in place: a city without an entry holds none)
        placed = self.board.state.tokens
        n = 0
        for s in stops:  # (asked per route of every run check: plain loops, no generators)
            if s.is_city and (slots := placed.get(s)) is not None:
                for t in slots:
                    if t is not None and (t is home or t is dest):
                        n += 1
                        break
        return n

    def _dest_bonus(self, route):
        corp = route.corporation
        dest = self._destination(corp)
        if dest is None or self._home_and_destination(route.visited_stops, corp, dest) != 2:
            return None
        return (route, self.stop_revenue(dest.city, route))

    def compute_other_paths(self, routes, route) -> list:
        kind = route.train.name == "E"
        out = []
        for r in routes:
            if r is route or (r.train.name == "E") != kind:
                continue
            out.extend(r.paths)
        return out

    def check_overlap(self, routes) -> None:
        """Track may not be reused by two routes of the same kind (E trains apart); local
        trains use each token once; one of the two Merthyr Tydfil - Pontypool tracks only."""
        for kind in (True, False):
            seen = set()
            for r in routes:
                if (r.train.name == "E") != kind:
                    continue
                for key in r.track_keys:
                    if len(key) == 2:  # a path inside a tile: not compared by the reference
                        continue
                    if key in seen:
                        raise RouteError(f"Route can't reuse track on {key[0].id}", rule="route-overlap")
                    seen.add(key)
        local = []
        for r in routes:
            if self.is_local(r.train) and r.connection_data:
                local += [s for s in r.visited_stops if s.is_city]
        if len(local) != len(set(local)):
            raise RouteError("Local train can only use each token once", rule="route-overlap")
        mt: set = set()
        for r in routes:
            for p in r.paths:
                if p.hex is not None and p.hex.id == "F33":
                    mt.update(e.num for e in (p.a, p.b) if e.is_edge)
        if 1 in mt and 2 in mt:
            raise RouteError("May only use one of the tracks connecting Merthyr Tydfil and Pontypool",
                             rule="route-overlap")

    # -- the router's hooks
    def _e_tokened(self, node, corp) -> bool:
        return node.is_city and self.board.tokened_by(node, corp, types=("normal", "destination"))

    def router_free_stop(self, train, node) -> bool:
        """An E train earns only at the company's tokened cities and must end at them (or in
        France through a tokened English Channel): any other stop is free for it."""
        if train.name != "E":
            return False
        return not self._e_tokened(node, self.train_owner(train)) and node.hex.id != FRANCE

    def router_bound_for(self, train, corp) -> RouterBound:
        """``router_route_bound`` for one train and company: an E train's stop values looked
        up once per stop."""
        if train.name != "E":
            def same(stops, base: int, weakest: int = 0) -> int:
                return base

            same.relevant = frozenset()  # type: ignore[attr-defined]  # (the stops it reads)
            return same
        dummy = Route(self, train, connection_data=[])
        worth: dict = {}

        def value(s):
            v = worth.get(s)
            if v is None:
                v = worth[s] = self.stop_revenue(s, dummy) if self._e_tokened(s, corp) else None
            return v

        france_worth: dict = {}

        def bound(stops, base: int, weakest: int = 0) -> int:
            nodes = stops()
            france = next((s for s in nodes if s.hex.id == FRANCE), None)
            base = 0
            for s in nodes:
                v = value(s)
                if v is None:
                    continue
                if s.hex.id == ENGLISH_CHANNEL and france is not None:
                    f = france_worth.get(france)
                    if f is None:
                        f = france_worth[france] = self.stop_revenue(france, dummy)
                    v = max(v, f)
                base += max(0, v)
            return base

        # the stops it reads: those an E train earns at, and France
        bound.relevant = frozenset(  # type: ignore[attr-defined]
            n for hx, tile in self.board.tiles() for n in tile.nodes if hx.id == FRANCE or value(n) is not None)
        return bound

    def router_run_bonus_for(self, train, corp) -> RouterBonus:
        """``router_run_bonus`` for one train and company: the cities holding its home or
        destination token found once."""
        dest = self._destination(corp)
        if dest is None:
            def none(stops) -> int:
                return 0

            none.relevant = frozenset()  # type: ignore[attr-defined]  # (the stops it reads)
            return none
        home = corp.tokens[0]
        targets = frozenset(c for _hx, tile in self.board.tiles() for c in tile.cities
                            if any(t is home or t is dest for t in self.board.tokens(c) if t is not None))
        worth = max(0, self.stop_revenue(dest.city, Route(self, train, connection_data=[])))

        def bonus(stops) -> int:
            return worth if sum(1 for s in stops() if s in targets) >= 2 else 0

        bonus.relevant = targets  # type: ignore[attr-defined]  # (the stops it reads)
        return bonus

    def router_route_bound(self, train, corp, stops, base: int, weakest: int = 0) -> int:
        """``base``; for E trains the tokened cities only, the English Channel worth France
        at most."""
        if train.name == "E":
            dummy = Route(self, train, connection_data=[])
            nodes = stops()
            france = next((s for s in nodes if s.hex.id == FRANCE), None)
            base = 0
            for s in nodes:
                if not self._e_tokened(s, corp):
                    continue
                v = self.stop_revenue(s, dummy)
                if s.hex.id == ENGLISH_CHANNEL and france is not None:
                    v = max(v, self.stop_revenue(france, dummy))
                base += max(0, v)
        return base

    def router_run_bonus(self, train, corp, stops) -> int:
        """The destination bonus, paid once per run to a route visiting home and
        destination: the destination's value for the train."""
        dest = self._destination(corp)
        if dest is None or self._home_and_destination(stops(), corp, dest) < 2:
            return 0
        return max(0, self.stop_revenue(dest.city, Route(self, train, connection_data=[])))

    def conflict_keys(self, train, keys: Collection, nodes: Sequence) -> Sequence:
        """Track conflicts as ``check_overlap`` sees them: E trains apart from the others,
        paths inside a tile not compared; local trains use each token once."""
        kind = train.name == "E"
        out = [(kind, k) for k in keys if len(k) != 2]
        if self.is_local(train):
            out.extend(("local", n) for n in nodes if n.is_city)
        return out
