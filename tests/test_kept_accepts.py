"""The stopped step's "anything?" kept for a load's next action: after an action, the step the
round's answer names (with the base "blocking?") has actions for the round's operator; where
nothing has moved before the next action's round ``process`` (the very next state number, the
same round, title hooks that write nothing the steps read), the pipeline tells the round, which
asks that step only :meth:`Step.accepts`. Every such answer must be the step's fresh one, a
title hook that writes between actions must stop the keep, and a replay must be the same with
the keep and without it."""

from __future__ import annotations

import io
import json

import pytest
from conftest import require_fixtures

from trackage.core.game import Game
from trackage.core.log import filter_actions, load_log
from trackage.core.pipeline import Pipeline, changed
from trackage.core.round import Step
from trackage.core.state import full_state
from trackage.core.steps.stock import BuySellParShares
from trackage.replay import game_from_log, replay_data
from trackage.titles import TITLES

# one log per title (the first), and all of them for the exactness check
FIRST = [fs[0] for title in sorted(TITLES) if (fs := require_fixtures(title))]


def _step_classes() -> list[type]:
    out, todo = [], [Step]
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(c.__subclasses__())
    return out


def _spy(monkeypatch: pytest.MonkeyPatch, calls: list[tuple[type, str]]) -> None:
    """Every ``accepts`` checked against the step's fresh answers, in the very state asked."""
    for cls in _step_classes():
        own = cls.__dict__.get("accepts")
        if own is None:
            continue

        def checked(self, entity, atype, _own=own):
            got = _own(self, entity, atype)
            fresh = self.answers(entity, atype)
            assert self.has_actions(entity), (type(self).__name__, atype)
            assert fresh == (got, True), (type(self).__name__, atype, got, fresh)
            calls.append((type(self), atype))
            return got

        monkeypatch.setattr(cls, "accepts", checked)


def _replay(path) -> tuple[str, object, str]:
    buf = io.StringIO()
    out = replay_data(load_log(path), trace=buf)
    assert out.error is None, out.error
    return buf.getvalue(), out.result, json.dumps(full_state(out.game), sort_keys=True, default=str)


@pytest.mark.parametrize("path", FIRST, ids=lambda p: f"{p.parent.name}/{p.name}" if p else "none")
def test_every_kept_answer_is_the_fresh_one_and_the_replay_is_the_same_without(path, monkeypatch):
    plain = _replay(path)
    calls: list[tuple[type, str]] = []
    with monkeypatch.context() as m:
        _spy(m, calls)
        assert _replay(path) == plain
    assert calls, "the keep answered no action of the log"
    # the keep off (every title's preprocess_action said to write): the same replay, no keep
    cls = type(game_from_log(load_log(path)))
    off: list[tuple[type, str]] = []
    with monkeypatch.context() as m:
        m.setattr(cls, "PREPROCESS_KEEPS_STEPS", False)
        _spy(m, off)
        assert _replay(path) == plain
    assert off == []


def test_a_title_hook_that_writes_turns_the_keep_off():
    class Writing(Game):
        def preprocess_action(self, action, entity):
            self.note = action.get("type")  # (a write the steps might read)

    class Said(Writing):
        PREPROCESS_KEEPS_STEPS = True

        def preprocess_action(self, action, entity):
            pass

    class Inherits(Said):
        pass

    assert Game.PREPROCESS_KEEPS_STEPS is True
    assert Writing.PREPROCESS_KEEPS_STEPS is False
    assert Said.PREPROCESS_KEEPS_STEPS is True and Inherits.PREPROCESS_KEEPS_STEPS is True
    from trackage.titles.t1867.game import Game1867

    assert Game1867.PREPROCESS_KEEPS_STEPS is True  # (said in its own body: it writes nothing read)


def _first_kept(monkeypatch: pytest.MonkeyPatch, data: dict, actions: list, seen: list[tuple[type, str]],
                wanted) -> int | None:
    """The index of the first action of a load, one by one under the spy, that the keep answers
    (the spy saw it) and ``wanted(index, game)`` picks; None where there is none."""
    with monkeypatch.context() as m:
        _spy(m, seen)
        game = game_from_log(data)
        pipe = Pipeline(game)
        for i, a in enumerate(actions):
            before = len(seen)
            pipe.load([a], strict=False, trace=None, snapshots_near_end=False)
            if len(seen) > before and wanted(i, game):
                return i
    return None


def test_a_write_between_actions_is_never_answered_from_the_keep(monkeypatch):
    """A hook that writes what the stopped step's "anything?" reads, between two actions of a
    load, falsely said to write nothing: the spy sees an answer that is not the fresh one. Said
    truly (the default for a hook of its own), the keep is not used and the load goes on."""
    path = require_fixtures("1822")[0]
    data = load_log(path)
    cls = type(game_from_log(data))
    actions = filter_actions(data["actions"])
    seen: list[tuple[type, str]] = []
    # the first stock-round pass that the keep answers
    n = _first_kept(monkeypatch, data, actions, seen,
                    lambda i, g: seen[-1][1] == "pass" and "Stock" in g.round.name)
    assert n is not None
    step_cls = seen[-1][0]
    assert issubclass(step_cls, BuySellParShares)
    has, answers = step_cls.has_actions, step_cls.answers

    def emptying(self, action, entity):
        # a write the player's stock step reads: it has nothing more to do
        object.__setattr__(self, "_emptied", True)

    def has_(s, e):
        return False if s.game.__dict__.get("_emptied") else has(s, e)

    def answers_(s, e, t):
        return (False, False) if s.game.__dict__.get("_emptied") else answers(s, e, t)

    for said in (True, False):
        with monkeypatch.context() as m:
            got: list[tuple[type, str]] = []
            game = game_from_log(data)
            pipe = Pipeline(game)
            pipe.load(actions[:n], strict=False, trace=None, snapshots_near_end=False)
            m.setattr(cls, "preprocess_action", emptying)
            m.setattr(cls, "PREPROCESS_KEEPS_STEPS", said)
            m.setattr(step_cls, "has_actions", has_)
            m.setattr(step_cls, "answers", answers_)
            _spy(m, got)
            with pytest.raises(Exception) as e:
                pipe.load(actions[n:n + 1], strict=False, trace=None, snapshots_near_end=False)
            if said:  # the false word: the keep answered, and the spy saw it was not the fresh answer
                assert isinstance(e.value, AssertionError)
            else:  # the default for a hook of its own: asked afresh, the round refuses the pass
                assert not isinstance(e.value, AssertionError)
                assert got == []


def test_a_moved_state_between_actions_is_never_answered_from_the_keep(monkeypatch):
    path = require_fixtures("1822")[0]
    data = load_log(path)
    actions = filter_actions(data["actions"])
    # an action the keep answers
    seen: list[tuple[type, str]] = []
    n = _first_kept(monkeypatch, data, actions, seen, lambda i, g: i >= 20)
    assert n is not None
    counts = []
    for move in (False, True):
        got: list[tuple[type, str]] = []
        with monkeypatch.context() as m:
            game = game_from_log(data)
            pipe = Pipeline(game)
            pipe.load(actions[:n], strict=False, trace=None, snapshots_near_end=False)
            _spy(m, got)
            if move:
                changed(game)  # (a change outside the play API: the state moved)
            pipe.load(actions[n:n + 1], strict=False, trace=None, snapshots_near_end=False)
        counts.append(len(got))
    assert counts[0] >= 1 and counts[1] == 0


@pytest.mark.parametrize("path", FIRST, ids=lambda p: f"{p.parent.name}/{p.name}" if p else "none")
def test_every_carried_list_is_the_fresh_one(path, monkeypatch):
    """The list the skip worked out for the step it stopped at, carried with the round's kept
    answer to the next action of a load: in the very state that action starts in, it is the
    step's fresh :meth:`Step.actions` of that entity (and the replay is the same); the steps
    the skip found inactive, carried with it (the round does not ask them), are inactive."""
    from trackage.core.round import Round

    plain = _replay(path)
    seen: list[str] = []
    quiet: list[int] = []
    process = Round.process

    def checked(self, action, entity):
        hint = self.hinted
        if hint is not None:
            step, who, acts, idle = hint
            # the steps the skip found inactive (not asked by the round): inactive still
            assert all(s in self.steps and not s.active() for s in idle), [type(s).__name__ for s in idle]
            if idle:
                quiet.append(len(idle))
            if acts is not None:
                assert acts == step.actions(who), (type(step).__name__, acts)
                assert step.has_actions(who)
                seen.append(action["type"])
        return process(self, action, entity)

    with monkeypatch.context() as m:
        m.setattr(Round, "process", checked)
        assert _replay(path) == plain
    assert seen, "no list was carried over the log"
    assert quiet, "no inactive step was carried over the log"
    # the skip's list dropped (never carried): the same replay
    with monkeypatch.context() as m:
        m.setattr(Round, "answered", lambda self, found: setattr(self, "settled", (found,))
                  if self.KEEP_SKIP_ANSWER else None)
        assert _replay(path) == plain
