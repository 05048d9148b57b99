"""The history a live game keeps for undo: snapshots hold no history of their own, old ones
are thinned, and an undo far back still restores the exact state."""

import random

import pytest

from trackage.core.errors import GameError
from trackage.core.pipeline import NO_OP_TYPES, Pipeline
from trackage.core.programs import PROGRAM_TYPES
from trackage.core.rewind import state_class
from trackage.core.state import full_state
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
    # (the history is thinned when a snapshot is taken: relative to the newest one)
    far = [k for k in game.snapshots if k < max(game.snapshots) - 32]
    assert far and all(k % 32 == 0 for k in far)
    assert all(k % 16 == 0 or k >= end - 4 for k in game.snapshots)
    Pipeline(game).replay_to(37)
    assert game.state() == states[37]


def test_a_refusal_half_way_restores_exactly_at_every_distance_from_a_snapshot(monkeypatch) -> None:
    """Live play copies the game before every LIVE_SNAPSHOT_EVERY-th action only: an action
    refused after the rules applied it is taken back by a copy or by a replay from the last
    snapshot, and either leaves exactly the state before it."""
    n, options = COMBOS["1861"][1]
    game = new_game("1861", [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, 1)
    rng = random.Random(1)
    cls = state_class(game)  # (a new game is a barrier-free twin of it until its first action)
    applied = cls.action_processed
    for _ in range(2 * game.LIVE_SNAPSHOT_EVERY + 3):
        legal = game.legal_actions()
        action = game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS)
        if action["type"] in NO_OP_TYPES or action["type"] in PROGRAM_TYPES:
            game.process(action)  # (no rules run for it: nothing to refuse half-way)
            continue
        before = full_state(game)
        failed: list[int] = []

        def fail_once(self, act, failed=failed):
            if not failed:
                failed.append(1)
                raise GameError("refused after the rules applied it", rule="test-half-way")
            applied(self, act)

        with monkeypatch.context() as m:
            m.setattr(cls, "action_processed", fail_once)
            with pytest.raises(GameError):
                game.process(dict(action))
        assert full_state(game) == before, f"after a refusal at action {len(game.actions) + 1}"
        game.process(action)
