"""1822's track rights: hexes held for consent, and which tile rotations are legal there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .config import MINOR_14

if TYPE_CHECKING:
    from .game import Game1822


def consent_blockers(game: Game1822, hex_) -> list:
    """Entities holding track rights on a still unbuilt hex."""
    if game.board.tile(hex_).color != "white":
        return []
    out = []
    for e in list(game.companies) + list(game.corporations):
        if getattr(e, "closed", False):
            continue
        for a in (e.abilities if e.is_company else e.data.get("abilities", [])):
            if a.get("type") == "blocks_hexes_consent" and hex_.id in a.get("hexes", []):
                out.append(e)
    m14 = getattr(game, "m14_rights_hex", None)
    if m14 == hex_.id:
        minor = game.corporation_by_id(MINOR_14)
        if minor is not None and not minor.closed:
            out.append(minor)
    return out


def rights_owners(game: Game1822, hex_) -> frozenset:
    """The players holding track rights on ``hex_`` (:func:`consent_blockers`' owners), asked
    once per hex and board during a listing (``Game1822.rights_memo``), else worked out."""
    memo = game.__dict__.get("_rights_memo")
    key = (hex_.id, game.board.state.version)
    owners = memo.get(key) if memo is not None else None
    if owners is None:
        owners = frozenset(rights_player(game, b) for b in consent_blockers(game, hex_)) - {None}
        if memo is not None:
            memo[key] = owners
    return owners


def rights_player(game: Game1822, e):
    """The player holding ``e``'s track rights (None: not a player's)."""
    owner = e.owner
    return owner if owner is not None and owner.is_player else None


def acting_player(game: Game1822, entity):
    """The player acting for ``entity`` (a company's owner's owner)."""
    if entity.is_company:
        entity = entity.owner
    owner = getattr(entity, "owner", None)
    return owner if owner is not None and owner.is_player else None


def legal_tile_rotation(game: Game1822, entity, hex_, tile) -> bool:
    """May ``entity`` lay ``tile`` (rotated) on ``hex_``? Track rights, P5's and D35's fixed
    rotations, P2's town removal."""
    if hex_.id == "D35" and tile.name == "57" and tile.rotation in (2, 5):
        return True
    if getattr(entity, "sym", None) == "P5" and hex_.id == "P43":
        return tile.rotation == 0
    operator = entity.owner if entity.is_company else entity
    owners = rights_owners(game, hex_)
    if acting_player(game, operator) not in owners:
        stubs = game.board.stubs(hex_)
        if not owners and stubs:
            exits = set(tile.exits)
            if any(s.edge not in exits for s in stubs):
                return False
    if entity is not operator and (entity.sym == "P2" or "P2" in getattr(game, "_lay_syms", ())):
        # removing a town: only the old exits must be kept
        exits = set(tile.exits)
        if not all(e in game.board.neighbors(hex_) for e in exits):
            return False
        edges = game.connected_edges(operator, hex_)
        if edges is None or not exits & set(edges):
            return False
        return set(game.board.tile(hex_).exits) <= exits
    return game.board.legal_tile_rotation(operator, hex_, tile)


def company_rotation_check(game: Game1822, entity, hex_):
    """:func:`legal_tile_rotation` on one hex for a private company's lays (their listing,
    inside its graph probe): the track rights and stubs read once and the board's check made
    once for all the tiles tried there; outside a probe, asked per tile."""
    if not game.__dict__.get("_probing"):
        return lambda tile: game.legal_tile_rotation(entity, hex_, tile)
    d35, p5 = hex_.id == "D35", getattr(entity, "sym", None) == "P5" and hex_.id == "P43"
    operator = entity.owner if entity.is_company else entity
    owners = rights_owners(game, hex_)
    stubs = game.board.stubs(hex_) if acting_player(game, operator) not in owners and not owners else ()
    p2 = entity is not operator and (entity.sym == "P2" or "P2" in getattr(game, "_lay_syms", ()))
    board_ok = None  # the board's check, made once a tile needs it

    def check(tile) -> bool:
        nonlocal board_ok
        if d35 and tile.name == "57" and tile.rotation in (2, 5):
            return True
        if p5:
            return tile.rotation == 0
        if stubs:
            exits = set(tile.exits)
            if any(s.edge not in exits for s in stubs):
                return False
        if p2:
            return legal_tile_rotation(game, entity, hex_, tile)
        if board_ok is None:
            board_ok = game.board.rotation_check(operator, hex_)
        return board_ok(tile)
    return check


def rotation_check(game: Game1822, entity, hex_):
    """:func:`legal_tile_rotation` on one hex for the tile-lay listing (inside its graph probe),
    the track rights, stubs, connected edges and memo worked out once for all the tiles tried
    there; a company's lay, D35 and a question outside a listing are asked per tile."""
    if hex_.id == "D35" or entity.is_company or getattr(entity, "sym", None) == "P5" \
            or not game.__dict__.get("_probing"):
        return lambda tile: game.legal_tile_rotation(entity, hex_, tile)
    board_ok = game.board.rotation_check(entity, hex_)
    stubs = game.board.stubs(hex_)
    if not stubs or rights_owners(game, hex_):
        return board_ok  # (no stubs, or someone's rights: the stubs need not be kept)

    def check(tile) -> bool:
        exits = set(tile.exits)
        return all(s.edge in exits for s in stubs) and board_ok(tile)
    return check


def rotation_check_key(game: Game1822, entity, hex_):
    """What :func:`rotation_check`'s answers on ``hex_`` read, for tiles seen off the map, when
    it is the board's check (with the stubs kept where nobody holds rights there): the board's
    key and those stubs' edges; None where it asks per tile (D35, a company's lay, P5, a
    question outside a listing)."""
    if hex_.id == "D35" or entity.is_company or getattr(entity, "sym", None) == "P5" \
            or not game.__dict__.get("_probing"):
        return None
    board_key = game.board.rotation_check_key(entity, hex_)
    stubs = game.board.stubs(hex_)
    if not stubs or rights_owners(game, hex_):
        return board_key, None
    return board_key, frozenset(s.edge for s in stubs)
