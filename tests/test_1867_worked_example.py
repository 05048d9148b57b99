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
from helpers import act, ids_told, money_at, players, told_at

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
    at = f["at"] = {}  # the ids of the actions the example's steps are taken by
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
            at[item[0]] = len(g.actions)
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
    at["cs_no_run"] = len(g.actions)
    f["cs_no_run"] = (C("CS").cash, C("CS").share_price.price)
    act(g, "buy_train", train=g.depot.depot_trains()[0].id, price=100)
    at["cs_train"] = len(g.actions)
    act(g, "pass")
    f["cs_train"] = (C("CS").cash, [t.name for t in C("CS").trains])
    others_until_s1(g)
    assert g.current_entity().id == "CV"
    act(g, "lay_tile", hex="D16", tile="621-1", rotation=2)
    act(g, "pass")
    at["cv_no_run"] = len(g.actions)
    f["cv_no_run"] = (C("CV").cash, C("CV").share_price.price)
    act(g, "buy_train", train=g.depot.depot_trains()[0].id, price=100)
    at["cv_train"] = len(g.actions)
    f["cv_train"] = (C("CV").cash, [t.name for t in C("CV").trains])
    others_until_s1(g)

    # OR 1.2: two runs of $60, half to S1
    runs = {}
    for corp, conn in (("CS", [["E17", "F18"]]), ("CV", [["D16", "E17"]])):
        others_until_s1(g)
        assert g.current_entity().id == corp
        act(g, "pass")
        act(g, "run_routes", routes=[{"train": C(corp).trains[0].id, "connections": conn}])
        at[(g.turn, corp)] = len(g.actions)
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
        at[(g.turn, corp)] = len(g.actions)
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
    at["gwr"] = len(g.actions)
    gwr = C("GWR")
    f["gwr"] = (gwr.share_price.price, gwr.cash, g.index.player(1).percent_of(gwr), gwr.owner.name,
                [t.name for t in gwr.trains], sorted(t.city.hex.id for t in gwr.tokens if t.used),
                C("CS").closed, C("CV").closed)
    share = next(s for s in gwr.shares_of(gwr) if not s.president)
    act(g, "buy_shares", entity=g.index.player(1), shares=[share.id], percent=10)
    at["gwr_share"] = len(g.actions)
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
    at["gwr_run"] = len(g.actions)
    revenue = [r["revenue"] for r in g.round.routes]
    act(g, "dividend", kind="payout")
    at["gwr_payout"] = len(g.actions)
    f["payout"] = (revenue, g.index.player(1).cash, gwr.cash, gwr.share_price.price)
    act(g, "pass")  # no private bought before the loan step
    t3 = g.depot.depot_trains()[0]
    act(g, "buy_train", train=t3.id, price=t3.price)
    at["three"] = len(g.actions)
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


def net_at(g, action_id):
    """Who gained and who lost money at action ``action_id`` (no zero entries)."""
    out = {}
    for payer, receiver, amount, _why in money_at(g, action_id):
        out[payer] = out.get(payer, 0) - amount
        out[receiver] = out.get(receiver, 0) + amount
    return {k: v for k, v in out.items() if v}


def events_at(g, action_id, kind, corp):
    return [dict(e.fields) for e in g.journal.events()
            if e.action == action_id and e.kind == kind and e.fields.get("corporation") == corp]


def test_the_example_told_by_the_journal(story):
    """The worked example as the journal tells it, each step at the action that takes it, in
    dollars and by name. Where the reference differs (see the module docstring) it says so."""
    g, f = story
    at = f["at"]
    s1 = g.index.player(1).id

    # SR 1: the CV for $100, nobody bids more: $100 to its treasury, price $50
    assert net_at(g, at["CV"]) == {s1: -100, "CV": 100}
    assert told_at(g, at["CV"], "par", "president", "float") == [
        "CV is parred at $50", "S1 becomes the president of CV", "CV floats"]
    # the CS: S1 $100, S2 $110, S1 $120; it starts at $60 with $120
    bids = [(e["entity"], e["price"], e.action < at["CS"]) for e in g.journal.of_kind("bid") if e["item"] == "CS"]
    assert bids == [(s1, 100, True), (g.index.player(2).id, 110, True), (s1, 120, True)]
    assert net_at(g, at["CS"]) == {s1: -120, "CS": 120}
    assert told_at(g, at["CS"], "par") == ["CS is parred at $60"]

    # OR 1.1: no train, no revenue: the CS back to $55, the CV to $45; each buys a 2-train for $100
    for corp, before, after in (("CS", 60, 55), ("CV", 50, 45)):
        assert told_at(g, at[f"{corp.lower()}_no_run"], "share_price") == [
            f"{corp}'s share price moves left from ${before} to ${after}"]
        assert money_at(g, at[f"{corp.lower()}_train"]) == [(corp, "bank", 100, "train_purchase")]
        assert told_at(g, at[f"{corp.lower()}_train"]) == [f"{corp} buys a 2 train from the depot for $100"]

    # OR 1.2 and 2.1: each minor runs for $60, gives S1 $30, keeps $30 and moves right
    for turn, prices in ((1, {"CS": (55, 60), "CV": (45, 50)}), (2, {"CS": (60, 65), "CV": (50, 55)})):
        for corp, (before, after) in prices.items():
            i = at[(turn, corp)]
            assert [r["revenue"] for r in events_at(g, i, "run", corp)] == [60]
            assert [(d["paid"], d["kept"]) for d in events_at(g, i, "dividend", corp)] == [(30, 30)]
            assert money_at(g, i) == [("bank", corp, 30, "withheld"), ("bank", s1, 30, "dividend")]
            assert told_at(g, i) == [
                f"{corp} runs a 2 train for $60", f"{corp} pays out $60 ($15 per share)",
                f"{corp} keeps $30 in its treasury", "S1 receives $30 in dividends from the bank",
                f"{corp}'s share price moves right from ${before} to ${after}"]

    # OR 2.1: another player's company (the CA) buys the first 3-train: phase 3
    first_three = next(e for e in g.journal.of_kind("train") if e["name"] == "3")
    assert (first_three["operator"], first_three["price"]) == ("CA", 225)
    assert [e["name"] for e in g.journal.of_kind("phase") if e.action == first_three.action] == ["3"]
    assert first_three.action < at[(2, "CS")]

    # the merger round: the GWR at 65 + 55 = $120, the minors' $80 and $60 (so $140), S1 20%
    i = at["gwr"]
    assert told_at(g, i, "par") == ["GWR is parred at $120"]
    assert net_at(g, i) == {"CS": -80, "CV": -60, "GWR": 140}
    assert told_at(g, i, "close") == ["CS closes", "CV closes"]
    assert told_at(g, i, "shares", "president", "float") == [
        "S1 gets a 10% share of GWR from the IPO",
        "S1 returns a 10% share of GWR to the IPO",
        "S1 gets a 20% president’s certificate of GWR from the IPO",
        "S1 becomes the president of GWR",
        "GWR floats",
    ]
    # S1 buys one more share for $120, paid into the GWR's treasury: 30%
    assert money_at(g, at["gwr_share"]) == [(s1, "GWR", 120, "share_purchase")]
    assert told_at(g, at["gwr_share"]) == ["S1 gets a 10% share of GWR from the IPO for $120"]

    # OR 2.2: two runs; reference: Buffalo is $40 in phase 3, so $60 + $70 = $130, not $120,
    # S1 $39 and $91 for the 70% in the treasury (summary: $36 and $84); up to $135 all the same
    assert [r["revenue"] for r in events_at(g, at["gwr_run"], "run", "GWR")] == [60, 70]
    assert [(d["revenue"], d["per_share"]) for d in events_at(g, at["gwr_payout"], "dividend", "GWR")] == [(130, 13)]
    assert money_at(g, at["gwr_payout"]) == [("bank", s1, 39, "dividend"), ("bank", "GWR", 91, "dividend")]
    assert told_at(g, at["gwr_payout"]) == [
        "GWR pays out $130 ($13 per share)", "S1 receives $39 in dividends from the bank",
        "GWR receives $91 in dividends from the bank", "GWR's share price moves right from $120 to $135"]
    # a 3-train for $225
    assert money_at(g, at["three"]) == [("GWR", "bank", 225, "train_purchase")]
    assert told_at(g, at["three"]) == ["GWR buys a 3 train from the depot for $225"]

    assert ids_told(g) == []  # players by name, never by id
