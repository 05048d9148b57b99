"""A sample of the seeded random playouts (scripts/playouts runs the full 200): each game ends,
keeps the invariants after every action, and its exported log replays to the same result."""

from __future__ import annotations

import json

import pytest

from trackage.core.errors import GameError
from trackage.export import game_to_log
from trackage.invariants import check
from trackage.playout import random_playout, run_one

SAMPLE = [0, 1, 2, 3, 4, 6, 10, 13, 15, 16]


@pytest.mark.parametrize("seed", SAMPLE)
def test_playout_1825(seed):
    ok, game, _players, _options, _played, _replayed, rep = run_one("1825", seed, 20000)
    assert game.finished, f"seed {seed} did not finish ({len(game.actions)} actions)"
    assert rep.error is None, rep.error
    assert rep.result == game.result()
    assert ok


OTHER_TITLES = [("1867", 0), ("1867", 5), ("1861", 2), ("1893", 1), ("1893", 6)]


@pytest.mark.parametrize("title,seed", OTHER_TITLES, ids=[f"{t}-{s}" for t, s in OTHER_TITLES])
def test_playout_other_titles(title, seed):
    ok, game, _players, _options, _played, _replayed, rep = run_one(title, seed, 20000)
    assert game.finished and rep.error is None and rep.result == game.result() and ok


def test_playout_is_deterministic():
    a = random_playout("1825", 3, ["unit_2"], 5)
    b = random_playout("1825", 3, ["unit_2"], 5)
    assert a.actions == b.actions and a.result() == b.result()


def test_undo_restores_state_and_redo_reapplies():
    g = random_playout("1825", 2, ["unit_3"], 7, max_actions=150)
    before = json.dumps(game_to_log(g)["actions"])
    from trackage.core.state import snapshot
    snap = json.dumps(snapshot(g), default=str, sort_keys=True)
    action = g.legal_actions()[0]
    g.process(action)
    g.undo()
    assert json.dumps(snapshot(g), default=str, sort_keys=True) == snap
    assert json.dumps(game_to_log(g)["actions"]) == before
    g.redo()
    assert g.actions[-1] is action or g.actions[-1] == action
    with pytest.raises(GameError):
        g.redo()


def test_legal_actions_all_apply():
    """Every enumerated action is accepted (checked on a copy rebuilt by undo)."""
    g = random_playout("1825", 4, ["unit_1"], 11, max_actions=400)
    start = g.total_cash()
    for a in g.legal_actions()[:25]:
        a = dict(a)
        if "price_range" in a:
            a.pop("price_range"), a.pop("price_step", None)
        g.process(a)
        check(g, start, a)
        g.undo()
