"""1867's, 1861's, 1893's, 1858's and 1858 India's discard step answer "is anyone over the train limit?" from the
phase's limit table read once: the core's answer (the game's train_limit asked per kind)."""

import random

import pytest

from trackage.core.steps.operating import DiscardTrain
from trackage.playout import choose
from trackage.titles import new_game


@pytest.mark.parametrize("title,n,seed,moves,crowded", [("1867", 4, 1, 400, False), ("1861", 4, 2, 400, False),
                                                       ("1893", 4, 3, 1500, True), ("1893", 3, 4, 400, False),
                                                       ("1858", 4, 1, 1500, True), ("1858India", 3, 1, 1500, True)])
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
                assert step.active() == answer  # (the step question: the same answer)
                asked += 1
                over += answer
        legal = g.legal_actions()
        g.process(g.playout_choose(rng, legal) or choose(rng, legal, g.PLAYOUT_WEIGHTS))
    assert asked > 0
    assert not crowded or over > 0  # (a company over its limit met)


@pytest.mark.parametrize("title,n,seed", [("1858", 4, 2), ("1858India", 3, 2)])
def test_1858_train_limit_reads_the_phase_table(title, n, seed):
    """1858's train limit read in place: the phase's table row of the holder's kind (0 for a kind
    it does not name), for every company and minor through a game's phases."""
    g = new_game(title, [{"id": i, "name": f"P{i}"} for i in range(1, n + 1)], [], seed)
    rng = random.Random(seed)
    phases = set()
    for _ in range(1200):
        if g.finished:
            break
        table = g.phase.current.get("train_limit", {})
        for c in (*g.corporations, *g.minors):
            want = table.get(getattr(c, "type", ""), 0) if isinstance(table, dict) else table
            assert g.train_limit(c) == want
        phases.add(g.phase.name)
        legal = g.legal_actions()
        g.process(g.playout_choose(rng, legal) or choose(rng, legal, g.PLAYOUT_WEIGHTS))
    assert len(phases) > 2  # (more than one table read)
