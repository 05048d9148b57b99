"""``optimal_routes``: candidates per train kind, the search, the checked result."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError
from ..core.routes import RouteRules, rules_for
from .bitsets import RankedList
from .bounds import StopValues
from .candidates import (
    MASK,
    STATE,
    VALS,
    Candidate,
    Enumerator,
    Found,
    Links,
    build_route,
    evaluate_alone,
    trail_nodes,
)
from .citypairs import CityPairs
from .citypairs import applies as pairs_apply
from .entries import Entry
from .meter import TypedMeter, default_meter
from .search import Search, Stats
from .slack import BonusSlack
from .stopsets import SetSearch, priced_by, set_search_applies
from .table import CandList, Ranked, table_walk

if TYPE_CHECKING:
    from ..core.board import Board
    from ..core.entities import Corporation, Minor
    from ..core.game import Game
    from ..core.routes import Route
    from ..core.tiles import City, RevenueCenter
    from ..core.trains import Train
    from .meter import Meter

    Operator = Corporation | Minor  # an entity that runs trains


@dataclass
class RouterResult:
    revenue: int
    routes: list[dict[str, Any]]  # run_routes entries
    optimal: bool
    stats: Stats = field(default_factory=Stats)
    entity: str | None = None

    def as_dict(self) -> dict[str, Any]:
        s = self.stats
        return {
            "entity": self.entity, "revenue": self.revenue, "optimal": self.optimal,
            "routes": self.routes,
            "stats": {"candidates": s.candidates, "evaluated": s.evaluated, "search_nodes": s.nodes,
                      "leaves": s.leaves, "rejected": s.rejected, "unlogged": s.unlogged,
                      "bad_bounds": s.bad_bounds, "links_walked": s.links_walked,
                      "walk_steps": s.walk_steps, "passes": s.passes,
                      "enumerate_s": round(s.enumerate_s, 4), "search_s": round(s.search_s, 4)},
        }


def _kind_key(rules: RouteRules, train: Train) -> tuple[Any, ...]:
    return rules.router_train_key(train)


def _tokened_cities(rules: RouteRules, game: Game, corp: Operator) -> list[City]:
    """The cities ``corp`` has a token in, in map order."""
    board = game.board
    if type(rules).city_tokened_by is not RouteRules.city_tokened_by:
        return [c for _hx, tile in board.tiles() for c in tile.cities if rules.city_tokened_by(c, corp)]
    # the base rule (a token of ``corp`` in a slot or an extra token): the few cities holding
    # one, found from the board's tokens, then taken in map order
    state = board.state
    held = {c for tables in (state.tokens, state.extra_tokens) for c, toks in tables.items()
            if any(t is not None and t.owned_by(corp) for t in toks)}
    if not held:
        return []
    # those on a tile now on the map, by the hex's place in the map, then the city's on its tile
    tile_at = state.tile_at
    hexes = board.hexmap.hexes
    on_map = [c for c in held if c.hex is not None and tile_at.get(c.hex.id) is c.tile and c in c.tile.cities]
    return sorted(on_map, key=lambda c: (hexes.index(c.hex), c.tile.cities.index(c)))


def _links(board: Board, skip: str | None) -> Links:
    """The path walks of ``board`` now on one gauge, taking the walks made at its last
    version that read no changed hex (kept on the board: ``router_walks``)."""
    kept = board.router_walks
    if kept is None:
        kept = board.router_walks = {}
    links = kept[skip] = Links(board, skip, kept.get(skip))
    return links


def _start_nodes(rules: RouteRules, game: Game, corp: Operator, train: Train, links: Links,
                 tokened_cities: list[City]) -> list[RevenueCenter]:
    """The company's tokened cities, and the stops within the title's
    ``router_start_radius(train)`` links of them."""
    out: list[RevenueCenter] = list(tokened_cities)
    radius = rules.router_start_radius(train)
    tokened = set(out)
    seen = set(out)
    frontier = list(out)
    for _ in range(radius):
        nxt = []
        for node in frontier:
            if node not in tokened and game.board.blocks(node, corp):
                continue
            for n, _paths, _keys in links(node):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        out.extend(nxt)
        frontier = nxt
    return out


def _bound_slack(rules: RouteRules, train: Train, entity: Operator) -> int | None:
    """What a route's bound may add to its stop values: the title's ``router_bound_slack``
    (by default 0 without bound hooks, else None: unknown)."""
    return rules.router_bound_slack(train, entity)


def _row_total(meter: Meter) -> int:
    """How far a meter lets a train run, to compare kinds (its rows' visits, else its capacity)."""
    if isinstance(meter, TypedMeter):
        return sum(v for _ts, v in meter.rows)
    return meter.capacity or 0


_PRELIM_NODES = 300  # search nodes for the run that sets the pruned kind's floor
_PRUNE_BESIDE = 5000  # the most candidates the other trains may have for the pruned kind to be cut


def _pruned_kind(rules: RouteRules, entity: Operator, trains: list[Train], kind_of: dict[Train, tuple[Any, ...]],
                 kind_train: dict[tuple[Any, ...], Train]) -> tuple[Any, ...] | None:
    """The kind whose list is cut by what the other trains can run beside its routes: one
    that runs a single train, has a known bound slack and walks the longest routes (the
    largest meter); None if no kind qualifies."""
    count: dict[tuple[Any, ...], int] = {}
    for t in trains:
        count[kind_of[t]] = count.get(kind_of[t], 0) + 1
    best = None
    best_cap = -1
    for key, train in kind_train.items():
        if count[key] != 1 or _bound_slack(rules, train, entity) is None:
            continue
        cap = _row_total(default_meter(rules, train))
        if cap > best_cap:
            best, best_cap = key, cap
    return best


class _Kind:
    """One train kind's candidates: ``cands`` sorted by bound (highest first), every route
    whose bound is at least ``complete`` among them."""

    def __init__(self, cands: Ranked, complete: float):
        self.cands = cands
        self.complete = complete

    @property
    def top(self) -> int:
        return self.cands.bound_list[0] if len(self.cands) else 0


class _Plan:
    """How one train kind's routes are walked and bounded."""

    def __init__(self, game: Game, rules: RouteRules, entity: Operator, train: Train, links: Links,
                 tokened: list[City], key_bit: Callable[[Hashable], int], work_limit: int | None):
        self.train = train
        self.links = links
        free_hook = rules.router_free_stop
        free: Callable[[RevenueCenter], bool] | None = None
        if type(rules).router_free_stop is not RouteRules.router_free_stop:  # else no stop is free
            memo: dict[RevenueCenter, bool] = {}

            def free(node: RevenueCenter) -> bool:
                f = memo.get(node)
                if f is None:
                    f = memo[node] = bool(free_hook(train, node))
                return f

        self.free = free
        ck_hook = rules.conflict_keys
        conflict: Callable[[Collection[Hashable], RevenueCenter], Iterable[Hashable]] | None = None
        if type(rules).conflict_keys is not RouteRules.conflict_keys:  # else the track keys
            def conflict(keys: Collection[Hashable], node: RevenueCenter) -> Iterable[Hashable]:
                return ck_hook(train, keys, [node])

        self.sv = sv = StopValues(rules, train, entity)
        self.meter = meter = default_meter(rules, train)
        pay = sv.pay
        if pay is not None and meter.capacity is not None and meter.capacity <= pay and all(
                meter.counted(n) or sv.value(n) <= 0 for _hx, tile in game.board.tiles() for n in tile.nodes):
            pay = None  # no route has more than ``pay`` stops that earn: every stop value counts
        self.pay = pay
        self.en = en = Enumerator(entity, game.board, links, meter,
                                  _start_nodes(rules, game, entity, train, links, tokened), rules.is_local(train),
                                  key_bit=key_bit, conflict=conflict, value=sv.value, pay=pay, free=free,
                                  # the base rule: one stop per group (titles that change it are not pruned)
                                  unique_groups=type(rules).check_groups is RouteRules.check_groups,
                                  unique_hexes=bool(rules.router_unique_stop_hexes(train)))
        en.budget = work_limit
        en.slack = _bound_slack(rules, train, entity)
        per_part = rules.router_slack_for(train, entity) if en.slack is not None else None
        if per_part is not None:
            assert en.slack is not None
            en.bonus = BonusSlack(per_part[0], per_part[1], en.slack)
        elif en.slack is not None:
            en.visit = rules.router_visit_bonus(train, entity)
        # the route bound as ``hook(stops, base, weakest)``: the title's ``router_bound_for(train,
        # corp)`` (made once per walk; by default its ``router_route_bound``); None: no bound
        self.hook = rules.router_bound_for(train, entity)
        self.base_hook = sv.base_hook
        self.base_memo: dict[int, int] = {}  # stop values' sum -> ``router_base_bound``
        # the run bonus as ``run_bonus(stops)``: the title's ``router_run_bonus_for(train,
        # corp)`` (made once per walk; by default its ``router_run_bonus``); None: no bonus
        self.run_bonus = rules.router_run_bonus_for(train, entity)
        self.entity = entity

    def base_bound(self, b: int) -> int:
        got = self.base_memo.get(b)
        if got is None:
            assert self.base_hook is not None  # asked only when the title bounds a base
            got = self.base_memo[b] = self.base_hook(self.train, self.entity, b)
        return got

    def bound(self, h: Entry, o: Entry | None, b: int, weakest: int = 0) -> tuple[int, int]:
        """(bound, bonus) of a route from its stop values' sum ``b`` (``weakest``: the lowest
        value counted in it when only the best ``pay`` stops pay and the route has that many,
        else 0)."""
        bonus = 0
        hook = self.hook
        run_bonus = self.run_bonus
        if self.base_hook is not None:
            b = self.base_bound(b)
        if hook is not None or run_bonus is not None:
            stops = partial(trail_nodes, h, o)
            if hook is not None:
                b = hook(stops, b, weakest)
            if run_bonus is not None:
                bonus = run_bonus(stops)
        return b, bonus


def _rides_along(game: Game, small: _Plan, big: _Plan) -> bool:
    """Are ``small``'s routes exactly ``big``'s routes that small's meter accepts, worth the
    same stop values? (Same track, starts, stops and values; distance rows of the same stop
    types, none longer; no more paying stops.) Then one walk serves both."""
    if small.links is not big.links or (small.pay is None) != (big.pay is None):
        return False
    if small.pay is not None and big.pay is not None and small.pay > big.pay:
        return False  # (its best stop values are the first of big's)
    se, be = small.en, big.en
    if (se.starts != be.starts or se.local != be.local or se.conflict is not None or be.conflict is not None
            or se.unique_groups != be.unique_groups or se.unique_hexes != be.unique_hexes):
        return False
    sm, bm = small.meter, big.meter
    nodes = [n for _hx, tile in game.board.tiles() for n in tile.nodes]
    if not isinstance(sm, TypedMeter) or not isinstance(bm, TypedMeter) or not sm.within(bm, nodes):
        return False
    if (small.free is None) != (big.free is None):
        return False
    return all(small.sv.value(n) == big.sv.value(n) and (small.free is None or small.free(n) == big.free(n))  # type: ignore[misc]
               for n in nodes)  # (both free or neither, checked above)


def _kind_candidates(game: Game, rules: RouteRules, entity: Operator, train: Train, links: Links, tokened: list[City],
                     key_bit: Callable[[Hashable], int], work_limit: int | None, stats: Stats,
                     floor: int | None = None, rising: bool = False,
                     floor_of: Callable[[int], int] | None = None, reuse: Enumerator | None = None) -> _Kind:
    """The candidate routes of ``train``'s kind: with ``floor``, those whose bound is at
    least it (``floor_of(mask)``: a higher floor for the routes whose first half uses that
    track); with ``rising``, those at least as good as the best found (the floor rises as
    routes are found). Without a known bound slack every route is kept. ``reuse``: an
    earlier walk of the same kind whose trees of halves were kept (``keep_trees``)."""
    plan = _Plan(game, rules, entity, train, links, tokened, key_bit, work_limit)
    if reuse is not None:
        plan.en.follow(reuse)
    return _walk(plan, stats, floor, rising, floor_of)[0]


_ALONE = (None,)  # the second halves of a route that is one half
_SET_SEARCH = True  # a lone train paying its best stops searched over stop sets (False: the walk)
_TABLES = True  # lists walked without a floor as arrays (``table_walk``); False: an object per route
_REUSE_TREES = True  # the pruned kind's second walk takes its first walk's trees of halves (False: walked again)
_REUSE_PRICED = True  # the best run's entries from its routes as evaluated (False: built and priced again)


def _walk(plan: _Plan, stats: Stats, floor: int | None = None, rising: bool = False,
          floor_of: Callable[[int], int] | None = None, riders: Sequence[_Plan] = (),
          judge: Callable[[Candidate], int | None] | None = None) -> tuple[_Kind, list[_Kind]]:
    """``_kind_candidates`` for a plan, and the lists of the kinds that ride along
    (``riders``: their plans, see ``_rides_along``; every route of theirs is kept).

    ``judge`` (a rising walk of a lone train): the exact value of a run of one candidate
    (None: it cannot run). The floor then rises to one more than the best value judged (each
    candidate with a new best bound is judged) instead of to the best bound: a title's bound
    may promise more than every route earns (bonuses of stops that do not pay), and a floor
    from bounds would then need a second walk down to the best run."""
    train = plan.train
    en = plan.en
    walks0 = en.walks
    if en.slack is None:
        floor, rising, floor_of = None, False, None
    en.floor = floor
    en.floor_of = floor_of if floor is not None else None
    en.prunes = en.slack is not None and (floor is not None or rising)
    en.probe = None  # (set below for a lone train's rising walk)
    hook = plan.hook
    run_bonus = plan.run_bonus
    summed = plan.pay is None
    cands: list[Candidate] = []
    low = 1 if floor is None else max(1, floor)  # a route worth nothing is never wanted
    top = low - 1  # the best bound kept so far (a rising walk)
    slack = en.slack
    per_half = en.floor_of is not None
    rider_cands: list[list[Candidate]] = [[] for _ in riders]
    if _TABLES and floor is None and not rising and en.bit_joins and en.meter.join is not None:
        # the lists are built as arrays (``table_walk``)
        table, theirs = table_walk(en, plan, list(riders))
        stats.walk_steps += en.walks - walks0
        if en.exhausted:
            stats.exhausted = True
        return _Kind(table, float("-inf")), [_Kind(t, float("-inf")) for t in theirs]

    merged = en.merged
    bound = plan.bound
    hooked = hook is not None or run_bonus is not None or plan.base_hook is not None
    hook_only = hook is not None and run_bonus is None and plan.base_hook is None
    base_only = hook is None and run_bonus is None and plan.base_hook is not None
    base_memo = plan.base_memo
    zero = (0,) if summed else ((),)
    pay = plan.pay if plan.pay is not None else 0
    weakest = 0
    others: Sequence[Entry | None]
    ovals: Sequence[Any]
    states: Sequence[Any]
    if rising and judge is not None and en.budget is None and not riders:
        # a lone train: a floor from the runs of a few of the best halves, judged before the
        # walk (see ``Enumerator.probe``). Each route is bounded as below; the floor is the
        # best run judged (ties kept: no higher than the best run, so every route the walk
        # alone would keep at or above it is kept, in the same order). Without a budget only:
        # a walk cut off by its budget keeps what it has found in its own order
        def probe(found: tuple[Found, ...]) -> None:
            nonlocal low
            ptop = low - 1
            for ph, pjoin, pidx in found:
                phv = ph[VALS]
                pothers, povals = ((None,), zero) if pjoin is None else pjoin.batch(ph, pidx)[:2]
                for o, ov in zip(pothers, povals):
                    if summed:
                        b = phv + ov
                        weak = 0
                    else:
                        vals = merged(phv, ov)
                        b = sum(vals)
                        weak = vals[pay - 1] if len(vals) >= pay else 0
                    if slack is not None and b + slack < low:
                        continue
                    bonus = 0
                    if hook_only:
                        b = hook(partial(trail_nodes, ph, o), b, weak)  # type: ignore[misc]  # (hook_only: it is set)
                    elif base_only:
                        got = base_memo.get(b)
                        b = got if got is not None else plan.base_bound(b)
                    elif hooked:
                        b, bonus = bound(ph, o, b, weak)
                    if b + bonus < low or b + bonus <= ptop:
                        continue
                    ptop = b + bonus
                    assert judge is not None
                    v = judge(Candidate(ph, o, b + bonus, ph[MASK] if o is None else ph[MASK] | o[MASK], bonus, train))
                    if v is not None and v > low:
                        low = en.floor = v  # (a run's value: routes worth as much are kept)
        en.probe = probe
    for h, join, idx in en.routes():
        if per_half:
            floor = en.cur_floor
            assert floor is not None  # set whenever a half's routes are walked
            low = max(1, floor)
        hv = h[VALS]
        hm = h[MASK]
        if join is None:
            others, ovals, states = _ALONE, zero, (h[STATE],)
        else:
            others, ovals, states = join.batch(h, idx)
        for o, ov, state in zip(others, ovals, states):
            mask = hm if o is None else hm | o[MASK]
            if summed:
                vals = b = hv + ov
            else:
                vals = merged(hv, ov)
                b = sum(vals)
                weakest = vals[pay - 1] if len(vals) >= pay else 0
            if riders:
                for plan_r, out in zip(riders, rider_cands):
                    if plan_r.meter.accepts(state):
                        if summed:
                            rb, rbonus = plan_r.bound(h, o, b)
                        else:
                            rp = plan_r.pay or 0
                            rb, rbonus = plan_r.bound(h, o, sum(vals[:rp]), vals[rp - 1] if len(vals) >= rp else 0)
                        if rb + rbonus >= 1:
                            out.append(Candidate(h, o, rb + rbonus, mask, rbonus, plan_r.train))
            if slack is not None and b + slack < low:
                continue  # the hooks cannot lift it to the floor
            bonus = 0
            if hook_only:
                b = hook(partial(trail_nodes, h, o), b, weakest)  # type: ignore[misc]  # (hook_only: it is set)
            elif base_only:
                got = base_memo.get(b)
                b = got if got is not None else plan.base_bound(b)
            elif hooked:
                b, bonus = bound(h, o, b, weakest)
            if b + bonus < low:
                continue
            cand = Candidate(h, o, b + bonus, mask, bonus, train)
            cands.append(cand)
            if rising and b + bonus > top:
                top = b + bonus
                if judge is None:
                    low = en.floor = top
                else:
                    v = judge(cand)
                    if v is not None and v + 1 > low:
                        low = en.floor = v + 1
    cands.sort(key=attrgetter("bound"), reverse=True)  # stable: equal bounds keep walk order
    stats.walk_steps += en.walks - walks0
    if en.exhausted:
        stats.exhausted = True
    if rising and judge is not None:
        complete: float = low  # every route worth more than a run judged is kept
    elif rising:
        complete = cands[0].bound if cands else float("inf")
    elif floor is not None:
        complete = floor
    else:
        complete = float("-inf")
    for out in rider_cands:
        out.sort(key=attrgetter("bound"), reverse=True)
    return _Kind(CandList(cands), complete), [_Kind(CandList(out), float("-inf")) for out in rider_cands]


def _by_stop_sets(game: Game, rules: RouteRules, entity: Operator, plan: _Plan, chain_cache: dict[Any, Any],
                  stats: Stats, name: str | None) -> RouterResult | None:
    """The lone train's best run by the set search, its log form checked; None when the
    search does not apply, runs out of budget or its run does not rebuild (the walk decides)."""
    en = plan.en
    if not set_search_applies(plan.train, plan.pay, en, plan.hook, plan.base_hook, plan.run_bonus, plan.free):
        return None
    assert plan.pay is not None and en.slack is not None
    ss = SetSearch(en, plan.pay, plan.sv.value, plan.hook, en.slack, priced_by(rules, plan.train, chain_cache))
    proven = ss.run()
    stats.walk_steps += ss.stats.steps
    stats.nodes += ss.stats.tried
    stats.evaluated += ss.stats.priced
    stats.leaves += ss.stats.generated
    if not proven:
        return None
    if ss.best_route is None:
        stats.candidates[plan.train.id] = 0
        return RouterResult(0, [], True, stats, name)
    routes: list[Route] = []
    build_route(rules, plan.train, ss.best_route[0], ss.best_route[1], routes, None, chain_cache)
    for r in routes:
        r.revenue(recompute=True)
    logs = [r.to_log() for r in routes]
    try:
        again = sum(game.compute_route_revenues(entity, logs, {plan.train.id: plan.train}))
    except GameError:
        return None
    if again != ss.best:
        return None
    stats.candidates[plan.train.id] = 1
    return RouterResult(ss.best, logs, True, stats, name)


_CITY_PAIRS = True  # two trains paid for the cities they visit searched over city sequences (False: the walk)


def _by_city_pairs(game: Game, rules: RouteRules, entity: Operator, trains: list[Train], plans: list[_Plan],
                   chain_cache: dict[Any, Any], stats: Stats, name: str | None) -> RouterResult | None:
    """Two trains' (or a lone train's) best run by the city-sequence search
    (:mod:`.citypairs`), priced by the title and its log form checked; None when it does not
    apply, runs out of budget or its run does not price or rebuild to the sum of its cities'
    values (the walk decides)."""
    if not pairs_apply(plans):
        return None
    # (the trains in the order of their plans' capacities, the larger first)
    order = sorted(range(len(plans)), key=lambda k: -(plans[k].meter.capacity or 0))
    big = plans[order[0]]
    small = plans[order[1]] if len(plans) > 1 else None
    if small is not None and not _rides_along(game, small, big):
        return None
    free, value, counted = big.free, big.sv.value, big.meter.counted
    assert free is not None
    for _hx, tile in game.board.tiles():
        for n in tile.nodes:
            if (value(n) != 0 or counted(n)) if free(n) else not counted(n):
                return None
    caps = (int(big.meter.capacity or 0), int(small.meter.capacity or 0) if small is not None else 0)
    cp = CityPairs(big.en, caps, free)
    proven = cp.run(value)
    stats.walk_steps += cp.stats.steps
    stats.nodes += cp.stats.laid
    if not proven:
        return None
    if small is None and cp.best < max((value(n) for _hx, tile in game.board.tiles() for n in tile.nodes
                                        if not free(n)), default=0):
        return None  # (the search only lists routes of two cities or more: one city may pay more)
    routes: list[Route] = []
    for k, got in zip(order, cp.best_pair):
        if got is not None:
            build_route(rules, trains[k], got[0], got[1], routes, None, chain_cache)
    try:
        total = sum(r.revenue(recompute=True) for r in routes)
    except GameError:
        return None
    if total != cp.best:
        return None
    logs = [r.to_log() for r in routes]
    try:
        again = sum(game.compute_route_revenues(entity, logs, {t.id: t for t in trains}))
    except GameError:
        return None
    if again != cp.best:
        return None
    for t in trains:
        stats.candidates[t.id] = 1
    return RouterResult(cp.best, logs, True, stats, name)


def optimal_routes(game: Game, entity: Operator | None = None, *, time_limit: float | None = None,
                   work_limit: int | None = None) -> RouterResult:
    """The best routes for ``entity`` (default: the entity acting) with its trains now.

    ``time_limit`` (seconds) and ``work_limit`` (walk steps per train kind and search nodes)
    stop the search early: the result is then the best run found, ``optimal`` False. A
    work limit keeps the result deterministic (bots and random players use it)."""
    # the walk allocates millions of small acyclic tuples: the cyclic garbage collector would
    # only rescan the whole heap (every game copy a caller holds) over and over
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _optimal_routes(game, entity, time_limit, work_limit)
    finally:
        if enabled:
            gc.enable()


def _optimal_routes(game: Game, entity: Operator | None, time_limit: float | None,
                    work_limit: int | None) -> RouterResult:
    if entity is None:
        entity = game.current_entity()
    stats = Stats()
    name = getattr(entity, "id", None) or getattr(entity, "name", None)
    # a train that ran this round (e.g. one a title lets a company lease back) may not run again
    trains = [t for t in game.route_trains(entity) if not t.operated] if entity is not None else []
    if not trains:
        return RouterResult(0, [], True, stats, name)
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    rules = rules_for(game)
    chain_cache: dict[Any, Any] = {}
    t0 = time.monotonic()

    key_index: dict[Hashable, int] = {}

    def key_bit(k: Hashable) -> int:
        b = key_index.get(k)
        if b is None:
            at = len(key_index)
            b = key_index[k] = 1 << at
        return b

    tokened = _tokened_cities(rules, game, entity)
    kinds: dict[tuple[Any, ...], _Kind] = {}
    kind_of: dict[Train, tuple[Any, ...]] = {}
    kind_train: dict[tuple[Any, ...], Train] = {}
    links_by_track: dict[str | None, Links] = {}
    for train in trains:
        key = _kind_key(rules, train)
        kind_of[train] = key
        if key not in kinds:
            kind_train[key] = train
            kinds[key] = None  # type: ignore[assignment]  # (its place in order, set by the walks below)
    # with several trains, the kind that runs one train and walks the longest routes is
    # walked last and pruned (see below); first only its best routes
    pruned = _pruned_kind(rules, entity, trains, kind_of, kind_train) if len(trains) > 1 else None

    walked_before: dict[str | None, int] = {}

    def links_of(train: Train) -> Links:
        skip = rules.skip_route_track_type(train)
        links = links_by_track.get(skip)
        if links is None:
            # the path walks depend on the board's tiles alone: kept per board version
            links = links_by_track[skip] = game.board.derived(("router links", skip), partial(_links, game.board, skip))
            walked_before[skip] = links.walked
        return links

    plans = {key: _Plan(game, rules, entity, train, links_of(train), tokened, key_bit, work_limit)
             for key, train in kind_train.items()}
    if _SET_SEARCH and len(trains) == 1 and time_limit is None and work_limit is None:
        # a lone train that pays its best stops: searched over paid stop sets (:mod:`.stopsets`)
        got = _by_stop_sets(game, rules, entity, plans[kind_of[trains[0]]], chain_cache, stats, name)
        if got is None and _CITY_PAIRS:
            # a lone train paid for the cities it visits: its best city sequence laid (:mod:`.citypairs`)
            got = _by_city_pairs(game, rules, entity, trains, [plans[kind_of[trains[0]]]], chain_cache, stats, name)
        if got is not None:
            stats.enumerate_s = time.monotonic() - t0
            return got
    if _CITY_PAIRS and len(trains) == 2 and time_limit is None and work_limit is None:
        # two trains paid for the cities they visit: searched over city sequences (:mod:`.citypairs`;
        # two trains of one kind: each unordered pair of routes once)
        got = _by_city_pairs(game, rules, entity, trains, [plans[kind_of[t]] for t in trains], chain_cache,
                             stats, name)
        if got is not None:
            stats.enumerate_s = time.monotonic() - t0
            return got
    # a kind whose routes are another's that its meter accepts rides along that kind's walk
    riders: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    if len(kinds) > 1:
        by_size = sorted(kind_train, key=lambda k: -_row_total(plans[k].meter))
        for key in by_size:
            host = next((h for h in riders if _rides_along(game, plans[key], plans[h])), None)
            if host is None:
                riders[key] = []
            else:
                riders[host].append(key)
        if pruned is not None and (pruned not in riders or riders[pruned]):
            pruned = None  # the pruned kind walks alone
    else:
        riders = {key: [] for key in kind_train}
    # the pruned kind last: it is only cut when the other trains' lists are short (their best
    # route beside a first half is then exact and cheap; beside long lists, the cut rarely
    # pays for its extra walks)
    walk_order = sorted(riders, key=lambda k: k == pruned)
    # a lone train's runs are its routes: the exact value of a run of one candidate, kept for
    # the search's leaf (and, where the title's value alone is the route's checked revenue,
    # as the candidate's value alone)
    lone = trains[0] if len(trains) == 1 else None
    run_memo: dict[int, tuple[Candidate, int | None]] = {}
    # the runs evaluated at the highest revenue so far, with their routes as built and priced
    # (ids of the trains and candidates -> (trains, candidates, routes)): the best run's
    # entries are made from them instead of building and pricing its routes again
    built: list[Any] = [0, {}]

    def keep(run_order: Sequence[Train], choice: Sequence[Candidate | None], routes: list[Route],
             total: int) -> None:
        if total < built[0]:
            return
        if total > built[0]:
            built[0], built[1] = total, {}
        built[1][(*map(id, run_order), *map(id, choice))] = (tuple(run_order), tuple(choice), routes)
    plain_value = (type(rules).router_bound is RouteRules.router_bound
                   and type(rules).route_revenue is RouteRules.route_revenue)

    def learn(c: Candidate, v: int) -> None:
        stats.evaluated += 1
        if v > c.bound:  # a bound that is not one would make the search wrong: report it
            stats.bad_bounds += 1
            c.bound = v
        c.value = v

    def run_alone(c: Candidate) -> int | None:
        """The checked revenue of the lone train's run of ``c`` (None: it cannot run)."""
        got = run_memo.get(id(c))
        if got is not None and got[0] is c:
            return got[1]
        assert lone is not None
        routes: list[Route] = []
        build_route(rules, lone, c.nodes, c.segs, routes, None, chain_cache)
        try:
            v: int | None = sum(r.revenue(recompute=True) for r in routes)
        except GameError:
            v = None
        run_memo[id(c)] = (c, v)
        if v is not None:
            keep((lone,), (c,), routes, v)
        if v is not None and plain_value and c.value is None:
            learn(c, v)  # its value alone is the same checked revenue, without the run's checks
        return v

    for key in walk_order:
        along = riders[key]
        if key == pruned and sum(len(kinds[k].cands) for k in kinds if k != pruned) > _PRUNE_BESIDE:
            pruned = None
        if key == pruned and work_limit is None and _REUSE_TREES:
            plans[key].en.keep_trees = {}  # its trees of halves, grown whole by its second walk
        # a lone train (or the pruned kind): first only its best routes; the best run they
        # make tells how far down the list must go (below)
        kinds[key], theirs = _walk(plans[key], stats, rising=len(trains) == 1 or key == pruned,
                                   riders=[plans[k] for k in along],
                                   judge=run_alone if lone is not None else None)
        for k, kind in zip(along, theirs):
            kinds[k] = kind
    stats.enumerate_s = time.monotonic() - t0

    order: list[Train] = []
    same: list[bool] = []

    def set_order() -> None:
        order[:] = sorted(trains, key=lambda t: (-kinds[kind_of[t]].top, repr(kind_of[t]), t.id))
        same[:] = [i > 0 and kind_of[order[i]] == kind_of[order[i - 1]] for i in range(len(order))]

    set_order()
    by_id = {t.id: t for t in trains}
    best = [0]  # the best run's revenue so far
    best_choice: list[Candidate | None] = [None] * len(order)  # its candidates in train order
    ranked_memo: dict[int, tuple[_Kind, RankedList]] = {}

    def ranked_of(kind: _Kind) -> RankedList:
        got = ranked_memo.get(id(kind))
        if got is None or got[0] is not kind:
            got = ranked_memo[id(kind)] = (kind, RankedList(kind.cands, len(key_index)))
        return got[1]

    def run_of(choice: list[Candidate | None]) -> list[Route]:
        routes: list[Route] = []
        for train, c in zip(order, choice):
            if c is not None:
                build_route(rules, train, c.nodes, c.segs, routes, None, chain_cache)
        return routes

    eager = [False]  # check every better run's log form at once (after a final check failed)

    def logged_total(routes: list[Route]) -> int | None:
        """The run's revenue as process() will see it: its log form, rebuilt and checked."""
        try:
            again: list[int] = game.compute_route_revenues(entity, [r.to_log() for r in routes], by_id)
        except GameError:
            return None
        return sum(again)

    def evaluate(choice: list[Candidate | None]) -> int | None:
        if lone is not None:
            c = choice[0]
            got = run_alone(c) if c is not None else 0
            if got is None or got <= best[0] or not eager[0]:
                return got
            total = got
            routes = run_of(choice)
        else:
            routes = run_of(choice)
            try:
                total = sum(r.revenue(recompute=True) for r in routes)
            except GameError:
                return None
            keep(order, choice, routes, total)
            if total <= best[0] or not eager[0]:
                return total
        if logged_total(routes) != total:
            stats.unlogged += 1
            return None
        return total

    def value(c: Candidate) -> int:
        got = evaluate_alone(rules, c.train, c.nodes, c.segs, None, chain_cache)
        v = got if got is not None else -1
        learn(c, v)
        return v

    def search_all() -> bool:
        """The search over the candidate lists, each walked again as far as a better run
        needs; True when it finished (the best run is proven)."""
        finished = False
        while True:
            search = Search([ranked_of(kinds[kind_of[t]]) for t in order], same, value, evaluate, deadline,
                            stats, work_limit)
            search.best, search.best_choice = best[0], list(best_choice)
            search.run()
            best[0], best_choice[:] = search.best, search.best_choice
            finished = search.finished
            if not finished:
                return False
            # a better run needs every route's bound above the best less the other trains'
            # best bounds: a kind whose list is not complete that far down is walked again
            tops = sum(kinds[kind_of[t]].top for t in trains)
            redo = {key: best[0] - (tops - k.top) + 1 for key, k in kinds.items()}
            redo = {key: f for key, f in redo.items() if f < kinds[key].complete}
            if not redo:
                return True
            t1 = time.monotonic()
            chosen = dict(zip(order, best_choice))
            for key, f in redo.items():
                kinds[key] = _kind_candidates(game, rules, entity, kind_train[key], links_of(kind_train[key]),
                                              tokened, key_bit, work_limit, stats, floor=f)
            set_order()
            best_choice[:] = [chosen[t] for t in order]
            stats.enumerate_s += time.monotonic() - t1
            stats.passes += 1

    if pruned is not None:
        # the best run with the pruned kind's best routes is a floor: a route of that kind is
        # only wanted if its bound, with what the other trains can still run beside it (their
        # lists' best routes sharing no track with its first half, seen coarsely), beats it
        # (a short search: any run it finds is a floor, a better one only a higher floor)
        limit = stats.nodes + _PRELIM_NODES
        search = Search([ranked_of(kinds[kind_of[t]]) for t in order], same, value, evaluate, deadline,
                        stats, limit if work_limit is None else min(limit, work_limit))
        search.run()
        best[0], best_choice[:] = search.best, search.best_choice
        if best[0] > 0:
            others = [ranked_of(kinds[kind_of[t]]) for t in trains if kind_of[t] != pruned]
            # what each other train can run beside a route: its list's coarse view (a short
            # list: its best route sharing no track, exactly)
            views = [rl.coarse or rl for rl in others]
            tops = [kinds[kind_of[t]].top for t in trains if kind_of[t] != pruned]
            target = best[0] + 1

            def floor_of(mask: int) -> int:
                return target - sum(v.best(mask) for v in views)

            t1 = time.monotonic()
            chosen = dict(zip(order, best_choice))
            kind = _kind_candidates(game, rules, entity, kind_train[pruned], links_of(kind_train[pruned]),
                                    tokened, key_bit, work_limit, stats, floor=target - sum(tops),
                                    floor_of=floor_of,
                                    reuse=plans[pruned].en if plans[pruned].en.keep_trees is not None else None)
            plans[pruned].en.keep_trees = None
            kind.complete = float("-inf")  # every route a run better than the best needs is there
            kinds[pruned] = kind
            set_order()
            best_choice[:] = [chosen[t] for t in order]
            stats.enumerate_s += time.monotonic() - t1
            stats.passes += 1

    def logs_of(choice: list[Candidate | None]) -> list[dict[str, Any]]:
        """The run's ``run_routes`` entries (every route's revenue worked out first)."""
        got = built[1].get((*map(id, order), *map(id, choice))) if _REUSE_PRICED else None
        if (got is not None and all(map(is_, got[0], order))
                and all(map(is_, got[1], choice))):
            routes = got[2]  # built and priced when the run was evaluated
        else:
            routes = run_of(choice)
            for r in routes:
                r.revenue(recompute=True)
        return [r.to_log() for r in routes]

    def logged_check(logs: list[dict[str, Any]]) -> int | None:
        """``logged_total`` of a run already in its log form."""
        try:
            again: list[int] = game.compute_route_revenues(entity, logs, by_id)
        except GameError:
            return None
        return sum(again)

    finished = search_all()
    logs: list[dict[str, Any]] | None = None  # the best run's entries, once checked
    if best[0] > 0 and not eager[0]:
        logs = logs_of(best_choice)
    if logs is not None and logged_check(logs) != best[0]:
        # the best run's log form does not rebuild to its revenue (never seen in real logs):
        # search again, checking each better run as it is found
        stats.unlogged += 1
        eager[0] = True
        if pruned is not None:  # its list was cut by that run: walk it whole
            kinds[pruned] = _kind_candidates(game, rules, entity, kind_train[pruned], links_of(kind_train[pruned]),
                                             tokened, key_bit, work_limit, stats)
            set_order()
        best[0], best_choice[:] = 0, [None] * len(order)
        finished = search_all()
        logs = None
    for t in order:
        stats.candidates[t.id] = len(kinds[kind_of[t]].cands)
    stats.links_walked = sum(lk.walked - walked_before[k] for k, lk in links_by_track.items())
    if logs is None:
        logs = logs_of(best_choice) if best[0] > 0 else []
    optimal = finished and not stats.bad_bounds and not stats.exhausted
    return RouterResult(best[0], logs, optimal, stats, name)
