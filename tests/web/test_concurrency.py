"""Concurrent posts never lose or duplicate an action: parallel requests on one server, and
two server processes on one database taking interleaved actions on one game."""

from __future__ import annotations

import json
import threading

import httpx
import pytest

from .webkit import PG, Server, auth, first_of, pg_database, pg_drop, playable

NO_PG = "NO POSTGRESQL: set TRACKAGE_TEST_PG to a server URL (bash .ci/run starts one)"


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_db(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.db'}"
        return
    if not PG:
        pytest.skip(NO_PG)
    url = pg_database()
    yield url
    pg_drop(url)


def _new_hotseat(base: str) -> tuple[int, str]:
    r = httpx.post(base + "/api/games", json={"title": "1867", "players": ["A", "B", "C", "D"], "seed": 11,
                                              "hotseat": True}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["seats"][0]["token"]


def _next_action(base, gid, tok):
    s = httpx.get(f"{base}/api/games/{gid}", headers=auth(tok), timeout=30).json()
    a = first_of(s["legal_actions"], "bid", "pass", "par", "buy_shares", "lay_tile", "buy_train", "run_routes",
                 "dividend")
    if a is None:
        a = s["legal_actions"][0]
    a = playable(a)
    a["id"] = s["action_count"] + 1
    return a, s["action_count"]


def test_parallel_posts_of_one_id_store_it_once(shared_db, tmp_path):
    srv = Server(shared_db, tmp_path / "server.log")
    try:
        gid, tok = _new_hotseat(srv.url)
        for _round in range(4):
            a, _count = _next_action(srv.url, gid, tok)
            codes = []
            barrier = threading.Barrier(6)

            def fire():
                barrier.wait()  # noqa: B023 - the threads run and join within this iteration
                r = httpx.post(f"{srv.url}/api/games/{gid}/actions", json=a, headers=auth(tok), timeout=60)  # noqa: B023 - the threads run and join within this iteration
                codes.append(r.status_code)  # noqa: B023 - the threads run and join within this iteration
            threads = [threading.Thread(target=fire) for _ in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(codes) == [200] + [409] * 5, codes
        log = httpx.get(f"{srv.url}/api/games/{gid}/log", timeout=30).json()
        assert [x["id"] for x in log["actions"]] == [1, 2, 3, 4]
    finally:
        srv.stop()


def test_two_servers_one_database_interleaved(shared_db, tmp_path):
    a_srv = Server(shared_db, tmp_path / "a.log")
    b_srv = Server(shared_db, tmp_path / "b.log")
    try:
        gid, tok = _new_hotseat(a_srv.url)
        posted = []
        for i in range(24):  # alternate servers: each must catch up with the other's actions
            base = (a_srv, b_srv)[i % 2].url
            a, count = _next_action(base, gid, tok)
            assert count == i
            r = httpx.post(f"{base}/api/games/{gid}/actions", json=a, headers=auth(tok), timeout=60)
            assert r.status_code == 200, r.text
            posted.append(a)
        # races between the two servers: one wins each id, the other gets 409
        for _ in range(3):
            a, count = _next_action(a_srv.url, gid, tok)
            codes = []
            barrier = threading.Barrier(2)

            def fire(base):
                barrier.wait()  # noqa: B023 - the threads run and join within this iteration
                r = httpx.post(f"{base}/api/games/{gid}/actions", json=a, headers=auth(tok), timeout=60)  # noqa: B023 - the threads run and join within this iteration
                codes.append(r.status_code)  # noqa: B023 - the threads run and join within this iteration
            ts = [threading.Thread(target=fire, args=(s.url,)) for s in (a_srv, b_srv)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            assert sorted(codes) == [200, 409], codes
            posted.append(a)
        la = httpx.get(f"{a_srv.url}/api/games/{gid}/log", timeout=30).json()
        lb = httpx.get(f"{b_srv.url}/api/games/{gid}/log", timeout=30).json()
        assert la["actions"] == lb["actions"]
        assert [x["id"] for x in la["actions"]] == list(range(1, len(posted) + 1))
        assert [x["type"] for x in la["actions"]] == [x["type"] for x in posted]
        sa = httpx.get(f"{a_srv.url}/api/games/{gid}", timeout=30).json()
        sb = httpx.get(f"{b_srv.url}/api/games/{gid}", timeout=30).json()
        assert sa == sb and sa["action_count"] == len(posted)
        # and the stored log replays to the same state
        from trackage.replay import replay_data

        rep = replay_data(json.loads(json.dumps(la)))
        assert rep.error is None and rep.applied == len(posted)
    finally:
        a_srv.stop()
        b_srv.stop()
