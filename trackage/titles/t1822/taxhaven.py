"""1822's tax haven (P16): the pot that holds shares for its owner, and its stock-round choice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import ShareBundle, certificate_price, without
from ...core.money import CashHolder

if TYPE_CHECKING:
    from .game import Game1822


class Holder(CashHolder):
    """A cash (and share) holder that is not a player: phase-revenue pots and the tax haven."""

    owner = None
    player = None
    CLONE_SHARE = ("certificates",)  # (frozen certificates in a tuple: as a share holder's)

    def __init__(self, name):
        self.id = name
        self.name = name
        self.cash = 0
        self.certificates: tuple = ()  # in arrival order, replaced on change: as a share holder's

    def percent_of(self, corp) -> int:
        cid = corp.id
        return sum(s.percent for s in self.certificates if s.corp_id == cid)

    def shares_of(self, corp) -> list:
        cid = corp.id
        return [s for s in self.certificates if s.corp_id == cid]

    def held_corporations(self) -> set:
        return {s.corp_id for s in self.certificates}

    def drop_holdings(self, corp) -> None:
        cid = corp.id
        self.certificates = tuple(s for s in self.certificates if s.corp_id != cid)

    def _add_share(self, share) -> None:
        self.certificates += (share,)

    def _remove_share(self, share) -> None:
        self.certificates = without(self.certificates, share)

    def num_shares_of(self, corp) -> int:
        return self.percent_of(corp) // corp.share_percent

    def value(self, game) -> int:
        v = self.cash
        corps = game.index.corporations
        for s in self.certificates:
            v += certificate_price(corps[s.corp_id], s)
        return v


def tax_haven_bundle(game: Game1822, choice) -> ShareBundle:
    """The share a tax-haven choice (``<corp>_ipo`` or ``<corp>_market``) names."""
    cid, _, where = choice.partition("_")
    corp = game.corporation_by_id(cid)
    share = corp.shares_of(corp)[0] if where == "ipo" else game.pool.shares_of(corp)[0]
    return ShareBundle([share], corporation=corp)


def choices_tax_haven(game: Game1822, company, time) -> dict:
    """The tax haven's choices: a share of a major from the IPO or the market."""
    if game.tax_haven.value(game) > 0 and not game.tax_haven_multiple():
        return {}
    if company.owner is None or not company.owner.is_player or time != "stock_round":
        return {}
    if getattr(game.round, "tax_haven_bought", False):
        return {}
    spender = game.tax_haven_spender(company)
    out = {}
    for corp in game.corporations:
        if corp.type != "major" or corp.share_price is None:
            continue
        price = corp.share_price.price
        if price <= 0 or game.tax_haven.num_shares_of(corp) > 0 or price > spender.cash:
            continue
        if corp.num_ipo_shares() > 0:
            out[f"{corp.id}_ipo"] = f"{corp.id} IPO"
        if game.pool.percent_of(corp) > 0:
            out[f"{corp.id}_market"] = f"{corp.id} Market"
    return out


def made_choice_tax_haven(game: Game1822, company, choice) -> None:
    """The tax haven buys the chosen share."""
    spender = game.tax_haven_spender(company)
    bundle = tax_haven_bundle(game, choice)
    corp = bundle.corporation
    floated = corp.floated()
    receiver = game.bank if bundle.owner is game.pool else corp
    game.share_market.transfer(bundle, game.tax_haven, spender=spender, receiver=receiver, price=bundle.price(),
                               allow_president_change=False)
    if corp.floatable and floated != corp.floated():
        game.float_corporation(corp)
