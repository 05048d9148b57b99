"""Track graph and distance graph on small hand-built maps (real tile model, board state)."""

from __future__ import annotations

from boardkit import Corp, build, city, city_at, ids, line_map, path, place, tile_on

from trackage.core.graph import DistanceGraph, TrackGraph, walk_node, walk_path
from trackage.core.steps.track import tokenable_cities


def test_connectivity_along_a_line():
    g = line_map()
    board = g.board
    a = Corp("A")
    place(a, g, "A3")
    tg = TrackGraph(board)
    assert ids(tg.reachable_hexes(a)) == ["A1", "A11", "A3", "A5", "A7", "A9"]
    ch = tg.connected_hexes(a)
    # the token hex is connected on every linked side; B4/B6 are reached only as neighbours
    assert sorted(ch[g["A3"]]) == sorted(board.neighbors(g["A3"]))
    assert g["B6"] not in ch
    assert ch[g["A11"]] == [3]
    nodes = tg.connected_nodes(a)
    assert city_at(g, "A11") in nodes
    assert tile_on(g, "A1").offboards[0] in nodes
    assert set(tg.connected_paths(a)) == {p for c in ("A3", "A5", "A7", "A9", "A11", "A1")
                                          for p in tile_on(g, c).paths}
    info = tg.route_info(a)
    assert info["route_available"] and info["route_train_purchase"]
    assert tg.can_token(a)
    assert len(tg.tokenable_cities(a)) >= 2


def test_board_graph_follows_the_board():
    g = line_map()
    board = g.board
    a = Corp("A")
    assert not board.graph.reachable_hexes(a)
    place(a, g, "A3")
    board.changed()  # a move on the board: the board's graph is recomputed
    assert "A11" in ids(board.graph.reachable_hexes(a))
    assert g.changes == 1
    assert board.graph is board.graph
    assert g.graph.can_token(a) and city_at(g, "A3") not in tokenable_cities(g, a)


def test_blocked_city_stops_the_walk_but_reserved_slot_does_not():
    g = line_map()
    a, b = Corp("A"), Corp("B")
    place(a, g, "A3")
    place(b, g, "A7")
    tg = TrackGraph(g.board)
    reach = ids(tg.reachable_hexes(a))
    assert "A7" in reach and "A9" not in reach and "A11" not in reach
    assert city_at(g, "A7") in tg.connected_nodes(a)
    assert city_at(g, "A11") not in tg.connected_nodes(a)
    # B itself walks out of its own city
    assert "A11" in ids(tg.reachable_hexes(b))
    # no_blocking graph walks through
    assert "A11" in ids(TrackGraph(g.board, no_blocking=True).reachable_hexes(a))

    g2 = line_map(a7_slots=2)
    a2, b2, c2 = Corp("A"), Corp("B"), Corp("C")
    place(a2, g2, "A3")
    place(b2, g2, "A7")
    g2.board.add_reservation(city_at(g2, "A7"), c2, 1)  # the other slot: reserved, empty
    tg2 = TrackGraph(g2.board)
    assert "A11" in ids(tg2.reachable_hexes(a2))
    # A may not token A7 (last slot reserved for C) but may token A11
    assert tg2.tokenable_cities(a2) == [city_at(g2, "A11")]


def test_offboards_end_walks():
    # offboard in the middle of track: nothing beyond it is reached, even without terminal
    g = build({
        "yellow": {"A3": [city(20), path(3, "_0"), path("_0", 0)], "A7": [city(20), path(3, "_0")]},
        "gray": {"A5": [{"t": "offboard", "revenue": 30}, path(3, "_0"), path("_0", 0)]},
    })
    a = Corp("A")
    place(a, g, "A3")
    tg = TrackGraph(g.board)
    assert ids(tg.reachable_hexes(a)) == ["A3", "A5"]
    assert tg.route_info(a).get("route_train_purchase")


def test_token_changes_need_clear_and_route_purchase_is_sticky():
    g = line_map()
    a = Corp("A")
    tg = TrackGraph(g.board)
    assert tg.route_info(a) == {}
    assert not tg.can_token(a)
    place(a, g, "A3")
    assert tg.route_info(a) == {}  # cached until clear
    tg.clear()
    assert tg.route_info(a)["route_train_purchase"]
    # the reference keeps a known train-purchase route across clear()
    g.board.remove_token(a.tokens[0])
    tg.clear()
    assert tg.route_info(a)["route_train_purchase"]
    assert not tg.reachable_hexes(a)
    tg.clear_graph_for(a)
    assert tg.route_info(a) == {}


def test_board_graph_route_info_is_board_state():
    # the main graph remembers route information in the board state, so a copy of the game
    # keeps it, and what a copy learns later is its own
    g = line_map()
    board = g.board
    a = Corp("A")
    place(a, g, "A3")
    board.changed()
    assert board.graph.route_info(a)["route_train_purchase"]
    assert board.state.route_info["main"][a]["route_train_purchase"]
    board.remove_token(a.tokens[0])
    board.changed()
    assert not board.graph.reachable_hexes(a)
    assert board.graph.route_info(a)["route_train_purchase"]  # sticky
    copy = g.copy()
    (ca,) = list(copy.board.state.route_info["main"])
    assert ca is not a and ca.id == "A"
    assert copy.board.graph.route_info(ca)["route_train_purchase"]
    copy.board.graph.clear_graph_for(ca)
    assert copy.board.graph.route_info(ca) == {}
    assert board.graph.route_info(a)["route_train_purchase"]  # the original keeps it


def test_route_info_mandatory_and_optional():
    g = build({
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0)],
            "A5": [{"t": "halt", "revenue": 10}, path(3, "_0"), path("_0", 0)],
        },
    })
    a = Corp("A")
    place(a, g, "A3")
    info = TrackGraph(g.board).route_info(a)
    assert info == {"route_available": True}


def test_skip_track_and_gauges():
    g = build({
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0, track="narrow")],
            "A5": [path(3, 0, track="narrow")],
            "A7": [city(30), path(3, "_0", track="narrow")],
        },
    })
    a = Corp("A")
    place(a, g, "A3")
    assert "A7" in ids(TrackGraph(g.board).reachable_hexes(a))
    assert ids(TrackGraph(g.board, skip_track="narrow").reachable_hexes(a)) == ["A3"]
    # broad track does not continue on narrow track
    g2 = build({
        "yellow": {
            "A3": [city(20), path("_0", 0)],
            "A5": [path(3, 0, track="narrow")],
        },
    })
    a2 = Corp("A")
    place(a2, g2, "A3")
    assert ids(TrackGraph(g2.board).reachable_hexes(a2)) == ["A3"]
    # unless the path ignores gauges when walking (a title's dual-gauge rule)
    g3 = build({
        "yellow": {
            "A3": [city(20), path("_0", 0, ignore_gauge_walk=True)],
            "A5": [path(3, 0, track="narrow")],
        },
    })
    a3 = Corp("A")
    place(a3, g3, "A3")
    assert ids(TrackGraph(g3.board).reachable_hexes(a3)) == ["A3", "A5"]


def test_lawson_junction_is_crossed():
    # A5 junction tile joins edges 3, 0 and 5 (B6)
    g = build({
        "yellow": {
            "A3": [city(20), path("_0", 0)],
            "A5": [{"t": "junction"}, path(3, "_0"), path(0, "_0"), path(5, "_0")],
            "A7": [city(30), path(3, "_0")],
            "B6": [city(10), path(2, "_0")],
        },
    })
    a = Corp("A")
    place(a, g, "A3")
    tg = TrackGraph(g.board)
    assert ids(tg.reachable_hexes(a)) == ["A3", "A5", "A7", "B6"]
    assert sorted(tg.connected_hexes(a)[g["A5"]]) == [0, 3, 5]


def test_home_as_token_and_hooks():
    g = line_map()
    a = Corp("A", coordinates="A7")
    tg = TrackGraph(g.board, home_as_token=True)
    assert "A11" in ids(tg.reachable_hexes(a))
    assert not TrackGraph(g.board).reachable_hexes(a)
    # a skip_paths hook hides A5's track
    a5 = tile_on(g, "A5").paths
    b = Corp("B")
    place(b, g, "A3")
    tg2 = TrackGraph(g.board, skip_paths=lambda corp: set(a5))
    assert ids(tg2.reachable_hexes(b)) == ["A1", "A3"]
    # a city_tokened_by hook decides where walks start
    tg3 = TrackGraph(g.board, city_tokened_by=lambda c, corp: c is city_at(g, "A11"))
    assert ids(tg3.reachable_hexes(b)) == ["A1", "A11", "A3", "A5", "A7", "A9"]
    assert city_at(g, "A3") in tg3.connected_nodes(b)


def test_graph_sees_a_laid_tile():
    g = build({
        "yellow": {"A3": [city(20), path("_0", 0)]},
        "white": {"A5": [], "A7": [city(0)]},
    }, {"9": 1})
    a = Corp("A")
    place(a, g, "A3")
    board = g.board
    assert ids(board.graph.reachable_hexes(a)) == ["A3"]
    assert sorted(board.graph.connected_hexes(a)[g["A5"]]) == [3]
    board.place_tile(g["A5"], board.tile_by_id("9-0").at(0, g["A5"]))
    board.changed()
    assert ids(board.graph.reachable_hexes(a)) == ["A3", "A5"]
    assert g["A7"] in board.graph.connected_hexes(a)


def test_distance_graph():
    g = line_map()
    a = Corp("A")
    place(a, g, "A3")
    dg = DistanceGraph(g.board)
    nd = dg.node_distances(a)
    c3, c7, c11 = city_at(g, "A3"), city_at(g, "A7"), city_at(g, "A11")
    ob = tile_on(g, "A1").offboards[0]
    assert nd[c3] == {"node": 0}
    assert nd[c7] == {"node": 1}
    assert nd[c11] == {"node": 2}
    assert ob not in nd  # behind a terminal path: the walk stops before entering it
    sep = DistanceGraph(g.board, separate_node_types=True).node_distances(a)
    assert sep[c11] == {"city": 2, "town": 0}
    hd = dg.hex_distances(a)
    assert hd[g["A9"]] == {"node": 2}
    assert dg.path_distances(a)[tile_on(g, "A5").paths[0]] == {"node": 1}
    assert dg.token_cities(a) == [c3]
    # a derived view: memoised on the board until it changes
    board = g.board
    d1 = board.derived("dist", lambda: DistanceGraph(board))
    assert board.derived("dist", lambda: DistanceGraph(board)) is d1
    board.changed()
    assert board.derived("dist", lambda: DistanceGraph(board)) is not d1


def test_walk_node_visits_paths_once_per_walk():
    g = line_map()
    start = city_at(g, "A3")
    seen = []
    walk_node(start, lambda p, vp, vn: seen.append(p), board=g.board, converging=False)
    assert len(seen) == len(set(seen)) == 8


def test_walk_path_follows_the_board_links():
    g = line_map()
    seen = []
    walk_path(tile_on(g, "A5").paths[0], lambda p, *_: seen.append(p.hex.id), board=g.board)
    # a path walk crosses hex edges only: it reaches the city paths at both ends, not beyond
    assert sorted(seen) == ["A3", "A5", "A7"]
    # what links the hexes is board state: on a copy with other links the walk differs
    copy = g.copy()
    st = copy.board.state
    st.links = {**st.links, "A5": {k: v for k, v in st.links["A5"].items() if k != 0}}
    seen2 = []
    walk_path(tile_on(copy, "A5").paths[0], lambda p, *_: seen2.append(p.hex.id), board=copy.board)
    assert sorted(seen2) == ["A3", "A5"]
    seen.clear()
    walk_path(tile_on(g, "A5").paths[0], lambda p, *_: seen.append(p.hex.id), board=g.board)
    assert sorted(seen) == ["A3", "A5", "A7"]
    # a node walk for a corporation does not go beyond a city others fill
    a, b = Corp("A"), Corp("B")
    place(b, g, "A7")
    nodes = []
    walk_node(city_at(g, "A3"), lambda p, vp, vn: nodes.extend(n.hex.id for n in p.nodes),
              board=g.board, corporation=a)
    assert "A7" in nodes and "A11" not in nodes
