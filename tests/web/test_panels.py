"""The game page's parts (/games/{id}/panels): the markup the page is made of, swapped in place
by its script; the undo and redo buttons only for the seats whose undo or redo would be taken."""

from __future__ import annotations

import re

from .test_api import acting_token, new_game, post
from .webkit import first_of


def page_html(client, gid, token, path=""):
    client.cookies.set(f"trackage_seat_{gid}", token)
    return client.get(f"/games/{gid}{path}").text


def root(html: str) -> str:
    """The game page's root (#game) and all it holds."""
    i = html.index('<div id="game"')
    return html[i:html.rindex("</div>") + len("</div>")]


def test_panels_are_the_page_parts(sqlite_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(sqlite_url)
    with TestClient(app) as client:
        gid, tokens = new_game(client)
        tok, s = acting_token(client, gid, tokens)
        first = first_of(s["legal_actions"], "par", "buy_company")
        assert post(client, gid, tok, {**first, "id": 1}).status_code == 200
        full = page_html(client, gid, tok)
        r = client.get(f"/games/{gid}/panels")
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        assert "<html" not in r.text and root(r.text) == root(full)
        parts = re.findall(r'data-part="([a-z]+)"', r.text)
        assert parts == ["status", "history", "map", "actions", "programs", "auctions", "market", "cards", "sheet",
                         "trains", "rules", "charts", "story", "money", "log"]
        assert 'data-last="1"' in r.text and 'data-past="0"' in r.text
        past = client.get(f"/games/{gid}/panels?action=0").text
        assert 'data-at="0"' in past and 'data-past="1"' in past and "History view" in past
        assert root(past) == root(page_html(client, gid, tok, "?action=0"))
        # an unknown game, a bad action: a 4xx
        assert client.get("/games/999/panels").status_code == 404
        assert client.get(f"/games/{gid}/panels?action=x").status_code == 422
    app.state.storage.close()


def test_undo_and_redo_offered_to_the_seats_that_may(sqlite_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(sqlite_url)
    with TestClient(app) as client:
        gid, tokens = new_game(client)
        tok, s = acting_token(client, gid, tokens)
        others = [t for t in tokens.values() if t != tok]
        panels = lambda t: page_html(client, gid, t, "/panels")  # noqa: E731
        assert 'id="undo"' not in panels(tok)  # nothing to undo yet
        first = first_of(s["legal_actions"], "par", "buy_company")
        assert post(client, gid, tok, {**first, "id": 1}).status_code == 200
        assert 'id="undo"' in panels(tok) and 'id="redo"' not in panels(tok)
        assert all('id="undo"' not in panels(t) for t in others)
        assert post(client, gid, tok, {"type": "undo", "id": 2}).status_code == 200
        assert 'id="redo"' in panels(tok) and all('id="redo"' not in panels(t) for t in others)
        assert post(client, gid, tok, {"type": "redo", "id": 3}).status_code == 200
        assert 'id="redo"' not in panels(tok) and 'id="undo"' in panels(tok)
        # viewing the past: neither
        assert 'id="undo"' not in page_html(client, gid, tok, "/panels?action=1")
    app.state.storage.close()
