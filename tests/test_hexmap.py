"""Hex grid, map building, linked neighbours, laying tiles (tokens, reservations, borders,
icons, labels) on the board state, and the tile supply."""

import pytest
from boardkit import Corp, Phase, StubGame

from trackage.core.hexgrid import HexGrid, format_coord, invert, neighbor, parse_coord
from trackage.core.hexmap import TileSupply
from trackage.core.tiles import GameError, Tile, city_map, legal_rotations, upgrades_to
from trackage.core.tokens import Token

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
    g = StubGame(MAP)
    board, m = g.board, g.board.hexmap
    assert [h.id for h in m] == ["C3", "C7", "B4", "B6", "C5", "D8", "E9", "D4", "D6", "E7"]
    assert [board.tile(m[c]).id for c in ("C3", "C7", "B4", "B6")] == ["C3-0", "C7-1", "B4-2", "B6-3"]
    assert all(board.tile(h) is h.original_tile for h in m)
    d8 = board.tile(m["D8"])
    assert d8.id == "57-0" and board.tile(m["E9"]).id == "57-1"
    assert d8.color == "yellow" and d8.preprinted and d8.hex is m["D8"]
    c5 = board.tile(m["C5"])
    assert c5.cities[0].id == "C5-0-1"
    assert m["C5"].location_name == "Middletown" and c5.location_name == "Middletown"
    assert c5.upgrades[0].cost == 40 and c5.terrain == ["water"]
    assert m.hex_by_id("Z9") is None and board.hex_by_id("Z9") is None
    assert board.city_by_id("C5-0-1") is c5.cities[0]
    assert board.city_by_id("57-1-0") is board.tile(m["E9"]).cities[0]
    assert board.city_by_id("C5-0-0") is None
    assert board.tile_by_id("57-1") is board.tile(m["E9"]) and m.preprinted_tile("57-1") is board.tile(m["E9"])
    assert board.node_by_signature("C5-1") is c5.cities[0]
    assert board.node_by_signature("D6-0") is board.tile(m["D6"]).offboards[0]
    assert board.cities() == [c5.cities[0], d8.cities[0], board.tile(m["E9"]).cities[0]]
    assert [h.id for h, _t in board.tiles()] == [h.id for h in m]


def test_impassable_neighbors():
    g = StubGame(MAP)
    board, m = g.board, g.board.hexmap
    c5, d4, d6, e7 = m["C5"], m["D4"], m["D6"], m["E7"]
    # C5's edge 4 faces D4 (blue, no track): not linked; edge 5 faces D6 (red, track on its edge 2)
    assert c5.all_neighbors[4] is d4 and 4 not in board.neighbors(c5)
    assert board.neighbors(c5)[5] is d6
    # a blue hex still links to passable neighbours
    assert board.neighbors(d4)[1] is m["C5"]
    # gray hex E7 (track 0-3): D6 is at E7's edge 2 (no track there)
    assert m["D6"].all_neighbors[5] is e7
    assert 5 not in board.neighbors(d6)
    assert set(board.neighbors(c5)) == {0, 1, 2, 3, 5}
    # the map's impassable colours are a title's choice
    g2 = StubGame(MAP, impassable_colors=("gray",))
    assert 4 in g2.board.neighbors(g2["C5"])


def test_impassable_border_and_relink_after_lay():
    data = {"layout": "flat", "hexes": {
        "white": [{"coords": ["C3"], "parts": [{"t": "border", "edge": 0, "type": "impassable"}]},
                  {"coords": ["C7", "B6", "D6"], "parts": []}],
        "blue": [{"coords": ["C5"], "parts": []}],
    }}
    g = StubGame(data, {"9": 1})
    board, m = g.board, g.board.hexmap
    c3, c5, c7 = m["C3"], m["C5"], m["C7"]
    assert 0 not in board.neighbors(c3)  # impassable border
    assert 3 not in board.neighbors(c7)  # C5 is blue
    t9 = board.tile_by_id("9-0")
    old = board.place_tile(c5, t9.at(0, c5))  # straight 0-3
    assert old.id == "C5-0" and old is c5.original_tile
    assert board.neighbors(c7)[3] is c5 and board.neighbors(c5)[0] is c7
    assert board.neighbors(m["B6"]).get(4) is None  # no track towards B6: stays unlinked
    # only the new tile's borders are consulted when relinking (reference behaviour), so
    # C3 gets linked back although its own tile has an impassable border on that edge
    assert board.neighbors(c5)[3] is c3 and board.neighbors(c3)[0] is c5
    # no relink without an impassable old tile, and none when asked not to
    g2 = StubGame(data, {"9": 1})
    g2.board.place_tile(g2["C5"], g2.board.tile_by_id("9-0").at(0, g2["C5"]), relink=False)
    assert 3 not in g2.board.neighbors(g2["C7"])
    g2.board.relink(g2["C5"])
    assert g2.board.neighbors(g2["C7"])[3] is g2["C5"]


def test_border_cost_removed_when_paid():
    data = {"layout": "flat", "hexes": {"white": [
        {"coords": ["C3"], "parts": [{"t": "border", "edge": 0, "type": "water", "cost": 40}]},
        {"coords": ["C5"], "parts": [{"t": "border", "edge": 3, "type": "water", "cost": 40}]},
    ]}}
    g = StubGame(data, {"9": 2})
    board, m = g.board, g.board.hexmap
    c3, c5 = m["C3"], m["C5"]
    board.place_tile(c5, board.tile_by_id("9-0").at(0, c5))
    assert board.borders(c5)[0].cost == 40  # borders stay with the hex
    assert board.tile(c5).tile.borders == ()  # the laid tile prints none
    assert board.remove_paid_borders(c5) == []  # C3 has no track yet
    board.place_tile(c3, board.tile_by_id("9-1").at(0, c3))
    paid = board.remove_paid_borders(c3)
    assert [b.cost for b in paid] == [40]
    assert board.borders(c3) == () and board.borders(c5) == ()
    # the printed borders (catalogue) are untouched
    assert [b.cost for b in c3.original_tile.tile.borders] == [40]


def test_lay_tile_pays_border_and_terrain_costs():
    data = {"layout": "flat", "hexes": {"white": [
        {"coords": ["C3"], "parts": [{"t": "border", "edge": 0, "type": "water", "cost": 40},
                                     {"t": "upgrade", "cost": 20, "terrain": ["hill"]}]},
        {"coords": ["C5"], "parts": [{"t": "border", "edge": 3, "type": "water", "cost": 40}]},
    ]}}
    g = StubGame(data, {"9": 2}, loading=True)
    board, c3, c5 = g.board, g["C3"], g["C5"]
    paid = []
    assert board.lay_cost_preview(c5, board.tile_by_id("9-0").at(0, c5), None) == 0
    assert board.lay_tile(None, c5, board.tile_by_id("9-0"), 0, pay=paid.append) == 0
    assert board.lay_cost_preview(c3, board.tile_by_id("9-1").at(0, c3), None) == 60
    assert board.lay_tile(None, c3, board.tile_by_id("9-1"), 0, pay=paid.append) == 60
    assert paid == [0, 60]
    assert board.borders(c3) == () and board.borders(c5) == ()
    assert g.changes == 2


# ---------------------------------------------------------------------------------------
# laying: tokens, reservations


CITY_MAP = {"layout": "flat", "hexes": {"white": [
    {"coords": ["C3", "C7", "B4", "B6", "D4", "D6"], "parts": []},
    {"coords": ["C5"], "parts": [{"t": "city", "revenue": 0}]},
]}}


def _map_with_city(supply=None, **kw) -> StubGame:
    return StubGame(CITY_MAP, supply if supply is not None else {"57": 1, "14": 1, "15": 1}, **kw)


def _supply_ids(board, name=None):
    return [t.id for t in board.supply_tiles() if name is None or t.name == name]


def test_lay_moves_tokens_on_upgrade():
    g = _map_with_city()
    board = g.board
    a, b = Corp("A"), Corp("B")
    h = g["C5"]
    preprinted = board.tile(h)
    board.place_city_token(preprinted.cities[0], a, a.tokens[0])
    t57 = board.tile_by_id("57-0")
    assert isinstance(t57, Tile)  # in the supply: a tile, not yet placed
    p57 = t57.at(1, h)
    assert upgrades_to(preprinted, p57) and g.upgrades_to(preprinted, p57)
    old = board.place_tile(h, p57)
    assert old is preprinted and board.tile(h) is p57
    assert board.state.laid == {"57-0": "C5"}
    city = p57.cities[0]
    assert board.tokens(city) == (a.tokens[0],) and a.tokens[0].city is city
    assert a.tokens[0].hex is h
    assert board.tokens(preprinted.cities[0]) == (None,)
    assert _supply_ids(board, "57") == []  # preprinted tiles do not go to the supply
    assert board.tile_by_id("57-0") is p57
    # yellow -> green: the token keeps its slot, the yellow tile returns to the supply
    t14 = board.tile_by_id("14-0")
    assert legal_rotations(board.tile(h), t14.at(0, h), board.neighbors(h)) == [0, 1, 3, 4]
    p14 = t14.at(1, h)
    board.place_tile(h, p14)
    assert board.tokens(p14.cities[0]) == (a.tokens[0], None)
    board.place_city_token(p14.cities[0], b, b.tokens[0])
    assert board.tokens(p14.cities[0]) == (a.tokens[0], b.tokens[0])
    assert _supply_ids(board) == ["15-0", "57-0"]
    assert board.state.laid == {"14-0": "C5"}
    assert board.tokens(p57.cities[0]) == (None,)
    # city ids resolve to the tile on the map; a tile back in the supply is on no hex
    assert board.city_by_id("14-0-0") is p14.cities[0]
    assert board.tile_by_id("57-0") is t57
    assert board.city_by_id("57-0-0") is None
    assert board.city_by_id("C5-0-0") is preprinted.cities[0]


def test_lay_moves_cheater_token():
    g = _map_with_city()
    board = g.board
    a, b = Corp("A"), Corp("B")
    h = g["C5"]
    board.place_tile(h, board.tile_by_id("57-0").at(0, h))
    city = board.tile(h).cities[0]
    board.place_city_token(city, a, a.tokens[0])
    board.place_city_token(city, b, b.tokens[0], cheater=True)
    assert board.slots(city) == 2
    p15 = board.tile_by_id("15-0").at(0, h)
    board.place_tile(h, p15)
    assert board.tokens(p15.cities[0]) == (a.tokens[0], b.tokens[0])
    assert b.tokens[0].cheater is True and a.tokens[0].cheater is False
    assert board.slots(city) == 1  # the yellow city is back to its printed slot


def test_lay_moves_reservations():
    g = _map_with_city()
    board = g.board
    home, other = Corp("H"), Corp("O")
    h = g["C5"]
    board.add_tile_reservation(h, home, 0)
    assert board.city_reservations(board.tile(h).cities[0]) == (home,)
    p57 = board.tile_by_id("57-0").at(0, h)
    board.place_tile(h, p57)
    city = p57.cities[0]
    assert board.city_reservations(city) == (home,)
    assert board.city_reservations(h.original_tile.cities[0]) == ()
    assert not board.tokenable(city, other)
    board.place_city_token(city, home, home.tokens[0])
    assert board.tokens(city) == (home.tokens[0],) and board.city_reservations(city) == (None,)
    # tile-level reservations belong to the hex
    board.add_tile_reservation(h, other, reserve_city=False)
    p14 = board.tile_by_id("14-0").at(0, h)
    board.place_tile(h, p14)
    assert board.tile_reservations(h) == (other,)
    assert board.tile_reserved_by(h, other)


def test_lay_reports_moved_reservations():
    g = _map_with_city()
    board = g.board
    h = g["C5"]
    home = Corp("H")
    board.add_tile_reservation(h, home, 0)
    moved = []
    p57 = board.tile_by_id("57-0").at(0, h)
    board.place_tile(h, p57, reservation_moved=lambda e, o, n: moved.append((e, o, n)))
    assert moved == [(home, h.original_tile.cities[0], p57.cities[0])]

    # by default, the entity's reservation ability for this hex follows the new city
    class Ability:
        type = "reservation"
        hex = "C5"
        tile = None
        city = None

    class Company:
        def __init__(self):
            self.all_abilities = [Ability()]
    co = Company()
    g2 = _map_with_city()
    h2 = g2["C5"]
    g2.board.add_tile_reservation(h2, co, 0)
    p = g2.board.tile_by_id("57-0").at(0, h2)
    g2.board.place_tile(h2, p)
    assert co.all_abilities[0].tile is p and co.all_abilities[0].city == 0


def test_multi_city_token_move_follows_exits():
    g = StubGame({"layout": "flat", "hexes": {
        "white": [{"coords": ["C3", "C7", "B4", "B6", "D4", "D6"], "parts": []}],
        "green": [{"coords": ["C5"], "tile": "59"}],  # OO: city 0 -> edge 0, city 1 -> edge 2
    }}, {"64": 1})
    board = g.board
    a, b = Corp("A"), Corp("B")
    h = g["C5"]
    oo = board.tile(h)
    assert [c.id for c in oo.cities] == ["59-0-0", "59-0-1"]
    board.place_city_token(oo.cities[0], a, a.tokens[0])
    board.place_city_token(oo.cities[1], b, b.tokens[0])
    # city 0: 0/2, city 1: 3/4 -> rotated by 2: city 0: 2/4, city 1: 5/0
    brown = board.tile_by_id("64-0").at(2, h)
    assert 2 in legal_rotations(oo, brown, board.neighbors(h))
    cmap = city_map(oo, brown)
    assert cmap == {oo.cities[0]: brown.cities[1], oo.cities[1]: brown.cities[0]}
    board.place_tile(h, brown)
    assert board.tokens(brown.cities[1]) == (a.tokens[0],)
    assert board.tokens(brown.cities[0]) == (b.tokens[0],)
    assert a.tokens[0].city.id == "64-0-1"
    assert board.tokens(oo.cities[0]) == (None,) and board.tokens(oo.cities[1]) == (None,)


def test_exitless_cities_map_by_position():
    g = StubGame({"layout": "flat", "hexes": {"white": [
        {"coords": ["C5"], "parts": [{"t": "city", "revenue": 0}, {"t": "city", "revenue": 0},
                                     {"t": "label", "label": "OO"}]}]}}, {"235": 1})
    board = g.board
    h = g["C5"]
    a = Corp("A")
    board.place_city_token(board.tile(h).cities[1], a, a.tokens[0])
    t = board.tile_by_id("235-0").at(0, h)  # yellow OO with only city 0 connected (edge 0)
    cmap = city_map(board.tile(h), t)
    assert list(cmap.values()) == list(t.cities)
    board.place_tile(h, t)
    assert board.tokens(t.cities[1]) == (a.tokens[0],)


def test_sticky_icons_and_location_name():
    g = StubGame({"layout": "flat", "location_names": {"C5": "Port"}, "hexes": {"white": [
        {"coords": ["C5"], "parts": [{"t": "icon", "image": "port", "sticky": True},
                                     {"t": "icon", "image": "mine"},
                                     {"t": "town", "revenue": 0}]}]}}, {"3": 1})
    board = g.board
    h = g["C5"]
    old = board.tile(h)
    assert [i.name for i in board.icons(h)] == ["port", "mine"]
    t = board.tile_by_id("3-0").at(0, h)
    board.place_tile(h, t)
    assert [i.name for i in board.icons(h)] == ["port"] and not board.icons(h)[0].preprinted
    # what is printed never changes
    assert [i.name for i in old.tile.icons] == ["port", "mine"] and all(i.preprinted for i in old.tile.icons)
    assert t.tile.icons == ()
    assert board.tile(h).location_name == "Port" and h.location_name == "Port"


def test_sticky_icon_printed_on_the_new_tile_is_not_doubled():
    port_town = {"count": 1, "color": "yellow", "parts": [
        {"t": "icon", "image": "port", "sticky": True}, {"t": "town", "revenue": 10},
        {"t": "path", "a": 0, "b": "_0"}, {"t": "path", "a": "_0", "b": 3}]}
    g = StubGame({"layout": "flat", "hexes": {"white": [
        {"coords": ["C5"], "parts": [{"t": "icon", "image": "port", "sticky": True},
                                     {"t": "town", "revenue": 0}]}]}}, {"P": port_town})
    board, h = g.board, g["C5"]
    board.place_tile(h, board.tile_by_id("P-0").at(0, h))
    assert [(i.name, i.preprinted) for i in board.icons(h)] == [("port", True)]


def test_hex_tokens():
    g = _map_with_city()
    board = g.board
    a = Corp("A")
    h = g["C5"]
    tok = Token(a, 0, type="destination")
    placed = board.place_hex_token(h, tok)
    assert not tok.used and tok.hex is None  # (a frozen value: the move makes a new one)
    assert placed.hex is h and placed.city is None and placed.used and board.hex_tokens(h) == (placed,)
    assert any(i.name == "A" for i in board.icons(h))
    assert not any(i.name == "A" for i in board.tile(h).tile.icons)
    off = board.remove_token(placed)
    assert board.hex_tokens(h) == () and not any(i.name == "A" for i in board.icons(h))
    assert not off.used and off.hex is None


# ---------------------------------------------------------------------------------------
# supply


X1 = {"count": 1, "color": "green", "parts": [
    {"t": "label", "label": "X"}, {"t": "city", "revenue": 40, "slots": 2},
    {"t": "path", "a": 0, "b": "_0"}]}


def test_supply_ids_and_unlimited_copies():
    s = TileSupply({"57": 2, "8": "unlimited", "X1": X1})
    assert [t.id for t in s.initial] == ["57-0", "57-1", "8-0", "X1-0"]
    assert s.names() == ["57", "8", "X1"] and s.is_unlimited("8") and not s.is_unlimited("57")
    g = _map_with_city({"57": 2, "8": "unlimited", "X1": X1})
    board, m = g.board, g.board.hexmap
    assert _supply_ids(board) == ["57-0", "57-1", "8-0", "X1-0"]
    assert board.supply.names() == ["57", "8", "X1"]
    x1 = board.tile_by_id("X1-0")
    assert x1.at().cities[0].id == "X1-0-1" and x1.color == "green" and x1.label == "X"
    assert board.tile_by_id("57-2") is None
    assert board.tile_by_id("8-2") is None  # not the next index
    t81 = board.tile_by_id("8-1")  # the next copy of an unlimited tile is made on demand
    assert t81 is not None and t81.unlimited and _supply_ids(board, "8") == ["8-0", "8-1"]
    assert board.tile_by_id("8-1") is t81
    board.place_tile(m["C3"], board.tile_by_id("8-0").at(0, m["C3"]))
    assert _supply_ids(board, "8") == ["8-1", "8-2"]
    assert board.tile_by_id("8-0").hex is m["C3"]
    with pytest.raises(GameError, match="already on hex C3"):
        board.place_tile(m["C7"], board.supply.copy_of("8", 0).at(0, m["C7"]))
    with pytest.raises(GameError):
        board.add_extra_tile(board.tile_by_id("57-0"))
    assert board.add_extra_tile(t81).id.startswith("8-")


def test_unlimited_copies_are_catalogue():
    # the same copy of an unlimited tile is the same object in every board using the supply
    g = _map_with_city({"8": "unlimited"})
    board = g.board
    copy = g.copy()
    t1 = board.tile_by_id("8-1")
    assert copy.board.supply is board.supply
    assert copy.board.tile_by_id("8-1") is t1
    assert _supply_ids(copy.board, "8") == ["8-0", "8-1"] and _supply_ids(board, "8") == ["8-0", "8-1"]


def test_supply_returns_replaced_tiles():
    g = _map_with_city({"7": 1, "18": 1})
    board, m = g.board, g.board.hexmap
    c3 = m["C3"]
    t7, t18 = board.tile_by_id("7-0"), board.tile_by_id("18-0")
    board.place_tile(c3, t7.at(0, c3))
    assert _supply_ids(board) == ["18-0"]
    assert upgrades_to(board.tile(c3), t18.at(5, c3))
    board.place_tile(c3, t18.at(5, c3))
    assert _supply_ids(board) == ["7-0"] and "7-0" not in board.state.laid
    assert board.tile_by_id("7-0") is t7
    board.put_back(t7)
    assert _supply_ids(board) == ["7-0"]  # once only


def test_future_label_moves_to_laid_tile():
    green_t = {"count": 1, "color": "green", "parts": [
        {"t": "city", "revenue": 40, "slots": 2}, {"t": "label", "label": "T"}]
        + [{"t": "path", "a": e, "b": "_0"} for e in (0, 1, 3, 4)]}
    g = StubGame({"layout": "flat", "hexes": {"white": [
        {"coords": ["C5"], "parts": [{"t": "city", "revenue": 0},
                                     {"t": "future_label", "label": "T", "color": "green"}]}]}},
        {"57": 1, "14": 1, "XT": green_t})
    board = g.board
    h = g["C5"]
    fl = board.future_label(h)
    assert fl is h.original_tile.tile.future_label and fl.label == "T"
    p57 = board.tile_by_id("57-0").at(0, h)
    board.place_tile(h, p57)
    assert board.future_label(h) is fl  # the hex keeps it until a green tile is laid
    assert p57.future_label is None
    xt = board.tile_by_id("XT-0").at(0, h)
    assert g.upgrades_to(p57, xt)
    assert not g.upgrades_to(p57, board.tile_by_id("14-0").at(0, h))
    assert upgrades_to(p57, board.tile_by_id("14-0").at(0, h))  # the printed labels alone allow it
    board.place_tile(h, xt)
    assert board.future_label(h) is None  # same colour: the label is used up
    assert board.label(h) == "T"


# ---------------------------------------------------------------------------------------
# the game's lay: checks


def test_lay_tile_checks():
    g = _map_with_city({"57": 1, "7": 1, "14": 1}, phase=Phase("yellow"))
    board, h = g.board, g["C5"]
    a = Corp("A")
    board.place_city_token(board.tile(h).cities[0], a, a.tokens[0])
    with pytest.raises(GameError) as e:
        board.lay_tile(a, h, board.tile_by_id("14-0"), 0)
    assert e.value.rule == "tile-colour"
    with pytest.raises(GameError) as e:
        board.lay_tile(a, h, board.tile_by_id("7-0"), 0)
    assert e.value.rule == "illegal-upgrade"
    # a corporation that reaches no edge of the hex may not lay there
    with pytest.raises(GameError) as e:
        board.lay_tile(Corp("B"), h, board.tile_by_id("57-0"), 0)
    assert e.value.rule == "illegal-rotation"
    assert board.tile(h) is h.original_tile and g.changes == 0
    assert board.lay_tile(a, h, board.tile_by_id("57-0"), 1) == 0
    assert board.tile(h).id == "57-0" and board.tile(h).rotation == 1
    assert board.tokens(board.tile(h).cities[0]) == (a.tokens[0],)
    with pytest.raises(GameError) as e:
        board.lay_tile(a, g["C3"], board.supply.known("57-0"), 0)
    assert e.value.rule == "tile-not-available"
    # from the new yellow tile, A reaches B6 and D4 (its exits 1 and 4)
    lays = g.legal_tile_lays(a)
    assert {(x["hex"], x["tile"]) for x in lays} == {("B6", "7-0"), ("D4", "7-0")}
    assert {"hex": "B6", "tile": "7-0", "rotation": 3} in lays
