"""A replay keeps its game's start as what it was built from (``pipeline.Start``), not as a
copy: an undo that reaches the start builds it then, and the game it gives back is the one
an eager copy of the start gives back (the state, the history, and what is played after)."""

from __future__ import annotations

import json
import random

import pytest
from conftest import FIXTURES

from trackage.core.log import filter_actions, load_log
from trackage.core.pipeline import Pipeline, Start
from trackage.core.state import full_state
from trackage.replay import game_from_log, replay_data

LOGS = ["1822/hs_lxemeslq_30797.json", "1867/hs_ahjzadkh_19792.json", "1893/1893_game_end_bank.json"]


def _data(name: str) -> dict:
    path = FIXTURES / name
    if not path.is_file():
        pytest.skip(f"NO FIXTURES: {path} is absent")
    return load_log(path)


def _eager(data: dict):
    """The same log loaded through ``Game.load``: its start copied before the first action."""
    game = game_from_log(data)
    game.load(filter_actions(json.loads(json.dumps(data["actions"]))), snapshots_near_end=False)
    return game


@pytest.mark.parametrize("name", LOGS)
def test_the_start_built_again_is_the_copy(name):
    data = _data(name)
    out = replay_data(json.loads(json.dumps(data)))
    game = out.game
    assert out.error is None and game is not None
    start = game.snapshots[0]
    assert isinstance(start, Start) and list(game.snapshots) == [0]
    eager = _eager(data)
    copy = eager.snapshots[0]
    assert not isinstance(copy, Start)
    built = Pipeline(game).start_of(start)
    assert full_state(built) == full_state(copy)
    assert (built.loading, built.strict, built.check_programs, built.untracked) == \
        (copy.loading, copy.strict, copy.check_programs, copy.untracked)
    assert type(built) is type(copy) and type(built.board) is type(copy.board)


@pytest.mark.parametrize("name", LOGS[:2])
def test_undo_redo_and_play_after_a_replay(name):
    data = _data(name)
    game = replay_data(json.loads(json.dumps(data))).game
    eager = _eager(data)
    assert full_state(game) == full_state(eager)
    for _ in range(3):  # each from the start: only the start is kept
        assert game.undo() == eager.undo()
        assert full_state(game) == full_state(eager)
    assert not isinstance(game.snapshots[0], Start)  # built once, then kept as the copy it is
    assert full_state(game.snapshots[0]) == full_state(eager.snapshots[0])
    game.redo()
    eager.redo()
    assert full_state(game) == full_state(eager)
    if not game.finished:
        action = game.legal_actions()[0]
        assert action == eager.legal_actions()[0]
        game.process(dict(action))
        eager.process(dict(action))
        assert full_state(game) == full_state(eager)
        game.undo()
        eager.undo()
        assert full_state(game) == full_state(eager)


def test_a_copy_of_a_replayed_game_undoes_alike():
    data = _data(LOGS[0])
    game = replay_data(json.loads(json.dumps(data))).game
    twin = game.copy()
    game.undo()
    twin.undo()
    assert full_state(game) == full_state(twin)
    assert full_state(game) == full_state(_after(data, -1))


def _after(data: dict, drop: int):
    game = game_from_log(data)
    game.load(filter_actions(json.loads(json.dumps(data["actions"])))[:drop])
    return game


def test_1822_shared_game_data_is_never_changed():
    """1822's market, phases, trains and tables are shared by its games (read only): after
    replays of the 1822 logs and a few hundred live decisions, they are as the file says."""
    from trackage.playout import choose
    from trackage.titles import new_game
    from trackage.titles.t1822 import config

    for name in ("1822/hs_lxemeslq_30797.json", "1822/discard_trains_after_sr_export.json"):
        out = replay_data(json.loads(json.dumps(_data(name))))
        assert out.error is None
    rng = random.Random(5)
    game = new_game("1822", [{"id": i, "name": f"P{i}"} for i in range(1, 5)], ["plus_expansion"], 5)
    made = 0
    while made < 300 and not game.finished:
        legal = game.legal_actions()
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
        made += 1
    assert made == 300 or game.finished
    assert config.catalogue("game") == json.loads(config._text("game"))
    assert config.build([], 3)["trains"] is config.catalogue("game")["trains"]
