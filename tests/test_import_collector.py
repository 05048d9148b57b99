"""A log import turns the cyclic garbage collector off while it runs (trackage.core.pipeline's
``Pipeline.load``) and leaves it as it found it: on after an import that finished, after one
that failed, and off when the caller had it off."""

from __future__ import annotations

import gc

import pytest
from conftest import require_fixtures

from trackage.core.errors import GameError
from trackage.core.log import filter_actions, load_log
from trackage.replay import game_from_log, replay_data

LOG = require_fixtures("1867")[0]


def test_import_keeps_the_collector_on_and_its_game():
    data = load_log(LOG)
    assert gc.isenabled()
    seen: list[bool] = []
    out = replay_data(data, trace=None)
    assert out.matches
    assert gc.isenabled()
    # while the actions are applied the collector is off
    game = game_from_log(load_log(LOG))
    game.load(filter_actions(load_log(LOG)["actions"])[:5], trace=lambda g, a: seen.append(gc.isenabled()))
    assert seen == [False] * 5
    assert gc.isenabled()


def test_import_that_fails_turns_the_collector_back_on():
    data = load_log(LOG)
    actions = filter_actions(data["actions"])[:3] + [{"type": "lay_tile", "entity": "nobody", "hex": "ZZ99"}]
    game = game_from_log(data)
    with pytest.raises(GameError):
        game.load(actions)
    assert gc.isenabled()
    assert len(game.actions) == 3


def test_import_leaves_the_collector_off_when_it_was():
    data = load_log(LOG)
    gc.disable()
    try:
        game = game_from_log(data)
        game.load(filter_actions(data["actions"])[:5])
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert len(game.actions) == 5
