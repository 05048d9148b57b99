"""What the map shows the acting seat: the hint's hexes and cities by name, where "centre on"
looks, a hex's details, whole names and terrain words; the tile choices of a hex (an unknown
hex refused with its rule; one option per tile with its legal rotations: test_browser_map.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from helpers import players

from trackage.titles import new_game
from trackage.web.hexinfo import hex_info
from trackage.web.mapsvg import render_map
from trackage.web.maptargets import entity_hexes, focus_hexes, lay_targets, token_targets

from .test_api import acting_token
from .test_api import new_game as api_game

NS = {"s": "http://www.w3.org/2000/svg"}


def test_targets_name_the_hexes_and_cities():
    g = new_game("1822", players(3), [], seed=3)
    named = next(h for h in g.board.hexes if h.location_name and g.board.tile(h).cities)
    lays = [{"type": "lay_tile", "hex": named.id, "tile": "x", "rotation": r} for r in (0, 1)]
    assert lay_targets(g, lays + [{"hex": "B39"}]) == [{"hex": "B39", "name": ""},
                                                        {"hex": named.id, "name": named.location_name}]
    city = g.board.tile(named).cities[0]
    toks = token_targets(g, [{"type": "place_token", "city": city.id}, {"type": "place_token", "city": city.id}])
    assert toks == [{"city": city.id, "hex": named.id, "name": named.location_name}]
    assert focus_hexes(g, lay_targets(g, lays), toks) == [named.id]


def test_centre_on_a_company_looks_at_its_home_before_its_tokens():
    g = new_game("1825", players(3), ["unit_1"], seed=3)
    c = next(c for c in g.corporations if c.coordinates)
    home = c.coordinates if isinstance(c.coordinates, list) else [c.coordinates]
    assert entity_hexes(g, c) == home


def test_every_hex_says_its_details_and_centre():
    g = new_game("1822", players(3), [], seed=3)
    root = ET.fromstring(render_map(g))
    hexes = root.findall(".//s:g[@data-hex]", NS)
    assert hexes and all(h.get("data-info", "").startswith(h.get("data-hex")) for h in hexes)
    assert all(h.get("data-cx") is not None and h.get("data-cy") is not None for h in hexes)
    london = next(h for h in g.board.hexes if h.location_name == "London")
    text = hex_info(london, g.board.tile(london), ["LNWR"], ["yellow"])
    assert text.startswith(f"{london.id} London") and "tokens LNWR" in text and "revenue" in text


def test_long_names_and_terrain_words_are_whole():
    g = new_game("1867", players(3), [], seed=3)
    svg = render_map(g)
    timmins = next(h for h in g.board.hexes if (h.location_name or "").startswith("Timmins"))
    lines = re.findall(r'class="locname"[^>]*>([^<]*)<', svg)
    assert any(" ".join(lines[i:i + 2]) == timmins.location_name.replace("&", "&amp;") for i in range(len(lines)))
    g = new_game("1858India", players(4), [], seed=3)
    words = re.findall(r'class="terrain"[^>]*>([^<]*)<', render_map(g))
    assert words and all(w.startswith(("desert ", "swamp ", "cost ")) or " " in w for w in words), words[:5]
    assert "desert 20" in words or any(w.startswith("desert ") for w in words)


def test_tile_choices_one_per_tile_with_its_legal_rotations(sqlite_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    with TestClient(create_app(sqlite_url)) as client:
        gid, tokens = api_game(client)
        tok, _ = acting_token(client, gid, tokens)
        client.cookies.set(f"trackage_seat_{gid}", tok)
        r = client.get(f"/games/{gid}/hex/Z99", headers={"Accept": "text/html"})
        assert r.status_code == 404 and "no hex" in r.text and "unknown-hex" in r.text
        hx = new_game("1825", players(3), ["unit_1"], seed=7).board.hexes[0].id
        r = client.get(f"/games/{gid}/hex/{hx}")  # the stock round: no tile here, said so
        assert r.status_code == 200 and "tile-choices" in r.text and "No legal tile here" in r.text
