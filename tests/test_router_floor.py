"""A lone train's routes are walked with a rising floor (subtrees that cannot reach the best
bound found are skipped, a second walk goes lower when the best run is worth less): the result
must be the one the full walk gives, with far fewer candidates kept."""

from __future__ import annotations

import pytest
from conftest import FIXTURES
from routerkit import floored_and_full

from trackage.router import logstates, optimal_routes, solve

CASES = [
    # (title, log, action id, the full walk's candidates at least)
    ("1861", "167259.json", 717, 300_000),  # an 8 train, towns filling
    ("1861", "167259.json", 653, 150_000),  # a 6 train
    ("1858", "1858_game_end_bank.json", 932, 100_000),  # a 7E train, towns free
    ("1858", "1858_game_end_bank.json", 991, 50_000),  # a 5D train
]


def _path(title, log):
    return FIXTURES / title / log


@pytest.mark.parametrize(("title", "log", "at", "full_at_least"), CASES)
def test_floor_gives_the_full_walks_result(monkeypatch, title, log, at, full_at_least):
    path = _path(title, log)
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, _ = logstates.state_before(path, at)
    entity = game.current_entity()
    assert len(list(game.route_trains(entity))) == 1
    floored, full = floored_and_full(monkeypatch, game, entity)
    assert full.optimal and floored.optimal
    assert floored.revenue == full.revenue > 0
    (n_full,) = full.stats.candidates.values()
    (n_floor,) = floored.stats.candidates.values()
    assert n_full >= full_at_least
    assert n_floor * 20 < n_full  # the floor kept few of them
    trains = {t.id: t for t in game.route_trains(entity)}
    assert sum(game.compute_route_revenues(entity, floored.routes, trains)) == floored.revenue


def test_second_walk_when_the_best_bound_is_not_earned(monkeypatch):
    """When the best-bound routes earn less than their bound, the floor goes down to what
    the best run found allows, and the result is the full walk's."""
    path = _path("1861", "167259.json")
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    monkeypatch.setattr(solve, "_SET_SEARCH", False)  # (the walk's floor is tested here)
    game, _ = logstates.state_before(path, 653)
    entity = game.current_entity()
    full_rev = optimal_routes(game, entity).revenue
    real = solve.evaluate_alone
    # make every route worth 30 less than the rules say: bounds now overestimate by 30
    orig = solve.Search.__init__

    def search_init(self, lists, same, value, evaluate, *a, **k):
        def worse(choice):
            v = evaluate(choice)
            return None if v is None else v - 30
        orig(self, lists, same, value, worse, *a, **k)

    monkeypatch.setattr(solve.Search, "__init__", search_init)
    monkeypatch.setattr(solve, "evaluate_alone", lambda *a: (lambda v: None if v is None else v - 30)(real(*a)))
    got = optimal_routes(game, entity)
    assert got.optimal
    assert got.revenue == full_rev - 30
    assert got.stats.passes == 2


PROBE_CASES = [
    # (title, log, action id): lone trains whose rising walk takes a floor from its best half first
    ("1861", "167259.json", 721),  # an 8 train, towns filling (the slowest lone train of the logs)
    ("1861", "167259.json", 695),
    ("1861", "167259.json", 689),
]


@pytest.mark.parametrize(("title", "log", "at"), PROBE_CASES)
def test_probe_floor_keeps_the_same_suggested_run(monkeypatch, title, log, at):
    """The floor judged on the best half's routes before the walk lists the same best routes
    in the same order: the same run (routes, not only revenue) as the walk without it, in
    fewer walk steps."""
    path = _path(title, log)
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    from trackage.router import candidates

    game, _ = logstates.state_before(path, at)
    entity = game.current_entity()
    assert len(list(game.route_trains(entity))) == 1
    probed = optimal_routes(game, entity)
    monkeypatch.setattr(candidates, "_PROBE_HALVES", 0)
    plain = optimal_routes(game, entity)
    assert probed.optimal and plain.optimal
    assert probed.revenue == plain.revenue > 0
    assert probed.routes == plain.routes
    assert probed.stats.walk_steps < plain.stats.walk_steps


@pytest.mark.parametrize(("title", "log", "at"), PROBE_CASES)
def test_end_stops_and_classes_keep_the_same_suggested_run(monkeypatch, title, log, at):
    """A deep half's bound with at most two stops that end every walk (offboards, blocked
    cities) and one stop per clash class (an offboard area, a hex of several cities) is still
    an upper bound: the same run (routes, not only revenue) as with the board's best stops
    alone, in fewer walk steps."""
    path = _path(title, log)
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    from trackage.router import candidates

    game, _ = logstates.state_before(path, at)
    entity = game.current_entity()
    limited = optimal_routes(game, entity)
    monkeypatch.setattr(candidates, "_STOP_LIMITS", False)
    loose = optimal_routes(game, entity)
    assert limited.optimal and loose.optimal
    assert limited.revenue == loose.revenue > 0
    assert limited.routes == loose.routes
    assert limited.stats.walk_steps <= loose.stats.walk_steps
    if at == 721:  # (the deep walk: many halves cut)
        assert limited.stats.walk_steps * 4 < loose.stats.walk_steps * 3


def test_stop_classes_are_laminar_with_the_end_stops():
    """A class is one clash bit's stops, all ending walks or none; stops of several bits and
    bits shared by both kinds get none."""
    from trackage.router.candidates import _stop_classes

    bits = {"a1": 1, "a2": 1, "b1": 2, "b2": 2, "c1": 4, "c2": 4 | 8, "d1": 8, "e1": 0}
    ends = frozenset({"a1", "a2", "b1"})
    got = _stop_classes(list(bits), bits.__getitem__, ends)
    # a: all end stops; b: mixed (none); c1: one bit, c2: two bits (none); d1: one bit
    assert got == {"a1": 1, "a2": 1, "c1": 4, "d1": 8}


@pytest.mark.parametrize("at", [959, 1000])
def test_kept_halves_without_routes_are_skipped_by_the_second_walk(monkeypatch, at):
    """The pruned kind's second walk (per-half floors, on the trees its rising walk kept)
    skips a half that gave no route there under a floor no higher than its own: the same run
    (routes, not only revenue) as asking every half again, in fewer walk steps."""
    path = _path("1858", "1858_game_end_bank.json")
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    from trackage.router import candidates

    game, _ = logstates.state_before(path, at)
    entity = game.current_entity()
    assert len(list(game.route_trains(entity))) == 2
    skipped = optimal_routes(game, entity)
    monkeypatch.setattr(candidates, "_SKIP_EMPTY", False)
    asked = optimal_routes(game, entity)
    assert skipped.optimal and asked.optimal
    assert skipped.revenue == asked.revenue > 0
    assert skipped.routes == asked.routes
    assert skipped.stats.walk_steps < asked.stats.walk_steps
