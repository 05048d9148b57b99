"""Hex grid, map building, neighbours, laying tiles (tokens, reservations, borders), supply."""

import pytest

from trackage.core.hexgrid import HexGrid, invert, neighbor, parse_coord, format_coord
from trackage.core.hexmap import HexMap, TileSupply
from trackage.core.tiles import GameError, Tile, legal_rotations, standard_tiles, upgrades_to
from trackage.core.tokens import Token

LIB = standard_tiles()


class Corp:
    def __init__(self, sym, cash=1000):
        self.id = self.sym = self.name = sym
        self.cash = cash
        self.owner = None
        self.tokens = [Token(self, p) for p in (0, 40, 40)]


# ---------------------------------------------------------------------------------------
# coordinates


def test_parse_coordinates():
    assert parse_coord("A1") == (0, 0)
    assert parse_coord("S13") == (18, 12)
    assert parse_coord("AA4") == (26, 3)
    assert parse_coord("a4") == (-1, 3)
    assert parse_coord("c8") == (-3, 7)
    assert parse_coord("B0") == (1, -1)
    assert parse_coord("C-1") == (2, -2)
    assert parse_coord("a4", {"x": "number", "y": "letter"}) == (3, -1)
    assert parse_coord("G5", {"x": "number", "y": "letter"}) == (4, 6)
    for c in ("A1", "S13", "AA4", "a4", "B0", "z12"):
        assert format_coord(*parse_coord(c)) == c
        ax = {"x": "number", "y": "letter"}
        assert format_coord(*parse_coord(c, ax), ax) == c
    with pytest.raises(ValueError):
        parse_coord("12")


def test_default_axes_follow_layout():
    assert HexGrid("flat").axes == ("letter", "number")
    assert HexGrid("pointy").axes == ("number", "letter")
    assert HexGrid("pointy", {"x": "letter", "y": "number"}).axes == ("letter", "number")


def test_invert():
    assert [invert(e) for e in range(6)] == [3, 4, 5, 0, 1, 2]


def test_flat_neighbors():
    g = HexGrid("flat")
    # C5 = (2, 4): 0 -> (2, 6), 1 -> (1, 5), 2 -> (1, 3), 3 -> (2, 2), 4 -> (3, 3), 5 -> (3, 5)
    assert [g.neighbor("C5", e) for e in range(6)] == ["C7", "B6", "B4", "C3", "D4", "D6"]
    for e in range(6):
        assert g.neighbor(g.neighbor("C5", e), invert(e)) == "C5"
        assert g.direction("C5", g.neighbor("C5", e)) == e
    assert g.neighbor("A2", 1) == "a3"  # negative letters
    assert g.distance("C5", "C9") == 2
    assert neighbor("C5", 0) == "C7"


def test_pointy_neighbors():
    g = HexGrid("pointy")  # x = number, y = letter
    # G5 = (4, 6): 0 -> (3, 7), 1 -> (2, 6), 2 -> (3, 5), 3 -> (5, 5), 4 -> (6, 6), 5 -> (5, 7)
    assert [g.neighbor("G5", e) for e in range(6)] == ["H4", "G3", "F4", "F6", "G7", "H6"]
    g2 = HexGrid("pointy", {"x": "letter", "y": "number"})
    # B2 = (1, 1): 0 -> (0, 2), 4 -> (3, 1)
    assert g2.neighbor("B2", 0) == "A3" and g2.neighbor("B2", 4) == "D2"
    for e in range(6):
        assert g.neighbor(g.neighbor("G5", e), invert(e)) == "G5"


# ---------------------------------------------------------------------------------------
# map building


MAP = {
    "layout": "flat",
    "location_names": {"C5": "Middletown"},
    "hexes": {
        "white": [
            {"coords": ["C3", "C7", "B4", "B6"], "parts": []},
            {"coords": ["C5"], "parts": [{"t": "upgrade", "cost": 40, "terrain": ["water"]},
                                         {"t": "city", "revenue": 0}]},
        ],
        "yellow": [{"coords": ["D8", "E9"], "tile": "57"}],
        "blue": [{"coords": ["D4"], "parts": []}],
        "red": [{"coords": ["D6"], "parts": [{"t": "offboard", "revenue": {"yellow": 20, "brown": 40}},
                                             {"t": "path", "a": 2, "b": "_0"}]}],
        "gray": [{"coords": ["E7"], "parts": [{"t": "path", "a": 0, "b": 3}]}],
    },
}


def test_build_ids_and_order():
    m = HexMap.build(MAP)
    assert [h.id for h in m] == ["C3", "C7", "B4", "B6", "C5", "D8", "E9", "D4", "D6", "E7"]
    assert [m[c].tile.id for c in ("C3", "C7", "B4", "B6")] == ["C3-0", "C7-1", "B4-2", "B6-3"]
    assert m["D8"].tile.id == "57-0" and m["E9"].tile.id == "57-1"
    assert m["D8"].tile.color == "yellow" and m["D8"].tile.preprinted
    assert m["C5"].tile.cities[0].id == "C5-0-1"
    assert m["C5"].location_name == "Middletown" and m["C5"].tile.location_name == "Middletown"
    assert m["C5"].tile.upgrades[0].cost == 40 and m["C5"].tile.terrain == ["water"]
    assert m.hex_by_id("Z9") is None
    assert m.city_by_id("C5-0-1") is m["C5"].tile.cities[0]
    assert m.cities_by_id["57-1-0"] is m["E9"].tile.cities[0]
    assert "C5-0-0" not in m.cities_by_id


def test_impassable_neighbors():
    m = HexMap.build(MAP)
    c5, d4, d6, e7 = m["C5"], m["D4"], m["D6"], m["E7"]
    # C5's edge 4 faces D4 (blue, no track): not linked; edge 5 faces D6 (red, track on its edge 2)
    assert c5.all_neighbors[4] is d4 and 4 not in c5.neighbors
    assert c5.neighbors[5] is d6
    # a blue hex still links to passable neighbours
    assert d4.neighbors[1] is m["C5"]
    # gray hex E7 (track 0-3): D6 is at E7's edge 2 (no track there)
    assert m["D6"].all_neighbors[5] is e7
    assert 5 not in d6.neighbors
    assert set(c5.neighbors) == {0, 1, 2, 3, 5}


def test_impassable_border_and_relink_after_lay():
    data = {"layout": "flat", "hexes": {
        "white": [{"coords": ["C3"], "parts": [{"t": "border", "edge": 0, "type": "impassable"}]},
                  {"coords": ["C7", "B6", "D6"], "parts": []}],
        "blue": [{"coords": ["C5"], "parts": []}],
    }}
    m = HexMap.build(data)
    c3, c5, c7 = m["C3"], m["C5"], m["C7"]
    assert 0 not in c3.neighbors  # impassable border
    assert 3 not in c7.neighbors  # C5 is blue
    old = m.lay_tile("C5", LIB.tile("9"), rotation=0)  # straight 0-3
    assert old.id == "C5-0"
    assert c7.neighbors[3] is c5 and c5.neighbors[0] is c7
    assert m["B6"].neighbors.get(4) is None  # no track towards B6: stays unlinked
    # only the new tile's borders are consulted when relinking (reference behaviour), so
    # C3 gets linked back although its own tile has an impassable border on that edge
    assert c5.neighbors[3] is c3 and c3.neighbors[0] is c5


def test_border_cost_removed_when_paid():
    data = {"layout": "flat", "hexes": {"white": [
        {"coords": ["C3"], "parts": [{"t": "border", "edge": 0, "type": "water", "cost": 40}]},
        {"coords": ["C5"], "parts": [{"t": "border", "edge": 3, "type": "water", "cost": 40}]},
    ]}}
    m = HexMap.build(data)
    c3, c5 = m["C3"], m["C5"]
    m.lay_tile(c5, LIB.tile("9"), rotation=0)
    assert c5.tile.borders[0].cost == 40  # borders move to the new tile
    assert c5.remove_paid_borders() == []  # C3 has no track yet
    m.lay_tile(c3, LIB.tile("9", 1), rotation=0)
    paid = c3.remove_paid_borders()
    assert [b.cost for b in paid] == [40]
    assert c3.tile.borders == [] and c5.tile.borders == []


# ---------------------------------------------------------------------------------------
# laying: tokens, reservations


def _map_with_city():
    return HexMap.build({"layout": "flat", "hexes": {"white": [
        {"coords": ["C3", "C7", "B4", "B6", "D4", "D6"], "parts": []},
        {"coords": ["C5"], "parts": [{"t": "city", "revenue": 0}]},
    ]}})


def test_lay_moves_tokens_on_upgrade():
    m = _map_with_city()
    supply = TileSupply({"57": 1, "14": 1, "15": 1})
    m.supply = supply
    a, b = Corp("A"), Corp("B")
    h = m["C5"]
    preprinted = h.tile
    h.tile.cities[0].place_token(a, a.tokens[0])
    t57 = supply.tile_by_id("57-0")
    assert upgrades_to(h.tile, t57)
    old = m.lay_tile(h, t57, rotation=1)
    assert old is preprinted and old.hex is None and t57.hex is h
    city = t57.cities[0]
    assert city.tokens == [a.tokens[0]] and a.tokens[0].city is city
    assert a.tokens[0].hex is h
    assert preprinted.cities[0].tokens == [None]
    assert supply.available("57") == []  # preprinted tiles do not go to the supply
    # yellow -> green: the token keeps its slot, the yellow tile returns to the supply
    t14 = supply.tile_by_id("14-0")
    assert legal_rotations(h, t14) == [0, 1, 3, 4]
    m.lay_tile(h, t14, rotation=1)
    assert t14.cities[0].tokens == [a.tokens[0], None]
    t14.cities[0].place_token(b, b.tokens[0])
    assert t14.cities[0].tokens == [a.tokens[0], b.tokens[0]]
    assert [t.id for t in supply.available("57")] == ["57-0"]
    assert t57.cities[0].tokens == [None]
    # city ids resolve to the tile wherever it is
    assert m.city_by_id("14-0-0") is t14.cities[0]
    assert m.city_by_id("57-0-0") is t57.cities[0]
    assert m.city_by_id("C5-0-0") is preprinted.cities[0]


def test_lay_moves_cheater_token():
    m = _map_with_city()
    a, b = Corp("A"), Corp("B")
    h = m["C5"]
    m.lay_tile(h, LIB.tile("57"), rotation=0)
    city = h.tile.cities[0]
    city.place_token(a, a.tokens[0])
    city.place_token(b, b.tokens[0], cheater=True)
    assert city.slots == 2
    t15 = LIB.tile("15")
    m.lay_tile(h, t15, rotation=0)
    assert t15.cities[0].tokens == [a.tokens[0], b.tokens[0]]
    assert b.tokens[0].cheater is True


def test_lay_moves_reservations():
    m = _map_with_city()
    home, other = Corp("H"), Corp("O")
    h = m["C5"]
    h.tile.add_reservation(home, 0)
    assert h.tile.cities[0].reservations == [home]
    t57 = LIB.tile("57")
    m.lay_tile(h, t57, rotation=0)
    city = t57.cities[0]
    assert city.reservations == [home]
    assert not city.tokenable(other)
    city.place_token(home, home.tokens[0])
    assert city.tokens == [home.tokens[0]] and city.reservations == [None]
    # tile-level reservations move with the hex
    h.tile.reservations.append(other)
    t14 = LIB.tile("14")
    m.lay_tile(h, t14, rotation=0)
    assert t14.reservations == [other] and t57.reservations == []


def test_multi_city_token_move_follows_exits():
    m = HexMap.build({"layout": "flat", "hexes": {
        "white": [{"coords": ["C3", "C7", "B4", "B6", "D4", "D6"], "parts": []}],
        "green": [{"coords": ["C5"], "tile": "59"}],  # OO: city 0 -> edge 0, city 1 -> edge 2
    }})
    a, b = Corp("A"), Corp("B")
    h = m["C5"]
    oo = h.tile
    assert [c.id for c in oo.cities] == ["59-0-0", "59-0-1"]
    oo.cities[0].place_token(a, a.tokens[0])
    oo.cities[1].place_token(b, b.tokens[0])
    brown = LIB.tile("64")  # city 0: 0/2, city 1: 3/4 -> rotated by 2: city 0: 2/4, city 1: 5/0
    brown.rotate(2)
    assert 2 in legal_rotations(h, brown)
    cmap = h.city_map_for(brown)
    assert cmap == {oo.cities[0]: brown.cities[1], oo.cities[1]: brown.cities[0]}
    m.lay_tile(h, brown)
    assert brown.cities[1].tokens == [a.tokens[0]]
    assert brown.cities[0].tokens == [b.tokens[0]]
    assert a.tokens[0].city.id == "64-0-1"


def test_exitless_cities_map_by_position():
    m = HexMap.build({"layout": "flat", "hexes": {"white": [
        {"coords": ["C5"], "parts": [{"t": "city", "revenue": 0}, {"t": "city", "revenue": 0},
                                     {"t": "label", "label": "OO"}]}]}})
    h = m["C5"]
    a = Corp("A")
    h.tile.cities[1].place_token(a, a.tokens[0])
    t = LIB.tile("235")  # yellow OO with only city 0 connected (edge 0)
    cmap = h.city_map_for(t)
    assert list(cmap.values()) == t.cities
    h.lay(t)
    assert t.cities[1].tokens == [a.tokens[0]]


def test_sticky_icons_and_location_name():
    m = HexMap.build({"layout": "flat", "location_names": {"C5": "Port"}, "hexes": {"white": [
        {"coords": ["C5"], "parts": [{"t": "icon", "image": "port", "sticky": True},
                                     {"t": "icon", "image": "mine"},
                                     {"t": "town", "revenue": 0}]}]}})
    h = m["C5"]
    old = h.tile
    t = LIB.tile("3")
    h.lay(t)
    assert [i.name for i in t.icons] == ["port"] and not t.icons[0].preprinted
    assert [i.name for i in old.icons] == ["port", "mine"]
    assert t.location_name == "Port" and old.location_name is None


def test_hex_tokens():
    m = _map_with_city()
    a = Corp("A")
    h = m["C5"]
    tok = Token(a, 0, type="destination")
    h.place_token(tok)
    assert tok.hex is h and tok.city is None and h.tokens == [tok]
    assert any(i.name == "A" for i in h.tile.icons)
    tok.remove()
    assert h.tokens == [] and not any(i.name == "A" for i in h.tile.icons)


# ---------------------------------------------------------------------------------------
# supply


def test_supply_ids_and_unlimited_copies():
    s = TileSupply({"57": 2, "8": "unlimited", "X1": {"count": 1, "color": "green", "parts": [
        {"t": "label", "label": "X"}, {"t": "city", "revenue": 40, "slots": 2},
        {"t": "path", "a": 0, "b": "_0"}]}})
    assert [t.id for t in s] == ["57-0", "57-1", "8-0", "X1-0"]
    assert s.names() == ["57", "8", "X1"]
    assert s.tile_by_id("X1-0").cities[0].id == "X1-0-1"
    assert s.tile_by_id("X1-0").color == "green"
    assert s.tile_by_id("57-2") is None
    assert s.tile_by_id("8-2") is None  # not the next index
    t81 = s.tile_by_id("8-1")
    assert t81 is not None and t81.unlimited and [t.id for t in s.available("8")] == ["8-0", "8-1"]
    m = _map_with_city()
    m.supply = s
    m.lay_tile("C3", s.tile_by_id("8-0"), rotation=0)
    assert [t.id for t in s.available("8")] == ["8-1", "8-2"]
    assert "8-0" in s and s.tile_by_id("8-0").hex is m["C3"]
    with pytest.raises(GameError):
        s.update_tile_lists(s.tile_by_id("8-0"), m["C7"].tile)


def test_supply_returns_replaced_tiles():
    s = TileSupply({"7": 1, "18": 1})
    m = _map_with_city()
    m.supply = s
    t7, t18 = s.tile_by_id("7-0"), s.tile_by_id("18-0")
    m.lay_tile("C3", t7, rotation=0)
    assert [t.id for t in s] == ["18-0"]
    assert upgrades_to(t7, t18)
    m.lay_tile("C3", t18, rotation=5)
    assert [t.id for t in s] == ["7-0"] and t7.hex is None


def test_future_label_moves_to_laid_tile():
    m = HexMap.build({"layout": "flat", "hexes": {"white": [
        {"coords": ["C5"], "parts": [{"t": "city", "revenue": 0},
                                     {"t": "future_label", "label": "T", "color": "green"}]}]}})
    h = m["C5"]
    fl = h.tile.future_label
    t57 = LIB.tile("57")
    old = h.lay(t57)
    assert t57.future_label is fl and old.future_label is None
    green_t = Tile.from_parts("XT", "green", [
        {"t": "city", "revenue": 40, "slots": 2}, {"t": "label", "label": "T"}]
        + [{"t": "path", "a": e, "b": "_0"} for e in (0, 1, 3, 4)])
    assert upgrades_to(t57, green_t)
    assert not upgrades_to(t57, LIB.tile("14"))
    old = h.lay(green_t)
    assert green_t.future_label is None  # same colour: the label is used up
    assert old.future_label is None
