"""1858's public companies: making one (afresh after a closure too), converting five shares to
ten, and the bundles they issue and redeem (also in an emergency)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import Corporation, ShareBundle
from ...core.tokens import Token

if TYPE_CHECKING:
    from .game import Game1858


class _NoIpo:
    """Stands for the IPO of a company whose treasury shares trade at the market price."""


NO_IPO = _NoIpo()


class Corporation1858(Corporation):
    __slots__ = ()

    @property
    def ipo_owner(self):
        return NO_IPO if self.data.get("always_market_price") else self

    def num_treasury_shares(self) -> int:
        return self.num_ipo_shares()


def new_corporation(game: Game1858, c) -> Corporation1858:
    """A public company from its spec (five shares)."""
    corp = Corporation1858(c["sym"], c.get("name", c["sym"]), share_percents=c.get("shares", [40, 20, 20, 20]),
                           tokens=c.get("tokens", []), float_percent=c.get("float_percent", 40),
                           max_ownership_percent=c.get("max_ownership_percent", 60),
                           type_=c.get("type", "5-share"), capitalization="incremental", data=c)
    corp.tokens = tuple(Token(corp, price=p) for p in corp.token_prices)
    corp.min_price = min((p.price for p in game.stock_market.par_prices), default=None)
    return corp


def convert(game: Game1858, corp) -> None:
    """A five-share company becomes a ten-share one (each share split, five more in its treasury)."""
    if not corp.is_corporation or corp.type != "5-share":
        return
    from dataclasses import replace

    from ...core.entities import Share, replace_certificate

    corp.type = "10-share"
    corp.float_percent = 20
    for s in corp.shares:  # (each certificate halved: a new one in its place, as it is held)
        replace_certificate(corp, s, replace(s, percent=s.percent // 2))
    corp.share_holders = {h: p // 2 for h, p in corp.share_holders.items()}
    corp.share_percent = 10
    added = tuple(Share(corp.id, len(corp.shares) + i, 10, False) for i in range(5))
    corp.cert_holders = (*corp.cert_holders, *(None,) * len(added))
    for s in added:
        corp._add_share(s)
    corp.shares = (*corp.shares, *added)
    corp.share_holders = {**corp.share_holders, corp: corp.share_holders.get(corp, 0) + 10 * len(added)}


def bundles_for_corporation(game: Game1858, holder, corp) -> list:
    """The bundles of ``holder``'s shares of ``corp``: one share, two shares, ..."""
    shares = list(holder.shares_of(corp))
    if not shares:
        return []
    out = []
    acc = []
    for s in shares:
        acc.append(s)
        out.append(ShareBundle(list(acc), corporation=corp))
    return out


def emergency_issuable_bundles(game: Game1858, corp) -> list:
    """The bundles a trainless company may issue to buy a train: those leaving it short of
    the dearest depot train, and one more."""
    if not game.trainless(corp):
        return []
    top = max_depot_price(game)
    if corp.cash >= top:
        return []
    issuable = game.issuable_shares(corp)
    eligible = [b for b in issuable if b.price() + corp.cash < top]
    rest = [b for b in issuable if b not in eligible]
    return eligible + rest[:1]


def max_depot_price(game: Game1858) -> int:
    """The dearest price of a depot train."""
    trains = game.depot.depot_trains()
    if not trains:
        return 0
    t = max(trains, key=lambda x: x.price)
    return max(v["price"] for v in t.variants.values())
