"""Walks shared or cut between a company's trains: a kind that rides along another's walk
(its routes are the other's routes its meter accepts) must get exactly the list its own walk
gives; the kind cut by what the other trains can run beside it must still give the best run."""

from __future__ import annotations

import pytest
from router_states import first_lists, log_state

from trackage.router import optimal_routes, solve

RIDERS = [
    ("1858", "1858_game_end_bank.json", 868),  # a 5E rides along a 7E (every stop value counts)
    ("1861", "167259.json", 594),  # a 4 rides along a 5 (the best 4 of the 5 best stop values)
]
PRUNED = [
    ("1858", "1858_game_end_bank.json", 959),  # a 7E cut beside a 5M (short list)
    ("1858", "1858_game_end_bank.json", 1000),  # a 7E cut beside a 5M (broad gauge)
]


@pytest.fixture(autouse=True)
def _the_walk(monkeypatch):
    """These tests are of the walk: the city-sequence search of two E trains is off."""
    monkeypatch.setattr(solve, "_CITY_PAIRS", False)



def _lists(monkeypatch, game, entity, *, share: bool) -> tuple[object, dict]:
    """The result and, per train name, the routes (as node lists, sorted) of its kind's first walk."""
    patches = [] if share else [(solve, "_rides_along", lambda *_a: False)]
    res, walks = first_lists(monkeypatch, game, entity, lambda c: tuple(n.id for n in c.nodes), patches)
    return res, {name: sorted(routes) for name, routes in walks.items()}


@pytest.mark.parametrize(("title", "log", "at"), RIDERS)
def test_a_rider_gets_the_list_of_its_own_walk(monkeypatch, title, log, at):
    game, entity = log_state(title, log, at)
    shared, with_riders = _lists(monkeypatch, game, entity, share=True)
    alone, separate = _lists(monkeypatch, game, entity, share=False)
    assert shared.optimal and alone.optimal
    assert shared.revenue == alone.revenue > 0
    assert set(with_riders) == set(separate) and len(separate) == 2
    for name, routes in separate.items():
        assert with_riders[name] == routes, name
        assert len(routes) > 1000  # real lists, not a trivial case
    assert shared.stats.passes == 1  # one walk served both kinds


@pytest.mark.parametrize(("title", "log", "at"), PRUNED)
def test_the_pruned_kind_keeps_the_best_run(monkeypatch, title, log, at):
    game, entity = log_state(title, log, at)
    cut = optimal_routes(game, entity)
    with monkeypatch.context() as m:
        m.setattr(solve, "_PRUNE_BESIDE", -1)  # every kind walked whole
        whole = optimal_routes(game, entity)
    assert cut.optimal and whole.optimal
    assert cut.revenue == whole.revenue > 0
    assert sum(cut.stats.candidates.values()) * 4 < sum(whole.stats.candidates.values())
    assert cut.stats.passes == 2  # the best routes first, then the cut walk
    trains = {t.id: t for t in game.route_trains(entity)}
    assert sum(game.compute_route_revenues(entity, cut.routes, trains)) == cut.revenue
