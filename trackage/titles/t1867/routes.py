"""1867 route rules: cities-or-offboards pay, towns fill unused length, bonuses."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ...core.routes import Route, RouteError, RouterBound, RouterSlack, RouteRules, RouterVisitBonus

if TYPE_CHECKING:
    from collections.abc import Callable

    from .game import Game1867


class RouteRules1867(RouteRules):
    game: Game1867

    def compute_stops(self, route, train=None):
        train = train if train is not None else route.train
        visits = list(route.visited_stops)  # (as the route keeps them, copied)
        if not visits:
            return []
        distance = train.distance
        if isinstance(distance, (int, float)):
            return visits
        # (the first paying part of the train in a plain loop: asked for every route priced)
        for d in distance:
            if (d.get("pay") or 0) > 0:
                paying = d
                break
        else:
            raise StopIteration  # (as ``next`` on no paying part)
        nodes = paying["nodes"]
        mandatory = [s for s in visits if s.kind in nodes]
        optional = [s for s in visits if s.kind not in nodes]
        if len(mandatory) == paying["pay"]:
            return mandatory
        corp = route.corporation
        need_token = self.first_tokened(mandatory, corp) is None
        remaining = paying["pay"] - len(mandatory)
        if 0 <= remaining <= len(optional):
            fast = self._best_combo(route, mandatory, optional, remaining, need_token, corp)
            if fast is not None:
                return fast
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

    def _best_combo(self, route, mandatory, optional, k, need_token, corp):
        """The stops ``compute_stops`` picks (the first combination of ``k`` optional stops,
        in ``itertools.combinations`` order, with the highest revenue), found by branch and
        bound: a stop's worth is its revenue plus its hex bonus (a route stops once per hex),
        and a branch is cut when even its best stops and the capitals-and-Timmins bonus
        cannot beat the best so far. None: the plain loop decides (a hex visited twice, or
        two stops in one hex)."""
        ids = [h.id for h in route.hexes]
        stop_hexes = [s.hex.id for s in mandatory] + [s.hex.id for s in optional]
        if len(ids) != len(set(ids)) or len(stop_hexes) != len(set(stop_hexes)):
            return None  # the plain loop raises (or not) exactly as revenue_for does
        hexes_per = self._hex_bonuses(route.corporation)
        game = self.game
        capitals = game.BONUS_CAPITALS
        timmins = game.BONUS_REVENUE
        both = _pair_bonus(route.train)
        base = 0
        have_t = have_c = False
        for s in mandatory:
            base += self.stop_revenue(s, route) + hexes_per.get(s.hex.id, 0)
            have_t = have_t or s.hex.id == timmins
            have_c = have_c or s.hex.id in capitals
        n = len(optional)
        w = [self.stop_revenue(s, route) + hexes_per.get(s.hex.id, 0) for s in optional]
        is_t = [s.hex.id == timmins for s in optional]
        is_c = [s.hex.id in capitals for s in optional]
        tok = [need_token and self.city_tokened_by(s, corp) for s in optional]
        can_pair = (have_t or any(is_t)) and (have_c or any(is_c))
        # top[j][r]: the sum of the r best worths among optional[j:]
        top = []
        for j in range(n + 1):
            srt = sorted(w[j:], reverse=True)
            acc = [0]
            for v in srt:
                acc.append(acc[-1] + v)
            top.append(acc)
        best: list = [None, None]  # revenue, indices
        pick: list = []
        # the search calls itself through ``again``, emptied when it ends (see
        # ``routes.logged_chains``)
        again: list[Callable[[int, int, int, bool, bool, bool], None]] = []

        def rec(j: int, left: int, total: int, t: bool, c: bool, tk: bool) -> None:
            if left == 0:
                if need_token and not tk:
                    return
                rev = total + (both if t and c else 0)
                if best[0] is None or rev > best[0]:
                    best[0], best[1] = rev, list(pick)
                return
            for i in range(j, n - left + 1):
                if best[0] is not None:
                    bound = total + w[i] + top[i + 1][left - 1] + (both if can_pair else 0)
                    if bound <= best[0]:
                        continue
                pick.append(i)
                again[0](i + 1, left - 1, total + w[i], t or is_t[i], c or is_c[i], tk or tok[i])
                pick.pop()

        again.append(rec)
        rec(0, k, base, have_t, have_c, False)
        again.clear()
        if best[0] is None or best[0] <= 0:
            return []
        return mandatory + [optional[i] for i in best[1]]

    def _hex_bonuses(self, corp) -> dict:
        per_hex: dict = {}
        for company in getattr(corp, "companies", []):
            for ab in company.abilities:
                if ab.get("type") == "hex_bonus":
                    for h in ab["hexes"]:
                        per_hex[h] = per_hex.get(h, 0) + ab["amount"]
        return per_hex

    def revenue_for(self, route, stops):
        # (one pricing: the stops' revenues summed as they come, no table built for them)
        twice, per_hex = self._route_bonuses(route)
        if twice:
            raise RouteError("Route visits same hex twice")
        total = RouteRules.revenue_for(self, route, stops)  # (the stops' own prices, one loop)
        hexes = {s.hex.id for s in stops}
        if per_hex:
            total += sum(per_hex.get(h, 0) for h in hexes)
        game = self.game
        if game.BONUS_REVENUE in hexes and any(h in game.BONUS_CAPITALS for h in hexes):
            total += _pair_bonus(route.train)
        return total

    def _route_bonuses(self, route):
        """Whether the route visits a hex twice, and the company's hex bonuses: worked out once
        per route (the stop choice and the pricing of its pick both ask)."""
        kept = route.memo.get("pricer")
        if kept is None:
            hexes = route.hexes
            twice = len(hexes) != len({h.id for h in hexes})
            kept = route.memo["pricer"] = (twice, self._hex_bonuses(route.corporation))
        return kept

    def _pricer(self, route, visits):
        """A function giving ``revenue_for(route, stops)`` for stops among ``visits``: stop
        revenues, the company's hex bonuses, and the capitals-and-Timmins bonus."""
        revenue = {id(s): self.stop_revenue(s, route) for s in visits}
        twice, per_hex = self._route_bonuses(route)
        game = self.game
        capitals = game.BONUS_CAPITALS
        timmins = game.BONUS_REVENUE
        both = _pair_bonus(route.train)

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

    def _bonus_stops(self, train, per_hex):
        """The stops of the bonus hexes (the privates' ``per_hex``, Timmins and the capitals)
        by node, with their hex ids, and ``value(stop)``: the stop's value for ``train`` as the
        router values it, remembered (None: unknown, so no shortfall is counted for it)."""
        game = self.game
        relevant = frozenset({game.BONUS_REVENUE, *game.BONUS_CAPITALS, *per_hex})
        hex_of = {n: hx.id for hx, tile in self.board.tiles() if hx.id in relevant for n in tile.nodes}
        dummy = Route(self, train, connection_data=[])
        worth: dict = {}

        def value(s) -> int | None:
            if s not in worth:
                try:
                    worth[s] = max(0, int(self.stop_revenue(s, dummy)))
                except Exception:  # noqa: BLE001 - the router's value is then unbounded: no shortfall
                    worth[s] = None
            return worth[s]

        return hex_of, value

    def router_route_bound(self, train, corp, stops, base: int, weakest: int = 0) -> int:
        """``base`` plus what the bonuses of ``revenue_for`` can add to a route through
        ``stops``: the hex bonuses of the company's privates and the capitals-and-Timmins
        bonus, each counted only as far as its stop can pay (see ``router_bound_for``)."""
        return self.router_bound_for(train, corp)(stops, base, weakest)

    def router_bound_for(self, train, corp) -> RouterBound:
        """``router_route_bound`` for one train and company, its bonus hexes and their stops'
        values looked up once.

        A bonus pays only with its stop among the paid ones. When only the best stops pay
        (``weakest`` > 0: the lowest of the ``base`` stop values), a bonus stop worth ``v``
        with bonus ``b`` adds at most ``b + min(0, v - weakest)`` (it pays in place of a stop
        worth at least ``weakest``), and the capitals-and-Timmins bonus at most itself plus
        those shortfalls of Timmins and the best capital. Any paid set S earns at most
        ``base + sum(b_s + min(0, v_s - weakest) for s in S)`` (plus the pair bonus when S
        holds both), since S's stops outside the best ones replace as many stops worth at
        least ``weakest``; with ``weakest`` 0 it is every visited bonus."""
        per_hex = self._hex_bonuses(corp)
        hex_of, value = self._bonus_stops(train, per_hex)
        timmins, capitals, both = self.game.BONUS_REVENUE, frozenset(self.game.BONUS_CAPITALS), _pair_bonus(train)

        # a train whose paying row takes no city (1867's 5+5E: offboards) pays, unless it
        # visits exactly as many of those as the row pays, a stop the company has tokened
        # (``compute_stops``): then the best tokened stop's shortfall counts too
        distance = train.distance
        paying = None if isinstance(distance, (int, float)) else next(
            (d for d in distance if (d.get("pay") or 0) > 0), None)
        nodes = [n for _hx, tile in self.board.tiles() for n in tile.nodes]
        tokened: frozenset = frozenset()
        mandatory: frozenset = frozenset()
        if paying is not None and "city" not in paying["nodes"]:
            tokened = frozenset(n for n in nodes if self.city_tokened_by(n, corp))
            mandatory = frozenset(n for n in nodes if n.kind in paying["nodes"])
        must_pay = int(paying["pay"]) if paying is not None else 0

        def bound(stops, base: int, weakest: int = 0) -> int:
            at = stops()
            if not weakest and hex_of.keys().isdisjoint(at):
                return base
            gain: dict = {}  # bonus hex -> the most its stop adds if it pays (negative: a shortfall)
            n_mandatory = 0
            token_short = None  # the best tokened stop's shortfall (None: no tokened stop)
            for s in at:
                h = hex_of.get(s)
                short = 0
                if weakest and (h is not None or s in tokened):
                    v = value(s)
                    short = min(0, v - weakest) if v is not None else 0
                if s in tokened:  # (its bonus and shortfall, if of a bonus hex, count there)
                    t = 0 if h is not None else short
                    token_short = t if token_short is None else max(token_short, t)
                elif s in mandatory:
                    n_mandatory += 1
                if h is not None:
                    g = per_hex.get(h, 0) + short
                    gain[h] = max(gain.get(h, g), g)
            base += _bonus_total(gain, timmins, capitals, both)
            if token_short is not None and n_mandatory != must_pay:
                base += token_short  # a tokened stop pays (``compute_stops``)
            return base

        bound.relevant = frozenset(hex_of) | tokened | mandatory  # type: ignore[attr-defined]  # (the stops it reads)
        return bound

    def router_slack_for(self, train, corp) -> RouterSlack | None:
        """The bonus stops (the privates' bonus hexes, the capitals and Timmins) and
        ``slack(reached, weakest)``: ``router_bound_for``'s bonus terms over the stops of
        ``reached`` (each hex's best gain when positive, the pair bonus with its shortfalls),
        without the tokened stop's shortfall (never positive). Each term grows with
        ``reached`` and shrinks as ``weakest`` rises, so a route whose bonus stops lie in
        ``reached`` and whose weakest paid value is at least ``weakest`` is bounded by its
        stop values plus ``slack(reached, weakest)``.

        None (the whole slack throughout) for a company without hex bonuses: its slack is
        the pair bonus alone, small beside what the walk's stop-value rows allow, and the
        per-part bookkeeping costs more than it cuts (a lone 8 train of 1861: 1% of the walk
        cut, a quarter more time)."""
        per_hex = self._hex_bonuses(corp)
        if not per_hex:
            return None
        hex_of, value = self._bonus_stops(train, per_hex)
        timmins, capitals, both = self.game.BONUS_REVENUE, frozenset(self.game.BONUS_CAPITALS), _pair_bonus(train)

        def slack(reached, weakest: int) -> int:
            gain: dict = {}
            for s in reached:
                h = hex_of.get(s)
                if h is None:
                    continue
                short = 0
                if weakest:
                    v = value(s)
                    short = min(0, v - weakest) if v is not None else 0
                g = per_hex.get(h, 0) + short
                gain[h] = max(gain.get(h, g), g)
            return _bonus_total(gain, timmins, capitals, both)

        return frozenset(hex_of), slack

    def router_visit_bonus(self, train, corp) -> RouterVisitBonus | None:
        """The capitals-and-Timmins bonus: paid only to a route with a stop in Timmins' hex
        and one in a capital's (the stops of those hexes, two groups)."""
        game = self.game
        capitals = frozenset(game.BONUS_CAPITALS)
        timmins = frozenset(n for hx, tile in self.board.tiles() if hx.id == game.BONUS_REVENUE
                            for n in tile.nodes)
        capital = frozenset(n for hx, tile in self.board.tiles() if hx.id in capitals for n in tile.nodes)
        return _pair_bonus(train), (timmins, capital)

    def router_bound_slack(self, train, corp) -> int | None:
        """The most ``router_route_bound`` adds to a route's stop values: every hex bonus of
        the company's privates and the capitals-and-Timmins bonus."""
        total = _pair_bonus(train)
        for company in getattr(corp, "companies", []):
            for ab in company.abilities:
                if ab.get("type") == "hex_bonus":
                    total += ab["amount"] * len(ab["hexes"])
        return total

    def router_unique_stop_hexes(self, train) -> bool:
        """``revenue_for`` refuses a route that stops twice in a hex."""
        return True


def _pair_bonus(train) -> int:
    """The capitals-and-Timmins bonus for ``train`` (doubled by a double-revenue train)."""
    return 40 * (getattr(train, "multiplier", None) or 1)


def _bonus_total(gain: dict, timmins, capitals: frozenset, both: int) -> int:
    """What the bonus hexes' best gains add (``gain``: hex -> the most its stop adds when it
    pays, negative a shortfall): every positive gain, and the capitals-and-Timmins bonus less
    the shortfalls of Timmins and the best capital when the route reaches both."""
    total = sum(g for g in gain.values() if g > 0)
    if timmins in gain:
        cap = [min(0, g) for h, g in gain.items() if h in capitals]
        if cap:
            total += max(0, both + min(0, gain[timmins]) + max(cap))
    return total
