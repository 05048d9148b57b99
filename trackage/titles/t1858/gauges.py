"""1858's track: the broad and metre gauge graphs, what a lay costs, the hexes private
railways block and the tile lays an operator may make."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trackage.core.actions import asks_hex, asks_tile

from ...core.errors import GameError

if TYPE_CHECKING:
    from .game import Game1858

COLOR_NEXT = {"white": "yellow", "yellow": "green", "green": "brown", "brown": "gray"}


def home_hex(game: Game1858, operator, hex_) -> bool:
    """Is ``hex_`` one of ``operator``'s home hexes?"""
    return hex_.id in (operator.coordinates or [])


def terrain_cost(game: Game1858, old_tile, new_tile, hex_, entity) -> int:
    """Terrain: free for a private railway at home, halved for metre gauge track only."""
    if not old_tile.upgrades:
        return 0
    if entity.is_minor and home_hex(game, entity, hex_):
        return 0
    cost = old_tile.upgrades[0].cost
    if game.new_track_gauge(old_tile, new_tile) == ["narrow"]:
        return cost - cost // 2
    return cost


def lay_cost(game: Game1858, entity, hex_, old_tile, new_tile, lay, gauges_added) -> int:
    """The whole price of a lay: terrain plus the lay's own cost, 10 less on a later lay
    of a turn that adds only metre gauge track somewhere (``Track1858.pay``)."""
    cost = terrain_cost(game, old_tile, new_tile, hex_, entity) + lay.get("cost", 0)
    gauges = list(gauges_added) + [game.new_track_gauge(old_tile, new_tile)]
    if len(gauges) != 1 and ["narrow"] in gauges:
        cost -= 10
    return cost


def compact_reservations(game: Game1858, hex_) -> None:
    """A city with more reservation entries than slots drops its empty ones, so a slot
    freed by a closed private goes to the other private still reserving that city (the
    reference does this after upgrades and private closures, in its map-icon clean-up)."""
    board = game.board
    for city in board.tile(hex_).cities:
        res = board.city_reservations(city)
        if len(res) > board.slots(city):
            board.set_city_reservations(city, [r for r in res if r is not None])


def after_lay(game: Game1858, entity, hex_, old_tile, tile) -> None:
    """An upgraded city tile packs its reservations into the lowest slots."""
    if tile.cities and old_tile.color != "white":
        compact_reservations(game, hex_)


def reachable_1858(game: Game1858, entity) -> set:
    """The hexes ``entity`` reaches on either gauge."""
    out = set()
    for gauge in ("broad", "narrow"):
        out |= set(gauge_graph(game, gauge).reachable_hexes(entity))
    return out


def corporation_private_connected(game: Game1858, corp, minor) -> bool:
    """Is ``minor`` (a private railway) connected to ``corp`` (reached, or tokened in its home)?"""
    if corp.closed or not corp.floated():
        return False
    coords = set(minor.coordinates)
    if any(h.id in coords for h in reachable_1858(game, corp)):
        return True
    return any(t.used and t.city is not None and t.city.hex.id in coords for t in corp.tokens)


def gauge_graph(game: Game1858, gauge: str):
    """The track graph of one gauge (``broad`` or ``narrow``); dual track is in both."""
    from ...core.graph import TrackGraph

    if game.board is None:
        return None
    skip = "narrow" if gauge == "broad" else "broad"
    board = game.board
    return board.derived(("gauge graph", gauge), lambda: TrackGraph(
        board, skip_track=skip, home_as_token=True, home_hexes=game._home_hexes,
        home_nodes=game._home_nodes))


def connected_hexes_1858(game: Game1858, entity) -> dict:
    """The hexes (and their edges) ``entity`` reaches over either gauge (a private railway
    also its home hexes)."""
    out: dict = {}
    for gauge in ("broad", "narrow"):
        g = gauge_graph(game, gauge)
        for hx, edges in g.connected_hexes(entity).items():
            cur = out.setdefault(hx, [])
            for e in edges:
                if e not in cur:
                    cur.append(e)
    if entity.is_minor:
        for coord in entity.coordinates:
            hx = game.board.hex_by_id(coord)
            cur = out.setdefault(hx, [])
            for e in game.board.neighbors(hx):
                if e not in cur:
                    cur.append(e)
    return out


def blocked_hex(game: Game1858, entity, hex_) -> bool:
    """Is ``hex_`` blocked for ``entity`` by another's private railway?"""
    if game.board.tile(hex_).color != "white":
        return False
    blockers = []
    for e in list(game.minors) + list(game.companies):
        if e.closed:
            continue
        for ab in e.abilities:
            if ab.get("type") == "blocks_hexes" and hex_.id in ab.get("hexes", []):
                blockers.append(e)
    if not blockers:
        return False
    return not any(entity is b or entity is game.private_minor(b) or
                   (b.is_company and b.owner is entity) for b in blockers)


def check_track_lay(game: Game1858, entity, hex_, old_tile, tile, rotation, round_) -> None:
    """Refuse a lay on a blocked or unreachable hex, or metre gauge before phase 3."""
    if blocked_hex(game, entity, hex_):
        raise GameError(f"{hex_.id} is blocked by a private railway", rule="hex-blocked")
    if "broad_gauge" in game.phase.status and any(p.track == "narrow" for p in tile.paths):
        raise GameError("metre gauge track is not available before phase 3", rule="tile-colour")
    if connected_hexes_1858(game, entity).get(hex_) is None:
        raise GameError(f"{entity.name} cannot reach {hex_.id}", rule="not-connected")


def upgrade_fits(game: Game1858, old, placed) -> bool:
    """Tile-only upgrade legality of ``placed`` over ``old`` (a same-colour tile only as a
    gauge conversion); a pure function of the two tiles and the hex's labels."""
    if not game.upgrades_to(old, placed):
        return False
    return placed.color != old.color or game.conversion_ok(old, placed)


class LayChoices:
    """What the tile lays of every listing at one board version and phase share: the
    candidate tiles (the first of each name in the supply, in the phase's colours, no metre
    gauge track before phase 3) and, per kind of hex (its labels, the old tile's spec, name
    and colour), the candidates that may replace its tile with their rotations relative to
    the old tile's (those with none left out, in the candidates' order)."""

    __slots__ = ("by_kind", "candidates", "supply")

    def __init__(self, game: Game1858, broad_only: bool) -> None:
        self.supply = game.board.supply_tiles()
        found: dict = {}
        for t in self.supply:
            if t.name not in found and game.tile_valid_for_phase(t):
                if broad_only and any(p.track == "narrow" for p in t.spec.path_defs):
                    continue
                found[t.name] = t
        self.candidates = tuple(found.values())
        self.by_kind: dict = {}

    def fitting(self, game: Game1858, kind: tuple, old) -> tuple:
        """(tile, relative rotations) of each candidate that may replace ``old`` (a tile of
        ``kind``); the answers per tile are kept with the old tile's spec (turning both tiles alike
        keeps them, so any hex of the kind gives the same)."""
        out = self.by_kind.get(kind)
        if out is not None:
            return out
        # the answers depend on the tiles and the hex's labels only: kept with the old tile's
        # spec, shared by every game of the title (the new tile's spec in the key)
        memo = old.spec.upgrade_memos.setdefault(("1858 upgrades", type(game)), {})
        color = old.color
        fits = []
        for t in self.candidates:
            if t.color != color and COLOR_NEXT.get(color) != t.color:
                continue
            key = (*kind, t.name, t.spec)
            rel = memo.get(key)
            if rel is None:
                rel = tuple(sorted((r - old.rotation) % 6 for r in range(6)
                                   if upgrade_fits(game, old, game.board.placed_tile(t, r, None))))
                memo[key] = rel
            if rel:
                fits.append((t, rel))
        out = self.by_kind[kind] = tuple(fits)
        return out


def lay_choices(game: Game1858) -> LayChoices:
    """The :class:`LayChoices` of the board and phase now."""
    broad_only = "broad_gauge" in game.phase.status
    board = game.board
    choices = board.derived(("1858 lay choices", tuple(game.phase.tiles), broad_only),
                            lambda: LayChoices(game, broad_only))
    if choices.supply is not board.supply_tiles():  # the supply is replaced, never changed
        choices = LayChoices(game, broad_only)
    return choices


def legal_tile_lays_1858(game: Game1858, entity, lay, round_) -> list:
    """Every lay ``entity`` may make with ``lay`` (hex, tile, rotation)."""
    from ...core import tiles as tilemod
    from ...core.board import edge_mask, rotation_key, rotation_memo

    out = []
    connected = connected_hexes_1858(game, entity)
    board = game.board
    choices = lay_choices(game)
    power = (entity.owner.cash if entity.is_minor
             else entity.cash + (entity.owner.cash if entity.owner is not None else 0))
    for hex_, edges in connected.items():
        if not asks_hex(game, hex_.id):
            continue
        if lay.get("cannot_reuse_same_hex") and hex_ in round_.laid_hexes:
            continue
        if blocked_hex(game, entity, hex_):
            continue
        old = board.tile(hex_)
        upgrade = old.color != "white"
        if (upgrade and not lay["upgrade"]) or (not upgrade and not lay["lay"]):
            continue
        # the upgrade check reads the tiles and the hex's labels only: hexes alike share answers
        fl = board.future_label(hex_)
        labels = (board.label(hex_), None if fl is None else (fl.label, fl.color, fl.sticker))
        fits = choices.fitting(game, (labels, old.spec, old.name, old.color), old)
        if not fits:
            continue
        nbrs = board.neighbors(hex_)
        nmask, emask = edge_mask(nbrs), edge_mask(edges)
        rot_memo = rotation_memo(old)
        for t, rel in fits:
            if not asks_tile(game, t.id):
                continue
            for r in sorted((x + old.rotation) % 6 for x in rel):
                # the stubs and the rotation read the new tile's track only: it is looked at as
                # in the supply, and the answer kept as Board.legal_tile_rotation keeps it (with the old tile's spec)
                seen = board.placed_tile(t, r, None)
                if not game.stubs_respected(hex_, seen):
                    continue
                rkey = rotation_key(old, seen, nmask, emask)
                ok = rot_memo.get(rkey)
                if ok is None:
                    ok = rot_memo[rkey] = tilemod.legal_rotation(old, seen, nbrs, connected_edges=edges)
                if not ok:
                    continue
                # the price reads the new tile's track gauges only: the tile as seen in the
                # supply answers (no placement on the hex made per candidate)
                if lay_cost(game, entity, hex_, old, seen, lay, round_.gauges_added) > power:
                    continue
                out.append({"hex": hex_.id, "tile": t.id, "rotation": r})
    return out
