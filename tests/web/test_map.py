"""The SVG map renderer: every title's map, from the board, as a pure function of the game."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from helpers import players

from trackage.replay import replay_file
from trackage.titles import new_game
from trackage.web.mapsvg import Geometry, R, render_map, render_tile

from .webkit import fixture

NS = {"s": "http://www.w3.org/2000/svg"}
SETUPS = [("1825", 3, ["unit_1"]), ("1825", 4, ["unit_2"]), ("1867", 3, []), ("1861", 4, []), ("1893", 3, []),
          ("1822", 3, []), ("1822", 4, ["plus_expansion"]), ("1858", 4, []), ("1858India", 4, [])]


@pytest.mark.parametrize("title,n,opts", SETUPS)
def test_every_title_draws_every_hex(title, n, opts):
    g = new_game(title, players(n), opts, seed=3)
    svg = render_map(g)
    root = ET.fromstring(svg)
    hexes = root.findall(".//s:g[@class='hex']", NS)
    want = [h for h in g.board.hexes if not h.empty]
    assert len(hexes) == len(want)
    assert [h.get("data-hex") for h in hexes] == [h.id for h in want]
    assert root.get("data-layout") == g.board.hexmap.layout
    cities = root.findall(".//s:g[@data-city]", NS)
    assert len(cities) == sum(len(t.cities) for h, t in g.board.tiles() if not h.empty)
    # track, offboards with revenues, terrain costs and location names are drawn
    assert "class=\"track" in svg and "locname" in svg
    if any(t.offboards for h, t in g.board.tiles() if not h.empty):
        assert "offboard-revenue" in svg
    names = [h.location_name for h in want if h.location_name and not h.hide_location_name]
    assert any(nm[:18] in svg for nm in names)
    costs = {u.cost for h in want for u in h.original_tile.upgrades if u.cost}
    assert all(f">{c}<" in svg for c in costs)
    assert render_map(g) == svg  # a pure function of the state


@pytest.mark.parametrize("title,name", [("1867", "21268.json"), ("1825", "141331.json"),
                                        ("1858", "219682.json"), ("1822", "discard_trains_after_sr_export.json"),
                                        ("1893", "1893_game_end_bank.json")])
def test_played_maps_show_tiles_and_tokens(title, name):
    out = replay_file(fixture(title, name))
    g = out.game
    svg = render_map(g)
    root = ET.fromstring(svg)
    tokens = root.findall(".//s:g[@class='token']", NS)
    placed = sum(1 for c in g.board.cities() for t in g.board.tokens(c) if t is not None)
    assert len(tokens) == placed > 0
    laid = [t for h, t in g.board.tiles() if not t.preprinted]
    assert laid and all(f">{t.name}<" in svg for t in laid[:20])
    for t in tokens[:5]:
        assert t.get("data-corp")


def test_marks_and_routes():
    g = new_game("1867", players(3), [], seed=3)
    hx = g.board.hexes[10].id
    city = g.board.cities()[0].id
    svg = render_map(g, layable={hx}, tokenable={city},
                     routes=[{"train": "2-0", "connections": [[g.board.hexes[0].id, g.board.hexes[1].id]],
                              "hexes": []}])
    root = ET.fromstring(svg)
    assert root.find(f".//s:g[@data-hex='{hx}']", NS).get("class") == "hex layable"
    assert "tokenable" in root.find(f".//s:g[@data-city='{city}']", NS).get("class")
    assert root.findall(".//s:polyline[@class='route']", NS)


@pytest.mark.parametrize("layout", ["flat", "pointy"])
def test_neighbours_touch_across_the_edge_they_share(layout):
    """Edge k's midpoint of a hex is the midpoint of edge k+3 of the neighbour behind it."""
    from trackage.core.hexgrid import OFFSETS

    geo = Geometry(layout)
    cx, cy = geo.center(4, 6)
    for k, (dx, dy) in enumerate(OFFSETS[layout]):
        nx, ny = geo.center(4 + dx, 6 + dy)
        assert math.isclose(math.hypot(nx - cx, ny - cy), math.sqrt(3) * R, rel_tol=1e-9)
        a = geo.edge_mid(cx, cy, k)
        b = geo.edge_mid(nx, ny, (k + 3) % 6)
        assert math.isclose(a[0], b[0], abs_tol=1e-6) and math.isclose(a[1], b[1], abs_tol=1e-6)


def test_tile_preview():
    g = new_game("1825", players(3), ["unit_1"], seed=1)
    acts = [a for a in g.legal_actions() if a["type"] == "lay_tile"]
    hx = g.board.hexes[0]
    tile = g.board.supply_tiles()[0]
    svg = render_tile(g, hx, tile.at(2, hx))
    root = ET.fromstring(svg)
    assert root.get("class") == "tile-preview" and root.find(".//s:polygon", NS) is not None
    del acts
