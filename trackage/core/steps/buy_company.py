"""Buying a private company: one handler for any step that offers ``buy_company``.

A title's step mixes in :class:`BuyCompanyMixin` and answers its hooks: whether the
purchase is allowed and at what price (``company_price``), who pays and receives the
company (``company_buyer``), how company and money move (``transfer_company``) and what
follows (``after_company_purchase``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import amount
from ..entities import without
from ..errors import GameError
from ..money import pay
from ..round import ranged

if TYPE_CHECKING:
    from ..entities import Company


class BuyCompanyMixin:
    """``process_buy_company`` for a :class:`~trackage.core.round.Step` (mixed in before it)."""

    game: Any

    def price_range(self, entity: Any, company: Company) -> tuple[int, int] | None:
        """Title hook: the lowest and highest price ``entity`` may pay for ``company``, or None
        when it may not buy it (default: None)."""
        return None

    def company_price(self, entity: Any, company: Company | None, action: dict[str, Any]) -> int:
        """Title hook: check that ``entity`` may buy ``company`` as ``action`` asks (``company``
        is None when the action names no known company) and return the price paid; raise a
        ``GameError`` to refuse. Default: the named price, within ``price_range`` and the
        buyer's cash."""
        span = self.price_range(entity, company) if company is not None else None
        if company is None or span is None:
            raise GameError(f"{action.get('company')!r} cannot be bought", rule="company-not-for-sale")
        price = amount(action, "price", None)
        if price is None or not span[0] <= price <= span[1]:
            raise GameError(f"price must be between {span[0]} and {span[1]}", rule="wrong-price")
        cash: int = self.company_buyer(entity).cash
        if price > cash:
            raise GameError(f"{entity.name} has {cash} and cannot pay {price}", rule="insufficient-cash")
        return int(price)

    def priced_offers(self, entity: Any, companies: list[Company]) -> list[dict[str, Any]]:
        """The legal ``buy_company`` actions for ``companies``, each at any affordable price in
        its ``price_range``."""
        cash: int = self.company_buyer(entity).cash
        return [ranged({"type": "buy_company", "company": c.sym}, span[0], min(span[1], cash))
                for c in companies if (span := self.price_range(entity, c)) is not None and span[0] <= cash]

    def company_buyer(self, entity: Any) -> Any:
        """Title hook: who pays for and receives the company (default: the acting entity)."""
        return entity

    def transfer_company(self, buyer: Any, company: Company, price: int) -> None:
        """Title hook: ``buyer`` pays ``price`` to the company's owner (the bank when it has
        none) and takes the company (default)."""
        seller = company.owner
        pay(self.game, buyer, seller if seller is not None else self.game.bank, price, "company_purchase")
        if seller is not None:
            seller.companies = without(seller.companies, company)
        company.owner = buyer
        buyer.companies = (*buyer.companies, company)

    def after_company_purchase(self, entity: Any, company: Company, action: dict[str, Any]) -> None:
        """Title hook: bookkeeping once ``entity``'s purchase of ``company`` is done (default: none)."""

    def process_buy_company(self, action: dict[str, Any], entity: Any) -> None:
        company = self.game.index.company(action.get("company"))
        price = self.company_price(entity, company, action)
        assert company is not None  # company_price refuses an unknown company
        self.transfer_company(self.company_buyer(entity), company, price)
        self.after_company_purchase(entity, company, action)
