"""t1867 steps: loans."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.round import Step
from ....core.shares import action_bundle


class RedeemShares(Step):
    HANDLERS: ClassVar[dict] = {"buy_shares": "process_buy_shares", "pass": "process_pass"}

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity():
            return []
        if self.game.redeemable_bundles(entity):
            return ["buy_shares", "pass"]
        return []

    def process_buy_shares(self, action, entity):
        bundle = action_bundle(self.game, action)
        if bundle.corporation is not entity or bundle.owner is not self.game.pool or entity.cash < bundle.price():
            raise GameError(f"{entity.name} cannot redeem these shares", rule="illegal-redeem")
        self.game.share_market.buy_shares(entity, bundle)
        self.pass_()

    def legal_actions(self, entity):
        if "buy_shares" not in self.actions(entity):
            return []
        return [{"type": "buy_shares", "shares": [s.id for s in b.shares], "percent": b.percent}
                for b in self.game.redeemable_bundles(entity)] + [{"type": "pass"}]


def take_loans_for(game, entity, cost):
    while entity.cash < cost and game.can_take_loan(entity):
        game.take_loan(entity)


class LoanOperations(Step):
    """Interest, automatic loans for it, repayment; nationalisation if it cannot pay."""

    def skip(self):
        self.pass_()
        entity = self.current_entity()
        if entity is None or not entity.is_corporation:
            return
        owed = self.game.pay_interest(entity)
        if owed is not None:
            self.game.nationalize(entity)
            return
        while entity.loans > 0 and entity.cash >= 50:
            self.game.repay_loan(entity)
        self.game.interest[entity] = entity.loans
