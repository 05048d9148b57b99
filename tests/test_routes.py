"""Route resolution, legality checks, revenue and the route finder on hand-built maps
(routes read the game's board)."""

from __future__ import annotations

import pytest
from boardkit import Corp, Phase, build, city, city_at, line_map, path, place, tile_on

from trackage.core.routes import (
    NoToken,
    ReusesCity,
    Route,
    RouteError,
    RouteRules,
    RouteTooLong,
    RouteTooShort,
    routes_from_log,
    routes_revenue,
    rules_for,
    track_keys,
)
from trackage.core.trains import Train
from trackage.router import optimal_routes


def train(corp, name="2", distance=2, index=0, **spec):
    t = Train({"name": name, "distance": distance, "price": 80, **spec}, index)
    t.owner = corp
    corp.trains = getattr(corp, "trains", []) + [t]
    return t


def rules_on(g, *colors):
    """The base route rules for stub game ``g`` in a phase allowing ``colors`` (yellow)."""
    return RouteRules(g, phase=Phase(*(colors or ("yellow",))))


def run(rules, corp, entries):
    trains = {t.id: t for t in corp.trains}
    return routes_from_log(rules, entries, trains)


def test_resolve_one_segment_and_revenue():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a)
    rules = rules_on(m)
    (r,) = run(rules, a, [{"train": t.id, "connections": [["A3", "A5", "A7"]]}])
    c3 = city_at(m, "A3")
    c7 = city_at(m, "A7")
    assert r.visited_stops == [c3, c7]
    assert [p.tile.hex.id for p in r.ordered_paths] == ["A3", "A5", "A7"]
    assert r.revenue() == 50
    assert [h.id for h in r.hexes] == ["A3", "A7"]
    assert r.node_signatures == ["A3-0", "A7-0"]
    assert r.connection_hexes == [["A3", "A5", "A7"]]
    assert r.revenue_str == "A3-A7"
    # reversed logging order resolves too
    (r2,) = run(rules, a, [{"train": t.id, "connections": [["A7", "A5", "A3"]]}])
    assert r2.revenue() == 50


def test_logged_revenue_is_kept_unless_recomputed():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a)
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["A3", "A5", "A7"]], "revenue": 999}])
    assert r.revenue() == 999
    assert r.revenue(recompute=True) == 50


def test_multi_segment_and_phase_revenue():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a, "3", 3)
    entry = {"train": t.id, "connections": [["A1", "A3"], ["A3", "A5", "A7"]]}
    (r,) = run(rules_on(m, "yellow"), a, [entry])
    assert r.revenue() == 20 + 20 + 30
    (r,) = run(rules_on(m, "yellow", "green"), a, [entry])
    assert r.revenue() == 40 + 20 + 30
    assert [h.id for h in r.hexes] == ["A1", "A3", "A7"]
    assert r.connection_hexes == [["A1", "A3"], ["A3", "A5", "A7"]]


def test_distance_violation_raises():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a, "2", 2)
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["A1", "A3"], ["A3", "A5", "A7"]]}])
    with pytest.raises(RouteTooLong):
        r.revenue()


def test_typed_distance_compute_stops():
    # "2+2": two stops of any kind plus two towns; a 1-city train visiting two cities is too long
    m = build({
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0)],
            "A5": [{"t": "town", "revenue": 10}, path(3, "_0"), path("_0", 0)],
            "A7": [city(40), path(3, "_0"), path("_0", 0)],
            "A9": [city(30), path(3, "_0")],
        },
    })
    a = Corp("A")
    place(a, m, "A3")
    dist = [{"nodes": ["town"], "pay": 2, "visit": 2}, {"nodes": ["city", "town", "offboard"], "pay": 2, "visit": 2}]
    t = train(a, "2+2", dist)
    conns = [["A3", "A5"], ["A5", "A7"], ["A7", "A9"]]
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": conns}])
    with pytest.raises(RouteTooLong):
        r.revenue()  # three cities, only two city slots
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": conns[:2]}])
    assert r.revenue() == 20 + 10 + 40
    # pay fewer than visited: the best paying subset that includes a token
    dist2 = [{"nodes": ["city", "town"], "pay": 2, "visit": 4}]
    t2 = train(a, "4/2", dist2, index=1)
    (r,) = run(rules_on(m), a, [{"train": t2.id, "connections": conns}])
    assert r.revenue() == 20 + 40
    assert [s.tile.hex.id for s in r.stops] == ["A3", "A7"]


def test_no_token_and_too_short():
    m = line_map()
    a = Corp("A")
    place(a, m, "A11")
    t = train(a, "3", 3)
    # a one-segment route must touch a token to resolve at all
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["A3", "A5", "A7"]]}])
    assert r.connection_data == []
    with pytest.raises(NoToken):
        r.revenue()
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["A1", "A3"], ["A3", "A5", "A7"]]}])
    with pytest.raises(NoToken):
        r.revenue()
    with pytest.raises(RouteTooShort):
        Route(rules_on(m), t, connection_data=_seg(m, "A11")).revenue()


def _seg(m, coord):
    from trackage.core.routes import Chain, Segment

    n = city_at(m, coord)
    return [Segment(n, n, Chain(None, [], None))]


def test_overlap_between_routes_raises():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t1 = train(a, "2", 2, index=0)
    t2 = train(a, "2", 2, index=1)
    entries = [
        {"train": t1.id, "connections": [["A3", "A5", "A7"]]},
        {"train": t2.id, "connections": [["A3", "A5", "A7"]]},
    ]
    routes = run(rules_on(m), a, entries)
    # the second route cannot find unused track: it resolves to nothing
    assert any(r.connection_data == [] for r in routes)
    # built directly on the same track, the overlap check fires
    r1 = routes[0] if routes[0].connection_data else routes[1]
    siblings = [r1]
    r2 = Route(r1.rules, t2, connection_data=list(r1.connection_data), routes=siblings)
    siblings.append(r2)
    r1.routes = siblings
    with pytest.raises(RouteError, match="reuse track on A3"):
        r2.revenue(recompute=True)
    with pytest.raises(RouteError, match="reuse track"):
        routes_revenue([r1, r2])


def test_two_routes_sharing_a_city_but_not_track():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t1 = train(a, "2", 2, index=0)
    t2 = train(a, "2", 2, index=1)
    entries = [
        {"train": t1.id, "connections": [["A3", "A5", "A7"]]},
        {"train": t2.id, "connections": [["A1", "A3"]]},
    ]
    routes = run(rules_on(m), a, entries)
    assert [r.revenue() for r in routes] == [50, 40]
    assert routes_revenue(routes) == 90


def test_city_twice_and_terminal_passthrough():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a, "4", 4)
    rules = rules_on(m)
    c = {n: city_at(m, n) for n in ("A3", "A7")}
    from trackage.core.routes import Segment, node_chains

    ch = node_chains(c["A3"], c["A7"], board=m.board)[0]
    back = node_chains(c["A7"], c["A3"], board=m.board)[0]
    cd = [Segment(c["A3"], c["A7"], ch), Segment(c["A7"], c["A3"], back)]
    with pytest.raises(ReusesCity):
        Route(rules, t, connection_data=cd).revenue()
    # a terminal path in the middle of a route
    m2 = build({
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0)],
            "A5": [path(3, 0, terminal=1)],
            "A7": [city(30), path(3, "_0")],
        },
    })
    a2 = Corp("A")
    place(a2, m2, "A3")
    t2 = train(a2, "2", 2)
    (r,) = run(rules_on(m2), a2, [{"train": t2.id, "connections": [["A3", "A5", "A7"]]}])
    with pytest.raises(RouteError, match="terminal"):
        r.revenue()


def test_blocked_city_is_not_connected():
    m = line_map()
    a, b = Corp("A"), Corp("B")
    place(a, m, "A3")
    place(b, m, "A7")
    t = train(a, "3", 3)
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["A3", "A5", "A7"], ["A7", "A9", "A11"]]}])
    with pytest.raises(RouteError, match="not connected"):
        r.revenue()
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["A3", "A5", "A7"]]}])
    assert r.revenue() == 50  # ending in the blocked city is fine


def test_groups_used_twice():
    m = build({
        "yellow": {
            "A3": [city(20, groups=["X"]), path(3, "_0"), path("_0", 0)],
            "A5": [city(20, groups=["X"]), path(3, "_0")],
        },
    })
    a = Corp("A")
    place(a, m, "A3")
    t = train(a)
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["A3", "A5"]]}])
    with pytest.raises(RouteError, match="group X"):
        r.revenue()


def test_intra_tile_connection_and_local_train():
    # an OO-like hex with two cities joined inside the tile and a second internal path
    m = build({
        "yellow": {
            "H21": [city(20), city(30), {"t": "town", "revenue": 10},
                    path("_0", "_1"), path("_1", "_2"), path("_0", 0)],
            "H23": [city(40), path(3, "_0")],
        },
    })
    a = Corp("A")
    place(a, m, "H21", 0)
    t = train(a, "2", 2)
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["H21 0.1"]]}])
    assert r.revenue() == 50
    assert r.connection_hexes == [["H21 0.1"]]
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["H23", "H21"], ["H21 0.1"]]}])
    with pytest.raises(RouteTooLong):
        r.revenue()
    t3 = train(a, "3", 3, index=0)
    (r,) = run(rules_on(m), a, [{"train": t3.id, "connections": [["H23", "H21"], ["H21 0.1"]]}])
    assert r.revenue() == 90
    assert [s.index for s in r.visited_stops] == [0, 0, 1]
    # local train: one tokened city
    tl = train(a, "L", 1)
    (r,) = run(rules_on(m), a, [{"train": tl.id, "connections": [["local", "H21"]]}])
    assert r.revenue() == 20
    assert r.connection_hexes == [["local", "H21"]]
    # a non-local train cannot run a local route
    (r,) = run(rules_on(m), a, [{"train": t.id, "connections": [["local", "H21"]]}])
    assert r.connection_data == []


def test_hooks_override_revenue():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a)

    class Bonus(RouteRules):
        def revenue_for(self, route, stops):
            rev = super().revenue_for(route, stops)
            if any(s.tile.hex.id == "A7" for s in stops):
                rev += 40 * (route.train.multiplier or 1)
            return rev

    rules = Bonus(m, phase=Phase("yellow"))
    (r,) = run(rules, a, [{"train": t.id, "connections": [["A3", "A5", "A7"]]}])
    assert r.revenue() == 90


def test_track_keys_of_an_offcentre_town():
    # standard tile 1: two towns, each drawn next to one of its exits
    town = {"t": "town", "revenue": 10}
    m = build({"yellow": {"A3": [town, town, path(1, "_0"), path("_0", 3), path(0, "_1"), path("_1", 4)]}})
    tile = tile_on(m, "A3")
    keys = track_keys(tile.paths)
    town_keys = [k for k in keys if len(k) == 3 and not isinstance(k[1], int)]
    assert sorted(k[1].index for k in town_keys) == [0, 1]
    from trackage.core.routes import preferred_city_town_edges

    edges = preferred_city_town_edges(tile)
    assert edges[tile.towns[0]] == 1 and edges[tile.towns[1]] == 4


def _finder_map():
    # A3 token city with three branches: south line, a branch to B4 and a dead end north
    return build({
        "red": {"A1": [{"t": "offboard", "revenue": 50}, path("_0", 0, terminal=1)]},
        "yellow": {
            "A3": [city(20, 2), path(3, "_0"), path("_0", 0), path("_0", 4)],
            "A5": [path(3, 0)],
            "A7": [city(30), path(3, "_0"), path("_0", 0)],
            "A9": [path(3, 0)],
            "A11": [city(10), path(3, "_0")],
            "B2": [city(40), path(1, "_0")],
        },
    })


def test_route_finder_returns_legal_routes():
    m = _finder_map()
    a = Corp("A")
    place(a, m, "A3")
    t1 = train(a, "2", 2, index=0)
    t2 = train(a, "3", 3, index=0)
    rules = rules_on(m)
    res = optimal_routes(m, a)
    assert res.optimal
    found = res.routes
    assert found
    # every returned route re-resolves from its own entry and checks out with the others
    routes = run(rules, a, [{k: v for k, v in d.items() if k != "revenue"} for d in found])
    for d, r in zip(found, routes):
        assert r.revenue(recompute=True) == d["revenue"]
    rules.check_overlap(routes)
    # 3-train A1-A3-B2 (50+20+40) and 2-train A3-A7 (20+30) on separate track
    assert sum(d["revenue"] for d in found) == 160
    assert {d["train"]: d["revenue"] for d in found} == {t2.id: 110, t1.id: 50}
    assert set(found[0]) >= {"train", "connections", "hexes", "nodes", "revenue", "revenue_str"}


def test_route_finder_with_no_tokens():
    m = _finder_map()
    a = Corp("A")
    train(a)  # a train but no token: no route
    res = optimal_routes(m, a)
    assert res.routes == [] and res.revenue == 0 and res.optimal


def test_rules_read_the_games_board_and_phase():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    m.board.changed()
    t = train(a, "3", 3)
    rules = rules_for(m)  # the game's rules: the base ones, in the game's phase
    assert type(rules) is RouteRules and rules.board is m.board and rules.phase is m.phase
    entry = {"train": t.id, "connections": [["A1", "A3"], ["A3", "A5", "A7"]]}
    (r,) = run(rules, a, [entry])
    assert r.revenue() == 40 + 20 + 30  # the stub game's phase allows green
    found = optimal_routes(m, a).routes
    assert [d["train"] for d in found] == [t.id]
    (again,) = run(rules, a, [{k: v for k, v in found[0].items() if k != "revenue"}])
    assert again.revenue(recompute=True) == found[0]["revenue"]


def test_routes_on_a_copy_see_the_copys_board():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a, "3", 3)
    copy = m.copy()
    (ca,) = [copy.token_owner(tok) for tok in copy.board.tokens(city_at(copy, "A3")) if tok is not None]
    assert ca is not a and ca.id == "A"
    # B fills A7 in the copy only: running through it is refused there, not in the original
    b = Corp("B")
    place(b, copy, "A7")
    entry = {"train": t.id, "connections": [["A3", "A5", "A7"], ["A7", "A9", "A11"]]}
    (r,) = run(rules_on(m), a, [entry])
    assert r.revenue() == 20 + 30 + 10
    (ct,) = list(ca.trains)
    (rc,) = routes_from_log(rules_on(copy), [{**entry, "train": ct.id}], {ct.id: ct})
    with pytest.raises(RouteError, match="not connected"):
        rc.revenue()


def test_a_variant_marked_no_local_is_not_local():
    """1858 India's 1M variant (one city, towns) is no local train, as on 18xx.games; the
    same distance without the mark is."""
    one_city = [{"nodes": ["city", "offboard"], "pay": 1, "visit": 1}, {"nodes": ["town"], "pay": 99, "visit": 99}]
    t = Train({"name": "2H", "distance": 2, "price": 100,
               "variants": [{"name": "1M", "no_local": True, "distance": one_city, "price": 80},
                            {"name": "1X", "distance": one_city, "price": 80}]}, 0)
    rules = rules_on(line_map())
    assert not rules.is_local(t)
    t.set_variant("1M")
    assert not rules.is_local(t)
    t.set_variant("1X")
    assert rules.is_local(t)


def test_a_logged_route_is_made_as_the_constructor_makes_it():
    # from_log writes the route's values directly: the same values the constructor sets
    rules, train, run, cache = object(), object(), [], {}
    data = {"train": "2-0", "connections": [["A1", "B2"]], "hexes": ["A1", "B2"], "revenue": 30,
            "revenue_str": "A-B", "nodes": ["A1-0", "B2-0"], "subsidy": 5, "halts": 1, "abilities": ["x"]}
    got = Route.from_log(rules, data, train, routes=run, phase="p", chain_cache=cache)  # type: ignore[arg-type]
    want = Route(rules, train, routes=run, connections=data["connections"], nodes=data["nodes"],  # type: ignore[arg-type]
                 revenue=30, revenue_str="A-B", subsidy=5, halts=1, abilities=["x"], phase="p", chain_cache=cache)
    want._logged_hex_ids = data["hexes"]
    assert vars(got) == vars(want)
    assert got._chains is cache and got.routes is run and got.connections is data["connections"]
    alone = Route.from_log(rules, {"connections": []}, train)  # type: ignore[arg-type]
    assert alone.routes == [alone] and alone._chains == {} and alone.node_signatures_logged is None
    assert vars(alone) == {**vars(Route(rules, train, connections=[])), "routes": [alone], "_logged_hex_ids": None}  # type: ignore[arg-type]
    assert alone._paths is None and alone._priced is None and alone._resolving is False
