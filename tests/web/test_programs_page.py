"""Programmed actions on the web: the game page's Programs card (the seat's player, a hotseat's
every player), a program set and cancelled through the action API, refused (4xx, named rule)
when it is not one its player may set now, or not the seat's."""

from __future__ import annotations

from .test_api import new_game, post, state
from .test_panels import page_html


def test_a_seat_sets_an_auto_pass_that_plays_for_it_then_cancels_it(sqlite_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(sqlite_url)
    with TestClient(app) as client:
        gid, tokens = new_game(client)
        s = state(client, gid, tokens["Ann"])
        ann, bob = (next(p["id"] for p in s["players"] if p["name"] == n) for n in ("Ann", "Bob"))
        assert [p["name"] for p in s["to_act"]] == ["Ann"]
        # the card: Bob's own section, no program yet, the forms of the listed programs
        html = page_html(client, gid, tokens["Bob"])
        assert 'id="programs"' in html and 'data-part="programs"' in html and "Bob: <span" in html
        assert "no program" in html and "program-set-pass" in html and "Ann: <span" not in html
        # not listed (nothing to cancel): a 4xx naming the rule; not Bob's to set for Ann: 403
        me = {"entity": bob, "entity_type": "player"}
        r = post(client, gid, tokens["Bob"], {"type": "program_disable", **me, "reason": "user", "id": 1})
        assert r.status_code == 422 and r.json()["rule"] == "program-not-listed", r.text
        r = post(client, gid, tokens["Bob"], {"type": "program_share_pass", "entity": ann, "entity_type": "player",
                                              "unconditional": False, "indefinite": False, "id": 1})
        assert r.status_code == 403, r.text
        r = post(client, gid, tokens["Bob"], {"type": "program_share_pass", **me, "unconditional": True,
                                              "indefinite": False, "id": 1})
        assert r.status_code == 200, r.text
        assert "Pass in stock rounds, unconditionally" in page_html(client, gid, tokens["Bob"])
        # Ann passes: Bob's program passes for him, the turn goes on to Cid
        s = state(client, gid, tokens["Ann"])
        pa = next(a for a in s["legal_actions"] if a["type"] == "pass")
        after = post(client, gid, tokens["Ann"], {**pa, "id": 2}).json()
        assert [p["name"] for p in after["to_act"]] == ["Cid"]
        log = client.get(f"/api/games/{gid}/log").json()["actions"]
        assert [(a["type"], a["entity"]) for a in log[-1]["auto_actions"]] == [("pass", bob)]
        # cancelled: the card says so
        r = post(client, gid, tokens["Bob"], {"type": "program_disable", **me, "reason": "user", "id": 3})
        assert r.status_code == 200, r.text
        assert "no program" in page_html(client, gid, tokens["Bob"])
    app.state.storage.close()
    # the stored log keeps the auto actions: the game rebuilt from it is where it was
    app = create_app(sqlite_url)
    with TestClient(app) as client:
        assert [p["name"] for p in state(client, gid, tokens["Cid"])["to_act"]] == ["Cid"]
    app.state.storage.close()


def test_a_hotseat_card_has_every_player_the_one_to_act_open(sqlite_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(sqlite_url)
    with TestClient(app) as client:
        r = client.post("/api/games", json={"title": "1825", "players": ["Ann", "Bob", "Cid"], "options": ["unit_1"],
                                            "seed": 7, "hotseat": True})
        gid, tok = r.json()["id"], r.json()["seats"][0]["token"]
        html = page_html(client, gid, tok)
        assert all(f"{n}: <span" in html for n in ("Ann", "Bob", "Cid"))
        assert html.count('class="program-player"') == 3
        opened = html[html.index('class="program-player"'):].split(">", 1)[0]
        assert "open" in opened  # Ann's, the first, to act
        # a spectator is told to open a seat link
        client.cookies.clear()
        assert "Open your seat link to program actions." in client.get(f"/games/{gid}").text
    app.state.storage.close()
