"""t1822 steps: stock."""

from __future__ import annotations

from typing import ClassVar

from ....core.entities import ShareBundle, ShareHolder
from ....core.errors import GameError
from ....core.money import pay
from ....core.round import ranged
from ....core.steps.auction import AuctionMixin, Bids
from ....core.steps.stock import BuySellParShares, TurnView
from .. import loans, taxhaven
from .choose import CompanyChoices


class BuySellParShares1822(CompanyChoices, AuctionMixin, BuySellParShares):
    """Bids in the bid boxes (committed until the round ends), one par or purchase per turn."""

    HANDLERS: ClassVar[dict] = {
        **BuySellParShares.HANDLERS, "bid": "process_bid", "choose_ability": "process_choose_ability",
        "payoff_player_debt": "process_payoff_player_debt",
        "payoff_player_debt_partial": "process_payoff_player_debt",
    }
    COMPANIES = False
    HOLDING_LIMIT_FORCES_SALE = False
    PURCHASE_ENDS_TURN = True
    PRICE_REQUIRED = True
    BID_INCREMENT_MESSAGE: ClassVar[str] = "bids rise in multiples of {step}"
    CHOICE_TIME = "stock_round"
    DESCRIPTION: ClassVar[str] = "Bid, convert concession or buy/sell shares"

    def process_payoff_player_debt(self, action, entity):
        """Pay off the player's debt: all of it, or ``amount`` of it (a partial payoff)."""
        partial = action["type"] == "payoff_player_debt_partial"
        amount = action.get("amount") if partial else None
        if partial and amount is None:
            raise GameError("a partial payoff needs an amount", rule="malformed-action")
        loans.payoff_player_loan(self.game, entity, amount)
        self._track(action, entity, None)

    def setup(self):
        super().setup()
        self.bid_actions = 0

    @property
    def bids(self) -> dict[object, Bids]:
        """The bids in each bid box (kept on the round): company -> :class:`Bids`."""
        return self.round.bids

    # ------------------------------------------------------------ bids
    def highest_bid(self, company):
        bids = self.round.bids.get(company)  # (:attr:`bids`, read without the property)
        return bids.highest() if bids else None

    def opening_bid(self, company) -> int:
        return company.min_price

    def committed_bids(self, player):
        """The highest bids of ``player`` (kept for the listing under way: its questions ask
        them for every corporation and box)."""
        memo = self.game.listing_memo()
        key = ("committed bids", player)
        if memo is not None and (found := memo.get(key)) is not None:
            return found
        out = []
        for bids in self.round.bids.values():
            # (each box's highest bid, :meth:`Bids.highest`, found in place: the oldest of equal ones)
            best = None
            for b in bids.bids:
                if best is None or b[1] > best[1]:
                    best = b
            if best and best[0] is player:
                out.append(best)
        if memo is not None:
            memo[key] = out
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

    def certs_held(self, player) -> int:
        """Winning bids count against the certificate limit."""
        return self.game.num_certs(player) + len(self.committed_bids(player))

    def can_bid_company(self, player, company, standing=None) -> bool:
        """A box ``player`` may bid on: within the certificate limit counting winning bids, the
        minimum within the cash not committed, not its own highest bid, with a bidding token
        unless it has a bid there. ``standing``: :meth:`bid_standing`, worked out once for a
        listing of every box."""
        at_limit, cash, tokens = standing or self.bid_standing(player)
        hb = self.highest_bid(company)
        if at_limit or cash < self.min_bid(company) or (hb and hb[0] is player):
            return False
        return bool(self.find_bid(player, company)) or tokens > 0

    def bid_standing(self, player) -> tuple[bool, int, int]:
        """What a bid of ``player`` on any box reads of its bids: at the certificate limit
        (winning bids counted), the cash not committed to bids, the bidding tokens left."""
        committed = self.committed_bids(player)
        at_limit = self.game.num_certs(player) + len(committed) >= self.game.cert_limit()
        return at_limit, player.cash - sum(b[1] for b in committed), self.bidding_tokens(player)

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
        hb = self.highest_bid(company)
        if hb and hb[0] is entity:
            raise GameError(f"{entity.name} already has the highest bid on {company.name}", rule="already-winning")
        if not self.find_bid(entity, company) and self.bidding_tokens(entity) <= 0:
            raise GameError(f"{entity.name} has no bidding tokens left", rule="no-bidding-tokens")
        if self.certs_held(entity) >= self.game.cert_limit():
            raise GameError("over the certificate limit with bids", rule="certificate-limit")

    def accept_bid(self, entity, company, price, action):
        """The bid stays in the box until the round ends; BIDS_PER_TURN bids end the turn."""
        self.game.nothing_sold_in_sr = False
        entity.passed = False
        self.bids.setdefault(company, Bids(company)).place(entity, price)
        self._track(action, entity, company)
        self.bid_actions += 1
        if self.bid_actions >= self.game.BIDS_PER_TURN:
            self.pass_()

    # ------------------------------------------------------------ availability
    KINDS = ("buy_shares", "par", "sell_shares", "bid", "payoff_player_debt", "payoff_player_debt_partial")

    def actions(self, entity):
        if entity.is_company:
            return ["choose_ability"] if self.ability_choices(entity) else []
        return super().actions(entity)

    #: :attr:`KINDS` in the order "any kind?" tries them: a bid and a payoff read a flag, the
    #: purchases look at every certificate (the truth is the same in any order)
    KINDS_CHEAP_FIRST = ("bid", "payoff_player_debt", "sell_shares", "buy_shares", "par", "payoff_player_debt_partial")
    # the base's sale questions and pass; a bid and a payoff are open only when not forced, the
    # rest as the base's: being forced only takes kinds away, so "any kind?" is asked as if not
    FORCE_FREE_KINDS = True

    def any_kind(self, entity) -> tuple[bool, bool]:
        """For the player in turn: whether it ``must_sell``, and whether any kind is allowed."""
        forced = self.must_sell(entity)
        return forced, any(self.allows(kind, entity, forced) for kind in self.KINDS_CHEAP_FIRST)

    def has_actions(self, entity):
        if entity.is_company:
            return bool(self.ability_choices(entity))
        if entity is not self.current_entity():
            return False
        if self.FORCE_FREE_KINDS and type(entity).held_corporations is ShareHolder.held_corporations:
            # (the base's "forced to sell?" left out: see ``FORCE_FREE_KINDS``)
            return any(self.allows(kind, entity, False) for kind in self.KINDS_CHEAP_FIRST)
        forced, anything = self.any_kind(entity)
        return anything or self.may_pass([], forced)

    def answers(self, entity, atype):
        if entity.is_company:
            acts = self.actions(entity)
            return atype in acts, bool(acts)
        if atype == "pass" and type(self).may_pass is BuySellParShares.may_pass:
            # listed when some kind is and the player need not sell (the default ``may_pass``)
            if entity is not self.current_entity():
                return False, False
            forced, anything = self.any_kind(entity)
            return anything and not forced, anything
        return super().answers(entity, atype)

    def allows(self, kind, entity, forced) -> bool:
        """Unless forced to sell: a bid, or with a debt its payoff instead; no purchase with a
        debt or after a bid."""
        debt = self.game.player_debt.get(entity, 0) > 0
        if kind == "bid" or kind.startswith("payoff"):
            return not forced and (not debt if kind == "bid" else debt and entity.cash > 0)
        barred = kind in ("buy_shares", "par") and (self.bid_actions or debt)
        return not barred and super().allows(kind, entity, forced)

    def may_buy_from(self, entity, corp) -> bool:
        """Only majors' shares are bought."""
        return corp.type == "major"

    def buys_by_exchange(self, bundle: ShareBundle) -> bool:
        """A president's certificate once concessions convert."""
        return bundle.presidents_share is not None and "can_convert_concessions" in self.game.phase.status

    def par_cash(self, entity, corp) -> int:
        """The cash not committed to bids, and the value of the concession it is started with."""
        conc = corp.par_via_exchange
        return self.available_cash(entity) + (conc.value if conc is not None else 0)

    def par_price_choices(self, corp) -> list:
        """Majors start at the ``par_1`` prices."""
        return [p for p in self.game.stock_market.par_prices if "par_1" in p.types]

    def can_par_corp(self, entity, corp) -> bool:
        """One it :meth:`may_start` (within the limits even when the president's certificate is an
        exchange), at one of its :meth:`par_prices`."""
        return self.may_start(entity, corp) and bool(self.par_prices(entity, corp))

    def can_ipo_any(self, entity) -> bool:
        """Only majors are started (``Game1822.can_par``, asked first: most are refused by
        it, before the certificates are looked at; ``may_start`` asks it again)."""
        if self.bought():
            return False
        game = self.game
        turn = TurnView(self, entity, bought=False)
        return any(self.may_start(entity, c, turn) for c in game.corporations
                   if c.type == "major" and game.can_par(c, entity))

    def can_dump(self, entity, bundle) -> bool:
        return self.game.can_dump_1822(entity, bundle)

    # ------------------------------------------------------------ processing
    def check_par_purchase(self, entity, corp, share_price, bundle: ShareBundle) -> None:
        """Started with its concession: the concession's owner, who can pay what the par price
        exceeds the concession's value by; without it: only from the ``can_par`` phase, paid
        in full (from the cash not committed to bids)."""
        conc = corp.par_via_exchange
        if conc is not None:
            if conc.owner is not entity:
                raise GameError(f"{entity.name} does not own {conc.name}", rule="not-owner")
            cost = self.exchange_price(corp, share_price, bundle) or 0
            cash = self.par_cash(entity, corp)
        elif "can_par" not in self.game.phase.status:
            raise GameError(f"{corp.name} needs its concession to start now", rule="cannot-par")
        else:
            cost, cash = share_price.price * bundle.percent // 10, self.available_cash(entity)
        if not self.can_buy(entity, bundle, cash=cash) or cost > self.available_cash(entity):
            raise GameError(f"{entity.name} cannot start {corp.name}", rule="insufficient-cash")

    def exchange_price(self, corp, share_price, bundle: ShareBundle) -> int | None:
        """What a player starting ``corp`` with its concession pays: the par price of the
        certificate less the concession's value (None when the concession covers it)."""
        conc = corp.par_via_exchange
        ex_price = share_price.price * (bundle.percent // 10) - conc.value
        return None if ex_price < 0 else ex_price

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
        pay(game, game.bank, corp, conc.value if ex_price else share_price.price, "capital")
        conc.close()

    def check_sale(self, entity, bundle: ShareBundle) -> None:
        """Not a sale that would make the tax haven a candidate for the presidency."""
        if bundle.owner is entity:
            self.game.check_sale_presidency(bundle)
        super().check_sale(entity, bundle)

    # ------------------------------------------------------------ company choices (tax haven)
    def ability_choices(self, entity) -> dict:
        """The tax haven's (P16) not after a bid nor with a debt."""
        choices = super().ability_choices(entity)
        blocked = entity.sym == "P16" and (self.bid_actions > 0 or self.game.player_debt.get(entity.owner, 0) > 0)
        return {} if choices and blocked else choices

    def ability_chosen(self, entity, choice, action) -> None:
        """The tax haven's purchase of a share ends its owner's turn."""
        if entity.sym != "P16":
            super().ability_chosen(entity, choice, action)
            return
        bundle = taxhaven.tax_haven_bundle(self.game, choice)
        if not self.tax_haven_ok(entity, choice):
            raise GameError(f"Can't buy a share of {bundle.corporation.name}", rule="cannot-buy")
        self.round.tax_haven_bought = True
        super().ability_chosen(entity, choice, action)
        self._track(action, entity.owner, entity, bundle.corporation)  # (the site tracks it under the company)
        self.pass_()

    def tax_haven_ok(self, company, choice) -> bool:
        bundle = taxhaven.tax_haven_bundle(self.game, choice)
        spender = self.game.tax_haven_spender(company)
        cash = self.available_cash(spender) if spender.is_player else spender.cash
        return not (cash < bundle.price() or self.sold_now(company.owner, bundle.corporation)
                    or self.round.tax_haven_bought)

    def round_state(self):
        # stored_winning_bids: per player, the bid boxes they led at the end of their last turn
        # (or when they enabled a program): a program stops when they no longer lead one
        return {**super().round_state(), "tax_haven_bought": False, "stored_winning_bids": {}}

    # ------------------------------------------------------------ programmed actions
    def store_winning_bids(self, player) -> None:
        # (the boxes the player leads, found in one pass over the boxes, each box's highest bid,
        # :meth:`Bids.highest`, found in place; the boxes' order asked only when it leads some:
        # most passes come from players leading none)
        led = set()
        for company, bids in self.round.bids.items():
            best = None
            for b in bids.bids:
                if best is None or b[1] > best[1]:
                    best = b
            if best is not None and best[0] is player:
                led.add(company)
        leading = [c for c in self.game.bidbox_items() if c in led] if led else []
        self.round.stored_winning_bids = {**self.round.stored_winning_bids, player.id: leading}

    def program_enabled(self, player) -> None:
        self.store_winning_bids(player)

    # (its pass writes the player's stored winning bids too, read only by a program's stop)
    SKIP_WRITES_UNREAD: ClassVar[bool] = True

    def pass_(self) -> None:
        cur = self.current_entity()
        if cur is not None and cur.is_player:
            self.store_winning_bids(cur)
        super().pass_()

    def shenanigan(self, entity, other, atype, actor, thing, share):
        """A bid stops a program only when it outbid the player on a box they led; the tax
        haven's purchase never does."""
        if atype == "bid":
            led = self.round.stored_winning_bids.get(entity.id, [])
            return f"No longer winning bid on {thing.id}" if thing in led else None
        if atype == "choose_ability" and actor.is_company and actor.sym == "P16":
            return None
        return super().shenanigan(entity, other, atype, actor, thing, share)

    # ------------------------------------------------------------ enumeration
    def offers_sale(self, entity, bundle: ShareBundle, action: dict) -> bool:
        """Not a sale that would make the tax haven a president."""
        return not self.game.tax_haven_would_be_president(bundle)

    LISTING = ("buy_shares", "sell_shares", "pass", "par", "payoff_player_debt", "bid")

    def offers(self, kind, entity):
        if kind == "payoff_player_debt":
            return [{"type": kind}]
        if kind == "bid":
            return self.bid_offers(entity)
        return super().offers(kind, entity)

    def bid_offers(self, entity) -> list[dict]:
        """The boxes' bids open to ``entity`` (:meth:`can_bid_company`, then :meth:`bid_offer`
        of each), each box's bids read once: the minimum is the highest bid and a step (or the
        opening bid), the maximum the cash not committed to bids (:meth:`max_bid`), which
        :meth:`bid_standing` gives."""
        at_limit, cash, tokens = self.bid_standing(entity)
        if at_limit:
            return []  # at the certificate limit (winning bids counted): no box is open
        step = self.bid_step()
        in_boxes = self.bids
        out = []
        for c in self.game.bidbox_items():
            bids = in_boxes.get(c)
            hb = bids.highest() if bids else None
            lo = hb[1] + step if hb else self.opening_bid(c)
            if cash < lo or (hb and hb[0] is entity):
                continue
            if tokens > 0 or (bids and bids.bid_of(entity)):
                out.append(ranged({"type": "bid", **self.bid_target(c)}, lo, cash, step))
        return out

    def legal_actions(self, entity):
        if entity.is_company:
            return [a for a in self.ability_offers(entity)
                    if entity.sym != "P16" or self.tax_haven_ok(entity, a["choice"])]
        return super().legal_actions(entity)
