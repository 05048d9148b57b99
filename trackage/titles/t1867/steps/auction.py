"""t1867 steps: auction."""

from __future__ import annotations

from typing import ClassVar

from ....core.steps.auction import AuctionMixin, Bids
from ....core.steps.passing import Passing
from ....core.steps.stock import transfer_company


class SingleItemAuction(AuctionMixin, Passing):
    """Privates one at a time, cheapest first; unsold ones get cheaper by 5 (dutch mode)."""
    IN_PLACE: ClassVar[tuple[str, ...]] = ("companies",)

    HANDLERS: ClassVar[dict] = {"bid": "process_bid", "pass": "process_pass"}
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} cannot afford a bid of {price}"

    def __init__(self, game, round_, **opts):
        super().__init__(game, round_, **opts)
        self.auction: Bids | None = None  # the private on offer
        self.dutch_mode = False
        self.companies = sorted([c for c in game.companies if c.sym != "3" and not (c.owner and c.owner.is_player)],
                                key=lambda c: c.value)
        if self.companies:
            self.start_item(self.companies[0])

    DESCRIPTION: ClassVar[str] = "Bid on Companies"

    def actions(self, entity):
        if not self.companies:
            return []
        return ["bid", "pass"] if entity is self.current_entity() else []

    def current_entity(self):
        return self.auction.in_turn() if self.auction is not None else None

    def opening_bid(self, company) -> int:
        return self.game.min_bid(company)

    def highest_bid(self, company):
        """None in dutch mode: a bid takes the private at its lowered price."""
        return None if self.dutch_mode else super().highest_bid(company)

    def start_item(self, company):
        self.dutch_mode = False
        self.offer_item(company)

    # ------------------------------------------------------------ bid hooks
    def up_for_auction(self, company) -> bool:
        return company is self.auctioning

    def accept_bid(self, entity, item, price, action=None):
        """A bid on the private on offer; in dutch mode its bidder takes it."""
        if self.dutch_mode and self.auction is not None:
            self.auction.bidders = [e for e in self.auction.bidders if e is entity]
        self.place_bid(entity, price)

    def win_auction(self, winner):
        """The winner pays for the private; the player after him opens the next one."""
        player, price, company = winner
        transfer_company(self.game, company, player, price)
        self.companies.remove(company)
        self.round.goto_entity(player)
        self.round.next_entity_index()
        if self.companies:
            self.start_item(self.companies[0])
        else:
            self.pass_()

    def auction_unsold(self, company):
        """Its price drops and it is offered again; at a price of 0 the first bidder takes it."""
        self.price_drop(company)
        self.offer_item(company)
        bids = self.auction
        if bids is not None and bids.bidders and self.game.min_bid(company) == 0:
            self.check_price(bids.bidders[0], bids.item, 0)
            self.accept_bid(bids.bidders[0], company, 0)
        self.resolve_auction()

    def passing(self, entity) -> None:
        """After a bid (or once the price drops) a pass leaves the auction; before any bid it
        declines the private, and when everyone has declined its price drops (dutch mode)."""
        if self.dutch_mode or (self.auction is not None and self.auction.highest() is not None):
            self.drop_bidder(entity)
        else:
            self.decline(entity)
        self.resolve_auction()

    def price_drop(self, company) -> None:
        """Nobody bid on (or bought) the private: 5 off its price, and a bid buys it (dutch mode)."""
        self.game.company_discount[company.sym] = self.game.company_discount.get(company.sym, 0) + 5
        self.dutch_mode = True

    def legal_actions(self, entity):
        if entity is not self.current_entity() or self.auctioning is None:
            return []
        return [{"type": "pass"}, *self.bid_offer(entity, self.auctioning)]
