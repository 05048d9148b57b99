"""Track graph and distance graph on small hand-built maps (real tile model)."""

from __future__ import annotations

from trackage.core.graph import DistanceGraph, TrackGraph, walk_node
from trackage.core.hexmap import HexMap
from trackage.core.tokens import Token


class Corp:
    def __init__(self, sym, coordinates=None, city=None):
        self.id = self.sym = self.name = sym
        self.cash = 1000
        self.owner = None
        self.coordinates = coordinates
        self.city = city
        self.tokens = [Token(self, p) for p in (0, 40, 40)]

    def __repr__(self):
        return f"<Corp {self.id}>"


def city(rev=20, slots=1, **kw):
    d = {"t": "city", "revenue": rev, "slots": slots}
    d.update(kw)
    return d


def path(a, b, **kw):
    d = {"t": "path", "a": a, "b": b}
    d.update(kw)
    return d


def build(groups):
    """groups: {colour: {coord: parts}} -> HexMap (flat layout, column A runs 0 <-> 3)."""
    hexes = {}
    for color, by_coord in groups.items():
        hexes[color] = [{"coords": [c], "parts": parts} for c, parts in by_coord.items()]
    return HexMap.build({"layout": "flat", "hexes": hexes})


def line_map(a7_slots=1, offboard_terminal=True):
    """A1 offboard - A3 city - A5 track - A7 city - A9 track - A11 city."""
    ob_path = path("_0", 0, terminal=1) if offboard_terminal else path("_0", 0)
    return build({
        "red": {"A1": [{"t": "offboard", "revenue": {"yellow": 20, "green": 40}}, ob_path]},
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0)],
            "A5": [path(3, 0)],
            "A7": [city(30, a7_slots), path(3, "_0"), path("_0", 0)],
            "A9": [path(3, 0)],
            "A11": [city(10), path(3, "_0")],
        },
        "white": {"B4": [], "B6": []},
    })


def place(corp, m, coord, i=0):
    c = m.hex_by_id(coord).tile.cities[i]
    tok = next(t for t in corp.tokens if not t.used)
    c.place_token(corp, tok, free=True)
    return c


def ids(hexes):
    return sorted(h.id for h in hexes)


def test_connectivity_along_a_line():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    g = TrackGraph(m)
    assert ids(g.reachable_hexes(a)) == ["A1", "A11", "A3", "A5", "A7", "A9"]
    ch = g.connected_hexes(a)
    # the token hex is connected on every linked side; B4/B6 are reached only as neighbours
    assert sorted(ch[m.hex_by_id("A3")]) == sorted(m.hex_by_id("A3").neighbors)
    assert m.hex_by_id("B6") not in ch
    assert ch[m.hex_by_id("A11")] == [3]
    nodes = g.connected_nodes(a)
    assert m.hex_by_id("A11").tile.cities[0] in nodes
    assert m.hex_by_id("A1").tile.offboards[0] in nodes
    info = g.route_info(a)
    assert info["route_available"] and info["route_train_purchase"]
    assert g.can_token(a)
    assert len(g.tokenable_cities(a)) >= 2


def test_blocked_city_stops_the_walk_but_reserved_slot_does_not():
    m = line_map()
    a, b = Corp("A"), Corp("B")
    place(a, m, "A3")
    place(b, m, "A7")
    g = TrackGraph(m)
    reach = ids(g.reachable_hexes(a))
    assert "A7" in reach and "A9" not in reach and "A11" not in reach
    assert m.hex_by_id("A7").tile.cities[0] in g.connected_nodes(a)
    assert m.hex_by_id("A11").tile.cities[0] not in g.connected_nodes(a)
    # B itself walks out of its own city
    assert "A11" in ids(g.reachable_hexes(b))
    # no_blocking graph walks through
    assert "A11" in ids(TrackGraph(m, no_blocking=True).reachable_hexes(a))

    m2 = line_map(a7_slots=2)
    a2, b2, c2 = Corp("A"), Corp("B"), Corp("C")
    place(a2, m2, "A3")
    place(b2, m2, "A7")
    m2.hex_by_id("A7").tile.cities[0].add_reservation(c2, 1)  # the other slot: reserved, empty
    g2 = TrackGraph(m2)
    assert "A11" in ids(g2.reachable_hexes(a2))
    # A may not token A7 (last slot reserved for C) but may token A11
    assert g2.tokenable_cities(a2) == [m2.hex_by_id("A11").tile.cities[0]]


def test_offboards_end_walks():
    # offboard in the middle of track: nothing beyond it is reached, even without terminal
    m = build({
        "yellow": {"A3": [city(20), path(3, "_0"), path("_0", 0)], "A7": [city(20), path(3, "_0")]},
        "gray": {"A5": [{"t": "offboard", "revenue": 30}, path(3, "_0"), path("_0", 0)]},
    })
    a = Corp("A")
    place(a, m, "A3")
    g = TrackGraph(m)
    assert ids(g.reachable_hexes(a)) == ["A3", "A5"]
    assert g.route_info(a).get("route_train_purchase")


def test_token_changes_need_clear_and_route_purchase_is_sticky():
    m = line_map()
    a, b = Corp("A"), Corp("B")
    g = TrackGraph(m)
    assert g.route_info(a) == {}
    assert not g.can_token(a)
    place(a, m, "A3")
    assert g.route_info(a) == {}  # cached until clear
    g.clear()
    assert g.route_info(a)["route_train_purchase"]
    # the reference keeps a known train-purchase route across clear()
    a.tokens[0].remove()
    g.clear()
    assert g.route_info(a)["route_train_purchase"]
    assert not g.reachable_hexes(a)
    g.clear_graph_for(a)
    assert g.route_info(a) == {}


def test_route_info_mandatory_and_optional():
    m = build({
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0)],
            "A5": [{"t": "halt", "revenue": 10}, path(3, "_0"), path("_0", 0)],
        },
    })
    a = Corp("A")
    place(a, m, "A3")
    info = TrackGraph(m).route_info(a)
    assert info == {"route_available": True}


def test_skip_track_and_gauges():
    m = build({
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0, track="narrow")],
            "A5": [path(3, 0, track="narrow")],
            "A7": [city(30), path(3, "_0", track="narrow")],
        },
    })
    a = Corp("A")
    place(a, m, "A3")
    assert "A7" in ids(TrackGraph(m).reachable_hexes(a))
    assert ids(TrackGraph(m, skip_track="narrow").reachable_hexes(a)) == ["A3"]
    # broad track does not continue on narrow track
    m2 = build({
        "yellow": {
            "A3": [city(20), path("_0", 0)],
            "A5": [path(3, 0, track="narrow")],
        },
    })
    a2 = Corp("A")
    place(a2, m2, "A3")
    assert ids(TrackGraph(m2).reachable_hexes(a2)) == ["A3"]


def test_lawson_junction_is_crossed():
    # A5 junction tile joins edges 3, 0 and 5 (B6)
    m = build({
        "yellow": {
            "A3": [city(20), path("_0", 0)],
            "A5": [{"t": "junction"}, path(3, "_0"), path(0, "_0"), path(5, "_0")],
            "A7": [city(30), path(3, "_0")],
            "B6": [city(10), path(2, "_0")],
        },
    })
    a = Corp("A")
    place(a, m, "A3")
    g = TrackGraph(m)
    assert ids(g.reachable_hexes(a)) == ["A3", "A5", "A7", "B6"]
    assert sorted(g.connected_hexes(a)[m.hex_by_id("A5")]) == [0, 3, 5]


def test_home_as_token_and_hooks():
    m = line_map()
    a = Corp("A", coordinates="A7")
    g = TrackGraph(m, home_as_token=True)
    assert "A11" in ids(g.reachable_hexes(a))
    assert not TrackGraph(m).reachable_hexes(a)
    # a skip_paths hook hides A5's track
    a5 = m.hex_by_id("A5").tile.paths
    a3 = Corp("B")
    place(a3, m, "A3")
    g2 = TrackGraph(m, skip_paths=lambda corp: set(a5))
    assert ids(g2.reachable_hexes(a3)) == ["A1", "A3"]


def test_distance_graph():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    dg = DistanceGraph(m)
    nd = dg.node_distances(a)
    c3 = m.hex_by_id("A3").tile.cities[0]
    c7 = m.hex_by_id("A7").tile.cities[0]
    c11 = m.hex_by_id("A11").tile.cities[0]
    ob = m.hex_by_id("A1").tile.offboards[0]
    assert nd[c3] == {"node": 0}
    assert nd[c7] == {"node": 1}
    assert nd[c11] == {"node": 2}
    assert ob not in nd  # behind a terminal path: the walk stops before entering it
    sep = DistanceGraph(m, separate_node_types=True).node_distances(a)
    assert sep[c11] == {"city": 2, "town": 0}
    hd = dg.hex_distances(a)
    assert hd[m.hex_by_id("A9")] == {"node": 2}


def test_walk_node_visits_paths_once_per_walk():
    m = line_map()
    start = m.hex_by_id("A3").tile.cities[0]
    seen = []
    walk_node(start, lambda p, vp, vn: seen.append(p), converging=False)
    assert len(seen) == len(set(seen)) == 8
