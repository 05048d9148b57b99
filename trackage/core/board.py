"""The board of a game: the map's catalogue plus the board state, and every move on them.

The catalogue (:class:`~trackage.core.hexmap.HexMap`, :class:`~trackage.core.hexmap.TileSupply`,
tiles, placed tiles, nodes and paths) is shared by every copy of a game and never changes.
What a game changes lives in :class:`BoardState`: plain dicts keyed by hex ids or by
(catalogue) cities, whose values are never changed in place, only replaced. A copy of the
board is therefore a copy of a few dicts.

Derived views (the track graph) are memoised on ``BoardState.version``, which every
change takes from one global counter, so equal versions mean equal boards.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Container, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from . import tiles as tilemod
from .errors import GameError
from .hexmap import FrozenDict, HexMap, TileSupply, has_impassable_border, targeting
from .rewind import Tracked
from .tiles import City, Icon, Placed, Tile
from .tokens import token_kind

if TYPE_CHECKING:
    from .graph import TrackGraph
    from .hexmap import Hex
    from .tiles import Border, FutureLabel, NodeBase, Partition, Stub
    from .tokens import Token

_VERSIONS = itertools.count(1)

_TOKEN_ERRORS: dict[str | None, str] = {
    "no_tokens": "{c} cannot lay token - has no tokens left",
    "existing_token": "{c} cannot lay token - already has a token on {h}",
    "blocked_reservation": "{c} cannot lay token - remaining token slots are reserved on {h}",
    "no_money": "{c} cannot lay token - cannot afford token on {h}",
    "no_slots": "{c} cannot lay token - no token slots available on {h}",
}


def _flag(v: object) -> bool:
    return v is not None and v is not False


_ONE = 1


def edge_mask(edges: Iterable[int]) -> int:
    """A set of hex edges as a bit mask."""
    return sum(map(_ONE.__lshift__, edges))  # (1 << e summed, the loop in C)


def rotation_memo_key(old: Placed, tile: Placed, nbrs: Iterable[int], edges: Iterable[int]) -> tuple[Any, ...]:
    """The key of ``legal_rotation(old, tile, nbrs, connected_edges=edges)`` in
    :func:`rotation_memo`: the two edge sets as bit masks (ints, which the collector does not
    track, where frozensets of them would be two more tracked objects per entry)."""
    return rotation_key(old, tile, edge_mask(nbrs), edge_mask(edges))


def rotation_key(old: Placed, tile: Placed, nbrs_mask: int, edges_mask: int) -> tuple[Any, ...]:
    """:func:`rotation_memo_key` from the edge sets' masks (:func:`edge_mask`), for a caller
    that tries many tiles on one hex. ``legal_rotation`` reads the two placements' track and
    cities only (their specs, rotations and gauge flags), never their hex nor their copy."""
    return (old.rotation, old.igw, old.igc, tile.spec, tile.rotation, tile.igw, tile.igc, nbrs_mask, edges_mask)


def offmap_rotation_key(old: Placed, spec: Any, rotation: int, nbrs_mask: int, edges_mask: int) -> tuple[Any, ...]:
    """:func:`rotation_key` of a tile of ``spec`` seen off the map (``Tile.at(rotation)``, no
    gauge flags), for a listing that need not place the tile to ask the memo."""
    return (old.rotation, old.igw, old.igc, spec, rotation, None, None, nbrs_mask, edges_mask)


def rotation_memo(old: Placed) -> dict[Any, Any]:
    """Where the answers of ``legal_rotation`` over ``old`` are remembered: with the old
    tile's spec, shared by every game (keys: :func:`rotation_key`)."""
    return old.spec.upgrade_memos.setdefault("legal rotation", {})


def remembered_rotation(memo: dict[Any, Any], key: Hashable, old: Placed, tile: Placed, nbrs: Any,
                        edges: Any) -> bool:
    """``legal_rotation`` of ``tile`` over ``old`` (``nbrs``, ``edges``: the hex's), asked of
    ``memo`` under ``key`` first and remembered there."""
    ok = memo.get(key)
    if ok is None:
        ok = memo[key] = tilemod.legal_rotation(old, tile, nbrs, connected_edges=edges)
    return bool(ok)


#: every edge of a hex (:func:`track_fit`: the neighbours' test always met)
_ALL_EDGES = frozenset(range(6))


def forget_route_info(routes: dict[Any, dict[str, bool]]) -> dict[Any, dict[str, bool]]:
    """What a graph remembers of each corporation's routes once a tile or token changed: like
    the reference, only that it has a train-purchase route."""
    if all(r.get("route_train_purchase") for r in routes.values()):
        return routes
    return {c: r for c, r in routes.items() if r.get("route_train_purchase")}


_ABSENT: Any = object()  # (no entry: never any value's own object)


def _same_entry(mapping: dict[str, Any], key: str, value: Any) -> bool:
    """Is ``mapping[key]`` there and what writing ``value`` would leave: the same object, an
    equal string, or a sequence of the same objects (equal strings) in the same order?"""
    if key not in mapping:
        return False
    now = mapping[key]
    if now is value:
        return True
    if isinstance(now, str) and isinstance(value, str):
        return now == value
    if not isinstance(now, tuple) or not isinstance(value, (tuple, list)) or len(now) != len(value):
        return False
    return all(a is b or (type(a) is str and type(b) is str and a == b) for a, b in zip(now, value))


def track_fit(old: Placed, tile: Placed) -> int:
    """``legal_rotation(old, tile, ...)`` less its two tests of the hex: -1 where the old
    track, new cities or city sizes refuse ``tile`` on any hex, else its exits as a bit mask.
    Those two tests (every new exit leads to a linked neighbour; one is among the entity's
    connected edges) read nothing else, so with the hex's neighbour mask ``n`` and the edge
    mask ``e`` the rule holds exactly when ``fit >= 0 and not fit & ~n and fit & e``: one
    answer per tile pair serves every hex and entity (:meth:`Board.rotation_check`)."""
    return edge_mask(tile.exits) if tilemod.legal_rotation(old, tile, _ALL_EDGES) else -1


class BoardState(Tracked):
    """What a game changes on the board. Every value is replaced, never changed in place.

    ``tile_at`` hex id -> :class:`Placed`; ``supply`` the available tiles in reference
    order; ``next_copy`` tile name -> next index of an unlimited tile; ``laid`` tile id ->
    hex id; ``links`` hex id -> FrozenDict(edge -> Hex) of linked neighbours;
    ``tokens`` city -> slot tuple (token or None; absent: the printed empty slots);
    ``extra_tokens`` city -> tuple; ``city_res`` city -> reservations by slot (entity or
    None); ``tile_res`` hex id -> tile-level reservations; ``hex_tokens`` hex id -> tokens
    on the hex itself; ``icons``/``borders``/``partitions``/``stubs``/``labels`` hex id ->
    tuple; ``future_label`` hex id -> FutureLabel; ``groups`` city -> groups kept from the
    city it replaced; ``route_info`` the track graphs' remembered route information (graph key
    -> corporation -> info); ``version``."""

    __slots__ = (
        "borders",
        "city_res",
        "extra_tokens",
        "future_label",
        "groups",
        "hex_tokens",
        "icons",
        "labels",
        "laid",
        "links",
        "next_copy",
        "partitions",
        "route_info",
        "stubs",
        "supply",
        "tile_at",
        "tile_res",
        "tokens",
        "version",
    )
    STATE_EXCLUDE = ("version",)  # a memo key for derived views, not part of the state
    # the maps that hold only catalogue objects, plain values and station tokens (frozen
    # values): replaced, never changed in place (once the board is built), so copies of a game
    # share them instead of copying them; the others hold entities (state objects: a city's
    # reservations), which a copy must copy
    CLONE_SHARE = ("borders", "extra_tokens", "future_label", "groups", "hex_tokens", "icons", "labels", "laid",
                   "links", "next_copy", "partitions", "stubs", "supply", "tile_at", "tokens")

    def __init__(self) -> None:
        self.tile_at: dict[str, Placed] = {}
        self.supply: tuple[Tile, ...] = ()
        self.next_copy: dict[str, int] = {}
        self.laid: dict[str, str] = {}
        self.links: dict[str, FrozenDict] = {}
        self.tokens: dict[City, tuple[Token | None, ...]] = {}
        self.extra_tokens: dict[City, tuple[Token, ...]] = {}
        self.city_res: dict[City, tuple[Any, ...]] = {}
        self.tile_res: dict[str, tuple[Any, ...]] = {}
        self.hex_tokens: dict[str, tuple[Token, ...]] = {}
        self.icons: dict[str, tuple[Icon, ...]] = {}
        self.borders: dict[str, tuple[Border, ...]] = {}
        self.partitions: dict[str, tuple[Partition, ...]] = {}
        self.stubs: dict[str, tuple[Stub, ...]] = {}
        self.labels: dict[str, tuple[str, ...]] = {}
        self.future_label: dict[str, FutureLabel | None] = {}
        self.groups: dict[City, tuple[str, ...]] = {}
        self.route_info: dict[Any, Any] = {}
        # a fresh number per change; a trial board may stand in a tuple naming it (see 1825)
        self.version: Hashable = next(_VERSIONS)


class Board(Tracked):
    """A game's board: ``hexmap`` and ``supply`` (catalogue), ``state`` (:class:`BoardState`)."""

    CLONE_SKIP = ("_graph", "_graph_version", "_derived", "_token_cities", "token_error", "unsettled_graph",
                  "router_walks", "_trimmed_routes", "_supply_counts")

    def __init__(self, game: Any, map_data: dict[str, Any], supply_data: dict[str, Any],
                 impassable_colors: Iterable[str] | None) -> None:
        self.game = game
        self.hexmap = HexMap.shared_build(map_data, impassable_colors)
        self.supply = TileSupply(supply_data, shared_shapes=bool(getattr(game, "SHARED_SHAPES", False)),
                                 pools=self.hexmap.supply_pools if self.hexmap.shared else None,
                                 kinds_memo=self.hexmap.supply_kinds if self.hexmap.shared else None)
        st = self.state = BoardState()
        (st.tile_at, st.icons, st.borders, st.partitions, st.stubs, st.labels,
         st.future_label) = self.hexmap.printed_state()
        st.supply = self.supply.initial
        st.links = self.hexmap.initial_links()
        self._graph: TrackGraph | None = None
        self._graph_version: Hashable | None = None
        self._derived: tuple[Hashable, dict[Hashable, Any]] | None = None  # (board version, views built at it)
        # (tokens, extra tokens, tiles on the map: the state's maps it was made from, each
        # replaced, never changed in place; :meth:`token_cities`)
        self._token_cities: tuple[Any, Any, Any, dict[Any, tuple[City, ...]]] | None = None
        self.token_error: str | None = None
        self.unsettled_graph: TrackGraph | None = None  # owes whole walks (TrackGraph.settle)
        # the route information :meth:`changed` last left trimmed (the very map): not trimmed again
        self._trimmed_routes: dict[Any, Any] | None = None
        # (the supply tuple, {tile: how many times it holds it}): its membership answers without
        # a scan (a tile is equal only to itself); kept by this board for the very tuple it was
        # made from, worked out again when the supply was replaced elsewhere (undo, a copy).
        # Its dict is changed in place with the supply, so it is written past the journal
        # (an undo puts the old supply back, never the old pair with a changed dict)
        self._supply_counts: tuple[tuple[Tile, ...], dict[Tile, int]] | None = None
        # the router's latest path walks per gauge (``router.candidates.Links``), each node's
        # walk taken again at a later version where the hexes it read are unchanged
        self.router_walks: dict[str | None, Any] | None = None

    # ------------------------------------------------------------ lookups
    def hex_by_id(self, hid: object) -> Any:
        # (the map's own lookup read in place)
        return self.hexmap._by_id.get(hid) if isinstance(hid, str) else None

    @property
    def hexes(self) -> list[Hex]:
        return self.hexmap.hexes

    def tile(self, hex_: Hex) -> Placed:
        """The tile on ``hex_`` now."""
        return self.state.tile_at[hex_.id]

    def tiles(self) -> list[tuple[Hex, Placed]]:
        """(hex, tile) for every hex, in map order."""
        tile_at = self.state.tile_at
        return [(h, tile_at[h.id]) for h in self.hexmap.hexes]

    def tiles_holding(self) -> list[tuple[Hex, Placed]]:
        """:meth:`tiles` cut to the hexes where something may lie (a city's slots, extra tokens
        or reservations ever set, a tile reservation: the hexes the token and reservation maps
        name), in map order. A scan of :meth:`tiles` for tokens or reservations finds nothing
        on the others (their cities hold none and their tiles are not reserved)."""
        st = self.state
        hexes, tile_at = self.hexmap.hexes, st.tile_at
        return [(hexes[i], tile_at[hexes[i].id])
                for i in self._named_positions(st.tile_res, (st.tokens, st.extra_tokens, st.city_res))]

    def _named_positions(self, hex_ids: Iterable[str], city_maps: Iterable[Mapping[City, Any]]) -> list[int]:
        """The map positions (sorted) of the hexes ``hex_ids`` names and of the hexes of the
        cities the maps ``city_maps`` hold (hexes off the map left out)."""
        order = self.hexmap.hex_order()
        positions = {order.get(hid) for hid in hex_ids}
        for city_map in city_maps:
            for city in city_map:
                h = city.hex
                if h is not None:
                    positions.add(order.get(h.id))
        positions.discard(None)
        return sorted(positions)  # type: ignore[arg-type]  # (None discarded)

    def supply_tiles(self) -> tuple[Any, ...]:
        """The tiles available to lay, in reference order."""
        return self.state.supply

    def _supply_count(self) -> dict[Tile, int]:
        """{tile: how many times the supply now holds it} (kept with the supply tuple; the
        caller that replaces the supply updates it through :meth:`_set_supply`)."""
        supply = self.state.supply
        kept = self._supply_counts
        if kept is not None and kept[0] is supply:
            return kept[1]
        counts: dict[Tile, int] = {}
        for t in supply:
            counts[t] = counts.get(t, 0) + 1
        object.__setattr__(self, "_supply_counts", (supply, counts))
        return counts

    def _set_supply(self, supply: tuple[Tile, ...], counts: dict[Tile, int]) -> None:
        # (``counts``: :meth:`_supply_count`'s dict, changed to match ``supply``)
        self.state.supply = supply
        object.__setattr__(self, "_supply_counts", (supply, counts))

    def in_supply(self, tile: Any) -> bool:
        """``tile in supply_tiles()``, without the scan."""
        return tile in self._supply_count()

    def tile_by_id(self, tid: object) -> Any:
        """A tile by id: on the map (placed), in the supply (a :class:`Tile`), the next copy of
        an unlimited tile, or a preprinted tile no longer on the map."""
        if not isinstance(tid, str):
            return None
        st = self.state
        hid = st.laid.get(tid)
        if hid is not None:
            return st.tile_at[hid]
        t = self.supply.known(tid)
        if t is not None:
            if t in self._supply_count():  # (:meth:`in_supply`)
                return t
            if t.unlimited and t.index == self._next_index(t.name):
                # made by another copy of this game (the catalogue keeps every copy it
                # made): for this board it is still the next copy, to be added
                return self._add_extra_tile(t.name)
            pre = self.hexmap.preprinted_tile(tid)
            return pre if pre is not None and st.tile_at.get(pre.hex.id) is pre else t
        name, _, idx = tid.rpartition("-")
        if self.supply.is_unlimited(name) and idx.isdigit() and int(idx) == self._next_index(name):
            return self._add_extra_tile(name)
        return self.hexmap.preprinted_tile(tid)

    def city_by_id(self, cid: object) -> Any:
        """``"<tile id>-<part index>"`` -> a city on the map (or None)."""
        if not isinstance(cid, str):
            return None
        tile_id, _, idx = cid.rpartition("-")
        if not idx.isdigit():
            return None
        tile = self.tile_by_id(tile_id)
        if not isinstance(tile, Placed):
            return None
        return tile.city_by_index(int(idx))

    def placed_tile(self, tile: Tile, rotation: int, hex_: Hex | None) -> Placed:
        """``tile`` (a supply tile) in ``rotation`` on ``hex_``: what would be laid."""
        return tile.at(rotation, hex_)

    def upgrade_labels(self, tile: Placed) -> dict[str, Any]:
        """The labels of the hex under ``tile`` now, as keyword arguments of the upgrade checks."""
        if tile.hex is None:
            return {}
        return {"from_label": self.label(tile.hex), "from_future_label": self.future_label(tile.hex)}

    def node_by_signature(self, signature: str) -> NodeBase | None:
        """``"<hex id>-<part index>"`` (route node signature) -> node on that hex's tile."""
        hex_id, _, idx = signature.rpartition("-")
        tile = self.state.tile_at.get(hex_id)
        if tile is None or not idx.lstrip("-").isdigit():
            return None
        return tile.node_by_index(int(idx))

    def cities(self) -> list[City]:
        """Cities of the tiles on the map, in map order."""
        tile_at = self.state.tile_at
        return [c for h in self.hexmap.hexes for c in tile_at[h.id].cities]

    # ------------------------------------------------------------ hex state
    def neighbors(self, hex_: Hex) -> FrozenDict:
        """Linked neighbours of ``hex_`` (edge -> Hex)."""
        return self.state.links[hex_.id]

    def targeting(self, hex_: Hex, other: Hex) -> bool:
        """Does the track on ``hex_`` leave towards ``other``?"""
        return targeting(self.state.tile_at[hex_.id], other)

    def icons(self, hex_: Hex) -> tuple[Icon, ...]:
        return self.state.icons.get(hex_.id, ())

    def set_icons(self, hex_: Hex, icons: Iterable[Icon]) -> None:
        self.state.icons = {**self.state.icons, hex_.id: tuple(icons)}

    def borders(self, hex_: Hex) -> tuple[Border, ...]:
        return self.state.borders.get(hex_.id, ())

    def set_borders(self, hex_: Hex, borders: Iterable[Border]) -> None:
        self.state.borders = {**self.state.borders, hex_.id: tuple(borders)}

    def partitions(self, hex_: Hex) -> tuple[Partition, ...]:
        return self.state.partitions.get(hex_.id, ())

    def stubs(self, hex_: Hex) -> tuple[Stub, ...]:
        return self.state.stubs.get(hex_.id, ())

    def set_stubs(self, hex_: Hex, stubs: Iterable[Stub]) -> None:
        self.state.stubs = {**self.state.stubs, hex_.id: tuple(stubs)}

    def labels(self, hex_: Hex) -> tuple[str, ...]:
        return self.state.labels.get(hex_.id, ())

    def label(self, hex_: Hex) -> str | None:
        labs = self.labels(hex_)
        return labs[-1] if labs else None

    def set_label(self, hex_: Hex, label: str | None) -> None:
        self.state.labels = {**self.state.labels, hex_.id: (label,) if label else ()}

    def future_label(self, hex_: Hex) -> FutureLabel | None:
        return self.state.future_label.get(hex_.id)

    def groups(self, city: City) -> tuple[str, ...]:
        return self.state.groups.get(city, city.groups)

    def hex_tokens(self, hex_: Hex) -> tuple[Token, ...]:
        return self.state.hex_tokens.get(hex_.id, ())

    # ------------------------------------------------------------ graph
    @property
    def graph(self) -> TrackGraph:
        """The track graph of this board (recomputed when the board changed)."""
        v = self.state.version
        if self._graph is None or self._graph_version != v:
            if self._graph is None:
                from .graph import TrackGraph  # (here: graph.py imports this module)

                self._graph = TrackGraph(self, memory_key="main", **self.game.graph_options())
                if self.game.GRAPH_KEEPS_WALKS:
                    self._graph.keep_walks()
            else:
                self._graph.rebase()
            self._graph_version = v
        return self._graph

    def derived(self, key: Hashable, build: Callable[[], Any]) -> Any:
        """A view computed from the board as it is now, e.g. a distance graph: ``build()`` once,
        then the same object until the board changes."""
        memo = self._derived
        v = self.state.version
        if memo is None or memo[0] != v:
            memo = self._derived = (v, {})
        out = memo[1].get(key)
        if out is None:
            out = memo[1][key] = build()
        return out

    def dismantle_tiles(self) -> None:
        """Take this board's tiles as placed apart (``Game.close``: the game and every copy of
        it are done): the placements the game ever looked at are reference cycles, each tile
        with its nodes and paths, and so are freed at once instead of by a full collection."""
        # (a pooled supply's tiles are other games' too: left whole, as a shared map's)
        tiles: dict[int, Tile] = {} if self.supply.pooled else {id(t): t for t in self.supply.made()}
        for h in () if self.hexmap.shared else self.hexmap.hexes:  # a shared map's: other games' too
            tiles.setdefault(id(h.original_tile.tile), h.original_tile.tile)
        for t in tiles.values():
            t.dismantle_placements()
        self.forget_views()
        self.router_walks = None

    def forget_views(self) -> None:
        """Drop every memoised view (they are recomputed on demand)."""
        self._graph = None
        self._graph_version = None
        self._derived = None
        self._token_cities = None

    def restore_route_info(self, saved: dict[Any, Any]) -> None:
        """Put the graphs' route information back to ``saved`` (a question taught them routes and
        must leave no trace). The track graph keeps its walks of this board version and teaches
        their routes again when asked (:meth:`TrackGraph.unteach`), as a fresh graph would;
        the other views are dropped (they may keep routes of their own). A graph owing walks
        cut short is dropped whole, as before."""
        self.state.route_info = saved
        g = self._graph
        if g is None or self.unsettled_graph is not None or self._graph_version != self.state.version:
            self.forget_views()
            return
        g.unteach()
        self._derived = None

    def changed(self) -> None:
        """A tile or token changed: new version (derived views are recomputed), and the
        graphs' route information is trimmed as the reference trims it."""
        st = self.state
        st.version = next(_VERSIONS)
        routes = st.route_info
        # (the information is replaced, never changed in place, and trimming is idempotent:
        # the very map trimmed last time, or found with nothing to trim, is left as it is)
        if routes and routes is not self._trimmed_routes:
            # (a graph left knowing nothing has no entry, as if it had never been taught)
            trimmed = {k: t for k, v in routes.items() if (t := forget_route_info(v))}
            if len(trimmed) != len(routes) or any(trimmed[k] is not routes[k] for k in trimmed):
                st.route_info = routes = trimmed
            self._trimmed_routes = routes
        self.game.on_board_changed()

    # ------------------------------------------------------------ reservations
    def reserve_homes(self, corporations: Iterable[Any]) -> None:
        for c in corporations:
            coords = c.coordinates
            if not coords:
                continue
            coords = coords if isinstance(coords, list) else [coords]
            for i, coord in enumerate(coords):
                h = self.hex_by_id(coord)
                if h is None:
                    continue
                city = c.city[i] if isinstance(c.city, list) else c.city
                self.add_tile_reservation(h, c, city)

    def tile_reservations(self, hex_: Hex) -> tuple[Any, ...]:
        return self.state.tile_res.get(hex_.id, ())

    def set_tile_reservations(self, hex_: Hex, res: Iterable[Any]) -> None:
        self.state.tile_res = {**self.state.tile_res, hex_.id: tuple(res)}

    def city_reservations(self, city: City) -> tuple[Any, ...]:
        return self.state.city_res.get(city, ())

    def set_city_reservations(self, city: City, res: Iterable[Any]) -> None:
        self.state.city_res = {**self.state.city_res, city: tuple(res)}

    def find_reservation(self, city: City, corporation: Any) -> int | None:
        for i, r in enumerate(self.state.city_res.get(city, ())):
            if r is not None and (r is corporation or getattr(r, "owner", None) is corporation):
                return i
        return None

    def reserved_by(self, city: City, corporation: Any) -> bool:
        # (:meth:`find_reservation`'s loop in place)
        for r in self.state.city_res.get(city, ()):
            if r is not None and (r is corporation or getattr(r, "owner", None) is corporation):
                return True
        return False

    def add_reservation(self, city: City, entity: Any, slot: int | None = None) -> None:
        """Reserve a slot of ``city``: appended, or inserted at ``slot`` (padding with None
        like an array insert)."""
        res = list(self.city_reservations(city))
        if slot is None:
            res.append(entity)
        else:
            if slot > len(res):
                res.extend([None] * (slot - len(res)))
            res.insert(slot, entity)
        self.set_city_reservations(city, res)

    def remove_reservation(self, city: City, entity: Any) -> None:
        res = list(self.city_reservations(city))
        for i, r in enumerate(res):
            if r is entity:
                res[i] = None
                self.set_city_reservations(city, res)
                return

    def remove_all_reservations(self, city: City) -> None:
        self.set_city_reservations(city, ())

    def tile_reserved_by(self, hex_: Hex, corporation: Any) -> bool:
        """A reservation for ``corporation`` on the tile of ``hex_`` itself."""
        return any(r is corporation or getattr(r, "owner", None) is corporation
                   for r in self.tile_reservations(hex_))

    def add_tile_reservation(self, hex_: Hex, entity: Any, city: int | None = None, slot: int | None = None,
                             reserve_city: bool = True) -> None:
        """Reserve a slot of city number ``city`` (position in the tile's cities); with a
        single city and ``reserve_city`` that city is used. Falls back to a tile-level
        reservation."""
        tile = self.tile(hex_)
        if len(tile.cities) == 1 and reserve_city:
            city = 0
        if city is not None and slot is None:
            slot = self.get_slot(tile.cities[city], entity)
        if city is not None and slot is not None:
            self.add_reservation(tile.cities[city], entity, slot)
        else:
            self.set_tile_reservations(hex_, self.tile_reservations(hex_) + (entity,))

    def remove_tile_reservation(self, hex_: Hex, entity: Any) -> None:
        for c in self.tile(hex_).cities:
            if self.reserved_by(c, entity):
                self.remove_reservation(c, entity)
                return
        self.set_tile_reservations(hex_, [r for r in self.tile_reservations(hex_) if r is not entity])

    def token_blocked_by_reservation(self, hex_: Hex, corporation: Any) -> bool:
        res = self.tile_reservations(hex_)
        if not res:
            return False
        tile = self.tile(hex_)
        rb = tile.reservation_blocks
        if rb == "always" or (rb == "single_slot_cities" and any(self.slots(c) == 1 for c in tile.cities)):
            return corporation not in res
        return sum(1 for r in res if r is not corporation) >= sum(self.available_slots(c) for c in tile.cities)

    def available_slot(self, hex_: Hex) -> bool:
        return sum(self.available_slots(c) for c in self.tile(hex_).cities) > 0

    # ------------------------------------------------------------ tokens in cities
    def tokens(self, city: City) -> tuple[Token | None, ...]:
        """The slots of ``city``: a token or None each."""
        t = self.state.tokens.get(city)
        return t if t is not None else (None,) * city.normal_slots

    def settle_graph(self) -> None:
        """Let the track graph finish the walks it cut short (before tokens move, before a copy)."""
        g = self.unsettled_graph
        if g is not None:
            self.unsettled_graph = None
            g.settle()

    def unsettled_graph_goes(self) -> None:
        """Tokens are about to move and the board to take a new version right after (a tile
        or a token laid): the walks a graph cut short are not done (its answers are all
        forgotten at the new version; see :meth:`TrackGraph.forget_pending`)."""
        g = self.unsettled_graph
        if g is not None:
            self.unsettled_graph = None
            g.forget_pending()

    def drop_unsettled_walks(self) -> None:
        """A token is about to move and the board to take a new version right after, with no
        graph question between (a home token placed, then ``Game.graph_changed``): where the
        graph owing walks is this board's own and keeps no walks past a new version (it is
        cleared then, and a walk cut short taught all it would), they are dropped unwalked,
        as :meth:`unsettled_graph_goes` does. Else they are done when the token moves."""
        g = self.unsettled_graph
        if g is not None and g is self._graph and not g.keeps_walks:
            self.unsettled_graph_goes()

    def set_tokens(self, city: City, slots: Iterable[Token | None]) -> None:
        if self.unsettled_graph is not None:
            self.settle_graph()
        self.state.tokens = {**self.state.tokens, city: tuple(slots)}

    def extra_tokens(self, city: City) -> tuple[Token, ...]:
        return self.state.extra_tokens.get(city, ())

    def set_extra_tokens(self, city: City, tokens: Iterable[Token]) -> None:
        if self.unsettled_graph is not None:
            self.settle_graph()
        self.state.extra_tokens = {**self.state.extra_tokens, city: tuple(tokens)}

    def slots(self, city: City) -> int:
        return len(self.tokens(city))

    def slot_count(self, city: City, all: bool = False) -> int:
        return self.slots(city) + (len(self.extra_tokens(city)) if all else 0)

    def tokened(self, city: City) -> bool:
        slots = self.tokens(city)
        return slots.count(None) != len(slots)

    def token_cities(self) -> dict[Any, tuple[City, ...]]:
        """{corporation: the cities on the map holding a token of it (in a slot or extra), in
        map order}: :meth:`tokened_by` asked of every city at once, kept until the tokens or the
        tiles on the map change."""
        st = self.state
        memo = self._token_cities
        if memo is not None and memo[0] is st.tokens and memo[1] is st.extra_tokens:
            if memo[2] is st.tile_at:
                return memo[3]
            if self._same_token_cities(memo[3]):
                # (a lay that moved no token: the same cities hold tokens, in the same order)
                self._token_cities = (memo[0], memo[1], st.tile_at, memo[3])
                return memo[3]
        found: dict[tuple[str, str], list[City]] = {}
        owners: dict[tuple[str, str], Any] = {}
        tokens, extra, tile_at = st.tokens, st.extra_tokens, st.tile_at
        # the scan of every hex's cities, cut to the hexes of the cities the two maps name (a
        # city on another hex holds no token), in map order
        hexes = self.hexmap.hexes
        for pos in self._named_positions((), (tokens, extra)):
            for city in tile_at[hexes[pos].id].cities:
                for lst in (tokens.get(city, ()), extra.get(city, ())):
                    for t in lst:
                        if t is not None:
                            key = (t.owner_kind, t.owner)
                            cities = found.get(key)
                            if cities is None:
                                cities = found[key] = []
                                owners[key] = self.game.token_owner(t)
                            if not cities or cities[-1] is not city:
                                cities.append(city)
        out = {owners[key]: tuple(cities) for key, cities in found.items()}
        self._token_cities = (tokens, extra, tile_at, out)
        return out

    def _same_token_cities(self, kept: dict[Any, tuple[City, ...]]) -> bool:
        """With the tokens as they were when ``kept`` was found and only tiles changed: is every
        city holding a token on the map exactly when ``kept`` counts it (no tokened city came or
        went with a tile)?"""
        tile_at = self.state.tile_at
        counted = {c for cities in kept.values() for c in cities}
        for lst in (self.state.tokens, self.state.extra_tokens):
            for city, held in lst.items():
                if held.count(None) == len(held):
                    continue
                h = city.hex
                if (h is not None and tile_at.get(h.id) is city.tile) != (city in counted):
                    return False
        return True

    def tokened_by(self, node: Any, corporation: Any, types: Container[str] = ()) -> bool:
        """Has ``corporation`` a token in ``node`` (in a slot or extra); with ``types``, one of
        those types."""
        if not node.is_city:
            return False
        # (the slots and the extra tokens read in place: a city with no entry has only empty
        # slots, which hold nothing)
        st = self.state
        for lst in (st.tokens.get(node, ()), st.extra_tokens.get(node, ())):
            for t in lst:
                if t is not None and t.owned_by(corporation) and (not types or t.type in types):
                    return True
        return False

    def blocks(self, node: Any, corporation: Any) -> bool:
        """Does ``node`` stop ``corporation``'s walks? Offboards always; a city when every slot
        holds a token of another corporation (a free slot, the corporation's own token or a
        neutral token unblocks)."""
        if node.is_offboard:
            return True
        if not node.is_city or corporation is None:
            return False
        st = self.state
        tokens = st.tokens.get(node)
        if tokens is None or None in tokens:
            return False
        if type(self).tokened_by is Board.tokened_by:
            # (``tokened_by``'s test read in place: the slots (none empty here) and the extra
            # tokens, the owner's id first, its token kind worked out only for a token of that id)
            cid = getattr(corporation, "id", None)
            kind: str | None = None
            for lst in (tokens, st.extra_tokens.get(node, ())):
                for t in lst:
                    if t is not None and t.owner == cid:
                        if kind is None:
                            kind = token_kind(corporation)
                        if t.owner_kind == kind:
                            return False
        elif self.tokened_by(node, corporation):
            return False
        return all(t.type != "neutral" for t in tokens)  # type: ignore[union-attr]  # no None in them (above)

    def available_slots(self, city: City) -> int:
        """Free slots that are not reserved."""
        res = self.city_reservations(city)
        n = 0
        for i, t in enumerate(self.tokens(city)):
            if t is None and (i >= len(res) or res[i] is None):
                n += 1
        return n

    def get_slot(self, city: City, corporation: Any, cheater: object = False) -> int | None:
        """Slot a token of ``corporation`` would take: its reservation, else the first free
        unreserved slot. With ``cheater`` (any value but None/False, even 0) the first free
        unreserved slot, else a new one."""
        # (the maps read in place, :meth:`find_reservation`'s loop inline)
        st = self.state
        res = st.city_res.get(city, ())
        tokens = st.tokens.get(city)
        if tokens is None:
            tokens = (None,) * city.normal_slots
        open_slot = None
        for i, t in enumerate(tokens):
            if t is None and (i >= len(res) or res[i] is None):
                open_slot = i
                break
        if cheater is not None and cheater is not False:
            return open_slot if open_slot is not None else len(tokens)
        for i, r in enumerate(res):
            if r is not None and (r is corporation or getattr(r, "owner", None) is corporation):
                return i
        return open_slot

    def tokenable(self, city: Any, corporation: Any, free: bool = False, tokens: Any = None, cheater: object = False,
                  extra_slot: bool = False, spender: Any = None, same_hex_allowed: bool = False) -> bool:
        """Could ``corporation`` place one of ``tokens`` in ``city`` (default: its unused
        tokens, one per type)? Checks slot, cash (unless ``free``), another token on the same
        tile, and tile-level reservations. The reason of a refusal is left in
        ``token_error``."""
        if not city.is_city:
            return False
        if tokens is None:
            tokens = unused_tokens_by_type(corporation)
        elif not isinstance(tokens, (list, tuple)):
            tokens = [tokens]
        self.token_error = "generic"
        if not extra_slot and not tokens:
            self.token_error = "no_tokens"
            return False
        if not extra_slot and (cheater is None or cheater is False):  # (not _flag(cheater))
            slots = self.state.tokens.get(city)
            if slots is not None and None not in slots and not self.state.city_res.get(city):
                # every slot taken and none reserved: no token finds a slot (the loop's answer)
                self.token_error = "no_slots"
                return False
        tile = city.tile
        for t in tokens:
            owner = corporation if t.owned_by(corporation) else self.game.token_owner(t)
            if not extra_slot and self.get_slot(city, owner, cheater=cheater) is None:
                self.token_error = "no_slots"
                continue
            if not free and t.price > getattr(spender if spender is not None else corporation, "cash", 0):
                self.token_error = "no_money"
                continue
            if not same_hex_allowed:
                # (a token of the owner on the tile already: a plain loop, no generator)
                mine = False
                for c in tile.cities:
                    if self.tokened_by(c, owner):
                        mine = True
                        break
                if mine:
                    self.token_error = "existing_token"
                    continue
            if self.reserved_by(city, corporation):
                return True
            if self.token_blocked_by_reservation(city.hex, corporation) and not _flag(cheater):
                self.token_error = "blocked_reservation"
                continue
            return True
        return False

    def place_city_token(self, city: City, corporation: Any, token: Token, free: bool = False,
                         check_tokenable: bool = True,
                         cheater: Any = False, extra_slot: bool = False, spender: Any = None,
                         same_hex_allowed: bool = False) -> Token:
        """Place ``token`` in ``city``: into the slot reserved for the corporation, else the
        first free unreserved slot (``cheater``: a new slot if none is free; ``extra_slot``:
        outside the slots). Clears the corporation's reservations on this city and tile.
        Returns the placed token (the new value held in place of ``token``)."""
        if check_tokenable and not self.tokenable(
                city, corporation, free=free, tokens=[token], cheater=cheater, extra_slot=extra_slot,
                spender=spender, same_hex_allowed=same_hex_allowed):
            h = city.hex.id if city.hex is not None else None
            name = getattr(corporation, "name", corporation)
            msg = _TOKEN_ERRORS.get(self.token_error, "{c} cannot lay token on {i} {h}")
            raise GameError(msg.format(c=name, h=h, i=city.id), rule="token")
        placed = self.exchange_token(city, token, cheater=cheater, extra_slot=extra_slot, owner=corporation)
        self.game.journal.record("token", corporation=getattr(corporation, "id", None),
                                 hex=None if city.hex is None else city.hex.id, city=city.id, free=free)
        tres = self.tile_reservations(city.hex)
        if corporation in tres:
            self.set_tile_reservations(city.hex, [r for r in tres if r is not corporation])
        self.remove_reservation(city, corporation)
        return placed

    def exchange_token(self, city: City, token: Token, cheater: Any = False, extra_slot: bool = False,
                       owner: Any = None) -> Token:
        """Put ``token`` into ``city`` without checks (slot chosen as in :meth:`get_slot` for
        its owner, ``owner`` when the caller has it); returns the placed token."""
        token = self._mark_placed(token, city, extra=extra_slot, cheater=cheater)
        if extra_slot:
            self.set_extra_tokens(city, self.extra_tokens(city) + (token,))
            return token
        if owner is None or not token.owned_by(owner):
            owner = self.game.token_owner(token)
        slot = self.get_slot(city, owner, cheater=cheater)
        # two reservations on a one-slot city (1858 private railways): the company tokening
        # takes slot 0 and the other keeps its claim for the second slot of a later tile
        res = self.city_reservations(city)
        if slot == 1 and city.normal_slots == 1 and sum(1 for r in res if r is not None) == 2:
            slot = 0
            self.set_city_reservations(city, tuple(reversed(res)))
        if slot is None:
            raise GameError(f"no slot for token of {getattr(owner, 'name', token.owner)} "
                            f"in {city.id}", rule="token")
        slots = list(self.tokens(city))
        if slot >= len(slots):
            slots.extend([None] * (slot + 1 - len(slots)))
        slots[slot] = token
        self.set_tokens(city, slots)
        return token

    def delete_token(self, city: City, token: Token, remove_slot: bool = False) -> None:
        slots = list(self.tokens(city))
        if remove_slot:
            for pos, t in enumerate(slots):
                if t is token:
                    del slots[pos]
                    res = list(self.city_reservations(city))
                    if pos < len(res):
                        del res[pos]
                    res.append(None)
                    self.set_city_reservations(city, res)
                    break
        else:
            slots = [None if t is token else t for t in slots]
        self.set_tokens(city, slots)

    def remove_tokens(self, city: City) -> None:
        self.set_tokens(city, (None,) * self.slots(city))
        self.set_extra_tokens(city, ())

    def reset_city(self, city: City) -> None:
        """Drop all tokens and restore the printed number of slots."""
        st = self.state
        if self.unsettled_graph is not None:
            self.settle_graph()
        # (a city is equal only to itself: a copy less its entry, the others in their order)
        if city in st.tokens:
            tokens = dict(st.tokens)
            del tokens[city]
            st.tokens = tokens
        if city in st.extra_tokens:
            extra = dict(st.extra_tokens)
            del extra[city]
            st.extra_tokens = extra

    # ------------------------------------------------------------ tokens: placing and removing
    def replace_token(self, old: Token, new: Token) -> Token:
        """Put the value ``new`` in place of ``old`` where ``old`` is held: its owner's
        ``tokens``, the slots or extras of the city it is in, the tuple of the hex it is on
        (each tuple replaced, so undo and copies keep the old one). Returns ``new``."""
        self._swap_held(old, new)
        city = old.city
        if city is not None:
            slots = self.state.tokens.get(city)
            if slots is not None and old in slots:
                self.set_tokens(city, [new if t is old else t for t in slots])
            extra = self.state.extra_tokens.get(city)
            if extra is not None and old in extra:
                self.set_extra_tokens(city, [new if t is old else t for t in extra])
        hex_ = old.hex
        if hex_ is not None:
            on_hex = self.state.hex_tokens.get(hex_.id)
            if on_hex is not None and old in on_hex:
                st = self.state
                st.hex_tokens = {**st.hex_tokens, hex_.id: tuple(new if t is old else t for t in on_hex)}
        return new

    def _swap_held(self, old: Token, new: Token) -> None:
        # (the owner's ``tokens``: ``new`` in the place of ``old``, if it holds it)
        owner = self.game.token_owner(old)
        held = getattr(owner, "tokens", None)
        if held is not None and old in held:
            owner.tokens = tuple(new if t is old else t for t in held)

    def set_token_price(self, token: Token, price: int) -> Token:
        """``token`` at ``price`` (a new value in its place); returns it."""
        if token.price == price:
            return token
        return self.replace_token(token, token.but(price=price))

    def set_token_owner(self, token: Token, owner: Any) -> Token:
        """``token`` owned by ``owner`` (a new value where the token is held on the board; the
        old owner's and new owner's ``tokens`` are the caller's); returns it."""
        new = token.but(owner=owner.id, owner_kind=token_kind(owner))
        self.replace_token(token, new)
        return new

    def _mark_placed(self, token: Token, location: City | Hex, extra: bool | None = None,
                     cheater: Any = None) -> Token:
        """The placed value of ``token`` (in the owner's ``tokens`` in its place); the caller
        puts it on the board."""
        if isinstance(location, City):
            new = token.but(used=True, location_type="city", city=location, hex=location.hex, extra=extra,
                            cheater=cheater)
        else:
            new = token.but(used=True, location_type="hex", city=None, hex=location, extra=extra,
                            cheater=cheater)
        self._swap_held(token, new)
        return new

    def remove_token(self, token: Token) -> Token:
        """Take ``token`` off the board (its slot becomes free) and mark it unused; returns
        the unused value (in the owner's ``tokens`` in its place)."""
        if token.location_type == "city":
            city = token.city
            if city is not None:
                slots = self.tokens(city)
                if token in slots:
                    self.set_tokens(city, [None if t is token else t for t in slots])
                extra = self.extra_tokens(city)
                if token in extra:
                    self.set_extra_tokens(city, [t for t in extra if t is not token])
        elif token.location_type == "hex" and token.hex is not None:
            self.remove_hex_token(token.hex, token)
        new = token.but(city=None, hex=None, used=False, extra=False, cheater=False, location_type=None)
        self._swap_held(token, new)
        return new

    def destroy_token(self, token: Token) -> None:
        """Remove ``token`` from the board and from its corporation's token list."""
        owner = self.game.token_owner(token)
        tokens = getattr(owner, "tokens", None)
        if tokens is not None and token in tokens:
            owner.tokens = tuple(t for t in tokens if t is not token)
        self.remove_token(token)

    def swap_token(self, token: Token, other: Token, check_tokenable: bool = True, free: bool = True) -> Token | None:
        """Replace ``token`` on the board by ``other`` (same city/slot rules); returns the
        placed value of ``other`` (None when it could not be placed)."""
        city: Any  # set when location_type is "city"
        hex_: Any  # set when location_type is "hex"
        city, hex_, extra, location_type = token.city, token.hex, token.extra, token.location_type
        self.remove_token(token)
        corporation = self.game.token_owner(other)
        if location_type == "city":
            if (not extra and check_tokenable
                    and not self.tokenable(city, corporation, free=free, tokens=[other])):
                return None
            return self.place_city_token(city, corporation, other, free=free, check_tokenable=check_tokenable,
                                         extra_slot=bool(extra))
        if location_type == "hex":
            return self.place_hex_token(hex_, other)
        return None

    def move_token(self, token: Token, location: City | Hex) -> Token:
        """Move ``token`` to another city (free) or hex; returns the moved value."""
        owner = self.game.token_owner(token)
        token = self.remove_token(token)
        if isinstance(location, City):
            return self.place_city_token(location, owner, token, free=True)
        return self.place_hex_token(location, token)

    def place_hex_token(self, hex_: Hex, token: Token, blocks_lay: object = None, preprinted: bool = True,
                        loc: Any = None) -> Token:
        """Put a token on the hex itself (not in a city); an icon named after the
        corporation marks it on the tile. Returns the placed value."""
        token = self._mark_placed(token, hex_)
        self.game.journal.record("token", corporation=token.owner, hex=hex_.id, city=None, free=True)
        st = self.state
        st.hex_tokens = {**st.hex_tokens, hex_.id: self.hex_tokens(hex_) + (token,)}
        self.set_icons(hex_, self.icons(hex_) + (Icon("", token.owner, True, blocks_lay, preprinted, loc=loc),))
        return token

    def put_hex_token(self, hex_: Hex, token: Token) -> Token:
        """A token on the hex itself without an icon (e.g. a bonus token waiting to be taken);
        returns the placed value."""
        token = self._mark_placed(token, hex_)
        st = self.state
        st.hex_tokens = {**st.hex_tokens, hex_.id: self.hex_tokens(hex_) + (token,)}
        return token

    def take_hex_token(self, hex_: Hex, token: Token) -> None:
        """Take a token put by :meth:`put_hex_token` off the hex (its record is left as it was)."""
        st = self.state
        st.hex_tokens = {**st.hex_tokens, hex_.id: tuple(t for t in self.hex_tokens(hex_) if t is not token)}

    def remove_hex_token(self, hex_: Hex, token: Token) -> None:
        name = token.owner
        icons = list(self.icons(hex_))
        for i, ic in enumerate(icons):
            if ic.name == name:
                del icons[i]
                break
        self.set_icons(hex_, icons)
        st = self.state
        st.hex_tokens = {**st.hex_tokens, hex_.id: tuple(t for t in self.hex_tokens(hex_) if t is not token)}

    # ------------------------------------------------------------ laying tiles
    def lay_tile(self, entity: Any, hex_: Hex, tile: Tile | Placed, rotation: int, *, extra_cost: int = 0,
                 pay: Callable[[int], object] | None = None, check: bool = True) -> int:
        """Lay ``tile`` (a supply :class:`Tile`) on ``hex_`` in ``rotation``; check legality
        (outside of log replay) and pay the cost."""
        game = self.game
        old_tile = self.state.tile_at[hex_.id]
        if isinstance(tile, Placed):
            tile = tile.tile
        if tile.id in self.state.laid or (tile.preprinted and self.hexmap.preprinted_tile(tile.id) is not None):
            where = self.state.laid.get(tile.id)
            raise GameError(f"tile {tile.id} is already on {where}", rule="tile-not-available")
        if not tile.unlimited and tile not in self._supply_count():
            raise GameError(f"tile {tile.id} is not in the supply", rule="tile-not-available")
        placed = tile.at(rotation, hex_)  # (:meth:`placed_tile`)
        if not game.tile_valid_for_phase(placed):
            raise GameError(f"{tile.color} tiles are not available in phase {game.phase.name}", rule="tile-colour")
        if not game.upgrades_to(old_tile, placed):
            raise GameError(f"{old_tile.name} cannot be upgraded to {tile.name} on {hex_.id}", rule="illegal-upgrade")
        if check and not game.loading and not game.legal_tile_rotation(entity, hex_, placed):
            raise GameError(f"tile {tile.name} with rotation {rotation} is not legal on {hex_.id}",
                            rule="illegal-rotation")
        self.unsettled_graph_goes()  # (changed() follows)
        self.place_tile(hex_, placed)
        cost: int = game.upgrade_cost(old_tile, hex_, entity) + self._border_cost(hex_, placed) + extra_cost
        if pay is not None:
            pay(cost)
        game.journal.record("tile", entity=getattr(entity, "id", None), hex=hex_.id, tile=tile.name,
                            rotation=rotation, cost=cost, replaced=old_tile.name)
        self.changed()
        if check and not game.loading:
            game.check_laid_tile(entity, hex_, old_tile, placed)  # may raise; process() then restores
        return cost

    def _border_cost(self, hex_: Hex, tile: Placed) -> int:
        total = 0
        for b in list(self.borders(hex_)):
            if not getattr(b, "cost", None):
                continue
            nb = self.neighbors(hex_).get(b.edge)
            if nb is None or not self.targeting(hex_, nb) or not self.targeting(nb, hex_):
                continue
            total += b.cost
            self.set_borders(hex_, [x for x in self.borders(hex_) if x is not b])
            inv = (b.edge + 3) % 6
            self.set_borders(nb, [x for x in self.borders(nb) if x.edge != inv])
        return total

    def lay_cost_preview(self, hex_: Hex, tile: Placed, entity: Any) -> int:
        """What laying ``tile`` (placed on ``hex_``) would cost, without laying it."""
        cost: int = self.game.upgrade_cost(self.tile(hex_), hex_, entity)
        exits = set(tile.exits)
        for b in self.borders(hex_):
            if not getattr(b, "cost", None) or b.edge not in exits:
                continue
            nb = self.neighbors(hex_).get(b.edge)
            if nb is not None and ((b.edge + 3) % 6) in set(self.tile(nb).exits):
                cost += b.cost
        return cost

    def legal_tile_rotation(self, entity: Any, hex_: Hex, tile: Placed) -> bool:
        edges = self.game.connected_edges(entity, hex_)
        if edges is None:
            return False
        old = self.tile(hex_)
        nbrs = self.neighbors(hex_)
        # a pure function of the two placements' track and the two edge sets: shared by all games
        key = rotation_memo_key(old, tile, nbrs, edges)
        return remembered_rotation(rotation_memo(old), key, old, tile, nbrs, edges)

    def rotation_check(self, entity: Any, hex_: Hex) -> Callable[[Placed], bool]:
        """:meth:`legal_tile_rotation` of ``entity`` on ``hex_`` with what it reads of the hex
        (connected edges, neighbours, the old tile and its memo) worked out once, for a caller
        that tries many tiles there while nothing changes; the same answers, the same memo."""
        edges = self.game.connected_edges(entity, hex_)
        if edges is None:
            return lambda tile: False
        old = self.tile(hex_)
        outside, edges_mask = ~edge_mask(self.neighbors(hex_)), 0
        for e in edges:
            edges_mask |= 1 << e  # (by bits: an edge named twice counts once)
        memo = old.spec.upgrade_memos.setdefault("track fit", {})
        head = (old.rotation, old.igw, old.igc)

        def check(tile: Placed) -> bool:
            # (the rule's part that reads no hex, kept per tile pair: track_fit)
            key = (*head, tile.spec, tile.rotation, tile.igw, tile.igc)
            fit: int | None = memo.get(key)
            if fit is None:
                fit = memo[key] = track_fit(old, tile)
            return fit >= 0 and not fit & outside and bool(fit & edges_mask)
        return check

    def rotation_check_key(self, entity: Any, hex_: Hex) -> tuple[Any, ...]:
        """What :meth:`rotation_check`'s answers for tiles seen off the map read of the hex:
        the old tile's spec, rotation and gauge flags, the neighbours' and the connected edges'
        masks (the rotation memo's part of its key that is the hex's), or only the old spec when
        ``entity`` is not connected there (every answer False)."""
        edges = self.game.connected_edges(entity, hex_)
        old = self.tile(hex_)
        if edges is None:
            return (old.spec,)
        return (old.spec, old.rotation, old.igw, old.igc, edge_mask(self.neighbors(hex_)), edge_mask(edges))

    def _next_index(self, name: str) -> int:
        n = self.state.next_copy.get(name)
        if n is None:
            n = 1 + max((t.index for t in self.supply.initial if t.name == name), default=-1)
        return n

    def _add_extra_tile(self, name: str) -> Tile:
        """The next copy of an unlimited tile, added to the supply."""
        t = self._take_next_copy(name)
        self._append_to_supply(t)
        return t

    def _append_to_supply(self, t: Tile) -> None:
        counts = self._supply_count()
        counts[t] = counts.get(t, 0) + 1
        self._set_supply(self.state.supply + (t,), counts)

    def _take_next_copy(self, name: str) -> Tile:
        # (the next copy of an unlimited tile, counted as made; the caller adds it to the supply)
        idx = self._next_index(name)
        t = self.supply.copy_of(name, idx)
        st = self.state
        st.next_copy = {**st.next_copy, name: idx + 1}
        return t

    def add_extra_tile(self, tile: Tile) -> Tile:
        if not tile.unlimited:
            raise GameError("Add extra tile only works if unlimited", rule="tile")
        return self._add_extra_tile(tile.name)

    def remove_from_supply(self, tile: Tile, added: Tile | None = None) -> None:
        """Take ``tile`` out of the supply; with ``added`` (a tile other than ``tile``), that
        one appended first (:meth:`_add_extra_tile` then this, the supply written once)."""
        st = self.state
        supply = st.supply
        # (a tile is equal only to itself, so the tuple's own scans find it; it is there once
        # at most, the other case kept for exactness)
        counts = self._supply_count()
        n = counts.pop(tile, 0)
        if n == 1:
            i = supply.index(tile)
            rest = supply[:i] + supply[i + 1:]
        else:
            rest = tuple(t for t in supply if t is not tile)
        if added is not None:
            counts[added] = counts.get(added, 0) + 1
            rest += (added,)
        self._set_supply(rest, counts)

    def put_back(self, tile: Tile | Placed) -> None:
        """Return a tile to the supply (appended)."""
        if isinstance(tile, Placed):
            tile = tile.tile
        counts = self._supply_count()
        if tile not in counts:
            counts[tile] = 1
            self._set_supply(self.state.supply + (tile,), counts)

    def place_tile(self, hex_: Hex, tile: Placed, reservation_moved: Callable[[Any, City, City], object] | None = None,
                   relink: bool = True) -> Placed:
        """Put ``tile`` (placed on ``hex_``) on the map instead of the tile there; the supply
        gives up ``tile`` and takes back the old one unless it is preprinted. Reservations,
        city groups, tokens (slot/cheater rules of the reference, including multi-city
        tiles), sticky icons, future labels, borders and partitions stay on the hex.
        ``reservation_moved(entity, old_city, new_city)`` is called for every reserving
        entity (default: update the entity's reservation abilities for this hex). Returns
        the old tile."""
        st = self.state
        old = st.tile_at[hex_.id]
        t = tile.tile
        # (an unlimited tile's next copy joins the supply as this one leaves it: one new tuple)
        added = self._take_next_copy(t.name) if t.unlimited else None
        if added is not None and (added is t or t.id in st.laid):
            # (the copy appended on its own: before a refusal, or when it is this very tile)
            self._append_to_supply(added)
            added = None
        if t.id in st.laid:
            raise GameError(f"Cannot lay tile {t.id}; it is already on hex {st.laid[t.id]}", rule="tile")
        self.remove_from_supply(t, added)
        if not old.preprinted:
            self.put_back(old.tile)

        cmap = tilemod.city_map(old, tile)
        for old_c, new_c in cmap.items():
            old_res = self.city_reservations(old_c)
            if not old_res:
                # (nothing reserved here: the new city keeps its own reservations, the very
                # tuple, so its entry is written only where it has none; the old city's
                # entry, if any, is left as it is)
                if new_c is not None:
                    if new_c not in st.city_res:
                        self.set_city_reservations(new_c, ())
                    if self.groups(old_c) != new_c.groups:
                        st.groups = {**st.groups, new_c: self.groups(old_c)}
                continue
            if new_c is not None:
                for entity in old_res:
                    if entity is None:
                        continue
                    if reservation_moved is not None:
                        reservation_moved(entity, old_c, new_c)
                    else:
                        self._update_reservation_abilities(hex_, entity, new_c)
                self.set_city_reservations(new_c, self.city_reservations(new_c) + old_res)
                if self.groups(old_c) != new_c.groups:
                    st.groups = {**st.groups, new_c: self.groups(old_c)}
            if old_res:
                self.set_city_reservations(old_c, ())

        st.tile_at = {**st.tile_at, hex_.id: tile}
        # only this hex's entry goes: a preprinted tile may share its id with a supply tile
        # laid elsewhere (1893's tile "K6" and the preprinted tile of hex K6)
        laid = dict(st.laid)
        if laid.get(old.id) == hex_.id:
            del laid[old.id]
        if not t.preprinted:
            laid[t.id] = hex_.id
        st.laid = laid

        if len(cmap) == 1:
            old_c, new_c = next(iter(cmap.items()))
            # (a city with no entry in the token maps holds no token, and its reset has nothing
            # to drop: only a walk owed would be settled, so without one it is skipped)
            if self.unsettled_graph is not None or old_c in st.tokens or old_c in st.extra_tokens:
                normal = old_c.normal_slots
                for i, tok in enumerate(self.tokens(old_c)):
                    if tok is not None:
                        if new_c is None:
                            raise GameError(f"no city on tile {tile.id} for a token from {old.id}", rule="tile")
                        self.exchange_token(new_c, tok, cheater=(i >= normal))
                for tok in self.extra_tokens(old_c):
                    self.exchange_token(new_c, tok, extra_slot=True)  # type: ignore[arg-type]  # as the reference
                self.reset_city(old_c)
        elif len(cmap) > 1:
            self._move_tokens_multi_city(cmap, tile, old)

        # sticky icons follow the hex unless the new tile prints the same icon
        new_icons = list(t.icons)
        new_names: dict[str, int] = {}
        for ic in new_icons:
            new_names[ic.name] = new_names.get(ic.name, 0) + 1
        for ic in self.icons(hex_):
            if not ic.sticky:
                continue
            if new_names.get(ic.name):
                new_names[ic.name] -= 1
                continue
            # (an icon carried over before is already that copy, a value never changed in
            # place: kept as it is, so the hex's entry and the map stay the same objects)
            new_icons.append(ic if ic.preprinted is False else ic.copy(preprinted=False))
        hid = hex_.id
        ofl = st.future_label.get(hid)
        fl = ofl if ofl is not None and ofl.color != t.color else t.future_label
        # (a map whose entry for the hex would stay the same, the same objects in it, is left
        # as it is: no copy of it, nothing recorded; most lays change none of these but icons)
        # (the plain cases asked first: an empty entry staying empty, the very object kept)
        icons_now = st.icons.get(hid)
        if not (not new_icons and type(icons_now) is tuple and not icons_now) \
                and not _same_entry(st.icons, hid, new_icons):
            st.icons = {**st.icons, hid: tuple(new_icons)}
        if st.future_label.get(hid, _ABSENT) is not fl and not _same_entry(st.future_label, hid, fl):
            st.future_label = {**st.future_label, hid: fl}
        if t.borders or hid not in st.borders:  # (else: the hex's own, as they are)
            st.borders = {**st.borders, hid: t.borders + self.borders(hex_)}
        if t.partitions or hid not in st.partitions:
            st.partitions = {**st.partitions, hid: t.partitions + self.partitions(hex_)}
        if st.stubs.get(hid, _ABSENT) is not t.stubs and not _same_entry(st.stubs, hid, t.stubs):
            st.stubs = {**st.stubs, hid: t.stubs}
        if st.labels.get(hid, _ABSENT) is not t.labels and not _same_entry(st.labels, hid, t.labels):
            st.labels = {**st.labels, hid: t.labels}

        if relink and old.color in self.hexmap.impassable_colors:
            self.relink(hex_)
        return old

    def relink(self, hex_: Hex) -> None:
        """Link ``hex_`` both ways with every neighbour its tile's exits face (unless an
        impassable border sits on that edge)."""
        st = self.state
        exits = self.tile(hex_).exits
        links = dict(st.links)
        mine = dict(links[hex_.id])
        for direction, nb in hex_.all_neighbors.items():
            if has_impassable_border(self.borders(hex_), direction):
                continue
            if direction not in exits:
                continue
            back = nb.neighbor_direction(hex_)
            theirs = dict(links[nb.id])
            theirs[back] = hex_
            links[nb.id] = FrozenDict(theirs)
            mine[direction] = nb
        links[hex_.id] = FrozenDict(mine)
        st.links = links

    def remove_paid_borders(self, hex_: Hex) -> list[Border]:
        """After a lay: remove every costed border whose edge now has track on both sides
        (from this hex, and the facing border(s) from the neighbour). Returns the removed
        borders in order; the caller charges ``border.cost`` (and discounts)."""
        removed: list[Border] = []
        for border in list(self.borders(hex_)):
            if border.cost is None:
                continue
            edge = border.edge
            nb = self.neighbors(hex_).get(edge)
            if nb is None or not self.targeting(hex_, nb) or not self.targeting(nb, hex_):
                continue
            self.set_borders(hex_, [b for b in self.borders(hex_) if b != border])
            back = (edge + 3) % 6
            self.set_borders(nb, [b for b in self.borders(nb) if b.edge != back])
            removed.append(border)
        return removed

    def _move_tokens_multi_city(self, cmap: dict[City, City | None], tile: Placed, old: Placed) -> None:
        grouped: dict[City, list[Token]] = {}
        for old_c, new_c in cmap.items():
            toks = self.tokens(old_c)
            if new_c is None:
                if any(t is not None for t in toks):
                    raise GameError(f"no city on tile {tile.id} for the tokens of {old_c.id}", rule="tile")
                continue
            grouped.setdefault(new_c, []).extend(t for t in toks if t is not None)
        for new_c, moved in grouped.items():
            reserved = len(self.city_reservations(new_c))
            for i, tok in enumerate(moved):
                self.exchange_token(new_c, tok, cheater=(reserved + i) >= new_c.normal_slots)
        for old_c, new_c in cmap.items():
            for tok in self.extra_tokens(old_c):
                self.exchange_token(new_c, tok, extra_slot=True)  # type: ignore[arg-type]  # as the reference
            self.reset_city(old_c)

    def _update_reservation_abilities(self, hex_: Hex, entity: Any, new_city: City) -> None:
        abilities = getattr(entity, "all_abilities", None)
        if abilities is None:
            return
        if callable(abilities):
            abilities = abilities()
        for ab in abilities or ():
            if getattr(ab, "type", None) != "reservation" or getattr(ab, "hex", None) != hex_.id:
                continue
            try:
                ab.tile = new_city.tile
                ab.city = new_city.tile.cities.index(new_city)
            except AttributeError:
                pass


def unused_tokens_by_type(corporation: Any) -> list[Token]:
    f = getattr(corporation, "tokens_by_type", None)
    if f is not None:
        return list(f() if callable(f) else f)
    out, seen = [], set()
    for t in getattr(corporation, "tokens", ()):
        if not t.used and t.type not in seen:
            seen.add(t.type)
            out.append(t)
    return out
