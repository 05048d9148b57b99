"""1822's stock round lists the bid boxes' bids in one pass (``bid_offers``): at every stock
round position of seeded random games (plain and 1822+) it lists what the box-by-box rules
give (``can_bid_company``, then ``bid_offer`` of each box), for every player."""

from __future__ import annotations

import random

from helpers import players

from trackage.playout import COMBOS, choose
from trackage.titles import new_game
from trackage.titles.t1822.steps.stock import BuySellParShares1822


def _box_by_box(step, entity):
    standing = step.bid_standing(entity)
    return [b for c in step.game.bidbox_items() if step.can_bid_company(entity, c, standing)
            for b in step.bid_offer(entity, c)]


def test_bid_offers_are_the_box_by_box_rules():
    asked = offered = 0
    for seed in range(4):
        n, options = COMBOS["1822"][seed % len(COMBOS["1822"])]
        game = new_game("1822", players(n), options, seed)
        rng = random.Random(seed)
        for _ in range(150):
            if game.finished:
                break
            for step in game.round.steps:
                if isinstance(step, BuySellParShares1822):
                    for p in game.players:
                        got = step.bid_offers(p)
                        assert got == _box_by_box(step, p)
                        asked += 1
                        offered += len(got)
            legal = game.legal_actions()
            game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    assert asked > 100 and offered > 100
