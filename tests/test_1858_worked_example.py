"""The worked example of the 1858 India rules summary ("Een ronde stap voor stap", seed 003):
4 players with £500; S1 buys the private BT at auction and turns it into the GIP (Bombay).

The other players' moves are not in the summary beyond S2's bid and S2/S3 buying one GIP
share each; here they pass otherwise.

Where the summary and the reference differ, the reference wins:
- After its first dividend a public company closes the private railways it owns and
  receives their face value (the reference's dividend step does this, and the 1858 India
  fixture shows it: the EIR gets the HH's £125 in its first OR). So in OR 2.1 the GIP still
  pays out the BT's £24 (£4 a share, S1 £12, £4 kept), but then the BT closes and the GIP
  receives £120: £604 in the treasury, not £484, and £504 after its 2H, not £384.
- In OR 2.2 the GIP no longer has the BT's revenue: the 2H's Bombay-Poona run (£40) is all
  it earns, £8 a share, so S1 gets £24 (£239, not £251), nothing is left over (the GIP keeps
  £504, not £388) and the price stays at £120 (£8 is less than a tenth of £120), not £135.
"""

from __future__ import annotations

import pytest
from helpers import act, player, players

from trackage.core.errors import GameError
from trackage.titles import new_game

PLAYERS = players(4, "S")


def everyone_passes(g, stop_at=None):
    """Players pass in turn until ``stop_at`` is to act (or the round ends)."""
    start = g.round
    while g.round is start and (stop_at is None or g.current_entity().name != stop_at):
        act(g, "pass")


@pytest.fixture(scope="module")
def story():
    g = new_game("1858India", PLAYERS)
    s1 = player(g, "S1")
    gip = g.corporation_by_id("GIP")
    seen = {"start": (s1.cash, len(g.buyable_bank_companies()), [c for c in g.corporations if c.ipoed])}

    # SR 1: S1 opens the BT auction at its minimum (face 120 - 25), S2 bids 100, S1 wins at 105
    assert g.round.is_stock() and g.current_entity() is s1
    bt = g.index.company("BT")
    act(g, "bid", company="BT", price=95)
    assert g.current_entity().name == "S2"
    act(g, "bid", company="BT", price=100)
    act(g, "pass")  # S3 out of the auction
    act(g, "pass")  # S4 out
    assert g.current_entity() is s1
    act(g, "bid", company="BT", price=105)
    act(g, "pass")  # S2 gives up: S1 wins
    seen["sr1"] = (s1.cash, bt.owner, g.index.minor("BT").owner)
    everyone_passes(g)

    # OR 1.1: S1 receives £24; the BT lays a town in Poona (K8), mountain but its own home hex
    assert g.round.is_operating() and g.round.round_num == 1
    seen["or11_income"] = s1.cash
    act(g, "lay_tile", hex="K8", tile="58-0", rotation=1)
    seen["or11_lay"] = s1.cash
    act(g, "pass")

    # OR 1.2
    assert g.round.is_operating() and g.round.round_num == 2
    seen["or12"] = s1.cash
    act(g, "pass")

    # SR 2: S1 exchanges the BT and the par price for the GIP's 40% certificate
    assert g.round.is_stock() and g.turn == 2
    everyone_passes(g, stop_at="S1")
    act(g, "buy_shares", entity=bt, shares=["GIP_0"], percent=40)
    act(g, "place_token", entity=gip, city="K6-0-0", slot=0)
    seen["exchange"] = (s1.cash, gip.cash, gip.share_price.price, gip.par_price.price, bt.owner,
                        g.index.minor("BT").closed, [t.city.hex.id for t in gip.tokens if t.used])
    for name, share in (("S2", "GIP_1"), ("S3", "GIP_2")):
        everyone_passes(g, stop_at=name)
        act(g, "buy_shares", shares=[share], percent=20)
    everyone_passes(g, stop_at="S1")
    act(g, "buy_shares", shares=["GIP_3"], percent=20)
    seen["capital"] = (s1.cash, gip.cash, gip.percent_of(gip), s1.percent_of(gip))
    everyone_passes(g)

    # OR 2.1: the GIP operates (no trains); the BT's £24 is its revenue
    assert g.round.is_operating() and g.current_entity() is gip
    seen["or21_start"] = (s1.cash, gip.cash)
    act(g, "pass")  # track
    act(g, "pass")  # token
    assert g.legal_actions()[0]["type"] == "dividend"
    act(g, "dividend", kind="payout")
    seen["or21_dividend"] = (s1.cash, gip.cash, gip.share_price.price, bt.closed)
    act(g, "buy_train", train="2H-0", price=100, variant="2H")
    seen["or21_train"] = (gip.cash, [t.name for t in gip.trains])
    act(g, "pass")

    # OR 2.2: the 2H runs Bombay - Poona
    assert g.round.round_num == 2 and g.current_entity() is gip
    act(g, "pass")  # track
    act(g, "pass")  # token
    route = {"train": "2H-0", "connections": [["K6", "K8"]], "hexes": ["K6", "K8"], "revenue": 40,
             "revenue_str": "K6-K8", "nodes": ["K6-0", "K8-0"]}
    act(g, "run_routes", routes=[route], extra_revenue=0)
    act(g, "dividend", kind="payout")
    seen["or22"] = (s1.cash, gip.cash, gip.share_price.price)
    return g, seen


def test_before_the_start(story):
    _, seen = story
    cash, privates, started = seen["start"]
    assert cash == 500 and privates == 22 and started == []


def test_sr1_auction(story):
    _g, seen = story
    cash, company_owner, minor_owner = seen["sr1"]
    assert cash == 395
    assert company_owner.name == "S1" and minor_owner.name == "S1"


def test_or1_private_income_and_free_home_terrain(story):
    _, seen = story
    assert seen["or11_income"] == 419
    assert seen["or11_lay"] == 419  # the £40 mountain is free in the private's home hex
    assert seen["or12"] == 443


def test_sr2_exchange_starts_the_gip(story):
    _, seen = story
    cash, treasury, price, par, bt_owner, minor_closed, tokens = seen["exchange"]
    assert (cash, treasury, price, par) == (323, 120, 120, 120)
    assert bt_owner.id == "GIP" and minor_closed
    assert tokens == ["K6"]


def test_sr2_treasury_shares_at_market_price(story):
    _, seen = story
    cash, treasury, ipo, s1_pct = seen["capital"]
    assert (cash, treasury, ipo, s1_pct) == (203, 480, 0, 60)


def test_or21_private_revenue_paid_out(story):
    _, seen = story
    assert seen["or21_start"] == (203, 480)
    cash, treasury, price, bt_closed = seen["or21_dividend"]
    assert cash == 215  # £4 a share, three shares
    assert price == 120  # £4 is less than a tenth of the price
    # reference: £4 kept plus the BT's face value (£120) on closing
    assert bt_closed and treasury == 484 + 120
    assert seen["or21_train"] == (504, ["2H"])


def test_or22_run_without_the_private(story):
    _, seen = story
    assert seen["or22"] == (239, 504, 120)


def test_withholding_would_drop_the_price():
    g = new_game("1858India", PLAYERS)
    gip = g.corporation_by_id("GIP")
    g.stock_market.set_par(gip, next(p for p in g.stock_market.par_prices if p.price == 120))
    from trackage.titles.t1858.steps import Dividend1858

    Dividend1858(g, g.round).move_price(gip, 24, 24, 0)
    assert gip.share_price.price == 110


def test_bid_below_minimum_is_refused():
    g = new_game("1858India", PLAYERS)
    with pytest.raises(GameError) as e:
        act(g, "bid", company="BT", price=90)
    assert e.value.rule == "bid-too-low"
