"""Webhooks: a POST to each hook when the players to act change (undo included), retries,
the URL rules, the hooks' status in the API and on the page, kept across a restart."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from trackage.web.app import create_app
from trackage.web.webhooks import WebhookSettings

from .test_api import auth, new_game, post, state
from .webkit import first_of, playable

FAST = WebhookSettings(allow_private=True, backoff=(0.05, 0.1, 0.2), timeout=2.0)


class Receiver:
    """A tiny HTTP server on 127.0.0.1 recording the JSON bodies posted to it; ``statuses``:
    the answers to give, in order (then 200)."""

    def __init__(self, statuses: list[int] | None = None) -> None:
        self.bodies: list[dict] = []
        self.statuses = list(statuses or [])
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    receiver.bodies.append({"path": self.path, "host": self.headers.get("Host"),
                                            "body": json.loads(raw)})
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "http://127.0.0.1:9/elsewhere")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def received(self) -> list[dict]:
        with self.lock:
            return list(self.bodies)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def wait_for(what: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.02)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def make_client(url: str, settings: WebhookSettings = FAST) -> Iterator[TestClient]:
    app = create_app(url, webhooks=settings)
    with TestClient(app) as c:
        yield c
    app.state.storage.close()


@pytest.fixture
def hclient(sqlite_url) -> Iterator[TestClient]:
    """An app that allows private (loopback) webhooks, with short retries."""
    yield from make_client(sqlite_url)


@pytest.fixture
def strict(sqlite_url) -> Iterator[TestClient]:
    """An app with the default rules: public addresses only."""
    yield from make_client(sqlite_url, WebhookSettings())


def act(client, gid, token) -> dict:
    s = state(client, gid, token)
    a = playable(first_of(s["legal_actions"], "pass", "bid", "par", "buy_shares"))
    a["id"] = s["action_count"] + 1
    r = post(client, gid, token, a)
    assert r.status_code == 200, r.text
    return r.json()


def test_every_turn_change_of_a_hotseat_game_is_posted(hclient, receiver):
    r = hclient.post("/api/games", json={"title": "1825", "players": ["Ann", "Bob", "Cid"], "options": ["unit_1"],
                                         "seed": 7, "hotseat": True, "webhooks": [receiver.url + "/hook?x=1"]})
    assert r.status_code == 201, r.text
    gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
    expected = []
    before = state(hclient, gid, tok)["to_act"]
    for _ in range(3):
        s = act(hclient, gid, tok)
        if s["to_act"] != before:
            expected.append((s["action_count"], s["to_act"], s["round"]))
        before = s["to_act"]
    r = post(hclient, gid, tok, {"type": "undo", "id": s["action_count"] + 1})
    assert r.status_code == 200, r.text
    undone = r.json()
    expected.append((undone["action_count"], undone["to_act"], undone["round"]))
    r = post(hclient, gid, tok, {"type": "redo", "id": undone["action_count"] + 1})
    assert r.status_code == 200, r.text
    redone = r.json()
    assert redone["to_act"] == s["to_act"] != undone["to_act"]
    expected.append((redone["action_count"], redone["to_act"], redone["round"]))
    assert len(expected) >= 3
    wait_for(lambda: len(receiver.received()) >= len(expected))
    got = sorted(receiver.received(), key=lambda b: b["body"]["action_id"])
    assert [g["path"] for g in got] == ["/hook?x=1"] * len(expected)
    assert got[0]["host"] == receiver.url.removeprefix("http://")
    for g, (aid, to_act, rnd) in zip(got, expected, strict=True):
        assert g["body"] == {"game": gid, "title": "1825", "to_act": to_act, "round": rnd, "action_id": aid,
                             "link": f"http://testserver/games/{gid}"}
    assert all(set(p) == {"id", "name"} for g in got for p in g["body"]["to_act"])
    wait_for(lambda: state(hclient, gid, tok)["webhooks"][0]["delivered"] == len(expected))
    hooks = state(hclient, gid, tok)["webhooks"]
    assert hooks == [{"id": hooks[0]["id"], "url": receiver.url + "/hook?x=1", "player": None, "last_status": 200,
                      "last_error": None, "failures": 0, "delivered": len(expected)}]


def test_a_player_hook_hears_when_its_player_is_to_act(hclient, receiver):
    gid, tokens = new_game(hclient)
    first = state(hclient, gid)["to_act"][0]
    other = next(p for p in state(hclient, gid)["players"] if p["id"] != first["id"])
    seat = {"id": other["id"], "name": other["name"]}  # as to_act names a player
    r = hclient.post(f"/api/games/{gid}/webhooks", json={"url": receiver.url + "/mine"},
                     headers=auth(tokens[other["name"]]))
    assert r.status_code == 201, r.text
    assert r.json()["player"] == str(other["id"])
    assert hclient.post(f"/api/games/{gid}/webhooks", json={"url": receiver.url}).status_code == 401
    # shown to the player's seat, not to spectators or other seats
    assert [h["url"] for h in state(hclient, gid, tokens[other["name"]])["webhooks"]] == [receiver.url + "/mine"]
    assert state(hclient, gid)["webhooks"] == [] == state(hclient, gid, tokens[first["name"]])["webhooks"]
    for _ in range(6):
        s = state(hclient, gid)
        if s["to_act"] and s["to_act"][0]["id"] == other["id"]:
            break
        act(hclient, gid, tokens[s["to_act"][0]["name"]])
    assert state(hclient, gid)["to_act"][0]["id"] == other["id"]
    wait_for(lambda: len(receiver.received()) >= 1)
    body = receiver.received()[0]["body"]
    assert body["player"] == str(other["id"]) and seat in body["to_act"]
    assert body["seat_link"] == f"http://testserver/games/{gid}?token={tokens[other['name']]}"
    # only the player's own turns were posted
    assert all(seat in b["body"]["to_act"] for b in receiver.received())


def test_a_failed_attempt_is_retried(hclient):
    recv = Receiver([500])
    try:
        gid, tokens = new_game(hclient, webhooks=[recv.url])
        s = state(hclient, gid)
        act(hclient, gid, tokens[s["to_act"][0]["name"]])
        wait_for(lambda: len(recv.received()) >= 2)
        first, second = recv.received()[:2]
        assert first["body"] == second["body"]
        wait_for(lambda: state(hclient, gid)["webhooks"][0]["delivered"] == 1)
        hook = state(hclient, gid)["webhooks"][0]
        assert hook["failures"] == 0 and hook["last_status"] == 200 and hook["last_error"] is None
    finally:
        recv.close()


def test_a_failing_hook_shows_in_the_api_and_page_and_survives_a_restart(sqlite_url):
    recv = Receiver([500, 302, 503, 500, 500])
    try:
        clients = make_client(sqlite_url)
        client = next(clients)
        gid, tokens = new_game(client, webhooks=[recv.url + "/down"])
        act(client, gid, tokens[state(client, gid)["to_act"][0]["name"]])
        wait_for(lambda: state(client, gid)["webhooks"][0]["failures"] == 4)  # the first attempt and 3 retries
        time.sleep(0.3)
        assert len(recv.received()) == 4  # no fifth attempt, and the redirect was not followed
        hook = state(client, gid, next(iter(tokens.values())))["webhooks"][0]
        assert hook["url"] == recv.url + "/down" and hook["last_status"] == 500
        assert hook["last_error"] == "HTTP 500" and hook["failures"] == 4 and hook["delivered"] == 0
        # a spectator sees the host only (a chat's webhook URL is its secret)
        assert state(client, gid)["webhooks"][0]["url"] == "http://127.0.0.1/…"
        page = client.get(f"/games/{gid}").text
        assert 'class="error webhook-failing"' in page and "HTTP 500" in page and "4 failed attempts" in page
        next(clients, None)
        restarted = make_client(sqlite_url)
        assert state(next(restarted), gid)["webhooks"][0]["failures"] == 4
        next(restarted, None)
    finally:
        recv.close()


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "http://user:pw@example.com/", "http://127.0.0.1/",
                                 "http://10.0.0.1/", "http://[::1]/", "http://169.254.169.254/",
                                 "http://localhost:8018/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/",
                                 "http://192.168.1.10/", "http://224.0.0.1/", "https:///nohost", "not a url"])
def test_bad_urls_are_refused(strict, url):
    r = strict.post("/api/games", json={"title": "1825", "players": ["Ann", "Bob"], "options": ["unit_1"],
                                        "webhooks": [url]})
    assert r.status_code == 422 and r.json()["rule"] == "webhook-url", r.text
    assert url in r.json()["error"]


def test_bad_urls_are_refused_when_a_seat_adds_one(strict):
    gid, tokens = new_game(strict)
    tok = next(iter(tokens.values()))
    for url in ("http://127.0.0.1/", "ftp://example.com/"):
        r = strict.post(f"/api/games/{gid}/webhooks", json={"url": url}, headers=auth(tok))
        assert r.status_code == 422 and r.json()["rule"] == "webhook-url", r.text
    r = strict.post(f"/api/games/{gid}/webhooks", json={"link": "x"}, headers=auth(tok))
    assert r.status_code == 422 and r.json()["rule"] == "webhook-url"
    r = strict.post("/api/games", json={"title": "1825", "players": ["Ann", "Bob"], "options": ["unit_1"],
                                        "webhooks": "http://example.com/"})
    assert r.status_code == 422 and r.json()["rule"] == "webhook-url"


def test_private_addresses_when_the_operator_allows_them_but_never_other_schemes_or_credentials(hclient):
    for url, ok in [("http://127.0.0.1:9/", True), ("http://[::1]:9/", True), ("http://10.0.0.1/", True),
                    ("ftp://127.0.0.1/", False), ("http://u:p@127.0.0.1/", False)]:
        r = hclient.post("/api/games", json={"title": "1825", "players": ["Ann", "Bob"], "options": ["unit_1"],
                                             "webhooks": [url]})
        assert (r.status_code == 201) == ok, (url, r.text)


def test_delivery_checks_the_address_again(sqlite_url):
    """A hook registered while private addresses were allowed is refused at delivery by a
    server that no longer allows them (as a name rebound to a private address would be)."""
    recv = Receiver()
    try:
        clients = make_client(sqlite_url)
        client = next(clients)
        gid, tokens = new_game(client, webhooks=[recv.url])
        next(clients, None)
        strict_clients = make_client(sqlite_url, WebhookSettings(backoff=()))
        strict_client = next(strict_clients)
        act(strict_client, gid, tokens[state(strict_client, gid)["to_act"][0]["name"]])
        wait_for(lambda: state(strict_client, gid)["webhooks"][0]["failures"] == 1)
        hook = state(strict_client, gid, next(iter(tokens.values())))["webhooks"][0]
        assert hook["last_error"].startswith("refused (webhook-url)") and hook["last_status"] is None
        assert recv.received() == []
        next(strict_clients, None)
    finally:
        recv.close()


def test_a_seat_removes_its_own_hook(hclient, receiver):
    gid, tokens = new_game(hclient)
    ann, bob = tokens["Ann"], tokens["Bob"]
    hook_id = hclient.post(f"/api/games/{gid}/webhooks", json={"url": receiver.url},
                           headers=auth(ann)).json()["id"]
    assert hclient.delete(f"/api/games/{gid}/webhooks/{hook_id}", headers=auth(bob)).status_code == 404
    assert hclient.delete(f"/api/games/{gid}/webhooks/{hook_id}", headers=auth(ann)).status_code == 204
    assert state(hclient, gid, ann)["webhooks"] == []


def test_a_named_host_is_posted_to_its_checked_address_with_its_own_host_header(hclient, receiver):
    port = receiver.url.rsplit(":", 1)[1]
    gid, tokens = new_game(hclient, webhooks=[f"http://localhost:{port}/named"])
    act(hclient, gid, tokens[state(hclient, gid)["to_act"][0]["name"]])
    wait_for(lambda: len(receiver.received()) >= 1)
    got = receiver.received()[0]
    assert got["path"] == "/named" and got["host"] == f"localhost:{port}"
