"""The undo journal (trackage.core.rewind): a live action taken back by its record leaves every
state object of the game as it was, the same objects holding the same values."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import require_fixtures

from trackage.core.errors import GameError
from trackage.core.pipeline import Pipeline
from trackage.core.rewind import Rewind, Tracked, has_barrier, recording
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.rewindcheck import check_live, check_log, differences, marks
from trackage.titles import new_game

TITLES = ["1822", "1825", "1858", "1858India", "1861", "1867", "1893"]
LOGS = [p for t in TITLES for p in require_fixtures(t)]


def _game(title: str, seed: int):
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    return new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)


def _play(game, rng: random.Random, decisions: int) -> None:
    for _ in range(decisions):
        legal = game.legal_actions()
        if game.finished or not legal:
            return
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}" if p is not None else "absent")
def test_every_action_of_a_shared_log_is_put_back(path: Path) -> None:
    # every action applied under a record and taken back: the whole state is the same objects
    # holding the same values as before it (then applied for good, and on to the next)
    assert check_log(path, every=2) == []


@pytest.mark.parametrize("title", TITLES)
def test_live_undo_by_record(title: str) -> None:
    game = _game(title, 1)
    assert check_live(game, 200, seed=1) == []
    assert len(game.actions) > 50


@pytest.mark.parametrize("title", ["1822", "1858", "1867"])
def test_undo_by_record_replays_nothing_and_matches_a_replay(title: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(title, 2)
    _play(game, random.Random(2), 120)
    reference = game.copy()
    n = len(game.actions)
    rng = random.Random(5)
    _play(game, rng, 10)
    made = len(game.actions) - n
    assert made == 10
    # ten live actions back by their records: no snapshot restored, no action replayed
    monkeypatch.setattr(Pipeline, "replay_to", lambda self, n: pytest.fail("undo replayed"))
    for _ in range(made):
        game.undo()
    monkeypatch.undo()
    assert full_state(game) == full_state(reference)
    # and forward again: redo gives the state the actions gave
    for _ in range(made):
        game.redo()
    again = reference.copy()
    _play(again, random.Random(5), 10)
    assert full_state(game) == full_state(again)


@pytest.mark.parametrize("title", ["1822", "1893"])
def test_a_refused_action_leaves_the_same_objects(title: str) -> None:
    game = _game(title, 3)
    rng = random.Random(3)
    refused = 0
    for _ in range(150):
        legal = game.legal_actions()
        if game.finished or not legal:
            break
        priced = [a for a in legal if "price" in a]
        if priced:
            bad = dict(priced[0])
            hi = bad.pop("price_range", (bad["price"], bad["price"]))[1]
            bad["price"] = hi + 7
            before = marks(game)
            with pytest.raises(GameError):
                game.process(bad)
            assert differences(before, marks(game)) == []
            refused += 1
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    assert refused >= 10


def test_a_copy_inside_a_recorded_action_is_not_recorded() -> None:
    game = _game("1893", 0)
    _play(game, random.Random(0), 30)
    action = game.legal_actions()[0]
    rec = Rewind(game, game.rewind_owners())
    with recording(rec):
        trial = game.copy()
        Pipeline(trial).apply(dict(action))  # a trial, as the rules run them
    theirs = {id(o) for o in marks(trial).values() for o in [o[1]]}
    assert not [w for w in rec.writes if id(w[0]) in theirs]


def test_a_load_inside_another_games_recorded_action_is_not_recorded() -> None:
    # the load asks once whether another game's record is being made: its actions then go
    # through the pipeline's check per action, and end as a load made outside any record does
    game = _game("1867", 0)
    _play(game, random.Random(0), 20)
    actions = [dict(a) for a in game.actions]
    plain = _game("1867", 0)
    plain.load([dict(a) for a in actions])
    inside = _game("1867", 0)
    rec = Rewind(game, game.rewind_owners())
    with recording(rec):
        inside.load([dict(a) for a in actions])
    assert not rec.writes
    assert json.dumps(full_state(inside), sort_keys=True, default=str) \
        == json.dumps(full_state(plain), sort_keys=True, default=str)
    assert inside.imported == plain.imported == len(actions) == len(game.actions)


def test_copies_are_of_the_games_own_classes() -> None:
    # a copy fills its objects as barrier-free twins and gives them their class back
    game = _game("1867", 0)
    _play(game, random.Random(0), 40)
    copy = game.copy()
    for _, obj, _ in marks(copy).values():
        if isinstance(obj, Tracked):
            assert has_barrier(type(obj)), type(obj)
    rec = Rewind(copy, copy.rewind_owners())
    with recording(rec):
        copy.players[0].cash += 1
    assert rec.writes and rec.writes[0][0] is copy.players[0]


def test_shared_log_undo_after_import_still_replays() -> None:
    # actions imported from a log have no record: undo replays to them from a snapshot
    path = require_fixtures("1893")[0]
    if not isinstance(path, Path):
        pytest.skip("NO FIXTURES: 1893 (set TRACKAGE_FIXTURES)")
    data = json.loads(path.read_text())
    from trackage.core.log import filter_actions
    from trackage.replay import game_from_log

    game = game_from_log(data)
    actions = filter_actions(data["actions"])[:120]
    game.load(actions)
    before = full_state(game)
    game.undo()
    game.redo()
    assert full_state(game) == before


def test_a_replay_pauses_the_collector_and_leaves_it_as_it_found_it() -> None:
    # replay_data builds the game and applies the log with the cyclic collector paused; it
    # is on again after (or stays off where the caller had it off), and a build that fails
    # turns it back on all the same
    import gc

    from trackage.replay import replay_data

    path = require_fixtures("1893")[0]
    if not isinstance(path, Path):
        pytest.skip("NO FIXTURES: 1893 (set TRACKAGE_FIXTURES)")
    data = json.loads(path.read_text())
    data["actions"] = data["actions"][:40]
    seen: list[bool] = []
    out = replay_data(json.loads(json.dumps(data)),
                      trace=type("Sink", (), {"write": lambda self, t: seen.append(gc.isenabled())})())
    assert gc.isenabled() and seen and not any(seen) and out.error is None and out.applied == len(seen)
    gc.disable()
    try:
        replay_data(json.loads(json.dumps(data)))
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(Exception):  # noqa: B017 - whatever an unknown title raises
        replay_data({**data, "title": "no such title"})
    assert gc.isenabled()


@pytest.mark.parametrize(("title", "seed", "decisions"), [("1893", 0, 300), ("1858", 2, 300), ("1867", 0, 2000)])
def test_a_trial_on_the_game_leaves_it_as_it_was(title: str, seed: int, decisions: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # the rules' trials (Game.trial_error) apply an action on the game itself and take it
    # back by its record: the same objects holding the same values, the same state number,
    # flags and records, whatever the trial met
    real = Pipeline.trial
    seen: list[str] = []

    def checked(self: Pipeline, action: dict, live: bool = True, loading: bool | None = None) -> None:
        game = self.game
        flags = ("_moves", "_listing", "_suggested", "_gate", "_unlisted", "_asking", "_listing_busy", "loading")
        before, held = marks(game), {n: getattr(game, n) for n in flags}
        records = (len(game.actions), len(game.log), len(game.warnings), game.journal.tail, game.snapshots)
        try:
            real(self, action, live, loading)
            seen.append("none")
        except GameError:
            seen.append("refused")
            raise
        finally:
            assert differences(before, marks(game)) == []
            assert {n: getattr(game, n) for n in flags} == held
            assert (len(game.actions), len(game.log), len(game.warnings), game.journal.tail, game.snapshots) == records

    monkeypatch.setattr(Pipeline, "trial", checked)
    _play(_game(title, seed), random.Random(seed), decisions)
    assert seen


def _barrier_free_twins(root: object) -> int:
    """Objects reachable from ``root`` (every referent: catalogue and derived views included)
    that are still barrier-free twins made by ``building_untracked``."""
    import gc

    seen, todo, twins = {id(root)}, [root], 0
    while todo:
        o = todo.pop()
        if isinstance(o, Tracked) and type(o).__dict__.get("TRACKED_CLASS") is not None:
            twins += 1
        for r in gc.get_referents(o):
            if id(r) not in seen and not isinstance(r, (type, str, int, float)):
                seen.add(id(r))
                todo.append(r)
    return twins


@pytest.mark.parametrize("title", TITLES)
def test_a_new_game_is_made_tracked_whole_at_its_first_recorded_action(title: str) -> None:
    # new_game builds barrier-free twins (nothing records a game being made); the first live
    # action turns every one the game reaches back into its class, its snapshots included
    # (the walk skips the catalogue and derived views: none may hold a game's state object)
    game = _game(title, 3)
    assert game.untracked and _barrier_free_twins(game) > 0
    _play(game, random.Random(3), 30)
    assert not game.untracked
    assert _barrier_free_twins(game) == 0
    assert _barrier_free_twins(game.copy()) == 0


def _everything_owners(game) -> list:
    """Every object the journal could save of (the core's owners before they were filtered by
    class): the game, its index and depot, the players and operators, every holder of a train,
    the round and its steps."""
    index = game.index
    out = [game, index, game.depot, *game.players, *index.corporations.values(), *index.minors.values()]
    out += [t.owner for t in game.depot.trains if t.owner is not None]
    if game.round is not None:
        out += [game.round, *game.round.steps]
    return out


@pytest.mark.parametrize("title", ["1893", "1858", "1825", "1861"])
def test_the_owners_left_out_are_those_of_which_nothing_is_saved(title: str) -> None:
    from trackage.core.game import Game

    n, options = COMBOS[title][0]
    game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, 0)
    rng = random.Random(0)
    for step in range(90):
        if game.finished:
            break
        owners = Game.rewind_owners(game)
        everything = _everything_owners(game)
        assert {id(o) for o in owners} <= {id(o) for o in everything}
        assert not [o for o in everything if type(o).SAVE_PLAN and not any(o is x for x in owners)]
        mine, full = Rewind(game, owners), Rewind(game, everything)
        assert {id(c) for c, _ in mine.saved} == {id(c) for c, _ in full.saved}
        legal = game.legal_actions()
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
        if step % 9 == 0:
            before = full_state(game)
            legal = game.legal_actions()
            game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
            game.undo()
            assert full_state(game) == before


class _Shown(Tracked):
    """A state class with a property whose setter stores elsewhere."""

    def __init__(self) -> None:
        self.stored = 1

    @property
    def shown(self) -> int:
        return self.stored * 10

    @shown.setter
    def shown(self, value: int) -> None:
        self.stored = value // 10


def test_a_write_through_a_property_is_undone_by_its_setters_stores() -> None:
    game = new_game("1893", [{"id": 1, "name": "P1"}, {"id": 2, "name": "P2"}], [], 0)
    rec = Rewind(game, [])
    obj = _Shown()
    with recording(rec):
        obj.shown = 70
        obj.fresh = 5
    assert obj.stored == 7
    assert [name for _, name, _ in rec.writes] == ["stored", "fresh"]  # the property's own write not noted
    rec.undo()
    assert obj.stored == 1
    assert obj.shown == 10
    assert not hasattr(obj, "fresh")
