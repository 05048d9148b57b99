"""1867 rules that the fixtures never break: an illegal action raises a clear GameError
(naming the rule) and leaves the game exactly as it was."""

from __future__ import annotations

import pytest
from helpers import act, action, player, refused
from test_1867_worked_example import PLAYERS, auction, others_until_s1

from trackage.core.errors import GameError
from trackage.core.trains import remove_train
from trackage.titles import new_game


def privates_done(g):
    for comp, who in [("C&SL", "S3"), ("NFB", "S3"), ("MB", "S4"), ("QB", "S2"), ("SCT", "S2")]:
        company = g.index.company(comp)
        while company.owner is None:
            if g.current_entity().name == who and g.min_bid(company) <= 5:
                act(g, "bid", company=comp, price=g.min_bid(company))
            else:
                act(g, "pass")


@pytest.fixture
def sr1():
    g = new_game("1867", PLAYERS, [], seed=1)
    privates_done(g)
    assert g.round.name == "Stock Round" and g.current_entity().name == "S3"
    return g


# ------------------------------------------------------------------ auctions
def test_private_bid_below_minimum():
    g = new_game("1867", PLAYERS, [], seed=1)
    assert g.current_entity().name == "S1"
    refused(g, action(g, "bid", company="C&SL", price=15), "bid-too-low")   # minimum 30 - 10 = 20
    refused(g, action(g, "bid", company="C&SL", price=22), "bid-increment")
    refused(g, action(g, "bid", company="SCT", price=100), "not-for-auction")  # cheapest first
    act(g, "bid", company="C&SL", price=20)
    refused(g, action(g, "bid", company="C&SL", price=20), "bid-too-low")   # next bid at least 25


def test_minor_bid_below_minimum(sr1):
    g = sr1
    refused(g, action(g, "bid", corporation="KP", price=95), "bid-too-low")
    refused(g, action(g, "bid", corporation="KP", price=102), "bid-increment")
    refused(g, action(g, "bid", corporation="KP", price=400), "insufficient-cash")
    act(g, "bid", corporation="KP", price=100)
    # the home token comes first; then the next bidder must beat 100 by a multiple of 5
    act(g, "place_token", entity=g.corporation_by_id("KP"), city="F8-1-0", slot=0)
    assert g.current_entity().name == "S4"
    refused(g, action(g, "bid", corporation="KP", price=100), "bid-too-low")
    act(g, "bid", corporation="KP", price=105)
    assert g.current_entity().name == "S1"


def test_minor_starts_at_half_the_bid(sr1):
    g = sr1
    auction(g, "S3", "KP", 245, "F8-1-0")
    kp = g.corporation_by_id("KP")
    assert (kp.cash, kp.share_price.price, kp.owner.name, kp.owner.percent_of(kp)) == (245, 120, "S3", 100)
    auction(g, "S4", "OP", 300, "D8-0-0")  # capped at the highest minor par, 135
    assert g.corporation_by_id("OP").share_price.price == 135


def test_majors_wait_for_phase_4(sr1):
    g = sr1
    # before phase 4 nobody may par at all
    err = refused(g, action(g, "par", corporation="GWR", share_price="100,0,10"), "no-such-action-now")
    assert "par" in str(err)


# ------------------------------------------------------------------ tokens
def test_home_token_in_full_city(sr1):
    g = sr1
    act(g, "bid", corporation="KP", price=100)
    kp = g.corporation_by_id("KP")
    # Toronto's first city holds the CN's token; Montreal's third a neutral token
    refused(g, action(g, "place_token", entity=kp, city="F16-0-0", slot=0), "city-full")
    refused(g, action(g, "place_token", entity=kp, city="L12-0-2", slot=0), "city-full")
    # the action names slot 1 (as real logs do); the token takes the free slot, 0
    act(g, "place_token", entity=kp, city="F16-0-1", slot=1)
    kp = g.corporation_by_id("KP")
    slots = g.board.tokens(g.board.city_by_id("F16-0-1"))
    assert slots[0] is not None and slots[0].owned_by(kp)
    while kp.owner is None:
        act(g, "pass")
    act(g, "bid", corporation="OP", price=100)
    refused(g, action(g, "place_token", entity=g.corporation_by_id("OP"), city="F16-0-1", slot=0), "city-full")


# ------------------------------------------------------------------ loans
def test_loans_limit_and_automatic_loans(sr1):
    g = sr1
    kp = g.corporation_by_id("KP")
    auction(g, "S3", "KP", 100, "F8-1-0")
    assert g.maximum_loans(kp) == 2
    g.take_loan(kp)
    g.take_loan(kp)
    assert (kp.cash, kp.loans) == (190, 2)
    with pytest.raises(GameError) as err:
        g.take_loan(kp)
    assert err.value.rule == "loan-limit"
    assert (kp.cash, kp.loans) == (190, 2)


def test_buying_power_counts_loans_left():
    g = new_game("1867", PLAYERS, [], seed=1)
    kp = g.corporation_by_id("KP")
    gwr = g.corporation_by_id("GWR")
    assert g.buying_power(kp, full=True) == 0 + 2 * 45
    assert g.buying_power(gwr, full=True) == 0 + 5 * 45


def test_no_loan_for_an_optional_train():
    """Loans are only taken for a train the company must buy; a second train needs cash."""
    g = new_game("1867", PLAYERS, [], seed=1)
    privates_done(g)
    plan = {"S3": [("KP", 150, "F8-1-0")], "S4": [("OP", 100, "D8-0-0")]}
    while g.round.name == "Stock Round":
        who = g.current_entity().name
        todo = plan.get(who)
        if todo:
            auction(g, who, *todo.pop(0))
        else:
            act(g, "pass")
    kp = g.corporation_by_id("KP")
    assert g.current_entity() is kp
    act(g, "pass")  # no track
    act(g, "buy_train", train="2-0", price=100)
    assert (kp.cash, kp.loans) == (50, 0)
    assert g.current_entity().id == "OP"
    act(g, "pass")  # no track; then it must buy
    act(g, "buy_train", train="2-1", price=100)
    # OR 1.2: the KP could buy the OP's train for $1, but a depot train needs cash
    assert g.current_entity() is kp and g.round.round_num == 2
    act(g, "pass")  # no track
    assert "buy_train" in g.round.actions_for(kp)
    refused(g, action(g, "buy_train", train="2-2", price=100), "insufficient-cash")
    kp = g.corporation_by_id("KP")
    assert (kp.cash, kp.loans, [t.name for t in kp.trains]) == (50, 0, ["2"])


# ------------------------------------------------------------------ mergers
@pytest.fixture
def merger_round():
    """The worked example up to the merger round 2.1 (the CS's turn)."""
    g = new_game("1867", PLAYERS, [], seed=1)
    privates_done(g)
    C = g.corporation_by_id
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
    for corp, hex_, tile in (("CS", "E17", "621-0"), ("CV", "D16", "621-1")):
        others_until_s1(g)
        act(g, "lay_tile", hex=hex_, tile=tile, rotation=2)
        act(g, "pass")
        act(g, "buy_train", train=g.depot.depot_trains()[0].id, price=100)
        if g.current_entity() is C(corp):
            act(g, "pass")
    while not (g.round.name == "Stock Round" and g.turn == 2):
        e = g.current_entity()
        if g.round.name == "Operating Round" and e.id in ("CS", "CV"):
            act(g, "pass")
            if g.current_entity() is e and "run_routes" in g.round.actions_for(e):
                conn = [["E17", "F18"]] if e.id == "CS" else [["D16", "E17"]]
                act(g, "run_routes", routes=[{"train": e.trains[0].id, "connections": conn}])
            while g.current_entity() is e:
                act(g, "pass")
        elif g.round.name == "Operating Round":
            others_until_s1(g)
        else:
            act(g, "pass")
    while g.round.name == "Stock Round":
        if g.current_entity().name == "S2" and C("CA").owner is None:
            auction(g, "S2", "CA", 215, "J12-0-0")
        else:
            act(g, "pass")
    while g.round.name == "Operating Round":
        e = g.current_entity()
        if e.id in ("CS", "CV"):
            act(g, "pass")
            if "run_routes" in g.round.actions_for(e):
                act(g, "run_routes", routes=[{"train": e.trains[0].id, "connections": [["D16", "E17"]]}])
            while g.round.name == "Operating Round" and g.current_entity() is e:
                act(g, "pass")
        else:
            others_until_s1(g)
    assert g.round.name == "Merger Round"
    while g.current_entity().id != "CS":
        act(g, "pass")
    return g


def test_merge_with_unconnected_minor(merger_round):
    g = merger_round
    refused(g, action(g, "merge", corporation="KP"), "illegal-merge")   # no track between Hamilton and North Bay
    refused(g, action(g, "merge", corporation="GWR"), "illegal-merge")  # a major is not a merge partner
    refused(g, action(g, "convert"), "no-such-action-now")              # $65 is below the conversion range


def test_merge_then_choose_the_major(merger_round):
    g = merger_round
    act(g, "merge", corporation="CV")
    # every minor connected to the CS or the CV is now in: choose the major
    refused(g, action(g, "merge", corporation="KP"), "illegal-merge")
    act(g, "merge", corporation="GWR")
    gwr = g.corporation_by_id("GWR")
    assert gwr.floated() and gwr.share_price.price == 120


# ------------------------------------------------------------------ phase 8 trade-in
def fixture_game(name, before_id):
    """A shared 1867 log replayed up to (not including) the action ``before_id``."""
    from conftest import FIXTURES

    from trackage.core.log import filter_actions, load_log
    from trackage.replay import game_from_log

    path = FIXTURES / "1867" / f"{name}.json"
    if not path.exists():
        pytest.skip(f"NO FIXTURE: {path} is absent (set TRACKAGE_FIXTURES)")
    data = load_log(path)
    g = game_from_log(data)
    g.loading = True
    for a in filter_actions(data["actions"]):
        if a.get("id") == before_id:
            break
        g._apply(a)
    g.loading = False
    return g


def test_trade_in_for_an_8_at_a_discount():
    """From phase 8 a train can be traded in towards an 8 (or 2+2 / 5+5E): the 5 counts
    $275; the old train goes to the depot's discard pile. Set up from a shared fixture."""
    g = fixture_game("21268", 828)
    cnr = g.corporation_by_id("CNR")
    assert g.phase.name == "8" and g.current_entity() is cnr and [t.name for t in cnr.trains] == ["5"]
    refused(g, action(g, "buy_train", train="8-1", price=700, exchange="5-0"), "wrong-price")
    refused(g, action(g, "buy_train", train="8-1", price=725, exchange="4-0"), "not-owner")
    cnr = g.corporation_by_id("CNR")
    cash = cnr.cash
    act(g, "buy_train", train="8-1", price=725, exchange="5-0")
    assert [t.name for t in cnr.trains] == ["8"] and cnr.cash == cash - 725
    assert g.depot.train_by_id("5-0") in g.depot.discarded


def test_no_trade_in_worth_more_than_the_new_train():
    """A 5+5E counts $750 towards any train: towards a $600 2+2 that would be -$150, which
    the reference cannot pay (it refuses to spend zero or less); an 8 costs $250."""
    g = fixture_game("21268", 828)
    cnr = g.corporation_by_id("CNR")
    big = next(t for t in g.depot.depot_trains() if t.name == "5+5E")
    from trackage.core.money import spend

    spend(g.bank, cnr, big.price)
    g.buy_train(cnr, big, big.price)  # set-up: the CNR owns a 5+5E (and its 5)
    trade_ins = {(a["train"].split("-")[0], a["exchange"]) for a in g.legal_actions()
                 if a["type"] == "buy_train" and "exchange" in a}
    assert ("8", big.id) in trade_ins and ("2+2", big.id) not in trade_ins
    two = next(t for t in g.depot.depot_trains() if t.name == "2+2")
    assert refused_rule(g, "buy_train", train=two.id, price=-150, exchange=big.id) == "no-trade-in"


def test_other_companies_trains_and_privates_at_any_price():
    """A company may buy another company's train, or a private, for any price its cash
    covers: one listed action with the whole range (21268: the THB pays $35 for the
    CPR's 2-train; the NYC $51 for the QB)."""
    g = fixture_game("21268", 404)
    thb = g.current_entity()
    assert thb.id == "THB"
    ranged_trains = {a["train"]: a["price_range"] for a in g.legal_actions()
                     if a["type"] == "buy_train" and "price_range" in a}
    assert ranged_trains["2-9"] == [1, thb.cash]
    g = fixture_game("21268", 522)
    nyc = g.current_entity()
    offers = [a for a in g.legal_actions() if a["type"] == "buy_company"]
    assert len(offers) == len({a["company"] for a in offers})  # once, though two steps could
    qb = next(a for a in offers if a["company"] == "QB")
    assert qb["price_range"] == [1, min(75, nyc.cash)]
    act(g, "buy_company", company="QB", price=51)
    assert g.index.company("QB").owner is nyc


def give_minor(g, minor_id, player_name):
    """Hand a minor's certificate to another player (set-up for a merger between owners)."""
    minor = g.corporation_by_id(minor_id)
    owner = player(g, player_name)
    g.share_market._move_share(minor.presidents_share, owner)
    minor.owner = owner


def refused_rule(g, type_, entity=None, **kw) -> str:
    """The rule a refused action names (for a state set up by hand, which a refusal's
    rebuild from the action list does not keep: call it last)."""
    with pytest.raises(GameError) as err:
        g.process(action(g, type_, entity, **kw))
    return err.value.rule


def drain(g, player_name, down_to):
    from trackage.core.money import spend

    p = player(g, player_name)
    spend(p, g.bank, p.cash - down_to)


def test_merge_needs_a_possible_president(merger_round):
    """CS ($65, S1) and CV ($55, now S2) would form a major at $120; each owner gets 10%,
    so one of them must afford the second 10% (the reference stops the game otherwise)."""
    g = merger_round
    give_minor(g, "CV", "S2")
    drain(g, "S1", 100)  # S2 has $55: neither can pay $120
    assert not [a for a in g.legal_actions() if a["type"] == "merge"]
    assert refused_rule(g, "merge", corporation="CV") == "illegal-merge"


def test_last_possible_president_must_buy(merger_round):
    g = merger_round
    give_minor(g, "CV", "S2")  # S2 cannot pay $120; S1 ($215) can
    act(g, "merge", corporation="CV")
    act(g, "merge", corporation="GWR")
    gwr = g.corporation_by_id("GWR")
    assert gwr.holder_of(gwr.presidents_share) is gwr  # nobody has 20% yet
    s1 = g.current_entity()
    assert s1.name == "S1" and s1.percent_of(gwr) == 10
    assert [a["type"] for a in g.legal_actions()] == ["buy_shares"]
    assert refused_rule(g, "pass") == "merge-needs-president"


def test_post_merger_purchases_keep_the_turn_order(merger_round):
    g = merger_round
    give_minor(g, "CV", "S2")
    from trackage.core.money import spend

    s2 = player(g, "S2")
    spend(g.bank, s2, 200)  # both owners may buy: S1 first
    act(g, "merge", corporation="CV")
    act(g, "merge", corporation="GWR")
    assert g.current_entity().name == "S1"
    assert refused_rule(g, "pass", entity=s2) == "out-of-turn"


def gwr_operates(g):
    """From the merger round fixture: merge CS and CV into the GWR, then play to its turn."""
    act(g, "merge", corporation="CV")
    act(g, "merge", corporation="GWR")
    while g.round.name == "Merger Round":
        act(g, "pass")
    others_until_s1(g)
    gwr = g.corporation_by_id("GWR")
    assert g.current_entity() is gwr and g.round.entities[g.round.entity_index] is gwr
    return gwr


def test_operator_not_nationalised_while_another_major_chooses(merger_round):
    """Quirk nationalise-operator: on 18xx.games the operator, nationalised while another
    trainless major still has to choose, stays the operator of the round and nothing can
    be processed any more. So it may only decline while others wait."""
    g = merger_round
    gwr = gwr_operates(g)
    g.trainless_major = [gwr, g.corporation_by_id("CPR")]
    assert g.current_entity() is gwr
    assert [a["type"] for a in g.legal_actions()] == ["pass"]
    assert refused_rule(g, "choose", choice="nationalize") == "nationalize-operator"


def test_nationalised_operator_ends_its_turn(merger_round):
    g = merger_round
    gwr = gwr_operates(g)
    g.trainless_major = [gwr]
    act(g, "choose", choice="nationalize")
    fresh = g.corporation_by_id("GWR")
    assert fresh is not gwr and not fresh.floated() and not fresh.ipoed
    # the GWR operated last in OR 2.2: its turn and the round are over
    assert (g.round.name, g.round.round_num, g.current_entity().id) == ("Merger Round", 2, "CA")


def test_no_purchase_that_resets_a_major_still_to_choose():
    """Quirk reset-trainless-major: the NO's 8 brings the trainless nationalisations; the NO
    (a minor) closes, the CPR after it is nationalised, the NTR starts, is named trainless and
    is then nationalised by its own train step, all in the one purchase. The reference then
    waits for the NTR's old record to choose and fails every later action (checked on it), so
    the purchase is not listed and refused; as a log import it loads as it came."""
    from trackage.playout import random_playout

    g = random_playout("1867", 4, ["grid_market"], 9005, max_actions=1897)
    no = g.corporation_by_id("NO")
    assert g.current_entity() is no and g.phase.name == "7"
    buys = [a for a in g.legal_actions() if a["type"] == "buy_train"]
    assert buys and all(a["train"] != "8-0" for a in buys)
    eight = {"type": "buy_train", **g.index.ref(no), "train": "8-0", "price": 1000, "variant": "8"}
    refused(g, dict(eight), "trainless-major-reset")
    g.load([{**eight, "id": len(g.actions) + 1}])
    old = g.trainless_major[0]
    assert old.id == "NTR" and old is not g.corporation_by_id("NTR")


def test_graph_answers_survive_a_closure_until_track_is_laid(merger_round):
    """Quirk stale-graph: the reference forgets what its track graph said (e.g. that a
    company cannot place a token) only when a tile or a token is laid."""
    g = merger_round
    cs = g.corporation_by_id("CS")
    answer = g.graph.can_token(cs)
    g.nationalize(g.corporation_by_id("KP"))  # a token leaves the map
    assert g.graph._can_token.get((cs, False)) is answer
    act(g, "pass")  # CS passes the merger
    assert g.graph._can_token.get((cs, False)) is answer


def test_token_removal_keeps_two_hexes():
    """After a merger the major keeps two tokens in two different hexes: with two tokens in
    Toronto's two cities and one elsewhere, removing the one elsewhere is refused (the
    reference checks that even while more tokens must still go)."""
    from trackage.titles.t1867.merger import ReduceTokens

    class NS:  # a bare object, hashed by identity like the engine's
        def __init__(self, **kw):
            self.__dict__.update(kw)

    toronto, hamilton = NS(id="F16"), NS(id="E17")
    major = NS(id="MJ", is_player=False, is_company=False, is_minor=False)
    t1, t2, t3 = (NS(used=True, owner="MJ", owner_kind="corporation", city=NS(hex=h),
                     owned_by=lambda e: e is major) for h in (toronto, toronto, hamilton))
    major.tokens = [t1, t2, t3]
    step = ReduceTokens.__new__(ReduceTokens)
    assert step.leaves_one_hex(major, t3)
    assert not step.leaves_one_hex(major, t1)
    major.tokens = [t1, t2]  # all in one hex already: nothing to keep apart
    assert not step.leaves_one_hex(major, t1)


def test_trains_of_a_nationalised_major_stay_for_sale(merger_round):
    """A major nationalised with trains (unpaid interest) is reset; on 18xx.games its old
    record keeps the trains, other companies may buy them, and the price goes to that
    record, out of play. The game's money is still all accounted for."""
    g = merger_round
    gwr = gwr_operates(g)
    total = g.total_cash()
    g.nationalize(gwr)
    assert g.corporation_by_id("GWR") is not gwr and gwr.trains
    ca = g.corporation_by_id("CA")
    train = gwr.trains[0]
    assert train in g.depot.other_trains(ca)
    cash = ca.cash
    g.buy_train(ca, train, 10)
    assert train.owner is ca and ca.cash == cash - 10 and gwr.cash == 10
    assert g.total_cash() == total


def test_purchase_that_ends_the_buyers_turn_ends_the_next_ones_train_buying(merger_round):
    """When a train purchase ends the buyer's turn inside the action (in phase 8 the buyer, a
    minor, is nationalised), the reference's two "can it buy more?" checks after the purchase
    each pass the train step of the operator that has just started, nationalising it if it
    has no train. Simulated: the purchase hands the turn to the BO, which has no train; the
    first check nationalises it, the second ends the KP's train buying."""
    from trackage.core.money import spend
    from trackage.titles.t1867.steps import BuyTrain1867

    g = merger_round
    act(g, "merge", corporation="CV")
    act(g, "merge", corporation="GWR")
    while g.round.name == "Merger Round":
        act(g, "pass")
    ca = g.current_entity()
    assert ca.id == "CA" and g.round.entities[1].id == "BO"
    spend(g.bank, ca, 400)
    for t in list(g.corporation_by_id("BO").trains):
        remove_train(g, t)
        g.depot.reclaim(t)
    while "buy_train" not in g.round.actions_for(ca):
        act(g, "pass")  # no track, no private
    step = next(s for s in g.round.steps if isinstance(s, BuyTrain1867))
    buy = step.buy

    def buy_and_close(entity, train, price):
        buy(entity, train, price)
        spend(entity, g.bank, entity.cash)
        g.round.force_next_entity()  # as a nationalisation of the buyer does

    step.buy = buy_and_close
    train = g.depot.depot_trains()[0]
    act(g, "buy_train", train=train.id, price=train.price)
    kp = g.corporation_by_id("KP")
    assert g.corporation_by_id("BO").closed
    assert g.round.entities[g.round.entity_index] is kp and kp.trains
    assert step.passed and "buy_train" not in g.round.actions_for(kp)
