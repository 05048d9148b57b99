"""The clock's marks taken during the history's replay (an import, a cold load) are the ones a
replay of its own would take (``trackage.turns.replay_marks``), so the first state after an
import or a restart does not replay the game a second time."""

from __future__ import annotations

import json

from trackage.core.log import filter_actions
from trackage.core.rng import seed_for
from trackage.turns import replay_marks
from trackage.web.service import build_game
from trackage.web.views import History

from .webkit import fixture


def meta_of(data):
    """The stored game's meta as an import makes it."""
    return {"id": 1, "title": "1822", "players": [{"id": p["id"], "name": p["name"]} for p in data["players"]],
            "options": list(data["settings"].get("optional_rules") or []),
            "seed": seed_for(data["id"], data["settings"]), "log_id": data["id"]}


def test_marks_taken_on_the_way_are_replay_marks():
    data = json.loads(fixture("1822", "1822_game_end_stock_market.json").read_text())
    acts = filter_actions(data["actions"])[:400]
    meta = meta_of(data)
    hist = History(meta, [{"id": a["id"], "data": a, "actor": None} for a in acts], clock=True)
    assert hist.error is None and hist.marks is not None
    assert hist.marks[1] == replay_marks(build_game(meta, []), acts)[1]
    assert hist.marks[0].to_act == replay_marks(build_game(meta, []), [])[0].to_act


def test_no_marks_through_an_undo():
    data = json.loads(fixture("1822", "1822_game_end_stock_market.json").read_text())
    acts = filter_actions(data["actions"])[:30]
    meta = meta_of(data)
    rows = [{"id": a["id"], "data": a, "actor": None} for a in acts]
    rows.append({"id": acts[-1]["id"] + 1, "data": {"type": "undo", "entity": acts[-1].get("entity"),
                                                     "entity_type": acts[-1].get("entity_type")}, "actor": None})
    assert History(meta, rows, clock=True).marks is None
    assert History(meta, rows[:-1]).marks is None  # not asked
