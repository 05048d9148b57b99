"""1858's own steps: private auctions in the stock round, starting public companies by
exchanging a private railway, exchange approval, home tokens, track with gauge discounts,
tokens priced by distance, dividends with private revenue, wounded trains, issue/redeem and
the private closure round."""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from trackage.core.actions import amount
from trackage.core.trains import remove_train

from ...core.entities import ShareBundle
from ...core.errors import GameError
from ...core.money import spend
from ...core.round import Step, ranged
from ...core.shares import action_bundle
from ...core.steps.auction import AuctionMixin, Bids
from ...core.steps.choose import ChooseMixin
from ...core.steps.emergency import same_bundle
from ...core.steps.issue import IssueShares
from ...core.steps.operating import BuyTrain, DiscardTrain, Dividend, HomeToken, Purchase, RunRoutes
from ...core.steps.passing import Passing
from ...core.steps.stock import BuySellParShares
from ...core.steps.track import TrackAndTokenStep
from . import corporations, gauges, privates


# ---------------------------------------------------------------------------- stock round
class StockRound1858Step(AuctionMixin, BuySellParShares):
    """Buy/sell/par plus auctions of bank-owned private railways and 5->10 conversion."""

    HANDLERS: ClassVar[dict] = {**BuySellParShares.HANDLERS, "bid": "process_bid", "convert": "process_convert"}
    COMPANIES = False

    def round_state(self):
        return {**super().round_state(), "auction": None}

    # --- auction state (kept on the round so it survives step setup between turns)
    @property
    def auction(self) -> Bids | None:
        return self.round.auction

    @auction.setter
    def auction(self, bids: Bids | None) -> None:
        self.round.auction = bids

    def bidder(self):
        return self.auction.next_bidder() if self.auction else None

    def current_entity(self):
        if self.auction:
            return self.bidder()
        return self.round.current_entity_of_round()

    def active_entities(self):
        e = self.current_entity()
        return [e] if e is not None else []

    def description(self):
        return "Bid on a private railway" if self.auction else "Buy/Sell/Par"

    # --- availability
    def actions(self, entity):
        game = self.game
        if entity.is_corporation:
            player = self.round.current_entity_of_round()
            if self.auction or self.bought() or not self.can_convert(entity, player):
                return []
            return ["convert", "pass"]
        if entity is not self.current_entity():
            return []
        if self.auction:
            return ["bid", "pass"]
        if self.must_sell(entity):
            return ["sell_shares"]
        if self.bought():
            return []
        out = []
        if self.can_sell_any(entity):
            out.append("sell_shares")
        if any(self.can_convert(c, entity) for c in game.corporations):
            out.append("convert")
        if self.can_buy_any(entity) or self.can_exchange_any(entity):
            out.append("buy_shares")
        if self.can_ipo_any(entity):
            out.append("par")
        if self.can_bid_any(entity):
            out.append("bid")
        if out:
            out.append("pass")
        return out

    def bought(self) -> bool:
        return any(a["type"] in ("buy_shares", "par", "bid") for a in self.round.current_actions)

    def must_sell(self, entity) -> bool:
        return self.can_sell_any(entity) and self.game.num_certs(entity) > self.game.cert_limit(entity)

    def can_convert(self, corp, player) -> bool:
        return (corp.owner is player and player is not None and corp.type == "5-share" and corp.floated()
                and not self.bought())

    def can_ipo_any(self, entity) -> bool:
        return "public_companies" in self.game.phase.status and super().can_ipo_any(entity)

    def par_prices(self, entity, corp) -> list:
        return [p for p in self.game.par_prices(corp) if p.price * 2 <= entity.cash]

    def can_sell(self, entity, bundle) -> bool:
        if bundle is None or bundle.owner is not entity:
            return False
        if self.sold_now(entity, bundle.corporation) == "now":
            return False
        return super().can_sell(entity, bundle)

    def can_exchange_any(self, player) -> bool:
        game = self.game
        for c in player.companies:
            if game.company_starts_public(c) and game.turn > 1 and game.par_price(c).price <= player.cash \
                    and not all(x.ipoed for x in game.corporations):
                return True
        for m in game.minors:
            if m.owner is player and not m.closed and game.minor_exchanges_share(m):
                if any(c.num_ipo_shares() > 0 for c in game.corporations):
                    return True
        return False

    # --- auctions
    def auctionable(self):
        return self.game.buyable_bank_companies()

    def min_bid(self, company) -> int:
        a = self.auction
        top = a.highest() if a and a.item is company else None
        if top is not None:
            return top[1] + self.game.MIN_BID_INCREMENT
        return company.value - int(company.data.get("discount", 0))

    def max_bid(self, player, item=None) -> int:
        if self.game.num_certs(player) >= self.game.cert_limit(player):
            return 0
        return player.cash

    def can_bid_any(self, player) -> bool:
        return any(self.min_bid(c) <= player.cash for c in self.auctionable())

    def check_bid(self, entity, company, price):
        a = self.auction
        if a and a.item is not company:
            raise GameError(f"the auction is for {a.item.name}", rule="wrong-auction")
        if company not in self.auctionable():
            raise GameError(f"{company.name} cannot be auctioned now", rule="company-not-for-sale")
        super().check_bid(entity, company, price)

    def accept_bid(self, entity, company, price, action):
        entity.passed = False
        if self.auction is None:
            self.open_bidding(entity, company, price)
        else:
            self.place_bid(entity, price)

    def win_auction(self, winner):
        player, price, company = winner
        self.game.purchase_company(player, company, price)
        self.round.next_entity_index()
        self.round.current_actions = []

    def passing(self, entity) -> None:
        """A pass in an auction leaves it; otherwise the turn ends."""
        if self.auction:
            self.drop_bidder(entity)
            return
        self.pass_()

    def process_convert(self, action, entity):
        player = self.round.current_entity_of_round()
        if not entity.is_corporation or not self.can_convert(entity, player):
            raise GameError(f"{self.game.index.name(entity)} cannot convert now", rule="cannot-convert")
        corporations.convert(self.game, entity)

    def after_start(self, entity, corp) -> None:
        """The home token, if it can be placed now; a par ends the turn."""
        super().after_start(entity, corp)
        self.game.maybe_place_home_token(corp)
        self.pass_()

    def after_buy(self, entity, corp) -> None:
        """The home token, if it can be placed now."""
        super().after_buy(entity, corp)
        self.game.maybe_place_home_token(corp)

    def sale_stalls(self, entity, action) -> bool:
        """Would this sale close its company and leave the stock round stuck (see
        ``Game1858.move_on_after_closing``)? Tried on a copy, only near the closing cell."""
        game = self.game
        corp = action_bundle(game, action, priced=False).corporation
        # only a president's sale moves the price (one cell left): can it reach the closing cell?
        if corp.share_price is None or corp.owner is not entity:
            return False
        left = game.stock_market.cell(*game.stock_market.left_of(corp, corp.share_price.coordinates))
        if left is None or left.type != "close":
            return False
        trial = game.copy()
        trial.loading = False
        try:
            trial._apply({**action, **game.index.ref(entity), "id": len(game.actions) + 1})
        except GameError as e:
            return e.rule == "stock-round-stuck"
        return False

    # --- enumeration
    def acting_entities(self) -> list:
        cur = self.current_entity()
        out = [cur] if cur is not None else []
        if cur is not None and not self.auction and cur.is_player:
            out += [c for c in self.game.corporations if self.can_convert(c, cur)]
        return out

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if entity.is_corporation:
            return [{"type": "convert"}] if "convert" in acts else []
        if "bid" in acts:
            cos = [self.auction.item] if self.auction else self.auctionable()
            for c in cos:
                lo, hi = self.min_bid(c), self.max_bid(entity)
                if lo <= hi:
                    out.append(ranged({"type": "bid", "company": c.sym}, lo, hi, self.game.MIN_BID_INCREMENT))
        if not self.auction:
            out.extend(a for a in super().legal_actions(entity)
                       if a["type"] != "pass" and not (a["type"] == "sell_shares" and self.sale_stalls(entity, a)))
        if "pass" in acts:
            out.append({"type": "pass"})
        return out


class Exchange1858(Step):
    """A player's private railway (company or minor) exchanged for a share: the 40%
    certificate starts the company, a treasury share of a running company needs approval
    unless the same player is its president."""

    HANDLERS: ClassVar[dict] = {"buy_shares": "process_buy_shares"}
    BLOCKS = False

    def actions(self, entity):
        if entity.is_company or entity.is_minor:
            return ["buy_shares"]
        return []

    def active(self):
        return True

    def process_buy_shares(self, action, entity):
        game = self.game
        bundle = action_bundle(game, action, priced=False)
        corp = bundle.corporation
        player = entity.owner
        if player is None or not player.is_player or player is not self.round.current_entity_of_round():
            raise GameError(f"{game.index.name(entity)} is not owned by the player in turn", rule="out-of-turn")
        if not corp.floated() and not bundle.shares[0].president:
            raise GameError("cannot exchange a private railway for a single share of an unstarted company",
                            rule="bad-exchange")
        if bundle.percent == 40 and bundle.shares[0].president:
            if entity.is_minor or not game.company_starts_public(entity):
                raise GameError(f"{entity.name} cannot start a public company", rule="bad-exchange")
            if game.turn == 1 or corp.ipoed:
                raise GameError(f"{corp.name} cannot be started now", rule="cannot-par")
            sp = game.par_price(entity)
            if sp.price > player.cash:
                raise GameError(f"{player.name} cannot pay {sp.price}", rule="insufficient-cash")
            privates.acquire_private(game, corp, entity)
            game.stock_market.set_par(corp, sp)
            self.round.players_bought.setdefault(player, {})
            game.exchange_buy(player, bundle, sp.price)
            game.maybe_place_home_token(corp)
            self.round.current_actions.append({"type": "buy_shares", "_corp": corp})
            self.round.last_to_act = player
        else:
            if entity.is_company:
                # 18xx.games offers this exchange through the private's minor only
                if not game.loading:
                    raise GameError(f"{entity.name} exchanges for a share through its minor", rule="bad-exchange")
                entity = game.private_minor(entity)
            if bundle.owner is not corp:
                raise GameError("exchanges are for treasury shares", rule="bad-exchange")
            if corp.owner is player:
                privates.exchange_for_share(game, self.round, bundle, corp, entity, player, True)
                self.round.current_actions.append({"type": "exchange", "_corp": corp})
            else:
                # the reference checks the connection only on approval (an unconnected
                # request could only be denied); here it is refused at once
                if not game.loading and not gauges.corporation_private_connected(game, corp, entity):
                    raise GameError(f"{entity.name} is not connected to {corp.name}", rule="not-connected")
                self.round.pending_approval = corp
                self.round.approval_minor = entity

    def acting_entities(self) -> list:
        player = self.round.current_entity_of_round()
        if player is None or not player.is_player:
            return []
        return list(player.companies) + [m for m in self.game.minors if m.owner is player and not m.closed]

    def legal_actions(self, entity):
        game = self.game
        player = entity.owner
        if player is None or not player.is_player or player is not self.round.current_entity_of_round():
            return []
        sr = next((s for s in self.round.steps if isinstance(s, StockRound1858Step)), None)
        if sr is None or sr.bought() or sr.auction or self.round.pending_tokens or self.round.pending_approval:
            return []
        out = []
        if entity.is_company and game.company_starts_public(entity) and game.turn > 1:
            if game.par_price(entity).price <= player.cash and privates.company_reservation_available(game, entity):
                for c in game.corporations:
                    if not c.ipoed and not c.closed:
                        out.append({"type": "buy_shares", "shares": [c.shares[0].id], "percent": 40})
        if entity.is_minor and not entity.closed and game.minor_exchanges_share(entity):
            for c in game.corporations:
                own = [s for s in c.shares_of(c) if not s.president]
                if c.floated() and own and gauges.corporation_private_connected(game, c, entity):
                    out.append({"type": "buy_shares", "shares": [own[0].id], "percent": own[0].percent})
        return out


class ExchangeApproval1858(ChooseMixin, Step):
    """The president of a company approves or denies a request to exchange a private
    railway for one of its treasury shares."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose"}

    def round_state(self):
        return {"pending_approval": None, "approval_minor": None, "approvals": {}}

    def active(self):
        return self.round.pending_approval is not None

    def current_entity(self):
        return self.round.pending_approval

    def active_entities(self):
        corp = self.round.pending_approval
        if corp is None:
            return []
        return [corp] if self.game.private_closure_round == "in_progress" else [corp.owner]

    def actions(self, entity):
        return ["choose"] if entity is self.round.pending_approval else []

    def choices(self, entity) -> tuple[str, ...]:
        return ("approve", "deny")

    def choose(self, entity, choice) -> None:
        """Approved, the private is exchanged for a treasury share; denied in the private
        closure round, the company is not asked again."""
        game = self.game
        corp = self.round.pending_approval
        minor = self.round.approval_minor
        in_pcr = game.private_closure_round == "in_progress"
        if choice == "approve":
            share = corp.shares_of(corp)[0]
            privates.exchange_for_share(game, self.round, ShareBundle([share]), corp, minor, minor.owner, True)
            if in_pcr:
                privates.close_private(game, minor)
            else:
                self.round.current_actions.append({"type": "exchange", "_corp": corp})
        elif in_pcr:
            self.round.approvals[corp] = "denied"
        self.round.pending_approval = None

    def legal_actions(self, entity):
        if entity is not self.round.pending_approval:
            return []
        return [{"type": "choose", "choice": "approve"}, {"type": "choose", "choice": "deny"}]


class HomeToken1858(HomeToken, Passing):
    """A company started from a private places its home token in one of the private's
    reserved cities (free); one started directly pays twice the city's revenue."""

    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass"}

    def active_entities(self):
        p = self.pending()
        return [p["entity"].owner] if p else []

    def actions(self, entity):
        p = self.pending()
        if not p or entity is not p["entity"]:
            return []
        if any(t.used and t.city is not None for t in entity.tokens):
            return ["place_token", "pass"]
        return ["place_token"]

    def process_place_token(self, action, entity):
        game = self.game
        p = self.pending()
        city = game.board.city_by_id(action.get("city"))
        if city is None or city.hex not in p["hexes"]:
            raise GameError(f"cannot place the home token in {action.get('city')!r}", rule="bad-home-token")
        if p.get("cities") is not None and city not in p["cities"]:
            raise GameError(f"{entity.name} cannot place a token in {city.id}", rule="bad-home-token")
        token = p["token"]
        if not entity.companies and not any(t.used and t.city is not None for t in entity.tokens):
            color = city.tile.color
            token.price = 0 if color == "white" else 2 * city.revenue_for([color])
        else:
            token.price = 0
        if token.price > 0 and entity.cash < token.price:
            raise GameError(f"{entity.name} cannot pay {token.price} for its home token", rule="insufficient-cash")
        if any(game.board.tokened_by(c, entity) for c in city.tile.cities):
            raise GameError(f"{entity.name} already has a token on {city.hex.id}", rule="token-same-hex")
        game.board.place_city_token(city, entity, token, free=True, check_tokenable=not game.loading)
        if token.price > 0:
            spend(entity, game.bank, token.price)
        self.round.pending_tokens.pop(0)
        game.delete_reservations(entity, city)
        game.graph_changed()

    def passing(self, entity) -> None:
        """A company that already has a token leaves its home token unplaced: the pending
        token goes and so do its reservations."""
        self.round.pending_tokens.pop(0)
        self.game.delete_reservations(entity)

    def legal_actions(self, entity):
        p = self.pending()
        if not p or entity is not p["entity"]:
            return []
        cities = p.get("cities")
        board = self.game.board
        if cities is None:
            cities = [c for h in p["hexes"] for c in board.tile(h).cities]
        out = []
        for c in cities:
            if board.tokenable(c, entity, free=True, tokens=[p["token"]]):
                if not entity.companies and not any(t.used and t.city is not None for t in entity.tokens):
                    color = c.tile.color
                    cost = 0 if color == "white" else 2 * c.revenue_for([color])
                    if cost > entity.cash:
                        continue
                out.append({"type": "place_token", "city": c.id, "slot": board.get_slot(c, entity) or 0})
        if "pass" in self.actions(entity):
            out.append({"type": "pass"})
        return out


# ---------------------------------------------------------------------------- operating round
class Track1858(TrackAndTokenStep):
    """Two lays (second for 20, not the same hex); minors lay yellow only. A second lay
    that only adds metre gauge costs 10 less; terrain for metre-only upgrades is halved."""

    WITH_TOKEN = False

    def round_state(self):
        return {**super().round_state(), "gauges_added": []}

    def setup(self):
        super().setup()
        self.round.gauges_added = []

    def description(self):
        return "Lay Track"

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if self.tile_lay(entity) is None:
            return []
        return ["lay_tile", "pass"]

    def can_lay_tile(self, entity) -> bool:
        return self.tile_lay(entity) is not None

    def is_upgrade(self, old_tile, new_tile) -> bool:
        return old_tile.color != "white"

    def spender(self, entity):
        return entity.owner if entity.is_minor else entity

    def buying_power(self, entity) -> int:
        if entity.is_minor:
            return entity.owner.cash
        return entity.cash + (entity.owner.cash if entity.owner is not None and entity.owner.is_player else 0)

    def check_lay(self, entity, hex_, old_tile, tile, rotation) -> None:
        game = self.game
        if not game.loading:
            gauges.check_track_lay(game, entity, hex_, old_tile, tile, rotation, self.round)
        self.round.gauges_added.append(game.new_track_gauge(old_tile, tile))

    def pay(self, entity, cost: int):
        game = self.game
        ga = self.round.gauges_added
        if len(ga) != 1 and ["narrow"] in ga:
            cost -= 10
        payer = self.spender(entity)
        if cost <= 0:
            return
        if payer.is_corporation and cost > payer.cash:
            president = payer.owner
            short = cost - payer.cash
            if president is None or short > president.cash:
                raise GameError(f"the tile lay costs {cost}; {payer.name} and its president cannot pay it",
                                rule="insufficient-cash")
            spend(president, payer, short)
        spend(payer, game.bank, cost)

    def after_lay(self, entity, hex_, old_tile, tile) -> None:
        gauges.after_lay(self.game, entity, hex_, old_tile, tile)

    def process_lay_tile(self, action, entity):
        super().process_lay_tile(action, entity)
        if self.tile_lay(entity) is None:
            self.pass_()

    def legal_actions(self, entity):
        if entity is not self.current_entity():
            return []
        out = []
        lay = self.tile_lay(entity)
        if lay is not None:
            for cand in gauges.legal_tile_lays_1858(self.game, entity, lay, self.round):
                out.append({"type": "lay_tile", **cand})
        out.append({"type": "pass"})
        return out


class Token1858(Step):
    """One token per turn; the price grows with the provincial borders to the nearest
    own token. While replaying, the logged cost is the price (and ours is compared)."""

    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass"}

    def description(self):
        return "Place a Token"

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        if not any(not t.used for t in entity.tokens if t.type == "normal"):
            return []
        return ["place_token", "pass"]

    def process_place_token(self, action, entity):
        game = self.game
        city = game.board.city_by_id(action.get("city"))
        if city is None:
            raise GameError(f"unknown city {action.get('city')!r}", rule="unknown-city")
        token = next((t for t in entity.tokens if not t.used and t.type == "normal"), None)
        if token is None:
            raise GameError(f"{entity.name} has no token left", rule="no-tokens")
        ours = game.token_cost(entity, city)
        cost = amount(action, "cost", None)
        if cost is None or not game.loading:
            if cost is not None and cost != ours:
                raise GameError(f"a token in {city.id} costs {ours}, not {cost}", rule="wrong-price")
            cost = ours
        elif cost != ours:
            game.warnings.append(f"action {action.get('id')}: token cost {ours}, log says {cost}")
        cost = int(cost)  # a whole number (trackage.core.actions.amount)
        if not game.loading and not game.token_connected(entity, city):
            raise GameError(f"{city.id} is not connected to {entity.name}", rule="token-not-connected")
        if cost > entity.cash:
            raise GameError(f"{entity.name} cannot pay {cost} for a token", rule="insufficient-cash")
        token.price = cost
        if any(game.board.tokened_by(c, entity) for c in city.tile.cities):
            raise GameError(f"{entity.name} already has a token on {city.hex.id}", rule="token-same-hex")
        game.board.place_city_token(city, entity, token, free=True, check_tokenable=not game.loading)
        if cost > 0:
            spend(entity, game.bank, cost)
        game.graph_changed()
        self.pass_()

    def legal_actions(self, entity):
        if "place_token" not in self.actions(entity):
            return []
        out = []
        for city in self.game.tokenable_cities_1858(entity):
            cost = self.game.token_cost(entity, city)
            if cost <= entity.cash:
                out.append({"type": "place_token", "city": city.id, "slot": self.game.board.get_slot(city, entity) or 0,
                            "cost": cost})
        out.append({"type": "pass"})
        return out


class Route1858(RunRoutes):
    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        if not self.game.route_trains(entity):
            return []
        return ["run_routes"]


class Dividend1858(Dividend):
    KINDS = ("payout", "half", "withhold")

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        if self.total_revenue() == 0:
            return []
        return ["dividend"]

    def total_revenue(self) -> int:
        return super().total_revenue() + privates.private_revenue(self.game, self.current_entity())

    def skip(self):
        e = self.current_entity()
        if e is not None and e.is_corporation:
            self.do_dividend(e, "withhold")
        else:
            self.pass_()

    def payout_amounts(self, entity, kind, revenue):
        n = entity.total_shares
        if kind == "withhold":
            return revenue, 0
        base = revenue // 2 if kind == "half" else revenue
        per = base // n
        return revenue - per * n, per * n

    def rust_obsolete(self, entity):
        pass

    def move_price(self, entity, revenue, kept, paid):
        if entity.share_price is None:
            return
        per = paid // entity.total_shares
        if paid == 0:
            self.game.stock_market.move_left(entity)
        elif per * 10 >= entity.share_price.price:
            self.game.stock_market.move_right(entity)

    def after_dividend(self, entity):
        privates.close_companies_of(self.game, entity)


class DiscardTrain1858(DiscardTrain):
    UNDISCARDABLE_RULE = "not-owner"

    def crowded(self) -> list:
        g = self.game
        out = [c for c in g.corporations if g.num_corp_trains(c) > g.train_limit(c)]
        return sorted(out, key=g.market_order_key)

    def discard_key(self, train) -> Hashable:
        """An obsolete train is another choice than a live one of the same name."""
        return (train.name, train.obsolete)

    def discard(self, entity, train) -> None:
        """An obsolete train leaves the game rather than going to the pool."""
        obsolete = train.obsolete
        super().discard(entity, train)
        if obsolete:
            self.game.forget_train(train)


class BuyTrain1858(BuyTrain):
    """Voluntary purchases; a trainless company may issue shares first and its president
    tops up a depot purchase; wounded trains can be scrapped; passing without any train
    drops the price."""

    HANDLERS: ClassVar[dict] = {**BuyTrain.HANDLERS, "scrap_train": "process_scrap_train",
                                "sell_shares": "process_sell_shares"}

    def round_state(self):
        return {"last_issue_price": None}

    def setup(self):
        self.round.last_issue_price = None

    def room(self, entity) -> bool:
        return self.game.num_corp_trains(entity) < self.game.train_limit(entity)

    def can_buy_train(self, entity) -> bool:
        if not self.room(entity):
            return False
        lo = self.game.min_train_price(entity)
        return lo is not None and entity.cash >= lo

    def can_scrap(self, entity) -> bool:
        return any(t.obsolete for t in entity.trains)

    def ebuy_can_issue(self, entity) -> bool:
        g = self.game
        if not self.can_buy_train(entity):
            return False
        bundles = corporations.emergency_issuable_bundles(g, entity)
        if not bundles:
            return False
        owner_cash = entity.owner.cash if entity.owner is not None else 0
        return g.min_depot_price() <= entity.cash + owner_cash + max(b.price() for b in bundles)

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        out = []
        if self.ebuy_can_issue(entity):
            out.append("sell_shares")
        if self.can_buy_train(entity):
            out.append("buy_train")
        if self.can_scrap(entity):
            out.append("scrap_train")
        if out:
            out.append("pass")
        return out

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

    def check_buy(self, entity, train, price: int, purchase: Purchase | None = None) -> None:
        """The depot's price is the title's (:meth:`Game1858.train_price`: private railways'
        discounts); another company's train costs 1 up to the buyer's cash. After issuing
        shares a trainless company must buy from the depot, having issued no more than needed;
        its president may add what it lacks for a depot train."""
        g = self.game
        self.check_room(entity)
        if train.owner is g.depot:
            self.check_available(train)
            self.check_listed_price(train, price, g.train_price(train, entity))
        else:
            if train not in g.other_trains(entity):
                raise GameError(f"train {train.id} is not for sale", rule="train-not-available")
            if price < 1 or price > entity.cash:
                raise GameError(f"{entity.name} may spend between 1 and {entity.cash}", rule="wrong-price")
        if self.round.last_issue_price is not None and g.trainless(entity):
            if train.owner is not g.depot:
                raise GameError("must buy a train from the depot after issuing shares", rule="must-buy-depot")
            if entity.cash - self.round.last_issue_price > price:
                raise GameError("more shares issued than needed", rule="issued-too-many")
        if price > entity.cash:
            president = entity.owner
            if not (g.trainless(entity) and train.owner is g.depot and president is not None
                    and president.cash >= price - entity.cash):
                raise GameError(f"{entity.name} has {entity.cash}, the train costs {price}",
                                rule="insufficient-cash")

    def chosen_variant(self, action: dict, train) -> str | None:
        """A depot train is always bought as a variant: the named one, else its base."""
        return (action.get("variant") or train.base) if train.owner is self.game.depot else None

    def top_up(self, entity, purchase: Purchase) -> None:
        """The president adds what a trainless company lacks (checked in :meth:`check_buy`)."""
        if purchase.price > entity.cash:
            spend(entity.owner, entity, purchase.price - entity.cash)

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
        if (self.round.last_issue_price is not None and entity is not None and g.trainless(entity)
                and not closing and self.acted):
            raise GameError("must buy a train from the depot after issuing shares", rule="must-buy-depot")
        super().pass_()
        self.round.last_issue_price = None
        if entity is None or not entity.is_corporation or closing:
            return
        if g.trainless(entity):
            g.stock_market.move_left(entity)

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        g = self.game
        issued = self.round.last_issue_price
        must_buy = issued is not None and g.trainless(entity)
        if "buy_train" in acts:
            help_ = entity.owner.cash if g.trainless(entity) and entity.owner is not None else 0
            for t in g.depot.depot_trains():
                for vname in t.variants:
                    price = g.train_price(t, entity, vname)
                    if price > entity.cash + help_ or (must_buy and entity.cash - issued > price):
                        continue
                    if self.buyable_variant(entity, t, vname):
                        out.append({"type": "buy_train", "train": t.id, "price": price, "variant": vname})
            if not must_buy and entity.cash >= 1:
                for t in g.other_trains(entity):
                    out.append({"type": "buy_train", "train": t.id, "price": 1, "price_range": [1, entity.cash],
                                "price_step": 1})
        if "sell_shares" in acts:
            help_ = entity.owner.cash if entity.owner is not None else 0
            prices = [g.train_price(t, entity, v) for t in g.depot.depot_trains() for v in t.variants]
            for b in corporations.emergency_issuable_bundles(g, entity):
                after, pps = entity.cash + b.price(), b.price_per_share()
                if any(after - pps <= p <= after + help_ for p in prices):
                    out.append({"type": "sell_shares", "shares": [s.id for s in b.shares], "percent": b.percent})
        if "scrap_train" in acts:
            for t in entity.trains:
                if t.obsolete:
                    out.append({"type": "scrap_train", "train": t.id})
        if "pass" in acts and not (must_buy and any(a["type"] == "buy_train" for a in out)):
            out.append({"type": "pass"})
        return out

    def buyable_variant(self, entity, train, variant) -> bool:
        return True


class IssueShares1858(IssueShares):
    def issuable(self, entity):
        """Nothing in a company's first operating turn."""
        if len(entity.operating_history) == 1:
            return []
        return super().issuable(entity)


# ---------------------------------------------------------------------------- closure round
class PrivateClosure1858(Passing):
    """Each remaining private railway is exchanged for a share of a connected company, or
    closes (its owner receives its face value)."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose", "pass": "process_pass"}

    def setup(self):
        minor = self.current_entity()
        self.round.approval_minor = minor
        self.round.approvals = {}
        if minor is None:
            return
        for c in self.game.corporations:
            if c.floated():
                self.round.approvals[c] = "approved" if c.owner is minor.owner else "pending"

    def active(self):
        return not self.passed

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        return ["choose", "pass"]

    def description(self):
        return "Exchange Private Companies"

    def exchange_corporations(self, minor):
        g = self.game
        return [c for c in g.corporations if gauges.corporation_private_connected(g, c, minor)
                and (c.num_ipo_shares() > 0 or c.num_market_shares(g.pool) > 0)]

    def choices(self, minor):
        g = self.game
        out = []
        for c in self.exchange_corporations(minor):
            if c.num_ipo_shares() > 0:
                out.append({"corporation": c.id, "from": "treasury"})
            if c.num_market_shares(g.pool) == 0:
                continue
            if c.num_ipo_shares() > 0 and self.round.approvals.get(c) != "denied" and c.owner is not minor.owner:
                continue
            out.append({"corporation": c.id, "from": "market"})
        return out

    def passing(self, entity) -> None:
        """The private railway is not exchanged: it closes (its owner is paid its value)."""
        privates.close_private(self.game, entity)

    def process_choose(self, action, entity):
        g = self.game
        choice = action.get("choice") or {}
        if not isinstance(choice, dict):
            raise GameError("choose a company and a share location", rule="bad-choice")
        corp = g.corporation_by_id(choice.get("corporation"))
        where = choice.get("from")
        if corp is None or where not in ("treasury", "market"):
            raise GameError("choose a company and treasury or market", rule="bad-choice")
        if not g.loading and choice not in self.choices(entity):
            raise GameError(f"{entity.name} cannot be exchanged for a {corp.name} {where} share", rule="bad-exchange")
        company = g.private_company(entity)
        player = company.owner
        approval = self.round.approvals.get(corp)
        if where == "market" and corp.num_ipo_shares() > 0 and approval == "pending":
            raise GameError("ask for a treasury share first", rule="approval-needed")
        if where == "treasury" and approval != "approved":
            self.round.pending_approval = corp
            return
        share = corp.shares_of(corp)[0] if where == "treasury" else g.pool.shares_of(corp)[0]
        treasury = where == "treasury"
        privates.exchange_for_share(g, self.round, ShareBundle([share]), corp, entity, player, treasury)
        if not treasury:
            if company in player.companies:
                player.companies.remove(company)
            company.owner = g.bank
        privates.close_private(g, company)

    def legal_actions(self, entity):
        if entity is not self.current_entity():
            return []
        return [{"type": "choose", "choice": c} for c in self.choices(entity)] + [{"type": "pass"}]
