"""1825 tile lays: legal_actions() lists exactly the lays the reference accepts in live play.

The cases come from real games (the shared fixtures); the expected answers were checked
against the reference by playing each lay live on the position before the logged action.
"""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from trackage.core.errors import GameError
from trackage.core.log import filter_actions, load_log
from trackage.replay import game_from_log

GAME_END_BANK = FIXTURES / "1825" / "1825_game_end_bank.json"
G141331 = FIXTURES / "1825" / "141331.json"


def position_before(path, action_id):
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    data = load_log(path)
    g = game_from_log(data)
    g.loading = True
    for a in filter_actions(data["actions"]):
        if a["id"] >= action_id:
            break
        g._apply(a)
    g.loading = False
    return g


def lays_on(g, hex_id):
    return {(a["tile"], a["rotation"]) for a in g.legal_actions() if a["type"] == "lay_tile" and a["hex"] == hex_id}


def lay(g, entity, hex_id, tile, rotation):
    g.process({"type": "lay_tile", "entity": entity, "entity_type": "corporation", "hex": hex_id,
               "tile": tile, "rotation": rotation})


@pytest.mark.parametrize("path, action_id, hex_id, tile, rotation", [
    (G141331, 820, "P18", "15-5", 5),  # the upgraded city is reached over the new track only
    (GAME_END_BANK, 215, "W17", "11-0", 0),
])
def test_upgrades_reached_over_their_new_track_are_listed(path, action_id, hex_id, tile, rotation):
    g = position_before(path, action_id)
    assert (tile, rotation) in lays_on(g, hex_id)


def test_track_upgrades_must_add_reached_track_and_stations_stay_in_reach():
    """LNWR (2- and 3-trains) on T14, a straight track it reaches from one end: the
    reference takes four of the eleven upgrades the tile manifest allows there."""
    g = position_before(GAME_END_BANK, 118)
    assert lays_on(g, "T14") == {("23-0", 4), ("25-0", 4), ("28-0", 4), ("11-0", 2)}
    for tile, rotation in (("16-0", 1), ("19-0", 0), ("24-0", 2), ("25-0", 2), ("29-0", 2)):
        with pytest.raises(GameError) as e:
            lay(g, "LNWR", "T14", tile, rotation)
        assert e.value.rule == "must-use-new-track"
    with pytest.raises(GameError) as e:
        lay(g, "LNWR", "T14", "11-0", 4)  # its station would be beyond the trains' reach
    assert e.value.rule == "upgrade-out-of-reach"
    lay(g, "LNWR", "T14", "11-0", 2)
    assert g.board.tile(g.board.hex_by_id("T14")).name == "11"
