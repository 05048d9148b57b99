"""Seeded random playouts of 1858 and 1858 India (scripts/playouts runs more): each game
ends, keeps the invariants after every action, and its exported log replays to the same
result. Random players rarely break the bank here; a game may end at turn 100 ("dnf")."""

from __future__ import annotations

import pytest

from trackage.playout import COMBOS, run_one

CASES = [("1858", 28), ("1858", 29), ("1858India", 18), ("1858India", 17)]


@pytest.mark.parametrize("title,seed", CASES, ids=[f"{t}-{s}" for t, s in CASES])
def test_playout(title, seed):
    ok, game, _players, _options, _played, _replayed, rep = run_one(title, seed, 20000)
    assert game.finished, f"{title} seed {seed} did not finish ({len(game.actions)} actions)"
    assert rep.error is None, rep.error
    assert rep.result == game.result()
    assert ok


def test_combos_cover_quick_start_and_player_counts():
    for title, lo in (("1858", 2), ("1858India", 3)):
        counts = {n for n, _ in COMBOS[title]}
        assert min(counts) == lo and max(counts) == 6
        assert any("quick_start_a" in o for _, o in COMBOS[title])
        assert any("quick_start_b" in o for _, o in COMBOS[title])
