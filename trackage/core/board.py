"""The board of a game: hex map, tile supply and track graph, and the moves on them."""

from __future__ import annotations

from .errors import GameError
from .hexmap import HexMap, TileSupply
from . import tiles as tilemod


class Board:
    def __init__(self, game, map_data: dict, supply_data: dict, impassable_colors):
        self.game = game
        self.supply = TileSupply(supply_data)
        self.hexmap = HexMap.build(map_data, impassable_colors, supply=self.supply)
        self._graph = None

    # ------------------------------------------------------------ lookups
    def hex_by_id(self, hid):
        return self.hexmap.hex_by_id(hid) if isinstance(hid, str) else None

    def tile_by_id(self, tid):
        if not isinstance(tid, str):
            return None
        t = self.supply.tile_by_id(tid)
        if t is None:
            t = self.hexmap.tile_by_id(tid)
        return t

    def city_by_id(self, cid):
        return self.hexmap.city_by_id(cid) if isinstance(cid, str) else None

    @property
    def hexes(self):
        return self.hexmap.hexes

    # ------------------------------------------------------------ graph
    @property
    def graph(self):
        if self._graph is None:
            from .graph import TrackGraph

            self._graph = TrackGraph(self.hexmap, **self.game.graph_options())
        return self._graph

    def changed(self) -> None:
        if self._graph is not None:
            self._graph.clear()
        self.game.on_board_changed()

    # ------------------------------------------------------------ reservations
    def reserve_homes(self, corporations) -> None:
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
                h.tile.add_reservation(c, city)

    # ------------------------------------------------------------ tiles
    def lay_tile(self, entity, hex_, tile, rotation: int, *, extra_cost: int = 0, pay=None, check=True) -> int:
        """Lay ``tile`` on ``hex_``; check legality (outside of log replay) and pay the cost."""
        game = self.game
        old_tile = hex_.tile
        if tile.hex is not None:
            raise GameError(f"tile {tile.id} is already on {tile.hex.id}", rule="tile-not-available")
        if tile not in self.supply.tiles and not tile.unlimited:
            raise GameError(f"tile {tile.id} is not in the supply", rule="tile-not-available")
        if not game.tile_valid_for_phase(tile):
            raise GameError(f"{tile.color} tiles are not available in phase {game.phase.name}", rule="tile-colour")
        tile.rotate(rotation)
        if not game.upgrades_to(old_tile, tile):
            raise GameError(f"{old_tile.name} cannot be upgraded to {tile.name} on {hex_.id}", rule="illegal-upgrade")
        if check and not game.loading:
            if not game.legal_tile_rotation(entity, hex_, tile):
                raise GameError(f"tile {tile.name} with rotation {rotation} is not legal on {hex_.id}",
                                rule="illegal-rotation")
        self.hexmap.lay_tile(hex_, tile)
        cost = game.upgrade_cost(old_tile, hex_, entity) + self._border_cost(hex_, tile) + extra_cost
        if pay is not None:
            pay(cost)
        self.changed()
        if check and not game.loading:
            game.check_laid_tile(entity, hex_, old_tile, tile)  # may raise; process() then restores
        return cost

    def _border_cost(self, hex_, tile) -> int:
        total = 0
        for b in list(tile.borders):
            if not getattr(b, "cost", None):
                continue
            nb = hex_.neighbors.get(b.edge)
            if nb is None or not hex_.targeting(nb) or not nb.targeting(hex_):
                continue
            total += b.cost
            tile.borders.remove(b)
            inv = (b.edge + 3) % 6
            nb.tile.borders = [x for x in nb.tile.borders if x.edge != inv]
        return total

    def lay_cost_preview(self, hex_, tile, entity) -> int:
        """What laying ``tile`` (already rotated) would cost, without laying it."""
        cost = self.game.upgrade_cost(hex_.tile, hex_, entity)
        exits = set(tile.exits)
        for b in hex_.tile.borders:
            if not getattr(b, "cost", None) or b.edge not in exits:
                continue
            nb = hex_.neighbors.get(b.edge)
            if nb is not None and ((b.edge + 3) % 6) in set(nb.tile.exits):
                cost += b.cost
        return cost

    def legal_tile_rotation(self, entity, hex_, tile) -> bool:
        edges = self.game.connected_edges(entity, hex_)
        if edges is None:
            return False
        return tilemod.legal_rotation(hex_, tile, connected_edges=edges)

    # ------------------------------------------------------------ tokens
    def place_token(self, entity, city, token, *, pay=None, check_connected=True, free=False) -> None:
        game = self.game
        if check_connected and not game.loading:
            nodes = self.graph.connected_nodes(entity)
            if city not in nodes:
                raise GameError(f"{city.id} is not connected to {entity.name}'s network", rule="token-not-connected")
        if any(c.tokened_by(entity) for c in city.tile.cities):
            raise GameError(f"{entity.name} already has a token on {city.hex.id}", rule="token-same-hex")
        if not city.tokenable(entity, free=free):
            raise GameError(f"no free slot for {entity.name} in {city.id}", rule="city-full")
        city.place_token(entity, token, free=free)
        if pay is not None and token.price > 0 and not free:
            pay(token.price)
        self.changed()
