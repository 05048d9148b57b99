"""Rules for operators (corporations and minors): run, pay, buy trains, lay track, place tokens.

Each rule scores a listed action (higher first; None: no opinion, left to the fallback)."""

from __future__ import annotations

from typing import Any

from ..base import controller
from .common import (
    cheapest_depot_price,
    controlled_by,
    finalize,
    price_of,
    trains_about_to_rust,
    trains_of,
)

COLOR_RANK = {"white": 0, "yellow": 1, "green": 2, "brown": 3, "gray": 4, "grey": 4}


def score_run(action: dict[str, Any]) -> float:
    return 100.0 + sum(int(r.get("revenue", 0)) for r in action.get("routes", [])) / 1000.0


def score_dividend(game: Any, entity: Any, action: dict[str, Any]) -> float:
    """Pay out, unless the operator has no train (or its trains rust with the next one) and
    cannot afford one: then withhold, so that its president is not made to pay for it."""
    kind = action.get("kind")
    cheapest = cheapest_depot_price(game)
    endangered = not trains_of(entity) or trains_about_to_rust(game, entity)
    starving = endangered and cheapest is not None and entity.cash < cheapest
    if kind == "withhold":
        return 90.0 if starving else 10.0
    if kind == "payout":
        return 80.0
    return 50.0  # half pays, part withheld


def _train_owner(game: Any, action: dict[str, Any]) -> Any:
    train = game.depot.train_by_id(action.get("train"))
    return None if train is None else train.owner


def choose_train(game: Any, entity: Any, actions: list[dict[str, Any]], forced: bool) -> dict[str, Any] | None:
    """The train to buy, or None to buy none.

    From the depot: the dearest the operator can pay for itself when it has no train (or they
    all rust with the next one), or when it has room; the cheapest when it must buy one it
    cannot pay for (``forced``: no pass listed) and no other operator sells one. From another
    operator (only for one without trains): its own controller's at the low end, never the
    seller's last; anyone else's only when forced (so that its president does
    not pay), at the low end too (paying more there once left an 1893 emergency buy with no
    legal action after it)."""
    me = controller(entity)
    depot: list[tuple[int, dict[str, Any]]] = []
    own: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for a in actions:
        owner = _train_owner(game, a)
        if owner is None or getattr(owner, "is_depot", False):
            depot.append((price_of(a), a))
        elif not trains_of(entity):
            if controlled_by(owner, me):
                if len(trains_of(owner)) >= 2:
                    own.append(a)
            else:
                others.append(a)
    depot.sort(key=lambda pa: pa[0])
    needs = not trains_of(entity) or trains_about_to_rust(game, entity)
    affordable = [pa for pa in depot if pa[0] <= entity.cash]
    if affordable and (needs or trains_of(entity)):
        return finalize(affordable[-1][1])
    if own:
        return finalize(own[0])
    if not forced:
        return None
    if others:
        return finalize(others[0])
    return finalize(depot[0][1]) if depot else None


def score_lay(game: Any, entity: Any, action: dict[str, Any]) -> float:
    """Prefer upgrades of revenue centres and tiles that add revenue: a cheap stand-in for the
    router's gain; less for what the lay costs, and below passing (-1) when paying for it would
    leave an operator that needs a train without the price of one."""
    board = game.board
    hex_ = board.hex_by_id(action.get("hex"))
    tile = board.tile_by_id(action.get("tile"))
    if hex_ is None or tile is None:
        return 30.0
    try:
        placed = tile.at(int(action.get("rotation", 0)), hex_)
        old = board.tile(hex_)
    except Exception:  # noqa: BLE001 - a heuristic must never stop the game
        return 30.0
    cost = _lay_cost(board, hex_, placed, entity)
    if cost > 0 and not affords_after(game, entity, cost):
        return -1.0
    new_rev = _revenue(placed)
    old_rev = _revenue(old)
    upgrade = COLOR_RANK.get(str(getattr(old, "color", "white")), 0)
    cities = len(getattr(placed, "cities", ()))
    towns = len(getattr(placed, "towns", ()))
    exits = len(placed.exits) if hasattr(placed, "exits") and not callable(placed.exits) else 0
    return (40.0 + min(20.0, (new_rev - old_rev) / 5.0) + 3.0 * upgrade + 4.0 * cities + 2.0 * towns + 0.3 * exits
            - cost / 10.0)


def _lay_cost(board: Any, hex_: Any, placed: Any, entity: Any) -> int:
    try:
        return int(board.lay_cost_preview(hex_, placed, entity))
    except Exception:  # noqa: BLE001 - a heuristic must never stop the game
        return 0


def affords_after(game: Any, entity: Any, cost: int) -> bool:
    """Can ``entity`` pay ``cost`` and still buy the train it needs (none, or all about to rust),
    and keep a margin of half the cheapest train otherwise?"""
    cheapest = cheapest_depot_price(game) or 0
    cash = int(getattr(entity, "cash", 0))
    needs = not trains_of(entity) or trains_about_to_rust(game, entity)
    reserve = cheapest if needs else cheapest // 2
    return cash - cost >= reserve


def _revenue(tile: Any) -> int:
    total = 0
    for node in list(getattr(tile, "cities", ())) + list(getattr(tile, "towns", ())):
        try:
            total += int(node.max_revenue)
        except (AttributeError, TypeError, ValueError):
            continue
    return total


def score_token(game: Any, entity: Any, action: dict[str, Any]) -> float:
    """A token in a richer city first; less for its cost, below passing when paying for it
    would leave an operator that needs a train without the price of one."""
    city = game.board.city_by_id(action.get("city"))
    rev = 0
    if city is not None:
        try:
            rev = int(city.max_revenue)
        except (AttributeError, TypeError, ValueError):
            rev = 0
    cost = int(action.get("cost", 0) or 0)
    if cost > 0 and not affords_after(game, entity, cost):
        return -1.0
    return 45.0 + rev / 10.0 - cost / 100.0


def company_sale(game: Any, entity: Any, action: dict[str, Any]) -> dict[str, Any] | None:
    """A private sold to the operator by its own controller: at the top of the range, keeping
    the price of a train when the operator has none."""
    company = game.index.company(action.get("company"))
    me = controller(entity)
    if company is None or me is None or controller(company) is not me:
        return None
    lo, hi = action.get("price_range", [price_of(action), price_of(action)])
    reserve = 0 if trains_of(entity) else (cheapest_depot_price(game) or 0)
    price = min(int(hi), int(entity.cash) - reserve)
    if price < int(lo):
        return None
    return finalize(action, price)
