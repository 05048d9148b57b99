"""The JSON API: every status it answers, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json

from .webkit import auth, first_of, fixture, playable


def new_game(client, title="1825", players=("Ann", "Bob", "Cid"), options=("unit_1",), seed=7, **extra):
    r = client.post("/api/games", json={"title": title, "players": list(players), "options": list(options),
                                        "seed": seed, **extra})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], {s["player"]: s["token"] for s in body["seats"]}


def state(client, gid, token=None):
    r = client.get(f"/api/games/{gid}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def acting_token(client, gid, tokens):
    """The token of the seat that may act now (and that seat's legal actions)."""
    for _name, tok in tokens.items():
        s = state(client, gid, tok)
        if s["legal_actions"]:
            return tok, s
    raise AssertionError("nobody may act")


def post(client, gid, token, action):
    return client.post(f"/api/games/{gid}/actions", json=action, headers=auth(token))


def test_create_and_state(client):
    gid, tokens = new_game(client)
    assert set(tokens) == {"Ann", "Bob", "Cid"} and len(set(tokens.values())) == 3
    s = state(client, gid)
    assert s["title"] == "1825" and [p["name"] for p in s["players"]] == ["Ann", "Bob", "Cid"]
    assert s["round"] == "Stock Round" and s["action_count"] == 0 and not s["finished"] and s["result"] is None
    assert s["legal_actions"] == []  # a spectator has none
    assert s["acting"] and s["phase"]
    tok, s = acting_token(client, gid, tokens)
    assert all(a["entity_type"] == "player" for a in s["legal_actions"])
    others = [t for t in tokens.values() if t != tok]
    assert all(state(client, gid, t)["legal_actions"] == [] for t in others)


def test_hotseat_has_one_token_for_every_seat(client):
    r = client.post("/api/games", json={"title": "1867", "players": ["A", "B", "C"], "seed": 2, "hotseat": True})
    assert r.status_code == 201
    seats = r.json()["seats"]
    assert len(seats) == 1
    tok = seats[0]["token"]
    gid = r.json()["id"]
    for _i in range(6):  # acts for whoever is acting
        s = state(client, gid, tok)
        a = playable(first_of(s["legal_actions"], "pass", "bid"))
        a["id"] = s["action_count"] + 1
        r = post(client, gid, tok, a)
        assert r.status_code == 200, r.text
    assert state(client, gid)["action_count"] == 6


def test_create_refuses_bad_setups(client):
    for body, rule in [
        ({"title": "9999", "players": ["a", "b"]}, "unknown-title"),
        ({"title": "1825", "players": []}, "bad-players"),
        ({"title": "1825", "players": ["a", "a"]}, "bad-players"),
        ({"title": "1825", "players": ["a", "b"], "options": ["nonsense"]}, "unknown-option"),
        ({"title": "1867", "players": ["a"]}, "bad-player-count"),
        ({"title": "1825", "players": ["a", "b"], "seed": "x"}, "bad-seed"),
        ([1, 2], "bad-body"),
    ]:
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["rule"] == rule, (body, r.json())


def test_actions_200_422_403_409_401_404(client):
    gid, tokens = new_game(client)
    tok, s = acting_token(client, gid, tokens)
    other = next(t for t in tokens.values() if t != tok)
    par = first_of(s["legal_actions"], "par", "buy_company", "pass")
    # 403: another seat acts for this player
    r = post(client, gid, other, {**par, "id": 1})
    assert r.status_code == 403 and r.json()["rule"] == "not-your-entity"
    # 401: no or unknown token
    assert client.post(f"/api/games/{gid}/actions", json={**par, "id": 1}).status_code == 401
    assert post(client, gid, "nope", {**par, "id": 1}).status_code == 401
    # 404: unknown game
    assert post(client, 999, tok, {**par, "id": 1}).status_code == 404
    assert client.get("/api/games/999").status_code == 404
    assert client.get("/api/games/abc").status_code == 404
    # 422: illegal (a par price the market does not have), with the rule
    r = post(client, gid, tok, {"type": "par", "entity": par["entity"], "entity_type": "player",
                                "corporation": "LNWR", "share_price": "1,0,0", "id": 1})
    assert r.status_code == 422 and set(r.json()) >= {"error", "rule"}
    # 409: stale (or future) id
    assert post(client, gid, tok, {**par, "id": 5}).status_code == 409
    # 200
    r = post(client, gid, tok, {**par, "id": 1})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["action_count"] == 1 and "legal_actions" in body
    r = post(client, gid, tok, {**par, "id": 1})
    assert r.status_code == 409 and r.json()["action_count"] == 1
    # the log has the action
    log = client.get(f"/api/games/{gid}/log").json()
    assert [a["type"] for a in log["actions"]] == [par["type"]] and log["title"] == "1825"
    assert client.get("/api/games/999/log").status_code == 404


def test_undo_own_last_action_only(client):
    gid, tokens = new_game(client)
    tok, s = acting_token(client, gid, tokens)
    a = first_of(s["legal_actions"], "par", "buy_company")
    assert post(client, gid, tok, {**a, "id": 1}).status_code == 200
    tok2, _s2 = acting_token(client, gid, tokens)
    other = next(t for t in tokens.values() if t not in (tok, tok2))
    # nobody else may undo it
    r = post(client, gid, other, {"type": "undo", "id": 2})
    assert r.status_code == 403
    # its author may, while the next player has not acted
    r = post(client, gid, tok, {"type": "undo", "id": 2})
    assert r.status_code == 200, r.text
    assert r.json()["action_count"] == 2
    assert state(client, gid)["round"] == "Stock Round"
    tok3, s3 = acting_token(client, gid, tokens)
    assert tok3 == tok and first_of(s3["legal_actions"], a["type"]) is not None
    # redo brings it back
    r = post(client, gid, tok, {"type": "redo", "id": 3})
    assert r.status_code == 200, r.text
    # once the next player acted, the first cannot undo
    tok4, s4 = acting_token(client, gid, tokens)
    p = first_of(s4["legal_actions"], "pass")
    assert post(client, gid, tok4, {**p, "id": 4}).status_code == 200
    r = post(client, gid, tok, {"type": "undo", "id": 5})
    assert r.status_code == 403
    log = client.get(f"/api/games/{gid}/log").json()
    assert [x["type"] for x in log["actions"]] == [a["type"], "undo", "redo", "pass"]


def _run_position(client, title="1867", name="21268.json"):
    """An imported log cut just before its first run with a route; (gid, token, that action)."""
    data = json.loads(fixture(title, name).read_text())
    acts = data["actions"]
    i = next(i for i, a in enumerate(acts) if a["type"] == "run_routes" and a.get("routes"))
    cut = {**data, "actions": acts[:i]}
    cut.pop("result", None)
    r = client.post("/api/games/import", json=cut)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"], acts[i]


def test_revenue_is_computed_never_taken(client):
    gid, tok, run = _run_position(client)
    s = state(client, gid, tok)
    want = sum(r["revenue"] for r in run["routes"])
    # a claimed revenue that is not the engine's is refused
    bad = {**run, "id": s["action_count"] + 1, "routes": [{**r, "revenue": r["revenue"] + 10} for r in run["routes"]]}
    r = post(client, gid, tok, bad)
    assert r.status_code == 422 and r.json()["rule"] == "wrong-revenue"
    # without revenue it is filled in by the engine
    bare = {**run, "id": s["action_count"] + 1, "routes": [{k: v for k, v in r.items() if k != "revenue"}
                                                          for r in run["routes"]]}
    r = post(client, gid, tok, bare)
    assert r.status_code == 200, r.text
    stored = client.get(f"/api/games/{gid}/log").json()["actions"][-1]
    assert sum(x["revenue"] for x in stored["routes"]) == want


def test_import_replays_and_refuses_bad_logs(client):
    data = json.loads(fixture("1893", "1893_game_end_bank.json").read_text())
    r = client.post("/api/games/import", json=data)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    s = state(client, gid)
    assert s["finished"] and s["result"] == {str(k): v for k, v in data["result"].items()}
    log = client.get(f"/api/games/{gid}/log").json()
    assert len(log["actions"]) == len(data["actions"])
    # a log that does not replay: 422 with the failing action, nothing stored
    before = len(client.get("/api/games").json())
    broken = json.loads(json.dumps(data))
    k = next(i for i, a in enumerate(broken["actions"]) if a["type"] == "lay_tile")
    broken["actions"][k]["hex"] = "Z99"
    r = client.post("/api/games/import", json=broken)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["rule"] == "does-not-replay" and body["action"]["id"] == broken["actions"][k]["id"]
    for bad in ({"title": "1893"}, {"title": "nope", "players": [], "actions": []}, [], "x"):
        assert client.post("/api/games/import", json=bad).status_code == 422
    assert len(client.get("/api/games").json()) == before


def test_bad_input_leaves_the_game_unchanged(client):
    gid, tokens = new_game(client)
    tok, s = acting_token(client, gid, tokens)
    a = first_of(s["legal_actions"], "par", "buy_company")
    assert post(client, gid, tok, {**a, "id": 1}).status_code == 200
    log_before = client.get(f"/api/games/{gid}/log").json()["actions"]
    tok, s = acting_token(client, gid, tokens)
    me = s["legal_actions"][0]["entity"]
    url = f"/api/games/{gid}/actions"
    h = {**auth(tok), "Content-Type": "application/json"}
    cases = [
        (client.post(url, content=b"{not json", headers=h), 400),
        (client.post(url, content=b"\xff\xfe", headers=h), 400),
        (client.post(url, content=b"[1,2]", headers=h), 422),
        (client.post(url, content=b'"pass"', headers=h), 422),
        (client.post(url, content=json.dumps({"type": "pass"}).encode(), headers=h), 422),   # no id
        (client.post(url, content=json.dumps({"id": 2}).encode(), headers=h), 422),          # no type
        (client.post(url, content=json.dumps({"type": "teleport", "entity": me, "entity_type": "player",
                                              "id": 2}).encode(), headers=h), 422),
        (client.post(url, content=json.dumps({"type": "pass", "entity": 99, "entity_type": "player",
                                              "id": 2}).encode(), headers=h), 422),
        (client.post(url, content=b"{" + b" " * (300 * 1024) + b"}", headers=h), 413),
        (client.post("/api/games/import", content=b"[" + b"0," * (9 * 1024 * 1024) + b"0]",
                     headers={"Content-Type": "application/json"}), 413),
        (client.post(url, json={**a, "id": 1}, headers=auth(tok)), 409),
        (client.post(url, json={"type": "pass", "id": 2}, headers=auth("wrong")), 401),
        (client.post("/api/games/12345/actions", json={"type": "pass", "id": 1}, headers=auth(tok)), 404),
    ]
    for i, (r, code) in enumerate(cases):
        assert r.status_code == code, (i, r.status_code, r.text[:300])
        assert "error" in r.json()
    assert client.get(f"/api/games/{gid}/log").json()["actions"] == log_before
    assert state(client, gid)["action_count"] == 1


def test_titles_and_list(client):
    t = client.get("/api/titles").json()
    assert set(t) == {"1825", "1867", "1861", "1893", "1822", "1858", "1858India"}
    assert t["1867"]["players"][0] >= 2
    new_game(client)
    games = client.get("/api/games").json()
    assert games and games[0]["title"] == "1825"


def test_events_stream_reports_the_action_count(client):
    gid, _tokens = new_game(client)
    r = client.get(f"/api/games/{gid}/events?once=1")
    assert r.status_code == 200 and "text/event-stream" in r.headers["content-type"]
    assert 'event: action' in r.text and '"action_count": 0' in r.text
    assert client.get("/api/games/999/events?once=1").status_code == 404


def test_legal_actions_follow_every_change(client):
    """The server asks the engine for the legal actions once per stored action: after an
    action, an undo and a redo the seat sees the legal actions of the game as it is now."""
    r = client.post("/api/games", json={"title": "1893", "players": ["A", "B", "C"], "seed": 3, "hotseat": True})
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    s0 = state(client, gid, tok)
    a = playable(first_of(s0["legal_actions"], "bid", "buy_company", "pass"))
    r = post(client, gid, tok, {**a, "id": 1})
    assert r.status_code == 200 and "act;dur=" in r.headers["server-timing"]
    s1 = state(client, gid, tok)
    assert s1["legal_actions"] == r.json()["legal_actions"] and s1["action_count"] == 1
    assert post(client, gid, tok, {"type": "undo", "id": 2}).status_code == 200
    assert state(client, gid, tok)["legal_actions"] == s0["legal_actions"]
    assert post(client, gid, tok, {"type": "redo", "id": 3}).status_code == 200
    assert state(client, gid, tok)["legal_actions"] == s1["legal_actions"]


def test_deeply_nested_json_is_a_400_and_changes_nothing(client):
    gid, tokens = new_game(client)
    tok, s = acting_token(client, gid, tokens)
    a = first_of(s["legal_actions"], "par", "buy_company")
    assert post(client, gid, tok, {**a, "id": 1}).status_code == 200
    log_before = client.get(f"/api/games/{gid}/log").json()["actions"]
    state_before = state(client, gid)
    games_before = client.get("/api/games").json()
    tok, s = acting_token(client, gid, tokens)
    act = {**playable(s["legal_actions"][0]), "id": 2}
    h = {**auth(tok), "Content-Type": "application/json"}
    deep_list = b"[" * 100_000 + b"]" * 100_000        # the parser's recursion gives up
    shallow_enough = b"[" * 5_000 + b"]" * 5_000
    bodies = [deep_list, shallow_enough, b"[" * 100 + b"]" * 100]

    def nested_field(field, depth):
        inner = '{"a": ' * depth + "1" + "}" * depth
        return (json.dumps(act)[:-1] + f', "{field}": {inner}' + "}").encode()

    for url, extra in [("/api/games", {}), ("/api/games/import", {}), (f"/api/games/{gid}/actions", h)]:
        for body in bodies + [nested_field("corporation", 3000), nested_field("options", 80)]:
            r = client.post(url, content=body, headers={"Content-Type": "application/json", **extra})
            assert r.status_code == 400, (url, len(body), r.status_code, r.text[:200])
            assert r.json()["rule"] == "too-deeply-nested" and "nested too deeply" in r.json()["error"]
    # a nested dict the parser takes is still a bad action, refused by the rules: 422
    r = client.post(f"/api/games/{gid}/actions", content=nested_field("corporation", 30), headers=h)
    assert r.status_code == 422, r.text[:200]
    # the lobby's import form: the lobby again, with the error, and a 400
    for text in (deep_list.decode(), shallow_enough.decode()):
        r = client.post("/import", data={"log": text}, follow_redirects=False)
        assert r.status_code == 400 and "text/html" in r.headers["content-type"]
        assert 'id="error"' in r.text and "nested too deeply" in r.text
    assert client.get(f"/api/games/{gid}/log").json()["actions"] == log_before
    assert state(client, gid) == state_before and state_before["action_count"] == 1
    assert client.get("/api/games").json() == games_before
    # and the game still plays
    assert post(client, gid, tok, act).status_code == 200


def test_player_names_are_normalised_and_checked(client):
    games_before = client.get("/api/games").json()
    long_a, long_b = "x" * 40 + "a", "x" * 40 + "b"
    for names, needle in [
        (["Ann", " Ann", "Bob"], "'Ann' is the same as player 1's 'Ann'"),
        (["Ann", "ANN", "Bob"], "'ANN' is the same as player 1's 'Ann'"),
        (["Ann  Lee", "ann lee", "Bob"], "'ann lee' is the same as player 1's 'Ann Lee'"),
        (["Cafe\u0301", "Caf\u00e9", "Bob"], "the same as player 1's"),       # one name, two spellings
        ([long_a, long_b, "Bob"], f"{long_a!r} is 41 characters long; at most 40"),
        (["Ann", "   ", "Bob"], "player 2: the name '   ' is empty"),
        (["Ann", "", "Bob"], "player 2: the name '' is empty"),
        (["Ann", "B\x00b", "Cid"], "U+0000"),
        (["Ann", "Bob\x07", "Cid"], "U+0007"),
        (["Ann", "\u202eboB", "Cid"], "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        (["Ann", "Bob\u2066", "Cid"], "U+2066 (LEFT-TO-RIGHT ISOLATE)"),
        (["Ann", "B\u200bob", "Cid"], "U+200B (ZERO WIDTH SPACE)"),
        (["Ann", 7, "Cid"], "player 2: a name is a string, not int"),
    ]:
        r = client.post("/api/games", json={"title": "1825", "players": names, "options": ["unit_1"], "seed": 1})
        assert r.status_code == 422, (names, r.text)
        body = r.json()
        assert body["rule"] == "bad-players" and needle in body["error"], (names, body)
    assert client.get("/api/games").json() == games_before
    # spaces around and inside a name are tidied, Unicode is composed (NFC)
    gid, tokens = new_game(client, players=("  Ann \t Lee ", "Cafe\u0301", "x" * 40))
    assert [p["name"] for p in state(client, gid)["players"]] == ["Ann Lee", "Caf\u00e9", "x" * 40]
    assert set(tokens) == {"Ann Lee", "Caf\u00e9", "x" * 40}
    # the lobby's form: the lobby with the error, a 422, and no game
    games_before = client.get("/api/games").json()
    for text, needle in [("Ann\n Ann\nBob", "the same as player 1"), ("Ann\nann\nBob", "the same as player 1"),
                         ("Ann\nB\u202eob\nCid", "U+202E"), (f"Ann\n{long_a}\nBob", "41 characters long")]:
        r = client.post("/games", data={"title": "1825", "players": text, "options": "unit_1", "mode": "hotseat"},
                        follow_redirects=False)
        assert r.status_code == 422 and "text/html" in r.headers["content-type"], (text, r.status_code)
        assert 'id="error"' in r.text and needle in r.text, text
    assert client.get("/api/games").json() == games_before


def test_titles_give_each_options_player_counts_and_agree_with_creation(client):
    from trackage.core.errors import GameError
    from trackage.titles import game_class

    t = client.get("/api/titles").json()
    for title, info in t.items():
        lo, hi = info["players"]
        for opt, counts in info["options"].items():
            assert counts and all(lo <= n <= hi for n in counts), (title, opt, counts)
    units = {o: c for o, c in t["1825"]["options"].items() if o.startswith("unit_")}
    assert units == {"unit_1": [2, 3, 4, 5], "unit_2": [2, 3, 4], "unit_3": [2], "unit_12": [3, 4, 5, 6, 7],
                     "unit_23": [3, 4, 5], "unit_123": [4, 5, 6, 7, 8, 9], "unit_4": list(range(2, 10))}
    for opt in ("unit_1", "unit_2", "unit_3", "unit_12", "unit_23"):
        for n in range(2, 10):
            ok = True
            try:
                game_class("1825").validate_setup(n, [opt])
            except GameError:
                ok = False
            assert ok == (n in units[opt]), (opt, n)
    # an option the count does not allow: 422, naming the option and the counts
    r = client.post("/api/games", json={"title": "1825", "players": ["A", "B", "C"], "options": ["unit_3"]})
    assert r.status_code == 422
    assert r.json() == {"error": "1825 with unit_3 is for 2 players, not 3", "rule": "bad-options"}
    r = client.post("/api/games", json={"title": "1858", "players": ["A", "B"], "options": ["quick_start_a"]})
    assert r.status_code == 422 and "'quick_start_a' is for 3, 4, 5, 6 players, not 2" in r.json()["error"]
