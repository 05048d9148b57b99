"""Rules for players: par, buy the shares that pay, keep presidencies, bid up to a value.

Each rule scores a listed action (higher first; None: no opinion, left to the fallback) and
gives the action ready for ``process`` (a price chosen in a range)."""

from __future__ import annotations

from typing import Any

from ...core.steps.auction import AuctionMixin
from ..base import controller
from .common import (
    corporation_of_share,
    exposure,
    finalize,
    is_floated,
    last_revenue,
    par_price,
    price_of,
    share_price,
    trains_about_to_rust,
    trains_of,
)

Scored = tuple[float, dict[str, Any]]


def score_par(game: Any, player: Any, action: dict[str, Any], tweaks: dict[str, Any]) -> Scored | None:
    """Par when the player can buy enough to float and keep a margin; the highest such par.
    One unfloated presidency at a time."""
    corp = game.corporation_by_id(action.get("corporation"))
    price = par_price(action)
    if corp is None or price <= 0:
        return None
    if any(controller(c) is player and not is_floated(c) and c is not corp for c in game.corporations
           if getattr(c, "ipoed", False)):
        return None
    float_pct = int(getattr(corp, "float_percent", 60) or 60)
    need = price * max(20, float_pct) // 10 * float(tweaks.get("par_cash_share", 1.0))
    if player.cash < need + kept_back(game, player, tweaks):
        return None
    return 30.0 + price / 100.0, finalize(action)


def share_yield(corp: Any) -> float:
    """Revenue per 10% over price: the last run's, else a guess from its trains."""
    price = share_price(corp) or 100
    rev = last_revenue(corp)
    if rev == 0 and trains_of(corp):
        rev = 40 * len(trains_of(corp))
    return rev / 10.0 / price


def kept_back(game: Any, player: Any, tweaks: dict[str, Any]) -> int:
    """What the player keeps back for trains its operators may make it pay for."""
    return exposure(game, player) if tweaks.get("president_pays", True) else 0


def score_buy_shares(game: Any, player: Any, entity: Any, action: dict[str, Any],
                     tweaks: dict[str, Any]) -> Scored | None:
    shares = action.get("shares") or []
    if not shares:
        return None
    corp = corporation_of_share(game, str(shares[0]))
    if corp is None:
        return None
    if entity is not player:  # a corporation or a private buying (an exchange, a treasury buy)
        return 22.0, finalize(action)
    price = share_price(corp)
    if price and player.cash < price + kept_back(game, player, tweaks):
        return None
    mine = controller(corp) is player
    floated = is_floated(corp)
    operated = bool(getattr(corp, "operating_history", None))
    dead = operated and not trains_of(corp)
    if mine and not floated:
        score = 35.0
    elif dead:
        return None
    elif mine:
        score = 26.0 + 40.0 * share_yield(corp)
    else:
        score = 18.0 + 40.0 * share_yield(corp)
        if trains_about_to_rust(game, corp):
            score -= 6.0
    return score, finalize(action)


def score_sell_shares(game: Any, player: Any, entity: Any, action: dict[str, Any]) -> Scored | None:
    """Sell what it does not control when the company has no train or its trains rust next."""
    if entity is not player:
        return None
    shares = action.get("shares") or []
    corp = corporation_of_share(game, str(shares[0])) if shares else None
    if corp is None or controller(corp) is player:
        return None
    operated = bool(getattr(corp, "operating_history", None))
    if operated and (not trains_of(corp) or trains_about_to_rust(game, corp)):
        return 15.0, finalize(action)
    return None


def company_value(game: Any, action: dict[str, Any]) -> int:
    company = game.index.company(action.get("company")) if action.get("company") else None
    if company is not None:
        return int(getattr(company, "value", 0) or 0)
    corp = game.corporation_by_id(action.get("corporation")) if action.get("corporation") else None
    if corp is not None:
        return share_price(corp) or 100
    return 0


def score_bid(game: Any, player: Any, action: dict[str, Any], tweaks: dict[str, Any]) -> Scored | None:
    """Bid the least allowed when it is within face value plus a margin and the cash allows.
    The bids the player leads on other items count as spent and as held (1822's bid boxes stay
    open all the stock round: counting only what was already won, the rule bot once led on
    three minors and two privates with 525 of its 525)."""
    value = company_value(game, action)
    low = price_of(action)
    limit = max(value, 1) * float(tweaks.get("bid_margin", 1.2)) + float(tweaks.get("bid_extra", 10))
    item = game.index.company(action.get("company")) if action.get("company") else None
    leading = leading_bids(game, player, item)
    need = low + sum(leading) + int(tweaks.get("bid_reserve", 0)) + kept_back(game, player, tweaks)
    if low > limit or need > player.cash:
        return None
    if holdings(game, player) + len(leading) >= int(tweaks.get("max_holdings", 99)):
        return None
    return 24.0 - low / 1000.0, finalize(action, low)


def score_buy_company(game: Any, player: Any, action: dict[str, Any], tweaks: dict[str, Any]) -> Scored | None:
    """A private at a price: bought when the price is at most its face value (times the
    ``price_margin`` tweak), and what its operators may need for trains is kept back unless the
    price is a tenth of it or less (1893's EVA, which any president may take from another player
    for 1 during an operating round)."""
    value = company_value(game, action)
    low = price_of(action)
    reserve = 0 if value and low * 10 <= value else kept_back(game, player, tweaks)
    if low + reserve > player.cash or (value and low > value * float(tweaks.get("price_margin", 1.0))):
        return None
    return 20.0, finalize(action, low)


def leading_bids(game: Any, player: Any, item: Any) -> list[int]:
    """The prices of the bids ``player`` leads on items other than ``item`` in the auction step
    under way (titles whose bids stay open on several items at once; one item elsewhere)."""
    step = game.round.active_step()
    if not isinstance(step, AuctionMixin):
        return []
    out: list[int] = []
    for company in game.companies:
        if company is item:
            continue
        top = step.highest_bid(company)
        if top is not None and top[0] is player:
            out.append(int(top[1]))
    return out


def holdings(game: Any, player: Any) -> int:
    """What the player runs or holds: operators it controls and private companies it owns."""
    operators = [o for o in list(game.corporations) + list(game.minors)
                 if controller(o) is player and not getattr(o, "closed", False)]
    return len(operators) + len(getattr(player, "companies", []))
