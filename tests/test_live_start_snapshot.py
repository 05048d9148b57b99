"""The first live action copies the start once: the copy taken before it is the history's
start (what an undo further back than the records restores), a refused first action leaves
no history, and an undo to the start from beyond the records gives back the start's state."""

from __future__ import annotations

import random

import pytest
from helpers import players

from trackage.core import pipeline
from trackage.core.errors import GameError
from trackage.core.state import full_state
from trackage.playout import choose
from trackage.titles import new_game


def _game():
    return new_game("1822", players(3), [], 0)


def test_first_action_copies_the_start_once(monkeypatch):
    game = _game()
    start = full_state(game)
    copies = []
    real = pipeline.snapshot

    def counted(g):
        copies.append(g)
        return real(g)

    monkeypatch.setattr(pipeline, "snapshot", counted)
    game.process(game.legal_actions()[0])
    assert len(copies) == 1
    assert list(game.snapshots) == [0]
    assert full_state(game.snapshots[0]) == start
    game.undo()
    assert full_state(game) == start


def test_refused_first_action_leaves_no_history():
    game = _game()
    start = full_state(game)
    bad = dict(game.legal_actions()[0], price=-12345)
    with pytest.raises(GameError):
        game.process(bad)
    assert game.snapshots == {}
    assert full_state(game) == start
    game.process(game.legal_actions()[0])
    assert full_state(game.snapshots[0]) == start


def test_undo_past_the_records_to_the_start():
    game = _game()
    start = full_state(game)
    rng = random.Random(0)
    made = 0
    while made < game.REWIND_KEEP + 5 and not game.finished:
        legal = game.legal_actions()
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
        made += 1
    for _ in range(made):
        game.undo()
    assert not game.actions
    assert full_state(game) == start
