"""The map: hexes, their neighbours, laying tiles, and the tile supply.

* :class:`Hex` -- one map position with its current ``tile``; ``neighbors`` holds only the
  linked neighbours (edge -> Hex), ``all_neighbors`` every adjacent hex.
* :class:`HexMap` -- all hexes in map order, built from a title's map JSON
  (``docs/data-format.md``), with id lookups for hexes, tiles and cities.
* :class:`TileSupply` -- the title's tiles not on the map, ids ``<name>-<copy index>``.

Linking rule: a neighbour is linked unless its tile colour is impassable (the title's
``impassable_colors``, default blue/gray/red) and none of its track points back, or this
hex's tile has an impassable border on that edge. Laying a tile on a formerly impassable
hex links the hexes its new exits face.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Sequence

from trackage.core.hexgrid import DIRECTIONS, HexGrid, coord_column_row, distance as _distance, invert
from trackage.core.tiles import (
    GameError, Icon, Tile, TileSpec, TileLibrary, standard_tiles,
)

__all__ = ["Hex", "HexMap", "TileSupply", "DEFAULT_IMPASSABLE_COLORS", "blank_tile"]

DEFAULT_IMPASSABLE_COLORS = ("blue", "gray", "red")


def blank_tile(**kwargs) -> Tile:
    """A white tile without parts (id ``blank-0``)."""
    return Tile(TileSpec.get(()), "blank", "white", **kwargs)


def _has_impassable_border(tile: Tile, edge: int) -> bool:
    for b in tile.borders:
        if b.edge == edge and b.type == "impassable":
            return True
    return False


class Hex:
    """A map hex.

    ``id`` (= ``name`` = coordinate), ``x``/``y`` (doubled coordinates), ``column``/``row``,
    ``layout``, ``tile``, ``original_tile`` (the preprinted tile), ``neighbors`` (linked:
    edge -> Hex), ``all_neighbors``, ``location_name``, ``hide_location_name``, ``empty``,
    ``tokens`` (tokens placed on the hex itself, not in a city), ``map`` (the HexMap).
    """

    __slots__ = ("id", "x", "y", "column", "row", "layout", "grid", "tile", "original_tile",
                 "neighbors", "all_neighbors", "location_name", "hide_location_name", "empty",
                 "tokens", "ignore_for_axes", "map", "__weakref__")

    def __init__(self, coord: str, grid: HexGrid, tile: Tile | None = None,
                 location_name: str | None = None, hide_location_name: bool = False,
                 empty: bool = False, map: "HexMap | None" = None):
        self.id = coord
        self.grid = grid
        self.layout = grid.layout
        self.x, self.y = grid.parse(coord)
        self.column, self.row = coord_column_row(coord, grid.axes)
        self.neighbors: dict[int, Hex] = {}
        self.all_neighbors: dict[int, Hex] = {}
        self.location_name = location_name
        self.hide_location_name = hide_location_name
        self.empty = empty
        self.tokens: list = []
        self.ignore_for_axes = False
        self.map = map
        if tile is None:
            tile = blank_tile(preprinted=True)
        tile.location_name = location_name
        self.tile = self.original_tile = tile
        tile.hex = self

    @property
    def name(self) -> str:
        return self.id

    @property
    def coordinates(self) -> str:
        return self.id

    @property
    def full_name(self) -> str:
        return f"{self.id} ({self.location_name})"

    def set_tile(self, tile: Tile) -> None:
        """Replace the tile outright (setup only): it also becomes ``original_tile``."""
        self.tile = self.original_tile = tile
        tile.hex = self
        if self.map is not None:
            self.map._register(tile)

    # -- geometry ------------------------------------------------------------------------

    @property
    def paths(self) -> dict:
        """{edge: tuple of the tile's paths leaving through it}."""
        return self.tile.paths_by_edge

    def neighbor_direction(self, other: "Hex") -> int | None:
        """Edge of this hex facing ``other`` (None if not adjacent)."""
        return _direction(self.layout, self, other)

    def targeting(self, other: "Hex") -> bool:
        """Does this hex's track leave towards ``other``?"""
        d = _direction(self.layout, self, other)
        return d is not None and d in self.tile.exits

    def distance(self, other: "Hex") -> int:
        return _distance(self.layout, self.x, self.y, other.x, other.y)

    @staticmethod
    def invert(edge: int) -> int:
        return invert(edge)

    # -- laying --------------------------------------------------------------------------

    def city_map_for(self, tile: Tile) -> dict:
        """{old city: new city or None}: old cities map to the first new city whose exits
        include all of theirs; exit-less old cities map by position (or the first unused)."""
        old_cities = self.tile.cities
        new_list = tile.cities
        if len(old_cities) == len(new_list) and not any(c.exits for c in old_cities):
            cmap = dict(zip(old_cities, new_list))
        else:
            cmap = {}
            for oc in old_cities:
                oex = oc.exits
                found = None
                if oex:
                    for nc in new_list:
                        nex = nc.exits
                        if all(e in nex for e in oex):
                            found = nc
                            break
                cmap[oc] = found
        used = [v for v in cmap.values() if v is not None]
        for i, oc in enumerate(old_cities):
            if cmap[oc] is not None:
                continue
            nc = new_list[i] if i < len(new_list) else None
            if nc in used:
                nc = next((c for c in new_list if c not in used), None)
            cmap[oc] = nc
            used.append(nc)
        return cmap

    def lay(self, tile: Tile, relink: bool = True,
            reservation_moved: Callable | None = None) -> Tile:
        """Put ``tile`` (already rotated) on this hex and return the old tile.

        Reservations, city groups, tokens (slot/cheater rules of the reference, including
        multi-city tiles), sticky icons, future labels, tile reservations, borders,
        partitions and the location name move to the new tile. With ``relink`` and an old
        tile of an impassable colour, the hexes facing the new exits are linked.
        ``reservation_moved(entity, old_city, new_city)`` is called for every reserving
        entity (default: update the entity's reservation abilities for this hex)."""
        old = self.tile
        city_map = self.city_map_for(tile)

        for old_c, new_c in city_map.items():
            if new_c is not None:
                for entity in old_c.reservations:
                    if entity is None:
                        continue
                    if reservation_moved is not None:
                        reservation_moved(entity, old_c, new_c)
                    else:
                        self._update_reservation_abilities(entity, new_c)
                new_c.reservations.extend(old_c.reservations)
                new_c.groups = old_c.groups
            old_c.reservations.clear()

        old.hex = None
        tile.hex = self

        if len(city_map) == 1:
            old_c, new_c = next(iter(city_map.items()))
            normal = old_c.normal_slots
            for i, tok in enumerate(old_c.tokens):
                if tok is not None:
                    if new_c is None:
                        raise GameError(f"no city on tile {tile.id} for a token from {old.id}", rule="tile")
                    new_c.exchange_token(tok, cheater=(i >= normal))
            for tok in old_c.extra_tokens:
                new_c.exchange_token(tok, extra_slot=True)
            old_c.reset()
        elif len(city_map) > 1:
            self._move_tokens_multi_city(city_map, tile, old)

        # sticky icons follow the hex unless the new tile prints the same icon
        new_names: dict[str, int] = {}
        for ic in tile.icons:
            new_names[ic.name] = new_names.get(ic.name, 0) + 1
        for ic in old.icons:
            if not ic.sticky:
                continue
            if new_names.get(ic.name):
                new_names[ic.name] -= 1
                continue
            tile.icons.append(ic.copy(preprinted=False))
        old.icons = [ic for ic in old.icons if ic.preprinted]

        if tile.future_label is not None:
            tile.future_label.sticker = tile.future_label
        ofl = old.future_label
        if ofl is not None:
            if ofl.color != tile.color:
                tile.future_label = ofl
            old.future_label = ofl.sticker

        tile.reservations = old.reservations
        old.reservations = []
        tile.borders.extend(old.borders)
        old.borders.clear()
        tile.partitions.extend(old.partitions)
        old.partitions.clear()
        tile.location_name = self.location_name
        old.location_name = None

        self.tile = tile
        if self.map is not None:
            self.map._register(tile)

        if relink and self.map is not None and old.color in self.map.impassable_colors:
            self.relink()
        return old

    def relink(self) -> None:
        """Link this hex both ways with every neighbour its tile's exits face (unless an
        impassable border sits on that edge)."""
        exits = self.tile.exits
        for direction, nb in self.all_neighbors.items():
            if _has_impassable_border(self.tile, direction):
                continue
            if direction not in exits:
                continue
            back = _direction(self.layout, nb, self)
            nb.neighbors[back] = self
            self.neighbors[direction] = nb

    def remove_paid_borders(self) -> list:
        """After a lay: remove every costed border whose edge now has track on both sides
        (from this tile, and the facing border(s) from the neighbour). Returns the removed
        borders of this tile in order; the caller charges ``border.cost`` (and discounts)."""
        tile = self.tile
        removed = []
        for border in list(tile.borders):
            if border.cost is None:
                continue
            edge = border.edge
            nb = self.neighbors.get(edge)
            if nb is None or not self.targeting(nb) or not nb.targeting(self):
                continue
            tile.borders[:] = [b for b in tile.borders if b != border]
            back = invert(edge)
            nb.tile.borders[:] = [b for b in nb.tile.borders if b.edge != back]
            removed.append(border)
        return removed

    def _move_tokens_multi_city(self, city_map: dict, tile: Tile, old: Tile) -> None:
        grouped: dict = {}
        for old_c, new_c in city_map.items():
            if new_c is None:
                if any(t is not None for t in old_c.tokens):
                    raise GameError(f"no city on tile {tile.id} for the tokens of {old_c.id}", rule="tile")
                continue
            grouped.setdefault(new_c, []).extend(t for t in old_c.tokens if t is not None)
        for new_c, toks in grouped.items():
            reserved = len(new_c.reservations)
            for i, tok in enumerate(toks):
                new_c.exchange_token(tok, cheater=(reserved + i) >= new_c.normal_slots)
        for old_c, new_c in city_map.items():
            for tok in old_c.extra_tokens:
                new_c.exchange_token(tok, extra_slot=True)
            old_c.reset()

    def _update_reservation_abilities(self, entity, new_city) -> None:
        abilities = getattr(entity, "all_abilities", None)
        if abilities is None:
            return
        if callable(abilities):
            abilities = abilities()
        for ab in abilities or ():
            if getattr(ab, "type", None) != "reservation" or getattr(ab, "hex", None) != self.id:
                continue
            try:
                ab.tile = new_city.tile
                ab.city = new_city.tile.cities.index(new_city)
            except AttributeError:
                pass

    # -- hex tokens ----------------------------------------------------------------------

    def place_token(self, token, blocks_lay=None, preprinted: bool = True, loc=None) -> None:
        """Put a token on the hex itself (not in a city); an icon named after the
        corporation marks it on the tile."""
        token.place(self)
        self.tokens.append(token)
        corp = token.corporation
        self.tile.icons.append(Icon("", getattr(corp, "id", str(corp)), True, blocks_lay, preprinted, loc=loc))

    def remove_token(self, token) -> None:
        corp = token.corporation
        name = getattr(corp, "id", str(corp))
        for i, ic in enumerate(self.tile.icons):
            if ic.name == name:
                del self.tile.icons[i]
                break
        for i, t in enumerate(self.tokens):
            if t is token:
                del self.tokens[i]
                break

    def __repr__(self) -> str:
        return f"<Hex {self.id} tile={self.tile.id}>"


def _direction(layout: str, a: Hex, b: Hex) -> int | None:
    return DIRECTIONS[layout].get((b.x - a.x, b.y - a.y))


class _CityLookup:
    """Mapping-like view ``city id -> City`` resolved on demand (always current)."""

    __slots__ = ("_map",)

    def __init__(self, hexmap: "HexMap"):
        self._map = hexmap

    def __getitem__(self, key):
        c = self._map.city_by_id(key)
        if c is None:
            raise KeyError(key)
        return c

    def get(self, key, default=None):
        c = self._map.city_by_id(key)
        return default if c is None else c

    def __contains__(self, key) -> bool:
        return self._map.city_by_id(key) is not None


class HexMap:
    """All hexes of a game in map order.

    ``layout``, ``axes``, ``grid`` (:class:`HexGrid`), ``impassable_colors``, ``hexes``
    (list), ``supply`` (optional :class:`TileSupply`, used for tile/city lookups and by
    :meth:`lay_tile`). Iterating yields hexes in map order."""

    def __init__(self, layout: str = "flat", axes=None,
                 impassable_colors: Iterable[str] = DEFAULT_IMPASSABLE_COLORS):
        self.grid = HexGrid(layout, axes)
        self.layout = layout
        self.axes = {"x": self.grid.axes[0], "y": self.grid.axes[1]}
        self.impassable_colors = frozenset(impassable_colors)
        self.hexes: list[Hex] = []
        self._by_id: dict[str, Hex] = {}
        self._by_xy: dict[tuple[int, int], Hex] = {}
        self._preprinted: dict[str, Tile] = {}
        self._laid: dict[str, Tile] = {}
        self.supply: TileSupply | None = None
        self.cities_by_id = _CityLookup(self)

    # -- building --------------------------------------------------------------------------

    @classmethod
    def build(cls, map_data: dict, impassable_colors: Iterable[str] | None = None,
              tile_lookup: Callable | TileLibrary | None = None,
              supply: "TileSupply | None" = None, hexes: dict | None = None,
              connect: bool = True) -> "HexMap":
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
        m.supply = supply
        names = map_data.get("location_names") or {}
        hide = set(map_data.get("hide_location_names") or ())
        groups_by_color = hexes if hexes is not None else map_data.get("hexes", {})
        for color, groups in groups_by_color.items():
            for group in groups:
                coords = group["coords"]
                if color == "empty":
                    for coord in coords:
                        m._add(Hex(coord, m.grid, None, names.get(coord), coord in hide, True, m))
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
                    m._add(Hex(coord, m.grid, tile, names.get(coord), coord in hide, False, m))
        if connect:
            m.connect()
        return m

    def _add(self, hex: Hex) -> None:
        prev = self._by_id.get(hex.id)
        if prev is not None:  # a later definition replaces an earlier one in place
            self.hexes[self.hexes.index(prev)] = hex
        else:
            self.hexes.append(hex)
        self._by_id[hex.id] = hex
        self._by_xy[(hex.x, hex.y)] = hex
        self._preprinted[hex.tile.id] = hex.tile
        hex.map = self

    def add_hex(self, hex: Hex) -> None:
        """Add a hex built elsewhere (call :meth:`connect` afterwards)."""
        self._add(hex)

    def connect(self) -> None:
        """(Re)compute ``neighbors``/``all_neighbors`` of every hex."""
        offsets = self.grid._offsets
        imp = self.impassable_colors
        by_xy = self._by_xy
        for h in self.hexes:
            h.neighbors.clear()
            h.all_neighbors.clear()
        for h in self.hexes:
            for edge in range(6):
                dx, dy = offsets[edge]
                nb = by_xy.get((h.x + dx, h.y + dy))
                if nb is None:
                    continue
                h.all_neighbors[edge] = nb
                if nb.tile.color in imp and not nb.targeting(h):
                    continue
                if _has_impassable_border(h.tile, edge):
                    continue
                h.neighbors[edge] = nb

    def _register(self, tile: Tile) -> None:
        if not tile.preprinted:
            self._laid[tile.id] = tile

    # -- lookups ---------------------------------------------------------------------------

    def hex_by_id(self, hex_id: str) -> Hex | None:
        return self._by_id.get(hex_id)

    def hex_at(self, x: int, y: int) -> Hex | None:
        return self._by_xy.get((x, y))

    def __getitem__(self, hex_id: str) -> Hex:
        return self._by_id[hex_id]

    def __contains__(self, hex_id) -> bool:
        return hex_id in self._by_id

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    def __len__(self) -> int:
        return len(self.hexes)

    def tile_by_id(self, tile_id: str) -> Tile | None:
        """A supply tile (laid or not) by id, else a preprinted tile (on the map or replaced)."""
        if self.supply is not None:
            t = self.supply.tile_by_id(tile_id, create=False)
            if t is not None:
                return t
        t = self._laid.get(tile_id)
        if t is not None:
            return t
        return self._preprinted.get(tile_id)

    def city_by_id(self, city_id: str):
        """``"<tile id>-<part index>"`` -> City (or None). Supply tiles take precedence over
        preprinted tiles with the same id, as in the reference."""
        tile_id, _, idx = city_id.rpartition("-")
        try:
            index = int(idx)
        except ValueError:
            return None
        tile = self.tile_by_id(tile_id)
        return tile.city_by_index(index) if tile is not None else None

    def node_by_signature(self, signature: str):
        """``"<hex id>-<part index>"`` (route node signature) -> node on that hex's tile."""
        hex_id, _, idx = signature.rpartition("-")
        h = self._by_id.get(hex_id)
        if h is None:
            return None
        try:
            return h.tile.node_by_index(int(idx))
        except ValueError:
            return None

    def cities(self) -> list:
        """Cities of the tiles currently on the map, in map order."""
        return [c for h in self.hexes for c in h.tile.cities]

    # -- laying ----------------------------------------------------------------------------

    def lay_tile(self, hex: Hex | str, tile: Tile, rotation: int | None = None, **kwargs) -> Tile:
        """Rotate ``tile``, update the supply (if attached) and lay it; returns the old tile."""
        h = self._by_id[hex] if isinstance(hex, str) else hex
        if rotation is not None:
            tile.rotate(rotation)
        if self.supply is not None:
            self.supply.update_tile_lists(tile, h.tile)
        return h.lay(tile, **kwargs)


class TileSupply:
    """The tiles of a title not (yet) on the map.

    ``supply_data``: ``{name: count | "unlimited" | {"count", "color", "parts", "hidden"}}``
    in supply order; ``standard_tiles``: a :class:`TileLibrary` or ``name -> (color, spec)``
    callable for plain counts. ``tiles`` is the list of tiles currently available, in
    reference order (a tile returned by an upgrade goes to the end)."""

    def __init__(self, supply_data: dict, standard_tiles: Callable | TileLibrary | None = None,
                 reservation_blocks: str = "never"):
        from trackage.core.tiles import standard_tiles as _std
        lookup = standard_tiles if standard_tiles is not None else _std()
        if isinstance(lookup, TileLibrary):
            lookup = lookup.get
        self.reservation_blocks = reservation_blocks
        self.tiles: list[Tile] = []
        self._all: dict[str, Tile] = {}
        self._kinds: dict[str, tuple] = {}
        self._max_index: dict[str, int] = {}
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
            n = 1 if unlimited else int(count)
            self._kinds[name] = (color, spec, unlimited, hidden)
            for i in range(n):
                self._add(Tile(spec, name, color, index=i, unlimited=unlimited, hidden=hidden,
                               reservation_blocks=reservation_blocks))

    def _add(self, tile: Tile) -> None:
        self.tiles.append(tile)
        self._all[tile.id] = tile
        if tile.index > self._max_index.get(tile.name, -1):
            self._max_index[tile.name] = tile.index

    # -- lookups ---------------------------------------------------------------------------

    def tile_by_id(self, tile_id: str, create: bool = True) -> Tile | None:
        """Tile by id (in the supply or laid). With ``create``, the next copy of an
        unlimited tile is made when ``tile_id`` is its next index."""
        t = self._all.get(tile_id)
        if t is not None or not create:
            return t
        name, _, idx = tile_id.rpartition("-")
        kind = self._kinds.get(name)
        if kind is None or not kind[2]:
            return None
        try:
            index = int(idx)
        except ValueError:
            return None
        if index != self._max_index.get(name, -1) + 1:
            return None
        return self._new_copy(name)

    def __contains__(self, tile_id) -> bool:
        return tile_id in self._all

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def names(self) -> list:
        """Tile names in supply order."""
        return list(self._kinds)

    def available(self, name: str) -> list:
        """Available (not laid) tiles of ``name``, in supply order."""
        return [t for t in self.tiles if t.name == name]

    def all_tiles(self) -> list:
        """Every tile ever created by this supply (laid or not)."""
        return list(self._all.values())

    def is_unlimited(self, name: str) -> bool:
        k = self._kinds.get(name)
        return bool(k and k[2])

    # -- changes ---------------------------------------------------------------------------

    def _new_copy(self, name: str) -> Tile:
        color, spec, unlimited, hidden = self._kinds[name]
        t = Tile(spec, name, color, index=self._max_index.get(name, -1) + 1, unlimited=unlimited,
                 hidden=hidden, reservation_blocks=self.reservation_blocks)
        self._add(t)
        return t

    def add_extra_tile(self, tile: Tile) -> Tile:
        """New copy of an unlimited tile with the next index, added to the supply."""
        if not tile.unlimited:
            raise GameError("Add extra tile only works if unlimited", rule="tile")
        return self._new_copy(tile.name)

    def update_tile_lists(self, tile: Tile, old_tile: Tile) -> None:
        """Before laying ``tile`` over ``old_tile``: spawn the next unlimited copy, take
        ``tile`` out of the supply and return ``old_tile`` unless it is preprinted."""
        if tile.unlimited:
            self.add_extra_tile(tile)
        if tile.hex is not None:
            raise GameError(f"Cannot lay tile {tile.id}; it is already on hex {tile.hex.id}", rule="tile")
        self.remove(tile)
        if not old_tile.preprinted:
            self.tiles.append(old_tile)

    def remove(self, tile: Tile) -> None:
        for i, t in enumerate(self.tiles):
            if t is tile:
                del self.tiles[i]
                return

    def put_back(self, tile: Tile) -> None:
        """Return a tile to the supply (appended)."""
        if all(t is not tile for t in self.tiles):
            self.tiles.append(tile)
