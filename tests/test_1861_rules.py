"""1861: the 1867 rules on the Russian map, with Nikolaev first, fixed minor homes, the
grid market by default and the national railway (RSR)."""

from __future__ import annotations

import pytest

from trackage.core.errors import GameError
from trackage.core.log import filter_actions, load_log
from trackage.replay import game_from_log
from trackage.titles import new_game

from conftest import require_fixtures

PLAYERS = [{"id": i, "name": f"P{i}"} for i in range(1, 5)]


def act(g, type_, entity=None, **kw):
    e = entity if entity is not None else g.current_entity()
    g.process({"type": type_, **g.entity_ref(e), **kw})


def to_stock_round(g):
    while g.round.name == "Auction Round":
        company = g.round.steps[0].auctioning
        if g.min_bid(company) <= 10:
            act(g, "bid", company=company.sym, price=g.min_bid(company))
        else:
            act(g, "pass")


def test_markets():
    assert len(new_game("1861", PLAYERS, [], 1).stock_market.market) > 1
    assert len(new_game("1861", PLAYERS, ["column_market"], 1).stock_market.market) == 1
    assert len(new_game("1867", PLAYERS, [], 1).stock_market.market) == 1
    assert len(new_game("1867", PLAYERS, ["grid_market"], 1).stock_market.market) > 1


def test_nikolaev_first_and_fixed_homes():
    g = new_game("1861", PLAYERS, [], 1)
    to_stock_round(g)
    with pytest.raises(GameError) as err:
        act(g, "bid", corporation="MV", price=100)
    assert err.value.rule == "minor-order"
    act(g, "bid", corporation="N", price=100)
    n = g.corporation_by_id("N")
    # the home token is placed at once: Nikolaev's home is printed on the map
    assert [t.city.hex.id for t in n.tokens if t.used] == [n.coordinates]
    while n.owner is None:
        act(g, "pass")
    assert (n.cash, n.share_price.price) == (100, 50)


FIXTURES = require_fixtures("1861")


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem if p else "absent" for p in FIXTURES])
def test_rsr_operates_last_from_phase_4(path):
    data = load_log(path)
    g = game_from_log(data)
    g.loading = True
    seen = []
    for action in filter_actions(data["actions"]):
        g._apply(action)
        r = g.round
        if r.name == "Operating Round" and 4 <= int(g.phase.name) < 8 and r.entities[-1] is g.national:
            seen.append((g.national.owner is g.players[0], r.entity_index))
    assert seen and all(owner for owner, _ in seen)
    assert g.national.trains or g.national.operated()
    assert g.finished and g.result() == {str(k): v for k, v in data["result"].items()}
