"""t1858 steps: buy train."""

from __future__ import annotations

from typing import ClassVar

from trackage.core.trains import remove_train

from ....core.errors import GameError
from ....core.shares import action_bundle
from ....core.steps.emergency import same_bundle
from ....core.steps.operating import BuyTrain, Purchase
from .. import corporations


class BuyTrain1858(BuyTrain):
    """Voluntary purchases; a trainless company may issue shares first and its president
    tops up a depot purchase; wounded trains can be scrapped; passing without any train
    drops the price."""

    ALL_VARIANTS = True
    HANDLERS: ClassVar[dict] = {**BuyTrain.HANDLERS, "scrap_train": "process_scrap_train",
                                "sell_shares": "process_sell_shares"}

    def round_state(self):
        return {"last_issue_price": None}

    def setup(self):
        self.round.last_issue_price = None

    def room(self, entity) -> bool:
        g = self.game
        if type(g).num_corp_trains is type(g).PLAIN_CORP_TRAINS:
            return len(entity.trains) < g.train_limit(entity)  # (the count inline: every train question)
        return g.num_corp_trains(entity) < g.train_limit(entity)

    def min_train_price(self, entity):
        return self.game.min_train_price(entity)

    def can_buy_train(self, entity) -> bool:
        """The base's question with "the cheapest within the buying power?" asked as "any price
        within it?" (``Game1858.affords_train``: stopped at the first)."""
        if type(self).min_train_price is not BuyTrain1858.min_train_price:
            return super().can_buy_train(entity)
        power = self.buying_power(entity)
        if self.room(entity) and self.game.affords_train(entity, power):
            return True
        return any(power >= p for _, _, _, p in self.trade_ins(entity))

    def can_scrap(self, entity) -> bool:
        for t in entity.trains:  # (a plain loop: asked by every "anything?" of the step)
            if t.obsolete:
                return True
        return False

    def ebuy_can_issue(self, entity) -> bool:
        return self.can_buy_train(entity) and self._issue_covers(entity)

    def _issue_covers(self, entity) -> bool:
        """:meth:`ebuy_can_issue` past its first test (a train it may buy): emergency bundles
        to issue, the dearest of which with its cash and its owner's reaches the cheapest
        depot train."""
        g = self.game
        # (:func:`corporations.emergency_issuable_bundles`' first tests, then its bundles only
        # where their prices matter: no price is below 0, so when the cash alone reaches the
        # cheapest train any bundle does, and there is one if the first share is issuable)
        if not g.trainless(entity) or entity.cash >= corporations.max_depot_price(g):
            return False
        owner_cash = entity.owner.cash if entity.owner is not None else 0
        cheapest = g.min_depot_price()
        if cheapest <= entity.cash + owner_cash:
            return g.any_issuable_share(entity)
        bundles = corporations.emergency_issuable_bundles(g, entity)
        return bool(bundles) and cheapest <= entity.cash + owner_cash + max(b.price() for b in bundles)

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        can_buy = self.can_buy_train(entity)  # (asked once: the issue's first test too)
        out = [a for a, ok in (("sell_shares", can_buy and self._issue_covers(entity)), ("buy_train", can_buy),
                               ("scrap_train", self.can_scrap(entity))) if ok]
        return out + ["pass"] if out else []

    def has_actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return False
        # (an emergency issue needs a train it may buy: true only when the first test is)
        return self.can_buy_train(entity) or self.can_scrap(entity)

    def process_scrap_train(self, action, entity):
        train = self.game.depot.train_by_id(action.get("train"))
        if train is None or train.owner is not entity or not train.obsolete:
            raise GameError(f"{entity.name} has no wounded train {action.get('train')!r}", rule="not-owner")
        remove_train(self.game, train)
        self.game.forget_train(train)

    def process_sell_shares(self, action, entity):
        bundle = action_bundle(self.game, action, priced=False)
        ok = [b for b in corporations.emergency_issuable_bundles(self.game, entity) if same_bundle(b, bundle)]
        if bundle.owner is not entity or not self.ebuy_can_issue(entity) or not ok:
            raise GameError(f"{entity.name} cannot issue these shares now", rule="illegal-sale")
        self.round.last_issue_price = bundle.price_per_share()
        self.game.share_market.sell_shares(bundle)
        self.game.stock_market.move_left(entity)

    def depot_price(self, entity, train, variant: str) -> int:
        """The title's (:meth:`Game1858.train_price`: private railways' discounts)."""
        return self.game.train_price(train, entity, variant)

    def chosen_variant(self, action: dict, train) -> str | None:
        """A depot train is always bought as a variant: the named one, else its base."""
        return (action.get("variant") or train.base) if train.owner is self.game.depot else None

    def funds(self, entity, purchase: Purchase) -> int:
        """The president adds what a trainless company lacks for a depot train."""
        help_ = self.game.trainless(entity) and purchase.from_depot and entity.owner is not None
        return entity.cash + (entity.owner.cash if help_ else 0)

    def check_funds(self, entity, purchase: Purchase) -> None:
        """After issuing shares a trainless company must have issued no more than needed."""
        if self.must_buy_after_issue(entity) and entity.cash - self.round.last_issue_price > purchase.price:
            raise GameError("more shares issued than needed", rule="issued-too-many")
        super().check_funds(entity, purchase)

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """The step ends when nothing more may be bought or scrapped."""
        if not self.can_buy_train(entity) and not self.can_scrap(entity):
            # quirk (reference): the step passes twice here (once inside the purchase, once
            # after it); a company still trainless afterwards (1858 India: it bought only a
            # Pullman) so drops two cells, and a purchase after issuing shares is refused
            self.pass_()
            self.pass_()

    def pass_(self):
        g = self.game
        entity = self.current_entity()
        closing = entity is not None and entity.share_price is not None and entity.share_price.price == 0
        if entity is not None and self.must_buy_after_issue(entity) and not closing and self.acted:
            raise GameError("must buy a train from the depot after issuing shares", rule="must-buy-depot")
        super().pass_()
        self.round.last_issue_price = None
        if entity is not None and entity.is_corporation and not closing and g.trainless(entity):
            g.stock_market.move_left(entity)

    def must_buy_after_issue(self, entity) -> bool:
        """Has this trainless company issued shares (it must then buy from the depot)?"""
        return self.round.last_issue_price is not None and self.game.trainless(entity)

    def trains_for_sale(self, entity) -> list:
        """The title's list (:meth:`Game1858.other_trains`); none after issuing shares (the
        company must then buy from the depot)."""
        return [] if self.must_buy_after_issue(entity) else self.game.other_trains(entity)

    def legal_actions(self, entity):
        acts = self.actions(entity)
        g = self.game
        must_buy = self.must_buy_after_issue(entity)
        out = self.train_offers(entity) if "buy_train" in acts else []
        if "sell_shares" in acts:
            help_ = entity.owner.cash if entity.owner is not None else 0
            prices = [g.train_price(t, entity, v) for t in g.depot.depot_trains() for v in t.variants]
            out += [{"type": "sell_shares", "shares": [s.id for s in b.shares], "percent": b.percent}
                    for b in corporations.emergency_issuable_bundles(g, entity)  # a depot train within reach
                    if any(entity.cash + b.price() - b.price_per_share() <= p <= entity.cash + b.price() + help_
                           for p in prices)]
        out += [{"type": "scrap_train", "train": t.id} for t in entity.trains if t.obsolete and "scrap_train" in acts]
        out += self.company_offers(entity, acts, must_buy)
        if "pass" in acts and not (must_buy and any(a["type"] == "buy_train" for a in out)):
            out.append({"type": "pass"})
        return out

    def company_offers(self, entity, acts: list, must_buy: bool) -> list:
        return []
