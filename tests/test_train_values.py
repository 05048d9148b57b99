"""Trains out of play as frozen values: a rusted train leaves the game as a value every copy
shares, and undo puts the live train back (``core/trains.py``: ``retire``, ``RetiredTrain``)."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from trackage.core.log import filter_actions, load_log
from trackage.core.rewind import state_class
from trackage.core.state import full_state
from trackage.core.trains import RetiredTrain, Train, change_train
from trackage.replay import game_from_log

LOG = FIXTURES / "1861" / "29683.json"
needs_log = pytest.mark.skipif(not LOG.is_file(), reason=f"no shared fixture {LOG}")


def retired(game) -> list[Train]:
    return [t for t in game.depot.trains if type(t) is RetiredTrain]


def first_rust(actions) -> int:
    """The number of actions after which the first trains have rusted."""
    data = load_log(LOG)
    g = game_from_log(data)
    for n in range(1, len(actions) + 1):
        g.load(actions[n - 1:n])
        if retired(g):
            return n
    raise AssertionError("no train rusts in the log")


@needs_log
def test_a_rusted_train_is_a_value_copies_share_and_undo_takes_back():
    data = load_log(LOG)
    actions = filter_actions(data["actions"])
    n = first_rust(actions)
    g = game_from_log(data)
    g.load(actions[:n])
    values = retired(g)
    assert values
    for t in values:
        assert t.rusted and t.owner is None
        assert not any(t in holder for holder in (g.depot.upcoming, g.depot.discarded))
        assert g.depot.train_by_id(t.id) is t
        with pytest.raises(AttributeError):
            t.operated = True
    # a copy shares the values, and its state is the original's
    c = g.copy()
    assert [t for t in c.depot.trains if type(t) is RetiredTrain] == values
    assert full_state(c) == full_state(g)
    # undo: the live trains are back, not rusted, each held by its owner again
    after = full_state(g)
    g.undo()
    assert not retired(g)
    ids = {t.id for t in values}
    back = [t for t in g.depot.trains if t.id in ids]
    assert back
    assert [(state_class(t), t.rusted) for t in back] == [(Train, False)] * len(back)
    assert all(t.owner is not None for t in back)
    for t in back:
        holder = g.depot.upcoming + g.depot.discarded if t.owner is g.depot else t.owner.trains
        assert t in holder
    # the copy made before the undo keeps its values; redo rusts the same trains again
    assert [t for t in c.depot.trains if type(t) is RetiredTrain] == values
    assert full_state(c) == after
    g.redo()
    assert {t.id for t in retired(g)} == ids
    assert full_state(g) == after


@needs_log
def test_a_change_to_a_train_out_of_play_is_a_new_value():
    """A loop over every train of the depot (a purchase making a kind obsolete) may meet a
    rusted one: ``change_train`` puts a new value in its place; a copy made before keeps the
    old one."""
    data = load_log(LOG)
    actions = filter_actions(data["actions"])
    g = game_from_log(data)
    g.load(actions[:first_rust(actions)])
    old = retired(g)[0]
    c = g.copy()
    new = change_train(g, old, obsolete=True)
    assert type(new) is RetiredTrain and new is not old
    assert new.obsolete and not old.obsolete and new.id == old.id and new.rusted
    assert g.depot.train_by_id(old.id) is new and old not in g.depot.trains
    assert c.depot.train_by_id(old.id) is old
    with pytest.raises(AttributeError):
        change_train(g, new, no_such_field=1)
    live = next(t for t in g.depot.trains if type(t) is not RetiredTrain)
    assert change_train(g, live, operated=True) is live and live.operated


EXPORTS = [FIXTURES / "1822" / "1822_game_end_stock_market.json", FIXTURES / "1867" / "21268.json"]


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_exported_trains_leave_play_as_values(path):
    """1822's and 1867's exports (a train leaves the depot with no buyer) are values too, and
    one that rusts afterwards is a new value that says so; a copy's state is the original's."""
    if not path.is_file():
        pytest.skip(f"no shared fixture {path}")
    data = load_log(path)
    g = game_from_log(data)
    g.load(filter_actions(data["actions"]))
    kept = {id(t) for t in getattr(g, "company_trains", {}).values()}
    out = [t for t in g.depot.trains if t.owner is None and id(t) not in kept]
    assert out and all(type(t) is RetiredTrain for t in out)
    assert any(not t.rusted for t in out) and any(t.rusted for t in out)
    assert not any(t in g.depot.upcoming or t in g.depot.discarded for t in out)
    assert full_state(g.copy()) == full_state(g)
