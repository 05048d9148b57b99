"""Buying a private company: one handler for any step that offers ``buy_company``.

A title's step mixes in :class:`BuyCompanyMixin` and answers its hooks: whether the
purchase is allowed and at what price (``company_price``), who pays and receives the
company (``company_buyer``), how company and money move (``transfer_company``) and what
follows (``after_company_purchase``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..money import pay

if TYPE_CHECKING:
    from ..entities import Company


class BuyCompanyMixin:
    """``process_buy_company`` for a :class:`~trackage.core.round.Step` (mixed in before it)."""

    game: Any

    def company_price(self, entity: Any, company: Company | None, action: dict[str, Any]) -> int:
        """Title hook: check that ``entity`` may buy ``company`` as ``action`` asks (``company``
        is None when the action names no known company) and return the price paid; raise a
        ``GameError`` to refuse."""
        raise NotImplementedError

    def company_buyer(self, entity: Any) -> Any:
        """Title hook: who pays for and receives the company (default: the acting entity)."""
        return entity

    def transfer_company(self, buyer: Any, company: Company, price: int) -> None:
        """Title hook: ``buyer`` pays ``price`` to the company's owner (the bank when it has
        none) and takes the company (default)."""
        seller = company.owner
        pay(self.game, buyer, seller if seller is not None else self.game.bank, price, "company_purchase")
        if seller is not None:
            seller.companies.remove(company)
        company.owner = buyer
        buyer.companies.append(company)

    def after_company_purchase(self, entity: Any, company: Company, action: dict[str, Any]) -> None:
        """Title hook: bookkeeping once ``entity``'s purchase of ``company`` is done (default: none)."""

    def process_buy_company(self, action: dict[str, Any], entity: Any) -> None:
        company = self.game.index.company(action.get("company"))
        price = self.company_price(entity, company, action)
        assert company is not None  # company_price refuses an unknown company
        self.transfer_company(self.company_buyer(entity), company, price)
        self.after_company_purchase(entity, company, action)
