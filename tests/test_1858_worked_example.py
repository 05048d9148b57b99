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
from helpers import act, ids_told, money_at, player, players, told_at

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
    at = seen["at"] = {}  # the ids of the actions the example's steps are taken by

    # SR 1: S1 opens the BT auction at its minimum (face 120 - 25), S2 bids 100, S1 wins at 105
    assert g.round.is_stock() and g.current_entity() is s1
    bt = g.index.company("BT")
    act(g, "bid", company="BT", price=95)
    at["bid_95"] = len(g.actions)
    assert g.current_entity().name == "S2"
    act(g, "bid", company="BT", price=100)
    at["bid_100"] = len(g.actions)
    act(g, "pass")  # S3 out of the auction
    act(g, "pass")  # S4 out
    assert g.current_entity() is s1
    act(g, "bid", company="BT", price=105)
    at["bid_105"] = len(g.actions)
    act(g, "pass")  # S2 gives up: S1 wins
    at["bt_won"] = len(g.actions)
    seen["sr1"] = (s1.cash, bt.owner, g.index.minor("BT").owner)
    everyone_passes(g)
    at["or11"] = len(g.actions)

    # OR 1.1: S1 receives £24; the BT lays a town in Poona (K8), mountain but its own home hex
    assert g.round.is_operating() and g.round.round_num == 1
    seen["or11_income"] = s1.cash
    act(g, "lay_tile", hex="K8", tile="58-0", rotation=1)
    at["poona"] = len(g.actions)
    seen["or11_lay"] = s1.cash
    act(g, "pass")
    at["or12"] = len(g.actions)

    # OR 1.2
    assert g.round.is_operating() and g.round.round_num == 2
    seen["or12"] = s1.cash
    act(g, "pass")

    # SR 2: S1 exchanges the BT and the par price for the GIP's 40% certificate
    assert g.round.is_stock() and g.turn == 2
    everyone_passes(g, stop_at="S1")
    act(g, "buy_shares", entity=bt, shares=["GIP_0"], percent=40)
    at["exchange"] = len(g.actions)
    act(g, "place_token", entity=gip, city="K6-0-0", slot=0)
    seen["exchange"] = (s1.cash, gip.cash, gip.share_price.price, gip.par_price.price, bt.owner,
                        g.index.minor("BT").closed, [t.city.hex.id for t in gip.tokens if t.used])
    for name, share in (("S2", "GIP_1"), ("S3", "GIP_2")):
        everyone_passes(g, stop_at=name)
        act(g, "buy_shares", shares=[share], percent=20)
        at[name] = len(g.actions)
    everyone_passes(g, stop_at="S1")
    act(g, "buy_shares", shares=["GIP_3"], percent=20)
    at["S1"] = len(g.actions)
    seen["capital"] = (s1.cash, gip.cash, gip.percent_of(gip), s1.percent_of(gip))
    everyone_passes(g)

    # OR 2.1: the GIP operates (no trains); the BT's £24 is its revenue
    assert g.round.is_operating() and g.current_entity() is gip
    seen["or21_start"] = (s1.cash, gip.cash)
    act(g, "pass")  # track
    act(g, "pass")  # token
    assert g.legal_actions()[0]["type"] == "dividend"
    act(g, "dividend", kind="payout")
    at["or21_dividend"] = len(g.actions)
    seen["or21_dividend"] = (s1.cash, gip.cash, gip.share_price.price, bt.closed)
    act(g, "buy_train", train="2H-0", price=100, variant="2H")
    at["2H"] = len(g.actions)
    seen["or21_train"] = (gip.cash, [t.name for t in gip.trains])
    act(g, "pass")

    # OR 2.2: the 2H runs Bombay - Poona
    assert g.round.round_num == 2 and g.current_entity() is gip
    act(g, "pass")  # track
    act(g, "pass")  # token
    route = {"train": "2H-0", "connections": [["K6", "K8"]], "hexes": ["K6", "K8"], "revenue": 40,
             "revenue_str": "K6-K8", "nodes": ["K6-0", "K8-0"]}
    act(g, "run_routes", routes=[route], extra_revenue=0)
    at["or22_run"] = len(g.actions)
    act(g, "dividend", kind="payout")
    at["or22_dividend"] = len(g.actions)
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


def test_the_example_told_by_the_journal(story):
    """The worked example as the journal tells it, each step at the action that takes it, in
    pounds and by name. Where the reference differs (see the module docstring) it says so."""
    g, seen = story
    at = seen["at"]
    s1, s2, s3 = (player(g, n).id for n in ("S1", "S2", "S3"))

    # SR 1: the BT's auction opens at £95, S2 bids £100 and S1 wins at £105
    assert told_at(g, at["bid_95"]) == ["S1 bids £95 for BT"]
    assert told_at(g, at["bid_100"]) == ["S2 bids £100 for BT"]
    assert told_at(g, at["bid_105"]) == ["S1 bids £105 for BT"]
    assert money_at(g, at["bt_won"]) == [(s1, "bank", 105, "company_purchase")]
    assert told_at(g, at["bt_won"], "money") == ["S1 pays £105 to the bank (company purchase)"]

    # OR 1.1 and 1.2: S1 collects the BT's £24 twice; Poona's £40 mountain costs nothing
    assert money_at(g, at["or11"]) == [("bank", s1, 24, "private_revenue")]
    assert told_at(g, at["or11"], "round", "money") == ["— Operating Round 1.1 (of 2) —",
                                                        "S1 collects £24 from the bank"]
    lay = [e for e in g.journal.events() if e.action == at["poona"] and e.kind == "tile"]
    assert [(e["entity"], e["hex"], e["cost"]) for e in lay] == [("BT", "K8", 0)]
    assert money_at(g, at["poona"]) == []
    assert money_at(g, at["or12"]) == [("bank", s1, 24, "private_revenue")]

    # SR 2: the BT and £120 for the GIP's 40% director's certificate, par £120, floated
    assert money_at(g, at["exchange"]) == [(s1, "GIP", 120, "share_purchase")]
    assert told_at(g, at["exchange"]) == [
        "GIP is parred at £120",
        "S1 gets a 40% president’s certificate of GIP from the IPO for £120",
        "S1 becomes the president of GIP",
        "GIP floats",
    ]
    # the rest of its capital: 20% from the treasury at £120 each for S2, S3 and S1
    for name, who in (("S2", s2), ("S3", s3), ("S1", s1)):
        assert money_at(g, at[name]) == [(who, "GIP", 120, "share_purchase")]
        assert told_at(g, at[name]) == [f"{name} gets a 20% share of GIP from the IPO for £120"]

    # OR 2.1: the BT's £24 paid out at £4 a share: S1 £12 (3 of 5 shares), £4 kept; no move
    dividend = [e for e in g.journal.events() if e.action == at["or21_dividend"] and e.kind == "dividend"]
    assert [(e["revenue"], e["per_share"], e["paid"], e["kept"]) for e in dividend] == [(24, 4, 20, 4)]
    paid = money_at(g, at["or21_dividend"])
    assert ("bank", s1, 12, "dividend") in paid and ("bank", "GIP", 4, "withheld") in paid
    assert ("bank", s2, 4, "dividend") in paid and ("bank", s3, 4, "dividend") in paid
    said = told_at(g, at["or21_dividend"])
    assert said[0] == "GIP pays out £24 (£4 per share)"
    assert "S1 receives £12 in dividends from the bank" in said
    assert "GIP keeps £4 in its treasury" in said
    assert not told_at(g, at["or21_dividend"], "share_price")  # £4 is under a tenth of £120
    # reference: the BT closes after the first dividend and the GIP gets its £120 face value
    assert ("bank", "GIP", 120, "compensation") in paid
    # the 2H for £100
    assert money_at(g, at["2H"]) == [("GIP", "bank", 100, "train_purchase")]
    assert told_at(g, at["2H"]) == ["GIP buys a 2H train from the depot for £100"]

    # OR 2.2: Bombay-Poona £40; reference: without the BT's £24, £8 a share (S1 £24), nothing
    # kept and no rise (the summary: £64, £12 a share, S1 £36, £4 kept, up to £135)
    assert told_at(g, at["or22_run"]) == ["GIP runs a 2H train for £40: K6-K8"]
    dividend = [e for e in g.journal.events() if e.action == at["or22_dividend"] and e.kind == "dividend"]
    assert [(e["revenue"], e["per_share"], e["paid"], e["kept"]) for e in dividend] == [(40, 8, 40, 0)]
    assert ("bank", s1, 24, "dividend") in money_at(g, at["or22_dividend"])
    assert "S1 receives £24 in dividends from the bank" in told_at(g, at["or22_dividend"])
    assert not told_at(g, at["or22_dividend"], "share_price")

    assert ids_told(g) == []  # players by name, never by id
