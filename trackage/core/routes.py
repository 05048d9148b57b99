"""Train routes: rebuilding logged routes, legality and revenue (the best routes are
:mod:`trackage.router`'s).

A logged route (``run_routes``) names its track as ``connections``: one list of hex ids per
segment between two consecutive stops, in walking order. :class:`Route` turns that back into
concrete paths and stops the way the reference does:

* for every segment, all node pairs (a node on the first hex, another on the last) are
  tried; a walk from the first node that reaches the second gives a *chain* (its paths in
  walk order) and the chain's hex-id list must equal the logged one;
* a one-segment route takes the first (shortest) chain touching a city tokened by the
  corporation and not sharing track with the other routes of the run;
* longer routes pair chains of consecutive segments sharing exactly one node and no track;
  several fitting pairs are decided by the logged ``nodes`` signatures;
* ``["local", hex]`` is a one-city run of a local train; ``"H21 0.1"`` names the track
  between nodes 0 and 1 inside hex H21.

Rules (checks, stop choice, revenue) are methods of :class:`RouteRules`; a title subclasses
it and overrides what its rules change. Nothing is silently repaired: an illegal route raises
:class:`RouteError`.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from functools import partial
from itertools import pairwise
from operator import is_
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast

from .errors import GameError
from .graph import walk_path
from .tokens import token_kind
from .walk_prune import NO_LANE, gauge_ok, lanes_ok

if TYPE_CHECKING:
    from .board import Board
    from .entities import Corporation, Minor
    from .game import Game
    from .hexmap import Hex
    from .tiles import City, Path, Placed, RevenueCenter, Town
    from .trains import Train

    Entity: TypeAlias = Corporation | Minor  # (an operator running trains)
    # (start, end, skipped track, the hexes a chain may cross or None for any)
    ChainCache: TypeAlias = "dict[tuple[RevenueCenter, RevenueCenter, str | None, frozenset[str] | None], list[Chain]]"
    Pair: TypeAlias = "tuple[Chain, Chain, RevenueCenter, RevenueCenter, RevenueCenter]"  # (a, b, left, right, middle)

__all__ = [
    "Chain",
    "NoToken",
    "ReusesCity",
    "Route",
    "RouteError",
    "RouteRules",
    "RouteTooLong",
    "RouteTooShort",
    "RouteTrain",
    "RouterBonus",
    "RouterBound",
    "RouterStops",
    "Segment",
    "TrackKey",
    "chain_id",
    "evaluate_routes",
    "preferred_city_town_edges",
    "revenues_for_action",
    "routes_from_log",
    "routes_revenue",
    "rules_for",
    "suggest_routes",
    "track_keys",
]

TrackKey: TypeAlias = "tuple[Hex, int, int] | tuple[Hex, Town, int] | tuple[Hex, Path]"
"""A piece of track as :func:`track_keys` gives it: ``(hex, edge, lane)``, ``(hex, town,
lane)`` or ``(hex, path)``."""


class RouteTrain(Protocol):
    """What the route rules read of a train: a :class:`~trackage.core.trains.Train`, or a
    title's stand-in for one (1825's double-header train)."""

    @property
    def name(self) -> str: ...

    @property
    def distance(self) -> int | float | Sequence[dict[str, Any]]: ...


RouterStops = Callable[[], Sequence["RevenueCenter"]]
"""A route's stops as the router's hooks take them: called, it gives them (so a hook that
needs no stops costs nothing)."""
RouterBound = Callable[[RouterStops, int, int], int]
"""``bound(stops, base, weakest)``: :meth:`RouteRules.router_bound_for`'s route bound (see
:meth:`RouteRules.router_route_bound`)."""
RouterBonus = Callable[[RouterStops], int]
"""``bonus(stops)``: :meth:`RouteRules.router_run_bonus_for`'s run bonus."""
RouterSlack = tuple[frozenset["RevenueCenter"], Callable[[Collection["RevenueCenter"], int], int]]
"""``(stops, slack)``: :meth:`RouteRules.router_slack_for`'s bonus stops and the most
``slack(reached, weakest)`` the route bound adds for routes whose bonus stops lie in
``reached``."""
RouterVisitBonus = tuple[int, tuple[frozenset["RevenueCenter"], ...]]
"""``(amount, groups)``: :meth:`RouteRules.router_visit_bonus`'s bonus, paid only to a route
that visits a stop of every group."""
"""``bonus(stops)``: :meth:`RouteRules.router_run_bonus_for`'s run bonus."""


# --------------------------------------------------------------------------------------
# errors


class RouteError(GameError):
    """A route breaks a rule (too short, too long, no token, reused track, ...)."""

    def __init__(self, message: str, rule: str = "route", action: dict[str, Any] | None = None):
        super().__init__(message, rule=rule, action=action)


class RouteTooShort(RouteError):
    def __init__(self, message: str = "Route must have at least 2 stops"):
        super().__init__(message, rule="route-too-short")


class RouteTooLong(RouteError):
    def __init__(self, message: str = "Route has too many stops"):
        super().__init__(message, rule="route-too-long")


class NoToken(RouteError):
    def __init__(self, message: str = "Route must contain token"):
        super().__init__(message, rule="route-no-token")


class ReusesCity(RouteError):
    def __init__(self, message: str):
        super().__init__(message, rule="route-reuses-city")


# --------------------------------------------------------------------------------------
# chains and segments


class Chain:
    """Track between two nodes: ``nodes`` (start, end) or None for a one-node local run,
    ``paths`` in walk order from the start, ``id`` (hex-id list as logged)."""

    __slots__ = ("_hids", "_keys", "_linked", "_pairs", "_pset", "id", "nodes", "paths")

    def __init__(self, nodes: tuple[RevenueCenter, RevenueCenter] | None, paths: list[Path], id_: list[str] | None):
        self.nodes = nodes
        self.paths = paths
        self.id = id_
        self._pset: frozenset[Path] | None = None
        self._keys: list[TrackKey] | None = None
        self._hids: tuple[str, ...] | None = None  # (the hex id of each path, for ``linked``)
        # the board's links this chain was last checked on, and per way (paths in order, reversed)
        # whether each path meets the next by an edge or a junction (see ``linked``)
        self._linked: tuple[object, bool | None, bool | None, tuple[object, ...]] | None = None
        # the segments a run of logged connections resolves to when this chain is the first
        # connection's only chain, per tuple of the next connections' only chains (see
        # ``_paired_segments``; a pure function of the chains, which never change)
        self._pairs: dict[tuple[Chain, ...], Paired] | None = None

    @property
    def path_set(self) -> frozenset[Path]:
        s = self._pset
        if s is None:
            s = self._pset = frozenset(self.paths)
        return s

    @property
    def hexes(self) -> list[Hex]:
        return [p.hex for p in self.paths]

    @property
    def track_keys(self) -> list[TrackKey]:
        """:func:`track_keys` of the chain's paths (a placed tile's pieces never change)."""
        k = self._keys
        if k is None:
            k = self._keys = track_keys(self.paths)
        return k

    def linked(self, forward: bool, links: Mapping[str, Mapping[int, Hex]]) -> bool:
        """Whether each of the chain's paths (in order, or reversed) meets the next across an
        edge the board ``links`` or at a junction: then each pair passes :func:`_connects_to`
        whatever the corporation (its node rule can only add a yes). Remembered per ``links``
        (the board replaces that dict on every change, never changes it in place)."""
        got = self._linked
        if got is None or got[0] is not links:
            # the answer reads only the links of the chain's own hexes (the board replaces a
            # hex's entry when its links change): kept while those entries are the same
            hids = self._hids
            if hids is None:
                hids = self._hids = tuple([p.hex.id for p in self.paths])
            mine = tuple(map(links.get, hids))
            if got is not None and len(got[3]) == len(mine) and all(map(is_, got[3], mine)):
                got = self._linked = (links, got[1], got[2], mine)
            else:
                got = self._linked = (links, None, None, mine)
        known = got[1] if forward else got[2]
        if known is None:
            paths = self.paths
            seq = paths if forward else paths[::-1]
            known = all(_track_meets(a, b, links) for a, b in pairwise(seq))
            self._linked = (links, known, got[2], got[3]) if forward else (links, got[1], known, got[3])
        return known

    def __repr__(self) -> str:
        return f"<Chain {self.id}>"


class Segment:
    """One stop-to-stop part of a route: ``left`` and ``right`` node and its ``chain``."""

    __slots__ = ("chain", "left", "right")

    def __init__(self, left: RevenueCenter, right: RevenueCenter, chain: Chain):
        self.left = left
        self.right = right
        self.chain = chain

    def __repr__(self) -> str:
        return f"<Segment {self.left!r} -> {self.right!r}>"


def chain_id(paths: Sequence[Path]) -> list[str]:
    """Hex-id list naming ``paths`` in a log (intra-tile paths of ambiguous tiles become
    ``"<hex> <i>.<j>"``; a Lawson hex is listed once)."""
    if len(paths) == 1 and paths[0].tile.ambiguous_connection:
        p = paths[0]
        i, j = sorted(n.index for n in p.nodes)
        return [f"{p.hex.id} {i}.{j}"]
    seen_junctions: set[object] = set()
    out: list[str] = []
    for p in paths:
        a, b = p.a, p.b
        if a not in seen_junctions and b not in seen_junctions:
            out.append(p.hex.id)
        if a.is_junction:
            seen_junctions.add(a)
        if b.is_junction:
            seen_junctions.add(b)
    return out

def _logged_hexes(want: Sequence[object]) -> tuple[frozenset[str], tuple[str, ...], str, str]:
    """A logged connection's hex list: the hex ids it names (a chain names every hex it
    crosses, a hex's first path in it always, so only chains within them can match), those
    sorted, and the ids of its first and last hex."""
    within = frozenset(str(h).split()[0] for h in want)
    return within, tuple(sorted(within)), str(want[0]).split()[0], str(want[-1]).split()[0]


_SHARED_WALKS_LIMIT = 50_000  # (a map's shared walks beyond this are forgotten and found again)
_KEPT_CHAINS_LIMIT = 64  # (the chains kept per shared walk: tuples of placed tiles beyond this, made again)


def _walk_parts(memo: dict[Any, Any], hexes: Sequence[str], tile_at: Mapping[str, Placed],
                links_at: Mapping[str, Mapping[int, Hex]],
                ) -> tuple[tuple[Hashable, ...], tuple[Placed | None, ...], tuple[Mapping[int, Hex] | None, ...]]:
    """What :func:`logged_chains` reads of the board over ``hexes``: each hex's tile (spec,
    rotation, gauge flags) and its linked neighbours (the shared map's hexes), a part per hex
    kept in ``memo`` (a game's) with the tile and links entry it was made of (a pure function
    of them: made again only when the board replaced one); and the tiles and links entries
    read."""
    parts = memo.get("logged walk parts")
    if parts is None:
        parts = memo["logged walk parts"] = {}
    out: list[Hashable] = []
    tiles: list[Placed | None] = []
    links: list[Mapping[int, Hex] | None] = []
    for h in hexes:
        t = tile_at.get(h)
        nbs = links_at.get(h)
        tiles.append(t)
        links.append(nbs)
        got = parts.get(h)
        if got is not None and got[0] is t and got[1] is nbs:
            out.append(got[2])
            continue
        part = (None if t is None else (t.spec, t.rotation, t.igw, t.igc),
                None if nbs is None else frozenset(nbs.items()))
        parts[h] = (t, nbs, part)
        out.append(part)
    return tuple(out), tuple(tiles), tuple(links)


def _place_in(seq: Sequence[object], x: object) -> int:
    """Where ``x`` itself (not an equal value) is in ``seq``."""
    for i, y in enumerate(seq):
        if y is x:
            return i
    raise ValueError("not there")


def _walk_refs(chains: Sequence[Chain], starts: Sequence[RevenueCenter], ends: Sequence[RevenueCenter],
               ) -> tuple[tuple[int, int, tuple[tuple[str, int], ...]], ...]:
    """``chains`` by index: their end nodes among ``starts`` and ``ends``, each path by its
    hex and its place among its tile's paths (the same in every game for the same tile and
    rotation)."""
    out: list[tuple[int, int, tuple[tuple[str, int], ...]]] = []
    for ch in chains:
        assert ch.nodes is not None
        a, b = ch.nodes
        prefs = tuple([(p.hex.id, _place_in(p.tile.paths, p)) for p in ch.paths])
        out.append((_place_in(starts, a), _place_in(ends, b), prefs))
    return tuple(out)


class _OutsideHexes:
    """The paths a walk skips: those of hexes not in ``hex_ids`` (a ``skip_paths`` container)."""

    __slots__ = ("hex_ids",)

    def __init__(self, hex_ids: frozenset[str]):
        self.hex_ids = hex_ids

    def __bool__(self) -> bool:
        return True

    def __contains__(self, path: object) -> bool:
        return cast("Path", path).hex.id not in self.hex_ids


def node_chains(start: RevenueCenter, end: RevenueCenter, skip_track: str | None = None, *,
                board: Board, within: frozenset[str] | None = None) -> list[Chain]:
    """All chains from ``start`` to ``end`` on ``board`` (shortest first); with ``within``, only
    those whose paths all lie in these hexes: the same chains, in the same order, as the
    whole list filtered (the walk backtracks fully, so a branch cut off changes no other)."""
    found: list[Chain] = []

    def visit(path: Path, visited: dict[Path, bool], _counter: object, _conv: object) -> None:
        if end in path.nodes:
            paths = list(visited)
            found.append(Chain((start, end), paths, chain_id(paths)))

    outside = None if within is None else _OutsideHexes(within)
    for sp in start.paths:
        walk_path(sp, visit, board=board, skip_track=skip_track, skip_paths=outside)
    found.sort(key=lambda c: len(c.paths))
    return found

def logged_chains(starts: Sequence[RevenueCenter], ends: Sequence[RevenueCenter], want: Sequence[str],
                  skip_track: str | None, *, board: Board) -> list[Chain]:
    """The chains from a node of ``starts`` to another of ``ends`` whose id is ``want`` (a
    logged connection's hex list): for each start node, for each end node, shortest first,
    as :func:`node_chains` lists them filtered by their id.

    One walk per start node, the walk of :func:`node_chains` (the same checks, in the same
    order) entering only the paths that keep the chain's hex list a beginning of ``want``: a
    chain's id lists a hex for every path that does not end at a junction met before, so every
    chain named ``want`` is reached along such paths, in the walk's order (the walk undoes
    everything it marked when it steps back, so a branch not entered changes no other)."""
    hexes = [h.split()[0] for h in want]
    n = len(hexes)
    st = board.state
    links = st.links
    tile_at = st.tile_at
    out: list[Chain] = []
    visited: dict[Path, bool] = {}
    counter: dict[Hashable, int] = {}
    seen: dict[object, int] = {}  # the junctions at the ends of the paths walked (a chain id's rule)
    found: dict[RevenueCenter, list[Chain]] = {}
    targets: list[RevenueCenter] = []
    # the walk calls itself through ``again``, emptied when the walk ends (a closure naming
    # itself is a cycle, left for the collector; and a compiled twin cannot ``del`` it)
    again: list[Callable[[Path, int, int | None, object], None]] = []

    def step(path: Path, k: int, skip: int | None, jskip: object) -> None:
        # k: the hexes the walk's chain names so far
        a, b = path.a, path.b
        if a not in seen and b not in seen:
            if k >= n or path.hex.id != hexes[k]:
                return
            k += 1
        if path in visited:
            return
        junction = path.junction
        if junction is not None and (path.terminal or counter.get(junction, 0) > 1):
            return
        if path.track == skip_track:
            return
        hid = path.hex.id
        edges = path.edges
        for e in edges:
            if counter.get((hid, e.num, e.lanes[1]), 0) > 0:
                return
        visited[path] = True
        if junction is not None:
            counter[junction] = counter.get(junction, 0) + 1
        ja = a.is_junction
        jb = b.is_junction
        if ja:
            seen[a] = seen.get(a, 0) + 1
        if jb:
            seen[b] = seen.get(b, 0) + 1
        if k == n:
            nodes = path.nodes
            for en in found:
                if en in nodes:
                    paths = list(visited)
                    cid = chain_id(paths)
                    if cid == want:
                        found[en].append(Chain((start, en), paths, cid))
        if junction is not None and junction is not jskip:
            for jp in junction.paths:
                again[0](jp, k, None, junction)
        if edges:
            neighbors = links[hid]
            for e in edges:
                num = e.num
                if num == skip:
                    continue
                nb = neighbors.get(num)
                if nb is None:
                    continue
                if not seen and (k >= n or nb.id != hexes[k]):
                    continue  # (any path there would name a hex not in ``want`` here)
                key = (hid, num, e.lanes[1])
                counter[key] = counter.get(key, 0) + 1
                np_edge = (num + 3) % 6
                lanes = e.lanes
                track = path.track
                gauge_free = path.ignore_gauge_walk
                for np in tile_at[nb.id].paths_at(np_edge):
                    if lanes != NO_LANE or np.exit_lanes.get(np_edge) != NO_LANE:
                        if not lanes_ok(lanes, np.exit_lanes.get(np_edge)):
                            continue
                    if not gauge_free and not gauge_ok(track, np.track):
                        continue
                    again[0](np, k, np_edge, None)
                counter[key] -= 1
        del visited[path]
        if junction is not None:
            counter[junction] -= 1
        if ja:
            seen[a] -= 1
            if not seen[a]:
                del seen[a]
        if jb:
            seen[b] -= 1
            if not seen[b]:
                del seen[b]

    # the first hex's edges toward the second: a start path leaving by none of them, and not
    # at a junction, finds nothing (its walk would enter no path)
    again.append(step)
    toward = None if n < 2 else frozenset(
        [num for num, nb in (links.get(hexes[0]) or {}).items() if nb is not None and nb.id == hexes[1]])
    for start in starts:
        targets[:] = [en for en in ends if en is not start]
        if not targets:
            continue
        found.clear()
        for en in targets:
            found[en] = []
        for sp in start.paths:
            if toward is not None and sp.junction is None:
                for e in sp.edges:
                    if e.num in toward:
                        break
                else:
                    continue
            step(sp, 0, None, None)
        for en in targets:
            got = found[en]
            if len(got) > 1:
                got.sort(key=lambda c: len(c.paths))
            out.extend(got)
    again.clear()
    return out

# --------------------------------------------------------------------------------------
# tile geometry helper (where a town sits on its tile)

_CT_EDGES: weakref.WeakKeyDictionary[Placed, dict[RevenueCenter, float | None]] = weakref.WeakKeyDictionary()

def _compute_loc(tile: Placed, loc: str | float | None) -> float | None:
    if loc is None or loc is False or loc == "center":
        return None
    return (float(loc) + tile.rotation) % 6

def preferred_city_town_edges(tile: Placed) -> dict[RevenueCenter, float | None]:
    """{city/town: edge number (or None = centre)}: where the reference draws each city and
    town of ``tile`` in its current rotation. Route overlap checks treat an off-centre
    town as a point of track that two routes may not share."""
    result = _CT_EDGES.get(tile)
    if result is None:  # a placed tile never changes, so neither does this
        result = _CT_EDGES[tile] = _city_town_edges(tile)
    return result

def _city_town_edges(tile: Placed) -> dict[RevenueCenter, float | None]:
    paths = tile.paths
    cities = tile.cities
    towns = tile.towns
    city_towns = cast("tuple[City | Town, ...]", tile.city_towns)  # (what tiles.py gives: cities and towns)
    if not paths and len(cities) == 2 and len(towns) == 2:
        out: dict[RevenueCenter, float | None] = {}
        for i, c in enumerate(cities):
            out[c] = i * 3
        for i, t in enumerate(towns):
            out[t] = i * 3
        return out
    if not paths and len(cities) >= 2:
        div = 6 // len(cities)
        return {c: i * div for i, c in enumerate(cities)}
    if len(cities) == 1 and not towns and _compute_loc(tile, cities[0].loc) is None:
        return {cities[0]: None}
    if not cities and len(towns) == 1 and len(towns[0].exits) != 2 and _compute_loc(tile, towns[0].loc) is None:
        return {towns[0]: None}

    count: dict[int, float] = {}

    def bump(e: int, by: float) -> None:
        count[e] = count.get(e, 0) + by

    bump(0, 0.1)
    ct_edges: dict[RevenueCenter, list[int]] = {}
    for p in paths:
        ct = p.city if p.city is not None else p.town
        if ct is None:
            continue
        for e in p.exits:
            ct_edges.setdefault(ct, []).append(e)
            bump(e, 1)
            bump((e + 1) % 6, 0.1)
            bump((e - 1) % 6, 0.1)
    ordered = sorted(((ct, sorted(es)) for ct, es in ct_edges.items()), key=lambda x: x[1])
    out = {}
    for ct, es in ordered:
        if ct.loc is not None:
            edge = _compute_loc(tile, ct.loc)
        else:
            edge = min(es, key=lambda e: count.get(e, 0))
            bump(edge, 1)
            bump((edge + 1) % 6, 0.1)
            bump((edge - 1) % 6, 0.1)
        out[ct] = edge
    pathless = [ct for ct in city_towns if not ct.paths]
    if len(pathless) == 1 and len(city_towns) == 2:
        first = next(iter(out.values()), None)
        if first is not None:
            out[pathless[0]] = (first + 3) % 6
    for ct in city_towns:
        if not ct.exits and ct.loc is not None:
            out[ct] = _compute_loc(tile, ct.loc)
    return out

def track_keys(paths: Iterable[Path]) -> list[TrackKey]:
    """The pieces of track a list of paths occupies, as compared by overlap checks:
    ``(hex, edge, lane)`` for every edge end, ``(hex, town, lane)`` for the track stub of an
    off-centre town and ``(hex, path)`` for a path joining two nodes inside a tile."""
    out: list[TrackKey] = []
    for p in paths:
        hx = p.hex
        a, b = p.a, p.b
        la, lb = p.lanes
        if a.is_edge:
            out.append((hx, a.num, la[1]))
        if b.is_edge:
            out.append((hx, b.num, lb[1]))
        if b.is_edge and a.is_town:
            ne = preferred_city_town_edges(a.tile).get(a)
            if ne is not None and ne != b.num:
                out.append((hx, a, la[1]))
        if a.is_edge and b.is_town:
            ne = preferred_city_town_edges(b.tile).get(b)
            if ne is not None and ne != a.num:
                out.append((hx, b, lb[1]))
        if len(p.nodes) > 1:
            out.append((hx, p))
    return out

def _track_meets(path: Path, other: Path, links: Mapping[str, Mapping[int, Hex]]) -> bool:
    """:func:`_connects_to`'s edge and junction rules alone (without its node rule)."""
    hx = path.hex
    for part in (path.a, path.b):
        if part.is_edge:
            nb = links[hx.id].get(part.num)
            if nb is not None and nb is other.hex:
                inv = (part.num + 3) % 6
                if any(e.num == inv for e in other.edges):
                    return True
        elif part.is_junction:
            if other.junction is part:
                return True
    return False

def _connects_to(path: Path, other: Path, corporation: Entity, board: Board,
                 links: Mapping[str, Mapping[int, Hex]] | None = None) -> bool:
    """Whether ``path`` meets ``other``: across an edge the board links, at a junction, or at a
    node that does not stop ``corporation``. ``links``: the board's links when the caller
    holds them (``board.neighbors`` reads the same)."""
    hx = path.hex
    for part in (path.a, path.b):
        if part.is_edge:
            nb = (board.neighbors(hx) if links is None else links[hx.id]).get(part.num)
            if nb is not None and nb is other.hex:
                inv = (part.num + 3) % 6
                if any(e.num == inv for e in other.edges):
                    return True
        elif part.is_junction:
            if other.junction is part:
                return True
        elif part in other.nodes and not board.blocks(part, corporation):
            return True
    return False

# --------------------------------------------------------------------------------------
# rules

class RouteRules:
    """The base game's route rules. Titles subclass and override.

    ``game`` is the game (its board and ``hex_by_id``), ``phase`` (with ``tiles``, the
    colours whose revenues apply). Every method below is a hook named after the reference:

    * stops: ``visited_stops``, ``revenue_stops``, ``compute_stops``, ``stop_type``;
    * revenue: ``stop_revenue`` (one stop for a route), ``route_base_revenue``,
      ``revenue_multiplier``, ``revenue_for`` (a route, given its stops), ``routes_revenue``,
      ``extra_revenue``, ``revenue_str``, ``subsidy_for`` (None = no subsidies);
    * checks: ``check_distance``, ``check_route_token``, ``check_other``,
      ``check_route_combination``, ``check_overlap``, ``check_connected``, ``check_cycles``,
      ``check_terminals``, ``check_groups``, ``check_min_stops``;
    * context: ``train_owner``, ``city_tokened_by``, ``skip_route_track_type``,
      ``local_length``, ``is_local``, ``requires_token``, ``compute_other_paths``,
      ``route_distance``, ``phase_colors``;
    * the router (:mod:`trackage.router`): ``router_train_key``, ``router_meter``,
      ``router_start_radius``, ``router_unique_stop_hexes``, ``router_free_stop``,
      ``conflict_keys``, ``router_route_bound``, ``router_bound_for``, ``router_base_bound``,
      ``router_run_bonus``, ``router_run_bonus_for``, ``router_bound_slack``, ``router_slack_for``,
      ``router_visit_bonus``, ``router_bound``
      (each documented below with its default; see ``docs/router.md``).
    """

    DERIVED = True  # a game makes its rules again when asked (they hold no state)

    def __init__(self, game: Game, *, phase: object = None):
        self.game = game
        self._phase = phase

    # -- context -----------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.game.board

    def hex_by_id(self, hex_id: str) -> Hex | None:
        got: Hex | None = self.game.board.hex_by_id(hex_id)
        return got

    @property
    def phase(self) -> object:
        return self._phase if self._phase is not None else getattr(self.game, "phase", None)

    def phase_colors(self, route: Route) -> Sequence[str]:
        """The colours whose revenues apply to ``route``: its phase's (the route's own, else
        the game's), worked out once per route (a route is priced in the state it is made
        for; :meth:`Route.clear_cache` forgets them)."""
        got = route._colors
        if got is None:
            phase = route.phase if route.phase is not None else self.phase
            if phase is None:
                got = ()
            else:
                colors: Any = getattr(phase, "tiles", phase)
                got = tuple(colors() if callable(colors) else colors)
            route._colors = got
        return got

    def train_owner(self, train: Train) -> Entity:
        """Who runs ``train`` this turn: the game's ``train_owner`` (a :class:`Game` hook)."""
        owner: Entity = self.game.train_owner(train)
        return owner

    def city_tokened_by(self, city: RevenueCenter, corporation: Entity) -> bool:
        return self.game.board.tokened_by(city, corporation)

    def first_tokened(self, stops: Iterable[RevenueCenter], corporation: Entity) -> RevenueCenter | None:
        """The first of ``stops`` :meth:`city_tokened_by` says yes to for ``corporation``, or
        None (not a hook: with the base hook, the board's ``tokened_by`` read from its state
        with the owner's id and token kind worked out once)."""
        if type(self).city_tokened_by is RouteRules.city_tokened_by:
            return _first_tokened(self.game.board, stops, corporation)
        return next((s for s in stops if self.city_tokened_by(s, corporation)), None)

    def skip_route_track_type(self, train: RouteTrain) -> str | None:
        return None

    def local_length(self) -> int:
        return 2

    def is_local(self, train: RouteTrain) -> bool:
        loc = getattr(train, "local", None)
        if loc is not None and not callable(loc):
            return bool(loc)
        # the train as it runs now: a variant may say no_local (1858 India's 1M)
        variants = getattr(train, "variants", None) or {}
        spec = variants.get(getattr(train, "name", None)) or getattr(train, "spec", None) or {}
        if spec.get("no_local"):
            return False
        d = train.distance
        if isinstance(d, (int, float)):
            return d == 1
        for row in d:
            if "city" in row.get("nodes", ()):
                return row.get("visit") == 1
        return False

    def requires_token(self, train: RouteTrain) -> bool:
        spec = getattr(train, "spec", None) or {}
        v = spec.get("requires_token")
        return True if v is None else bool(v)

    def compute_other_paths(self, routes: Sequence[Route], route: Route) -> list[Path]:
        out: list[Path] = []
        for r in routes:
            if r is not route:
                out.extend(r.paths)
        return out

    # -- router hooks ------------------------------------------------------------------
    #
    # What the exact router (:mod:`trackage.router`) asks a title beyond the checks and the
    # revenue above. Every default is the base rules' answer. Where a hook that is not
    # overridden lets the router skip work (``router_free_stop``, ``conflict_keys``,
    # ``router_route_bound``, ``router_base_bound``, ``router_run_bonus``), the router tells by
    # ``type(rules).hook is RouteRules.hook``: a title only overrides the method, and the
    # defaults below stay correct if called anyway.

    def router_train_key(self, train: Train) -> tuple[Hashable, ...]:
        """Trains with equal keys run the same routes for the same revenue (the router
        enumerates their routes once and treats them as interchangeable). Asked once per
        train per search. Default: name, distance, multiplier, obsolete, skipped track."""
        return (train.name, repr(train.distance), getattr(train, "multiplier", None),
                bool(getattr(train, "obsolete", False)), self.skip_route_track_type(train))

    def router_meter(self, train: Train) -> dict[str, Any] | None:
        """How ``train``'s distance is metered, when not as its ``distance`` says:
        ``{"hex_edges": n}`` (a train counting hex edges) or ``{"free": predicate}`` (stops,
        ``predicate(node)`` true, that cost no distance). Asked once per train kind before its
        routes are walked. Default None: the distance as given."""
        return None

    def router_start_radius(self, train: Train) -> int:
        """How many links away from the company's tokened cities ``train``'s routes may start
        (their stops being reached from a token some other way, e.g. a double header). Asked
        once per train kind before its routes are walked. Default 0: at a tokened city."""
        return 0

    def router_unique_stop_hexes(self, train: Train) -> bool:
        """Must ``train``'s stops lie in distinct hexes (the router prunes routes stopping
        twice in a hex)? Asked once per train kind. Default False: the base rules allow it
        (one stop per group is pruned whenever :meth:`check_groups` is the base one)."""
        return False

    def router_free_stop(self, train: Train, node: RevenueCenter) -> bool:
        """Is ``node`` a stop that never earns for ``train`` nor makes its route legal (the
        router values it 0 and may pass it)? Asked once per stop and train kind while
        walking. Default False; not overridden, the router skips the question altogether."""
        return False

    def conflict_keys(self, train: Train, keys: Collection[Hashable],
                      nodes: Sequence[RevenueCenter]) -> Collection[Hashable]:
        """The keys two routes of a run must not share, for ``train``'s link whose track keys
        are ``keys`` (see :func:`track_keys`) and which reaches ``nodes``. Asked once per link
        and train kind while walking. Default ``keys``: routes share no track (as
        :meth:`check_overlap`); not overridden, the router uses the track keys directly."""
        return keys

    def router_route_bound(self, train: Train, corp: Entity, stops: RouterStops, base: int,
                           weakest: int = 0) -> int:
        """An upper bound of the revenue of ``train``'s route for ``corp`` whose stops are
        ``stops()`` and whose best stop values (:meth:`stop_revenue`, as many as the distance
        pays) sum to ``base``: what the bonuses of :meth:`revenue_for` add, halved for wounded
        trains, .... ``weakest``: when only the best stops pay and the route has at least that
        many, the lowest stop value counted in ``base`` (a stop not counted there pays only in
        place of one worth at least that much), else 0. Asked per route the router ranks
        (through :meth:`router_bound_for`). Default ``base``: revenue is the stop values' sum;
        not overridden, the router takes ``base`` as the bound without calling it."""
        return base

    def router_bound_for(self, train: Train, corp: Entity) -> RouterBound | None:
        """:meth:`router_route_bound` for one train and company, made once per walk: a
        function ``bound(stops, base, weakest)`` (what it looks up per company looked up
        once). With a ``relevant`` attribute (the set of stops it reads) the router's tables
        call it once per distinct (those stops, base, weakest) instead of once per route. Asked once per train kind.
        Default: :meth:`router_route_bound` with ``train`` and ``corp`` given, or None (no
        route bound) when that is not overridden either."""
        if type(self).router_route_bound is RouteRules.router_route_bound:
            return None
        return partial(self.router_route_bound, train, corp)

    def router_base_bound(self, train: Train, corp: Entity, base: int) -> int:
        """A route bound that needs no stops: from the stop values' sum ``base`` alone (e.g.
        half for wounded trains). The router uses it only when :meth:`router_route_bound` is
        not overridden, once per distinct ``base`` per walk. Default ``base``; not overridden,
        the router skips it."""
        return base

    def router_run_bonus(self, train: Train, corp: Entity, stops: RouterStops) -> int:
        """A bonus ``corp``'s run earns once, whichever of its routes earns it, for
        ``train``'s route through ``stops()`` (the router adds the largest one a run's routes
        earn). Asked per route the router ranks (through :meth:`router_run_bonus_for`).
        Default 0; not overridden, the router does not ask."""
        return 0

    def router_run_bonus_for(self, train: Train, corp: Entity) -> RouterBonus | None:
        """:meth:`router_run_bonus` for one train and company, made once per walk: a function
        ``bonus(stops)``; ``relevant`` as for :meth:`router_bound_for`. Asked once per train
        kind. Default: :meth:`router_run_bonus` with ``train`` and ``corp`` given, or None (no
        run bonus) when that is not overridden either."""
        if type(self).router_run_bonus is RouteRules.router_run_bonus:
            return None
        return partial(self.router_run_bonus, train, corp)

    def router_bounded(self) -> bool:
        """Does the title override a bound hook (:meth:`router_route_bound`,
        :meth:`router_bound_for`, :meth:`router_base_bound`, :meth:`router_run_bonus`,
        :meth:`router_run_bonus_for`), so that a route's bound may exceed its stop values?"""
        cls = type(self)
        return (cls.router_route_bound is not RouteRules.router_route_bound
                or cls.router_bound_for is not RouteRules.router_bound_for
                or cls.router_base_bound is not RouteRules.router_base_bound
                or cls.router_run_bonus is not RouteRules.router_run_bonus
                or cls.router_run_bonus_for is not RouteRules.router_run_bonus_for)

    def router_bound_slack(self, train: Train, corp: Entity) -> int | None:
        """The most the bound hooks (:meth:`router_route_bound`, :meth:`router_base_bound`,
        :meth:`router_run_bonus` and their ``_for`` forms) add to a route's stop values, for
        ``train`` of ``corp``; None: unknown (the router then sets no floor from it and does
        not cut that kind's list). Asked once per train kind. Default: 0 when the title
        overrides no bound hook (:meth:`router_bounded`), else None."""
        return None if self.router_bounded() else 0

    def router_slack_for(self, train: Train, corp: Entity) -> RouterSlack | None:
        """A finer :meth:`router_bound_slack` for one train and company, made once per walk:
        ``(stops, slack)``, the stops through which the route bound may exceed the stop
        values and ``slack(reached, weakest)``, at least what the bound adds to a route's
        stop values when the route's stops among ``stops`` all lie in ``reached`` and its
        ``weakest`` (see :meth:`router_route_bound`) is at least ``weakest``; never more than
        :meth:`router_bound_slack`. The router prunes a part of its walk by the bonus stops
        that part can still reach. Default None: the router uses :meth:`router_bound_slack`
        alone."""
        return None

    def router_visit_bonus(self, train: Train, corp: Entity) -> RouterVisitBonus | None:
        """The part of :meth:`router_bound_slack` the route bound adds only to a route that
        visits at least one stop of each group, as ``(amount, groups)`` (groups pairwise
        disjoint); the rest of the slack may go to any route. Asked once per walk, and used
        only when :meth:`router_slack_for` gives None: the router then bounds a part of its
        walk that can take the bonus by the groups' stop values in place of the best others'.
        Default None: no such bonus."""
        return None

    def router_bound(self, route: Route) -> int | None:
        """The value ``route`` (its train's, run alone) can add to a run, an upper bound when
        the revenue alone is not one (e.g. a route illegal alone that may run as half of a
        double header); None: never legal. Asked once per candidate route the router
        evaluates exactly; a :class:`GameError` it raises also means never legal. Default: the
        route's checked revenue, without the checks of the whole run."""
        return route.revenue(recompute=True, suppress_check_route_combination=True)

    # -- stops -------------------------------------------------------------------------

    def visited_stops(self, route: Route) -> list[RevenueCenter]:
        cd = route._cd
        if cd is None:
            cd = route.connection_data
        paired = route._paired
        if paired is not None:
            return list(paired[1])  # (the same walk over the shared pairing's segments)
        return _stops_in_order(cd)

    def revenue_stops(self, route: Route) -> list[RevenueCenter]:
        # (the route's visited stops as it keeps them, copied: a fresh list, as worked out)
        return list(route.visited_stops)

    def stop_type(self, stop: RevenueCenter, train: RouteTrain) -> str:
        return stop.kind

    def compute_stops(self, route: Route, train: RouteTrain | None = None) -> list[RevenueCenter]:
        """The stops that pay: every visited stop for a numeric distance; for typed
        distances the best-paying legal subset, trying the most stops first."""
        train = train if train is not None else route.train
        visits = self.revenue_stops(route)
        distance = train.distance
        if isinstance(distance, (int, float)):
            return visits
        if not visits:
            return []
        rows = sorted(distance, key=lambda h: len(h["nodes"]))
        max_stops = min(sum(int(h.get("pay") or 0) for h in rows), len(visits))
        corp = route.corporation
        need_token = self.requires_token(train)
        types = [self.stop_type(s, train) for s in visits]
        for n in range(max_stops, 0, -1):
            best: list[RevenueCenter] = []
            best_rev = None
            for combo in itertools.combinations(range(len(visits)), n):
                stops = [visits[i] for i in combo]
                if need_token and not any(self.city_tokened_by(s, corp) for s in stops):
                    continue
                used = [0] * len(rows)
                ok = True
                for i in combo:
                    t = types[i]
                    for ri, h in enumerate(rows):
                        if t in h["nodes"] and used[ri] < h["pay"]:
                            used[ri] += 1
                            break
                    else:
                        ok = False
                        break
                if not ok:
                    continue
                rev = self.revenue_for(route, stops)
                if best_rev is None or rev > best_rev:
                    best, best_rev = stops, rev
            if best_rev is not None and best_rev > 0:
                return best
        return []

    # -- revenue -----------------------------------------------------------------------

    def route_base_revenue(self, stop: RevenueCenter, route: Route) -> int:
        return stop.revenue_for(self.phase_colors(route), route.train.name)

    def revenue_multiplier(self, stop: RevenueCenter, train: RouteTrain) -> int:
        base: int = getattr(train, "multiplier", None) or 1
        d = train.distance
        if isinstance(d, (int, float)):
            return base
        for row in d:
            if stop.kind in row.get("nodes", ()):
                mult: int = row.get("multiplier", base)
                return mult
        return base

    def stop_revenue(self, stop: RevenueCenter, route: Route) -> int:
        """The stop's revenue for the route's train in the route's phase: worked out once per
        stop for a route (a route is priced in the state it is made for; :meth:`Route.clear_cache`
        forgets the prices)."""
        prices = route._stop_prices
        if prices is None:
            prices = route._stop_prices = {}
        got = prices.get(stop)
        if got is None:
            cls = type(self)
            if cls.revenue_multiplier is RouteRules.revenue_multiplier \
                    and cls.route_base_revenue is RouteRules.route_base_revenue:
                # (the base hooks: the multiplier reads only the stop's kind, so it is asked once
                # per kind for the route's train; the base revenue is the stop's in the colours)
                train = route.train
                mults = route._mults
                if mults is None:
                    mults = route._mults = {}
                kind = stop.kind
                mult = mults.get(kind)
                if mult is None:
                    mult = mults[kind] = self.revenue_multiplier(stop, train)
                got = prices[stop] = mult * stop.revenue_for(self.phase_colors(route), train.name)
            else:
                got = prices[stop] = self.revenue_multiplier(stop, route.train) * self.route_base_revenue(stop, route)
        return got

    def revenue_for(self, route: Route, stops: Iterable[RevenueCenter]) -> int:
        cls = type(self)
        if cls.stop_revenue is not RouteRules.stop_revenue \
                or cls.revenue_multiplier is not RouteRules.revenue_multiplier \
                or cls.route_base_revenue is not RouteRules.route_base_revenue:
            return sum(self.stop_revenue(s, route) for s in stops)
        # (the base hooks: each stop priced in one loop, kept per stop as ``stop_revenue``
        # keeps it, the multiplier asked once per stop kind for the route's train)
        prices = route._stop_prices
        if prices is None:
            prices = route._stop_prices = {}
        mults = route._mults
        if mults is None:
            mults = route._mults = {}
        train = route.train
        colors: Sequence[str] | None = None
        total = 0
        for stop in stops:
            got = prices.get(stop)
            if got is None:
                kind = stop.kind
                mult = mults.get(kind)
                if mult is None:
                    mult = mults[kind] = self.revenue_multiplier(stop, train)
                if colors is None:
                    colors = self.phase_colors(route)
                got = prices[stop] = mult * stop.revenue_for(colors, train.name)
            total += got
        return total

    def stops_revenue(self, route: Route, stops: list[RevenueCenter]) -> int:
        """``revenue_for(route, stops)``, worked out once for the route's list of paying stops
        (a title's stop choice prices its pick; the route's revenue is that same price)."""
        priced = route._priced
        if priced is not None and priced[0] is stops:
            return priced[1]
        rev = self.revenue_for(route, stops)
        route._priced = (stops, rev)
        return rev

    def routes_revenue(self, routes: Iterable[Route]) -> int:
        return sum(r.revenue() for r in routes)

    def extra_revenue(self, entity: Entity, routes: Sequence[Route]) -> int:
        return 0

    def routes_subsidy(self, routes: Sequence[Route]) -> int:
        return 0

    def revenue_str(self, route: Route) -> str:
        return "-".join(h.id for h in route.hexes)

    def subsidy_for(self, route: Route, stops: Sequence[RevenueCenter]) -> Any:  # (a title's subsidy, None: none)
        return None

    def route_distance(self, route: Route) -> int:
        return sum(s.visit_cost for s in route.visited_stops)

    def route_distance_str(self, route: Route) -> str:
        return str(self.route_distance(route))

    # -- checks ------------------------------------------------------------------------

    def check_min_stops(self, route: Route, visited: Sequence[RevenueCenter]) -> None:
        cd = route._cd
        if cd is None:
            cd = route.connection_data
        if cd and len(visited) < 2 and not self.is_local(route.train):
            raise RouteTooShort("Route must have at least 2 stops")

    def check_route_token(self, route: Route, token: RevenueCenter | None) -> None:
        if token is None:
            raise NoToken("Route must contain token")

    def check_groups(self, route: Route, visited: Sequence[RevenueCenter]) -> None:
        counts: dict[str, int] = {}
        for s in visited:
            for g in s.groups:
                counts[g] = counts.get(g, 0) + 1
        for g, n in counts.items():
            if n > 1:
                raise RouteError(f"Cannot use group {g} more than once", rule="route-group")

    def check_terminals(self, route: Route) -> None:
        paired = route._paired
        if paired is not None:  # (the shared pairing's answer: it reads only the segments)
            if paired[4]:
                raise RouteError("Route cannot pass through terminal", rule="route-terminal")
            return
        if len(route.paths) < 3:
            return
        for p in route.ordered_paths[1:-1]:
            if p.terminal:
                raise RouteError("Route cannot pass through terminal", rule="route-terminal")

    def check_other(self, route: Route) -> None:
        pass

    def check_route_combination(self, routes: Sequence[Route]) -> None:
        pass

    def check_cycles(self, route: Route) -> None:
        cd = route._cd
        if cd is None:
            cd = route.connection_data
        paired = route._paired
        if paired is not None:  # (two segments or more: the walk below, done with the pairing)
            back = paired[2]
            if back is not None:
                raise ReusesCity(f"Cannot use {back.hex.id} twice")
            return
        if len(cd) == 1 and cd[0].left is cd[0].right and self.is_local(route.train):
            return
        seen: set[RevenueCenter] = set()
        for seg in cd:
            seen.add(seg.left)
            if seg.right in seen:
                raise ReusesCity(f"Cannot use {seg.right.hex.id} twice")
            seen.add(seg.right)

    def check_distance(self, route: Route, visits: Sequence[RevenueCenter], train: RouteTrain | None = None) -> None:
        train = train if train is not None else route.train
        distance = train.distance
        if isinstance(distance, (int, float)):
            used = 0
            for v in visits:
                used += v.visit_cost
            if distance < used:
                raise RouteTooLong(f"{used} is too many stops for {distance} train")
            return
        # each row's visits left (its "visit" as given, else its "pay"), the rows each stop type
        # may use in order, and the visits asked per type in the order first visited
        left, type_rows = _distance_rows(self.game.board, distance)
        asked: dict[str, int] = {}
        if type(self).stop_type is RouteRules.stop_type:
            for v in visits:
                k = v.kind
                asked[k] = asked.get(k, 0) + v.visit_cost
        else:
            for v in visits:
                k = self.stop_type(v, train)
                asked[k] = asked.get(k, 0) + v.visit_cost
        # (the types with the fewest rows first, a stable sort)
        order = sorted(asked, key=lambda t: len(type_rows.get(t, ()))) if len(asked) > 1 else asked
        for t in order:
            num = asked[t]
            for ri in type_rows.get(t, ()):
                cap = left[ri]
                if not cap > 0:
                    continue
                if num <= cap:
                    left[ri] = cap - num
                    num = 0
                else:
                    num -= cap
                    left[ri] = 0
                if not num > 0:
                    break
            if num > 0:
                raise RouteTooLong("Route has too many stops")

    def check_overlap(self, routes: Sequence[Route]) -> None:
        every = [key for r in routes for key in r.track_keys]
        if len(set(every)) == len(every):
            return  # (no piece of track twice; else the first one met names the hex)
        seen: set[TrackKey] = set()
        for r in routes:
            for key in r.track_keys:
                if key in seen:
                    raise RouteError(f"Route cannot reuse track on {key[0].id}", rule="route-overlap")
                seen.add(key)

    def check_connected(self, route: Route, corporation: Entity) -> None:
        """Each path of the route's :attr:`Route.ordered_paths` meets the next
        (:func:`_connects_to`); within a segment's chain, when the chain's paths meet by
        track (:meth:`Chain.linked`), so do they by that rule, and only the meeting of one
        segment with the next is asked."""
        board = self.game.board
        links = board.state.links
        prev: Path | None = None
        cd = route._cd
        if cd is None:
            cd = route.connection_data
        for s in cd:
            chain = s.chain
            cp = chain.paths
            if not cp:
                continue
            forward = s.left in cp[0].nodes  # (as ordered_paths turns a segment's chain)
            first, last = (cp[0], cp[-1]) if forward else (cp[-1], cp[0])
            if prev is not None and not _connects_to(prev, first, corporation, board, links):
                raise RouteError("Route is not connected", rule="route-not-connected")
            if len(cp) > 1:
                # (``Chain.linked``'s kept answer read in place when it is for these links)
                got = chain._linked
                ok = (got[1] if forward else got[2]) if got is not None and got[0] is links else None
                if ok is None:
                    ok = chain.linked(forward, links)
            else:
                ok = True
            if not ok:
                for a, b in pairwise(cp if forward else cp[::-1]):
                    if not _connects_to(a, b, corporation, board, links):
                        raise RouteError("Route is not connected", rule="route-not-connected")
            prev = last

    # -- the whole evaluation ----------------------------------------------------------

    def route_revenue(self, route: Route, suppress_route_token_check: bool = False,
                      suppress_check_route_combination: bool = False) -> int:
        """Check ``route`` (against its sibling routes too) and return its revenue."""
        return self._checked_revenue(route, suppress_route_token_check, not suppress_check_route_combination, None)

    def run_revenues(self, run: Sequence[Route]) -> list[int]:
        """``route_revenue`` of every route of ``run`` (the routes of one ``run_routes``, in
        order), checked as one run: each route's own checks in turn, and the checks whose
        answer is the run's (``check_route_combination``, ``check_overlap``) once, where the
        first route's check asks them, so a refused run fails on the same check with the same
        message as route by route. Each route's revenue is kept as ``Route.revenue`` keeps it."""
        if type(self).route_revenue is not RouteRules.route_revenue:  # (a title's own whole check)
            out: list[int] = []
            for r in run:
                r._revenue = None
                out.append(r.revenue(recompute=True))
            return out
        revenues: list[int] = []
        first = True
        for r in run:
            rev = self._checked_revenue(r, False, first, first)
            r._revenue = rev
            revenues.append(rev)
            first = False
        return revenues

    def _checked_revenue(self, route: Route, suppress_route_token_check: bool, combination: bool,
                         overlap: bool | None) -> int:
        """:meth:`route_revenue`'s checks and price. ``combination``: ask
        ``check_route_combination``; ``overlap``: True, check the run's overlap now (the
        first route of a run checked as one); False, not (asked for this run already); None,
        unless this run passed it already (a route checked alone)."""
        visited = route.visited_stops
        self.check_min_stops(route, visited)
        corp = route.corporation
        token = self.first_tokened(visited, corp)
        if not suppress_route_token_check:
            self.check_route_token(route, token)
        self.check_groups(route, visited)
        self.check_terminals(route)
        self.check_other(route)
        if combination:
            self.check_route_combination(route.routes)
        self.check_cycles(route)
        self.check_distance(route, visited)
        run = route.routes
        if overlap or (overlap is None and not _overlap_checked(run)):
            # (the same answer for every route of the run)
            self.check_overlap(run)
            _mark_overlap_checked(run)
        self.check_connected(route, corp)
        return self.stops_revenue(route, route.stops)


_DISTANCE_ROWS_LIMIT = 1_000  # (a game's kept typed distances beyond this are forgotten and worked out again)


def _distance_rows(board: Board | None,
                   distance: Sequence[Mapping[str, Any]]) -> tuple[list[Any], Mapping[str, list[int]]]:
    """A typed distance's rows as :meth:`RouteRules.check_distance` reads them: each row's
    visits (its "visit", else its "pay"; a fresh list, the caller's to spend) and the rows each
    stop type may use, in order. Kept in the board's supply memo per distance object (held in
    the entry, so its id names it while kept: a train's distance is replaced, never changed in
    place)."""
    kept: dict[int, Any] | None = None
    if board is not None:
        kept = board.supply.memo.get(("distance rows",))
        if kept is None:
            kept = board.supply.memo[("distance rows",)] = {}
    got = kept.get(id(distance)) if kept is not None else None
    if got is None or got[0] is not distance:
        visits: list[Any] = []
        type_rows: dict[str, list[int]] = {}
        for ri, h in enumerate(distance):
            visit = h.get("visit")
            visits.append(h.get("pay") if visit is None else visit)
            for t in h["nodes"]:
                rows = type_rows.get(t)
                if rows is None:
                    type_rows[t] = [ri]
                else:
                    rows.append(ri)
        got = (distance, tuple(visits), type_rows)
        if kept is not None:
            if len(kept) >= _DISTANCE_ROWS_LIMIT:
                kept.clear()
            kept[id(distance)] = got
    return list(got[1]), got[2]


def _first_tokened(board: Board, stops: Iterable[RevenueCenter], corporation: Entity) -> RevenueCenter | None:
    """The first of ``stops`` that ``board.tokened_by(stop, corporation)`` says yes to (the
    same test: a city, a token in one of its slots or among its extra tokens owned by the
    corporation, :meth:`Token.owned_by`), or None."""
    if corporation is None:
        return None
    st = board.state
    # (read by any stop: a stop that is not a city is passed over before its lookup)
    tokens_at: Mapping[Any, Sequence[Any]] = st.tokens
    extra_at: Mapping[Any, Sequence[Any]] = st.extra_tokens
    cid = getattr(corporation, "id", None)
    ckind: str | None = None
    for s in stops:
        if not s.is_city:
            continue
        for lst in (tokens_at.get(s, ()), extra_at.get(s, ())):
            for t in lst:
                if t is not None and t.owner == cid:
                    if ckind is None:
                        ckind = token_kind(corporation)
                    if t.owner_kind == ckind:
                        return s
    return None


Paired: TypeAlias = ("tuple[tuple[Segment, ...], tuple[RevenueCenter, ...], RevenueCenter | None, "
                      "tuple[TrackKey, ...], bool]")
# (the segments of one chain per logged connection, their visited stops in order, the
# first stop a segment comes back to, their chains' track keys in order, and whether the
# route passes through a terminal: what ``visited_stops``, ``check_cycles``, the route's
# ``track_keys`` and ``check_terminals`` read)


def _paths_in_order(segments: Iterable[Segment]) -> list[Path]:
    """The segments' chains' paths in route order (each chain turned to start at its
    segment's left node): :attr:`Route.ordered_paths` and the pairing's terminal question."""
    out: list[Path] = []
    for seg in segments:
        cp = seg.chain.paths
        if cp:
            out.extend(cp if seg.left in cp[0].nodes else reversed(cp))
    return out


def _stops_in_order(segments: Iterable[Segment]) -> list[RevenueCenter]:
    """The stops the segments reach, each once, in the order the route meets them."""
    out: list[RevenueCenter] = []
    seen: set[RevenueCenter] = set()
    for seg in segments:
        for n in (seg.left, seg.right):
            if n is not None and n not in seen:
                seen.add(n)
                out.append(n)
    return out


def _paired_segments(chains: Sequence[Chain]) -> Paired:
    """The segments :meth:`Route._resolve` pairs ``chains`` into (one chain per logged
    connection, two connections or more, each chain clear of the sibling routes' paths):
    none when a pair does not meet at one node or shares a path with the segments before it.
    Kept with the first chain (chains never change: the answer holds for every game, copy and
    board version that has them); with one chain per connection a pair has at most one
    candidate, so the logged nodes never decide. With the segments, the base rules'
    ``visited_stops`` and ``check_cycles`` answers and the route's track keys, which read
    only them."""
    first = chains[0]
    rest = tuple(chains[1:])
    kept = first._pairs
    if kept is None:
        kept = first._pairs = {}
    got = kept.get(rest)
    if got is not None:
        return got
    out: list[Segment] = []
    taken: set[Path] = set()
    for i in range(len(chains) - 1):
        a, b = chains[i], chains[i + 1]
        found = _pair_of(a, b, taken)
        if found is None:
            out = []
            break
        left, right, middle = found
        if i == 0:
            out.append(Segment(left, middle, a))
        out.append(Segment(middle, right, b))
        taken.update(a.paths)
    visited = _stops_in_order(out)
    back: RevenueCenter | None = None
    seen: set[RevenueCenter] = set()
    for seg in out:
        seen.add(seg.left)
        if seg.right in seen:
            back = seg.right
            break
        seen.add(seg.right)
    # (``check_terminals``' question: a path between the first and the last of the segments'
    # paths in route order, as ``Route.ordered_paths`` turns each chain, that is a terminal)
    ordered = _paths_in_order(out)
    through = len(ordered) >= 3 and any(p.terminal for p in ordered[1:-1])
    paired = (tuple(out), tuple(visited), back, tuple([k for seg in out for k in seg.chain.track_keys]), through)
    if len(kept) >= _KEPT_CHAINS_LIMIT:
        kept.clear()
    kept[rest] = paired
    return paired


def _pair_of(a: Chain, b: Chain, taken: set[Path]) -> tuple[RevenueCenter, RevenueCenter, RevenueCenter] | None:
    """:meth:`Route._pairwise` for one chain on each side: (left, right, middle) when ``a``
    and ``b`` are clear of ``taken``, meet at exactly one node and share no path."""
    if taken and (not taken.isdisjoint(a.paths) or not taken.isdisjoint(b.paths)):
        return None
    an = a.nodes
    bn = b.nodes
    if an is None or bn is None:
        return None
    middle = [n for n in an if n in bn]
    if len(middle) != 1 or not a.path_set.isdisjoint(b.paths):
        return None
    m = middle[0]
    return next(n for n in an if n is not m), next(n for n in bn if n is not m), m


def _overlap_checked(run: Sequence[Route]) -> bool:
    """Whether ``check_overlap`` passed for exactly these routes (each route remembers the run
    it was checked in)."""
    return all(r._overlap_run is not None and len(r._overlap_run) == len(run)
               and all(a is b for a, b in zip(r._overlap_run, run, strict=True)) for r in run)


def _mark_overlap_checked(run: Sequence[Route]) -> None:
    checked = tuple(run)
    for r in run:
        r._overlap_run = checked

def rules_for(game: Game) -> RouteRules:
    """The route rules of ``game``: what its ``route_rules()`` (a :class:`Game` hook) gives."""
    return game.route_rules()

# --------------------------------------------------------------------------------------
# routes

class Route:
    """One train's route in a run. ``routes`` is the list of all routes of the run (this one
    included): sibling routes matter for track reuse and for some titles' revenues.

    Logged values (``hexes``, ``revenue``, ``revenue_str``, ``subsidy``) are returned as
    given, like the reference; :meth:`revenue` with ``recompute=True`` checks and computes.
    """

    # computed values, unset until worked out (read from the class until a route writes its own)
    _logged_hex_ids: list[Any] | None = None  # (from_log's, until first read)
    _resolving: bool = False
    _paths: list[Path] | None = None
    _track: list[TrackKey] | None = None
    _visited: list[RevenueCenter] | None = None
    _stops: list[RevenueCenter] | None = None
    _hexes: list[Hex] | None = None
    _ordered: list[Path] | None = None
    _priced: tuple[list[RevenueCenter], int] | None = None  # (paying stops, their revenue)
    _stop_prices: dict[RevenueCenter, int] | None = None  # (the base stop_revenue per stop)
    _colors: tuple[str, ...] | None = None  # (the phase's colours the route is priced in)
    _mults: dict[str, int] | None = None  # (the train's multiplier per stop kind)
    _overlap_run: tuple[Route, ...] | None = None  # the run whose overlap check passed
    _paired: Paired | None = None  # (the shared pairing ``_resolve`` found, if one)

    def __init__(self, rules: RouteRules, train: Train, *, routes: list[Route] | None = None,
                 connections: list[list[str]] | None = None, hexes: list[Hex] | None = None,
                 nodes: Iterable[str] | None = None, revenue: int | None = None,
                 revenue_str: str | None = None, subsidy: Any = None, halts: Any = None,
                 abilities: Any = None, phase: object = None, connection_data: list[Segment] | None = None,
                 chain_cache: ChainCache | None = None):
        self.rules = rules
        self.train = train
        self.routes = routes if routes is not None else [self]
        self.connections = connections
        self._logged_hexes = hexes
        self.node_signatures_logged = list(nodes) if nodes is not None else None
        self._node_sigs = self.node_signatures_logged
        self._revenue = revenue
        self._revenue_str = revenue_str
        self._subsidy = subsidy
        self.halts = halts
        self.abilities = abilities
        self.phase = phase
        self._cd = connection_data
        self._chains: ChainCache = chain_cache if chain_cache is not None else {}
        # (the computed values start unset: the class's None, written when worked out)
        # a title's values worked out once for the route in the state it is priced in (1867's
        # bonuses, 1825's double headers), forgotten by ``clear_cache``
        self.memo: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"<Route {getattr(self.train, 'id', self.train)} {self.connections}>"

    @classmethod
    def from_log(cls, rules: RouteRules, data: dict[str, Any], train: Train, *, routes: list[Route] | None = None,
                 phase: object = None, chain_cache: ChainCache | None = None) -> Route:
        # (what ``__init__`` sets for these values, written directly: a route is made per logged
        # route of every run, and the keyword call was most of its making)
        route = cls.__new__(cls)
        get = data.get
        route.rules = rules
        route.train = train
        route.routes = routes if routes is not None else [route]
        route.connections = get("connections")
        route._logged_hexes = None
        nodes = get("nodes")
        route.node_signatures_logged = route._node_sigs = list(nodes) if nodes is not None else None
        route._revenue = get("revenue")
        route._revenue_str = get("revenue_str")
        route._subsidy = get("subsidy")
        route.halts = get("halts")
        route.abilities = get("abilities")
        route.phase = phase
        route._cd = None
        route._chains = chain_cache if chain_cache is not None else {}
        route.memo = {}
        route._logged_hex_ids = get("hexes")
        return route

    # -- basics ------------------------------------------------------------------------

    @property
    def corporation(self) -> Entity:
        rules = self.rules
        if type(rules).train_owner is RouteRules.train_owner:  # (the base hook: the game's, asked directly)
            owner: Entity = rules.game.train_owner(self.train)
            return owner
        return rules.train_owner(self.train)

    def clear_cache(self, all: bool = False) -> None:
        """Forget computed values (``all``: also the resolved track)."""
        self._revenue = None
        self._revenue_str = None
        self._visited = None
        self._stops = None
        self._hexes = None
        self._ordered = None
        self._paths = None
        self._track = None
        self._subsidy = None
        self._priced = None
        self._stop_prices = None
        self._colors = None
        self._mults = None
        self._overlap_run = None
        if self.memo:
            self.memo = {}
        if all:
            self._cd = None
            self._paired = None
            self._logged_hexes = None
            self._logged_hex_ids = None

    # -- resolving logged connections --------------------------------------------------

    def _node_chains(self, start: RevenueCenter, end: RevenueCenter,
                     within: frozenset[str] | None = None) -> list[Chain]:
        skip_track = self.rules.skip_route_track_type(self.train)
        key = (start, end, skip_track, within)
        r = self._chains.get(key)
        if r is None:
            r = self._chains[key] = node_chains(start, end, skip_track, board=self.rules.board, within=within)
        return r

    def _matching_chains(self, hex_ids: Sequence[str], skip_track: str | None) -> Sequence[Chain]:
        """The chains a logged connection ``hex_ids`` names, for a train skipping ``skip_track``
        (a kept tuple handed out as it is: the caller reads it, never changes it)."""
        if not hex_ids:
            return []
        rules = self.rules
        board = rules.game.board  # (the rules' board, without the property's call)
        memo = board.supply.memo
        logged = tuple(hex_ids)
        # one entry per logged hex list and skipped track (ids only: the memo goes with every
        # copy of the game): what the list names, and the chains last found with the tiles
        # (catalogue objects) and links of its hexes they were found on (the board replaces a
        # hex's links entry when they change); only lists of plain ids are kept, so a list
        # found is one (a list holding an unhashable value is not looked up)
        key = ("logged chains", logged, skip_track)
        try:
            got = memo.get(key)
        except TypeError:
            got = None
        st = board.state
        tile_at = st.tile_at
        links_at = st.links
        named: tuple[frozenset[str], tuple[str, ...], str, str]
        if got is not None:
            # the board's tile and link maps are replaced, never changed in place: the very
            # maps the entry was last found on have the same tiles and links everywhere
            if got[4] is tile_at and got[5] is links_at:
                return got[3]  # type: ignore[no-any-return]
            named = got[0]
            # (the entry's tiles and links are the list's hexes', in order: as many)
            hx = named[1]
            if all(map(is_, map(tile_at.get, hx), got[1])) and all(map(is_, map(links_at.get, hx), got[2])):
                memo[key] = (named, got[1], got[2], got[3], tile_at, links_at)
                return got[3]  # type: ignore[no-any-return]
        else:
            want = list(hex_ids)
            for h in want:
                if not isinstance(h, str):
                    within, _, start_id, end_id = _logged_hexes(want)
                    start_hex = rules.hex_by_id(start_id)
                    end_hex = rules.hex_by_id(end_id)
                    if start_hex is None or end_hex is None:
                        return []
                    return self._walk_matching_chains(want, within, start_hex, end_hex)
            names = board.hexmap.logged_names
            got_named = names.get(logged)
            if got_named is None:
                if len(names) >= _SHARED_WALKS_LIMIT:
                    names.clear()
                got_named = names[logged] = _logged_hexes(want)
            named = got_named
        hexes = named[1]
        # (every hex of the map has a tile: none, the id names no hex)
        start_tile = tile_at.get(named[2])
        end_tile = tile_at.get(named[3])
        if start_tile is None or end_tile is None:
            return []
        starts = start_tile.nodes
        ends = end_tile.nodes
        # the walk reads only these hexes' tiles (spec, rotation, flags) and links (neighbour
        # hexes of the shared map): its answer, by index, is shared by the map's games
        # first by the hexes' placed tiles (catalogue objects, pooled by the map's games) with
        # their links entries (the board's, shared by copies and by the games of a shared map)
        # checked by identity: the chains a game or board version had for the same tiles
        hexmap = board.hexmap
        by_placed = hexmap.logged_placed
        tiles = tuple(map(tile_at.get, hexes))
        pkey = (logged, skip_track, tiles)
        seen = by_placed.get(pkey)
        if seen is not None:
            if all(map(is_, map(links_at.get, hexes), seen[0])):
                kept = seen[1]
                memo[key] = (named, tiles, seen[0], kept, tile_at, links_at)
                return kept
        shared = hexmap.logged_walks
        parts, tiles, links = _walk_parts(memo, hexes, tile_at, links_at)
        skey = (logged, skip_track, parts)
        entry = shared.get(skey)
        if entry is not None:
            # the chains themselves, kept per tuple of the hexes' placed tiles (with the key's
            # ids, specs and links they name the same paths and nodes): made once for every
            # game and board version that has these tiles, so their track keys, path sets and
            # link answers are worked out once (a chain never changes: only its caches fill)
            refs, made = entry
            had = made.get(tiles)
            if had is not None:
                kept = had
            else:
                ids = list(hex_ids)
                kept = tuple([Chain((starts[si], ends[ei]), [tile_at[h].paths[pi] for h, pi in prefs], ids)
                              for si, ei, prefs in refs])
                if len(made) >= _KEPT_CHAINS_LIMIT:
                    made.clear()
                made[tiles] = kept
        else:
            found = logged_chains(starts, ends, list(hex_ids), skip_track, board=board)
            if len(shared) >= _SHARED_WALKS_LIMIT:
                shared.clear()
            kept = tuple(found)
            shared[skey] = (_walk_refs(found, starts, ends), {tiles: kept})
        memo[key] = (named, tiles, links, kept, tile_at, links_at)
        if len(by_placed) >= _SHARED_WALKS_LIMIT:
            by_placed.clear()
        by_placed[pkey] = (links, kept)
        return kept

    def _run_chains(self, conns: list[list[str]], skip_track: str | None) -> list[Sequence[Chain]]:
        """:meth:`_matching_chains` of each logged connection of ``conns`` (two or more), asked
        once for the whole list. An entry per list of logged hex lists and skipped track, kept
        with the map (shared by its games, like the connections' chains per placed tiles),
        holds each connection's kept chains per tuple of the tiles (catalogue objects) of the
        hexes they were found on, with those hexes' links entries, checked by identity (every
        version of the hexes' tiles a run met keeps its own answer): each is made only from
        every connection's own entry for the board maps in hand (the union of their hexes), so
        an answer here is the one each connection's entry gives, the same kept tuples."""
        board = self.rules.game.board
        shared: dict[Any, Any] = board.hexmap.logged_placed  # (its entries of another shape beside)
        st = board.state
        tile_at = st.tile_at
        links_at = st.links
        try:
            key = ("logged run chains", tuple(map(tuple, conns)), skip_track)
            got = shared.get(key)
        except TypeError:
            return [self._matching_chains(h, skip_track) for h in conns]
        if got is not None:
            # (the union's hexes, then the answers per tuple of their placed tiles: a run met
            # again after a lay on its hexes, in this game or the next one on the map, finds
            # each version it had)
            hx = got[0]
            had = got[1].get(tuple(map(tile_at.get, hx)))
            if had is not None and all(map(is_, map(links_at.get, hx), had[1])):
                return list(had[0])
        found = [self._matching_chains(h, skip_track) for h in conns]
        # the union of the connections' own entries (the game's), each just found or refreshed
        # for these maps
        memo = board.supply.memo
        seen: dict[str, tuple[Any, Any]] = {}
        for h, chains in zip(key[1], found, strict=True):
            own = memo.get(("logged chains", h, skip_track))
            if own is None or own[3] is not chains or own[4] is not tile_at or own[5] is not links_at:
                return found
            for x, t, nbs in zip(own[0][1], own[1], own[2], strict=True):
                seen[x] = (t, nbs)
        hx = tuple(seen)
        if got is None or got[0] != hx:
            if len(shared) >= _SHARED_WALKS_LIMIT:
                shared.clear()
            got = shared[key] = (hx, {})
        versions: dict[Any, Any] = got[1]
        if len(versions) >= _KEPT_CHAINS_LIMIT:
            versions.clear()
        versions[tuple([v[0] for v in seen.values()])] = (tuple(found), tuple([v[1] for v in seen.values()]))
        return found

    def _walk_matching_chains(self, want: list[str], within: frozenset[str], start_hex: Hex,
                              end_hex: Hex) -> list[Chain]:
        """:meth:`_matching_chains`, walked: the chains between the end hexes' nodes named ``want``."""
        out: list[Chain] = []
        board = self.rules.board
        starts = board.tile(start_hex).nodes
        ends = board.tile(end_hex).nodes
        for sn in starts:
            for en in ends:
                if sn is en:
                    continue
                for ch in self._node_chains(sn, en, within):
                    if ch.id == want:
                        out.append(ch)
        return out

    def _pairwise(self, chains_a: Sequence[Chain], chains_b: Sequence[Chain], other: set[Path]) -> Pair | None:
        """The first pair of ``chains_a`` and ``chains_b`` (each already clear of the sibling
        routes' paths) clear of ``other`` (the paths of this route's earlier segments) that
        meet at one node; among several, the one naming the most logged nodes."""
        if other:
            chains_a = [a for a in chains_a if other.isdisjoint(a.paths)]
            chains_b = [b for b in chains_b if other.isdisjoint(b.paths)]
        cands: list[Pair] = []
        for a in chains_a:
            an = a.nodes
            if an is None:  # (chains found between two nodes all have them)
                continue
            if len(an) == 2:  # (every chain between two nodes: the middle asked per end)
                x, y = an
                for b in chains_b:
                    bn = b.nodes
                    if bn is None:
                        continue
                    if x in bn:
                        if y in bn:
                            continue  # (both ends shared: no one middle)
                        m = x
                    elif y in bn:
                        m = y
                    else:
                        continue
                    if not a.path_set.isdisjoint(b.paths):
                        continue
                    left = y if x is m else x
                    right = next(n for n in bn if n is not m)
                    cands.append((a, b, left, right, m))
                continue
            for b in chains_b:
                bn = b.nodes
                if bn is None:
                    continue
                middle = [n for n in an if n in bn]
                if not middle:
                    continue
                if not a.path_set.isdisjoint(b.paths):
                    continue
                if len(middle) != 1:
                    continue
                m = middle[0]
                left = next(n for n in an if n is not m)
                right = next(n for n in bn if n is not m)
                cands.append((a, b, left, right, m))
        if not cands:
            return None
        if len(cands) == 1 or not self._node_sigs:
            return cands[0]
        sigs = set(self._node_sigs)
        best = None
        best_n = -1
        for c in cands:
            n = sum(1 for x in (c[2], c[3], c[4]) if x.signature in sigs)
            if n > best_n:
                best, best_n = c, n
        return best

    @property
    def connection_data(self) -> list[Segment]:
        """The route's segments (resolved from the logged connections on first use)."""
        cd = self._cd
        if cd is not None:
            return cd
        cd = self._cd = []
        conns = self.connections
        if not conns:
            return cd
        self._resolving = True
        try:
            self._resolve(cd, conns)
        finally:
            self._resolving = False
            self._node_sigs = None
            self._paths = None
            self._track = None
        return cd

    def _resolve(self, cd: list[Segment], conns: list[list[str]]) -> None:
        rules = self.rules
        corp = self.corporation
        if len(conns) == 1 and "local" in conns[0]:
            if rules.is_local(self.train):
                hx = rules.hex_by_id(conns[0][1])
                if hx is not None:
                    for n in rules.board.tile(hx).nodes:
                        if rules.city_tokened_by(n, corp):
                            cd.append(Segment(n, n, Chain(None, [], None)))
                            return
            conns = []
        skip_track = rules.skip_route_track_type(self.train) if conns else None
        possibilities = self._run_chains(conns, skip_track) if len(conns) > 1 else \
            [self._matching_chains(h, skip_track) for h in conns]
        other = set(rules.compute_other_paths(self.routes, self))
        if len(possibilities) == 1:
            for ch in possibilities[0]:
                nodes = ch.nodes
                if nodes is not None and any(rules.city_tokened_by(n, corp) for n in nodes) \
                        and other.isdisjoint(ch.paths):
                    cd.append(Segment(nodes[0], nodes[1], ch))
                    return
            return
        if possibilities and set(map(len, possibilities)) == {1}:
            # one chain per connection (nearly every logged run): the pairing reads only the
            # chains (their nodes and paths), so its segments are kept with the first chain;
            # a chain on a sibling route's paths leaves its connection none, so no pairing
            chains = [p[0] for p in possibilities]
            if other:
                for ch in chains:
                    if not other.isdisjoint(ch.paths):
                        return
            paired = _paired_segments(chains)
            cd.extend(paired[0])
            self._paired = paired
            return
        # each connection's chains clear of the sibling routes' paths, sifted once; a pair is
        # then sifted only against the paths this route's earlier segments took
        if other:
            possibilities = [[ch for ch in chains if other.isdisjoint(ch.paths)] for chains in possibilities]
        taken: set[Path] = set()
        for i in range(len(possibilities) - 1):
            found = self._pairwise(possibilities[i], possibilities[i + 1], taken)
            if found is None:
                cd.clear()
                return
            a, b, left, right, middle = found
            if i == 0:
                cd.append(Segment(left, middle, a))
            cd.append(Segment(middle, right, b))
            taken.update(a.paths)

    # -- derived -----------------------------------------------------------------------

    @property
    def chains(self) -> list[Chain]:
        return [s.chain for s in self.connection_data]

    @property
    def paths(self) -> list[Path]:
        p = self._paths
        if p is None:
            cd = self._cd  # (the segments as resolved, or resolving: the list being filled)
            if cd is None:
                cd = self.connection_data
            p = [x for s in cd for x in s.chain.paths]
            if self._resolving:
                return p
            self._paths = p
        return p

    @property
    def track_keys(self) -> list[TrackKey]:
        """:func:`track_keys` of :attr:`paths`, kept with them (every route of a run checks the
        overlap of all the run's routes)."""
        t = self._track
        if t is None:
            # (the keys of the paths in order: each chain's, one after the other; the shared
            # pairing's when the route has one)
            cd = self._cd
            if cd is None:
                cd = self.connection_data
            paired = self._paired
            t = list(paired[3]) if paired is not None else [k for s in cd for k in s.chain.track_keys]
            if self._resolving:
                return t
            self._track = t
        return t

    @property
    def ordered_paths(self) -> list[Path]:
        op = self._ordered
        if op is None:
            cd = self._cd
            op = self._ordered = _paths_in_order(self.connection_data if cd is None else cd)
        return op

    @property
    def ordered_hexes(self) -> list[Hex]:
        out: list[Hex] = []
        for p in self.ordered_paths:
            h = p.hex
            if not out or out[-1] is not h:
                out.append(h)
        return out

    @property
    def all_hexes(self) -> list[Hex]:
        return list(dict.fromkeys(p.hex for p in self.paths))

    @property
    def visited_stops(self) -> list[RevenueCenter]:
        v = self._visited
        if v is None:
            v = self._visited = self.rules.visited_stops(self)
        return v

    @property
    def stops(self) -> list[RevenueCenter]:
        s = self._stops
        if s is None:
            s = self._stops = self.rules.compute_stops(self)
        return s

    @property
    def hexes(self) -> list[Hex]:
        if self._logged_hexes is not None:
            return self._logged_hexes
        ids = self._logged_hex_ids
        if ids is not None:
            rules = self.rules
            # (an unknown id gives None, failing when read, as before; with the base hook, the
            # map's lookup asked directly, as the board asks it for an id that is a string)
            found: list[Any]
            if type(rules).hex_by_id is RouteRules.hex_by_id:
                # (the map's lookup is its table's ``get``: read from the table directly)
                map_table = rules.game.board.hexmap._by_id
                found = [map_table.get(h) if isinstance(h, str) else None for h in ids]
            else:
                by_id = rules.hex_by_id
                found = [by_id(h) for h in ids]
            self._logged_hexes = logged = found
            self._logged_hex_ids = None
            return logged
        h = self._hexes
        if h is None:
            seq: list[RevenueCenter] = []
            for s in self.connection_data:
                for n in (s.left, s.right):
                    if not seq or seq[-1] is not n:
                        seq.append(n)
            h = self._hexes = [n.hex for n in seq if n is not None]
        return h

    @property
    def node_signatures(self) -> list[str]:
        if self._node_sigs is not None:
            return self._node_sigs
        seen: list[RevenueCenter] = []
        for ch in self.chains:
            for n in ch.nodes or ():
                if n is not None and n not in seen:
                    seen.append(n)
        return [n.signature for n in seen]

    @property
    def connection_hexes(self) -> list[list[str]]:
        cd = self.connection_data
        if self.rules.is_local(self.train) and len(cd) == 1 and not cd[0].chain.paths:
            return [["local", cd[0].left.hex.id]]
        return [chain_id(s.chain.paths) for s in cd]

    @property
    def distance(self) -> int:
        return self.rules.route_distance(self)

    # -- revenue -----------------------------------------------------------------------

    def revenue(self, recompute: bool = False, suppress_route_token_check: bool = False,
                suppress_check_route_combination: bool = False) -> int:
        """The logged revenue if there is one (unless ``recompute``), else the checked,
        computed revenue. Raises :class:`RouteError` for illegal routes."""
        if self._revenue is not None and not recompute:
            return self._revenue
        rev = self.rules.route_revenue(self, suppress_route_token_check, suppress_check_route_combination)
        self._revenue = rev
        return rev

    @property
    def revenue_str(self) -> str:
        if self._revenue_str is None:
            self._revenue_str = self.rules.revenue_str(self)
        return self._revenue_str

    @property
    def subsidy(self) -> Any:
        if self._subsidy is None:
            self._subsidy = self.rules.subsidy_for(self, self.stops)
        return self._subsidy

    def to_log(self) -> dict[str, Any]:
        """The route as a ``run_routes`` entry."""
        d: dict[str, Any] = {
            "train": self.train.id,
            "connections": self.connection_hexes,
            "hexes": [h.id for h in self.hexes],
            "revenue": self.revenue(),
            "revenue_str": self.revenue_str,
            "nodes": self.node_signatures,
        }
        sub = self.subsidy
        if sub is not None:
            d["subsidy"] = sub
        if self.halts is not None:
            d["halts"] = self.halts
        if self.abilities is not None:
            d["abilities"] = self.abilities
        return d

def routes_from_log(rules: RouteRules, route_dicts: Sequence[dict[str, Any]],
                    train_by_id: Callable[[Any], Train | None] | dict[str, Train], *,
                    phase: object = None) -> list[Route]:
    """Build the :class:`Route` objects of one ``run_routes`` action (siblings share a list)."""
    lookup: Callable[[Any], Train | None] = train_by_id.get if isinstance(train_by_id, dict) else train_by_id
    routes: list[Route] = []
    cache: ChainCache = {}
    for d in route_dicts:
        train = lookup(d.get("train"))
        if train is None:
            raise RouteError(f"unknown train {d.get('train')!r}", rule="unknown-train")
        routes.append(Route.from_log(rules, d, train, routes=routes, phase=phase, chain_cache=cache))
    return routes

def routes_revenue(routes: Sequence[Route], rules: RouteRules | None = None) -> int:
    """Total revenue of a run (through the rules' ``routes_revenue`` hook)."""
    if not routes:
        return 0
    rules = rules if rules is not None else routes[0].rules
    return rules.routes_revenue(routes)

# --------------------------------------------------------------------------------------
# game-facing helpers

def revenues_for_action(game: Game, entity: Entity, route_dicts: list[dict[str, Any]],
                        trains: dict[str, Train]) -> list[int]:
    """Checked revenue of every route of a ``run_routes`` action (in order)."""
    rules = rules_for(game)
    routes = routes_from_log(rules, route_dicts, trains)
    try:
        out = rules.run_revenues(routes)
    finally:
        release_run(routes)
    checks = game._run_checks
    if checks is not None:  # the router is suggesting a run: its checks are remembered
        key = _entries_key(route_dicts, trains)
        if key is not None:
            checks[key] = list(out)
    return out


def release_run(routes: list[Route]) -> None:
    """Drop the references by which the routes of a checked run reach one another (the shared
    sibling list, the run whose overlap check passed, what the rules kept per run in a route's
    memo): no one keeps them once their revenues are known, and without these cycles they are
    freed at once rather than by the collector."""
    for r in routes:
        r._overlap_run = None
        r.memo.clear()
    routes.clear()


def _entries_key(route_dicts: Sequence[Any], trains: dict[Any, Train]) -> str | None:
    """The exact form of a run's entries with the trains it may use (a memo key), or None when
    they are not plain data."""
    import json

    try:
        return json.dumps([sorted(map(str, trains)), route_dicts], sort_keys=True)
    except (TypeError, ValueError):
        return None


def _checked_revenues(game: Game, entity: Entity, routes: list[Any], trains: dict[Any, Train]) -> list[Any] | None:
    """The revenues the engine itself worked out for exactly these entries when it suggested
    them as ``entity``'s run in the state just before this action (``process()`` numbers the
    state anew before the rules run), or None: anything else is checked in full."""
    memo = game._checked_run
    if memo is None:
        return None
    moves, version, who, names, key, revenues = memo
    board = game.board
    if (moves + 1 != (game._moves or 0) or who is not entity or board is None or version != board.state.version
            or names != tuple(map(str, trains)) or _entries_key(routes, trains) != key):
        return None
    game._checked_run = None  # used once
    return list(revenues)


def evaluate_routes(game: Game, entity: Entity, routes: list[Any],
                    action: dict[str, Any]) -> list[dict[str, Any]]:
    """Compute each route of a ``run_routes`` action and compare its revenue with what the
    action claims: ``{"train", "revenue", "route"}`` per route.

    While replaying a log, a stored revenue that differs from ours is reported as a warning
    (an error with ``strict``) and stands; in live play a claimed revenue must equal the
    computed one.
    """
    out: list[dict[str, Any]] = []
    trains: dict[Any, Train] = {t.id: t for t in game.route_trains(entity)}  # (looked up by logged values)
    for r in routes:
        ran = trains.get(r.get("train")) if isinstance(r, dict) and isinstance(r.get("train"), str) else None
        if ran is not None and ran.operated:
            raise GameError(f"{ran.id} already ran this operating round", rule="train-operated")
    computed = None
    try:
        computed = _checked_revenues(game, entity, routes, trains) if routes else None
        if computed is None:
            computed = game.compute_route_revenues(entity, routes, trains)
    except GameError as e:
        if not game.loading or game.strict:
            raise
        game.warnings.append(f"action {action.get('id')}: cannot verify routes: {e}")
    for i, r in enumerate(routes):
        if r.get("train") not in trains:
            raise GameError(f"{entity.name} has no train {r.get('train')!r}", rule="unknown-train")
        claimed = r.get("revenue")
        ours = computed[i] if computed is not None else None
        if ours is not None and claimed is not None and ours != claimed:
            msg = f"action {action.get('id')}: route of train {r['train']} earns {ours}, log says {claimed}"
            if game.strict or not game.loading:
                raise GameError(msg, rule="wrong-revenue")
            game.warnings.append(msg)
        if ours is None and claimed is None:
            raise GameError(f"cannot compute the revenue of train {r['train']}'s route", rule="bad-route")
        revenue = claimed if (game.loading and claimed is not None) else ours
        out.append({"train": r["train"], "revenue": revenue, "route": r})
    return out


def suggest_routes(game: Game, entity: Entity) -> list[dict[str, Any]]:
    """The best routes the router finds for ``entity`` within the game's ``ROUTER_WORK``
    (proven optimal unless the state is very large); none when it finds none."""
    from ..router import optimal_routes

    checks: dict[str, list[Any]] = {}
    outer, game._run_checks = game._run_checks, checks
    try:
        found: list[dict[str, Any]] = optimal_routes(game, entity, work_limit=game.ROUTER_WORK).routes
    except GameError:  # a bot's helper: an empty run is always legal
        return []
    finally:
        game._run_checks = outer
    # the router checked the run it returns in its log form, as process() will: the revenues
    # of exactly these entries are remembered for this state (see evaluate_routes)
    trains: dict[Any, Train] = {t.id: t for t in game.route_trains(entity)}
    key = _entries_key(found, trains) if found and game.board is not None else None
    revenues = checks.get(key) if key is not None else None
    if key is not None and revenues is not None and game.board is not None:
        game._checked_run = (game._moves or 0, game.board.state.version, entity, tuple(map(str, trains)), key, revenues)
    return found
