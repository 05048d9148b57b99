"""Who is to act (the game's state, the lobby and its filters) and the chess clock over the API."""

from __future__ import annotations

import json

from trackage.clock import parse_settings, tally
from trackage.core.log import filter_actions
from trackage.core.rng import seed_for
from trackage.titles import new_game as engine_game
from trackage.turns import replay_marks

from .test_api import new_game, post, state
from .webkit import first_of, fixture, playable


def _act(client, gid, token, s):
    a = playable(first_of(s["legal_actions"], "pass", "bid", "par", "buy_shares"))
    a["id"] = s["action_count"] + 1
    r = post(client, gid, token, a)
    assert r.status_code == 200, r.text
    return r.json()


def test_to_act_for_a_new_hotseat_game_and_after_an_action(client):
    r = client.post("/api/games", json={"title": "1825", "players": ["Ann", "Bob", "Cid"], "options": ["unit_1"],
                                        "seed": 7, "hotseat": True})
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    s = state(client, gid, tok)
    # the engine's acting entity is a player in 1825's first stock round
    assert [p["name"] for p in s["to_act"]] == [a["name"] for a in s["acting"]] == ["Ann"]
    assert s["clock"] is None  # no clock was set
    after = _act(client, gid, tok, s)
    assert [p["name"] for p in after["to_act"]] == [a["name"] for a in after["acting"]]
    assert after["to_act"] != s["to_act"]
    # the lobby has it stored (no replay): the hotseat viewer is to act in every game
    client.cookies.set(f"trackage_seat_{gid}", tok)
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[gid]["to_act"] == after["to_act"] and listed[gid]["your_turn"] and listed[gid]["mine"]
    # every stored action carries the time it arrived
    assert isinstance(client.get(f"/api/games/{gid}/log").json()["actions"][0]["created_at"], int)


def test_lobby_filters_mine_waiting_active_finished(client):
    gid, tokens = new_game(client)
    other, _ = new_game(client, seed=8)
    s = state(client, gid)
    first = s["to_act"][0]["name"]
    waiting_seat = tokens[first]
    idle_seat = next(t for n, t in tokens.items() if n != first)

    def ids(which, cookie):
        client.cookies.clear()
        if cookie:
            client.cookies.set(f"trackage_seat_{gid}", cookie)
        r = client.get("/api/games", params={"filter": which} if which else {})
        assert r.status_code == 200, r.text
        return {g["id"] for g in r.json()}

    assert {gid, other} <= ids(None, None)
    assert ids("mine", waiting_seat) == {gid} == ids("waiting", waiting_seat)
    assert ids("mine", idle_seat) == {gid} and ids("waiting", idle_seat) == set()
    assert ids("mine", None) == set() and ids("waiting", None) == set()
    assert {gid, other} <= ids("active", None) and gid not in ids("finished", None)
    client.cookies.clear()
    r = client.get("/api/games", params={"filter": "someday"})
    assert r.status_code == 422 and r.json()["rule"] == "bad-filter"
    # the HTML lobby: who is to act, "your turn" for the viewer's seat, the filter
    client.cookies.set(f"trackage_seat_{gid}", waiting_seat)
    page = client.get("/?filter=waiting").text
    assert "your turn" in page and f'<a href="/games/{gid}">' in page and f'<a href="/games/{other}">' not in page
    assert client.get("/?filter=someday").status_code == 422
    # the game page marks it too
    client.cookies.clear()
    assert 'id="your-turn"' in client.get(f"/games/{gid}?token={waiting_seat}").text
    assert 'id="your-turn"' not in client.get(f"/games/{gid}?token={idle_seat}").text


def test_clock_settings_are_stored_and_checked(client):
    gid, tokens = new_game(client, clock={"preset": "blitz", "penalty": {"mode": "deduct", "points_per_minute": 2}})
    s = state(client, gid)
    settings = parse_settings({"preset": "blitz"})
    assert s["clock_settings"]["budget_s"] == 900 and s["clock_settings"]["penalty"]["mode"] == "deduct"
    assert set(s["clock"]) == {str(p["id"]) for p in s["players"]}
    assert s["clock_running"]["players"] == [str(p["id"]) for p in s["to_act"]]
    tok = tokens[s["to_act"][0]["name"]]
    after = _act(client, gid, tok, state(client, gid, tok))
    for row in after["clock"].values():
        assert row["used_s"] + row["left_s"] == settings.budget_s + row["increments_s"]
        assert row["over"] is False and row["penalty"] == 0
    assert 'id="clock"' in client.get(f"/games/{gid}").text
    for bad in ({"preset": "bullet"}, {"budget_s": -5}, {"speed": 1}, "fast"):
        r = client.post("/api/games", json={"title": "1825", "players": ["A", "B", "C"], "options": ["unit_1"],
                                            "clock": bad})
        assert r.status_code == 422 and r.json()["rule"] == "bad-clock", r.text


def test_an_imported_log_gets_its_time_per_player(client):
    data = json.loads(fixture("1861", "167259.json").read_text())
    r = client.post("/api/games/import", json=data)
    assert r.status_code == 201, r.text
    s = state(client, r.json()["id"])
    used = {pid: row["used_s"] for pid, row in s["clock"].items()}
    actions = data["actions"]
    assert sum(used.values()) == actions[-1]["created_at"] - actions[0]["created_at"]
    # the same as the clock module's own count of the log
    settings = data.get("settings") or {}
    g = engine_game(data["title"], data["players"], [], seed_for(data["id"], settings), data["id"], validate=False)
    start, marks = replay_marks(g, actions)
    direct = tally([str(p["id"]) for p in data["players"]], start, marks,
                   live_ids={a["id"] for a in filter_actions(actions)})
    assert used == {pid: round(c.used_s) for pid, c in direct.players.items()}
    assert "left_s" not in next(iter(s["clock"].values()))  # no budget was set
