"""The API's OpenAPI document names the request bodies' schemas (new game, import, action)."""

from __future__ import annotations


def test_openapi_names_the_request_bodies(client):
    doc = client.get("/api/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for path, name in [("/api/games", "CreateGame"), ("/api/games/import", "ImportLog"),
                       ("/api/games/{gid}/actions", "Action")]:
        body = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{name}"}, (path, body)
        assert name in schemas
    assert {"title", "players"} <= set(schemas["CreateGame"]["required"])
    assert {"title", "players", "actions"} <= set(schemas["ImportLog"]["required"])
    assert {"id", "type"} <= set(schemas["Action"]["required"])


def test_bodies_refused_by_their_models_keep_the_api_shape(client):
    r = client.post("/api/games", content=b'{"title": "1825", "players": ["a", "b"], "seed": true}',
                    headers={"Content-Type": "text/plain"})
    assert r.status_code == 422 and r.json()["rule"] == "bad-seed"
    r = client.post("/api/games", content=b"", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["rule"] == "malformed-json"
    r = client.post("/api/games/import", json={"title": "1825", "players": [], "actions": [], "settings": [1]})
    assert r.status_code == 422 and r.json()["rule"] == "bad-log"
    r = client.post("/api/games/abc/actions", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 404 and r.json()["rule"] == "unknown-game"
    r = client.post("/api/games/999/actions", json=[1], headers={"Authorization": "Bearer x"})
    assert r.status_code == 422 and r.json()["rule"] == "bad-body"
