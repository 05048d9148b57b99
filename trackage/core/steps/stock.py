"""The stock-round step: buy, sell and par shares; buy and sell private companies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .. import programs
from ..actions import amount
from ..entities import ShareBundle, ShareHolder, certificate_price, without
from ..errors import GameError
from ..money import pay
from ..shares import ShareMarket, action_bundle
from .auction import AuctionMixin, Bids
from .passing import Passing

if TYPE_CHECKING:
    from ..entities import Company, Corporation, Share
    from ..market import SharePrice

PURCHASES = ("buy_shares", "par", "buy_company")
#: What :attr:`BuySellParShares.FORCE_FREE_KINDS` rests on: a class redefining one of these
#: says again whether it holds.
FORCE_FREE_READS = ("must_sell", "can_sell_any", "can_sell_any_of", "may_pass", "allows", "KINDS")


def transfer_company(game: Any, company: Company, buyer: Any, price: int) -> None:
    """``buyer`` buys ``company`` for ``price`` from its owner (the bank when it has none)."""
    owner = company.owner
    seller = owner if owner is not None else game.bank
    if owner is not None and owner is not game.bank and company in getattr(owner, "companies", []):
        owner.companies = without(owner.companies, company)
    company.owner = buyer
    buyer.companies = (*buyer.companies, company)
    if price > 0:
        pay(game, buyer, seller, price, "company_purchase")


def first_own_share(corp: Corporation) -> Share | None:
    """The first of ``corp``'s own certificates it holds (``corp.shares_of(corp)[0]``,
    without building the list)."""
    cid = corp.id
    for s in corp.certificates:
        if s.corp_id == cid:
            return s
    return None


def held_percents(holder: Any, corporations: list[Corporation]) -> dict[str, int]:
    """The percent ``holder`` holds of each corporation it holds certificates of (its
    ``percent_of`` of each, from one look at its certificates)."""
    if type(holder).percent_of is not ShareHolder.percent_of:
        held = holder.held_corporations()
        return {c.id: holder.percent_of(c) for c in corporations if c.id in held or c in held}
    out: dict[str, int] = {}
    for s in holder.certificates:
        out[s.corp_id] = out.get(s.corp_id, 0) + s.percent
    return out


def within_holding_limit(corp: Corporation, holder: Any, held: int, extra_percent: int = 0) -> bool:
    """``corp.holding_ok(holder, extra_percent)`` for a ``holder`` known to hold ``held``
    percent of ``corp`` (its ``percent_of``)."""
    if holder is corp:
        return True
    sp = corp.share_price
    if sp is not None and sp.type in ("multiple_buy", "unlimited"):
        return True
    return held + extra_percent <= corp.max_ownership_percent


class TurnView:
    """What one question of the stock step reads of the player asked about and of the turn
    (a purchase made, the cash to spend, room under the certificate limit), each worked out at
    most once and only when a check needs it. A plain local object: made per question, passed
    down, never stored (the state can change between questions)."""

    __slots__ = ("_bought", "_cash", "_percents", "_room", "entity", "step")

    def __init__(self, step: BuySellParShares, entity: Any, bought: bool | None = None) -> None:
        self.step = step
        self.entity = entity
        self._bought = bought
        self._cash: int | None = None
        self._room: bool | None = None
        self._percents: dict[str, int] | None = None

    def bought(self) -> bool:
        """The step's :meth:`~BuySellParShares.bought`."""
        if self._bought is None:
            self._bought = self.step.bought()
        return self._bought

    def cash(self) -> int:
        """The step's :meth:`~BuySellParShares.available_cash` of the player."""
        if self._cash is None:
            self._cash = self.step.available_cash(self.entity)
        return self._cash

    def percent(self, corp: Corporation) -> int:
        """The percent of ``corp`` the player holds (:func:`held_percents`)."""
        if self._percents is None:
            self._percents = held_percents(self.entity, self.step.game.corporations)
        return self._percents.get(corp.id, 0)

    def room(self) -> bool:
        """Whether the player holds fewer certificates than its limit
        (:meth:`~BuySellParShares.certs_held` below the game's ``cert_limit``)."""
        if self._room is None:
            step = self.step
            self._room = step.certs_held(self.entity) < step.game.cert_limit(self.entity)
        return self._room


def sell_company_to_bank(game: Any, player: Any, company: Company, price: int) -> None:
    """``player`` sells ``company`` to the bank for ``price``."""
    company.owner = game.bank
    player.companies = without(player.companies, company)
    if price > 0:
        pay(game, game.bank, player, price, "company_sale")


class BuySellParShares(Passing):
    HANDLERS: ClassVar[dict[str, Any]] = {
        "buy_shares": "process_buy_shares", "sell_shares": "process_sell_shares", "par": "process_par",
        "buy_company": "process_buy_company", "sell_company": "process_sell_company", "pass": "process_pass",
    }
    COMPANIES = True  # players may buy companies from the bank and sell them back
    #: A par price that is unknown or not one of the corporation's is refused first, before
    #: the turn's checks, as ``bad-par-price`` (otherwise an unknown one is ``unknown-price``).
    PAR_PRICE_FIRST: ClassVar[bool] = False
    #: A player over a holding limit must sell (not only one over the certificate limit).
    HOLDING_LIMIT_FORCES_SALE: ClassVar[bool] = True
    #: A purchase, or a par, ends the player's turn.
    PURCHASE_ENDS_TURN: ClassVar[bool] = False
    #: The shares of a corporation the turn's last action bought or parred are not sold at once.
    NO_SALE_OF_LAST_BUY: ClassVar[bool] = False
    #: A corporation's shares are sold at most once a turn.
    ONE_SALE_PER_TURN: ClassVar[bool] = False
    #: The actions that count as the turn's purchase (see :meth:`bought`).
    TURN_PURCHASES: ClassVar[tuple[str, ...]] = PURCHASES
    #: A par ends the player's turn.
    PAR_ENDS_TURN: ClassVar[bool] = False
    #: A par's purchase is refused when :meth:`can_par_corp` does not allow the start.
    PAR_CHECKS_START: ClassVar[bool] = True
    #: Action types the round's history (what programs read, :mod:`..programs`) leaves out.
    UNTRACKED: ClassVar[frozenset[str]] = frozenset()
    #: Whether the class keeps the base's :meth:`can_buy` and :meth:`can_gain` (set per class):
    #: then :meth:`buys_one` answers with the same checks in a cheaper order.
    PLAIN_BUY: ClassVar[bool] = True
    #: Whether the class keeps the base's :meth:`can_sell` (set per class): then a sale is
    #: refused before its bundles are built when the turn or the corporation bars every one.
    PLAIN_SELL: ClassVar[bool] = True
    #: Whether the class keeps the base's :meth:`may_pass` and a list of actions that is, for
    #: the player in turn, the allowed :attr:`KINDS` and a pass (set per class): then
    #: :meth:`answers` answers a pass, or a kind not allowed, without the whole list.
    PLAIN_PASS: ClassVar[bool] = True
    #: Whether "forced to sell?" (:meth:`must_sell`) can be left out of the questions about the
    #: kinds: a player forced to sell is allowed ``sell_shares`` (forced or not), being forced
    #: only takes kinds away (:meth:`allows` with ``forced`` true allows no kind it refuses with
    #: it false) and :meth:`may_pass` with no kind open is false. Then "any kind?" is the same
    #: asked as if not forced. Set per class: true where :meth:`must_sell`, :meth:`can_sell_any`,
    #: :meth:`can_sell_any_of`, :meth:`may_pass`, :meth:`allows` and :attr:`KINDS` are its
    #: parent's (:data:`FORCE_FREE_READS`) and the parent's flag is true; a class with its own
    #: that keeps these truths says so in its body (the auction step: a bid is open forced or not).
    FORCE_FREE_KINDS: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.PLAIN_BUY = (cls.can_buy is BuySellParShares.can_buy and cls.can_gain is BuySellParShares.can_gain)
        cls.PLAIN_SELL = cls.can_sell is BuySellParShares.can_sell
        cls.PLAIN_PASS = cls.may_pass is BuySellParShares.may_pass and cls.actions.__qualname__ in (
            "BuySellParShares.actions", "AuctionBuySellParShares.actions")
        if "FORCE_FREE_KINDS" not in cls.__dict__:
            # (kept from the nearest stock-step ancestor where none of what it rests on is
            # redefined; a class made from one by the rewind's machinery keeps it)
            parent = next(b for b in cls.__mro__[1:] if issubclass(b, BuySellParShares))
            cls.FORCE_FREE_KINDS = parent.FORCE_FREE_KINDS and all(
                getattr(cls, name) is getattr(parent, name) for name in FORCE_FREE_READS)

    def round_state(self) -> dict[str, Any]:
        return {"players_sold": {}, "players_bought": {}, "current_actions": []}

    def setup(self) -> None:
        for sold in self.round.players_sold.values():
            for k in sold:
                sold[k] = "prev"
        self.round.current_actions = []
        programs.turn_started(self.game, self.current_entity())

    def description(self) -> str:
        return "Buy/Sell/Par"

    # ------------------------------------------------------------ availability
    #: The kinds of action :meth:`actions` lists, in this order, each when :meth:`allows` it.
    KINDS: ClassVar[tuple[str, ...]] = ("buy_shares", "par", "buy_company", "sell_shares", "sell_company")
    #: The order in which the round's questions (:meth:`has_actions`, :meth:`answers`) ask
    #: :meth:`allows` the kinds: a permutation of :attr:`KINDS` (None: that order), cheap and
    #: often-allowed kinds first. Only the cost changes: an "any of them?" answer is the same
    #: in any order (the kinds' checks write nothing); the list keeps :attr:`KINDS`' order.
    ASK_ORDER: ClassVar[tuple[str, ...] | None] = None

    #: the kinds listed at one listing (``_kinds_memo``) belong to this step object: a copy
    #: starts without them
    CLONE_SKIP: ClassVar[tuple[str, ...]] = ("_kinds_memo",)
    _kinds_memo: tuple[int, Any, list[str]] | None = None

    def actions(self, entity: Any) -> list[str]:
        """For the player in turn: the :attr:`KINDS` the step :meth:`allows` (``forced`` when
        the player :meth:`must_sell`), then ``pass`` when :meth:`may_pass`.

        While the game is listing (nothing changes meanwhile: ``Game._listing_busy``), the
        answer is worked out once per entity and move (the listing asks it several times)."""
        if entity is not self.current_entity():
            return []
        game = self.game
        busy = game._listing_busy
        if busy:
            memo = self._kinds_memo
            if memo is not None and memo[0] == game._moves and memo[1] is entity:
                return list(memo[2])
        forced = self.must_sell(entity)
        out = [kind for kind in self.KINDS if self.allows(kind, entity, forced)]
        if self.may_pass(out, forced):
            out.append("pass")
        if busy:
            self._kinds_memo = (game._moves, entity, list(out))
        return out

    def has_actions(self, entity: Any) -> bool:
        """:meth:`actions`' truth: the first of the :attr:`KINDS` allowed, else ``pass`` with none."""
        if entity is not self.current_entity():
            return False
        if self._sale_force_free(entity):
            # (forced to sell: ``sell_shares`` is allowed, so "any kind?" is true either way;
            # not forced: the question as asked. No pass alone. The holdings as :meth:`must_sell`
            # and :meth:`can_sell_any` both read them)
            allows = self.allows
            for kind in self.ASK_ORDER or self.KINDS:  # (a plain loop: asked very often)
                if allows(kind, entity, False):
                    return True
            return False
        forced = self.must_sell(entity)
        return any(self.allows(kind, entity, forced) for kind in self.ASK_ORDER or self.KINDS) \
            or self.may_pass([], forced)

    def answers(self, entity: Any, atype: str) -> tuple[bool, bool]:
        """One of the :attr:`KINDS` the step :meth:`allows`: listed, so the list is not empty;
        anything else (``pass`` too): the list."""
        kinds = self.ASK_ORDER or self.KINDS
        if atype in kinds:
            if entity is not self.current_entity():
                return super().answers(entity, atype)
            if atype == "sell_shares" and self._sale_force_free(entity):
                # (a sale refused: not forced, as one forced to sell may sell)
                if self.allows(atype, entity, False):
                    return True, True
                forced = False
            else:
                forced = self.must_sell(entity)
                if self.allows(atype, entity, forced):
                    return True, True
            if self.PLAIN_PASS:  # (a pass is listed only beside another kind)
                return False, any(self.allows(k, entity, forced) for k in kinds if k != atype)
        elif atype == "pass" and self.PLAIN_PASS:
            if entity is not self.current_entity():
                return False, False
            forced = self.must_sell(entity)
            anything = any(self.allows(k, entity, forced) for k in kinds)
            return anything and not forced, anything
        return super().answers(entity, atype)

    def accepts(self, entity: Any, atype: str) -> bool:
        """:meth:`answers`' first truth, its "anything?" known true: a kind, whether it
        :meth:`allows` it; a plain pass, listed beside any kind (there is one), whether the
        player need not sell."""
        if entity is self.current_entity():
            if atype in (self.ASK_ORDER or self.KINDS):
                if self.allows(atype, entity, False if atype == "sell_shares" and self._sale_force_free(entity)
                               else self.must_sell(entity)):
                    return True
                if self.PLAIN_PASS:
                    return False
            elif atype == "pass" and self.PLAIN_PASS:
                return not self.must_sell(entity)
        return super().accepts(entity, atype)

    def _sale_force_free(self, entity: Any) -> bool:
        """Whether ``sell_shares`` is allowed the same forced or not for ``entity`` (so asked
        with ``forced`` false, without :meth:`must_sell`): under :attr:`FORCE_FREE_KINDS` one
        forced to sell is allowed it, and being forced takes no kind's yes away that it would
        not give; the holdings as :meth:`must_sell` and :meth:`can_sell_any` both read them."""
        return self.FORCE_FREE_KINDS and type(entity).held_corporations is ShareHolder.held_corporations

    def allows(self, kind: str, entity: Any, forced: bool) -> bool:
        """Whether :meth:`actions` lists ``kind`` for ``entity``; one ``forced`` to sell may
        only sell (shares, and companies where :attr:`COMPANIES`)."""
        if kind == "sell_shares":
            return self.can_sell_any(entity)
        if kind == "sell_company":
            return self.COMPANIES and self.can_sell_any_companies(entity)
        if kind == "bid":
            # (the auction step's kind, open forced to sell or not, before a purchase: asked
            # here, not in a redefinition, to spare a frame per question of every kind)
            return not self.bought() and self.can_bid_any(entity)
        if forced:
            return False
        if kind == "buy_company":
            return self.COMPANIES and self.can_buy_any_companies(entity)
        return self.can_buy_any(entity) if kind == "buy_shares" else kind == "par" and self.can_ipo_any(entity)

    def can_bid_any(self, entity: Any) -> bool:
        """Whether ``entity`` may open an auction now (default: never; :meth:`allows` asks it
        of the ``bid`` kind, which only the auction step lists)."""
        return False

    def may_pass(self, kinds: list[str], forced: bool) -> bool:
        """Whether the turn may pass with ``kinds`` open (default: some are, and not ``forced``)."""
        return bool(kinds) and not forced

    def bought(self) -> bool:
        """Whether the turn has made one of the :attr:`TURN_PURCHASES`."""
        # (a plain loop: asked very often, mostly of a turn with an action or none)
        purchases = self.TURN_PURCHASES
        for a in self.round.current_actions:
            if a["type"] in purchases:
                return True
        return False

    def sold_now(self, player: Any, thing: Any) -> object:
        return self.round.players_sold.get(player, {}).get(thing)

    def must_sell(self, entity: Any) -> bool:
        """Over the certificate limit (with something to sell), or over a holding limit."""
        game = self.game
        if game.num_certs(entity) > game.cert_limit(entity):
            return self.can_sell_any(entity)
        if not self.HOLDING_LIMIT_FORCES_SALE:
            return False
        held = held_percents(entity, game.corporations)  # (one look at the holdings, not one per corporation)
        if held:
            for c in game.corporations:  # (a plain loop: asked of every question of the kinds)
                if c.id in held and not within_holding_limit(c, entity, held[c.id]) and self.can_sell_any_of(entity, c):
                    return True
        return False

    def can_gain(self, entity: Any, bundle: ShareBundle, exchange: bool = False) -> bool:
        """Whether ``entity`` may take ``bundle`` within its holding limit and (unless the
        price's cell does not count, or it comes by ``exchange``) the certificate limit."""
        corp = bundle.corporation
        if bundle.owner.is_player:
            return False
        counts = corp.share_price is None or corp.share_price.counts_for_limit()
        return corp.holding_ok(entity, bundle.percent) and (
            not counts or exchange or self.certs_held(entity) < self.game.cert_limit(entity))

    def certs_held(self, entity: Any) -> int:
        """The certificates counted against ``entity``'s limit (default: the game's count)."""
        certs: int = self.game.num_certs(entity)
        return certs

    def available_cash(self, entity: Any) -> int:
        """What ``entity`` may spend on shares now (default: its cash)."""
        cash: int = entity.cash
        return cash

    def may_buy_from(self, entity: Any, corp: Corporation) -> bool:
        """Whether ``entity`` may buy shares of ``corp`` at all now (default: yes)."""
        return True

    def buys_by_exchange(self, bundle: ShareBundle) -> bool:
        """Whether buying ``bundle`` is an exchange, outside the certificate limit (default: no)."""
        return False

    def can_buy_multiple(self, entity: Any, corp: Corporation) -> bool:
        sp = corp.share_price
        if sp is None or "multiple_buy" not in sp.types:
            return False
        for a in self.round.current_actions:
            if a["type"] == "par":
                return False
            if a["type"] == "buy_shares" and a["_corp"] is not corp:
                return False
        return True

    def can_buy(self, entity: Any, bundle: ShareBundle | None, cash: int | None = None) -> bool:
        """Whether ``entity`` may buy ``bundle`` now, paying from ``cash`` (default:
        :meth:`available_cash`)."""
        if bundle is None:
            return False
        for s in bundle.shares:  # (a plain loop: asked of every bundle looked at)
            if not s.buyable:
                return False
        owner = bundle.owner  # (read once: the checks write nothing)
        if owner is entity:
            return False
        corp = bundle.corporation
        if not self.may_buy_from(entity, corp):
            return False
        cash = self.available_cash(entity) if cash is None else cash
        if cash < bundle.price() or self.sold_now(entity, corp):
            return False
        if self.bought() and not self.can_buy_multiple(entity, corp):
            return False
        if not self.can_gain(entity, bundle, exchange=self.buys_by_exchange(bundle)):
            return False
        if self.game.PRESIDENT_SALES_TO_MARKET and owner is self.game.pool \
                and bundle.percent == corp.presidents_percent:
            needed = (bundle.percent - corp.share_percent) // corp.share_percent
            if entity.percent_of(corp) <= needed:
                return False
        return True

    def buyable_bundles(self, entity: Any) -> list[ShareBundle]:
        """Single-certificate bundles the player could buy now (IPO and pool)."""
        out = []
        for corp in self.game.corporations:
            if not corp.ipoed or corp.closed:
                continue
            for holder in (corp, self.game.pool):
                seen = set()
                for s in holder.shares_of(corp):
                    key = (s.percent, s.president)
                    if key in seen:
                        continue
                    seen.add(key)
                    b = ShareBundle([s], s.percent, corporation=corp)
                    if self.can_buy(entity, b):
                        out.append(b)
        return out

    def can_buy_any(self, entity: Any) -> bool:
        """Whether :meth:`may_buy_some` allows the smallest buyable certificate of an IPO or of
        the market (with the base's checks: :meth:`buys_one`, the turn read once)."""
        pooled = self.game.pool.holdings()  # (one look at the market's certificates)
        plain = self.PLAIN_BUY and type(self).may_buy_some is BuySellParShares.may_buy_some
        turn = TurnView(self, entity)
        # (after the turn's purchase :meth:`buys_one` refuses every corporation whose price
        # does not allow a second purchase, whatever else it reads: those are not looked at)
        after = plain and turn.bought()
        for corp in self.game.corporations:
            if not corp.ipoed or corp.closed:
                continue
            if after:
                sp = corp.share_price
                if sp is None or "multiple_buy" not in sp.types:
                    continue
            cid = corp.id
            for shares in (corp.certificates, pooled.get(cid)):
                if not shares:
                    continue
                smallest = None
                for s in shares:
                    if s.buyable and s.corp_id == cid and (smallest is None or s.percent < smallest.percent):
                        smallest = s
                if smallest is None:
                    continue
                if self.buys_one(entity, smallest, None, turn, corp) if plain \
                        else self.may_buy_some(entity, ShareBundle([smallest], smallest.percent, corporation=corp)):
                    return True
        return False

    def buys_one(self, entity: Any, share: Share, cash: int | None, turn: TurnView,
                 corp: Corporation | None = None) -> bool:
        """:meth:`can_buy` of the one certificate ``share`` (paid from ``cash``, default the
        turn's cash), its checks in a cheaper order, what the turn gives read from ``turn``
        (the same answer: they only read the state); a class with its own :meth:`can_buy` or
        :meth:`can_gain` is asked them; ``corp``: the certificate's corporation, when known)."""
        if corp is None:
            corp = self.game.share_corp(share)
        if not self.PLAIN_BUY:
            return self.can_buy(entity, ShareBundle([share], share.percent, corporation=corp), cash)
        owner = corp.holder_of(share)
        if not share.buyable or owner is entity or owner.is_player:
            return False
        if (turn.cash() if cash is None else cash) < certificate_price(corp, share) or self.sold_now(entity, corp):
            return False
        if not within_holding_limit(corp, entity, turn.percent(corp), share.percent):
            return False
        sp = corp.share_price
        if (sp is None or sp.counts_for_limit()) and not turn.room() \
                and not self.buys_by_exchange(ShareBundle([share], share.percent, corporation=corp)):
            return False
        if turn.bought() and not self.can_buy_multiple(entity, corp):
            return False
        if not self.may_buy_from(entity, corp):
            return False
        game = self.game
        if game.PRESIDENT_SALES_TO_MARKET and owner is game.pool and share.percent == corp.presidents_percent:
            needed = (share.percent - corp.share_percent) // corp.share_percent
            if entity.percent_of(corp) <= needed:
                return False
        return True

    def may_buy_some(self, entity: Any, bundle: ShareBundle) -> bool:
        """The check :meth:`can_buy_any` makes of the smallest certificate of an IPO or the
        market (default: :meth:`can_buy`)."""
        return self.can_buy(entity, bundle)

    def can_ipo_any(self, entity: Any) -> bool:
        """Whether ``entity`` may start a corporation now: before a purchase, one it :meth:`may_start`."""
        if self.bought():
            return False
        turn = TurnView(self, entity, bought=False)
        # (no title's ``can_par`` starts a corporation already started or closed)
        return any(self.may_start(entity, c, turn) for c in self.game.corporations if not (c.ipoed or c.closed))

    def may_start(self, entity: Any, corp: Corporation, turn: TurnView | None = None) -> bool:
        """Whether ``entity`` could start ``corp``: the game's ``can_par``, and the first of its
        own certificates one it :meth:`can_buy` with its :meth:`par_cash` (:meth:`buys_one`;
        ``turn``: what the question has read of the turn)."""
        first = first_own_share(corp)
        if first is None:
            return False
        cash = self.par_cash(entity, corp)
        if self.PLAIN_BUY and cash < certificate_price(corp, first):  # (the purchase's most frequent refusal, first)
            return False
        return self.game.can_par(corp, entity) and self.buys_one(
            entity, first, cash, TurnView(self, entity) if turn is None else turn, corp)

    def can_par_corp(self, entity: Any, corp: Corporation) -> bool:
        """Whether ``entity`` may start ``corp``: one of its :meth:`par_prices`, within the limits."""
        return self.game.can_par(corp, entity) and bool(self.par_prices(entity, corp)) and self.can_gain(
            entity, ShareBundle([corp.presidents_share], corporation=corp))

    def par_prices(self, entity: Any, corp: Corporation) -> list[SharePrice]:
        """The :meth:`par_price_choices` at which ``entity`` can pay for the president's
        certificate (:meth:`par_cost`) from its :meth:`par_cash`."""
        cash = self.par_cash(entity, corp)
        return [p for p in self.par_price_choices(corp) if self.par_cost(corp, p) <= cash]

    def par_price_choices(self, corp: Corporation) -> list[SharePrice]:
        """The par prices ``corp`` may start at (default: the game's ``par_prices``)."""
        prices: list[SharePrice] = self.game.par_prices(corp)
        return prices

    @staticmethod
    def par_cost(corp: Corporation, share_price: SharePrice) -> int:
        """What the president's certificate of ``corp`` costs at ``share_price``."""
        return share_price.price * corp.price_multiplier * corp.presidents_percent // corp.share_percent

    def can_sell_order(self) -> bool:
        order = self.game.SELL_BUY_ORDER
        if order == "sell_buy":
            return not self.bought()
        if order == "sell_buy_sell":
            return True
        types = {a["type"] for a in self.round.current_actions}
        return not (len(types) == 2 and self.round.current_actions[-1]["type"] in PURCHASES)

    def can_dump(self, entity: Any, bundle: ShareBundle) -> bool:
        corp = bundle.corporation
        if self.game.PRESIDENT_SALES_TO_MARKET:
            if bundle.presidents_share is None or bundle.percent >= corp.presidents_percent:
                return True
            others = [p for h, p in corp.player_share_holders().items() if h is not entity]
            if (max(others) if others else 0) > 10:
                return True
            pooled: bool = self.game.pool.percent_of(corp) > 0
            return pooled
        dump: bool = self.game.share_market.can_dump(entity, bundle)
        return dump

    def can_sell(self, entity: Any, bundle: ShareBundle | None) -> bool:
        if bundle is None or bundle.owner is not entity:
            return False
        if not self.game.check_sale_timing(entity, bundle):
            return False
        if self.just_bought(bundle.corporation) or (
                self.ONE_SALE_PER_TURN and self.sold_now(entity, bundle.corporation) == "now"):
            return False
        market = self.game.share_market
        return (self.can_sell_order()
                and market.fit_in_pool(bundle, self.game.market_share_limit(bundle.corporation))
                and self.can_dump(entity, bundle) and market.change_given_back(entity, bundle))

    def just_bought(self, corp: Corporation) -> bool:
        """Whether ``corp``'s shares are barred from sale as the turn's last purchase or par
        (only if :attr:`NO_SALE_OF_LAST_BUY`)."""
        acts = self.round.current_actions
        return self.NO_SALE_OF_LAST_BUY and bool(acts) and acts[-1]["type"] in ("par", "buy_shares") \
            and acts[-1]["_corp"] is corp

    def can_sell_any_of(self, entity: Any, corp: Corporation) -> bool:
        """Whether :meth:`can_sell` allows one of ``entity``'s bundles of ``corp`` (none built
        when the corporation's shares are barred from sale this turn)."""
        if not self.PLAIN_SELL:
            return any(self.can_sell(entity, b) for b in self.game.share_market.bundles_for(entity, corp))
        return self.base_can_sell_any_of(entity, corp)

    def base_can_sell_any_of(self, entity: Any, corp: Corporation) -> bool:
        """Whether the base's :meth:`can_sell` (``BuySellParShares.can_sell``, whatever the
        class's own) allows one of ``entity``'s bundles of ``corp``: a title whose own
        ``can_sell`` only adds refusals reading no bundle asks them, then this."""
        if self.just_bought(corp) or (self.ONE_SALE_PER_TURN and self.sold_now(entity, corp) == "now") \
                or not self.can_sell_order():
            return False
        game = self.game
        market = game.share_market
        return self._sells_some_of(entity, corp, game, market, self._plain_sale_checks(game, market))

    def _sells_some_of(self, entity: Any, corp: Corporation, game: Any, market: Any, plain: bool) -> bool:
        """:meth:`base_can_sell_any_of` past its checks of the turn (``plain``: what
        :meth:`_plain_sale_checks` answers; it reads only the classes)."""
        # (the base's :meth:`can_sell` of each bundle, its checks of the turn and of the pool
        # read once per corporation, the bundles made one at a time until one sells)
        room = game.market_share_limit(corp) - market.pool.percent_of(corp)
        if plain:
            # (the smallest ordinary certificate decides: a bundle without the president's
            # certificate passes the dump and give-back checks, the timing reads only the
            # corporation and the owner is the same for every bundle, and every other bundle
            # holds more than it: all of the ordinary ones, or those with the president's
            # certificate, at least one share more; without an ordinary one, the bundles)
            if not corp.ipoed:
                return False
            cid = corp.id
            smallest = None
            for s in entity.certificates:
                if s.corp_id == cid and not s.president and (smallest is None or s.percent < smallest.percent):
                    smallest = s
            if smallest is not None:
                return smallest.percent <= room and corp.holder_of(smallest) is entity and game.check_sale_timing(
                    entity, ShareBundle([smallest], smallest.percent, corporation=corp))

        def sells(bundle: ShareBundle) -> bool:
            return bool(bundle.percent <= room and bundle.owner is entity and game.check_sale_timing(entity, bundle)
                        and self.can_dump(entity, bundle) and market.change_given_back(entity, bundle))
        found: bool = market.any_bundle(entity, corp, sells)
        return found

    def _plain_sale_checks(self, game: Any, market: Any) -> bool:
        """Whether a bundle's sale checks are the base's (:meth:`can_dump`, the market's
        ``can_dump`` and ``change_given_back``, the game's ``check_sale_timing``), so that a
        bundle without a president's certificate is refused only by the pool's room and the
        timing, which reads only the corporation (the game's ``check_sale_timing`` the one its
        class names ``SALE_TIMING_BY_CORPORATION``)."""
        return (type(self).can_dump is BuySellParShares.can_dump
                and type(market).can_dump is ShareMarket.can_dump
                and type(market).change_given_back is ShareMarket.change_given_back
                and type(game).check_sale_timing is type(game).SALE_TIMING_BY_CORPORATION)

    def can_sell_any(self, entity: Any) -> bool:
        """Whether :meth:`can_sell` allows a bundle of any corporation ``entity`` holds (none
        looked at when the turn's order bars every sale)."""
        held = entity.held_corporations()
        if not held or (self.PLAIN_SELL and not self.can_sell_order()):
            return False
        cls = type(self)
        if self.PLAIN_SELL and cls.can_sell_any_of is BuySellParShares.can_sell_any_of \
                and cls.base_can_sell_any_of is BuySellParShares.base_can_sell_any_of \
                and cls._sells_some_of is BuySellParShares._sells_some_of:
            # (:meth:`can_sell_any_of` of each corporation held, what reads only the turn, the
            # order of sale and the classes' checks, asked once: the same answer, they read
            # the state and write nothing)
            game = self.game
            market = game.share_market
            plain = self._plain_sale_checks(game, market)
            one_sale = self.ONE_SALE_PER_TURN
            for c in game.corporations:
                if c.id in held and not self.just_bought(c) \
                        and not (one_sale and self.sold_now(entity, c) == "now") \
                        and self._sells_some_of(entity, c, game, market, plain):
                    return True
            return False
        return any(self.can_sell_any_of(entity, c) for c in self.game.corporations if c.id in held)

    # companies
    def can_buy_any_companies(self, entity: Any) -> bool:
        if self.bought() or entity.cash <= 0 or self.game.num_certs(entity) >= self.game.cert_limit(entity):
            return False
        return any(self._company_buyable(entity, c) for c in self.game.buyable_bank_companies())

    def _company_buyable(self, entity: Any, company: Company) -> bool:
        return not self.sold_now(entity, self.sale_key(company)) and entity.cash >= company.value

    def can_sell_any_companies(self, entity: Any) -> bool:
        return not self.bought() and any(self.may_sell_company(entity, c) for c in entity.companies)

    def may_sell_company(self, entity: Any, company: Company) -> bool:
        """Whether ``entity`` may sell its ``company`` to the bank now (default: after the
        first stock round, and not after a purchase unless it must sell)."""
        return self.game.turn > 1 and (not self.bought() or self.must_sell(entity))

    def sale_key(self, company: Company) -> object:
        """What the sale of ``company`` is recorded under, barring a purchase of it this
        round (default: the company itself)."""
        return company

    # ------------------------------------------------------------ processing
    def _track(self, action: dict[str, Any], entity: Any, thing: Any, corp: Corporation | None = None) -> None:
        rec = {"type": action["type"], "_corp": corp}
        self.round.current_actions.append(rec)
        self.round.last_to_act = entity
        if action["type"] not in self.UNTRACKED:
            programs.note(self.game, action, entity, thing)

    # ------------------------------------------------------------ programmed actions
    def auto_actions(self, entity: Any) -> list[dict[str, Any]]:
        """The player's programs: a share pass, a purchase until a count (see :mod:`..programs`)."""
        return programs.stock_auto_actions(self, entity)

    def program_from_market(self, prog: dict[str, Any]) -> bool:
        """Whether a programmed purchase buys from the market (default: as the program says)."""
        return bool(prog.get("from_market"))

    def shenanigan(self, entity: Any, other: Any, atype: str, actor: Any, thing: Any, share: Any) -> str | None:
        """Why ``other``'s action ``atype`` (by ``actor``, on ``thing``) this round stops a program of
        ``entity`` about to buy ``share`` (None: it does not); see :func:`programs.shenanigan`."""
        return programs.shenanigan(self, entity, other, atype, actor, thing, share)

    def normal_pass(self, entity: Any) -> bool:
        """Whether a pass now is an ordinary one that a programmed share pass may make (not one
        inside a bid or a price protection). Default: yes."""
        return True

    def process_buy_shares(self, action: dict[str, Any], entity: Any) -> None:
        """A player buys a bundle from the IPO or the market, in five stages a title fills in:
        :meth:`exchange` (a ``buy_shares`` that is no purchase), :meth:`purchase_bundle` (which
        bundle), :meth:`check_buy_shares` (may it), :meth:`take_shares` (the certificates and
        the money move; recorded so the player may not sell them back this round) and
        :meth:`after_buy`."""
        if self.exchange(action, entity):
            return
        bundle = self.purchase_bundle(action, entity)
        self.check_buy_shares(entity, bundle)
        corp = bundle.corporation
        self.note_bought(entity, corp, bundle.percent)
        self.take_shares(entity, bundle)
        self._track(action, entity, corp, corp)
        self.after_buy(entity, corp)

    # hooks of process_buy_shares
    def exchange(self, action: dict[str, Any], entity: Any) -> bool:
        """Carry out a ``buy_shares`` that is an exchange rather than a purchase (e.g. 1893's
        FdSD for RAG shares) and say so. Default: none (False)."""
        return False

    def purchase_bundle(self, action: dict[str, Any], entity: Any) -> ShareBundle:
        """The bundle ``action`` buys, at the price it states (see :func:`action_bundle`)."""
        return action_bundle(self.game, action)

    def check_buy_shares(self, entity: Any, bundle: ShareBundle) -> None:
        """Refuse a purchase :meth:`can_buy` does not allow, naming the rule it breaks
        (:meth:`_why_not_buy`). Titles add their own refusals before it."""
        if not self.can_buy(entity, bundle):
            raise GameError(f"{entity.name} cannot buy {', '.join(s.id for s in bundle.shares)} now",
                            rule=self._why_not_buy(entity, bundle))

    def note_bought(self, entity: Any, corp: Corporation, percent: int) -> None:
        """Record that ``entity`` bought ``percent`` of ``corp`` this round."""
        bought = self.round.players_bought.setdefault(entity, {})
        bought[corp] = bought.get(corp, 0) + percent

    def take_shares(self, entity: Any, bundle: ShareBundle) -> None:
        """Move the certificates to ``entity`` and its money to their seller: the market's
        ``buy_shares`` (the IPO's price to the bank or an incremental company, the market's
        to the bank, the company floating when it should); the presidency changes hands only
        when the president's certificate may be bought."""
        pres = bundle.corporation.presidents_share
        self.game.share_market.buy_shares(entity, bundle, allow_president_change=pres is None or pres.buyable)

    def after_buy(self, entity: Any, corp: Corporation) -> None:
        """What follows a purchase: :meth:`after_gain`, then the turn's end if
        :attr:`PURCHASE_ENDS_TURN`; titles add to it."""
        self.after_gain(entity, corp)
        if self.PURCHASE_ENDS_TURN:
            self.pass_()

    def after_gain(self, entity: Any, corp: Corporation) -> None:
        """What follows a purchase and a par alike (default: the game's ``after_buy_shares``)."""
        self.game.after_buy_shares(entity, corp)

    def _why_not_buy(self, entity: Any, bundle: ShareBundle) -> str:
        corp = bundle.corporation
        if bundle.owner is entity:
            return "already-owned"
        if not bundle.owner.is_pool and bundle.owner is not corp:
            return "not-for-sale"
        if entity.cash < bundle.price():
            return "insufficient-cash"
        if self.sold_now(entity, corp):
            return "no-buy-after-sell"
        if self.bought():
            return "one-purchase-per-turn"
        if not corp.holding_ok(entity, bundle.percent):
            return "holding-limit"
        return "certificate-limit"

    def process_sell_shares(self, action: dict[str, Any], entity: Any) -> None:
        """A player sells a bundle to the market: checked by :meth:`check_sale`, recorded (no
        buying it back this round), priced by the game's ``sell_shares_and_change_price`` and
        followed by the game's ``after_sell_shares``."""
        bundle = action_bundle(self.game, action)
        self.check_sale(entity, bundle)
        self.round.players_sold.setdefault(entity, {})[bundle.corporation] = "now"
        self.game.sell_shares_and_change_price(bundle)
        self._track(action, entity, bundle.corporation, bundle.corporation)
        self.game.after_sell_shares(entity, bundle.corporation)

    def check_sale(self, entity: Any, bundle: ShareBundle) -> None:
        """Raise a :class:`GameError` unless ``entity`` may sell ``bundle`` now (:meth:`can_sell`).
        Titles add the checks the reference makes besides ``can_sell?`` here."""
        if not self.can_sell(entity, bundle):
            raise GameError(f"{entity.name} cannot sell {bundle.percent}% of {bundle.corporation.name} now",
                            rule=self.why_not_sell(entity, bundle))

    def why_not_sell(self, entity: Any, bundle: ShareBundle) -> str:
        """The rule named in the error when :meth:`can_sell` refuses a sale."""
        return "illegal-sale"

    def process_par(self, action: dict[str, Any], entity: Any) -> None:
        """A player starts a corporation at a par price, in stages a title fills in:
        :meth:`par_choice` (which corporation, which price), :meth:`check_par` (may it be
        parred so), :meth:`defer_par` (a par that waits for a choice) and
        :meth:`par_corporation` (its purchase checked, the par set, the certificate bought)."""
        corp, share_price = self.par_choice(action, entity)
        self.check_par(entity, corp, share_price)
        if not self.defer_par(entity, corp, share_price, action):
            self.par_corporation(entity, corp, share_price, action)

    def par_corporation(self, entity: Any, corp: Corporation, share_price: SharePrice, action: dict[str, Any]) -> None:
        """Start ``corp`` at ``share_price`` for ``entity``: :meth:`check_par_purchase`, the par
        set, the :meth:`par_bundle` taken (:meth:`take_par_shares`), the game's ``after_par``
        (e.g. the home token), then :meth:`after_start`."""
        bundle = self.par_bundle(corp)
        self.check_par_purchase(entity, corp, share_price, bundle)
        self.start_corporation(entity, corp, share_price, action)
        self.after_start(entity, corp)

    def start_corporation(self, entity: Any, corp: Corporation, share_price: SharePrice,
                          action: dict[str, Any]) -> None:
        """Set ``corp``'s par at ``share_price``; ``entity`` takes its :meth:`par_bundle`
        (:meth:`take_par_shares`), then the game's ``after_par``; recorded as ``action``."""
        bundle = self.par_bundle(corp)
        self.game.stock_market.set_par(corp, share_price)
        self.note_bought(entity, corp, bundle.percent)
        self.take_par_shares(entity, corp, share_price, bundle)
        self.game.after_par(corp)
        self._track(action, entity, corp, corp)

    # hooks of process_par
    def par_choice(self, action: dict[str, Any], entity: Any) -> tuple[Corporation, SharePrice]:
        """The corporation and the par price ``action`` names; refuses unknown ones
        (``unknown-entity``, ``unknown-price``)."""
        corp = self.game.corporation_by_id(action.get("corporation"))
        if corp is None:
            raise GameError(f"unknown corporation {action.get('corporation')!r}", rule="unknown-entity")
        sp = self.game.stock_market.by_id(str(action.get("share_price")))
        if self.PAR_PRICE_FIRST and (sp is None or sp not in self.game.par_prices(corp)):
            raise GameError(f"{action.get('share_price')!r} is not a par price for {corp.name}", rule="bad-par-price")
        if sp is None:
            raise GameError(f"unknown share price {action.get('share_price')!r}", rule="unknown-price")
        return corp, sp

    def check_par(self, entity: Any, corp: Corporation, share_price: SharePrice) -> None:
        """Refuse a par the turn or the corporation does not allow: after a purchase
        (``one-purchase-per-turn``), a corporation that cannot start (``cannot-par``), a price
        that is not one of its :meth:`par_price_choices` (``bad-par-price``)."""
        if self.bought():
            raise GameError("only one purchase per turn", rule="one-purchase-per-turn")
        if not self.game.can_par(corp, entity):
            raise GameError(f"{corp.name} cannot be parred", rule="cannot-par")
        if share_price not in self.par_price_choices(corp):
            raise GameError(f"{share_price.price} is not a par price for {corp.name}", rule="bad-par-price")

    def defer_par(self, entity: Any, corp: Corporation, share_price: SharePrice, action: dict[str, Any]) -> bool:
        """Hold a checked par back (its purchase then comes from another action, through
        :meth:`par_corporation`) and say so. Default: never (False)."""
        return False

    def par_bundle(self, corp: Corporation) -> ShareBundle:
        """What the player starting ``corp`` buys: the president's certificate."""
        return ShareBundle([corp.presidents_share], corporation=corp)

    def check_par_purchase(self, entity: Any, corp: Corporation, share_price: SharePrice, bundle: ShareBundle) -> None:
        """Refuse the par's purchase: too little cash (``insufficient-cash``), over the
        certificate limit (``certificate-limit``), or :meth:`can_par_corp` refusing (if
        :attr:`PAR_CHECKS_START`)."""
        cost = share_price.price * bundle.percent // corp.share_percent
        if entity.cash < cost:
            raise GameError(f"{entity.name} cannot afford {cost} for {corp.name}", rule="insufficient-cash")
        if not self.can_gain(entity, bundle):
            raise GameError("over the certificate limit", rule="certificate-limit")
        if self.PAR_CHECKS_START and not self.can_par_corp(entity, corp):
            raise GameError(f"{corp.name} is not available to start now", rule="cannot-par")

    def take_par_shares(self, entity: Any, corp: Corporation, share_price: SharePrice, bundle: ShareBundle) -> None:
        """The par's certificates move to ``entity``, paid for as any purchase
        (:meth:`ShareMarket.buy_shares`); the par is already set."""
        self.game.share_market.buy_shares(entity, bundle)

    def after_start(self, entity: Any, corp: Corporation) -> None:
        """What follows a par (after the game's ``after_par``): :meth:`after_gain`, then the
        turn's end if :attr:`PURCHASE_ENDS_TURN` or :attr:`PAR_ENDS_TURN`; titles add to it."""
        self.after_gain(entity, corp)
        if self.PURCHASE_ENDS_TURN or self.PAR_ENDS_TURN:
            self.pass_()

    def process_buy_company(self, action: dict[str, Any], entity: Any) -> None:
        company = self.game.index.company(action.get("company"))
        if company is None:
            raise GameError(f"unknown company {action.get('company')!r}", rule="unknown-entity")
        price = amount(action, "price", company.value)
        if company not in self.game.buyable_bank_companies():
            raise GameError(f"{company.name} cannot be bought from the bank now", rule="company-not-for-sale")
        if self.bought():
            raise GameError("only one purchase per turn", rule="one-purchase-per-turn")
        if self.sold_now(entity, company):
            raise GameError(f"{entity.name} sold {company.name} this round", rule="no-buy-after-sell")
        if price != company.value:
            raise GameError(f"{company.name} costs {company.value}, not {price}", rule="wrong-price")
        if entity.cash < price:
            raise GameError(f"{entity.name} cannot afford {company.name}", rule="insufficient-cash")
        if self.game.num_certs(entity) >= self.game.cert_limit(entity):
            raise GameError("over the certificate limit", rule="certificate-limit")
        transfer_company(self.game, company, entity, price)
        self._track(action, entity, company)
        self.game.after_buy_company(entity, company)

    def process_sell_company(self, action: dict[str, Any], entity: Any) -> None:
        """A player sells a company to the bank: its own (``not-owner``), when
        :meth:`may_sell_company` (``illegal-sale``), at the game's ``company_sale_price``;
        recorded under :meth:`sale_key`, then the game's ``after_sell_company``."""
        company = self.game.index.company(action.get("company"))
        if company is None:
            raise GameError(f"unknown company {action.get('company')!r}", rule="unknown-entity")
        if company.owner is not entity:
            raise GameError(f"{entity.name} does not own {company.sym}", rule="not-owner")
        if not self.may_sell_company(entity, company):
            raise GameError(f"{entity.name} cannot sell {company.name} now", rule="illegal-sale")
        expected = self.game.company_sale_price(company)
        price = amount(action, "price", expected)
        if price != expected:
            raise GameError(f"{company.name} sells for {expected}, not {price}", rule="wrong-price")
        sell_company_to_bank(self.game, entity, company, price)
        self.round.players_sold.setdefault(entity, {})[self.sale_key(company)] = "now"
        self._track(action, entity, company)
        self.game.after_sell_company(entity, company)

    # (its pass writes the player's ``passed`` and the round's ``pass_order``, read by no step
    # question of a stock round: only by the round's ``finished`` and at the round's end)
    SKIP_WRITES_UNREAD: ClassVar[bool] = True

    def pass_(self) -> None:
        super().pass_()
        cur = self.current_entity()
        if cur is None:
            return
        if self.round.current_actions and self.pass_keeps_active():
            if cur in self.round.pass_order:
                self.round.pass_order.remove(cur)
            cur.passed = False
        else:
            if cur not in self.round.pass_order:
                self.round.pass_order.append(cur)
            cur.passed = True

    def pass_keeps_active(self) -> bool:
        return True

    # ------------------------------------------------------------ enumeration
    def offers_sale(self, entity: Any, bundle: ShareBundle, action: dict[str, Any]) -> bool:
        """Whether :meth:`legal_actions` lists the sale ``action`` of ``bundle``, which
        :meth:`can_sell` allows (titles drop sales the reference would refuse later).
        Default: yes."""
        return True

    #: The order in which :meth:`legal_actions` lists the kinds of action (see :meth:`offers`).
    LISTING: ClassVar[tuple[str, ...]] = ("buy_shares", "par", "buy_company", "sell_shares", "sell_company", "pass")

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        """The :meth:`offers` of each kind :meth:`actions` allows, in the order of :attr:`LISTING`."""
        acts = self.actions(entity)
        return [a for kind in self.LISTING if kind in acts for a in self.offers(kind, entity)]

    def par_cash(self, entity: Any, corp: Corporation) -> int:
        """What ``entity`` may spend on starting ``corp`` (default: its cash)."""
        cash: int = entity.cash
        return cash

    def offers(self, kind: str, entity: Any) -> list[dict[str, Any]]:
        """The actions of ``kind`` listed for ``entity``; titles add the kinds of their own."""
        game = self.game
        if kind == "buy_shares":
            return [{"type": kind, "shares": [s.id for s in b.shares], "percent": b.percent}
                    for b in self.buyable_bundles(entity)]
        if kind == "par":
            return [{"type": kind, "corporation": corp.id, "share_price": p.id} for corp in game.corporations
                    if self.can_par_corp(entity, corp) for p in self.par_prices(entity, corp)
                    if self.par_cost(corp, p) <= self.par_cash(entity, corp)]
        if kind == "buy_company":
            return [{"type": kind, "company": c.sym, "price": c.value} for c in game.buyable_bank_companies()
                    if self._company_buyable(entity, c)]
        if kind == "sell_shares":
            out = []
            for corp in game.corporations:
                for b in game.share_market.bundles_for(entity, corp):
                    sale = {"type": kind, "shares": [s.id for s in b.shares], "percent": b.percent}
                    if self.can_sell(entity, b) and self.offers_sale(entity, b, sale):
                        out.append(sale)
            return out
        if kind == "sell_company":
            return [{"type": kind, "company": c.sym, "price": game.company_sale_price(c)} for c in entity.companies
                    if self.may_sell_company(entity, c)]
        return [{"type": "pass"}] if kind == "pass" else []


class AuctionBuySellParShares(AuctionMixin, BuySellParShares):
    """A stock round in which a turn may put one item up for auction (1858's private railways,
    1867's minors): while it runs its bidders act in turn (``bid`` or ``pass``, which leaves
    it); otherwise a turn may open one (:meth:`can_bid_any`, on one of :meth:`bid_items`)
    unless it has bought."""

    HANDLERS: ClassVar[dict[str, Any]] = {**BuySellParShares.HANDLERS, "bid": "process_bid"}
    COMPANIES = False
    KINDS = (*BuySellParShares.KINDS, "bid")
    LISTING = (*BuySellParShares.LISTING, "bid")
    FORCE_FREE_KINDS = True  # (a bid is open forced to sell or not; the rest the base's)

    def round_state(self) -> dict[str, Any]:
        return {**super().round_state(), "auction": None}

    @property
    def auction(self) -> Bids | None:
        """The auction under way, kept on the round (``round.auction``)."""
        bids: Bids | None = self.round.auction
        return bids

    @auction.setter
    def auction(self, bids: Bids | None) -> None:
        self.round.auction = bids

    def current_entity(self) -> Any:
        """The next bidder while an auction runs, else the round's player in turn."""
        # (the round's auction read once: asked very often; no class redefines :attr:`auction`)
        rnd = self.round
        bids = rnd.auction
        # (``bids.bids``: its truth, without a call of ``Bids.__len__``)
        if bids is not None and bids.bids:
            return bids.next_bidder()
        if rnd.PLAIN_OPERATOR:  # (the base :meth:`Round.current_entity_of_round` inline)
            ents, i = rnd.entities, rnd.entity_index
            return ents[i] if ents and i < len(ents) else None
        return rnd.current_entity_of_round()

    def normal_pass(self, entity: Any) -> bool:
        """A pass inside the auction is no programmed share pass's."""
        return self.auction is None

    def passing(self, entity: Any) -> None:
        """A pass in an auction leaves it; otherwise the turn ends."""
        if self.auction:
            self.drop_bidder(entity)
        else:
            self.pass_()

    def accept_bid(self, entity: Any, item: Any, price: int, action: dict[str, Any]) -> None:
        """A first bid puts ``item`` up for auction; a later one raises the bid."""
        if self.auction is None:
            self.open_bidding(entity, item, price)
        else:
            self.place_bid(entity, price)

    def check_bid(self, entity: Any, item: Any, price: int) -> None:
        """A bid while an auction runs is on its item (else :attr:`NOT_UP_RULE`); one that would
        open an auction passes :meth:`check_opening`; then the price."""
        bids = self.auction
        if bids is not None and item is not bids.item:
            raise GameError(f"{bids.item.name} is being auctioned", rule=self.NOT_UP_RULE)
        if bids is None:
            self.check_opening(entity, item)
        super().check_bid(entity, item, price)

    def check_opening(self, entity: Any, item: Any) -> None:
        """Title hook: refuse a bid that would put ``item`` up for auction. Default: nothing."""

    def bid_items(self, entity: Any) -> list[Any]:
        """The items ``entity`` may open an auction on (default: none)."""
        return []

    def actions(self, entity: Any) -> list[str]:
        """While an auction runs, its bidder in turn bids or passes."""
        # (here and below: the round's auction read in place of :attr:`auction`, which no class
        # redefines, and its bids' truth without a call of ``Bids.__len__``)
        bids = self.round.auction
        if bids is not None and bids.bids and entity is self.current_entity():
            return ["bid", "pass"]
        return super().actions(entity)

    def has_actions(self, entity: Any) -> bool:
        bids = self.round.auction
        return (bids is not None and bool(bids.bids) and entity is self.current_entity()) \
            or super().has_actions(entity)

    def answers(self, entity: Any, atype: str) -> tuple[bool, bool]:
        bids = self.round.auction
        if bids is not None and bids.bids and entity is self.current_entity():
            return atype in ("bid", "pass"), True
        return super().answers(entity, atype)

    def accepts(self, entity: Any, atype: str) -> bool:
        bids = self.round.auction
        if bids is not None and bids.bids and entity is self.current_entity():
            return atype in ("bid", "pass")
        return super().accepts(entity, atype)

    def offers(self, kind: str, entity: Any) -> list[dict[str, Any]]:
        """Bids: on the auction under way, else on :meth:`bid_items`."""
        if kind != "bid":
            return super().offers(kind, entity)
        return [b for c in ([self.auction.item] if self.auction else self.bid_items(entity))
                for b in self.bid_offer(entity, c)]
