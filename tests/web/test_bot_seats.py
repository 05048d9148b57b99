"""Bot seats: a game created with bots; the server plays their turns in the background,
through the path a human's action takes, until a human is to act."""

from __future__ import annotations

import json
import time

from .webkit import auth, first_of, playable

HUMAN = "1"


def create(client, title="1893", bots=None, **extra):
    r = client.post("/api/games", json={"title": title, "players": ["Ann", "Bot B", "Bot C", "Bot D"], "seed": 11,
                                        "hotseat": True, "bots": bots or {"2": "rule", "3": "rule", "4": "rule"},
                                        **extra})
    assert r.status_code == 201, r.text
    return r.json()


def state(client, gid, token):
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def humans_turn(client, gid, token, timeout=60.0):
    """The state once the human is to act (or the game is over), polled; the bots move meanwhile."""
    deadline = time.monotonic() + timeout
    runner = client.app.state.service.bots
    while True:
        idle = runner.idle()  # asked first: a bot may act beside the human (several players to act)
        s = state(client, gid, token)
        assert s["bot_error"] is None, s["bot_error"]
        if idle and (s["finished"] or s["legal_actions"]):
            return s
        assert time.monotonic() < deadline, f"the bots did not hand back the turn: {s['to_act']}"
        time.sleep(0.05)


def test_bots_play_their_turns_until_the_human_is_to_act(client):
    body = create(client)
    gid, token = body["id"], body["seats"][0]["token"]
    s = humans_turn(client, gid, token)
    assert [p["bot"] for p in s["players"]] == [None, "rule", "rule", "rule"]
    human_posts = 0
    while not s["finished"] and human_posts < 8:
        # every action offered to the human is the human's own (bots' entities are not offered)
        action = playable(first_of(s["legal_actions"], "pass", "bid", "par", "buy_shares") or s["legal_actions"][0])
        action["id"] = s["action_count"] + 1
        r = client.post(f"/api/games/{gid}/actions", json=action, headers=auth(token))
        assert r.status_code == 200, r.text
        human_posts += 1
        s = humans_turn(client, gid, token)
    log = client.get(f"/api/games/{gid}/log").json()
    ids = [a["id"] for a in log["actions"]]
    assert ids == list(range(1, len(ids) + 1))  # no bot action stored twice
    rows = client.app.state.storage.actions(gid)
    actors = {r["actor"] for r in rows}
    assert actors >= {"*"} and actors & {"2", "3", "4"}, actors
    assert sum(1 for r in rows if r["actor"] == "*") == human_posts
    from trackage.core.state import snapshot
    from trackage.replay import replay_data

    rep = replay_data(json.loads(json.dumps(log)))
    assert rep.error is None and rep.applied == len(ids)
    assert snapshot(rep.game) == snapshot(client.app.state.service.live(gid).game)


def test_a_human_cannot_act_for_a_bot_and_bad_bots_are_refused(client):
    r = client.post("/api/games", json={"title": "1893", "players": ["Ann", "Bob"], "bots": {"3": "rule"}})
    assert r.status_code == 422 and r.json()["rule"] == "bad-bots"
    r = client.post("/api/games", json={"title": "1893", "players": ["Ann", "Bob"], "bots": {"Bob": "genius"}})
    assert r.status_code == 422 and r.json()["rule"] == "bad-bots"
    # a seat-link game whose bot seat holds a token: the bot's turn is the bot's, not the token holder's
    body = create(client, bots={"Bot B": "random", "Bot C": "random", "Bot D": "random"}, hotseat=False)
    seats = {s["player"]: s for s in body["seats"]}
    assert seats["Bot B"]["bot"] == "random" and "bot" not in seats["Ann"]
    gid = body["id"]
    assert state(client, gid, seats["Bot B"]["token"])["legal_actions"] == []
    humans_turn(client, gid, seats["Ann"]["token"])


def test_a_bots_failure_is_shown_not_raised(client, monkeypatch):
    from trackage.web import botseats

    def broken(self, lv, seat, level, aid):
        raise RuntimeError("the bot broke")

    monkeypatch.setattr(botseats.BotRunner, "choose", broken)
    body = create(client, bots={"1": "rule", "2": "rule", "3": "rule", "4": "rule"})
    gid = body["id"]
    runner = client.app.state.service.bots
    deadline = time.monotonic() + 30
    while runner.error(gid) is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    s = state(client, gid, body["seats"][0]["token"])
    assert "the bot broke" in s["bot_error"] and s["action_count"] == 0
