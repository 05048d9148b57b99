"""What the rules ask of the game: prices, trains, revenues, who controls what (public fields only)."""

from __future__ import annotations

from typing import Any

from ..base import controller


def corporation_of_share(game: Any, share_id: str) -> Any:
    """The corporation of certificate ``"<corporation id>_<index>"`` (None if unknown)."""
    cid = share_id.rpartition("_")[0]
    return game.corporation_by_id(cid) if cid else None


def share_price(corp: Any) -> int:
    """The corporation's market price (its par price before it has one; 0 when neither)."""
    for attr in ("share_price", "par_price"):
        sp = getattr(corp, attr, None)
        if sp is not None:
            return int(sp.price)
    return 0


def last_revenue(entity: Any) -> int:
    """The revenue of the operator's last run (0 before it ran)."""
    history = getattr(entity, "operating_history", None) or {}
    if not history:
        return 0
    return int(list(history.values())[-1].revenue)


def is_floated(entity: Any) -> bool:
    floated = getattr(entity, "floated", None)
    return bool(floated()) if callable(floated) else False


def trains_of(entity: Any) -> list[Any]:
    return [t for t in getattr(entity, "trains", []) if not getattr(t, "rusted", False)]


def next_depot_train(game: Any) -> Any:
    upcoming = getattr(game.depot, "upcoming", [])
    return upcoming[0] if upcoming else None


def cheapest_depot_price(game: Any) -> int | None:
    prices = [int(t.price) for t in game.depot.depot_trains()]
    return min(prices) if prices else None


def trains_about_to_rust(game: Any, entity: Any) -> bool:
    """True when every train of ``entity`` would rust or go obsolete with the next depot train."""
    trains = trains_of(entity)
    nxt = next_depot_train(game)
    if not trains or nxt is None:
        return False
    return all(t.rusts_with(nxt) or t.obsoletes_with(nxt) for t in trains)


def controlled_by(entity: Any, player: Any) -> bool:
    return entity is not None and controller(entity) is player


def price_of(action: dict[str, Any]) -> int:
    """The price an action names (the low end of a range), 0 when none."""
    if "price_range" in action:
        return int(action["price_range"][0])
    for key in ("price", "cost"):
        if isinstance(action.get(key), int):
            return int(action[key])
    return 0


def par_price(action: dict[str, Any]) -> int:
    """The price of a ``par`` action's share price (``"100,1,3"`` or a number)."""
    sp = action.get("share_price")
    if isinstance(sp, int):
        return sp
    if isinstance(sp, str):
        head = sp.split(",")[0]
        return int(head) if head.isdigit() else 0
    return 0


def finalize(action: dict[str, Any], price: int | None = None) -> dict[str, Any]:
    """A listed action made ready for ``process``: a chosen price in place of a range."""
    out = dict(action)
    if "price_range" in out:
        lo, hi = out.pop("price_range")
        p = lo if price is None else max(int(lo), min(int(hi), price))
        step = out.get("price_step") or 1
        out["price"] = int(lo + ((p - lo) // step) * step)
    out.pop("price_step", None)
    out.pop("canonical_prices", None)
    return out


def exposure(game: Any, player: Any) -> int:
    """What the player may be made to pay for trains: for each operator it controls that has no
    train, or whose trains all rust with the next one, the price it lacks for a train."""
    cheapest = cheapest_depot_price(game)
    if cheapest is None:
        return 0
    nxt = next_depot_train(game)
    total = 0
    for op in list(game.corporations) + list(game.minors):
        if controller(op) is not player or getattr(op, "closed", False) or not is_floated(op):
            continue
        if not trains_of(op):
            need = cheapest
        elif trains_about_to_rust(game, op):
            need = max(cheapest, int(nxt.price)) if nxt is not None else cheapest
        else:
            continue
        total += max(0, need - int(op.cash))
    return total
