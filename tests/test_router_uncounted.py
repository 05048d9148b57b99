"""Where every stop pays (1858's H trains count hex edges, not stops), a lone train's bound
for the second halves of its routes must count the stops its meter does not limit: it once
left them out, cut routes that paid more and still called the run proven (two 1858 random
games agreed by the reference ran a 6H for 130 and 170 where 150 and 180 were there)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from routerkit import floored_and_full

from trackage.router import logstates

PLAYTHROUGHS = Path(__file__).parent / "playthroughs" / "1858"

CASES = [
    # (playthrough, the run's action id, the best revenue)
    ("5p-base-seed3007", 865, 150),
    ("6p-quick_start_a-seed3005", 872, 180),
]


@pytest.mark.parametrize(("name", "at", "best"), CASES)
def test_a_lone_h_train_finds_the_best_run(monkeypatch, name, at, best):
    data = json.loads(gzip.decompress((PLAYTHROUGHS / f"{name}.json.gz").read_bytes()))
    game, action = logstates.state_before(data, at)
    entity = game.current_entity()
    assert entity.id == action["entity"]
    assert len(list(game.route_trains(entity))) == 1
    found, full = floored_and_full(monkeypatch, game, entity)
    assert full.optimal and found.optimal
    assert found.revenue == full.revenue == best
    trains = {t.id: t for t in game.route_trains(entity)}
    assert sum(game.compute_route_revenues(entity, found.routes, trains)) == best
