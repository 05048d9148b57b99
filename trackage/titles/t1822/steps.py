"""1822's steps: bid boxes in the stock round, the P9 choice, and the operating-round steps."""

from __future__ import annotations

from typing import ClassVar

from trackage.core.steps.track import tokenable_cities

from ...core.entities import ShareBundle
from ...core.errors import GameError
from ...core.money import spend
from ...core.round import Step, ranged
from ...core.shares import action_bundle, bundle_from_ids
from ...core.steps.auction import AuctionMixin, Bids
from ...core.steps.buy_train import BuyTrain, Purchase
from ...core.steps.choose import ChooseMixin
from ...core.steps.emergency import EmergencyBuyTrain
from ...core.steps.issue import IssueShares
from ...core.steps.operating import DiscardTrain, Dividend, HomeToken, RunRoutes
from ...core.steps.passing import Passing
from ...core.steps.stock import BuySellParShares
from ...core.steps.track import TrackAndTokenStep
from . import acquisitions, destinations, layeffects, loans, privatelays, taxhaven


# ---------------------------------------------------------------------------- stock round
class DiscardTrain1822(DiscardTrain):
    def crowded(self):
        return [c for c in self.game.corporations if self.game.crowded_corp(c)]

    def discardable(self, entity) -> list:
        """Two permanents (2P/LP) or two Pullmans: one of those goes; else a normal train."""
        trains = entity.trains
        perm = [t for t in trains if t.name in ("2P", "LP")]
        if len(perm) > 1:
            return perm
        pullman = [t for t in trains if t.name == "P+"]
        if len(pullman) > 1:
            return pullman
        return [t for t in trains if t.name not in ("2P", "LP", "P+")]


class BuySellParShares1822(AuctionMixin, BuySellParShares):
    """Bids in the bid boxes (committed until the round ends), one par or purchase per turn."""

    HANDLERS: ClassVar[dict] = {
        **BuySellParShares.HANDLERS, "bid": "process_bid", "choose_ability": "process_choose_ability",
        "payoff_player_debt": "process_payoff_player_debt",
        "payoff_player_debt_partial": "process_payoff_player_debt_partial",
    }
    COMPANIES = False
    PRICE_REQUIRED = True
    BID_INCREMENT_MESSAGE: ClassVar[str] = "bids rise in multiples of {step}"

    def process_payoff_player_debt(self, action, entity):
        loans.payoff_player_loan(self.game, entity)
        self.round.last_to_act = entity
        self.round.current_actions.append({"type": action["type"], "_corp": None})

    def process_payoff_player_debt_partial(self, action, entity):
        amount = action.get("amount")
        if amount is None:
            raise GameError("a partial payoff needs an amount", rule="malformed-action")
        loans.payoff_player_loan(self.game, entity, amount)
        self.round.last_to_act = entity
        self.round.current_actions.append({"type": action["type"], "_corp": None})

    def setup(self):
        super().setup()
        self.bid_actions = 0

    def description(self):
        return "Bid, convert concession or buy/sell shares"

    @property
    def bids(self) -> dict[object, Bids]:
        """The bids in each bid box (kept on the round): company -> :class:`Bids`."""
        return self.round.bids

    # ------------------------------------------------------------ bids
    def highest(self, company):
        bids = self.bids.get(company)
        return bids.highest() if bids else None

    def committed_bids(self, player):
        out = []
        for company in self.bids:
            hb = self.highest(company)
            if hb and hb[0] is player:
                out.append(hb)
        return out

    def committed_cash(self, player) -> int:
        return sum(b[1] for b in self.committed_bids(player))

    def available_cash(self, player) -> int:
        return player.cash - self.committed_cash(player)

    def bidding_tokens(self, player) -> int:
        used = sum(1 for bids in self.bids.values() if bids.bid_of(player))
        return self.game.bidding_tokens - used

    def find_bid(self, player, company):
        bids = self.bids.get(company)
        return bids.bid_of(player) if bids else None

    def min_bid(self, company) -> int:
        hb = self.highest(company)
        return hb[1] + self.game.MIN_BID_INCREMENT if hb else company.min_price

    def num_certs_with_bids(self, player) -> int:
        return self.game.num_certs(player) + len(self.committed_bids(player))

    def can_bid_company(self, player, company) -> bool:
        if self.num_certs_with_bids(player) >= self.game.cert_limit():
            return False
        if self.available_cash(player) < self.min_bid(company):
            return False
        hb = self.highest(company)
        if hb and hb[0] is player:
            return False
        return bool(self.find_bid(player, company)) or self.bidding_tokens(player) > 0

    def max_bid(self, entity, item) -> int:
        return self.available_cash(entity)

    def bid_item(self, action, entity):
        company = super().bid_item(action, entity)
        if company not in self.game.bidbox_items():
            raise GameError(f"{company.name} is not in a bid box", rule="not-for-auction")
        return company

    def check_bid(self, entity, company, price):
        """The price, then a bid raises another player's, with a bidding token, within the
        certificate limit counting winning bids."""
        super().check_bid(entity, company, price)
        hb = self.highest(company)
        if hb and hb[0] is entity:
            raise GameError(f"{entity.name} already has the highest bid on {company.name}", rule="already-winning")
        if not self.find_bid(entity, company) and self.bidding_tokens(entity) <= 0:
            raise GameError(f"{entity.name} has no bidding tokens left", rule="no-bidding-tokens")
        if self.num_certs_with_bids(entity) >= self.game.cert_limit():
            raise GameError("over the certificate limit with bids", rule="certificate-limit")

    def accept_bid(self, entity, company, price, action):
        """The bid stays in the box until the round ends; BIDS_PER_TURN bids end the turn."""
        self.game.nothing_sold_in_sr = False
        entity.passed = False
        bids = self.bids.get(company)
        if bids is None:
            bids = self.bids[company] = Bids(company)
        bids.place(entity, price)
        self._track(action, entity, company)
        self.bid_actions += 1
        if self.bid_actions >= self.game.BIDS_PER_TURN:
            self.pass_()

    # ------------------------------------------------------------ availability
    def actions(self, entity):
        if entity.is_company:
            return ["choose_ability"] if self.choices_ability(entity) else []
        if entity is not self.current_entity():
            return []
        if self.must_sell(entity):
            return ["sell_shares"]
        debt = self.game.player_debt.get(entity, 0)
        out = []
        if self.bid_actions == 0 and not debt and self.can_buy_any(entity):
            out.append("buy_shares")
        if self.bid_actions == 0 and not debt and self.can_ipo_any(entity):
            out.append("par")
        if self.can_sell_any(entity):
            out.append("sell_shares")
        if not debt:
            out.append("bid")
        if debt and entity.cash > 0:
            out += ["payoff_player_debt", "payoff_player_debt_partial"]
        if out:
            out.append("pass")
        return out

    def must_sell(self, entity) -> bool:
        return self.can_sell_any(entity) and self.game.num_certs(entity) > self.game.cert_limit()

    def can_gain(self, entity, bundle, exchange=False) -> bool:
        corp = bundle.corporation
        if bundle.owner.is_player:
            return False
        counts = corp.share_price is None or corp.share_price.counts_for_limit()
        return corp.holding_ok(entity, bundle.percent) and (
            not counts or exchange or self.num_certs_with_bids(entity) < self.game.cert_limit())

    def can_buy(self, entity, bundle, cash=None) -> bool:
        if bundle is None or not all(s.buyable for s in bundle.shares) or bundle.owner is entity:
            return False
        corp = bundle.corporation
        if corp.type != "major":
            return False
        exchange = bundle.presidents_share is not None and "can_convert_concessions" in self.game.phase.status
        cash = self.available_cash(entity) if cash is None else cash
        if cash < bundle.price() or self.sold_now(entity, corp):
            return False
        if self.bought() and not self.can_buy_multiple(entity, corp):
            return False
        return self.can_gain(entity, bundle, exchange=exchange)

    def available_par_cash(self, entity, corp, share_price=None) -> int:
        cash = self.available_cash(entity)
        if corp.par_via_exchange is not None:
            if share_price is not None and corp.id == "LNWR":
                cash += share_price.price
            else:
                cash += corp.par_via_exchange.value
        return cash

    def can_ipo_any(self, entity) -> bool:
        if self.bought():
            return False
        for corp in self.game.corporations:
            if corp.type != "major" or not self.game.can_par(corp, entity):
                continue
            if self.can_buy(entity, ShareBundle([corp.shares[0]]), cash=self.available_par_cash(entity, corp)):
                return True
        return False

    def par_prices(self, entity, corp) -> list:
        mult = corp.shares[0].percent // 10
        cash = self.available_par_cash(entity, corp)
        return [p for p in self.game.stock_market.par_prices if "par_1" in p.types and p.price * mult <= cash]

    def can_par_corp(self, entity, corp) -> bool:
        return (corp.type == "major" and self.game.can_par(corp, entity) and bool(self.par_prices(entity, corp))
                and self.can_buy(entity, ShareBundle([corp.shares[0]]), cash=self.available_par_cash(entity, corp)))

    def can_sell_order(self) -> bool:
        return not self.bought()

    def can_dump(self, entity, bundle) -> bool:
        return self.game.can_dump_1822(entity, bundle)

    # ------------------------------------------------------------ processing
    def check_buy_shares(self, entity, bundle: ShareBundle) -> None:
        """A corporation redeems in its operating turn; no purchase after a bid; then the core's."""
        if entity is bundle.corporation:
            raise GameError("a corporation redeems in its operating turn", rule="no-such-action-now")
        if self.bid_actions:
            raise GameError("cannot buy shares after bidding this turn", rule="one-purchase-per-turn")
        super().check_buy_shares(entity, bundle)

    def after_buy(self, entity, corp) -> None:
        """A purchase ends the turn."""
        super().after_buy(entity, corp)
        self.pass_()

    def check_par(self, entity, corp, share_price) -> None:
        """One par or purchase per turn and none after bidding; a major at a ``par_1`` price.
        Started with its concession: the concession's owner, who can pay what the par price
        exceeds the concession's value by; without it: only from the ``can_par`` phase, paid
        in full (from the cash not committed to bids)."""
        game = self.game
        if self.bid_actions or self.bought():
            raise GameError("only one purchase per turn, and none after bidding", rule="one-purchase-per-turn")
        if not game.can_par(corp, entity):
            raise GameError(f"{corp.name} can't be parred", rule="cannot-par")
        if "par_1" not in share_price.types:
            raise GameError(f"{share_price.price} is not a par price for majors", rule="bad-par-price")
        bundle = self.par_bundle(corp)
        conc = corp.par_via_exchange
        if conc is not None:
            if conc.owner is not entity:
                raise GameError(f"{entity.name} does not own {conc.name}", rule="not-owner")
            if not self.can_buy(entity, bundle, cash=self.available_par_cash(entity, corp)):
                raise GameError(f"Can't buy a share of {corp.name}", rule="insufficient-cash")
            ex_price = self.exchange_price(corp, share_price, bundle)
            if ex_price and ex_price > self.available_cash(entity):
                raise GameError(f"{entity.name} cannot afford {ex_price}", rule="insufficient-cash")
        else:
            if "can_par" not in game.phase.status:
                raise GameError(f"{corp.name} needs its concession to start now", rule="cannot-par")
            if not self.can_buy(entity, bundle, cash=self.available_cash(entity)) or \
                    share_price.price * bundle.percent // 10 > self.available_cash(entity):
                raise GameError(f"{entity.name} cannot start {corp.name}", rule="insufficient-cash")

    def exchange_price(self, corp, share_price, bundle: ShareBundle) -> int | None:
        """What a player starting ``corp`` with its concession pays: the par price of the
        certificate less the concession's value (None when the concession covers it)."""
        conc = corp.par_via_exchange
        ex_price = share_price.price * (bundle.percent // 10) - conc.value
        return None if ex_price < 0 else ex_price

    def check_par_purchase(self, entity, corp, share_price, bundle: ShareBundle) -> None:
        """Checked in :meth:`check_par`."""

    def take_par_shares(self, entity, corp, share_price, bundle: ShareBundle) -> None:
        """With its concession the player pays the company what the par price exceeds the
        concession's value by, the bank pays the company the rest (or the whole par price when
        the concession covers it), and the concession closes; without it, as any purchase."""
        game = self.game
        conc = corp.par_via_exchange
        if conc is None:
            super().take_par_shares(entity, corp, share_price, bundle)
            return
        ex_price = self.exchange_price(corp, share_price, bundle)
        corp.ipoed = True
        floated = corp.floated()
        game.share_market.transfer(bundle, entity, spender=entity, receiver=corp, price=ex_price or 0)
        if corp.floatable and floated != corp.floated():
            game.float_corporation(corp)
        spend(game.bank, corp, conc.value if ex_price else share_price.price)
        conc.close()

    def after_start(self, entity, corp) -> None:
        """A par ends the turn."""
        super().after_start(entity, corp)
        self.pass_()

    def check_sale(self, entity, bundle: ShareBundle) -> None:
        if bundle.corporation is entity:
            raise GameError("a corporation issues in its operating turn", rule="no-such-action-now")
        if bundle.owner is entity:
            self.game.check_sale_presidency(bundle)
        super().check_sale(entity, bundle)

    # ------------------------------------------------------------ company choices (tax haven)
    def choices_ability(self, company) -> dict:
        choices = self.game.company_choices(company, "stock_round")
        if choices and company.sym == "P16":
            owner = company.owner
            if owner is not self.current_entity() and False:
                return {}
            if self.bid_actions > 0 or self.game.player_debt.get(owner, 0) > 0:
                return {}
        return choices

    def process_choose_ability(self, action, entity):
        choice = action.get("choice")
        choices = self.choices_ability(entity)
        if choice not in choices:
            raise GameError(f"{choice!r} is not a choice of {entity.name} now", rule="bad-choice")
        if entity.sym != "P16":
            self.game.company_made_choice(entity, choice, "stock_round")
            return
        bundle = taxhaven.tax_haven_bundle(self.game, choice)
        player = entity.owner
        if not self.tax_haven_ok(entity, choice):
            raise GameError(f"Can't buy a share of {bundle.corporation.name}", rule="cannot-buy")
        self.round.tax_haven_bought = True
        self.game.company_made_choice(entity, choice, "stock_round")
        self.round.current_actions.append({"type": "choose_ability", "_corp": bundle.corporation})
        self.round.last_to_act = player
        self.pass_()

    def tax_haven_ok(self, company, choice) -> bool:
        bundle = taxhaven.tax_haven_bundle(self.game, choice)
        spender = self.game.tax_haven_spender(company)
        cash = self.available_cash(spender) if spender.is_player else spender.cash
        return not (cash < bundle.price() or self.sold_now(company.owner, bundle.corporation)
                    or self.round.tax_haven_bought)

    def round_state(self):
        return {**super().round_state(), "tax_haven_bought": False}

    # ------------------------------------------------------------ enumeration
    def legal_actions(self, entity):
        out = []
        acts = self.actions(entity)
        if "choose_ability" in acts:
            for ch in self.choices_ability(entity):
                if entity.sym != "P16" or self.tax_haven_ok(entity, ch):
                    out.append({"type": "choose_ability", "choice": ch})
            return out
        out = [a for a in super().legal_actions(entity)
               if a["type"] not in ("sell_shares", "par") or (a["type"] == "sell_shares"
                                                           and not self.game.tax_haven_would_be_president(
                                                               bundle_from_ids(self.game, a["shares"], a["percent"])))]
        if "par" in acts:
            # a concession's value counts towards the par price (par_prices knows it)
            for corp in self.game.corporations:
                if self.can_par_corp(entity, corp):
                    out += [{"type": "par", "corporation": corp.id, "share_price": p.id}
                            for p in self.par_prices(entity, corp)]
        if "payoff_player_debt" in acts:
            out.append({"type": "payoff_player_debt"})
        if "bid" in acts:
            for c in self.game.bidbox_items():
                if self.can_bid_company(entity, c):
                    out.append(ranged({"type": "bid", "company": c.sym}, self.min_bid(c),
                                      self.available_cash(entity), self.game.MIN_BID_INCREMENT))
        return out


class Choose(ChooseMixin, Step):
    """The owner of P9 may double his cash for the player order."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose", "pass": "process_pass"}

    def description(self):
        return "Choose"

    def company(self, entity):
        c = self.game.index.company("P9")
        if c is None or c.owner is not entity:
            return None
        return c

    def actions(self, entity):
        if entity is not self.current_entity() or self.company(entity) is None:
            return []
        return ["choose", "pass"]

    def choices(self, entity):
        c = self.company(entity)
        return self.game.company_choices(c, "choose") if c else {}

    def choose(self, entity, choice) -> None:
        """The P9 choice is made and the step is done."""
        self.game.company_made_choice(self.company(entity), choice, "choose")
        self.pass_()

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        return [{"type": "choose", "choice": c} for c in self.choices(entity)] + [{"type": "pass"}]


# ---------------------------------------------------------------------------- operating round
def _is_major(e) -> bool:
    return e.is_corporation and e.type == "major"


def _is_minor(e) -> bool:
    return e.is_corporation and e.type == "minor"


class PendingToken(HomeToken):
    """Home tokens that need a choice of city (minor 14 in London; acquired 14's token)."""

    def legal_actions(self, entity):
        p = self.pending()
        if not p or entity is not p["entity"]:
            return []
        board = self.game.board
        return [{"type": "place_token", "city": c.id, "slot": 0}
                for h in p["hexes"] for c in board.tile(h).cities if not board.tokened_by(c, entity)]

    def process_place_token(self, action, entity):
        p = self.pending()
        city = self.game.live_city(action.get("city"))
        if city is None or city.hex not in p["hexes"]:
            raise GameError(f"cannot place the token in {action.get('city')!r}", rule="bad-home-token")
        board = self.game.board
        if board.tokened_by(city, entity):
            raise GameError(f"{entity.name} can't have 2 tokens in the same city", rule="token-same-city")
        token = p["token"]
        price = token.price
        if getattr(self.game, "m14_token_ability", None) is entity:
            # the acquired minor 14's London token costs 20 when London is in reach
            self.game.m14_token_ability = None
            if city.hex in self.game.graph.reachable_hexes(entity):
                price = self.game.M14_TOKEN_PRICE
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot pay {price} for the token", rule="insufficient-cash")
        if entity.id == "14":
            board.set_tokens(city, board.tokens(city) + (None,))
        if board.get_slot(city, entity) is None:
            board.set_tokens(city, board.tokens(city) + (None,))
        board.place_city_token(city, entity, token, free=True, check_tokenable=False)
        if price > 0:
            spend(entity, self.game.bank, price)
        self.round.pending_tokens.pop(0)
        if city.hex.id == "M38":
            path = next((pp for pp in board.tile(city.hex).paths if pp.city is city and pp.edges), None)
            if path is not None:
                self.game.minor_14_city_exit = path.edges[0].num
            if entity.id == "14" and self.game.minor_14_city_exit is not None:
                nb = board.neighbors(city.hex).get(self.game.minor_14_city_exit)
                if nb is not None:
                    self.game.m14_rights_hex = nb.id
        self.game.graph_changed()


class FirstTurnHousekeeping(BuyTrain):
    """A minor's first turn: it may buy the next L train."""

    def description(self):
        return "Buy an L train"

    def actions(self, entity):
        game = self.game
        if entity is not self.current_entity() or not _is_minor(entity) or entity.operated():
            return []
        up = game.depot.upcoming
        if not up or up[0].name != "L":
            return []
        # the reference's generic test: room for any train (extra trains count here) and cash for
        # the cheapest train available, another company's at 1 included
        lo = game.depot.min_price(entity)
        if sum(1 for t in entity.trains if not t.obsolete) >= game.train_limit(entity) \
                or lo is None or entity.cash < lo:
            return []
        return ["buy_train", "pass"]

    def purchased_train(self, action: dict, entity):
        """Whatever the action names: the next train (an L)."""
        return self.game.depot.upcoming[0]

    def chosen_variant(self, action: dict, train) -> str | None:
        return action.get("variant")

    def choose_variant(self, entity, train, variant: str) -> None:
        """Applied by :meth:`check_buy`, after the price is read."""

    def check_buy(self, entity, train, price: int, purchase: Purchase | None = None) -> None:
        """The chosen variant is applied (unchecked), then the price must be the train's and
        within the minor's cash."""
        variant = purchase.variant if purchase is not None else None
        if variant and variant != train.name:
            train.set_variant(variant)
        if price != train.price:
            raise GameError(f"the L train costs {train.price}", rule="wrong-price")
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot afford the L train", rule="insufficient-cash")

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """One train only: the step ends."""
        self.pass_()

    def skip(self):
        self.pass_()

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        t = self.game.depot.upcoming[0]
        buy = [{"type": "buy_train", "train": t.id, "price": t.price, "variant": "L"}] if entity.cash >= t.price else []
        return buy + [{"type": "pass"}]


class AcquireCompany(Step):
    HANDLERS: ClassVar[dict] = {"acquire_company": "process_acquire_company", "pass": "process_pass"}

    def round_state(self):
        return {"acquired_companies": []}

    def description(self):
        return "Acquire private companies"

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        return ["acquire_company", "pass"] if self.game.purchasable_companies(entity) else []

    def process_acquire_company(self, action, entity):
        company = self.game.index.company(action.get("company"))
        if company is None or company not in self.game.purchasable_companies(entity):
            raise GameError(f"{entity.name} cannot acquire {action.get('company')!r} now", rule="cannot-acquire")
        owner = company.owner
        if company in owner.companies:
            owner.companies.remove(company)
        company.owner = entity
        entity.companies.append(company)
        self.round.acquired_companies.append(company)
        self.game.company_bought(company, entity)
        if not self.game.purchasable_companies(entity):
            self.pass_()

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        return [{"type": "acquire_company", "company": c.sym} for c in self.game.purchasable_companies(entity)] + \
            [{"type": "pass"}]


class SpecialChoose(ChooseMixin, Step):
    HANDLERS: ClassVar[dict] = {"choose": "process_choose"}

    def description(self):
        return "Choose"

    def company(self, entity):
        return next((c for c in self.round.acquired_companies
                     if c.owner is entity and self.game.company_choices(c, "special_choose")), None)

    def actions(self, entity):
        if entity is not self.current_entity() or self.company(entity) is None:
            return []
        return ["choose"]

    def choices(self, entity):
        return self.game.company_choices(self.company(entity), "special_choose")

    def choose(self, entity, choice) -> None:
        """The acquired company's choice is made."""
        self.game.company_made_choice(self.company(entity), choice, "special_choose")

    def skip(self):
        self.pass_()

    def legal_actions(self, entity):
        c = self.company(entity) if self.actions(entity) else None
        return [{"type": "choose", "choice": k} for k in self.game.company_choices(c, "special_choose")] if c else []


class Track1822(TrackAndTokenStep):
    HANDLERS: ClassVar[dict] = {"lay_tile": "process_lay_tile", "pass": "process_pass",
                                "choose_ability": "process_choose_ability"}
    WITH_TOKEN = False

    def description(self):
        return "Lay Track"

    def actions(self, entity):
        if entity.is_company:
            return ["choose_ability"] if self.game.company_choices(entity, "track") else []
        if entity is not self.current_entity() or not self.can_lay_tile(entity):
            return []
        return ["lay_tile", "pass"]

    def can_lay_tile(self, entity) -> bool:
        if getattr(entity, "id", None) == "14" and not entity.operated():
            return False
        if any((ab := privatelays.track_ability(self.game, c, "track")) and not ab.get("consume_tile_lay")
               for c in getattr(entity, "companies", [])):
            return True
        return super().can_lay_tile(entity)

    def is_upgrade(self, old_tile, new_tile) -> bool:
        return old_tile.color != "white"

    def process_choose_ability(self, action, entity):
        if action.get("choice") not in self.game.company_choices(entity, "track"):
            raise GameError(f"{action.get('choice')!r} is not a choice now", rule="bad-choice")
        self.game.company_made_choice(entity, action.get("choice"), "track")

    def check_lay(self, entity, hex_, old_tile, tile, rotation):
        self.game.check_lay_1822(entity, hex_, old_tile, tile)

    def after_lay(self, entity, hex_, old_tile, tile):
        layeffects.after_lay(self.game, entity, hex_, old_tile, tile)

    def pay(self, entity, cost: int):
        super().pay(entity, self.game.tile_cost_with_discount(self.laying_hex, entity, cost))

    def process_lay_tile(self, action, entity):
        self.laying_hex = self.game.board.hex_by_id(action.get("hex"))  # for the hex's discounts in pay()
        super().process_lay_tile(action, entity)
        if not self.can_lay_tile(entity):
            self.pass_()

    def legal_lay_ok(self, entity, hex_, old_tile, tile) -> bool:
        try:
            self.game.check_lay_1822(entity, hex_, old_tile, tile)
        except GameError:
            return False
        return True

    def legal_actions(self, entity):
        if entity.is_company:
            return [{"type": "choose_ability", "choice": c} for c in self.game.company_choices(entity, "track")]
        if not self.actions(entity):
            return []
        if self.tile_lay(entity) is None or getattr(entity, "tokens", None) is None:
            return [{"type": "pass"}]
        return super().legal_actions(entity)


class SpecialTrack(Passing):
    """Private companies' tile lays (P2, P8, P10, P11, P12, P21), used by the owning corporation.
    Blocks only while a company that must lay its tiles together is half-way."""

    HANDLERS: ClassVar[dict] = {"lay_tile": "process_lay_tile", "pass": "process_pass"}

    def setup(self):
        self.company = None

    def blocks(self) -> bool:
        return self.company is not None

    def current_entity(self):
        return self.company if self.company is not None else self.round.current_entity_of_round()

    def description(self):
        return "Lay Track (company)"

    def ability(self, company):
        if not company.is_company or company.closed:
            return None
        owner = company.owner
        if owner is None or owner is not self.round.current_entity_of_round():
            return None
        return privatelays.track_ability(self.game, company, "special_track")

    def actions(self, entity):
        if self.company is not None and entity is self.company:
            return ["lay_tile", "pass"]
        if self.ability(entity) is None:
            return []
        act = self.round.active_step()
        return ["lay_tile"] if act is not None and "lay_tile" in act.HANDLERS else []

    def process_lay_tile(self, action, entity):
        ab = self.ability(entity)
        if ab is None:
            raise GameError(f"{entity.name} cannot lay track now", rule="no-ability")
        privatelays.special_lay_tile(self.game, self, action, entity, ab)

    def passing(self, entity) -> None:
        """A company half-way through its lays gives up the rest: it closes."""
        self.company = None
        entity.close()

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "lay_tile" in acts:
            out += privatelays.special_lay_options(self.game, entity, self.ability(entity))
        if "pass" in acts:
            out.append({"type": "pass"})
        return out


class SpecialToken(Step):
    """P5 puts an exchange token into the English Channel (also right after its teleport lay)."""

    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token"}
    BLOCKS = False

    def round_state(self):
        return {"teleported": None}

    def current_entity(self):
        return self.round.current_entity_of_round()

    def actions(self, entity):
        if not entity.is_company or entity.closed or entity.owner is not self.current_entity():
            return []
        if entity.sym != "P5" or entity.owner.exchange_tokens <= 0:
            return []
        if getattr(self.round, "teleported", None) is entity:
            return ["place_token"]
        act = self.round.active_step()
        return ["place_token"] if act is not None and "place_token" in act.HANDLERS else []

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        board = self.game.board
        city = board.tile(self.game.board.hex_by_id("P43")).cities[0]
        if board.get_slot(city, entity.owner) is None or board.tokened_by(city, entity.owner):
            return []
        return [{"type": "place_token", "city": city.id, "slot": board.get_slot(city, entity.owner)}]

    def process_place_token(self, action, entity):
        game = self.game
        corp = entity.owner
        city = game.live_city(action.get("city"))
        if city is None or city.hex.id != "P43":
            raise GameError("P5 places its token in the English Channel", rule="bad-token")
        from ...core.tokens import Token

        board = game.board
        if board.tokened_by(city, corp) or board.get_slot(city, corp) is None:
            raise GameError(f"no room for {corp.name} in the English Channel", rule="city-full")
        tok = Token(corp, price=0)
        corp.tokens.append(tok)
        board.place_city_token(city, corp, tok, free=True, check_tokenable=False)
        corp.exchange_tokens -= 1
        if game.secr_token_ability(corp):
            # SECR's own free Channel token ability is the one the reference finds and uses up
            game.secr_used_ability = True
        self.round.teleported = None
        entity.close()
        game.graph_changed()


class DestinationToken(Passing):
    HANDLERS: ClassVar[dict] = {"hex_token": "process_hex_token", "pass": "process_pass"}

    def description(self):
        return "Place the Destination Token"

    def token(self, entity):
        return next((t for t in entity.tokens if t.type == "destination" and not t.used), None)

    def actions(self, entity):
        if entity is not self.current_entity() or not _is_major(entity) or self.token(entity) is None:
            return []
        return ["hex_token", "pass"]

    def skip(self):
        self.pass_()

    def connected(self, entity) -> bool:
        return destinations.destination_connected(self.game, entity)

    def process_hex_token(self, action, entity):
        game = self.game
        tok = self.token(entity)
        if tok is None:
            raise GameError(f"{entity.name} has no destination token", rule="no-tokens")
        hex_ = game.board.hex_by_id(action.get("hex"))
        if hex_ is None or hex_.id != entity.destination:
            raise GameError(f"{entity.name}'s destination is {entity.destination}", rule="bad-destination")
        if not game.loading and action.get("token_type") != "destination":
            # the reference ignores the token type (a few old games name a normal token):
            # logs load as there, live play names the destination token (docs/quirks.md)
            raise GameError(f"{entity.name} places its destination token here, not a "
                            f"{action.get('token_type') or 'normal'} token", rule="wrong-token-type")
        if not game.loading and not self.connected(entity):
            raise GameError(f"{entity.name} is not connected to {hex_.id}", rule="not-connected")
        game.place_destination_token(entity, hex_, tok)
        layeffects.remove_extra_tokens(game, game.board.tile(hex_))
        self.pass_()

    def check_pass(self, entity) -> None:
        """A major connected to its destination must place the token (logs may pass)."""
        if not self.game.loading and self.connected(entity):
            raise GameError(f"{entity.name} must place its destination token", rule="must-place-destination")

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        if self.connected(entity):
            return [{"type": "hex_token", "hex": entity.destination, "token_type": "destination"}]
        return [{"type": "pass"}]


class Token1822(TrackAndTokenStep):
    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass",
                                "choose_ability": "process_choose_ability"}

    def round_state(self):
        return {"tokened": False}

    def setup(self):
        self.round.tokened = False

    def description(self):
        return "Place a Token"

    def available_tokens(self, entity):
        return [t for t in entity.tokens if not t.used and t.type != "destination"]

    def chpr_lcdr(self, entity) -> bool:
        return entity.is_corporation and any(c.sym in ("P18", "P5") for c in entity.companies) \
            and entity.exchange_tokens > 0

    def can_place_token(self, entity) -> bool:
        if entity is not self.current_entity() or self.round.tokened:
            return False
        toks = self.available_tokens(entity)
        if not toks:
            return False
        if entity.id == "SECR" and self.game.secr_token_ability(entity):
            return True
        if any(c.sym == "P5" and not c.closed for c in entity.companies):
            return True  # P5's token ability keeps the step open, as in the reference
        if min(t.price for t in toks) > entity.cash:
            return False
        return self.game.graph.can_token(entity)

    def actions(self, entity):
        if entity.is_company:
            return ["choose_ability", "pass"] if self.game.company_choices(entity, "token") else []
        if entity is not self.current_entity():
            return []
        out = ["place_token"] if self.can_place_token(entity) else []
        if not out and self.chpr_lcdr(entity):
            out.append("choose_ability")
        if out:
            out.append("pass")
        return out

    def process_choose_ability(self, action, entity):
        if action.get("choice") not in self.game.company_choices(entity, "token"):
            raise GameError(f"{action.get('choice')!r} is not a choice now", rule="bad-choice")
        self.game.company_made_choice(entity, action.get("choice"), "token")

    def candidate_cities(self, entity) -> list:
        """Connected cities without a token of ``entity`` (SECR's free English Channel token
        needs no cash)."""
        out = list(tokenable_cities(self.game, entity))
        if self.game.secr_token_ability(entity):
            board = self.game.board
            for c in board.tile(self.game.board.hex_by_id("P43")).cities:
                if c not in out and not board.tokened_by(c, entity) and c in self.game.graph.connected_nodes(entity):
                    out.append(c)
        return out

    def process_place_token(self, action, entity):
        game = self.game
        if self.round.tokened:
            raise GameError("a token was already placed this turn", rule="one-token-per-turn")
        city = game.live_city(action.get("city"))
        if city is None:
            raise GameError(f"unknown city {action.get('city')!r}", rule="unknown-city")
        board = game.board
        if _is_major(entity) and board.tokened_by(city, entity):
            raise GameError(f"{entity.id} can't have 2 tokens in the same city", rule="token-same-city")
        toks = self.available_tokens(entity)
        if not toks:
            raise GameError(f"{entity.name} has no tokens left", rule="no-tokens")
        token = toks[0]
        free = False
        if entity.id == "SECR" and city.hex.id == "P43" and game.secr_token_ability(entity):
            free = True
            game.secr_used_ability = True
        if not game.loading:
            with game.graph_probe():
                connected = city in game.graph.connected_nodes(entity)
            if not connected:
                raise GameError(f"{city.id} is not connected to {entity.name}'s network", rule="token-not-connected")
        if city.hex.id == "M38":
            if board.get_slot(city, entity) is None:
                raise GameError(f"no free slot in {city.id}", rule="city-full")
            board.place_city_token(city, entity, token, free=True, check_tokenable=False)
        else:
            if not board.tokenable(city, entity, free=free, tokens=[token]):
                raise GameError(f"{entity.name} cannot place a token in {city.id}", rule="city-full")
            board.place_city_token(city, entity, token, free=free)
        if token.price > 0 and not free:
            spend(entity, game.bank, token.price)
        game.graph_changed()
        self.round.tokened = True
        self.pass_()

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "place_token" in acts:
            toks = self.available_tokens(entity)
            board = self.game.board
            for city in self.candidate_cities(entity):
                free = city.hex.id == "P43" and self.game.secr_token_ability(entity)
                if city.hex.id == "M38":
                    ok = board.get_slot(city, entity) is not None and toks[0].price <= entity.cash
                else:
                    ok = board.tokenable(city, entity, tokens=toks[:1], free=free)
                if ok:
                    out.append({"type": "place_token", "city": city.id, "slot": board.get_slot(city, entity) or 0})
        if "choose_ability" in acts and entity.is_company:
            for ch in self.game.company_choices(entity, "token"):
                out.append({"type": "choose_ability", "choice": ch})
        if "pass" in acts and not entity.is_company:
            out.append({"type": "pass"})
        return out


class Route1822(RunRoutes):
    HANDLERS: ClassVar[dict] = {"run_routes": "process_run_routes", "choose": "process_choose"}

    def setup(self):
        self.pullman = None

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        trains = self.game.route_trains(entity)
        if not trains or not self.game.can_run_route(entity):
            return []
        if entity.type == "minor" and all(t.name == "E" for t in trains):
            return []
        out = ["run_routes"]
        if self.pullman is None and self.pullman_train(entity) and self.pullman_choices(entity):
            out.append("choose")
        return out

    def pullman_train(self, entity):
        return next((t for t in entity.trains if t.name == "P+"), None)

    def pullman_choices(self, entity):
        return [t for t in self.game.route_trains(entity) if t.name not in ("L", "LP", "E")]

    def process_choose(self, action, entity):
        choices = self.pullman_choices(entity)
        try:
            train = choices[int(action.get("choice"))]
        except (ValueError, TypeError, IndexError):
            raise GameError(f"{action.get('choice')!r} is not a train to attach the pullman to",
                            rule="bad-choice") from None
        self.pullman = train
        self.game.attach_pullman(train)

    def legal_actions(self, entity):
        out = super().legal_actions(entity)
        if "choose" in self.actions(entity):
            out += [{"type": "choose", "choice": str(i)} for i in range(len(self.pullman_choices(entity)))]
        return out

    def process_run_routes(self, action, entity):
        try:
            super().process_run_routes(action, entity)
            self.round.subsidy = self.game.mail_subsidy(entity, action.get("routes") or [])
        finally:
            if self.pullman is not None:
                self.game.detach_pullman(self.pullman)
                self.pullman = None


class Dividend1822(Dividend):
    HANDLERS: ClassVar[dict] = {"dividend": "process_dividend", "choose": "process_choose"}
    KINDS = ("payout", "half", "withhold")

    def setup(self):
        self.extra_choice = ""

    def round_state(self):
        return {"subsidy": 0}

    def actions(self, entity):
        if not _is_major(entity) or entity is not self.current_entity():
            return []
        if self.total_revenue() == 0:
            return []
        out = ["dividend"]
        if not self.extra_choice and self.extra_train(entity) and len(entity.trains) > 1:
            out.append("choose")
        return out

    def extra_train(self, entity):
        t = next((t for t in entity.trains if t.name in ("2P", "LP")), None)
        if t is None:
            return None
        rev = next((r["revenue"] for r in self.round.routes if r["train"] == t.id), 0)
        return t if rev > 0 and rev != self.total_revenue() else None

    def process_choose(self, action, entity):
        if action.get("choice") not in self.KINDS:
            raise GameError(f"{action.get('choice')} is an illegal choice", rule="bad-choice")
        self.extra_choice = action.get("choice")

    def split(self, entity, kind, revenue):
        """(to the corporation, per share) for ``revenue`` paid as ``kind``."""
        n = entity.total_shares
        if kind == "withhold":
            return revenue, 0.0
        if kind == "half":
            half = revenue // 2
            kept = half if entity.type == "minor" else (half // n) * n
            return kept, (revenue - kept) / n
        return 0, revenue / n

    def skip(self):
        entity = self.current_entity()
        if entity.type == "major":
            self.do_dividend(entity, "withhold")
        else:
            self.do_dividend(entity, "half" if self.total_revenue() > 0 else "withhold")

    def process_dividend(self, action, entity):
        kind = action.get("kind")
        if kind not in self.KINDS:
            raise GameError(f"dividend kind must be one of {', '.join(self.KINDS)}", rule="bad-dividend-kind")
        self.do_dividend(entity, kind)

    def do_dividend(self, entity, kind):
        import math

        from ...core.entities import OperatingInfo

        game = self.game
        revenue = self.total_revenue()
        subsidy = getattr(self.round, "subsidy", 0) or 0
        extra = self.extra_train(entity) if self.extra_choice else None
        if extra is not None:
            extra_rev = next(r["revenue"] for r in self.round.routes if r["train"] == extra.id)
            corp_part, per_share = self.split(entity, kind, revenue - extra_rev)
            c2, p2 = self.split(entity, self.extra_choice, extra_rev)
            corp_part += c2
            per_share += p2
        else:
            corp_part, per_share = self.split(entity, kind, revenue)
        entity.operating_history[(game.turn, self.round.round_num)] = OperatingInfo(self.round.routes, revenue, kind)
        for t in entity.trains:
            t.operated = True
        self.round.routes = []
        self.round.subsidy = 0
        if corp_part + subsidy > 0:
            spend(game.bank, entity, corp_part + subsidy)
        if per_share > 0:
            per_share = (revenue - corp_part) / entity.total_shares
            for payee in list(game.players) + list(game.corporations):
                pct = payee.percent_of(entity)
                if not pct:
                    continue
                amt = math.ceil(pct / entity.share_percent * per_share)
                if amt > 0:
                    spend(game.bank, payee, amt)
            if game.tax_haven.value() > 0:
                amt = int(game.tax_haven.num_shares_of(entity) * per_share)  # the reference truncates here
                if amt > 0:
                    spend(game.bank, game.tax_haven, amt)
        paid = revenue - corp_part
        self.move_share_price(entity, paid)
        self.extra_choice = ""
        self.pass_()

    def move_share_price(self, entity, paid):
        sm = self.game.stock_market
        if entity.share_price is None:
            return
        if paid <= 0:
            sm.move_left(entity)
            return
        price = entity.share_price.price
        times = 0
        if paid >= price or entity.type == "minor":
            times = 1
        if paid >= price * 2 and entity.type == "major":
            times = 2
        for _ in range(times):
            sm.move_right(entity)

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "dividend" in acts:
            out += [{"type": "dividend", "kind": k} for k in self.KINDS]
        if "choose" in acts:
            out += [{"type": "choose", "choice": k} for k in self.KINDS]
        return out


class BuyTrain1822(EmergencyBuyTrain):
    """Buying trains. A company without a train must buy one; its president may add money for
    the cheapest depot train, selling shares first and borrowing only when nothing is left to
    sell. Trains from other companies (phase 3 on) cost 1 up to the buyer's cash."""

    def room(self, entity) -> bool:
        return self.game.num_trains(entity) < self.game.train_limit(entity)

    def other_trains(self, entity):
        if "can_buy_trains" not in self.game.phase.status:
            return []
        return [t for t in self.game.depot.other_trains(entity) if t.name not in ("2P", "LP", "P+")]

    def min_price(self, entity):
        # as the reference: trains of other companies count at 1 whatever the phase
        return self.game.depot.min_price(entity)

    def l_upgrades(self, entity):
        return [t for t in entity.trains if t.name == "L"]

    def can_buy_train(self, entity) -> bool:
        lo = self.min_price(entity)
        if self.room(entity) and lo is not None and entity.cash >= lo:
            return True
        return bool(self.l_upgrades(entity)) and entity.cash >= self.game.l_upgrade_cost()

    def actions(self, entity):
        cur = self.current_entity()
        if entity.is_player and cur is not None and cur.owner is entity:
            return ["sell_shares"]  # the president may raise money for a forced purchase
        if entity is not cur or not entity.is_corporation:
            return []
        if self.game.must_buy_train(entity):
            return ["sell_shares", "buy_train"]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def cheapest_train(self):
        """The depot's cheapest train: the first one at the lowest price, in depot order."""
        trains = self.game.depot.depot_trains()
        return min(trains, key=lambda t: t.price) if trains else None

    def cheapest_depot(self) -> int:
        t = self.cheapest_train()
        return min(v["price"] for v in t.variants.values()) if t is not None else 0

    def cheapest_names(self) -> list[str]:
        """The variant names at the cheapest train's lowest price: what a president may fund."""
        t = self.cheapest_train()
        if t is None:
            return []
        lo = min(v["price"] for v in t.variants.values())
        return [n for n, v in t.variants.items() if v["price"] == lo]

    # ------------------------------------------------------------ the purchase
    def chosen_variant(self, action: dict, train) -> str | None:
        """The named variant, for any train (an L upgrade names the 2)."""
        return action.get("variant")

    def choose_variant(self, entity, train, variant: str) -> None:
        """Checked by :meth:`check_buy`, applied only by :meth:`hand_over` (after the funding)."""

    def traded_in(self, action: dict, entity, train):
        """An L train upgraded in place (to a 2): the train itself, when ``exchange`` is named."""
        return train if action.get("exchange") else None

    def check_buy(self, entity, train, price: int, purchase: Purchase | None = None) -> None:
        """An L upgrade at its fixed cost; a depot train at its (variant's) price, one E train
        at most; another company's train (phase 3 on, no 2P/LP/P+) for 1 up to the buyer's
        cash; then room. A shortfall is left to :meth:`top_up`."""
        game = self.game
        variant = purchase.variant if purchase is not None else None
        if purchase is not None and purchase.exchange is not None:
            if train.owner is not entity or train.name != "L":
                raise GameError(f"{entity.name} has no L train {train.id} to upgrade", rule="bad-exchange")
            if price != game.l_upgrade_cost():
                raise GameError(f"an L train upgrade costs {game.l_upgrade_cost()}", rule="wrong-price")
            if price > entity.cash:
                raise GameError(f"{entity.name} cannot afford the upgrade", rule="insufficient-cash")
            return
        if train.owner is game.depot:
            self.check_available(train, "is not available")
            if variant:
                if variant not in train.variants:
                    raise GameError(f"train {train.id} has no variant {variant}", rule="bad-variant")
                if variant == "E" and any(t.name == "E" for t in entity.trains):
                    raise GameError(f"{entity.id} can only own one E-train", rule="one-e-train")
                spec = train.variants[variant]
                if price != spec["price"]:
                    raise GameError(f"train {train.id} as {variant} costs {spec['price']}, not {price}",
                                    rule="wrong-price")
            else:
                self.check_listed_price(train, price, train.price)
        else:
            if train not in self.other_trains(entity):
                raise GameError(f"{entity.name} may not buy train {train.id}", rule="train-not-available")
            if not 1 <= price <= entity.cash:
                raise GameError(f"{entity.name} may spend between 1 and {entity.cash} on {train.owner.name}'s "
                                f"{train.name} train", rule="wrong-price")
        self.check_room(entity)

    def top_up(self, entity, purchase: Purchase) -> None:
        """The president funds a forced purchase (see :meth:`emergency_funds`)."""
        if purchase.exchange is None and purchase.price > entity.cash:
            train = purchase.train
            self.emergency_funds(entity, train, purchase.variant or train.name, purchase.price)

    def hand_over(self, entity, purchase: Purchase) -> None:
        """An L upgrade: the train becomes a 2 for the upgrade cost; else the chosen variant is
        applied and the train bought."""
        train = purchase.train
        if purchase.exchange is not None:
            train.set_variant(purchase.variant or "2")
            spend(entity, self.game.bank, purchase.price)
            return
        if purchase.from_depot and purchase.variant:
            train.set_variant(purchase.variant)
        self.buy(entity, train, purchase.price)

    def after_buy_train(self, entity, purchase: Purchase) -> None:
        """The first 2 bought in phase 1 starts phase 2 (:meth:`Game1822.phase_on_two`)."""
        super().after_buy_train(entity, purchase)
        if int(self.game.phase.name) <= 1 and purchase.train.name == "2":
            self.game.phase_on_two()

    def emergency_funds(self, entity, train, name: str, price: int):
        game = self.game
        if not game.must_buy_train(entity):
            raise GameError(f"{entity.name} has {entity.cash}, the train costs {price}", rule="insufficient-cash")
        if name not in self.cheapest_names():
            raise GameError(f"Cannot purchase {name} train: cheaper train available ({self.cheapest_names()[0]})",
                            rule="not-cheapest-train")
        owner = entity.owner
        need = price - entity.cash
        if owner.cash < need:
            if self.sellable(owner):
                raise GameError(f"{owner.name} still needs to sell shares before a loan can be granted.",
                                rule="must-sell-first")
            loans.player_loan(game, owner, need - owner.cash)
        spend(owner, entity, need)

    def sellable(self, player) -> bool:
        """Must the president sell before borrowing? Any sellable bundle counts, even one whose
        sale the reference cannot process (``check_sale_presidency``): the reference then refuses
        the loan, and the company can only buy another company's train. When it cannot do that
        either, the reference has no move left at all; we let the president borrow (quirk)."""
        bundles = self.sellable_bundles(player)
        if any(not self.game.tax_haven_would_be_president(b) for b in bundles):
            return True
        if not bundles:
            return False
        corp = self.current_entity()
        return bool(self.other_trains(corp)) and corp.cash >= 1 and self.room(corp)

    # ------------------------------------------------------------ the president's emergency sales
    def emergency_price(self) -> int:
        return self.cheapest_depot()

    def can_dump(self, player, bundle) -> bool:
        return self.game.can_dump_1822(player, bundle)

    def presidency_holdings(self, corp) -> dict:
        """The tax haven and other companies holding shares count as candidates too."""
        haven = self.game.tax_haven
        return {h: p for h, p in corp.share_holders.items()
                if p > 0 and (h.is_player or h is haven or (h.is_corporation and h is not corp))}

    def can_emergency_sell(self, player, bundle) -> bool:
        """Only while the forced purchase is not yet funded."""
        corp = self.current_entity()
        return corp is not None and self.game.must_buy_train(corp) and super().can_emergency_sell(player, bundle)

    def can_sell(self, player, bundle) -> bool:
        """:meth:`can_emergency_sell` (the game lists the president's sales through it)."""
        return self.can_emergency_sell(player, bundle)

    def emergency_sale(self, action, entity) -> tuple:
        player = entity.owner if entity.is_corporation else entity
        bundle = action_bundle(self.game, action)
        if bundle.owner is not player:
            raise GameError("only the president sells shares to buy a train", rule="illegal-sale")
        if not self.can_emergency_sell(player, bundle):
            raise GameError(f"{player.name} cannot sell {bundle.percent}% of {bundle.corporation.name} now",
                            rule="illegal-sale")
        self.game.check_sale_presidency(bundle)
        return player, bundle

    def legal_actions(self, entity):
        acts = self.actions(entity)
        if "buy_train" not in acts:
            return []
        out = []
        game = self.game
        room = self.room(entity)
        if room:
            for t in game.depot.depot_trains():
                for v, spec in t.variants.items():
                    if v == "E" and any(x.name == "E" for x in entity.trains):
                        continue
                    if spec["price"] <= entity.cash or self.can_fund(entity, v, spec["price"]):
                        out.append({"type": "buy_train", "train": t.id, "price": spec["price"], "variant": v})
        if entity.cash >= game.l_upgrade_cost():
            for t in self.l_upgrades(entity):
                out.append({"type": "buy_train", "train": t.id, "price": game.l_upgrade_cost(), "variant": "2",
                            "exchange": t.id})
        if room and entity.cash >= 1:
            for t in self.other_trains(entity):
                out.append(ranged({"type": "buy_train", "train": t.id}, 1, entity.cash))
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    def can_fund(self, entity, name: str, price: int) -> bool:
        """May the president add what ``entity`` lacks for this depot train (now)?"""
        if not self.game.must_buy_train(entity) or name not in self.cheapest_names():
            return False
        return entity.owner.cash >= price - entity.cash or not self.sellable(entity.owner)


class MinorAcquisition(Step):
    HANDLERS: ClassVar[dict] = {"merge": "process_merge", "choose": "process_choose", "pass": "process_pass"}
    PAY: ClassVar[dict] = {"money": 0, "one_share": 1, "two_shares": 2}

    def setup(self):
        self.state = "select"
        self.minor = None

    def description(self):
        return "Acquire a minor"

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if self.state in ("pay", "token"):
            return ["choose"]
        return ["merge", "pass"] if self.can_acquire(entity) else []

    def can_acquire(self, entity) -> bool:
        return _is_major(entity) and len(entity.operating_history) > 1 and bool(self.candidates(entity))

    def candidates(self, entity):
        game = self.game
        out = [m for m in game.corporations if m.type == "minor" and m.floated() and len(m.operating_history) > 1
               and self.pay_choices(entity, m)]
        if "can_acquire_minor_bidbox" in game.phase.status:
            for c in game.bidbox_minors():
                m = game.find_corporation(c)
                if m is not None and self.pay_choices(entity, m):
                    out.append(m)
        return out

    def bank_minor(self, minor) -> bool:
        return minor.owner is None or minor.owner is self.game.bank

    def pay_choices(self, entity, minor) -> list:
        game = self.game
        if self.bank_minor(minor):
            return ["money"] if entity.cash >= game.MINOR_BIDBOX_PRICE else []
        out = []
        value = minor.share_price.price * 2
        if entity.cash >= value and self._payable(entity, minor, 0):
            out.append("money")
        n = entity.num_ipo_shares()
        if n > 0 and self._payable(entity, minor, 1):
            out.append("one_share")
        counts = entity.share_price is None or entity.share_price.counts_for_limit()
        if n > 1 and (not counts or game.num_certs(minor.owner) < game.cert_limit()) and self._payable(entity, minor,
                                                                                                       2):
            out.append("two_shares")
        return out

    def _payable(self, entity, minor, n) -> bool:
        if n == 0:
            return True
        diff = minor.share_price.price * 2 - entity.share_price.price * n
        if diff < 0:
            return -diff <= minor.owner.cash
        return diff == 0 or diff <= entity.cash

    def token_choices(self, entity) -> list:
        if entity.exchange_tokens <= 0:
            return ["remove"]
        if self.minor is not None and self.bank_minor(self.minor) and self.minor.id == "14" \
                and not self.can_pay_london_token(entity):
            return ["exchange"]
        return ["replace", "exchange"]

    def can_pay_london_token(self, entity) -> bool:
        """Minor 14's replacement token costs 20 when London is in reach; the reference takes the
        choice but then cannot place the token if the company cannot pay (a dead end): refused."""
        game = self.game
        with game.graph_probe():
            reachable = game.board.hex_by_id("M38") in game.graph.reachable_hexes(entity)
        return not reachable or entity.cash - game.MINOR_BIDBOX_PRICE >= game.M14_TOKEN_PRICE

    def connected(self, entity, minor) -> bool:
        game = self.game
        nodes = game.graph.connected_nodes(entity)
        if self.bank_minor(minor) and minor.id == "14":
            return any(c in nodes for c in game.board.tile(game.board.hex_by_id("M38")).cities)
        if self.bank_minor(minor):
            city = next((c for c in game.board.tile(game.board.hex_by_id(minor.coordinates)).cities
                         if game.board.reserved_by(c, minor)), None)
        else:
            city = minor.tokens[0].city
        return city is not None and city in nodes

    def probe_connected(self, entity, minor) -> bool:
        with self.game.graph_probe():
            return self.connected(entity, minor)

    def process_merge(self, action, entity):
        minor = self.game.corporation_by_id(action.get("corporation"))
        if self.state != "select" or minor is None or minor not in self.candidates(entity):
            raise GameError(f"{entity.name} cannot acquire {action.get('corporation')!r}", rule="cannot-acquire")
        if not self.game.loading and not self.probe_connected(entity, minor):
            raise GameError(f"Can't acquire minor {minor.id} because it is not connected to {entity.id}",
                            rule="not-connected")
        self.minor = minor
        self.state = "pay"

    def process_choose(self, action, entity):
        choice = action.get("choice")
        if self.state == "pay":
            if choice not in self.pay_choices(entity, self.minor):
                raise GameError(f"{choice!r} is not a way to pay now", rule="bad-choice")
            self.shares = self.PAY[choice]
            self.state = "token"
            return
        if choice not in self.token_choices(entity):
            raise GameError(f"{choice!r} is not a token choice now", rule="bad-choice")
        if self.bank_minor(self.minor):
            acquisitions.acquire_bank_minor(self.game, entity, self.minor, choice, self.round)
        else:
            acquisitions.acquire_player_minor(self.game, entity, self.minor, self.shares, choice)
        self.state = "select"
        self.minor = None
        self.pass_()

    def skip(self):
        self.pass_()

    def legal_actions(self, entity):
        acts = self.actions(entity)
        if "choose" in acts:
            ch = self.pay_choices(entity, self.minor) if self.state == "pay" else self.token_choices(entity)
            return [{"type": "choose", "choice": c} for c in ch]
        out = []
        if "merge" in acts:
            for m in self.candidates(entity):
                if self.connected(entity, m):
                    out.append({"type": "merge", "corporation": m.id})
            out.append({"type": "pass"})
        return out


class IssueShares1822(IssueShares):
    HANDLERS: ClassVar[dict] = {**IssueShares.HANDLERS, "choose_ability": "process_choose_ability"}

    def actions(self, entity):
        game = self.game
        if entity.is_company:
            return ["choose_ability", "pass"] if game.company_choices(entity, "issue") else []
        out = super().actions(entity)
        if not out and entity is self.current_entity() and entity.is_corporation \
                and any(c.sym == "P17" for c in entity.companies):
            out = ["choose_ability", "pass"]
        return out

    def process_choose_ability(self, action, entity):
        if action.get("choice") not in self.game.company_choices(entity, "issue"):
            raise GameError(f"{action.get('choice')!r} is not a choice now", rule="bad-choice")
        self.game.company_made_choice(entity, action.get("choice"), "issue")

    def chosen_bundle(self, action, entity, options, issuing):
        ids = action.get("shares") or []
        if issuing:
            match = next((b for b in options if sorted(s.id for s in b.shares) == sorted(ids)
                          and b.percent == (action.get("percent") or b.percent)), None)
        else:
            match = next((b for b in options if sorted(s.id for s in b.shares) == sorted(ids)), None)
        if match is None:
            raise GameError(f"{entity.name} cannot {'issue' if issuing else 'redeem'} {ids}",
                            rule="illegal-issue" if issuing else "illegal-redeem")
        return match

    def issue(self, entity, bundle, action) -> None:
        bundle.share_price = self.issue_price(action, bundle)
        self.game.sell_shares_and_change_price(bundle)

    def issue_price(self, action, bundle) -> int | None:
        """The per-share price an issue is paid at: the reference takes the action's
        ``share_price`` as given and, when it is missing, the full market price. New actions
        must name the issue price (the price after the drop); old logs keep what they say."""
        price = action.get("share_price")
        if self.game.loading:
            return price or None
        if price != bundle.share_price:
            raise GameError(f"{bundle.corporation.name} issues at {bundle.share_price} a share, not {price}",
                            rule="issue-price")
        return price

    def redeem(self, entity, bundle) -> None:
        self.game.share_market.transfer(bundle, entity, spender=entity, receiver=self.game.bank, price=bundle.price())

    def skip(self):
        self.pass_()

    def issue_action(self, bundle) -> dict:
        return {**super().issue_action(bundle), "share_price": bundle.share_price}

    def legal_actions(self, entity):
        if entity.is_company:
            if "choose_ability" not in self.actions(entity):
                return []
            return [{"type": "choose_ability", "choice": c} for c in self.game.company_choices(entity, "issue")]
        return super().legal_actions(entity)
