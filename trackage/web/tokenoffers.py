"""The tokens the seat may place, as the map previews them: each listed ``place_token`` (a
city and its slot) or ``hex_token`` (a hex), with who places it (its colours and label, as
the map draws the other tokens), where in words, and what it costs: the price is found by
trying the action on a copy of the game (the rules price a token by distance, terrain,
count ...; nothing of the live game changes). A copy costs 3-30 ms, so the game page lists
the offers unpriced and asks for the prices when the player previews a token."""

from __future__ import annotations

from typing import Any

from ..core.errors import GameError
from ..story import money
from . import views
from .labels import city_place, where
from .mapsvg import entity_colors

#: the listed actions the map previews as a token
TOKEN_TYPES = ("place_token", "hex_token")


def placer(entity: Any) -> Any:
    """Whose token it is: the acting entity, or the corporation owning the private company
    that places it (1822's token abilities)."""
    owner = getattr(entity, "owner", None)
    if getattr(entity, "is_company", False) and getattr(owner, "is_corporation", False):
        return owner
    return entity


def _payers(entity: Any) -> list[Any]:
    """Who may pay for the token: the entity and the corporation it places it for."""
    return [entity] if placer(entity) is entity else [entity, placer(entity)]


def token_cost(game: Any, action: dict[str, Any]) -> int | None:
    """What ``action`` takes from its placer's treasury, tried on a copy (None: the rules
    refuse it there, or the placer has no treasury)."""
    trial = game.copy()
    try:
        entity = trial.index.resolve(action)
        payers = [p for p in _payers(entity) if isinstance(getattr(p, "cash", None), int)]
        if not payers:
            return None
        before = sum(p.cash for p in payers)
        trial.process(dict(action))
    except GameError:
        return None
    return before - sum(p.cash for p in payers)


def token_offers(game: Any, legal: list[dict[str, Any]], *, priced: bool = True) -> list[dict[str, Any]]:
    """The listed token actions for the map's preview: ``{"action", "kind" ("city" or
    "hex"), "city", "slot", "hex", "label", "fill", "text", "where", "cost", "cost_text",
    "priced"}``; without ``priced`` no copy is tried (``cost`` None: the game page asks
    ``GET /api/games/{id}/tokens`` for the prices when the player previews a token)."""
    out: list[dict[str, Any]] = []
    for a in legal:
        if a.get("type") not in TOKEN_TYPES:
            continue
        try:
            entity = game.index.resolve(a)
        except GameError:
            continue
        owner = placer(entity)
        fill, text = entity_colors(owner)
        cost = token_cost(game, a) if priced else None
        is_city = a["type"] == "place_token"
        out.append({
            "action": views.clean_for_json(a), "kind": "city" if is_city else "hex",
            "city": str(a.get("city", "")), "slot": int(a.get("slot") or 0),
            "hex": str(a.get("hex", "")), "label": str(getattr(owner, "id", "?")),
            "fill": fill, "text": text,
            "where": city_place(game, a.get("city")) if is_city else where(game, a.get("hex")),
            "cost": cost, "cost_text": "" if cost is None else ("free" if cost == 0 else money(game, cost)),
            "priced": priced,
        })
    return out
