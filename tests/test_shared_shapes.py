"""The tile supply's shapes shared by the games of a process (``Game.SHARED_SHAPES``): a title
with the flag gets the same off-map tile (and so the same placements) in every game, one
without it keeps its own first copy; with the flag on or off a game lists the same actions and
ends in the same state."""

from __future__ import annotations

import json
import random

import pytest

from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import TITLES, new_game

SHARING = ("1893", "1858", "1858India", "1861", "1867", "1822")


def _game(title: str, seed: int):
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    return new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)


def _play(title: str, seed: int, decisions: int) -> tuple[list[str], str]:
    game = _game(title, seed)
    rng = random.Random(seed)
    listings = []
    for _ in range(decisions):
        if game.finished:
            break
        legal = game.legal_actions()
        listings.append(json.dumps(legal, sort_keys=True))
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    state = json.dumps(full_state(game), sort_keys=True, default=str)
    game.close()
    return listings, state


@pytest.mark.parametrize("title", [t for t in SHARING if t in TITLES])
def test_shapes_are_shared_between_games(title):
    a, b = _game(title, 1), _game(title, 2)
    assert type(a).SHARED_SHAPES
    name = a.board.supply.initial[0].name
    shape = a.board.supply.shape(name)
    assert shape is b.board.supply.shape(name)
    assert shape not in a.board.supply.made()  # never one of a game's own tiles
    assert shape.id == a.board.supply.copy_of(name, 0).id
    assert shape.at(2, None) is b.board.supply.shape(name).at(2, None)
    a.close()
    assert shape.at(2, None).paths  # a closed game leaves the shared placements whole


def test_a_title_without_the_flag_keeps_its_own_first_copy():
    game = _game("1825", 0)
    assert not type(game).SHARED_SHAPES
    name = game.board.supply.initial[0].name
    assert game.board.supply.shape(name) is game.board.supply.copy_of(name, 0)


@pytest.mark.parametrize("title,seed", [("1893", 4), ("1858", 2), ("1867", 1), ("1822", 1), ("1822", 4)])
def test_listings_and_state_equal_with_the_flag_off(title, seed, monkeypatch):
    on = _play(title, seed, 150)
    monkeypatch.setattr(type(_game(title, seed)), "SHARED_SHAPES", False)
    off = _play(title, seed, 150)
    assert on == off
    assert any('"lay_tile"' in x for x in on[0])  # (the games reached tile lays)
