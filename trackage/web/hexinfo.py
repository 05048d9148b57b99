"""A hex's details in words, for the map's tooltip: its id, place name, tile, revenue,
tokens and terrain cost ("G36 Bristol · tile 57 · revenue 20 · tokens GWR · terrain hill $60")."""

from __future__ import annotations

from typing import Any


def _revenue(tile: Any, phase_colors: list[str]) -> str:
    vals: list[str] = []
    for n in tile.all_nodes:
        if n.is_junction or getattr(n, "hide", False):
            continue
        rev = dict(getattr(n, "revenue", None) or {})
        if not rev:
            continue
        now = next((rev[c] for c in reversed(phase_colors) if c in rev), None)
        uniq = list(dict.fromkeys(rev.values()))
        if len(uniq) > 1:
            vals.append("/".join(str(v) for v in uniq) + (f" (now {now})" if now is not None else ""))
        elif uniq and str(uniq[0]) != "0":
            vals.append(str(uniq[0]))
    return ", ".join(dict.fromkeys(vals))


def hex_info(hex_: Any, tile: Any, tokens: list[str], phase_colors: list[str]) -> str:
    """The tooltip's text of ``hex_`` with ``tile`` on it and the ``tokens`` (ids) in its cities."""
    parts = [str(hex_.id) + (f" {hex_.location_name}" if getattr(hex_, "location_name", None) else "")]
    if not tile.preprinted:
        parts.append(f"tile {tile.name}")
    rev = _revenue(tile, phase_colors)
    if rev:
        parts.append(f"revenue {rev}")
    if tokens:
        parts.append("tokens " + ", ".join(tokens))
    terrain = [f"{'/'.join(u.terrains) or 'cost'} {u.cost}" for u in tile.upgrades if u.cost]
    if terrain:
        parts.append("terrain " + ", ".join(terrain))
    return " · ".join(parts)
