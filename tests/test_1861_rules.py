"""1861: the 1867 rules on the Russian map, with Nikolaev first, fixed minor homes, the
grid market by default and the national railway (RSR)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import require_fixtures
from helpers import act, players

from trackage.core.errors import GameError
from trackage.core.log import filter_actions, load_log
from trackage.replay import game_from_log
from trackage.titles import new_game

PLAYERS = players(4)


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


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem if isinstance(p, Path) else "absent" for p in FIXTURES])
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


def test_national_buys_again_while_its_turn_lasts():
    """The national's automatic purchases leave its train step open (as on 18xx.games): when
    its steps are skipped again in the same turn (e.g. after trainless majors chose), it
    buys again with what it has."""
    from trackage.core.money import spend
    from trackage.titles.t1861.steps import BuyTrain1861

    paths = [p for p in FIXTURES if isinstance(p, Path) and p.stem == "29683"]
    if not paths:
        pytest.skip("NO FIXTURE: 1861/29683 is absent (set TRACKAGE_FIXTURES)")
    data = load_log(paths[0])
    g = game_from_log(data)
    g.loading = True
    for action in filter_actions(data["actions"]):
        if action["id"] == 475:  # the RSR is about to run, in phase 5
            break
        g._apply(action)
    g.loading = False
    rsr = g.national
    step = next(s for s in g.round.steps if isinstance(s, BuyTrain1861))
    assert g.current_entity() is rsr and [t.name for t in rsr.trains] == ["4"]
    spend(g.bank, rsr, 600)
    step.skip()
    assert [t.name for t in rsr.trains] == ["4", "5"] and not step.passed
    spend(g.bank, rsr, 600)
    step.skip()
    assert [t.name for t in rsr.trains] == ["4", "5", "5"] and not step.passed
