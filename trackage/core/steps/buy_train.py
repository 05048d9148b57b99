"""Buying a train: one ``process_buy_train`` for every title, with hooks for what differs.

A purchase goes through the same five stages in every title (the reference's
``BuyTrain#process_buy_train`` and ``buy_train_action``):

1. :meth:`BuyTrain.read_purchase` reads the action into a :class:`Purchase`: the train
   (:meth:`BuyTrain.purchased_train`), the variant chosen for a depot train
   (:meth:`BuyTrain.chosen_variant`, applied by :meth:`BuyTrain.choose_variant`), the train
   traded in (:meth:`BuyTrain.traded_in`) and the price (:meth:`BuyTrain.default_price` when
   the action names none);
2. :meth:`BuyTrain.check_buy` (train, price, purchase) refuses what the rules do not allow:
   a train not on offer, a wrong price (from the depot: the listed price, its variant's, less a
   trade-in; from another company: a price in the allowed range), no room (train limit), too
   little cash. The shared checks are small helpers (:meth:`BuyTrain.check_available`,
   :meth:`BuyTrain.check_room`, :meth:`BuyTrain.check_listed_price`,
   :meth:`BuyTrain.check_for_sale`, :meth:`BuyTrain.check_cash`) a title calls in its own order;
3. :meth:`BuyTrain.top_up` lets someone add what the buyer lacks (1822: the president, who may
   borrow; 1858: the president; 1867: loans; 1893: the owner);
4. :meth:`BuyTrain.hand_over` makes the purchase: the traded-in train goes
   (:meth:`BuyTrain.trade_in`), the train changes hands and a depot train may change the phase
   (:meth:`BuyTrain.buy`);
5. :meth:`BuyTrain.after_buy_train`: the step ends when nothing more may be bought, and titles
   add their follow-ups (1822's phase on the first 2, 1867's nationalisations, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ..actions import amount
from ..errors import GameError
from ..round import Step, ranged
from ..trains import phase_buying_train

if TYPE_CHECKING:
    from ..trains import Train


@dataclass
class Purchase:
    """One ``buy_train`` action, read (see :meth:`BuyTrain.read_purchase`).

    ``variant`` is the variant named for a depot train (None: none named, or not from the
    depot); ``exchange`` the buyer's own train traded in (None: no trade-in)."""

    train: Train
    price: int
    variant: str | None = None
    exchange: Train | None = None
    from_depot: bool = True


class BuyTrain(Step):
    """The operator buys trains, from the depot at the listed price or from another company
    at a price between :attr:`~trackage.core.game.Game.TRAIN_PRICE_MIN` and its cash."""

    HANDLERS: ClassVar[dict] = {"buy_train": "process_buy_train", "pass": "process_pass"}

    def description(self):
        return "Buy Trains"

    def room(self, entity) -> bool:
        return sum(1 for t in entity.trains if not t.obsolete) < self.game.train_limit(entity)

    def buyable_trains(self, entity) -> list:
        depot = [t for t in self.game.depot.depot_trains() if t.price <= entity.cash]
        others = self.game.depot.other_trains(entity) if entity.cash >= self.game.TRAIN_PRICE_MIN else []
        return depot + others

    def can_buy_train(self, entity) -> bool:
        if not self.room(entity):
            return False
        lo = self.game.depot.min_price(entity)
        return lo is not None and self.game.buying_power(entity) >= lo

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    # ------------------------------------------------------------------ the purchase
    def process_buy_train(self, action: dict, entity) -> None:
        purchase = self.read_purchase(action, entity)
        self.check_buy(entity, purchase.train, purchase.price, purchase)
        self.top_up(entity, purchase)
        self.hand_over(entity, purchase)
        self.after_buy_train(entity, purchase)

    def read_purchase(self, action: dict, entity) -> Purchase:
        """The action read: the train (unknown: refused), its chosen variant (applied now, see
        :meth:`choose_variant`), the train traded in, and the price."""
        train = self.purchased_train(action, entity)
        if train is None:
            raise GameError(f"unknown train {action.get('train')!r}", rule="unknown-entity")
        from_depot = train.owner is self.game.depot
        variant = self.chosen_variant(action, train)
        if variant:
            self.choose_variant(entity, train, variant)
        exchange = self.traded_in(action, entity, train)
        price = amount(action, "price", self.default_price(train))
        return Purchase(train, price, variant, exchange, from_depot)

    # --- reading hooks
    def purchased_train(self, action: dict, entity) -> Train | None:
        """The train the action buys (None: no such train): the one it names."""
        return self.game.depot.train_by_id(action.get("train"))

    def chosen_variant(self, action: dict, train: Train) -> str | None:
        """The variant the buyer chooses for ``train``: the one the action names, for a depot
        train only (None: keep the train as it is)."""
        return action.get("variant") if train.owner is self.game.depot else None

    def choose_variant(self, entity, train: Train, variant: str) -> None:
        """Apply the chosen ``variant`` before the checks (the price checked is the variant's);
        one the train does not have is refused."""
        if variant not in train.variants:
            raise GameError(f"train {train.id} has no variant {variant}", rule="bad-variant")
        train.set_variant(variant)

    def traded_in(self, action: dict, entity, train: Train) -> Train | None:
        """The buyer's train given in exchange (None: no trade-in). Titles without trade-ins
        ignore the action's ``exchange``."""
        return None

    def default_price(self, train: Train) -> int:
        """The price when the action names none: the train's listed price."""
        return train.price

    # --- the checks
    def check_buy(self, entity, train: Train, price: int, purchase: Purchase | None = None) -> None:
        """Refuse buying ``train`` for ``price`` when the rules do not allow it (the core rule:
        room, then the depot's listed price or a price between companies, then cash).
        ``purchase`` is the whole purchase read (variant, trade-in), for titles that need it."""
        self.check_room(entity)
        if train.owner is self.game.depot:
            self.check_available(train)
            self.check_listed_price(train, price, train.price)
        else:
            self.check_for_sale(entity, train)
            if price < self.game.TRAIN_PRICE_MIN or price % self.game.TRAIN_PRICE_MULTIPLE:
                raise GameError(f"a train between companies costs at least {self.game.TRAIN_PRICE_MIN} "
                                f"in steps of {self.game.TRAIN_PRICE_MULTIPLE}", rule="wrong-price")
        self.check_cash(entity, price)

    def check_room(self, entity) -> None:
        """Refuse a buyer at its train limit (:meth:`room`)."""
        if not self.room(entity):
            raise GameError(f"{entity.name} is at its train limit", rule="train-limit")

    def check_available(self, train: Train, message: str = "is not available yet") -> None:
        """Refuse a depot train not offered yet (only the depot's current trains are)."""
        if train not in self.game.depot.depot_trains():
            raise GameError(f"train {train.id} {message}", rule="train-not-available")

    def check_listed_price(self, train: Train, price: int, expected: int) -> None:
        """Refuse a depot price other than ``expected`` (the listed, variant or trade-in price)."""
        if price != expected:
            raise GameError(f"train {train.id} costs {expected}, not {price}", rule="wrong-price")

    def check_for_sale(self, entity, train: Train) -> None:
        """Refuse another holder's train that is not for sale: it must belong to another live
        corporation, be unrusted and buyable, and be among that holder's trains."""
        owner = train.owner
        if (owner is None or not owner.is_corporation or owner is entity or train.rusted
                or getattr(owner, "closed", False) or not getattr(train, "buyable", True)
                or train not in getattr(owner, "trains", ())):
            raise GameError(f"train {train.id} is not for sale", rule="train-not-available")

    def check_cash(self, entity, price: int) -> None:
        """Refuse a price above the buyer's cash."""
        if price > entity.cash:
            raise GameError(f"{entity.name} has {entity.cash}, the train costs {price}", rule="insufficient-cash")

    # --- paying and handing over
    def top_up(self, entity, purchase: Purchase) -> None:
        """Someone adds what the buyer lacks for a checked purchase (by default nobody: the
        checks refused any shortfall)."""

    def hand_over(self, entity, purchase: Purchase) -> None:
        """Make the checked, funded purchase: the trade-in first, then the train."""
        if purchase.exchange is not None:
            self.trade_in(entity, purchase)
        self.buy(entity, purchase.train, purchase.price)

    def trade_in(self, entity, purchase: Purchase) -> None:
        """What becomes of the train traded in (titles with trade-ins say)."""

    def buy(self, entity, train: Train, price: int) -> None:
        """The train changes hands for ``price``; a depot train may bring a new phase (and rust
        or obsolete older trains)."""
        from_depot = train.owner is self.game.depot
        self.game.buy_train(entity, train, price)
        if from_depot:
            phase_buying_train(self.game, entity, train)

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """After the purchase: the step ends when the buyer may buy nothing more."""
        if not self.can_buy_train(entity):
            self.pass_()

    # ------------------------------------------------------------------ listing
    def legal_actions(self, entity):
        if "buy_train" not in self.actions(entity):
            return []
        out = []
        for t in self.buyable_trains(entity):
            if t.owner is self.game.depot:
                out.append({"type": "buy_train", "train": t.id, "price": t.price, "variant": t.name})
            else:
                out.append(ranged({"type": "buy_train", "train": t.id}, self.game.TRAIN_PRICE_MIN, entity.cash,
                                  self.game.TRAIN_PRICE_MULTIPLE or 1))
        if "pass" in self.actions(entity):
            out.append({"type": "pass"})
        return out
