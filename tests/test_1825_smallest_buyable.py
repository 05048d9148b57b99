"""1825's "can buy any?" reads the market's smallest buyable certificate per corporation from
one pass over the pool: the same certificate the per-corporation scan of its holdings picks."""

import random

from trackage.playout import choose
from trackage.titles import new_game
from trackage.titles.t1825.steps import _smallest_buyable


def scan(holder, cid):
    smallest = None
    for s in holder.holdings().get(cid, ()):
        if s.buyable and s.corp_id == cid and (smallest is None or s.percent < smallest.percent):
            smallest = s
    return smallest


def test_smallest_buyable_matches_the_scan():
    met = 0
    for seed, opts in ((3, ["unit_1"]), (5, ["unit_2"])):
        g = new_game("1825", [{"id": i, "name": f"P{i}"} for i in range(1, 5)], opts, seed)
        rng = random.Random(seed)
        for _ in range(250):
            if g.finished:
                break
            got = _smallest_buyable(g.pool.certificates)
            for corp in g.corporations:
                want = scan(g.pool, corp.id)
                assert got.get(corp.id) is want
                met += want is not None
            legal = g.legal_actions()
            g.process(g.playout_choose(rng, legal) or choose(rng, legal, g.PLAYOUT_WEIGHTS))
    assert met > 0
