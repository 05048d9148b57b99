"""t1893 steps: auction."""

from __future__ import annotations

from typing import ClassVar

from trackage.core.actions import amount

from ....core.errors import GameError
from ....core.round import Step, starting_at
from ....core.steps.auction import AuctionMixin, Bids


def _company(game, action):
    c = game.index.company(action.get("company"))
    if c is None:
        raise GameError(f"unknown company {action.get('company')!r}", rule="unknown-entity")
    return c


# ============================================================== starting package
class StartingPackageInitialAuction(AuctionMixin, Step):
    """Players in turn take a private or one of the two lowest minors at its price, or pass
    (and are out of the draft and the first stock round). Ends when one card is left."""
    IN_PLACE: ClassVar[tuple[str, ...]] = ("discount",)  # its discounts per item, changed in place (saved for an undo)

    HANDLERS: ClassVar[dict] = {"bid": "process_bid", "pass": "process_pass"}
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} cannot afford {item}"
    NOT_UP_RULE: ClassVar[str] = "company-not-for-sale"

    DESCRIPTION: ClassVar[str] = "Initial Drafting of Privates/Minors"

    def finished(self) -> bool:
        g = self.game
        return len(g.draftables()) == 1 or len(g.passers_first_stock_round) == len(g.players)

    def active(self):
        return not self.finished()

    def actions(self, entity):
        return ["bid", "pass"] if not self.finished() and entity is self.current_entity() else []

    def available(self) -> list:
        return self.game.draftables()

    def up_for_auction(self, company) -> bool:
        return company in self.available()

    def bid_price(self, action, entity, company):
        """A card costs its value (another price in an imported log: a warning)."""
        game = self.game
        price = amount(action, "price", company.value)
        if price != company.value:
            if not game.loading:
                raise GameError(f"{company.name} costs {company.value}, not {price}", rule="wrong-price")
            game.warnings.append(f"action {action.get('id')}: {company.sym} price {price}, ours {company.value}")
        return price

    def check_bid(self, entity, company, price):
        self.check_max_bid(entity, company, price)

    def accept_bid(self, entity, company, price, action):
        self.game.draft_object(company, entity, price)
        self._finalize()

    def process_pass(self, action, entity):
        self.game.passers_first_stock_round.append(entity)
        self._finalize()

    def _finalize(self):
        r = self.round
        for _ in range(len(r.entities) + 1):
            r.next_entity_index()
            if self.finished() or r.entities[r.entity_index] not in self.game.passers_first_stock_round:
                return

    def opening_bid(self, company) -> int:
        return company.value

    def offered(self, entity) -> list:
        """The cards ``entity`` may take now, at their :meth:`min_bid`."""
        return [c for c in self.game.draftables() if c.value <= entity.cash]

    def legal_actions(self, entity):
        acts = self.actions(entity)
        if "bid" not in acts:
            return []
        return self.fixed_bids(self.offered(entity)) + [{"type": a} for a in acts if a == "pass"]


class StartingPackageForcedAuction(StartingPackageInitialAuction):
    """What is left of the starting package: a player picks a card, then in turn everyone may
    buy it at its price or pass; when all pass its price drops by 10M (down to half its value,
    then the player who picked it must buy it)."""

    REDUCTION = 10

    def __init__(self, game, round_, **opts):
        super().__init__(game, round_, **opts)
        self.triggerer = None
        self.discount = {}
        self.green_train_holder = self.game.players[0]

    DESCRIPTION: ClassVar[str] = "Drafting Auction for remaining Starting Package Certificates"

    def available(self) -> list:
        return [self.auctioning] if self.auctioning else self.game.draftables()

    def active(self):
        return bool(self.available())

    def blocking(self) -> bool:
        # a picker left with no card he may pick (see selectable) holds the round: the game
        # stops there, as the reference, which errs on any pick, does
        return self.blocks() and self.active()

    def min_bid(self, company) -> int:
        return company.value - self.discount.get(company, 0)

    def actions(self, entity):
        if not self.available() or entity is not self.current_entity():
            return []
        if self.auctioning is None:
            return ["bid"] if self.selectable(entity) else []
        return [] if self.min_bid(self.auctioning) > entity.cash else ["bid", "pass"]

    def bid_price(self, action, entity, company):
        """A pick names no price; a purchase pays the current price exactly."""
        price = self.min_bid(company)
        if self.auctioning is not None and (asked := amount(action, "price", price)) != price:
            raise GameError(f"{company.name} costs {price}, not {asked}", rule="wrong-price")
        return price

    def check_bid(self, entity, company, price):
        if self.auctioning is not None:
            self.check_max_bid(entity, company, price)
        elif not self.game.loading and company not in self.selectable(entity):
            raise GameError(f"nobody could pay for {company.name} and {entity.name} has no cash: the "
                            "forced purchase would be for nothing, which the reference refuses",
                            rule="forced-purchase-for-nothing")

    def accept_bid(self, entity, company, price, action):
        """A pick puts the card up (and may run down to a forced purchase); else a purchase."""
        if self.auctioning is None:
            self.triggerer, self.auction = entity, Bids(company, list(self.round.entities))
            self.next_entity()  # may run down to a forced purchase
            self.game.check_draft_dead_end()
            return
        self.game.draft_object(company, entity, price)
        self.reset_auction(company)

    def floor_price(self, company) -> int:
        """The price at which the player who picked ``company`` is forced to buy it: the first
        price of the 10M steps from its current price not above half its value."""
        price = self.min_bid(company)
        while company.value // 2 < price:
            price -= self.REDUCTION
        return price

    def selectable(self, entity) -> list:
        """The cards ``entity`` may pick. Cash does not change during the auction, so when
        nobody can pay the floor price the picker is forced to buy for all his cash; with no
        cash the reference errs ("Cannot spend zero or negative money"): such a pick is no
        action here."""
        richest = max(p.cash for p in self.round.entities)
        return [c for c in self.game.draftables() if entity.cash > 0 or richest >= self.floor_price(c)]

    def process_pass(self, action, entity):
        if not self.decline(entity):
            self.next_entity()

    def price_drop(self, target) -> None:
        """Everyone passed: 10M off the price, or at half its value the picker must buy it."""
        if target.value // 2 >= self.min_bid(target):
            self.force_purchase(target)
        else:
            self.discount[target] = self.discount.get(target, 0) + self.REDUCTION
            self.next_entity()

    def force_purchase(self, target):
        price, ents, buyer = self.min_bid(target), self.round.entities, self.triggerer
        assert buyer is not None  # a forced purchase follows a pass that triggered it
        if price > buyer.cash:  # the next player in turn who can pay, else the picker with all his cash
            i = ents.index(buyer)
            cand = next((p for p in ents[i + 1:] + ents[:i] if p.cash >= price), None)
            buyer, price = (cand, price) if cand is not None else (buyer, buyer.cash)
        self.game.draft_object(target, buyer, price)
        self.reset_auction(target)

    def reset_auction(self, target):
        self.auction = None
        r = self.round
        if not self.available():
            self.game.players = starting_at(self.game.players, self.green_train_holder)
            r.entity_index = 0
        else:
            r.entity_index = r.entities.index(self.triggerer)
            self.triggerer = None
            self.next_entity()

    def next_entity(self):
        r = self.round
        for _ in range(len(r.entities) + 1):
            r.next_entity_index()
            bids = self.auction
            if bids is None or self.check_declined():  # all passed: a lower price, or a forced purchase
                return
            entity = r.entities[r.entity_index]
            if entity not in bids.declined and self.actions(entity):
                return
            bids.declined.append(entity)  # cannot pay the price: passed over

    def offered(self, entity) -> list:
        return self.selectable(entity) if self.auctioning is None else [self.auctioning]
