"""1825 rules that the shared logs do not reach."""

from __future__ import annotations

import pytest
from conftest import ref
from helpers import players

from trackage.invariants import check
from trackage.titles import new_game

PLAYERS = players(4)


def test_corporation_at_zero_closes(operating_game):
    g = operating_game
    start = g.total_cash()
    lnwr = g.corporation_by_id("LNWR")
    # put the LNWR one step above the close cell; its trainless turn withholds and moves it left
    five = next(sp for sp in g.stock_market.all_prices() if sp.price == 5)
    g.stock_market.move(lnwr, five.coordinates)
    g.process({"type": "pass", **ref(g)})  # no track, no token
    assert lnwr.closed and lnwr not in g.corporations
    assert all(not p.shares_of(lnwr) for p in g.players)
    assert lnwr.cash == 0
    assert g.current_entity().id == "GWR"
    check(g, start)


def test_stock_market_top_ends_the_game_at_once(operating_game):
    g = operating_game
    lnwr = g.corporation_by_id("LNWR")
    top = max(g.stock_market.all_prices(), key=lambda sp: sp.price)
    assert top.type == "endgame"
    g.stock_market.move(lnwr, top.coordinates)  # as a big payout would
    assert not g.finished
    g.process({"type": "pass", **ref(g)})
    assert g.finished and g.game_end_reason == "stock_market"
    with pytest.raises(Exception, match="game is over"):
        g.process({"type": "pass", **ref(g, g.players[0])})


def test_price_moves_with_payout_size(operating_game):
    g = operating_game
    lnwr = g.corporation_by_id("LNWR")
    step = g.round.steps[3]
    assert type(step).__name__ == "Dividend1825"
    cases = {0: -1, 40: 0, 50: 0, 51: 1, 199: 1, 200: 2, 300: 3, 400: 4}
    base = lnwr.share_price
    for paid, moves in cases.items():
        g.stock_market.move(lnwr, base.coordinates)
        step.move_price(lnwr, paid, 0, paid)
        assert lnwr.share_price.column - base.column == moves, paid


def test_president_sells_into_receivership():
    """With nobody holding more than 10%, the director may sell the 20% certificate to the
    pool: the corporation goes into receivership and a non-director acts for it."""
    g = new_game("1825", PLAYERS, ["unit_1"], seed=3)
    g.process({"type": "par", **ref(g), "corporation": "LNWR", "share_price": "100,0,15"})
    p1 = g.index.player(1)
    for i, _ in enumerate(range(4), start=1):
        g.process({"type": "buy_shares", **ref(g), "shares": [f"LNWR_{i}"], "percent": 10})
    while g.round.name == "Stock Round":
        g.process({"type": "pass", **ref(g)})
    lnwr = g.corporation_by_id("LNWR")
    assert lnwr.owner is p1 and lnwr.floated()
    # play on to stock round 2, where selling is allowed
    while g.round.name != "Stock Round":
        acts = g.legal_actions()
        g.process(next((a for a in acts if a["type"] == "pass"), acts[0]))
    while g.current_entity() is not p1:
        g.process({"type": "pass", **ref(g)})
    start = g.total_cash()
    cash = p1.cash
    g.process({"type": "sell_shares", **ref(g), "shares": ["LNWR_0"], "percent": 20})
    assert lnwr.receivership() and lnwr.owner is g.pool
    assert g.pool.percent_of(lnwr) == 20 and p1.percent_of(lnwr) == 10  # P1 also bought LNWR_4
    assert p1.cash == cash + 2 * lnwr.share_price.price
    assert lnwr.share_price.price > 0  # 1825: no price drop on sales
    acting = g.acting_for_entity(lnwr)
    assert acting.is_player and not g.director(acting)
    check(g, start)

    # the receivership operates: it may lease a train for 10, its revenue is withheld and,
    # with exactly one kind of train it can afford, it buys that train by itself
    while g.round.name == "Stock Round":
        g.process({"type": "pass", **ref(g)})
    assert g.current_entity() is lnwr
    leases = [a for a in g.legal_actions() if a["type"] == "special_buy"]
    assert leases and all(a["cost"] == 10 for a in leases)
    before = lnwr.cash
    g.process({"type": "special_buy", **ref(g), "description": "2", "cost": 10})
    assert lnwr.cash == before - 10
    g.process({"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 2})
    g.process({"type": "pass", **ref(g)})
    price = lnwr.share_price.price
    g.process({"type": "run_routes", **ref(g), "routes": [{"train": "2-0", "connections": [["T16", "T14", "S13"]]}]})
    # no dividend choice: withheld, the price moves left, and the 2-train is bought at once
    assert lnwr.share_price.price < price
    assert [t.name for t in lnwr.trains] == ["2"]
    assert lnwr.cash == before - 10 + 50 - 180
    assert g.current_entity() is not lnwr
    check(g, start)
