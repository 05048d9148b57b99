"""The worked example of the 1893 rules summary ("Een ronde stap voor stap", seed 004): four
players with 450M each; S1 takes minor 1 (the EKB), starts the DE and we follow the first
stock round and the two operating rounds after it.

Where the summary and the reference differ, the reference wins:

- the summary has S1 keep 240M after taking the EKB. In the reference a player who passes in
  the starting-package draft sits out the first stock round, and with four players the draft
  comes back to S1 before only one card is left (8 cards, one must remain). So S1 takes a
  second card: minor 3 (KSZ) for 100M, leaving 140M;
- with 140M S1 can pay only the 120M director's certificate (20%), not a further share: S1
  holds 20% of the DE (the summary says 30%), and the DE still floats at 50% because S2, S3
  and S4 buy one share each; so S1 receives 8M (not 12M) of the DE's 40M dividend;
- the summary's SR 1 is, in the reference, a draft round followed by a stock round in which
  S4 (the player after the last to take a card) has priority; S4 buys a city bond first;
- the two exits to Aachen (N1, P1) are reachable only across Düren's own hex, so the DE lays its
  Düren tile facing Aachen at once in OR 1.1 (it then must buy a train, as the summary says)
  instead of "extending to the Aachen exit" in OR 1.2.

All other figures are the summary's: EKB treasury 210M -> 130M -> 145M, DE float 600M at par
60M, price 60 -> 55 (no run) -> 60 (payout), DE treasury 600 -> 520 -> 440M, the EKB's 30M run
split 15M/15M, the DE's 2-train 40M run (4M per share, nothing for the market shares).
"""

from __future__ import annotations

import pytest
from helpers import act, ids_told, money_at, players, told_at

from trackage.titles import new_game

PLAYERS = players(4, "S")


def route(train, a, b, revenue):
    return {"train": train, "connections": [[a, b]], "hexes": [a, b], "revenue": revenue,
            "nodes": [f"{a}-0", f"{b}-0"]}


def pass_minors(game, *minors):
    for m in minors:
        while game.current_entity() is not None and game.current_entity().id == m:
            act(game, "pass", m)


@pytest.fixture(scope="module")
def story():
    g = new_game("1893", PLAYERS)
    f = {"game": g}
    at = f["at"] = {}  # the ids of the actions the example's steps are taken by
    s1 = g.index.player(1)
    ekb, de = g.index.minor("EKB"), g.corporation_by_id("DE")
    f["start"] = (s1.cash, g.cert_limit(), g.bank.cash, g.current_entity().name)

    # the starting package: a private or one of the two lowest minors, in turn
    act(g, "bid", "S1", company="EKB", price=210)
    at["ekb"] = len(g.actions)
    f["ekb"] = (s1.cash, ekb.cash, ekb.owner.name)
    for who, card, price in (("S2", "FdSD", 180), ("S3", "EVA", 150), ("S4", "KFBE", 200), ("S1", "KSZ", 100),
                             ("S2", "HdSK", 100), ("S3", "KBE", 220)):
        act(g, "bid", who, company=card, price=price)
    f["package_empty"] = (g.round.name, [c.sym for c in g.draftables()], s1.cash, g.current_entity().name)

    # SR 1
    act(g, "buy_company", "S4", company="AdSK-1", price=100)
    act(g, "par", "S1", corporation="DE", share_price="60,5,1")
    at["par"] = len(g.actions)
    f["par"] = (s1.cash, de.share_price.price, s1.percent_of(de), de.floated())
    for who, share in (("S2", "DE_1"), ("S3", "DE_2"), ("S4", "DE_3")):
        act(g, "buy_shares", who, shares=[share], percent=10)
        at[who] = len(g.actions)
    f["float"] = (de.floated(), de.cash, sum(p.percent_of(de) for p in g.players), g.pool.percent_of(de))
    while g.round.name == "Stock Round":
        act(g, "pass", g.current_entity().name)

    # OR 1.1: the minors first, in number order
    f["or11"] = [e.id for e in g.round.entities]
    act(g, "lay_tile", "EKB", hex="T3", tile="57-0", rotation=2)
    act(g, "buy_train", "EKB", train="2-0", price=80)
    at["ekb_train"] = len(g.actions)
    f["ekb_train"] = ekb.cash
    act(g, "pass", "EKB")
    pass_minors(g, "KFBE", "KSZ", "KBE")
    assert g.current_entity() is de
    f["de_home"] = de.tokens[0].used and de.tokens[0].city.hex.id
    act(g, "lay_tile", "DE", hex="O2", tile="5-0", rotation=1)
    at["de_lay"] = len(g.actions)
    f["de_no_run"] = (de.share_price.price, g.round.actions_for(de))
    act(g, "buy_train", "DE", train="2-1", price=80)
    at["de_train"] = len(g.actions)
    f["de_train"] = de.cash
    act(g, "pass", "DE")

    # OR 1.2
    f["or12"] = (g.round.name, g.round.round_num)
    act(g, "lay_tile", "EKB", hex="S2", tile="58-0", rotation=3)
    cash = s1.cash
    act(g, "run_routes", "EKB", routes=[route("2-0", "T3", "U4", 30)])
    at["ekb_run"] = len(g.actions)
    f["ekb_run"] = (s1.cash - cash, ekb.cash)
    act(g, "pass", "EKB")
    pass_minors(g, "KFBE", "KSZ", "KBE")
    act(g, "pass", "DE")  # no track this time
    holders = {p.name: p.cash for p in g.players}
    act(g, "run_routes", "DE", routes=[route("2-1", "O2", "P1", 40)])
    at["de_run"] = len(g.actions)
    act(g, "dividend", "DE", kind="payout")
    at["de_payout"] = len(g.actions)
    f["de_payout"] = ({p.name: p.cash - holders[p.name] for p in g.players}, de.share_price.price, de.cash)
    act(g, "buy_train", "DE", train="2-2", price=80)
    at["de_second_train"] = len(g.actions)
    f["de_second_train"] = (de.cash, [t.name for t in de.trains])
    act(g, "pass", "DE")
    f["after"] = (g.round.name, g.turn, de.operated())
    return f


def test_start(story):
    assert story["start"] == (450, 9, 7200 - 4 * 450, "S1")


def test_minor_price_is_its_treasury(story):
    assert story["ekb"] == (240, 210, "S1")


def test_package_with_one_card_left(story):
    # reference: S1 also took minor 3 (see the module docstring)
    assert story["package_empty"] == ("Stock Round", ["BKB"], 140, "S4")


def test_director_certificate(story):
    assert story["par"] == (20, 60, 20, False)


def test_float_at_fifty_percent(story):
    assert story["float"] == (True, 600, 50, 50)


def test_minors_operate_first(story):
    assert story["or11"] == ["EKB", "KFBE", "KSZ", "KBE", "DE"]
    assert story["ekb_train"] == 130


def test_de_starts(story):
    assert story["de_home"] == "O2"
    price, actions = story["de_no_run"]
    assert price == 55
    assert "pass" not in actions and "buy_train" in actions  # a train is compulsory with a route
    assert story["de_train"] == 520


def test_minor_pays_half(story):
    assert story["or12"] == ("Operating Round", 2)
    assert story["ekb_run"] == (15, 145)


def test_de_payout(story):
    paid, price, cash = story["de_payout"]
    assert paid == {"S1": 8, "S2": 4, "S3": 4, "S4": 4}  # reference: S1 holds 20%
    assert price == 60 and cash == 520


def test_second_train(story):
    assert story["de_second_train"] == (440, ["2", "2"])


def test_on_to_stock_round_2(story):
    # the last card (BKB) is still in the package: an auction of it comes before SR 2
    assert story["after"] == ("Draft Round", 2, True)


def test_the_example_told_by_the_journal(story):
    """The worked example as the journal tells it, each step at the action that takes it, in
    marks and by name. Where the reference differs (see the module docstring) it says so."""
    g, at = story["game"], story["at"]
    s1, s2, s3, s4 = (g.index.player(i).id for i in (1, 2, 3, 4))

    # the starting package: S1 pays 210M for the EKB, whose treasury gets the 210M
    assert money_at(g, at["ekb"]) == [(s1, "bank", 210, "company_purchase"), ("bank", "EKB", 210, "float_capital")]
    assert told_at(g, at["ekb"]) == ["S1 bids 210M for EKB", "S1 pays 210M to the bank (company purchase)",
                                     "EKB receives its capital of 210M"]
    # reference: S1 also takes minor 3 (the KSZ) for 100M
    ksz = [m for m in (e for e in g.journal.of_kind("money")) if m["receiver"] == "KSZ"]
    assert [(m["amount"], m["why"]) for m in ksz] == [(100, "float_capital")]

    # SR 1: S1 pars the DE at 60M and pays 120M for the director's certificate (reference: 20%)
    assert money_at(g, at["par"]) == [(s1, "bank", 120, "share_purchase")]
    said = told_at(g, at["par"])
    assert said[:3] == ["DE is parred at 60M", "S1 gets a 20% president’s certificate of DE from the IPO for 120M",
                        "S1 becomes the president of DE"]
    # S2, S3 and S4 buy a share each at 60M; with S4's the DE has 50% sold: it floats with 600M
    for who, pid in (("S2", s2), ("S3", s3), ("S4", s4)):
        assert (pid, "bank", 60, "share_purchase") in money_at(g, at[who])
        assert told_at(g, at[who], "shares") == [f"{who} gets a 10% share of DE from the market for 60M"]
    assert told_at(g, at["S3"], "float") == []
    assert ("bank", "DE", 600, "float_capital") in money_at(g, at["S4"])
    assert told_at(g, at["S4"], "float", "money") == ["DE floats", "DE receives its capital of 600M"]

    # OR 1.1: the EKB buys a 2-train for 80M (210M -> 130M)
    assert money_at(g, at["ekb_train"]) == [("EKB", "bank", 80, "train_purchase")]
    assert told_at(g, at["ekb_train"]) == ["EKB buys a 2 train from the depot for 80M"]
    # the DE lays its Düren tile, has no train to run: 60M -> 55M; then a 2-train for 80M (600M -> 520M)
    assert told_at(g, at["de_lay"], "dividend", "share_price") == [
        "DE withholds 0M", "DE's share price moves left from 60M to 55M"]
    assert money_at(g, at["de_train"]) == [("DE", "bank", 80, "train_purchase")]

    # OR 1.2: the EKB's 30M run split 15M to S1, 15M to its treasury (130M -> 145M)
    assert money_at(g, at["ekb_run"]) == [("bank", "EKB", 15, "withheld"), ("bank", s1, 15, "dividend")]
    assert told_at(g, at["ekb_run"]) == [
        "EKB runs a 2 train for 30M: T3-U4", "EKB pays out 30M", "EKB keeps 15M in its treasury",
        "S1 receives 15M in dividends from the bank"]
    # the DE's 2-train earns 40M: 4M a share, nothing for the market's shares; 55M -> 60M.
    # reference: S1 holds 20%, so 8M (the summary: 30%, 12M)
    assert told_at(g, at["de_run"]) == ["DE runs a 2 train for 40M: O2-P1"]
    assert money_at(g, at["de_payout"]) == [("bank", s1, 8, "dividend"), ("bank", s2, 4, "dividend"),
                                            ("bank", s3, 4, "dividend"), ("bank", s4, 4, "dividend")]
    assert told_at(g, at["de_payout"], "dividend", "share_price") == [
        "DE pays out 40M (4M per share)", "DE's share price moves right from 55M to 60M"]
    # a second 2-train for 80M (520M -> 440M)
    assert money_at(g, at["de_second_train"]) == [("DE", "bank", 80, "train_purchase")]
    assert told_at(g, at["de_second_train"]) == ["DE buys a 2 train from the depot for 80M"]

    assert ids_told(g) == []  # players by name, never by id
