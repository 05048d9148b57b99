"""What the map shows the acting seat: the hexes it may lay a tile on and the cities it may
token, by name (the hint's links), and the hexes the map centres on for the acting company
(the hexes it may act on, else its tokens, else its home)."""

from __future__ import annotations

from typing import Any


def hex_name(game: Any, hex_id: str) -> str:
    """A hex's place name ("" when it has none)."""
    h = game.board.hex_by_id(hex_id) if game.board is not None else None
    return str(getattr(h, "location_name", None) or "") if h is not None else ""


def lay_targets(game: Any, lays: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The hexes of the legal tile lays, in hex order: ``{"hex", "name"}``."""
    hexes = sorted({str(a["hex"]) for a in lays})
    return [{"hex": h, "name": hex_name(game, h)} for h in hexes]


def token_targets(game: Any, tokens: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The cities of the legal token places: ``{"city", "hex", "name"}`` (a city's hex and its
    place name), one per city, in the order offered."""
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for a in tokens:
        cid = str(a.get("city"))
        if cid in seen:
            continue
        seen.add(cid)
        c = game.board.city_by_id(cid) if game.board is not None else None
        hid = str(c.hex.id) if c is not None and getattr(c, "hex", None) is not None else ""
        out.append({"city": cid, "hex": hid, "name": hex_name(game, hid) if hid else ""})
    return out


def entity_hexes(game: Any, entity: Any) -> list[str]:
    """The hexes of ``entity``'s tokens on the map, else of its home."""
    hexes: list[str] = []
    for t in getattr(entity, "tokens", None) or ():
        city = getattr(t, "city", None)
        hx = getattr(city, "hex", None) or getattr(t, "hex", None)
        if getattr(t, "used", False) and hx is not None:
            hexes.append(str(hx.id))
    if not hexes:
        coords = getattr(entity, "coordinates", None)
        if isinstance(coords, str):
            coords = [coords]
        hexes = [str(h) for h in coords or () if game.board is not None and game.board.hex_by_id(str(h)) is not None]
    return list(dict.fromkeys(hexes))


def focus_hexes(game: Any, lay: list[dict[str, str]], tok: list[dict[str, str]]) -> list[str]:
    """Where "centre on the acting company" looks: the hexes it may act on, else its tokens or home."""
    acting = [t["hex"] for t in lay] + [t["hex"] for t in tok if t["hex"]]
    if acting:
        return list(dict.fromkeys(acting))
    if game.board is None or game.finished:
        return []
    out: list[str] = []
    for e in game.acting_entities():
        out.extend(entity_hexes(game, e))
    return list(dict.fromkeys(out))
