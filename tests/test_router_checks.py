"""Checks that moved off the router's hot path must still decide what they decided:
1867/1861's choice of paying stops (found by branch and bound) and the log-form check of the
best run (done once at the end, the whole search again if it fails)."""

from __future__ import annotations

import random

import pytest
from router_states import log_state

from trackage.core.rewind import state_class
from trackage.core.routes import rules_for
from trackage.router import optimal_routes, solve
from trackage.router.candidates import build_route
from trackage.titles.t1867.routes import RouteRules1867

STATES = [("1861", "bank_breaks_then_final_phase.json", 767), ("1861", "bank_breaks_then_final_phase.json", 758),
          ("1867", "21268.json", None)]


def _candidates(game, entity, monkeypatch) -> list:
    kept: list = []
    real = solve._walk

    def spy(*a, **k):
        kind, riders = real(*a, **k)
        for got in (kind, *riders):
            kept.extend(got.cands)
        return kind, riders

    with monkeypatch.context() as m:
        m.setattr(solve, "_walk", spy)
        optimal_routes(game, entity)
    return kept


@pytest.mark.parametrize(("title", "log", "at"), STATES)
def test_paying_stops_are_the_plain_loops(monkeypatch, title, log, at):
    """On 1,500 routes of each state, the stops compute_stops picks (and so the revenue)
    are those of trying every combination in order, first maximum kept."""
    game, entity = log_state(title, log, at)
    rules = rules_for(game)
    cands = _candidates(game, entity, monkeypatch)
    sample = random.Random(7).sample(cands, min(1500, len(cands)))

    def pick(c):
        r = build_route(rules, c.train, c.nodes, c.segs, None, None, {})
        try:
            stops = rules.compute_stops(r)
        except Exception as e:  # noqa: BLE001 - an illegal route must be illegal both ways
            return type(e).__name__, str(e)
        return [id(s) for s in stops], rules.revenue_for(r, stops) if stops else 0

    fast = [pick(c) for c in sample]
    with monkeypatch.context() as m:
        m.setattr(RouteRules1867, "_best_combo", lambda *_a, **_k: None)  # the plain loop
        plain = [pick(c) for c in sample]
    assert fast == plain
    assert sum(1 for p in plain if isinstance(p[0], list) and p[0]) > len(sample) // 2


def test_a_best_run_that_does_not_rebuild_is_searched_again(monkeypatch):
    """If the best run's log form rebuilds to another revenue, the router searches again,
    checking each better run, and returns the best run that does rebuild."""
    game, entity = log_state(*STATES[0])
    first = optimal_routes(game, entity)
    assert first.optimal and first.stats.unlogged == 0
    real = state_class(game).compute_route_revenues
    bad = {tuple(sorted(str(r) for r in first.routes))}

    def compute(self, ent, routes, trains):
        got = real(self, ent, routes, trains)
        if tuple(sorted(str(r) for r in routes)) in bad:
            return [v - 10 for v in got]  # this run does not rebuild to its revenue
        return got

    monkeypatch.setattr(state_class(game), "compute_route_revenues", compute)
    again = optimal_routes(game, entity)
    assert again.stats.unlogged >= 2  # the final check, then the eager search's check
    assert tuple(sorted(str(r) for r in again.routes)) not in bad
    assert 0 < again.revenue <= first.revenue
    trains = {t.id: t for t in game.route_trains(entity)}
    assert sum(real(game, entity, again.routes, trains)) == again.revenue


def test_a_wounded_trains_bound_is_half_its_stop_values():
    """1858's bound needs no stops (``router_base_bound``): a wounded (obsolete) lone train
    earns half, and the router's best run is half the unwounded one, proven."""
    game, entity = log_state("1858", "1858_game_end_bank.json", 932)
    (train,) = list(game.route_trains(entity))
    whole = optimal_routes(game, entity)
    assert whole.optimal and whole.revenue > 0
    train.obsolete = True
    try:
        half = optimal_routes(game, entity)
        trains = {t.id: t for t in game.route_trains(entity)}
        assert sum(game.compute_route_revenues(entity, half.routes, trains)) == half.revenue
    finally:
        train.obsolete = False
    assert half.optimal
    assert half.revenue == whole.revenue // 2


def test_1822_hooks_made_once_per_walk_match_the_plain_hooks(monkeypatch):
    """1822's ``router_bound_for`` and ``router_run_bonus_for`` (looked up once per walk)
    give what ``router_route_bound`` and ``router_run_bonus`` give, route by route, for the
    E train, the 7+ and the LP of a company with a destination token."""
    from functools import partial

    from trackage.router.candidates import trail_nodes

    game, entity = log_state("1822", "1822_game_end_stock_market.json", 1499)
    rules = rules_for(game)
    cands = _candidates(game, entity, monkeypatch)
    trains = {c.train.name for c in cands}
    assert len(trains) == 3  # the E train, the 7+ and the LP
    sample = random.Random(3).sample(cands, min(3000, len(cands)))
    made: dict = {}
    bonuses = 0
    for c in sample:
        key = c.train.id
        if key not in made:
            made[key] = (rules.router_bound_for(c.train, entity), rules.router_run_bonus_for(c.train, entity))
        bound, run_bonus = made[key]
        stops = partial(trail_nodes, c.half, c.other)
        base = sum(v for v in (rules.stop_revenue(s, build_route(rules, c.train, c.nodes, c.segs, None))
                               for s in c.nodes))
        assert bound(stops, base) == rules.router_route_bound(c.train, entity, stops, base)
        got = run_bonus(stops)
        assert got == rules.router_run_bonus(c.train, entity, stops)
        bonuses += got > 0
    assert bonuses > 0  # some routes earn the destination bonus
