"""A brute-force route search, independent of ``trackage.router``: simple, slow, exhaustive.

It uses only the game and its core route pieces (``node_chains``, ``Route``/``Segment`` to
write a route in its logged form, ``game.compute_route_revenues`` as the judge):

1. every node (city, town, offboard) on the board that has track;
2. for every ordered pair of distinct nodes, every chain of track between them
   (``node_chains``, with the train's skipped track type);
3. every route: a sequence of distinct nodes joined by such chains, walked depth first from
   every node (not only tokened ones); the only pruning is a *relaxation* of the distance
   rule that can never exclude a legal route (see :func:`_allowance`), plus one-node local
   runs for local trains;
4. each route, written as a ``run_routes`` entry, is kept for a train when the game accepts it
   alone (1825: every two-stop route of a 2-train whose log form resolves to track is kept as
   well, since double-headed 2-trains can be legal only together);
5. every combination (one kept route or none per train) is judged by
   ``game.compute_route_revenues``; a ``GameError`` means the combination is illegal. The
   routes go in train order (1825, three or more 2-trains: in every order, since the order
   decides which 2-trains double-head).

The best total wins. States too big for this are refused with :class:`TooBig` (the caps
count steps, never time, so the same states are refused on every machine).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from trackage.core.errors import GameError
from trackage.core.graph import walk_path
from trackage.core.routes import (
    Chain,
    Route,
    Segment,
    node_chains,
    routes_from_log,
    rules_for,
)

MAX_ROUTES = 600  # routes (walked, then judged alone) per train kind
MAX_COMBOS = 3000  # combinations judged


class TooBig(Exception):
    """The state is too big for the brute force (a cap was reached)."""


@dataclass
class BruteResult:
    revenue: int
    routes: list  # the best combination's run_routes entries
    singles: dict = field(default_factory=dict)  # train id -> number of routes kept
    combos: int = 0  # combinations judged


def board_nodes(game) -> list:
    """Every node on the board that has track, in map order."""
    out = []
    for _hex, tile in game.board.tiles():
        for n in tile.nodes:
            if n.paths:
                out.append(n)
    return out


def reachable_nodes(start, skip_track, board) -> list:
    """The nodes a path walk from ``start`` reaches (a superset of those with a chain)."""
    seen: dict = {}

    def visit(path, _visited, _counter, _conv):
        for n in path.nodes:
            if n is not start:
                seen[n] = True

    for sp in start.paths:
        walk_path(sp, visit, board=board, skip_track=skip_track)
    return list(seen)


def all_chains(game, nodes, skip_track) -> dict:
    """{node: [(other node, chain), ...]}: every chain from each node to every other."""
    board = game.board
    out = {}
    for a in nodes:
        lst = []
        for b in reachable_nodes(a, skip_track, board):
            if b is a:
                continue
            for ch in node_chains(a, b, skip_track, board=board):
                lst.append((b, ch))
        out[a] = lst
    return out


def _is_1858(game) -> bool:
    return game.TITLE in ("1858", "1858India")


def _hex_edges(chain) -> int:
    """Hex edges a chain crosses (1858 H trains count these)."""
    p = chain.paths
    return sum(1 for a, b in itertools.pairwise(p) if a.hex is not b.hex)


def _allowance(game, rules, train, nodes):
    """A generous distance limit: ``(per stop type -> most visit cost, or None when any
    number, hex edges or None)``. Every legal route fits it: it relaxes the title's distance
    check (typed rows are summed per type; 1825's tile 200 stations add one stop each, so every
    such station on the board is added; 1858's hex trains count hex edges only)."""
    d = train.distance
    if _is_1858(game) and isinstance(d, int):
        return None, d
    extra = 0
    if game.TITLE == "1825":
        extra = sum(1 for n in nodes if n.tile.name == "200")
    if isinstance(d, (int, float)):
        return {"*": int(d) + extra}, None
    per: dict = {}
    for row in d:
        visit = row.get("visit")
        visit = row.get("pay") if visit is None else visit
        for t in row["nodes"]:
            per[t] = per.get(t, 0) + int(visit or 0)
    return {t: v + extra for t, v in per.items()} | {"?": extra}, None


def _cost(rules, train, per, stop) -> tuple:
    """What visiting ``stop`` uses of the allowance: (key, visit cost)."""
    if per is None or stop.visit_cost <= 0:
        return None, 0
    if "*" in per:
        return "*", stop.visit_cost
    return rules.stop_type(stop, train), stop.visit_cost


def _add(per, used: dict, key, cost) -> dict | None:
    """``used`` plus one visit; None when that exceeds the allowance."""
    if key is None:
        return used
    n = used.get(key, 0) + cost
    if n > per.get(key, per.get("?", 0)):
        return None
    return {**used, key: n}


def enumerate_routes(game, rules, train, nodes, chains) -> list:
    """Every route (a list of Segments) of ``train`` that fits its generous distance limit."""
    per, edges = _allowance(game, rules, train, nodes)
    out = []

    def dfs(seq, segs, used, used_edges):
        for nxt, ch in chains[seq[-1]]:
            if nxt in seq:
                continue
            e = used_edges
            if edges is not None:
                e += _hex_edges(ch)
                if e > edges:
                    continue
            u = _add(per, used, *_cost(rules, train, per, nxt))
            if u is None:
                continue
            if len(out) >= MAX_ROUTES:
                raise TooBig(f"more than {MAX_ROUTES} routes for train {train.name}")
            new = segs + [Segment(seq[-1], nxt, ch)]
            out.append(new)
            dfs(seq + [nxt], new, u, e)

    for start in nodes:
        used = _add(per, {}, *_cost(rules, train, per, start))
        if used is not None:
            dfs([start], [], used, 0)
    if rules.is_local(train):
        for n in nodes:
            out.append([Segment(n, n, Chain(None, [], None))])
    return out


def route_entry(rules, train, segs) -> dict:
    """The route as a ``run_routes`` entry (without a claimed revenue)."""
    r = Route(rules, train, connection_data=segs)
    return {"train": train.id, "connections": r.connection_hexes, "hexes": [h.id for h in r.hexes],
            "nodes": r.node_signatures}


def _key(d) -> tuple:
    return (repr(d["connections"]), tuple(d["hexes"]), tuple(d["nodes"]))


def resolves(rules, entry, trains) -> bool:
    """Whether the log form of a one-connection route resolves to track when run alone. One
    that does not never does with other routes either (their track only removes choices), and
    a route without track is refused; such a route cannot be part of a legal run."""
    (route,) = routes_from_log(rules, [dict(entry)], trains)
    return bool(route.connection_data)


def judge(game, entity, entries, trains) -> int | None:
    """The game's total for these routes run together; None if it refuses them."""
    try:
        return sum(game.compute_route_revenues(entity, [dict(e) for e in entries], trains))
    except GameError:
        return None


def brute_force(game, entity, *, max_combos: int = MAX_COMBOS) -> BruteResult:
    rules = rules_for(game)
    trains = list(game.route_trains(entity))
    by_id = {t.id: t for t in trains}
    if not trains:
        return BruteResult(0, [])
    nodes = board_nodes(game)
    chains_by_skip: dict = {}
    routes_by_kind: dict = {}
    options = []
    singles = {}
    for t in trains:
        skip = rules.skip_route_track_type(t)
        if skip not in chains_by_skip:
            chains_by_skip[skip] = all_chains(game, nodes, skip)
        kind = (t.name, repr(t.distance), skip)
        if kind not in routes_by_kind:
            entries = {}
            for segs in enumerate_routes(game, rules, t, nodes, chains_by_skip[skip]):
                d = route_entry(rules, t, segs)
                entries.setdefault(_key(d), (d, len(segs)))
            routes_by_kind[kind] = list(entries.values())
        kept = []
        for d, nsegs in routes_by_kind[kind]:
            d = {**d, "train": t.id}
            rev = judge(game, entity, [d], by_id)
            if rev is not None:
                kept.append(d)
            elif game.TITLE == "1825" and t.distance == 2 and nsegs == 1 and resolves(rules, d, by_id):
                kept.append(d)  # maybe legal double-headed with another 2-train
        singles[t.id] = len(kept)
        options.append([None] + kept)
    order_matters = game.TITLE == "1825" and sum(1 for t in trains if t.distance == 2) >= 3
    total = math.factorial(len(trains)) if order_matters else 1
    for o in options:
        total *= len(o)
    if total > max_combos:
        raise TooBig(f"{total} combinations")
    best, best_routes, n = 0, [], 0
    for combo in itertools.product(*options):
        chosen = [d for d in combo if d is not None]
        if not chosen:
            continue
        orders = [chosen]
        if order_matters and sum(1 for d in chosen if by_id[d["train"]].distance == 2) >= 3:
            orders = list(itertools.permutations(chosen))  # which 2-trains pair up follows the order
        for order in orders:
            n += 1
            rev = judge(game, entity, list(order), by_id)
            if rev is not None and rev > best:
                best, best_routes = rev, list(order)
    return BruteResult(best, best_routes, singles, n)
