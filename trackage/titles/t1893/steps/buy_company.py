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
        return ["buy_company"] if self._eva_buyer(entity) is not None else []

    def _eva_buyer(self, entity):
        """The player who would pay for EVA, when ``entity`` may buy it now (else None): the
        game's eva_changes_hands and purchasable_companies read in place (asked for every
        listed entity at every listing), the round's operator asked last."""
        game = self.game
        eva = game.eva
        owner = eva.owner
        if eva.closed or owner is game.bank or owner is None:
            return None  # (for anyone: the buyer not asked for)
        if entity.is_player:
            player = None if entity.bankrupt else entity
        elif entity.is_company:
            return None
        else:
            player = entity.player
        if player is None or player.cash < 1 or owner is player:
            return None
        if not entity.is_player and entity is not self.current_entity():
            return None
        return player

    def price_range(self, entity, company):
        """EVA from its owner, at any price from 1 to the buyer's cash."""
        player = self.company_buyer(entity)
        return (1, player.cash) if company in self.game.purchasable_companies(player) else None

    def legal_actions(self, entity):
        p = self._eva_buyer(entity)
        if p is None:
            return []
        return [{"type": "buy_company", "company": c.sym, "price": 1, "price_range": [1, p.cash]}
                for c in self.game.purchasable_companies(p)]
