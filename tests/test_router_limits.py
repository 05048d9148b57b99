"""The router's limits and its place in legal_actions: deterministic work limits, the
suggestion, and states larger than the limit."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from trackage.router import logstates, optimal_routes

SMALL = FIXTURES / "1867" / "21268.json"
AT = 846  # C&O, a 7 and a 5 train: 17,139 + 4,894 candidate routes

needs_log = pytest.mark.skipif(not SMALL.exists(), reason=f"NO FIXTURES: {SMALL} is absent (set TRACKAGE_FIXTURES)")


def state_before(action_id: int):
    return logstates.state_before(SMALL, action_id)


@needs_log
def test_work_limit_is_deterministic_and_not_claimed_optimal():
    game, _ = state_before(AT)
    entity = game.current_entity()
    full = optimal_routes(game, entity)
    assert full.optimal and full.revenue == 810
    cut = [optimal_routes(game, entity, work_limit=300) for _ in range(2)]
    assert cut[0].routes == cut[1].routes and cut[0].revenue == cut[1].revenue
    assert not cut[0].optimal and cut[0].stats.exhausted
    assert cut[0].revenue <= full.revenue


@needs_log
def test_suggestion_is_the_router_and_process_accepts_it():
    game, logged = state_before(AT)
    entity = game.current_entity()
    listed = [a for a in game.legal_actions() if a["type"] == "run_routes"]
    assert len(listed) == 1
    best = optimal_routes(game, entity, work_limit=game.ROUTER_WORK)
    assert listed[0]["routes"] == best.routes
    trains = {t.id: t for t in game.route_trains(entity)}
    assert sum(game.compute_route_revenues(entity, best.routes, trains)) == best.revenue
    live = game.copy()
    live.loading = False
    before = len(live.actions)
    live.process(dict(listed[0]))  # accepted as listed, in live play (refusal raises)
    assert len(live.actions) == before + 1
    assert best.revenue >= sum(game.compute_route_revenues(entity, logged["routes"], trains))
