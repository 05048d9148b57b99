"""1825: Units 1-3 with kits and regionals. Rules on top of the core; data in ``data/``."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, ClassVar

from ...core.entities import ShareBundle
from ...core.errors import GameError
from ...core.game import Game
from ...core.money import pay
from ...core.round import OperatingRound, StockRound
from ...core.steps.operating import HomeToken
from . import config
from .shares import ShareMarket1825
from .steps import (
    BuySellParShares1825,
    BuyTrain1825,
    DiscardTrain1825,
    Dividend1825,
    Route1825,
    TrackAndToken1825,
)

if TYPE_CHECKING:
    from .routes import RouteRules1825


class Game1825(Game):
    IN_PLACE: ClassVar[tuple[str, ...]] = (*Game.IN_PLACE, "formed", "minor_trains")
    CURRENCY = "£%s"
    TITLE = "1825"
    MUST_BUY_TRAIN = "never"
    TRAIN_LIMIT_BY_KIND = True  # (the phase's limit by company type)
    PLAYER_RANGE = (2, 9)
    # the counts each rule allows depend on the other rules (the units): checked by
    # validate_setup, listed by option_player_counts
    OPTIONAL_RULES = dict.fromkeys(config.all_rules())
    MUTEX_RULES = (("big_bank", "strict_bank"),)
    CAPITALIZATION = "full"
    SELL_MOVEMENT = "none"
    SELL_BUY_ORDER = "sell_buy_sell"
    SOLD_OUT_INCREASE = False
    PRESIDENT_SALES_TO_MARKET = True
    MARKET_SHARE_LIMIT = 100
    HOME_TOKEN_TIMING = "operating_round"
    GAME_END_CHECK: ClassVar[dict] = {"bank": "current_or", "stock_market": "immediate"}
    TILE_LAYS: ClassVar[list] = [{"lay": True, "upgrade": True}, {"lay": "not_if_upgraded", "upgrade": False}]
    # upgrades_to reads the two tiles, the hex's labels, the title's fixed upgrade tables (the
    # same under every option) and, for tile 200, the hex (all in upgrade_memo_key)
    UPGRADE_ANSWERS_SHARED = True
    IMPASSABLE_HEX_COLORS = ("blue", "sepia", "red")
    TRAIN_PRICE_MIN = 10
    TRAIN_PRICE_MULTIPLE = 10
    COMPANY_SALE_FEE = 30
    BANK_CAN_BREAK = False
    TRACK_RESTRICTION = "station_restrictive"

    # ------------------------------------------------------------ set-up
    @classmethod
    def validate_setup(cls, num_players, options):
        super().validate_setup(num_players, options)
        try:  # unit combinations and their player counts, as the reference checks them
            config.normalize_options(options, num_players)
        except config.OptionError as e:
            if e.players is not None:  # the reference's "Invalid option(s) for number of players"
                raise GameError(config.player_count_refusal(e, num_players, defaults=not options),
                                rule="bad-options") from None
            raise GameError(f"1825: {e}", rule="bad-options") from None

    @classmethod
    def option_player_counts(cls):
        return {k: list(v) for k, v in config.option_player_counts(*cls.PLAYER_RANGE).items()}

    def init_optional_rules(self, rules):
        self.options = config.normalize_options(rules, len(self.players))
        self.units = self.options.units
        self.kits = self.options.kits
        self.regionals = self.options.regionals
        return list(self.options.rules)

    def build_data(self):
        return config.game_data(self.options, len(self.players))

    def bank_cash_start(self):
        return self.data["bank_cash_initial"]

    def init_cert_limit(self):
        return self.data["cert_limit"]

    def init_starting_cash(self):
        for p in self.players:
            pay(self, self.bank, p, self.data["starting_cash"], "starting_cash")

    def setup(self):
        # presidencies are decided from the reference's holdings count (see shares.py)
        self.share_market = ShareMarket1825(self, self.pool, allow_president_sale=self.PRESIDENT_SALES_TO_MARKET)
        self.formed: list = []
        self.par_by_corp = dict(self.data["par_by_corporation"])
        self.required_train = dict(self.data["required_train"])
        pars = sorted({self.par_by_corp[c.id] for c in self.corporations if c.id in self.par_by_corp}, reverse=True)
        self.layer_by_corp = {c: pars.index(self.par_by_corp[c.id]) + 1
                              for c in self.corporations if c.id in self.par_by_corp}
        self.minor_trigger_layer = (pars.index(71) + 2) if 71 in pars else (pars.index(76) + 2)
        self.max_layers = max(self.layer_by_corp.values())
        if 3 in self.units or self.data["num_minors"] > 0:
            self.max_layers = max(self.max_layers, self.minor_trigger_layer)
        companies = sorted(self.companies, key=lambda c: c.value)
        lnwr = self.corporation_by_id("LNWR")
        for idx, player in enumerate(self.players):
            if idx < len(self.companies):
                company = companies[idx]
                pay(self, player, self.bank, company.value, "company_purchase")
                player.companies = (*player.companies, company)
                company.owner = player
            elif idx == len(self.companies):
                price = self.par_prices(lnwr)[0]
                self.stock_market.set_par(lnwr, price)
                self.share_market.buy_shares(player, ShareBundle([lnwr.shares_of(lnwr)[0]], corporation=lnwr))
                self.after_par(lnwr)
            else:
                self.share_market.buy_shares(player, ShareBundle([lnwr.shares_of(lnwr)[0]], corporation=lnwr))
        self.minor_trains: list = []
        for corp in self.corporations:
            name = self.required_train.get(corp.id)
            if not name:
                continue
            t = next((t for t in self.depot.upcoming if t.name == name), None)
            if t is None:
                raise GameError(f"no {name} train for minor {corp.id}", rule="bad-setup")
            t.buyable = False
            t.reserved = True
            self.minor_trains.append(t)
            self.depot.remove_train(t)

        # The corporations' "blocks_hexes" abilities have no effect on 18xx.games (the
        # reference compares hex objects with hex ids), so track may be laid there; we follow
        # the site so that its games stay legal here.

    # ------------------------------------------------------------ map rules
    def tile_valid_for_phase(self, tile) -> bool:
        colors = self.phase.tiles
        if tile.name == "119" and "brown" not in colors:
            return False
        if tile.name == "166" and "gray" not in colors:
            return False
        return tile.color in colors

    def tile_phase_key(self):
        return tuple(self.phase.tiles)  # (all tile_valid_for_phase reads besides the tile)

    def upgrades_to(self, old_tile, new_tile) -> bool:
        if self.force_upgrade(old_tile, new_tile):
            return True
        illegal = self.data["illegal_upgrades"].get(old_tile.name)
        if illegal is not None and new_tile.name in illegal:
            return False
        if old_tile.name == "119" and new_tile.color == "brown":
            return False
        if old_tile.name in ("166", "200"):
            return False
        if new_tile.name == "200" and old_tile.color != "sepia":
            return False
        if new_tile.name == "200" and old_tile.hex is not None and old_tile.hex.id in self.data["tile200_hexes"]:
            return True
        return super().upgrades_to(old_tile, new_tile)

    def upgrade_memo_key(self, hex_, old, new):
        # tile 200 may only replace the sepia tiles of three named hexes
        return super().upgrade_memo_key(hex_, old, new) + ((hex_.id,) if new.name == "200" else ())

    def upgrade_memo_keys(self, hex_, old):
        # upgrade_memo_key's, the hex's part made once for all the tiles tried there
        b = self.board
        fl = b.future_label(hex_)
        head = (old.spec, old.name, old.color, b.labels(hex_), (fl.label, fl.color) if fl is not None else None)
        at = (hex_.id,)
        return lambda new: (*head, new.name, new.spec, *at) if new.name == "200" else (*head, new.name, new.spec)

    def force_upgrade(self, old_tile, new_tile) -> bool:
        extra = self.data["extra_upgrades"].get(old_tile.name)
        if extra is None:
            return False
        # the reference stores 115's list as the bare string '206' and tests it by substring,
        # which would let a city become tile 2 (two towns); we read it as the list ['206']
        return new_tile.name in (extra if isinstance(extra, list) else [extra])

    def _home_hex_id(self, corp):
        return corp.coordinates if isinstance(corp.coordinates, str) else corp.coordinates[0]

    def connected_edges(self, entity, hex_):
        if self.minor_deferred_token(entity) and hex_.id == self._home_hex_id(entity):
            return list(self.board.neighbors(hex_))
        return super().connected_edges(entity, hex_)

    def layable_hexes(self, entity):
        out = super().layable_hexes(entity)
        if self.minor_deferred_token(entity):
            home = self.board.hex_by_id(self._home_hex_id(entity))
            out[home] = list(self.board.neighbors(home))
        return out

    def tile_rotation_check(self, entity, hex_):
        # the generic rule's hex part worked out once (Board.rotation_check); a forced upgrade
        # (the data's extra upgrades) is asked per tile, as the lay's check asks it
        generic = self.board.rotation_check(entity, hex_)
        old = self.board.tile(hex_)

        def check(tile) -> bool:
            if self.force_upgrade(old, tile):
                return self.legal_tile_rotation(entity, hex_, tile)
            return generic(tile)
        return check

    def legal_tile_rotation(self, entity, hex_, tile) -> bool:
        old = self.board.tile(hex_)
        if not self.force_upgrade(old, tile):
            return super().legal_tile_rotation(entity, hex_, tile)
        edges = self.connected_edges(entity, hex_)
        if edges is None:
            return False
        exits = tile.exits
        if not all(e in self.board.neighbors(hex_) for e in exits) or not set(exits) & set(edges):
            return False

        def end_ok(new_end, old_end):
            if getattr(new_end, "is_city", False) or getattr(new_end, "is_town", False):
                return getattr(old_end, "is_city", False) or getattr(old_end, "is_town", False)
            return getattr(new_end, "num", None) is not None and getattr(new_end, "num", None) == getattr(old_end,
                                                                                                          "num", -1)

        for old_path in old.paths:
            old_ends = (old_path.a, old_path.b)
            if not any(all(any(end_ok(t, o) for o in old_ends) for t in (p.a, p.b)) for p in tile.paths):
                return False
        old_ct = [set(e) for e in old.city_town_edges]
        new_ct = [set(e) for e in tile.city_town_edges]
        if len(new_ct) > 1 and len(old_ct) > 1:
            return all(sum(1 for n in new_ct if o <= n) == 1 for o in old_ct)
        return True

    # ------------------------------------------------------------ reach of upgrades
    def _distance_graphs(self):
        from ...core.graph import DistanceGraph

        board = self.board
        return board.derived("distance_graphs", lambda: (
            DistanceGraph(board), DistanceGraph(board, separate_node_types=True)))

    @staticmethod
    def _node_distance(train) -> int:
        if train.name == "U3":
            return 0
        return train.distance if isinstance(train.distance, int) else 99

    def biggest_node_distance(self, corp, leased=None) -> int:
        if leased is not None:
            return self._node_distance(leased)
        if not corp.trains:
            return 0
        biggest = max(self._node_distance(t) for t in corp.trains)
        # the reference writes `biggest == 2 & count > 1`, which Ruby reads as `biggest == (2 & count) > 1`
        # and is never true; two 2-trains therefore still reach only 2 stops
        return biggest

    def biggest_city_distance(self, corp, leased=None) -> int:
        if leased is not None:
            return 3 if leased.name == "U3" else 0
        if not corp.trains:
            return 0
        return max(3 if t.name == "U3" else 0 for t in corp.trains)

    def node_in_reach(self, corp, node, max_node: int, max_city: int, graphs=None) -> bool:
        node_g, city_g = graphs or self._distance_graphs()
        if max_node > 0:
            d = node_g.node_distances(corp).get(node)
            if d is None:
                return False
            if d["node"] < max_node:
                return True
        if max_city > 0:
            d = city_g.node_distances(corp).get(node)
            if d is None:
                return False
            if d.get("city", 99) < max_city:
                return True
        return False

    def reach_limits(self, corp) -> tuple[int, int]:
        """(stops, cities) within which an upgraded station must lie, from the biggest train
        (a leased one replaces the corporation's own); 99 stops: anywhere."""
        leased = getattr(self.round, "leased_train", None)
        return self.biggest_node_distance(corp, leased), self.biggest_city_distance(corp, leased)

    def upgrade_reach_ok(self, corp, nodes) -> bool:
        max_node, max_city = self.reach_limits(corp)
        if max_node == 99:
            return True
        return any(self.node_in_reach(corp, n, max_node, max_city) for n in nodes)

    @contextmanager
    def tile_in_place(self, hex_, tile):
        """``tile`` (placed on ``hex_``) stands there for a look at the track only: no token,
        reservation or cost moves, and everything is as before afterwards. The board state
        takes a version naming exactly this board (the real one plus the tile), so views
        memoised on it are never mistaken for the real board's. Walks build their own graphs
        inside (``self.graph`` keeps what the reference's graph knows)."""
        st = self.board.state
        tile_at, version = st.tile_at, st.version
        st.tile_at = {**tile_at, hex_.id: tile}
        st.version = (version, hex_.id, tile)
        try:
            yield
        finally:
            st.tile_at, st.version = tile_at, version

    def lay_keeps_reach(self, corp, hex_, tile) -> bool:
        """Would a station of ``tile`` laid on ``hex_`` be within reach of a train? (as
        ``check_laid_tile`` finds it after the lay, found without laying)"""
        max_node, max_city = self.reach_limits(corp)
        if max_node == 99:
            return True
        board = self.board
        old = board.tile(hex_)
        if any(board.tokened_by(c, corp) for c in old.cities):
            return max_node > 0 or max_city > 0  # its token moves to the new tile
        if self.upgrade_reach_ok(corp, old.nodes):
            return True  # the old track stays, so the new stations are as near
        from ...core.graph import DistanceGraph

        with self.tile_in_place(hex_, tile):
            graphs = (DistanceGraph(board), DistanceGraph(board, separate_node_types=True))
            # only the first station reached on the tile counts, so the new tile's (missing)
            # tokens cannot matter: a city blocks only walks that pass through it
            return any(self.node_in_reach(corp, n, max_node, max_city, graphs) for n in tile.nodes)

    @staticmethod
    def new_paths(old_tile, tile) -> list:
        return [p for p in tile.paths if not any(p <= op for op in old_tile.paths)]

    def uses_new_track(self, corp, old_tile, tile, connected: dict) -> bool:
        """Track-only upgrades must add track the corporation reaches (``connected``: its
        paths with the new tile laid)."""
        if not old_tile.paths or tile.nodes:
            return True
        return any(p in connected for p in self.new_paths(old_tile, tile))

    def lay_uses_new_track(self, corp, hex_, old_tile, tile) -> bool:
        """``uses_new_track`` for a tile not laid yet: its track is walked as if it were laid
        (whether a walk may enter new track depends on the whole walk, e.g. an edge it has
        already crossed, so nothing short of the walk itself will do)."""
        if not old_tile.paths or tile.nodes:
            return True
        from ...core.graph import TrackGraph

        with self.tile_in_place(hex_, tile):
            # the walk stops at the first new path it reaches (what uses_new_track asks)
            return TrackGraph(self.board, **self.graph_options()).reaches_any_path(
                corp, self.new_paths(old_tile, tile))

    def check_laid_tile(self, entity, hex_, old_tile, tile):
        if not entity.is_corporation:
            return
        if self.minor_deferred_token(entity) and hex_.id == self._home_hex_id(entity):
            return
        if not self.uses_new_track(entity, old_tile, tile, self.graph.connected_paths(entity)):
            raise GameError("must use new track", rule="must-use-new-track")
        if old_tile.preprinted or not tile.nodes:
            return
        if not self.upgrade_reach_ok(entity, tile.nodes):
            raise GameError("unable to reach a city/town on the upgraded tile with any train",
                            rule="upgrade-out-of-reach")

    def can_place_home_token(self, corp) -> bool:
        if not self.minor(corp):
            return True
        coords = corp.coordinates if isinstance(corp.coordinates, str) else corp.coordinates[0]
        hex_ = self.board.hex_by_id(coords)
        if hex_ is None:
            raise GameError(f"cannot find home hex for {corp.name}", rule="bad-setup")
        tile = self.board.tile(hex_)
        return bool(tile.paths) and bool(tile.cities)

    def place_home_token(self, corp) -> None:
        if corp.tokens and corp.tokens[0].used:
            return
        if not self.can_place_home_token(corp):
            return
        super().place_home_token(corp)

    # ------------------------------------------------------------ rounds
    def stock_round(self):
        return StockRound(self, [DiscardTrain1825, BuySellParShares1825])

    def operating_round(self, round_num):
        return OperatingRound1825(self, [HomeToken, TrackAndToken1825, Route1825, Dividend1825, DiscardTrain1825,
                                         BuyTrain1825], round_num=round_num)

    # ------------------------------------------------------------ companies, pars, layers
    def unbought_companies(self):
        return [c for c in self.companies if not c.closed and c.owner is None]

    def buyable_bank_companies(self):
        unbought = self.unbought_companies()
        if not unbought:
            return [c for c in self.companies if not c.closed and (c.owner is None or c.owner is self.bank)]
        return [min(unbought, key=lambda c: c.value)]

    def company_sale_price(self, company):
        return company.value - self.COMPANY_SALE_FEE

    def after_sell_company(self, player, company):
        self.check_bank_broken()

    def after_buy_shares(self, player, corp):
        self.check_formation(corp)

    def after_sell_shares(self, player, corp):
        self.check_bank_broken()

    def major(self, corp) -> bool:
        return corp.is_corporation and corp.presidents_share.percent == 20

    def minor(self, corp) -> bool:
        return corp.is_corporation and corp.presidents_share.percent != 20

    def minor_required_train(self, corp):
        name = self.required_train.get(corp.id)
        return next((t for t in self.depot.trains if t.name == name), None)

    def par_prices(self, corp):
        if self.major(corp):
            price = self.par_by_corp.get(corp.id)
            return [p for p in self.stock_market.par_prices if p.price == price]
        train = self.minor_required_train(corp)
        return [p for p in self.stock_market.market[0] if p is not None and p.price * 10 > train.price
                and p.type != "endgame"]

    def current_layer(self) -> int:
        if any(c.owner is None and not c.abilities for c in self.companies):
            return 0
        layers = [lay for c, lay in self.layer_by_corp.items() if c.num_ipo_shares() == 0]
        return min(max(layers) + 1, self.max_layers) if layers else 1

    def can_ipo(self, corp) -> bool:
        layer = self.layer_by_corp.get(corp, self.minor_trigger_layer)
        return layer <= self.current_layer()

    def formed_(self, corp) -> bool:
        return corp in self.formed

    def check_formation(self, corp):
        if corp in self.formed:
            return
        if self.major(corp) and corp.floated():
            self.formed.append(corp)
        elif self.minor(corp):
            train = self.minor_required_train(corp)
            if train is not None and corp.cash >= train.price:
                self.formed.append(corp)
                t = next(t for t in self.minor_trains if t.name == self.required_train[corp.id])
                self.minor_trains.remove(t)
                corp.trains = (*corp.trains, t)
                t.owner = corp
                pay(self, corp, self.bank, t.price, "train_purchase")

    def operating_order(self):
        formed = [c for c in self.corporations if c in self.formed]
        formed.sort(key=lambda c: (-c.par_price.price, self.formed.index(c)))
        return [c for c in formed if self.major(c)] + [c for c in formed if not self.major(c)]

    # ------------------------------------------------------------ money/end
    def real_bank_cash(self) -> int:
        return self.data["bank_cash"] - sum(p.cash for p in self.players)

    def bank_display(self) -> int:
        return self.real_bank_cash()

    def check_bank_broken(self):
        if self.real_bank_cash() < 0:
            if not self.bank.broken:
                self.journal.record("bank_broken", cash=self.real_bank_cash())
            self.bank.broken = True

    def check_bankrupt(self, corp):
        """A corporation whose price reaches the 0 box in its dividend step leaves the game."""
        if corp.share_price is None or corp.share_price.type != "close":
            return
        self.close_corporation(corp)

    def hands_over_on_close(self, corp, acting) -> bool:
        """The reference asks its round for the current operator once the treasury is empty.

        Quirk "bankrupt in the dividend step" (docs/quirks.md): when the round remembered its
        active step within this action, that step still names the closing corporation, and
        the next operator's turn starts at once, inside the dividend step, which then marks
        itself done -- for the next operator, whose revenue is then never paid out nor
        withheld and whose share price does not move that turn. Otherwise the step is looked
        up afresh: with no treasury and no revenue left to pay, it names the corporation
        only if it still has something to do (it never has), so the hand-over is normal.
        """
        rnd = self.round
        if rnd is None or not rnd.is_operating():
            return False
        return rnd.names_operator(corp) or rnd.current_entity is corp

    def close_corporation(self, corp):
        # Quirk "stale graph after a closing" (docs/quirks.md): the reference removes the
        # closed corporation's tokens without forgetting what its track graphs knew, so a
        # freed city stays untokenable for a corporation until the map next changes.
        self._keep_graph = True
        try:
            super().close_corporation(corp)
        finally:
            self._keep_graph = False
        if corp in self.formed:
            self.formed.remove(corp)

    def graph_changed(self):
        if not self.__dict__.get("_keep_graph"):
            super().graph_changed()

    def graph_changed_renews(self) -> bool:
        return not self.__dict__.get("_keep_graph")

    def can_par(self, corp, player) -> bool:
        return not corp.ipoed and not corp.closed

    # ------------------------------------------------------------ receivership
    def director(self, player) -> bool:
        return any(c.owner is player for c in self.corporations)

    def acting_for_entity(self, entity):
        if entity is None:
            return None
        if entity.is_player:
            return entity
        if entity.owner is not None and entity.owner.is_player:
            return entity.owner
        return next((p for p in self.players if not self.director(p)), self.players[0])

    def silent_receivership(self, corp) -> bool:
        return corp.is_corporation and corp.receivership() and self.minor(corp) and (1 in self.units or 2 in self.units)

    def can_run_route(self, corp) -> bool:
        return self.graph.route_available(corp) and not self.silent_receivership(corp)

    def minor_deferred_token(self, corp) -> bool:
        return self.minor(corp) and not (corp.tokens and corp.tokens[0].used)

    def start_operating_hook(self, round_, entity):
        for t in entity.trains:
            t.operated = False
        round_.note_active_step()
        if self.minor_deferred_token(entity):
            self.place_home_token(entity)

    def route_trains(self, corp):
        # a leased train is named even when it ran this round for another company (it can be
        # the very train a company discarded to the depot): running it is then refused, as
        # on 18xx.games, and the listed run leaves it out
        trains = super().route_trains(corp)
        leased = getattr(self.round, "leased_train", None)
        return trains + ([leased] if leased is not None else [])

    def route_rules(self) -> RouteRules1825:
        rules = self.__dict__.get("_route_rules")
        if rules is None:
            from .routes import RouteRules1825

            rules = self._route_rules = RouteRules1825(self)
        return rules

    def train_owner(self, train):
        return self.round.current_entity_of_round() if train.owner is self.depot else train.owner


class OperatingRound1825(OperatingRound):
    """The operating round, with the reference's memory of its active step.

    Within one action the reference looks its active step up once and then keeps it (until
    the action's steps have been skipped): when an operator's turn starts, and when a route
    is run with a leased train (whose owner, the depot, makes it ask the round for the
    operator). Which operator a remembered step names decides whether a corporation going
    bankrupt in its dividend step hands the turn on at once (``Game1825.check_bankrupt``).
    Looked up afresh at that point, the step would never name it: its treasury is gone.
    """

    remembered_step = None

    def process(self, action: dict, entity):
        self.remembered_step = None
        return super().process(action, entity)

    # (the memory is let go before the base's after_process, whose last question stands)
    AFTER_PROCESS_KEEPS_ANSWER = True

    def after_process(self, action, entity):
        self.remembered_step = None
        super().after_process(action, entity)

    def note_active_step(self) -> None:
        if self.remembered_step is None:
            self.remembered_step = self.active_step()

    def names_operator(self, corp) -> bool:
        step = self.remembered_step
        if step is None:
            return False
        entities = step.active_entities()
        return bool(entities) and entities[0] is corp

    OPERATOR_PER_STEP = True  # a bankruptcy/nationalisation inside a skip starts the next operator
