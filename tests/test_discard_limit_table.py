"""1867's, 1861's and 1893's discard step answer "is anyone over the train limit?" from the
phase's limit table read once: the core's answer (the game's train_limit asked per kind)."""

import random

import pytest

from trackage.core.steps.operating import DiscardTrain
from trackage.playout import choose
from trackage.titles import new_game


@pytest.mark.parametrize("title,n,seed,moves,crowded", [("1867", 4, 1, 400, False), ("1861", 4, 2, 400, False),
                                                       ("1893", 4, 3, 1500, True), ("1893", 3, 4, 400, False)])
def test_anyone_crowded_matches_the_core(title, n, seed, moves, crowded):
    g = new_game(title, [{"id": i, "name": f"P{i}"} for i in range(1, n + 1)], [], seed)
    rng = random.Random(seed)
    asked = over = 0
    for _ in range(moves):
        if g.finished:
            break
        for step in g.round.steps:
            if isinstance(step, DiscardTrain) and type(step).anyone_crowded is not DiscardTrain.anyone_crowded:
                answer = step.anyone_crowded()
                assert answer == DiscardTrain.anyone_crowded(step)
                asked += 1
                over += answer
        legal = g.legal_actions()
        g.process(g.playout_choose(rng, legal) or choose(rng, legal, g.PLAYOUT_WEIGHTS))
    assert asked > 0
    assert not crowded or over > 0  # (a company over its limit met)
