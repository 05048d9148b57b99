"""The core stock-round handlers (buy_shares, par, pass) and the hooks titles fill in."""

from __future__ import annotations

import importlib
import inspect

import pytest
from conftest import ref
from helpers import players, refused

from trackage.core.errors import GameError
from trackage.core.steps.passing import Passing
from trackage.core.steps.stock import BuySellParShares
from trackage.invariants import check
from trackage.titles import new_game

TITLE_STEPS = ("t1822", "t1825", "t1858", "t1861", "t1867", "t1893")


def stock_steps() -> list[type]:
    out = []
    for t in TITLE_STEPS:
        mod = importlib.import_module(f"trackage.titles.{t}.steps")
        out += [c for _, c in inspect.getmembers(mod, inspect.isclass)
                if c.__module__.startswith(mod.__name__) and issubclass(c, BuySellParShares)
                and c.__module__.startswith(f"trackage.titles.{t}.")]
    return out


def test_titles_fill_in_hooks_not_handlers():
    steps = stock_steps()
    assert len(steps) == 6
    for cls in steps:
        for handler in ("process_buy_shares", "process_par", "process_pass"):
            assert handler not in cls.__dict__, (cls.__name__, handler)
        assert cls.DISPATCH["pass"] is Passing.process_pass
        assert cls.DISPATCH["par"] is BuySellParShares.process_par
        assert cls.DISPATCH["buy_shares"] is BuySellParShares.process_buy_shares


def test_par_then_buy_through_the_core():
    g = new_game("1825", players(4), ["unit_1"], seed=3)
    start = g.total_cash()
    assert g.current_entity().id == 1
    refused(g, {"type": "par", **ref(g), "corporation": "NOPE", "share_price": "100,0,15"}, "unknown-entity")
    refused(g, {"type": "par", **ref(g), "corporation": "LNWR", "share_price": "nope"}, "unknown-price")
    cash = g.index.player(1).cash
    g.process({"type": "par", **ref(g), "corporation": "LNWR", "share_price": "100,0,15"})
    p1, lnwr = g.index.player(1), g.corporation_by_id("LNWR")
    assert lnwr.par_price.price == 100 and lnwr.owner is p1
    assert p1.cash == cash - 200 and p1.percent_of(lnwr) == 20
    if g.current_entity() is p1:  # the par's turn may go on to a pass
        refused(g, {"type": "par", **ref(g), "corporation": "GWR", "share_price": "100,0,15"},
                "one-purchase-per-turn")
        g.process({"type": "pass", **ref(g)})
    p2 = g.current_entity()
    assert p2.id == 2
    cash = p2.cash
    g.process({"type": "buy_shares", **ref(g), "shares": ["LNWR_1"], "percent": 10})
    p1, p2, lnwr = g.index.player(1), g.index.player(2), g.corporation_by_id("LNWR")
    assert p2.cash == cash - 100 and p2.percent_of(lnwr) == 10
    assert g.round.players_bought[p2][lnwr] == 10 and g.round.players_bought[p1][lnwr] == 20
    check(g, start)


def test_closed_company_shares_refused_before_reading_the_bundle():
    """1825's purchase_bundle hook refuses a closed company's share with its own rule."""
    g = new_game("1825", players(4), ["unit_1"], seed=3)
    step = g.round.active_step()
    g.corporation_by_id("LNWR").closed = True
    with pytest.raises(GameError) as err:
        step.purchase_bundle({"type": "buy_shares", "shares": ["LNWR_1"], "percent": 10}, g.current_entity())
    assert err.value.rule == "closed-corporation"
    bundle = step.purchase_bundle({"type": "buy_shares", "shares": ["GWR_1"], "percent": 10}, g.current_entity())
    assert [s.id for s in bundle.shares] == ["GWR_1"] and bundle.percent == 10


def test_market_cells_count_for_the_certificate_limit_by_their_types():
    from trackage.core.market import SharePrice

    # a cell's answer is worked out when it is made (cells never change): any of the three
    # types takes its certificates out of the count, other types do not
    assert SharePrice(100, 0, 3, []).counts_for_limit()
    assert SharePrice(100, 0, 3, ["par", "endgame"]).counts_for_limit()
    for t in ("multiple_buy", "unlimited", "no_cert_limit"):
        assert not SharePrice(40, 2, 0, ["par", t]).counts_for_limit()
        assert not SharePrice(40, 2, 0, [t]).counts_for_limit()
    # every cell of a title's market answers as its types say
    g = new_game("1825", players(4))  # (its market has cells without a certificate limit)
    cells = [c for row in g.stock_market.market for c in row if c is not None]
    assert cells and any(not c.counts_for_limit() for c in cells)
    for c in cells:
        assert c.counts_for_limit() == (not set(c.types) & {"multiple_buy", "unlimited", "no_cert_limit"})
