"""t1893 steps: buy train."""

from __future__ import annotations

from ....core.errors import GameError
from ....core.money import pay
from ....core.steps.buy_train import Purchase
from ....core.steps.emergency import EmergencyBuyTrain


class BuyTrain1893(EmergencyBuyTrain):
    """Minors buy trains too; one trade-in per operating round; a company that must buy gets
    the rest from its president (who may sell shares first); a trainless minor's owner pays
    what its train lacks. Prices between companies: see :meth:`other_price_range`."""

    TRADE_INS = True
    LOGGED_PRICE_WARNS = True

    def round_state(self):
        return {"exchanged_by": []}

    def setup(self):
        self.last_sold_price = None

    def pass_(self):
        self.last_sold_price = None
        super().pass_()

    def exchange_allowed(self, entity) -> bool:
        return entity not in self.round.exchanged_by

    def buys_trains(self, entity) -> bool:
        """Minors buy trains too."""
        return True

    def must_buy_train(self, entity) -> bool:
        return not entity.is_minor and super().must_buy_train(entity)

    # ---------------------------------------------------------- the president's emergency sales
    def emergency_price(self) -> int:
        return self.game.min_depot_price()

    def before_emergency_sale(self, player, bundle) -> None:
        self.last_sold_price = bundle.price_per_share()

    # ---------------------------------------------------------- what may be bought, and for how much
    def trains_for_sale(self, entity) -> list:
        """Once the rules allow it; a company never buys a minor's train."""
        if not self.game.can_buy_from_others():
            return []
        offered = super().trains_for_sale(entity)
        return [t for t in offered if not (entity.is_corporation and t.owner.is_minor)]

    def owner_help(self, entity) -> int:
        """Cash the operator's owner adds to a purchase: all of it for a company that must
        buy and for a trainless minor; nothing otherwise."""
        owner = entity.owner
        if owner is None or not owner.is_player:
            return 0
        return owner.cash if (not entity.trains if entity.is_minor else self.must_buy_train(entity)) else 0

    def other_price_range(self, entity, train):
        """(lowest, highest) price for another operator's ``train``, or None: as the reference,
        below face value at most the face value, and after the president's sales at least
        both cashes less one sold share's price, plus 1 (the rest paid by :meth:`owner_help`)."""
        cash, owner = entity.cash, entity.owner
        owner_cash = owner.cash if owner is not None and owner.is_player else 0
        hi = cash + self.owner_help(entity)
        if entity.is_minor:
            return (1, hi) if hi >= 1 else None
        if cash >= train.price:
            return (1, cash) if cash >= 1 else None
        lo = cash + owner_cash - self.last_sold_price + 1 if self.last_sold_price else 1
        lo, hi = max(lo, 1), min(train.price, hi)
        return (lo, hi) if lo <= hi else None

    def trade_ins(self, entity) -> list[tuple]:
        """One trade-in per operating round, paid from the company's cash alone."""
        return self.trade_in_discounts(entity) if self.exchange_allowed(entity) else []

    def depot_train_affordable(self, entity, train) -> bool:
        if train.price <= entity.cash:
            return True
        if train.price > entity.cash + self.owner_help(entity):
            return False
        cheapest = self.cheapest_depot_train()
        return entity.is_minor or (cheapest is not None and train.name == cheapest.name)

    def default_price(self, train) -> int:
        """No price named: the listed one for a depot train, nothing for another's."""
        return train.price if train.owner is self.game.depot else 0

    def check_trade_in(self, entity, purchase: Purchase) -> None:
        if not self.exchange_allowed(entity):
            raise GameError(f"{entity.name} has already traded a train in this turn", rule="one-trade-in-per-turn")
        super().check_trade_in(entity, purchase)

    def funds(self, entity, purchase: Purchase) -> int:
        """The owner's help (:meth:`owner_help`), never for a trade-in."""
        return entity.cash + (0 if purchase.exchange else self.owner_help(entity))

    def check_funds(self, entity, purchase: Purchase) -> None:
        """With the owner's help only the cheapest depot train (any for a minor)."""
        super().check_funds(entity, purchase)
        if purchase.from_depot and not purchase.exchange and not self.depot_train_affordable(entity, purchase.train):
            raise GameError("with the president's help only the cheapest depot train may be bought",
                            rule="must-buy-cheapest")

    def trade_in(self, entity, purchase: Purchase) -> None:
        """Once per operating round."""
        super().trade_in(entity, purchase)
        self.round.exchanged_by.append(entity)

    def top_up(self, entity, purchase: Purchase) -> None:
        """The owner pays what the operator lacks (checked allowed before); a minor's share
        goes through the bank."""
        need = purchase.price - entity.cash
        if need > 0 and entity.is_minor:
            pay(self.game, entity.owner, self.game.bank, need, "emergency")
            pay(self.game, self.game.bank, entity, need, "emergency")
        else:
            super().top_up(entity, purchase)
