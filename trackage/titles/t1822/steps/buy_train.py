"""t1822 steps: buy train."""

from __future__ import annotations

from ....core.errors import GameError
from ....core.steps.buy_train import Purchase
from ....core.steps.emergency import EmergencyBuyTrain
from .. import loans


class BuyTrain1822(EmergencyBuyTrain):
    """Buying trains. A company without a train must buy one; its president may add money for
    the cheapest depot train, selling shares first and borrowing only when nothing is left to
    sell. Trains from other companies (phase 3 on) cost 1 up to the buyer's cash."""

    TRADE_INS_FIRST = True
    ALL_VARIANTS = True
    MUST_BUY_ACTIONS = ("sell_shares", "buy_train")

    def train_count(self, entity) -> int:
        return self.game.num_trains(entity)

    def trains_for_sale(self, entity) -> list:
        """From phase 3 on; never a 2P, LP or P+."""
        if "can_buy_trains" not in self.game.phase.status:
            return []
        offered = super().trains_for_sale(entity)
        return [t for t in offered if t.name not in ("2P", "LP", "P+")]

    def trade_ins(self, entity) -> list[tuple]:
        """An L train upgraded in place to a 2, at the upgrade cost."""
        return [(t, t, "2", self.game.l_upgrade_cost()) for t in entity.trains if t.name == "L"]

    def cheapest_names(self) -> list[str]:
        """The variant names at the cheapest train's lowest price: what a president may fund."""
        t, lo = self.cheapest_depot_train(), self.cheapest_variant_price()
        return [n for n, v in t.variants.items() if v["price"] == lo] if t is not None else []

    # ------------------------------------------------------------ the purchase
    def chosen_variant(self, action: dict, train) -> str | None:
        """The named variant, for any train; an L upgraded in place becomes a 2 unless named."""
        return action.get("variant") or ("2" if action.get("exchange") else None)

    def traded_in(self, action: dict, entity, train):
        """An L train upgraded in place (to a 2): the train itself, when ``exchange`` is named."""
        return train if action.get("exchange") else None

    def check_variant(self, entity, purchase: Purchase) -> None:
        if purchase.variant == "E" and any(t.name == "E" for t in entity.trains):
            raise GameError(f"{entity.id} can only own one E-train", rule="one-e-train")

    def check_funds(self, entity, purchase: Purchase) -> None:
        """A company that must buy may get what it lacks for the cheapest depot train from its
        president, who must sell shares before borrowing (see :meth:`top_up`)."""
        if purchase.exchange is not None or not purchase.from_depot or purchase.price <= entity.cash:
            return super().check_funds(entity, purchase)
        name = purchase.variant or purchase.train.name
        if not self.must_buy_train(entity):
            raise GameError(f"{entity.name} has {entity.cash}, the train costs {purchase.price}",
                            rule="insufficient-cash")
        if name not in self.cheapest_names():
            raise GameError(f"Cannot purchase {name} train: cheaper train available ({self.cheapest_names()[0]})",
                            rule="not-cheapest-train")
        if entity.owner.cash < purchase.price - entity.cash and self.sellable(entity.owner):
            raise GameError(f"{entity.owner.name} still needs to sell shares before a loan can be granted.",
                            rule="must-sell-first")

    def top_up(self, entity, purchase: Purchase) -> None:
        """The president pays what the company lacks, borrowing what he has not."""
        lacking = purchase.price - entity.cash - entity.owner.cash
        if lacking > 0:
            loans.player_loan(self.game, entity.owner, lacking)
        super().top_up(entity, purchase)

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """The first 2 bought in phase 1 starts phase 2 (:meth:`Game1822.phase_on_two`)."""
        super().after_buy_train(entity, purchase)
        if int(self.game.phase.name) <= 1 and purchase.train.name == "2":
            self.game.phase_on_two()

    def sellable(self, player) -> bool:
        """Must the president sell before borrowing? Any sellable bundle counts, even one whose
        sale the reference cannot process (``check_sale_presidency``): the reference then refuses
        the loan, and the company can only buy another company's train. When it cannot do that
        either, nothing is left to do (a reference dead end, quirk): nothing is listed."""
        return bool(self.sellable_bundles(player))

    # ------------------------------------------------------------ the president's emergency sales
    def emergency_price(self) -> int:
        return self.cheapest_variant_price()

    def can_dump(self, player, bundle) -> bool:
        return self.game.can_dump_1822(player, bundle)

    def presidency_holdings(self, corp) -> dict:
        """The tax haven and other companies holding shares count as candidates too."""
        haven = self.game.tax_haven
        return {h: p for h, p in corp.share_holders.items()
                if p > 0 and (h.is_player or h is haven or (h.is_corporation and h is not corp))}

    def before_emergency_sale(self, player, bundle) -> None:
        self.game.check_sale_presidency(bundle)

    def offered_sales(self, player) -> list:
        """Not those the reference offers but cannot make (:meth:`Game1822.check_sale_presidency`)."""
        offered = super().offered_sales(player)
        return [b for b in offered if not self.game.tax_haven_would_be_president(b)]
