"""History: the game at any action (from checkpoints) equals a fresh replay; the charts."""

from __future__ import annotations

import json

from trackage.core.log import filter_actions
from trackage.replay import game_from_log
from trackage.web.mapsvg import render_map
from trackage.web.views import History

from .webkit import fixture


def fresh(data, n):
    g = game_from_log(data)
    g.load(filter_actions([a for a in data["actions"] if a["id"] <= n]))
    return g


def test_game_at_equals_a_fresh_replay():
    data = json.loads(fixture("1867", "hs_ahjzadkh_19792.json").read_text())
    rows = [{"id": a["id"], "data": a, "actor": None} for a in data["actions"]]
    meta = {"id": data["id"], "title": data["title"], "players": data["players"],
            "options": (data.get("settings") or {}).get("optional_rules") or [],
            "seed": game_from_log(data).seed, "log_id": data["id"]}
    h = History(meta, rows)
    assert h.error is None and h.final.finished
    last = data["actions"][-1]["id"]
    for n in (0, 1, 39, 40, 41, 100, 150, last - 1, last):
        a, b = h.game_at(n), fresh(data, n)
        assert a.state() == b.state(), n
        assert render_map(a) == render_map(b), n
        assert a.legal_actions() == b.legal_actions(), n
    # charts: a value per player per round, prices of the companies, revenue per OR
    c = h.charts.finish(h.final, last)
    assert c.labels[0].startswith(("SR", "A", "P")) and c.labels[-1] == "now"
    assert set(c.values) == {p["name"] for p in data["players"]}
    assert all(len(v) == len(c.labels) for v in c.values.values())
    assert c.prices and all(len(v) == len(c.labels) for v in c.prices.values())
    labels, rev = c.revenue()
    assert labels and labels[0].startswith("OR") and any(any(x for x in s if x) for s in rev.values())


def test_history_names_what_an_undo_took_back_and_a_redo_put_back():
    from trackage.web.views import history_rows

    def row(i, **a):
        return {"id": i, "data": {"id": i, **a}}

    rows = [row(1, type="par", corporation="LNWR", share_price="100,0,15"),
            row(2, type="buy_shares", shares=["LNWR_1"], percent=10),
            row(3, type="undo"),
            row(4, type="redo"),
            row(5, type="pass"),
            row(6, type="message", message="gg"),
            row(7, type="undo", action_id=1),
            row(8, type="redo"),
            row(9, type="lay_tile", hex="T14", tile="8-0", rotation=2),
            row(10, type="redo")]
    labels = {r["id"]: r["label"] for r in history_rows(rows)}
    assert labels[3] == "undo: buy shares: shares LNWR_1; percent 10"
    assert labels[4] == "redo: buy shares: shares LNWR_1; percent 10"
    assert labels[7] == "undo: buy shares: shares LNWR_1; percent 10; pass"  # everything after action 1
    assert labels[8] == "redo: buy shares: shares LNWR_1; percent 10; pass"
    assert labels[10] == "redo (nothing to put back)"  # a new action cleared what could be redone
    assert labels[6].startswith("message")


def test_the_history_words_each_action_as_its_button_did():
    """Each logged action worded on the game just before it (a buy names where the share came
    from, a lay the place); the rows use those words, not the raw action types."""
    from trackage.web.views import history_rows

    data = json.loads(fixture("1867", "hs_ahjzadkh_19792.json").read_text())
    rows = [{"id": a["id"], "data": a, "actor": None} for a in data["actions"]]
    meta = {"id": data["id"], "title": data["title"], "players": data["players"],
            "options": (data.get("settings") or {}).get("optional_rules") or [],
            "seed": game_from_log(data).seed, "log_id": data["id"]}
    h = History(meta, rows)
    out = {r["id"]: r for r in history_rows(rows, h.labels)}
    buy = next(a for a in data["actions"] if a["type"] == "buy_shares")
    assert out[buy["id"]]["label"].startswith("Buy ") and " from IPO for " in out[buy["id"]]["label"]
    lay = next(a for a in data["actions"] if a["type"] == "lay_tile")
    assert out[lay["id"]]["label"].startswith("Lay ") and lay["hex"] in out[lay["id"]]["label"]
    raw = [r["label"] for r in out.values() if r["label"].split(":")[0] in {"buy shares", "lay tile", "run routes"}]
    assert not raw, raw[:5]
