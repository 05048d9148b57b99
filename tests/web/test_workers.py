"""Many workers on one PostgreSQL database: two app objects on one database see each other's
actions (their caches catch up, their live updates wake by LISTEN/NOTIFY), a race of the same
next action gives one success and one 409; ``trackage serve --workers 2``; the cache's bound."""

from __future__ import annotations

import threading
import time

import httpx
import pytest
from click.testing import CliRunner

from .webkit import NO_PG, PG, Server, auth, first_of, pg_database, pg_drop, playable

NOTIFY_WAIT = 30.0  # the streams' poll interval in these tests: a wake-up sooner is a NOTIFY's


@pytest.fixture
def pg_url():
    if not PG:
        pytest.skip(NO_PG)
    url = pg_database()
    yield url
    pg_drop(url)


@pytest.fixture
def two_apps(pg_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    apps = [create_app(pg_url, sse_interval=NOTIFY_WAIT) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        for app in apps:
            assert app.state.listener.ready.wait(10), "the LISTEN connection did not start"
        yield a, b
    for app in apps:
        app.state.storage.close()


def next_action(client, gid: int, tok: str) -> dict:
    s = client.get(f"/api/games/{gid}", headers=auth(tok)).json()
    a = first_of(s["legal_actions"], "bid", "pass", "par", "buy_shares", "lay_tile", "buy_train",
                 "run_routes", "dividend") or s["legal_actions"][0]
    a = playable(a)
    a["id"] = s["action_count"] + 1
    return a


def new_game(client) -> tuple[int, str]:
    r = client.post("/api/games", json={"title": "1867", "players": ["A", "B", "C"], "seed": 5, "hotseat": True})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"]


def test_an_action_on_one_app_reaches_the_other(two_apps):
    a, b = two_apps
    gid, tok = new_game(a)
    for i in range(3):  # b's cache holds the game, then catches up with a's actions
        assert b.get(f"/api/games/{gid}").json()["action_count"] == i
        r = a.post(f"/api/games/{gid}/actions", json=next_action(a, gid, tok), headers=auth(tok))
        assert r.status_code == 200, r.text
        assert b.get(f"/api/games/{gid}").json()["action_count"] == i + 1
    got: list = []

    def listen():
        t0 = time.monotonic()
        r = b.get(f"/api/games/{gid}/events?since=3&once=1")
        got.append((time.monotonic() - t0, r.text))
    t = threading.Thread(target=listen)
    t.start()
    deadline = time.monotonic() + 10
    while b.app.state.changes.waiting(gid) == 0 and time.monotonic() < deadline:  # the stream is open
        time.sleep(0.02)
    r = a.post(f"/api/games/{gid}/actions", json=next_action(a, gid, tok), headers=auth(tok))
    assert r.status_code == 200, r.text
    t.join(NOTIFY_WAIT)
    assert got, "b's stream was not woken"
    waited, text = got[0]
    assert '"action_count": 4' in text
    assert waited < NOTIFY_WAIT / 2, f"b's stream waited {waited:.1f} s: no NOTIFY"
    assert [x["id"] for x in b.get(f"/api/games/{gid}/log").json()["actions"]] == [1, 2, 3, 4]


def test_a_race_between_two_apps_stores_one(two_apps):
    a, b = two_apps
    gid, tok = new_game(a)
    for _ in range(4):
        act = next_action(a, gid, tok)
        b.get(f"/api/games/{gid}")  # both caches hold the game
        out: list = []
        barrier = threading.Barrier(2)

        def post(client):
            barrier.wait()  # noqa: B023 - the threads run and join within this iteration
            out.append(client.post(f"/api/games/{gid}/actions", json=act, headers=auth(tok)))  # noqa: B023 - the threads run and join within this iteration
        ts = [threading.Thread(target=post, args=(c,)) for c in (a, b)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        codes = sorted(r.status_code for r in out)
        assert codes == [200, 409], [r.text for r in out]
        refusal = next(r.json() for r in out if r.status_code == 409)
        assert refusal["rule"] == "stale-id" and str(act["id"]) in refusal["error"]
    la = a.get(f"/api/games/{gid}/log").json()["actions"]
    assert la == b.get(f"/api/games/{gid}/log").json()["actions"]
    assert [x["id"] for x in la] == [1, 2, 3, 4]


def test_serve_with_workers(pg_url, tmp_path):
    srv = Server(pg_url, tmp_path / "server.log", "--workers", "2")
    try:
        with httpx.Client(base_url=srv.url, timeout=60, headers={"Connection": "close"}) as c:
            gid, tok = new_game(c)
            for i in range(12):  # each request on a new connection
                act = next_action(c, gid, tok)
                assert act["id"] == i + 1
                r = c.post(f"/api/games/{gid}/actions", json=act, headers=auth(tok))
                assert r.status_code == 200, r.text
                # the front sends the game to one worker: it never catches up with another's actions
                assert "catchup;desc=0;" in r.headers["server-timing"], r.headers["server-timing"]
            assert [x["id"] for x in c.get(f"/api/games/{gid}/log").json()["actions"]] == list(range(1, 13))
    finally:
        srv.stop()


def test_workers_need_postgresql(tmp_path):
    from trackage.cli import main

    r = CliRunner().invoke(main, ["serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert r.exit_code == 2
    assert "--workers 2 needs a PostgreSQL database" in r.output and "workers-need-postgresql" in r.output


def test_the_cache_evicts_the_least_recently_used(db_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(db_url, cache_size=2)
    with TestClient(app) as c:
        g1, g2, g3 = (new_game(c)[0] for _ in range(3))
        for g in (g1, g2, g3):
            assert c.get(f"/api/games/{g}").status_code == 200
        assert app.state.service.cached() == [g2, g3]
        assert c.get(f"/api/games/{g1}").json()["action_count"] == 0  # rebuilt from the database
        assert app.state.service.cached() == [g3, g1]
    app.state.storage.close()
