"""Buying a train: one ``process_buy_train`` for every title, with hooks for what differs.

A purchase goes through the same five stages in every title (the reference's
``BuyTrain#process_buy_train`` and ``buy_train_action``):

1. :meth:`BuyTrain.read_purchase` reads the action into a :class:`Purchase`: the train
   (:meth:`BuyTrain.purchased_train`), the variant chosen for a depot train
   (:meth:`BuyTrain.chosen_variant`, applied only when the train is handed over), the train
   traded in (:meth:`BuyTrain.traded_in`) and the price (the variant's, or
   :meth:`BuyTrain.default_price`, when the action names none);
2. :meth:`BuyTrain.check_buy` (train, price, purchase) refuses what the rules do not allow:
   a trade-in not among :meth:`BuyTrain.trade_ins`, a depot train not on offer, without room,
   as a variant refused (:meth:`BuyTrain.check_variant`) or at another price than
   :meth:`BuyTrain.depot_price`, another company's train not for sale or outside
   :meth:`BuyTrain.other_price_range`; then more than :meth:`BuyTrain.funds` (the buyer's cash,
   with whatever help the title gives) in :meth:`BuyTrain.check_funds`. The listing offers
   what these checks accept (:meth:`BuyTrain.may_buy_variant`);
3. :meth:`BuyTrain.top_up` adds what the buyer lacks (default: the president; 1822: he may
   borrow; 1867: loans; 1893: a minor's owner through the bank);
4. :meth:`BuyTrain.hand_over` makes the purchase: the traded-in train goes (by default back
   to the depot, :meth:`BuyTrain.trade_in`), the chosen variant is applied, and the train
   changes hands, a depot train perhaps changing the phase (:meth:`BuyTrain.buy`); a train
   traded in for itself is upgraded in place, the price paid to the bank;
5. :meth:`BuyTrain.after_buy_train`: the step ends when nothing more may be bought, and titles
   add their follow-ups (1822's phase on the first 2, 1867's nationalisations, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import amount
from ..errors import GameError
from ..money import pay
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

    HANDLERS: ClassVar[dict[str, Any]] = {"buy_train": "process_buy_train", "pass": "process_pass"}

    def description(self) -> str:
        return "Buy Trains"

    #: the action's ``exchange`` names a train of the buyer's traded in (see :meth:`traded_in`)
    TRADE_INS: ClassVar[bool] = False
    #: list the trade-ins before the trains of other companies (see :meth:`train_offers`)
    TRADE_INS_FIRST: ClassVar[bool] = False
    #: the actions of a buyer that must buy a train (see :meth:`must_buy_train`): no pass
    MUST_BUY_ACTIONS: ClassVar[tuple[str, ...]] = ("buy_train",)
    #: offer a depot train as each of its variants (else only as what it is now)
    ALL_VARIANTS: ClassVar[bool] = False
    #: a log's depot price other than the listed one is accepted with a warning (1893)
    LOGGED_PRICE_WARNS: ClassVar[bool] = False

    def train_count(self, entity: Any) -> int:
        """The trains of ``entity`` counted for its limit and for :meth:`must_buy_train`
        (default: those not obsolete)."""
        return sum(1 for t in entity.trains if not t.obsolete)

    def room(self, entity: Any) -> bool:
        room: bool = self.train_count(entity) < self.game.train_limit(entity)
        return room

    def room_for(self, entity: Any, train: Train) -> bool:
        """Has ``entity`` room for ``train`` in particular (default: :meth:`room`)?"""
        return self.room(entity)

    def trains_for_sale(self, entity: Any) -> list[Train]:
        """The trains of other companies ``entity`` may buy (default: the depot's list of them)."""
        trains: list[Train] = self.game.depot.other_trains(entity)
        return trains

    def other_price_range(self, entity: Any, train: Train) -> tuple[int, int] | None:
        """(lowest, highest) price ``entity`` may pay for another company's ``train`` (None: it
        cannot): by default from :attr:`~trackage.core.game.Game.TRAIN_PRICE_MIN` to its cash."""
        lo = self.game.TRAIN_PRICE_MIN
        return (lo, entity.cash) if entity.cash >= lo else None

    def cheapest_depot_train(self) -> Train | None:
        """The depot's cheapest train: the first at the lowest price, in depot order."""
        trains = self.game.depot.depot_trains()
        return min(trains, key=lambda t: t.price) if trains else None

    def cheapest_variant_price(self) -> int:
        """The lowest variant price of the depot's cheapest train (0: the depot is empty)."""
        train = self.cheapest_depot_train()
        return min(v["price"] for v in train.variants.values()) if train is not None else 0

    def trade_in_discounts(self, entity: Any) -> list[tuple[Train, Train, str, int]]:
        """The :meth:`trade_ins` of a title whose depot trains name a ``discount`` for some of
        ``entity``'s trains: (own train, depot train, its name, the listed price less that
        discount), only real discounts."""
        return [(old, new, new.name, new.price - disc[old.name]) for old in entity.trains
                for new in self.game.depot.depot_trains()
                if (disc := new.spec.get("discount") or {}).get(old.name, 0) > 0]

    def buys_trains(self, entity: Any) -> bool:
        """Does ``entity`` buy trains in this step when it operates (default: a corporation)?"""
        return bool(entity.is_corporation)

    def must_buy_train(self, entity: Any) -> bool:
        """Must ``entity`` buy a train now, without the choice to pass? As the game's
        ``MUST_BUY_TRAIN`` says: never; or, without a train (:meth:`train_count`) while the
        depot offers one, always or (``"route"``) when it has a route to run one."""
        rule = self.game.MUST_BUY_TRAIN
        if rule == "never" or self.train_count(entity) or not self.game.depot.depot_trains():
            return False
        return rule == "always" or bool(self.game.graph.route_train_purchase(entity))

    def buying_power(self, entity: Any) -> int:
        """What ``entity`` may spend on a train now (default: the game's buying power)."""
        power: int = self.game.buying_power(entity)
        return power

    def min_train_price(self, entity: Any) -> int | None:
        """The cheapest train ``entity`` could buy (None: none): the depot's lowest price, 1
        for another company's train."""
        lo: int | None = self.game.depot.min_price(entity)
        return lo

    def can_buy_train(self, entity: Any) -> bool:
        """With room, a train within :meth:`buying_power`; or a trade-in (:meth:`trade_ins`)
        it covers."""
        power = self.buying_power(entity)
        lo = self.min_train_price(entity) if self.room(entity) else None
        return (lo is not None and power >= lo) or any(power >= p for _, _, _, p in self.trade_ins(entity))

    def trade_ins(self, entity: Any) -> list[tuple[Train, Train, str, int]]:
        """(own train, new train, variant, price) for every trade-in the rules allow ``entity``
        now, whatever its cash (default: none)."""
        return []

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not self.buys_trains(entity):
            return []
        if self.must_buy_train(entity):
            return list(self.MUST_BUY_ACTIONS)
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def has_actions(self, entity: Any) -> bool:
        """:meth:`actions`' truth, without the lists."""
        if entity is not self.current_entity() or not self.buys_trains(entity):
            return False
        if self.must_buy_train(entity):
            return bool(self.MUST_BUY_ACTIONS)
        return self.can_buy_train(entity)

    def accepts(self, entity: Any, atype: str) -> bool:
        """:meth:`actions` lists ``atype``, its "anything?" known true (``entity`` is the step's
        and buys trains): the forced list, else a purchase and a pass (no purchase asked)."""
        if self.must_buy_train(entity):
            return atype in self.MUST_BUY_ACTIONS
        return atype in ("buy_train", "pass")

    # ------------------------------------------------------------------ the purchase
    def process_buy_train(self, action: dict[str, Any], entity: Any) -> None:
        purchase = self.read_purchase(action, entity)
        self.check_buy(entity, purchase.train, purchase.price, purchase)
        self.top_up(entity, purchase)
        self.hand_over(entity, purchase)
        self.after_buy_train(entity, purchase)

    def read_purchase(self, action: dict[str, Any], entity: Any) -> Purchase:
        """The action read: the train (unknown: refused), its chosen variant (one it does not
        have: refused), the train traded in, and the price (by default the variant's)."""
        train = self.purchased_train(action, entity)
        if train is None:
            raise GameError(f"unknown train {action.get('train')!r}", rule="unknown-entity")
        from_depot = train.owner is self.game.depot
        variant = self.chosen_variant(action, train)
        listed = self.variant_price(train, variant) if variant else self.default_price(train)
        exchange = self.traded_in(action, entity, train)
        return Purchase(train, amount(action, "price", listed), variant, exchange, from_depot)

    # --- reading hooks
    def purchased_train(self, action: dict[str, Any], entity: Any) -> Train | None:
        """The train the action buys (None: no such train): the one it names."""
        train: Train | None = self.game.depot.train_by_id(action.get("train"))
        return train

    def chosen_variant(self, action: dict[str, Any], train: Train) -> str | None:
        """The variant the buyer chooses for ``train``: the one the action names, for a depot
        train only (None: keep the train as it is)."""
        return action.get("variant") if train.owner is self.game.depot else None

    def variant_price(self, train: Train, variant: str) -> int:
        """The price of ``train`` as ``variant`` (one it does not have is refused)."""
        if variant not in train.variants:
            raise GameError(f"train {train.id} has no variant {variant}", rule="bad-variant")
        return int(train.variants[variant]["price"])

    def traded_in(self, action: dict[str, Any], entity: Any, train: Train) -> Train | None:
        """The buyer's train named as ``exchange``, an id or a list of at most one (None: no
        trade-in; an unknown train or one of another holder is refused). Titles without
        :attr:`TRADE_INS` ignore ``exchange``; with them, a company's own train is refused first."""
        if not self.TRADE_INS:
            return None
        if train.owner is entity:
            raise GameError("a company cannot buy its own train", rule="train-not-available")
        traded = action.get("exchange")
        if isinstance(traded, list):
            if len(traded) > 1:
                raise GameError("only one train may be traded in for a new one", rule="one-trade-in-per-purchase")
            traded = traded[0] if traded else None
        if not traded:
            return None
        exchange: Train | None = self.game.depot.train_by_id(traded)
        if exchange is None or exchange.owner is not entity:
            raise GameError(f"{entity.name} does not own train {traded!r}", rule="not-owner")
        return exchange

    def default_price(self, train: Train) -> int:
        """The price when the action names none: the train's listed price."""
        return train.price

    # --- the checks
    def check_buy(self, entity: Any, train: Train, price: int, purchase: Purchase | None = None) -> None:
        """Refuse buying ``train`` for ``price`` when the rules do not allow it: a trade-in must
        be one of :meth:`trade_ins` (:meth:`check_trade_in`); a depot train must be offered,
        with room, at :meth:`depot_price`; another company's among :meth:`trains_for_sale`,
        with room, in :meth:`other_price_range`; then :meth:`check_funds`. ``purchase`` is the
        whole purchase read (variant, trade-in)."""
        purchase = purchase or Purchase(train, price, from_depot=train.owner is self.game.depot)
        if purchase.exchange is not None:
            self.check_trade_in(entity, purchase)
        elif train.owner is self.game.depot:
            self.check_available(train)
            self.check_room(entity, train)
            self.check_variant(entity, purchase)
            self.check_listed_price(train, price, self.depot_price(entity, train, purchase.variant or train.name))
        else:
            self.check_offered(entity, train)
            self.check_room(entity, train)
            self.check_other_price(entity, train, price)
        self.check_funds(entity, purchase)

    def check_trade_in(self, entity: Any, purchase: Purchase) -> None:
        """Refuse a trade-in not among :meth:`trade_ins`, at another price, or paying nothing."""
        train, old = purchase.train, purchase.exchange
        prices = [p for o, n, _, p in self.trade_ins(entity) if o is old and n is train]
        if not prices or prices[0] <= 0:
            raise GameError(f"{old.name if old else None} cannot be traded in for {train.name}", rule="no-trade-in")
        self.check_listed_price(train, purchase.price, prices[0])

    def check_variant(self, entity: Any, purchase: Purchase) -> None:
        """Refuse a depot train as a variant ``entity`` may not have (default: any may)."""

    def funds(self, entity: Any, purchase: Purchase) -> int:
        """What ``entity`` may pay for ``purchase``, help included (default: its cash)."""
        cash: int = entity.cash
        return cash

    def check_funds(self, entity: Any, purchase: Purchase) -> None:
        """Refuse a price above :meth:`funds` (what is lacking is added by :meth:`top_up`)."""
        funds = self.funds(entity, purchase)
        if purchase.price > funds:
            raise GameError(f"{entity.name} has {funds}, the train costs {purchase.price}", rule="insufficient-cash")

    def check_room(self, entity: Any, train: Train) -> None:
        """Refuse a buyer without room for ``train`` (:meth:`room_for`)."""
        if not self.room_for(entity, train):
            raise GameError(f"{entity.name} is at its train limit", rule="train-limit")

    def check_available(self, train: Train, message: str = "is not available yet") -> None:
        """Refuse a depot train not offered yet (only the depot's current trains are)."""
        if train not in self.game.depot.depot_trains():
            raise GameError(f"train {train.id} {message}", rule="train-not-available")

    def check_listed_price(self, train: Train, price: int, expected: int) -> None:
        """Refuse a depot price other than ``expected`` (the listed, variant or trade-in price);
        from a log, only a warning when :attr:`LOGGED_PRICE_WARNS`."""
        if price == expected:
            return
        if not (self.LOGGED_PRICE_WARNS and self.game.loading):
            raise GameError(f"train {train.id} costs {expected}, not {price}", rule="wrong-price")
        self.game.warnings.append(f"train {train.id} price {price}, ours {expected}")

    def check_offered(self, entity: Any, train: Train) -> None:
        """Refuse another company's train not among :meth:`trains_for_sale`."""
        if train not in self.trains_for_sale(entity):
            raise GameError(f"train {train.id} is not for sale to {entity.name}", rule="train-not-available")

    def check_other_price(self, entity: Any, train: Train, price: int) -> None:
        """Refuse a price for another company's train outside :meth:`other_price_range`."""
        rng = self.other_price_range(entity, train)
        if rng is None or not rng[0] <= price <= rng[1] or price % self.game.TRAIN_PRICE_MULTIPLE:
            raise GameError(f"{entity.name} may pay between {rng[0]} and {rng[1]} for train {train.id}"
                            if rng else f"{entity.name} cannot pay for train {train.id}", rule="wrong-price")

    # --- paying and handing over
    def top_up(self, entity: Any, purchase: Purchase) -> None:
        """Someone adds what the buyer lacks for a checked purchase (default: the president,
        for what :meth:`funds` allowed beyond the buyer's cash)."""
        self.president_pays_rest(entity, purchase.price)

    def president_pays_rest(self, entity: Any, price: int) -> None:
        """``entity``'s owner pays what its cash lacks for ``price`` (checked allowed before)."""
        if price > entity.cash:
            pay(self.game, entity.owner, entity, price - entity.cash, "emergency")

    def hand_over(self, entity: Any, purchase: Purchase) -> None:
        """Make the checked, funded purchase: the trade-in first, then the chosen variant is
        applied and the train bought; a train traded in for itself (1822's L upgraded to a 2)
        stays, the price going to the bank."""
        train = purchase.train
        if purchase.exchange is not None:
            self.trade_in(entity, purchase)
        if purchase.variant:
            train.set_variant(purchase.variant)
        if purchase.exchange is train:
            pay(self.game, entity, self.game.bank, purchase.price, "train_purchase")
        else:
            self.buy(entity, train, purchase.price)

    def trade_in(self, entity: Any, purchase: Purchase) -> None:
        """The train traded in goes back to the depot (:meth:`~trackage.core.game.Game.discard_train`),
        unless it is upgraded in place."""
        if purchase.exchange is not None and purchase.exchange is not purchase.train:
            self.game.discard_train(purchase.exchange)

    def buy(self, entity: Any, train: Train, price: int) -> None:
        """The train changes hands for ``price``; a depot train may bring a new phase (and rust
        or obsolete older trains)."""
        from_depot = train.owner is self.game.depot
        self.game.buy_train(entity, train, price)
        if from_depot:
            phase_buying_train(self.game, entity, train)

    def after_buy_train(self, entity: Any, purchase: Purchase) -> None:
        """After the purchase: the step ends when the buyer may buy nothing more."""
        if not self.can_buy_train(entity):
            self.pass_()

    # ------------------------------------------------------------------ listing
    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out = self.train_offers(entity) if "buy_train" in acts else []
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    def train_offers(self, entity: Any) -> list[dict[str, Any]]:
        """The legal ``buy_train`` actions: with room (:meth:`room_for`), the depot's trains (each variant and price
        of :meth:`variant_prices` that :meth:`may_buy_variant` allows) and the trains of others
        (:meth:`trains_for_sale`, over :meth:`other_price_range`); and the trade-ins
        (:meth:`trade_in_offers`), last or, with :attr:`TRADE_INS_FIRST`, before the others'."""
        depot = [{"type": "buy_train", "train": t.id, "price": price, "variant": name}
                 for t in self.depot_offer_trains(entity) if self.room_for(entity, t)
                 for name, price in self.variant_prices(entity, t) if self.may_buy_variant(entity, t, name, price)]
        step = self.game.TRAIN_PRICE_MULTIPLE or 1
        others = [ranged({"type": "buy_train", "train": t.id}, rng[0], rng[1], step)
                  for t in self.trains_for_sale(entity)
                  if self.room_for(entity, t) and (rng := self.other_price_range(entity, t)) is not None]
        trades = [{"type": "buy_train", "train": new.id, "price": price, "variant": name, "exchange": old.id}
                  for old, new, name, price in self.trade_in_offers(entity)]
        return depot + trades + others if self.TRADE_INS_FIRST else depot + others + trades

    def depot_offer_trains(self, entity: Any) -> list[Train]:
        """The depot trains offered to ``entity`` (default: all the depot offers now)."""
        trains: list[Train] = self.game.depot.depot_trains()
        return trains

    def depot_price(self, entity: Any, train: Train, variant: str) -> int:
        """What ``entity`` pays for the depot ``train`` as ``variant`` (default: its price)."""
        return self.variant_price(train, variant)

    def variant_prices(self, entity: Any, train: Train) -> list[tuple[str, int]]:
        """(variant, :meth:`depot_price`) pairs ``train`` is offered at: each variant with
        :attr:`ALL_VARIANTS`, else what it is now."""
        names = list(train.variants) if self.ALL_VARIANTS else [train.name]
        return [(name, self.depot_price(entity, train, name)) for name in names]

    def may_buy_variant(self, entity: Any, train: Train, variant: str, price: int) -> bool:
        """May ``entity`` buy the depot ``train`` as ``variant`` for ``price`` now: do
        :meth:`check_variant` and :meth:`check_funds` accept it?"""
        purchase = Purchase(train, price, variant)
        try:
            self.check_variant(entity, purchase)
            self.check_funds(entity, purchase)
        except GameError:
            return False
        return True

    def trade_in_offers(self, entity: Any) -> list[tuple[Train, Train, str, int]]:
        """The trade-ins listed: those of :meth:`trade_ins` paying something within the
        :meth:`buying_power`."""
        power = self.buying_power(entity)
        return [(old, new, name, p) for old, new, name, p in self.trade_ins(entity) if 0 < p <= power]
