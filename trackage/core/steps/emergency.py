"""Emergency money: a president sells shares to pay for a train his company must buy.

The shared part of the reference's ``EmergencyMoney``: which of the president's bundles may
go (they fit in the market, may be dumped, do not hand over the buying company's presidency),
"sell no more than needed", the legal ``sell_shares`` actions, and the sale itself (the
operators still to come are then put back in operating order, as prices moved).

A title's train step derives from :class:`EmergencyBuyTrain` and names the price to raise
(:meth:`EmergencyBuyTrain.emergency_price`); its other hooks are optional.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..entities import certificate_price
from ..errors import GameError
from ..shares import action_bundle
from .buy_train import BuyTrain

if TYPE_CHECKING:
    from ..entities import Corporation, ShareBundle


def selling_minimum_shares(bundle: ShareBundle, needed: int) -> bool:
    """Sell no more than needed: ``bundle`` may be sold only if, without its cheapest
    certificate, it would still raise less than ``needed`` (the cash still missing)."""
    corp = bundle.corporation
    smaller = bundle.price() - min(certificate_price(corp, s) for s in bundle.shares)
    return smaller < needed


def keeps_presidency(player: Any, bundle: ShareBundle, holdings: Mapping[Any, int]) -> bool:
    """Does ``player`` still hold at least as much as any other holder in ``holdings`` (holder
    -> percent of ``bundle``'s corporation) after selling ``bundle``?"""
    others = max((p for h, p in holdings.items() if h is not player), default=0)
    return holdings.get(player, 0) - bundle.percent >= others


def recalculate_order(round_: Any, game: Any) -> None:
    """After a sale moved a share price, the operators still to come this round are put back
    in operating order (the reference's ``recalculate_order``)."""
    rest = round_.entities[round_.entity_index + 1:]
    round_.entities = round_.entities[:round_.entity_index + 1] + [e for e in game.operating_order() if e in rest]


def same_bundle(a: ShareBundle, b: ShareBundle) -> bool:
    """Do two bundles name the same certificates, for the same percent?"""
    return {s.id for s in a.shares} == {s.id for s in b.shares} and a.percent == b.percent


class EmergencyBuyTrain(BuyTrain):
    """A train step in which the buying company's president may sell shares to raise what the
    company lacks for a forced purchase, never more than needed."""

    HANDLERS: ClassVar[dict[str, Any]] = {**BuyTrain.HANDLERS, "sell_shares": "process_sell_shares"}

    # ---------------------------------------------------------- hooks
    def emergency_buyer(self) -> Any:
        """The company buying the train (the step's operator)."""
        return self.current_entity()

    def emergency_price(self) -> int:
        """What the company must raise with its president's help: the cheapest depot train."""
        raise NotImplementedError

    def sellable_bundle(self, player: Any, bundle: ShareBundle) -> bool:
        """The market's side of an emergency sale (the reference's ``sellable_bundle?`` less the
        presidency check): sale timing, the pool limit, and the president's certificate only
        when another holder can take the presidency."""
        game = self.game
        return (game.check_sale_timing(player, bundle) and self.can_dump(player, bundle)
                and game.share_market.fit_in_pool(bundle, game.market_share_limit(bundle.corporation)))

    def can_dump(self, player: Any, bundle: ShareBundle) -> bool:
        """May ``player`` let go of ``bundle`` (with a president's certificate: is there someone
        to take the presidency)?"""
        dump: bool = self.game.share_market.can_dump(player, bundle)
        return dump

    def presidency_holdings(self, corp: Corporation) -> Mapping[Any, int]:
        """The holders (and percents) who could take ``corp``'s presidency from its president."""
        return corp.player_share_holders()

    def emergency_sale(self, action: dict[str, Any], entity: Any) -> tuple[Any, ShareBundle]:
        """(seller, bundle) of a ``sell_shares`` action, checked: the seller is the acting
        player (the president, when the buying company names the sale), the bundle one of his
        :meth:`sellable_bundles` (at the market price)."""
        seller = entity.owner if entity.is_corporation else entity
        bundle = action_bundle(self.game, action, priced=False)
        if not any(same_bundle(bundle, b) for b in self.sellable_bundles(seller)):
            raise GameError(f"{seller.name} cannot sell these shares to pay for a train now", rule="illegal-sale")
        return seller, bundle

    def before_emergency_sale(self, player: Any, bundle: ShareBundle) -> None:
        """Called with a checked sale just before it is made (prices have not moved yet)."""

    def after_emergency_sale(self, player: Any, bundle: ShareBundle) -> None:
        """Called after a sale: the operators still to come are put back in operating order."""
        recalculate_order(self.round, self.game)

    def president_sells(self, player: Any, buyer: Any) -> bool:
        """Has ``player`` the ``sell_shares`` action (default: he is the president of ``buyer``,
        which must buy a train, and has something to sell)?"""
        return (player is buyer.owner and player.is_player and self.must_buy_train(buyer)
                and bool(self.sellable_bundles(player)))

    def active_entities(self) -> list[Any]:
        """The buyer, then its president while he may sell shares for the train."""
        buyer = self.current_entity()
        if buyer is None:
            return []
        owner = buyer.owner
        return [buyer, owner] if owner is not None and owner is not buyer and self.actions(owner) else [buyer]

    def actions(self, entity: Any) -> list[str]:
        """The buyer's, and its president's ``sell_shares`` (:meth:`president_sells`)."""
        buyer = self.current_entity()
        if buyer is not None and entity is not buyer:
            return ["sell_shares"] if self.president_sells(entity, buyer) else []
        return super().actions(entity)

    # ---------------------------------------------------------- the rule
    def needed_cash(self, player: Any) -> int:
        """What the president and the buying company still lack for :meth:`emergency_price`."""
        buyer = self.emergency_buyer()
        needed: int = self.emergency_price() - player.cash - (buyer.cash if buyer is not None else 0)
        return needed

    def can_emergency_sell(self, player: Any, bundle: ShareBundle) -> bool:
        """May ``player`` sell ``bundle`` now to pay for the train: his own certificates, the
        market allows it, the buying company keeps him as president, and no more than needed."""
        if bundle.owner is not player or not self.sellable_bundle(player, bundle):
            return False
        if not self.game.share_market.change_given_back(player, bundle):
            return False
        corp = bundle.corporation
        if corp is self.emergency_buyer() and corp.owner is player \
                and not keeps_presidency(player, bundle, self.presidency_holdings(corp)):
            return False
        return selling_minimum_shares(bundle, self.needed_cash(player))

    def sellable_bundles(self, player: Any) -> list[ShareBundle]:
        """Every bundle the buying company's president may sell now to pay for the train."""
        buyer = self.emergency_buyer()
        if buyer is None or buyer.owner is not player:
            return []
        game = self.game
        return [b for c in game.corporations for b in game.share_market.bundles_for(player, c)
                if self.can_emergency_sell(player, b)]

    def offered_sales(self, player: Any) -> list[ShareBundle]:
        """The bundles listed for sale (default: every one of :meth:`sellable_bundles`)."""
        return self.sellable_bundles(player)

    def emergency_sell_actions(self, player: Any) -> list[dict[str, Any]]:
        """The legal ``sell_shares`` actions of the president (:meth:`offered_sales`)."""
        return [{"type": "sell_shares", "shares": [s.id for s in b.shares], "percent": b.percent}
                for b in self.offered_sales(player)]

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        """The president's emergency sales first, then the train purchases."""
        sales = self.emergency_sell_actions(entity) if "sell_shares" in self.actions(entity) else []
        return sales + super().legal_actions(entity)

    # ---------------------------------------------------------- bankruptcy
    def emergency_liquidity(self, player: Any) -> int:
        """What ``player`` can raise now: his cash and, per corporation, the dearest bundle of it
        he may sell (:meth:`sellable_bundles`)."""
        best: dict[Corporation, int] = {}
        for b in self.sellable_bundles(player):
            best[b.corporation] = max(best.get(b.corporation, 0), b.price())
        liquidity: int = player.cash + sum(best.values())
        return liquidity

    def sell_off(self, player: Any) -> None:
        """A bankrupt president sells all he may: corporation by corporation in operating order,
        each time the dearest bundle he may still sell."""
        game = self.game
        held = [game.index.corporations[cid] for cid in player.held_corporations()]
        for corp in sorted(held, key=game.stock_market.operating_key):
            while corp.share_price is not None and (bundles := [
                    b for b in game.share_market.bundles_for(player, corp) if self.can_emergency_sell(player, b)]):
                game.sell_shares_and_change_price(max(bundles, key=lambda b: b.price()))

    def process_sell_shares(self, action: dict[str, Any], entity: Any) -> None:
        player, bundle = self.emergency_sale(action, entity)
        self.before_emergency_sale(player, bundle)
        self.game.sell_shares_and_change_price(bundle)
        self.after_emergency_sale(player, bundle)
