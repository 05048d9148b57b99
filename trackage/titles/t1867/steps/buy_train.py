"""t1867 steps: buy train."""

from __future__ import annotations

from trackage.core.trains import remove_train

from ....core.errors import GameError
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

    def buying_power_for(self, entity) -> int:
        return self.game.buying_power(entity, full=self.must_buy_train(entity))

    def can_buy_train(self, entity) -> bool:
        bp = self.buying_power_for(entity)
        if self.room(entity):
            lo = self.game.depot.min_price(entity)
            if lo is not None and bp >= lo:
                return True
        # a trade-in paying nothing or less is refused, but still keeps the step open (reference)
        return int(self.game.phase.name) == 8 and any(bp >= p for _, _, p in self.trade_in_discounts(entity))

    def pass_(self):
        super().pass_()
        entity = self.current_entity()
        if entity is not None and not entity.trains:
            self.game.nationalize(entity)

    def check_buy(self, entity, train, price: int, purchase: Purchase | None = None) -> None:
        """A depot train at its price, less the trade-in's discount in phase 8 (the room check
        is waived for a trade-in); another company's train (not the national's in 1861) for at
        least 1. Cash is checked by :meth:`top_up`."""
        game = self.game
        exchange = purchase.exchange if purchase is not None else None
        if train.owner is game.depot:
            self.check_available(train)
            expected = train.price
            if exchange is not None:
                disc = train.spec.get("discount") or {}
                if exchange.name not in disc or int(game.phase.name) != 8:
                    raise GameError(f"{exchange.name} cannot be traded in for {train.name}", rule="no-trade-in")
                expected = train.price - disc[exchange.name]
                if expected <= 0:
                    raise GameError(f"a {exchange.name} is worth more than a {train.name}: nothing to pay",
                                    rule="no-trade-in")
            self.check_listed_price(train, price, expected)
            if exchange is None:
                self.check_room(entity)
        else:
            if (train.owner is None or not train.owner.is_corporation or train.owner is entity or not train.buyable
                    or not self.can_buy_from(train.owner)):
                raise GameError(f"train {train.id} is not for sale", rule="train-not-available")
            if price < 1:
                raise GameError("a train costs at least 1", rule="wrong-price")
            self.check_room(entity)

    def top_up(self, entity, purchase: Purchase) -> None:
        """A company that must buy takes loans for a depot train it cannot pay; else a
        shortfall is refused."""
        price = purchase.price
        if price > entity.cash and self.must_buy_train(entity) and purchase.from_depot:
            take_loans_for(self.game, entity, price)
        self.check_cash(entity, price)

    def trade_in(self, entity, purchase: Purchase) -> None:
        """The train traded in goes back to the depot."""
        remove_train(self.game, purchase.exchange)
        self.game.depot.reclaim(purchase.exchange)

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """The reference checks "can it buy more?" twice, before and after the trainless
        nationalisations a new phase brings. When the purchase closed the buyer (a minor in
        phase 8), the next operator has started meanwhile: each pass then ends that
        operator's train buying (and nationalises it if it has no train)."""
        if not self.can_buy_train(entity):
            self.pass_()
        self.game.post_train_buy()
        if not self.can_buy_train(entity):
            self.pass_()

    def trains_for_sale(self, entity) -> list:
        """Those of the companies :meth:`can_buy_from` allows."""
        return [t for t in super().trains_for_sale(entity) if self.can_buy_from(t.owner)]

    def can_buy_from(self, owner) -> bool:
        """May the trains of ``owner`` be bought (by default: yes)?"""
        return True

    def may_buy_variant(self, entity, train, variant: str, price: int) -> bool:
        """Within the buying power (with loans when the company must buy)."""
        return price <= self.buying_power_for(entity)

    def trade_in_offers(self, entity) -> list[tuple]:
        """Phase 8's trade-ins within the buying power (a new train worth less than the old one
        would cost nothing or less, which the reference refuses)."""
        if int(self.game.phase.name) != 8:
            return []
        bp = self.buying_power_for(entity)
        return [(old, new, new.name, p) for old, new, p in self.trade_in_discounts(entity) if 0 < p <= bp]

    def legal_actions(self, entity):
        # from another company at any price its cash covers (loans are only for depot trains)
        return [a for a in super().legal_actions(entity)
                if a["type"] != "buy_train" or not self.game.strands_a_trainless_major(a, entity)]
