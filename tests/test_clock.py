"""The chess clock computed from a log: hand-built cases, presets, penalties, and a real log
checked against an independent sum of its timestamps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trackage.clock import ClockSettingsError, ClockWalk, parse_settings, tally
from trackage.core.log import filter_actions
from trackage.core.rng import seed_for
from trackage.titles import new_game
from trackage.turns import Mark, Seen, replay_marks

FIXTURE = Path("/work/shared/fixtures/1861/167259.json")


def seen(*to_act: str) -> Seen:
    return Seen(tuple(to_act), "stock", to_act[0] if to_act else None, ())


def test_hand_built_intervals_go_to_who_was_to_act():
    # A to act at the start; A acts at 100 (B to act), B at 160 (A and B both to act),
    # a message at 170 (nobody's turn changes), A at 200 (B to act), B at 210 (C to act),
    # B undoes it at 230 (B to act again), B ends the game at 245.
    marks = [
        Mark(1, 100.0, "action", "A", ("B",)),
        Mark(2, 160.0, "action", "B", ("A", "B")),
        Mark(3, 170.0, "message", "C", ("A", "B")),
        Mark(4, 200.0, "action", "A", ("B",)),
        Mark(5, 210.0, "action", "B", ("C",)),
        Mark(6, 230.0, "undo", "B", ("B",)),
        Mark(7, 245.0, "action", "B", ()),        # the game is over
    ]
    r = tally(["A", "B", "C"], seen("A"), marks, start_at=40.0)
    # by hand: A: 40-100 (60) + 160-200 (40) = 100; B: 100-160 (60) + 160-200 (40) + 200-210 (10)
    # + 210-230 (20, the undo is charged to its sender) + 230-245 (15) = 145; C: nothing
    assert {p: c.used_s for p, c in r.players.items()} == {"A": 100.0, "B": 145.0, "C": 0.0}
    assert r.counted_s == 245.0 - 40.0
    assert r.running == () and r.since == 245.0
    assert r.as_json()["A"] == {"used_s": 100}


def test_pauses_are_not_charged():
    marks = [Mark(1, 100.0, "action", "A", ("B",)), Mark(2, 400.0, "action", "B", ("A",))]
    s = parse_settings({"budget_s": 1000, "pauses": [[150, 250], [200, 300]]})
    r = tally(["A", "B"], seen("A"), marks, s)
    assert r.players["B"].used_s == 300 - 150
    assert r.uncharged_s == 150
    assert r.as_json()["B"]["left_s"] == 1000 - 150


def test_an_imported_log_stood_still_until_its_import():
    # the log: A at 100 (B to act), B at 160 (A to act); imported at 10_000 (A still to act);
    # A acts at 10_030 after the import: 30 s of A's, not the years the log stood still
    marks = [Mark(1, 100.0, "action", "A", ("B",)), Mark(2, 160.0, "action", "B", ("A",))]
    r = tally(["A", "B"], seen("A"), marks, resumed_at=10_000.0)
    assert {p: c.used_s for p, c in r.players.items()} == {"A": 0.0, "B": 60.0}
    assert r.running == ("A",) and r.since == 10_000.0  # A's clock runs from the import
    r = tally(["A", "B"], seen("A"), [*marks, Mark(3, 10_030.0, "action", "A", ("B",))], resumed_at=10_000.0)
    assert {p: c.used_s for p, c in r.players.items()} == {"A": 30.0, "B": 60.0}
    assert r.uncharged_s == 10_000.0 - 160.0 and r.since == 10_030.0


def test_increments_and_undone_increments():
    ended_a = ("A", "stock")
    marks = [
        Mark(1, 10.0, "action", "A", ("B",), ended_a),
        Mark(2, 20.0, "action", "B", ("A",), ("B", "operating")),
        Mark(3, 30.0, "action", "A", ("B",), ended_a),
        Mark(4, 35.0, "undo", "A", ("A",)),
    ]
    s = parse_settings({"preset": "blitz"})
    r = tally(["A", "B"], seen("A"), marks, s, live_ids=[1, 2])
    assert r.players["A"].increments_s == 10          # action 3 was undone: its increment too
    assert r.players["B"].increments_s == 20
    assert r.players["A"].used_s == 10 + 5            # 20-30 and the undo 30-35
    assert r.as_json()["A"]["left_s"] == 900 + 10 - 15


def test_presets_and_overrides():
    assert parse_settings({"preset": "blitz"}).as_json()["budget_s"] == 900
    b = parse_settings({"preset": "blitz"})
    assert (b.budget_s, b.sr_turn_s, b.operation_s) == (900, 10, 20)
    assert parse_settings({"preset": "2h"}).budget_s == 7200
    a = parse_settings({"preset": "async"})
    assert (a.budget_s, a.sr_turn_s, a.operation_s) == (86400, 86400, 86400)
    assert parse_settings({"preset": "2h", "sr_turn_s": 30}).sr_turn_s == 30
    for bad in ({}, {"preset": "bullet"}, {"budget_s": -1}, {"budget_s": 10, "speed": 1},
                {"budget_s": 10, "penalty": {"mode": "fine"}}, {"budget_s": 10, "pauses": [[5, 1]]}, []):
        with pytest.raises(ClockSettingsError):
            parse_settings(bad)


def test_penalty_show_and_deduct():
    marks = [Mark(1, 0.0, "action", "A", ("A",)), Mark(2, 200.0, "action", "A", ("B",))]
    for mode in ("show", "deduct"):
        s = parse_settings({"budget_s": 60, "penalty": {"mode": mode, "points_per_minute": 5}})
        r = tally(["A", "B"], seen("A"), marks, s)
        # 200 s used of 60: 140 s over = 3 started minutes = 15 points
        assert r.as_json()["A"] == {"used_s": 200, "left_s": -140, "increments_s": 0, "over": True, "penalty": 15}
        assert r.as_json()["B"]["over"] is False
        adjusted = r.adjusted_result({"A": 100, "B": 90})
        assert adjusted == (None if mode == "show" else {"B": 90, "A": 85})


def _fixture_game(log):
    settings = log.get("settings") or {}
    players = [{"id": p["id"], "name": p["name"]} for p in log["players"]]
    return new_game(log["title"], players, [str(o) for o in settings.get("optional_rules") or []],
                    seed_for(log["id"], settings), log["id"], validate=False)


def _owner_player(entity):
    while entity is not None and not getattr(entity, "is_player", False):
        entity = getattr(entity, "owner", None)
    return entity


def _fixture_marks():
    """The shared log, its actions, its players' ids, and its replay's start and marks."""
    log = json.loads(FIXTURE.read_text())
    actions = log["actions"]
    start, marks = replay_marks(_fixture_game(log), actions)
    return log, actions, [str(p["id"]) for p in log["players"]], start, marks


@pytest.mark.skipif(not FIXTURE.exists(), reason="the shared fixtures are not on this machine")
def test_real_log_sums_to_its_span_and_matches_an_independent_sum():
    log, actions, pids, start, marks = _fixture_marks()
    r = tally(pids, start, marks, live_ids={a["id"] for a in filter_actions(actions)})
    assert all(len(m.to_act) <= 1 for m in marks)  # one player at a time in this game
    span = actions[-1]["created_at"] - actions[0]["created_at"]
    assert sum(c.used_s for c in r.players.values()) + r.uncharged_s == span
    assert r.uncharged_s == 0

    # the first 30 actions, summed here from the timestamps and the replayed acting entity
    first = actions[:30]
    assert not any(a["type"] in ("undo", "redo") for a in first)
    game = _fixture_game(log)
    expected = dict.fromkeys(pids, 0)
    for k in range(1, len(first)):
        game.load([first[k - 1]])
        (entity,) = game.acting_entities()
        expected[str(_owner_player(entity).id)] += first[k]["created_at"] - first[k - 1]["created_at"]
    start30, marks30 = replay_marks(_fixture_game(log), first)
    r30 = tally(pids, start30, marks30)
    assert {p: c.used_s for p, c in r30.players.items()} == expected
    assert sum(expected.values()) == first[-1]["created_at"] - first[0]["created_at"]


@pytest.mark.skipif(not FIXTURE.exists(), reason="the shared fixtures are not on this machine")
def test_a_walk_taken_up_after_each_mark_tallies_as_a_walk_from_the_start():
    _log, actions, pids, start, marks = _fixture_marks()
    s = parse_settings({"preset": "blitz", "pauses": [[actions[5]["created_at"], actions[9]["created_at"]]]})
    live = {a["id"] for a in filter_actions(actions)}
    walk = ClockWalk()
    grown: list[Mark] = []
    for m in marks:
        grown.append(m)
        kept = tally(pids, start, grown, s, start_at=actions[0]["created_at"] - 30, live_ids=live, walk=walk)
        fresh = tally(pids, start, list(grown), s, start_at=actions[0]["created_at"] - 30, live_ids=live)
        assert kept == fresh and walk.done == len(grown)
    # other inputs, or the list cut, start the walk over
    assert tally(pids, start, grown, s, live_ids=live, walk=walk) == tally(pids, start, grown, s, live_ids=live)
    del grown[-3:]
    assert tally(pids, start, grown, s, live_ids=live, walk=walk) == tally(pids, start, list(grown), s, live_ids=live)
