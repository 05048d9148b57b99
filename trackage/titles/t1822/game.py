"""1822: The Railways of Great Britain (with the 1822+ options). Rules on top of the core.

Minors and majors are corporations (minors hold one 100% certificate). Minors, concessions
and privates are sold from bid boxes in the stock round; bids resolve when it ends.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

from trackage.core.trains import phase_buying_train, remove_train

from ...core.board import Board
from ...core.entities import Corporation, Player
from ...core.errors import GameError
from ...core.game import Game
from ...core.market import StockMarket
from ...core.money import pay
from ...core.round import OperatingRound, Round, StockRound
from ...core.tiles import (
    PRINTED,
    tile_paths_kept,
    upgrades_to_correct_city_counts,
    upgrades_to_correct_color,
    upgrades_to_correct_label,
)
from ...core.tiles import upgrades_to as core_upgrades_to
from ...core.tokens import Token
from . import (
    bidboxes,
    choices,
    config,
    loans,
    trackrights,
    trains,
)
from .config import (
    DOUBLE_CASH,
    EXTRA_PERMANENTS,
    EXTRA_TRAINS,
    LOCAL_TRAINS,
    MAIL_CONTRACTS,
    PHASE_REVENUE,
    PLUS_BOX_1,
    PLUS_BOX_2,
    PLUS_BOX_3,
    PRIVATE_TRAINS,
    REMOVE_REVENUE,
    TAX_HAVEN,
    TWO_HOME,
)
from .taxhaven import Holder

if TYPE_CHECKING:
    from .routes import RouteRules1822

#: the key under which a listing memo keeps the state number it was made at
_MEMO_MOVES: tuple[str] = ("state number",)


class Corporation1822(Corporation):
    """Treasury shares of majors sell at the market price once parred."""

    __slots__ = ("_par", "destination", "exchange_tokens", "par_via_exchange")

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

    def floated(self) -> bool:
        # the core's answer, without its write of False over False while unfloated (asked
        # thousands of times a game: each write went through the write barrier)
        # (its own share of itself, :meth:`percent_of`, summed in place: asked of every unfloated
        # company at every operating order and skip question)
        if not self.floatable:
            return False
        if not self._floated:
            cid = self.id
            own = 0
            for s in self.certificates:
                if s.corp_id == cid:
                    own += s.percent
            if own > 100 - self.float_percent:
                return False
            self._floated = True
        return True


class StockMarket1822(StockMarket):
    """Moving up from the top row (or into a gap) goes down-right instead."""

    def up_of(self, corp, rc):
        r, c = rc
        if r > 0 and self.cell(r - 1, c) is not None:
            return (r - 1, c)
        return (r + 1, c + 1)


class StockRound1822(StockRound):
    # the bids per item, changed in place (each item's Bids is saved too: IN_PLACE_PARTS)
    IN_PLACE: ClassVar[tuple[str, ...]] = (*StockRound.IN_PLACE, "bids")

    def __init__(self, game, steps, round_num=1):
        self.bids = {}
        super().__init__(game, steps, round_num)

    def setup(self):
        bidboxes.setup_bidboxes(self.game)
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
                bidboxes.win_company(game, bid[0], company, bid[1])
            else:
                company.owner = None
        n = len(boxes)
        for bid, _i in sorted(float_minors, key=lambda m: (m[0][1], n - m[1]), reverse=True):
            bidboxes.float_minor(game, bid[0], bid[2], bid[1])
        if remove_l and game.depot.upcoming and game.depot.upcoming[0].name == "L":
            while remove_l and game.depot.upcoming and game.depot.upcoming[0].name == "L":
                bidboxes.export_train(game, game.depot.upcoming[0])
                remove_l -= 1
        if remove_minor is not None:
            train = bidboxes.export_train(game, game.depot.upcoming[0])
            phase_buying_train(game, None, train)
            minor = game.find_corporation(remove_minor)
            game.close_corporation(minor)
            remove_minor.close()
            if remove_minor in game.companies:
                game.companies.remove(remove_minor)
        bidboxes.bidbox_minors_refill(game)
        loans.add_interest_player_loans(game)
        game.stock_round_finished(self)


class ChoicesRound(Round):
    NAME = "Choose"

    def select_entities(self):
        return choices.choices_entities(self.game)

    def finished(self) -> bool:
        return self.game.finished or self.active_step() is None

    def setup(self):
        self.skip_steps()

    def after_process(self, action, entity):
        pass


class OperatingRound1822(OperatingRound):
    def skip_entity(self, entity) -> bool:
        return entity.closed or not entity.floated() or entity not in self.game.corporations


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
        borders = self.borders(hex_)
        if not borders:
            return 0  # (most hexes: the listing asks for every candidate lay)
        exits = set(tile.exits)
        nbs = self.neighbors(hex_)
        return sum(b.cost for b in borders
                   if getattr(b, "cost", None) and b.edge in exits and nbs.get(b.edge) is not None)

    def lay_cost_preview(self, hex_, tile, entity) -> int:
        # the same for every tile on a hex but for the borders crossed: kept per hex, entity
        # and border cost for the listing under way (its candidates ask it once each)
        border = self.border_cost_preview(hex_, tile)
        memo = self.game.listing_memo()
        key = ("lay cost", hex_.id, entity, border)
        cost = memo.get(key) if memo is not None else None
        if cost is None:
            cost = self.game.tile_cost_with_discount(
                hex_, entity, self.game.upgrade_cost(self.tile(hex_), hex_, entity) + border)
            if memo is not None:
                memo[key] = cost
        return cost


class Game1822(Game):
    IN_PLACE: ClassVar[tuple[str, ...]] = (*Game.IN_PLACE, "phase_revenue", "player_debt", "company_trains")
    CURRENCY = "£%s"
    GRAPH_KEEPS_WALKS = True  # (no graph hooks: a walk depends on the tiles and tokens it reached only)
    IPO_NAME = "Treasury"
    # attributes of the 1822 game that are not set in its __init__
    board: Board1822
    double_cash_choice: Player | None  # the player who chose to double his cash (P?)
    _lay_syms: Collection[str]  # the companies of the special tile lay under way
    _pullman_saved: tuple | None  # a train's name and distance while the pullman rides on it
    company_trains: dict  # the trains the private companies hold (P1, P3, P4, P13, P14, P19), by company
    m14_token_ability: Corporation | None  # the major that acquired minor 14 from the bank (its London token)
    _special_lay: bool  # a private company's lay under way compares tiles as special lays
    _advanced_lay: bool | str  # P11's lay under way: tiles of the next colour (or "either")
    _teleport_lay: bool  # P5's teleport under way: every edge of the hex counts as connected

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
    # upgrades_to reads only the two tiles, the hex's labels and D35 (all in upgrade_memo_key),
    # and the special-lay flag, which no listing through the memo has set
    UPGRADE_ANSWERS_SHARED = True
    # the listings (the core's, the track step's checks, the private lays) read a shape's
    # name, spec, colour, exits and placements only
    SHARED_SHAPES = True
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
            corp.tokens = tuple(Token(corp, price=p) for p in corp.token_prices)
            corp.min_price = lo
            out.append(corp)
        return out

    def init_cert_limit(self):
        return self.data["cert_limit"]

    def init_starting_cash(self):
        for p in self.players:
            pay(self, self.bank, p, self.data["starting_cash"], "starting_cash")

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
        self.m14_token_ability = None
        self.player_debt = dict.fromkeys(self.players, 0)
        bidboxes.setup_companies(self)
        self.bidbox_minors_cache = []
        # the first company (in the companies' order) with an exchange into each corporation
        exchanges: dict[str, Any] = {}
        for c in self.companies:
            for a in c.abilities:
                if a.get("type") == "exchange":
                    for cid in a.get("corporations", []):
                        exchanges.setdefault(cid, c)
        for corp in self.corporations:
            if corp.type != "major":
                continue
            corp.exchange_tokens = self.data["exchange_tokens"].get(corp.id, 0)
            if corp.destination:
                corp.tokens = (*corp.tokens, Token(corp, price=0, type="destination"))
            corp.par_via_exchange = exchanges.get(corp.id)
        self.index.rebuild()

    def init_round(self):
        self.round_counter += 1
        return self.stock_round()

    def init_map(self):
        map_data = {"layout": self.data.get("layout", "flat"), "axes": self.data.get("axes"),
                    "location_names": self.data.get("location_names", {}), "hexes": self.data["hexes"]}
        self.board = Board1822(self, map_data, self.data.get("tiles", {}), self.IMPASSABLE_HEX_COLORS)
        self.board.reserve_homes(self.corporations)

    # ------------------------------------------------------------ bid boxes

    def bidbox_minors(self, bank=None):
        # (``bank``: the bank's companies of the kind, when worked out already)
        if bank is None:
            bank = bidboxes.bank_companies(self, "M")
        return [c for c in bank[:self.BIDBOX_MINORS] if c.sym in self.bidbox_minors_cache]

    def bidbox_concessions(self, bank=None):
        return (bidboxes.bank_companies(self, "C") if bank is None else bank)[:self.BIDBOX_CONCESSIONS]

    def bidbox_privates(self, bank=None):
        comps = bidboxes.bank_companies(self, "P") if bank is None else bank
        if self.plus and "plus_expansion_single_stack" not in self.optional_rules:
            out = []
            for box in (PLUS_BOX_1, PLUS_BOX_2, PLUS_BOX_3):
                c = next((c for c in comps if c.sym in box), None)
                if c is not None:
                    out.append(c)
            return out
        return comps[:self.BIDBOX_PRIVATES]

    def bidbox_items(self):
        """The companies in the bid boxes, in box order. What it reads (the companies, in order,
        their owners and closed flags, the minors' box) is the memo's key: the answer is kept
        with it in the own dict (a passing attribute, never copied nor part of the state) and
        given again while the key is equal (the bid steps ask it at every listing)."""
        comps = self.companies
        # (the owners and closed flags by comprehensions: the slots read by the interpreter's
        # own attribute load, ~2x cheaper than ``map`` over an ``attrgetter``; equal as before)
        key = (tuple(comps), [c.owner for c in comps], [c.closed for c in comps],
               tuple(self.bidbox_minors_cache))
        own = self.__dict__
        memo = own.get("_bidbox_memo")
        if memo is not None and memo[0] == key:
            return list(memo[1])
        # (only as many of each kind as its box can show: the privates' all in the plus
        # expansion's three stacks)
        privates = None if self.plus and "plus_expansion_single_stack" not in self.optional_rules \
            else self.BIDBOX_PRIVATES
        bank = bidboxes.bank_companies_by_kind(self, {"M": self.BIDBOX_MINORS, "C": self.BIDBOX_CONCESSIONS,
                                                      "P": privates})
        items = self.bidbox_minors(bank["M"]) + self.bidbox_concessions(bank["C"]) + self.bidbox_privates(bank["P"])
        own["_bidbox_memo"] = (key, tuple(items))
        return items

    def find_corporation(self, company):
        return self.corporation_by_id(company.sym[1:])

    def minor_float_share_price(self, bid_amount):
        pars = self.stock_market.par_prices
        top = max(p.price for p in pars)
        target = self.MINOR_START_PAR if self.phase.name == "1" else bid_amount // 2
        target = min(target, top)
        return next(p for p in pars if p.price <= target)

    def minor_float_starting_cash(self, bid_amount, presidency_price):
        return presidency_price if int(self.phase.name) < 3 else bid_amount

    # ------------------------------------------------------------ rounds
    def stock_round(self):
        from .steps import BuySellParShares1822, DiscardTrain1822

        return StockRound1822(self, [DiscardTrain1822, BuySellParShares1822])

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
        for c in player.companies:  # (the tax haven's card counts one less; no generator)
            if c.sym == TAX_HAVEN:
                return n - 1
        return n

    def player_value(self, player):
        v = super().player_value(player) - self.player_debt.get(player, 0)
        th = self.index.company(TAX_HAVEN)
        if th is not None and th.owner is player:
            v += self.tax_haven.value(self)
        return v

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
        for corp in sorted(corps, key=self.stock_market.operating_key):
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
        return choices.company_choices(self, company, time)

    #: the companies to which a step may give an action of their own, by the kind of their
    #: owner: a corporation's with choices (``choices.CHOOSING_HELD_BY_CORPORATION``), with a
    #: tile lay (the data's ``tile_lay`` abilities: SpecialTrack's lays, P5's teleport) and P5
    #: (SpecialToken); a player's with choices (the tax haven in the stock round). The other
    #: steps act only for their operator or a player.
    ACTING_HELD_BY_CORPORATION: ClassVar[frozenset[str]] = \
        choices.CHOOSING_HELD_BY_CORPORATION | {"P2", "P5", "P8", "P10", "P11", "P12", "P21"}
    ACTING_HELD_BY_PLAYER: ClassVar[frozenset[str]] = choices.CHOOSING_HELD_BY_PLAYER
    #: either set (a company held by neither a corporation nor a player)
    ACTING_HELD_BY_EITHER: ClassVar[frozenset[str]] = ACTING_HELD_BY_CORPORATION | ACTING_HELD_BY_PLAYER

    def listing_companies(self) -> list:
        # (the minors' and concessions' cards and the passive privates: 75-90% of the open
        # companies a listing would ask every active step about, answered by none)
        bank = self.bank
        by_corp, by_player = self.ACTING_HELD_BY_CORPORATION, self.ACTING_HELD_BY_PLAYER
        either = self.ACTING_HELD_BY_EITHER
        out = []
        for c in self.companies:
            if c.sym not in either:  # (most: the cards of minors and concessions)
                continue
            owner = c.owner
            if owner is None or owner is bank or c.closed:
                continue
            syms = by_corp if owner.is_corporation else by_player if owner.is_player else either
            if c.sym in syms:
                out.append(c)
        return out

    def tax_haven_multiple(self) -> bool:
        return "tax_haven_multiple" in self.optional_rules

    def tax_haven_spender(self, company):
        if not self.tax_haven_multiple() or self.tax_haven.value(self) == 0:
            return company.owner
        return self.tax_haven

    def company_made_choice(self, company, choice, time):
        return choices.company_made_choice(self, company, choice, time)

    def crowded_corp(self, corp) -> bool:
        if len(corp.trains) < 2:
            return False  # every limit is at least one, and one extra train of each kind is allowed
        # over the limit in normal trains, or two permanents (2P, LP), or two pullmans (P+),
        # each train counted by trains.train_kind
        normal, permanents, pullmans = trains.kind_counts(self, corp)
        return permanents > 1 or pullmans > 1 or (normal > 0 and normal > self.train_limit(corp))

    # ------------------------------------------------------------ operating rounds
    def operating_round(self, round_num):
        from . import steps as s

        return OperatingRound1822(self, [
            s.DiscardTrain1822, s.PendingToken, s.FirstTurnHousekeeping, s.AcquireCompany, s.SpecialChoose,
            s.SpecialTrack, s.SpecialToken, s.Track1822, s.DestinationToken, s.Token1822, s.Route1822,
            s.Dividend1822, s.BuyTrain1822, s.MinorAcquisition, s.PendingToken, s.IssueShares1822,
        ], round_num=round_num)

    def operating_order(self):
        floated = sorted([c for c in self.corporations if c.floated() and not c.closed],
                         key=self.stock_market.operating_key)
        return [c for c in floated if c.type == "minor"] + [c for c in floated if c.type != "minor"]

    def payout_companies(self):
        phase = int(self.phase.name)
        for c in self.companies:
            if c.owner is None or c.closed:
                continue
            pot = self.phase_revenue.get(c.sym) if c.sym in PHASE_REVENUE else None
            if pot is not None:
                c.revenue = phase * PHASE_REVENUE[c.sym]
                pay(self, self.bank, pot, c.revenue, "private_revenue")
            if c.sym == DOUBLE_CASH and c.owner.is_corporation:
                c.revenue = self.data["double_cash_revenue"][phase]
        comps = [c for c in self.companies if c.owner is not None and not c.closed and c.revenue > 0
                 and c.owner is not self.bank]

        def key(c):
            if c.owner.is_player:
                return (0, self.players.index(c.owner), "", c.revenue, c.name)
            return (1, 0, c.owner.name, c.revenue, c.name)
        for c in sorted(comps, key=key):
            pay(self, self.bank, c.owner, c.revenue, "private_revenue")

    def place_home_token(self, corp):
        if not corp.tokens or corp.tokens[0].used:
            return
        super().place_home_token(corp)
        if corp.id == TWO_HOME:
            tok = next((t for t in corp.tokens if t.type == "destination" and not t.used), None)
            if tok is not None:
                self.place_destination_token(corp, self.board.hex_by_id(corp.destination), tok)

    def place_destination_token(self, corp, hex_, token):
        city = self.board.tile(hex_).cities[0]
        self.board.place_city_token(city, corp, token, free=True, check_tokenable=False, cheater=True)
        self.graph_changed()

    def can_run_route(self, entity):
        for t in entity.trains:  # (a local train runs without the graph's question)
            if t.name in LOCAL_TRAINS:
                return True
        return super().can_run_route(entity)

    def route_trains(self, entity):
        # the core's (trains not run this round) without the pullman, in one pass
        return [t for t in entity.trains if not t.operated and t.name != "P+"]

    def extra_train(self, train) -> bool:
        return train.name in EXTRA_TRAINS

    def tile_lays(self, entity):
        if getattr(entity, "sym", None) == "P21":
            return self.data["hsbc_tile_lays"]
        operator = entity.owner if entity.is_company else entity
        # (the operator's kind first: a minor's lays never read the phase)
        if getattr(operator, "type", None) == "major" and int(self.phase.name) >= 3:
            return self.data["major_tile_lays"]
        return self.TILE_LAYS

    def purchasable_companies(self, entity):
        # (the owner asked first: most cards have none, closed or not sold; then the
        # acquisition rules, which the minors' and concessions' cards have none of)
        rules = self.data["private_acquisition"]
        phase = int(self.phase.name)
        out = []
        for c in self.companies:
            owner = c.owner
            if owner is None or owner is entity or not owner.is_player:
                continue
            sym = c.sym
            if sym not in rules or c.closed:
                continue
            rule = rules[sym]
            if phase >= rule["phase"] and entity.type in rule["acquire"]:
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
                pay(self, pot, company.owner, pot.cash, "private_revenue")
            self.phase_revenue[company.sym] = None
            company.close()
        if company.sym == DOUBLE_CASH:
            company.revenue = self.data["double_cash_revenue"][int(self.phase.name)]

    def buy_train(self, operator, train, price=None):
        price = train.price if price is None else price
        seller = train.owner
        if price and price > 0:
            to = self.bank if seller is self.depot or seller is None else seller
            pay(self, operator, to, price, "train_purchase")
        remove_train(self, train)
        train.owner = operator
        operator.trains = (*operator.trains, train)
        self.journal.record("train", operator=operator.id, train=train.id, name=train.name, price=price,
                            seller=getattr(seller, "id", None))

    def discard_train(self, train):
        if train.name in EXTRA_PERMANENTS or train.name == "P+":
            remove_train(self, train)
            train.owner = None
            return
        remove_train(self, train)
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
                c = self.index.company(sym)
                pot = self.phase_revenue.get(sym)
                if c is None or c.closed or pot is None:
                    continue
                if pot.cash > 0:
                    pay(self, pot, self.bank, pot.cash, "treasury_return")
                self.phase_revenue[sym] = None
                c.close()

    def float_corporation(self, corp):
        self.journal.record("float", corporation=corp.id)
        if "full_capitalisation" in self.phase.status and corp.type == "major":
            if corp.cash > 0:
                pay(self, corp, self.bank, corp.cash, "treasury_return")
            for s in list(corp.shares_of(corp)):
                self.share_market._move_share(s, self.pool)
        if corp.capitalization == "full":
            pay(self, self.bank, corp, corp.par_price.price * corp.total_shares, "float_capital")
        if corp.type == "major":
            corp.capitalization = "incremental"

    def upgrade_cost(self, old_tile, hex_, entity):
        operator = entity.owner if entity.is_company else entity
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
        operator = entity.owner if entity.is_company else entity
        discount = sum(a.get("discount", 0) for c in getattr(operator, "companies", []) for a in c.abilities
                       if a.get("type") == "tile_discount" and a.get("terrain") is None
                       and (not a.get("hexes") or hex_.id in a["hexes"]))
        return cost - min(cost, discount)

    def issuable_shares(self, entity) -> list:
        if not entity.is_corporation or entity.type != "major":
            return []
        if entity.num_ipo_shares() == 0 or len(entity.operating_history) < 2:
            return []
        out = []
        shares = self.share_market
        market = self.stock_market
        for b in shares.bundles_for(entity, entity):
            if not shares.fit_in_pool(b, self.MARKET_SHARE_LIMIT):
                continue
            n = int(b.num_shares())
            rc = entity.share_price.coordinates
            cell = None  # (the last cell moved into, kept: not looked up again)
            for _ in range(n):
                nxt = market.down_of(entity, rc)
                below = market.cell(*nxt)
                if below is not None:
                    rc = nxt
                    cell = below
            if cell is None:
                cell = market.cell(*rc)
            assert cell is not None  # the corporation's cell, or one checked above
            b.share_price = cell.price
            out.append(b)
        return out

    def redeemable_shares(self, entity) -> list:
        if not entity.is_corporation or entity.type != "major":
            return []
        return [b for b in self.share_market.bundles_for(self.pool, entity) if entity.cash >= b.price()]

    PLAYER_LOAN_INTEREST = 50

    def game_end_check(self):
        end = self.end_trigger
        if end:
            return end
        # (the bank's and the market's reasons, read inline where end_check_value is the core's)
        inline = type(self).end_check_value is Game.end_check_value
        if inline and not self.bank.broken and not self.stock_market.max_reached \
                and self.GAME_END_CHECK is Game1822.GAME_END_CHECK:
            return (None, None)  # (asked after every action: the title's two reasons, neither reached)
        for reason, timing in self.GAME_END_CHECK.items():
            if inline and reason == "bank":
                reached = self.bank.broken
            elif inline and reason == "stock_market":
                reached = self.stock_market.max_reached
            else:
                reached = self.end_check_value(reason)
            if not reached:
                continue
            if reason == "bank":
                timing = "full_or" if self.round.is_operating() else "current_or"
            self.end_trigger = (reason, timing)
            break
        return self.end_trigger if self.end_trigger else (None, None)



    # ------------------------------------------------------------ trains and routes helpers
    def num_trains(self, entity) -> int:
        n = 0
        for t in entity.trains:  # (a plain loop: asked at every train step question)
            if t.name not in EXTRA_TRAINS:
                n += 1
        return n

    def l_upgrade_cost(self) -> int:
        return self.UPGRADE_COST_L_TO_2

    def phase_on_two(self):
        if "2" in self.phase.next_on():
            self.phase.index += 1
            self.journal.record("phase", name=self.phase.name, train=None)
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
        try:
            for r in routes:
                stops = r.visited_stops
                if not stops or r.train.name.startswith("L") or len(stops) < 2:
                    continue
                first = stops[0].revenue_for(colors, r.train.name)
                last = stops[-1].revenue_for(colors, r.train.name)
                bonuses.append((first + last) // 2)
        finally:
            routemod.release_run(routes)  # (the routes reach one another: freed now, not by the collector)
        bonuses.sort(reverse=True)
        return sum(bonuses[:n])



    # ------------------------------------------------------------ minor acquisition

    def close_corporation(self, corp):
        for t in corp.trains:
            t.owner = None
        corp.trains = ()
        super().close_corporation(corp)
        self.index.rebuild()

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

    def tile_valid_for_phase(self, tile):
        mode = getattr(self, "_advanced_lay", False)
        current = tile.color in self.phase.current.get("tiles", ())  # (the phase's colours, not copied)
        if not mode:
            return current
        # P11: a tile of the colour after the phase's latest one
        last = self.phase.tiles[-1]
        ahead = last in self.COLORS[:-1] and tile.color == self.COLORS[self.COLORS.index(last) + 1]
        return ahead or (mode == "either" and current)

    def tile_phase_key(self):
        # what tile_valid_for_phase reads: P11's mode, the phase's colours, and with the mode
        # the latest colour
        mode = getattr(self, "_advanced_lay", False)
        return (mode, tuple(self.phase.current.get("tiles", ())), self.phase.tiles[-1] if mode else None)

    TRACK_PLAIN = ("7", "8", "9", "80", "81", "82", "83", "544", "545", "546", "60", "169")
    TRACK_TOWN = ("3", "4", "58", "141", "142", "143", "144", "767", "768", "769", "X17")
    COLORS = ("white", "yellow", "green", "brown", "gray")

    def upgrades_to(self, old_tile, new_tile) -> bool:
        if old_tile.hex is not None and old_tile.hex.id == "D35" and old_tile.color == "white":
            return new_tile.name == "57"
        if not upgrades_to_correct_color(old_tile, new_tile):
            return False  # both rules below ask for the next colour first (the hex's labels unread)
        if old_tile.name in self.TRACK_TOWN and new_tile.name in self.TRACK_PLAIN:
            if old_tile.color in self.COLORS and new_tile.color in self.COLORS:
                return self.COLORS.index(new_tile.color) == self.COLORS.index(old_tile.color) + 1
            return False
        return core_upgrades_to(old_tile, new_tile, special=getattr(self, "_special_lay", False),
                                **self.board.upgrade_labels(old_tile))

    def upgrade_ruled_out(self, old_tile, new_tile) -> bool:
        # upgrades_to's rules that read no rotation: D35's, the colour, the small station to
        # plain track rule (rotation-free whole), then the core rule's old track kept (under
        # any rotation), labels and city and town counts; only the multi-city edge groups
        # (asked per rotation by upgrades_to) are left out
        if old_tile.hex is not None and old_tile.hex.id == "D35" and old_tile.color == "white":
            return new_tile.name != "57"
        if not upgrades_to_correct_color(old_tile, new_tile):
            return True
        if old_tile.name in self.TRACK_TOWN and new_tile.name in self.TRACK_PLAIN:
            colors = self.COLORS
            return not (old_tile.color in colors and new_tile.color in colors
                        and colors.index(new_tile.color) == colors.index(old_tile.color) + 1)
        if not tile_paths_kept(old_tile, new_tile):
            return True
        if getattr(self, "_special_lay", False):
            return False
        labels = self.board.upgrade_labels(old_tile)
        if not upgrades_to_correct_label(old_tile, new_tile, labels.get("from_label", PRINTED),
                                         labels.get("from_future_label", PRINTED)):
            return True
        return not upgrades_to_correct_city_counts(old_tile, new_tile, labels.get("from_label", PRINTED))

    # ------------------------------------------------------------ private companies' tile lays
    def extra_share_holders(self) -> list:
        return [self.tax_haven]

    def legal_actions(self, entity=None, *, routes=True):
        own = self.__dict__
        if own.get("_probing") or "_rights_memo" in own:
            with self.graph_probe(), self.rights_memo():  # (nested: the outer ones restore)
                return super().legal_actions(entity)
        # graph_probe and rights_memo inline (a listing per decision): the same stores and
        # restores, in the same order, without two generators' frames
        board = self.board
        st = board.state if board is not None else None
        saved = st.route_info if st is not None else None
        own["_probing"] = True
        try:
            own["_rights_memo"] = {_MEMO_MOVES: self._moves}
            try:
                return super().legal_actions(entity)
            finally:
                del own["_rights_memo"]
        finally:
            del own["_probing"]
            if st is not None and st.route_info is not saved:
                self.board.restore_route_info(saved)

    # a listing's memo of the track rights per hex (trackrights.rights_owners): a passing
    # attribute, never copied nor part of the state
    CLONE_SKIP = (*Game.CLONE_SKIP, "_rights_memo", "_bidbox_memo")
    STATE_EXCLUDE = (*Game.STATE_EXCLUDE, "_rights_memo", "_bidbox_memo")

    @contextmanager
    def rights_memo(self) -> Iterator[None]:
        """A context in which the track rights of each hex are worked out once (a listing
        asks them for every tile and rotation; nothing changes the rights meanwhile)."""
        own = self.__dict__
        if "_rights_memo" in own:
            yield  # nested: the outer listing's memo
            return
        # (a passing attribute, not state: stored and dropped in the own dict, never recorded)
        own["_rights_memo"] = {_MEMO_MOVES: self._moves}
        try:
            yield
        finally:
            del own["_rights_memo"]

    def listing_memo(self) -> dict[tuple[object, ...], Any] | None:
        """The memo of the listing under way (:meth:`rights_memo`), for answers that read
        nothing a listing changes; None outside a listing, or inside a trial made in one (the
        state number has moved)."""
        memo = self.__dict__.get("_rights_memo")
        return memo if memo is not None and memo.get(_MEMO_MOVES) == self._moves else None

    def upgrade_memo_key(self, hex_, old, new):
        # the core's key (the old tile, the hex's labels and future label, the new tile's name;
        # a yellow tile takes a label, S or T, from its hex), made in one go (the listing makes
        # one per hex and tile), with D35 (its own rule) and the new tile's spec, as the
        # answers are shared by every 1822 game
        b = self.board
        fl = b.future_label(hex_)
        return (old.spec, old.name, old.color, b.labels(hex_), (fl.label, fl.color) if fl is not None else None,
                new.name, hex_.id == "D35", new.spec)

    def upgrade_memo_keys(self, hex_, old):
        # upgrade_memo_key's, the hex's part made once for all the tiles tried there
        b = self.board
        fl = b.future_label(hex_)
        head = (old.spec, old.name, old.color, b.labels(hex_), (fl.label, fl.color) if fl is not None else None)
        d35 = hex_.id == "D35"
        return lambda new: (*head, new.name, d35, new.spec)

    def tile_lays_hex_keys(self, entity, hex_, old):
        # the hex's part of upgrade_memo_key, and the rotation check's inputs where it is the
        # board's (trackrights.rotation_check_key)
        b = self.board
        fl = b.future_label(hex_)
        upgrade = (old.spec, old.name, old.color, b.labels(hex_), (fl.label, fl.color) if fl is not None else None,
                   hex_.id == "D35")
        return upgrade, trackrights.rotation_check_key(self, entity, hex_)

    def legal_tile_rotation(self, entity, hex_, tile):
        if self.__dict__.get("_probing"):
            return trackrights.legal_tile_rotation(self, entity, hex_, tile)
        with self.graph_probe():
            return trackrights.legal_tile_rotation(self, entity, hex_, tile)

    def tile_rotation_check(self, entity, hex_):
        return trackrights.rotation_check(self, entity, hex_)

    def connected_edges(self, entity, hex_):
        operator = entity.owner if entity.is_company else entity
        if getattr(self, "_teleport_lay", False):
            return list(range(6))
        return self.graph.connected_hexes(operator).get(hex_)

    @contextmanager
    def graph_probe(self) -> Iterator[None]:
        """A context in which graph queries leave no trace in the sticky route information.

        The reference remembers that a corporation once had a route (graph results are kept
        across changes for such corporations), so *when* the graph is computed matters. Live-play
        checks and bot enumerations compute it at moments a replay does not; they run inside this
        probe so that live play and replay evolve the same way."""
        own = self.__dict__
        if own.get("_probing"):
            yield  # nested: the outer probe restores
            return
        st = self.board.state if self.board is not None else None
        saved = st.route_info if st is not None else None
        own["_probing"] = True  # a passing flag, not game state (never recorded)
        try:
            yield
        finally:
            del own["_probing"]
            if st is not None and st.route_info is not saved:
                # forget it, and what the graphs learnt meanwhile (they would not learn it
                # again), as the core does around legal_actions()
                self.board.restore_route_info(saved)

    def live_city(self, cid):
        """A city on the map now (a city id of a replaced tile is refused)."""
        city = self.board.city_by_id(cid)
        return city if city is not None and city.hex is not None and city.tile is self.board.tile(city.hex) else None
