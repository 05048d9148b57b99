"""1893: the shared fixture against its reference trace, the optional rules, and bad input
(each refused with a clear GameError, the game left exactly as it was)."""

from __future__ import annotations

import io

import pytest
from conftest import FIXTURES, TRACES
from helpers import act, game_until, refused

from trackage.core.errors import GameError
from trackage.core.log import load_log
from trackage.core.money import spend
from trackage.replay import replay_file
from trackage.titles import new_game

FIXTURE = FIXTURES / "1893" / "1893_game_end_bank.json"
TRACE = TRACES / "1893" / "1893_game_end_bank.jsonl"
needs_fixture = pytest.mark.skipif(not FIXTURE.exists(),
                                   reason=f"NO FIXTURE: {FIXTURE} is absent (set TRACKAGE_FIXTURES)")


# ----------------------------------------------------------------- fixture
@needs_fixture
def test_fixture_matches_reference_trace():
    trace = io.StringIO()
    out = replay_file(FIXTURE, trace=trace)
    assert out.error is None, out.error
    assert out.game.finished and out.game.game_end_reason == "bank"
    assert out.result == {str(k): v for k, v in load_log(FIXTURE)["result"].items()}
    assert out.warnings == []
    if TRACE.exists():
        ours = trace.getvalue().splitlines()
        theirs = TRACE.read_text().splitlines()
        assert len(ours) == len(theirs)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert a == b, f"line {i + 1} differs:\n ours {a[:300]}\n ref  {b[:300]}"


def fixture_game_until(last_id: int):
    return game_until(FIXTURE, last_id)


@needs_fixture
def test_vote_by_a_player_without_a_say():
    game = fixture_game_until(54)  # the first merger round: the AGV is offered
    assert game.round.offering == [game.agv]
    assert [p.id for p in game.round.voters] == [18536, 16856]
    err = refused(game, {"type": "special_buy", "entity": 45, "entity_type": "player", "description": "yes",
                         "cost": 0}, "no-say-in-merger")
    assert "no vote" in err.message
    # a voter with a say, out of turn
    refused(game, {"type": "special_buy", "entity": 16856, "entity_type": "player", "description": "yes",
                   "cost": 0}, "out-of-turn")
    refused(game, {"type": "special_buy", "entity": 18536, "entity_type": "player", "description": "maybe",
                   "cost": 0}, "bad-vote")


@needs_fixture
def test_selling_shares_of_a_company_that_has_not_operated():
    game = fixture_game_until(64)  # SR 2: the RSE was parred this round and has not operated
    p = game.index.player(18536)
    assert game.current_entity() is p and game.turn == 2
    refused(game, {"type": "sell_shares", "entity": 18536, "entity_type": "player", "shares": ["RSE_1"],
                   "percent": 10}, "no-sale-before-operating")


# ----------------------------------------------------------------- scripted games
DRAFT_2P = [("A", "EKB", 210), ("B", "KFBE", 200), ("A", "FdSD", 180), ("B", "EVA", 150), ("A", "KSZ", 100),
            ("B", "HdSK", 100), ("A", "KBE", 220)]


def two_player_game():
    """Draft, then B starts the RSE at 70 and A and B buy until it floats at 50%."""
    g = new_game("1893", [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}])
    for who, company, price in DRAFT_2P:
        act(g, "bid", who, company=company, price=price)
    assert g.round.name == "Stock Round" and g.current_entity().name == "B"
    act(g, "par", "B", corporation="RSE", share_price="70,4,2")
    return g


def test_draft_and_float():
    g = two_player_game()
    a, b = g.index.player(1), g.index.player(2)
    assert (a.cash, b.cash) == (190, 450 - 140)
    assert [c.sym for c in a.companies] == ["EKB", "FdSD", "KSZ", "KBE"]
    assert g.index.minor("KBE").cash == 220 and g.index.minor("KBE").owner is a
    assert g.pool.percent_of(g.corporation_by_id("RSE")) == 80  # the rest goes to the market
    act(g, "buy_shares", "A", shares=["RSE_1"], percent=10)
    act(g, "buy_company", "B", company="BKB", price=180)
    act(g, "buy_shares", "A", shares=["RSE_2"], percent=10)
    rse = g.corporation_by_id("RSE")
    assert not rse.floated()
    act(g, "buy_shares", "B", shares=["RSE_3"], percent=10)
    assert rse.floated() and rse.cash == 700


def test_no_selling_in_the_first_stock_round():
    g = two_player_game()
    act(g, "buy_shares", "A", shares=["RSE_1"], percent=10)
    refused(g, {"type": "sell_shares", "entity": 2, "entity_type": "player", "shares": ["RSE_2"], "percent": 10},
            "no-sale-first-stock-round")  # B holds no RSE_2 yet: the round rule is named first
    act(g, "buy_shares", "B", shares=["RSE_2"], percent=10)
    refused(g, {"type": "sell_shares", "entity": 1, "entity_type": "player", "shares": ["RSE_1"], "percent": 10},
            "no-sale-first-stock-round")


STANDARD_SR = [("A", "RSE_1"), ("B", "BKB"), ("A", "RSE_2"), ("B", "RSE_3")]


def first_operating_round(stop_at=None, sr=STANDARD_SR):
    """The two-player game through SR 1 (``sr``: (player, share or company)) and its minors'
    first turns (the 2-trains below), up to the RSE's turn (or ``stop_at``)."""
    g = two_player_game()
    for who, thing in sr:
        if "_" in thing:
            act(g, "buy_shares", who, shares=[thing], percent=10)
        else:
            act(g, "buy_company", who, company=thing, price=g.index.company(thing).value)
    while g.round.name == "Stock Round":
        act(g, "pass")
    minors = [e.id for e in g.round.entities if e.id != "RSE"]
    assert minors in (["EKB", "KFBE", "KSZ", "KBE", "BKB"], ["EKB", "KFBE", "KSZ", "KBE"])
    trains = {"EKB": ["2-0", "2-1"], "KFBE": ["2-2", "2-3"], "KBE": ["2-4"]}
    for minor in minors:
        trains_ = trains.get(minor, [])
        if minor == stop_at:
            return g
        act(g, "pass", minor)  # no track
        for t in trains_:
            act(g, "buy_train", minor, train=t, price=80)
        if g.current_entity().id == minor:
            act(g, "pass", minor)
    assert g.current_entity().id == "RSE"
    return g


def test_illegal_rhine_crossing():
    g = first_operating_round()
    assert g.phase.name == "2"
    # S6 (Bonn) is a closed passage in phase 2: its water edge faces Beuel (R7)
    refused(g, {"type": "lay_tile", "entity": "RSE", "entity_type": "corporation", "hex": "S6", "tile": "K57-0",
                "rotation": 1}, "rhine-impassable")
    # N5 stays blocked until the first 3-train
    refused(g, {"type": "lay_tile", "entity": "RSE", "entity_type": "corporation", "hex": "N5", "tile": "9-0",
                "rotation": 1}, "tile-blocked")
    act(g, "lay_tile", "RSE", hex="R7", tile="57-0", rotation=0)
    assert g.board.tile(g.board.hex_by_id("R7")).name == "57"


def test_second_trade_in_in_one_turn():
    g = first_operating_round()
    act(g, "pass", "RSE")  # no track
    act(g, "buy_train", "RSE", train="2-5", price=80)
    act(g, "buy_train", "RSE", train="2-6", price=80)
    assert g.phase.name == "2"
    act(g, "buy_train", "RSE", train="3-0", price=140, variant="3", exchange="2-5")  # half of 80 off
    rse = g.corporation_by_id("RSE")
    assert g.phase.name == "3" and rse.cash == 700 - 160 - 140
    assert sorted(t.name for t in rse.trains) == ["2", "3"]
    assert g.depot.train_by_id("2-5") in g.depot.discarded
    refused(g, {"type": "buy_train", "entity": "RSE", "entity_type": "corporation", "train": "3-1", "price": 140,
                "variant": "3", "exchange": "2-6"}, "one-trade-in-per-turn")
    refused(g, {"type": "buy_train", "entity": "RSE", "entity_type": "corporation", "train": "3-1", "price": 100,
                "variant": "3", "exchange": ["2-6", "3-0"]}, "malformed-action")  # one train: the schema
    rse = g.corporation_by_id("RSE")  # the refusal rebuilt the game: fresh objects
    assert g.round.exchanged_by == [rse]
    refused(g, {"type": "buy_train", "entity": "RSE", "entity_type": "corporation", "train": "3-1", "price": 150,
                "variant": "3"}, "wrong-price")
    act(g, "buy_train", "RSE", train="3-1", price=180, variant="3")
    rse = g.corporation_by_id("RSE")
    assert rse.cash == 400 - 180 and len(rse.trains) == 3


def test_minor_owner_pays_missing_money_for_first_train():
    g = first_operating_round(stop_at="KSZ")
    ksz, owner = g.index.minor("KSZ"), g.index.player(1)
    # what-if on a throwaway game: the trainless KSZ has only 20M left of its treasury
    spend(ksz, g.bank, 80)
    cash = owner.cash
    act(g, "pass", "KSZ")  # no track
    act(g, "buy_train", "KSZ", train="2-4", price=80)
    assert ksz.cash == 0 and owner.cash == cash - 60 and [t.id for t in ksz.trains] == ["2-4"]


# ----------------------------------------------------------------- options
@pytest.mark.parametrize("rules,twos", [([], 7), (["optional_2_train"], 8)])
def test_eighth_2_train(rules, twos):
    g = new_game("1893", [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}, {"id": 3, "name": "C"}], rules)
    assert sum(1 for t in g.depot.trains if t.name == "2") == twos


def test_grey_phase_and_existing_track():
    players = [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}]
    base = new_game("1893", players)
    names = {t.name for t in base.board.supply_tiles()}
    assert {"K201", "K269", "K255"} <= names and not names & {"KV201", "KV259", "KV619", "KV63"}
    assert base.board.tile(base.board.hex_by_id("D7")).color == "white"
    g = new_game("1893", players, ["optional_grey_phase", "optional_existing_track"])
    names = {t.name for t in g.board.supply_tiles()}
    assert {"KV201", "KV269", "KV255", "KV333", "KV259", "KV619", "KV63"} <= names
    assert not names & {"K201", "K269", "K255"}
    b = g.board
    assert b.tile(b.hex_by_id("D7")).color == "yellow" and b.tile(b.hex_by_id("E2")).color == "yellow"
    assert g.optional_rules == ["optional_grey_phase", "optional_existing_track"]


def test_player_counts():
    for n, cash, limit in ((2, 900, 18), (3, 600, 12), (4, 450, 9)):
        g = new_game("1893", [{"id": i, "name": f"P{i}"} for i in range(n)])
        assert all(p.cash == cash for p in g.players) and g.cert_limit() == limit
        assert g.bank.cash == 7200 - n * cash
    with pytest.raises(GameError):
        new_game("1893", [{"id": i, "name": f"P{i}"} for i in range(5)])


# ----------------------------------------------------------------- starting package leftovers
@needs_fixture
def test_forced_auction_lowers_the_price_then_forces_the_purchase():
    game = fixture_game_until(55)  # HdSK is left: an auction before SR 2
    assert game.round.name == "Draft Round" and [p.id for p in game.players] == [18536, 45, 16856]
    act(game, "bid", 18536, company="HdSK", price=100)  # 18536 offers it
    step = game.round.steps[0]
    # 45 (80M) cannot pay 100M and is passed over
    assert game.current_entity().id == 16856
    act(game, "pass", 16856)
    act(game, "pass", 18536)
    assert step.min_bid(step.auctioning) == 90 and game.current_entity().id == 16856
    prices = []
    while game.round.name == "Draft Round":
        prices.append(step.min_bid(step.auctioning))
        act(game, "pass", game.current_entity().id)
    assert prices[-1] == 50 and 80 in prices  # down to half its value
    p = game.index.player(18536)
    assert game.index.company("HdSK").owner is p and p.cash == 155 - 50  # the one who offered it buys
    assert game.round.name == "Stock Round" and game.turn == 2


@needs_fixture
def test_rag_par_paid_with_fdsd():
    game = fixture_game_until(165)
    act(game, "pass", 16856)
    act(game, "pass", 18536)
    p = game.index.player(45)
    cash = p.cash
    act(game, "par", 45, corporation="RAG", share_price="100,1,3")
    assert game.round.actions_for(p) == ["assign", "pass"]  # exchange FdSD for the 200M, or pay
    act(game, "assign", 45, target="FdSD", target_type="company")  # the reference needs the target
    rag = game.corporation_by_id("RAG")
    assert p.cash == cash and game.index.company("FdSD").closed
    assert rag.owner is p and p.percent_of(rag) == 20 and game.pool.percent_of(rag) == 80


# ----------------------------------------------------------------- random play
@pytest.mark.parametrize("seed", [3, 20])
def test_random_games_keep_invariants_and_replay(seed):
    from trackage.export import game_to_log
    from trackage.invariants import check
    from trackage.playout import random_playout
    from trackage.replay import replay_data

    start = {}

    def on_action(game, action):
        start.setdefault("cash", game.total_cash())
        check(game, start["cash"], action)

    rules = [[], ["optional_2_train"], ["optional_grey_phase", "optional_existing_track"]][seed % 3]
    game = random_playout("1893", 2 + seed % 3, rules, seed, max_actions=4000, on_action=on_action)
    assert game.finished and game.game_end_reason in ("bank", "bankrupt")
    out = replay_data(game_to_log(game))
    assert out.error is None and out.result == game.result()


# ----------------------------------------------------------------- compulsory train
def compulsory_purchase(corp_cash: int, president_cash: int):
    """RSE (president B, 40%; A 20%; market 40%) must buy a train; what-if on a throwaway game:
    its treasury and B's cash are cut to the given figures first (the money goes to the bank)."""
    g = first_operating_round(sr=[("A", "RSE_1"), ("B", "RSE_2"), ("A", "RSE_3"), ("B", "RSE_4")])
    rse, b = g.corporation_by_id("RSE"), g.index.player(2)
    for holder, target in ((rse, corp_cash), (b, president_cash)):
        if holder.cash > target:
            spend(holder, g.bank, holder.cash - target)
    act(g, "lay_tile", "RSE", hex="R7", tile="57-0", rotation=0)  # Beuel-Troisdorf: a route, so a train is due
    assert g.current_entity() is rse and "pass" not in g.round.actions_for(rse)
    return g, rse, b


def test_president_pays_what_the_company_lacks():
    g, rse, b = compulsory_purchase(50, 30)
    act(g, "buy_train", "RSE", train="2-5", price=80, variant="2")
    # B paid 30M; the RSE's turn then ends and OR 1.2 pays B's EVA and HdSK (40M)
    assert g.round.round_num == 2
    assert (rse.cash, b.cash, [t.id for t in rse.trains]) == (0, 0 + 40, ["2-5"])


def test_president_sells_shares_then_pays():
    g, rse, b = compulsory_purchase(0, 20)
    assert rse.share_price.price == 65  # it ran nothing: one step left
    # never more than needed (one 10% certificate), never the presidency of the buying company
    offers = g.legal_actions(b)
    assert [(a["type"], a["percent"]) for a in offers] == [("sell_shares", 10)]
    g.process({**offers[0], "id": 1})
    # sold at the price before the sale, then one row down
    assert b.cash == 20 + 65 and rse.share_price.price == 60 and g.pool.percent_of(rse) == 50
    assert rse.owner is b
    act(g, "buy_train", "RSE", train="2-5", price=80, variant="2")
    assert (rse.cash, len(rse.trains), g.round.round_num, b.cash) == (0, 1, 2, 5 + 40)


def test_personal_bankruptcy_ends_the_game():
    g, rse, b = compulsory_purchase(0, 0)
    # B's one sellable 10% certificate would bring 65M: not enough for the cheapest train (80M)
    assert {"type": "bankrupt", "entity": "RSE", "entity_type": "corporation"} in g.legal_actions()
    act(g, "bankrupt", "RSE")
    assert g.finished and g.game_end_reason == "bankrupt"
    assert b.bankrupt and b.cash == 0
    assert b.percent_of(rse) == 30 and g.pool.percent_of(rse) == 50  # what could be sold was sold
    with pytest.raises(GameError):
        g.process({"type": "pass", "entity": "RSE", "entity_type": "corporation"})


def test_no_bankruptcy_while_the_money_can_be_raised():
    g, _rse, _b = compulsory_purchase(0, 20)
    assert not any(a["type"] == "bankrupt" for a in g.legal_actions())
    with pytest.raises(GameError) as err:  # (the refusal rebuilds the game without the what-if)
        g.process({"type": "bankrupt", "entity": "RSE", "entity_type": "corporation"})
    assert err.value.rule == "not-bankrupt"


def test_a_preprinted_tile_replaced_keeps_a_supply_tile_of_the_same_id_on_the_map():
    """Tile "K6" (Bonn's yellow, laid on S6) and the preprinted tile of hex K6 are both
    "K6-0". Laying on hex K6 must not forget where the supply tile lies: its city stays
    findable by id (random 1893 game 4p optional_2_train+optional_grey_phase seed 2042 was
    offered a token in K6-0-0 that it could then not find)."""
    g = new_game("1893", [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}], [], seed=1)
    board = g.board
    s6, k6 = g.board.hex_by_id("S6"), g.board.hex_by_id("K6")
    bonn = board.tile_by_id("K6-0")
    assert not bonn.preprinted and bonn.name == "K6"
    board.place_tile(s6, g.board.placed_tile(bonn, 5, s6))
    assert board.tile_by_id("K6-0").hex is s6
    town = board.tile_by_id("3-0")
    board.place_tile(k6, g.board.placed_tile(town, 0, k6))
    assert board.tile_by_id("K6-0").hex is s6
    city = g.board.city_by_id("K6-0-0")
    assert city is not None and city is board.tile(s6).cities[0]


def test_hexes_blocked_until_the_first_3_train_take_tiles_once_it_came():
    """N5 and P5 take no tile before the first 3-train; the answer "nothing fits" given while
    they were blocked must not be remembered after the block is gone (an upgrade memo keyed
    by tiles only did, so these lays were never offered again, in any game of the process)."""
    from trackage.playout import random_playout

    seen_blocked = []

    def watch(game, _action):
        if game.tile_blocked and any(a["type"] == "lay_tile" for a in game.legal_actions()):
            seen_blocked.append(len(game.actions))

    game = random_playout("1893", 4, [], 12, max_actions=81, on_action=watch)
    assert seen_blocked, "the lays were never asked for while the hexes were blocked"
    assert not game.tile_blocked
    lays = {(a["hex"], a["tile"].split("-")[0]) for a in game.legal_actions() if a["type"] == "lay_tile"}
    assert ("P5", "3") in lays and ("P5", "58") in lays
    # and the rule itself: a blocked hex takes no tile
    fresh = new_game("1893", [{"id": i, "name": f"P{i}"} for i in range(1, 5)], [], 1)
    old = fresh.board.tile(fresh.board.hex_by_id("P5"))
    three = next(t for t in fresh.board.supply_tiles() if t.name == "3")
    assert not any(fresh.upgrades_to(old, fresh.board.placed_tile(three, r, None)) for r in range(6))
