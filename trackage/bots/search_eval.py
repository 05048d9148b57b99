"""How the search bot judges a position: each player's worth, and a seat's standing against the
best of the others.

A player's worth is the title's own score (``game.player_value``: cash, shares at market,
private companies) plus a part of what the operators it holds a stake in own beyond their
market price (treasury, trains, expected revenue, in proportion to its stake; all of it for
an operator it controls without shares, as a minor), less a part of what it may be made to pay
for trains (``rules.common.exposure``)."""

from __future__ import annotations

from typing import Any

from .base import controller
from .rules.common import exposure, is_floated, last_revenue, trains_of

# the part of an operator's treasury, trains and next revenue counted to its holders (cash and
# trains alike: a train bought at its price is neither gain nor loss to the look-ahead)
TREASURY_WEIGHT = 0.5
TRAIN_WEIGHT = 0.5
REVENUE_WEIGHT = 1.0
# the part of a forced train purchase counted against the player
EXPOSURE_WEIGHT = 0.25


def operator_worth(entity: Any) -> float:
    """What an operator owns beyond its share price: treasury, trains, the revenue it runs."""
    trains = trains_of(entity)
    revenue = last_revenue(entity) if trains else 0
    return (TREASURY_WEIGHT * float(getattr(entity, "cash", 0) or 0)
            + TRAIN_WEIGHT * sum(float(getattr(t, "price", 0) or 0) for t in trains)
            + REVENUE_WEIGHT * revenue)


def stake(entity: Any, player: Any) -> float:
    """The player's part of an operator: its percent of the shares, or all of one it controls
    that has no shares in players' hands (a minor)."""
    percent = player.percent_of(entity) if entity in player.shares_by_corp else 0
    if percent:
        return percent / 100.0
    if controller(entity) is player and not getattr(entity, "ipoed", True):
        return 1.0
    return 0.0


def worth(game: Any, player: Any) -> float:
    value = float(game.player_value(player))
    for op in list(game.corporations) + list(getattr(game, "minors", [])):
        if getattr(op, "closed", False) or not is_floated(op):
            continue
        part = stake(op, player)
        if part:
            value += part * operator_worth(op)
    return value - EXPOSURE_WEIGHT * exposure(game, player)


def standing(game: Any, seat: int) -> float:
    """The seat's worth less the best other seat's (its worth alone with one seat)."""
    values = [worth(game, p) for p in game.seats]
    mine = values[seat]
    others = [v for i, v in enumerate(values) if i != seat]
    return mine - max(others) if others else mine
