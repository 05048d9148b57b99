"""1825: the reference's quirks we imitate, and the rules that keep live play loadable there."""

from __future__ import annotations

import pytest
from conftest import ref
from helpers import players, refused

from trackage.core.entities import ShareBundle
from trackage.core.errors import GameError
from trackage.invariants import check
from trackage.titles import new_game

PLAYERS = players(4)


def _minor_held(g):
    """The minor TV parred at 49: P1 holds the 40% president's certificate, P2 and P3 20% each."""
    tv = g.corporation_by_id("TV")
    g.stock_market.set_par(tv, next(p for p in g.stock_market.market[0] if p.price == 49))
    p1, p2, p3 = g.players[:3]
    g.share_market.buy_shares(p1, ShareBundle([tv.shares[0]], corporation=tv))
    g.share_market.buy_shares(p2, ShareBundle([tv.shares[1]], corporation=tv))
    g.share_market.buy_shares(p3, ShareBundle([tv.shares[2]], corporation=tv))
    assert tv.owner is p1
    return tv, p1, p2, p3


def test_half_president_certificate_sale_leaves_a_stale_presidency_count():
    """Quirk "stale presidency count": selling half of a 40% president's certificate to an
    empty pool puts the minor in receivership and hands the certificate back as change;
    its seller then counts as holding 20%, so the next sale does not make them president."""
    g = new_game("1825", PLAYERS, ["unit_1", "r1"], seed=3)
    tv, p1, _p2, _p3 = _minor_held(g)
    start = g.total_cash()
    cash = p1.cash
    g.share_market.sell_shares(ShareBundle([tv.shares[0]], 20, corporation=tv))
    assert tv.receivership()
    assert p1.percent_of(tv) == 40 and g.pool.percent_of(tv) == 0  # the certificate came back
    assert p1.cash == cash + 2 * 49  # paid for 20%
    assert tv.share_holders[p1] == 20 and tv.share_holders[g.pool] == 20
    # P2 sells 20%: by certificates P1 (40%) would become president; counted, nobody has 40%
    g.share_market.sell_shares(ShareBundle([tv.shares[1]], corporation=tv))
    assert tv.receivership()
    assert p1.percent_of(tv) == 40
    check(g, start)


def test_full_president_certificate_sale_counts_right():
    g = new_game("1825", PLAYERS, ["unit_1", "r1"], seed=3)
    tv, p1, _p2, _p3 = _minor_held(g)
    g.share_market.sell_shares(ShareBundle([tv.shares[0]], corporation=tv))
    assert tv.receivership() and p1.percent_of(tv) == 0 and tv.share_holders[p1] == 0
    assert tv.share_holders[g.pool] == 40


def _receivership(g, corp):
    corp.owner = g.pool
    assert corp.receivership()


def _to_price(g, corp, price):
    g.stock_market.move(corp, next(sp for sp in g.stock_market.all_prices() if sp.price == price).coordinates)


def test_bankrupt_in_dividend_with_a_leased_train_passes_the_next_dividend(operating_game):
    """Quirk "bankrupt in the dividend step": running a leased train makes the reference
    remember LNWR as its operator; when LNWR's withheld run drops it to 0, the GWR's turn
    starts inside LNWR's dividend step, which then marks itself done for the GWR."""
    g = operating_game
    start = g.total_cash()
    lnwr, gwr = g.corporation_by_id("LNWR"), g.corporation_by_id("GWR")
    _receivership(g, lnwr)
    _to_price(g, lnwr, 5)
    gwr_price = gwr.share_price.price
    g.process({"type": "special_buy", **ref(g), "description": "2", "cost": 10})
    g.process({"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 2})
    g.process({"type": "pass", **ref(g)})
    g.process({"type": "run_routes", **ref(g), "routes": [{"train": "2-0", "connections": [["T16", "T14", "S13"]]}]})
    assert lnwr.closed
    assert g.current_entity() is gwr
    assert gwr.operated()  # LNWR's turn was filed under the GWR
    g.process({"type": "pass", **ref(g)})  # no track; no trains to run
    assert gwr.share_price.price == gwr_price  # its dividend step had passed: no withholding
    assert {a["type"] for a in g.legal_actions()} == {"buy_train", "pass"}
    check(g, start)


def test_bankrupt_in_dividend_without_a_leased_train_hands_on_normally(operating_game):
    g = operating_game
    lnwr, gwr = g.corporation_by_id("LNWR"), g.corporation_by_id("GWR")
    _receivership(g, lnwr)
    _to_price(g, lnwr, 5)
    gwr_price = gwr.share_price.price
    g.process({"type": "pass", **ref(g)})  # no track, and no route to run
    assert lnwr.closed and g.current_entity() is gwr
    g.process({"type": "pass", **ref(g)})
    assert gwr.share_price.price < gwr_price  # a trainless turn withholds nothing and drops


def test_bankrupt_in_dividend_with_cash_left_hands_on_normally(operating_game):
    """A director's company that could still buy a train goes bankrupt withholding: the
    reference asks for its operator only after emptying its treasury, when no step names it,
    so the next company's turn starts normally and keeps its dividend step (differential
    1825 4p unit_1 seed 9102, where the next company's run was never paid out)."""
    g = operating_game
    start = g.total_cash()
    lnwr, gwr = g.corporation_by_id("LNWR"), g.corporation_by_id("GWR")
    train = g.depot.depot_trains()[0]
    g.buy_train(lnwr, train, train.price)
    _to_price(g, lnwr, 5)
    g.process({"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 2})
    g.process({"type": "pass", **ref(g)})
    g.process({"type": "run_routes", **ref(g), "routes": [{"train": train.id, "connections": [["T16", "T14", "S13"]]}]})
    assert lnwr.cash > 0 and lnwr.owner.is_player
    g.process({"type": "dividend", **ref(g), "kind": "withhold"})
    assert lnwr.closed
    assert g.current_entity() is gwr
    dividend = next(s for s in g.round.steps if type(s).__name__ == "Dividend1825")
    assert not dividend.passed  # the GWR's own dividend step is still to come
    assert not gwr.operated()
    check(g, start)


def test_closed_corporations_trains_are_not_for_sale(operating_game):
    """The reference refuses them ("Not a buyable train"): they stay with the closed company."""
    g = operating_game
    lnwr, gwr = g.corporation_by_id("LNWR"), g.corporation_by_id("GWR")
    train = g.depot.depot_trains()[0]
    g.buy_train(lnwr, train, train.price)
    g.close_corporation(lnwr)
    step = next(s for s in g.round.steps if type(s).__name__ == "BuyTrain1825")
    assert train not in step.trains_for_sale(gwr)
    with pytest.raises(GameError, match="not for sale"):
        step.check_buy(gwr, train, 100)


def test_receivership_spends_only_its_treasury_in_live_play(operating_game):
    """Deviation "no receivership loans in live play": the reference lets a corporation in
    receivership borrow (to be repaid by its run, or the turn undone); live play here does
    not, and logs that borrowed still replay."""
    g = operating_game

    def poor_receivership():
        lnwr = g.corporation_by_id("LNWR")
        _receivership(g, lnwr)
        g.bank.cash += lnwr.cash - 5
        lnwr.cash = 5
        return lnwr

    poor_receivership()
    assert not any(a["type"] == "special_buy" for a in g.legal_actions())
    with pytest.raises(GameError, match="receivership") as e:
        g.process({"type": "special_buy", **ref(g), "description": "2", "cost": 10})
    assert e.value.rule == "receivership-loan"
    lnwr = poor_receivership()  # a refused action rebuilds the game from its actions
    g.loading = True  # as when replaying a log
    g.process({"type": "special_buy", **ref(g), "description": "2", "cost": 10})
    assert lnwr.cash == 0 and g.round.receivership_loan == 5


def test_a_president_certificate_in_the_pool_offers_buying_to_a_player_who_cannot():
    """The reference offers buying whenever the smallest certificate of a company in the
    pool is affordable; buying a president's certificate from the pool needs a share to
    swap, so a player without one is offered buying but can only pass."""
    g = new_game("1825", PLAYERS, ["unit_1", "r1"], seed=3)
    tv, _p1, p2, _p3 = _minor_held(g)
    g.share_market.sell_shares(ShareBundle([tv.shares[0]], corporation=tv))
    assert tv.receivership() and g.pool.percent_of(tv) == 40
    p4 = g.players[3]
    assert not any(c.ipoed for c in g.corporations if c is not tv)
    step = next(s for s in g.round.steps if type(s).__name__ == "BuySellParShares1825")
    assert step.can_buy_any(p4)
    assert not step.can_buy(p4, ShareBundle([tv.shares[0]], corporation=tv))
    assert step.can_buy(p2, ShareBundle([tv.shares[0]], corporation=tv))  # P2 has a 20% share to swap


def test_closing_keeps_what_the_track_graphs_knew(operating_game):
    """Quirk "stale graph after a closing": the closed company's tokens leave the map, but
    other companies' graphs are not recomputed until the map next changes."""
    g = operating_game
    lnwr, gwr = g.corporation_by_id("LNWR"), g.corporation_by_id("GWR")
    home = next(c for c in g.board.cities() if g.board.tokened_by(c, lnwr))
    known = g.graph.connected_nodes(gwr)
    g.close_corporation(lnwr)
    assert not g.board.tokened_by(home, lnwr)
    assert g.graph.connected_nodes(gwr) is known
    g.graph_changed()  # e.g. a tile lay
    assert g.graph.connected_nodes(gwr) is not known


def test_a_leased_train_that_ran_this_round_cannot_run_again():
    """A company in receivership may lease the very train another company ran and then
    discarded to the depot in this operating round; on 18xx.games that train cannot run
    again ("Cannot run train that operated"), so the listed run leaves it out and a run
    naming it is refused (found by a differential game: 1825 unit_1, 4 players, seed 5000)."""
    from trackage.playout import random_playout

    g = random_playout("1825", 4, ["unit_1"], 5000, max_actions=608)
    lnwr = g.corporation_by_id("LNWR")
    assert g.current_entity() is lnwr and g.actions[-2]["type"] == "special_buy"
    leased = g.round.leased_train
    assert leased.id == "4-0" and leased.operated, "the leased train is the one LSWR ran and discarded"
    runs = [a for a in g.legal_actions() if a["type"] == "run_routes"]
    assert runs and all(r["train"] != leased.id for a in runs for r in a["routes"])
    run = {"type": "run_routes", "entity": "LNWR", "entity_type": "corporation",
           "routes": [{"train": "4-0", "connections": [["V20", "U21", "T20"]], "hexes": ["V20", "T20"],
                       "revenue": 0, "nodes": ["V20-3", "T20-0"]}]}
    err = refused(g, run, "train-operated")
    assert "4-0" in err.message
