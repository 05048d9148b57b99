"""Errors as the asker reads them: a browser asking for a page gets a small HTML page (the
message, the rule, a link back), an API client JSON; a failure of ours is a 500 without a
traceback. The favicon. The lobby's options in words, and its forms kept after an error."""

from __future__ import annotations

import json
import re

import pytest

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture
def app_client(sqlite_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(sqlite_url)

    def boom() -> None:
        raise RuntimeError("secret detail")

    app.add_api_route("/boom", boom)
    app.add_api_route("/api/boom", boom)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c
    app.state.storage.close()


def test_unknown_game_is_a_page_for_a_browser_and_json_for_the_api(app_client):
    r = app_client.get("/games/999", headers=HTML)
    assert r.status_code == 404 and "text/html" in r.headers["content-type"]
    assert 'id="error-page"' in r.text and 'href="/"' in r.text and "unknown-game" in r.text
    r = app_client.get("/games/999", headers={"Accept": "application/json"})
    assert r.status_code == 404 and r.json()["rule"] == "unknown-game"
    r = app_client.get("/api/games/999", headers=HTML)  # the API answers JSON, whoever asks
    assert r.status_code == 404 and r.json()["rule"] == "unknown-game"


def test_unknown_page_bad_query_and_method(app_client):
    r = app_client.get("/no/such/page", headers=HTML)
    assert r.status_code == 404 and "there is no page at /no/such/page" in r.text and "unknown-page" in r.text
    assert app_client.get("/no/such/page").json() == {"detail": "Not Found"}
    r = app_client.get("/games/1?action=abc", headers=HTML)
    assert r.status_code == 422 and "text/html" in r.headers["content-type"] and "action" in r.text
    r = app_client.put("/games", headers=HTML)
    assert r.status_code == 405 and "PUT is not allowed on /games" in r.text


def test_a_failure_is_a_500_without_a_traceback(app_client):
    r = app_client.get("/boom", headers=HTML)
    assert r.status_code == 500 and "text/html" in r.headers["content-type"]
    assert "the server failed on GET /boom" in r.text
    assert "secret detail" not in r.text and "Traceback" not in r.text
    r = app_client.get("/api/boom", headers=HTML)
    assert r.status_code == 500 and r.json()["rule"] == "internal-error" and "secret" not in r.text


def test_favicon(app_client):
    r = app_client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.content
    assert 'rel="icon"' in app_client.get("/").text


def test_titles_name_and_describe_every_option(app_client):
    titles = app_client.get("/api/titles").json()
    for title, info in titles.items():
        assert set(info["option_text"]) == set(info["options"]), title
        for opt, text in info["option_text"].items():
            assert text["name"] and text["desc"], (title, opt)
    assert titles["1825"]["option_text"]["k1"] == {"name": "K1", "desc": "Extension Kit 1 - Supplementary Tiles"}
    assert "units set the player range" in titles["1825"]["players_note"]


def test_the_new_game_form_keeps_its_values_after_an_error(app_client):
    r = app_client.post("/games", data={"title": "1858", "players": "Ann\nBob", "options": ["quick_start_a"],
                                        "seed": "42", "mode": "seats"}, headers=HTML, follow_redirects=False)
    assert r.status_code == 422 and "text/html" in r.headers["content-type"]
    page = r.text
    assert "is for 3, 4, 5, 6 players, not 2" in page
    assert '<option value="1858" selected>' in page
    assert re.search(r'<textarea name="players" id="players" rows="4">Ann\nBob</textarea>', page)
    assert 'value="42"' in page and re.search(r'value="seats" id="mode-seats" checked', page)
    checked = re.search(r'<fieldset id="options" data-checked="([^"]*)"', page)
    assert checked and json.loads(checked.group(1).replace("&#34;", '"').replace("&quot;", '"')) == ["quick_start_a"]
    # the error is inside the new-game card, before its form
    card = page[page.index("<h2>New game</h2>"):page.index('id="new-game"')]
    assert 'id="error"' in card
    # the import form keeps the pasted text
    r = app_client.post("/import", data={"log": "{not json"}, headers=HTML, follow_redirects=False)
    assert r.status_code == 400 and ">{not json</textarea>" in r.text
    card = r.text[r.text.index("Import an 18xx.games log"):r.text.index('id="import-form"')]
    assert 'id="error"' in card
