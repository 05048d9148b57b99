"""Tile model: parsing, part indexes, rotation, revenue, cities/tokens, upgrade legality."""

import json
import os

import pytest

from trackage.core.tiles import (
    City, Edge, Tile, TileSpec, lane_match, legal_rotations, path_le, paths_are_subset_of,
    standard_tiles, tracks_match, upgrades_to,
)
from trackage.core.tokens import Token

LIB = standard_tiles()


def tile(name, index=0, rotation=0):
    return LIB.tile(name, index=index, rotation=rotation)


class Corp:
    def __init__(self, sym, cash=1000, prices=(0, 40, 40)):
        self.id = self.sym = self.name = sym
        self.cash = cash
        self.owner = None
        self.tokens = [Token(self, p) for p in prices]


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
    data = json.load(open(os.path.join(os.path.dirname(__file__), "..", "trackage", "data", "tiles.json")))
    for color, tiles in data.items():
        for name, parts in tiles.items():
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
    assert t.cities[0].id == "X7-0-1"
    assert t.cities[0].index == 1
    assert t.label == "Y"


def test_lanes_count_once_per_generated_path():
    t = Tile.from_parts("L", "yellow", [
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
    assert t.edges == 4


def test_lane_spec_and_lane_match():
    t = Tile.from_parts("L", "yellow", [{"t": "path", "a": 0, "b": 3, "a_lane": "2.1"}])
    assert t.paths[0].lanes == ((2, 1), (1, 0))
    assert lane_match((1, 0), (1, 0))
    assert lane_match((2, 0), (2, 1))
    assert not lane_match((2, 0), (2, 0))
    assert lane_match((1, 0), (3, 1))  # single track meets the middle of three
    assert not lane_match(None, (1, 0))


def test_node_kinds_and_defaults():
    t = Tile.from_parts("N", "red", [
        {"t": "offboard", "revenue": {"yellow": 20, "brown": 40}, "groups": ["E"]},
        {"t": "halt", "symbol": "H"},
        {"t": "pass", "revenue": 0, "slots": 2},
        {"t": "junction"},
        {"t": "path", "a": 0, "b": "_0", "terminal": 1},
        {"t": "path", "a": 1, "b": "_1"},
        {"t": "path", "a": 2, "b": "_2"},
        {"t": "path", "a": 3, "b": "_3"},
        {"t": "path", "a": 4, "b": "_3"},
    ])
    off, halt, pas, junc = t.all_nodes
    assert (off.kind, halt.kind, pas.kind, junc.kind) == ("offboard", "halt", "pass", "junction")
    assert off.route == "mandatory" and halt.route == "optional" and pas.route == "never"
    assert off.visit_cost == 1 and junc.visit_cost == 0
    assert off.groups == ["E"]
    assert t.cities == [pas] and t.towns == [halt] and t.offboards == [off] and t.junction is junc
    assert list(t.nodes) == [off, halt, pas]
    assert t.paths[0].terminal == 1 and t.paths[0].offboard is off
    assert t.paths[1].nodes == (halt,) and t.paths[1].town is halt
    assert [p.exits for p in junc.paths] == [(3,), (4,)]
    assert off.blocks(object())
    assert halt.revenue_for(["yellow"]) == 0


def test_revenue_for_phase_colors():
    t = Tile.from_parts("R", "red", [
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
    # reference string form
    city.set_revenue("yellow_30|green_40")
    assert city.revenue_for(["yellow", "green"]) == 40


# ---------------------------------------------------------------------------------------
# rotation


def test_rotation_exits_and_paths():
    t = tile("57")
    assert t.exits == (0, 3)
    t.rotate(1)
    assert t.exits == (1, 4)
    assert [p.exits for p in t.paths] == [(1,), (4,)]
    assert t.paths_at(4)[0].city is t.cities[0]
    assert t.paths_at(0) == ()
    assert t.cities[0].exits == (1, 4)
    t.rotate(5)
    assert t.exits == (5, 2)
    # path objects are cached per rotation
    p = t.paths
    t.rotate(0)
    t.rotate(5)
    assert t.paths is p
    assert isinstance(t.paths[0].a, Edge) and t.paths[0].a.num == 5


def test_specs_are_shared():
    a, b = tile("57", 0), tile("57", 1)
    assert a.spec is b.spec
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
    y.rotate(1)
    assert path_le(y.paths[0], g.paths[1])
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


def test_upgrades_to_labels_and_oo():
    white_oo = Tile.from_parts("B2", "white", [
        {"t": "city", "revenue": 0}, {"t": "city", "revenue": 0}, {"t": "label", "label": "OO"}])
    assert upgrades_to(white_oo, tile("235"))
    assert not upgrades_to(white_oo, tile("57"))
    white = Tile.from_parts("B3", "white", [{"t": "city", "revenue": 0}])
    assert upgrades_to(white, tile("57"))
    assert not upgrades_to(white, tile("201"))  # labelled Y
    # a colour order hook (e.g. a title's own progression)
    order = ("white", "yellow", "green", "brown", "sepia")
    assert upgrades_to(tile("166"), Tile.from_parts("S", "sepia", [
        {"t": "city", "revenue": 10, "slots": 2}] + [{"t": "path", "a": e, "b": "_0"} for e in range(6)]),
        colors_order=order)
    # special (private company) lays skip labels and counts
    assert upgrades_to(white, tile("201"), special=True)


def test_future_label():
    t = Tile.from_parts("C1", "white", [{"t": "city", "revenue": 0},
                                        {"t": "future_label", "label": "T", "color": "green"}])
    assert t.future_label.label == "T"
    assert upgrades_to(t, tile("57"))


# ---------------------------------------------------------------------------------------
# cities and tokens


def test_city_tokens_and_blocking():
    a, b, c = Corp("A"), Corp("B"), Corp("C")
    t = tile("14")
    city = t.cities[0]
    assert city.slots == 2 and city.available_slots == 2
    assert city.tokenable(a)
    city.place_token(a, a.tokens[0])
    assert a.tokens[0].city is city and a.tokens[0].used
    assert city.tokened_by(a) and not city.tokened_by(b)
    assert not city.tokenable(a)  # already on this tile
    assert city.error == "existing_token"
    assert not city.blocks(b)
    city.place_token(b, b.tokens[0])
    assert city.tokens == [a.tokens[0], b.tokens[0]]
    assert city.blocks(c) and not city.blocks(a)
    assert not city.tokenable(c)
    a.tokens[0].remove()
    assert city.tokens == [None, b.tokens[0]] and not a.tokens[0].used
    assert not city.blocks(c)


def test_neutral_token_does_not_block():
    a, n = Corp("A"), Corp("N")
    city = tile("57").cities[0]
    neutral = Token(n, 0, type="neutral")
    city.place_token(n, neutral, check_tokenable=False)
    assert not city.blocks(a)


def test_reservations_and_slot_choice():
    a, b, c = Corp("A"), Corp("B"), Corp("C")
    t = tile("14")
    city = t.cities[0]
    t.add_reservation(b, 0, 1)
    assert city.reservations == [None, b]
    assert city.reserved_by(b) and city.available_slots == 1
    city.place_token(a, a.tokens[0])
    assert city.tokens[0] is a.tokens[0]
    assert not city.tokenable(c)  # the last slot is reserved
    assert city.error == "no_slots"
    city.place_token(b, b.tokens[0])
    assert city.tokens[1] is b.tokens[0]
    assert city.reservations == [None, None]


def test_reservation_by_company_owner_and_insert():
    a = Corp("A")

    class Company:
        owner = a
    co = Company()
    city = tile("15").cities[0]
    city.add_reservation(co, 1)
    assert city.reservations == [None, co]
    assert city.reserved_by(a)
    assert city.get_slot(a) == 1


def test_cheater_slot_and_tile_reservation():
    a, b = Corp("A"), Corp("B")
    t = tile("57")
    city = t.cities[0]
    city.place_token(a, a.tokens[0])
    assert not city.tokenable(b)
    city.place_token(b, b.tokens[0], cheater=True)
    assert city.slots == 2 and city.tokens[1] is b.tokens[0]
    assert city.get_slot(Corp("C"), cheater=0) == 2  # any given value counts, even 0
    city.reset()
    assert city.tokens == [None]
    # tile-level reservation blocks the last free slot for others
    t2 = tile("14")
    t2.reservations.append(b)
    t2.reservations.append(Corp("D"))
    assert t2.token_blocked_by_reservation(a)
    assert not t2.cities[0].tokenable(a)


def test_no_money():
    poor = Corp("P", cash=10)
    city = tile("57").cities[0]
    assert city.tokenable(poor, tokens=[poor.tokens[0]])  # price 0
    assert not city.tokenable(poor, tokens=[poor.tokens[1]])
    assert city.error == "no_money"
    assert city.tokenable(poor, free=True, tokens=[poor.tokens[1]])


# ---------------------------------------------------------------------------------------
# legal rotations (with a map)


def _flat_map(center_parts=None, center_tile=None):
    from trackage.core.hexmap import HexMap
    hexes = {"white": [{"coords": ["C3", "C7", "B4", "B6", "D4", "D6"], "parts": []}]}
    if center_tile:
        hexes["yellow"] = [{"coords": ["C5"], "tile": center_tile}]
    else:
        hexes["white"].append({"coords": ["C5"], "parts": center_parts or []})
    return HexMap.build({"layout": "flat", "hexes": hexes})


def test_legal_rotations_57_to_14_and_15():
    m = _flat_map(center_tile="57")
    h = m["C5"]
    assert h.tile.id == "57-0" and h.tile.exits == (0, 3)
    assert legal_rotations(h, tile("14")) == [0, 2, 3, 5]
    assert legal_rotations(h, tile("15")) == [0, 3]
    t = tile("15", rotation=4)
    legal_rotations(h, t)
    assert t.rotation == 4  # restored
    # the entity must reach one of the new exits
    assert legal_rotations(h, tile("14"), connected_edges=[1]) == [0, 3]
    assert legal_rotations(h, tile("14"), connected_edges=[]) == []


def test_legal_rotations_off_map():
    m = _flat_map()
    edge_hex = m["C3"]
    assert sorted(edge_hex.neighbors) == [0, 1, 5]
    assert legal_rotations(edge_hex, tile("7")) == [0, 5]
