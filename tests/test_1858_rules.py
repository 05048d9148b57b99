"""1858 and 1858 India: the shared fixtures (trace, results, live legality), rules the logs
do not reach, and bad input (each refused with a clear GameError, the game left as it was)."""

from __future__ import annotations

import io

import pytest
from conftest import FIXTURES, TRACES
from helpers import act, players, refused

from trackage.core.errors import GameError
from trackage.core.log import filter_actions, load_log
from trackage.core.money import spend
from trackage.core.trains import remove_train
from trackage.replay import game_from_log, replay_file
from trackage.titles import new_game
from trackage.titles.t1858 import corporations, gauges, privates

INDIA = FIXTURES / "1858India" / "hotseat_qs_b.json"
INDIA_TRACE = TRACES / "1858India" / "hotseat_qs_b.jsonl"
FIXTURES_1858 = sorted((FIXTURES / "1858").glob("*.json")) if (FIXTURES / "1858").is_dir() else []
ALL = ([INDIA] if INDIA.exists() else []) + FIXTURES_1858
needs_india = pytest.mark.skipif(not INDIA.exists(), reason=f"NO FIXTURE: {INDIA} is absent (set TRACKAGE_FIXTURES)")
needs_1858 = pytest.mark.skipif(not FIXTURES_1858, reason="NO FIXTURES: 1858 folder absent (set TRACKAGE_FIXTURES)")
P4 = players(4, "S")


def at(path, action_id):
    """The game of a fixture just before the action with ``action_id``, in live mode."""
    data = load_log(path)
    g = game_from_log(data)
    g.loading = True
    for a in filter_actions(data["actions"]):
        if a.get("id") == action_id:
            g.loading = False
            return g, a
        g._apply(a)
    raise AssertionError(f"no action {action_id}")


# ----------------------------------------------------------------- fixtures
@needs_india
def test_india_fixture_matches_reference_trace():
    trace = io.StringIO()
    out = replay_file(INDIA, trace=trace)
    assert out.error is None, out.error
    assert out.game.finished and out.game.game_end_reason == "bank"
    assert out.result == {str(k): v for k, v in load_log(INDIA)["result"].items()}
    assert out.warnings == []  # every route, token cost and mine/oil/port bonus recomputed equal
    if INDIA_TRACE.exists():
        ours = trace.getvalue().splitlines()
        theirs = INDIA_TRACE.read_text().splitlines()
        assert len(ours) == len(theirs)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert a == b, f"line {i + 1} differs:\n ours {a[:300]}\n ref  {b[:300]}"


@needs_1858
@pytest.mark.parametrize("path", FIXTURES_1858, ids=[p.stem for p in FIXTURES_1858])
def test_1858_fixtures_replay_to_their_results(path):
    out = replay_file(path)
    assert out.error is None, out.error
    data = load_log(path)
    assert out.game.finished and out.game.game_end_reason == data["game_end_reason"]
    assert out.result == {str(k): v for k, v in data["result"].items()}
    assert out.warnings == []


@pytest.mark.parametrize("path", ALL, ids=[f"{p.parent.name}/{p.stem}" for p in ALL])
def test_every_logged_action_is_legal_in_live_play(path):
    data = load_log(path)
    g = game_from_log(data)
    g.loading = False
    for a in filter_actions(data["actions"]):
        g._apply(a)
    assert g.finished
    assert g.result() == {str(k): v for k, v in data["result"].items()}


# ----------------------------------------------------------------- set-up
def test_quick_start_packets_follow_the_seed():
    players = [{"id": i, "name": f"Player {i + 1}"} for i in range(5)]
    g = new_game("1858India", players, ["quick_start_b"], 1774950338, "hs_rbhxtdqs_1774950338")
    got = {str(p.id): [c.sym for c in p.companies] for p in g.players}
    assert got == {"0": ["BS", "AB", "DA", "AJ", "DS"], "1": ["ML", "LA", "AC", "LC"],
                   "2": ["HH", "PB", "LP", "AD"], "3": ["MA", "TN", "C", "CPC"], "4": ["BT", "NA", "KK", "MK", "MB"]}
    assert g.round.is_operating() and g.round.round_num == 1 and g.turn == 1
    # each paid its packet to the bank: 400 - 390 = 10 plus BS, AB, DA, AJ, DS revenue
    assert g.index.player(0).cash == 10 + 23 + 18 + 20 + 11 + 12
    assert all(m.owner is not None for m in g.minors if m.floated())


def test_quick_start_needs_three_players_or_more():
    two = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
    # a new game refuses it; a log that names it loads as the reference loads it: without it
    with pytest.raises(GameError, match="for 3, 4, 5, 6 players"):
        new_game("1858", two, ["quick_start_a"])
    g = new_game("1858", two, ["quick_start_a"], validate=False)
    assert g.round.is_stock() and all(not p.companies for p in g.players)


def test_two_player_1858_reserves_privates_and_allows_70_percent():
    g = new_game("1858", [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], [], 42)
    assert len(g.unbuyable_companies) == 7
    assert not set(g.unbuyable_companies) & set(g.buyable_bank_companies())
    assert all(c.max_ownership_percent == 70 for c in g.corporations)
    assert g.cert_limit() == 21 and g.bank.cash == 8000 - 2 * 500


def test_india_trains_and_variants():
    g = new_game("1858India", P4)
    t = g.depot.train_by_id("2H-0")
    assert set(t.variants) == {"2H", "1M"} and t.variants["1M"]["price"] == 80
    assert g.depot.train_by_id("4H-0").variants["2M"]["price"] == 160
    assert sum(1 for x in g.depot.trains if x.base == "Pullman") == 4
    assert g.phase4_train_trigger() == 7


# ----------------------------------------------------------------- stock round
def _win_auction(g, company, price):
    buyer = g.current_entity()
    act(g, "bid", company=company, price=price)
    while g.round.auction:
        act(g, "pass")
    return buyer


def test_auction_rules_and_first_stock_round():
    g = new_game("1858", P4)
    s1 = g.current_entity()
    refused(g, {"type": "bid", **g.index.ref(s1), "company": "B&M", "price": 92}, "bid-increment")
    refused(g, {"type": "bid", **g.index.ref(s1), "company": "B&M", "price": 85}, "bid-too-low")
    refused(g, {"type": "bid", **g.index.ref(s1), "company": "S&C", "price": 200}, "company-not-for-sale")
    s1 = g.current_entity()  # a refusal rebuilds the game: fetch entities again
    assert _win_auction(g, "B&M", 90) is s1 and s1.cash == 375 - 90
    # the player after the one who started the auction is next
    assert g.current_entity().name == "S2"
    for _ in range(3):
        act(g, "pass")
    assert g.current_entity() is s1
    bm = g.index.company("B&M")
    # no public company can be started in the first stock round
    refused(g, {"type": "buy_shares", **g.index.ref(bm), "shares": ["A_0"], "percent": 40}, "cannot-par")
    # a private held by someone else's turn cannot act
    refused(g, {"type": "bid", **g.index.ref(g.players[1]), "company": "M&A", "price": 100}, "out-of-turn")


def test_convert_to_ten_shares():
    g = new_game("1858India", P4)
    gip = g.corporation_by_id("GIP")
    g.stock_market.set_par(gip, g.stock_market.par_prices[0])
    s1 = g.players[0]
    bundle_class = __import__("trackage.core.entities", fromlist=["ShareBundle"]).ShareBundle
    g.share_market.transfer(bundle_class([gip.shares[0]], corporation=gip), s1)
    corporations.convert(g, gip)
    assert gip.type == "10-share" and gip.share_percent == 10 and gip.total_shares == 10
    assert [s.id for s in gip.shares][-5:] == ["GIP_4", "GIP_5", "GIP_6", "GIP_7", "GIP_8"]
    assert s1.percent_of(gip) == 20 and gip.percent_of(gip) == 80
    assert sorted(s.percent for s in gip.shares) == [10] * 8 + [20]


# ----------------------------------------------------------------- operating round
def test_token_cost_grows_with_provincial_borders():
    g = new_game("1858India", P4)
    gip = g.corporation_by_id("GIP")
    home = g.board.tile(g.board.hex_by_id("K6")).cities[0]
    g.index.company("BT").owner = gip  # the BT's reservation in Bombay now counts for the GIP
    g.board.place_city_token(home, gip, gip.tokens[0], free=True, check_tokenable=False)
    assert g.token_cost(gip, g.board.tile(g.board.hex_by_id("J13")).cities[0]) == 40   # one border
    assert g.token_cost(gip, g.board.tile(g.board.hex_by_id("A6")).cities[0]) == 120  # three borders
    assert g.token_cost(gip, home) == 20                                # never below 20


def test_gauge_conversion_upgrades():
    g = new_game("1858India", P4)
    straight, metre = g.board.tile_by_id("9-0").at(0), g.board.tile_by_id("79-0").at(0)
    assert g.upgrades_to(straight, metre)          # same colour, gauge changed
    assert not g.upgrades_to(straight, g.board.tile_by_id("8-0").at(0))
    from trackage.titles.t1858india.steps import conversion_ok
    assert conversion_ok(straight, metre) and not conversion_ok(straight, g.board.tile_by_id("9-1").at(0))


def test_metre_gauge_is_half_terrain_and_second_lay_discount():
    g = new_game("1858", P4)
    old = g.board.tile(g.board.hex_by_id("B5"))
    assert g.new_track_gauge(old, g.board.tile_by_id("X3-0").at(0, old.hex)) == ["broad"]
    from trackage.titles.t1858.steps import Track1858
    step = Track1858(g, g.round)
    g.round.gauges_added = [["broad"], ["narrow"]]
    s = g.players[0]
    paid = []
    step.payer = lambda e: s
    import trackage.core.steps.track as st
    orig = st.pay
    st.pay = lambda game, a, b, c, why: paid.append((c, why))
    try:
        step.pay(g.minors[0], 20)
    finally:
        st.pay = orig
    assert paid == [(10, "terrain")]


@needs_india
def test_wounded_trains_run_at_half_and_only_they_are_scrapped():
    g, a = at(INDIA, 481 if False else _first(INDIA, "scrap_train"))
    corp = g.corporation_by_id(a["entity"])
    healthy = next(t for t in corp.trains if not t.obsolete)
    refused(g, {"type": "scrap_train", **g.index.ref(corp), "train": healthy.id}, "not-owner")
    g.process(a)
    corp = g.corporation_by_id(a["entity"])
    assert g.depot.train_by_id(a["train"]) is None or g.depot.train_by_id(a["train"]) not in corp.trains
    assert all(t.obsolete is False or t.owner is corp for t in corp.trains)


@needs_india
def test_live_refusals_in_an_operating_round():
    g, a = at(INDIA, _first(INDIA, "place_token", with_key="cost"))
    corp = g.corporation_by_id(a["entity"])
    refused(g, {**a, "cost": a["cost"] + 20}, "wrong-price")
    refused(g, {"type": "place_token", **g.index.ref(corp), "city": "nowhere", "slot": 0}, "unknown-city")
    g.process(a)
    g, a = at(INDIA, _first(INDIA, "dividend"))
    refused(g, {**a, "kind": "double"}, "malformed-action")  # the schema names the kinds
    g, a = at(INDIA, _first(INDIA, "remove_hex_token"))
    refused(g, {**a, "hex": "A6"}, "no-hex-token")
    g.process(a)
    corp = g.corporation_by_id(a["entity"])
    assert any(t.type == "mine" for t in corp.tokens)


@needs_india
def test_closure_round_refuses_bad_choices():
    g, a = at(INDIA, _first(INDIA, "choose", where=lambda x: isinstance(x.get("choice"), dict)))
    minor = g.index.minor(a["entity"])
    refused(g, {**a, "choice": "SIR"}, "bad-choice")
    refused(g, {**a, "choice": {"corporation": "SIR", "from": "attic"}}, "bad-choice")
    g.process(a)
    minor = g.index.minor(a["entity"])
    # a treasury share of a company someone else runs needs its president's approval
    assert minor.closed or g.round.pending_approval is g.corporation_by_id("SIR")


@needs_india
def test_pullman_counts_no_train_limit_and_one_per_company():
    g, a = at(INDIA, _first(INDIA, "buy_train", where=lambda x: x["train"].startswith("Pullman")))
    corp = g.corporation_by_id(a["entity"])
    g.process(a)
    assert g.owns_pullman(corp) and g.num_corp_trains(corp) == len(corp.trains) - 1
    step = next(s for s in g.round.steps if type(s).__name__ == "BuyTrainIndia")
    other = next(t for t in g.depot.trains if t.base == "Pullman" and t.owner is g.depot)
    assert not step.room_for(corp, other)


# ----------------------------------------------------------------- bad input
def test_malformed_and_unknown_actions():
    g = new_game("1858India", P4)
    s1 = g.current_entity()
    refused(g, {"type": "bid", **g.index.ref(s1), "company": "XX", "price": 100}, "unknown-entity")
    refused(g, {"type": "lay_tile", **g.index.ref(s1), "hex": "K8", "tile": "58-0", "rotation": 1})
    refused(g, {"type": "convert", "entity": "GIP", "entity_type": "corporation"})
    with pytest.raises(GameError):
        g.process({"type": "pass", "entity": "NOPE", "entity_type": "minor"})


def _first(path, type_, with_key=None, where=None):
    for a in filter_actions(load_log(path)["actions"]):
        if a["type"] != type_:
            continue
        if with_key is not None and a.get(with_key) is None:
            continue
        if where is not None and not where(a):
            continue
        return a["id"]
    raise AssertionError(f"no {type_} in {path}")


@needs_india
def test_home_token_must_go_to_the_privates_city():
    g, a = at(INDIA, 87)  # BBC started from the BS: its token goes to Bombay
    assert a["type"] == "place_token" and a["entity"] == "BBC"
    refused(g, {**a, "city": "A6-0-0"}, "bad-home-token")
    g.process(a)
    assert [t.city.hex.id for t in g.corporation_by_id("BBC").tokens if t.used] == ["K6"]


@needs_india
def test_approval_choices_and_issue_limits():
    g, a = at(INDIA, 523)  # SPD's president is asked to approve an exchange
    assert a["choice"] == "deny"
    refused(g, {**a, "choice": "maybe"}, "bad-choice")
    other = next(c for c in g.corporations if c.id != "SPD" and c.floated())
    refused(g, {"type": "choose", **g.index.ref(other), "choice": "approve"})
    g.process(a)
    g, a = at(INDIA, 508)  # a company issues shares
    corp = g.corporation_by_id(a["entity"])
    too_many = [s.id for s in corp.shares_of(corp)]
    if len(too_many) * corp.share_percent + g.pool.percent_of(corp) > 50:
        refused(g, {**a, "shares": too_many, "percent": len(too_many) * corp.share_percent}, "illegal-sale")
    refused(g, {**a, "shares": ["GIP_0"]})
    g.process(a)


@needs_india
def test_redeem_needs_pool_shares_and_cash():
    g, a = at(INDIA, 605)
    corp = g.corporation_by_id(a["entity"])
    own = corp.shares_of(corp)
    if own:
        refused(g, {**a, "shares": [own[0].id], "percent": own[0].percent}, "illegal-sale")
    g.process(a)


def test_private_railway_stubs_restrict_lays_until_released():
    g = new_game("1858", P4)
    hex_ = g.board.hex_by_id("G10")  # M&V's middle home hex: stubs towards G8 and G12
    edges = sorted(st.edge for st in g.board.stubs(hex_))
    assert edges == [3, 5]
    straight = g.board.tile_by_id("9-0")
    ok = [r for r in range(6) if g.stubs_respected(hex_, straight.at(r, hex_))]
    assert ok == []  # a straight cannot use both stubs
    g.release_stubs(g.index.minor("M&V"))
    assert not g.board.stubs(hex_) and g.stubs_respected(hex_, straight.at(0, hex_))


# ----------------------------------------------------------------- closing companies
def _or_with_companies(title, players, seed, n=2):
    """A seeded random game played until a public company starts its operating turn with at
    least ``n - 1`` companies still to operate after it."""
    import random

    from trackage.playout import choose

    g = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(players)], [], seed)
    rng = random.Random(seed)
    for _ in range(5000):
        r = g.round
        if r.is_operating() and type(r).__name__ == "OperatingRound":
            e = r.current_entity_of_round()
            later = [c for c in r.entities[r.entity_index + 1:] if c.is_corporation]
            if e is not None and e.is_corporation and len(later) >= n - 1 and g.current_entity() is e:
                return g, e, later[0]
        a = choose(rng, g.legal_actions(), g.PLAYOUT_WEIGHTS)
        a["id"] = len(g.actions) + 1
        g._apply(a)
    raise AssertionError("no such operating round")


@pytest.mark.parametrize("title", ["1858", "1858India"])
def test_a_company_closing_in_its_own_turn_hands_over_to_the_next(title):
    # reference (base close_corporation): the round forces the next operator; the OR goes on
    g, corp, nxt = _or_with_companies(title, 4, 5)
    for t in list(corp.trains):
        g.discard_train(t)
    g.stock_market.move(corp, (0, 1))  # one step right of the closing cell
    left = g.stock_market.cell(0, 0)
    assert left.type == "close"
    for _ in range(20):
        if corp.closed:
            break
        acts = [a for a in g.legal_actions() if a["type"] == "pass" or a.get("kind") == "withhold"]
        assert acts, g.legal_actions()
        g.process(acts[0])
    assert corp.closed
    assert g.round.is_operating() and g.round.current_entity_of_round() is nxt
    assert g.current_entity() is nxt


def test_a_closed_private_hands_its_one_slot_city_to_the_other_reserving_private():
    # Cordoba (G18) has one slot reserved by both the C&M and the C&S; when the C&M closes
    # the reference compacts the city's reservations: the C&S now holds the only slot
    g = new_game("1858", P4)
    board = g.board
    city = board.tile(g.board.hex_by_id("G18")).cities[0]
    cs = g.index.company("C&S")
    assert board.slots(city) == 1 and [r.sym for r in board.city_reservations(city)] == ["C&M", "C&S"]
    outsider = g.corporation_by_id("A")
    assert not board.tokenable(city, outsider, free=True)
    privates.close_private(g, g.index.company("C&M"))
    assert list(board.city_reservations(city)) == [cs]
    assert not board.tokenable(city, outsider, free=True)
    # a two-slot city keeps its positions (no compaction while entries fit the slots)
    privates.close_private(g, g.index.company("L&C"))
    a14 = board.tile(g.board.hex_by_id("A14")).cities[0]
    assert list(board.city_reservations(a14)) == [None] and board.tokenable(a14, outsider, free=True)


def _president_about_to_close_a(loading: bool):
    """Three broke players in the first stock round; S1 presides A (ten shares, 50, one
    cell right of the closing cell) with 30% and may sell 10%; nothing else is for sale."""
    from trackage.core.entities import ShareBundle
    from trackage.core.money import spend

    g = new_game("1858", [{"id": i, "name": f"S{i}"} for i in range(1, 4)])
    a = g.corporation_by_id("A")
    corporations.convert(g, a)
    g.stock_market.set_par(a, g.stock_market.cell(0, 1))
    a.ipoed = True
    a.operating_history[(1, 1)] = None
    s1 = g.players[0]
    g.share_market.transfer(ShareBundle([a.shares[0]], corporation=a), s1)
    g.share_market.transfer(ShareBundle([a.shares_of(a)[0]], corporation=a), s1)
    for p in g.players:
        spend(p, g.bank, p.cash)
    for c in list(g.companies):
        privates.close_private(g, c)
    g.loading = loading
    return g


def test_a_sale_that_closes_a_company_and_stalls_the_stock_round_is_refused():
    # reference (1858, base action_processed): after closing it moves to the next player
    # once, with its cached step; the next player has nothing to do, so its stock round
    # stops for good (18xx.games would need an undo). Live, the sale is refused and not listed.
    sale = {"type": "sell_shares", "shares": ["A_1"], "percent": 10, "entity": 1, "entity_type": "player", "id": 1}
    g = _president_about_to_close_a(False)
    with pytest.raises(GameError) as err:
        g._apply(dict(sale))
    assert err.value.rule == "stock-round-stuck"
    g = _president_about_to_close_a(False)
    g.copy = lambda: _president_about_to_close_a(False)  # the trial needs this same hand-made state
    listed = [a for a in g.legal_actions() if a["type"] == "sell_shares"]
    assert listed == []
    # a log that went there replays as the reference loads it: closed, and nobody can act
    g = _president_about_to_close_a(True)
    g._apply(dict(sale))
    assert g.corporation_by_id("A") is not None and not any(c.floated() for c in g.corporations)
    assert g.round.is_stock() and not g.round.finished() and g.legal_actions() == []


# ----------------------------------------------------------------- 1858 India: Pullmans, loco works
@needs_india
def test_india_trainless_company_buying_only_a_pullman_drops_two_cells():
    # quirk (reference): the buy-train step passes twice after the purchase (inside the
    # purchase and after it); the company is still trainless, so each pass moves it left
    g, a = at(INDIA, _first(INDIA, "buy_train", where=lambda x: x["train"].startswith("Pullman")))
    corp = g.corporation_by_id(a["entity"])
    for t in list(corp.trains):
        remove_train(g, t)
        g.forget_train(t)
    spend(corp, g.bank, corp.cash - 100)
    spend(corp.owner, g.bank, corp.owner.cash)
    before = corp.share_price
    g._apply(dict(a))
    assert g.owns_pullman(corp) and g.trainless(corp) and corp.cash == 0
    once = g.stock_market.left_of(corp, before.coordinates)
    twice = g.stock_market.left_of(corp, once)
    assert corp.share_price.coordinates == twice


@needs_india
def test_india_a_closed_loco_works_is_for_sale_again_and_pays():
    # quirk (reference): purchasable loco works are those without an owner, closed or not;
    # a closed one bought back earns its revenue (no discount: its abilities are gone)
    g, a = at(INDIA, 509)  # SIR buys LW1 after issuing shares; LW2 is closed here
    lw2 = g.index.company("LW2")
    lw2.close()
    sir = g.corporation_by_id("SIR")
    listed = [x["company"] for x in g.legal_actions() if x["type"] == "buy_company"]
    assert listed == ["LW1", "LW2"]
    assert not any(x["type"] == "pass" for x in g.legal_actions())  # a train must follow the issue
    g._apply({**a, "company": "LW2"})
    assert lw2.owner is sir and lw2.closed and lw2.abilities == []
    assert g.company_pays(lw2)


@needs_1858
def test_share_exchange_requests_come_from_a_connected_minor(monkeypatch):
    path = FIXTURES / "1858" / "1858-quick-start-b.json"
    g, a = at(path, 212)  # the M&Z asks MZA's president for a treasury share
    g.LIVE_SNAPSHOT_EVERY = 1  # the rules are patched below: a refusal must not replay under them
    # the same request through the private's company: 18xx.games offers it through the minor
    refused(g, {**a, "entity_type": "company"}, "bad-exchange")
    # an unconnected private could only be denied there: refused at once here
    monkeypatch.setattr(gauges, "corporation_private_connected", lambda game, corp, minor: False)
    refused(g, a, "not-connected")
    monkeypatch.undo()
    g.process(a)
    assert g.round.pending_approval is g.corporation_by_id("MZA")
