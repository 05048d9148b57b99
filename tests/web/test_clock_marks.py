"""The clock's marks taken during the history's replay (an import, a cold load) and kept up
when another worker stored actions are the ones a replay of its own would take
(``trackage.turns.replay_marks``), so no state after an import, a restart or a catch-up
replays the game a second time."""

from __future__ import annotations

import json

from trackage.core.log import filter_actions
from trackage.core.rng import seed_for
from trackage.turns import replay_marks
from trackage.web.models import Action, ImportLog
from trackage.web.service import GameService, build_game
from trackage.web.storage import Storage
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


def test_marks_kept_up_when_another_process_stored_actions(sqlite_url):
    """Two services on one database (two workers): the one catching up with the other's
    actions keeps its marks up, equal to a replay's, without replaying the game."""
    data = json.loads(fixture("1822", "1822_game_end_stock_market.json").read_text())
    acts = filter_actions(data["actions"])
    head, rest = acts[:300], acts[300:306]
    a, b = GameService(Storage(sqlite_url)), GameService(Storage(sqlite_url))
    out = a.import_log(ImportLog.model_validate({**data, "actions": head, "result": None}))
    gid, seat = out["id"], a.seat(out["id"], out["seats"][0]["token"])
    lb = b.live(gid)
    assert b.clock(lb) is not None and lb.marks is not None
    for x in rest:
        a.act(gid, seat, Action.model_validate({**x, "id": a.live(gid).last_id + 1}))
    lb = b.live(gid)
    assert lb.marks is not None and len(lb.marks[1]) == len(head) + len(rest)
    rows = [r["data"] for r in b.storage.actions(gid)]
    assert lb.marks[1] == replay_marks(build_game(b.meta(gid), []), rows)[1]
    assert lb.marks[1] == a.live(gid).marks[1]
