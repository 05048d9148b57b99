"""1858's track: the broad and metre gauge graphs, what a lay costs, the hexes private
railways block and the tile lays an operator may make."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trackage.core.actions import asks_hex, asks_tile

from ...core import tiles as tilemod
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


def reachable_1858(game: Game1858, entity) -> frozenset:
    """The hexes ``entity`` reaches on either gauge (kept with the board's version, as the
    gauge graphs are)."""
    def build() -> frozenset:
        out: set = set()
        for gauge in ("broad", "narrow"):
            out |= set(gauge_graph(game, gauge).reachable_hexes(entity))
        return frozenset(out)
    return game.board.derived(("1858 reach", entity), build)


def reachable_ids(game: Game1858, entity) -> frozenset:
    """The ids of :func:`reachable_1858`'s hexes."""
    return game.board.derived(("1858 reach ids", entity),
                              lambda: frozenset(h.id for h in reachable_1858(game, entity)))


def corporation_private_connected(game: Game1858, corp, minor) -> bool:
    """Is ``minor`` (a private railway) connected to ``corp`` (reached, or tokened in its home)?"""
    if corp.closed or not corp.floated():
        return False
    if not reachable_ids(game, corp).isdisjoint(minor.coordinates):
        return True
    coords = set(minor.coordinates)
    return any(t.used and t.city is not None and t.city.hex.id in coords for t in corp.tokens)


def _new_gauge_graph(game: Game1858, gauge: str):
    from ...core.graph import TrackGraph

    return TrackGraph(game.board, skip_track="narrow" if gauge == "broad" else "broad", home_as_token=True,
                      home_hexes=game._home_hexes, home_nodes=game._home_nodes)


def gauge_graph(game: Game1858, gauge: str):
    """The track graph of one gauge (``broad`` or ``narrow``); dual track is in both.

    With ``Game1858.KEEP_GAUGE_WALKS`` the two graphs live as long as the board: at a new board
    version each keeps the whole walks that reached no changed hex (``TrackGraph.rebase``; a
    walk's start is compared with the board's only when its corporation is next asked about),
    so an operator's walk survives the other operators' lays elsewhere. Without it, a fresh
    pair per board version. (The graphs' route information is never read in 1858.)"""
    board = game.board
    if board is None:
        return None
    if not game.KEEP_GAUGE_WALKS:
        return board.derived(("gauge graph", gauge), lambda: _new_gauge_graph(game, gauge))
    kept = game._gauge_graphs
    if kept is None or kept[0] is not board:
        graphs = {g: _new_gauge_graph(game, g) for g in ("broad", "narrow")}
        for g in graphs.values():
            g.keep_walks(lazy_seeds=True)
        kept = game._gauge_graphs = (board, graphs, [board.state.version])
    elif kept[2][0] != board.state.version:
        # (both graphs were carried from the same maps: the changed hexes are found once)
        dirty = (kept[1]["broad"]._dirty_hexes(),)
        for g in kept[1].values():
            g.rebase(known_dirty=dirty)
        kept[2][0] = board.state.version
    return kept[1][gauge]


def connected_hexes_1858(game: Game1858, entity) -> dict:
    """The hexes (and their edges) ``entity`` reaches over either gauge (a private railway
    also its home hexes); kept with the board's version, as the gauge graphs are (read only)."""
    return game.board.derived(("1858 connected", entity), lambda: _connected_hexes(game, entity))


def _connected_hexes(game: Game1858, entity) -> dict:
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
    return _blocked_by(game, entity, blockers(game).get(hex_.id, ()))


def blockers(game: Game1858) -> dict:
    """The open private railways and companies blocking each hex (hex id -> their tuple, in
    the minors' then the companies' order). Kept with the game until an entity closes or its
    abilities are replaced (they are never changed in place)."""
    ents = (*game.minors, *game.companies)
    state = tuple(None if e.closed else e.abilities for e in ents)
    kept = game._blockers
    if kept is not None and kept[0] == state:
        return kept[1]
    out: dict = {}
    for e, abilities in zip(ents, state):
        for ab in abilities or ():
            if ab.get("type") == "blocks_hexes":
                for h in dict.fromkeys(ab.get("hexes", [])):
                    out[h] = (*out.get(h, ()), e)
    game._blockers = (state, out)
    return out


def _blocked_by(game: Game1858, entity, found: tuple) -> bool:
    """Is a hex with ``found`` blockers blocked for ``entity`` (none of them its own)?"""
    if not found:
        return False
    return not any(entity is b or entity is game.private_minor(b) or
                   (b.is_company and b.owner is entity) for b in found)


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


def refused_in_every_rotation(game: Game1858, old, new) -> bool:
    """Does :func:`upgrade_fits` refuse ``new`` over ``old`` whatever the rotation, by the
    parts of the rule that read no rotation? A same-colour tile only as a gauge conversion
    (:meth:`Game1858.conversion_may_fit`); otherwise the colour order, the labels, the towns'
    number and, on an unlabelled hex, the cities' number. (False: try the rotations.)"""
    if new.color == old.color:
        return not game.conversion_may_fit(old, new)
    labels = game.board.upgrade_labels(old)
    if not tilemod.upgrades_to_correct_color(old, new) or not tilemod.upgrades_to_correct_label(old, new, **labels):
        return True
    if len(old.towns) != len(new.towns):
        return True
    label = labels.get("from_label", old.label)
    return not label and len(old.cities) != len(new.cities)


class LayChoices:
    """What the tile lays of every listing at one board version and phase share: the
    candidate tiles (the first of each name in the supply, in the phase's colours, no metre
    gauge track before phase 3), each name's tile as seen off the map (its placements answer
    for every copy's track), and, per kind of hex (its labels, the old tile's spec, name and
    colour), the candidates that may replace its tile with their rotations relative to the
    old tile's (those with none left out, in the candidates' order)."""

    __slots__ = ("by_kind", "candidates", "names", "shapes", "supply")

    def __init__(self, game: Game1858, broad_only: bool) -> None:
        self.supply = game.board.supply_tiles()
        # the phase's rule and the gauges read the name's colour and spec only: the answer
        # per name is kept with the game
        if game._lay_names is None:
            game._lay_names = {}
        valid = game._lay_names.setdefault((tuple(game.phase.tiles), broad_only), {})
        seen: set = set()
        found = []
        for t in self.supply:
            name = t.name
            if name in seen:
                continue
            seen.add(name)
            ok = valid.get(name)
            if ok is None:
                ok = valid[name] = game.tile_valid_for_phase(t) and not (
                    broad_only and any(p.track == "narrow" for p in t.spec.path_defs))
            if ok:
                found.append(t)
        self.candidates = tuple(found)
        self.names = tuple(t.name for t in found)
        shape = game.board.supply.shape
        self.shapes = tuple(shape(t.name) for t in found)
        self.by_kind: dict = {}

    def fitting(self, game: Game1858, kind: tuple, old) -> tuple:
        """(tile, its shape, relative rotations) of each candidate that may replace ``old``
        (a tile of ``kind``). The answers read the tiles and the hex's labels only, so they are
        kept with the old tile's spec, shared by every game of the title: per candidate tile
        and per kind and list of candidate names (a title's tile name stands for its spec,
        colour and labels). The keys are strings and tuples of them, which the collector stops
        tracking (the memos outlive the games)."""
        out = self.by_kind.get(kind)
        if out is not None:
            return out
        lists = old.spec.upgrade_memos.setdefault(("1858 upgrade lists", type(game)), {})
        labels, _spec, name, color = kind
        lkey = (labels, name, color, self.names)
        picked = lists.get(lkey)
        if picked is None:
            picked = lists[lkey] = self._pick(game, kind, old)
        cands, shapes = self.candidates, self.shapes
        out = self.by_kind[kind] = tuple((cands[i], shapes[i], rel) for i, rel in picked)
        return out

    def _pick(self, game: Game1858, kind: tuple, old) -> tuple:
        """(index, relative rotations) of each candidate that fits over ``old``."""
        memo = old.spec.upgrade_memos.setdefault(("1858 upgrades", type(game)), {})
        labels, _spec, name, color = kind
        picked = []
        for i, t in enumerate(self.candidates):
            if t.color != color and COLOR_NEXT.get(color) != t.color:
                continue
            key = (labels, name, color, t.name)
            rel = memo.get(key)
            if rel is None:
                shape = self.shapes[i]
                if refused_in_every_rotation(game, old, shape.at(0)):
                    rel = ()
                else:
                    rel = tuple(sorted((r - old.rotation) % 6 for r in range(6)
                                       if upgrade_fits(game, old, shape.at(r))))
                memo[key] = rel
            if rel:
                picked.append((i, rel))
        return tuple(picked)


def lay_choices(game: Game1858) -> LayChoices:
    """The :class:`LayChoices` of the board and phase now."""
    broad_only = "broad_gauge" in game.phase.status
    board = game.board
    choices = board.derived(("1858 lay choices", tuple(game.phase.tiles), broad_only),
                            lambda: LayChoices(game, broad_only))
    if choices.supply is not board.supply_tiles():  # the supply is replaced, never changed
        choices = LayChoices(game, broad_only)
    return choices


def stub_edges(game: Game1858, hex_) -> tuple:
    """The edges of ``hex_``'s stubs (a private railway's unbuilt line), which its track must use."""
    return tuple(st.edge for st in game.board.stubs(hex_))


def legal_tile_lays_1858(game: Game1858, entity, lay, round_) -> list:
    """Every lay ``entity`` may make with ``lay`` (hex, tile, rotation)."""
    from ...core.board import edge_mask, offmap_rotation_key, rotation_memo

    out: list = []
    connected = connected_hexes_1858(game, entity)
    board = game.board
    choices = lay_choices(game)
    power = (entity.owner.cash if entity.is_minor
             else entity.cash + (entity.owner.cash if entity.owner is not None else 0))
    may_lay, may_upgrade = lay["lay"], lay["upgrade"]
    laid = round_.laid_hexes if lay.get("cannot_reuse_same_hex") else ()
    blocking = blockers(game)
    gauges_added = round_.gauges_added
    for hex_, edges in connected.items():
        if not asks_hex(game, hex_.id):
            continue
        if hex_ in laid:
            continue
        old = board.tile(hex_)
        upgrade = old.color != "white"
        if not upgrade and _blocked_by(game, entity, blocking.get(hex_.id, ())):
            continue
        if (upgrade and not may_upgrade) or (not upgrade and not may_lay):
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
        stubs = stub_edges(game, hex_)
        base = old.rotation
        for t, shape, rel in fits:
            if not asks_tile(game, t.id):
                continue
            spec = shape.spec
            cost = None
            for r in sorted((x + base) % 6 for x in rel):
                # the stubs, the rotation and the price read the new tile's track only: it is
                # looked at as off the map (the name's shape, placed only when the rotation's
                # answer is not yet kept, as Board.legal_tile_rotation keeps it)
                if stubs:
                    exits = spec.rot(r).exits
                    if not all(e in exits for e in stubs):
                        continue
                rkey = offmap_rotation_key(old, spec, r, nmask, emask)
                ok = rot_memo.get(rkey)
                if ok is None:
                    ok = rot_memo[rkey] = tilemod.legal_rotation(old, shape.at(r), nbrs, connected_edges=edges)
                if not ok:
                    continue
                if cost is None:  # the price reads the tile's track gauges, not its rotation
                    cost = lay_cost(game, entity, hex_, old, shape.at(r), lay, gauges_added)
                if cost > power:
                    break
                out.append({"hex": hex_.id, "tile": t.id, "rotation": r})
    return out
