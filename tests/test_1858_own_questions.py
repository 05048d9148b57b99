"""1858's and 1858 India's own questions answered in place give the answers of the lists
they stand for (random games walked through their stock and operating rounds)."""

import random

import pytest

from trackage.playout import choose
from trackage.titles import new_game
from trackage.titles.t1858.steps.stock import StockRound1858Step


@pytest.mark.parametrize("title,n,seed", [("1858", 4, 3), ("1858India", 3, 3)])
def test_can_bid_any_is_the_bid_items_question(title, n, seed):
    """"Any bid?" walked in place: some bank company up for auction whose lowest bid
    (over the auction's highest, else the opening bid) the player can pay."""
    g = new_game(title, [{"id": i, "name": f"P{i}"} for i in range(1, n + 1)], [], seed)
    rng = random.Random(seed)
    asked = yes = no = 0
    for _ in range(600):
        if g.finished:
            break
        for step in g.round.steps:
            if isinstance(step, StockRound1858Step):
                for p in g.players:
                    want = any(step.min_bid(c) <= p.cash for c in step.bid_items(p))
                    assert step.can_bid_any(p) == want
                    asked += 1
                    yes += want
                    no += not want
        legal = g.legal_actions()
        g.process(g.playout_choose(rng, legal) or choose(rng, legal, g.PLAYOUT_WEIGHTS))
    assert asked and yes and no



def _min_price_by_train_price(g, corp):
    """The lowest price by the game's :meth:`train_price` of every depot variant, or 1 when
    another company has a train for sale (the question :meth:`min_train_price` answers)."""
    prices = [g.train_price(t, corp, name) for t in g.depot.depot_trains() for name in t.variants]
    best = min(prices) if prices else None
    if g.other_trains(corp):
        best = 1 if best is None or best > 1 else best
    return best


@pytest.mark.parametrize("title,n,seed", [("1858", 4, 4), ("1858India", 3, 4), ("1858India", 3, 6)])
def test_min_train_price_is_the_train_price_question(title, n, seed):
    """The cheapest train read in place (1858 India: when the buyer has no loco works
    discount) is the lowest of the game's prices."""
    g = new_game(title, [{"id": i, "name": f"P{i}"} for i in range(1, n + 1)], [], seed)
    rng = random.Random(seed)
    asked = discounted = 0
    for _ in range(900):
        if g.finished:
            break
        for c in g.corporations:
            assert g.min_train_price(c) == _min_price_by_train_price(g, c)
            asked += 1
            discounted += title == "1858India" and not g.plain_train_prices(c)
        legal = g.legal_actions()
        g.process(g.playout_choose(rng, legal) or choose(rng, legal, g.PLAYOUT_WEIGHTS))
    assert asked
    assert discounted or title != "1858India"  # (a buyer with a discount met)
