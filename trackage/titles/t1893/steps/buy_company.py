"""t1893 steps: buy company."""

from __future__ import annotations

from typing import ClassVar

from ....core.round import Step
from ....core.steps.buy_company import BuyCompanyMixin


class BuyCompany1893(BuyCompanyMixin, Step):
    """In an operating round EVA may change hands between players at any moment: the acting
    operator's president or any other player buys it from its owner, at any price from 1 to
    the buyer's cash, paid to the owner (as the reference allows)."""

    HANDLERS: ClassVar[dict] = {"buy_company": "process_buy_company"}
    BLOCKS = False

    def company_buyer(self, entity):
        """Who pays: a player for himself, the current operator's president for it."""
        if entity.is_player:
            return None if entity.bankrupt else entity
        return entity.player if entity is self.current_entity() and not entity.is_company else None

    def actions(self, entity):
        # (the game's eva_changes_hands and purchasable_companies read in place: asked for
        # every listed entity at every listing)
        game = self.game
        eva = game.eva
        owner = eva.owner
        if eva.closed or owner is game.bank or owner is None:
            return []  # (for anyone: the buyer not asked for)
        player = self.company_buyer(entity)
        if player is None or player.cash < 1 or owner is player:
            return []
        return ["buy_company"]

    def price_range(self, entity, company):
        """EVA from its owner, at any price from 1 to the buyer's cash."""
        player = self.company_buyer(entity)
        return (1, player.cash) if company in self.game.purchasable_companies(player) else None

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        p = self.company_buyer(entity)
        return [{"type": "buy_company", "company": c.sym, "price": 1, "price_range": [1, p.cash]}
                for c in self.game.purchasable_companies(p)]
