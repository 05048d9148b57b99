"""1822: The Railways of Great Britain (with the 1822+ options). Rules on top of the core.

Minors and majors are corporations (minors hold one 100% certificate). Minors, concessions
and privates are sold from bid boxes in the stock round; bids resolve when it ends.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, ClassVar

from ...core.board import Board
from ...core.entities import Corporation, Player, ShareBundle
from ...core.errors import GameError
from ...core.game import Game
from ...core.market import StockMarket
from ...core.money import CashHolder, spend
from ...core.round import OperatingRound, Round, StockRound
from ...core.tokens import Token
from . import config

if TYPE_CHECKING:
    from .routes import RouteRules1822

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
        for _corp, shares in self.shares_by_corp.items():
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
        for bid, _i in sorted(float_minors, key=lambda m: (m[0][1], n - m[1]), reverse=True):
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
    NAME = "Choose"

    def select_entities(self):
        return self.game.choices_entities()

    def finished(self) -> bool:
        return self.game.finished or self.active_step() is None

    def setup(self):
        self.skip_steps()

    def after_process(self, action, entity):
        pass


class OperatingRound1822(OperatingRound):
    def recalculate_order(self) -> None:
        """After a president's emergency sale the companies still to operate this round are
        put back in operating order (prices may have moved)."""
        rest = self.entities[self.entity_index + 1:]
        self.entities = self.entities[:self.entity_index + 1] + [e for e in self.game.operating_order() if e in rest]

    def skip_entity(self, entity) -> bool:
        return entity.closed or not entity.floated() or entity not in self.game.corporations


def _track_cls():
    from .steps import Track1822

    return Track1822


class Board1822(Board):
    """Border costs are paid when the new tile has an exit over the border (no track needed
    on the other side); the other side's border goes only if that hex has track there."""

    def _border_cost(self, hex_, tile) -> int:
        total = 0
        for b in list(self.borders(hex_)):
            if not getattr(b, "cost", None):
                continue
            nb = self.neighbors(hex_).get(b.edge)
            if nb is None or not self.targeting(hex_, nb):
                continue
            total += b.cost
            self.set_borders(hex_, [x for x in self.borders(hex_) if x is not b])
            inv = (b.edge + 3) % 6
            if inv in self.tile(nb).exits:
                self.set_borders(nb, [x for x in self.borders(nb) if x.edge != inv])
        self._last_border_cost = total
        return total

    _last_border_cost = 0

    def border_cost_preview(self, hex_, tile) -> int:
        exits = set(tile.exits)
        nbs = self.neighbors(hex_)
        return sum(b.cost for b in self.borders(hex_)
                   if getattr(b, "cost", None) and b.edge in exits and nbs.get(b.edge) is not None)

    def lay_cost_preview(self, hex_, tile, entity) -> int:
        cost = self.game.upgrade_cost(self.tile(hex_), hex_, entity) + self.border_cost_preview(hex_, tile)
        return self.game.tile_cost_with_discount(hex_, entity, cost)


class Game1822(Game):
    # attributes of the 1822 game that are not set in its __init__
    board: Board1822
    double_cash_choice: Player | None  # the player who chose to double his cash (P?)
    _lay_syms: Collection[str]  # the companies of the special tile lay under way
    _pullman_saved: tuple | None  # a train's name and distance while the pullman rides on it

    TITLE = "1822"
    PLAYER_RANGE = (2, 7)
    OPTIONAL_RULES = dict.fromkeys(config.OPTIONS)
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
    GAME_END_CHECK: ClassVar[dict] = {"bank": "full_or", "stock_market": "current_or"}
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
    GSWR_DISCOUNT = 40  # P10 pays one estuary crossing
    M14_TOKEN_PRICE = 20  # an acquired minor 14's London token, when London is in reach
    TILE_LAYS: ClassVar[list] = [{"lay": True, "upgrade": True}]
    TRAIN_PRICE_MIN = 1

    # ------------------------------------------------------------ set-up
    def init_optional_rules(self, rules):
        return [r for r in rules if r in config.OPTIONS]

    def build_data(self):
        return config.build(self.optional_rules, len(self.players))

    @property
    def plus(self) -> bool:
        return "plus_expansion" in self.optional_rules

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
        for c in self.companies:
            for a in c.abilities:
                # a tile lay ability without a count has as many uses as its lays (P12: two)
                if a.get("type") == "tile_lay" and a.get("count") is None and a.get("lay_count") is not None:
                    a["count"] = a["lay_count"]
        self.nothing_sold_in_sr = True
        self.bidding_tokens = self.data["bidding_tokens"]
        self.phase_revenue: dict[str, Holder | None] = {sym: Holder(sym) for sym in PHASE_REVENUE}
        self.tax_haven = Holder(TAX_HAVEN)
        self.double_cash_choice = None
        self.minor_14_city_exit = None
        self.player_debt = dict.fromkeys(self.players, 0)
        self.setup_companies()
        self.bidbox_minors_cache = []
        for corp in self.corporations:
            if corp.type != "major":
                continue
            corp.exchange_tokens = self.data["exchange_tokens"].get(corp.id, 0)
            if corp.destination:
                corp.tokens.append(Token(corp, price=0, type="destination"))
            ex = next((c for c in self.companies
                       if any(a.get("type") == "exchange" and corp.id in a.get("corporations", [])
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

    def init_map(self):
        map_data = {"layout": self.data.get("layout", "flat"), "axes": self.data.get("axes"),
                    "location_names": self.data.get("location_names", {}), "hexes": self.data["hexes"]}
        self.board = Board1822(self, map_data, self.data.get("tiles", {}), self.IMPASSABLE_HEX_COLORS)
        self.board.reserve_homes(self.corporations)

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
                self.player_debt[p] = debt + -(-debt * self.PLAYER_LOAN_INTEREST // 100)

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
            self.start_operating_rounds()
        elif isinstance(r, StockRound):
            from .steps import Choose

            self.round = ChoicesRound(self, [Choose], round_num=r.round_num)
        else:
            super().next_round()

    def reorder_players(self):
        current = list(reversed(self.players))

        def key(p: Player):
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
        return (super().total_cash() + self.tax_haven.cash + sum(h.cash for h in self.phase_revenue.values()
                                                                 if h is not None))

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
        corp: Corporation = bundle.corporation
        if self.round.is_operating() and corp is getattr(self.round, "current_operator", None):
            return len(corp.operating_history) > 1
        return corp.operated()

    def stock_round_finished(self, round_):
        corps = [c for c in self.corporations if c.floated() and c.type != "minor" and c.share_price is not None]
        for corp in sorted(corps, key=self._market_sort_key):
            if self.sold_out(corp):
                self.stock_market.move_up(corp)

    def can_dump_1822(self, entity, bundle) -> bool:
        """May ``entity`` let go of ``bundle``'s president's certificate? The tax haven holds its
        share like a player, so it counts among the others who could take the presidency."""
        corp = bundle.corporation
        if bundle.presidents_share is None:
            return True
        others = [p for h, p in corp.share_holders.items()
                  if p > 0 and h is not entity
                  and (h.is_player or h is self.tax_haven or (h.is_corporation and h is not corp))]
        return (max(others) if others else 0) >= bundle.presidents_share.percent

    def check_sale_presidency(self, bundle) -> None:
        """Quirk: the reference crashes on a sale after which the tax haven is among the
        candidates for the presidency (it looks the tax haven up among the players), although it
        offers that sale; we refuse it, so our games load there."""
        if self.tax_haven_would_be_president(bundle):
            raise GameError(f"selling {bundle.percent}% of {bundle.corporation.name} would make the tax haven "
                            "a candidate for its presidency", rule="tax-haven-presidency")

    def tax_haven_would_be_president(self, bundle) -> bool:
        corp = bundle.corporation
        haven = self.tax_haven.percent_of(corp)
        if haven < corp.presidents_percent:
            return False
        held = {h: p for h, p in corp.share_holders.items() if p > 0 and (h.is_player or h is self.tax_haven)}
        held[bundle.owner] = held.get(bundle.owner, 0) - bundle.percent
        top = max(held.values())
        return held.get(corp.owner, 0) != top and haven == top

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
            if company.owner.exchange_tokens > 0:
                return {"exchange": "Move an exchange token to the available section"}
            return {}
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
        for prefix, box in (("M", self.bidbox_minors()), ("C", self.bidbox_concessions()), ("P",
                                                                                            self.bidbox_privates())):
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
        if len(corp.trains) < 2:
            return False  # every limit is at least one, and one extra train of each kind is allowed
        names = [self.train_kind(t) for t in corp.trains]
        if sum(1 for n in names if n not in EXTRA_TRAINS) > self.train_limit(corp):
            return True
        if sum(1 for n in names if n in EXTRA_PERMANENTS) > 1:
            return True
        return sum(1 for n in names if n == "P+") > 1

    # ------------------------------------------------------------ operating rounds
    def operating_round(self, round_num):
        from . import steps as s

        return OperatingRound1822(self, [
            s.DiscardTrain1822, s.PendingToken, s.FirstTurnHousekeeping, s.AcquireCompany, s.SpecialChoose,
            s.SpecialTrack, s.SpecialToken, s.Track1822, s.DestinationToken, s.Token1822, s.Route1822,
            s.Dividend1822, s.BuyTrain1822, s.MinorAcquisition, s.PendingToken, s.IssueShares1822,
        ], round_num=round_num)

    def operating_order(self):
        floated = sorted([c for c in self.corporations if c.floated() and not c.closed], key=self._market_sort_key)
        return [c for c in floated if c.type == "minor"] + [c for c in floated if c.type != "minor"]

    def payout_companies(self):
        phase = int(self.phase.name)
        for c in self.companies:
            if c.owner is None or c.closed:
                continue
            if c.sym in PHASE_REVENUE and self.phase_revenue.get(c.sym) is not None:
                c.revenue = phase * PHASE_REVENUE[c.sym]
                spend(self.bank, self.phase_revenue[c.sym], c.revenue)
            if c.sym == DOUBLE_CASH and c.owner.is_corporation:
                c.revenue = self.data["double_cash_revenue"][phase]
        comps = [c for c in self.companies if c.owner is not None and not c.closed and c.revenue > 0
                 and c.owner is not self.bank]

        def key(c):
            if c.owner.is_player:
                return (0, self.players.index(c.owner), "", c.revenue, c.name)
            return (1, 0, c.owner.name, c.revenue, c.name)
        for c in sorted(comps, key=key):
            spend(self.bank, c.owner, c.revenue)

    def place_home_token(self, corp):
        if not corp.tokens or corp.tokens[0].used:
            return
        super().place_home_token(corp)
        if corp.id == TWO_HOME:
            tok = next((t for t in corp.tokens if t.type == "destination" and not t.used), None)
            if tok is not None:
                self.place_destination_token(corp, self.hex_by_id(corp.destination), tok)

    def place_destination_token(self, corp, hex_, token):
        city = self.board.tile(hex_).cities[0]
        self.board.place_city_token(city, corp, token, free=True, check_tokenable=False, cheater=True)
        self.graph_changed()

    def remove_extra_tokens(self, tile):
        board = self.board
        for city in tile.cities:
            counted: dict = {}
            for tok in board.tokens(city):
                if tok is None:
                    continue
                ent = counted.setdefault(tok.corporation, [[], 0])
                if tok.type != "destination":
                    ent[0].append(tok)
                ent[1] += 1
            removed = False
            for corp, (toks, n) in counted.items():
                toks.sort(key=lambda t: corp.tokens.index(t))
                for _ in range(n - 1):
                    t = toks.pop()
                    board.remove_token(t)
                    t.price = self.TOKEN_PRICE
                    removed = True
            if removed:
                self.remove_cheater_slot(city)

    def remove_cheater_slot(self, city):
        board = self.board
        slots = list(board.tokens(city))
        if len(slots) <= city.normal_slots:
            return
        res = list(board.city_reservations(city)) + [None] * len(slots)
        empty = next((i for i, (t, r) in enumerate(zip(slots, res)) if t is None and r is None), None)
        if empty is None:
            return
        last = slots.pop()
        slots[empty] = last
        board.set_tokens(city, slots)

    def can_run_route(self, entity):
        return any(t.name in LOCAL_TRAINS for t in entity.trains) or super().can_run_route(entity)

    def route_trains(self, entity):
        return [t for t in entity.trains if t.name != "P+"]

    def extra_train(self, train) -> bool:
        return train.name in EXTRA_TRAINS

    def must_buy_train(self, entity) -> bool:
        return not any(t.name not in EXTRA_TRAINS for t in entity.trains) and bool(self.depot.depot_trains())

    def train_limit(self, entity):
        return self.phase.train_limit(entity)

    def tile_lays(self, entity):
        if getattr(entity, "sym", None) == "P21":
            return self.data["hsbc_tile_lays"]
        operator = entity.owner if getattr(entity, "is_company", False) else entity
        if int(self.phase.name) >= 3 and getattr(operator, "type", None) == "major":
            return self.data["major_tile_lays"]
        return self.TILE_LAYS

    def purchasable_companies(self, entity):
        out = []
        for c in self.companies:
            if c.closed or c.owner is None or not c.owner.is_player or c.owner is entity:
                continue
            rule = self.data["private_acquisition"].get(c.sym)
            if rule is None:
                continue
            if int(self.phase.name) >= rule["phase"] and entity.type in rule["acquire"]:
                out.append(c)
        return out

    def company_bought(self, company, entity):
        if company.sym in PRIVATE_TRAINS:
            train = self.company_trains[company.sym]
            self.buy_train(entity, train, 0)
            company.close()
        if company.sym in REMOVE_REVENUE:
            company.revenue = 0
        if company.sym in PHASE_REVENUE:
            pot = self.phase_revenue.get(company.sym)
            if pot is not None and pot.cash > 0:
                spend(pot, company.owner, pot.cash)
            self.phase_revenue[company.sym] = None
            company.close()
        if company.sym == DOUBLE_CASH:
            company.revenue = self.data["double_cash_revenue"][int(self.phase.name)]

    def buy_train(self, operator, train, price=None):
        price = train.price if price is None else price
        seller = train.owner
        if price and price > 0:
            spend(operator, self.bank if seller is self.depot or seller is None else seller, price)
        self.remove_train(train)
        train.owner = operator
        operator.trains.append(train)

    def remove_train(self, train):
        owner = train.owner
        if owner is None:
            return
        if owner is self.depot:
            self.depot.remove_train(train)
        elif train in owner.trains:
            owner.trains.remove(train)

    def discard_train(self, train):
        if train.name in EXTRA_PERMANENTS or train.name == "P+":
            self.remove_train(train)
            train.owner = None
            return
        self.remove_train(train)
        train.variants = {train.name: train.variants[train.name]}
        self.depot.reclaim(train)

    def on_train_event(self, event, train):
        kind = event.get("type")
        if kind == "close_concessions":
            for c in self.companies:
                if c.sym[0] == "C" and not c.closed:
                    c.close()
            for corp in self.corporations:
                if corp.type == "major" and not corp.floated():
                    corp.par_via_exchange = None
                    corp.float_percent = 50
        elif kind == "full_capitalisation":
            for corp in self.corporations:
                if corp.type == "major" and not corp.floated():
                    corp.capitalization = "full"
        elif kind == "phase_revenue":
            for sym in PHASE_REVENUE:
                c = self.company_by_id(sym)
                pot = self.phase_revenue.get(sym)
                if c is None or c.closed or pot is None:
                    continue
                if pot.cash > 0:
                    spend(pot, self.bank, pot.cash)
                self.phase_revenue[sym] = None
                c.close()

    def float_corporation(self, corp):
        if "full_capitalisation" in self.phase.status and corp.type == "major":
            if corp.cash > 0:
                spend(corp, self.bank, corp.cash)
            for s in list(corp.shares_of(corp)):
                self.share_market._move_share(s, self.pool)
        if corp.capitalization == "full":
            spend(self.bank, corp, corp.par_price.price * corp.total_shares)
        if corp.type == "major":
            corp.capitalization = "incremental"

    def upgrade_cost(self, old_tile, hex_, entity):
        operator = entity.owner if getattr(entity, "is_company", False) else entity
        discounts = []
        for c in getattr(operator, "companies", []):
            for a in c.abilities:
                if a.get("type") == "tile_discount" and (not a.get("hexes") or hex_.id in a["hexes"]):
                    discounts.append(a)
        total = 0
        for u in old_tile.upgrades:
            cost = u.cost
            terr = list(dict.fromkeys(u.terrains))
            for a in discounts:
                if a.get("terrain") is not None and terr == [a["terrain"]]:
                    cost -= a.get("discount", 0)
            total += cost
        return total

    def tile_cost_with_discount(self, hex_, entity, cost: int) -> int:
        """A paid lay's whole cost (terrain, estuary, extra) less the discounts that name no
        terrain but hexes (P8's hill discount): those come off the total, never below zero."""
        operator = entity.owner if getattr(entity, "is_company", False) else entity
        discount = sum(a.get("discount", 0) for c in getattr(operator, "companies", []) for a in c.abilities
                       if a.get("type") == "tile_discount" and a.get("terrain") is None
                       and (not a.get("hexes") or hex_.id in a["hexes"]))
        return cost - min(cost, discount)

    def home_token_locations(self, corp):
        return [self.hex_by_id(LONDON)] if corp.id == MINOR_14 else None

    def issuable_shares(self, entity) -> list:
        if not getattr(entity, "is_corporation", False) or entity.type != "major":
            return []
        if entity.num_ipo_shares() == 0 or len(entity.operating_history) < 2:
            return []
        out = []
        for b in self.share_market.bundles_for(entity, entity):
            if not self.share_market.fit_in_pool(b, self.MARKET_SHARE_LIMIT):
                continue
            n = int(b.num_shares())
            rc = entity.share_price.coordinates
            for _ in range(n):
                nxt = self.stock_market.down_of(entity, rc)
                if self.stock_market.cell(*nxt) is not None:
                    rc = nxt
            cell = self.stock_market.cell(*rc)
            assert cell is not None  # the corporation's cell, or one checked above
            b.share_price = cell.price
            out.append(b)
        return out

    def redeemable_shares(self, entity) -> list:
        if not getattr(entity, "is_corporation", False) or entity.type != "major":
            return []
        return [b for b in self.share_market.bundles_for(self.pool, entity) if entity.cash >= b.price()]

    PLAYER_LOAN_INTEREST = 50

    def player_loan(self, player, amount):
        """The bank lends ``amount``; the debt includes 50% interest at once."""
        spend(self.bank, player, amount)
        self.player_debt[player] = self.player_debt.get(player,
                                                        0) + amount + -(-amount * self.PLAYER_LOAN_INTEREST // 100)

    def payoff_player_loan(self, player, amount=None):
        debt = self.player_debt.get(player, 0)
        if debt <= 0:
            raise GameError(f"{player.name} has no loan", rule="no-loan")
        if amount is not None and (not isinstance(amount, int) or amount <= 0):
            raise GameError("a payoff needs a positive integer amount", rule="malformed-action")
        amount = min(player.cash if amount is None else min(amount, player.cash), debt)
        if amount <= 0:
            raise GameError(f"{player.name} has no cash to pay off the loan", rule="insufficient-cash")
        spend(player, self.bank, amount)
        self.player_debt[player] = debt - amount

    def game_end_check(self):
        if self.end_trigger:
            return self.end_trigger
        for reason, timing in self.GAME_END_CHECK.items():
            if not self.end_check_value(reason):
                continue
            if reason == "bank":
                timing = "full_or" if self.round.is_operating() else "current_or"
            self.end_trigger = (reason, timing)
            break
        return self.end_trigger if self.end_trigger else (None, None)

    def after_lay_tile(self, hex_, old_tile, tile):
        # a plain yellow tile laid on an S/T hex keeps the symbol as a temporary label; it is the
        # hex's label (board state), so it leaves with the tile when the tile is upgraded
        olab = old_tile.label
        if olab and tile.color == "yellow" and olab in ("S", "T") and not tile.label:
            self.board.set_label(hex_, olab)
        if hex_.id == LONDON:
            self.upgrade_minor_14_home_hex(hex_)

    def upgrade_minor_14_home_hex(self, hex_):
        if self.minor_14_city_exit is None:
            return
        board = self.board
        city = next((p.city for p in board.tile(hex_).paths if p.city is not None and p.edges
                     and p.edges[0].num == self.minor_14_city_exit), None)
        if city is None:
            return
        if board.slots(city) <= city.normal_slots:
            board.set_tokens(city, board.tokens(city) + (None,))

    # ------------------------------------------------------------ trains and routes helpers
    def num_trains(self, entity) -> int:
        return sum(1 for t in entity.trains if t.name not in EXTRA_TRAINS)

    def l_upgrade_cost(self) -> int:
        return self.UPGRADE_COST_L_TO_2

    def phase_on_two(self):
        if "2" in self.phase.next_on():
            self.phase.index += 1
            self.on_phase_change(self.phase.name)
            self.depot.clear_cache()

    def secr_token_ability(self, corp) -> bool:
        return corp.id == "SECR" and not getattr(self, "secr_used_ability", False)

    def attach_pullman(self, train):
        d = train.distance
        if isinstance(d, (int, float)):
            visit = d
        else:
            row = next((r for r in d if "city" in r.get("nodes", ())), None)
            visit = row["visit"] if row else 0
        self._pullman_saved = (train.name, train.distance)
        self._pullman_train = train
        train.name = train.name + "+"
        train.distance = [{"nodes": ["city", "offboard"], "pay": 99, "visit": visit},
                          {"nodes": ["town"], "pay": 99, "visit": 99}]

    def detach_pullman(self, train):
        saved = getattr(self, "_pullman_saved", None)
        if saved:
            train.name, train.distance = saved
        self._pullman_saved = None
        self._pullman_train = None

    def train_kind(self, train) -> str:
        """A train's own name, also while a pullman is attached to it (the reference decides
        crowding before the attachment renames the train)."""
        if train is getattr(self, "_pullman_train", None) and self._pullman_saved:
            return self._pullman_saved[0]
        return train.name

    def route_rules(self) -> RouteRules1822:
        from .routes import RouteRules1822

        return RouteRules1822(self)

    def mail_subsidy(self, entity, route_dicts) -> int:
        n = sum(1 for c in entity.companies if c.sym in MAIL_CONTRACTS)
        if n == 0 or not route_dicts:
            return 0
        from ...core import routes as routemod

        rules = routemod.rules_for(self)
        trains = {t.id: t for t in entity.trains}
        try:
            routes = routemod.routes_from_log(rules, route_dicts, trains)
        except GameError as e:
            self.warnings.append(f"mail contract: cannot resolve routes: {e}")
            return 0
        bonuses = []
        colors = self.phase.tiles
        for r in routes:
            stops = r.visited_stops
            if not stops or r.train.name.startswith("L") or len(stops) < 2:
                continue
            first = stops[0].revenue_for(colors, r.train.name)
            last = stops[-1].revenue_for(colors, r.train.name)
            bonuses.append((first + last) // 2)
        bonuses.sort(reverse=True)
        return sum(bonuses[:n])

    def destination_connected(self, entity) -> bool:
        """Does a walk from the destination (not entering cities that block ``entity``) reach
        its home token? The walk stops at the first path that does."""
        dest = self.hex_by_id(entity.destination)
        home = entity.tokens[0].city if entity.tokens and entity.tokens[0].used else None
        dest_tile = self.board.tile(dest) if dest is not None else None
        if dest_tile is None or home is None or not dest_tile.nodes:
            return False
        # the walk can take seconds on a big network: remember its answer for this board (the
        # tokens are part of the key: a token placed in a city does not change the version)
        board = self.board
        key = ("destination", entity.id, frozenset(board.state.tokens.items()))
        return board.derived(key, lambda: self._walk_to_home(entity, dest_tile, home))

    def _walk_to_home(self, entity, dest_tile, home) -> bool:
        from ...core.graph import walk_node

        class Found(Exception):
            pass

        def visit(path, *args):
            if home in path.nodes:
                raise Found

        try:
            # the reference walks every converging branch (exponential on a big network); a
            # plain reachability walk, as its graph uses, gives the same answer
            walk_node(dest_tile.nodes[0], visit, board=self.board, corporation=entity, converging=False)
        except Found:
            return True
        except TypeError:
            return False
        return False

    # ------------------------------------------------------------ minor acquisition
    def remove_exchange_token(self, corp):
        corp.exchange_tokens -= 1

    def acquire_bank_minor(self, entity, minor, token_choice, round_):
        spend(entity, self.bank, self.MINOR_BIDBOX_PRICE)
        if token_choice == "replace":
            if minor.id == MINOR_14:
                self.remove_exchange_token(entity)
                tok = Token(entity, price=0)
                entity.tokens.append(tok)
                self.m14_token_ability = entity
                round_.pending_tokens.append({"entity": entity, "hexes": [self.hex_by_id(LONDON)], "token": tok})
            else:
                board = self.board
                city = next(c for c in board.tile(self.hex_by_id(minor.coordinates)).cities
                            if board.reserved_by(c, minor))
                board.remove_reservation(city, minor)
                if board.tokened_by(city, entity):
                    self.move_exchange_token(entity)
                else:
                    self.remove_exchange_token(entity)
                    tok = Token(entity, price=0)
                    entity.tokens.append(tok)
                    board.place_city_token(city, entity, tok, check_tokenable=False, free=True)
                    self.graph_changed()
        elif token_choice == "exchange":
            self.move_exchange_token(entity)
        company = next((c for c in self.companies if c.sym == f"M{minor.id}"), None)
        if company is not None:
            self.companies.remove(company)
        self.close_corporation(minor)

    def acquire_player_minor(self, entity, minor, shares, token_choice):
        owner = minor.owner
        diff = minor.share_price.price * 2 - entity.share_price.price * shares
        if diff < 0:
            spend(owner, entity, -diff)
        elif diff > 0:
            spend(entity, owner, diff)
        for _ in range(shares):
            share = entity.shares_of(entity)[0]
            self.share_market._move_share(share, owner)
        if minor.cash > 0:
            spend(minor, entity, minor.cash)
        for c in list(minor.companies):
            minor.companies.remove(c)
            c.owner = entity
            entity.companies.append(c)
        for t in list(minor.trains):
            minor.trains.remove(t)
            t.owner = entity
            entity.trains.append(t)
        if token_choice == "replace":
            city = minor.tokens[0].city
            if self.board.tokened_by(city, entity):
                self.move_exchange_token(entity)
                self.remove_minor_token(minor)
            else:
                self.remove_exchange_token(entity)
                self.move_tokens_to_surviving(entity, minor)
        elif token_choice == "exchange":
            self.move_exchange_token(entity)
            self.remove_minor_token(minor)
        self.close_corporation(minor)

    def min_city_slots(self, city) -> int:
        if city.hex is None or city.hex.id != LONDON:
            return city.normal_slots
        path = next((p for p in self.board.tile(city.hex).paths if p.city is city and p.edges), None)
        if path is not None and path.edges[0].num == self.minor_14_city_exit:
            return city.normal_slots + 1
        return city.normal_slots

    def remove_minor_token(self, minor):
        tok = minor.tokens[0]
        city = tok.city
        if city is None:
            return
        self.board.delete_token(city, tok, remove_slot=self.board.slots(city) > self.min_city_slots(city))
        tok.used = False
        tok.city = None
        tok.hex = None

    def move_tokens_to_surviving(self, surviving, minor):
        used = [t for t in surviving.tokens if t.used]
        unused = [t for t in surviving.tokens if not t.used]
        for tok in minor.tokens:
            new = Token(surviving, price=0)
            if tok.hex is not None and tok.city is not None:
                used.append(new)
                city = tok.city
                board = self.board
                board.set_tokens(city, [new if t is tok else t for t in board.tokens(city)])
                board._mark_placed(new, city)
                tok.used = False
                tok.city = None
                tok.hex = None
            else:
                unused.append(new)
        unused.sort(key=lambda t: t.price)
        surviving.tokens = (used + unused)[:9]
        self.graph_changed()

    def close_corporation(self, corp):
        for t in list(corp.trains):
            corp.trains.remove(t)
            t.owner = None
        super().close_corporation(corp)
        self._index_entities()

    def sell_shares_and_change_price(self, bundle):
        corp = bundle.corporation
        if bundle.owner is corp:
            price = bundle.price()
            self.share_market.transfer(bundle, self.pool, spender=self.bank, receiver=corp, price=price)
        else:
            self.share_market.sell_shares(bundle)
        for _ in range(int(bundle.num_shares())):
            self.stock_market.move_down(corp)

    # ------------------------------------------------------------ track
    def check_lay_1822(self, entity, hex_, old_tile, tile):
        # the reference filters this in its tile choice only, so logs are not checked
        if self.loading:
            return
        if getattr(entity, "type", None) == "minor" and "minors_green_upgrade" in self.phase.status \
                and tile.color not in ("yellow", "green"):
            raise GameError("Minor cannot upgrade past green", rule="tile-colour")

    def after_lay_1822(self, entity, hex_, old_tile, tile):
        self.remove_extra_tokens(tile)
        self.after_lay_tile(hex_, old_tile, tile)

    def tile_valid_for_phase(self, tile):
        mode = getattr(self, "_advanced_lay", False)
        current = tile.color in self.phase.tiles
        if not mode:
            return current
        # P11: a tile of the colour after the phase's latest one
        last = self.phase.tiles[-1]
        ahead = last in self.COLORS[:-1] and tile.color == self.COLORS[self.COLORS.index(last) + 1]
        return ahead or (mode == "either" and current)

    def check_company_lay(self, company, corp, hex_, old_tile, tile):
        """Where each private company may lay (live play; the reference's hex filters)."""
        sym = company.sym
        if sym == "P2" and len(old_tile.towns) != 1:
            raise GameError("P2 lays on a hex with one small station", rule="ability-hex")
        if sym == "P11":
            if old_tile.name not in self.TRACK_PLAIN + self.TRACK_TOWN:
                raise GameError("P11 upgrades plain track or small stations", rule="ability-hex")
            if old_tile.color != self.phase.tiles[-1]:
                raise GameError("P11 upgrades tiles of the phase's latest colour", rule="ability-hex")
            if corp.type == "minor" and old_tile.color != "yellow":
                raise GameError("a minor uses P11 on yellow tiles only", rule="ability-hex")
        if sym == "P8" and not any(t in ("mountain", "hill") for u in old_tile.upgrades for t in u.terrains):
            raise GameError("P8 lays on hills and mountains", rule="ability-hex")
        if sym == "P10" and not any(getattr(b, "type", None) == "water" for b in self.board.borders(hex_)):
            raise GameError("P10 lays over an estuary", rule="ability-hex")


    TRACK_PLAIN = ("7", "8", "9", "80", "81", "82", "83", "544", "545", "546", "60", "169")
    TRACK_TOWN = ("3", "4", "58", "141", "142", "143", "144", "767", "768", "769", "X17")
    COLORS = ("white", "yellow", "green", "brown", "gray")

    def upgrades_to(self, old_tile, new_tile) -> bool:
        if old_tile.hex is not None and old_tile.hex.id == "D35" and old_tile.color == "white":
            return new_tile.name == "57"
        if old_tile.name in self.TRACK_TOWN and new_tile.name in self.TRACK_PLAIN:
            if old_tile.color in self.COLORS and new_tile.color in self.COLORS:
                return self.COLORS.index(new_tile.color) == self.COLORS.index(old_tile.color) + 1
            return False
        from ...core.tiles import upgrades_to

        return upgrades_to(old_tile, new_tile, special=getattr(self, "_special_lay", False),
                           **self.board_labels(old_tile))

    # ------------------------------------------------------------ private companies' tile lays
    def teleport_ability(self, company):
        """P5's teleport: upgrade the English Channel to make room for an exchange token."""
        if company.sym != "P5" or company.closed or company.owner is None or not company.owner.is_corporation:
            return None
        ab = next((a for a in company.abilities if a.get("type") == "teleport" and not a.get("used")), None)
        if ab is None or company.owner.exchange_tokens <= 0:
            return None
        tile = self.board.tile(self.hex_by_id("P43"))
        city = tile.cities[0]
        if self.board.get_slot(city, company.owner) is not None:
            return None
        last = self.phase.tiles[-1]
        if (tile.color == "green" and last not in ("brown", "gray")) or (tile.color == "brown" and last != "gray"):
            return None
        return ab

    def track_ability(self, company, time):
        if company.closed or company.owner is None or not company.owner.is_corporation:
            return None
        if time == "special_track" and company.sym == "P5":
            return self.teleport_ability(company)
        for a in company.abilities:
            if a.get("type") != "tile_lay":
                continue
            if time not in (a.get("when") or []):
                continue
            cnt = a.get("count")
            if cnt is not None and cnt <= 0:
                continue
            if company.sym == "P21":
                owner = company.owner
                if not any(t.used and t.city is not None and t.city.hex.id in ("N21", "N23") for t in owner.tokens):
                    continue
                from .steps import SpecialTrack

                special = next((st for st in getattr(self.round, "steps", []) if isinstance(st, SpecialTrack)), None)
                if getattr(self.round, "num_laid_track", 0) > 0 and getattr(special, "company", None) is not company:
                    continue  # the bridge is built before any other track this turn
            return a
        return None

    def use_tile_ability(self, ab, upgrade):
        if ab.get("count") is not None and ab["count"] <= 0:
            return
        if ab.get("count") is not None:
            ab["count"] -= 1
        if ab.get("upgrade_count") is None or ab.get("lay_count") is None:
            return
        if upgrade:
            if ab["upgrade_count"] <= 0:
                raise GameError("Cannot use this ability to upgrade a tile now", rule="ability")
            ab["lay_count"] = 0
            ab["upgrade_count"] -= 1
            if ab["upgrade_count"] <= 0:
                ab["count"] = 0
        else:
            if ab["lay_count"] <= 0:
                raise GameError("Cannot use this ability to lay a tile now", rule="ability")
            ab["upgrade_count"] = 0
            ab["lay_count"] -= 1
            if ab["lay_count"] <= 0:
                ab["count"] = 0

    def special_lay_tile(self, step, action, company, ab):
        corp = company.owner
        round_ = self.round
        hex_ = self.hex_by_id(action.get("hex"))
        tile = self.tile_by_id(action.get("tile"))
        if hex_ is None or tile is None:
            raise GameError("unknown hex or tile", rule="unknown-hex")
        rotation = action.get("rotation", 0)
        if corp.type == "minor" and tile.color in ("brown", "gray"):
            raise GameError("Minor cannot upgrade past green", rule="tile-colour")
        combo = []
        for cid in action.get("combo_entities") or []:
            c = self.company_by_id(cid)
            cab = self.track_ability(c, "track") if c is not None else None
            if c is None or c.owner is not corp or cab is None:
                raise GameError(f"{cid!r} cannot join this tile lay", rule="bad-combo")
            combo.append((c, cab))
        chain = [company] + [c for c, _ in combo]
        for i, c in enumerate(chain):
            allowed = next((a.get("combo_entities") or [] for a in c.abilities if a.get("type") == "tile_lay"), [])
            if any(o.sym not in allowed for o in chain[i + 1:]):
                raise GameError(f"Cannot combine {'+'.join(x.sym for x in chain)}", rule="bad-combo")
        syms = {c.sym for c in chain}
        matched = self.matching_abilities([(company, ab)] + combo, hex_, tile)
        if not matched:
            raise GameError(f"{'+'.join(c.sym for c in chain)} cannot lay tile {tile.name} on {hex_.id}",
                            rule="ability-tile")
        old_tile = self.board.tile(hex_)
        upgrade = old_tile.color != "white"
        extra = "P12" in syms
        if not self.loading:
            for c in chain:
                self.check_company_lay(c, corp, hex_, old_tile, tile)
        if not extra:
            track = next((s for s in round_.steps if isinstance(s, _track_cls())), None)
            lay = track.tile_lay(company if company.sym == "P21" else corp) if track is not None else None
            if lay is not None and lay.get("cannot_reuse_same_hex") and hex_ in round_.laid_hexes:
                raise GameError(f"{hex_.id} was already laid this turn", rule="same-hex")
            if lay is None or (upgrade and not lay["upgrade"]) or (tile.color == "yellow" and not lay["lay"]):
                raise GameError("no tile lay left for this company's ability", rule="tile-lay-limit")
        free = any(a.get("free") for _, a in matched)
        gswr = "P10" in syms
        hsbc = company.sym == "P21"

        def pay(cost):
            # the estuary checks hold for free lays too
            border = self.board._last_border_cost
            if gswr and border == 0:
                raise GameError("Must lay tile with one path over an estuary crossing", rule="ability")
            if hsbc and border == 0:
                raise GameError("Must lay tile with one path over the Hull / Grimsby estuary", rule="ability")
            if free:
                return
            if gswr:
                cost -= self.GSWR_DISCOUNT
            cost = self.tile_cost_with_discount(hex_, company, cost)
            if cost > 0:
                spend(corp, self.bank, cost)
        teleport = ab.get("type") == "teleport"
        self._special_lay = True
        self._teleport_lay = teleport
        # P11 lays the next colour; combined with another company either colour will do
        self._advanced_lay = ("next" if syms == {"P11"} else "either") if "P11" in syms else False
        self._lay_syms = syms
        try:
            self.lay_tile(company, hex_, tile, rotation, pay=pay)
        finally:
            self._special_lay = False
            self._teleport_lay = False
            self._advanced_lay = False
            self._lay_syms = ()
        if teleport:
            ab["used"] = True
            round_.teleported = company
        if extra:
            round_.laid_hexes.append(hex_)
            minor_single = corp.type == "minor"
        else:
            if upgrade:
                round_.upgraded_track = True
            round_.num_laid_track += 1
            round_.laid_hexes.append(hex_)
            minor_single = False
        self.after_lay_1822(corp, hex_, old_tile, self.board.tile(hex_))
        up = tile.color in ("green", "brown", "gray")
        for c, a in [(company, ab)] + combo:
            self.use_tile_ability(a, up)
            if minor_single:
                self.use_tile_ability(a, up)
            if a.get("closed_when_used_up") and (a.get("count") or 0) <= 0:
                c.close()
            if a.get("must_lay_together") and c is not company:
                step.company = c if (a.get("count") or 0) > 0 and not c.closed else None
        if ab.get("must_lay_together"):
            if round_.num_laid_track == 1 and not ab.get("consume_tile_lay"):
                round_.num_laid_track += 1
            step.company = company if (ab.get("count") or 0) > 0 and not company.closed else None

    @staticmethod
    def matching_abilities(pairs, hex_, tile) -> list:
        """The (company, ability) pairs of a lay that apply to this hex and tile."""
        return [(c, a) for c, a in pairs
                if (not a.get("hexes") or hex_.id in a["hexes"]) and (not a.get("tiles") or tile.name in a["tiles"])]

    def combo_companies(self, company) -> tuple:
        """Companies of the same owner whose tile lays may join ``company``'s, as the reference
        offers them, and a function giving a company's combination list."""
        def combos(c):
            return next((a.get("combo_entities") or [] for a in c.abilities if a.get("type") == "tile_lay"), [])
        return [self.company_by_id(sym) for sym in combos(company)
                if self.company_by_id(sym) is not None and self.company_by_id(sym).owner is company.owner
                and self.track_ability(self.company_by_id(sym), "track") is not None], combos

    def special_lay_options(self, company, ab) -> list:
        """``company``'s lays alone and combined with each valid set of its owner's companies."""
        from itertools import combinations

        out = self.special_lay_candidates(company, ab)
        others, combos = self.combo_companies(company)
        for n in range(1, len(others) + 1):
            for group in combinations(others, n):
                if any(b.sym not in combos(a) for a in group for b in group if a is not b):
                    continue
                pairs = [(c, self.track_ability(c, "track")) for c in group]
                syms = [c.sym for c in group]
                out += [{**a, "combo_entities": syms} for a in self.special_lay_candidates(company, ab, pairs)]
        return out

    def special_lay_candidates(self, company, ab, combo=()):
        """A private company's tile lays (alone or with ``combo``, (company, ability) pairs), as
        the reference offers them: the hexes the abilities may reach now and, for abilities
        naming their tiles, those tiles (compared as special lays), otherwise the phase's tiles
        that upgrade the hex normally."""
        if ab is None:
            return []
        corp = company.owner
        pairs = [(company, ab)] + list(combo)
        syms = {c.sym for c, _ in pairs}
        track = next((s for s in self.round.steps if isinstance(s, _track_cls())), None)
        lay = track.tile_lay(company if company.sym == "P21" else corp) if track is not None else None
        if lay is not None and not (lay["lay"] or lay["upgrade"]):
            lay = None
        if lay is None and "P12" not in syms:
            return []
        self._teleport_lay = ab.get("type") == "teleport"
        self._lay_syms = syms
        out = []
        try:
            options = self._lay_tile_options(pairs, corp)
            hexes = ([self.hex_by_id(h) for h in ab["hexes"]] if self._teleport_lay
                     else list(self.layable_hexes(corp)))
            for hex_ in hexes:
                if ab.get("hexes") and hex_.id not in ab["hexes"]:
                    continue
                if not self.asks_hex(hex_.id):
                    continue
                old = self.board.tile(hex_)
                if lay is not None and ((old.color != "white" and not lay["upgrade"])
                                        or (old.color == "white" and not lay["lay"])
                                        or (lay.get("cannot_reuse_same_hex") and old.color != "white"
                                            and hex_ in self.round.laid_hexes)):
                    continue
                try:
                    for c, _ in pairs:
                        self.check_company_lay(c, corp, hex_, old, None)
                except (GameError, AttributeError):
                    continue
                for t, special, advanced, tiled_by in options:
                    if not self.asks_tile(t.id):
                        continue
                    if tiled_by is not None and corp.type == "minor" and old.color in ("green", "brown", "gray"):
                        continue
                    if advanced and corp.type == "minor" and old.color != "yellow":
                        continue
                    if not all(self.ability_allows(a, t) for _, a in pairs):
                        continue
                    self._special_lay = special
                    out += self._company_lay_rotations(pairs, corp, hex_, old, t)
        finally:
            self._special_lay = False
            self._advanced_lay = False
            self._teleport_lay = False
            self._lay_syms = ()
        return out

    def _lay_tile_options(self, pairs, corp) -> list:
        """(tile, special, advanced, tiled_by) for each tile the reference offers these abilities:
        the phase's tiles when no ability names tiles, else the tiles named from the first
        ability that names some on (P11's of the next colour)."""
        supply: dict = {}
        for t in self.board.supply_tiles():
            supply.setdefault(t.name, t)
        named: list | None = None
        for c, a in pairs:
            if named is None and a.get("tiles"):
                named = []
            if named is not None:
                named += [(n, a.get("special", True), c.sym == "P11", c.sym) for n in a.get("tiles") or []]
        out = []
        if named is None:
            for t in supply.values():
                if t.color in self.phase.tiles and not (corp.type == "minor" and t.color in ("brown", "gray")):
                    out.append((t, False, False, None))
            return out
        seen = set()
        for name, special, advanced, owner in named:
            t = supply.get(name)
            if t is None or name in seen:
                continue
            if (t.color in self.phase.tiles) == advanced:
                continue
            if corp.type == "minor" and t.color in ("brown", "gray"):
                continue
            seen.add(name)
            out.append((t, special, advanced, owner))
        return out

    @staticmethod
    def ability_allows(ab, tile) -> bool:
        """P12 lays yellow tiles or upgrades, not both: what is left of each."""
        if ab.get("upgrade_count") is None or ab.get("lay_count") is None:
            return True
        up = tile.color in ("green", "brown", "gray")
        return (ab["upgrade_count"] if up else ab["lay_count"]) > 0

    def _company_lay_rotations(self, pairs, corp, hex_, old, tile) -> list[dict]:
        company = pairs[0][0]
        syms = {c.sym for c, _ in pairs}
        matched = self.matching_abilities(pairs, hex_, tile)
        if not matched:
            return []
        free = any(a.get("free") for _, a in matched)
        out = []
        for r in range(6):
            placed = self.placed_tile(tile, r, hex_)
            if not (self.upgrades_to(old, placed) and self.legal_tile_rotation(company, hex_, placed)):
                continue
            border = self.board.border_cost_preview(hex_, placed)
            if ("P10" in syms or company.sym == "P21") and border <= 0:
                continue  # these lays must cross an estuary
            cost = self.upgrade_cost(old, hex_, corp) + border
            if "P10" in syms:
                cost -= self.GSWR_DISCOUNT
            cost = 0 if free else self.tile_cost_with_discount(hex_, corp, cost)
            if cost <= corp.cash:
                out.append({"type": "lay_tile", "hex": hex_.id, "tile": tile.id, "rotation": r})
        return out

    def after_sell_shares(self, entity, corp):
        pass

    def after_buy_shares(self, entity, corp):
        pass

    def extra_share_holders(self) -> list:
        return [self.tax_haven]

    def legal_actions(self, entity=None):
        with self.graph_probe():
            return self._legal_actions(entity)

    def _legal_actions(self, entity=None):
        out = super().legal_actions(entity)
        if self.finished:
            return out
        if not self.round.is_operating():
            return out
        from .steps import BuyTrain1822

        cur = self.round.current_entity_of_round()
        for s in self.round.steps:
            if isinstance(s, BuyTrain1822) and s.active() and cur is not None and s.blocking() \
                    and "sell_shares" in s.actions(cur) and self.round.active_step() is s:
                player = cur.owner
                if entity is not None and entity is not player:
                    break
                for b in s.sellable_bundles(player):
                    if not s.can_sell(player, b) or self.tax_haven_would_be_president(b):
                        continue
                    out.append({"type": "sell_shares", "shares": [x.id for x in b.shares], "percent": b.percent,
                                **self.entity_ref(player)})
                break
        return out

    def upgrade_memo_key(self, hex_, old, new):
        # a yellow tile takes a label (S, T) from its hex (in the old tile's labels); D35 has its own rule
        return super().upgrade_memo_key(hex_, old, new) + ((hex_.id,) if hex_.id == "D35" else ())

    def consent_blockers(self, hex_) -> list:
        """Entities holding track rights on a still unbuilt hex."""
        if self.board.tile(hex_).color != "white":
            return []
        out = []
        for e in list(self.companies) + list(self.corporations):
            if getattr(e, "closed", False):
                continue
            for a in (e.abilities if getattr(e, "is_company", False) else e.data.get("abilities", [])):
                if a.get("type") == "blocks_hexes_consent" and hex_.id in a.get("hexes", []):
                    out.append(e)
        m14 = getattr(self, "m14_rights_hex", None)
        if m14 == hex_.id:
            minor = self.corporation_by_id(MINOR_14)
            if minor is not None and not minor.closed:
                out.append(minor)
        return out

    def rights_player(self, e):
        owner = e.owner
        return owner if owner is not None and owner.is_player else None

    def acting_player(self, entity):
        if getattr(entity, "is_company", False):
            entity = entity.owner
        owner = getattr(entity, "owner", None)
        return owner if owner is not None and owner.is_player else None

    def legal_tile_rotation(self, entity, hex_, tile):
        if self.__dict__.get("_probing"):
            return self._legal_tile_rotation(entity, hex_, tile)
        with self.graph_probe():
            return self._legal_tile_rotation(entity, hex_, tile)

    def _legal_tile_rotation(self, entity, hex_, tile):
        if hex_.id == "D35" and tile.name == "57" and tile.rotation in (2, 5):
            return True
        if getattr(entity, "sym", None) == "P5" and hex_.id == "P43":
            return tile.rotation == 0
        operator = entity.owner if getattr(entity, "is_company", False) else entity
        owners = {self.rights_player(b) for b in self.consent_blockers(hex_)} - {None}
        if self.acting_player(operator) not in owners:
            stubs = self.board.stubs(hex_)
            if not owners and stubs:
                exits = set(tile.exits)
                if any(s.edge not in exits for s in stubs):
                    return False
        if entity is not operator and (entity.sym == "P2" or "P2" in getattr(self, "_lay_syms", ())):
            # removing a town: only the old exits must be kept
            exits = set(tile.exits)
            if not all(e in self.board.neighbors(hex_) for e in exits):
                return False
            edges = self.connected_edges(operator, hex_)
            if edges is None or not exits & set(edges):
                return False
            return set(self.board.tile(hex_).exits) <= exits
        return self.board.legal_tile_rotation(operator, hex_, tile)

    def connected_edges(self, entity, hex_):
        operator = entity.owner if getattr(entity, "is_company", False) else entity
        if getattr(self, "_teleport_lay", False):
            return list(range(6))
        return self.graph.connected_hexes(operator).get(hex_)

    def graph_probe(self):
        """A context in which graph queries leave no trace in the sticky route information.

        The reference remembers that a corporation once had a route (graph results are kept
        across changes for such corporations), so *when* the graph is computed matters. Live-play
        checks and bot enumerations compute it at moments a replay does not; they run inside this
        probe so that live play and replay evolve the same way."""
        from contextlib import contextmanager

        @contextmanager
        def probe():
            if self.__dict__.get("_probing"):
                yield  # nested: the outer probe restores
                return
            st = self.board.state if self.board is not None else None
            saved = st.route_info if st is not None else None
            self._probing = True
            try:
                yield
            finally:
                del self._probing  # a passing flag, not game state
                if st is not None and st.route_info is not saved:
                    # forget it, and what the graphs learnt meanwhile (they would not learn it
                    # again), as the core does around legal_actions()
                    st.route_info = saved
                    self.board.forget_views()
        return probe()

    def live_city(self, cid):
        """A city on the map now (a city id of a replaced tile is refused)."""
        city = self.city_by_id(cid)
        return city if city is not None and city.hex is not None and city.tile is self.board.tile(city.hex) else None
