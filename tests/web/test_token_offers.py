"""The tokens the map previews: each listed token action with its placer's colours, where in
words and its price, found by trying it on a copy (1861's token prices differ by city); the
live game untouched; hex tokens (1822's destination) marked on the map with their spot."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from trackage.replay import replay_data
from trackage.web.mapsvg import render_map
from trackage.web.tokenoffers import token_offers

from .webkit import auth, fixture

NS = {"s": "http://www.w3.org/2000/svg"}


def cut_before(title: str, name: str, kind: str):
    data = json.loads(fixture(title, name).read_text())
    acts = data["actions"]
    data["actions"] = acts[:next(k for k, a in enumerate(acts) if a["type"] == kind)]
    data.pop("result", None)
    out = replay_data(data)
    assert out.error is None
    return out.game


def test_token_prices_are_the_rules_prices_and_nothing_changes():
    g = cut_before("1861", "29683.json", "place_token")
    legal = g.legal_actions()
    before = (g.corporation_by_id("GRR").cash, len(g.actions))
    offers = token_offers(g, legal)
    assert [o["action"] for o in offers] == [a for a in legal if a["type"] == "place_token"]
    assert {o["cost"] for o in offers} == {120, 160}  # by the city's distance
    assert all(o["kind"] == "city" and o["label"] == "GRR" and o["cost_text"].startswith(str(o["cost"]))
               for o in offers), offers
    assert any(o["where"] == "Smolensk (E9)" for o in offers)
    assert (g.corporation_by_id("GRR").cash, len(g.actions)) == before


def test_hex_tokens_are_offered_and_marked():
    g = cut_before("1822", "discard_trains_after_sr_export.json", "hex_token")
    [o] = token_offers(g, g.legal_actions())
    assert (o["kind"], o["hex"], o["label"], o["cost_text"]) == ("hex", "G36", "GWR", "free")
    root = ET.fromstring(render_map(g, hex_tokenable={"G36"}))
    hx = root.find(".//s:g[@data-hex='G36']", NS)
    assert "hex-tokenable" in hx.get("class") and hx.get("data-tx") and hx.get("data-ty")


def test_the_page_lists_tokens_unpriced_and_the_api_prices_them(client):
    """The game page lists the offers without trying each on a copy; ``GET
    /api/games/{id}/tokens`` gives them priced, the same prices."""
    data = json.loads(fixture("1861", "29683.json").read_text())
    acts = data["actions"]
    cut = {**data, "actions": acts[:next(k for k, a in enumerate(acts) if a["type"] == "place_token")]}
    cut.pop("result", None)
    r = client.post("/api/games/import", json=cut)
    assert r.status_code == 201, r.text
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    page = client.get(f"/games/{gid}?token={tok}", follow_redirects=True).text
    listed = json.loads(page.split('<script id="token-actions" type="application/json">')[1].split("</script>")[0])
    assert listed and all(o["priced"] is False and o["cost"] is None for o in listed)
    body = client.get(f"/api/games/{gid}/tokens", headers=auth(tok)).json()
    assert body["action_count"] > 0
    assert [o["action"] for o in body["offers"]] == [o["action"] for o in listed]
    assert {o["cost"] for o in body["offers"]} == {120, 160} and all(o["priced"] for o in body["offers"])
