"""The history a live game keeps for undo: snapshots hold no history of their own, old ones
are thinned, and an undo far back still restores the exact state."""

import random

from trackage.core.pipeline import Pipeline
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def test_history_is_thinned_and_restores_exactly() -> None:
    n, options = COMBOS["1861"][0]
    game = new_game("1861", [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, 0)
    game.SNAPSHOT_SPARSE_AFTER = game.SNAPSHOT_SPARSE_EVERY = 32  # a short game shows the thinning
    rng = random.Random(0)
    states = {}
    for _ in range(120):
        states[len(game.actions)] = game.state()
        legal = game.legal_actions()
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    end = len(game.actions)
    assert all(not s.snapshots for s in game.snapshots.values())  # no snapshot keeps older ones
    far = [k for k in game.snapshots if k < end - 32]
    assert far and all(k % 32 == 0 for k in far)
    assert all(k % 16 == 0 or k >= end - 4 for k in game.snapshots)
    Pipeline(game).replay_to(37)
    assert game.state() == states[37]
