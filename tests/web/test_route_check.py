"""Routes proposed by hand (``POST /api/games/{gid}/routes/check``): the engine's revenue for
a logged route, a broken route refused with its rule and the reason in words, nothing changed
in the game; the seat's credentials required; a run made of the check's routes accepted."""

from __future__ import annotations

import json

import pytest

from .test_api import post, state
from .webkit import auth, fixture

# title -> a shared log and the id of a logged run (with two routes where there is one)
RUNS = {"1867": ("21268.json", 125), "1893": ("1893_game_end_bank.json", None), "1861": ("167259.json", 70)}


def _cut(client, title):
    name, aid = RUNS[title]
    data = json.loads(fixture(title, name).read_text())
    acts = data["actions"]
    i = next(i for i, a in enumerate(acts) if a["type"] == "run_routes" and a.get("routes")
             and (aid is None or a.get("id") == aid))
    cut = {**data, "actions": acts[:i]}
    cut.pop("result", None)
    r = client.post("/api/games/import", json=cut)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"], acts[i]


def check(client, gid, tok, routes):
    return client.post(f"/api/games/{gid}/routes/check", json={"routes": routes}, headers=auth(tok))


@pytest.mark.parametrize("title", ["1867", "1893"])
def test_the_logged_route_earns_the_logged_revenue_and_nothing_changes(client, title):
    gid, tok, run = _cut(client, title)
    before = state(client, gid, tok)
    log_before = client.get(f"/api/games/{gid}/log").json()
    # by connections, as logged
    r = check(client, gid, tok, [{"train": x["train"], "connections": x["connections"]} for x in run["routes"]])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] and body["entity"] == run["entity"]
    assert [x["revenue"] for x in body["routes"]] == [x["revenue"] for x in run["routes"]]
    assert body["total"] == sum(x["revenue"] for x in run["routes"])
    # by stops (the logged nodes, else the stops the check found), the track between them found
    stops = [{"train": x["train"], "stops": x.get("nodes") or [s["node"] for s in y["stops"]]}
             for x, y in zip(run["routes"], body["routes"], strict=True)]
    by_stops = check(client, gid, tok, stops).json()
    assert by_stops["ok"], by_stops
    assert [x["revenue"] for x in by_stops["routes"]] == [x["revenue"] for x in run["routes"]]
    assert all(len(x["stops"]) >= 2 and {"node", "hex", "name"} <= set(x["stops"][0]) for x in by_stops["routes"])
    # nothing changed
    assert state(client, gid, tok) == before
    assert client.get(f"/api/games/{gid}/log").json()["actions"] == log_before["actions"]
    # the check's routes run as they are: the server computes and keeps the same revenue
    act = {"type": "run_routes", "entity": run["entity"], "entity_type": run["entity_type"],
           "id": before["action_count"] + 1, "routes": by_stops["routes_action"]}
    assert post(client, gid, tok, act).status_code == 200
    stored = client.get(f"/api/games/{gid}/log").json()["actions"][-1]
    assert stored["type"] == "run_routes" and sum(x["revenue"] for x in stored["routes"]) == body["total"]


def test_broken_routes_refused_with_the_rule_and_the_reason(client):
    gid, tok, run = _cut(client, "1867")
    before = state(client, gid, tok)
    first = run["routes"][0]
    # a 2-train through three stops
    r = check(client, gid, tok, [{"train": first["train"], "stops": ["F16-0", "E17", "D16"]}]).json()
    assert not r["ok"] and r["routes"][0]["rule"] == "route-too-long"
    assert "2-train" in r["routes"][0]["reason"] and r["routes"][0]["revenue"] is None
    # the same stop twice, a stop that is not one, a train the company has not
    r = check(client, gid, tok, [{"train": first["train"], "stops": ["E17", "E17"]},
                                 {"train": "9-9", "stops": ["E17", "D16"]}]).json()
    assert [x["rule"] for x in r["routes"]] == ["route-reuses-city", "unknown-train"]
    assert all(x["reason"] and " " in x["reason"] for x in r["routes"])
    r = check(client, gid, tok, [{"train": first["train"], "stops": ["E17", "A1"]}]).json()
    assert r["routes"][0]["rule"] in ("unknown-stop", "route-no-track")
    # two trains on the same track: the run is refused by the engine's rule, on the second
    r = check(client, gid, tok, [{"train": x["train"], "connections": first["connections"]}
                                 for x in run["routes"]]).json()
    assert not r["ok"] and r["rule"] and r["reason"] and r["routes_action"] is None
    assert r["routes"][0]["ok"] and not r["routes"][1]["ok"]
    assert state(client, gid, tok) == before


def test_check_needs_the_seat_and_a_run(client):
    gid, tok, run = _cut(client, "1893")
    body = {"routes": [{"train": run["routes"][0]["train"], "stops": run["routes"][0]["nodes"]}]}
    assert client.post(f"/api/games/{gid}/routes/check", json=body).status_code == 401
    assert client.post(f"/api/games/{gid}/routes/check", json=body, headers=auth("nope")).status_code == 401
    assert client.post("/api/games/999/routes/check", json=body, headers=auth(tok)).status_code == 404
    for bad in ({}, {"routes": "x"}, {"routes": [{"stops": []}]}, {"routes": [{"train": "2-0", "stops": [1]}]}):
        r = client.post(f"/api/games/{gid}/routes/check", json=bad, headers=auth(tok))
        assert r.status_code == 422 and r.json()["rule"] in ("bad-body", "bad-route"), r.text
    # after the run there is no run to check
    s = state(client, gid, tok)
    act = {**run, "id": s["action_count"] + 1}
    assert post(client, gid, tok, act).status_code == 200
    r = client.post(f"/api/games/{gid}/routes/check", json=body, headers=auth(tok))
    assert r.status_code == 422 and r.json()["rule"] == "no-run", r.text


@pytest.mark.parametrize("title", list(RUNS))
def test_the_state_lists_the_run_without_routes_and_the_suggestion_is_the_listings(client, title):
    from trackage.router.logstates import state_before

    name, _ = RUNS[title]
    gid, tok, run = _cut(client, title)
    listed = [a for a in state(client, gid, tok)["legal_actions"] if a["type"] == "run_routes"]
    assert len(listed) == 1 and "routes" not in listed[0]
    r = client.get(f"/api/games/{gid}/routes/suggested", headers=auth(tok))
    assert r.status_code == 200, r.text
    body = r.json()
    # the engine's own listing of the same state, with the routes
    game, _ = state_before(fixture(title, name), run["id"])
    engine = next(a for a in game.legal_actions() if a["type"] == "run_routes")
    assert body["routes"] == engine["routes"] and body["action"] == engine
    assert body["entity"] == run["entity"] and body["total"] == sum(x["revenue"] for x in engine["routes"])
    # a seat with nothing to run (no credentials: no seat) is told so
    r = client.get(f"/api/games/{gid}/routes/suggested")
    assert r.status_code == 422 and r.json()["rule"] == "no-run"


def test_two_stops_joined_through_a_town_name_the_town(client):
    """1861: Moscow and St Petersburg clicked, Tver between them on the track: the check says
    to click Tver (and names it, where it goes in the stops); with it the route is the logged one."""
    gid, tok, run = _cut(client, "1861")
    [logged] = run["routes"]
    assert logged["nodes"] == ["H8-1", "G5-0", "E1-1"]
    r = check(client, gid, tok, [{"train": logged["train"], "stops": ["H8-1", "E1-1"]}]).json()
    [refused] = r["routes"]
    assert not r["ok"] and refused["rule"] == "route-passes-stops"
    assert refused["reason"] == ("click Tver (G5) between Moscow (H8) and St. Petersburg (E1): "
                                 "a route stops at every stop on its way")
    assert refused["between"] == [{"node": "G5-0", "hex": "G5", "name": "Tver"}] and refused["insert_at"] == 1
    stops = ["H8-1", "E1-1"]
    stops[refused["insert_at"]:refused["insert_at"]] = [x["node"] for x in refused["between"]]
    r = check(client, gid, tok, [{"train": logged["train"], "stops": stops}]).json()
    assert r["ok"] and r["total"] == logged["revenue"], r
    # no track at all between two stops: said so
    r = check(client, gid, tok, [{"train": logged["train"], "stops": ["H8-1", "Q3"]}]).json()
    assert r["routes"][0]["rule"] in ("route-no-track", "route-passes-stops"), r
