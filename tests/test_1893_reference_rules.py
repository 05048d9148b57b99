"""1893 rules as the reference engine applies them (checked against it with the differential
oracle): what a stock-round turn offers, FdSD's exchange, the train step's prices and
bankruptcy, the merger vote order and the holder ledger."""

from __future__ import annotations

import dataclasses

import pytest
from helpers import act, refused
from test_1893 import compulsory_purchase, first_operating_round, two_player_game

from trackage.core.entities import ShareBundle, replace_certificate
from trackage.core.errors import GameError
from trackage.core.money import spend
from trackage.core.pipeline import changed
from trackage.titles import new_game


def company_ref(sym: str) -> dict:
    return {"entity": sym, "entity_type": "company"}


# ----------------------------------------------------------------- stock round
def test_eva_of_another_player_is_no_stock_round_action():
    g = two_player_game()  # B holds EVA; A's turn
    assert not any(x["type"] == "buy_company" and x.get("company") == "EVA" for x in g.legal_actions())
    refused(g, {"type": "buy_company", "entity": 1, "entity_type": "player", "company": "EVA", "price": 50},
            "no-company-from-player-in-stock-round")
    # a log that did it loads as the reference loads it: the price goes to the bank, not to B
    a, b = g.index.player(1), g.index.player(2)  # (the refusal rebuilt the game)
    bank, b_cash = g.bank.cash, b.cash
    g.loading = True
    g._apply({"type": "buy_company", "entity": 1, "entity_type": "player", "company": "EVA", "price": 50, "id": 99})
    assert g.index.company("EVA").owner is a and g.bank.cash == bank + 50 and b.cash == b_cash


def rag_in_the_market():
    """A (who holds FdSD) to act after B has parred the RAG too: 80% of it is in the market."""
    g = two_player_game()
    act(g, "buy_shares", "A", shares=["RSE_1"], percent=10)
    act(g, "par", "B", corporation="RAG", share_price="70,4,2")
    return g


def test_fdsd_offers_its_exchange_and_no_pass():
    g = rag_in_the_market()
    offers = [x for x in g.legal_actions() if x["entity"] == "FdSD"]
    assert offers == [{"type": "buy_shares", "shares": ["RAG_1"], "percent": 10, **company_ref("FdSD")}]
    # the reference would take FdSD's pass as its owner's pass: refused here
    refused(g, {"type": "pass", **company_ref("FdSD")}, "out-of-turn")
    a = g.index.player(1)
    cash = a.cash
    g.process(offers[0])
    rag = g.corporation_by_id("RAG")
    assert a.percent_of(rag) == 20 and a.cash == cash and g.index.company("FdSD").closed  # two shares, free


def test_rag_par_must_be_paid_with_fdsd_in_the_first_stock_round():
    g = two_player_game()
    a = g.index.player(1)
    act(g, "par", "A", corporation="RAG", share_price="70,4,2")  # A could pay 140M himself
    assert g.legal_actions() == [{"type": "assign", "target": "FdSD", "target_type": "company",
                                  "entity": 1, "entity_type": "player"}]
    # the reference counts a decliner in the first stock round as a passer, then refuses the par
    refused(g, {"type": "pass", "entity": 1, "entity_type": "player"}, "must-exchange-fdsd")
    a = g.index.player(1)  # (the refusal rebuilt the game)
    cash = a.cash
    act(g, "assign", "A", target="FdSD", target_type="company")
    rag = g.corporation_by_id("RAG")
    assert rag.owner is a and a.percent_of(rag) == 20 and a.cash == cash and g.index.company("FdSD").closed


def to_second_stock_round():
    """The two-player game (A and B 20% of the RSE each, 40% in the market) through its first
    operating rounds, passing where possible."""
    g = first_operating_round(sr=[("A", "RSE_1"), ("B", "RSE_2"), ("A", "RSE_3"), ("B", "RSE_4")])
    while g.round.name != "Stock Round":
        acts = g.legal_actions()
        passes = [x for x in acts if x["type"] == "pass"]
        g.process(passes[0] if passes else acts[0])
    assert g.turn == 2
    return g


def test_a_player_over_the_certificate_limit_must_sell_and_cannot_pass():
    g = to_second_stock_round()
    p = g.current_entity()
    assert any(x["type"] == "sell_shares" for x in g.legal_actions())
    g.cert_limit_value = g.num_certs(p) - 1  # what-if: the limit drops below the holding
    changed(g)  # (a change outside the play API: the listing is made again)
    acts = g.legal_actions()
    assert acts and {x["type"] for x in acts} == {"sell_shares"}
    with pytest.raises(GameError) as err:  # (the refusal rebuilds the game without the what-if)
        g.process({"type": "pass", **g.index.ref(p)})
    assert err.value.rule == "no-such-action-now"


# ----------------------------------------------------------------- train step
def test_price_for_another_companys_train_with_the_presidents_help():
    g, rse, b = compulsory_purchase(0, 20)
    step = g.round.active_step()
    four = g.depot.train_by_id("4-0")  # 300M: any operator's 4-train would do
    assert step.other_price_range(rse, four) == (1, 20)  # up to the president's cash
    sale = next(x for x in g.legal_actions(b) if x["type"] == "sell_shares")
    g.process(sale)  # 10% at 65M
    step = g.round.active_step()
    rse, four = g.corporation_by_id("RSE"), g.depot.train_by_id("4-0")
    # no more sold than needed: at least 85 - 65 + 1
    assert step.last_sold_price == 65 and step.other_price_range(rse, four) == (21, 85)
    # the bound stays for the rest of the turn, also once the company need not buy: with a
    # train and 50M, at least 50 + 85 - 65 + 1 but at most its 50M: nothing
    two = g.depot.train_by_id("2-5")
    g.depot.upcoming = tuple(t for t in g.depot.upcoming if t is not two)
    two.owner = rse
    rse.trains = (*rse.trains, two)
    spend(g.bank, rse, 50)
    assert not step.must_buy_train(rse) and step.other_price_range(rse, four) is None


def test_bankruptcy_only_at_the_train_step():
    g = first_operating_round()
    rse, b = g.corporation_by_id("RSE"), g.index.player(2)
    spend(rse, g.bank, rse.cash)
    spend(b, g.bank, b.cash)
    assert g.round.active_step().description() == "Lay Track"
    assert not any(x["type"] == "bankrupt" for x in g.legal_actions())
    with pytest.raises(GameError) as err:
        g.process({"type": "bankrupt", "entity": "RSE", "entity_type": "corporation"})
    assert err.value.rule == "not-bankrupt"


# ----------------------------------------------------------------- merger round and ledger
def test_hgk_voters_in_the_reference_order():
    g = two_player_game()  # A holds KBE (the HGK president's certificate), B KFBE and HdSK
    g.hgk_mergable = True
    r = g.new_merger_round(1)
    assert [p.name for p in r.voters] == ["B", "A"]  # KFBE's owner votes first
    assert r.votes == {g.index.player(2): 30, g.index.player(1): 20}


def test_holder_ledger_moves_by_percent_not_with_swapped_certificates():
    g = new_game("1893", [{"id": i, "name": f"P{i}"} for i in (1, 2, 3)])
    agv, sm, pool = g.agv, g.share_market, g.pool
    p1, p2 = g.index.player(1), g.index.player(2)
    g.stock_market.set_par(agv, next(p for p in g.stock_market.par_prices if p.price == 120))
    for s in agv.shares:
        replace_certificate(agv, s, dataclasses.replace(s, buyable=True))
    placing = {"AGV_0": p1, "AGV_1": p2, "AGV_7": p2, "AGV_2": pool, "AGV_4": pool, "AGV_5": pool}
    for sid, to in placing.items():
        sm.transfer(ShareBundle([g.index.share(sid)], corporation=agv), to, allow_president_change=False)
    agv.owner = p1
    # P1 sells half of the president's certificate: P2 becomes president, the 20% certificate
    # first in the market goes back to P1 as the rest of his certificate
    g.sell_shares_and_change_price(ShareBundle([g.index.share("AGV_0")], 10, corporation=agv))
    assert agv.owner is p2 and [s.id for s in p1.shares_of(agv)] == ["AGV_2"]
    assert p1.percent_of(agv) == 20 and agv.share_holders[p1] == 10
    # so buying 10% gives P1 30% of certificates, but 20% in the ledger: a tie, no new president
    sm.transfer(ShareBundle([g.index.share("AGV_4")], corporation=agv), p1)
    assert p1.percent_of(agv) == 30 and agv.owner is p2


def test_a_bond_keeps_the_president_from_bankruptcy():
    """The reference counts 100M per city bond in the president's means but lets no bond be
    sold in an operating round: with a bond, no bankruptcy; what is left is another player
    buying EVA from the president (at any moment of an operating round)."""
    g, rse, b = compulsory_purchase(0, 0)
    bond = g.index.company("AdSK-1")
    bond.owner = b
    b.companies = (*b.companies, bond)  # what-if: B holds a bond
    sale = next(x for x in g.legal_actions(b) if x["type"] == "sell_shares")
    g.process(sale)  # 65M: with the bond, 165M of means for an 80M train
    b = g.index.player(2)
    assert b.cash == 65 and [c.sym for c in b.companies if c.sym == "EVA"] == ["EVA"]
    a = g.index.player(1)
    assert g.legal_actions() == [{"type": "buy_company", "company": "EVA", "price": 1, "price_range": [1, a.cash],
                                  "entity": 1, "entity_type": "player"}]
    g.process({"type": "buy_company", "company": "EVA", "price": 15, "entity": 1, "entity_type": "player"})
    assert g.index.player(2).cash == 80 and g.index.company("EVA").owner is g.index.player(1)
    act(g, "buy_train", "RSE", train="2-5", price=80, variant="2")  # B pays it all
    rse = g.corporation_by_id("RSE")
    assert rse.cash == 0 and [t.id for t in rse.trains] == ["2-5"]


def test_a_token_takes_the_next_free_slot():
    g = first_operating_round()
    rse = g.corporation_by_id("RSE")
    step = next(s for s in g.round.steps if s.description() == "Place a Token")
    assert g.board.get_slot(g.board.city_by_id("I8-1-0"), rse) == 0  # a one-slot city
    with pytest.raises(GameError) as err:
        step.process_place_token({"type": "place_token", "city": "I8-1-0", "slot": 1}, rse)
    assert err.value.rule == "wrong-slot"
    with pytest.raises(GameError) as err:  # the right slot passes this check (I8 is not reached)
        step.process_place_token({"type": "place_token", "city": "I8-1-0", "slot": 0}, rse)
    assert err.value.rule != "wrong-slot"


def test_no_founding_where_the_reference_fails():
    """HGK: P1 holds KBE (the president's certificate, 20%), P2 KFBE (20%), P3 bought 30%:
    the reference errs choosing P3's presidency, so no vote may form HGK then."""
    g = new_game("1893", [{"id": i, "name": f"P{i}"} for i in (1, 2, 3)])
    p1, p2, p3 = (g.index.player(i) for i in (1, 2, 3))
    for sym, p in (("KBE", p1), ("KFBE", p2), ("HdSK", p2)):
        g.draft_object(g.index.company(sym), p, 0)
    hgk = g.hgk
    bought = [s for s in hgk.shares if s.buyable][:3]
    for s in bought:
        g.share_market.transfer(ShareBundle([s], corporation=hgk), p3, allow_president_change=False)
    assert g.founding_fails(hgk)
    g.hgk_mergable = True
    g.round = g.new_merger_round(1)
    assert [p.name for p in g.round.voters] == ["P2", "P1", "P3"]
    # P2 (30 votes with HdSK) and P1 (20) would reach 50% with P1's yes: only "no" for P1
    g.process({"type": "special_buy", "description": "yes", "cost": 0, "entity": 2, "entity_type": "player"})
    assert g.current_entity() is p1 and g.round.yes == 30
    assert [a["description"] for a in g.legal_actions()] == ["no"]
    with pytest.raises(GameError) as err:
        g.found(hgk)
    assert err.value.rule == "founding-fails-in-reference"
    # with 20% for P3 the president's certificate is among the largest holdings: no failure
    g.share_market.transfer(ShareBundle([bought[0]], corporation=hgk), g.pool, allow_president_change=False)
    assert not g.founding_fails(hgk)
    # due by its phase, the founding at the start of the next merger round fails the same way:
    # no action may end the round before it (the game cannot go on there, as in the reference)
    g.share_market.transfer(ShareBundle([bought[0]], corporation=hgk), p3, allow_president_change=False)
    g.hgk_auto_found = True
    assert g.doomed_founding() is True
    with pytest.raises(GameError) as err:
        g.new_merger_round(1)
    assert err.value.rule == "founding-fails-in-reference"


def test_an_emergency_sale_puts_the_operators_still_to_come_back_in_order():
    g, rse, b = compulsory_purchase(0, 20)
    r = g.round
    i = r.entities.index(rse)
    later = [g.index.minor("KBE"), g.index.minor("EKB")]  # what-if: two operators still to come
    r.entities = r.entities[:i + 1] + later
    sale = next(x for x in g.legal_actions(b) if x["type"] == "sell_shares")
    g.process(sale)
    assert [e.id for e in g.round.entities[i + 1:]] == ["EKB", "KBE"]  # the operating order


# ----------------------------------------------------------------- forced draft
def forced_draft(*cash: int):
    """An auction round of the starting package's leftovers, the players holding ``cash``."""
    g = new_game("1893", [{"id": i, "name": f"P{i}"} for i in range(1, len(cash) + 1)])
    for p, c in zip(g.players, cash):
        spend(p, g.bank, p.cash - c)
    g.round = g.new_auction_round()
    return g


def test_no_pick_the_forced_purchase_cannot_pay():
    """The picker is forced to buy at the floor price (half the value, in 10M steps) or, when
    nobody can pay it, for all his cash: with no cash the reference errs (spend of 0M)."""
    g = forced_draft(0, 60, 60)
    step = g.round.steps[0]
    assert step.floor_price(g.index.company("EVA")) == 70 and step.floor_price(g.index.company("HdSK")) == 50
    assert [x["company"] for x in g.legal_actions()] == ["HdSK"]  # only HdSK's 50M floor is payable
    refused(g, {"type": "bid", "entity": 1, "entity_type": "player", "company": "EVA", "price": 150},
            "forced-purchase-for-nothing")
    g.process({"type": "bid", "entity": 1, "entity_type": "player", "company": "HdSK", "price": 100})
    step = g.round.steps[0]  # (the refusal rebuilt the game)
    while step.auctioning is not None:  # passed over down to 60M, then everyone passes
        g.process({"type": "pass", **g.index.ref(g.current_entity())})
    p2 = g.index.player(2)
    assert g.index.company("HdSK").owner is p2 and p2.cash == 10  # first after P1 who can pay 50M


def test_no_pick_that_leaves_the_next_picker_stuck():
    """P1 (30M) would be forced to buy any card for his 30M; P2 would then have to pick with no
    cash while nobody can pay any floor price: the reference cannot go on, so P1 has no pick."""
    g = forced_draft(30, 0, 40)
    assert g.legal_actions() == [] and not g.round.finished()
    refused(g, {"type": "bid", "entity": 1, "entity_type": "player", "company": "HdSK", "price": 100},
            "draft-dead-end")
    g.loading = True  # a log that went there loads as in the reference
    g.process({"type": "bid", "entity": 1, "entity_type": "player", "company": "HdSK", "price": 100})
    assert g.index.company("HdSK").owner is g.index.player(1) and g.index.player(1).cash == 0
    assert g.current_entity() is g.index.player(2) and g.round.name == "Draft Round"
