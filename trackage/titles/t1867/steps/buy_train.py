"""t1867 steps: buy train."""

from __future__ import annotations

from ....core.steps.operating import BuyTrain, Purchase
from .loans import take_loans_for


class BuyTrain1867(BuyTrain):
    """A company that must buy a train may take loans for it; in phase 8 a train may be
    traded in for a discount."""

    TRADE_INS = True

    def must_buy_train(self, entity) -> bool:
        if entity.trains or not self.game.depot.depot_trains():
            return False
        return self.game.buying_power(entity, full=True) >= self.cheapest_variant_price()

    def buying_power(self, entity) -> int:
        """With the loans it may take when it must buy."""
        return self.game.buying_power(entity, full=self.must_buy_train(entity))

    def trade_ins(self, entity) -> list[tuple]:
        """In phase 8, a train for a depot train with a discount on it (one paying nothing or
        less is refused, but keeps the step open, as in the reference)."""
        return self.trade_in_discounts(entity) if self.game.phase.name == "8" else []

    def pass_(self):
        super().pass_()
        entity = self.current_entity()
        if entity is not None and not entity.trains:
            self.game.nationalize(entity)

    def funds(self, entity, purchase: Purchase) -> int:
        """Loans for a depot train when the company must buy (taken by :meth:`top_up`)."""
        return self.buying_power(entity) if purchase.from_depot else entity.cash

    def top_up(self, entity, purchase: Purchase) -> None:
        if purchase.price > entity.cash:
            take_loans_for(self.game, entity, purchase.price)

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """The reference checks "can it buy more?" twice, before and after the trainless
        nationalisations a new phase brings. When the purchase closed the buyer (a minor in
        phase 8), the next operator has started meanwhile: each pass then ends that
        operator's train buying (and nationalises it if it has no train). Where the first
        answer is yes and no nationalisation is due, nothing was written between the two
        questions: the second is the first's answer, not asked again."""
        game = self.game
        can = self.can_buy_train(entity)
        if not can:
            self.pass_()
        due = game.trainless_nationalization
        game.post_train_buy()
        if can and not due:  # (the game's hook nationalises only when due)
            return
        if not self.can_buy_train(entity):
            self.pass_()

    def trains_for_sale(self, entity) -> list:
        """Those of the companies :meth:`can_buy_from` allows."""
        offered = super().trains_for_sale(entity)
        return [t for t in offered if self.can_buy_from(t.owner)]

    def can_buy_from(self, owner) -> bool:
        """May the trains of ``owner`` be bought (by default: yes)?"""
        return True

    def legal_actions(self, entity):
        # from another company at any price its cash covers (loans are only for depot trains)
        listed = super().legal_actions(entity)
        return [a for a in listed
                if a["type"] != "buy_train" or not self.game.strands_a_trainless_major(a, entity)]
