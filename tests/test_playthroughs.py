"""Playthrough files: random games the reference agreed with, action by action, kept for CI.

Each entry of tests/playthroughs/manifest.json is a seeded random game (``trackage playout``)
that the reference engine replayed to the same state after every action. Here, without the
reference, the stored log must replay to the stored trace line by line, and playing the same
seed live must give the same actions (the live rules agree with the replayed ones).
Regenerate with ``scripts/playthroughs`` (see its docstring) after a deliberate rule change,
and only with games a differential run agreed with.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trackage import playthrough as pt

FOLDER = Path(__file__).parent / "playthroughs"
ENTRIES = pt.load_manifest(FOLDER / "manifest.json")
IDS = [f"{e.title}-{e.name}" for e in ENTRIES]


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_replay_gives_the_agreed_trace(entry):
    log, lines = pt.read(FOLDER, entry)
    got, outcome = pt.trace_of(log)
    assert outcome.error is None, f"action {outcome.failed_action} failed: {outcome.error}"
    assert pt.first_difference(lines, got) is None, pt.first_difference(lines, got)
    assert outcome.finished and outcome.result == log["result"]


# live play costs what legal_actions() costs: CI plays the first LIVE_LIMIT actions of each
# game (TRACKAGE_PLAYTHROUGH_LIVE=all plays every game to its end, as scripts/playthroughs --check)
LIVE_LIMIT = None if os.environ.get("TRACKAGE_PLAYTHROUGH_LIVE") == "all" else 400


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_live_play_gives_the_agreed_log(entry):
    log, _ = pt.read(FOLDER, entry)
    stored = log["actions"]
    whole = LIVE_LIMIT is None or len(stored) <= LIVE_LIMIT
    game = pt.play(entry, max_actions=None if whole else LIVE_LIMIT)
    played = pt.log_of(game)["actions"]
    for i, (want, got) in enumerate(zip(stored, played)):
        assert want == got, f"action {i + 1} differs: stored {want}, played {got}"
    if whole:
        assert game.finished, f"{entry.name} did not reach its end"
        assert len(played) == len(stored)
        assert game.result() == log["result"]
    else:
        assert len(played) == LIVE_LIMIT


def test_the_manifest_covers_every_title():
    counts: dict[str, int] = {}
    for e in ENTRIES:
        counts[e.title] = counts.get(e.title, 0) + 1
    titles = {"1825", "1822", "1867", "1861", "1858", "1858India", "1893"}
    assert {t for t in titles if counts.get(t, 0) >= 8} == titles, counts


def test_delta_coding_round_trips():
    lines = [{"id": 1, "cash": {"1": 5, "2": 7}, "corps": {}},
             {"id": 2, "cash": {"1": 5, "2": 3}, "corps": {"A": {"cash": 1}}},
             {"id": 3, "cash": {"1": 5}, "corps": {"A": {"cash": 1, "x": None}}},
             {"id": 4, "corps": {}}]
    text = pt.encode_trace(lines)
    assert pt.decode_trace(text) == lines
    assert len(text.splitlines()[1]) < len(str(lines[1]))  # only what changed is written
