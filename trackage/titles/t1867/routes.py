"""1867 route rules: cities-or-offboards pay, towns fill unused length, bonuses."""

from __future__ import annotations

import itertools

from ...core.routes import RouteError, RouteRules


class RouteRules1867(RouteRules):
    def compute_stops(self, route, train=None):
        train = train if train is not None else route.train
        visits = self.visited_stops(route)
        if not visits:
            return []
        distance = train.distance
        if isinstance(distance, (int, float)):
            return visits
        paying = next(d for d in distance if (d.get("pay") or 0) > 0)
        mandatory = [s for s in visits if s.kind in paying["nodes"]]
        optional = [s for s in visits if s.kind not in paying["nodes"]]
        if len(mandatory) == paying["pay"]:
            return mandatory
        corp = route.corporation
        need_token = not any(self.city_tokened_by(s, corp) for s in mandatory)
        remaining = paying["pay"] - len(mandatory)
        combos = [list(c) for c in itertools.combinations(optional, remaining)] if remaining >= 0 else []
        if not combos:
            combos = [optional]
        # every combination is priced as revenue_for prices it, with each stop's revenue and
        # the route's bonuses looked up once (the choice, ties included, is unchanged)
        price = self._pricer(route, visits)
        tokened = {id(s) for s in optional if self.city_tokened_by(s, corp)} if need_token else set()
        best, best_rev = None, None
        for combo in combos:
            if need_token and not any(id(s) in tokened for s in combo):
                continue
            stops = mandatory + combo
            rev = price(stops)
            if best_rev is None or rev > best_rev:
                best, best_rev = stops, rev
        if best_rev is not None and best_rev > 0:
            return best
        return []

    def revenue_for(self, route, stops):
        return self._pricer(route, stops)(stops)

    def _pricer(self, route, visits):
        """A function giving ``revenue_for(route, stops)`` for stops among ``visits``: stop
        revenues, the company's hex bonuses, and the capitals-and-Timmins bonus."""
        revenue = {id(s): self.stop_revenue(s, route) for s in visits}
        hex_ids = [h.id for h in route.hexes]
        twice = len(hex_ids) != len(set(hex_ids))
        per_hex: dict = {}
        for company in getattr(route.corporation, "companies", []):
            for ab in company.abilities:
                if ab.get("type") == "hex_bonus":
                    for h in ab["hexes"]:
                        per_hex[h] = per_hex.get(h, 0) + ab["amount"]
        game = self.game
        capitals = game.BONUS_CAPITALS
        timmins = game.BONUS_REVENUE
        both = 40 * (getattr(route.train, "multiplier", None) or 1)

        def price(stops) -> int:
            if twice:
                raise RouteError("Route visits same hex twice")
            total = sum(revenue[id(s)] for s in stops)
            hexes = {s.hex.id for s in stops}
            if per_hex:
                total += sum(per_hex.get(h, 0) for h in hexes)
            if timmins in hexes and any(h in capitals for h in hexes):
                total += both
            return total

        return price

    def router_route_bound(self, train, corp, stops, base: int) -> int:
        """``base`` plus what the bonuses of ``revenue_for`` can add to a route through
        ``stops``: the hex bonuses of the company's privates and the capitals-and-Timmins
        bonus."""
        game = self.game
        hex_bonuses = [ab for company in getattr(corp, "companies", []) for ab in company.abilities
                       if ab.get("type") == "hex_bonus"]
        relevant = {game.BONUS_REVENUE, *game.BONUS_CAPITALS}
        for ab in hex_bonuses:
            relevant.update(ab["hexes"])
        hexes = {s.hex.id for s in stops() if s.hex.id in relevant}
        if not hexes:
            return base
        bonus = base
        for ab in hex_bonuses:
            bonus += sum(ab["amount"] for h in hexes if h in ab["hexes"])
        if game.BONUS_REVENUE in hexes and any(h in game.BONUS_CAPITALS for h in hexes):
            bonus += 40 * (getattr(train, "multiplier", None) or 1)
        return bonus

    def router_bound_slack(self, train, corp) -> int | None:
        """The most ``router_route_bound`` adds to a route's stop values: every hex bonus of
        the company's privates and the capitals-and-Timmins bonus."""
        total = 40 * (getattr(train, "multiplier", None) or 1)
        for company in getattr(corp, "companies", []):
            for ab in company.abilities:
                if ab.get("type") == "hex_bonus":
                    total += ab["amount"] * len(ab["hexes"])
        return total

    def router_unique_stop_hexes(self, train) -> bool:
        """``revenue_for`` refuses a route that stops twice in a hex."""
        return True
