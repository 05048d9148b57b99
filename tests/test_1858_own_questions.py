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

