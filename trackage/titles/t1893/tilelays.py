"""1893's tile-lay listing and rotation rule, with what depends on the hex alone worked out
once per hex (not once per candidate tile and rotation).

The listing is the generic one (:meth:`trackage.core.game.Game.legal_tile_lays`: every
connected hex, every tile of the phase in the supply, every rotation its upgrade and rotation
rules allow, in that order) plus Leverkusen's green tile; the rotation rule is 1893's (stubs,
the Rhine's closed passages in phase 2) over the board's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import tiles as tilemod
from ...core.actions import asks_hex, asks_tile
from ...core.board import edge_mask
from ...core.game import Game

if TYPE_CHECKING:
    from ...core.hexmap import Hex
    from ...core.tiles import Placed, Tile
    from .game import Game1893

#: where a hex's upgrade answers for a whole candidate list are kept (with the old tile's spec)
HEX_UPGRADES = "1893 hex upgrades"

#: where the part of the board's rotation rule that reads neither the hex's neighbours nor the
#: entity's connected edges is kept (with the old tile's spec, shared by every 1893 game)
TRACK_FIT = "1893 track fit"

#: every edge of a hex: the neighbours' test of the board's rule always met
_ALL_EDGES = frozenset(range(6))


def track_fit(memo: dict[Any, Any], old: Placed, view: Tile, r: int) -> int:
    """The board's rotation rule (``legal_rotation``) of ``view`` in rotation ``r`` (seen off
    the map, :meth:`Tile.at`) over ``old``, less its two tests of the hex: -1 where the old
    track, new cities or city sizes refuse it on any hex, else the new exits as a bit mask.
    The rule is those tests and the two of the hex (every new exit leads to a neighbour, one is
    among the entity's connected edges), which read nothing else: with the hex's neighbour mask
    ``n`` and the entity's edge mask ``e`` a fit ``m`` is a legal rotation exactly when
    ``m >= 0 and not m & ~n and m & e`` (:func:`fits`). Kept in ``memo`` (``TRACK_FIT``, with
    the old tile's spec) per the old tile's rotation and gauge flags and the new tile's spec,
    rotation and gauge flags: far fewer keys than the board's memo, which names the masks too."""
    key = (old.rotation, old.igw, old.igc, view.spec, r, None, None)
    fit: int | None = memo.get(key)
    if fit is None:
        fit = memo[key] = _fit(old, view.at(r, None))
    return fit


def placed_fit(memo: dict[Any, Any], old: Placed, tile: Placed) -> int:
    """:func:`track_fit` of a tile already placed (its own rotation and gauge flags)."""
    key = (old.rotation, old.igw, old.igc, tile.spec, tile.rotation, tile.igw, tile.igc)
    fit: int | None = memo.get(key)
    if fit is None:
        fit = memo[key] = _fit(old, tile)
    return fit


def _fit(old: Placed, tile: Placed) -> int:
    """The rule's answer with every edge a neighbour and no connected edges asked."""
    return edge_mask(tile.exits) if tilemod.legal_rotation(old, tile, _ALL_EDGES) else -1


def fits(fit: int, nmask: int, emask: int) -> bool:
    """Is a tile whose :func:`track_fit` is ``fit`` a legal rotation on a hex with neighbour
    mask ``nmask``, for an entity reaching the edges of ``emask``?"""
    return fit >= 0 and not fit & ~nmask and bool(fit & emask)


class RotationParts(NamedTuple):
    """What 1893's rotation rule reads of a hex for one entity (:func:`rotation_parts`)."""

    lev_green: str | None  # Leverkusen's green tile's name on its hex (it may lie any way)
    stubs: frozenset[Any]
    water: frozenset[int]  # the closed Rhine edges
    edges: Any  # the entity's connected edges (None: none)
    old: Placed
    nbrs: Any
    nmask: int
    emask: int
    memo: dict[Any, Any]  # the old tile's fits (``TRACK_FIT``)

    @property
    def plain(self) -> bool:
        """Does the board's rule alone answer (no Leverkusen tile, stubs or closed passage)?"""
        return self.lev_green is None and not self.stubs and not self.water


_NO_STUBS: frozenset[Any] = frozenset()
_ASK = object()  # (rotation_parts: the entity's connected edges asked of the game)


def _mask(edges: Any) -> int:
    """``edge_mask`` of distinct edges, by bits (no generator)."""
    m = 0
    for e in edges:
        m |= 1 << e
    return m


def rotation_parts(game: Game1893, entity: Any, hex_: Hex, edges: Any = _ASK) -> RotationParts:
    """What :func:`rotation_check` reads of ``hex_`` for ``entity``, worked out once
    (``edges``: the entity's connected edges there, where the caller has them from the same
    graph question, :meth:`Game.layable_hexes`)."""
    board = game.board
    lev = game.data["leverkusen"]
    if edges is _ASK:
        edges = game.connected_edges(entity, hex_)
    old = board.tile(hex_)
    nbrs = board.neighbors(hex_)
    stubs = board.stubs(hex_)
    return RotationParts(lev["green"] if hex_.id == lev["hex"] else None,
                         frozenset(s.edge for s in stubs) if stubs else _NO_STUBS, game.closed_rhine_edges(hex_),
                         edges, old, nbrs, _mask(nbrs), _mask(edges) if edges is not None else 0,
                         old.spec.upgrade_memos.setdefault(TRACK_FIT, {}))


def rotation_check(game: Game1893, entity: Any, hex_: Hex,
                   parts: RotationParts | None = None) -> Callable[[Placed], bool]:
    """1893's rotation rule for ``entity`` laying on ``hex_``: a test of a placed tile (only its
    name and track are read). Leverkusen's green tile may lie any way; the hex's stubs must be
    among the tile's exits; in phase 2 no track may cross the Rhine at its closed passages;
    then the board's rule (track joining the neighbours and the entity's connected edges),
    its hex-free part kept with the old tile's spec (:func:`placed_fit`)."""
    lev_green, stubs, water, edges, old, _, nmask, emask, memo = \
        parts if parts is not None else rotation_parts(game, entity, hex_)

    def ok(tile: Placed) -> bool:
        if lev_green is not None and tile.name == lev_green:
            return True
        if stubs or water:
            exits = set(tile.exits)
            if not stubs <= exits or water & exits:
                return False
        if edges is None:
            return False
        return fits(placed_fit(memo, old, tile), nmask, emask)

    return ok


#: a hex key's answers: the names and specs asked, those that fit (their rotations relative to
#: the old tile's) and the relative rotations turned to absolute ones (by the old tile's rotation)
_Entry = tuple[set[tuple[str, Any]], dict[tuple[str, Any], tuple[int, ...]],
               dict[tuple[tuple[int, ...], int], tuple[int, ...]]]


def hex_upgrades(game: Game1893, hex_: Hex, old: Placed, seen: list[tuple[Tile, Tile]],
                 names: list[tuple[str, Any]], order: dict[tuple[str, Any], int] | None = None,
                 ) -> tuple[list[tuple[int, tuple[int, ...]]], Callable[[tuple[int, ...], int], tuple[int, ...]]]:
    """The candidates (index in ``seen``; ``names`` their names and specs, ``order`` each
    one's index, made once per listing) that may replace ``old`` on ``hex_``, each with its
    rotations relative to the old tile's, in ``names``' order. The answers are a
    pure function of the hex's upgrade key (the parts of :meth:`Game1893.upgrade_memo_key`
    that do not depend on the new tile) and the new tile's name and spec: kept per hex key with
    the old tile's spec, shared by every 1893 game (the names asked, and those that fit); with
    them a function giving a candidate's rotations in order, turned by the old tile's."""
    board = game.board
    fl = board.future_label(hex_)
    key = (old.name, old.color, board.labels(hex_), (fl.label, fl.color) if fl is not None else None,
           game.upgrade_hex_extra(hex_))
    hexes = old.spec.upgrade_memos.setdefault((HEX_UPGRADES, type(game)), {})
    entry: _Entry | None = hexes.get(key)
    if entry is None:
        entry = hexes[key] = (set(), {}, {})
    asked, fitting, turned = entry
    if not asked.issuperset(names):
        memo = game.upgrade_memo(old)
        for (t, view), name in zip(seen, names):
            if name in asked:
                continue
            mkey = game.upgrade_memo_key(hex_, old, t)
            rel = memo.get(mkey)
            if rel is None:
                # (a colour or label that cannot follow fits in no rotation: no placement made)
                rel = () if game.upgrade_refused_in_every_rotation(old, view) else \
                    tuple((r - old.rotation) % 6 for r in range(6)
                          if game.upgrades_to(old, board.placed_tile(view, r, None)))
                memo[mkey] = rel
            if rel:
                fitting[name] = rel
            asked.add(name)
    def absolute(rel: tuple[int, ...], by: int) -> tuple[int, ...]:
        """The rotations ``rel`` (relative to the old tile's) turned by ``by``, in order."""
        out = turned.get((rel, by))
        if out is None:
            out = turned[rel, by] = tuple(sorted((x + by) % 6 for x in rel))
        return out

    if order is None:
        order = {name: i for i, name in enumerate(names)}
    # (the few that fit, not every name asked, looked at; put in the candidates' order)
    return sorted((order[name], rel) for name, rel in fitting.items() if name in order), absolute


def lay_candidates(game: Game1893, entity: Any) -> Iterator[tuple[Hex, Placed, Tile, int, Placed]]:
    """Every (hex, tile, rotation) ``entity`` could lay now, in the generic listing's order,
    then Leverkusen's green tile if its hex is yellow and connected: each as (hex, its tile
    now, the supply tile, rotation, the supply tile's shape placed off the map in that
    rotation), for the track step's checks of the same candidates (:class:`Track1893`)."""
    board = game.board
    connected = game.layable_hexes(entity)
    candidates: dict[str, Tile] = {}
    refused: set[str] = set()  # (copies of a name share its colour: the phase refuses them all)
    # the core's phase rule reads the colour alone: the phase's colours asked once
    colours = game.phase.tiles if type(game).tile_valid_for_phase is Game.tile_valid_for_phase else None
    for t in board.supply_tiles():
        name = t.name
        if name in candidates or name in refused:
            continue
        if (t.color in colours) if colours is not None else game.tile_valid_for_phase(t):
            candidates[name] = t
        else:
            refused.add(name)
    # every copy of a name is looked at as the first copy off the map (the rules read its shape)
    shape = board.supply.shape
    seen = [(t, shape(t.name)) for t in candidates.values() if asks_tile(game, t.id)]
    names = [(t.name, t.spec) for t, _ in seen]
    order = {name: i for i, name in enumerate(names)}
    # each candidate's placements off the map, looked up once per listing
    placements: dict[tuple[int, int], Placed] = {}
    lev = game.data["leverkusen"]
    lev_hex, lev_green = lev["hex"], lev["green"]
    lev_listed: set[str] = set()  # the tiles listed on Leverkusen's hex
    # the connected edges of each hex are those of the same graph question (the core's hooks)
    own_edges = type(game).layable_hexes is Game.layable_hexes and type(game).connected_edges is Game.connected_edges
    for hex_, edges in connected.items():
        if not asks_hex(game, hex_.id):
            continue
        parts = rotation_parts(game, entity, hex_, edges if own_edges else _ASK)
        plain = parts.plain
        if plain and parts.edges is None:
            continue  # (the board's rule refuses every tile here)
        old = parts.old
        upgrades, absolute = hex_upgrades(game, hex_, old, seen, names, order)
        if not upgrades:
            continue
        # on a plain hex the board's rule is asked here, its hex-free part of the fits'
        # memo (before the tile is placed); elsewhere through the check
        ok = None if plain else rotation_check(game, entity, hex_, parts)
        fits_memo = parts.memo
        outside, emask = ~parts.nmask, parts.emask
        okey = (old.rotation, old.igw, old.igc)
        for i, rel in upgrades:
            t, view = seen[i]
            for r in absolute(rel, old.rotation):
                if ok is None:
                    # (track_fit's key, asked here: most are answered)
                    fit = fits_memo.get((*okey, view.spec, r, None, None))
                    if fit is None:
                        fit = track_fit(fits_memo, old, view, r)
                    if fit < 0 or fit & outside or not fit & emask:
                        continue
                placed = placements.get((i, r))
                if placed is None:
                    placed = placements[i, r] = board.placed_tile(view, r, None)
                if ok is not None and not ok(placed):
                    continue
                if hex_.id == lev_hex:
                    lev_listed.add(t.id)
                yield hex_, old, t, r, placed
    hex_ = board.hex_by_id(lev_hex)
    old = board.tile(hex_)
    if old.color == "yellow" and hex_ in game.graph.connected_hexes(entity):
        green = next((t for t in board.supply_tiles() if t.name == lev_green), None)
        if green is not None and game.tile_valid_for_phase(green) and green.id not in lev_listed:
            yield hex_, old, green, 0, board.placed_tile(shape(green.name), 0, None)


def legal_tile_lays(game: Game1893, entity: Any) -> list[dict[str, Any]]:
    """Every (hex, tile, rotation) ``entity`` could lay now (:func:`lay_candidates`)."""
    return [{"hex": hex_.id, "tile": t.id, "rotation": r} for hex_, _, t, r, _ in lay_candidates(game, entity)]
