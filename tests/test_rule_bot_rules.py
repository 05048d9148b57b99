"""The rule bot's rules on small stand-ins: money kept for a train before a tile or a token is
paid for, the per-title tweaks, the merger round's choices."""

from __future__ import annotations

from types import SimpleNamespace

from trackage.bots.rules.mergers import score_convert, score_merge
from trackage.bots.rules.operate import affords_after
from trackage.bots.rules.stock import kept_back
from trackage.bots.rules.tweaks import tweaks_for


def _game(price: int = 100) -> SimpleNamespace:
    train = SimpleNamespace(price=price)
    depot = SimpleNamespace(depot_trains=lambda: [train], upcoming=[])
    return SimpleNamespace(depot=depot, corporations=[], minors=[])


def test_a_trainless_operator_keeps_the_price_of_a_train():
    game = _game(100)
    trainless = SimpleNamespace(cash=120, trains=[])
    assert affords_after(game, trainless, 20)
    assert not affords_after(game, trainless, 40)


def test_an_operator_with_a_train_keeps_half_a_train():
    game = _game(100)
    running = SimpleNamespace(cash=120, trains=[SimpleNamespace(rusted=False)])
    assert affords_after(game, running, 70)
    assert not affords_after(game, running, 80)


def test_tweaks_per_title():
    assert tweaks_for("1861")["buy_when_trainless"] and tweaks_for("1867")["buy_when_trainless"]
    assert tweaks_for("1858")["president_pays"] is False and tweaks_for("1858India")["president_pays"] is False
    assert "buy_when_trainless" not in tweaks_for("1893")
    assert kept_back(_game(), SimpleNamespace(cash=0), {"president_pays": False}) == 0


def _corp(owner: object, kind: str) -> SimpleNamespace:
    return SimpleNamespace(owner=owner, type=kind, cash=0, is_player=False)


def test_merger_round_choices(monkeypatch):
    import trackage.bots.rules.mergers as mergers

    me = SimpleNamespace(is_player=True, name="me")
    other = SimpleNamespace(is_player=True, name="other")
    minor, mine2, theirs, major = _corp(me, "minor"), _corp(me, "minor"), _corp(other, "minor"), _corp(None, "major")
    by_id = {"M1": minor, "M2": mine2, "T": theirs, "X": major}
    monkeypatch.setattr(mergers, "controlled_by", lambda e, p: getattr(e, "owner", None) is p)
    game = SimpleNamespace(corporation_by_id=by_id.get, round=SimpleNamespace(active_step=lambda: None))
    assert score_convert(game, me, minor, {"type": "convert"}) is not None
    assert score_convert(game, other, minor, {"type": "convert"}) is None
    to_major = score_merge(game, me, minor, {"type": "merge", "corporation": "X"})
    with_mine = score_merge(game, me, minor, {"type": "merge", "corporation": "M2"})
    assert to_major is not None and with_mine is not None and to_major[0] > with_mine[0]
    assert score_merge(game, me, minor, {"type": "merge", "corporation": "T"}) is None


def test_a_private_for_a_tenth_of_its_value_is_bought_whatever_is_kept_back(monkeypatch):
    """1893's EVA (face value 150) may be taken from another player for 1 in an operating
    round: bought even when the player keeps all his cash back for trains."""
    import trackage.bots.rules.stock as stock

    monkeypatch.setattr(stock, "kept_back", lambda game, player, tweaks: 1000)
    eva = SimpleNamespace(value=150)
    game = SimpleNamespace(index=SimpleNamespace(company=lambda cid: eva))
    player = SimpleNamespace(cash=50)
    cheap = stock.score_buy_company(game, player, {"type": "buy_company", "company": "EVA", "price": 1}, {})
    assert cheap is not None and cheap[1]["price"] == 1
    dear = {"type": "buy_company", "company": "EVA", "price": 40}
    assert stock.score_buy_company(game, player, dear, {}) is None


def test_bids_led_elsewhere_count_as_spent_and_held(monkeypatch):
    """1822's bid boxes stay open all the stock round: the bids a player leads on other items
    count against its cash and its holdings."""
    import trackage.bots.rules.stock as stock
    from trackage.core.steps.auction import AuctionMixin

    me = SimpleNamespace(cash=300, companies=[])
    m12, m14, m20 = (SimpleNamespace(value=100, sym=s) for s in ("M12", "M14", "M20"))
    leads = {id(m12): (me, 100, m12), id(m14): (me, 110, m14)}

    class Step(AuctionMixin):
        def highest_bid(self, item):
            return leads.get(id(item))

    syms = {"M12": m12, "M14": m14, "M20": m20}
    game = SimpleNamespace(round=SimpleNamespace(active_step=Step), companies=[m12, m14, m20],
                           index=SimpleNamespace(company=syms.get), corporations=[], minors=[])
    monkeypatch.setattr(stock, "kept_back", lambda game, player, tweaks: 0)
    bid = {"type": "bid", "company": "M20", "price": 100}
    assert stock.leading_bids(game, me, m20) == [100, 110]
    assert stock.score_bid(game, me, bid, {}) is None  # 100 + 210 led > 300
    me.cash = 600
    assert stock.score_bid(game, me, bid, {}) is not None
    assert stock.score_bid(game, me, bid, {"max_holdings": 2}) is None
