"""1858: The Railways of Iberia. Rules on top of the core; data in ``data/``.

The title's own pieces: private railways that are both a certificate (company) and a
track-laying operator (minor); quick-start packets; private auctions in stock rounds; public
companies started by exchanging a private (five shares, converting to ten); a private closure
round after the first 5E/4M; broad, metre and dual gauge track; token prices by distance;
wounded trains; issuing and redeeming shares.
"""

from __future__ import annotations

import json
import pickle
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from trackage.core.trains import change_train, names_train, rust

from ...core.entities import Company, Minor, ShareBundle, certificate_price, without
from ...core.errors import GameError
from ...core.game import Game
from ...core.money import pay
from ...core.round import OperatingRound, StockRound
from . import closure, corporations, gauges, privates, randomplayer, start
from .steps import (
    BuyTrain1858,
    DiscardTrain1858,
    Dividend1858,
    Exchange1858,
    ExchangeApproval1858,
    HomeToken1858,
    IssueShares1858,
    Route1858,
    StockRound1858Step,
    Token1858,
    Track1858,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from .routes import RouteRules1858

DATA = Path(__file__).parent / "data"



@cache
def _text(path: Path) -> str:
    """A data file's text, read once per process (immutable: each game parses its own copy)."""
    return path.read_text(encoding="utf-8")


@cache
def _pickled(path: Path) -> bytes:
    """A data file's contents pickled, once per process (unpickling makes a fresh copy faster
    than parsing the text again)."""
    return pickle.dumps(json.loads(_text(path)), protocol=pickle.HIGHEST_PROTOCOL)


def load(folder: Path, name: str):
    """The data file's contents, a fresh copy each time (unpickled from the cached parse)."""
    return pickle.loads(_pickled(folder / name))


@cache
def _catalogue(path: Path) -> Any:
    """A data file read only as catalogue (the map, the tiles: what the board's map and tile
    supply, themselves shared by the games of the process, are built of), parsed once per
    process and shared by every game: never changed, as the game's ``data`` never is."""
    return json.loads(_text(path))


class Minor1858(Minor):
    """A private railway as an operator: lays track in its home area, never runs trains."""

    __slots__ = ("abilities",)
    CLONE_SHARE = ("abilities",)  # the title's data for it, never changed

    def __init__(self, spec: dict):
        super().__init__(spec["sym"], spec.get("name", spec["sym"]), coordinates=list(spec.get("coordinates", [])),
                         city=spec.get("city"), data=spec)
        self.abilities = list(spec.get("abilities", []))

    def close(self) -> None:
        self.closed = True
        self._floated = False


class StockRound1858(StockRound):
    pass


class Game1858(Game):
    IN_PLACE: ClassVar[tuple[str, ...]] = (*Game.IN_PLACE, "_stubs")
    CURRENCY = "Pt%s"
    IPO_NAME = "Treasury"
    TITLE = "1858"
    PLAYER_RANGE = (2, 6)
    OPTIONAL_RULES: ClassVar[dict] = {"quick_start_a": (3, 4, 5, 6), "quick_start_b": (3, 4, 5, 6)}
    MUTEX_RULES = (("quick_start_a", "quick_start_b"),)
    DATA_DIR = DATA
    CAPITALIZATION = "incremental"
    SELL_AFTER = "operate"
    SELL_MOVEMENT = "left_block_pres"
    SELL_BUY_ORDER = "sell_buy"
    SOLD_OUT_INCREASE = False
    MARKET_SHARE_LIMIT = 50
    HOME_TOKEN_TIMING = "float"
    MUST_BUY_TRAIN = "never"
    GAME_END_CHECK: ClassVar[dict] = {"bank": "current_or"}
    SHARED_SHAPES = True  # (the gauge listing reads a shape's name, spec, colour and placements)
    MIN_BID_INCREMENT = 5
    MINOR_TILE_LAYS: ClassVar[list] = [{"lay": True, "upgrade": False, "cost": 0},
                       {"lay": True, "upgrade": False, "cost": 20, "cannot_reuse_same_hex": True}]
    TILE_LAYS: ClassVar[list] = [{"lay": True, "upgrade": True, "cost": 0},
                 {"lay": True, "upgrade": True, "cost": 20, "cannot_reuse_same_hex": True}]
    GREY_TRAINS = ("7E", "6M", "5D")
    # the hexes private railways block, with what they were worked out from (gauges.blockers);
    # a copy works them out again
    CLONE_SKIP = (*Game.CLONE_SKIP, "_blockers", "_lay_names", "_gauge_graphs")
    _blockers: tuple | None = None
    # per phase's colours and broad gauge rule, whether each tile name may be laid
    # (gauges.LayChoices); a copy works them out again
    _lay_names: dict | None = None
    # the broad and metre gauge graphs kept from one board version to the next (gauges.gauge_graph):
    # (board, {gauge: graph}, [the board version they were carried to]); a copy makes its own
    KEEP_GAUGE_WALKS: ClassVar[bool] = True
    _gauge_graphs: tuple | None = None
    QUICK_START = ("quick_start_a", "quick_start_b")

    # ------------------------------------------------------------------ data
    def init_optional_rules(self, rules):
        n = len(getattr(self, "players", []) or [])
        out = []
        for r in rules:
            if r in self.QUICK_START and not 3 <= n <= 6:
                continue
            out.append(r)
        return out

    def game_data(self) -> dict:
        return load(DATA, "game.json")

    def build_data(self) -> dict:
        folder = self.DATA_DIR
        g = self.game_data()
        data = {"market": g["market"], "phases": self.game_phases(g), "trains": self.game_trains(g)}
        ent = load(folder, "entities.json")
        data.update(ent)
        mp = _catalogue(folder / "map.json")
        data.update({"layout": mp["layout"], "axes": mp.get("axes"), "location_names": mp.get("location_names", {}),
                     "hexes": mp["hexes"], "tiles": _catalogue(folder / "tiles.json")})
        data["board"] = load(folder, "board.json")
        data["game"] = g
        return data

    def game_phases(self, g) -> list:
        return g["phases"]

    def game_trains(self, g) -> list:
        counts = g["train_counts_2p"] if len(self.players) == 2 else g["train_counts"]
        out = []
        for t in g["trains"]:
            t = dict(t)
            t["num"] = counts[t["name"]]
            out.append(t)
        return out

    def bank_cash_start(self) -> int:
        return self.data["game"]["bank_cash"][str(len(self.players))]

    def init_cert_limit(self) -> int:
        return self.data["game"]["cert_limit"][str(len(self.players))]

    def init_starting_cash(self) -> None:
        cash = self.data["game"]["starting_cash"][str(len(self.players))]
        for p in self.players:
            pay(self, self.bank, p, cash, "starting_cash")

    def init_companies(self) -> list:
        out = []
        for c in self.data["companies"]:
            comp = Company(c["sym"], c["name"], c["value"], c.get("revenue", 0), c.get("abilities"), c)
            comp.min_price = c.get("min_price")
            comp.max_price = c.get("max_price")
            out.append(comp)
        return out

    def init_minors(self) -> list:
        return [Minor1858(m) for m in self.data["minors"]]

    def init_corporations(self) -> list:
        out = []
        for c in self.data["corporations"]:
            spec = dict(c)
            if len(self.players) == 2:
                spec["max_ownership_percent"] = 70
            out.append(corporations.new_corporation(self, spec))
        return out

    def init_map(self) -> None:
        super().init_map()
        # company reservation abilities: each reserves slot 0 of its city, later ones first
        for c in self.companies:
            for ab in c.abilities:
                if ab.get("type") != "reservation":
                    continue
                hex_ = self.board.hex_by_id(ab["hex"])
                tile = self.board.tile(hex_)
                city = int(ab.get("city", 0) or 0)
                if len(tile.cities) == 1:
                    city = 0
                self.board.add_reservation(tile.cities[city], c, int(ab.get("slot", 0) or 0))
        self._stubs: dict = {}

    # ------------------------------------------------------------------ set-up
    def setup(self) -> None:
        self.grey_trains_bought = 0
        self.private_closure_round: str | None = None  # "next", "in_progress", "done"
        self.unbuyable_companies: list = []
        self.operating_rounds_in_set = self.phase.operating_rounds
        self._stubs = start.setup_stubs(self)
        if len(self.players) == 2:
            start.setup_unbuyable_privates(self)

    def release_stubs(self, minor) -> None:
        # the stubs of a private railway's home hexes stay with the hex until it closes
        board = self.board
        for hex_, st in self._stubs.pop(minor, []):
            if st in board.stubs(hex_):
                board.set_stubs(hex_, [x for x in board.stubs(hex_) if x is not st])

    def init_round(self):
        for c in self.companies:
            if self.private_railway(c):
                c.owner = self.bank
        self.private_closure_round = None
        qs = start.option_quick_start(self)
        if qs:
            start.quick_start(self, qs)
            self.operating_rounds_in_set = self.phase.operating_rounds
            return self.new_operating_round(1)
        return self.new_stock_round()


    # ------------------------------------------------------------------ rounds
    def stock_round(self):
        return StockRound1858(self, [Exchange1858, ExchangeApproval1858, HomeToken1858, StockRound1858Step])

    def operating_steps(self) -> list:
        return [Track1858, Token1858, Route1858, Dividend1858, DiscardTrain1858, BuyTrain1858, IssueShares1858]

    def operating_round(self, round_num: int):
        return OperatingRound(self, self.operating_steps(), round_num)

    def next_round(self) -> None:
        if self.private_closure_round == "in_progress":
            self.private_closure_round = "done"
        r = self.round
        if self.private_closure_round == "next":
            self.round = closure.closure_round(self, r.round_num)
            return
        if isinstance(r, StockRound):
            self.start_operating_rounds()
        elif r.round_num < self.operating_rounds_in_set:
            self.round = self.new_operating_round(r.round_num + 1)
        else:
            self.turn += 1
            self.round = self.new_stock_round()

    def operating_order(self) -> list:
        minors = [m for m in self.minors if m.floated()]
        corps = sorted([c for c in self.corporations if c.floated() and not c.closed],
                       key=self.stock_market.operating_key)
        return minors + corps

    def market_order_key(self, c):
        return self.stock_market.operating_key(c)

    def stock_round_finished(self, round_) -> None:
        pass

    def payout_companies(self) -> None:
        if self.private_closure_round == "in_progress":
            return
        super().payout_companies()

    def company_pays(self, company) -> bool:
        # a private railway owned by a public company adds its revenue to that company's run
        return super().company_pays(company) and not (
            self.private_railway(company) and company.owner is not None and company.owner.is_corporation)

    # ------------------------------------------------------------------ privates
    def private_railway(self, company) -> bool:
        return True

    def private_company(self, entity):
        if entity.is_company:
            return entity
        return self.index.company(entity.id)

    def private_minor(self, entity):
        if entity.is_minor:
            return entity
        return self.index.minor(entity.sym)

    def company_starts_public(self, company) -> bool:
        for a in company.abilities:  # (a plain loop: asked by every exchange question)
            if a.get("type") == "exchange" and a.get("corporations") == "any":
                return True
        return False

    def minor_exchanges_share(self, minor) -> bool:
        return any(a.get("type") == "exchange" for a in minor.abilities)

    def purchase_company(self, player, company, price: int) -> None:
        if price > 0:
            pay(self, player, self.bank, price, "company_purchase")
        player.companies = (*player.companies, company)
        company.owner = player
        minor = self.private_minor(company)
        if minor is not None:
            minor.owner = player
            minor.float_()

    def buyable_bank_companies(self) -> list:
        # (a plain loop, the owner first: asked by every stock step question of a player)
        bank = self.bank
        second = "green_privates" in self.phase.status
        unbuyable = self.unbuyable_companies
        out = []
        for c in self.companies:
            if c.owner is bank and not c.closed:
                kind = c.data.get("type")
                if (kind == "private_batch1" or (second and kind == "private_batch2")) and c not in unbuyable:
                    out.append(c)
        return out

    #: the :meth:`buyable_bank_companies` above (a subclass with its own does not name it): the
    #: stock step's "any bid?" walks the companies in place when it is the game's
    PLAIN_BANK_COMPANIES: ClassVar[Callable[..., list]] = buyable_bank_companies

    def par_price(self, company):
        if not self.company_starts_public(company):
            raise GameError(f"{company.sym} cannot start a public company", rule="bad-exchange")
        best = None
        for sp in self.stock_market.par_prices:
            v = sp.price if sp.price <= company.value else 0
            if best is None or v > best[0]:
                best = (v, sp)
        assert best is not None  # the market has par prices
        return best[1]

    def can_par(self, corp, player) -> bool:
        return not corp.ipoed and not corp.closed

    def exchange_buy(self, player, bundle, price: int) -> None:
        """The 40% certificate for the private plus its par price (paid to the treasury)."""
        corp = bundle.corporation
        corp.ipoed = True
        floated_before = corp.floated()
        self.share_market.transfer(bundle, player, spender=player, receiver=corp, price=price)
        if floated_before != corp.floated():
            self.float_corporation(corp)

    def maybe_place_home_token(self, corp) -> None:
        if corp.floated():
            self.place_home_token(corp)

    def place_home_token(self, corp) -> None:
        if any(t.used for t in corp.tokens) or not any(not t.used for t in corp.tokens):
            return
        pending = getattr(self.round, "pending_tokens", None)
        if pending is None or any(p["entity"] is corp for p in pending):
            return
        token = next(t for t in corp.tokens if not t.used)
        if corp.companies:
            cities = privates.reserved_cities(self, corp, corp.companies[0])
            if not cities:
                raise GameError(f"no token slot for {corp.companies[0].sym}", rule="no-home")
            pending.append({"entity": corp, "hexes": [c.hex for c in cities], "cities": cities, "token": token})
        else:
            board = self.board
            hexes = [h for h, tile in board.tiles() if any(board.tokenable(c, corp, free=True) for c in tile.cities)]
            pending.append({"entity": corp, "hexes": hexes, "cities": None, "token": token})

    def delete_reservations(self, corp, city=None) -> None:
        board = self.board
        if self.private_closure_round == "in_progress":
            for c in board.cities():
                res = list(board.city_reservations(c))
                if corp in res and board.reserved_by(c, corp):
                    board.set_city_reservations(c, [None if r is corp else r for r in res])
        elif city is not None:
            for company in corp.companies:
                res = list(board.city_reservations(city))
                i = next((k for k, r in enumerate(res) if r is company), None)
                if i is not None:
                    res[i] = None
                    board.set_city_reservations(city, res)

    # ------------------------------------------------------------------ shares
    def num_certs(self, player) -> int:
        n = len(player.companies)
        for s in player.certificates:  # (a plain loop: asked by every stock question)
            if s.counts_for_limit:
                n += 1
        return n

    def issuable_shares(self, corp) -> list:
        if not corp.is_corporation or corp.num_ipo_shares() == 0:
            return []
        return [b for b in corporations.bundles_for_corporation(self, corp, corp)
                if b.percent + self.pool.percent_of(corp) <= self.MARKET_SHARE_LIMIT]

    def redeemable_shares(self, corp) -> list:
        if not corp.is_corporation:
            return []
        return [b for b in corporations.bundles_for_corporation(self, self.pool, corp) if b.price() <= corp.cash]

    def any_issuable_share(self, corp) -> bool:
        """:meth:`issuable_shares`' truth without the bundles: they grow a share at a time, so
        there is one if the first (a single share) fits under the market's limit."""
        if type(self).issuable_shares is not Game1858.issuable_shares:
            return bool(self.issuable_shares(corp))
        if not corp.is_corporation or corp.num_ipo_shares() == 0:
            return False
        for s in corp.shares_of(corp):
            return ShareBundle([s], corporation=corp).percent + self.pool.percent_of(corp) <= self.MARKET_SHARE_LIMIT
        return False

    def any_redeemable_share(self, corp) -> bool:
        """:meth:`redeemable_shares`' truth without the bundles: their prices grow a share at a
        time (one price per share, the first's), so there is one if the first is affordable."""
        if type(self).redeemable_shares is not Game1858.redeemable_shares:
            return bool(self.redeemable_shares(corp))
        if not corp.is_corporation:
            return False
        for s in self.pool.shares_of(corp):
            return ShareBundle([s], corporation=corp).price() <= corp.cash
        return False

    ACTION_PROCESSED_KEEPS_STEPS = False  # (it may close companies)

    def action_processed(self, action) -> bool | None:
        for c in self.corporations:  # (a plain loop: asked after every action)
            sp = c.share_price
            if sp is not None and sp.type == "close" and not c.closed:
                break
        else:
            return True  # (nothing at the bottom of the market: nothing written)
        closed = False
        for corp in list(self.corporations):
            if corp.closed or corp.share_price is None:
                continue
            if corp.share_price.type == "close":
                self.close_corporation(corp)
                closed = True
        r = self.round
        if closed and r.is_stock() and not r.finished() and r.active_step() is None:
            self.move_on_after_closing(r)
        return None

    def move_on_after_closing(self, r) -> None:
        """A sale closed a company and the player in turn has nothing left to do.

        The reference moves to the next player once, without looking again (its cached
        step still counts as active): if that player has nothing to do either, its stock
        round can go no further and the game is stuck there. A live action that leads
        there is refused (it would need an undo on 18xx.games); a log replays as it came.
        """
        r.skip_steps()
        if r.finished():
            r.next_entity()
            return
        r.start_next_entity()
        if r.active_step() is None and not r.finished() and not self.loading:
            raise GameError("closing this company would leave the stock round with no player to act "
                            "(18xx.games stops there)", rule="stock-round-stuck")

    def close_corporation(self, corp) -> None:
        """A company at the bottom of the market closes; a fresh one (ten shares from phase 5)
        can be started again."""
        super().close_corporation(corp)
        fresh = corporations.new_corporation(self, dict(corp.data))
        if "brown" in self.phase.tiles:
            corporations.convert(self, fresh)
        self.corporations.append(fresh)
        self.index.corporations[fresh.id] = fresh

    # ------------------------------------------------------------------ trains
    def train_spec(self, train, variant=None) -> dict:
        return train.variants[variant or train.name]

    def track_type(self, train, variant=None) -> str:
        return self.train_spec(train, variant).get("track_type", "broad")

    def num_corp_trains(self, corp) -> int:
        return len(corp.trains)

    #: the :meth:`num_corp_trains` above (a subclass with its own does not name it): the train
    #: step's "room?" counts the trains in place when it is the game's
    PLAIN_CORP_TRAINS: ClassVar[Callable[..., int]] = num_corp_trains

    def trainless(self, corp) -> bool:
        return not corp.trains

    def train_price(self, train, entity, variant=None) -> int:
        return self.train_spec(train, variant)["price"]

    def min_depot_price(self) -> int:
        trains = self.depot.depot_trains()
        if not trains:
            return 0
        t = min(trains, key=lambda x: x.price)
        return min(v["price"] for v in t.variants.values())

    def other_trains(self, corp) -> list:
        return [t for t in self.depot.trains if t.owner is not None and t.owner is not self.depot
                and t.owner is not corp and t.owner.is_corporation and not t.rusted
                and t.buyable and not t.owner.closed]

    def min_train_price(self, corp):
        depot = self.depot
        best = None  # (the lowest price seen, in plain loops: asked by every train step question)
        cls = type(self)
        if (cls.train_price is Game1858.train_price and cls.train_spec is Game1858.train_spec) \
                or self.plain_train_prices(corp):
            # (this class's price, or a title's that is the same for ``corp``: a variant's own,
            # read in place)
            for t in depot.depot_trains():
                for v in t.variants.values():
                    p = v["price"]
                    if best is None or p < best:
                        best = p
        else:
            price = self.train_price
            for t in depot.depot_trains():
                for name in t.variants:  # (every variant's price, the lowest kept: no generator)
                    p = price(t, corp, name)
                    if best is None or p < best:
                        best = p
        # (is :meth:`other_trains` non-empty? asked without its list, stopped at the first)
        for t in depot.trains:
            o = t.owner
            if o is not None and o is not depot and o is not corp and o.is_corporation and not t.rusted \
                    and t.buyable and not o.closed:
                if best is None or best > 1:
                    best = 1
                break
        return best

    def affords_train(self, corp, power: int) -> bool:
        """Whether :meth:`min_train_price` of ``corp`` is a price within ``power``: the same
        prices asked, stopped at the first one within it (the train step's "may it buy a
        train?": asked by every question of the step)."""
        cls = type(self)
        if cls.min_train_price is not Game1858.min_train_price:
            lo = self.min_train_price(corp)
            return lo is not None and power >= lo
        depot = self.depot
        if (cls.train_price is Game1858.train_price and cls.train_spec is Game1858.train_spec) \
                or self.plain_train_prices(corp):
            for t in depot.depot_trains():
                for v in t.variants.values():
                    if v["price"] <= power:
                        return True
        else:
            price = self.train_price
            for t in depot.depot_trains():
                for name in t.variants:
                    if price(t, corp, name) <= power:
                        return True
        if power < 1:  # (another company's train is offered at 1 at the least)
            return False
        for t in depot.trains:
            o = t.owner
            if o is not None and o is not depot and o is not corp and o.is_corporation and not t.rusted \
                    and t.buyable and not o.closed:
                return True
        return False

    def plain_train_prices(self, corp) -> bool:
        """Whether a title's own :meth:`train_price` gives ``corp`` every depot train at its
        variant's own price (this class's does; a title with discounts says when it has none:
        default no)."""
        return False

    def train_limit(self, entity) -> int:
        # (the phase's table and the holder's kind read in place, one call: asked by every train
        # question; a holder without a kind reads the "" row)
        phase = self.phase
        tl = phase.phases[phase.index].get("train_limit", {})
        if tl.__class__ is not dict and not isinstance(tl, dict):
            return tl
        try:
            kind = entity.type
        except AttributeError:
            kind = ""
        limit = 0
        if kind in tl:
            limit = tl[kind]
        return limit

    #: the :meth:`train_limit` that reads the phase's table as it is (a subclass with its own
    #: limits does not): the discard step's question reads the table once for every company
    TABLE_TRAIN_LIMIT: ClassVar[Callable[..., int]] = train_limit

    def forget_train(self, train) -> None:
        self.depot.remove_train(train)
        if train in self.depot.trains:
            self.depot.trains = without(self.depot.trains, train)
        train.owner = None

    def rust_trains(self, bought, entity) -> None:
        # (the bought train's name and id read once for both loops; a train naming no rust
        # trigger is asked only whether it is an obsolete discard)
        sym, tid = bought.sym, bought.id
        for t in self.depot.trains:
            if not t.obsolete and t.obsolete_on == sym:
                t = change_train(self, t, obsolete=True)
                self.journal.record("obsolete", train=t.id, name=t.name, owner=getattr(t.owner, "id", None))
        for t in list(self.depot.trains):
            if t.rusted:
                continue
            on = t.rusts_on
            if (on is not None and names_train(on, sym, tid)) or (
                    t.obsolete_on == sym and t in self.depot.discarded):
                rust(self, t)

    def buy_train(self, operator, train, price=None) -> None:
        from_depot = train.owner is self.depot
        super().buy_train(operator, train, price)
        trigger = self.phase4_train_trigger()
        if self.grey_trains_bought >= trigger or not from_depot or train.name not in self.GREY_TRAINS:
            return
        self.grey_trains_bought += 1
        if self.grey_trains_bought == trigger:
            for t in self.depot.trains:
                if t.name in ("6H", "3M"):
                    change_train(self, t, rusts_on=train.sym)
            self.rust_trains(train, operator)

    def phase4_train_trigger(self) -> int:
        v = self.data["game"]["phase4_trains_rust"]
        return v[str(len(self.players))] if isinstance(v, dict) else v

    def on_phase_change(self, name: str) -> None:
        for c in self.companies:
            for ab in c.abilities:
                if ab.get("type") == "revenue_change" and str(ab.get("on_phase")) == name:
                    c.revenue = ab["revenue"]

    def on_train_event(self, event: dict, train) -> None:
        kind = event.get("type")
        if kind == "corporations_convert":
            for c in list(self.corporations):
                if c.type == "5-share":
                    corporations.convert(self, c)
        elif kind == "privates_close":
            self.private_closure_round = "next"

    def route_trains(self, entity) -> list:
        return [t for t in getattr(entity, "trains", []) if not t.operated]

    def route_rules(self) -> RouteRules1858:
        from .routes import RouteRules1858

        return RouteRules1858(self)

    # ------------------------------------------------------------------ track and tokens
    def tile_lays(self, entity) -> list:
        return self.TILE_LAYS if entity.is_corporation else self.MINOR_TILE_LAYS

    #: the :meth:`tile_lays` above (a subclass with its own does not name it): the track step's
    #: "a lay left?" reads the two lists in place when it is the game's
    PLAIN_TILE_LAYS: ClassVar[Callable[..., list]] = tile_lays

    def new_track_gauge(self, old_tile, new_tile) -> list:
        new = [p.track for p in new_tile.paths]
        if new and new.count(new[0]) == len(new):
            # (a new tile of one gauge, the commonest: that gauge, when the old tile has fewer
            # paths of it; the same answer as the removal below, without the lists)
            track = new[0]
            n = 0
            for p in old_tile.paths:  # (a plain loop: asked for every lay)
                if p.track == track:
                    n += 1
            return [track] if len(new) > n else []
        for t in [p.track for p in old_tile.paths]:
            if t in new:
                new.remove(t)
        out = []
        for t in new:
            if t not in out:
                out.append(t)
        return out

    def upgrade_cost(self, old_tile, hex_, entity) -> int:
        return gauges.terrain_cost(self, old_tile, self.board.tile(hex_), hex_, entity)

    def conversion_ok(self, old_tile, new_tile) -> bool:
        """A same-colour replacement (1858 India's gauge conversions); none in 1858."""
        return False

    def conversion_may_fit(self, old_tile, new_tile) -> bool:
        """May ``new_tile`` replace ``old_tile`` of the same colour in some rotation (a question
        that reads no rotation; False: in none)? None in 1858."""
        return False

    def token_cost(self, corp, city) -> int:
        dist = self.data["board"]["token_distances"]
        placed = [t for t in corp.tokens if t.used and t.city is not None]
        if not placed:
            return 20
        row = dist.get(city.hex.id, {})
        borders = min(row.get(t.city.hex.id, 0) for t in placed)
        return max(20, 40 * borders)

    # --- graphs (live play only: the reference never consults them while loading)

    def _home_hexes(self, entity) -> dict:
        if not entity.is_minor:
            return {}
        out = {}
        for coord in entity.coordinates:
            hx = self.board.hex_by_id(coord)
            out[hx] = list(self.board.neighbors(hx))
        return out

    def _home_nodes(self, entity) -> list:
        if not entity.is_minor:
            return []
        company = self.private_company(entity)
        out: list = []
        for coord in entity.coordinates:
            tile = self.board.tile(self.board.hex_by_id(coord))
            if len(tile.cities) > 1:
                out.extend(c for c in tile.cities if self.board.reserved_by(c, company))
            else:
                out.extend(tile.city_towns)
        return out

    def token_connected(self, corp, city) -> bool:
        return any(city in gauges.gauge_graph(self, gauge).connected_nodes(corp) for gauge in ("broad", "narrow"))

    def tokenable_cities_1858(self, corp) -> list:
        out = []
        for gauge in ("broad", "narrow"):
            for n in gauges.gauge_graph(self, gauge).connected_nodes(corp):
                if getattr(n, "is_city", False) and n not in out and self.board.tokenable(n, corp, free=True) \
                        and not any(self.board.tokened_by(c, corp) for c in n.tile.cities):
                    out.append(n)
        return out

    def connected_edges(self, entity, hex_):
        return gauges.connected_hexes_1858(self, entity).get(hex_)

    def legal_tile_rotation(self, entity, hex_, tile) -> bool:
        from ...core import tiles as tilemod

        edges = self.connected_edges(entity, hex_)
        if edges is None or not self.stubs_respected(hex_, tile):
            return False
        return tilemod.legal_rotation(self.board.tile(hex_), tile, self.board.neighbors(hex_), connected_edges=edges)

    def stubs_respected(self, hex_, tile) -> bool:
        """Track on a hex with stubs (a private railway's unbuilt line) must use every stub."""
        exits = tile.exits
        return all(e in exits for e in gauges.stub_edges(self, hex_))

    # ------------------------------------------------------------------ random player
    # weights of the random player: left to chance, companies trade trains at random prices,
    # pay nothing out and close one after another until turn 100. These favour what keeps
    # companies running (depot trains, payouts) so that games end by breaking the bank.
    PLAYOUT_BIAS: ClassVar[dict] = {
        "pass": 1.0, "bid": 1.5, "buy_shares": 3.0, "par": 2.0, "convert": 1.0, "lay_tile": 3.0,
        "place_token": 2.0, "run_routes": 5.0, "scrap_train": 0.5, "discard_train": 1.0, "choose": 1.0,
        "remove_hex_token": 2.0, "buy_company": 1.0, "sell_shares": 0.3,
    }
    PLAYOUT_DIVIDENDS: ClassVar[dict] = {"payout": 6.0, "half": 1.0, "withhold": 0.3}

    def playout_choose(self, rng, actions: list[dict]) -> dict | None:
        action = dict(rng.choices(actions, weights=[randomplayer.playout_weight(self, a) for a in actions], k=1)[0])
        if "price_range" in action:
            lo, hi = action.pop("price_range")
            step = action.pop("price_step", 1) or 1
            if action["type"] == "bid":
                # mostly the minimum; now and then a few increments more
                action["price"] = min(hi, lo + step * rng.choice((0, 0, 0, 1, 2, 4)))
            else:
                action["price"] = rng.randrange(lo, hi + 1, step)
        action.pop("price_step", None)
        action.pop("canonical_prices", None)
        return action

    # ------------------------------------------------------------------ play API
    def legal_actions(self, entity=None, *, routes=True) -> list:
        """Every legal action now. Steps name who acts (a player's private railway
        exchanges, a company's home token or approval, a company converting)."""
        if self.finished:
            return []
        out = []
        for s in self.round.steps:
            if not s.active():
                continue
            acting = s.acting_entities() if hasattr(s, "acting_entities") else [s.current_entity()]
            for e in acting:
                if e is None or (entity is not None and e is not entity):
                    continue
                acts = s.actions(e)
                if not acts or (self._asking is not None and self._asking["type"] not in acts):
                    continue
                for a in s.legal_actions(e):
                    out.append({**a, **self.index.ref(e)})
            if s.blocking():
                break
        return out

    # ------------------------------------------------------------------ end and score
    def player_value(self, player) -> int:
        v = player.cash
        for cid, shares in player.holdings().items():
            corp = self.index.corporations[cid]
            if not corp.ipoed or corp.closed:
                continue
            for s in shares:
                v += certificate_price(corp, s)
        v += sum(c.value for c in player.companies)
        return v - player.penalty
