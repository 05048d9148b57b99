"""Track connectivity: walking track and the per-corporation graph.

The walkers follow the reference's rules exactly because step availability (can a
corporation token, does it have a route, which hexes may it build in) depends on them:

* a *path walk* follows track from one path across hex edges (and through Lawson
  junctions) without stopping at nodes. Within one walk an edge crossing, identified by
  ``(hex id, edge number, lane index)``, is used at most once and a junction at most
  twice (in and out). Paths already on the walk are skipped. Gauge and lanes must match
  at each crossing;
* a *node walk* starts at a node, path-walks every path of that node and continues from
  every node reached (not through terminal paths, not into nodes that block the walking
  corporation: full cities of others, offboards);
* ``converging``: the reference keeps a path (or node) marked as visited after its walk
  returns unless some track junction upstream let several paths meet at one tile exit.
  Only then are marks removed again, so the same piece of track may be reached through
  another branch. Graph computations start non-converging; chain searches for routes and
  the distance graph walk converging from the start.

:class:`TrackGraph` caches, per corporation, what a walk from all its tokens reaches;
:meth:`TrackGraph.clear` drops everything when a tile or token changes.
:class:`DistanceGraph` records the smallest number of stops needed to reach every node.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Collection, Container, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from .board import forget_route_info, unused_tokens_by_type
from .hexmap import FrozenDict
from .walk_prune import NO_LANE, Targets, gauge_ok, lanes_ok

__all__ = [
    "ABORT",
    "DistanceGraph",
    "TrackGraph",
    "hex_lookup",
    "map_hexes",
    "walk_node",
    "walk_path",
]

if sys.getrecursionlimit() < 20000:
    # walks recurse once per path and node on the way; long lines of track are deep
    sys.setrecursionlimit(20000)

ABORT = object()
"""Returned by a node-walk visitor to stop the walk from going beyond that path."""

if TYPE_CHECKING:
    from .board import Board
    from .entities import Corporation, Minor
    from .hexmap import Hex
    from .tiles import City, NodeBase, Path, Placed
    from .tokens import Token

    Entity: TypeAlias = Corporation | Minor  # (a walking corporation; graphs are kept per entity)

# what a walk carries: the board's links (hex id -> edge -> neighbour), its tiles (hex id ->
# tile) and the targets of a corporation's graph walk (None: a plain walk)
_W: TypeAlias = "tuple[Mapping[str, Mapping[int, Hex]], Mapping[str, Placed], Targets | None]"
Counter: TypeAlias = "dict[Hashable, int]"  # edge crossings and junction passes on the walk
PathVisit: TypeAlias = "Callable[[Path, dict[Path, bool], Counter, bool], object]"
NodeVisit: TypeAlias = "Callable[[Path, dict[Path, bool], dict[NodeBase, bool]], object]"
HexEdges: TypeAlias = "dict[Hex, list[int]]"
_Reach: TypeAlias = "tuple[HexEdges, dict[NodeBase, bool], dict[Path, bool]]"  # hexes, nodes, paths reached
Dist: TypeAlias = "dict[str, int]"  # fewest stops by kind of stop
# a kept whole walk (TrackGraph.keep_walks): its seed, and each start's (mandatory, optional) stops
_Kept: TypeAlias = "tuple[tuple[object, ...], tuple[tuple[int, int], ...]]"
# a corporation's whole walk: hexes, nodes, paths, reachable hexes, offered nodes and the route
# information before and after it
Walked: TypeAlias = ("tuple[HexEdges, dict[NodeBase, bool], dict[Path, bool], dict[Hex, bool], list[NodeBase], "
                     "tuple[dict[str, bool] | None, dict[str, bool]]]")


class _Complete(Exception):
    """A graph walk has seen everything it could reach."""


class _Spent(Exception):
    """A first look's walk has entered its :data:`_LOOK_PATHS` paths without finding a target."""


# how many paths a first look (:meth:`TrackGraph._walks_find` with ``probe``) enters before it
# leaves the question to the pruned walk
_LOOK_PATHS = 64


# --------------------------------------------------------------------------------------
# map access


def map_hexes(hexmap: Any) -> list[Hex]:
    """All hexes of ``hexmap`` in map order (accepts a map object, a dict or a list)."""
    hexes = getattr(hexmap, "hexes", hexmap)
    if callable(hexes):
        hexes = hexes()
    if isinstance(hexes, dict):
        return list(hexes.values())
    return list(hexes)


def hex_lookup(hexmap: Any) -> Callable[[str], Hex | None]:
    """A function hex id -> Hex (None when unknown) for ``hexmap``."""
    f: Callable[[str], Hex | None] | None = getattr(hexmap, "hex_by_id", None)
    if callable(f):
        return f
    by_id: dict[str, Hex] | None = getattr(hexmap, "hexes_by_id", None)
    if by_id is None:
        by_id = {h.id: h for h in map_hexes(hexmap)}
    return by_id.get


# --------------------------------------------------------------------------------------
# walkers


def walk_path(path: Path, visit: PathVisit, *, board: Board, visited: dict[Path, bool] | None = None,
              counter: Counter | None = None, skip_paths: Container[Path] | None = None, skip_track: str | None = None,
              converging: bool = True, skip: int | None = None, jskip: NodeBase | None = None) -> None:
    """Path walk from ``path`` on ``board`` (its tiles and links now); ``visit(path, visited,
    counter, converging)`` is called for every path reached (``visited`` is the dict of paths
    on the current walk, in walk order, when ``converging``)."""
    W: _W = (board.state.links, board.state.tile_at, None)
    _walk_path(path, skip, jskip, {} if visited is None else visited, skip_paths,
               {} if counter is None else counter, skip_track, converging, visit, W)


def _walk_path(path: Path, skip: int | None, jskip: NodeBase | None, visited: dict[Path, bool],
               skip_paths: Container[Path] | None, counter: Counter, skip_track: str | None, converging: bool,
               visit: PathVisit, W: _W) -> None:
    if path in visited:
        return
    if skip_paths and path in skip_paths:
        return
    junction = path.junction
    if junction is not None and (path.terminal or counter.get(junction, 0) > 1):
        return
    if path.track == skip_track:
        return
    tile = path.tile
    hid = path.hex.id
    edges = path.edges
    for e in edges:
        if counter.get((hid, e.num, e.lanes[1]), 0) > 0:
            return

    if converging and W[2] is not None and W[2].hopeless(path, skip, visited, counter):
        return

    visited[path] = True
    if junction is not None:
        counter[junction] = counter.get(junction, 0) + 1

    visit(path, visited, counter, converging)

    if junction is not None and junction is not jskip:
        for jp in junction.paths:
            _walk_path(jp, None, junction, visited, skip_paths, counter, skip_track, converging, visit, W)

    if edges:
        neighbors = W[0][hid]
        tile_at = W[1]
        for e in edges:
            num = e.num
            if num == skip:
                continue
            nb = neighbors.get(num)
            if nb is None:
                continue
            key = (hid, num, e.lanes[1])
            counter[key] = counter.get(key, 0) + 1
            np_edge = (num + 3) % 6
            conv = converging or tile.converging_exit(num)
            lanes = e.lanes
            track = path.track
            gauge_free = path.ignore_gauge_walk
            # (``Placed.paths_at`` read in place, and ``gauge_ok`` asked only unless both tracks are
            # broad: the other walks below step across an edge the same way)
            for np in tile_at[nb.id]._view.by_edge.get(np_edge, ()):
                if lanes != NO_LANE or np.exit_lanes.get(np_edge) != NO_LANE:
                    if not lanes_ok(lanes, np.exit_lanes.get(np_edge)):
                        continue
                if not gauge_free and (track != "broad" or np.track != "broad") and not gauge_ok(track, np.track):
                    continue
                _walk_path(np, np_edge, None, visited, skip_paths, counter, skip_track, conv, visit, W)
            counter[key] -= 1

    if converging:
        visited.pop(path, None)
    if junction is not None:
        counter[junction] -= 1


def walk_node(node: NodeBase, visit: NodeVisit, *, board: Board, visited: dict[NodeBase, bool] | None = None,
              corporation: Entity | None = None, visited_paths: dict[Path, bool] | None = None,
              skip_paths: Container[Path] | None = None, counter: Counter | None = None,
              skip_track: str | None = None, converging: bool = True) -> None:
    """Node walk from ``node`` on ``board``: ``visit(path, visited_paths, visited_nodes)`` for
    every path reached; returning :data:`ABORT` stops the walk beyond that path. With
    ``corporation``, nodes that block it are not entered."""
    W: _W = (board.state.links, board.state.tile_at, None)
    _walk_node(node, {} if visited is None else visited, corporation,
               {} if visited_paths is None else visited_paths, skip_paths,
               {} if counter is None else counter, skip_track, converging, visit, W, board.blocks)


def _walk_node(node: NodeBase, visited: dict[NodeBase, bool], corp: Entity | None, visited_paths: dict[Path, bool],
               skip_paths: Container[Path] | None, counter: Counter, skip_track: str | None, converging: bool,
               visit: NodeVisit, W: _W, blocks: Callable[[NodeBase, Entity], bool]) -> None:
    if node in visited:
        return
    visited[node] = True
    if W[2] is not None:
        W[2].nodes = visited

    def on_path(path: Path, vp: dict[Path, bool], ct: Counter, conv: bool) -> None:
        if visit(path, vp, visited) is ABORT:
            return
        if path.terminal:
            return
        for nxt in path.nodes:
            if nxt is node:
                continue
            if corp is not None and blocks(nxt, corp):
                continue
            _walk_node(nxt, visited, corp, vp, skip_paths, ct, skip_track, converging or conv, visit, W, blocks)

    for node_path in node.paths:
        if node_path.track == skip_track or node_path.ignore:
            continue
        _walk_path(node_path, None, None, visited_paths, skip_paths, counter, skip_track, converging, on_path, W)

    if converging:
        visited.pop(node, None)


# --------------------------------------------------------------------------------------
# the corporation graph


def _near_targets(starts: Iterable[NodeBase], targets_in: Callable[[Collection[Path]], set[Path]],
                  skip_paths: Container[Path] | None, skip_track: str | None, W: _W) -> bool:
    """A sufficient test for :meth:`Graph._walks_find`: is a target among the paths a node walk
    from one of ``starts`` enters first: a start's own paths, and the paths across one of their
    edges (entered with nothing else counted against them; a path the walk visits earlier by
    another way is visited all the same). ``targets_in`` picks targets path by path. False
    says nothing: the walks decide."""
    links, tile_at = W[0], W[1]
    near: dict[Path, bool] = {}
    for start in starts:
        for p in start.paths:
            if p.track == skip_track or p.ignore or (skip_paths and p in skip_paths) \
                    or (p.junction is not None and p.terminal):
                continue
            near[p] = True
            # (the paths across p's edges whose lanes and gauge fit, as _walk_path steps across them)
            nbs = links[p.hex.id]
            gauge_free = p.ignore_gauge_walk
            track = p.track
            for e in p.edges:
                num = e.num
                nb = nbs.get(num)
                if nb is None:
                    continue
                np_edge = (num + 3) % 6
                lanes = e.lanes
                for np in tile_at[nb.id]._view.by_edge.get(np_edge, ()):
                    if lanes != NO_LANE or np.exit_lanes.get(np_edge) != NO_LANE:
                        if not lanes_ok(lanes, np.exit_lanes.get(np_edge)):
                            continue
                    if not gauge_free and (track != "broad" or np.track != "broad") and not gauge_ok(track, np.track):
                        continue
                    if np.track == skip_track or (skip_paths and np in skip_paths) \
                            or (np.junction is not None and np.terminal):
                        continue
                    near[np] = True
    return bool(near) and bool(targets_in(near))


def _taught_routes(known: Mapping[str, bool] | None, counts: Iterable[tuple[int, int]]) -> dict[str, bool]:
    """The route information a whole walk leaves, starting from ``known``, given what each
    start's walk found: (mandatory stops, optional stops)."""
    routes = dict(known) if known is not None else {}
    for mandatory, optional in counts:
        if routes.get("route_train_purchase"):
            break
        if mandatory > 1:
            routes["route_available"] = True
            routes["route_train_purchase"] = True
        elif mandatory == 1 and optional > 0:
            routes["route_available"] = True
    return routes


class TrackGraph:
    """What each corporation reaches from its tokens; cached per corporation until
    :meth:`clear`.

    Options (reference semantics): ``skip_track`` (a gauge not walked, e.g. "narrow"),
    ``check_tokens`` (consult ``skip_token``), ``home_as_token`` (home hexes/cities count as
    tokens), ``no_blocking`` (full cities do not stop walks).

    Hooks (all optional callables; the defaults are the base game's):

    * ``city_tokened_by(city, corp)`` -- does the corporation start from this city
      (default ``city.tokened_by(corp)``);
    * ``for_graph_city_tokened_by(city, corp, graph)`` -- extra start cities (default none);
    * ``skip_token(graph, corp, city)`` -- ignore a token (only with ``check_tokens``);
    * ``skip_paths(corp)`` -- a container of paths never walked (default none);
    * ``home_hexes(corp)`` -> {hex: [edges]} and ``home_nodes(corp)`` -> iterable of nodes,
      used with ``home_as_token`` (default: ``corp.coordinates`` and ``corp.city``);
    * ``token_ability_nodes(corp)`` -> nodes a token ability may teleport to (added as
      connected and offered to :meth:`can_token`);
    * ``teleports(corp)`` -> iterable of ``(hex, used)``: teleport abilities; the hex counts
      as connected on all sides and its cities as connected nodes (offered to
      :meth:`can_token` when ``used``).
    """

    DERIVED = True  # a copy of a game recomputes it

    def __init__(self, board: Board, *, skip_track: str | None = None, check_tokens: bool = False,
                 home_as_token: bool = False, no_blocking: bool = False,
                 city_tokened_by: Callable[[City, Entity], object] | None = None,
                 for_graph_city_tokened_by: Callable[[City, Entity, TrackGraph], object] | None = None,
                 skip_token: Callable[[TrackGraph, Entity, City], object] | None = None,
                 skip_paths: Callable[[Entity], Container[Path] | None] | None = None,
                 home_hexes: Callable[[Entity], Mapping[Hex, Iterable[int]]] | None = None,
                 home_nodes: Callable[[Entity], Iterable[NodeBase]] | None = None,
                 token_ability_nodes: Callable[[Entity], Iterable[NodeBase] | None] | None = None,
                 teleports: Callable[[Entity], Iterable[tuple[Hex, bool]] | None] | None = None,
                 memory_key: Hashable | None = None):
        self.board = board
        self.memory_key = memory_key
        self._local_routes: dict[Entity, dict[str, bool]] = {}
        self.skip_track = skip_track
        self.check_tokens = bool(check_tokens)
        self.home_as_token = home_as_token
        self.no_blocking = bool(no_blocking)
        self._city_tokened_by = city_tokened_by
        self._for_graph = for_graph_city_tokened_by
        self._skip_token = skip_token
        self._skip_paths = skip_paths
        self._home_hexes = home_hexes
        self._home_nodes = home_nodes
        self._token_ability_nodes = token_ability_nodes
        self._teleports = teleports
        self._connected_hexes: dict[Entity, HexEdges] = {}
        self._connected_nodes: dict[Entity, dict[NodeBase, bool]] = {}
        self._connected_paths: dict[Entity, dict[Path, bool]] = {}
        self._reachable_hexes: dict[Entity, dict[Hex, bool]] = {}
        self._offered: dict[Entity, list[NodeBase]] = {}
        # per corporation walked whole: the route information it started from and the one it
        # left (see :meth:`walked` and :meth:`adopt`)
        self._walked_routes: dict[Entity, tuple[dict[str, bool] | None, dict[str, bool]]] = {}
        self._tokenable_cities: dict[Entity, list[NodeBase]] = {}
        self._can_token: dict[tuple[Entity, bool], bool] = {}
        self._by_token: dict[Entity, dict[City, _Reach]] = {}
        # corporations whose can_token answer was found without the whole walk, and the
        # board version then: the whole walk is owed before a token moves (see settle)
        self._pending: dict[Entity, bool] = {}
        self._pending_at: Hashable | None = None
        # corporations whose whole walk is kept but whose route information was put back to
        # what it was before the walk taught it (see :meth:`unteach`): taught again when asked
        self._untaught: dict[Entity, bool] = {}
        # with :meth:`keep_walks`: per corporation walked whole, where it started (its seed) and
        # what each start's walk found of its stops, to carry the walk to a new board version
        # (:meth:`rebase`) and teach its routes from any route information (:meth:`_teach`);
        # and the board's maps the walks were made from
        self._kept: dict[Entity, _Kept] | None = None
        self._basis: tuple[Any, Any, Any, Any] | None = None
        # with ``keep_walks(lazy_seeds=True)``: kept walks whose start is compared with the
        # board's only when their corporation is next asked about (see :meth:`_reseeded`)
        self._lazy_seeds = False
        self._reseed: dict[Entity, bool] = {}

    # -- cache control ---------------------------------------------------------------

    # the route information of each corporation is board state (``BoardState.route_info``):
    # like the reference, once a corporation is known to have a train-purchase route that
    # is remembered when tiles or tokens change
    # (a graph without ``memory_key`` keeps it to itself: a derived view for live play)
    @property
    def _routes(self) -> dict[Entity, dict[str, bool]]:
        if self.memory_key is None:
            return self._local_routes
        got: dict[Entity, dict[str, bool]] = self.board.state.route_info.get(self.memory_key, {})
        return got

    @_routes.setter
    def _routes(self, value: dict[Entity, dict[str, bool]]) -> None:
        # plain dicts (never changed in place, only replaced): their keys are corporations,
        # state objects, so a copy of the game must copy them; a shared (catalogue) dict would
        # leave a copy, or a game restored from a snapshot, keyed by another game's corporations.
        # Each corporation's information (flag name -> bool) is a frozen dict, which copies share
        routes: dict[Entity, dict[str, bool]] = {c: FrozenDict(r) for c, r in value.items()}
        if self.memory_key is None:
            self._local_routes = routes
            return
        st = self.board.state
        info = {**st.route_info, self.memory_key: routes}
        if not routes:  # (nothing known is no entry: the same state however it was reached)
            del info[self.memory_key]
        st.route_info = info

    def _remember(self, corporation: Entity, info: dict[str, bool]) -> None:
        self._routes = {**self._routes, corporation: info}

    def clear(self) -> None:
        """Forget all results (a tile or token changed). The route information kept in the
        board state is trimmed by the board itself when it changes
        (:func:`forget_route_info`)."""
        self._connected_hexes.clear()
        self._connected_nodes.clear()
        self._connected_paths.clear()
        self._reachable_hexes.clear()
        self._offered.clear()
        self._walked_routes.clear()
        self._tokenable_cities.clear()
        self._can_token.clear()
        self._by_token.clear()
        self._pending.clear()
        self._untaught = {}
        self._reseed = {}
        if self._kept is not None:
            self._kept = {}
        if self.memory_key is None:
            self._local_routes = forget_route_info(self._local_routes)

    def clear_graph_for(self, corporation: Entity) -> None:
        """:meth:`clear`, and forget that corporation's route information too."""
        self.clear()
        self._routes = {c: r for c, r in self._routes.items() if c is not corporation}

    def clear_all(self) -> None:
        self.clear()
        self._routes = {}

    clear_graph_for_all = clear_all

    def keep_walks(self, lazy_seeds: bool = False) -> None:
        """Carry whole walks over to new board versions that did not change what they walked
        (:meth:`rebase`) instead of dropping them all. ``lazy_seeds``: a kept walk's start is
        compared with the board's when its corporation is next asked about, not at each
        rebase (the walks of corporations not asked about cost nothing to carry)."""
        self._kept = {}
        self._lazy_seeds = bool(lazy_seeds)
        st = self.board.state
        self._basis = (st.tile_at, st.links, st.tokens, st.extra_tokens)

    @property
    def keeps_walks(self) -> bool:
        """Are whole walks carried over to new board versions (:meth:`keep_walks`)?"""
        return self._kept is not None

    def _dirty_hexes(self) -> set[Hex] | None:
        """The hexes whose tile, links or city tokens differ from the maps the walks were made
        from (None: cannot tell)."""
        basis = self._basis
        st = self.board.state
        if basis is None:
            return None
        ids: set[str] = set()
        for old, new in ((basis[0], st.tile_at), (basis[1], st.links)):
            if old is not new:
                get = old.get
                ids.update([h for h, v in new.items() if get(h) is not v])
                ids.update(h for h in old if h not in new)
        out = {hx for hx in map(self.board.hex_by_id, ids) if hx is not None}
        for was, now in ((basis[2], st.tokens), (basis[3], st.extra_tokens)):
            if was is not now:
                for city in {*was, *now}:
                    if was.get(city) is not now.get(city):
                        if city.hex is None:
                            return None
                        out.add(city.hex)
        return out

    def rebase(self, known_dirty: tuple[set[Hex] | None] | None = None) -> None:
        """The board took a new version: like :meth:`clear`, but the whole walk of a
        corporation that reached no changed hex and starts as before is kept (a fresh walk
        would find the same); it teaches its routes again when asked (:meth:`unteach`).
        ``known_dirty``: :meth:`_dirty_hexes` already found (by a graph of the same board
        carried from the same maps), in a 1-tuple."""
        kept = self._kept
        dirty = (known_dirty[0] if known_dirty is not None else self._dirty_hexes()) if kept else None
        walks = {c: (self._connected_hexes[c], self._connected_nodes[c], self._connected_paths[c],
                     self._reachable_hexes[c], self._offered[c], self._walked_routes[c])
                 for c in (kept if kept is not None and dirty is not None else ())
                 if c in self._connected_hexes and dirty is not None and dirty.isdisjoint(self._connected_hexes[c])}
        self.clear()
        st = self.board.state
        self._basis = (st.tile_at, st.links, st.tokens, st.extra_tokens)
        if kept is None:
            return
        self._kept = {}
        if dirty is None:
            return
        for c, w in walks.items():
            rec = kept[c]
            if self._lazy_seeds:
                self._reseed[c] = True
            elif self._seed_record(c) != rec[0]:
                continue
            self._kept[c] = rec
            (self._connected_hexes[c], self._connected_nodes[c], self._connected_paths[c],
             self._reachable_hexes[c], self._offered[c], self._walked_routes[c]) = w
            self._untaught[c] = True

    def _seed_record(self, corporation: Entity) -> tuple[object, ...]:
        hexes, nodes, starts, offered = self._seed(corporation, None)
        skip_paths = self._skip_paths(corporation) if self._skip_paths is not None else None
        return (tuple((hx, tuple(e)) for hx, e in hexes.items()), tuple(nodes), tuple(starts), tuple(offered),
                skip_paths)

    def unteach(self) -> None:
        """The route information was put back to what it was before some walks of this graph
        taught it (a question that must leave no trace, ``Board.restore_route_info``): the
        whole walks are kept (what they reach does not depend on it) and each teaches its
        routes again when its corporation is next asked about, as a fresh graph's walk would
        then (:meth:`_teach`). The answers built on the walks are dropped."""
        self._untaught = dict.fromkeys(self._connected_hexes, True)
        self._tokenable_cities.clear()
        self._can_token.clear()
        self._by_token.clear()
        self._pending.clear()

    def _teach(self, corporation: Entity) -> bool:
        """Teach the kept whole walk's routes of ``corporation`` (see :meth:`unteach`) to the
        route information as it is now, as the walk would. With :meth:`keep_walks` each start's
        stops are known, so it teaches from any information; else only from the one it started
        from: when that is not the one now, the walk is dropped (False: the caller walks again)."""
        del self._untaught[corporation]
        if not self._reseeded(corporation):
            return False
        start, routes = self._walked_routes[corporation]
        known = self._routes.get(corporation)
        kept = self._kept.get(corporation) if self._kept is not None else None
        if kept is not None:
            routes = _taught_routes(known, kept[1])
            self._walked_routes[corporation] = (None if known is None else dict(known), dict(routes))
        elif (None if known is None else dict(known)) != start:
            for cache in (self._connected_hexes, self._connected_nodes, self._connected_paths,
                          self._reachable_hexes, self._offered, self._walked_routes):
                cache.pop(corporation, None)
            return False
        if known is None or dict(known) != routes:
            self._remember(corporation, dict(routes))
        return True

    def _reseeded(self, corporation: Entity) -> bool:
        """Does the kept walk of ``corporation`` (carried by a lazy :meth:`rebase`) start where
        a walk now would? If not it is dropped (False)."""
        if self._reseed.pop(corporation, None) is None or self._kept is None:
            return True
        kept = self._kept.get(corporation)
        if kept is not None and self._seed_record(corporation) == kept[0]:
            return True
        self._kept.pop(corporation, None)
        self._untaught.pop(corporation, None)
        for cache in (self._connected_hexes, self._connected_nodes, self._connected_paths,
                      self._reachable_hexes, self._offered, self._walked_routes):
            cache.pop(corporation, None)
        return False

    def _whole(self, corporation: Entity) -> None:
        """Make sure the whole walk of ``corporation`` is known and has taught its routes."""
        if corporation in self._untaught:
            if self._teach(corporation):
                return
        elif corporation in self._connected_hexes:
            return
        self._compute(corporation)

    # -- a walk handed over ------------------------------------------------------------

    def walked(self, corporation: Entity) -> Walked | None:
        """What the whole walk of ``corporation`` found, if it was done since the last
        :meth:`clear`: to be handed to another graph of the same board by :meth:`adopt`."""
        routes = self._walked_routes.get(corporation)
        if routes is None or corporation not in self._connected_hexes or corporation in self._untaught:
            return None
        return (self._connected_hexes[corporation], self._connected_nodes[corporation],
                self._connected_paths[corporation], self._reachable_hexes[corporation],
                self._offered[corporation], routes)

    def adopt(self, corporation: Entity, walk: Walked) -> bool:
        """Take ``walk`` (:meth:`walked` of a graph of this very board state) as this graph's
        whole walk of ``corporation``, leaving the route information as that walk would:
        only when the graph has not walked it yet and the corporation's route information is
        the one the walk started from (so the walk here would find the same). True if taken."""
        if corporation in self._connected_hexes:
            return False
        hexes, nodes, paths, reachable, offered, (start, routes) = walk
        known = self._routes.get(corporation)
        if (None if known is None else dict(known)) != start:
            return False
        if known is None or dict(known) != routes:
            self._remember(corporation, dict(routes))
        self._walked_routes[corporation] = (start, dict(routes))
        self._connected_hexes[corporation] = hexes
        self._connected_nodes[corporation] = nodes
        self._connected_paths[corporation] = paths
        self._reachable_hexes[corporation] = reachable
        self._offered[corporation] = offered
        return True

    # -- queries ---------------------------------------------------------------------

    def connected_hexes(self, corporation: Entity) -> HexEdges:
        """{hex: [edges]}: hexes where the corporation may lay or upgrade track and the
        edges through which it reaches them."""
        r = self._connected_hexes.get(corporation)
        if r is None or self._untaught:
            self._whole(corporation)
            r = self._connected_hexes[corporation]
        return r

    def connected_nodes(self, corporation: Entity) -> dict[NodeBase, bool]:
        """{node: True}: nodes the corporation reaches (where it could token)."""
        r = self._connected_nodes.get(corporation)
        if r is None or self._untaught:
            self._whole(corporation)
            r = self._connected_nodes[corporation]
        return r

    def connected_paths(self, corporation: Entity) -> dict[Path, bool]:
        """{path: True}: track the corporation reaches."""
        r = self._connected_paths.get(corporation)
        if r is None or self._untaught:
            self._whole(corporation)
            r = self._connected_paths[corporation]
        return r

    def reachable_hexes(self, corporation: Entity) -> dict[Hex, bool]:
        """{hex: True}: hexes holding track the corporation reaches (where it can run)."""
        r = self._reachable_hexes.get(corporation)
        if r is None or self._untaught:
            self._whole(corporation)
            r = self._reachable_hexes[corporation]
        return r

    def route_info(self, corporation: Entity) -> dict[str, bool]:
        """``{"route_available": bool, "route_train_purchase": bool}`` (keys may be missing
        = False). Available: from one token at least two mandatory stops, or one mandatory
        and one optional, are reachable; train purchase: two mandatory stops."""
        r = self._routes.get(corporation)
        if r is None:
            if not (corporation in self._untaught and self._teach(corporation)) \
                    and not self._taught_early(corporation):
                self._compute(corporation)
            r = self._routes.get(corporation, {})
        return r

    def route_available(self, corporation: Entity) -> bool:
        return bool(self.route_info(corporation).get("route_available"))

    def route_train_purchase(self, corporation: Entity) -> bool:
        return bool(self.route_info(corporation).get("route_train_purchase"))

    def can_token(self, corporation: Entity, cheater: bool = False, same_hex_allowed: bool = False,
                  tokens: Iterable[Token] | None = None) -> bool:
        """Is there a reached city where the corporation could place a token (for free)?
        Like the reference, the answer is cached per corporation (and ``cheater``)."""
        key = (corporation, bool(cheater))
        r = self._can_token.get(key)
        if r is not None:
            return r
        board = self.board
        # (the corporation's unused tokens, one per type, as the board would find them for each
        # city asked: found once, nothing changes them during the question)
        mine = unused_tokens_by_type(corporation) if tokens is None else tokens

        def wanted(node: NodeBase) -> bool:
            return node.is_city and board.tokenable(node, corporation, free=True, tokens=mine, cheater=cheater,
                                                    same_hex_allowed=same_hex_allowed)

        if self._reseed:
            self._reseeded(corporation)
        offered = self._offered.get(corporation)
        known = self._routes.get(corporation)
        silent = False
        if offered is None and (known is None or not known.get("route_train_purchase")) and self._kept is None:
            if self._first_start_purchases(corporation):
                # the whole walk's first start finds a train-purchase route near its token: what
                # the walk teaches is known without it (taught now, as the walk would), and the
                # rest is the walk a known train-purchase route lets the graph owe
                self._teach_purchase(corporation, known)
                known = self._routes.get(corporation)
            elif self._teaches_nothing(corporation):
                # no start can reach what would teach a route: the walk leaves the information
                # as it is (an entry, empty, if there was none), taught now; the rest owed
                if known is None:
                    self._remember(corporation, {})
                silent = True
        untaught = offered is not None and corporation in self._untaught
        if silent or ((offered is None or untaught) and known is not None and known.get("route_train_purchase")):
            # a whole walk would tell nothing new of its routes (a train-purchase route is
            # remembered): walk only until a tokenable city is found (a kept walk untaught
            # has the answer; it teaches when settled, as a walk cut short is done then)
            r = any(wanted(n) for n in offered) if offered is not None else self._offers_any(corporation, wanted)
            self._pending[corporation] = True
            self._pending_at = board.state.version
            board.unsettled_graph = self
        else:
            r = any(wanted(n) for n in self._offered_nodes(corporation))
        self._can_token[key] = r
        return r

    def teach_as_can_token(self, corporation: Entity, cheater: bool = False) -> None:
        """Leave the route information as :meth:`can_token` would, without its answer: for a
        step whose list asks the token question only for its side effect (the round asked
        about another kind). The same branches as there, the tokenable cities never looked
        at: the answer known at this version, nothing; a first start finding a train-purchase
        route, or no start able to teach one, what :meth:`can_token` teaches then (the walk it
        would cut short teaches nothing more, so none is owed); else the whole walk."""
        if (corporation, bool(cheater)) in self._can_token:
            return
        if self._reseed:
            self._reseeded(corporation)
        offered = self._offered.get(corporation)
        known = self._routes.get(corporation)
        if offered is None and (known is None or not known.get("route_train_purchase")) and self._kept is None:
            if self._first_start_purchases(corporation):
                self._teach_purchase(corporation, known)
                return
            if self._teaches_nothing(corporation):
                if known is None:
                    self._remember(corporation, {})
                return
        if known is not None and known.get("route_train_purchase") and (
                offered is None or corporation in self._untaught):
            return
        self._offered_nodes(corporation)

    def _teach_purchase(self, corporation: Entity, known: Mapping[str, bool] | None) -> None:
        """Teach what a whole walk teaches when its first start finds a train-purchase route
        (:meth:`_first_start_purchases`): both flags set on what was known, in that order."""
        routes = dict(known) if known is not None else {}
        routes["route_available"] = True
        routes["route_train_purchase"] = True
        self._remember(corporation, routes)

    def _teaches_nothing(self, corporation: Entity) -> bool:
        """Can no start's walk of :meth:`_compute` teach a route: among the stops of all it
        could reach (its :meth:`_closure`, a superset of the stops the walk counts) at most one
        mandatory and, with one, no optional? (A sufficient test: False says nothing.)"""
        _hexes, _nodes, starts, _offered = self._seed(corporation, None, False)
        walk_corp = None if self.no_blocking else corporation
        skip_paths = self._skip_paths(corporation) if self._skip_paths is not None else None
        start_set = dict.fromkeys(starts, True)
        board = self.board
        W: _W = (board.state.links, board.state.tile_at, None)
        for start in starts:
            stops: dict[NodeBase, str] = {}
            for p in self._closure(start, start_set, walk_corp, skip_paths, self.skip_track, W):
                for n in p.nodes:
                    kind = getattr(n, "route", None)
                    if kind == "mandatory" or kind == "optional":
                        stops[n] = kind
            mandatory = sum(1 for k in stops.values() if k == "mandatory")
            if mandatory > 1 or (mandatory == 1 and len(stops) > 1):
                return False
        return True

    def _taught_early(self, corporation: Entity) -> bool:
        """:meth:`route_info` without the whole walk, for a corporation not walked and no
        route information known: when the walk's first start finds a train-purchase route
        (:meth:`_first_start_purchases`), teach what the walk would and owe the rest of it,
        as :meth:`can_token` does (done by :meth:`settle` before a token moves at this board
        version, dropped at a new version). False: not known so, the caller walks."""
        board = self.board
        if self._kept is not None or corporation in self._offered \
                or board.unsettled_graph not in (None, self) or not self._first_start_purchases(corporation):
            return False
        self._teach_purchase(corporation, self._routes.get(corporation))
        self._pending[corporation] = True
        self._pending_at = board.state.version
        board.unsettled_graph = self
        return True

    def _first_start_purchases(self, corporation: Entity) -> bool:
        """Does the first start of :meth:`_compute`'s walks reach two mandatory stops among the
        paths it enters first (its own paths and those across one of their edges, as in
        :func:`_near_targets`)? Then that walk teaches a train-purchase route (a sufficient
        test: False says nothing)."""
        _hexes, _nodes, starts, _offered = self._seed(corporation, None, False)
        if not starts:
            return False
        skip_paths = self._skip_paths(corporation) if self._skip_paths is not None else None
        board = self.board
        W: _W = (board.state.links, board.state.tile_at, None)
        found: set[NodeBase] = set()

        def mandatory_in(near: Collection[Path]) -> set[Path]:
            for p in near:
                for n in p.nodes:
                    if getattr(n, "route", None) == "mandatory":
                        found.add(n)
            return {next(iter(near))} if len(found) > 1 else set()

        if _near_targets(starts[:1], mandatory_in, skip_paths, self.skip_track, W):
            return True
        # farther: the first start's own walk, pruned, stopped at the first path with a
        # mandatory stop other than the start (the walk enters the start's path first, so a
        # mandatory start is among the stops that walk counts)
        start = starts[0]
        if getattr(start, "route", None) != "mandatory":
            return False

        def other_mandatory(p: Path) -> bool:
            return any(n is not start and getattr(n, "route", None) == "mandatory" for n in p.nodes)

        return self._walks_find(corporation, starts[:1], lambda reach: {p for p in reach if other_mandatory(p)},
                                keep_off=starts, probe=other_mandatory)

    def settle(self) -> None:
        """Do the whole walks that :meth:`can_token` cut short, as the board is now. Called
        before a token moves without a new board version: a graph that keeps its answers past
        such a change (quirk stale-graph) must know what a whole walk before it found."""
        pending, self._pending = self._pending, {}
        if not pending or self._pending_at != self.board.state.version:
            return
        for corporation in pending:
            if corporation in self._untaught or corporation not in self._offered:
                self._whole(corporation)

    def forget_pending(self) -> None:
        """Drop the whole walks :meth:`can_token` cut short, unwalked: for a board about to take a
        new version (a tile or a token laid), after which every answer of this graph is
        forgotten. A cut walk leaves the route information as it is (it is only cut when a
        train-purchase route is already known), so nothing a whole walk would find outlives
        the change."""
        self._pending = {}

    def tokenable_cities(self, corporation: Entity) -> list[NodeBase]:
        """Reached cities where the corporation could place a token (free), in walk order."""
        r = self._tokenable_cities.get(corporation)
        if r is not None:
            return r
        out = [n for n in dict.fromkeys(self._offered_nodes(corporation))
               if n.is_city and self.board.tokenable(n, corporation, free=True)]
        if out:
            self._tokenable_cities[corporation] = out
        return out

    def connected_hexes_by_token(self, corporation: Entity, token_city: City) -> HexEdges:
        return self._token_result(corporation, token_city)[0]

    def connected_nodes_by_token(self, corporation: Entity, token_city: City) -> dict[NodeBase, bool]:
        return self._token_result(corporation, token_city)[1]

    def connected_paths_by_token(self, corporation: Entity, token_city: City) -> dict[Path, bool]:
        return self._token_result(corporation, token_city)[2]

    # -- computation -----------------------------------------------------------------

    def _closure(self, start: NodeBase, starts: Container[NodeBase], corp: Entity | None,
                 skip_paths: Container[Path] | None, skip_track: str | None, W: _W) -> set[Path]:
        """The paths a node walk from ``start`` can reach, ignoring the walk's rules against
        crossing an edge or a junction twice: a superset of what it reaches."""
        links, tile_at = W[0], W[1]
        blocks = self.board.blocks
        out: set[Path] = set()
        todo: list[Path] = []
        seen_nodes = {start}

        # (a path is added unless taken already, on the skipped track, skipped, or a junction's
        # terminal; inline below)
        for p in start.paths:
            if not p.ignore and p not in out and p.track != skip_track \
                    and not (skip_paths and p in skip_paths) and not (p.junction is not None and p.terminal):
                out.add(p)
                todo.append(p)
        while todo:
            p = todo.pop()
            j = p.junction
            if j is not None:
                for jp in j.paths:
                    if jp not in out and jp.track != skip_track and not (skip_paths and jp in skip_paths) \
                            and not (jp.junction is not None and jp.terminal):
                        out.add(jp)
                        todo.append(jp)
            # (the paths across p's edges whose lanes and gauge fit, as _walk_path steps across
            # them, in its order; one already taken is passed over before they are asked)
            nbs = links[p.hex.id]
            gauge_free = p.ignore_gauge_walk
            track = p.track
            for e in p.edges:
                num = e.num
                nb = nbs.get(num)
                if nb is None:
                    continue
                np_edge = (num + 3) % 6
                lanes = e.lanes
                for np in tile_at[nb.id]._view.by_edge.get(np_edge, ()):
                    if np in out:
                        continue
                    if lanes != NO_LANE or np.exit_lanes.get(np_edge) != NO_LANE:
                        if not lanes_ok(lanes, np.exit_lanes.get(np_edge)):
                            continue
                    if not gauge_free and (track != "broad" or np.track != "broad") and not gauge_ok(track, np.track):
                        continue
                    if np.track == skip_track or (skip_paths and np in skip_paths) \
                            or (np.junction is not None and np.terminal):
                        continue
                    out.add(np)
                    todo.append(np)
            if p.terminal:
                continue
            for n in p.nodes:
                if n in seen_nodes or n in starts or (corp is not None and blocks(n, corp)):
                    continue
                seen_nodes.add(n)
                for q in n.paths:
                    if not q.ignore and q not in out and q.track != skip_track \
                            and not (skip_paths and q in skip_paths) and not (q.junction is not None and q.terminal):
                        out.add(q)
                        todo.append(q)
        return out

    def _offered_nodes(self, corporation: Entity) -> list[NodeBase]:
        r = self._offered.get(corporation)
        if r is None or self._untaught:
            self._whole(corporation)
            r = self._offered[corporation]
        return r

    def _token_result(self, corporation: Entity, token_city: City) -> _Reach:
        per = self._by_token.get(corporation)
        if per is None or token_city not in per:
            self._compute(corporation)
            # replaced, not changed in place (a stale graph's copies share the old one)
            per = dict(self._by_token.get(corporation, {}))
            for city in self._start_cities(corporation):
                if city not in per:
                    per[city] = self._compute(corporation, one_token=city)
            self._by_token[corporation] = per
        return per.get(token_city, ({}, {}, {}))

    def _tokened(self, city: City, corporation: Entity) -> bool:
        if self._city_tokened_by is not None:
            if self._city_tokened_by(city, corporation):
                return True
        elif self.board.tokened_by(city, corporation):
            return True
        return self._for_graph is not None and bool(self._for_graph(city, corporation, self))

    def _start_cities(self, corporation: Entity, one_token: City | None = None) -> list[City]:
        out: list[City] = []
        skip = self._skip_token if self.check_tokens else None
        if self._city_tokened_by is None and self._for_graph is None:
            # the board's own token question only: its cities with the corporation's tokens
            for city in self.board.token_cities().get(corporation, ()):
                if one_token is not None and city is not one_token:
                    continue
                if skip is not None and skip(self, corporation, city):
                    continue
                out.append(city)
            return out
        for _hx, tile in self.board.tiles():
            for city in tile.cities:
                if one_token is not None and city is not one_token:
                    continue
                if not self._tokened(city, corporation):
                    continue
                if skip is not None and skip(self, corporation, city):
                    continue
                out.append(city)
        return out

    def _default_home(self, corporation: Entity) -> tuple[list[Hex], list[NodeBase]]:
        coords = getattr(corporation, "coordinates", None)
        if not coords:
            return [], []
        if isinstance(coords, str):
            coords = [coords]
        hexes = [h for h in (self.board.hex_by_id(c) for c in coords) if h is not None]
        idx = getattr(corporation, "city", None)
        nodes: list[NodeBase] = []
        for hx in hexes:
            if idx is not None:
                cities = self.board.tile(hx).cities
                for i in (idx if isinstance(idx, (list, tuple)) else [idx]):
                    if 0 <= i < len(cities):
                        nodes.append(cities[i])
            else:
                nodes.extend(self.board.tile(hx).city_towns)
        return hexes, nodes

    def _seed(self, corporation: Entity, one_token: City | None, hexes_too: bool = True
              ) -> tuple[dict[Hex, dict[int, bool]], dict[NodeBase, bool], list[NodeBase], list[NodeBase]]:
        """Where the corporation's walks start: the hexes and nodes connected before any walk,
        the start nodes (its token cities, its home with ``home_as_token``) and the nodes
        offered without a walk (token abilities, used teleports). ``hexes_too`` False: the
        hexes are left out (empty: for a caller that reads only the starts and offered)."""
        hexes: dict[Hex, dict[int, bool]] = {}
        nodes: dict[NodeBase, bool] = {}
        offered: list[NodeBase] = []

        board = self.board
        for city in self._start_cities(corporation, one_token):
            if hexes_too:
                hx = city.hex
                hexes.setdefault(hx, {}).update(dict.fromkeys(board.neighbors(hx), True))
            nodes[city] = True

        if self.home_as_token and getattr(corporation, "coordinates", None):
            if self._home_hexes is not None or self._home_nodes is not None:
                if hexes_too:
                    hh = self._home_hexes(corporation) if self._home_hexes is not None else {}
                    for hx, edges in hh.items():
                        hexes[hx] = dict.fromkeys(edges, True)
                hn = self._home_nodes(corporation) if self._home_nodes is not None else ()
            else:
                hhexes, hn = self._default_home(corporation)
                for hx in hhexes if hexes_too else ():
                    hexes[hx] = dict.fromkeys(board.neighbors(hx), True)
            for n in hn:
                nodes[n] = True

        starts = list(nodes)

        if self._token_ability_nodes is not None:
            for n in self._token_ability_nodes(corporation) or ():
                nodes[n] = True
                offered.append(n)
        if self._teleports is not None:
            for hx, used in self._teleports(corporation) or ():
                if hexes_too:
                    hexes.setdefault(hx, {}).update(dict.fromkeys(board.neighbors(hx), True))
                for n in board.tile(hx).cities:
                    nodes[n] = True
                    if used:
                        offered.append(n)
        return hexes, nodes, starts, offered

    def _offers_any(self, corporation: Entity, wanted: Callable[[NodeBase], bool]) -> bool:
        """Would :meth:`_compute` offer a node for which ``wanted`` holds? The same walks, each
        stopped at the first such node and pruned to the paths that carry one."""
        _hexes, _nodes, starts, offered = self._seed(corporation, None, False)
        if any(wanted(n) for n in offered):
            return True
        verdict: dict[NodeBase, bool] = {}

        def carries(p: Path) -> bool:
            # has the path a wanted node? (each node asked once; a plain loop: this runs over
            # every path a start could reach)
            for n in p.nodes:
                v = verdict.get(n)
                if v is None:
                    v = verdict[n] = bool(wanted(n))
                if v:
                    return True
            return False

        def carrying(reach: Collection[Path]) -> set[Path]:
            # the paths of ``reach`` that carry a wanted node (``carries`` inline, in its order)
            out: set[Path] = set()
            for p in reach:
                for n in p.nodes:
                    v = verdict.get(n)
                    if v is None:
                        v = verdict[n] = bool(wanted(n))
                    if v:
                        out.add(p)
                        break
            return out

        return self._walks_find(corporation, starts, carrying, probe=carries)

    def reaches_any_path(self, corporation: Entity, wanted: Collection[Path]) -> bool:
        """Is any of ``wanted`` in :meth:`connected_paths`? Without the whole walk when it is
        not known yet: the same walks from each start, stopped at the first wanted path and
        pruned to the branches that can still reach one (a start none of them is in reach of
        is not walked). Nothing is remembered: the graph learns no routes from this walk."""
        known = self._connected_paths.get(corporation)
        if known is not None:
            return any(p in known for p in wanted)
        _hexes, _nodes, starts, _offered = self._seed(corporation, None, False)
        return self._walks_find(corporation, starts, lambda reach: {p for p in wanted if p in reach})

    def _walks_find(self, corporation: Entity, starts: list[NodeBase],
                    targets_in: Callable[[Collection[Path]], set[Path]],
                    keep_off: list[NodeBase] | None = None, probe: Callable[[Path], bool] | None = None) -> bool:
        """Does a walk from one of ``starts`` reach a path of ``targets_in(reach)`` (the
        targets among what that start could ever reach)? Each walk stops at the first one
        and is pruned to the branches that can still reach one; a start with none in reach
        is not walked. ``keep_off``: the starts the walks keep off (default ``starts``), when
        only some of them are walked.

        With ``probe`` (is this path a target?, as ``targets_in`` picks them), each start is first
        walked plainly (the same walk, unpruned, with no reach worked out) for at most
        :data:`_LOOK_PATHS` paths: a target entered answers yes, a walk ended within them
        answers no for that start (it entered every path it reaches); only a start whose first
        look ran out pays for its reach and the pruned walk."""
        board = self.board
        walk_corp = None if self.no_blocking else corporation
        skip_paths = self._skip_paths(corporation) if self._skip_paths is not None else None
        skip_track = self.skip_track
        start_set = dict.fromkeys(starts if keep_off is None else keep_off, True)
        W: _W = (board.state.links, board.state.tile_at, None)
        if _near_targets(starts, targets_in, skip_paths, skip_track, W):
            return True
        for start in starts:
            if probe is not None:
                looked = self._first_look(start, start_set, walk_corp, skip_paths, W, probe)
                if looked:
                    return True
                if looked is not None:
                    continue
            left = targets_in(self._closure(start, start_set, walk_corp, skip_paths, skip_track, W))
            if not left:
                continue
            visited = dict(start_set)
            del visited[start]
            targets = Targets(left, walk_corp, board.blocks, skip_track, skip_paths, W[0], W[1])

            def visit(path: Path, _vp: dict[Path, bool], _vn: dict[NodeBase, bool], left: set[Path] = left) -> None:
                if path in left:
                    raise _Complete

            try:
                _walk_node(start, visited, walk_corp, {}, skip_paths, {}, skip_track, False, visit,
                           (W[0], W[1], targets), board.blocks)
            except _Complete:
                return True
        return False

    def _first_look(self, start: NodeBase, start_set: dict[NodeBase, bool], walk_corp: Entity | None,
                    skip_paths: Container[Path] | None, W: _W, probe: Callable[[Path], bool]) -> bool | None:
        """The plain walk from ``start`` (the other starts kept off), stopped at the first path
        ``probe`` picks (True) or after :data:`_LOOK_PATHS` paths entered (None); False: the
        walk ended without one."""
        visited = dict(start_set)
        del visited[start]
        entered = [0]

        def visit(path: Path, _vp: dict[Path, bool], _vn: dict[NodeBase, bool]) -> None:
            if probe(path):
                raise _Complete
            entered[0] += 1
            if entered[0] >= _LOOK_PATHS:
                raise _Spent

        try:
            _walk_node(start, visited, walk_corp, {}, skip_paths, {}, self.skip_track, False, visit, (W[0], W[1], None),
                       self.board.blocks)
        except _Complete:
            return True
        except _Spent:
            return None
        return False

    def _compute(self, corporation: Entity, one_token: City | None = None) -> _Reach:
        hexes, nodes, starts, offered = self._seed(corporation, one_token)
        keep = self._kept is not None and one_token is None
        seed: tuple[object, ...] = ()
        counts: list[tuple[int, int]] = []
        if keep:
            skip_record = self._skip_paths(corporation) if self._skip_paths is not None else None
            seed = (tuple((hx, tuple(e)) for hx, e in hexes.items()), tuple(nodes), tuple(starts), tuple(offered),
                    skip_record)
        paths: dict[Path, bool] = {}
        board = self.board

        known = self._routes.get(corporation)
        routes = dict(known) if known is not None else {}
        walk_corp = None if self.no_blocking else corporation
        skip_paths = self._skip_paths(corporation) if self._skip_paths is not None else None
        skip_track = self.skip_track
        start_set = dict.fromkeys(starts, True)
        W: _W = (board.state.links, board.state.tile_at, None)
        links = W[0]

        for start in starts:
            visited = dict(start_set)
            del visited[start]
            local: dict[NodeBase, bool] = {}
            # the paths this walk could ever reach that are not seen yet: once none is left the
            # walk can add nothing more and stops (the reference walks on, exponentially)
            reach = self._closure(start, start_set, walk_corp, skip_paths, skip_track, W)
            targets = Targets({p for p in reach if p not in paths}, walk_corp, board.blocks, skip_track,
                               skip_paths, W[0], W[1])
            left = targets.left
            WT: _W = (W[0], W[1], targets)

            def visit(path: Path, _vp: dict[Path, bool], _vn: dict[NodeBase, bool], paths: dict[Path, bool] = paths,
                      nodes: dict[NodeBase, bool] = nodes, local: dict[NodeBase, bool] = local,
                      hexes: dict[Hex, dict[int, bool]] = hexes, left: set[Path] = left) -> None:
                if path in paths:
                    return None
                paths[path] = True
                left.discard(path)
                for n in path.nodes:
                    nodes[n] = True
                    local[n] = True
                    offered.append(n)
                hx = path.hex
                mine = hexes.get(hx)
                if mine is None:
                    mine = hexes[hx] = {}
                nbs = links[hx.id]
                for e in path.exits:
                    mine[e] = True
                    nb = nbs.get(e)
                    if nb is not None:
                        other = hexes.get(nb)
                        if other is None:
                            other = hexes[nb] = {}
                        other[(e + 3) % 6] = True
                if not left:
                    raise _Complete
                return None

            if left:
                with contextlib.suppress(_Complete):
                    _walk_node(start, visited, walk_corp, {}, skip_paths, {}, skip_track, False, visit, WT,
                               board.blocks)

            if not keep and routes.get("route_train_purchase"):
                continue
            mandatory = optional = 0
            for n in local:
                kind = getattr(n, "route", None)
                if kind == "mandatory":
                    mandatory += 1
                elif kind == "optional":
                    optional += 1
            counts.append((mandatory, optional))
            if routes.get("route_train_purchase"):
                continue
            if mandatory > 1:
                routes["route_available"] = True
                routes["route_train_purchase"] = True
                self._remember(corporation, routes)
            elif mandatory == 1 and optional > 0:
                routes["route_available"] = True

        result_hexes = {hx: list(edges) for hx, edges in hexes.items()}
        if one_token is not None:
            return result_hexes, nodes, paths

        if known is None or dict(known) != routes:
            self._remember(corporation, routes)
        self._walked_routes[corporation] = (None if known is None else dict(known), dict(routes))
        self._untaught.pop(corporation, None)
        self._reseed.pop(corporation, None)
        if self._kept is not None:
            self._kept[corporation] = (seed, tuple(counts))
        self._connected_hexes[corporation] = result_hexes
        self._connected_nodes[corporation] = nodes
        self._connected_paths[corporation] = paths
        reachable: dict[Hex, bool] = {}
        for p in paths:
            reachable[p.hex] = True
        self._reachable_hexes[corporation] = reachable
        self._offered[corporation] = offered
        return result_hexes, nodes, paths


# --------------------------------------------------------------------------------------
# distances


class DistanceGraph:
    """Fewest stops needed to reach nodes, paths and hexes from a corporation's tokens.

    A stop counts when its ``visit_cost`` is positive. With ``separate_node_types`` the
    counts are ``{"city": n, "town": m}`` (halts count as neither), else ``{"node": n}``.
    Distances are per-key minima over all walks (the start token counts as one).
    """

    DERIVED = True  # a copy of a game recomputes it

    def __init__(self, board: Board, *, separate_node_types: bool = False,
                 city_tokened_by: Callable[[City, Entity], object] | None = None):
        self.board = board
        self.separate_node_types = bool(separate_node_types)
        self._city_tokened_by = city_tokened_by
        self._node: dict[Entity, dict[NodeBase, Dist]] = {}
        self._path: dict[Entity, dict[Path, Dist]] = {}
        self._hex: dict[Entity, dict[Hex, Dist]] = {}

    def clear(self) -> None:
        self._node.clear()
        self._path.clear()
        self._hex.clear()

    def node_distances(self, corporation: Entity) -> dict[NodeBase, Dist]:
        if corporation not in self._node:
            self._compute(corporation)
        return self._node[corporation]

    def path_distances(self, corporation: Entity) -> dict[Path, Dist]:
        if corporation not in self._path:
            self._compute(corporation)
        return self._path[corporation]

    def hex_distances(self, corporation: Entity) -> dict[Hex, Dist]:
        if corporation not in self._hex:
            self._compute(corporation)
        return self._hex[corporation]

    def token_cities(self, corporation: Entity) -> list[City]:
        out: list[City] = []
        tb = self._city_tokened_by
        for _hx, tile in self.board.tiles():
            for city in tile.cities:
                if tb(city, corporation) if tb is not None else self.board.tokened_by(city, corporation):
                    out.append(city)
        return out

    get_token_cities = token_cities

    @staticmethod
    def _merge(store: dict[Any, Dist], key: Hashable, dist: Dist) -> None:
        cur = store.get(key)
        if cur is None:
            store[key] = dict(dist)
        else:
            for k, v in cur.items():
                d = dist[k]
                if d < v:
                    cur[k] = d

    @staticmethod
    def _le(known: Dist | None, dist: Dist) -> bool:
        if known is None:
            return False
        for k, v in known.items():
            if v > dist[k]:
                return False
        return True

    def _kind_key(self, node: NodeBase) -> str | None:
        if not self.separate_node_types:
            return "node"
        if node.is_city:
            return "city"
        if node.is_town and not node.is_halt:
            return "town"
        return None

    def _compute(self, corporation: Entity) -> None:
        n_d: dict[NodeBase, Dist] = {}
        p_d: dict[Path, Dist] = {}
        h_d: dict[Hex, Dist] = {}
        for city in self.token_cities(corporation):
            dist: Dist = {"city": 0, "town": 0} if self.separate_node_types else {"node": 0}
            self._walk(city, dist, n_d, p_d, {}, {}, corporation, {}, h_d)
        self._node[corporation] = n_d
        self._path[corporation] = p_d
        self._hex[corporation] = h_d

    def _walk(self, node: NodeBase, dist: Dist, n_d: dict[NodeBase, Dist], p_d: dict[Path, Dist],
              a_d: dict[Path, Dist], b_d: dict[Path, Dist], corp: Entity | None, counter: Counter,
              h_d: dict[Hex, Dist]) -> None:
        merge = self._merge
        merge(n_d, node, dist)
        if corp is not None and self.board.blocks(node, corp):
            return
        key = self._kind_key(node)
        count = 1 if node.visit_cost > 0 else 0
        if key is not None:
            dist[key] += count

        le = self._le

        def on_path(path: Path, _vp: dict[Path, bool], ct: Counter, _conv: bool) -> None:
            merge(p_d, path, dist)
            merge(h_d, path.hex, dist)
            if path.terminal:
                return
            for nxt in path.nodes:
                if nxt is node:
                    continue
                side = a_d if path.a is nxt else b_d
                if le(side.get(path), dist):
                    continue
                merge(side, path, dist)
                self._walk(nxt, dist, n_d, p_d, a_d, b_d, corp, ct, h_d)

        for node_path in node.paths:
            _walk_path(node_path, None, None, {}, None, counter, None, True, on_path,
                       (self.board.state.links, self.board.state.tile_at, None))

        if key is not None:
            dist[key] -= count
