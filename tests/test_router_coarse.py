"""Coarse views (a later train's list seen through its most used keys) only cut search nodes:
with them the router finds the same proven revenue as without them."""

from __future__ import annotations

import random

import pytest
from conftest import FIXTURES

from trackage.router import bitsets, logstates, optimal_routes, solve

# states whose later trains have long lists (coarse views are built for them)
LONG = [
    ("1867", "21268.json", 846),  # C&O: a 7 and a 5 train
    ("1858", "1858_game_end_bank.json", 868),  # ZPB: 7E and 5E, some 53,000 routes
    ("1861", "bank_breaks_then_final_phase.json", 740),  # SE: 5+5E and 5
]
# logs whose multi-train states are run with coarse views forced on every list
FORCED = [("1867", "21268.json", 3), ("1822", "1822_game_end_stock_market.json", 6),
          ("1861", "bank_breaks_then_final_phase.json", 6)]


@pytest.fixture(autouse=True)
def _the_walk(monkeypatch):
    """These tests are of the walk: the city-sequence search of two E trains is off."""
    monkeypatch.setattr(solve, "_CITY_PAIRS", False)



def _path(title, log):
    path = FIXTURES / title / log
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    return path


@pytest.mark.parametrize(("title", "log", "at"), LONG)
def test_coarse_views_keep_the_result_and_cut_nodes(monkeypatch, title, log, at):
    game, _ = logstates.state_before(_path(title, log), at)
    entity = game.current_entity()
    with_views = optimal_routes(game, entity)
    with monkeypatch.context() as m:
        m.setattr(bitsets, "_COARSE_FROM", 10 ** 9)
        without = optimal_routes(game, entity)
    assert with_views.optimal and without.optimal
    assert with_views.revenue == without.revenue > 0
    assert with_views.stats.nodes <= without.stats.nodes
    assert max(with_views.stats.candidates.values()) >= 2000  # the views were built


@pytest.mark.parametrize(("title", "log", "every"), FORCED)
def test_forced_coarse_views_on_every_list(monkeypatch, title, log, every):
    path = _path(title, log)
    compared = 0
    for _action, game in logstates.run_routes_states(path, every=every):
        entity = game.current_entity()
        if len(list(game.route_trains(entity))) < 2:
            continue
        with monkeypatch.context() as m:
            m.setattr(bitsets, "_COARSE_FROM", 1)
            forced = optimal_routes(game, entity)
        with monkeypatch.context() as m:
            m.setattr(bitsets, "_COARSE_FROM", 10 ** 9)
            plain = optimal_routes(game, entity)
        assert forced.optimal and plain.optimal
        assert forced.revenue == plain.revenue, f"{log} before a run_routes of {entity.id}"
        compared += 1
    assert compared >= 5


def test_rank_list_gives_the_set_bits_lowest_first():
    """Few bits taken off one at a time, many unpacked at once: the same list either way."""
    rng = random.Random(45)
    for count in (0, 1, 7, bitsets._RANK_BITS, bitsets._RANK_BITS + 1, 300):
        for width in (64, 700, 9000):
            places = sorted(rng.sample(range(width), min(count, width)))
            avail = sum(1 << p for p in places)
            assert bitsets.rank_list(avail) == places
