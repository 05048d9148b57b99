"""The worked example of the 1825 rules summary ("Een ronde stap voor stap", seed 000):
Unit 1, 4 players, S1 and the LNWR through SR 1, OR 1, SR 2 and OR 2, all in phase 1.

Where the summary and the reference differ, the reference wins:
- the summary credits the LNWR with its £1,000 at the start of OR 1; the reference pays a
  fully capitalised corporation when it floats, i.e. as the 6th share is sold in SR 1 (the
  figure is the same by the time the LNWR operates);
- the GWR's share count is not given exactly, so we sell it 9 shares as the text says.
"""

from __future__ import annotations

import pytest
from helpers import act, players

from trackage.titles import new_game

PLAYERS = players(4, "S")


def stock(game, player_name, type_, **kw):
    entity = game.current_entity()
    assert entity.name == player_name, f"expected {player_name} to act, not {entity.name}"
    game.process({"type": type_, **game.index.ref(entity), **kw})


@pytest.fixture(scope="module")
def story():
    g = new_game("1825", PLAYERS, ["unit_1"], seed=1)
    figures = {}
    s1 = g.index.player(1)
    lnwr = g.corporation_by_id("LNWR")
    figures["start"] = (s1.cash, [c.sym for c in s1.companies])

    # SR 1: the LNWR director's certificate, then one share per turn
    stock(g, "S1", "par", corporation="LNWR", share_price="100,0,15")
    figures["par"] = s1.cash
    for i, who in enumerate(["S2", "S3", "S4", "S1", "S2", "S3", "S4", "S1"], start=1):
        stock(g, who, "buy_shares", shares=[f"LNWR_{i}"], percent=10)
    figures["lnwr_sold_out"] = (s1.cash, {p.name: p.percent_of(lnwr) for p in g.players}, lnwr.cash)
    # the GWR opens
    stock(g, "S2", "par", corporation="GWR", share_price="90,0,14")
    for i, who in enumerate(["S3", "S4", "S1", "S2", "S3", "S4", "S1"], start=1):
        stock(g, who, "buy_shares", shares=[f"GWR_{i}"], percent=10)
    cash_before = s1.cash
    while g.round.name == "Stock Round":  # players with nothing to do pass automatically
        act(g, "pass")
    figures["sr1_end"] = (cash_before, g.round.name)

    # OR 1: private revenue, two separate yellow tiles, no train yet, two 2-trains
    figures["or1_start"] = (s1.cash, lnwr.cash, lnwr.share_price.price)
    assert g.current_entity() is lnwr
    act(g, "lay_tile", hex="T14", tile="8-0", rotation=2)
    act(g, "lay_tile", hex="U17", tile="9-0", rotation=2)
    act(g, "pass")  # no token
    figures["or1_no_run"] = (lnwr.cash, lnwr.share_price.price)
    act(g, "buy_train", train="2-0", price=180)
    act(g, "buy_train", train="2-1", price=180)
    act(g, "pass")
    figures["or1_trains"] = (lnwr.cash, [t.name for t in lnwr.trains])
    gwr = g.corporation_by_id("GWR")
    assert g.current_entity() is gwr
    act(g, "pass")  # no track
    act(g, "buy_train", train="2-2", price=180)
    act(g, "buy_train", train="2-3", price=180)
    act(g, "pass")

    # SR 2: everybody passes
    assert g.round.name == "Stock Round"
    figures["sr2_end"] = (s1.cash, lnwr.cash, lnwr.share_price.price)
    while g.round.name == "Stock Round":
        act(g, "pass")

    # OR 2: the missing yellow tile, two runs, payout, a third 2-train
    assert g.round.name == "Operating Round"
    figures["or2_start"] = s1.cash
    act(g, "lay_tile", hex="V18", tile="8-1", rotation=2)
    act(g, "pass")
    act(g, "run_routes", routes=[
        {"train": "2-1", "connections": [["T16", "T14", "S13"]]},
        {"train": "2-0", "connections": [["T16", "U17", "V18", "V20"]]},
    ])
    figures["revenue"] = [r["revenue"] for r in g.round.routes]
    act(g, "dividend", kind="payout")
    figures["payout"] = (s1.cash, lnwr.share_price.price)
    act(g, "buy_train", train="2-4", price=180)
    figures["third_train"] = (lnwr.cash, [t.name for t in lnwr.trains],
                              sum(1 for t in g.depot.upcoming if t.name == "2"))
    return g, figures


def test_start(story):
    _, f = story
    assert f["start"] == (600, ["S&M"])


def test_director_certificate(story):
    _, f = story
    assert f["par"] == 400


def test_lnwr_sold_out(story):
    _, f = story
    cash, holdings, treasury = f["lnwr_sold_out"]
    assert cash == 200
    assert holdings == {"S1": 40, "S2": 20, "S3": 20, "S4": 20}
    assert treasury == 1000  # reference: paid at flotation


def test_gwr_and_everyone_passes(story):
    _, f = story
    assert f["sr1_end"] == (20, "Operating Round")


def test_or1(story):
    _, f = story
    assert f["or1_start"] == (25, 1000, 100)
    assert f["or1_no_run"] == (1000, 90)
    assert f["or1_trains"] == (640, ["2", "2"])


def test_sr2_quiet(story):
    _, f = story
    assert f["sr2_end"] == (25, 640, 90)


def test_or2(story):
    _, f = story
    assert f["or2_start"] == 30
    assert f["revenue"] == [50, 60]
    assert f["payout"] == (74, 100)  # £11 a share, 4 shares; one step right
    assert f["third_train"] == (460, ["2", "2", "2"], 1)
