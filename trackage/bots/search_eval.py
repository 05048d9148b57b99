"""How the search bot judges a position: each player's worth, and a seat's standing against the
best of the others.

A player's worth is the title's own score (``game.player_value``: cash, shares at market,
private companies) plus what its holdings will still earn: for each operator it holds a stake
in, its part of the operator's treasury and trains and of the revenue it is expected to run in
every operating round left (``outlook``: the bank's cash over what leaves it in a round; one
round only for an operator whose trains all rust with the next train), the income of its
private companies for the same rounds, less a part of what it may be made to pay for trains
(``rules.common.exposure``)."""

from __future__ import annotations

from typing import Any

from .base import controller
from .rules.common import exposure, is_floated, last_revenue, share_price, trains_about_to_rust, trains_of

# the part of an operator's treasury and trains counted to its holders (a train bought at its
# price is neither gain nor loss to the look-ahead)
TREASURY_WEIGHT = 0.5
TRAIN_WEIGHT = 0.5
# the part of every future round's expected income counted (revenue varies, trains rust)
INCOME_WEIGHT = 0.5
# the part of a forced train purchase counted against the player
EXPOSURE_WEIGHT = 0.25
# the operating rounds counted at most and at least
MAX_ROUNDS = 8
MIN_ROUNDS = 1
# revenue per share price unit guessed for a company that has not run yet
NEW_YIELD = 0.6


def operators(game: Any) -> list[Any]:
    return [op for op in list(game.corporations) + list(getattr(game, "minors", []))
            if not getattr(op, "closed", False) and is_floated(op)]


def outlook(game: Any) -> float:
    """Operating rounds left, guessed from the bank's cash over what the operators and private
    companies take from it in one round."""
    flow = sum(last_revenue(op) for op in operators(game))
    flow += sum(int(getattr(c, "revenue", 0) or 0) for c in game.companies
                if not getattr(c, "closed", False) and getattr(c, "owner", None) is not None)
    bank = float(getattr(game.bank, "cash", 0) or 0)
    rounds = bank / max(flow, 1)
    return max(float(MIN_ROUNDS), min(float(MAX_ROUNDS), rounds))


def expected_revenue(game: Any, op: Any) -> float:
    """The revenue the operator is expected to run each round: its last run's, else a guess."""
    rev = last_revenue(op)
    if rev > 0:
        return float(rev)
    if trains_of(op):
        return 40.0 * len(trains_of(op))
    return NEW_YIELD * share_price(op) if share_price(op) else 0.0


def operator_worth(game: Any, entity: Any, rounds: float) -> float:
    """What an operator owns beyond its share price and what it will still earn."""
    trains = trains_of(entity)
    ahead = MIN_ROUNDS if trains_about_to_rust(game, entity) else rounds
    return (TREASURY_WEIGHT * float(getattr(entity, "cash", 0) or 0)
            + TRAIN_WEIGHT * sum(float(getattr(t, "price", 0) or 0) for t in trains)
            + INCOME_WEIGHT * ahead * expected_revenue(game, entity))


def stake(entity: Any, player: Any) -> float:
    """The player's part of an operator: its percent of the shares, or all of one it controls
    that has no shares in players' hands (a minor)."""
    percent = player.percent_of(entity)
    if percent:
        return percent / 100.0
    if controller(entity) is player and not getattr(entity, "ipoed", True):
        return 1.0
    return 0.0


def worth(game: Any, player: Any, rounds: float | None = None) -> float:
    ahead = outlook(game) if rounds is None else rounds
    value = float(game.player_value(player))
    for op in operators(game):
        part = stake(op, player)
        if part:
            value += part * operator_worth(game, op, ahead)
    income = sum(int(getattr(c, "revenue", 0) or 0) for c in getattr(player, "companies", [])
                 if not getattr(c, "closed", False))
    value += INCOME_WEIGHT * ahead * income
    return value - EXPOSURE_WEIGHT * exposure(game, player)


def standing(game: Any, seat: int) -> float:
    """The seat's worth less the best other seat's (its worth alone with one seat)."""
    ahead = outlook(game)
    values = [worth(game, p, ahead) for p in game.seats]
    mine = values[seat]
    others = [v for i, v in enumerate(values) if i != seat]
    return mine - max(others) if others else mine
