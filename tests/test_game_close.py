"""``Game.close()``: a finished game's tiles as placed are freed by reference counting."""

from __future__ import annotations

import gc
import random

import pytest

from trackage.core.game import Game
from trackage.core.hexmap import TileSupply
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def _played(title: str, decisions: int) -> Game:
    n, options = COMBOS[title][0]
    game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, 0)
    rng = random.Random(0)
    for _ in range(decisions):
        if game.finished:
            break
        legal = game.legal_actions()
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    return game


def _cyclic_garbage_of(game: Game, close: bool) -> int:
    gc.collect()
    if close:
        game.close()
    del game
    return gc.collect()


def test_close_leaves_less_cyclic_garbage(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the game's own tiles: a pooled supply's tiles are its map's other games' too, kept whole)
    monkeypatch.setattr(TileSupply, "POOL_GAMES", 0)
    kept = _cyclic_garbage_of(_played("1858India", 60), close=False)
    closed = _cyclic_garbage_of(_played("1858India", 60), close=True)
    assert closed < kept / 2, (closed, kept)


def test_close_does_not_touch_other_games() -> None:
    other = _played("1858India", 20)
    before = full_state(other)
    _played("1858India", 20).close()
    assert full_state(other) == before
    other.legal_actions()
