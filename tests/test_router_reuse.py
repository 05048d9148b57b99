"""The pruned kind's second walk (per-half floors, after its rising walk) takes the rising
walk's trees of halves and rows (``Enumerator.follow``), walking on from their frontier in
place: every walk's list is the list of the walk made afresh, rank by rank (stops, bound,
bonus), with the same result, in fewer walk steps."""

from __future__ import annotations

import pytest
from router_states import log_state

from trackage.router import optimal_routes, solve

STATES = [
    ("1858", "1858_game_end_bank.json", 1004),  # 5D + 5E: the pruned kind cut at half depth
    ("1858", "1858_game_end_bank.json", 1000),
    ("1858", "1858-quick-start-a.json", 1109),
    ("1825", "1825_game_end_bank.json", 329),  # offboard groups: clash bits numbered by the first walk
    ("1825", "1825_game_end_bank.json", 249),
]


def _walks(monkeypatch, game, entity, *, reuse: bool) -> tuple[object, list]:
    """The result and every walk's list, in walk order, as (train, floor, rows by rank)."""
    walks: list = []
    real = solve._walk

    def spy(plan, stats, floor=None, *a, **k):
        kind, theirs = real(plan, stats, floor, *a, **k)
        walks.append((plan.train.name, floor, [(tuple(n.id for n in c.nodes), c.bound, c.bonus)
                                               for c in kind.cands]))
        return kind, theirs

    with monkeypatch.context() as m:
        m.setattr(solve, "_walk", spy)
        m.setattr(solve, "_CITY_PAIRS", False)
        m.setattr(solve, "_REUSE_TREES", reuse)
        res = optimal_routes(game, entity)
    return res, walks


@pytest.mark.parametrize(("title", "log", "at"), STATES)
def test_second_walk_on_kept_trees_lists_the_same_routes(monkeypatch, title, log, at):
    game, entity = log_state(title, log, at)
    kept, kept_walks = _walks(monkeypatch, game, entity, reuse=True)
    fresh, fresh_walks = _walks(monkeypatch, game, entity, reuse=False)
    assert kept.optimal and fresh.optimal
    assert kept.revenue == fresh.revenue > 0
    assert kept.routes == fresh.routes
    assert kept.stats.nodes == fresh.stats.nodes
    assert kept_walks == fresh_walks
    assert kept.stats.passes >= 1  # the pruned kind was walked again
    assert kept.stats.walk_steps < fresh.stats.walk_steps
