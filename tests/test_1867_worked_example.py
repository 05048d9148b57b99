"""The worked example of the 1867 rules summary ("Een ronde stap voor stap", seed 002):
4 players with $315; S1 starts the minors CV and CS and merges them into the GWR.

The other players' moves are not in the summary; here they take the privates cheaply in
dutch mode and start the other eight non-green minors, which buy the ten 2-trains, and S2
starts the CA in SR 2, which buys the first 3-train in OR 2.1 with a loan.

Where the summary and the reference differ, the reference wins:
- Toronto's city on the Hamilton side holds the CN's token from the start, and the other
  Toronto city faces away from Hamilton, so the CV starts in Berlin (D16), the other yellow
  "Y" city next to Hamilton. Every figure stays the same with Berlin in place of Toronto.
- The CS is not the first to operate: S2's BO (price $100) runs before it; in OR 2.1 the
  CA ($100) operates first and buys the 3-train before the CS and the CV run.
- From phase 3 Buffalo pays $40 (its printed green value), not $30: in OR 2.1 the CS runs
  Hamilton-Berlin for the summary's $60, but in OR 2.2 the GWR's run Hamilton-Buffalo
  earns $70, so the GWR earns $130, not $120: $39 for S1 and $91 for the treasury.
  The price still moves to $135 (the payout is at least the share price), and after the
  3-train the GWR has $126 instead of $119 and S1 $134 instead of $131.
"""

from __future__ import annotations

import pytest
from helpers import act, players

from trackage.titles import new_game

PLAYERS = players(4, "S")
S1_CORPS = {"CS", "CV", "GWR"}


def auction(g, who, corp, price, home, others=()):
    assert g.current_entity().name == who
    act(g, "bid", corporation=corp, price=price)
    act(g, "place_token", entity=g.corporation_by_id(corp), city=home, slot=0)
    for bidder, p in others:
        while g.current_entity().name != bidder:
            act(g, "pass")
        act(g, "bid", corporation=corp, price=p)
    while g.corporation_by_id(corp).owner is None:
        act(g, "pass")


def others_until_s1(g):
    """Other players' companies: no track, the cheapest train when they must, else pass."""
    while g.round.name == "Operating Round":
        e = g.current_entity()
        if e.id in S1_CORPS:
            return
        acts = g.round.actions_for(e)
        wants_second = e.id == "BO" and len(e.trains) < 2 and e.cash >= 100
        if "buy_train" in acts and ("pass" not in acts or wants_second):
            t = min(g.depot.depot_trains(), key=lambda t: t.price)
            act(g, "buy_train", train=t.id, price=t.price)
        else:
            act(g, "pass")


def money(g, *corps):
    s1 = g.index.player(1)
    return (s1.cash,) + tuple(g.corporation_by_id(c).cash for c in corps)


@pytest.fixture(scope="module")
def story():
    g = new_game("1867", PLAYERS, [], seed=1)
    f = {}
    C = g.corporation_by_id
    f["start"] = (g.index.player(1).cash, g.bank.cash)

    # the privates go to the other players, in dutch mode at $5
    for comp, who in [("C&SL", "S3"), ("NFB", "S3"), ("MB", "S4"), ("QB", "S2"), ("SCT", "S2")]:
        company = g.index.company(comp)
        while company.owner is None:
            if g.current_entity().name == who and g.min_bid(company) <= 5:
                act(g, "bid", company=comp, price=g.min_bid(company))
            else:
                act(g, "pass")
    f["privates"] = ({p.name: [c.sym for c in p.companies] for p in g.seats}, g.index.player(1).cash)

    # SR 1: minors by auction; the CV (nobody bids more) and the CS (S2 110, S1 120)
    plan = {
        "S3": [("KP", 100, "F8-1-0", ()), ("NO", 100, "M9-0-0", ()), ("TN", 100, "G15-0-0", ())],
        "S4": [("OP", 100, "D8-0-0", ()), ("AE", 100, "I15-5-0", ()), ("PM", 100, "O7-2-0", ())],
        "S1": [("CV", 100, "D16-1-0", ()), ("CS", 100, "E17-0-0", (("S2", 110), ("S1", 120)))],
        "S2": [None, ("BO", 200, "N12-6-0", ())],
    }
    while g.round.name == "Stock Round":
        who = g.current_entity().name
        todo = plan.get(who)
        item = todo.pop(0) if todo else None
        if item is None:
            act(g, "pass")
        else:
            auction(g, who, *item)
            if item[0] == "CV":
                f["cv"] = (g.index.player(1).cash, C("CV").cash, C("CV").share_price.price,
                           [t.city.id for t in C("CV").tokens if t.used])
            if item[0] == "CS":
                f["cs"] = (g.index.player(1).cash, C("CS").cash, C("CS").share_price.price,
                           [t.city.id for t in C("CS").tokens if t.used])

    # OR 1.1: the CS lays Hamilton towards Berlin and Buffalo, earns nothing, buys a 2-train
    others_until_s1(g)
    assert g.current_entity().id == "CS"
    act(g, "lay_tile", hex="E17", tile="621-0", rotation=2)
    act(g, "pass")
    f["cs_no_run"] = (C("CS").cash, C("CS").share_price.price)
    act(g, "buy_train", train=g.depot.depot_trains()[0].id, price=100)
    act(g, "pass")
    f["cs_train"] = (C("CS").cash, [t.name for t in C("CS").trains])
    others_until_s1(g)
    assert g.current_entity().id == "CV"
    act(g, "lay_tile", hex="D16", tile="621-1", rotation=2)
    act(g, "pass")
    f["cv_no_run"] = (C("CV").cash, C("CV").share_price.price)
    act(g, "buy_train", train=g.depot.depot_trains()[0].id, price=100)
    f["cv_train"] = (C("CV").cash, [t.name for t in C("CV").trains])
    others_until_s1(g)

    # OR 1.2: two runs of $60, half to S1
    runs = {}
    for corp, conn in (("CS", [["E17", "F18"]]), ("CV", [["D16", "E17"]])):
        others_until_s1(g)
        assert g.current_entity().id == corp
        act(g, "pass")
        act(g, "run_routes", routes=[{"train": C(corp).trains[0].id, "connections": conn}])
        runs[corp] = C(corp).operating_history[(g.turn, g.round.round_num)].revenue
        while g.round.name == "Operating Round" and g.current_entity().id == corp:
            act(g, "pass")
    others_until_s1(g)
    f["or12"] = (runs, money(g, "CS", "CV"), C("CS").share_price.price, C("CV").share_price.price)

    # SR 2: S1 passes; S2 starts the CA
    while g.round.name == "Stock Round":
        if g.current_entity().name == "S2" and C("CA").owner is None:
            auction(g, "S2", "CA", 215, "J12-0-0")
        else:
            act(g, "pass")

    # OR 2.1: the CA buys the first 3-train (phase 3); the CS and the CV earn $60 again
    runs = {}
    for corp, conn in (("CS", [["E17", "D16"]]), ("CV", [["D16", "E17"]])):
        others_until_s1(g)
        act(g, "pass")
        act(g, "run_routes", routes=[{"train": C(corp).trains[0].id, "connections": conn}])
        runs[corp] = C(corp).operating_history[(g.turn, g.round.round_num)].revenue
        while g.round.name == "Operating Round" and g.current_entity().id == corp:
            act(g, "pass")
    others_until_s1(g)
    f["or21"] = (runs, money(g, "CS", "CV"), C("CS").share_price.price, C("CV").share_price.price,
                 g.phase.name, [t.name for t in C("CA").trains], C("CA").loans, g.round.name)

    # merger round 2.1: the CS and the CV merge into the GWR; S1 buys one more share
    while g.current_entity().id != "CS":
        act(g, "pass")
    act(g, "merge", corporation="CV")
    act(g, "merge", corporation="GWR")
    gwr = C("GWR")
    f["gwr"] = (gwr.share_price.price, gwr.cash, g.index.player(1).percent_of(gwr), gwr.owner.name,
                [t.name for t in gwr.trains], sorted(t.city.hex.id for t in gwr.tokens if t.used),
                C("CS").closed, C("CV").closed)
    share = next(s for s in gwr.shares_of(gwr) if not s.president)
    act(g, "buy_shares", entity=g.index.player(1), shares=[share.id], percent=10)
    f["gwr_share"] = (g.index.player(1).cash, gwr.cash, g.index.player(1).percent_of(gwr))
    while g.round.name == "Merger Round":
        act(g, "pass")

    # OR 2.2: the GWR runs two trains, pays out, buys a 3-train
    others_until_s1(g)
    assert g.current_entity() is gwr
    act(g, "pass")  # no track
    t2 = [t.id for t in gwr.trains]
    act(g, "run_routes", routes=[{"train": t2[0], "connections": [["D16", "E17"]]},
                                 {"train": t2[1], "connections": [["E17", "F18"]]}])
    revenue = [r["revenue"] for r in g.round.routes]
    act(g, "dividend", kind="payout")
    f["payout"] = (revenue, g.index.player(1).cash, gwr.cash, gwr.share_price.price)
    act(g, "pass")  # no private bought before the loan step
    t3 = g.depot.depot_trains()[0]
    act(g, "buy_train", train=t3.id, price=t3.price)
    f["three"] = (gwr.cash, [t.name for t in gwr.trains], g.index.player(1).cash)
    f["cash_conserved"] = g.total_cash() + g.national.cash
    return g, f


def test_start(story):
    _, f = story
    assert f["start"] == (315, 15_000 - 4 * 315)
    privates, s1_cash = f["privates"]
    assert privates == {"S1": [], "S2": ["QB", "SCT"], "S3": ["C&SL", "NFB"], "S4": ["MB"]}
    assert s1_cash == 315


def test_cv_auction(story):
    _, f = story
    assert f["cv"] == (215, 100, 50, ["D16-1-0"])


def test_cs_auction(story):
    _, f = story
    assert f["cs"] == (95, 120, 60, ["E17-0-0"])


def test_or11(story):
    _, f = story
    assert f["cs_no_run"] == (120, 55)
    assert f["cs_train"] == (20, ["2"])
    assert f["cv_no_run"] == (100, 45)
    assert f["cv_train"] == (0, ["2"])


def test_or12(story):
    _, f = story
    assert f["or12"] == ({"CS": 60, "CV": 60}, (155, 50, 30), 60, 50)


def test_or21(story):
    _, f = story
    assert f["or21"] == ({"CS": 60, "CV": 60}, (215, 80, 60), 65, 55, "3", ["3"], 1, "Merger Round")


def test_gwr_forms(story):
    _, f = story
    assert f["gwr"] == (120, 140, 20, "S1", ["2", "2"], ["D16", "E17"], True, True)
    assert f["gwr_share"] == (95, 260, 30)


def test_or22(story):
    _, f = story
    assert f["payout"] == ([60, 70], 95 + 39, 260 + 91, 135)  # summary: 120 -> 36 and 84
    assert f["three"] == (351 - 225, ["2", "2", "3"], 134)


def test_cash_conserved(story):
    _, f = story
    assert f["cash_conserved"] == 15_000
