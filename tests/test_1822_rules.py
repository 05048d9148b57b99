"""1822 rules fixed against the reference (random games played here and replayed there): each
test sets up a position from a shared fixture (skipped when the fixtures are absent), adjusts
it by hand where needed, and checks the outcome of the rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import refused
from test_1822 import fixture_game_until, game_of

from trackage import playthrough as pt
from trackage.core.errors import GameError
from trackage.core.state import full_state
from trackage.playout import random_playout

GAME_END = "1822_game_end_stock_market"
DISCARD = "discard_trains_after_sr_export"
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"


def move(game, share, to):
    game.share_market._move_share(share, to)


def lnwr_with_the_tax_haven(other_percent: int):
    """SR, Player 4 (7088) to act: president of LNWR with only its 10% president's share, the tax
    haven holding 10% and Player 3 (13911) ``other_percent``."""
    g = fixture_game_until(GAME_END, 774)
    p, other = g.index.player(7088), g.index.player(13911)
    lnwr = g.corporation_by_id("LNWR")
    shares = {s.id: s for s in lnwr.shares}
    move(g, shares["LNWR_0"], p)
    move(g, shares["LNWR_1"], g.tax_haven)
    for i in range(2, 2 + other_percent // 10):
        move(g, shares[f"LNWR_{i}"], other)
    for i in range(2 + other_percent // 10, 7):
        move(g, shares[f"LNWR_{i}"], g.pool)
    lnwr.owner = p
    assert g.current_entity() is p
    return g, p, lnwr


def sale(player, shares, percent):
    return {"type": "sell_shares", "entity": player.id, "entity_type": "player", "shares": shares, "percent": percent}


def listed(game, action) -> bool:
    keys = set(action)
    return any({k: a.get(k) for k in keys} == action for a in game.legal_actions())


@pytest.mark.parametrize("other_percent", [0, 10])
def test_a_sale_making_the_tax_haven_a_presidency_candidate_is_refused(other_percent):
    # the tax haven holds its share like a player: it allows the president's certificate to go,
    # but the reference crashes looking for the next president when the haven is a candidate
    g, p, _lnwr = lnwr_with_the_tax_haven(other_percent)
    action = sale(p, ["LNWR_0"], 10)
    assert "sell_shares" in g.round.active_step().actions(p) and not listed(g, action)
    with pytest.raises(GameError) as err:
        g.process(action)
    assert err.value.rule == "tax-haven-presidency"


def test_a_sale_handing_the_presidency_to_a_player_ahead_of_the_tax_haven():
    g, p, lnwr = lnwr_with_the_tax_haven(20)
    action = sale(p, ["LNWR_0"], 10)
    assert listed(g, action)
    g.process(action)
    lnwr, other = g.corporation_by_id("LNWR"), g.index.player(13911)
    assert lnwr.owner is other and lnwr.holder_of(g.index.share("LNWR_0")) is other


def test_issue_price_is_offered_and_written():
    g = fixture_game_until(GAME_END, 524)
    issues = [a for a in g.legal_actions() if a["type"] == "sell_shares"]
    assert issues and all(a["entity"] == "LYR" and "share_price" in a for a in issues)
    by_n = {len(a["shares"]): a["share_price"] for a in issues}
    assert by_n[1] == 70 and by_n[2] == 60  # one or two rows down from 80


def test_hill_discount_by_hex_comes_off_the_whole_lay():
    # CR takes P8's continuous discount instead of its free lay
    g = fixture_game_until(GAME_END, 898)
    g.process({"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "discount"})
    lays = {a["hex"]: a for a in g.legal_actions() if a["type"] == "lay_tile" and a["entity"] == "CR"}
    for hex_id, terrain_cost, paid in (("H15", 60, 40),  # a hill listed by P8: 20 off
                                       ("G14", 40, 40),  # rough terrain, not listed: full price
                                       ("I14", 80, 60)):  # a mountain: 20 off by terrain
        h = fixture_game_until(GAME_END, 898)
        h.process({"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "discount"})
        assert sum(u.cost for u in h.board.tile(h.board.hex_by_id(hex_id)).upgrades) == terrain_cost
        cash = h.corporation_by_id("CR").cash
        h.process(lays[hex_id])
        assert cash - h.corporation_by_id("CR").cash == paid, hex_id


def test_p12_lays_two_yellow_tiles_for_a_major():
    g = fixture_game_until(DISCARD, 491)  # LBSCR has laid; P12 may add its lays
    p12 = g.index.company("P12")
    assert p12.owner.id == "LBSCR" and p12.abilities[0]["count"] == 2

    def yellow_lays():
        return [a for a in g.legal_actions() if a["entity"] == "P12" and a["type"] == "lay_tile"
                and g.board.tile_by_id(a["tile"]).color == "yellow"]

    first = yellow_lays()
    assert first
    g.process(first[0])
    assert not g.index.company("P12").closed
    second = yellow_lays()
    assert second and all(a["hex"] != first[0]["hex"] for a in second)
    g.process(second[0])
    assert g.index.company("P12").closed


def test_bids_may_go_up_to_the_available_cash():
    g = fixture_game_until(DISCARD, 567)
    p = g.current_entity()
    step = g.round.active_step()
    bids = [a for a in g.legal_actions() if a["type"] == "bid"]
    assert bids and all(a["price_range"][1] == step.available_cash(p) - (step.available_cash(p) - a["price"]) % 5
                        for a in bids)
    target = next(a for a in bids if a["company"] == "M8")
    g.process({**{k: v for k, v in target.items() if k not in ("price_range", "price_step", "canonical_prices")},
               "price": 1205})  # the logged bid
    assert g.round.highest_bid(g.index.company("M8"))[1] == 1205


def test_emergency_purchase_needs_the_sales_first_then_reorders_the_round():
    g = fixture_game_until(GAME_END, 1210)  # minor 17 has no train and no cash
    minor = g.current_entity()
    p = minor.owner
    assert minor.id == "17" and minor.cash == 0 and p.cash == 500
    buy = {"type": "buy_train", "entity": "17", "entity_type": "corporation", "train": "7-0", "price": 750,
           "variant": "7"}
    assert not listed(g, buy)  # the president still has shares to sell
    refused(g, buy, "must-sell-first")
    # the president borrows only when nothing is left to sell; the sale (CR) re-sorts the rest of
    # the round: put CR just ahead of NBR on NBR's cell, the sale drops it behind NBR
    cr, nbr = g.corporation_by_id("CR"), g.corporation_by_id("NBR")
    market = g.stock_market
    market.remove(cr)
    sp = nbr.share_price
    market.cells = {**market.cells, sp: (cr,) + market.corporations_at(sp)}
    cr.share_price = sp
    order = [e.id for e in g.round.entities]
    assert order.index("CR") < order.index("NBR")
    g.process({"type": "sell_shares", "entity": 7088, "entity_type": "player", "shares": ["CR_5"], "percent": 10})
    order = [e.id for e in g.round.entities]
    assert order.index("NBR") < order.index("CR")
    assert listed(g, buy)
    g.process(buy)
    assert [t.name for t in g.corporation_by_id("17").trains] == ["7"]


# Random 4-player game, seed 5548 (kept as a playthrough the reference confirmed): at 715 minor 9
# (no cash, no train) must buy; its president (Player 1, 175) has sold LNWR_8 and LNWR_7 and
# keeps only LNWR_0, LNWR's 10% president's share, with the tax haven holding 10%. The reference
# counts that share as sellable, so it refuses the loan for the 5P (500), and selling it makes the
# tax haven a candidate for LNWR's presidency, where it crashes; minor 9 cannot buy another
# company's train with no cash: no action is left there (each checked with the reference).
DEAD_END = pt.Entry("1822", 5548, 4, ())
DEAD_END_AT = 714  # the reference's last accepted action


def test_no_loan_while_a_sale_is_left_even_one_the_reference_cannot_make():
    log, lines = pt.read(PLAYTHROUGHS, DEAD_END)
    assert len(log["actions"]) == len(lines) == DEAD_END_AT
    got, outcome = pt.trace_of(log)
    assert outcome.error is None and not outcome.finished
    assert pt.first_difference(lines, got) is None, pt.first_difference(lines, got)
    assert lines[-1]["cash"]["1"] == 175 and lines[-1]["corps"]["9"]["cash"] == 0
    assert lines[-1]["corps"]["LNWR"]["shares"] == {"1": 10}
    game = pt.play(DEAD_END, max_actions=DEAD_END_AT)
    assert pt.log_of(game)["actions"] == log["actions"]
    minor, p = game.current_entity(), game.index.player(1)
    assert minor.id == "9" and minor.cash == 0 and not minor.trains
    step = game.round.active_step()
    [bundle] = step.sellable_bundles(p)  # LNWR's president's share, the tax haven behind it
    assert [s.id for s in bundle.shares] == ["LNWR_0"] and game.tax_haven_would_be_president(bundle)
    assert step.sellable(p)
    assert game.legal_actions() == []
    before = full_state(game)
    refused(game, {"type": "buy_train", "entity": "9", "entity_type": "corporation", "train": "5P-0",
                   "price": 500, "variant": "5P"}, "must-sell-first")
    refused(game, sale(p, ["LNWR_0"], 10), "tax-haven-presidency")
    assert full_state(game) == before
    with pytest.raises(GameError, match=r"no legal action"):
        random_playout("1822", 4, [], 5548)


def test_a_president_only_helps_with_the_cheapest_train_by_name():
    g = fixture_game_until(GAME_END, 1210)
    step = g.round.active_step()
    train = g.depot.train_by_id("7-0")
    assert step.cheapest_names() == ["7"]
    g.index.player(7088).cash += 2000  # enough for anything
    g.bank.cash -= 2000
    with pytest.raises(GameError) as err:  # the E variant is not the cheapest one
        g.process({"type": "buy_train", "entity": "17", "entity_type": "corporation", "train": train.id,
                   "price": 1000, "variant": "E"})
    assert err.value.rule == "not-cheapest-train"


def test_trains_from_other_companies_cost_at_most_the_buyers_cash():
    g = fixture_game_until(GAME_END, 889)
    corp = g.current_entity()
    others = [a for a in g.legal_actions() if a["type"] == "buy_train" and "price_range" in a]
    if not others:
        pytest.skip("no train of another company on offer here")
    a = others[0]
    assert a["price_range"] == [1, corp.cash]
    base = {k: v for k, v in a.items() if k not in ("price_range", "price_step", "canonical_prices")}
    refused(g, {**base, "price": corp.cash + 1}, "wrong-price")
    refused(g, {**base, "price": 0}, "wrong-price")


def test_a_first_turn_minor_without_cash_for_an_l_train_still_stops_to_pass():
    g = game_of(3)
    step_cls = __import__("trackage.titles.t1822.steps", fromlist=["FirstTurnHousekeeping"]).FirstTurnHousekeeping
    step = step_cls(g, g.round)
    minor = next(c for c in g.corporations if c.type == "minor")
    step.current_entity = lambda: minor  # as in the minor's first operating turn
    minor.cash = 30
    assert step.actions(minor) == []  # nothing to buy for 30: no depot train, no other company's train
    other = next(c for c in g.corporations if c.type == "minor" and c is not minor)
    t = g.depot.upcoming[1]
    g.depot.remove_train(t)
    t.owner = other
    other.trains = (*other.trains, t)
    # the reference's test counts another company's train at 1, whatever the phase
    assert step.actions(minor) == ["buy_train", "pass"]
    assert step.legal_actions(minor) == [{"type": "pass"}]


def test_a_pullman_on_a_permanent_2_train_does_not_crowd_the_company():
    g = fixture_game_until(GAME_END, 1005)  # LYR (LP, 3, 4, P+; limit 2) may attach its pullman
    lyr = g.current_entity()
    lp = next(t for t in lyr.trains if t.name == "LP")
    two = g.company_trains.get("P3") or g.company_trains["P4"]
    lyr.trains = tuple(two if t is lp else t for t in lyr.trains)  # a permanent 2P in place of the LP
    two.owner, lp.owner = lyr, None
    two.operated = False  # CR ran it this round; here it stands for a 2P of LYR's own, not yet run
    assert not g.crowded_corp(lyr)
    g.process({"type": "choose", "entity": "LYR", "entity_type": "corporation", "choice": "0"})
    lyr = g.corporation_by_id("LYR")
    assert two.name == "2P+" and not g.crowded_corp(lyr)
    assert type(g.round.active_step()).__name__ == "Route1822"
    route = next(a for a in g.legal_actions() if a["type"] == "run_routes")
    g.process(route)
    assert two.name == "2P"


def test_minor_14_replacement_token_needs_the_money():
    # LNWR reaches London; minor 14 taken from the bank for 200: its London token then costs 20
    g = fixture_game_until(GAME_END, 1019)
    lnwr = g.current_entity()
    assert lnwr.id == "LNWR" and lnwr.exchange_tokens > 0
    step = next(s for s in g.round.steps if type(s).__name__ == "MinorAcquisition")
    step.minor = g.corporation_by_id("14")
    step.minor.owner = None  # as if still in the bid box
    lnwr.cash = 219
    assert step.token_choices(lnwr) == ["exchange"]  # 19 left: the token could not be paid
    lnwr.cash = 220
    assert step.token_choices(lnwr) == ["replace", "exchange"]


def test_p5_token_for_secr_uses_up_secrs_own_channel_ability():
    # the reference places P5's token through the owner's matching token ability (SECR's free
    # English Channel token), which is then gone
    g = fixture_game_until(GAME_END, 1390)  # SECR's token step; give it P5 by hand
    secr = g.current_entity()
    p5 = g.index.company("P5")
    if p5.owner is not None and p5 in getattr(p5.owner, "companies", []):
        p5.owner.companies = tuple(c for c in p5.owner.companies if c is not p5)
    p5.owner, p5.closed = secr, False
    secr.companies = (*secr.companies, p5)
    assert g.secr_token_ability(secr)
    g.process({"type": "place_token", "entity": "P5", "entity_type": "company", "city": "P43-0-0", "slot": 0})
    secr = g.corporation_by_id("SECR")
    assert g.board.tokened_by(g.board.tile(g.board.hex_by_id("P43")).cities[0], secr) and not g.secr_token_ability(secr)


def test_combined_company_lays_are_offered():
    # LBSCR owns P12; given P2 too, the two may lay together (the reference's combo_entities)
    g = fixture_game_until(DISCARD, 491)
    corp = g.current_entity()
    p2 = g.index.company("P2")
    if p2.owner is not None and p2 in getattr(p2.owner, "companies", []):
        p2.owner.companies = tuple(c for c in p2.owner.companies if c is not p2)
    p2.owner, p2.closed = corp, False
    corp.companies = (*corp.companies, p2)
    combos = [a for a in g.legal_actions() if a.get("combo_entities")]
    assert combos and {a["entity"] for a in combos} <= {"P2", "P12"}
    p2_with_p12 = next(a for a in combos if a["entity"] == "P2" and a["combo_entities"] == ["P12"])
    old = g.board.tile(g.board.hex_by_id(p2_with_p12["hex"]))
    assert len(old.towns) == 1  # P2 lays on a hex with one small station ...
    g.process(p2_with_p12)
    new = g.board.tile(g.board.hex_by_id(p2_with_p12["hex"]))
    assert not new.towns  # ... and takes the station away
    assert g.index.company("P2").closed
