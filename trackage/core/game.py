"""The game object: state container, action pipeline, round flow, end and score.

A title subclasses :class:`Game` once, sets its constants and overrides the
small hooks named below (``build_data``, ``stock_round``, ``operating_round``,
``operating_order`` ...). Actions are plain dicts in the 18xx.games log shape.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar, Concatenate, ParamSpec, TypeVar, cast

from . import routes as _routes
from .actions import asks_hex, asks_tile
from .entities import Company, Corporation, Player, Share, ShareBundle, SharePoolHolder, certificate_price
from .errors import GameError
from .index import Index
from .journal import Journal, record_round, round_label
from .market import StockMarket
from .money import Bank, CashHolder, pay
from .pipeline import Pipeline, Start, listing_entities, trials_only
from .programs import LIVE_TYPES
from .programs import new_state as programs_state
from .rewind import Rewind, Tracked, building_untracked
from .rng import Rng
from .round import OperatingRound, Round, StockRound, starting_at
from .shares import ShareMarket
from .tiles import upgrades_to as _tile_upgrades_to
from .trains import Depot, PhaseTrack, change_train, names_train, remove_train, rust

if TYPE_CHECKING:
    from .board import Board
    from .graph import TrackGraph
    from .hexmap import Hex
    from .market import SharePrice
    from .routes import RouteRules
    from .tiles import Placed, Tile
    from .trains import Train

P = ParamSpec("P")
R = TypeVar("R")

END_TIMING_PRIORITY = ["immediate", "current_round", "current_or", "full_or", "one_more_full_or_set"]


def _leaves_no_trace(f: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], R]:
    """``legal_actions`` is a question: whatever the track graphs remember while answering it
    (the reference's sticky route information) is forgotten again, so that asking does not
    change the game.

    The outermost call acts on ``routes`` (the titles' overrides leave it to this wrapper):
    the steps list a ``run_routes`` without the router's suggestion, and with ``routes`` true
    it is filled in afterwards (:mod:`trackage.core.suggestion`)."""
    import functools

    @functools.wraps(f)
    def run(self: Any, *args: P.args, **kwargs: P.kwargs) -> R:
        routes = kwargs.pop("routes", True)
        if self._listing_busy:  # a title's super() call or a step's question inside a listing
            return _forgetting(self, f, *args, **kwargs)
        # the whole listing (no entity, no question of the gate) is remembered until the game
        # moves (``_moves``): the gate then checks an action against the very list handed out
        whole = not args and not kwargs and self._asking is None
        memo = self._listing
        if whole and memo is not None and memo[0] == self._moves:
            listing = memo[1]
        else:
            # (a flag of the listing, not state: plain stores, never recorded)
            object.__setattr__(self, "_listing_busy", True)
            try:
                with trials_only():  # the rules' trials on copies meanwhile are no moves
                    listing = cast("list[dict[str, Any]]", _forgetting(self, f, *args, **kwargs))
            finally:
                object.__setattr__(self, "_listing_busy", False)
            if whole:
                self._listing = (self._moves, listing)
        out = [dict(a) for a in listing]
        if routes and not self._suggesting:
            from .suggestion import with_suggestions

            # (the whole listing of this state names only entities it lists)
            out = with_suggestions(self, out, listed=whole)
        return cast(R, out)
    return cast("Callable[Concatenate[Any, P], R]", run)


_tile_name = attrgetter("name")  # (a tile's name, for the listing's C-level maps)


def _forgetting(game: Any, f: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """``f(game, ...)``, with what the track graphs learnt meanwhile forgotten."""
    board = game.board
    if board is None:
        return f(game, *args, **kwargs)
    saved = board.state.route_info
    try:
        return f(game, *args, **kwargs)
    finally:
        if board.state.route_info is not saved:
            # forget it, and what the graphs learnt meanwhile (they would not learn it again)
            board.restore_route_info(saved)


# what the undo journal saves of an object of a (state) class (trackage.core.rewind)
_SAVE_PLAN = attrgetter("SAVE_PLAN")

class Game(Tracked):
    # the containers the rules change in place (saved before each live action for an undo,
    # trackage.core.rewind); a title adds its own
    IN_PLACE: ClassVar[tuple[str, ...]] = ("corporations", "companies")
    # how a copy treats the game's attributes (trackage.core.clone): the title's data is
    # catalogue; the log, the actions and the snapshots are records that are never changed
    CLONE_SHARE: tuple[str, ...] = ("data", "raw_options", "optional_rules")
    CLONE_SHALLOW: tuple[str, ...] = ("actions", "log", "warnings", "redo_stack", "snapshots")
    # history and the pipeline's own flags
    STATE_EXCLUDE: tuple[str, ...] = ("snapshots", "redo_stack", "_gate", "_unlisted", "_asking",
                                      "_rewinds", "_moves", "_listing", "_listing_busy", "_suggested", "_suggesting",
                                      "_suggested_routes", "_run_checks", "_checked_run", "check_programs", "untracked")
    # (the listing's memo and its key belong to this game object: a copy starts without them)
    CLONE_SKIP: tuple[str, ...] = ("_gate", "_unlisted", "_asking", "_moves", "_listing", "_listing_busy", "_rewinds",
                                   "_suggested", "_suggesting", "_suggested_routes", "_run_checks", "_checked_run")
    # the board's track graph carries each corporation's walk over to a new board version
    # that did not change what it walked (TrackGraph.keep_walks), instead of walking again
    GRAPH_KEEPS_WALKS: ClassVar[bool] = False
    # whether the class keeps the base :meth:`corporation_by_id` (set for each class as it is
    # made): the token's owner and the index's entity then read the index's table in place
    PLAIN_CORPORATION_LOOKUP: ClassVar[bool] = True
    # a title whose ``train_limit`` reads nothing of an operator but its ``type`` (and the
    # phase) says so: the discard step's "anyone over the limit?" then asks once per kind
    TRAIN_LIMIT_BY_KIND: ClassVar[bool] = False
    # the tile supply's shapes (``TileSupply.shape``: a name's tile looked at off the map)
    # shared by the games of the process, their placements made once, not once a game: for
    # titles whose rules read nothing of a shape but its name, spec, colour and placements
    SHARED_SHAPES: ClassVar[bool] = False
    SNAPSHOT_EVERY = 16
    # older than SNAPSHOT_SPARSE_AFTER actions, only every SNAPSHOT_SPARSE_EVERY-th snapshot is
    # kept: a long game's history stays a few dozen copies (the collector scans every one of
    # them at each full collection), and an undo that far back replays at most that many actions
    SNAPSHOT_SPARSE_AFTER = 256
    SNAPSHOT_SPARSE_EVERY = 256
    # live play copies the game before every LIVE_SNAPSHOT_EVERY-th action only (positions
    # the history keeps, so no copy is taken to be thrown away), for undos further back than
    # the records below (they replay fewer than this many actions); a copy costs 0.3-0.8 ms
    # and its garbage the collector's time, so every 64th (every 16th cost ~5% of a decision)
    LIVE_SNAPSHOT_EVERY = 64
    # live play records what each action changes (trackage.core.rewind), so that a refusal and
    # an undo put back just that; the records of the last REWIND_KEEP actions are kept (as many
    # as the snapshots' spacing: an undo within them replays nothing)
    REWIND = True
    REWIND_KEEP = 64
    _rewinds: tuple[tuple[Any, tuple[int, int, int]], ...] = ()  # (record, lengths of actions, log, warnings before)
    # made of barrier-free twins (a new game, a log import: trackage.core.rewind); the first
    # record made of it makes it tracked
    untracked = False
    _moves = 0  # counts every change of this game object's state through the pipeline
    _listing: tuple[int, list[dict[str, Any]]] | None = None  # the whole listing at _moves
    _listing_busy = False  # a listing is being made (the titles' inner calls are not it)
    # the router's suggested runs of the state at _moves, by entity (trackage.core.suggestion)
    _suggested: tuple[int, dict[tuple[str, str], dict[str, Any] | None]] | None = None
    # the run step lists its run_routes with the suggestion (suggestion.LISTED: for an entity
    # the state's whole listing named)
    _suggesting: bool | str = False
    # the router's suggested routes by entity: (state number, action count, board version,
    # routes by entity), kept over a move of a type in SUGGESTION_KEEPS (trackage.core.suggestion)
    # (the entity's routes, the engine's check of them as Game._checked_run has it less the state number)
    _suggested_routes: tuple[int, int, Any,
                             dict[tuple[str, str], tuple[list[dict[str, Any]], tuple[Any, ...] | None]]] | None = None
    # action types that change nothing the router's suggested run reads (the board, the
    # operator's trains, companies and abilities, the phase, the title's route rules' state):
    # the routes suggested in the state before such an action are the state's after it
    SUGGESTION_KEEPS: ClassVar[frozenset[str]] = frozenset()
    # the log-form checks made while the router suggests a run, by entries (trackage.core.routes)
    _run_checks: dict[str, list[Any]] | None = None
    # the suggested run's checked revenues (state number, board version, entity, trains, entries)
    _checked_run: tuple[int, Any, Any, tuple[str, ...], str, list[Any]] | None = None
    # live play (process() outside a log import) accepts exactly what legal_actions() lists
    LISTED_ONLY = True
    # a log's auto actions are compared with what the programs make (trackage.core.programs) in
    # a strict load, and in any load of a game with this set (scripts/programcheck)
    check_programs = False
    _gate = False
    _unlisted: GameError | None = None
    # while the gate asks whether one action is listed: that action (see asks())
    _asking: dict[str, Any] | None = None

    TITLE = "base"
    BANK_CASH = 12_000
    CAPITALIZATION = "full"
    SELL_AFTER = "first"
    SELL_MOVEMENT = "down_share"
    SELL_BUY_ORDER = "sell_buy_or_buy_sell"
    SOLD_OUT_INCREASE = True
    POOL_SHARE_DROP = "none"
    MARKET_SHARE_LIMIT = 50
    PRESIDENT_SALES_TO_MARKET = False
    HOME_TOKEN_TIMING = "operate"
    #: when a trainless company must buy a train: "never", "always" or "route" (it has a route)
    MUST_BUY_TRAIN = "route"
    GAME_END_CHECK: ClassVar[dict[str, str]] = {"bankrupt": "immediate", "bank": "full_or"}
    GAME_END_LOCK_FIRST_TRIGGER = False
    NEXT_SR_PLAYER_ORDER = "after_last_to_act"
    CERT_LIMIT_INCLUDES_PRIVATES = True
    TILE_LAYS: ClassVar[list[dict[str, Any]]] = [{"lay": True, "upgrade": True, "cost": 0}]
    #: the title's ``upgrades_to`` reads nothing but what its ``upgrade_memo_key`` holds (no
    #: option, no state beside the key), so its answers hold in every game: ``upgrade_memo``
    #: keeps them with the old tile's spec, shared by all its games (a game loaded or imported
    #: starts with them). False: kept with the game's tile supply, one game's
    UPGRADE_ANSWERS_SHARED = False
    IMPASSABLE_HEX_COLORS = ("blue", "gray", "red")
    TRAIN_PRICE_MIN = 1
    TRAIN_PRICE_MULTIPLE = 1
    BANK_CAN_BREAK = True
    #: how the title writes an amount of money (``%s`` is the amount): ``£%s``, ``%sM``
    CURRENCY = "$%s"
    #: what the site calls a corporation's unsold shares in messages ("IPO", "Treasury")
    IPO_NAME = "IPO"
    CORPORATION_CLASS = Corporation  # titles may subclass it (e.g. a different float rule)
    # the random player's weights per action type, over trackage.playout.WEIGHTS (a title's bias
    # so that random games move on and end by the title's own end conditions)
    PLAYOUT_WEIGHTS: ClassVar[dict[str, float]] = {}
    # what a new game may be created with (the reference's meta data): player counts, optional
    # rules (name -> the player counts that allow it, None for any) and mutually exclusive groups
    PLAYER_RANGE: tuple[int, int] = (1, 99)
    OPTIONAL_RULES: ClassVar[dict[str, tuple[int, ...] | None]] = {}
    MUTEX_RULES: tuple[tuple[str, ...], ...] = ()

    def __init__(self, players: list[Any], optional_rules: list[str] | None = None, seed: int = 0, game_id: Any = None):
        if not players:
            raise GameError("a game needs players", rule="bad-setup")
        self.game_id = game_id
        self.seed = seed
        self.rng = Rng(seed)
        self.players = [Player(p["id"], p["name"]) if isinstance(p, dict) else Player(p[0], p[1]) for p in players]
        self.seats = list(self.players)
        self.finished = False
        self.game_end_reason: str | None = None
        self.end_trigger: tuple[str, str] | None = None  # (reason, timing)
        self.final_turn: int | None = None
        self.turn = 1
        self.round_counter = 0
        self.operating_rounds_in_set = 1
        self.log: list[str] = []
        self.loading = False
        self.strict = False
        self.warnings: list[str] = []
        # the players' programmed actions (trackage.core.programs), plain data
        self.programs: dict[str, Any] = programs_state()
        # set by init_map (every title has a map); None only while the game is being built
        self.board: Board = cast("Board", None)
        self.actions: list[dict[str, Any]] = []
        self.redo_stack: list[tuple[dict[str, Any], bool]] = []
        self.snapshots: dict[int, Game | Start] = {}  # (the start may be kept as what it was built from)
        self.imported = 0  # the first ``imported`` actions were applied as a log import
        self.raw_options = list(optional_rules or [])
        self.optional_rules = self.init_optional_rules(self.raw_options)
        self.data = self.build_data()
        self.journal = Journal()
        self.bank = Bank(self.bank_cash_start(), can_break=self.BANK_CAN_BREAK)
        self.bank.journal = self.journal
        self.pool = SharePoolHolder()
        self.share_market = ShareMarket(self, self.pool, allow_president_sale=self.PRESIDENT_SALES_TO_MARKET)
        self.stock_market = StockMarket(self.data["market"])
        self.stock_market.journal = self.journal
        self.companies = self.init_companies()
        self.corporations = self.init_corporations()
        self.minors: list[Any] = self.init_minors()
        self.phase = PhaseTrack(self.data["phases"])
        self.depot = Depot(self.data["trains"], self.phase.available)
        self.cert_limit_value = self.init_cert_limit()
        self.init_starting_cash()
        self.init_map()
        self.index = Index(self)
        self.round = self.init_round()
        self.setup()
        self.stock_market.journal = self.journal  # (a title may have made its own market)
        self.journal.record("phase", name=self.phase.name, train=None)
        record_round(self)
        self.round.setup()

    @classmethod
    def validate_setup(cls, num_players: int, options: list[str]) -> None:
        """Refuse a new game the site would not create: a player count outside the title's
        range, an unknown optional rule, a rule not offered for this player count, or two
        rules of one mutually exclusive group. (Importing a log is lenient, as the reference.)"""
        lo, hi = cls.PLAYER_RANGE
        if not isinstance(num_players, int) or not lo <= num_players <= hi:
            raise GameError(f"{cls.TITLE} is played by {lo} to {hi} players, not {num_players}",
                            rule="bad-player-count")
        known = sorted(cls.OPTIONAL_RULES)
        for opt in options:
            if opt not in cls.OPTIONAL_RULES:
                allowed = ", ".join(known) if known else "none"
                raise GameError(f"{cls.TITLE} has no optional rule {opt!r}; allowed: {allowed}",
                                rule="unknown-option")
            counts = cls.OPTIONAL_RULES[opt]
            if counts is not None and num_players not in counts:
                raise GameError(f"{cls.TITLE}'s optional rule {opt!r} is for "
                                f"{', '.join(map(str, counts))} players, not {num_players}",
                                rule="bad-option-for-player-count")
        for group in cls.MUTEX_RULES:
            chosen = [o for o in group if o in options]
            if len(chosen) > 1:
                raise GameError(f"{cls.TITLE}'s optional rules {' and '.join(chosen)} exclude each other",
                                rule="exclusive-options")

    @classmethod
    def option_player_counts(cls) -> dict[str, list[int]]:
        """For each optional rule, the player counts it can be played with (for the lobby;
        :meth:`validate_setup` refuses a rule for any other count)."""
        lo, hi = cls.PLAYER_RANGE
        return {k: list(v) if v is not None else list(range(lo, hi + 1)) for k, v in cls.OPTIONAL_RULES.items()}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.PLAIN_CORPORATION_LOOKUP = cls.corporation_by_id is Game.corporation_by_id
        if "preprocess_action" in cls.__dict__ and "PREPROCESS_KEEPS_STEPS" not in cls.__dict__:
            cls.PREPROCESS_KEEPS_STEPS = False
        if "legal_actions" in cls.__dict__:
            # replacing the method is the point: the subclass's own legal_actions, wrapped once
            cls.legal_actions = _leaves_no_trace(cls.__dict__["legal_actions"])  # type: ignore[method-assign]

    # ------------------------------------------------------------------ hooks
    def init_optional_rules(self, rules: list[str]) -> list[str]:
        return rules

    def build_data(self) -> dict[str, Any]:
        raise NotImplementedError

    def bank_cash_start(self) -> int:
        return self.BANK_CASH

    def init_companies(self) -> list[Company]:
        return [Company(c["sym"], c["name"], c["value"], c.get("revenue", 0), c.get("abilities"), c)
                for c in self.data.get("companies", [])]

    def init_corporations(self) -> list[Any]:
        from .tokens import Token

        out = []
        for c in self.data.get("corporations", []):
            corp = self.CORPORATION_CLASS(
                c["sym"], c.get("name", c["sym"]), share_percents=c.get("shares", [20] + [10] * 8),
                tokens=c.get("tokens", []), coordinates=c.get("coordinates"), city=c.get("city"),
                float_percent=c.get("float_percent", 60), max_ownership_percent=c.get("max_ownership_percent", 60),
                type_=c.get("type", "major"), capitalization=c.get("capitalization", self.CAPITALIZATION), data=c)
            corp.tokens = tuple(Token(corp, price=p) for p in corp.token_prices)
            corp.min_price = min((p.price for p in self.stock_market.par_prices), default=None)
            out.append(corp)
        return out

    def init_minors(self) -> list[Any]:
        """Operators without shares (:class:`~trackage.core.entities.Minor`); none by default."""
        return []

    def init_cert_limit(self) -> int:
        return 99

    def init_starting_cash(self) -> None:
        pass

    def init_map(self) -> None:
        if "hexes" not in self.data:
            return
        from .board import Board

        map_data = {"layout": self.data.get("layout", "flat"), "axes": self.data.get("axes"),
                    "location_names": self.data.get("location_names", {}), "hexes": self.data["hexes"]}
        self.board = Board(self, map_data, self.data.get("tiles", {}), self.IMPASSABLE_HEX_COLORS)
        self.board.reserve_homes(self.corporations)

    def setup(self) -> None:
        pass

    def init_round(self) -> Any:
        return self.new_stock_round()

    def stock_round(self) -> Any:
        raise NotImplementedError

    def operating_round(self, round_num: int) -> Any:
        raise NotImplementedError

    def operating_order(self) -> list[Any]:
        floated = [c for c in self.corporations if c.floated() and not c.closed]
        return sorted(floated, key=self.stock_market.operating_key)

    # ------------------------------------------------------------ programmed actions
    def available_programs(self) -> tuple[str, ...]:
        """The programmed actions a player may set in live play (:mod:`trackage.core.programs`;
        the site's ``available_programmed_actions``). Default: the site's, a purchase and a
        share pass."""
        return LIVE_TYPES

    def merger_pass_choices(self, player: Any) -> dict[str, list[Any]]:
        """What a programmed merger pass of ``player`` may name: per merger round kind (its
        ``SHORT_NAME``), the corporations it may pass for. Default: none (no merger rounds)."""
        return {}

    def start_operating_hook(self, round_: Round, entity: Any) -> None:
        if self.HOME_TOKEN_TIMING == "operate":
            self.place_home_token(entity)

    def after_end_of_operating_turn(self, operator: Any) -> None:
        pass

    def hands_over_on_close(self, corp: Any, acting: Any) -> bool:
        """Whether ``corp``, closing with its treasury already emptied, ends the current
        operating turn and hands it to the next operator. ``acting`` is the operator the
        round named before the closing began (None outside an operating round)."""
        return acting is corp

    def stock_round_finished(self, round_: Round) -> None:
        """Stock-round end price moves (sold out up, pool drop)."""
        for corp in self.corporations:
            if not corp.floated() or corp.type == "minor" or corp.share_price is None:
                continue
            if self.SOLD_OUT_INCREASE and self.sold_out(corp):
                self.stock_market.move_up(corp)
            if self.POOL_SHARE_DROP != "none" and corp.num_market_shares(self.pool) > 0:
                self.stock_market.move_down(corp)

    def sold_out(self, corp: Corporation) -> bool:
        return sum(p for h, p in corp.share_holders.items() if h.is_player) >= 100

    def company_pays(self, company: Company) -> bool:
        """Does this private pay its revenue to its owner at the start of an OR?"""
        return (company.owner is not None and not company.closed and company.revenue > 0
                and company.owner is not self.bank)

    def payout_companies(self) -> None:
        comps = [c for c in self.companies if self.company_pays(c)]

        def key(c: Company) -> tuple[int, int, int, str]:
            if c.owner.is_player:
                return (0, self.players.index(c.owner), c.revenue, c.name)
            return (1, 0, c.revenue, c.name)
        for c in sorted(comps, key=key):
            pay(self, self.bank, c.owner, c.revenue, "private_revenue")

    # stock-round hooks (the core stock step calls these)
    def after_buy_shares(self, player: Any, corp: Any) -> None:
        pass

    def after_sell_shares(self, player: Any, corp: Any) -> None:
        pass

    def buyable_bank_companies(self) -> list[Company]:
        """Private companies a player may buy from the bank now."""
        return [c for c in self.companies if not c.closed and (c.owner is None or c.owner is self.bank)]

    def company_sale_price(self, company: Company) -> int:
        return company.value

    def after_buy_company(self, player: Any, company: Company) -> None:
        pass

    def after_sell_company(self, player: Any, company: Company) -> None:
        pass

    def float_corporation(self, corp: Any) -> None:
        self.journal.record("float", corporation=corp.id)
        if corp.capitalization in ("incremental", "none"):
            return
        pay(self, self.bank, corp, corp.par_price.price * corp.total_shares, "float_capital")

    def after_par(self, corp: Any) -> None:
        if self.HOME_TOKEN_TIMING == "par":
            self.place_home_token(corp)

    def can_par(self, corp: Any, player: Any) -> bool:
        return not corp.ipoed and not corp.closed

    def par_prices(self, corp: Any) -> list[SharePrice]:
        return list(self.stock_market.par_prices)

    def buying_power(self, entity: CashHolder) -> int:
        return entity.cash

    def num_certs(self, player: Any) -> int:
        n = 0
        corps = self.index.corporations
        for s in player.certificates:
            if not s.counts_for_limit:
                continue  # (the share's own flag first: no company looked up)
            sp = corps[s.corp_id].share_price
            # (the cell's ``counts_for_limit()`` read as its attribute: a catalogue value
            # fixed at the build, asked for every certificate held)
            if sp is None or sp._counts:
                n += 1
        if self.CERT_LIMIT_INCLUDES_PRIVATES:
            n += len(player.companies)
        return n

    def cert_limit(self, player: Any = None) -> int:
        return self.cert_limit_value

    def check_sale_timing(self, entity: Any, bundle: ShareBundle) -> bool:
        if self.SELL_AFTER == "first":
            return self.turn > 1 or self.round.is_operating()
        if self.SELL_AFTER == "operate":
            return bundle.corporation.operated()
        return True

    # the ``check_sale_timing`` known to read of a bundle only its corporation (never its
    # certificates or seller): a title whose own reads no more names it here too, and a
    # class whose ``check_sale_timing`` is another one is not known to (see
    # ``BuySellParShares._plain_sale_checks``)
    SALE_TIMING_BY_CORPORATION: ClassVar[Any] = check_sale_timing

    def market_share_limit(self, corp: Any) -> int:
        return self.MARKET_SHARE_LIMIT

    def sell_shares_and_change_price(self, bundle: ShareBundle) -> None:
        """Sell to the pool and move the price per ``SELL_MOVEMENT`` (``*_pres``: only when the
        seller was the president)."""
        corp = bundle.corporation
        was_president = corp.owner is bundle.owner
        self.share_market.sell_shares(bundle)
        mv = self.SELL_MOVEMENT
        n = int(bundle.num_shares())
        if mv.endswith("_pres"):
            if not was_president:
                return
            mv = mv[: -len("_pres")]
        if mv == "down_share":
            for _ in range(n):
                self.stock_market.move_down(corp)
        elif mv == "down_block":
            self.stock_market.move_down(corp)
        elif mv == "left_block":
            self.stock_market.move_left(corp)
        elif mv == "left_share":
            for _ in range(n):
                self.stock_market.move_left(corp)

    # ------------------------------------------------------------- board
    @property
    def graph(self) -> TrackGraph:
        return self.board.graph

    def graph_options(self) -> dict[str, Any]:
        return {}

    def graph_changed(self) -> None:
        self.board.changed()

    def graph_changed_renews(self) -> bool:
        """Does :meth:`graph_changed` give the board a new version now (every graph answer of
        the board's own graph forgotten)? A title whose graph outlives it says no."""
        return True

    def on_board_changed(self) -> None:
        pass

    def tile_lays(self, entity: Any) -> list[dict[str, Any]]:
        return self.TILE_LAYS

    def tile_valid_for_phase(self, tile: Tile | Placed) -> bool:
        return tile.color in self.phase.tiles

    def upgrades_to(self, old_tile: Placed, new_tile: Placed) -> bool:
        """May ``old_tile`` (on the map) be upgraded to ``new_tile`` (placed on its hex)?"""
        hex_ = old_tile.hex
        if hex_ is None:
            return _tile_upgrades_to(old_tile, new_tile)
        # (Board.upgrade_labels read in place: the hex's label now and its future label)
        st = self.board.state
        labs = st.labels.get(hex_.id, ())
        return _tile_upgrades_to(old_tile, new_tile, from_label=labs[-1] if labs else None,
                                 from_future_label=st.future_label.get(hex_.id))

    def check_laid_tile(self, entity: Any, hex_: Hex, old_tile: Placed, tile: Placed) -> None:
        """Title hook: legality checks that need the map with the new tile on it."""

    def upgrade_cost(self, old_tile: Placed, hex_: Hex, entity: Any) -> int:
        return sum(u.cost for u in old_tile.upgrades)

    def legal_tile_rotation(self, entity: Any, hex_: Hex, tile: Placed) -> bool:
        return self.board.legal_tile_rotation(entity, hex_, tile)

    def tile_rotation_check(self, entity: Any, hex_: Hex) -> Callable[[Placed], bool]:
        """:meth:`legal_tile_rotation` of ``entity`` on ``hex_``, for the tile-lay listing to ask
        of every candidate tile and rotation there (nothing changes meanwhile). Default: the
        question itself, per tile; a title may work out once per hex what its answer reads of
        the hex (:meth:`Board.rotation_check`)."""
        def check(tile: Placed) -> bool:
            return self.legal_tile_rotation(entity, hex_, tile)
        return check

    def connected_edges(self, entity: Any, hex_: Hex) -> Any:
        """The edges of ``hex_`` through which ``entity`` may lay track (None: not connected)."""
        return self.graph.connected_hexes(entity).get(hex_)

    def layable_hexes(self, entity: Any) -> dict[Hex, Any]:
        """hex -> connected edges, for every hex the entity may lay or upgrade on."""
        return dict(self.graph.connected_hexes(entity))

    def can_run_route(self, entity: Any) -> bool:
        available: bool = self.graph.route_available(entity)
        return available

    def route_trains(self, entity: Any) -> list[Train]:
        """The trains ``entity`` may run now: its trains that have not run this operating round
        (a train bought from a company that already ran cannot run again in the same round)."""
        return [t for t in entity.trains if not t.operated]

    def route_rules(self) -> RouteRules:
        """The rules this game's routes are rebuilt, checked, priced and searched by
        (:func:`trackage.core.routes.rules_for` asks, whenever routes are read from a log,
        checked or searched): a title returns its :class:`RouteRules` subclass, made anew
        or kept (the rules hold no state). Default: the base rules."""
        from .routes import RouteRules

        return RouteRules(self)

    def train_owner(self, train: Train) -> Any:
        """Who runs ``train`` this turn (whose tokens its routes need and who earns):
        :meth:`RouteRules.train_owner` asks when routes are checked and searched. Default:
        the train's owner (1825: the operating company, for a train the depot leases)."""
        return train.owner

    def run_extra_revenue(self, entity: Any, routes: list[Any]) -> int:
        """What a run earns beside its routes' revenue (1858 India's mine, oil and port
        bonus); computed, never taken from the action in live play."""
        return 0

    def compute_route_revenues(self, entity: Any, routes: list[Any], trains: dict[Any, Any]) -> list[Any]:
        """Revenue of each logged route, computed from its geometry (title rules apply)."""
        if not routes:
            return []
        return _routes.revenues_for_action(self, entity, routes, trains)

    #: work the router may spend on a suggestion (walk steps and search nodes): a bound on
    #: the time of ``legal_actions`` that keeps suggestions the same on every machine
    ROUTER_WORK = 20_000

    def upgrade_memo_key(self, hex_: Hex, old: Placed, new: Tile) -> tuple[Any, ...]:
        """What ``upgrades_to(old, new)`` depends on (a memo key). Turning both tiles alike
        keeps the answer, so the old tile's rotation is not part of it (the memo holds
        rotations relative to the old tile's), and the new tile is judged off the map (its
        hex is not read). Titles whose upgrade rules look at the hex or at the game add that.
        The new tile's spec is in it, as a name may stand for other track in another game."""
        b = self.board
        fl = b.future_label(hex_)
        return (old.spec, old.name, old.color, b.labels(hex_),
                (fl.label, fl.color) if fl is not None else None, new.name, new.spec)

    def upgrade_memo_keys(self, hex_: Hex, old: Placed) -> Callable[[Tile], tuple[Any, ...]]:
        """:meth:`upgrade_memo_key` of ``hex_`` and ``old`` for each tile the listing tries
        there (a title may work out the hex's part of the key once). Default: the key itself."""
        def key(new: Tile) -> tuple[Any, ...]:
            return self.upgrade_memo_key(hex_, old, new)
        return key

    def tile_lays_hex_keys(self, entity: Any, hex_: Hex, old: Placed) -> tuple[Hashable | None, Hashable | None]:
        """What the tile-lay listing's answers on ``hex_`` (now holding ``old``) read besides
        the candidate tiles, in two parts, each given only when the answers are a pure function
        of it: the upgrade part (the hex's part of :meth:`upgrade_memo_key`: which candidates
        upgrade ``old``, in which rotations) and, with it, the rotation part (the inputs of
        :meth:`tile_rotation_check` for tiles seen off the map). The listing keeps each hex's
        upgrades, and with both parts its lays, under them and the candidates' names and specs,
        in :meth:`upgrade_memo`. Default: (None, None), every tile asked on every hex."""
        return None, None

    def upgrade_ruled_out(self, old: Placed, new: Placed) -> bool:
        """True when no rotation of ``new`` (a tile off the map, in rotation 0) upgrades
        ``old``, by the rules of :meth:`upgrades_to` that do not read the new tile's rotation:
        the tile-lay listing asks it once per tile before asking ``upgrades_to`` of each
        rotation. Default: False (each rotation asked)."""
        return False

    def upgrade_memo(self, old: Placed) -> dict[Any, Any]:
        """Where the rotations of the upgrades of ``old`` are remembered, by
        :meth:`upgrade_memo_key`: with the old tile's spec, shared by all the title's games,
        where ``UPGRADE_ANSWERS_SHARED`` says its ``upgrades_to`` depends on nothing but its
        key; else with the game's tile supply (one game's; its upgrade rules may read the
        game's options)."""
        if self.UPGRADE_ANSWERS_SHARED:
            return old.spec.upgrade_memos.setdefault(("upgrades", type(self)), {})
        memo: dict[Any, Any] = self.board.supply.memo.setdefault(("upgrades", type(self)), {})
        return memo

    def legal_tile_lays(self, entity: Any) -> list[dict[str, Any]]:
        """Every (hex, tile, rotation) the entity could lay now (generic rules)."""
        out = []
        connected = self.layable_hexes(entity)
        if getattr(self, "_asking", None) is not None:
            connected = {h: e for h, e in connected.items() if asks_hex(self, h.id)}
        placed_tile = self.board.placed_tile
        seen: list[tuple[Tile, Tile]]
        # each candidate's place in ``seen`` by its name and spec, once a hex has a key
        places: dict[tuple[str, Any], int] | None
        if getattr(self, "_asking", None) is None:
            seen, places = self._tile_lay_candidates()
        else:
            seen = [ts for ts in self._tile_lay_candidates()[0] if asks_tile(self, ts[0].id)]
            places = None
        for hex_, _edges in connected.items():
            old = self.board.tile(hex_)
            memo = self.upgrade_memo(old)  # a pure function of its key
            upgrade_part, rotation_part = self.tile_lays_hex_keys(entity, hex_, old)
            # (candidate's place in ``seen``, its upgrades' rotations relative to the old tile's)
            rels: list[tuple[int, tuple[int, ...]]]
            if upgrade_part is None:
                rels = self._tile_upgrades(hex_, old, memo, seen, range(len(seen)))
            else:
                if places is None:
                    places = self._candidate_places(seen)
                # the candidates asked on such a hex so far, and those that upgrade it
                hex_key = ("hex upgrades", upgrade_part)
                kept = memo.get(hex_key)
                if kept is None:
                    kept = memo[hex_key] = (set(), {})
                asked: set[tuple[str, Any]] = kept[0]
                upgrading: dict[tuple[str, Any], tuple[int, ...]] = kept[1]
                missing = places.keys() - asked
                if missing:
                    for i, rel in self._tile_upgrades(hex_, old, memo, seen, sorted(places[k] for k in missing)):
                        t, view = seen[i]
                        upgrading[(t.name, view.spec)] = rel
                    asked |= missing
                rels = sorted((place, rel) for k, rel in upgrading.items() if (place := places.get(k)) is not None)
            if not rels:
                continue
            rotation_ok: Callable[[Placed], bool] | None = None  # the hex's, once a tile needs it
            lays: dict[tuple[str, Any], tuple[int, ...]] | None = None
            if rotation_part is not None:
                lays_key = ("hex lays", upgrade_part, rotation_part)
                lays = memo.get(lays_key)
                if lays is None:
                    lays = memo[lays_key] = {}
            for i, rel in rels:
                t, view = seen[i]
                rotations = lays.get((t.name, view.spec)) if lays is not None else None
                if rotations is None:
                    if rotation_ok is None:
                        rotation_ok = self.tile_rotation_check(entity, hex_)
                    rotations = tuple(r for r in sorted((x + old.rotation) % 6 for x in rel)
                                      if rotation_ok(placed_tile(view, r, None)))
                    if lays is not None:
                        lays[(t.name, view.spec)] = rotations
                for r in rotations:
                    out.append({"hex": hex_.id, "tile": t.id, "rotation": r})
        return out

    def tile_phase_key(self) -> Hashable | None:
        """What :meth:`tile_valid_for_phase` reads besides a tile's name and colour (a key under
        which the tile-lay listing keeps the supply's candidates while the supply is
        unchanged), or None when it reads more (each listing asks it of every supply tile).
        Default: the phase's colours where the game's rule is the core's, else None."""
        if type(self).tile_valid_for_phase is Game.tile_valid_for_phase:
            return tuple(self.phase.tiles)
        return None

    @staticmethod
    def _candidate_places(seen: list[tuple[Tile, Tile]]) -> dict[tuple[str, Any], int]:
        return {(t.name, view.spec): i for i, (t, view) in enumerate(seen)}

    def _tile_lay_candidates(self) -> tuple[list[tuple[Tile, Tile]], dict[tuple[str, Any], int] | None]:
        """The tile-lay listing's candidates: the first supply tile of each name the phase
        allows, each with the tile its name is seen as off the map (``TileSupply.shape``),
        in supply order, and (when kept) their places by name and spec. Kept in the tile
        supply's memo (a pure function of the supply, which is replaced on every change, and
        :meth:`tile_phase_key`) while both are the same, and the phase's answer per name
        while the key is: the caller must not change them."""
        supply = self.board.supply
        memo = supply.memo
        tiles = self.board.supply_tiles()
        key = self.tile_phase_key()
        if key is not None:
            kept = memo.get("listing candidates")
            if kept is not None and kept[0] is tiles and kept[1] == key:
                return kept[2], kept[3]
        backwards = tiles[::-1]
        first = dict(zip(map(_tile_name, backwards), backwards))  # each name's first copy
        names = dict.fromkeys(map(_tile_name, tiles))  # the names in supply order
        # (the phase's rule reads a tile's name and colour: asked once per name)
        valid: dict[str, bool] = {} if key is None else memo.setdefault(("phase's names", key), {})
        for name in names.keys() - valid.keys():
            valid[name] = self.tile_valid_for_phase(first[name])
        # the rules read the hex from ``hex_`` and the tile's shape only: the tile each name is
        # seen as off the map (one placement per name and rotation, made once) answers for the
        # candidate copy on any hex
        shapes: dict[str, Tile] = memo.setdefault("shapes by name", {})
        seen = []
        for name in names:
            if valid[name]:
                view = shapes.get(name)
                if view is None:
                    view = shapes[name] = supply.shape(name)
                seen.append((first[name], view))
        if key is None:
            return seen, None
        places = self._candidate_places(seen)
        memo["listing candidates"] = (tiles, key, seen, places)
        return seen, places

    def _tile_upgrades(self, hex_: Hex, old: Placed, memo: dict[Any, Any], seen: list[tuple[Tile, Tile]],
                       places: Iterable[int]) -> list[tuple[int, tuple[int, ...]]]:
        """The tile-lay listing's candidates (``seen``, at ``places``) that upgrade ``old`` on
        ``hex_``: (place, rotations relative to the old tile's), each asked of ``memo`` by
        :meth:`upgrade_memo_key` first."""
        placed_tile = self.board.placed_tile
        memo_key = self.upgrade_memo_keys(hex_, old)
        out = []
        for i in places:
            t, view = seen[i]
            key = memo_key(t)
            rel = memo.get(key)
            if rel is None:
                rel = () if self.upgrade_ruled_out(old, placed_tile(view, 0, None)) else \
                    tuple((r - old.rotation) % 6 for r in range(6)
                          if self.upgrades_to(old, placed_tile(view, r, None)))
                memo[key] = rel
            if rel:
                out.append((i, rel))
        return out

    def place_home_token(self, corp: Any) -> None:
        """Put the corporation's first token in its home city (reserved one first)."""
        if not corp.tokens or corp.tokens[0].used or not corp.coordinates:
            return
        coords = corp.coordinates if isinstance(corp.coordinates, list) else [corp.coordinates]
        board = self.board
        for coord in coords:
            hex_ = self.board.hex_by_id(coord)
            if hex_ is None:
                continue
            tile = board.tile(hex_)
            if board.tile_reserved_by(hex_, corp) and tile.paths and len(coords) == 1:
                pending = getattr(self.round, "pending_tokens", None)
                if pending is None:
                    return
                if not any(p["entity"] is corp for p in pending):
                    pending.append({"entity": corp, "hexes": [hex_], "token": corp.tokens[0]})
                return
            cities = tile.cities
            city = next((c for c in cities if board.reserved_by(c, corp)), cities[0] if cities else None)
            if city is None:
                continue
            token = next((t for t in corp.tokens if not t.used), None)
            if token is None:
                return
            if len(coords) == 1 and self.graph_changed_renews():
                # the one home token, then graph_changed at once: the board's walks owed are
                # not done (see Board.drop_unsettled_walks)
                board.drop_unsettled_walks()
            board.place_city_token(city, corp, token, free=True, check_tokenable=False)
        self.graph_changed()

    def close_corporation(self, corp: Any) -> None:
        """A corporation leaves the game: tokens, reservations, cash, certificates, market place."""
        # whose turn it is, as it stood after the last action (emptying the treasury below
        # could end the turn's steps early)
        acting = self.round.current_entity if self.round is not None and self.round.is_operating() else None
        board = self.board
        if board is not None:
            for hex_, tile in board.tiles_holding():  # (the others hold nothing)
                for city in tile.cities:
                    for tok in board.tokens(city):
                        if tok is not None and tok.owned_by(corp):
                            board.remove_token(tok)
                    if board.reserved_by(city, corp):
                        board.remove_reservation(city, corp)
                if corp in board.tile_reservations(hex_):
                    board.remove_tile_reservation(hex_, corp)
        if corp.cash > 0:
            pay(self, corp, self.bank, corp.cash, "treasury_return")
        self.journal.record("close", corporation=corp.id)
        for t in corp.trains:
            t.buyable = False
        for c in list(corp.companies):
            c.close()
        if self.hands_over_on_close(corp, acting):
            # its turn ends here and the next operator in the order takes over
            self.round.force_next_entity()
        for holder in list(corp.share_holders):
            holder.drop_holdings(corp)
        self.pool.drop_holdings(corp)
        self.stock_market.remove(corp)
        if corp in self.corporations:
            self.corporations.remove(corp)
        corp.closed = True
        corp.owner = None
        self.cert_limit_value = self.init_cert_limit()
        if self.board is not None:
            self.graph_changed()

    def discard_train(self, train: Train) -> None:
        remove_train(self, train)
        self.depot.reclaim(train)

    # ------------------------------------------------------------- lookups
    def share_corp(self, share: Share) -> Any:
        """The corporation whose certificate ``share`` is."""
        return self.index.corporations[share.corp_id]

    def corporation_by_id(self, cid: Any) -> Any:
        """The corporation with id ``cid``, or None (a title hook; other entities are found by
        :attr:`index`)."""
        return self.index.corporations.get(cid)

    def token_owner(self, token: Any) -> Any:
        """The entity owning ``token`` (a token names its owner by id and kind), or None (a
        title hook for owners of its own kinds)."""
        kind, oid = token.owner_kind, token.owner
        if kind == "corporation":
            # (the base :meth:`corporation_by_id` in place: asked for every token looked at)
            found = self.index.corporations.get(oid) if self.PLAIN_CORPORATION_LOOKUP else self.corporation_by_id(oid)
        elif kind == "minor":
            found = self.index.minor(oid)
        elif kind == "company":
            found = self.index.company(oid)
        else:
            found = None
        if found is not None:
            return found
        # (an owner the index no longer lists: a company closed or taken over)
        return next((e for e in (*self.corporations, *self.minors, *self.companies)
                     if token.owned_by(e)), None)

    # ------------------------------------------------------------- play: the pipeline
    # (the work is done by trackage.core.pipeline; these are the game's play API)
    def process(self, action: dict[str, Any]) -> None:
        """Apply one action (with its embedded ``auto_actions``).

        On any error the game is restored exactly as it was (from the snapshot taken
        before the action) and the error is re-raised with the action attached.
        """
        Pipeline(self).process(action)

    def _apply(self, action: dict[str, Any], record: bool = True) -> None:
        """Apply ``action`` without :meth:`process`'s gate and error handling (a log import,
        a replay, a trial on a copy)."""
        Pipeline(self).apply(action, record)

    def trial_error(self, action: dict[str, Any], *, live: bool = True,
                    loading: bool | None = None) -> GameError | None:
        """What ``action`` meets as a move (``live``: its auto actions made by the players'
        programs; ``loading``: in that mode, None: the game's) tried on this game and taken
        back by its record (:meth:`Pipeline.trial`; a title without the undo journal tries it
        on a copy): the refusal the rules or the
        action's form raise, or None. A listed action's trial: unlike ``process()``, no
        check against the listing and nothing kept to undo by; the gate refuses only what
        the rules let through, so no rule's refusal is missed."""
        from . import schema
        from .errors import ActionFormatError

        try:
            schema.check(action, loading=False)
            if self.REWIND:
                Pipeline(self).trial(action, live=live, loading=loading)
            else:
                trial = self.copy()
                if loading is not None:
                    trial.loading = loading
                Pipeline(trial).apply(action, live=live)
        except GameError as e:
            return e
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, AssertionError) as e:
            # as ``process`` words it
            return ActionFormatError(f"malformed or impossible action: {type(e).__name__}: {e}", action)
        return None

    def close(self) -> None:
        """Done with this game and every copy of it (a finished playout, a tournament game,
        a profiling run): drop its history and take apart the tiles as placed that its
        catalogue made during play (most of a dead game's reference cycles: 1858 India after
        300 decisions, ~38,000 of ~65,000 objects), so that reference counting frees them now
        rather than the next full collection, inside whatever runs next. Every copy shares
        the catalogue: none may be used afterwards."""
        self.snapshots = {}
        self.redo_stack = []
        self._rewinds = ()
        if self.board is not None:
            self.board.dismantle_tiles()

    def copy(self) -> Game:
        """An independent game in the same state: a structural copy (the catalogue is shared)."""
        from .clone import clone

        if self.board is not None:
            self.board.settle_graph()
        return clone(self)

    def load(self, actions: list[dict[str, Any]], *, strict: bool = False,
             trace: Callable[[Game, dict[str, Any]], object] | None = None,
             snapshots_near_end: bool = True, as_built: bool = False) -> None:
        """Apply the actions of an 18xx.games log (a log import: the log's leniencies apply,
        e.g. stored route revenues that today's rules reject are warnings). ``trace(game,
        action)`` is called after each one. Snapshots are kept near the end, so undo after
        an import is cheap; a replay that will not be undone (``snapshots_near_end=False``)
        keeps the start only (an undo then replays the whole log). ``as_built``: nothing changed
        the game since :meth:`built` made it, so its start is kept as what to build it from
        (:class:`~trackage.core.pipeline.Start`), not as a copy.

        The cyclic garbage collector is paused while the log is applied (as in a copy:
        :func:`~trackage.core.clone.no_gc`); what became garbage is collected after."""
        from .clone import no_gc

        no_gc(Pipeline(self).load)(actions, strict, trace, snapshots_near_end, as_built)

    @classmethod
    def built(cls, players: list[Any], optional_rules: list[str], seed: int, game_id: Any) -> Game:
        """A new game of this class, built where nothing records: of barrier-free twins until
        its first recorded action (``untracked``)."""
        with building_untracked():
            game = cls(players, optional_rules, seed, game_id)
        game.untracked = True
        return game

    def undo(self) -> dict[str, Any]:
        """Take back the last action; returns it (it can be redone with :meth:`redo`)."""
        return Pipeline(self).undo()

    def redo(self) -> None:
        """Apply the last undone action again, exactly as it was first applied."""
        Pipeline(self).redo()

    def preprocess_action(self, action: dict[str, Any], entity: Any) -> None:
        pass

    #: the base class's own ``preprocess_action`` and ``action_processed`` (set after the class),
    #: which do nothing: the pipeline skips the call where a game's class has them as they are
    BASE_HOOKS: ClassVar[tuple[Callable[..., Any], Callable[..., Any]]]

    def action_processed(self, action: dict[str, Any]) -> bool | None:
        """Title hook: after the round's ``process`` of ``action``. May return True to say that
        this call wrote nothing the round's step questions read (for a title whose
        :attr:`ACTION_PROCESSED_KEEPS_STEPS` is off because only some calls write)."""
        return None

    #: whether :meth:`action_processed` never writes what the round's step questions read
    #: (``active``, ``blocks``, ``blocking``, ``has_actions``, ``answers``, ``accepts``): the
    #: round's answer from before it then holds after it
    ACTION_PROCESSED_KEEPS_STEPS: ClassVar[bool] = True
    #: whether :meth:`preprocess_action` never writes what the round's step questions read: the
    #: answers known of the state before it then hold after it. A class that defines its own
    #: ``preprocess_action`` is off unless it says so in its own body
    PREPROCESS_KEEPS_STEPS: ClassVar[bool] = True

    # ------------------------------------------------------------- rounds
    def new_stock_round(self) -> Any:
        self.round_counter += 1
        return self.stock_round()

    def new_operating_round(self, round_num: int = 1) -> Any:
        self.round_counter += 1
        return self.operating_round(round_num)

    def next_round(self) -> None:
        r = self.round
        if isinstance(r, StockRound):
            self.start_operating_rounds()
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

    def start_operating_rounds(self) -> None:
        """After the stock round (and whatever a title puts between): fix the set's number of
        ORs, reorder the players and start OR 1."""
        self.operating_rounds_in_set = self.phase.operating_rounds
        self.reorder_players()
        self.round = self.new_operating_round(1)

    def or_round_finished(self) -> None:
        pass

    def or_set_finished(self) -> None:
        pass

    def reorder_players(self) -> None:
        if self.NEXT_SR_PLAYER_ORDER == "after_last_to_act":
            active = [p for p in self.players if not p.bankrupt]
            if not active:
                return
            self.players = starting_at(self.players, active[self.round.entity_index % len(active)])

    # ------------------------------------------------------------- trains
    def train_limit(self, entity: Any) -> int:
        """The phase's train limit for ``entity`` (by its kind where the table has kinds): the
        phase track's own question, read in place where its class keeps the base one (asked by
        every train question and, for every holder, by the discard steps' "anyone crowded?")."""
        ph = self.phase
        cls = type(ph)
        if cls.train_limit is not PhaseTrack.train_limit or cls.current is not PhaseTrack.current:
            return ph.train_limit(entity)
        tl = ph.phases[ph.index].get("train_limit", 99)
        if isinstance(tl, dict):
            limit: int = tl.get(getattr(entity, "type", ""), 0)
            return limit
        return cast(int, tl)

    #: the :meth:`train_limit` that reads the phase's table as it is (a title with limits of its
    #: own does not): a discard step may then read the table once for every holder
    TABLE_TRAIN_LIMIT: ClassVar[Callable[..., int]] = train_limit

    def buy_train(self, operator: Any, train: Train, price: int | None = None) -> None:
        price = train.price if price is None else price
        seller = train.owner
        if price > 0:
            pay(self, operator, self.bank if seller is self.depot else seller, price, "train_purchase")
        remove_train(self, train)
        train.owner = operator
        operator.trains = (*operator.trains, train)
        self.journal.add("train", {"operator": operator.id, "train": train.id, "name": train.name, "price": price,
                                   "seller": getattr(seller, "id", None)})

    def on_phase_change(self, name: str) -> None:
        pass

    def on_train_event(self, event: dict[str, Any], train: Train) -> None:
        pass

    def after_buying_train(self, train: Train) -> None:
        pass

    def rust_trains(self, bought: Train, entity: Any) -> None:
        # (the bought train's name and id read once for the loops over every train: most
        # trains name no trigger and are passed at once)
        sym, tid = bought.sym, bought.id
        for t in self.depot.trains:
            on = t.obsolete_on
            if on is not None and not t.obsolete and names_train(on, sym, tid):
                t = change_train(self, t, obsolete=True)
                self.journal.record("obsolete", train=t.id, name=t.name, owner=getattr(t.owner, "id", None))
        for t in list(self.depot.trains):
            on = t.rusts_on
            if on is None or t.rusted or not names_train(on, sym, tid):
                continue
            rust(self, t)

    # ------------------------------------------------------------- end
    def end_check_value(self, reason: str) -> bool:
        if reason == "bank":
            return self.bank.broken
        if reason == "stock_market":
            return self.stock_market.max_reached
        if reason == "final_phase":
            return self.phase.index == len(self.phase.phases) - 1
        if reason == "final_train":
            return not self.depot.depot_trains()
        if reason == "bankrupt":
            return any(p.bankrupt for p in self.players)
        return False

    def game_end_check(self) -> tuple[str, str] | tuple[None, None]:
        if self.GAME_END_LOCK_FIRST_TRIGGER and self.end_trigger:
            return self.end_trigger
        # (the bank's reason, in every title's list, read inline where end_check_value is the core's)
        bank_inline = type(self).end_check_value is Game.end_check_value
        for reason, timing in self.GAME_END_CHECK.items():
            if not (self.bank.broken if bank_inline and reason == "bank" else self.end_check_value(reason)):
                continue
            if self.end_trigger and END_TIMING_PRIORITY.index(timing) >= END_TIMING_PRIORITY.index(self.end_trigger[1]):
                continue
            self.end_trigger = (reason, timing)
            if self.GAME_END_LOCK_FIRST_TRIGGER:
                break
        if self.end_trigger:
            self.game_end_set_final_turn(*self.end_trigger)
            return self.end_trigger
        return (None, None)

    def game_end_set_final_turn(self, reason: str, timing: str) -> None:
        if timing == "one_more_full_or_set" and self.final_turn is None:
            self.final_turn = self.turn + 1

    def end_now(self, timing: str | None) -> bool:
        if not timing:
            return False
        if timing in ("immediate", "current_round"):
            return True
        if not isinstance(self.round, OperatingRound):
            return False
        if timing == "current_or":
            return True
        final_or = self.round.round_num == self.operating_rounds_in_set
        if final_or and timing == "one_more_full_or_set":
            return self.turn == self.final_turn
        return final_or

    def end_game(self, reason: str | None) -> None:
        if self.finished:
            return
        self.finished = True
        self.game_end_reason = reason
        self.journal.record("game_end", reason=reason, round=round_label(self))

    def player_value(self, player: Player) -> int:
        v = player.cash
        corps = self.index.corporations
        for cid, shares in player.holdings().items():
            corp = corps[cid]
            if not corp.ipoed:
                continue
            for s in shares:
                v += certificate_price(corp, s)
        v += sum(c.value for c in player.companies)
        return v - player.penalty

    def result(self) -> dict[str, int]:
        vals = [(p.id, self.player_value(p)) for p in self.players]
        vals.sort(key=lambda kv: kv[1], reverse=True)
        return {str(k): v for k, v in vals}

    # ------------------------------------------------------------- play API
    def rewind_owners(self) -> list[Any]:
        """The state objects whose in-place containers (``IN_PLACE``) an undo journal saves
        before each live action (:mod:`trackage.core.rewind`): the game, its index, the round
        and its steps, and of the depot, the players and operators (closed ones too: their
        trains still rust) those whose class saves anything (``SAVE_PLAN``; a group's classes
        asked first, not each object, so a group of which nothing is saved costs one set of
        classes). A title adds its own holders."""
        index = self.index
        depot = self.depot
        out: list[Any] = [self, index]
        if type(depot).SAVE_PLAN:
            out.append(depot)
        for group in (self.players, index.corporations.values(), index.minors.values()):
            if any(map(_SAVE_PLAN, set(map(type, group)))):
                out.extend(o for o in group if type(o).SAVE_PLAN)
        # a closed operator may be in no list and still hold trains that rust (each holder
        # once, where its class saves anything)
        trains = depot.trains
        kinds = {type(t.owner) for t in trains}
        kinds.discard(type(None))
        if any(map(_SAVE_PLAN, kinds)):
            named = {id(o) for o in out}
            out.extend({id(o): o for t in trains
                        if (o := t.owner) is not None and id(o) not in named and type(o).SAVE_PLAN}.values())
        r = self.round
        if r is not None:
            out.append(r)
            out.extend(r.steps)
        return out

    def rewind_record(self) -> Any:
        """A new record of what the next action changes (:class:`trackage.core.rewind.Rewind`)."""
        r = self.round
        return Rewind(self, self.rewind_owners(), r.in_place_containers() if r is not None else ())

    def acting_entities(self) -> list[Any]:
        return [e for e in self.round.active_entities() if e is not None]

    def listing_companies(self) -> list[Any]:
        """Title hook: the companies a listing asks the steps about beside the acting entities
        (their abilities). Default: every open company in a player's or a company's hands; a
        title may leave out those to which none of its steps ever gives an action."""
        bank = self.bank
        return [c for c in self.companies if not c.closed and c.owner not in (None, bank)]

    def playout_choose(self, rng: Any, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        """A title's own pick for the random player among ``actions`` (legal now), with its
        price settled; None leaves it to the weighted default of ``trackage.playout``."""
        return None

    @_leaves_no_trace
    def legal_actions(self, entity: Any = None, *, routes: bool = True) -> list[dict[str, Any]]:
        """Every legal action now, as action dicts ready for :meth:`process`.

        A price chosen freely within a range (e.g. a train bought from another
        company) is given at its minimum with ``price_range`` and ``price_step``.

        A ``run_routes`` carries the router's suggested run in ``routes`` (and whatever the
        title derives from it, e.g. 1858 India's ``extra_revenue``). With ``routes=False``
        the router is not asked: the ``run_routes`` is listed without those keys (only
        ``type``, ``entity``, ``entity_type``), and :func:`trackage.core.suggestion.suggested_run`
        gives the suggestion when it is wanted. Both are remembered until the game moves.
        (``routes`` is acted on by the wrapper ``_leaves_no_trace``; overrides accept it and
        leave it be.)
        """
        if self.finished:
            return []
        asking = self._asking
        if entity is not None:
            # the gate's question about one entity: it must be one that the listing names
            # (not asked again of an entity the state's whole listing named: suggestion.LISTED)
            entities = [entity] if asking is None or self._suggesting == "listed" \
                or entity in listing_entities(self) else []
        else:
            # private companies act too (their abilities): each step says when, as in process()
            entities = listing_entities(self)
        out: list[dict[str, Any]] = []
        steps = self.round.steps
        # a step's "active?" and "blocking?" do not depend on the entity listed, and nothing
        # changes while listing: each is worked out once per step (blocking, told whether the
        # entity it is asked with has actions, as the step's own current entity often is)
        active: list[bool | None] = [None] * len(steps)
        blocking: list[bool | None] = [None] * len(steps)
        for e in entities:
            for i, s in enumerate(steps):
                on = active[i]
                if on is None:
                    on = active[i] = s.active()
                if not on:
                    continue
                acts = s.actions(e)
                if acts and (asking is None or asking["type"] in acts):
                    for a in s.legal_actions(e):
                        out.append({**a, **self.index.ref(e)})
                blocks = blocking[i]
                if blocks is None:
                    blocks = blocking[i] = s.blocking_for(e, bool(acts))
                if blocks:
                    break
        return out

    def state(self) -> dict[str, Any]:
        """The whole state as plain, JSON-able data."""
        from .state import snapshot

        return snapshot(self)

    # ------------------------------------------------------------- queries
    def current_entity(self) -> Any:
        return self.round.current_entity

    def bank_display(self) -> int:
        """The bank's cash as players see it (titles with a notional bank override)."""
        return self.bank.cash

    def total_cash(self) -> int:
        total: int = (self.bank.cash + sum(p.cash for p in self.players) + sum(c.cash for c in self.corporations)
                      + sum(m.cash for m in self.minors))
        return total


Game.BASE_HOOKS = (Game.preprocess_action, Game.action_processed)
