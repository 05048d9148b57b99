"""The map's geometry: hexes, their neighbours, preprinted tiles, and the tile supply.

Everything here is catalogue: built once for a title, options and player count, shared by
every copy of a game and never changed during play. What changes (the tile on each hex,
tokens, the supply's contents...) is board state: :mod:`trackage.core.board`.

* :class:`Hex` -- one map position: ``all_neighbors`` (edge -> Hex), its preprinted tile
  (``original_tile``, a :class:`~trackage.core.tiles.Placed` tile) and location name.
* :class:`HexMap` -- all hexes in map order, built from a title's map JSON
  (``docs/data-format.md``), with id lookups.
* :class:`TileSupply` -- the title's tiles (``<name>-<copy index>``) and their start order;
  copies of unlimited tiles are made on demand (the same object for the same id).

Linking rule (applied by the board): a neighbour is linked unless its tile colour is
impassable (the title's ``impassable_colors``, default blue/gray/red) and none of its track
points back, or this hex's tile has an impassable border on that edge. Laying a tile on a
formerly impassable hex links the hexes its new exits face.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, ClassVar, TypeAlias

from trackage.core.hexgrid import DIRECTIONS, AxesSpec, HexGrid, coord_column_row, invert
from trackage.core.hexgrid import distance as _distance
from trackage.core.tiles import (
    Border,
    Placed,
    Tile,
    TileLibrary,
    TileSpec,
    standard_tiles,
)

__all__ = [
    "DEFAULT_IMPASSABLE_COLORS",
    "FrozenDict",
    "Hex",
    "HexMap",
    "TileSupply",
    "blank_tile",
    "has_impassable_border",
]

DEFAULT_IMPASSABLE_COLORS = ("blue", "gray", "red")

# a tile's name -> its colour and definition, or None (a TileLibrary's get)
TileLookup: TypeAlias = Callable[[str], tuple[str, TileSpec] | None]


class FrozenDict(dict[Any, Any]):
    """A dict that is never changed after it is built (by convention): board state shares
    it between copies of a game instead of copying it."""

    __slots__ = ()
    CATALOGUE = True


def blank_tile(**kwargs: Any) -> Tile:
    """A white tile without parts (id ``blank-0``)."""
    return Tile(TileSpec.get(()), "blank", "white", **kwargs)


def has_impassable_border(borders: Iterable[Border], edge: int) -> bool:
    return any(b.edge == edge and b.type == "impassable" for b in borders)


class Hex:
    """A map hex (catalogue).

    ``id`` (= ``name`` = coordinate), ``x``/``y`` (doubled coordinates), ``column``/``row``,
    ``layout``, ``original_tile`` (the preprinted tile, placed here), ``all_neighbors``
    (edge -> Hex, every adjacent hex), ``location_name``, ``hide_location_name``, ``empty``.
    The tile on it now and its linked neighbours are board state (``Board.tile(hex)``,
    ``Board.neighbors(hex)``).
    """

    __slots__ = (
        "__weakref__",
        "all_neighbors",
        "column",
        "empty",
        "grid",
        "hide_location_name",
        "id",
        "ignore_for_axes",
        "layout",
        "location_name",
        "original_tile",
        "row",
        "x",
        "y",
    )
    CATALOGUE = True

    def __init__(self, coord: str, grid: HexGrid, tile: Tile | None = None,
                 location_name: str | None = None, hide_location_name: bool = False,
                 empty: bool = False):
        self.id = coord
        self.grid = grid
        self.layout = grid.layout
        self.x, self.y = grid.parse(coord)
        self.column, self.row = coord_column_row(coord, grid.axes)
        self.all_neighbors: dict[int, Hex] = {}
        self.location_name = location_name
        self.hide_location_name = hide_location_name
        self.empty = empty
        self.ignore_for_axes = False
        if tile is None:
            tile = blank_tile(preprinted=True)
        self.original_tile: Placed = tile.at(0, self)

    @property
    def name(self) -> str:
        return self.id

    @property
    def coordinates(self) -> str:
        return self.id

    @property
    def full_name(self) -> str:
        return f"{self.id} ({self.location_name})"

    def neighbor_direction(self, other: Hex) -> int | None:
        """Edge of this hex facing ``other`` (None if not adjacent)."""
        return _direction(self.layout, self, other)

    def distance(self, other: Hex) -> int:
        return _distance(self.layout, self.x, self.y, other.x, other.y)

    @staticmethod
    def invert(edge: int) -> int:
        return invert(edge)

    def __repr__(self) -> str:
        return f"<Hex {self.id}>"


def _direction(layout: str, a: Hex, b: Hex) -> int | None:
    return DIRECTIONS[layout].get((b.x - a.x, b.y - a.y))


class HexMap:
    """All hexes of a game in map order (catalogue).

    ``layout``, ``axes``, ``grid`` (:class:`HexGrid`), ``impassable_colors``, ``hexes``
    (list). Iterating yields hexes in map order. ``shared``: made by :meth:`shared`, so other
    games may hold it too (never taken apart by one of them)."""

    CATALOGUE = True

    # the maps :meth:`shared` made, by their data (as TileSpec's parses): at most SHARED_LIMIT
    _shared: ClassVar[dict[tuple[bytes, tuple[str, ...] | None], HexMap]] = {}
    SHARED_LIMIT: ClassVar[int] = 64
    # :meth:`shared_build`'s data keys by the identities of the data's values (held with them)
    _keys: ClassVar[dict[tuple[tuple[str, int], ...], tuple[tuple[Any, ...], bytes]]] = {}

    def __init__(self, layout: str = "flat", axes: AxesSpec = None,
                 impassable_colors: Iterable[str] = DEFAULT_IMPASSABLE_COLORS):
        self.grid = HexGrid(layout, axes)
        self.layout = layout
        self.axes = {"x": self.grid.axes[0], "y": self.grid.axes[1]}
        self.impassable_colors = frozenset(impassable_colors)
        self.hexes: list[Hex] = []
        self._by_id: dict[str, Hex] = {}
        self._by_xy: dict[tuple[int, int], Hex] = {}
        self._preprinted: dict[str, Placed] = {}
        self.shared = False
        self._links: dict[str, FrozenDict] | None = None  # initial_links' answer (of the map as built)
        self._printed: tuple[dict[str, Any], ...] | None = None  # printed_state's answer (of the map as built)
        # hex_order's answer (of the map as built; empty until asked: a dict, so never part of
        # the map's catalogue name in ``full_state`` whether asked or not)
        self._order: dict[str, int] = {}
        # the walks of logged connections (``core.routes``), by what they read: the tile specs,
        # rotations and flags and the links of the hexes named; paths and nodes by index, so
        # every game of this map shares them (a pure function of the key: read-only in effect),
        # with the chains made of them per tuple of the hexes' placed tiles (catalogue objects,
        # pooled per map: the chains, their track keys and link answers, shared the same way)
        self.logged_walks: dict[Hashable, tuple[tuple[tuple[int, int, tuple[tuple[str, int], ...]], ...],
                                                dict[tuple[Any, ...], tuple[Any, ...]]]] = {}
        # the same chains by the logged hex list, the skipped track and the hexes' placed tiles,
        # with the links entries they were found on (``core.routes``: checked by identity)
        self.logged_placed: dict[Hashable, tuple[tuple[Any, ...], tuple[Any, ...]]] = {}
        # what a logged connection's hex list names (``core.routes._logged_hexes``, a pure
        # function of the ids), by the list: shared by every game of this map the same way
        self.logged_names: dict[tuple[str, ...], tuple[frozenset[str], tuple[str, ...], str, str]] = {}
        # the supply tiles the games of a shared map share (``TileSupply``'s pool), by the
        # supply's kinds: [games given it, tile id -> Tile]; each tile keeps its placements
        # (``Tile.at``), so a tile laid in a rotation on a hex is made once for all of them
        self.supply_pools: dict[Hashable, list[Any]] = {}
        # the supply kinds worked out per supply data object (``TileSupply``'s ``kinds_memo``)
        self.supply_kinds: dict[Hashable, tuple[Any, ...]] = {}

    # -- building --------------------------------------------------------------------------

    @classmethod
    def build(cls, map_data: dict[str, Any], impassable_colors: Iterable[str] | None = None,
              tile_lookup: TileLookup | TileLibrary | None = None, hexes: dict[str, Any] | None = None,
              connect: bool = True) -> HexMap:
        """Create the map from map JSON: ``layout``, ``axes``, ``location_names``,
        optional ``hide_location_names`` (list of coords), ``impassable_hex_colors``, and
        ``hexes`` ({colour: [groups]}) unless ``hexes`` is given separately.

        ``tile_lookup(name) -> (color, TileSpec) | None`` resolves groups that name a
        standard ``tile`` (default: the standard tiles). Preprinted tile ids are
        ``<coord>-<i>`` (or ``<tile name>-<i>``), ``i`` = position in the group's coords.
        Colour ``"empty"`` creates placeholder hexes (``empty=True``, blank tile)."""
        if impassable_colors is None:
            impassable_colors = map_data.get("impassable_hex_colors") or DEFAULT_IMPASSABLE_COLORS
        lookup = tile_lookup if tile_lookup is not None else standard_tiles()
        if isinstance(lookup, TileLibrary):
            lookup = lookup.get
        m = cls(map_data.get("layout", "flat"), map_data.get("axes"), impassable_colors)
        names = map_data.get("location_names") or {}
        hide = set(map_data.get("hide_location_names") or ())
        groups_by_color = hexes if hexes is not None else map_data.get("hexes", {})
        for color, groups in groups_by_color.items():
            for group in groups:
                coords = group["coords"]
                if color == "empty":
                    for coord in coords:
                        m._add(Hex(coord, m.grid, None, names.get(coord), coord in hide, True))
                    continue
                tname = group.get("tile")
                if tname is not None:
                    found = lookup(tname)
                    if found is None:
                        raise KeyError(f"map names unknown tile {tname!r}")
                    tcolor, spec = found
                else:
                    tcolor, spec = color, TileSpec.get(group.get("parts", ()))
                for i, coord in enumerate(coords):
                    tile = Tile(spec, tname if tname is not None else coord, tcolor, index=i,
                                preprinted=True)
                    m._add(Hex(coord, m.grid, tile, names.get(coord), coord in hide, False))
        if connect:
            m.connect()
        return m

    @classmethod
    def shared_build(cls, map_data: dict[str, Any], impassable_colors: Iterable[str] | None = None) -> HexMap:
        """The map of ``map_data`` (standard tiles, connected), built once per process for the
        same data and shared by every game made of it: the map is catalogue (hexes, printed
        tiles and their placements never change in play), so two games hold it as two copies
        of one game do. The key is the data's bytes in its own order (map order follows it): :func:`_data_key`."""
        colors = None if impassable_colors is None else tuple(impassable_colors)
        # the data's bytes, worked out once per data made of the very same values (a title's
        # catalogue map: its hexes, names and axes parsed once per process, never changed):
        # the values are held with the bytes, so an entry answers only for them
        parts = tuple(map_data.items())
        ids = tuple((k, id(v)) for k, v in parts)
        known = cls._keys.get(ids)
        if known is not None and all(a is b[1] for a, b in zip(known[0], parts)):
            data_key = known[1]
        else:
            data_key = _data_key(map_data)
            if len(cls._keys) >= cls.SHARED_LIMIT:
                cls._keys.clear()
            cls._keys[ids] = (tuple(v for _, v in parts), data_key)
        key = (data_key, colors)
        found = cls._shared.get(key)
        if found is None:
            if len(cls._shared) >= cls.SHARED_LIMIT:
                cls._shared.clear()  # the games holding them keep theirs
            found = cls.build(map_data, colors)
            found.shared = True
            cls._shared[key] = found
        return found

    def _add(self, hex: Hex) -> None:
        self._links = None
        self._printed = None
        self._order = {}
        prev = self._by_id.get(hex.id)
        if prev is not None:  # a later definition replaces an earlier one in place
            self.hexes[self.hexes.index(prev)] = hex
        else:
            self.hexes.append(hex)
        self._by_id[hex.id] = hex
        self._by_xy[(hex.x, hex.y)] = hex
        self._preprinted[hex.original_tile.id] = hex.original_tile

    def add_hex(self, hex: Hex) -> None:
        """Add a hex built elsewhere (call :meth:`connect` afterwards)."""
        self._add(hex)

    def connect(self) -> None:
        """(Re)compute ``all_neighbors`` of every hex."""
        self._links = None
        offsets = self.grid._offsets
        by_xy = self._by_xy
        for h in self.hexes:
            h.all_neighbors.clear()
            for edge in range(6):
                dx, dy = offsets[edge]
                nb = by_xy.get((h.x + dx, h.y + dy))
                if nb is not None:
                    h.all_neighbors[edge] = nb

    def hex_order(self) -> dict[str, int]:
        """{hex id: its position in map order} (kept until a hex is added)."""
        order = self._order
        if not order:
            order = self._order = {h.id: i for i, h in enumerate(self.hexes)}
        return order

    def initial_links(self) -> dict[str, FrozenDict]:
        """{hex id: FrozenDict(edge -> Hex)}: the linked neighbours at set-up (see the
        module's linking rule). A new dict each time (board state); its values, worked out once
        per map, are shared."""
        if self._links is None:
            self._links = self._initial_links()
        return dict(self._links)

    def printed_state(self) -> tuple[dict[str, Any], ...]:
        """{hex id: value} per hex of what its printed tile brings at set-up, worked out once
        per map: (tile, icons, borders, partitions, stubs, labels, future label). New dicts
        each time (board state); their values (placed tiles, tuples, catalogue) are shared."""
        if self._printed is None:
            maps: tuple[dict[str, Any], ...] = ({}, {}, {}, {}, {}, {}, {})
            tile_at, icons, borders, partitions, stubs, labels, future_label = maps
            for h in self.hexes:
                hid, placed = h.id, h.original_tile
                t = placed.tile
                tile_at[hid] = placed
                icons[hid] = t.icons
                borders[hid] = t.borders
                partitions[hid] = t.partitions
                stubs[hid] = t.stubs
                labels[hid] = t.labels
                future_label[hid] = t.future_label
            self._printed = maps
        return tuple(dict(m) for m in self._printed)

    def _initial_links(self) -> dict[str, FrozenDict]:
        imp = self.impassable_colors
        out: dict[str, FrozenDict] = {}
        for h in self.hexes:
            links: dict[int, Hex] = {}
            borders = h.original_tile.tile.borders
            for edge, nb in h.all_neighbors.items():
                nt = nb.original_tile
                if nt.color in imp and not _targets(nt, nb, h):
                    continue
                if has_impassable_border(borders, edge):
                    continue
                links[edge] = nb
            out[h.id] = FrozenDict(links)
        return out

    # -- lookups ---------------------------------------------------------------------------

    def hex_by_id(self, hex_id: str) -> Hex | None:
        return self._by_id.get(hex_id)

    def hex_at(self, x: int, y: int) -> Hex | None:
        return self._by_xy.get((x, y))

    def __getitem__(self, hex_id: str) -> Hex:
        return self._by_id[hex_id]

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._by_id

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    def __len__(self) -> int:
        return len(self.hexes)

    def preprinted_tile(self, tile_id: str) -> Placed | None:
        return self._preprinted.get(tile_id)


def _data_key(data: Any) -> bytes:
    """Plain data (a title's map or supply) as bytes, in its own order: equal bytes, equal
    data (True and 1, 1 and 1.0 apart), a key of the catalogue built of it. (Pickled: several
    times quicker than JSON; data equal but built differently may give other bytes, a second
    build, never a wrong one.)"""
    return pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)


def _targets(tile: Placed, frm: Hex, to: Hex) -> bool:
    """Does ``tile`` (on ``frm``) have track leaving towards ``to``?"""
    d = _direction(frm.layout, frm, to)
    return d is not None and d in tile.exits


def targeting(tile: Placed, other: Hex) -> bool:
    """Does ``tile``'s track (on its hex) leave towards ``other``?"""
    return _targets(tile, tile.hex, other)


class TileSupply:
    """The tiles of a title (catalogue): ``initial`` (the supply at the start, in
    reference order) and every tile by id; a copy of an unlimited tile is made on demand
    (the same object for the same id, in every copy of a game). Which tiles are available
    now is board state.

    ``supply_data``: ``{name: count | "unlimited" | {"count", "color", "parts", "hidden"}}``
    in supply order; ``standard_tiles``: a :class:`TileLibrary` or ``name -> (color, spec)``
    callable for plain counts."""

    CATALOGUE = True

    # a pool gives its tiles to this many games, then a new pool is begun (the old one's
    # placements go with the last game holding them): what a process keeps stays bounded
    # (0: no pools, each game's supply makes its own tiles)
    POOL_GAMES: ClassVar[int] = 32
    POOLS_PER_MAP: ClassVar[int] = 8

    def __init__(self, supply_data: dict[str, Any], standard_tiles: TileLookup | TileLibrary | None = None,
                 reservation_blocks: str = "never", shared_shapes: bool = False,
                 pools: dict[Hashable, list[Any]] | None = None,
                 kinds_memo: dict[Hashable, tuple[Any, ...]] | None = None):
        from trackage.core.tiles import standard_tiles as _std
        lookup = standard_tiles if standard_tiles is not None else _std()
        if isinstance(lookup, TileLibrary):
            lookup = lookup.get
        self.reservation_blocks = reservation_blocks
        # :meth:`shape` gives a tile shared by the games of the process (``shared_shapes``: the
        # board passes its title's ``Game.SHARED_SHAPES``; off: the supply's own first copy).
        # (a tuple, not a flag: the state's record of a catalogue object names its plain fields)
        self._shape_sharing: tuple[str, ...] = ("process",) if shared_shapes else ()
        self._all: dict[str, Tile] = {}
        self._kinds: dict[str, tuple[str, TileSpec, bool, bool]] = {}
        self.memo: dict[Any, Any] = {}  # pure functions of tiles (upgrade legality per rotation), by their keys
        # the kinds worked out from the very same supply data before (``kinds_memo``: a shared
        # map's, for the standard tiles only): the data object itself is held with them, so an
        # entry answers only for it (the data is catalogue, never changed); the kinds' dict is
        # only read after this, so the games of that data share it
        memo_key: Hashable | None = None
        if kinds_memo is not None and standard_tiles is None:
            memo_key = (id(supply_data), reservation_blocks)
            got = kinds_memo.get(memo_key)
            if got is not None and got[0] is supply_data:
                self._kinds, counts = got[1], got[2]
            else:
                counts = self._kinds_of(supply_data, lookup)
                if len(kinds_memo) >= self.POOLS_PER_MAP:
                    kinds_memo.clear()  # (the supplies holding them keep theirs)
                kinds_memo[memo_key] = (supply_data, self._kinds, counts)
        else:
            counts = self._kinds_of(supply_data, lookup)
        # the tiles made, by id: this game's (and its copies'), each taken from the pool of the
        # games of its map with the same supply kinds where there is one (``pools``: a shared
        # map's; tiles are catalogue, never changed, so games may hold the same ones as copies
        # of a game do); ``known`` answers from this supply's own, as without a pool
        # (a tuple, not None: the state's record of a catalogue object names its plain fields)
        self._pool: tuple[dict[str, Tile], ...] = ()
        if pools is not None and self.POOL_GAMES > 0:
            key = (tuple(self._kinds.items()), reservation_blocks)
            entry = pools.get(key)
            if entry is None or entry[0] >= self.POOL_GAMES:
                if entry is None and len(pools) >= self.POOLS_PER_MAP:
                    pools.clear()  # (the games holding them keep theirs)
                entry = pools[key] = [0, {}, None]
            entry[0] += 1
            self._pool = (entry[1],)
            # the pool's first game's supply, as its tiles were taken: every later game of the
            # pool takes the very same tiles in the same order (the pool never replaces one)
            made = entry[2]
            if made is not None:
                self.initial: tuple[Tile, ...] = made[0]
                self._all = dict(made[1])
                return
            self.initial = tuple(self.copy_of(name, i) for name, n in counts for i in range(n))
            entry[2] = (self.initial, tuple(self._all.items()))
            return
        self.initial = tuple(self.copy_of(name, i) for name, n in counts for i in range(n))

    def _kinds_of(self, supply_data: dict[str, Any], lookup: Any) -> tuple[tuple[str, int], ...]:
        """Fill ``_kinds`` from the supply data; the count of each name, in supply order."""
        counts: list[tuple[str, int]] = []
        for name, val in supply_data.items():
            name = str(name)
            hidden = False
            if isinstance(val, dict):
                count = val.get("count", 1)
                color = val["color"]
                spec = TileSpec.get(val.get("parts", ()))
                hidden = bool(val.get("hidden"))
            else:
                count = val
                found = lookup(name)
                if found is None:
                    raise KeyError(f"tile {name!r} not found")
                color, spec = found
            unlimited = count == "unlimited"
            self._kinds[name] = (color, spec, unlimited, hidden)
            counts.append((name, 1 if unlimited else int(count)))
        return tuple(counts)

    def copy_of(self, name: str, index: int) -> Tile:
        """Copy ``index`` of tile ``name`` (made on first use)."""
        tid = f"{name}-{index}"
        t = self._all.get(tid)
        if t is None:
            pools = self._pool
            t = pools[0].get(tid) if pools else None
            if t is None:
                color, spec, unlimited, hidden = self._kinds[name]
                t = Tile(spec, name, color, index=index, unlimited=unlimited,
                         hidden=hidden, reservation_blocks=self.reservation_blocks)
                if pools:
                    t = pools[0].setdefault(tid, t)
            self._all[tid] = t
        return t

    @property
    def pooled(self) -> bool:
        """Are this supply's tiles shared with other games (a pool of its map's)?"""
        return bool(self._pool)

    def made(self) -> tuple[Tile, ...]:
        """Every tile made so far (the supply's and the unlimited tiles' copies)."""
        return tuple(self._all.values())

    def shape(self, name: str) -> Tile:
        """The tile every copy of ``name`` is looked at as off the map (the first copy): its
        placements in each rotation, made once per name, answer for any copy's (same spec,
        colour and labels) where only the track's shape is read."""
        if not self._shape_sharing:
            return self.copy_of(name, 0)
        # the same tile for every game of the process that has this name, spec, colour and
        # flags: a tile only ever looked at off the map, in no supply, never laid (its
        # placements, made once per rotation, outlive the games; ``Game.close`` leaves them be)
        color, spec, unlimited, hidden = self._kinds[name]
        shapes = spec.upgrade_memos.setdefault("shapes", {})
        key = (name, color, unlimited, hidden, self.reservation_blocks)
        t = shapes.get(key)
        if t is None:
            t = shapes[key] = Tile(spec, name, color, index=0, unlimited=unlimited, hidden=hidden,
                                   reservation_blocks=self.reservation_blocks)
        return t

    def known(self, tile_id: str) -> Tile | None:
        """A tile already made, by id."""
        return self._all.get(tile_id)

    def kind(self, name: str) -> tuple[str, TileSpec, bool, bool] | None:
        return self._kinds.get(name)

    def names(self) -> list[str]:
        """Tile names in supply order."""
        return list(self._kinds)

    def is_unlimited(self, name: str) -> bool:
        k = self._kinds.get(name)
        return bool(k and k[2])
