"""Every route one train could run, with its revenue alone and its track as a bitset.

Routes are walked on tile paths: from a node, a path walk gives every piece of track to the
next node (``links``); a route is a sequence of nodes joined by links that share no track and
visit no node twice, and it contains a start node (a city the company has tokened, or what
the title's rules add). Routes through a start node are built from two halves walked from it.
Nothing is capped: every route the meter allows is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameError
from ..core.graph import walk_path
from ..core.routes import Chain, Route, Segment, chain_id, track_keys
from .meter import Meter


@dataclass(eq=False)
class Candidate:
    """One route of one train kind: its stops (``nodes``), links (``segs``: (from node,
    paths in walk order)), revenue alone (``value``, an upper bound of what it adds to any
    run) and conflict bitset (``mask``)."""

    nodes: list
    segs: list
    bound: int  # cheap upper bound of ``value``
    keys: frozenset = field(default_factory=frozenset)
    kidx: list = field(default_factory=list)  # conflict keys as indices
    value: int | None = None  # revenue alone (or the title's bound of it), once computed; -1: never legal

    def route(self, rules, train, routes: list, phase=None, chain_cache=None) -> Route:
        return build_route(rules, train, self.nodes, self.segs, routes, phase, chain_cache)


def build_route(rules, train, nodes, segs, routes: list | None, phase=None, chain_cache=None) -> Route:
    if not segs:
        cd = [Segment(nodes[0], nodes[0], Chain(None, [], None))]
    else:
        cd = [Segment(start, end, Chain((start, end), paths, chain_id(paths)))
              for (start, paths), end in zip(segs, nodes[1:])]
    r = Route(rules, train, routes=routes, connection_data=cd, phase=phase,
              chain_cache=chain_cache if chain_cache is not None else {})
    if routes is not None:
        routes.append(r)
    return r


class Links:
    """Memoised path walks: for a node, every (next node, paths, track keys) reachable."""

    def __init__(self, board, skip_track):
        self.board = board
        self.skip_track = skip_track
        self.memo: dict = {}
        self.walked = 0

    def __call__(self, node) -> list:
        r = self.memo.get(node)
        if r is not None:
            return r
        out: list = []
        skip = self.skip_track

        def visit(path, visited, _c, _v):
            self.walked += 1
            for n in path.nodes:
                if n is not node:
                    paths = list(visited)
                    out.append((n, paths, frozenset(track_keys(paths))))

        for sp in node.paths:
            if sp.ignore or (skip is not None and sp.track == skip):
                continue
            walk_path(sp, visit, board=self.board, skip_track=skip)
        self.memo[node] = out
        return out


class Enumerator:
    """Routes of one train kind for ``corp``: raw sequences (nodes, segs)."""

    def __init__(self, corp, board, links: Links, meter: Meter, starts: list, local: bool, free=None):
        """``free(node)``: a stop that never earns nor makes a route legal for this train (a
        route ending there is worth no more than the same route without it, and that one
        is also generated)."""
        self.free = free
        self.corp = corp
        self.board = board
        self.links = links
        self.meter = meter
        self.starts = starts
        self.local = local
        self.walks = 0

    def _extend(self, nodes, segs, used_keys, used_nodes, end, state, out, first_after=-1, first=-1):
        self.walks += 1
        inner = len(nodes) > 1
        board = self.board
        corp = self.corp
        step = self.meter.step
        for li, (n, paths, keys) in enumerate(self.links(end)):
            if not inner:
                if li <= first_after:
                    continue
                first = li
            if n in used_nodes or not used_keys.isdisjoint(keys):
                continue
            if inner and paths[0].terminal:
                continue
            if len(paths) > 2 and any(p.terminal for p in paths[1:-1]):
                continue
            st = step(state, n, paths)
            if st is None:
                continue
            nodes.append(n)
            segs.append((end, paths))
            used_nodes.add(n)
            k2 = used_keys | keys
            out.append((list(nodes), list(segs), k2, st, first))
            if not (board.blocks(n, corp) or paths[-1].terminal):
                self._extend(nodes, segs, k2, used_nodes, n, st, out, first_after, first)
            used_nodes.discard(n)
            nodes.pop()
            segs.pop()

    def routes(self):
        """Yield (nodes, segs, track keys) once per distinct route.

        A route is generated from its first start node (in ``starts`` order) only: earlier
        start nodes are out of bounds for it. A start node in the middle of a route joins two
        halves walked from it, the half on the lower-numbered first link in front, so each
        route comes once."""
        board = self.board
        banned: set = set()
        for t in self.starts:
            if t in banned:
                continue
            st0 = self.meter.begin(t)
            if st0 is None:
                banned.add(t)
                continue
            if self.local:
                yield [t], [], frozenset()
            halves: list = []
            self._extend([t], [], frozenset(), banned | {t}, t, st0, halves)
            through = not board.blocks(t, self.corp)
            free = self.free
            for nodes, segs, keys, st, first in halves:
                if free is not None and free(nodes[-1]):
                    if len(nodes) == 2:
                        yield nodes, segs, keys  # two stops: the shorter one is no route
                    continue
                yield nodes, segs, keys
                if not through or segs[0][1][0].terminal:
                    continue
                other: list = []
                self._extend([t], [], keys, banned | set(nodes), t, st, other, first)
                for n2, s2, k2, _s, _f in other:
                    if s2[0][1][0].terminal or (free is not None and free(n2[-1])):
                        continue
                    front_nodes = n2[:0:-1]
                    front_segs = [(n2[i + 1], s2[i][1][::-1]) for i in range(len(s2) - 1, -1, -1)]
                    yield front_nodes + nodes, front_segs + segs, k2
            banned.add(t)


def evaluate_alone(rules, train, nodes, segs, phase=None, chain_cache=None) -> tuple[int, Any] | None:
    """(value, route) of one route run alone: the title's ``router_bound`` (an upper bound of
    what it can add to a run) or its checked revenue; None when it can never be run."""
    r = build_route(rules, train, nodes, segs, None, phase, chain_cache)
    hook = getattr(rules, "router_bound", None)
    try:
        if hook is not None:
            v = hook(r)
        else:
            v = r.revenue(recompute=True, suppress_check_route_combination=True)
    except GameError:
        return None
    if v is None:
        return None
    return v, r
