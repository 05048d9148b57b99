"""1822: The Railways of Great Britain (with the 1822+ options). Rules on top of the core.

Minors and majors are corporations (minors hold one 100% certificate). Minors, concessions
and privates are sold from bid boxes in the stock round; bids resolve when it ends.
"""

from __future__ import annotations

from ...core.entities import Corporation, ShareBundle
from ...core.errors import GameError
from ...core.game import Game
from ...core.market import StockMarket
from ...core.money import CashHolder, spend
from ...core.round import OperatingRound, Round, StockRound
from ...core.tokens import Token
from . import config

PLUS_BOX_1 = ("P1", "P3", "P4", "P13", "P14", "P19")
PLUS_BOX_2 = ("P2", "P5", "P8", "P10", "P11", "P12", "P21")
PLUS_BOX_3 = ("P6", "P7", "P9", "P15", "P16", "P17", "P18", "P20")
COMPANY_TRAINS = (("P3", "2P-0", False), ("P4", "2P-1", False), ("P1", "5P-0", True), ("P13", "P+-0", False),
                  ("P14", "P+-1", False), ("P19", "LP-0", False))
EXTRA_TRAINS = ("2P", "P+", "LP")
EXTRA_PERMANENTS = ("2P", "LP")
LOCAL_TRAINS = ("L", "LP")
PHASE_REVENUE = {"P15": 10, "P20": 5}
MAIL_CONTRACTS = ("P6", "P7")
REMOVE_REVENUE = ("P5", "P6", "P7", "P8", "P10", "P17", "P18", "P21")
PRIVATE_TRAINS = ("P1", "P3", "P4", "P13", "P14", "P19")
DOUBLE_CASH = "P9"
TAX_HAVEN = "P16"
LUR = "P17"
TWO_HOME = "LNWR"
MINOR_14 = "14"
LONDON = "M38"


class Holder(CashHolder):
    """A cash (and share) holder that is not a player: phase-revenue pots and the tax haven."""

    is_player = False
    is_corporation = False
    is_pool = False
    is_company = False
    is_minor = False
    owner = None
    player = None

    def __init__(self, name):
        self.id = name
        self.name = name
        self.cash = 0
        self.shares_by_corp = {}

    def percent_of(self, corp) -> int:
        return sum(s.percent for s in self.shares_by_corp.get(corp, ()))

    def shares_of(self, corp) -> list:
        return self.shares_by_corp.get(corp, [])

    def _add_share(self, share) -> None:
        self.shares_by_corp.setdefault(share.corporation, []).append(share)

    def _remove_share(self, share) -> None:
        self.shares_by_corp[share.corporation].remove(share)

    def num_shares_of(self, corp) -> int:
        return self.percent_of(corp) // corp.share_percent

    def value(self) -> int:
        v = self.cash
        for corp, shares in self.shares_by_corp.items():
            for s in shares:
                v += s.price()
        return v


class Corporation1822(Corporation):
    """Treasury shares of majors sell at the market price once parred."""

    def __init__(self, *args, **kwargs):
        self._par = None
        super().__init__(*args, **kwargs)
        self.par_via_exchange = None
        self.destination = self.data.get("destination_coordinates")
        self.exchange_tokens = 0

    @property
    def par_price(self):
        return self.share_price if self.data.get("always_market_price") and self.share_price else self._par

    @par_price.setter
    def par_price(self, value):
        self._par = value


class StockMarket1822(StockMarket):
    """Moving up from the top row (or into a gap) goes down-right instead."""

    def up_of(self, corp, rc):
        r, c = rc
        if r > 0 and self.cell(r - 1, c) is not None:
            return (r - 1, c)
        return (r + 1, c + 1)


class StockRound1822(StockRound):
    def __init__(self, game, steps, round_num=1):
        self.bids = {}
        super().__init__(game, steps, round_num)

    def setup(self):
        self.game.setup_bidboxes()
        super().setup()

    def highest_bid(self, company):
        bids = self.bids.get(company)
        if not bids:
            return None
        best = bids[0]
        for b in bids[1:]:
            if b[1] > best[1]:
                best = b
        return best

    def finish_round(self):
        game = self.game
        if game.nothing_sold_in_sr:
            game.end_game("dnf")
            return
        float_minors = []
        remove_l = 0
        remove_minor = None
        boxes = game.bidbox_minors()
        for i, minor in enumerate(boxes):
            bid = self.highest_bid(minor)
            if bid:
                float_minors.append((bid, i))
            else:
                minor.owner = None
                remove_l += 1
                if i == 0:
                    remove_minor = minor
        for company in game.bidbox_concessions() + game.bidbox_privates():
            bid = self.highest_bid(company)
            if bid:
                game.win_company(bid[0], company, bid[1])
            else:
                company.owner = None
        n = len(boxes)
        for bid, i in sorted(float_minors, key=lambda m: (m[0][1], n - m[1]), reverse=True):
            game.float_minor(bid[0], bid[2], bid[1])
        if remove_l and game.depot.upcoming and game.depot.upcoming[0].name == "L":
            while remove_l and game.depot.upcoming and game.depot.upcoming[0].name == "L":
                game.export_train(game.depot.upcoming[0])
                remove_l -= 1
        if remove_minor is not None:
            train = game.depot.upcoming[0]
            game.export_train(train)
            game.phase_buying_train(None, train)
            minor = game.find_corporation(remove_minor)
            game.close_corporation(minor)
            remove_minor.close()
            if remove_minor in game.companies:
                game.companies.remove(remove_minor)
        game.bidbox_minors_refill()
        game.add_interest_player_loans()
        game.stock_round_finished(self)


class ChoicesRound(Round):
    NAME = "Choices"

    def select_entities(self):
        return self.game.choices_entities()

    def finished(self) -> bool:
        return self.game.finished or self.active_step() is None

    def setup(self):
        self.skip_steps()

    def after_process(self, action, entity):
        pass


class OperatingRound1822(OperatingRound):
    def skip_entity(self, entity) -> bool:
        return entity.closed or not entity.floated() or entity not in self.game.corporations


class Game1822(Game):
    TITLE = "1822"
    BANK_CASH = 12_000
    CAPITALIZATION = "incremental"
    SELL_AFTER = "full_or_turn"
    SELL_MOVEMENT = "down_share"
    SELL_BUY_ORDER = "sell_buy"
    SOLD_OUT_INCREASE = True
    POOL_SHARE_DROP = "none"
    MARKET_SHARE_LIMIT = 50
    HOME_TOKEN_TIMING = "operate"
    MUST_BUY_TRAIN = "always"
    GAME_END_CHECK = {"bank": "full_or", "stock_market": "current_or"}
    GAME_END_LOCK_FIRST_TRIGGER = True
    NEXT_SR_PLAYER_ORDER = "most_cash"
    MIN_BID_INCREMENT = 5
    BIDBOX_MINORS = 4
    BIDBOX_CONCESSIONS = 3
    BIDBOX_PRIVATES = 3
    BIDS_PER_TURN = 3
    MINOR_START_PAR = 50
    MINOR_BIDBOX_PRICE = 200
    TOKEN_PRICE = 100
    UPGRADE_COST_L_TO_2 = 80
    TILE_LAYS = [{"lay": True, "upgrade": True}]
    TRAIN_PRICE_MIN = 1

    # ------------------------------------------------------------ set-up
    def init_optional_rules(self, rules):
        return [r for r in rules if r in config.OPTIONS]

    def build_data(self):
        return config.build(self.optional_rules, len(self.players))

    @property
    def plus(self) -> bool:
        return "plus_expansion" in self.optional_rules

    def init_companies(self):
        comps = super().init_companies()
        return comps

    def init_corporations(self):
        self.stock_market = StockMarket1822(self.data["market"])
        lo = min(p.price for p in self.stock_market.par_prices)
        out = []
        for c in self.data["corporations"]:
            corp = Corporation1822(c["sym"], c.get("name", c["sym"]), share_percents=c.get("shares", [20] + [10] * 8),
                                   tokens=c.get("tokens", []), coordinates=c.get("coordinates"), city=c.get("city"),
                                   float_percent=c.get("float_percent", 60),
                                   max_ownership_percent=c.get("max_ownership_percent", 60),
                                   type_=c.get("type", "major"), capitalization=self.CAPITALIZATION, data=c)
            corp.tokens = [Token(corp, price=p) for p in corp.token_prices]
            corp.min_price = lo
            out.append(corp)
        return out

    def init_cert_limit(self):
        return self.data["cert_limit"]

    def init_starting_cash(self):
        for p in self.players:
            spend(self.bank, p, self.data["starting_cash"])

    def setup(self):
        self.nothing_sold_in_sr = True
        self.bidding_tokens = self.data["bidding_tokens"]
        self.phase_revenue = {sym: Holder(sym) for sym in PHASE_REVENUE}
        self.tax_haven = Holder(TAX_HAVEN)
        self.double_cash_choice = None
        self.minor_14_city_exit = None
        self.player_debt = {p: 0 for p in self.players}
        self.setup_companies()
        self.bidbox_minors_cache = []
        for corp in self.corporations:
            if corp.type != "major":
                continue
            corp.exchange_tokens = self.data["exchange_tokens"].get(corp.id, 0)
            if corp.destination:
                corp.tokens.append(Token(corp, price=0, type="destination"))
            ex = next((c for c in self.companies if any(a.get("type") == "exchange" and corp.id in a.get("corporations", [])
                                                         for a in c.abilities)), None)
            corp.par_via_exchange = ex
        self._index_entities()

    def setup_companies(self):
        comps = self.rng.shuffle(self.companies)
        minors = [c for c in comps if c.sym[0] == "M"]
        concessions = [c for c in comps if c.sym[0] == "C"]
        privates = [c for c in comps if c.sym[0] == "P"]
        for lst, first in ((minors, "M24"), (concessions, "C1"), (privates, "P1")):
            c = next((x for x in lst if x.sym == first), None)
            if c is not None:
                lst.remove(c)
                lst.insert(0, c)
        if self.plus and "plus_expansion_no_removals" not in self.optional_rules:
            privates = ([c for c in privates if c.sym in PLUS_BOX_1] + [c for c in privates if c.sym in PLUS_BOX_2]
                        + [c for c in privates if c.sym in PLUS_BOX_3])
            drop = next(c for c in privates if c.sym != "P5" and c.sym in PLUS_BOX_2)
            privates.remove(drop)
            for _ in range(2):
                drop = next(c for c in privates if c.sym in PLUS_BOX_3)
                privates.remove(drop)
        self.companies = minors + concessions + privates
        for c in self.companies:
            c.min_price = c.value if c.sym[0] in "CM" else 0
            c.max_price = 10_000
        self.company_trains = {}
        for sym, tid, buyable in COMPANY_TRAINS:
            t = self.depot.train_by_id(tid)
            if t is None:
                continue
            self.depot.remove_train(t)
            t.buyable = buyable
            t.reserved = True
            self.company_trains[sym] = t

    def init_round(self):
        self.round_counter += 1
        return self.stock_round()

    # ------------------------------------------------------------ bid boxes
    def bank_companies(self, prefix):
        return [c for c in self.companies if c.sym[0] == prefix and (c.owner is None or c.owner is self.bank)
                and not c.closed]

    def bidbox_minors(self):
        return [c for c in self.bank_companies("M")[:self.BIDBOX_MINORS] if c.sym in self.bidbox_minors_cache]

    def bidbox_concessions(self):
        return self.bank_companies("C")[:self.BIDBOX_CONCESSIONS]

    def bidbox_privates(self):
        comps = self.bank_companies("P")
        if self.plus and "plus_expansion_single_stack" not in self.optional_rules:
            out = []
            for box in (PLUS_BOX_1, PLUS_BOX_2, PLUS_BOX_3):
                c = next((c for c in comps if c.sym in box), None)
                if c is not None:
                    out.append(c)
            return out
        return comps[:self.BIDBOX_PRIVATES]

    def bidbox_minors_refill(self):
        self.bidbox_minors_cache = [c.sym for c in self.bank_companies("M")[:self.BIDBOX_MINORS]]

    def setup_bidboxes(self):
        self.bidbox_minors_refill()
        for c in self.bidbox_minors() + self.bidbox_concessions() + self.bidbox_privates():
            c.owner = self.bank
        self.double_cash_choice = None

    def bidbox_items(self):
        return self.bidbox_minors() + self.bidbox_concessions() + self.bidbox_privates()

    def find_corporation(self, company):
        return self.corporation_by_id(company.sym[1:])

    def win_company(self, player, company, price):
        company.owner = player
        player.companies.append(company)
        if price > 0:
            spend(player, self.bank, price)

    def minor_float_share_price(self, bid_amount):
        pars = self.stock_market.par_prices
        top = max(p.price for p in pars)
        target = self.MINOR_START_PAR if self.phase.name == "1" else bid_amount // 2
        target = min(target, top)
        return next(p for p in pars if p.price <= target)

    def minor_float_starting_cash(self, bid_amount, presidency_price):
        return presidency_price if int(self.phase.name) < 3 else bid_amount

    def float_minor(self, player, company, bid_amount):
        minor = self.find_corporation(company)
        sp = self.minor_float_share_price(bid_amount)
        presidency = sp.price * 2
        self.stock_market.set_par(minor, sp)
        self.share_market.buy_shares(player, ShareBundle([minor.shares[0]]))
        self.after_par(minor)
        if minor.cash > 0:
            spend(minor, self.bank, minor.cash)
        treasury = self.minor_float_starting_cash(bid_amount, presidency)
        excess = bid_amount - presidency
        if excess:
            spend(player, self.bank, excess)
        spend(self.bank, minor, treasury)
        if company in self.companies:
            self.companies.remove(company)
        company.owner = None

    def export_train(self, train):
        self.depot.remove_train(train)
        train.owner = None
        self.depot.clear_cache()

    def add_interest_player_loans(self):
        for p in self.players:
            debt = self.player_debt.get(p, 0)
            if debt > 0:
                self.player_debt[p] = debt + (debt + 1) // 2

    # ------------------------------------------------------------ rounds
    def stock_round(self):
        from .steps import BuySellParShares1822, DiscardTrain1822

        return StockRound1822(self, [DiscardTrain1822, BuySellParShares1822])

    def choices_entities(self):
        c = self.company_by_id(DOUBLE_CASH)
        if c is None or c.closed or c.owner is None or not c.owner.is_player:
            return []
        return [c.owner]

    def next_round(self):
        r = self.round
        if isinstance(r, ChoicesRound):
            self.operating_rounds_in_set = self.phase.operating_rounds
            self.reorder_players()
            self.round = self.new_operating_round(1)
        elif isinstance(r, StockRound):
            from .steps import Choose

            self.round = ChoicesRound(self, [Choose], round_num=r.round_num)
        elif isinstance(r, OperatingRound):
            if r.round_num < self.operating_rounds_in_set:
                self.or_round_finished()
                self.round = self.new_operating_round(r.round_num + 1)
            else:
                self.turn += 1
                self.or_round_finished()
                self.or_set_finished()
                self.round = self.new_stock_round()
        else:
            self.reorder_players()
            self.round = self.new_stock_round()

    def reorder_players(self):
        current = list(reversed(self.players))

        def key(p):
            cash = p.cash * 2 if self.double_cash_choice is p else p.cash
            return (cash, current.index(p))
        self.players = sorted(self.players, key=key, reverse=True)
        self.double_cash_choice = None

    def num_certs(self, player):
        n = super().num_certs(player)
        if any(c.sym == TAX_HAVEN for c in player.companies):
            n -= 1
        return n

    def player_value(self, player):
        v = super().player_value(player) - self.player_debt.get(player, 0)
        th = self.company_by_id(TAX_HAVEN)
        if th is not None and th.owner is player:
            v += self.tax_haven.value()
        return v

    def company_value(self, company):
        return self.tax_haven.value() if company.sym == TAX_HAVEN else company.value

    def total_cash(self):
        return (super().total_cash() + self.tax_haven.cash + sum(h.cash for h in self.phase_revenue.values()))

    # ------------------------------------------------------------ stock-round rules
    def can_par(self, corp, player) -> bool:
        if corp.type != "major":
            return False
        st = self.phase.status
        if "can_convert_concessions" not in st and "can_par" not in st:
            return False
        if corp.ipoed or corp.closed:
            return False
        if corp.par_via_exchange is not None and not corp.par_via_exchange.closed:
            return corp.par_via_exchange.owner is player
        return "can_par" in st

    def check_sale_timing(self, entity, bundle) -> bool:
        corp = bundle.corporation
        if self.round.is_operating() and corp is getattr(self.round, "current_operator", None):
            return len(corp.operating_history) > 1
        return corp.operated()

    def stock_round_finished(self, round_):
        corps = [c for c in self.corporations if c.floated() and c.type != "minor" and c.share_price is not None]
        for corp in sorted(corps, key=self._market_sort_key):
            if self.sold_out(corp):
                self.stock_market.move_up(corp)

    def sold_out(self, corp) -> bool:
        if corp.type != "major":
            return False
        held = sum(p for h, p in corp.share_holders.items() if h.is_player or h is self.tax_haven)
        return held >= 100

    # ------------------------------------------------------------ company choices
    def company_choices(self, company, time) -> dict:
        sym = company.sym
        if sym == DOUBLE_CASH:
            if self.double_cash_choice or company.owner is None or not company.owner.is_player or time != "choose":
                return {}
            return {"double": "Double your actual cash holding when determining player turn order."}
        if sym == TAX_HAVEN:
            return self.choices_tax_haven(company, time)
        if sym == LUR:
            return self.choices_lur(company, time)
        if sym == "P18":
            return self.choices_chpr(company, time)
        if sym == "P8":
            return self.choices_egr(company, time)
        if sym == "P5":
            if time != "token" or company.owner is None or not company.owner.is_corporation:
                return {}
            return {"exchange": "Move an exchange token to the available section"} if company.owner.exchange_tokens > 0 else {}
        return {}

    def tax_haven_multiple(self) -> bool:
        return "tax_haven_multiple" in self.optional_rules

    def tax_haven_spender(self, company):
        if not self.tax_haven_multiple() or self.tax_haven.value() == 0:
            return company.owner
        return self.tax_haven

    def choices_tax_haven(self, company, time) -> dict:
        if self.tax_haven.value() > 0 and not self.tax_haven_multiple():
            return {}
        if company.owner is None or not company.owner.is_player or time != "stock_round":
            return {}
        if getattr(self.round, "tax_haven_bought", False):
            return {}
        spender = self.tax_haven_spender(company)
        out = {}
        for corp in self.corporations:
            if corp.type != "major" or corp.share_price is None:
                continue
            price = corp.share_price.price
            if price <= 0 or self.tax_haven.num_shares_of(corp) > 0 or price > spender.cash:
                continue
            if corp.num_ipo_shares() > 0:
                out[f"{corp.id}_ipo"] = f"{corp.id} IPO"
            if self.pool.percent_of(corp) > 0:
                out[f"{corp.id}_market"] = f"{corp.id} Market"
        return out

    def tax_haven_bundle(self, choice):
        cid, _, where = choice.partition("_")
        corp = self.corporation_by_id(cid)
        share = corp.shares_of(corp)[0] if where == "ipo" else self.pool.shares_of(corp)[0]
        return ShareBundle([share])

    def choices_lur(self, company, time) -> dict:
        if time not in ("token", "track", "issue") or company.owner is None or not company.owner.is_corporation:
            return {}
        out = {}
        for prefix, box in (("M", self.bidbox_minors()), ("C", self.bidbox_concessions()), ("P", self.bidbox_privates())):
            for c in self.bank_companies(prefix):
                if c in box:
                    continue
                out[f"{c.sym}_top"] = f"{c.sym}-Top"
                out[f"{c.sym}_bottom"] = f"{c.sym}-Bottom"
        return out

    def choices_chpr(self, company, time) -> dict:
        owner = company.owner
        if time not in ("token", "track") or owner is None or not owner.is_corporation:
            return {}
        out = {}
        if owner.exchange_tokens > 0:
            out["exchange"] = "Move an exchange token to the available section"
        if any(not t.used and t.type == "normal" for t in owner.tokens) and \
                owner.exchange_tokens < self.data["exchange_tokens"].get(owner.id, 0):
            out["available"] = "Move an available token to the exchange section"
        return out

    def choices_egr(self, company, time) -> dict:
        if len(company.abilities) != 3 or time != "special_choose":
            return {}
        return {"token": "Discount token for one rough terrain, hill or mountain lay",
                "discount": "20 continuous discount off hill and mountain terrain"}

    def company_made_choice(self, company, choice, time):
        sym = company.sym
        if sym == DOUBLE_CASH:
            self.double_cash_choice = company.owner
        elif sym == TAX_HAVEN:
            self.made_choice_tax_haven(company, choice)
        elif sym == LUR:
            cid, _, where = choice.partition("_")
            sel = self.company_by_id(cid)
            self.companies.remove(sel)
            if where == "top":
                box = {"M": self.bidbox_minors, "C": self.bidbox_concessions}.get(sel.sym[0], self.bidbox_privates)()
                last = box[-1] if box else None
                idx = self.companies.index(last) if last in self.companies else -1
                self.companies.insert(idx + 1, sel)
            else:
                self.companies.append(sel)
            company.close()
        elif sym == "P5":
            self.move_exchange_token(company.owner)
            company.close()
        elif sym == "P18":
            owner = company.owner
            if choice == "exchange":
                self.move_exchange_token(owner)
            else:
                tok = next(t for t in owner.tokens if not t.used and t.type == "normal")
                owner.tokens.remove(tok)
                owner.exchange_tokens += 1
            company.close()
        elif sym == "P8":
            remove = "tile_discount" if choice == "token" else "tile_lay"
            company.abilities = [a for a in company.abilities if a.get("type") != remove]

    def move_exchange_token(self, corp):
        corp.exchange_tokens -= 1
        corp.tokens.append(Token(corp, price=self.TOKEN_PRICE))

    def made_choice_tax_haven(self, company, choice):
        spender = self.tax_haven_spender(company)
        bundle = self.tax_haven_bundle(choice)
        corp = bundle.corporation
        floated = corp.floated()
        receiver = self.bank if bundle.owner is self.pool else corp
        self.share_market.transfer(bundle, self.tax_haven, spender=spender, receiver=receiver, price=bundle.price(),
                                   allow_president_change=False)
        if corp.floatable and floated != corp.floated():
            self.float_corporation(corp)

    def crowded_corp(self, corp) -> bool:
        trains = sum(1 for t in corp.trains if t.name not in EXTRA_TRAINS)
        if trains > self.train_limit(corp):
            return True
        if sum(1 for t in corp.trains if t.name in EXTRA_PERMANENTS) > 1:
            return True
        return sum(1 for t in corp.trains if t.name == "P+") > 1
