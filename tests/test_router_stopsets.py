"""The set search (a lone train paying its best stops, searched over paid stop sets) gives
the walk's revenue, proven, with a run the rules accept: on the three national states of
``test_router_national.py`` and on seeded random late states of two logs."""

from __future__ import annotations

import random

import pytest
from conftest import FIXTURES

from trackage.core.errors import GameError
from trackage.router import logstates, optimal_routes, solve
from trackage.router.national import with_national_train

STATES = [("1867", "21268.json", 846), ("1861", "167259.json", 594),
          ("1861", "bank_breaks_then_final_phase.json", 758)]


def _both(game, national, monkeypatch):
    """(set search result, walk result) for the national's lone train."""
    by_sets = optimal_routes(game, national)
    with monkeypatch.context() as m:
        m.setattr(solve, "_SET_SEARCH", False)
        walked = optimal_routes(game, national)
    return by_sets, walked


def _by_sets(national, res) -> bool:
    """Did the set search decide (one route, or none when the national has no run)? (Past
    its budget the walk does.)"""
    return res.stats.candidates == {national.trains[0].id: 1 if res.revenue else 0}


def _check(game, national, by_sets, walked):
    assert (by_sets.revenue, by_sets.optimal) == (walked.revenue, walked.optimal)
    assert by_sets.optimal
    trains = {t.id: t for t in national.trains}
    assert sum(game.compute_route_revenues(national, by_sets.routes, trains)) == by_sets.revenue


@pytest.mark.parametrize(("title", "log", "at"), STATES)
def test_set_search_gives_the_walks_revenue(monkeypatch, title, log, at):
    path = FIXTURES / title / log
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, _ = logstates.state_before(path, at)
    national = with_national_train(game)
    by_sets, walked = _both(game, national, monkeypatch)
    assert _by_sets(national, by_sets)
    _check(game, national, by_sets, walked)


@pytest.mark.parametrize(("title", "log"), [("1867", "21268.json"), ("1861", "29683.json")])
def test_set_search_on_random_late_states(monkeypatch, title, log):
    """Seeded random run_routes states among the last 80 of a log, the national given one 5+5E."""
    path = FIXTURES / title / log
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    states = list(logstates.run_routes_states(path))[-80:]
    picked = random.Random(22).sample(states, 5)
    ran = decided = 0
    for _action, game in picked:
        try:
            national = with_national_train(game)
        except GameError:
            continue
        by_sets, walked = _both(game, national, monkeypatch)
        _check(game, national, by_sets, walked)
        ran += 1
        decided += _by_sets(national, by_sets)
    assert ran >= 3 and decided >= 2
