"""Auctions: one bid state (:class:`Bids`) and one bid handler (:class:`AuctionMixin`).

Every title's auction is the same walk through a ``bid`` action:

1. :meth:`~AuctionMixin.bid_item` names the item (and refuses one not up for auction),
2. :meth:`~AuctionMixin.bid_price` reads the price (``malformed-action``),
3. :meth:`~AuctionMixin.check_bid` refuses a bid the rules do not allow; its default is the
   one price check every open auction shares (:meth:`~AuctionMixin.check_price`: at least
   :meth:`~AuctionMixin.min_bid`, in steps of the game's ``MIN_BID_INCREMENT`` from it, at
   most :meth:`~AuctionMixin.max_bid`),
4. :meth:`~AuctionMixin.accept_bid` records it; for a one-item auction on
   :attr:`~AuctionMixin.auction` that is :meth:`~AuctionMixin.place_bid`: the bid replaces the
   bidder's earlier one, bidders who cannot reach the next minimum drop out, and once one
   bidder is left :meth:`~AuctionMixin.win_auction` says what winning does.

A title's auction is its hook overrides (1822's bid boxes and bidding tokens, 1893's fixed
prices of the starting package, 1867's dutch mode); no title writes ``process_bid`` itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ..actions import amount
from ..errors import GameError
from ..rewind import Tracked
from ..round import ranged

#: A bid: (entity, price, item). A plain tuple, so copies of a game share nothing with it.
Bid = tuple[Any, int, Any]


class Bids(Tracked):
    """The bids on one item, oldest first, the bidders still in, and those of them who
    declined it at its price (passed before any bid; a bid clears the list).

    Plain data (copied with the game by :mod:`trackage.core.clone`). It reads as the sequence
    of its bids: ``len(bids)``, ``bids[0]``, iteration.
    """
    IN_PLACE: ClassVar[tuple[str, ...]] = ("bids", "bidders", "declined")

    __slots__ = ("bidders", "bids", "declined", "item")

    def __init__(self, item: Any, bidders: list[Any] | None = None) -> None:
        self.item = item
        self.bids: list[Bid] = []
        self.bidders: list[Any] = list(bidders) if bidders is not None else []
        self.declined: list[Any] = []

    def __len__(self) -> int:
        return len(self.bids)

    def __iter__(self) -> Iterator[Bid]:
        return iter(self.bids)

    def __getitem__(self, i: int) -> Bid:
        return self.bids[i]

    def __repr__(self) -> str:
        return f"Bids({self.item!r}, bids={self.bids!r}, bidders={self.bidders!r}, declined={self.declined!r})"

    def highest(self) -> Bid | None:
        """The highest bid (the oldest of equal ones), None before any bid."""
        best = None
        for b in self.bids:
            if best is None or b[1] > best[1]:
                best = b
        return best

    def bid_of(self, entity: Any) -> Bid | None:
        """``entity``'s bid, if it has one."""
        return next((b for b in self.bids if b[0] is entity), None)

    def place(self, entity: Any, price: int) -> Bid:
        """``entity`` bids ``price``: its earlier bid, if any, goes; the new one is the latest
        (and nobody has declined the item any more)."""
        bid = (entity, price, self.item)
        self.declined = []
        self.bids = [b for b in self.bids if b[0] is not entity]
        self.bids.append(bid)
        return bid

    def drop(self, entity: Any) -> None:
        """``entity`` is out: no longer a bidder, its bid withdrawn."""
        if entity in self.bidders:
            self.bidders.remove(entity)
        self.bids = [b for b in self.bids if b[0] is not entity]

    def winner(self) -> Bid | None:
        """The winning bid once one bidder is left and has bid, else None."""
        if len(self.bidders) != 1 or not self.bids:
            return None
        return self.bids[0]

    def next_bidder(self) -> Any:
        """The bidder in turn after the highest bid's (None before any bid)."""
        # (:meth:`highest`, in place: the bidder in turn is asked after every action of an
        # auction)
        best = None
        for b in self.bids:
            if best is None or b[1] > best[1]:
                best = b
        if best is None or not self.bidders:
            return None
        return self.bidders[(self.bidders.index(best[0]) + 1) % len(self.bidders)]

    def in_turn(self) -> Any:
        """The bidder in turn: :meth:`next_bidder`, or before any bid the first bidder who has
        not declined (None when there is none)."""
        if self.bids:
            return self.next_bidder()
        return next((e for e in self.bidders if e not in self.declined), None)

    def all_declined(self) -> bool:
        """Has every bidder declined the item at its price?"""
        return all(e in self.declined for e in self.bidders)


class AuctionMixin:
    """The ``bid`` handler of a step, for its title to fill in through the hooks.

    A one-item auction keeps its :class:`Bids` on :attr:`auction` (None when nothing is up);
    a title may keep it elsewhere (e.g. on the round) behind a property of that name.
    """

    game: Any
    round: Any
    auction: Bids | None = None

    #: A bid's price must be given (a missing price is ``malformed-action``, not 0).
    PRICE_REQUIRED: ClassVar[bool] = False
    #: Wording of the price check's refusals: the increment's (field: step) and a bid over
    #: the maximum's (fields: entity, item, price, max).
    BID_INCREMENT_MESSAGE: ClassVar[str] = "bids rise in steps of {step}"
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} can bid at most {max}"
    #: The rule a bid on an item not :meth:`up_for_auction` breaks.
    NOT_UP_RULE: ClassVar[str] = "not-for-auction"

    @property
    def auctioning(self) -> Any:
        """The item up for auction now (None when nothing is)."""
        return self.auction.item if self.auction is not None else None

    # ------------------------------------------------------------------ the handler
    def process_bid(self, action: dict[str, Any], entity: Any) -> None:
        item = self.bid_item(action, entity)
        price = self.bid_price(action, entity, item)
        self.check_bid(entity, item, price)
        self.game.journal.add("bid", {"entity": entity.id,
                                      "item": getattr(item, "sym", None) or getattr(item, "id", None), "price": price})
        self.accept_bid(entity, item, price, action)

    # ------------------------------------------------------------------ hooks
    def bid_item(self, action: dict[str, Any], entity: Any) -> Any:
        """The item ``action`` bids on: the company named by ``company`` (``unknown-entity``),
        if :meth:`up_for_auction` (else :attr:`NOT_UP_RULE`)."""
        company = self.game.index.company(action.get("company"))
        if company is None:
            raise GameError(f"unknown company {action.get('company')!r}", rule="unknown-entity")
        if not self.up_for_auction(company):
            raise GameError(f"bid: {company.name} is not up for auction now", rule=self.NOT_UP_RULE)
        return company

    def up_for_auction(self, item: Any) -> bool:
        """May ``item`` be bid on now? Default: yes."""
        return True

    def bid_price(self, action: dict[str, Any], entity: Any, item: Any) -> int:
        """The price ``action`` bids: a whole number (``malformed-action``); 0 when missing,
        unless :attr:`PRICE_REQUIRED`."""
        if self.PRICE_REQUIRED:
            price = action.get("price")
            if not isinstance(price, int):
                raise GameError("a bid needs an integer price", rule="malformed-action")
            return price
        bid: int = amount(action, "price", 0)
        return bid

    def check_bid(self, entity: Any, item: Any, price: int) -> None:
        """Refuse a bid the rules do not allow. Default: the shared :meth:`check_price`;
        titles add their own rules before or after it."""
        self.check_price(entity, item, price)

    def min_bid(self, item: Any) -> int:
        """The lowest bid ``item`` takes now: :meth:`bid_step` over its :meth:`highest_bid`,
        or its :meth:`opening_bid` before any."""
        top = self.highest_bid(item)
        return top[1] + self.bid_step() if top else self.opening_bid(item)

    def highest_bid(self, item: Any) -> Bid | None:
        """The bid to beat on ``item``: the highest of the auction under way, if it is for
        ``item`` (titles keeping bids elsewhere override it)."""
        bids = self.auction
        return bids.highest() if bids is not None and bids.item is item else None

    def opening_bid(self, item: Any) -> int:
        """The lowest first bid on ``item``."""
        raise NotImplementedError

    def max_bid(self, entity: Any, item: Any) -> int:
        """The most ``entity`` may bid on ``item`` (default: its cash)."""
        cash: int = entity.cash
        return cash

    def bid_step(self) -> int:
        """Bids rise from the minimum in steps of this (the game's ``MIN_BID_INCREMENT``)."""
        step: int = self.game.MIN_BID_INCREMENT
        return step

    def accept_bid(self, entity: Any, item: Any, price: int, action: dict[str, Any]) -> None:
        """Record an allowed bid. Default: :meth:`place_bid` on the auction under way."""
        self.place_bid(entity, price)

    def win_auction(self, winner: Bid) -> None:
        """What winning does: ``winner`` = (entity, price, item); :attr:`auction` is already
        cleared."""
        raise NotImplementedError

    def auction_unsold(self, item: Any) -> None:
        """Every bidder has dropped out of the auction of ``item`` (already cleared).
        Default: nothing."""

    def bid_target(self, item: Any) -> dict[str, Any]:
        """The fields of a ``bid`` action naming ``item`` (default: the company's ``sym``)."""
        return {"company": item.sym}

    def bid_offer(self, entity: Any, item: Any) -> list[dict[str, Any]]:
        """The ``bid`` on ``item`` open to ``entity`` with its price range (:meth:`min_bid` to
        :meth:`max_bid` in steps of :meth:`bid_step`), or none when the minimum is out of reach."""
        lo, hi = self.min_bid(item), self.max_bid(entity, item)
        return [ranged({"type": "bid", **self.bid_target(item)}, lo, hi, self.bid_step())] if lo <= hi else []

    def fixed_bids(self, items: list[Any]) -> list[dict[str, Any]]:
        """A ``bid`` on each of ``items`` at its :meth:`min_bid` exactly (items sold at a set
        price; the step chooses which ``entity`` is offered, e.g. by cash or not)."""
        return [{"type": "bid", **self.bid_target(item), "price": self.min_bid(item)} for item in items]

    # ------------------------------------------------------------------ shared rules
    def check_price(self, entity: Any, item: Any, price: int) -> None:
        """The price check of an open auction: at least :meth:`min_bid` (``bid-too-low``), in
        steps of :meth:`bid_step` from it (``bid-increment``), at most :meth:`max_bid`
        (``insufficient-cash``)."""
        lo, step = self.min_bid(item), self.bid_step()
        if price < lo:
            raise GameError(f"minimum bid is {lo} for {item.name}", rule="bid-too-low")
        if (price - lo) % step:
            raise GameError(self.BID_INCREMENT_MESSAGE.format(step=step), rule="bid-increment")
        self.check_max_bid(entity, item, price)

    def check_max_bid(self, entity: Any, item: Any, price: int) -> None:
        """At most :meth:`max_bid` (``insufficient-cash``, worded by :attr:`OVER_MAX_MESSAGE`)."""
        hi = self.max_bid(entity, item)
        if price > hi:
            raise GameError(self.OVER_MAX_MESSAGE.format(entity=entity.name, item=item.name, price=price, max=hi),
                            rule="insufficient-cash")

    # ------------------------------------------------------------------ one-item auctions
    def open_bidding(self, entity: Any, item: Any, price: int) -> None:
        """``entity`` puts ``item`` up with a first bid of ``price``: the bidders are the
        round's entities who can reach the next minimum, and ``entity``."""
        bids = self.auction = Bids(item)
        bids.place(entity, price)
        lo = self.min_bid(item)
        bids.bidders = [p for p in self.round.entities if p is entity or self.max_bid(p, item) >= lo]
        self.resolve_auction()

    def offer_item(self, item: Any) -> None:
        """Put ``item`` up with no bid yet: the bidders are the round's entities, from the one
        in turn, who can reach its :meth:`opening_bid`."""
        ents, i = self.round.entities, self.round.entity_index
        lo = self.opening_bid(item)
        self.auction = Bids(item, [p for p in ents[i:] + ents[:i] if self.max_bid(p, item) >= lo])
        self.resolve_auction()

    def place_bid(self, entity: Any, price: int) -> None:
        """``entity`` bids ``price`` on the item up: the bidders who cannot reach the next
        minimum drop out, and the auction ends if it is decided."""
        bids = self.auction
        if bids is None:
            return
        bids.place(entity, price)
        lo = self.min_bid(bids.item)
        for p in [p for p in bids.bidders if p is not entity and self.max_bid(p, bids.item) < lo]:
            bids.drop(p)
        self.resolve_auction()

    def decline(self, entity: Any) -> bool:
        """``entity`` passes on the item up at its price without bidding; True when that made
        everyone decline it (see :meth:`check_declined`)."""
        if self.auction is not None:
            self.auction.declined.append(entity)
        return self.check_declined()

    def check_declined(self) -> bool:
        """Once every bidder has declined the item up, they may all bid again after
        :meth:`price_drop`; True when that happened."""
        bids = self.auction
        if bids is None or not bids.all_declined():
            return False
        bids.declined = []
        self.price_drop(bids.item)
        return True

    def price_drop(self, item: Any) -> None:
        """Every bidder declined ``item`` at its price: lower it (or say what else happens)."""
        raise NotImplementedError

    def drop_bidder(self, entity: Any) -> None:
        """``entity`` leaves the auction under way, which ends if that decides it."""
        if self.auction is not None:
            self.auction.drop(entity)
        self.resolve_auction()

    def resolve_auction(self) -> None:
        """End the auction once it is decided: one bidder left with a bid wins
        (:meth:`win_auction`); with no bidder left nobody does (:meth:`auction_unsold`)."""
        bids = self.auction
        if bids is None:
            return
        winner = None
        if bids.bidders:
            winner = bids.winner()
            if winner is None:
                return
        self.auction = None
        if winner is None:
            self.auction_unsold(bids.item)
        else:
            self.win_auction(winner)
