"""1822: the shared fixtures against their reference traces (also in live-play mode where the
old logs allow it), set-up with every optional rule, rules the logs do not reach, and bad input
(each refused with a clear GameError, the game left exactly as it was)."""

from __future__ import annotations

import io

import pytest
from conftest import FIXTURES, TRACES
from helpers import game_until, players, refused

from trackage.core.entities import ShareBundle
from trackage.core.errors import GameError
from trackage.core.log import filter_actions, load_log
from trackage.playout import run_one
from trackage.replay import game_from_log, replay_file
from trackage.titles import new_game
from trackage.titles.t1822 import loans, privatelays

NAMES = ["1822_game_end_stock_market", "discard_trains_after_sr_export", "hs_lxemeslq_30797"]


def fixture(name):
    path = FIXTURES / "1822" / f"{name}.json"
    if not path.exists():
        pytest.skip(f"NO FIXTURE: {path} is absent (set TRACKAGE_FIXTURES)")
    return path


def game_of(n=3, rules=(), seed=42):
    return new_game("1822", players(n), list(rules), seed)


def bid(game, player, company, price):
    game.process({"type": "bid", "entity": player.id, "entity_type": "player", "company": company, "price": price})


def pass_(game, entity):
    game.process({"type": "pass", **game.index.ref(entity)})


# ----------------------------------------------------------------- fixtures
@pytest.mark.parametrize("name", NAMES)
def test_fixture_matches_reference_trace(name):
    path = fixture(name)
    trace = io.StringIO()
    out = replay_file(path, trace=trace)
    data = load_log(path)
    assert out.error is None, out.error
    assert out.game.finished and out.game.game_end_reason == data["game_end_reason"]
    assert out.result == {str(k): v for k, v in data["result"].items()}
    ref = TRACES / "1822" / f"{name}.jsonl"
    if ref.exists():
        ours = trace.getvalue().splitlines()
        theirs = ref.read_text().splitlines()
        assert len(ours) == len(theirs)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert a == b, f"line {i + 1} differs:\n ours {a[:300]}\n ref  {b[:300]}"


# routes logged under older rules: the E-train of action 823 runs past its last token, and the
# 2025 log pays the destination bonus once per train type and runs E-trains that do not end on
# tokens. The reference trusts logged revenues, so these are warnings (errors with --strict).
OLD_RULE_ROUTES = {"1822_game_end_stock_market": {1319, 1404, 1499}, "discard_trains_after_sr_export": {823},
                   "hs_lxemeslq_30797": set()}


@pytest.mark.parametrize("name", NAMES)
def test_recomputed_revenues_differ_only_for_old_rule_routes(name):
    out = replay_file(fixture(name))
    assert out.error is None
    flagged = {int(w.split(":")[0].split()[-1]) for w in out.warnings}
    assert flagged == OLD_RULE_ROUTES[name], out.warnings


def test_strict_replay_refuses_an_old_rule_route():
    out = replay_file(fixture("discard_trains_after_sr_export"), strict=True)
    assert out.failed_action is not None and out.failed_action["id"] == 823
    assert "E-train route cannot extend beyond tokened cities" in str(out.error)
    assert replay_file(fixture("hs_lxemeslq_30797"), strict=True).error is None


# ----------------------------------------------------------------- set-up and options
def test_setup_base_game():
    g = game_of(3)
    assert len(g.companies) == 52
    assert [p.cash for p in g.players] == [700, 700, 700] and g.bank.cash == 12_000 - 2100
    assert g.bidbox_minors()[0].sym == "M24" and g.bidbox_concessions()[0].sym == "C1"
    assert g.bidbox_privates()[0].sym == "P1"
    assert len(g.bidbox_minors()) == 4 and len(g.bidbox_concessions()) == 3 and len(g.bidbox_privates()) == 3
    assert g.bidding_tokens == 6 and g.cert_limit() == 26
    assert [c.id for c in g.corporations if c.type == "minor"] == [str(i) for i in range(1, 25)]
    # the private companies' trains are out of the depot
    assert {t.id for t in g.company_trains.values()} == {"2P-0", "2P-1", "5P-0", "P+-0", "P+-1", "LP-0"}
    assert all(t.name in ("L", "3", "4", "5", "6", "7") for t in g.depot.upcoming)


def test_setup_is_seeded():
    a, b, c = game_of(4, seed=7), game_of(4, seed=7), game_of(4, seed=8)
    assert [x.sym for x in a.companies] == [x.sym for x in b.companies]
    assert [x.sym for x in a.companies] != [x.sym for x in c.companies]


def test_plus_expansion_removes_three_privates():
    g = game_of(4, ["plus_expansion"], seed=3)
    privates = [c.sym for c in g.companies if c.sym[0] == "P"]
    assert len(g.companies) == 58 and len(privates) == 18
    removed = {f"P{i}" for i in range(1, 22)} - set(privates)
    box2 = {"P2", "P5", "P8", "P10", "P11", "P12", "P21"}
    box3 = {"P6", "P7", "P9", "P15", "P16", "P17", "P18", "P20"}
    assert len(removed & box2) == 1 and len(removed & box3) == 2 and "P5" not in removed
    assert [c.id for c in g.corporations if c.type == "minor"][-1] == "30"
    box = [c.sym for c in g.bidbox_privates()]
    assert box[0] == "P1" and box[1] in box2 and box[2] in box3


def test_plus_expansion_no_removals_and_single_stack():
    g = game_of(4, ["plus_expansion", "plus_expansion_no_removals"], seed=3)
    assert len([c for c in g.companies if c.sym[0] == "P"]) == 21
    s = game_of(4, ["plus_expansion", "plus_expansion_no_removals", "plus_expansion_single_stack"], seed=3)
    privates = [c for c in s.companies if c.sym[0] == "P"]
    assert s.bidbox_privates() == privates[:3]


def test_unknown_options_are_refused_by_a_new_game_and_ignored_in_a_log():
    with pytest.raises(GameError, match="no optional rule 'not_a_rule'"):
        game_of(3, ["not_a_rule"])
    g = new_game("1822", players(3), ["not_a_rule"], 1, validate=False)
    assert g.optional_rules == []


# ----------------------------------------------------------------- bidding
def test_bids_commit_cash_and_three_bids_end_a_turn():
    g = game_of(3)
    a, b, _c = g.players
    m = g.bidbox_minors()
    bid(g, a, m[0].sym, 100)
    bid(g, a, m[1].sym, 150)
    assert g.current_entity() is a
    bid(g, a, m[2].sym, 450)
    assert g.current_entity() is b  # a's turn ended after three bids
    step = g.round.active_step()
    assert step.committed_cash(a) == 700 and step.available_cash(a) == 0
    assert a.cash == 700  # nothing is paid before the round ends
    assert step.bidding_tokens(a) == 3


def test_bad_bids_are_refused():
    g = game_of(3)
    a, b, _ = g.players
    m0 = g.bidbox_minors()[0].sym
    refused(g, {"type": "bid", "entity": a.id, "entity_type": "player", "company": m0, "price": 95}, "bid-too-low")
    refused(g, {"type": "bid", "entity": a.id, "entity_type": "player", "company": m0, "price": 103}, "bid-increment")
    refused(g, {"type": "bid", "entity": a.id, "entity_type": "player", "company": m0, "price": 800},
            "insufficient-cash")
    hidden = next(c for c in g.companies if c.sym[0] == "M" and c not in g.bidbox_minors())
    refused(g, {"type": "bid", "entity": a.id, "entity_type": "player", "company": hidden.sym, "price": 100},
            "not-for-auction")
    refused(g, {"type": "bid", "entity": a.id, "entity_type": "player", "company": "M99", "price": 100},
            "unknown-entity")
    refused(g, {"type": "bid", "entity": b.id, "entity_type": "player", "company": m0, "price": 100})  # not b's turn
    bid(g, a, m0, 100)
    refused(g, {"type": "bid", "entity": a.id, "entity_type": "player", "company": m0, "price": 105},
            "already-winning")
    refused(g, {"type": "par", "entity": a.id, "entity_type": "player", "corporation": "LNWR",
                "share_price": "100,4,4"}, "no-such-action-now")  # no par in phase 1, none after a bid


def test_bidding_tokens_run_out():
    g = game_of(7)  # 3 tokens each
    p = g.players[0]
    for c in g.bidbox_privates():
        bid(g, p, c.sym, 0)
    for q in g.players[1:]:
        pass_(g, q)
    step = g.round.active_step()
    assert step.bidding_tokens(p) == 0
    refused(g, {"type": "bid", "entity": p.id, "entity_type": "player", "company": g.bidbox_minors()[3].sym,
                "price": 100}, "no-bidding-tokens")


def test_first_stock_round_without_bids_ends_the_game():
    g = game_of(3)
    for p in g.players:
        pass_(g, p)
    assert g.finished and g.game_end_reason == "dnf"


def sr1(g, bids):
    """Play the first stock round: ``bids`` maps player index -> list of (company, price)."""
    for i, p in enumerate(g.players):
        for sym, price in bids.get(i, []):
            bid(g, p, sym, price)
        if g.current_entity() is p:
            pass_(g, p)
    while g.round.is_stock():
        pass_(g, g.current_entity())


def test_stock_round_end_floats_minors_and_sells_items():
    g = game_of(3)
    m, c, pr = g.bidbox_minors(), g.bidbox_concessions(), g.bidbox_privates()
    a, b, _ = g.players
    sr1(g, {0: [(m[1].sym, 100), (c[0].sym, 100)], 1: [(m[2].sym, 160), (pr[0].sym, 20)]})
    assert not g.finished and g.round.is_operating()
    m1, m2 = g.find_corporation(m[1]), g.find_corporation(m[2])
    # phase 1: every minor floats at 50 with 100 in its treasury; the winner pays the bid
    assert m1.share_price.price == 50 and m1.cash == 100 and m2.cash == 100 and m2.owner is b
    # ... and the first operating round has paid the concession's and the private's revenue
    assert a.cash == 700 - 200 + 10 and b.cash == 700 - 160 - 20 + 5
    assert c[0] in a.companies and pr[0] in b.companies
    # minors without a bid remove L trains; the first box minor without a bid closes and exports a train
    assert g.find_corporation(m[0]) is None and m[0].closed and m[0] not in g.companies
    assert g.depot.upcoming[0].id == "L-3"
    # new order by cash at the end of the stock round: c (700), b (520), a (500)
    assert [p.name for p in g.players] == ["P3", "P2", "P1"]
    # minors operate first, highest bid first
    assert g.round.entities[0] is m2


def test_minor_float_price_from_phase_2():
    g = game_of(3)
    g.phase.index = 1
    assert g.minor_float_share_price(130).price == 60  # highest par not above 65
    assert g.minor_float_share_price(500).price == 100
    assert g.minor_float_starting_cash(130, 120) == 120
    g.phase.index = 2
    assert g.minor_float_starting_cash(130, 120) == 130


def test_double_cash_choice_changes_player_order():
    g = game_of(3)
    p9 = g.index.company("P9")
    a, b, c = g.players
    b.cash, c.cash = 600, 650
    p9.owner = a
    a.companies = (*a.companies, p9)
    a.cash = 400
    g.double_cash_choice = a
    g.reorder_players()
    assert [p.name for p in g.players] == ["P1", "P3", "P2"]


# ----------------------------------------------------------------- money rules
def test_player_loans_carry_interest():
    g = game_of(3)
    p = g.players[0]
    loans.player_loan(g, p, 75)
    assert p.cash == 775 and g.player_debt[p] == 113  # 75 + 50% rounded up
    loans.add_interest_player_loans(g)
    assert g.player_debt[p] == 170
    assert g.player_value(p) == 775 - 170
    loans.payoff_player_loan(g, p, 100)
    assert g.player_debt[p] == 70 and p.cash == 675
    loans.payoff_player_loan(g, p)
    assert g.player_debt[p] == 0
    with pytest.raises(GameError):
        loans.payoff_player_loan(g, p)


def test_total_cash_is_conserved_with_pots():
    g = game_of(3)
    total = g.total_cash()
    p15 = g.index.company("P15")
    p15.owner = g.players[0]
    g.players[0].companies = (*g.players[0].companies, p15)
    g.payout_companies()
    assert g.phase_revenue["P15"].cash == 10 and g.players[0].cash == 710
    assert g.total_cash() == total


def test_stock_market_up_at_the_top_moves_down_right():
    g = game_of(3)
    corp = g.corporation_by_id("GWR")
    g.stock_market.set_par(corp, g.stock_market.by_id("550,0,17"))
    g.stock_market.move_up(corp)
    assert corp.share_price.id == "550,1,18"  # down-right keeps the value
    g.stock_market.set_par(corp, g.stock_market.by_id("650,0,19"))
    g.stock_market.move_right(corp)
    assert corp.share_price.id == "700,0,20" and g.stock_market.max_reached


# ----------------------------------------------------------------- operating-round rules on the fixture
def fixture_game_until(name, last_id):
    return game_until(fixture(name), last_id)


def test_l_train_upgrade_and_bad_train_purchases():
    g = fixture_game_until("1822_game_end_stock_market", 235)  # minor 1 may upgrade its L train
    minor = g.current_entity()
    assert minor.id == "1" and [t.name for t in minor.trains] == ["L"]
    refused(g, {"type": "buy_train", "entity": "1", "entity_type": "corporation", "train": "L-1", "price": 70,
                "variant": "2", "exchange": "L-1"}, "wrong-price")
    refused(g, {"type": "buy_train", "entity": "1", "entity_type": "corporation", "train": "3-0", "price": 200},
            "train-not-available")
    g.process({"type": "buy_train", "entity": "1", "entity_type": "corporation", "train": "L-1", "price": 80,
               "variant": "2", "exchange": "L-1"})
    minor = g.corporation_by_id("1")  # a refused action rebuilds the game: fetch objects again
    assert [t.name for t in minor.trains] == ["2"] and g.phase.name == "2"


def test_out_of_turn_and_unknown_actions_are_refused():
    g = fixture_game_until("discard_trains_after_sr_export", 120)
    cur = g.current_entity()
    other = next(c for c in g.corporations if c.floated() and c is not cur)
    refused(g, {"type": "pass", "entity": other.id, "entity_type": "corporation"})
    refused(g, {"type": "lay_tile", **g.index.ref(cur), "hex": "A1", "tile": "57-0", "rotation": 0})
    refused(g, {"type": "dividend", **g.index.ref(cur), "kind": "triple"})
    refused(g, {"type": "merge", **g.index.ref(cur), "corporation": "NER"})


# ----------------------------------------------------------------- random playouts
@pytest.mark.parametrize("seed", [0, 3, 7])
def test_playouts(seed):
    ok, game, _players, _options, _played, _replayed, rep = run_one("1822", seed, 20000)
    assert game.finished and rep.error is None and rep.result == game.result() and ok


def test_p5_places_an_exchange_token_in_the_english_channel():
    g = fixture_game_until("1822_game_end_stock_market", 1258)  # GWR's token step, GWR owns P5
    gwr = g.corporation_by_id("GWR")
    assert g.current_entity() is gwr and gwr.exchange_tokens == 3
    # the Channel still has room: no upgrade needed
    assert privatelays.teleport_ability(g, g.index.company("P5")) is None
    refused(g, {"type": "place_token", "entity": "P5", "entity_type": "company", "city": "M38-0-0", "slot": 0},
            "bad-token")
    g.process({"type": "place_token", "entity": "P5", "entity_type": "company", "city": "P43-0-0", "slot": 0})
    gwr = g.corporation_by_id("GWR")
    assert g.board.tokened_by(g.board.tile(g.board.hex_by_id("P43")).cities[0], gwr)
    assert gwr.exchange_tokens == 2 and g.index.company("P5").closed
    assert g.current_entity() is gwr  # an extra action: GWR may still place its normal token


def test_live_play_accepts_every_logged_action():
    """Connectivity, rotations and token reach checked as in live play, revenues recomputed
    (except for the routes logged under older rules)."""
    for name in ("discard_trains_after_sr_export", "1822_game_end_stock_market"):
        data = load_log(fixture(name))
        game = game_from_log(data)
        for a in filter_actions(data["actions"]):
            game.loading = a.get("id") in OLD_RULE_ROUTES[name]
            game._apply(a)
        assert game.finished and game.result() == {str(k): v for k, v in data["result"].items()}


def test_minor_acquisition_choices_and_refusals():
    g = fixture_game_until("discard_trains_after_sr_export", 238)  # CR may acquire minor 2
    cr = g.corporation_by_id("CR")
    assert g.current_entity() is cr
    refused(g, {"type": "merge", "entity": "CR", "entity_type": "corporation", "corporation": "LNWR"},
            "cannot-acquire")
    refused(g, {"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "money"})
    g.process({"type": "merge", "entity": "CR", "entity_type": "corporation", "corporation": "2"})
    refused(g, {"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "three_shares"},
            "bad-choice")
    g.process({"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "two_shares"})
    refused(g, {"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "remove"}, "bad-choice")
    owner = g.corporation_by_id("2").owner
    before = owner.percent_of(g.corporation_by_id("CR"))
    g.process({"type": "choose", "entity": "CR", "entity_type": "corporation", "choice": "exchange"})
    cr = g.corporation_by_id("CR")
    assert g.corporation_by_id("2") is None  # closed
    assert owner.percent_of(cr) == before + 20 and cr.exchange_tokens == 2


def test_par_with_a_concession():
    g = fixture_game_until("discard_trains_after_sr_export", 129)
    p = g.current_entity()
    assert p.id == 3714 and any(c.sym == "C5" for c in p.companies)
    refused(g, {"type": "par", "entity": 3714, "entity_type": "player", "corporation": "MR",
                "share_price": "60,8,4"}, "not-owner" if False else None)
    refused(g, {"type": "par", "entity": 3714, "entity_type": "player", "corporation": "CR",
                "share_price": "50,9,4"}, "bad-par-price")  # 50 is the minors' phase-1 par
    cash = p.cash
    g.process({"type": "par", "entity": 3714, "entity_type": "player", "corporation": "CR", "share_price": "90,5,4"})
    cr = g.corporation_by_id("CR")
    p = g.index.player(3714)
    # the concession is worth 100 towards the 2 x 90 of the president's certificate
    assert p.cash == cash - 80 and cr.cash == 180 and cr.floated() and p.percent_of(cr) == 20
    assert g.index.company("C5").closed


@pytest.mark.parametrize("multiple", [False, True])
def test_tax_haven(multiple):
    g = game_of(3, ["tax_haven_multiple"] if multiple else [])
    p = g.players[0]
    p16 = g.index.company("P16")
    p16.owner = p
    p.companies = (*p.companies, p16)
    for sym in ("GWR", "CR"):
        corp = g.corporation_by_id(sym)
        g.stock_market.set_par(corp, g.stock_market.by_id("100,4,4"))
        g.share_market.transfer(ShareBundle([corp.shares[0]], corporation=corp), g.players[1])  # a president, for free
    assert g.num_certs(p) == 0  # the tax haven does not count against the limit
    # (state set by hand: a refused action would rebuild the game from its log, so no refusal here)
    assert set(g.company_choices(p16, "stock_round")) == {"GWR_ipo", "CR_ipo"}
    g.process({"type": "choose_ability", "entity": "P16", "entity_type": "company", "choice": "GWR_ipo"})
    p, gwr = g.players[0], g.corporation_by_id("GWR")
    assert p.cash == 600 and gwr.cash == 100 and g.tax_haven.percent_of(gwr) == 10
    assert g.player_value(p) == 600 + 100  # the haven's share counts for its owner
    assert g.current_entity() is not p  # buying through the haven ends the turn
    g.tax_haven.cash = 150  # as if it had collected dividends
    g.bank.cash -= 150
    assert g.company_choices(g.index.company("P16"), "stock_round") == {}  # one purchase per stock round
    g.round.tax_haven_bought = False  # as in the next stock round
    choices = g.company_choices(g.index.company("P16"), "stock_round")
    if multiple:
        assert g.tax_haven_spender(g.index.company("P16")) is g.tax_haven
        assert "CR_ipo" in choices and "GWR_ipo" not in choices  # one share per corporation
    else:
        assert choices == {}


def test_issuing_shares_at_the_reduced_price():
    g = fixture_game_until("1822_game_end_stock_market", 524)  # LYR's issue step
    lyr = g.corporation_by_id("LYR")
    price, cash = lyr.share_price.price, lyr.cash
    assert g.current_entity() is lyr and price == 80
    refused(g, {"type": "sell_shares", "entity": "LYR", "entity_type": "corporation", "shares": ["LYR_0"],
                "percent": 20}, "illegal-issue")
    issue = {"type": "sell_shares", "entity": "LYR", "entity_type": "corporation", "shares": ["LYR_1", "LYR_2"],
             "percent": 20}
    # a new issue names its price, the price after the drop it causes (two rows down from 80: 60)
    assert {**issue, "share_price": 60} in [dict(a.items()) for a in g.legal_actions()]
    refused(g, issue, "issue-price")
    refused(g, {**issue, "share_price": 80}, "issue-price")
    g.process({**issue, "share_price": 60})
    lyr = g.corporation_by_id("LYR")
    assert lyr.cash == cash + 2 * 60 and lyr.share_price.price == 60 and g.pool.percent_of(lyr) == 20


def test_an_old_issue_without_a_price_is_paid_at_the_market_price():
    # the reference sells at the action's share_price, or at the full market price without one
    g = fixture_game_until("1822_game_end_stock_market", 524)
    lyr = g.corporation_by_id("LYR")
    cash = lyr.cash
    g.loading = True
    g.process({"type": "sell_shares", "entity": "LYR", "entity_type": "corporation", "shares": ["LYR_1", "LYR_2"],
               "percent": 20})
    lyr = g.corporation_by_id("LYR")
    assert lyr.cash == cash + 2 * 80 and lyr.share_price.price == 60


def test_redeeming_shares_from_the_market():
    g = fixture_game_until("1822_game_end_stock_market", 656)
    cr = g.corporation_by_id("CR")
    cash, bank = cr.cash, g.bank.cash
    refused(g, {"type": "buy_shares", "entity": "CR", "entity_type": "corporation", "shares": ["CR_0"],
                "percent": 20}, "illegal-redeem")
    g.process({"type": "buy_shares", "entity": "CR", "entity_type": "corporation", "shares": ["CR_3"], "percent": 10})
    cr = g.corporation_by_id("CR")
    assert cr.cash == cash - cr.share_price.price and g.bank.cash == bank + cr.share_price.price
    assert cr.holder_of(g.index.share("CR_3")) is cr


def test_choices_round_refuses_a_bad_choice():
    g = fixture_game_until("discard_trains_after_sr_export", 107)  # the P9 owner's choice
    assert g.round.name == "Choose"
    p = g.current_entity()
    refused(g, {"type": "choose", "entity": p.id, "entity_type": "player", "choice": "triple"}, "bad-choice")
    other = next(x for x in g.players if x.id != p.id)
    refused(g, {"type": "choose", "entity": other.id, "entity_type": "player", "choice": "double"})
    g.process({"type": "choose", "entity": p.id, "entity_type": "player", "choice": "double"})
    assert g.round.is_operating() and g.players[0].id == p.id


def test_minor_14_home_in_london():
    g = game_of(3, seed=5)
    assert "M14" in [c.sym for c in g.bidbox_minors()]
    bid(g, g.players[0], "M14", 100)
    while g.round.is_stock():
        pass_(g, g.current_entity())
    m14 = g.corporation_by_id("14")
    assert g.current_entity() is m14 and g.round.pending_tokens  # it chooses its London city
    refused(g, {"type": "place_token", "entity": "14", "entity_type": "corporation", "city": "E6-0-0", "slot": 0},
            "bad-home-token")
    g.process({"type": "place_token", "entity": "14", "entity_type": "corporation", "city": "M38-0-3", "slot": 0})
    m14, city = g.corporation_by_id("14"), g.board.city_by_id("M38-0-3")
    assert g.board.tokened_by(city, m14) and g.board.slots(city) == 2  # an extra slot: LNWR keeps its reserved one
    assert m14.cash == 80  # the London token costs 20
    assert g.minor_14_city_exit == 3 and g.m14_rights_hex == "M36"
    pass_(g, m14)  # no L train
    # placing the home token was its track lay: straight on to routes (none without a train) and trains
    assert not any(type(s).__name__ == "Track1822" and s.active() and s.blocking() for s in g.round.steps)


def test_company_tile_lays():
    g = fixture_game_until("1822_game_end_stock_market", 468)  # minor 21 has laid; it owns P12
    lay = {"type": "lay_tile", "entity": "P12", "entity_type": "company", "hex": "K30", "tile": "6-4", "rotation": 0}
    refused(g, {**lay, "combo_entities": ["P2"]}, "bad-combo")  # P2 is not 21's
    refused(g, {**lay, "entity": "P2"})  # not the operator's company
    refused(g, {**lay, "tile": "405-0"})  # a minor's extra lay cannot be a green T tile here
    g.process(lay)
    assert g.index.company("P12").closed  # a minor uses both of P12's lays at once
    assert g.board.tile(g.board.hex_by_id("K30")).name == "6"
