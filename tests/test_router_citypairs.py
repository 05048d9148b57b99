"""The city-sequence search for two trains paid for the cities they visit (1858's E trains,
``router/citypairs.py``) gives the walk's revenue, proven, with a run the rules accept: on
1858 log states with two E trains (of two kinds, and two of one kind), and on every two-E-train state among a log's late
run_routes states."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from trackage.router import logstates, optimal_routes, solve

# 979: two 7E trains of one kind (each unordered pair of routes once)
STATES = [("1858_game_end_bank.json", 868), ("1858_game_end_bank.json", 987), ("1858_game_end_bank.json", 979)]


def _both(game, entity, monkeypatch):
    """(city-pair result, walk result)."""
    with monkeypatch.context() as m:
        m.setattr(solve, "_CITY_PAIRS", True)
        paired = optimal_routes(game, entity)
        m.setattr(solve, "_CITY_PAIRS", False)
        walked = optimal_routes(game, entity)
    return paired, walked


def _decided(res) -> bool:
    """Did the city-pair search answer (one route per train kept, none walked)?"""
    return res.stats.links_walked == 0 and set(res.stats.candidates.values()) == {1}


def _check(game, entity, paired, walked):
    assert (paired.revenue, paired.optimal) == (walked.revenue, walked.optimal)
    assert paired.optimal
    trains = {t.id: t for t in game.route_trains(entity)}
    assert sum(game.compute_route_revenues(entity, paired.routes, trains)) == paired.revenue


@pytest.mark.parametrize(("log", "at"), STATES)
def test_city_pairs_give_the_walks_revenue(monkeypatch, log, at):
    path = FIXTURES / "1858" / log
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, action = logstates.state_before(path, at)
    entity = game.index.resolve(action)
    paired, walked = _both(game, entity, monkeypatch)
    assert _decided(paired)
    assert paired.revenue >= 700
    _check(game, entity, paired, walked)


def test_city_pairs_on_late_two_e_states(monkeypatch):
    """Every run_routes state of a log whose company runs two E trains."""
    path = FIXTURES / "1858" / "1858-quick-start-a.json"
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    decided = 0
    for action, game in logstates.run_routes_states(path):
        entity = game.index.resolve(action)
        trains = [t for t in game.route_trains(entity) if not t.operated]
        if len(trains) != 2 or not all(t.name.endswith("E") for t in trains):
            continue
        paired, walked = _both(game, entity, monkeypatch)
        _check(game, entity, paired, walked)
        decided += _decided(paired)
    assert decided >= 2


def test_two_trains_of_one_kind_are_paired(monkeypatch):
    """979: the company's two 7E trains (one kind) decided by the pair search, one route per
    train, the walk's revenue."""
    path = FIXTURES / "1858" / "1858_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, action = logstates.state_before(path, 979)
    entity = game.index.resolve(action)
    trains = [t for t in game.route_trains(entity) if not t.operated]
    assert len(trains) == 2 and trains[0].name == trains[1].name == "7E"
    paired, walked = _both(game, entity, monkeypatch)
    assert _decided(paired)
    assert paired.revenue == walked.revenue == 710
    assert sorted(r["train"] for r in paired.routes) == sorted(t.id for t in trains)
    _check(game, entity, paired, walked)


@pytest.mark.parametrize("at", [859, 932])
def test_a_lone_e_train_by_its_best_sequence(monkeypatch, at):
    """A lone 7E: its best city sequence laid alone is the walk's revenue, decided without a walk."""
    path = FIXTURES / "1858" / "1858_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, action = logstates.state_before(path, at)
    entity = game.index.resolve(action)
    trains = [t for t in game.route_trains(entity) if not t.operated]
    assert [t.name for t in trains] == ["7E"]
    paired, walked = _both(game, entity, monkeypatch)
    assert _decided(paired)
    assert paired.revenue == walked.revenue > 0
    _check(game, entity, paired, walked)
