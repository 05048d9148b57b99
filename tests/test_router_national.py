"""A hard national state: 1867's national late in a real log, given one 5+5E (it pays its 5
best stops and visits any number of others). Its bound (1867's bonuses of stops that need
not pay) promises more than every route earns, so a floor from bounds walked twice; the
floor from the best run judged walks once, with the same proven revenue."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from trackage.router import logstates, optimal_routes, solve
from trackage.router.national import with_national_train

LOG = FIXTURES / "1867" / "21268.json"


@pytest.fixture(scope="module")
def state():
    if not LOG.exists():
        pytest.skip(f"NO FIXTURES: {LOG} is absent (set TRACKAGE_FIXTURES)")
    game, _ = logstates.state_before(LOG, 846)
    return game, with_national_train(game)


def test_national_5_5e_revenue_is_pinned_and_proven(state):
    game, national = state
    res = optimal_routes(game, national)
    assert res.optimal
    assert res.revenue == 830
    assert res.stats.passes == 1  # one walk
    trains = {t.id: t for t in national.trains}
    assert sum(game.compute_route_revenues(national, res.routes, trains)) == 830


def test_floor_from_bounds_gives_the_same_run(state, monkeypatch):
    game, national = state
    real = solve._walk
    monkeypatch.setattr(solve, "_walk", lambda *a, judge=None, **k: real(*a, **k))
    res = optimal_routes(game, national)
    assert res.optimal and res.revenue == 830
