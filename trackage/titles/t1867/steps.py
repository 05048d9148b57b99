"""1867's steps: private auction, minor auctions in the stock round, home tokens, loans,
track/token with automatic loans, dividends (minors split 50/50), train buying."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from trackage.core.steps.track import tokenable_cities
from trackage.core.trains import remove_train

from ...core.entities import ShareBundle
from ...core.errors import GameError
from ...core.money import spend
from ...core.round import Step, ranged
from ...core.shares import action_bundle
from ...core.steps.auction import AuctionMixin, Bids
from ...core.steps.buy_company import BuyCompanyMixin
from ...core.steps.choose import ChooseMixin
from ...core.steps.operating import BuyTrain, Dividend, HomeToken, Purchase, RunRoutes
from ...core.steps.passing import Passing
from ...core.steps.stock import BuySellParShares
from ...core.steps.track import TrackAndTokenStep

if TYPE_CHECKING:
    from ...core.entities import Corporation
    from ...core.market import SharePrice


# ---------------------------------------------------------------------------- auctions
class SingleItemAuction(AuctionMixin, Passing):
    """Privates one at a time, cheapest first; unsold ones get cheaper by 5 (dutch mode)."""

    HANDLERS: ClassVar[dict] = {"bid": "process_bid", "pass": "process_pass"}
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} cannot afford a bid of {price}"

    def __init__(self, game, round_, **opts):
        super().__init__(game, round_, **opts)
        self.auction: Bids | None = None  # the private on offer
        self.declined: list = []
        self.dutch_mode = False
        self.companies = sorted([c for c in game.companies if c.sym != "3" and not (c.owner and c.owner.is_player)],
                                key=lambda c: c.value)
        if self.companies:
            self.start_item(self.companies[0])

    @property
    def auctioning(self):
        return self.auction.item if self.auction is not None else None

    def description(self):
        return "Bid on Companies"

    def active(self):
        return not self.passed

    def actions(self, entity):
        if not self.companies:
            return []
        return ["bid", "pass"] if entity is self.current_entity() else []

    def current_entity(self):
        bids = self.auction
        if bids is None or not bids.bidders:
            return None
        if bids.bids:
            return bids.next_bidder()
        rest = [e for e in bids.bidders if e not in self.declined]
        return rest[0] if rest else None

    def active_entities(self):
        e = self.current_entity()
        return [e] if e is not None else []

    def min_bid(self, company) -> int:
        if self.dutch_mode or not self.auction:
            return self.game.min_bid(company)
        top = self.auction.highest()
        assert top is not None  # an auction with bids has a highest one
        return top[1] + self.game.MIN_BID_INCREMENT

    def start_item(self, company):
        self.dutch_mode = False
        self.declined = []
        self.open_auction(company)

    def open_auction(self, company):
        lo = self.game.min_bid(company)
        ents = self.round.entities
        order = ents[self.round.entity_index:] + ents[:self.round.entity_index]
        self.auction = Bids(company, [p for p in order if p.cash >= lo])
        self.resolve_auction()

    # ------------------------------------------------------------ bid hooks
    def bid_item(self, action, entity):
        company = self.game.index.company(action.get("company"))
        if company is None or company is not self.auctioning:
            raise GameError(f"{action.get('company')!r} is not up for auction", rule="not-for-auction")
        return company

    def accept_bid(self, entity, item, price, action):
        self.declined = []
        self.add_bid(entity, price)

    def add_bid(self, entity, price):
        """A bid on the private on offer; in dutch mode its bidder takes it."""
        if self.dutch_mode and self.auction is not None:
            self.auction.bidders = [e for e in self.auction.bidders if e is entity]
        self.place_bid(entity, price)

    def win_auction(self, winner):
        player, price, company = winner
        company.owner = player
        player.companies.append(company)
        if price > 0:
            spend(player, self.game.bank, price)
        self.companies.remove(company)
        self.post_win(player, company)

    def auction_unsold(self, company):
        self.enter_dutch(company)
        self.post_win(None, company)

    def passing(self, entity) -> None:
        """After a bid (or once the price drops) a pass leaves the auction; before any bid it
        declines the private, and when everyone has declined its price drops (dutch mode)."""
        bids = self.auction
        assert bids is not None  # a pass is offered while a private is on offer
        if bids.highest() is not None or self.dutch_mode:
            self.drop_bidder(entity)
        else:
            self.declined.append(entity)
            if len(self.declined) == len(bids.bidders):
                self.enter_dutch(bids.item)
                self.declined = []
        self.resolve_auction()

    def enter_dutch(self, company):
        self.game.company_discount[company.sym] = self.game.company_discount.get(company.sym, 0) + 5
        self.dutch_mode = True

    def post_win(self, winner, company):
        if winner is not None:
            self.round.goto_entity(winner)
            self.round.next_entity_index()
            if self.companies:
                self.start_item(self.companies[0])
            else:
                self.pass_()
        else:
            self.open_auction(company)
            bids = self.auction
            bidders = bids.bidders if bids is not None else []
            if bids is not None and self.game.min_bid(company) == 0 and bidders:
                self.check_price(bidders[0], bids.item, 0)
                self.add_bid(bidders[0], 0)
            self.resolve_auction()

    def legal_actions(self, entity):
        if entity is not self.current_entity() or self.auctioning is None:
            return []
        lo = self.min_bid(self.auctioning)
        out = [{"type": "pass"}]
        if entity.cash >= lo:
            out.append(ranged({"type": "bid", "company": self.auctioning.sym}, lo, entity.cash,
                              self.game.MIN_BID_INCREMENT))
        return out


class BuySellParShares1867(AuctionMixin, BuySellParShares):
    """Shares and pars (majors from phase 4); minors are started by auction (``bid``)."""

    HANDLERS: ClassVar[dict] = {**BuySellParShares.HANDLERS, "bid": "process_bid"}
    PRICE_REQUIRED = True
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} cannot bid {price}; maximum is {max}"
    COMPANIES = False
    MIN_BID = 100
    MAX_MINOR_PAR = 135
    MAJOR_PHASE = 4

    def setup(self):
        super().setup()
        self.auction: Bids | None = None  # the minor being auctioned
        self.triggerer = None

    # ------------------------------------------------------------ auction state
    @property
    def auctioning(self):
        return self.auction.item if self.auction is not None else None

    def current_entity(self):
        if self.auction:
            return self.auction.next_bidder()
        return self.round.current_entity_of_round()

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if self.auctioning is not None:
            return ["bid", "pass"]
        out = super().actions(entity)
        if not self.bought() and self.can_bid_any(entity):
            out.append("bid")
        if out and "pass" not in out and not self.must_sell(entity):
            out.append("pass")
        return out

    def max_bid(self, player, corp=None) -> int:
        if corp is not None and not self.can_gain(player, ShareBundle([corp.shares[0]])):
            return 0
        return player.cash

    def can_bid_any(self, entity) -> bool:
        if self.max_bid(entity) < self.MIN_BID or self.bought():
            return False
        return any(self.game.can_par(c, entity) and c.type == "minor" and self.minor_startable(c)
                   and self.can_buy(entity, ShareBundle([c.shares[0]])) for c in self.game.corporations)

    def minor_startable(self, corp) -> bool:
        return True

    def can_ipo_any(self, entity) -> bool:
        if int(self.game.phase.name) < self.MAJOR_PHASE or self.bought():
            return False
        return any(self.game.can_par(c, entity) and c.type == "major"
                   and self.can_buy(entity, ShareBundle([c.shares[0]])) for c in self.game.corporations)

    def can_par_corp(self, entity, corp) -> bool:
        return (corp.type == "major" and int(self.game.phase.name) >= self.MAJOR_PHASE
                and corp in self.game.corporations and self.has_home(corp) and super().can_par_corp(entity, corp))

    def has_home(self, corp) -> bool:
        return bool(corp.coordinates) or bool(self.game.home_token_locations(corp))

    def par_prices(self, entity, corp):
        return [p for p in self.game.par_prices_for(corp) if p.price * 2 <= entity.cash]

    def min_bid(self, corp) -> int:
        if self.auction is None:
            return self.MIN_BID
        top = self.auction.highest()
        assert top is not None  # a minor's auction opens with its first bid
        return top[1] + self.game.MIN_BID_INCREMENT

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

    def check_bid(self, entity, corp, price):
        """A bid in the auction under way names its minor; a first bid starts a minor."""
        if self.auction is not None:
            if corp is not self.auction.item:
                raise GameError(f"{self.auction.item.name} is being auctioned", rule="not-for-auction")
        else:
            if self.bought():
                raise GameError("only one purchase per turn", rule="one-purchase-per-turn")
            if corp.type != "minor" or corp not in self.game.corporations or not self.game.can_par(corp, entity):
                raise GameError(f"{corp.name} cannot be auctioned", rule="cannot-par")
            if not self.game.loading and not self.minor_startable(corp):
                raise GameError(f"{corp.name} cannot be started yet", rule="minor-order")
            if not self.game.loading and not self.has_home(corp):
                raise GameError(f"no city is free for {corp.name}'s home token", rule="no-home-location")
            if not self.can_buy(entity, ShareBundle([corp.shares[0]])):
                raise GameError(f"{entity.name} cannot start {corp.name}", rule="certificate-limit")
        super().check_bid(entity, corp, price)

    def accept_bid(self, entity, corp, price, action):
        if self.auction is not None:
            self.place_bid(entity, price)
            return
        self.game.place_home_token(corp)
        self.triggerer = entity
        self.open_bidding(entity, corp, price)

    def win_auction(self, winner):
        player, price, corp = winner
        par_limit = min(price // 2, self.MAX_MINOR_PAR)
        share_price = next(sp for sp in self.game.par_prices_for(corp) if sp.price <= par_limit)
        spend(self.game.bank, player, share_price.price * 2)
        self.game.stock_market.set_par(corp, share_price)
        pres = corp.presidents_share
        self.note_bought(player, corp, pres.percent)
        self.game.share_market.buy_shares(player, ShareBundle([pres]))
        self.game.after_par(corp)
        self._track({"type": "par"}, player, corp, corp)
        if corp.cash > 0:
            spend(corp, self.game.bank, corp.cash)
        spend(player, corp, price)
        self.round.goto_entity(player)
        self.pass_()

    def passing(self, entity) -> None:
        """A pass in a minor's auction leaves it; otherwise the turn ends."""
        if self.auction is not None:
            self.drop_bidder(self.current_entity())
            return
        self.pass_()

    def legal_actions(self, entity):
        if self.auctioning is not None:
            if entity is not self.current_entity():
                return []
            out = [{"type": "pass"}]
            lo = self.min_bid(self.auctioning)
            if self.max_bid(entity, self.auctioning) >= lo:
                out.append(ranged({"type": "bid", "corporation": self.auctioning.id}, lo,
                                  self.max_bid(entity, self.auctioning), self.game.MIN_BID_INCREMENT))
            return out
        out = super().legal_actions(entity)
        if "bid" in self.actions(entity):
            for c in self.game.corporations:
                if (c.type == "minor" and self.game.can_par(c, entity) and self.minor_startable(c)
                        and self.can_buy(entity, ShareBundle([c.shares[0]]))
                        and self.has_home(c)):
                    out.append(ranged({"type": "bid", "corporation": c.id}, self.MIN_BID,
                                      self.max_bid(entity, c), self.game.MIN_BID_INCREMENT))
        return out


class HomeToken1867(HomeToken):
    """The player places the home token of the minor/major just started, in a free city."""

    def after_home_token(self, entity, city) -> None:
        """A laid token clears the graph, as in the reference."""
        self.game.clear_graph()


class MajorTrainless(ChooseMixin, Passing):
    HANDLERS: ClassVar[dict] = {"pass": "process_pass", "choose": "process_choose"}

    def active(self):
        return bool(self.game.trainless_major)

    def skip(self):
        pass

    def current_entity(self):
        tm = self.game.trainless_major
        return tm[0] if tm else None

    def actions(self, entity):
        return ["pass", "choose"] if entity in self.game.trainless_major else []

    def passing(self, entity) -> None:
        """The major stays trainless (not nationalised)."""
        self.game.trainless_major.remove(entity)

    def choices(self, entity) -> list[str]:
        return ["nationalize"]

    def choose(self, entity, choice) -> None:
        """Nationalise the major (refused while that would strand the round)."""
        if self.strands_round(entity):
            raise GameError(f"{entity.name} operates now and another major still has to choose: nationalising "
                            "it would leave the round waiting for a company that no longer exists",
                            rule="nationalize-operator")
        self.game.trainless_major.remove(entity)
        self.game.nationalize(entity)

    def strands_round(self, entity) -> bool:
        """Is ``entity`` the operator whose turn it is while other trainless majors wait?
        The reference then keeps the removed company as the operator and can process no
        further action (quirk: nationalise-operator)."""
        round_ = self.round
        if not round_.is_operating() or not round_.entities:
            return False
        operator = round_.entities[round_.entity_index]
        return operator is entity and any(c is not entity for c in self.game.trainless_major)

    def legal_actions(self, entity):
        if entity not in self.game.trainless_major:
            return []
        out = [{"type": "pass"}]
        if not self.strands_round(entity):
            out.append({"type": "choose", "choice": "nationalize"})
        return out


# ---------------------------------------------------------------------------- operating round
class BuyCompany1867(BuyCompanyMixin, Step):
    HANDLERS: ClassVar[dict] = {"buy_company": "process_buy_company", "pass": "process_pass"}
    BLOCKS = False

    def can_buy_company(self, entity) -> bool:
        comps = self.game.purchasable_companies(entity)
        return (entity is self.current_entity() and "can_buy_companies" in self.game.phase.status
                and bool(comps) and min(c.min_price for c in comps) <= entity.cash)

    def actions(self, entity):
        if not entity.is_corporation:
            return []
        if self.can_buy_company(entity):
            return ["buy_company", "pass"] if self.blocks() else ["buy_company"]
        return []

    def company_price(self, entity, company, action: dict) -> int:
        """A player's private, in a phase that allows it, at the named price between its
        minimum and maximum."""
        if company is None or company not in self.game.purchasable_companies(entity):
            raise GameError(f"{action.get('company')!r} cannot be bought", rule="company-not-for-sale")
        if "can_buy_companies" not in self.game.phase.status:
            raise GameError("companies cannot be bought in this phase", rule="company-not-for-sale")
        price = action.get("price")
        if not isinstance(price, int) or not company.min_price <= price <= company.max_price:
            raise GameError(f"price must be between {company.min_price} and {company.max_price}", rule="wrong-price")
        if price > entity.cash:
            raise GameError(f"{entity.name} has {entity.cash} and cannot pay {price}", rule="insufficient-cash")
        return price

    def listed_earlier(self, entity) -> bool:
        """The round has this step more than once (any time in the turn, and blocking before
        loans and at the end); purchases go to the first active one, so only it lists them."""
        for s in self.round.steps:
            if s is self:
                return False
            if isinstance(s, BuyCompany1867) and s.active() and "buy_company" in s.actions(entity):
                return True
        return False

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "buy_company" in acts and not self.listed_earlier(entity):
            for c in self.game.purchasable_companies(entity):
                if c.min_price <= entity.cash:
                    out.append(ranged({"type": "buy_company", "company": c.sym}, c.min_price,
                                      min(c.max_price, entity.cash)))
        if "pass" in acts:
            out.append({"type": "pass"})
        return out


class BuyCompanyPreloan(BuyCompany1867):
    pass


class RedeemShares(Step):
    HANDLERS: ClassVar[dict] = {"buy_shares": "process_buy_shares", "pass": "process_pass"}

    def actions(self, entity):
        if not entity.is_corporation or entity is not self.current_entity():
            return []
        if self.game.redeemable_bundles(entity):
            return ["buy_shares", "pass"]
        return []

    def process_buy_shares(self, action, entity):
        bundle = action_bundle(self.game, action)
        if bundle.corporation is not entity or bundle.owner is not self.game.pool or entity.cash < bundle.price():
            raise GameError(f"{entity.name} cannot redeem these shares", rule="illegal-redeem")
        self.game.share_market.buy_shares(entity, bundle)
        self.pass_()

    def legal_actions(self, entity):
        if "buy_shares" not in self.actions(entity):
            return []
        return [{"type": "buy_shares", "shares": [s.id for s in b.shares], "percent": b.percent}
                for b in self.game.redeemable_bundles(entity)] + [{"type": "pass"}]


def take_loans_for(game, entity, cost):
    while entity.cash < cost and game.can_take_loan(entity):
        game.take_loan(entity)


class Track1867(TrackAndTokenStep):
    WITH_TOKEN = False

    def description(self):
        return "Lay Track"

    def buying_power(self, entity) -> int:
        return self.game.buying_power(entity, full=True)

    def is_upgrade(self, old_tile, new_tile) -> bool:
        return old_tile.color != "white"

    def pay(self, entity, cost):
        if cost > 0:
            if cost > entity.cash:
                take_loans_for(self.game, entity, cost)
            spend(entity, self.game.bank, cost)

    def check_lay(self, entity, hex_, old_tile, tile, rotation):
        hidden = self.game.hidden_company
        if self.game.loading or hidden is None or hidden.closed:
            return
        for ab in hidden.abilities:
            if ab.get("type") == "blocks_hexes" and hex_.id in ab.get("hexes", []):
                raise GameError(f"{hex_.id} is blocked until phase 3", rule="hex-blocked")

    def after_lay(self, entity, hex_, old_tile, tile):
        if tile.name == "639":
            self.game.place_639_token(tile)


class Token1867(TrackAndTokenStep):
    """One token per turn, its price times the distance to the nearest own token."""

    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass"}

    def round_state(self):
        return {"tokened": False}

    def setup(self):
        self.round.tokened = False

    def description(self):
        return "Place a Token"

    def can_place_token(self, entity) -> bool:
        if entity is not self.current_entity() or self.round.tokened:
            return False
        toks = self.available_tokens(entity)
        if not toks or toks[0].price > entity.cash:
            return False
        return self.game.graph.can_token(entity)

    def actions(self, entity):
        if not entity.is_corporation:
            return []
        return ["place_token", "pass"] if self.can_place_token(entity) else []

    def token_price(self, entity, token, hex_) -> int:
        used = [t.city.hex for t in entity.tokens if t.used and t.city is not None]
        if not used:
            return token.price
        return token.price * min(h.distance(hex_) for h in used)

    def can_lay_tile(self, entity) -> bool:
        return False

    def prepare_token(self, entity, city, token, action: dict) -> None:
        """The token costs its price times the distance to the nearest own token."""
        price = self.token_price(entity, token, city.hex)
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot afford a token for {price}", rule="insufficient-cash")
        token.price = price

    def legal_actions(self, entity):
        if "place_token" not in self.actions(entity):
            return []
        out = []
        toks = self.available_tokens(entity)
        for city in tokenable_cities(self.game, entity):
            if self.token_price(entity, toks[0], city.hex) <= entity.cash:
                out.append({"type": "place_token", "city": city.id, "slot": self.game.board.get_slot(city, entity)
                            or 0})
        return out + [{"type": "pass"}]


class Route1867(RunRoutes):
    pass


class Dividend1867(Dividend):
    KINDS = ("payout", "half", "withhold")

    def actions(self, entity):
        if not entity.is_corporation or entity.type == "minor":
            return []
        return super().actions(entity)

    def skip(self):
        entity = self.current_entity()
        if entity.type == "minor":
            self.do_dividend(entity, "payout" if self.total_revenue() > 0 else "withhold")
        else:
            self.do_dividend(entity, "withhold")

    def payout_amounts(self, entity, kind, revenue):
        if kind == "withhold":
            return revenue, 0
        if entity.type == "minor":
            return revenue // 2, revenue - revenue // 2
        if kind == "half":
            n = entity.total_shares
            withheld = (revenue // 2 // n) * n
            return withheld, revenue - withheld
        return 0, revenue

    def pay_shareholders(self, entity, amount):
        if entity.type == "minor":
            if amount > 0 and entity.owner is not None:
                spend(self.game.bank, entity.owner, amount)
            return
        super().pay_shareholders(entity, amount)

    def move_price(self, entity, revenue, kept, paid):
        if entity.share_price is None:
            return
        sm = self.game.stock_market
        if entity.type == "minor":
            if paid > 0:
                sm.move_right(entity)
            else:
                sm.move_left(entity)
            return
        if paid <= 0:
            sm.move_left(entity)
        elif paid >= entity.share_price.price:
            sm.move_right(entity)

    def legal_actions(self, entity):
        if "dividend" not in self.actions(entity):
            return []
        return [{"type": "dividend", "kind": k} for k in self.KINDS]


class LoanOperations(Step):
    """Interest, automatic loans for it, repayment; nationalisation if it cannot pay."""

    def actions(self, entity):
        return []

    def skip(self):
        self.pass_()
        entity = self.current_entity()
        if entity is None or not entity.is_corporation:
            return
        owed = self.game.pay_interest(entity)
        if owed is not None:
            self.game.nationalize(entity)
            return
        while entity.loans > 0 and entity.cash >= 50:
            self.game.repay_loan(entity)
        self.game.interest[entity] = entity.loans


class BuyTrain1867(BuyTrain):
    def must_buy_train(self, entity) -> bool:
        depot = self.game.depot
        if entity.trains or not depot.depot_trains():
            return False
        return self.game.buying_power(entity, full=True) >= self.min_depot_price()

    def min_depot_price(self) -> int:
        trains = self.game.depot.depot_trains()
        if not trains:
            return 0
        t = min(trains, key=lambda t: t.price)
        return min(v["price"] for v in t.variants.values())

    def buying_power_for(self, entity) -> int:
        return self.game.buying_power(entity, full=self.must_buy_train(entity))

    def discountable(self, entity, payable: bool = True) -> list:
        """(old train, depot train, variant, price) trade-ins. With ``payable`` False also
        those priced at zero or less: the reference still counts them as a reason to stop
        at this step, though it refuses to buy them."""
        out = []
        for train in entity.trains:
            for dt in self.game.depot.depot_trains():
                disc = dt.spec.get("discount")
                if not disc or train.name not in disc:
                    continue
                price = dt.price - disc[train.name]
                # a trade-in worth more than the new train would pay nothing or less, which
                # the reference refuses (it cannot spend zero or a negative amount)
                if price < dt.price and (price > 0 or not payable):
                    out.append((train, dt, dt.name, price))
        return out

    def can_buy_train(self, entity) -> bool:
        bp = self.buying_power_for(entity)
        if self.room(entity):
            lo = self.game.depot.min_price(entity)
            if lo is not None and bp >= lo:
                return True
        if int(self.game.phase.name) == 8:
            return any(bp >= d[3] for d in self.discountable(entity, payable=False))
        return False

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        if self.must_buy_train(entity):
            return ["buy_train"]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def pass_(self):
        super().pass_()
        entity = self.current_entity()
        if entity is not None and not entity.trains:
            self.game.nationalize(entity)

    def traded_in(self, action: dict, entity, train):
        """The buyer's own train named as ``exchange`` (phase 8's trade-in discounts)."""
        if not action.get("exchange"):
            return None
        exchange = self.game.depot.train_by_id(action["exchange"])
        if exchange is None or exchange.owner is not entity:
            raise GameError(f"{entity.name} does not own {action['exchange']!r}", rule="not-owner")
        return exchange

    def check_buy(self, entity, train, price: int, purchase: Purchase | None = None) -> None:
        """A depot train at its price, less the trade-in's discount in phase 8 (the room check
        is waived for a trade-in); another company's train (not the national's in 1861) for at
        least 1. Cash is checked by :meth:`top_up`."""
        game = self.game
        exchange = purchase.exchange if purchase is not None else None
        if train.owner is game.depot:
            self.check_available(train)
            expected = train.price
            if exchange is not None:
                disc = train.spec.get("discount") or {}
                if exchange.name not in disc or int(game.phase.name) != 8:
                    raise GameError(f"{exchange.name} cannot be traded in for {train.name}", rule="no-trade-in")
                expected = train.price - disc[exchange.name]
                if expected <= 0:
                    raise GameError(f"a {exchange.name} is worth more than a {train.name}: nothing to pay",
                                    rule="no-trade-in")
            self.check_listed_price(train, price, expected)
            if exchange is None:
                self.check_room(entity)
        else:
            if (train.owner is None or not train.owner.is_corporation or train.owner is entity or not train.buyable
                    or not self.can_buy_from(train.owner)):
                raise GameError(f"train {train.id} is not for sale", rule="train-not-available")
            if price < 1:
                raise GameError("a train costs at least 1", rule="wrong-price")
            self.check_room(entity)

    def top_up(self, entity, purchase: Purchase) -> None:
        """A company that must buy takes loans for a depot train it cannot pay; else a
        shortfall is refused."""
        price = purchase.price
        if price > entity.cash:
            if self.must_buy_train(entity) and purchase.from_depot:
                take_loans_for(self.game, entity, price)
            else:
                raise GameError(f"{entity.name} has {entity.cash}, the train costs {price}", rule="insufficient-cash")
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot raise {price}", rule="insufficient-cash")

    def trade_in(self, entity, purchase: Purchase) -> None:
        """The train traded in goes back to the depot."""
        remove_train(self.game, purchase.exchange)
        self.game.depot.reclaim(purchase.exchange)

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """The reference checks "can it buy more?" twice, before and after the trainless
        nationalisations a new phase brings. When the purchase closed the buyer (a minor in
        phase 8), the next operator has started meanwhile: each pass then ends that
        operator's train buying (and nationalises it if it has no train)."""
        if not self.can_buy_train(entity):
            self.pass_()
        self.game.post_train_buy()
        if not self.can_buy_train(entity):
            self.pass_()

    def can_buy_from(self, owner) -> bool:
        return True

    def legal_actions(self, entity):
        acts = self.actions(entity)
        if "buy_train" not in acts:
            return []
        bp = self.buying_power_for(entity)
        out = []
        if self.room(entity):
            for t in self.game.depot.depot_trains():
                if t.price <= bp:
                    out.append({"type": "buy_train", "train": t.id, "price": t.price, "variant": t.name})
            # from another company at any price its cash covers (loans are only for depot
            # trains), also when it must buy one
            if entity.cash >= 1:
                for t in self.game.depot.other_trains(entity):
                    if self.can_buy_from(t.owner):
                        out.append(ranged({"type": "buy_train", "train": t.id}, 1, entity.cash))
        if int(self.game.phase.name) == 8:
            for old, dt, name, price in self.discountable(entity):
                if price <= bp:
                    out.append({"type": "buy_train", "train": dt.id, "price": price, "variant": name,
                                "exchange": old.id})
        if "pass" in acts:
            out.append({"type": "pass"})
        return [a for a in out if a["type"] != "buy_train" or not self.game.strands_a_trainless_major(a, entity)]
