"""The supply tiles the games of a shared map share (``TileSupply``'s pools): a tile laid in a
rotation on a hex is one placement for every game of the process; a game lists the same
actions and ends in the same state with pools or without; closing a game leaves the pooled
tiles whole; a pool serves a bounded number of games."""

from __future__ import annotations

import json
import random

import pytest

from trackage.core.game import Game
from trackage.core.hexmap import TileSupply
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def _new(title: str, seed: int) -> Game:
    n, options = COMBOS[title][0]
    return new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)


def _play(title: str, seed: int, decisions: int) -> tuple[Game, list[str]]:
    game = _new(title, seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(decisions):
        if game.finished:
            break
        legal = game.legal_actions(routes=False)
        seen.append(json.dumps(legal, sort_keys=True, default=str))
        lays = [a for a in legal if a["type"] == "lay_tile"]
        action = choose(rng, lays) if lays and rng.random() < 0.7 else (
            game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
        if action["type"] == "run_routes":
            action = choose(rng, [a for a in game.legal_actions() if a["type"] == "run_routes"])
        game.process(action)
    seen.append(json.dumps(full_state(game), sort_keys=True, default=str))
    return game, seen


def _laid(game: Game) -> list[object]:
    board = game.board
    return [board.tile(h) for h in board.hexmap.hexes if not board.tile(h).preprinted]


@pytest.mark.parametrize(("title", "seed"), [("1825", 1), ("1858", 2), ("1861", 3)])
def test_pooled_games_list_and_end_alike(title: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    pooled, seen = _play(title, seed, 160)
    again, seen_again = _play(title, seed, 160)  # the pool's placements made by the first
    assert pooled.board.supply.pooled
    laid = _laid(again)
    assert laid and all(a is b for a, b in zip(_laid(pooled), laid, strict=True))
    monkeypatch.setattr(TileSupply, "POOL_GAMES", 0)
    own, seen_own = _play(title, seed, 160)
    assert not own.board.supply.pooled
    assert not any(a is b for a, b in zip(_laid(pooled), _laid(own), strict=True))
    assert seen == seen_again == seen_own


def test_close_leaves_pooled_tiles_whole() -> None:
    other, seen = _play("1858", 2, 120)
    closed, _ = _play("1858", 2, 120)
    closed.close()
    for placed in _laid(other):
        assert placed.paths is not None and placed.cities is not None  # not taken apart
    _, seen_again = _play("1858", 2, 120)
    assert seen_again == seen
    other.legal_actions()


def test_a_pool_serves_a_bounded_number_of_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TileSupply, "POOL_GAMES", 2)
    _new("1867", 0).board.hexmap.supply_pools.clear()  # (the map's pools begun afresh)
    first = _new("1867", 1).board.supply.initial
    second = _new("1867", 2).board.supply.initial
    third = _new("1867", 3).board.supply.initial
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert not any(a is b for a, b in zip(first, third, strict=True))
    assert [t.id for t in third] == [t.id for t in first]
