"""1893: a game the reference cannot take past the end of an operating round (the quirk "a
founding the reference cannot do"), kept as a playthrough the reference confirmed.

Random 4-player game, seed 5394: at 957 the AGV buys the first 6-train; phase 6 makes the HGK
due at the start of the next merger round. Its largest holder (Player 1, 30%) bought all his
shares, so the reference errs forming it ("uninitialized constant Integer::MAX"): every action
that ends operating round 8.2 fails there. The RSE is the round's last operator; at 967 it buys
a 4-train from the RAG (47M) and is left with 389M and one 4-train, train limit 2. The
reference's train step still lists ``buy_train`` and ``pass`` (trains 4-2, 4-3, 5-1, 6-0 within
its cash), but any purchase fills the RSE's last slot and a pass ends its turn: each ends the
round, and 18xx.games fails on each of them (pass, the 4-3 for 1M, the 4-2 from the depot for
300M, all checked with the reference). Here nothing is listed and those actions are refused,
so random play stops at 967 as the reference does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trackage import playthrough as pt
from trackage.core.errors import GameError
from trackage.core.state import full_state
from trackage.playout import random_playout

FOLDER = Path(__file__).parent / "playthroughs"
ENTRY = pt.Entry("1893", 5394, 4, ())
AGREED = 967  # the reference's last action before the dead end
RSE = {"entity": "RSE", "entity_type": "corporation"}
# what the reference lists there and then fails on (each checked with 18xx.games)
REFUSED = ({"type": "pass"},
           {"type": "buy_train", "train": "4-3", "price": 1},
           {"type": "buy_train", "train": "6-0", "price": 389},
           {"type": "buy_train", "train": "4-2", "price": 300, "variant": "4"})


@pytest.fixture(scope="module")
def stored():
    return pt.read(FOLDER, ENTRY)


def test_replay_gives_the_references_trace(stored):
    log, lines = stored
    assert len(log["actions"]) == len(lines) == AGREED
    got, outcome = pt.trace_of(log)
    assert outcome.error is None and not outcome.finished
    assert pt.first_difference(lines, got) is None, pt.first_difference(lines, got)
    # 957: the 6-train that brings phase 6 (and makes the HGK due)
    assert lines[955]["phase"] == "5" and lines[956]["phase"] == "6"
    last = lines[-1]
    assert last["round"] == "Operating Round" and last["round_num"] == 2
    assert last["corps"]["RSE"]["cash"] == 389 and last["corps"]["RSE"]["trains"] == ["4"]
    # the HGK not formed: Player 1's 30% all bought, Player 3's 20%
    assert last["corps"]["HGK"]["owner"] is None and last["corps"]["HGK"]["shares"] == {"1": 30, "3": 20}


def test_live_play_reaches_the_dead_end(stored):
    log, _ = stored
    game = random_playout("1893", 4, [], 5394, max_actions=AGREED)
    assert pt.log_of(game)["actions"] == log["actions"]
    rse = game.corporation_by_id("RSE")
    assert game.current_entity() is rse and game.hgk_auto_found and game.founding_fails(game.hgk)
    assert game.doomed_founding() is True and game.round_may_end()
    # the train step's own list is the reference's; every item of it ends the round
    step = game.round.active_step()
    assert step.actions(rse) == ["buy_train", "pass"]
    own = step.legal_actions(rse)
    assert [a.get("train") for a in own] == ["4-2", "4-3", "5-1", "6-0", None]
    assert game.train_limit(rse) == 2 and len(rse.trains) == 1
    # nothing is listed, and what the reference fails on is refused, leaving the game as it was
    assert game.legal_actions() == []
    before = full_state(game)
    for action in REFUSED:
        with pytest.raises(GameError) as err:
            game.process({**action, **RSE, "id": AGREED + 1})
        assert err.value.rule == "founding-fails-in-reference", str(err.value)
    assert full_state(game) == before
    assert len(game.actions) == AGREED


def test_a_log_going_on_does_not_load(stored):
    """A log with the RSE's pass after 967 stops there, as on 18xx.games."""
    log, _ = stored
    game = random_playout("1893", 4, [], 5394, max_actions=0)
    game.load(json.loads(json.dumps(log["actions"])))
    with pytest.raises(GameError) as err:
        game.load([{"type": "pass", **RSE, "id": AGREED + 1}])
    assert err.value.rule == "founding-fails-in-reference"


# ------------------------------------------------------------------ a second one (stop 44)
# Random 3-player game with the optional 2-train, seed 5453 (differential slice 5451-5453): the
# HGK is due while its largest holder (Player 2, 40%) bought all his shares. DE is operating
# round 1's last operator; at 639 it runs, and both dividends end the round, where the
# reference fails forming the HGK (each checked with the reference: "uninitialized constant
# Integer::MAX" in its majority-holder sort). Here neither is listed and both are refused.
ENTRY_5453 = pt.Entry("1893", 5453, 3, ("optional_2_train",))
AGREED_5453 = 639
DE = {"entity": "DE", "entity_type": "corporation"}


def test_second_dead_end_replays_to_the_references_trace_and_stops_there():
    log, lines = pt.read(FOLDER, ENTRY_5453)
    assert len(log["actions"]) == len(lines) == AGREED_5453
    got, outcome = pt.trace_of(log)
    assert outcome.error is None and not outcome.finished
    assert pt.first_difference(lines, got) is None, pt.first_difference(lines, got)
    last = lines[-1]
    assert last["round"] == "Operating Round" and last["phase"] == "6"
    assert last["corps"]["HGK"]["owner"] is None and last["corps"]["HGK"]["shares"] == {"1": 10, "2": 40}
    game = pt.play(ENTRY_5453, max_actions=AGREED_5453)
    assert pt.log_of(game)["actions"] == log["actions"]
    de = game.corporation_by_id("DE")
    assert game.current_entity() is de and game.doomed_founding() is True and game.round_may_end()
    step = game.round.active_step()
    assert [a["kind"] for a in step.legal_actions(de)] == ["payout", "withhold"]
    assert game.legal_actions() == []
    before = full_state(game)
    for kind in ("payout", "withhold"):
        with pytest.raises(GameError) as err:
            game.process({"type": "dividend", "kind": kind, **DE, "id": AGREED_5453 + 1})
        assert err.value.rule == "founding-fails-in-reference", str(err.value)
    assert full_state(game) == before
    with pytest.raises(GameError, match=r"no legal action"):
        random_playout("1893", 3, ["optional_2_train"], 5453)
