"""1822's steps: bid boxes in the stock round, the P9 choice, and the operating-round steps."""

from __future__ import annotations

from ...core.entities import ShareBundle
from ...core.errors import GameError
from ...core.money import spend
from ...core.round import Step
from ...core.shares import bundle_from_ids
from ...core.steps.operating import BuyTrain, DiscardTrain, Dividend, RunRoutes
from ...core.steps.stock import BuySellParShares
from ...core.steps.track import TrackAndTokenStep


# ---------------------------------------------------------------------------- stock round
class DiscardTrain1822(DiscardTrain):
    def crowded(self):
        return [c for c in self.game.corporations if self.game.crowded_corp(c)]

    def process_discard_train(self, action, entity):
        train = self.game.train_by_id(action.get("train"))
        if train is None or train.owner is not entity:
            raise GameError(f"{entity.name} does not own train {action.get('train')!r}", rule="not-owner")
        self.game.discard_train(train)


class BuySellParShares1822(BuySellParShares):
    HANDLERS = {**BuySellParShares.HANDLERS, "bid": "process_bid", "choose_ability": "process_choose_ability"}
    COMPANIES = False

    def setup(self):
        super().setup()
        self.bid_actions = 0

    def description(self):
        return "Bid, convert concession or buy/sell shares"

    @property
    def bids(self):
        return self.round.bids

    # ------------------------------------------------------------ bids
    def highest(self, company):
        return self.round.highest_bid(company)

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
        used = sum(1 for bids in self.bids.values() if any(b[0] is player for b in bids))
        return self.game.bidding_tokens - used

    def find_bid(self, player, company):
        return next((b for b in self.bids.get(company, []) if b[0] is player), None)

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

    def process_bid(self, action, entity):
        company = self.game.company_by_id(action.get("company"))
        if company is None:
            raise GameError(f"unknown company {action.get('company')!r}", rule="unknown-entity")
        if company not in self.game.bidbox_items():
            raise GameError(f"{company.name} is not in a bid box", rule="not-for-auction")
        price = action.get("price")
        if not isinstance(price, int):
            raise GameError("a bid needs an integer price", rule="malformed-action")
        lo = self.min_bid(company)
        if price < lo:
            raise GameError(f"minimum bid is {lo} for {company.name}", rule="bid-too-low")
        if (price - lo) % self.game.MIN_BID_INCREMENT:
            raise GameError(f"bids rise in multiples of {self.game.MIN_BID_INCREMENT}", rule="bid-increment")
        if price > self.available_cash(entity):
            raise GameError(f"{entity.name} can bid at most {self.available_cash(entity)}", rule="insufficient-cash")
        hb = self.highest(company)
        if hb and hb[0] is entity:
            raise GameError(f"{entity.name} already has the highest bid on {company.name}", rule="already-winning")
        if not self.find_bid(entity, company) and self.bidding_tokens(entity) <= 0:
            raise GameError(f"{entity.name} has no bidding tokens left", rule="no-bidding-tokens")
        if self.num_certs_with_bids(entity) >= self.game.cert_limit():
            raise GameError("over the certificate limit with bids", rule="certificate-limit")
        self.game.nothing_sold_in_sr = False
        entity.passed = False
        lst = self.bids.setdefault(company, [])
        lst[:] = [b for b in lst if b[0] is not entity]
        lst.append((entity, price, company))
        self._track(action, entity, company)
        self.bid_actions += 1
        if self.bid_actions >= self.game.BIDS_PER_TURN:
            self.pass_()

    # ------------------------------------------------------------ availability
    def actions(self, entity):
        if getattr(entity, "is_company", False):
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

    # ------------------------------------------------------------ processing
    def process_buy_shares(self, action, entity):
        bundle = bundle_from_ids(self.game, action.get("shares") or [], action.get("percent"), action.get("share_price"))
        corp = bundle.corporation
        if entity is corp:
            raise GameError("a corporation redeems in its operating turn", rule="no-such-action-now")
        if self.bid_actions:
            raise GameError("cannot buy shares after bidding this turn", rule="one-purchase-per-turn")
        if not self.can_buy(entity, bundle):
            raise GameError(f"{entity.name} cannot buy {', '.join(s.id for s in bundle.shares)} now",
                            rule=self._why_not_buy(entity, bundle))
        bought = self.round.players_bought.setdefault(entity, {})
        bought[corp] = bought.get(corp, 0) + bundle.percent
        self.game.share_market.buy_shares(entity, bundle)
        self._track(action, entity, corp, corp)
        self.pass_()

    def process_par(self, action, entity):
        game = self.game
        corp = game.corporation_by_id(action.get("corporation"))
        if corp is None:
            raise GameError(f"unknown corporation {action.get('corporation')!r}", rule="unknown-entity")
        sp = game.stock_market.by_id(str(action.get("share_price")))
        if sp is None:
            raise GameError(f"unknown share price {action.get('share_price')!r}", rule="unknown-price")
        if self.bid_actions or self.bought():
            raise GameError("only one purchase per turn, and none after bidding", rule="one-purchase-per-turn")
        if not game.can_par(corp, entity):
            raise GameError(f"{corp.name} can't be parred", rule="cannot-par")
        if "par_1" not in sp.types:
            raise GameError(f"{sp.price} is not a par price for majors", rule="bad-par-price")
        bundle = ShareBundle([corp.shares[0]])
        conc = corp.par_via_exchange
        if conc is not None:
            if conc.owner is not entity:
                raise GameError(f"{entity.name} does not own {conc.name}", rule="not-owner")
            if not self.can_buy(entity, bundle, cash=self.available_par_cash(entity, corp)):
                raise GameError(f"Can't buy a share of {corp.name}", rule="insufficient-cash")
            mult = bundle.percent // 10
            ex_price = sp.price * mult - conc.value
            if ex_price < 0:
                ex_price = None
            if ex_price and ex_price > self.available_cash(entity):
                raise GameError(f"{entity.name} cannot afford {ex_price}", rule="insufficient-cash")
            game.stock_market.set_par(corp, sp)
            corp.ipoed = True
            floated = corp.floated()
            game.share_market.transfer(bundle, entity, spender=entity, receiver=corp, price=ex_price or 0)
            if corp.floatable and floated != corp.floated():
                game.float_corporation(corp)
            spend(game.bank, corp, conc.value if ex_price else sp.price)
            conc.close()
            game.after_par(corp)
        else:
            if "can_par" not in game.phase.status:
                raise GameError(f"{corp.name} needs its concession to start now", rule="cannot-par")
            if not self.can_buy(entity, bundle, cash=self.available_cash(entity)) or \
                    sp.price * bundle.percent // 10 > self.available_cash(entity):
                raise GameError(f"{entity.name} cannot start {corp.name}", rule="insufficient-cash")
            game.stock_market.set_par(corp, sp)
            game.share_market.buy_shares(entity, bundle)
            game.after_par(corp)
        bought = self.round.players_bought.setdefault(entity, {})
        bought[corp] = bought.get(corp, 0) + bundle.percent
        self._track(action, entity, corp, corp)
        self.pass_()

    def process_sell_shares(self, action, entity):
        bundle = bundle_from_ids(self.game, action.get("shares") or [], action.get("percent"), action.get("share_price"))
        if bundle.corporation is entity:
            raise GameError("a corporation issues in its operating turn", rule="no-such-action-now")
        super().process_sell_shares(action, entity)

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
        bundle = self.game.tax_haven_bundle(choice)
        player = entity.owner
        spender = self.game.tax_haven_spender(entity)
        cash = self.available_cash(spender) if spender.is_player else spender.cash
        if cash < bundle.price() or self.sold_now(player, bundle.corporation) or self.round.tax_haven_bought:
            raise GameError(f"Can't buy a share of {bundle.corporation.name}", rule="cannot-buy")
        self.round.tax_haven_bought = True
        self.game.company_made_choice(entity, choice, "stock_round")
        self.round.current_actions.append({"type": "choose_ability", "_corp": bundle.corporation})
        self.round.last_to_act = player
        self.pass_()

    def round_state(self):
        return {**super().round_state(), "tax_haven_bought": False}

    # ------------------------------------------------------------ enumeration
    def legal_actions(self, entity):
        out = []
        acts = self.actions(entity)
        if "choose_ability" in acts:
            for ch in self.choices_ability(entity):
                out.append({"type": "choose_ability", "choice": ch})
            return out
        out = [a for a in super().legal_actions(entity)]
        if "bid" in acts:
            for c in self.game.bidbox_items():
                if self.can_bid_company(entity, c):
                    lo = self.min_bid(c)
                    hi = min(self.available_cash(entity), lo + 100)
                    out.append({"type": "bid", "company": c.sym, "price": lo, "price_range": [lo, hi],
                                "price_step": self.game.MIN_BID_INCREMENT})
        return out


class Choose(Step):
    """The owner of P9 may double his cash for the player order."""

    HANDLERS = {"choose": "process_choose", "pass": "process_pass"}

    def description(self):
        return "Choose"

    def company(self, entity):
        c = self.game.company_by_id("P9")
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

    def process_choose(self, action, entity):
        choice = action.get("choice")
        if choice not in self.choices(entity):
            raise GameError(f"{choice!r} is not a choice now", rule="bad-choice")
        self.game.company_made_choice(self.company(entity), choice, "choose")
        self.pass_()

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        return [{"type": "choose", "choice": c} for c in self.choices(entity)] + [{"type": "pass"}]
