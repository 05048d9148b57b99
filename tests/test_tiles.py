"""Tile model: parsing, part indexes, placed tiles (rotation), revenue, cities/tokens on the
board, upgrade legality."""

import json
import os
from pathlib import Path

import pytest
from boardkit import Corp, StubGame, build, city_at

from trackage.core.errors import GameError
from trackage.core.tiles import (
    Edge,
    Placed,
    Tile,
    TileSpec,
    city_map,
    lane_match,
    legal_rotation,
    legal_rotations,
    path_le,
    paths_are_subset_of,
    standard_tiles,
    tracks_match,
    upgrades_to,
)
from trackage.core.tiles import (
    Path as TilePath,
)
from trackage.core.tokens import Token

LIB = standard_tiles()


def tile(name, index=0, rotation=0, hex=None):
    """Standard tile ``name`` (copy ``index``) in ``rotation``, looked at in the supply (or on ``hex``)."""
    return LIB.tile(name, index=index).at(rotation, hex)


def parts_tile(name, color, parts, rotation=0):
    return Tile.from_parts(name, color, parts).at(rotation)


# ---------------------------------------------------------------------------------------
# standard tile data


# code strings of the reference's standard tile table, for a spot comparison
REFERENCE_CODES = {
    ("yellow", "57"): "city=revenue:20;path=a:0,b:_0;path=a:_0,b:3",
    ("yellow", "7"): "path=a:0,b:1",
    ("yellow", "1"): "town=revenue:10;town=revenue:10;path=a:1,b:_0;path=a:_0,b:3;path=a:0,b:_1;path=a:_1,b:4",
    ("yellow", "438"): "city=revenue:40;path=a:0,b:_0;path=a:2,b:_0;label=H;upgrade=cost:80",
    ("yellow", "437"): "town=revenue:30;path=a:0,b:_0;path=a:_0,b:2;icon=image:port,blocks_lay:1",
    ("green", "14"): "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0",
    ("green", "15"): "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0",
    ("green", "80"): "junction;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0",
    ("green", "54"): "city=revenue:60,loc:0.5;city=revenue:60,loc:2.5;path=a:0,b:_0;path=a:_0,b:1;"
                     "path=a:2,b:_1;path=a:_1,b:3;label=NY",
    ("green", "971"): "city=revenue:40;path=a:0,b:_0,track:narrow;path=a:1,b:_0,track:narrow;frame=color:#800080",
    ("brown", "63"): "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
                     "path=a:4,b:_0;path=a:5,b:_0",
    # striped tiles: the stripes part comes first (so their city is part 1)
    ("green", "119"): "stripes=color:brown;city=revenue:30,slots:2;path=a:0,b:_0;path=a:2,b:_0;"
                      "path=a:3,b:_0;path=a:4,b:_0",
    ("brown", "166"): "stripes=color:gray;city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;"
                      "path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0",
    ("brown", "200"): "stripes=color:sepia;city=revenue:10;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
                      "path=a:3,b:_0;path=a:4,b:_0",
    ("white", "blank"): "",
}


def _code_to_parts(code):
    """Tiny independent reading of the reference notation, for the spot check."""
    out = []
    for pc in filter(None, code.split(";")):
        typ, _, params = pc.partition("=")
        part = {"t": typ}
        if ":" in params:
            for kv in params.split(","):
                k, _, v = kv.partition(":")
                if k in ("blocks_lay",):
                    part[k] = True
                elif k == "loc" and "." in v:
                    part[k] = float(v)
                else:
                    try:
                        part[k] = int(v)
                    except ValueError:
                        part[k] = v
        elif params:
            part["label"] = params
        out.append(part)
    return out


def test_tiles_json_spot_compare():
    path = os.path.join(os.path.dirname(__file__), "..", "trackage", "data", "tiles.json")
    with open(path) as f:
        data = json.load(f)
    for (color, name), code in REFERENCE_CODES.items():
        assert data[color][name] == _code_to_parts(code), name
    assert sum(len(v) for v in data.values()) == 479
    names = [n for v in data.values() for n in v]
    assert len(names) == len(set(names))


def test_phase_revenue_in_data():
    # gray 'offboard-like' phase revenues are objects in rising colour order
    data = json.loads(Path(__file__).parent.parent.joinpath("trackage", "data", "tiles.json").read_text())
    for _color, tiles in data.items():
        for _name, parts in tiles.items():
            for p in parts:
                assert "t" in p
                if "revenue" in p:
                    assert isinstance(p["revenue"], (int, dict))


def test_standard_lookup_colors():
    assert LIB.get("57")[0] == "yellow"
    assert LIB.get("119")[0] == "green"
    assert LIB.get("166")[0] == "brown"
    assert LIB.get("200")[0] == "brown"
    assert LIB.get("blank")[0] == "white"
    assert LIB.get("467") is None  # the reference's NONE table is not reachable by name
    assert LIB.get("nope") is None


# ---------------------------------------------------------------------------------------
# parsing / indexes


def test_city_ids_use_part_index():
    assert [c.id for c in tile("57").cities] == ["57-0-0"]
    assert [c.id for c in tile("119", 2).cities] == ["119-2-1"]
    assert [c.id for c in tile("54").cities] == ["54-0-0", "54-0-1"]
    t = Tile.from_parts("X7", "green", [
        {"t": "label", "label": "Y"},
        {"t": "city", "revenue": 40, "slots": 2},
        {"t": "path", "a": 0, "b": "_0"},
    ])
    assert t.id == "X7-0" and t.label == "Y"
    p = t.at()
    assert p.cities[0].id == "X7-0-1"
    assert p.cities[0].index == 1
    assert p.label == "Y"
    # a node's route signature names the hex it is on (None in the supply)
    assert p.cities[0].signature == "None-1"


def test_lanes_count_once_per_generated_path():
    t = parts_tile("L", "yellow", [
        {"t": "path", "a": 0, "b": 3, "lanes": 2},
        {"t": "city", "revenue": 20},
        {"t": "path", "a": 1, "b": "_0", "lanes": 2},
        {"t": "town", "revenue": 10},
        {"t": "path", "a": "_1", "b": 4},
    ])
    assert [p.index for p in t.paths] == [0, 1, 3, 4, 6]
    assert t.cities[0].index == 2
    assert t.towns[0].index == 5
    # edge-to-edge lanes: the b lane index is mirrored; node ends share the a lane
    p0, p1 = t.paths[0], t.paths[1]
    assert p0.lanes == ((2, 0), (2, 1)) and p1.lanes == ((2, 1), (2, 0))
    assert t.paths[2].lanes == ((2, 0), (2, 0))
    # one defined end point per lanes group for converging exits
    assert t.exit_count == {0: 1, 3: 1, 1: 1, 4: 1}
    assert not t.converging_exit(0)
    assert t.edges == 4 and t.tile.edges == 4


def test_lane_spec_and_lane_match():
    t = parts_tile("L", "yellow", [{"t": "path", "a": 0, "b": 3, "a_lane": "2.1"}])
    assert t.paths[0].lanes == ((2, 1), (1, 0))
    assert lane_match((1, 0), (1, 0))
    assert lane_match((2, 0), (2, 1))
    assert not lane_match((2, 0), (2, 0))
    assert lane_match((1, 0), (3, 1))  # single track meets the middle of three
    assert not lane_match(None, (1, 0))


NODE_KINDS = [
    {"t": "offboard", "revenue": {"yellow": 20, "brown": 40}, "groups": ["E"]},
    {"t": "halt", "symbol": "H"},
    {"t": "pass", "revenue": 0, "slots": 2},
    {"t": "junction"},
    {"t": "path", "a": 0, "b": "_0", "terminal": 1},
    {"t": "path", "a": 1, "b": "_1"},
    {"t": "path", "a": 2, "b": "_2"},
    {"t": "path", "a": 3, "b": "_3"},
    {"t": "path", "a": 4, "b": "_3"},
]


def test_node_kinds_and_defaults():
    t = parts_tile("N", "red", NODE_KINDS)
    off, halt, pas, junc = t.all_nodes
    assert (off.kind, halt.kind, pas.kind, junc.kind) == ("offboard", "halt", "pass", "junction")
    assert off.route == "mandatory" and halt.route == "optional" and pas.route == "never"
    assert off.visit_cost == 1 and junc.visit_cost == 0
    assert off.groups == ("E",)
    assert t.cities == (pas,) and t.towns == (halt,) and t.offboards == (off,) and t.junction is junc
    assert list(t.nodes) == [off, halt, pas]
    assert t.paths[0].terminal == 1 and t.paths[0].offboard is off
    assert t.paths[1].nodes == (halt,) and t.paths[1].town is halt
    assert [p.exits for p in junc.paths] == [(3,), (4,)]
    assert halt.revenue_for(["yellow"]) == 0
    # an offboard blocks every corporation's walk (board rule; no state needed)
    g = build({"red": {"C5": NODE_KINDS}})
    off_on_map = g.board.tile(g["C5"]).offboards[0]
    assert g.board.blocks(off_on_map, Corp("A"))
    assert not g.board.blocks(g.board.tile(g["C5"]).cities[0], Corp("A"))  # an empty pass


def test_revenue_for_phase_colors():
    t = parts_tile("R", "red", [
        {"t": "offboard", "revenue": {"yellow": 20, "brown": 40, "diesel": 90}},
        {"t": "city", "revenue": 30},
    ])
    off, city = t.all_nodes
    assert off.revenue_for(["yellow"]) == 20
    assert off.revenue_for(["yellow", "green"]) == 20
    assert off.revenue_for(["yellow", "green", "brown"]) == 40
    assert off.revenue_for(["yellow", "green", "brown"], train_name="D") == 90
    assert off.revenue_for([]) == 0
    assert off.max_revenue == 90
    assert city.revenue_for(["yellow", "green", "brown", "sepia"]) == 30
    assert city.revenue_for(["sepia"]) == 0  # plain values exist for the standard phase colours only
    # reference string form (nodes never change: a tile printed with it)
    t2 = parts_tile("R2", "red", [{"t": "city", "revenue": "yellow_30|green_40"}])
    assert t2.cities[0].revenue == {"yellow": 30, "green": 40}
    assert t2.cities[0].revenue_for(["yellow"]) == 30
    assert t2.cities[0].revenue_for(["yellow", "green"]) == 40


# ---------------------------------------------------------------------------------------
# rotation: a tile in a rotation is a placed tile


def test_rotation_exits_and_paths():
    t = LIB.tile("57")
    p0 = t.at(0)
    assert isinstance(p0, Placed) and not hasattr(t, "paths")  # geometry belongs to placed tiles
    assert p0.exits == (0, 3)
    p1 = t.at(1)
    assert p1.exits == (1, 4)
    assert [p.exits for p in p1.paths] == [(1,), (4,)]
    assert p1.paths_at(4)[0].city is p1.cities[0]
    assert p1.paths_at(0) == ()
    assert p1.cities[0].exits == (1, 4)
    p5 = t.at(5)
    assert p5.exits == (5, 2)
    assert isinstance(p5.paths[0].a, Edge) and p5.paths[0].a.num == 5
    # another rotation is another placed tile; the first one is unchanged
    assert p0.exits == (0, 3) and p0.rotation == 0
    assert p0.rotated(5) is p5 and p5.rotated(0) is p0
    # placed tiles (and so their paths and nodes) are interned per rotation and hex
    assert t.at(5) is p5 and t.at(11) is p5
    assert t.at(5).paths is p5.paths
    assert p5.tile is t and p5.id == t.id == "57-0"


def test_placed_on_a_hex():
    g = build({"white": {"C5": [], "C7": []}})
    h = g["C5"]
    t = LIB.tile("57")
    on_map = t.at(1, h)
    assert on_map is not t.at(1) and on_map is t.at(1).on(h)
    assert on_map.hex is h and t.at(1).hex is None
    assert on_map.cities[0].hex is h and on_map.paths[0].hex is h
    assert on_map.cities[0].signature == "C5-0" and on_map.cities[0].id == "57-0-0"
    assert on_map.cities[0] is not t.at(1).cities[0]
    assert on_map.exits == t.at(1).exits
    # the hex's printed tile is placed there too
    assert h.original_tile.hex is h and h.original_tile.tile.preprinted
    # gauge overrides make another placed tile with the same geometry
    dual = on_map.with_gauge_flags(igw=True)
    assert dual is not on_map and dual.paths[0].ignore_gauge_walk and not on_map.paths[0].ignore_gauge_walk


def test_specs_are_shared():
    a, b = tile("57", 0), tile("57", 1)
    assert a.spec is b.spec
    assert a.tile is not b.tile
    assert a.cities[0] is not b.cities[0]
    assert TileSpec.get([{"t": "city", "revenue": 20}]) is TileSpec.get([{"t": "city", "revenue": 20}])


def test_converging_exit_and_city_town_edges():
    t = tile("23")  # 0-3, 0-4
    assert t.converging_exit(0) and not t.converging_exit(3)
    assert tile("1").city_town_edges == [[1, 3], [0, 4]]
    t = tile("54", rotation=1)
    assert t.city_town_edges == [[1, 2], [3, 4]]


# ---------------------------------------------------------------------------------------
# paths


def test_path_subset_and_gauge():
    assert tracks_match("broad", "dual") and not tracks_match("dual", "broad")
    assert tracks_match("dual", "broad", dual_ok=True)
    y, g = tile("7"), tile("18")  # 0-1 into 0-3 / 1-2
    assert not path_le(y.paths[0], g.paths[1])
    assert path_le(y.rotated(1).paths[0], g.paths[1])
    assert paths_are_subset_of(tile("7"), g.paths)
    narrow = tile("77")
    assert not paths_are_subset_of(narrow, tile("18").paths)


def test_lawson_subset():
    assert paths_are_subset_of(tile("7"), tile("80").paths)
    assert paths_are_subset_of(tile("80"), tile("545").paths)  # Lawson to Lawson: exits only
    assert not paths_are_subset_of(tile("81"), tile("545").paths)


# ---------------------------------------------------------------------------------------
# upgrades


@pytest.mark.parametrize("old,new,ok", [
    ("57", "14", True), ("57", "15", True), ("57", "63", False), ("57", "12", False),
    ("7", "18", True), ("7", "26", True), ("7", "16", False), ("7", "19", False),
    ("7", "80", True), ("8", "9", False), ("9", "14", False), ("14", "63", True),
    ("15", "63", True), ("15", "611", True), ("119", "63", True), ("3", "87", True),
    ("59", "64", True), ("59", "63", False), ("57", "59", False), ("4", "9", False),
])
def test_upgrades_to(old, new, ok):
    assert upgrades_to(tile(old), tile(new)) is ok
    # the rotation of either tile does not matter
    assert upgrades_to(tile(old, rotation=2), tile(new, rotation=5)) is ok


def test_upgrades_to_labels_and_oo():
    white_oo = parts_tile("B2", "white", [
        {"t": "city", "revenue": 0}, {"t": "city", "revenue": 0}, {"t": "label", "label": "OO"}])
    assert upgrades_to(white_oo, tile("235"))
    assert not upgrades_to(white_oo, tile("57"))
    white = parts_tile("B3", "white", [{"t": "city", "revenue": 0}])
    assert upgrades_to(white, tile("57"))
    assert not upgrades_to(white, tile("201"))  # labelled Y
    # a colour order hook (e.g. a title's own progression)
    order = ("white", "yellow", "green", "brown", "sepia")
    assert upgrades_to(tile("166"), parts_tile("S", "sepia", [
        {"t": "city", "revenue": 10, "slots": 2}] + [{"t": "path", "a": e, "b": "_0"} for e in range(6)]),
        colors_order=order)
    # special (private company) lays skip labels and counts
    assert upgrades_to(white, tile("201"), special=True)
    # the label of the hex now (board state) replaces the printed one when given
    assert upgrades_to(white, tile("201"), from_label="Y")
    assert not upgrades_to(white, tile("57"), from_label="Y")


def test_future_label():
    t = Tile.from_parts("C1", "white", [{"t": "city", "revenue": 0},
                                        {"t": "future_label", "label": "T", "color": "green"}])
    assert t.future_label.label == "T" and t.future_label.color == "green"
    assert t.at().future_label is t.future_label
    assert upgrades_to(t.at(), tile("57"))  # yellow: the future label does not apply yet


# ---------------------------------------------------------------------------------------
# cities and tokens: board state


def test_city_tokens_and_blocking():
    a, b, c = Corp("A"), Corp("B"), Corp("C")
    g = build({"green": {"C5": "14"}})
    board = g.board
    city = city_at(g, "C5")
    assert board.slots(city) == 2 and board.available_slots(city) == 2
    assert board.tokens(city) == (None, None)
    assert board.tokenable(city, a)
    board.place_city_token(city, a, a.tokens[0])
    assert a.tokens[0].city is city and a.tokens[0].used and a.tokens[0].hex is g["C5"]
    assert board.tokened_by(city, a) and not board.tokened_by(city, b)
    assert not board.tokenable(city, a)  # already on this tile
    assert board.token_error == "existing_token"
    assert not board.blocks(city, b)
    board.place_city_token(city, b, b.tokens[0])
    assert board.tokens(city) == (a.tokens[0], b.tokens[0])
    assert board.blocks(city, c) and not board.blocks(city, a)
    assert not board.tokenable(city, c)
    board.remove_token(a.tokens[0])
    assert board.tokens(city) == (None, b.tokens[0]) and not a.tokens[0].used
    assert a.tokens[0].city is None
    assert not board.blocks(city, c)
    # the catalogue city carries no tokens: the same tile elsewhere is untouched
    other = build({"green": {"C5": "14"}})
    assert other.board.tokens(city_at(other, "C5")) == (None, None)


def test_place_city_token_refusals():
    a, b = Corp("A"), Corp("B")
    g = build({"yellow": {"C5": "57"}})
    board = g.board
    city = city_at(g, "C5")
    board.place_city_token(city, a, a.tokens[0])
    with pytest.raises(GameError, match="no token slots available on C5"):
        board.place_city_token(city, b, b.tokens[0])
    assert board.tokens(city) == (a.tokens[0],) and not b.tokens[0].used


def test_neutral_token_does_not_block():
    a, n = Corp("A"), Corp("N")
    g = build({"yellow": {"C5": "57"}})
    city = city_at(g, "C5")
    neutral = Token(n, 0, type="neutral")
    neutral = g.board.place_city_token(city, n, neutral, check_tokenable=False)
    assert g.board.tokens(city) == (neutral,)
    assert not g.board.blocks(city, a)


def test_reservations_and_slot_choice():
    a, b, c = Corp("A"), Corp("B"), Corp("C")
    g = build({"green": {"C5": "14"}})
    board, h = g.board, g["C5"]
    city = city_at(g, "C5")
    board.add_tile_reservation(h, b, 0, 1)
    assert board.city_reservations(city) == (None, b)
    assert board.reserved_by(city, b) and board.available_slots(city) == 1
    board.place_city_token(city, a, a.tokens[0])
    assert board.tokens(city)[0] is a.tokens[0]
    assert not board.tokenable(city, c)  # the last slot is reserved
    assert board.token_error == "no_slots"
    board.place_city_token(city, b, b.tokens[0])
    assert board.tokens(city)[1] is b.tokens[0]
    assert board.city_reservations(city) == (None, None)


def test_reservation_by_company_owner_and_insert():
    a = Corp("A")

    class Company:
        owner = a
    co = Company()
    g = build({"green": {"C5": "15"}})
    board = g.board
    city = city_at(g, "C5")
    board.add_reservation(city, co, 1)
    assert board.city_reservations(city) == (None, co)
    assert board.reserved_by(city, a)
    assert board.get_slot(city, a) == 1
    board.remove_reservation(city, co)
    assert board.city_reservations(city) == (None, None) and not board.reserved_by(city, a)


def test_cheater_slot_and_tile_reservation():
    a, b = Corp("A"), Corp("B")
    g = build({"yellow": {"C5": "57"}})
    board = g.board
    city = city_at(g, "C5")
    board.place_city_token(city, a, a.tokens[0])
    assert not board.tokenable(city, b)
    board.place_city_token(city, b, b.tokens[0], cheater=True)
    assert board.slots(city) == 2 and board.tokens(city)[1] is b.tokens[0]
    assert b.tokens[0].cheater is True
    assert board.get_slot(city, Corp("C"), cheater=0) == 2  # any given value counts, even 0
    board.reset_city(city)
    assert board.tokens(city) == (None,)
    # tile-level reservation blocks the last free slot for others
    g2 = build({"green": {"C5": "14"}})
    b2, h2 = g2.board, g2["C5"]
    b2.add_tile_reservation(h2, b, reserve_city=False)
    d = Corp("D")
    b2.add_tile_reservation(h2, d, reserve_city=False)
    assert b2.tile_reservations(h2) == (b, d)
    assert b2.city_reservations(city_at(g2, "C5")) == ()
    assert b2.token_blocked_by_reservation(h2, a)
    assert not b2.tokenable(city_at(g2, "C5"), a)
    assert b2.token_error == "blocked_reservation"
    # the reserving corporation may token; that clears its tile reservation
    assert b2.tokenable(city_at(g2, "C5"), b)
    b2.place_city_token(city_at(g2, "C5"), b, b.tokens[1])
    assert len(b2.tile_reservations(h2)) == 1 and b not in b2.tile_reservations(h2)


def test_no_money():
    poor = Corp("P", cash=10)
    g = build({"yellow": {"C5": "57"}})
    board = g.board
    city = city_at(g, "C5")
    assert board.tokenable(city, poor, tokens=[poor.tokens[0]])  # price 0
    assert not board.tokenable(city, poor, tokens=[poor.tokens[1]])
    assert board.token_error == "no_money"
    assert board.tokenable(city, poor, free=True, tokens=[poor.tokens[1]])


# ---------------------------------------------------------------------------------------
# legal rotations (with a map)


def _flat_map(center_parts=None, center_tile=None) -> StubGame:
    from boardkit import map_data
    groups = {"white": {c: [] for c in ("C3", "C7", "B4", "B6", "D4", "D6")}}
    if center_tile:
        groups["yellow"] = {"C5": center_tile}
    else:
        groups["white"]["C5"] = center_parts or []
    return StubGame(map_data(groups))


def test_legal_rotations_57_to_14_and_15():
    g = _flat_map(center_tile="57")
    board, h = g.board, g["C5"]
    old = board.tile(h)
    assert old.id == "57-0" and old.exits == (0, 3) and old.hex is h
    nbs = board.neighbors(h)
    assert legal_rotations(old, tile("14", hex=h), nbs) == [0, 2, 3, 5]
    assert legal_rotations(old, tile("15", hex=h), nbs) == [0, 3]
    t = tile("15", rotation=4, hex=h)
    assert legal_rotations(old, t, nbs) == [0, 3]  # whatever rotation it is looked at in
    assert t.rotation == 4 and t.exits == tile("15", rotation=4).exits  # placed tiles never change
    assert legal_rotation(old, tile("15", rotation=3, hex=h), nbs)
    assert not legal_rotation(old, t, nbs)
    # the entity must reach one of the new exits
    assert legal_rotations(old, tile("14", hex=h), nbs, connected_edges=[1]) == [0, 3]
    assert legal_rotations(old, tile("14", hex=h), nbs, connected_edges=[]) == []
    # a title's own rotation rule
    assert legal_rotations(old, tile("14", hex=h), nbs, extra_check=lambda p: p.rotation != 0) == [2, 3, 5]


def test_legal_rotations_off_map():
    g = _flat_map()
    board = g.board
    edge_hex = g["C3"]
    assert sorted(board.neighbors(edge_hex)) == [0, 1, 5]
    assert sorted(edge_hex.all_neighbors) == [0, 1, 5]
    assert legal_rotations(board.tile(edge_hex), tile("7", hex=edge_hex), board.neighbors(edge_hex)) == [0, 5]


def test_city_map_follows_exits():
    g = build({"green": {"C5": "59"}})  # OO: city 0 -> edge 0, city 1 -> edge 2
    h = g["C5"]
    oo = g.board.tile(h)
    brown = tile("64", rotation=2, hex=h)  # rotated by 2: city 0: 2/4, city 1: 5/0
    assert city_map(oo, brown) == {oo.cities[0]: brown.cities[1], oo.cities[1]: brown.cities[0]}


def _placement_parts(placed):
    """A placement's nodes, paths and view as plain data: parts by position, the tile by id."""
    pos = {id(n): i for i, n in enumerate(placed.all_nodes)}

    def ref(x):
        if x is None:
            return None
        if x is placed:
            return "tile"
        if getattr(x, "is_edge", False):
            return ("edge", x.num, x.lanes, id(x))
        return ("node", pos[id(x)])

    paths = placed.paths
    ppos = {id(p): i for i, p in enumerate(paths)}
    nodes = [(type(n).__name__, ref(n.tile), n.hex, n.index, n.ordinal, n.id, n.signature) for n in placed.all_nodes]
    path_rows = []
    for p in paths:
        assert type(p).__slots__ == TilePath.__slots__
        row = []
        for slot in TilePath.__slots__:
            val = getattr(p, slot)
            if slot in ("nodes", "stops", "edges"):
                val = [ref(v) for v in val]
            elif slot in ("a", "b", "city", "town", "offboard", "junction", "tile"):
                val = ref(val)
            row.append((slot, val))
        path_rows.append(row)
    view = placed._view
    tables = [{k: [ppos[id(p)] for p in v] for k, v in t.items()}
              for t in (view.by_edge, view.node_paths, view.junction_paths)]
    kinds = [[pos[id(n)] for n in getattr(placed, a)] for a in ("cities", "towns", "halts", "offboards", "city_towns",
                                                                 "nodes", "stops")]
    return nodes, path_rows, tables, dict(view.node_exits), kinds, ref(placed.junction)


def test_placements_made_from_the_layout_equal_the_long_way():
    # the first placement of a spec in a rotation is made part by part and its layout kept;
    # later ones (other copies, other hexes, gauge flags) are made from the layout, the same
    g = build({"white": {"C5": [], "C7": []}})
    names = [n for n in LIB.names() if LIB.parts(n)][:80] + ["57", "X1", "X2", "5", "14", "15", "619", "63"]
    seen = 0
    for name in dict.fromkeys(names):
        if name not in LIB:
            continue
        color, spec = LIB.get(name)
        for r in range(6):
            for hex_, igw in ((None, None), (g["C5"], None), (g["C7"], True)):
                kept = spec._layouts[r]
                spec._layouts[r] = None
                long_way = Placed(Tile(spec, name, color, index=7), r, hex_, igw)
                assert spec._layouts[r] is not None
                quick = Placed(Tile(spec, name, color, index=7), r, hex_, igw)
                if kept is not None:
                    spec._layouts[r] = kept
                assert _placement_parts(quick) == _placement_parts(long_way)
                seen += 1
    assert seen > 300
