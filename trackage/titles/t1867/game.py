"""1867: The Railways of Canada. Rules on top of the core; data in ``data/``.

Minors are corporations with one 100% certificate (two "shares" for prices), majors have
ten shares and incremental capitalisation. The Canadian National (CN) only holds tokens
and nationalised privates; it is kept outside the list of corporations.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import ClassVar

from trackage.core.trains import phase_buying_train

from ...core.board import unused_tokens_by_type
from ...core.entities import Corporation, ShareHolder, without
from ...core.errors import GameError
from ...core.game import Game
from ...core.graph import TrackGraph
from ...core.market import SharePrice, StockMarket
from ...core.money import pay
from ...core.rewind import Tracked
from ...core.round import OperatingRound, Round, StockRound
from ...core.steps.operating import DiscardTrain, over_phase_table_limit
from ...core.tokens import Token
from . import config
from .routes import RouteRules1867

END_PRIORITY = ["immediate", "current_round", "one_more_full_or_set", "current_or", "full_or"]
_BANK_RANK = END_PRIORITY.index("current_or")  # (1867's two reasons' ranks)
_FINAL_RANK = END_PRIORITY.index("one_more_full_or_set")
LOAN_VALUE = 50
LOAN_NET = 45
NUM_LOANS = 72
INTEREST_RATE = 5


class Corporation1867(Corporation):
    """A corporation whose treasury shares sell at the market price (``always_market_price``)."""

    __slots__ = ("_par_price", "always_market_price", "loans")

    def __init__(self, *args, **kwargs):
        self._par_price = None
        super().__init__(*args, **kwargs)
        self.always_market_price = bool(self.data.get("always_market_price"))
        self.loans = 0

    @property
    def par_price(self):
        if self.closed:
            return None
        return self.share_price if self.always_market_price else self._par_price

    @par_price.setter
    def par_price(self, value):
        self._par_price = value

    @property
    def original_par(self):
        return self._par_price


class StockMarket1867(StockMarket):
    """Minors at a maximum-price cell do not move right (up in the grid); majors at the top
    of the grid move down-right instead of up."""

    def up_of(self, corp, rc):
        if self.one_d:
            return self.right_of(corp, rc)
        r, c = rc
        if r - 1 >= 0:
            return (r - 1, c)
        if getattr(corp, "type", None) == "major":
            return (r + 1, c + 1)
        return (r, c)

    def right_of(self, corp, rc):
        sp = getattr(corp, "share_price", None)
        if getattr(corp, "type", None) == "minor" and sp is not None and "max_price" in sp.types:
            return rc if self.one_d else self.up_of(corp, rc)
        return super().right_of(corp, rc)


class AuctionRound(Round):
    NAME = "Auction Round"

    def select_entities(self):
        return list(self.game.players)

    def finished(self) -> bool:
        return self.game.finished or self.active_step() is None

    def goto_entity(self, entity):
        self.entity_index = self.entities.index(entity)


class StockRound1867(StockRound):
    def goto_entity(self, entity):
        self.entity_index = self.entities.index(entity)


class OperatingRound1867(OperatingRound):
    def skip_entity(self, entity) -> bool:
        """Closed, not floated, or not a corporation (a minor). A corporation already found
        floated answers without the call (``Corporation.floated`` then returns its flag and
        writes nothing); otherwise ``floated`` is asked as before (it may record the float)."""
        if entity.closed:
            return True
        if not (type(entity).floated is Corporation.floated and entity.floatable and entity._floated) \
                and not entity.floated():
            return True
        return entity not in self.game.corporations

    def force_next_entity(self):
        """The current operator was nationalised: its turn ends now and the next one starts
        at once, inside the action (or skip) that nationalised it."""
        for s in self.steps:
            s.pass_()
        self.next_entity()

    OPERATOR_PER_STEP = True  # a bankruptcy/nationalisation inside a skip starts the next operator


class StaleTrackGraph(Tracked, TrackGraph):
    """A track graph whose answers are part of the game's state (quirk stale-graph)."""

    DERIVED = False
    # its results per corporation are replaced, never changed in place: a copy of the game
    # copies the corporations they are keyed by and shares the results
    CLONE_KEYS = ("_local_routes", "_connected_hexes", "_connected_nodes", "_connected_paths", "_reachable_hexes",
                  "_offered", "_walked_routes", "_tokenable_cities", "_by_token", "_can_token", "_pending")
    IN_PLACE: ClassVar[tuple[str, ...]] = CLONE_KEYS  # its answers are state: an undo puts them back

    def answers(self) -> dict:
        """What the graph has answered so far (its caches map corporations to results that
        are replaced, never changed in place), to put back with :meth:`recall`; an empty
        cache as None (nothing to copy: put back only if the listing filled it)."""
        return {k: dict(v) if v else None for k, v in vars(self).items() if k.startswith("_") and type(v) is dict}

    def recall(self, answers: dict) -> None:
        for k, v in answers.items():
            if v is not None:
                setattr(self, k, v)
            elif type(now := getattr(self, k, None)) is not dict or now:
                setattr(self, k, {})


@cache
def _cells_of_types(grid: tuple[tuple[SharePrice | None, ...], ...], types: tuple[str, ...]) -> tuple[SharePrice, ...]:
    """The cells of ``grid`` of any of ``types``, by price descending, ties in the reverse of
    the grid order: a function of catalogue values (the cells never change), kept per process."""
    cells = [sp for row in grid for sp in row if sp is not None and any(t in sp.types for t in types)]
    cells.sort(key=lambda sp: sp.price)  # (stable: ties in grid order, reversed below)
    return tuple(cells[::-1])


class DiscardTrain1867(DiscardTrain):
    """The core's discard step; its "anyone over the limit?" (asked at every step question
    of every action) reads the phase's limit table once, as 1867's ``train_limit`` reads it."""

    def anyone_crowded(self) -> bool:
        game = self.game
        if type(game).train_limit is not Game1867.train_limit or type(self).crowded is not DiscardTrain.crowded:
            return super().anyone_crowded()
        return over_phase_table_limit(game)

    def active(self) -> bool:
        """The core's (:meth:`anyone_crowded`' answer), with 1867's question asked in place
        where it is this class's own (asked at every step question of every action)."""
        game = self.game
        cls = type(self)
        if cls.anyone_crowded is not DiscardTrain1867.anyone_crowded or cls.crowded is not DiscardTrain.crowded \
                or type(game).train_limit is not Game1867.train_limit:
            return self.anyone_crowded()
        return over_phase_table_limit(game)


class MergerRound(Round):
    IN_PLACE: ClassVar[tuple[str, ...]] = (*Round.IN_PLACE, "converts", "entities")
    NAME = "Merger Round"
    SHORT_NAME = "MR"

    def __init__(self, game, step_classes, round_num=1):
        self.converted = None
        super().__init__(game, step_classes, round_num)

    def is_merger(self) -> bool:
        return True

    def select_entities(self):
        ents = [c for c in self.game.corporations if c.floated() and c.type == "minor"]
        return sorted(ents, key=self.game.stock_market.operating_key)

    def current_entity_of_round(self):
        ents = self.game.players if self.converted is not None else self.entities
        if not ents or self.entity_index >= len(ents):
            return None
        return ents[self.entity_index]

    def setup(self):
        found = self.skipped_active_step()
        if self.game.finished or found is None:  # (finished(), answered by the skip)
            self.next_entity()

    def finished(self) -> bool:
        return self.game.finished or self.active_step() is None

    AFTER_PROCESS_KEEPS_ANSWER = True

    def after_process(self, action, entity):
        if action["type"] == "message":
            return
        found = self.active_step()
        if found is not None:
            self.answered(found)
            return
        self.converted = None
        for p in self.game.players:
            p.passed = False
        self.next_entity()

    def next_entity(self):
        if self.entities:
            self.entity_index = (self.entity_index + 1) % len(self.entities)
        if self.entity_index == 0:
            return
        for s in self.steps:
            s.unpass()
        for s in self.steps:
            s.setup()
        found = self.skipped_active_step()
        if self.game.finished or found is None:  # (finished(), answered by the skip)
            self.next_entity()

    def goto_entity(self, entity):
        self.entity_index = self.entities.index(entity)

    def force_next_entity(self):
        pass


class Game1867(Game):
    IN_PLACE: ClassVar[tuple[str, ...]] = (
        *Game.IN_PLACE, "interest_paid", "interest", "national_reservations", "defunct_corporations",
        "trainless_major", "green_tokens", "company_discount")
    TITLE = "1867"
    PLAYER_RANGE = (2, 6)
    IPO_NAME = "Treasury"
    OPTIONAL_RULES: ClassVar[dict] = {"grid_market": None}
    DATA_DIR = config.DATA
    # the track graph's caches depend on which questions were asked when; they are copied
    # with the game (quirk stale-graph) but two equal games may have asked different ones
    STATE_EXCLUDE = Game.STATE_EXCLUDE + ("track_graph", "track_graph_version", "_listed_walks")
    # the walks a listing made, for the tile lay that follows it (see legal_actions): they
    # belong to this game object, a copy starts without them
    CLONE_SKIP = ("_listed_walks",)
    _listed_walks: tuple[int, Hashable | None, dict] | None = None
    # the stale track graph (see graph), set up by setup()
    track_graph: StaleTrackGraph | None
    track_graph_version: Hashable | None
    GRID_DEFAULT = False
    BANK_CASH = 15_000
    CAPITALIZATION = "incremental"
    SELL_AFTER = "operate"
    SELL_BUY_ORDER = "sell_buy"
    SELL_MOVEMENT = "down_block_pres"
    SOLD_OUT_INCREASE = True
    POOL_SHARE_DROP = "none"
    MARKET_SHARE_LIMIT = 50
    HOME_TOKEN_TIMING = "par"
    MUST_BUY_TRAIN = "always"
    GAME_END_CHECK: ClassVar[dict] = {"bank": "current_or", "final_phase": "one_more_full_or_set"}
    # the generic upgrade rule: the two tiles and the hex's labels only (1861 too)
    UPGRADE_ANSWERS_SHARED = True
    TILE_LAYS: ClassVar[list] = [{"lay": True, "upgrade": True},
                 {"lay": True, "upgrade": "not_if_upgraded", "cost": 20, "cannot_reuse_same_hex": True}]
    TRAIN_PRICE_MIN = 1
    MIN_BID_INCREMENT = 5
    MINIMUM_MINOR_PRICE = 50
    LIMIT_TOKENS_AFTER_MERGER = 2
    BONUS_CAPITALS: tuple[str, ...] = ("F16", "L12", "O7")
    BONUS_REVENUE = "D2"
    GREEN_CORPORATIONS: tuple[str, ...] = ("BBG", "LPS", "QLS", "SLA", "TGB", "THB")
    CERT_LIMIT_INCLUDES_PRIVATES = True
    EXPORT_TRAINS = True
    NUM_LOANS = NUM_LOANS
    NATIONAL_MAX_LOANS: int | None = None
    NATIONALIZATION_LOAN_STEPS = 2
    TRAIN_LIMIT_BY_KIND = True  # (train_limit below: the phase's limit by company type)
    SHARED_SHAPES = True  # (the core's listing reads a shape's name, spec, colour and placements)

    # ------------------------------------------------------------ tile-lay listing
    def tile_rotation_check(self, entity, hex_):
        # the generic rotation rule (1867 and 1861 keep it), with the hex's part worked out once
        return self.board.rotation_check(entity, hex_)

    def upgrade_memo_keys(self, hex_, old):
        # the generic upgrade_memo_key, the hex's part made once for all the tiles tried there
        b = self.board
        fl = b.future_label(hex_)
        head = (old.spec, old.name, old.color, b.labels(hex_), (fl.label, fl.color) if fl is not None else None)
        return lambda new: (*head, new.name, new.spec)

    # ------------------------------------------------------------ set-up
    def build_data(self):
        return config.build(self.raw_options, len(self.players), self.DATA_DIR, self.GRID_DEFAULT)

    def init_companies(self):
        comps = super().init_companies()
        self.company_discount = {c.sym: c.data.get("discount", 0) for c in comps}
        for c in comps:
            c.min_price = 1
            c.max_price = c.value
        return comps

    def min_bid(self, company) -> int:
        return company.value - self.company_discount.get(company.sym, 0)

    def init_corporations(self):
        major_min = min((p.price for p in self.stock_market.par_prices), default=None)
        out = []
        for c in self.data["corporations"]:
            out.append(self.new_corporation(c, major_min))
        return out

    def new_corporation(self, c, major_min=None):
        if major_min is None:
            major_min = min((p.price for p in self.stock_market.par_prices), default=None)
        corp = Corporation1867(c["sym"], c.get("name", c["sym"]), share_percents=c.get("shares", [20] + [10] * 8),
                               tokens=c.get("tokens", []), coordinates=c.get("coordinates"), city=c.get("city"),
                               float_percent=c.get("float_percent", 60),
                               max_ownership_percent=c.get("max_ownership_percent", 60),
                               type_=c.get("type", "major"), capitalization=self.CAPITALIZATION, data=c)
        corp.tokens = tuple(Token(corp, price=p) for p in corp.token_prices)
        corp.min_price = major_min if corp.type == "major" else self.MINIMUM_MINOR_PRICE
        if len(self.players) == 2 and corp.max_ownership_percent == 60:
            corp.max_ownership_percent = 70
        return corp

    def init_cert_limit(self):
        return self.data["cert_limit"]

    def init_starting_cash(self):
        for p in self.players:
            pay(self, self.bank, p, self.data["starting_cash"], "starting_cash")

    def route_rules(self) -> RouteRules1867:
        return RouteRules1867(self)

    def graph_changed(self) -> None:
        """The reference forgets its track-graph answers only when a tile or a token is laid
        (and when merged tokens settle, :meth:`clear_graph`); nationalisations, closures,
        conversions and mergers leave earlier answers (such as "can this company place a
        token?") standing until then. Quirk stale-graph: we keep them too."""

    def graph_changed_renews(self) -> bool:
        return False  # (quirk stale-graph: graph_changed changes nothing)

    def clear_graph(self) -> None:
        self.board.changed()

    @property
    def graph(self):
        """The track graph, cleared when the board's version changes (a tile or token laid,
        :meth:`clear_graph`). Its cached answers can outlive a token removal (quirk
        stale-graph), so the game holds it as state and a copy carries it instead of
        recomputing it from the board."""
        g = self.track_graph
        version = self.board.state.version
        if g is None:
            g = self.track_graph = StaleTrackGraph(self.board, memory_key="main", **self.graph_options())
        elif self.track_graph_version != version:
            g.clear()
        self.track_graph_version = version
        return g

    def legal_actions(self, entity=None, *, routes=True) -> list[dict]:
        """Asking leaves the stale graph as it was: the reference asks its graph only when
        it acts, so answers cached by a question would outlive a token removal differently."""
        g, version = self.track_graph, self.track_graph_version
        answers = g.answers() if g is not None else None
        try:
            return super().legal_actions(entity)
        finally:
            now = self.board.state.version
            if g is not None and self.track_graph is g and self.track_graph_version == now:
                # the whole walks of this board state the listing knows: a tile lay listed
                # here and processed next walks its company first thing (the rotation check)
                # from this same state, and takes the listing's walk instead (preprocess_action)
                walks = {c: w for c in list(g._connected_hexes) if (w := g.walked(c)) is not None}
                self._listed_walks = (self._moves or 0, now, walks)
            self.track_graph, self.track_graph_version = g, version
            if g is not None and answers is not None:
                g.recall(answers)

    # (it refuses, or hands a listed walk to the graph: a view the steps' answers read alike)
    PREPROCESS_KEEPS_STEPS = True

    def preprocess_action(self, action: dict, entity) -> None:
        # (the core's hook does nothing; asked before every action, so the stale major's check
        # only where a trainless major is waiting)
        stale = self.stale_major_to_choose() if self.trainless_major else None
        if stale is not None:
            raise GameError(f"18xx.games waits for {stale.name}'s old record to "
                            "choose whether it is nationalised, and no action can name it (the game cannot go on)",
                            rule="trainless-major-reset")
        listed, self._listed_walks = self._listed_walks, None
        if (listed is None or self.loading or action.get("type") != "lay_tile"
                or listed[0] != (self._moves or 0) - 1 or listed[1] != self.board.state.version):
            return
        walk = listed[2].get(entity)
        if walk is not None:
            self.graph.adopt(entity, walk)

    def rewind_owners(self) -> list:
        """The core's owners and the stale track graph (its answers are state, quirk stale-graph)."""
        out = super().rewind_owners()
        if self.track_graph is not None:
            out.append(self.track_graph)
        return out

    def setup(self):
        self.stock_market = StockMarket1867(self.data["market"])
        self.track_graph = None
        self.track_graph_version = None
        self.interest = {}
        self.interest_paid = {}
        self.loan_pool = self.NUM_LOANS
        self.final_operating_rounds = None
        self.trainless_major: list = []
        self.trainless_nationalization = False
        self.hidden_company = self.index.company("3")
        self.all_corporations = list(self.corporations)
        self.defunct_corporations: list = []  # majors reset by a nationalisation
        self.national = next(c for c in self.corporations if c.type == "national")
        self.national.ipoed = True
        self.national._floated = True
        for s in list(self.national.shares_of(self.national)):
            self.national._remove_share(s)
        self.national.shares = ()
        self.national.share_holders = {}
        self.national_reservations = list(self.data["national_reservations"])
        self.corporations = [c for c in self.corporations if c is not self.national]
        self.add_neutral_tokens()
        self.future_corporations = [c for c in self.corporations
                                    if not (c.type == "minor" and c.id not in self.GREEN_CORPORATIONS)]
        self.corporations = [c for c in self.corporations if c not in self.future_corporations]
        self.show_majors = False

    def setup_for_2_players(self):
        for name, count in self.data["trains_remove_2_player"].items():
            trains = [t for t in self.depot.upcoming if t.name == name][::-1][:count]
            for t in trains:
                self.depot.remove_train(t)
                self.depot.trains = without(self.depot.trains, t)
        cands = [c for c in self.companies if c.sym != "3"]
        removal = self.rng.shuffle(cands)[:2]
        for c in removal:
            self.companies.remove(c)

    def add_neutral_tokens(self):
        self.green_tokens = []
        board = self.board
        for hex_, tile in board.tiles():
            if hex_.id == "D2":
                tok = Token(self.national, price=0, type="neutral")
                self.green_tokens.append(board.exchange_token(tile.cities[0], tok))
            elif hex_.id == "L12":
                tok = Token(self.national, price=0, type="neutral")
                self.green_tokens.append(board.exchange_token(tile.cities[-1], tok))
            elif hex_.id == "F16":
                board.exchange_token(tile.cities[0], self.national.tokens[0])

    def init_round(self):
        from .steps import SingleItemAuction

        if len(self.players) == 2:
            self.setup_for_2_players()  # before the auction lists the privates
        self.round_counter += 1
        return AuctionRound(self, [SingleItemAuction])

    # ------------------------------------------------------------ lookups
    def minor(self, corp) -> bool:
        return getattr(corp, "type", None) == "minor"

    def major(self, corp) -> bool:
        return getattr(corp, "type", None) == "major"

    # ------------------------------------------------------------ rounds
    def stock_round(self):
        from .steps import BuySellParShares1867, HomeToken1867, MajorTrainless

        return StockRound1867(self, [MajorTrainless, DiscardTrain1867, HomeToken1867, BuySellParShares1867])

    def operating_round(self, round_num):
        from .steps import (
            BuyCompany1867,
            BuyCompanyPreloan,
            BuyTrain1867,
            Dividend1867,
            LoanOperations,
            MajorTrainless,
            RedeemShares,
            Route1867,
            Token1867,
            Track1867,
        )

        self.calculate_interest()
        return OperatingRound1867(self, [MajorTrainless, BuyCompany1867, RedeemShares, Track1867, Token1867,
                                         Route1867, Dividend1867, (BuyCompanyPreloan, {"blocks": True}),
                                         LoanOperations, DiscardTrain1867, BuyTrain1867,
                                         (BuyCompany1867, {"blocks": True})], round_num=round_num)

    def available_programs(self) -> tuple[str, ...]:
        return ("program_merger_pass", "program_buy_shares", "program_share_pass")

    def merger_pass_choices(self, player) -> dict[str, list]:
        """A player may pass in merger rounds for the floated minors they own."""
        return {MergerRound.SHORT_NAME: [c for c in self.corporations
                                         if c.floated() and c.type == "minor" and c.owner is player]}

    def merger_round(self, round_num):
        from .merger import Merge, PostMergerShares, ReduceTokens
        from .steps import MajorTrainless

        self.round_counter += 1
        return MergerRound(self, [MajorTrainless, ReduceTokens, PostMergerShares, DiscardTrain1867, Merge],
                           round_num=round_num)

    def next_round(self) -> None:
        self.interest_paid.clear()
        r = self.round
        if isinstance(r, StockRound):
            self.operating_rounds_in_set = self.final_operating_rounds or self.phase.operating_rounds
            self.reorder_players()
            self.round = self.new_operating_round(1)
        elif isinstance(r, OperatingRound):
            self.or_round_finished()
            num = int(self.phase.name)
            if num < 3 or num >= 8:
                self.new_or()
            else:
                self.round = self.merger_round(r.round_num)
        elif isinstance(r, MergerRound):
            self.new_or()
        else:
            self.reorder_players()
            self.round = self.new_stock_round()

    def new_or(self):
        if self.round.round_num < self.operating_rounds_in_set:
            self.round = self.new_operating_round(self.round.round_num + 1)
        else:
            self.turn += 1
            self.or_set_finished()
            self.round = self.new_stock_round()

    def or_round_finished(self):
        if not self.EXPORT_TRAINS or "export_train" not in self.phase.status:
            return
        train = self.depot.upcoming[0]
        self.depot.remove_train(train)
        train.owner = None
        phase_buying_train(self, None, train)
        self.post_train_buy()
        self.game_end_check()

    def stock_round_finished(self, round_):
        corps = [c for c in self.corporations if c.floated() and c.type != "minor"]
        for corp in sorted(corps, key=self.stock_market.operating_key):
            if corp.share_price is None:
                continue
            if self.sold_out(corp):
                self.stock_market.move_up(corp)

    def sold_out(self, corp) -> bool:
        return corp.type == "major" and sum(p for h, p in corp.share_holders.items() if h.is_player) == 100

    def operating_order(self):
        floated = sorted([c for c in self.corporations if c.floated()], key=self.stock_market.operating_key)
        return [c for c in floated if c.type == "minor"] + [c for c in floated if c.type != "minor"]

    # ------------------------------------------------------------ end of game
    def game_end_check(self):
        cls = type(self)
        if cls.end_check_value is Game.end_check_value and cls.GAME_END_CHECK is Game1867.GAME_END_CHECK:
            # (asked after every action: 1867's two reasons read in place, the core's readings)
            trigger = self.end_trigger
            if self.bank.broken and (not trigger or END_PRIORITY.index(trigger[1]) > _BANK_RANK):
                trigger = self.end_trigger = ("bank", "current_or")
            phase = self.phase
            if phase.index == len(phase.phases) - 1 and (not trigger or END_PRIORITY.index(trigger[1]) > _FINAL_RANK):
                trigger = self.end_trigger = ("final_phase", "one_more_full_or_set")
            if not trigger:
                return (None, None)
            if cls.game_end_set_final_turn is not Game1867.game_end_set_final_turn \
                    or self.final_operating_rounds != 3 or self.final_turn is None:
                self.game_end_set_final_turn(*trigger)
            return trigger
        bank_inline = cls.end_check_value is Game.end_check_value  # (as the core's)
        for reason, timing in self.GAME_END_CHECK.items():
            if not (self.bank.broken if bank_inline and reason == "bank" else self.end_check_value(reason)):
                continue
            if self.end_trigger and END_PRIORITY.index(timing) >= END_PRIORITY.index(self.end_trigger[1]):
                continue
            self.end_trigger = (reason, timing)
        if self.end_trigger:
            self.game_end_set_final_turn(*self.end_trigger)
            return self.end_trigger
        return (None, None)

    def game_end_set_final_turn(self, reason, timing):
        self.final_operating_rounds = 3
        if self.final_turn is None:
            self.final_turn = self.turn + 1

    def end_game(self, reason):
        if self.finished:
            return
        for corp in self.corporations:
            while corp.loans > 0:
                self.stock_market.move_left(corp)
                corp.loans -= 1
                self.loan_pool += 1
        super().end_game(reason)

    def loan_price(self, corp):
        sp = corp.share_price
        rc = sp.coordinates
        for _ in range(corp.loans):
            rc = self.stock_market.left_of(corp, rc)
        cell = self.stock_market.cell(*rc)
        assert cell is not None  # left_of stays on the market
        return cell.price

    def player_value(self, player) -> int:
        v = player.cash + sum(c.value for c in player.companies)
        for cid, shares in player.holdings().items():
            corp = self.index.corporations[cid]
            if not corp.ipoed or not shares or corp.share_price is None:
                continue
            price = corp.share_price.price if not corp.loans else self.loan_price(corp)
            for s in shares:
                v += price * s.percent // corp.share_percent
        return v

    # ------------------------------------------------------------ money, loans
    def maximum_loans(self, entity) -> int:
        if entity.type == "national" and self.NATIONAL_MAX_LOANS is not None:
            return self.NATIONAL_MAX_LOANS
        return 5 if entity.type == "major" else 2

    def can_take_loan(self, entity) -> bool:
        return (entity.is_corporation and entity.loans < self.maximum_loans(entity)
                and self.loan_pool > 0)

    def take_loan(self, entity):
        if not self.can_take_loan(entity):
            raise GameError(f"{entity.name} cannot take more than {self.maximum_loans(entity)} loans",
                            rule="loan-limit")
        pay(self, self.bank, entity, LOAN_NET, "loan")
        entity.loans += 1
        self.loan_pool -= 1

    def repay_loan(self, entity):
        pay(self, entity, self.bank, LOAN_VALUE, "loan_repayment")
        entity.loans -= 1
        self.loan_pool += 1

    def buying_power(self, entity, full: bool = False) -> int:
        if not full or not entity.is_corporation:
            return entity.cash
        if type(self).maximum_loans is not Game1867.maximum_loans:
            return entity.cash + (self.maximum_loans(entity) - entity.loans) * LOAN_NET
        # (1867's loan limit read in place: the track step asks this for every tile it weighs)
        kind = entity.type
        if kind == "national" and self.NATIONAL_MAX_LOANS is not None:
            most = self.NATIONAL_MAX_LOANS
        else:
            most = 5 if kind == "major" else 2
        return entity.cash + (most - entity.loans) * LOAN_NET

    def calculate_interest(self):
        self.interest = {}
        for c in self.corporations:
            self.interest[c] = c.loans
        self.interest[self.national] = self.national.loans

    def interest_owed(self, entity) -> int:
        return INTEREST_RATE * self.interest.get(entity, 0)

    def pay_interest(self, entity):
        """Pay this OR's interest, taking loans if needed; returns what is still owed (or None)."""
        owed = self.interest_owed(entity)
        self.interest_paid[entity] = owed
        while owed > entity.cash and self.loan_pool > 0 and entity.loans < self.maximum_loans(entity):
            self.take_loan(entity)
            owed = self.interest_owed(entity)
        if owed <= entity.cash:
            if owed > 0:
                pay(self, entity, self.bank, owed, "interest")
            return None
        return owed

    # ------------------------------------------------------------ shares, pars
    def can_par(self, corp, player) -> bool:
        return not corp.ipoed and not corp.closed

    def par_prices_for(self, corp) -> list:
        types = ("par_2", "par") if corp.type == "major" else ("par_1", "par")
        return self.share_prices_with_types(types)

    def share_prices_with_types(self, types) -> list:
        """The market's cells of any of ``types``, dearest first (ties in the reverse of the
        grid order, like the reference). The cells are catalogue and the grid never changes
        in a game: the answer is worked out once per grid and kinds (:func:`_cells_of_types`)."""
        return list(_cells_of_types(tuple(map(tuple, self.stock_market.market)), tuple(types)))

    def par_prices(self, corp):
        return self.par_prices_for(corp)

    def after_buy_shares(self, player, corp):
        pass

    def after_sell_shares(self, player, corp):
        pass

    def buyable_bank_companies(self):
        return []

    def redeemable_bundles(self, corp) -> list:
        if not corp.is_corporation or corp.type != "major":
            return []
        return [b for b in self.share_market.bundles_for(self.pool, corp) if corp.cash >= b.price()]

    # ------------------------------------------------------------ home tokens
    def home_token_locations(self, corp) -> list:
        board = self.board
        mine = unused_tokens_by_type(corp)  # (what each city's question would find: nothing moves)
        # (a hex without cities never: tested here, without the call, for most of the board)
        out = [hex_ for hex_, tile in board.tiles()
               if tile.cities and self._home_city_free(board, corp, tile.cities, mine)]
        if corp.type == "minor":
            return out
        unconnected = [h for h in out if not self._hex_connected(h)]
        return unconnected or out

    def _home_city_free(self, board, corp, cities, tokens=None) -> bool:
        """Could ``corp``'s home token go on the hex of ``cities`` (:meth:`home_token_locations`):
        a minor's in an empty city it may token, a major's where it may token one city and
        no normal token lies in any. ``tokens``: the corporation's unused tokens, one per
        type, when the caller found them (else each question finds them). The cheap tests
        first: the board's question changes nothing (but its refusal's reason)."""
        if not cities:
            return False
        if corp.type == "minor":
            return any(not any(t is not None for t in board.tokens(c))
                       and board.tokenable(c, corp, free=True, tokens=tokens) for c in cities)
        return all(not any(t is not None and t.type == "normal" for t in board.tokens(c)) for c in cities) and any(
            board.tokenable(c, corp, free=True, tokens=tokens) for c in cities)

    def has_home_token_location(self, corp) -> bool:
        """Whether :meth:`home_token_locations` names any hex (the unconnected ones are a
        choice among them, never all that is left): the first hex found answers."""
        board = self.board
        return any(tile.cities and self._home_city_free(board, corp, tile.cities) for _, tile in board.tiles())

    def _hex_connected(self, hex_) -> bool:
        """Does track lead from one of the hex's cities to any other node?"""
        from ...core.graph import walk_path

        for city in self.board.tile(hex_).cities:
            for path in city.paths:
                found: list = []

                def visit(p, *_args, start=path, found=found):
                    if p is not start and p.nodes:
                        found.append(p)
                walk_path(path, visit, board=self.board)
                if found:
                    return True
        return False

    def place_home_token(self, corp) -> None:
        if not corp.tokens or corp.tokens[0].used:
            return
        if corp.coordinates:
            return super().place_home_token(corp)
        pending = getattr(self.round, "pending_tokens", None)
        if pending is None:
            return
        if any(p["entity"] is corp for p in pending):
            return
        hexes = self.home_token_locations(corp)
        pending.append({"entity": corp, "hexes": hexes, "token": corp.tokens[0]})

    # ------------------------------------------------------------ trains
    def route_trains(self, entity) -> list:
        return [t for t in entity.trains if not t.operated]

    def post_train_buy(self):
        if self.trainless_nationalization:
            self.postevent_trainless_nationalization()

    def on_train_event(self, event, train):
        name = event.get("type")
        handler = getattr(self, f"event_{name}", None)
        if handler is None:
            raise GameError(f"unknown event {name}", rule="bad-setup")
        handler()

    def event_green_minors_available(self):
        if self.hidden_company is not None:
            self.hidden_company.close()
        for tok in self.green_tokens:
            self.board.remove_token(tok)
        self.corporations = self.corporations + self.future_corporations
        self.future_corporations = []
        self.graph_changed()

    def event_majors_can_ipo(self):
        self.show_majors = True

    def event_train_trade_allowed(self):
        pass

    def event_minors_cannot_start(self):
        keep: list = []
        removed: list = []
        for c in self.corporations:
            (keep if (c.owner is not None and c.owner.is_player) or c.type != "minor" else removed).append(c)
        self.corporations = keep
        board = self.board
        for city in board.cities():
            res = board.city_reservations(city)
            if any(r in removed for r in res):
                board.set_city_reservations(city, [r for r in res if r not in removed])

    def event_minors_nationalized(self):
        keep = [c for c in self.corporations if c.type != "minor"]
        removed = [c for c in self.corporations if c.type == "minor"]
        for c in sorted(removed, key=self._sort_key):
            self.nationalize(c)
        # Quirk stale-major-record: the list is the one taken before the nationalisations, so a
        # major reset meanwhile (the operator's train step passing when a minor closes) stays
        # in it as its old record, as in the reference
        self.corporations = keep

    def event_trainless_nationalization(self):
        self.trainless_nationalization = True

    def postevent_trainless_nationalization(self):
        trainless = sorted([c for c in self.corporations if c.operated() and not c.trains], key=self._sort_key)
        self.trainless_major = []
        for c in trainless:
            if c.type == "major":
                self.trainless_major.append(c)
            elif c.type == "minor":
                self.nationalize(c)
        self.trainless_major.sort(key=self._sort_key)
        self.trainless_nationalization = False

    def action_processed(self, action) -> None:
        # (the core's hook does nothing; asked after every action, the check only for a
        # purchase in play, as :meth:`check_trainless_majors` reads it)
        if not self.loading and action.get("type") == "buy_train":
            self.check_trainless_majors(action)

    def stale_major_to_choose(self):
        """Quirk reset-trainless-major: the major that has to choose next when it is an old
        record (reset since, or named after its reset), which no action can name: the
        reference then refuses every action. None otherwise."""
        tm = self.trainless_major
        if tm and self.corporation_by_id(tm[0].id) is not tm[0]:
            return tm[0]
        return None

    def check_trainless_majors(self, action) -> None:
        """Quirk reset-trainless-major: a major named trainless (``trainless_major``) can be
        nationalised, and so reset to a new record, later in the same action, e.g. when the
        purchase of the phase's train makes it the operator and its train step passes with no
        train. The reference then waits for the old record to choose, which no action can name
        (an action's entity is found by id: the new record), so every later action fails.
        Such a purchase is refused in play (the company may buy another train or none); a
        log loads as it came. The same dead end reached at the end of a round (which no
        choice of the last operator avoids) is imitated: see :meth:`stale_major_to_choose`."""
        if self.loading or action.get("type") != "buy_train":
            return
        for c in self.trainless_major:
            if self.corporation_by_id(c.id) is not c:
                raise GameError(f"{c.name} would be nationalised while it still has to choose whether it is: "
                                "18xx.games would then wait for a company that no longer exists",
                                rule="trainless-major-reset")

    def strands_a_trainless_major(self, action: dict, entity) -> bool:
        """Would this purchase of a train that makes trainless companies choose end in
        :meth:`check_trainless_majors`' refusal? Tried on the game and taken back, only for those trains."""
        if self.loading:
            return False
        train = self.depot.train_by_id(action.get("train"))
        if train is None or train.owner is not self.depot or \
                not any(e.get("type") == "trainless_nationalization" for e in train.events):
            return False
        err = self.trial_error({**action, **self.index.ref(entity), "id": len(self.actions) + 1}, live=False)
        return err is not None and err.rule == "trainless-major-reset"

    def event_nationalize_companies(self):
        for company in self.companies:
            if company.owner is self.national or company is self.hidden_company or company.closed:
                continue
            owner = company.owner
            if owner is None:
                continue
            pay(self, self.bank, owner, company.value, "compensation")
            owner.companies = without(owner.companies, company)
            company.owner = self.national
            self.national.companies = (*self.national.companies, company)

    def _sort_key(self, c):
        """The reference's corporation order: by share price like the operating order,
        corporations without a price first."""
        if c.share_price is None:
            return (0, 0, 0, 0, 0, c.name)
        return (1,) + self.stock_market.operating_key(c)

    # ------------------------------------------------------------ nationalisation
    def nationalize(self, corp):
        if not corp.floated() or corp not in self.corporations:
            return
        while corp.cash >= LOAN_VALUE and corp.loans > 0:
            self.repay_loan(corp)
        self.stock_market.move_left(corp)
        for _ in range(corp.loans * self.NATIONALIZATION_LOAN_STEPS):
            self.stock_market.move_left(corp)
        self.nationalization_transfer_assets(corp)
        per_share = corp.share_price.price
        for player in self.players:
            amount = player.num_shares_of(corp) * per_share
            if amount:
                pay(self, self.bank, player, amount, "compensation")
        used = [t for t in corp.tokens if t.used]
        used.sort(key=lambda t: (t.city.max_revenue, t.city.hex.id))
        board = self.board
        for token in reversed(used):
            city = token.city
            board.remove_token(token)
            if any(t is not None and t.owned_by(self.national) and t.type != "neutral"
                   for c in city.tile.cities for t in board.tokens(c)):
                continue
            new_token = next((t for t in self.national.tokens if not t.used), None)
            if new_token is None:
                continue
            for c in city.tile.cities:
                board.remove_reservation(c, self.national)
            if city.hex.id in self.national_reservations:
                self.national_reservations.remove(city.hex.id)
            elif sum(1 for t in self.national.tokens if not t.used) == len(self.national_reservations):
                continue
            board.place_city_token(city, self.national, new_token, check_tokenable=False)
        if corp.type == "minor":
            self.close_corporation(corp)
        else:
            self.reset_corporation(corp)
            if self.round.current_entity is corp and hasattr(self.round, "force_next_entity"):
                self.round.force_next_entity()
        self.graph_changed()

    def nationalization_transfer_assets(self, corp):
        if corp.cash > 0:
            pay(self, corp, self.bank, corp.cash, "treasury_return")

    def close_corporation(self, corp):
        board = self.board
        for hex_, tile in board.tiles_holding():  # (the others hold nothing)
            for city in tile.cities:
                for tok in list(board.tokens(city)) + list(board.extra_tokens(city)):
                    if tok is not None and tok.owned_by(corp):
                        board.remove_token(tok)
                if board.reserved_by(city, corp):
                    board.set_city_reservations(city, [r for r in board.city_reservations(city) if r is not corp])
            if corp in board.tile_reservations(hex_):
                board.set_tile_reservations(hex_, [r for r in board.tile_reservations(hex_) if r is not corp])
        if corp.cash > 0:
            pay(self, corp, self.bank, corp.cash, "treasury_return")
        self.journal.record("close", corporation=corp.id)
        for t in corp.trains:
            t.buyable = False
        for c in list(corp.companies):
            c.close()
        if self.round is not None and self.round.current_entity is corp and hasattr(self.round, "force_next_entity"):
            self.round.force_next_entity()
        for holder in list(corp.share_holders):
            if isinstance(holder, ShareHolder):
                holder.drop_holdings(corp)
        self.pool.drop_holdings(corp)
        self.stock_market.remove(corp)
        if corp in self.corporations:
            self.corporations.remove(corp)
        corp.closed = True
        corp.owner = None
        self.graph_changed()

    def reset_corporation(self, corp):
        for holder in list(corp.share_holders):
            if isinstance(holder, ShareHolder):
                holder.drop_holdings(corp)
        self.pool.drop_holdings(corp)
        for c in list(corp.companies):
            c.close()
        self.stock_market.remove(corp)
        fresh = self.new_corporation(corp.data)
        self.corporations = [fresh if c is corp else c for c in self.corporations]
        self.all_corporations = [fresh if c is corp else c for c in self.all_corporations]
        self.index.corporations[fresh.id] = fresh
        # The old company keeps its trains, which other companies may still buy: the money
        # then goes to that company, outside the game (as in the reference); it is counted
        # with the game's money all the same.
        self.defunct_corporations.append(corp)
        return fresh

    def fix_token_count(self, corp):
        if len(corp.tokens) == 3:
            return
        corp.tokens = (*corp.tokens, Token(corp, price=40))

    def place_639_token(self, tile):
        if not self.national_reservations:
            return
        board = self.board
        if any(board.tokened_by(c, self.national) for c in tile.cities):
            return
        new_token = next((t for t in self.national.tokens if not t.used), None)
        if new_token is None:
            return
        if tile.hex.id in self.national_reservations:
            self.national_reservations.remove(tile.hex.id)
        board.place_city_token(tile.cities[0], self.national, new_token, check_tokenable=False)
        self.graph_changed()

    # ------------------------------------------------------------ companies
    def purchasable_companies(self, entity) -> list:
        return [c for c in self.companies if not c.closed and c.owner is not None and c.owner.is_player
                and c.owner is not entity]

    def total_cash(self) -> int:
        national = self.national.cash if self.national not in self.corporations else 0
        return super().total_cash() + national + sum(c.cash for c in self.defunct_corporations)
