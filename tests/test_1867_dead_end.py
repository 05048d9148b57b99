"""1867: the dead end of a major reset while the trainless nationalisations are being named
(quirk reset-trainless-major), kept as a playthrough the reference confirmed.

Random 4-player game, seed 5382: at 1795 the GTR pays out and ends operating round 19.1; the
8 exported then rusts its 4-trains, the minors are nationalised and the BBG (a minor, the
round's current entity) closing passes the GTR's train step, which nationalises the trainless
GTR. The list of corporations is the one taken before, so the GTR's old record stays in it
(owner 3, price 35, nothing else) and is named among the trainless majors, after GWR, NYC and
C&O. On 18xx.games, once those three have chosen (1796-1798), nothing can be processed any
more ("Blocking step Choose if Major is nationalized cannot process action buy_shares at
1799"): no action can name the old record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trackage import playthrough as pt
from trackage.core.errors import GameError
from trackage.playout import random_playout

FOLDER = Path(__file__).parent / "playthroughs"
ENTRY = pt.Entry("1867", 5382, 4, ())
AGREED = 1798  # the reference's last accepted action


@pytest.fixture(scope="module")
def stored():
    return pt.read(FOLDER, ENTRY)


def test_replay_gives_the_references_trace(stored):
    log, lines = stored
    assert len(log["actions"]) == len(lines) == AGREED
    got, outcome = pt.trace_of(log)
    assert outcome.error is None
    assert pt.first_difference(lines, got) is None, pt.first_difference(lines, got)
    assert not outcome.finished
    # the reference's figures at 1795: the GTR's old record is still listed, with nothing
    gtr = {"cash": 0, "price": 35, "trains": [], "tokens": 0, "owner": "3", "shares": {}, "pool": 0, "ipo": 0}
    assert lines[1794]["id"] == 1795 and lines[1794]["corps"]["GTR"] == gtr
    assert set(lines[-1]["corps"]) == {"CNR", "GTR", "GWR"}


def test_live_play_reaches_the_dead_end(stored):
    log, _ = stored
    game = random_playout("1867", 4, [], 5382, max_actions=AGREED)
    assert pt.log_of(game)["actions"] == log["actions"]
    old = game.trainless_major[0]
    assert [c.id for c in game.trainless_major] == ["GTR"]
    assert old in game.corporations and old is not game.corporation_by_id("GTR")
    # nothing is listed, and what the reference refuses is refused here too
    assert game.legal_actions() == []
    for action in ({"type": "buy_shares", "shares": ["GWR_2", "GWR_1"], "percent": 20,
                    "entity": "GWR", "entity_type": "corporation"},
                   {"type": "pass", "entity": "GTR", "entity_type": "corporation"},
                   {"type": "choose", "choice": "nationalize", "entity": "GTR", "entity_type": "corporation"}):
        with pytest.raises(GameError) as err:
            game.process({**action, "id": AGREED + 1})
        assert err.value.rule == "trainless-major-reset", str(err.value)
    assert len(game.actions) == AGREED


def test_the_played_log_loads_to_the_same_refusal(stored):
    """The log as played before the fix (its 1799 is GWR's share purchase) stops there."""
    log, _ = stored
    gwr_buy = {"type": "buy_shares", "shares": ["GWR_2", "GWR_1"], "percent": 20,
               "entity": "GWR", "entity_type": "corporation", "id": AGREED + 1}
    game = random_playout("1867", 4, [], 5382, max_actions=0)
    game.load(json.loads(json.dumps(log["actions"])))
    with pytest.raises(GameError) as err:
        game.load([gwr_buy])
    assert err.value.rule == "trainless-major-reset"
