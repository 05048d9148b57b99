"""1893: Cologne. Rules on top of the core; data in ``data/``.

The title's own pieces: a starting-package draft (and a forced auction for what is left), the
ten city bonds traded like companies in stock rounds, five real minors that pay half to their
owner, the AGV and HGK formed from minors after a shareholders' vote in merger rounds, the
Rhine (two crossings closed in phase 2), train trade-ins and the president paying for a forced
train purchase.

Where the printed rules and the reference (the 18xx.games engine) differ, we follow the
reference, whose logs we replay: the starting package is a draft in which passing takes a player
out of the draft and the first stock round; what is left when everyone has passed (or the last
card) is auctioned before a later stock round, its price dropping by 10M after a round of passes
down to half its value, when the player who offered it must buy it. A minor's treasury is at
least 100M. EVA taken from another player in a stock round is paid to the bank (in an operating
round the acting company's president pays EVA's owner).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.entities import (
    Corporation,
    Minor,
    ShareBundle,
    hand_over_trains,
    replace_certificate,
    set_holder,
    shift_holding,
    without,
)
from ...core.errors import GameError
from ...core.game import Game
from ...core.kinds import Kinds
from ...core.money import pay
from ...core.round import OperatingRound, Round, StockRound, ranged, starting_at
from ...core.shares import ShareMarket
from ...core.tiles import upgrades_to_correct_color, upgrades_to_correct_label
from ...core.tokens import Token
from . import config, tilelays
from .steps import (
    Bankrupt1893,
    BuyCompany1893,
    BuySellParShares1893,
    BuyTrain1893,
    DiscardTrain1893,
    Dividend1893,
    MergerVote,
    PotentialDiscardTrainsAfterMerge,
    Route1893,
    StartingPackageForcedAuction,
    StartingPackageInitialAuction,
    Token1893,
    Track1893,
)

MERGED = ("AGV", "HGK")
PRIVATES = ("FdSD", "EVA", "HdSK")
MINOR_PROXIES = ("EKB", "KFBE", "KSZ", "KBE", "BKB")


class Corporation1893(Corporation):
    """A corporation whose float counts only the shares players hold (the market excluded)."""

    __slots__ = ("pool",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pool: Any = None  # the game's open market, set when the game is built

    def floated(self) -> bool:
        if not self.floatable:
            return False
        if not self._floated:
            market = self.pool.percent_of(self) if self.pool is not None else 0
            self._floated = self.percent_of(self) <= 100 - self.float_percent - market
        return self._floated


class ShareMarket1893(ShareMarket):
    """Presidency swaps hand back a 20% certificate when the new president holds one and at
    most two certificates; otherwise the first two 10% certificates.

    The corporation's holder ledger (``share_holders``, which decides presidencies and dumps)
    moves by the percent of each sale or purchase, not with the certificates: presidency swaps
    and the rest of a partly sold president's certificate move certificates only, as in the
    reference. With 1893's 20% non-president certificates the ledger can then differ from the
    certificates held (a quirk real games go through)."""

    def transfer(self, bundle, to, **kwargs) -> None:
        shift_holding(bundle.corporation, bundle.owner, to, bundle.percent)
        super().transfer(bundle, to, **kwargs)

    def _move_share(self, share, to) -> None:
        """Move a certificate, leaving the ledger alone."""
        corp = self.game.share_corp(share)
        owner = corp.holder_of(share)
        owner._remove_share(share)
        to._add_share(share)
        set_holder(corp, share, to)

    def _change_president(self, presidents_share, swap_to, president) -> None:
        corp = self.game.share_corp(presidents_share)
        mine = [s for s in president.shares_of(corp) if not s.president]
        for s in swap_shares(mine):
            self._move_share(s, swap_to)
        self._move_share(presidents_share, president)


def swap_shares(shares: list) -> list:
    double = next((s for s in shares if s.percent == 20), None)
    if double is None:
        return shares[:2]
    if len(shares) <= 2:
        return [double]
    return [s for s in shares if s is not double][:2]


class NeutralCorp(Kinds):
    """Owner of the neutral token in Köln-Deutz (H5): the city stays passable, never blocked."""

    id = sym = "N"
    TOKEN_KIND = "neutral"
    name = "Neutral"
    owner = None
    cash = 0
    coordinates = None

    def __init__(self):
        self.tokens: tuple = ()


if TYPE_CHECKING:
    _RoundMixinBase = Round  # the rounds this is mixed into
else:
    _RoundMixinBase = object


class ExplainRefusal(_RoundMixinBase):
    """When the dispatcher refuses an action, let the steps name the rule it breaks."""

    def process(self, action, entity):
        try:
            return super().process(action, entity)
        except GameError as e:
            if e.rule in ("no-such-action-now", "out-of-turn"):
                for s in self.steps:
                    if s.active():
                        s.why_not(action, entity)
            raise


class StockRound1893(ExplainRefusal, StockRound):
    pass


class DraftRound(Round):
    NAME = "Draft Round"

    def select_entities(self):
        return list(self.game.players)

    def is_stock(self) -> bool:
        return False


class MergerRound(ExplainRefusal, Round):
    """Votes on forming the AGV / HGK, then optional train discards of a formed company.

    The reference models it as a stock round, so the trace names it "Stock Round"."""
    IN_PLACE: ClassVar[tuple[str, ...]] = (*Round.IN_PLACE, "offering", "votes", "voters", "entities")

    NAME = "Stock Round"

    def __init__(self, game, step_classes, count: int):
        self.count = count
        super().__init__(game, step_classes, round_num=1)

    def select_entities(self):
        game = self.game
        self.offering: list = []
        self.voters: list = []
        self.votes: dict = {}
        self.yes = 0
        self.no = 0
        self.done = False
        if game.agv_auto_found:
            game.found(game.agv)
        elif game.agv_mergable:
            self._add_offer(game.agv)
        if game.hgk_auto_found:
            game.found(game.hgk)
        elif game.hgk_mergable:
            self._add_offer(game.hgk)
        if not self.offering:
            return list(game.players)
        self.no = 100 - sum(self.votes.values())
        return self.voters

    def _add_offer(self, corp):
        self.offering.append(corp)
        # voters come in the reference's order (vote_order), which is not the exchange order
        infos = {i["company"].sym: i for i in self.game.exchanges[corp.id]}
        for sym in self.game.data["vote_order"][corp.id]:
            info = infos[sym]
            holder = info["minor"] if info.get("minor") is not None else info["company"]
            self._add_vote(holder.owner, info["share"].percent)
        for p in self.game.players:
            pct = p.percent_of(corp)
            if pct > 0:
                self._add_vote(p, pct)

    def _add_vote(self, player, percent):
        if player is None:
            return
        if player in self.voters:
            self.votes[player] += percent
        else:
            self.voters.append(player)
            self.votes[player] = percent

    @property
    def merge_target(self):
        return self.offering[0] if self.offering else None

    def candidates_for(self, player) -> list:
        target = self.merge_target
        if target is None:
            return []
        out = []
        for info in self.game.exchanges[target.id]:
            holder = info["minor"] if info.get("minor") is not None else info["company"]
            if holder.owner is player:
                out.append(holder)
        return out

    def has_say(self, player) -> bool:
        target = self.merge_target
        if target is None or player is None:
            return False
        return bool(self.candidates_for(player)) or player.percent_of(target) > 0

    def handle_vote(self, player, choice: str):
        percent = self.votes.get(player, 0)
        if choice == "yes":
            self.yes += percent
            self.done = self.yes >= 50
            if self.done:
                self.game.found(self.merge_target)
                self.offering.pop(0)
        else:
            self.no += percent
            self.done = self.no > 50
            if self.done:
                self.offering.pop(0)

    def setup(self):
        self.skip_steps()
        if self.offering and not self.candidates_for(self.current_entity_of_round()):
            self.next_voter()

    def next_voter(self):
        if self.entities:
            self.entity_index = (self.entity_index + 1) % len(self.entities)

    def after_process(self, action, entity):
        pass

    def finished(self) -> bool:
        return self.game.finished or (not self.offering and not self.game.potential_discard_trains)


class OperatingRound1893(OperatingRound):
    def skip_entity(self, entity) -> bool:
        return entity.closed


class Game1893(Game):
    IN_PLACE: ClassVar[tuple[str, ...]] = (*Game.IN_PLACE, "potential_discard_trains", "passers_first_stock_round",
                                           "exchanges")
    CURRENCY = "%sM"
    TITLE = "1893"
    PLAYER_RANGE = (2, 4)
    OPTIONAL_RULES: ClassVar[dict] = {"optional_2_train": None, "optional_grey_phase": None,
                                      "optional_existing_track": None}
    BANK_CASH = 7200
    CAPITALIZATION = "full"
    SELL_AFTER = "operate"
    SELL_MOVEMENT = "down_block"
    SELL_BUY_ORDER = "sell_buy"
    SOLD_OUT_INCREASE = True
    MARKET_SHARE_LIMIT = 50
    HOME_TOKEN_TIMING = "operate"
    MUST_BUY_TRAIN = "route"
    TRAIN_LIMIT_BY_KIND = True  # (the phase's limit by company type: the core's train_limit)

    # EVA changing hands between players (the operating round's buy_company) leaves the
    # router's suggested run as it was: no route or revenue reads who holds EVA or a
    # player's cash (the listing's own filters are asked afresh: they may read them)
    SUGGESTION_KEEPS: ClassVar[frozenset[str]] = frozenset({"buy_company"})
    SHARED_SHAPES = True  # (the listing reads a shape's name, spec, colour and placements)
    GAME_END_CHECK: ClassVar[dict] = {"bankrupt": "immediate", "bank": "full_or"}
    TILE_LAYS: ClassVar[list] = [{"lay": True, "upgrade": True, "cost": 0}]
    # upgrades_to reads the two tiles, the hex's labels and, on Leverkusen's and the blocked
    # hexes, the hex and whether it is blocked (all in upgrade_memo_key)
    UPGRADE_ANSWERS_SHARED = True
    BANK_CAN_BREAK = True
    CERT_LIMIT_INCLUDES_PRIVATES = True
    CORPORATION_CLASS = Corporation1893

    # ------------------------------------------------------------ set-up
    def init_optional_rules(self, rules):
        return config.normalize_options(rules)

    def build_data(self):
        try:
            return config.build(self.optional_rules, len(self.players))
        except ValueError as e:
            raise GameError(str(e), rule="bad-setup") from e

    def init_cert_limit(self):
        return self.data["cert_limit"]

    def init_starting_cash(self):
        for p in self.players:
            pay(self, self.bank, p, self.data["starting_cash"], "starting_cash")

    def init_corporations(self):
        corps = super().init_corporations()
        for c in corps:
            c.pool = self.pool
            if c.id in MERGED:
                c.floatable = False
        return corps

    def init_minors(self):
        out = []
        for m in self.data["minors"]:
            minor = Minor(m["sym"], m["name"], coordinates=m["coordinates"], city=m.get("city", 0), data=m)
            minor.tokens = tuple(Token(minor, price=p) for p in m.get("tokens", [0]))
            out.append(minor)
        return out

    def token_owner(self, token):
        if token.owner_kind == "neutral":
            return self.neutral
        return super().token_owner(token)

    def setup(self):
        self.share_market = ShareMarket1893(self, self.pool, allow_president_sale=False)
        self.agv = self.corporation_by_id("AGV")
        self.hgk = self.corporation_by_id("HGK")
        self.rag = self.corporation_by_id("RAG")
        self.fdsd = self.index.company("FdSD")
        self.eva = self.index.company("EVA")
        self.hdsk = self.index.company("HdSK")
        self.exchanges = {}
        for corp_id, infos in self.data["exchanges"].items():
            corp = self.corporation_by_id(corp_id)
            self.exchanges[corp_id] = [{"share": corp.shares[i["share"]],
                                        "minor": self.index.minor(i["minor"]) if i.get("minor") else None,
                                        "company": self.index.company(i["company"])} for i in infos]
            for info in self.exchanges[corp_id]:  # (not buyable until the company forms)
                share = info["share"]
                info["share"] = replace(share, buyable=False)
                replace_certificate(corp, share, info["share"])
        for c in self.companies:
            c.owner = self.bank
        board = self.board
        for minor in self.minors:
            city = board.tile(self.board.hex_by_id(minor.coordinates)).cities[0]
            board.place_city_token(city, minor, minor.tokens[0], free=True, check_tokenable=False)
        self.neutral = NeutralCorp()
        neutral_token = Token(self.neutral, price=0, type="neutral")
        self.neutral.tokens = (neutral_token,)
        board.place_city_token(self.board.city_by_id(self.data["neutral_city"]), self.neutral, neutral_token, free=True,
                               check_tokenable=False)
        hgk_token = self.hgk.tokens[0]
        board.place_city_token(self.board.city_by_id(self.data["hgk_start_city"]), self.hgk, hgk_token, free=True,
                               check_tokenable=False)
        self.tile_blocked = set(self.data["tile_block"])
        self.passers_first_stock_round: list = []
        self.after_merger_round = None
        self.agv_mergable = False
        self.hgk_mergable = False
        self.agv_auto_found = False
        self.hgk_auto_found = False
        self.fdsd_to_close = False
        self.potential_discard_trains: list = []
        self.operating_rounds_in_set = self.phase.operating_rounds
        self.graph_changed()

    # ------------------------------------------------------------ companies
    def bond(self, company) -> bool:
        return company.sym.startswith("AdSK")

    def private(self, company) -> bool:
        return company.sym in PRIVATES

    def minor_proxy(self, company) -> bool:
        return company.sym in MINOR_PROXIES

    def buyable_bank_companies(self) -> list:
        """Bank-owned non-bond companies and the first bank-owned bond."""
        bank, bond = self.bank, self.bond
        plain = type(self).bond is Game1893.bond  # (then a bond is an "AdSK" symbol, read in place)
        out, first_bond = [], None
        for c in self.companies:
            if c.closed or c.owner is not bank:
                continue
            if not (c.sym.startswith("AdSK") if plain else bond(c)):
                out.append(c)
            elif first_bond is None:
                first_bond = c
        return out if first_bond is None else [*out, first_bond]

    def draftables(self) -> list:
        """The bank's open privates, then its first two open minor proxies (bonds never), in
        company order: one pass over the companies."""
        bank = self.bank
        privates: list[Any] = []
        proxies: list[Any] = []
        for c in self.companies:
            if c.closed or c.owner is not bank:
                continue
            sym = c.sym
            if sym.startswith("AdSK"):  # (a bond: see :meth:`bond`)
                continue
            if sym in PRIVATES:
                privates.append(c)
            if sym in MINOR_PROXIES and len(proxies) < 2:
                proxies.append(c)
        return privates + proxies

    def draft_object(self, company, player, price: int) -> None:
        """A player takes a starting-package card (or a bond); a minor's card floats the minor."""
        if price > 0:
            pay(self, player, self.bank, price, "company_purchase")
        if company.owner is not None and company.owner is not self.bank and company in getattr(
                company.owner, "companies", []):
            company.owner.companies = without(company.owner.companies, company)
        company.owner = player
        player.companies = (*player.companies, company)
        if self.minor_proxy(company):
            minor = self.index.minor(company.sym)
            minor.owner = player
            minor.float_()
            pay(self, self.bank, minor, max(price, 100), "float_capital")

    def company_sale_price(self, company) -> int:
        return company.value

    def purchasable_companies(self, player) -> list:
        """EVA is the one private that changes hands between players."""
        eva = self.eva
        if not self.eva_changes_hands() or eva.owner is player:
            return []
        return [eva]

    def eva_changes_hands(self) -> bool:
        """Is EVA open and held by a player, so that another may buy it?"""
        eva = self.eva
        return not (eva.closed or eva.owner is self.bank or eva.owner is None)

    def acting_entities(self) -> list:
        """In an operating round any player may also buy EVA from its owner."""
        out = super().acting_entities()
        if isinstance(self.round, OperatingRound) and self.eva_changes_hands():
            out += [p for p in self.players if p not in out and not p.bankrupt and p.cash >= 1
                    and self.purchasable_companies(p)]
        return out

    def close_fdsd(self):
        if not self.fdsd.closed:
            self.fdsd.close()
        self.fdsd_to_close = False

    # ------------------------------------------------------------ corporations
    def merged(self, corp) -> bool:
        return corp.id in MERGED

    def buyable_corp(self, corp) -> bool:
        """AGV and HGK shares cannot be bought before their phase ("no buy" ability)."""
        if corp is self.agv:
            return self.agv.ipoed
        if corp is self.hgk:
            return self.hgk.ipoed
        return True

    def par_prices(self, corp):
        return [p for p in self.stock_market.par_prices if p.price != 120]

    def can_par(self, corp, player) -> bool:
        # (this class's merged read in place: asked for every corporation by the par question)
        if (corp.id in MERGED if type(self).merged is Game1893.merged else self.merged(corp)):
            return False
        if corp is self.rag and not self.fdsd.closed and self.fdsd.owner is player:
            return not corp.ipoed and not corp.closed
        if player.cash < 120:
            return False
        return not corp.ipoed and not corp.closed

    def move_buyable_shares_to_market(self, corp) -> None:
        for s in list(corp.shares):
            if s.buyable and corp.holder_of(s) is corp:
                self.share_market.transfer(ShareBundle([s], corporation=corp), self.pool, allow_president_change=False)

    def float_corporation(self, corp) -> None:
        self.journal.record("float", corporation=corp.id)
        pay(self, self.bank, corp, corp.par_price.price * corp.total_shares, "float_capital")

    def sell_shares_and_change_price(self, bundle) -> None:
        corp = bundle.corporation
        allow = corp.presidents_share.buyable
        self.share_market.transfer(bundle, self.pool, spender=self.bank, receiver=bundle.owner,
                                   price=bundle.price(), allow_president_change=allow)
        self.stock_market.move_down(corp)

    def stock_round_finished(self, round_) -> None:
        corps = [c for c in self.corporations if c.floated() and c.share_price is not None]
        for corp in sorted(corps, key=self.stock_market.operating_key):
            if self.sold_out(corp):
                self.stock_market.move_up(corp)

    def sold_out(self, corp) -> bool:
        return sum(p for h, p in corp.share_holders.items() if h.is_player) == 100

    def after_buy_shares(self, player, corp) -> None:
        pass

    def after_sell_shares(self, player, corp) -> None:
        pass

    def check_sale_timing(self, entity, bundle) -> bool:
        return bundle.corporation.operated()

    SALE_TIMING_BY_CORPORATION = check_sale_timing  # (it reads only the bundle's corporation)

    def num_certs(self, player) -> int:
        n = 0  # (a plain loop: asked by the stock step's limits several times an action)
        for s in player.all_shares():
            if s.counts_for_limit:
                n += 1
        return n + len(player.companies)

    # ------------------------------------------------------------ merging
    def founding_fails(self, corp) -> bool:
        """Would the reference fail to form ``corp`` now? It gives the presidency to the holder
        of the president's certificate if he is among the largest holders, else to the largest
        holder first in exchange order; but it errs ("uninitialized constant Integer::MAX")
        when one of those largest holders took part in no exchange (bought shares only)."""
        ledger = dict(corp.player_share_holders().items())
        exchangers = []
        president_owner = None
        for info in self.exchanges[corp.id]:
            owner = info["company"].owner
            if owner is None or not owner.is_player:
                continue
            exchangers.append(owner)
            ledger[owner] = ledger.get(owner, 0) + info["share"].percent
            if info["share"].president:
                president_owner = owner
        top = max(ledger.values(), default=0)
        majority = [p for p, pct in ledger.items() if pct == top]
        return president_owner not in majority and any(p not in exchangers for p in majority)

    def found(self, corp) -> None:
        """Form the AGV or HGK: 400M from the bank, minors and exchange privates traded in."""
        if self.founding_fails(corp):
            raise GameError(f"{corp.name} cannot be formed now: its largest holder bought all his shares "
                            "(the reference fails there)", rule="founding-fails-in-reference")
        if corp is self.agv:
            self.agv_mergable = False
            self.agv_auto_found = False
        else:
            self.hgk_mergable = False
            self.hgk_auto_found = False
        pay(self, self.bank, corp, 400, "capital")
        corp.floatable = True
        priority = []
        president_share = None
        for info in self.exchanges[corp.id]:
            share, company, minor = corp.shares[info["share"].index], info["company"], info["minor"]
            player = company.owner
            if player is None or not player.is_player:
                player = self.pool  # an unsold card: its certificate goes to the market
            if not share.buyable:  # (buyable now: a new certificate in its place)
                replace_certificate(corp, share, fresh := replace(share, buyable=True))
                share = fresh
            if share.president:
                president_share = share
            self.share_market.transfer(ShareBundle([share], corporation=corp), player, allow_president_change=False)
            if player.is_player:
                priority.append(player)
            company.close()
            if minor is None:
                continue
            if minor.cash > 0:
                pay(self, minor, corp, minor.cash, "closure")
            hand_over_trains(minor, corp)
            token = minor.tokens[0]
            city = token.city
            board = self.board
            if self.graph_changed_renews():
                # (from here to graph_changed below only holdings, cash and tokens move: no
                # graph question between, so the walks owed are dropped, not done)
                board.drop_unsettled_walks()
            board.remove_reservation(city, minor)
            board.remove_token(token)
            new = next(t for t in corp.tokens if not t.used)
            board.place_city_token(city, corp, new, free=True, check_tokenable=False)
            minor.close()
        assert president_share is not None  # the exchanges hold the president's certificate
        holders = corp.player_share_holders()
        top = max(holders.values(), default=0)
        majority = [p for p, pct in holders.items() if pct == top]
        president = None
        if corp.holder_of(president_share) in majority:
            president = corp.holder_of(president_share)
        elif majority:
            majority.sort(key=lambda p: priority.index(p) if p in priority else len(priority))
            president = majority[0]
        if president is not None and corp.holder_of(president_share) is not president:
            old = corp.holder_of(president_share)
            mine = [s for s in president.shares_of(corp) if not s.president]
            for s in swap_shares(mine):
                self.share_market._move_share(s, old)
            self.share_market._move_share(president_share, president)
        corp.owner = president
        corp.ipoed = True
        self.graph_changed()
        if corp.trains:
            self.potential_discard_trains.append(corp)

    # ------------------------------------------------------------ events
    def on_train_event(self, event: dict, train) -> None:
        kind = event.get("type")
        if kind == "remove_tile_block":
            self.tile_blocked = set()
        elif kind == "agv_buyable":
            self.make_buyable(self.agv, self.stock_market.par_prices)
            self.agv_mergable = True
        elif kind == "hgk_buyable":
            self.make_buyable(self.hgk, list(reversed(self.stock_market.par_prices)))
            self.hgk_mergable = True
        elif kind == "agv_founded":
            self.agv_mergable = False
            if not self.agv.presidents_share.buyable:
                self.agv_auto_found = True
        elif kind == "hgk_founded":
            self.hgk_mergable = False
            if not self.hgk.presidents_share.buyable:
                self.hgk_auto_found = True
        elif kind == "fdsd_closed":
            if not self.fdsd.closed:
                self.fdsd_to_close = True
        elif kind == "eva_closed":
            self.eva.close()

    def make_buyable(self, corp, prices) -> None:
        price = next(p for p in prices if p.price == 120)
        self.stock_market.set_par(corp, price)
        self.move_buyable_shares_to_market(corp)
        corp.ipoed = True

    # ------------------------------------------------------------ map
    def upgrades_to(self, old_tile, new_tile) -> bool:
        lev = self.data["leverkusen"]
        hex_ = old_tile.hex
        if hex_ is not None and old_tile.color == "yellow" and hex_.id == lev["hex"]:
            return new_tile.name == lev["green"]
        if hex_ is not None and hex_.id in self.tile_blocked:
            return False
        return super().upgrades_to(old_tile, new_tile)

    def upgrade_refused_in_every_rotation(self, old_tile, new_tile) -> bool:
        """Is :meth:`upgrades_to` false for ``new_tile`` (a supply tile) in every rotation,
        by what it reads that does not turn with the tile? Its colour must follow the old
        tile's and its label match the hex's, except on Leverkusen's yellow tile (its own
        upgrade, by name); a blocked hex takes no tile at all."""
        lev = self.data["leverkusen"]
        hex_ = old_tile.hex
        if hex_ is not None and old_tile.color == "yellow" and hex_.id == lev["hex"]:
            return False
        if hex_ is not None and hex_.id in self.tile_blocked:
            return True
        return not (upgrades_to_correct_color(old_tile, new_tile)
                    and upgrades_to_correct_label(old_tile, new_tile, **self.board.upgrade_labels(old_tile)))

    def upgrade_memo_key(self, hex_, old, new):
        return super().upgrade_memo_key(hex_, old, new) + self.upgrade_hex_extra(hex_)

    def upgrade_hex_extra(self, hex_) -> tuple:
        """What 1893's upgrade rule reads of ``hex_`` beside its labels: Leverkusen's yellow tile
        has its own upgrade, and a blocked hex takes none while blocked (their hex and whether it
        is blocked now; nothing elsewhere)."""
        if hex_.id in (self.data["leverkusen"]["hex"], *self.data["tile_block"]):
            return (hex_.id, hex_.id in self.tile_blocked)
        return ()

    def legal_tile_lays(self, entity) -> list[dict]:
        return tilelays.legal_tile_lays(self, entity)

    def rhine_blocks(self, hex_, tile) -> bool:
        """In phase 2 no tile may cross the Rhine at the closed passages (L5, S6)."""
        water = self.closed_rhine_edges(hex_)
        return bool(water & set(tile.exits))

    def closed_rhine_edges(self, hex_) -> frozenset[int]:
        """The edges of ``hex_`` no track may leave by now: its Rhine edges at a closed passage
        (L5, S6) in phase 2; none elsewhere."""
        if self.phase.name != "2" or hex_.id not in self.data["rhine_passage"]:
            return frozenset()
        return frozenset(b.edge for b in self.board.borders(hex_) if b.type == "water")

    def legal_tile_rotation(self, entity, hex_, tile) -> bool:
        return tilelays.rotation_check(self, entity, hex_)(tile)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, entity=None, *, routes=True) -> list[dict]:
        """No action leads where the reference cannot go on: when the next merger round would
        have to form a company the reference cannot form (see ``founding_fails``), no action may
        end the current round (the reference errs on any of them); no action may leave a draft
        pick with nothing the picker may pick (see ``check_draft_dead_end``)."""
        out = super().legal_actions(entity)
        # (whether the round may end first: cheaper, and mostly no; both only read the state)
        doomed = (self.doomed_founding() or None) if self.round_may_end() else None
        every = self.draft_may_follow()
        if doomed or every:
            # with no founding in danger and two players able to pay any card, the kinds of
            # action that move no share and lower at most one player's cash cannot end in
            # either refusal: not tried (see :meth:`draft_cannot_dead_end`)
            spared = self.DRAFT_SAFE_TYPES if doomed is None and self.draft_cannot_dead_end() else ()
            out = [b for b in (a if a["type"] in spared else self.without_failed_founding(a)
                               if every or doomed is True or a.get("train") in (doomed or ()) else a for a in out)
                   if b is not None]
        return out

    #: action types that move no share, certificate or train between holders, put no card
    #: back in the bank's hands and lower at most one player's cash (a pick's forced purchase,
    #: a purchase in the draft, a player's purchase of EVA, which no founding reads), with
    #: whatever follows them automatically up to the next decision
    DRAFT_SAFE_TYPES: ClassVar[frozenset[str]] = frozenset(
        {"lay_tile", "place_token", "run_routes", "dividend", "pass", "bid", "buy_company"})

    def draft_cannot_dead_end(self) -> bool:
        """Can no action of :attr:`DRAFT_SAFE_TYPES` lead to a draft dead end? A dead end
        needs every player's cash under the floor price of every card left to pick. A card to
        pick is one the bank holds now (those actions give the bank none) and its floor price
        is at most half its value (values never change; the draft's discounts only lower the
        price), so two players who can each pay half the value of the bank's dearest card rule
        it out when at most one player's cash falls."""
        bank = self.bank
        half = max((c.value // 2 for c in self.companies if c.owner is bank and not c.closed), default=0)
        rich = 0
        for p in self.players:
            if p.cash >= half:
                rich += 1
                if rich == 2:
                    return True
        return False

    def without_failed_founding(self, action: dict) -> dict | None:
        """``action`` restricted to what does not end the round into a failed founding (None
        if nothing is left). A price range keeps its low end: paying more leaves the operator
        less to buy on with, so the high prices are the ones that end its turn."""
        if "price_range" not in action:
            return None if self.ends_in_failed_founding(action) else action
        lo, hi = action["price_range"]
        step = action.get("price_step") or 1
        if not self.ends_in_failed_founding({**action, "price": hi}):
            return action
        if self.ends_in_failed_founding({**action, "price": lo}):
            return None
        good, bad = lo, hi
        # first guess: paying all but 1M of the operator's own cash leaves it able to buy on
        entity = self.index.resolve(action)
        guess = getattr(entity, "cash", lo) - 1
        if lo <= guess < hi and not self.ends_in_failed_founding({**action, "price": guess}):
            good = guess
            if self.ends_in_failed_founding({**action, "price": guess + step}):
                bad = guess + step
        while bad - good > step:
            mid = good + (bad - good) // (2 * step) * step
            if self.ends_in_failed_founding({**action, "price": mid}):
                bad = mid
            else:
                good = mid
        base = {k: v for k, v in action.items() if k not in ("price", "price_range", "price_step", "canonical_prices")}
        return ranged(base, lo, good, step)

    def doomed_founding(self):
        """True if a company is due to be formed in the next merger round although the
        reference cannot form it; else the ids of the depot trains whose purchase would make
        it due (empty: no such danger)."""
        triggers: set = set()
        for corp, due, event in ((self.agv, self.agv_auto_found, "agv_founded"),
                                 (self.hgk, self.hgk_auto_found, "hgk_founded")):
            if corp.presidents_share.buyable or not self.founding_fails(corp):
                continue
            if due:
                return True
            triggers |= {t.id for t in self.depot.depot_trains() if any(e.get("type") == event for e in t.events)}
        return triggers

    def round_may_end(self) -> bool:
        r = self.round
        if isinstance(r, OperatingRound):
            return all(r.skip_entity(e) for e in r.entities[r.entity_index + 1:])
        if isinstance(r, StockRound):
            return sum(1 for p in r.entities if not p.passed) <= 1
        return False

    def ends_in_failed_founding(self, action: dict) -> bool:
        """Would ``action`` lead where the reference cannot go on (a failed founding or a
        draft dead end)?"""
        act = {k: v for k, v in action.items() if k not in ("price_range", "price_step", "canonical_prices")}
        # a listed action's trial (the listing's own action, priced within its range)
        err = self.trial_error(act)
        return err is not None and err.rule in ("founding-fails-in-reference", "draft-dead-end")

    def draft_may_follow(self) -> bool:
        """Could the next action lead to a pick of the forced draft (the auction round after a
        set of operating rounds, while starting-package cards are left)?"""
        if self.loading or self.hgk.floated():
            return False
        # the round's questions first (asked at every listing, mostly no), the cards left last
        r = self.round
        if isinstance(r, DraftRound):
            near = any(isinstance(s, StartingPackageForcedAuction) for s in r.steps)
        elif isinstance(r, MergerRound):
            near = r.count == 3
        elif isinstance(r, OperatingRound):
            near = r.round_num >= self.operating_rounds_in_set and self.round_may_end()
        else:
            near = False
        return near and bool(self.draftables())

    def check_draft_dead_end(self) -> None:
        """A forced-draft picker with no card he may pick (no cash, and nobody could pay any
        card's floor price) is a dead end: the reference errs on every pick, so the action
        that led there would have to be undone. Refused in play; a log loads as it is."""
        r = self.round
        if self.loading or not isinstance(r, DraftRound):
            return
        step = next((s for s in r.steps if isinstance(s, StartingPackageForcedAuction) and s.active()), None)
        if step is None or step.auctioning is not None:
            return
        picker = step.current_entity()
        if picker is not None and not step.selectable(picker):
            raise GameError(f"{picker.name} would have to pick a card nobody can pay for, with no cash "
                            "(the reference cannot go on there)", rule="draft-dead-end")

    # ------------------------------------------------------------ rounds
    def init_round(self):
        return DraftRound(self, [StartingPackageInitialAuction])

    def new_auction_round(self):
        self.round_counter += 1
        return DraftRound(self, [StartingPackageForcedAuction])

    def stock_round(self):
        return StockRound1893(self, [DiscardTrain1893, BuySellParShares1893])

    def operating_round(self, round_num):
        return OperatingRound1893(self, [Bankrupt1893, DiscardTrain1893, BuyCompany1893, Track1893, Token1893,
                                         Route1893, Dividend1893, BuyTrain1893], round_num=round_num)

    def new_operating_round(self, round_num: int = 1):
        self.passers_first_stock_round = []
        return super().new_operating_round(round_num)

    def new_merger_round(self, count: int):
        self.round_counter += 1
        return MergerRound(self, [PotentialDiscardTrainsAfterMerge, MergerVote], count)

    def operating_order(self) -> list:
        minors = [m for m in self.minors if m.floated() and not m.closed]
        corps = [c for c in self.corporations if c.floated() and not c.closed]
        return minors + sorted(corps, key=self.stock_market.operating_key)

    def next_round(self) -> None:
        r = self.round
        hgk_floated = self.hgk.floated()
        if isinstance(r, MergerRound):
            after = self.after_merger_round
            if after == "or1":
                self.round = self.new_operating_round(1)
            elif after == "or2":
                self.round = self.new_operating_round(2)
            elif after == "sr":
                self.turn += 1
                self.round = self.new_stock_round()
            else:
                self.turn += 1
                self.round = self.new_auction_round()
                self.check_draft_dead_end()
        elif isinstance(r, StockRound):
            self.operating_rounds_in_set = self.phase.operating_rounds
            self.reorder_players()
            if hgk_floated:
                self.round = self.new_operating_round(1)
            else:
                self.after_merger_round = "or1"
                self.round = self.new_merger_round(1)
        elif isinstance(r, OperatingRound):
            self.or_round_finished()
            if hgk_floated and r.round_num < self.operating_rounds_in_set:
                self.round = self.new_operating_round(r.round_num + 1)
            elif r.round_num < self.operating_rounds_in_set:
                self.after_merger_round = "or2"
                self.round = self.new_merger_round(2)
            elif hgk_floated:
                self.turn += 1
                self.round = self.new_stock_round()
            else:
                self.or_set_finished()
                self.after_merger_round = "sr" if not self.draftables() else "auction"
                self.round = self.new_merger_round(3)
        else:
            self.reorder_player_pass_order()
            if sum(1 for c in self.buyable_bank_companies() if not self.bond(c)) <= 1:
                self.round = self.new_stock_round()
            else:
                self.round = self.new_operating_round(1)

    def reorder_player_pass_order(self) -> None:
        if len(self.passers_first_stock_round) < len(self.players):
            self.reorder_players()
            return
        self.players = starting_at(self.players, self.passers_first_stock_round[0])

    def end_now(self, timing) -> bool:
        if timing == "full_or" and isinstance(self.round, OperatingRound):
            return self.round.round_num == self.operating_rounds_in_set
        return super().end_now(timing)

    # ------------------------------------------------------------ trains
    def discount_price(self, new_train, old_train):
        """Price of ``new_train`` (from the depot) with ``old_train`` traded in, or None."""
        disc = (new_train.spec.get("discount") or {}).get(old_train.name)
        if not disc:
            return None
        return new_train.price - disc

    def discountable_trains_for(self, entity) -> list:
        out = []
        cands = [t for t in self.depot.depot_trains() if t.spec.get("discount")]
        for old in entity.trains:
            for new in cands:
                price = self.discount_price(new, old)
                if price is not None and price < new.price:
                    out.append((old, new, price))
        return out

    def min_depot_price(self) -> int:
        """The price of the cheapest depot train (0 when the depot is empty)."""
        trains = self.depot.depot_trains()
        return min(t.price for t in trains) if trains else 0

    def can_buy_from_others(self) -> bool:
        return "can_buy_trains" in self.phase.status
