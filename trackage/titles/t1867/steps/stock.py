"""t1867 steps: stock."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ....core.entities import ShareBundle
from ....core.errors import GameError
from ....core.money import pay
from ....core.steps.stock import AuctionBuySellParShares, TurnView

if TYPE_CHECKING:
    from ....core.entities import Corporation
    from ....core.market import SharePrice


class BuySellParShares1867(AuctionBuySellParShares):
    """Shares and pars (majors from phase 4); minors are started by auction (``bid``)."""

    PRICE_REQUIRED = True
    ASK_ORDER = ("par", "buy_company", "sell_company", "buy_shares", "sell_shares", "bid")  # cheap first
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} cannot bid {price}; maximum is {max}"
    MIN_BID = 100
    MAX_MINOR_PAR = 135
    MAJOR_PHASE = 4

    def max_bid(self, player, corp=None) -> int:
        if corp is not None and not self.can_gain(player, ShareBundle([corp.shares[0]], corporation=corp)):
            return 0
        return player.cash

    def can_bid_any(self, entity) -> bool:
        """Whether :meth:`startable_minors` names any minor (it stops at the first) and the
        cash reaches the opening bid."""
        if self.max_bid(entity) < self.MIN_BID:
            return False
        if type(self).startable_minors is not BuySellParShares1867.startable_minors:
            return bool(self.startable_minors(entity))
        turn = TurnView(self, entity)
        return any(c.type == "minor" and self.minor_startable(c) and self.may_start(entity, c, turn)
                   for c in self.game.corporations)

    def bid_items(self, entity) -> list:
        """The minors ``entity`` could put up for auction (with a free home city)."""
        return [c for c in self.startable_minors(entity) if self.has_home(c)]

    def startable_minors(self, entity) -> list:
        """The minors ``entity`` could put up for auction."""
        turn = TurnView(self, entity)
        return [c for c in self.game.corporations if c.type == "minor" and self.minor_startable(c)
                and self.may_start(entity, c, turn)]

    def minor_startable(self, corp) -> bool:
        return True

    def can_ipo_any(self, entity) -> bool:
        if int(self.game.phase.name) < self.MAJOR_PHASE or self.bought():
            return False
        turn = TurnView(self, entity, bought=False)
        return any(c.type == "major" and self.may_start(entity, c, turn) for c in self.game.corporations)

    def can_par_corp(self, entity, corp) -> bool:
        return (corp.type == "major" and int(self.game.phase.name) >= self.MAJOR_PHASE
                and corp in self.game.corporations and self.has_home(corp) and super().can_par_corp(entity, corp))

    def has_home(self, corp) -> bool:
        return bool(corp.coordinates) or self.game.has_home_token_location(corp)

    def opening_bid(self, corp) -> int:
        return self.MIN_BID

    def bid_target(self, corp) -> dict:
        return {"corporation": corp.id}

    # ------------------------------------------------------------ processing
    def par_choice(self, action: dict, entity) -> tuple[Corporation, SharePrice]:
        """Refused before the names are read: a minor (started by auction), a major before
        phase 4, a company out of the game, one without a free home city."""
        corp = self.game.corporation_by_id(action.get("corporation"))
        if corp is not None and corp.type != "major":
            raise GameError(f"{corp.name} is a minor and is started by auction", rule="minor-by-auction")
        if int(self.game.phase.name) < self.MAJOR_PHASE:
            raise GameError(f"majors cannot start before phase {self.MAJOR_PHASE}", rule="majors-not-yet")
        if corp is not None and corp not in self.game.corporations:
            raise GameError(f"{corp.name} is not available", rule="cannot-par")
        if corp is not None and not self.game.loading and not self.has_home(corp):
            raise GameError(f"no city is free for {corp.name}'s home token", rule="no-home-location")
        return super().par_choice(action, entity)

    # ------------------------------------------------------------ bid hooks
    def bid_item(self, action, entity):
        corp = self.game.corporation_by_id(action.get("corporation"))
        if corp is None:
            raise GameError(f"unknown corporation {action.get('corporation')!r}", rule="unknown-entity")
        return corp

    def check_opening(self, entity, corp) -> None:
        """A first bid starts a minor."""
        if self.bought():
            raise GameError("only one purchase per turn", rule="one-purchase-per-turn")
        if corp.type != "minor" or corp not in self.game.corporations or not self.game.can_par(corp, entity):
            raise GameError(f"{corp.name} cannot be auctioned", rule="cannot-par")
        if not self.game.loading and not self.minor_startable(corp):
            raise GameError(f"{corp.name} cannot be started yet", rule="minor-order")
        if not self.game.loading and not self.has_home(corp):
            raise GameError(f"no city is free for {corp.name}'s home token", rule="no-home-location")
        if not self.can_buy(entity, ShareBundle([corp.shares[0]], corporation=corp)):
            raise GameError(f"{entity.name} cannot start {corp.name}", rule="certificate-limit")

    def accept_bid(self, entity, corp, price, action):
        """Opening an auction places the minor's home token."""
        if self.auction is None:
            self.game.place_home_token(corp)
            self.triggerer = entity
        super().accept_bid(entity, corp, price, action)

    def win_auction(self, winner):
        player, price, corp = winner
        par_limit = min(price // 2, self.MAX_MINOR_PAR)
        share_price = next(sp for sp in self.game.par_prices_for(corp) if sp.price <= par_limit)
        pay(self.game, self.game.bank, player, share_price.price * 2, "bid")
        self.start_corporation(player, corp, share_price, {"type": "par"})
        if corp.cash > 0:
            pay(self.game, corp, self.game.bank, corp.cash, "treasury_return")
        pay(self.game, player, corp, price, "bid")
        self.round.goto_entity(player)
        self.pass_()
