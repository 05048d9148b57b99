"""The suggested run asked for an entity of the state's own whole listing (``listed``: the
listing's entity check spared) is the run asked without it; an entity the listing does not
name still gets none."""

from __future__ import annotations

import random

from trackage.core.suggestion import suggested_run
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def test_listed_run_is_the_checked_run():
    runs = others = 0
    for seed in (1, 2):
        n, options = COMBOS["1893"][seed % len(COMBOS["1893"])]
        game = new_game("1893", [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.finished:
                break
            legal = game.legal_actions()
            for a in legal:
                if a["type"] != "run_routes":
                    continue
                entity = game.index.resolve(a)
                plain, listed = game.copy(), game.copy()
                assert suggested_run(listed, listed.index.resolve(a), listed=True) == \
                    suggested_run(plain, plain.index.resolve(a)) == a
                runs += 1
                # a company that is not the one running: not listed, no run suggested
                other = next((c for c in game.corporations if c is not entity and c.floated()), None)
                if other is not None:
                    assert suggested_run(game.copy(), other) is None
                    others += 1
            game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
        game.close()
    assert runs > 10 and others > 5
