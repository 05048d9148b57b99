"""1825's track step answers the round from the one kind asked: where a tile lay settles both
of the round's questions the token question is not answered, but what it writes (the graph's
route information) is written all the same, so the state is the one the whole list leaves."""

from __future__ import annotations

import pytest
from conftest import FIXTURES as SHARED_FIXTURES

from trackage.core.log import load_log
from trackage.core.state import full_state
from trackage.replay import filter_actions, game_from_log
from trackage.titles.t1825.steps import TrackAndToken1825

FIXTURES = SHARED_FIXTURES / "1825"
LOGS = ("141331", "1825_game_end_bank")


def _track_step(g):
    for s in getattr(g.round, "steps", ()):
        if isinstance(s, TrackAndToken1825) and not s.passed:
            return s
    return None


def _route_info(g):
    return {k: {c.id: dict(r) for c, r in v.items()} for k, v in g.board.state.route_info.items()}


@pytest.mark.parametrize("name", LOGS)
def test_token_writes_leave_what_the_token_question_leaves(name):
    path = FIXTURES / f"{name}.json"
    if not path.exists():
        pytest.skip("shared fixtures not present")
    data = load_log(path)
    g = game_from_log(data)
    checked = {"n": 0, "taught": 0}

    def on_action(game, _action):
        step = _track_step(game)
        if step is None or checked["n"] >= 60:
            return
        entity = step.current_entity()
        if entity is None or step.game.silent_receivership(entity):
            return
        asked, written = game.copy(), game.copy()
        s_asked, s_written = _track_step(asked), _track_step(written)
        e_asked = asked.corporation_by_id(entity.id)
        e_written = written.corporation_by_id(entity.id)
        before = _route_info(written)
        answer = s_asked.can_place_token(e_asked)
        s_written._token_writes(e_written)
        assert _route_info(written) == _route_info(asked)
        assert full_state(written) == full_state(asked)
        # the answer, asked afterwards, is the one the question gives and writes nothing more
        after = _route_info(written)
        assert s_written.can_place_token(e_written) == answer
        assert _route_info(written) == after
        checked["n"] += 1
        checked["taught"] += after != before

    g.load(filter_actions(data["actions"]), trace=on_action)
    assert checked["n"] >= 30
    assert checked["taught"] > 0  # some questions did teach the route information


def test_lay_answers_without_the_token_answer():
    """The round asks about a lay: both truths from the lay alone, the list's truths."""
    path = FIXTURES / "141331.json"
    if not path.exists():
        pytest.skip("shared fixtures not present")
    data = load_log(path)
    g = game_from_log(data)
    seen = {"n": 0}

    def on_action(game, _action):
        if seen["n"] >= 80 or _track_step(game) is None:
            return
        game = game.copy()  # (the list's token question writes: asked on a copy)
        step = _track_step(game)
        entity = step.current_entity()
        if entity is None:
            return
        for atype in ("lay_tile", "place_token", "pass", "special_buy", "buy_train"):
            listed = step.actions(entity)
            assert step.answers(entity, atype) == (atype in listed, bool(listed))
        seen["n"] += 1

    g.load(filter_actions(data["actions"]), trace=on_action)
    assert seen["n"] > 40
