"""1893's steps: the starting package, stock round rules, merger votes, minors' operations,
train trade-ins and the president's help with a forced train purchase."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from trackage.core.actions import amount

from ...core.entities import ShareBundle
from ...core.errors import GameError
from ...core.money import spend
from ...core.round import Step, ranged
from ...core.shares import action_bundle
from ...core.steps.auction import AuctionMixin
from ...core.steps.buy_company import BuyCompanyMixin
from ...core.steps.buy_train import Purchase
from ...core.steps.emergency import EmergencyBuyTrain
from ...core.steps.operating import DiscardTrain, Dividend, RunRoutes
from ...core.steps.stock import BuySellParShares
from ...core.steps.track import TrackAndTokenStep

if TYPE_CHECKING:
    from ...core.entities import Corporation
    from ...core.market import SharePrice


def _company(game, action):
    c = game.index.company(action.get("company"))
    if c is None:
        raise GameError(f"unknown company {action.get('company')!r}", rule="unknown-entity")
    return c


# ============================================================== starting package
class StartingPackageInitialAuction(AuctionMixin, Step):
    """Players in turn take a private or one of the two lowest minors at its price, or pass
    (and are out of the draft and the first stock round). Ends when one card is left."""

    HANDLERS: ClassVar[dict] = {"bid": "process_bid", "pass": "process_pass"}
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} cannot afford {item}"

    def description(self):
        return "Initial Drafting of Privates/Minors"

    def finished(self) -> bool:
        g = self.game
        return len(g.draftables()) == 1 or len(g.passers_first_stock_round) == len(g.players)

    def active(self):
        return not self.finished()

    def actions(self, entity):
        if self.finished() or entity is not self.current_entity():
            return []
        return ["bid", "pass"]

    def bid_item(self, action, entity):
        company = super().bid_item(action, entity)
        if company not in self.game.draftables():
            raise GameError(f"{company.name} cannot be taken now", rule="company-not-for-sale")
        return company

    def bid_price(self, action, entity, company):
        """A card costs its value (another price in an imported log: a warning)."""
        game = self.game
        price = amount(action, "price", company.value)
        if price != company.value:
            if not game.loading:
                raise GameError(f"{company.name} costs {company.value}, not {price}", rule="wrong-price")
            game.warnings.append(f"action {action.get('id')}: {company.sym} price {price}, ours {company.value}")
        return price

    def check_bid(self, entity, company, price):
        self.check_max_bid(entity, company, price)

    def accept_bid(self, entity, company, price, action):
        self.game.draft_object(company, entity, price)
        self._finalize()

    def process_pass(self, action, entity):
        self.game.passers_first_stock_round.append(entity)
        self._finalize()

    def _finalize(self):
        r = self.round
        for _ in range(len(r.entities) + 1):
            r.next_entity_index()
            if self.finished():
                return
            if r.entities[r.entity_index] not in self.game.passers_first_stock_round:
                return

    def legal_actions(self, entity):
        if "bid" not in self.actions(entity):
            return []
        out = [{"type": "bid", "company": c.sym, "price": c.value}
               for c in self.game.draftables() if c.value <= entity.cash]
        return out + [{"type": "pass"}]


class StartingPackageForcedAuction(AuctionMixin, Step):
    """What is left of the starting package: a player picks a card, then in turn everyone may
    buy it at its price or pass; when all pass its price drops by 10M (down to half its value,
    then the player who picked it must buy it)."""

    HANDLERS: ClassVar[dict] = {"bid": "process_bid", "pass": "process_pass"}
    REDUCTION = 10
    OVER_MAX_MESSAGE: ClassVar[str] = "{entity} cannot afford {item}"

    def setup(self):
        if getattr(self, "_ready", False):
            return
        self._ready = True
        self.auctioning = None
        self.triggerer = None
        self.discount = {}
        self.passed_players: set = set()
        self.green_train_holder = self.game.players[0]

    def description(self):
        return "Drafting Auction for remaining Starting Package Certificates"

    def available(self) -> list:
        return [self.auctioning] if self.auctioning else self.game.draftables()

    def active(self):
        return bool(self.available())

    def blocking(self) -> bool:
        # a picker left with no card he may pick (see selectable) holds the round: the game
        # stops there, as the reference, which errs on any pick, does
        return self.blocks() and self.active()

    def min_bid(self, company) -> int:
        return company.value - self.discount.get(company, 0)

    def actions(self, entity):
        if not self.available() or entity is not self.current_entity():
            return []
        if self.auctioning is None:
            return ["bid"] if self.selectable(entity) else []
        if self.min_bid(self.auctioning) > entity.cash:
            return []
        return ["bid", "pass"]

    def bid_item(self, action, entity):
        company = super().bid_item(action, entity)
        if company not in self.available():
            raise GameError(f"{company.name} is not offered now", rule="company-not-for-sale")
        return company

    def bid_price(self, action, entity, company):
        """A pick names no price; a purchase pays the current price exactly."""
        if self.auctioning is None:
            return self.min_bid(company)
        price = amount(action, "price", self.min_bid(company))
        if price != self.min_bid(company):
            raise GameError(f"{company.name} costs {self.min_bid(company)}, not {price}", rule="wrong-price")
        return price

    def check_bid(self, entity, company, price):
        if self.auctioning is None:
            if not self.game.loading and company not in self.selectable(entity):
                raise GameError(f"nobody could pay for {company.name} and {entity.name} has no cash: the "
                                "forced purchase would be for nothing, which the reference refuses",
                                rule="forced-purchase-for-nothing")
            return
        self.check_max_bid(entity, company, price)

    def accept_bid(self, entity, company, price, action):
        """A pick puts the card up (and may run down to a forced purchase); else a purchase."""
        if self.auctioning is None:
            self.triggerer = entity
            self.auctioning = company
            self.next_entity()  # may run down to a forced purchase
            self.game.check_draft_dead_end()
            return
        self.game.draft_object(company, entity, price)
        self.reset_auction(company)

    def floor_price(self, company) -> int:
        """The price at which the player who picked ``company`` is forced to buy it: the first
        price of the 10M steps from its current price not above half its value."""
        price = self.min_bid(company)
        while company.value // 2 < price:
            price -= self.REDUCTION
        return price

    def selectable(self, entity) -> list:
        """The cards ``entity`` may pick. Cash does not change during the auction, so when
        nobody can pay the floor price the picker is forced to buy for all his cash; with no
        cash the reference errs ("Cannot spend zero or negative money"): such a pick is no
        action here."""
        cards = self.game.draftables()
        if entity.cash > 0:
            return cards
        richest = max(p.cash for p in self.round.entities)
        return [c for c in cards if richest >= self.floor_price(c)]

    def process_pass(self, action, entity):
        if self.auctioning is None:
            raise GameError("choose a card to offer first", rule="no-such-action-now")
        self.passed_players.add(entity)
        if self.all_passed():
            return
        self.next_entity()

    def all_passed(self) -> bool:
        target = self.auctioning
        if target is None:
            return True
        if not all(p in self.passed_players for p in self.round.entities):
            return False
        if target.value // 2 >= self.min_bid(target):
            self.force_purchase(target)
        else:
            self.discount[target] = self.discount.get(target, 0) + self.REDUCTION
            self.passed_players = set()
            self.next_entity()
        return True

    def force_purchase(self, target):
        price = self.min_bid(target)
        ents = self.round.entities
        buyer = self.triggerer
        assert buyer is not None  # a forced purchase follows a pass that triggered it
        if price > buyer.cash:
            i = ents.index(buyer)
            for k in range(1, len(ents)):
                cand = ents[(i + k) % len(ents)]
                if cand.cash >= price:
                    buyer = cand
                    break
            else:
                price = buyer.cash
        self.game.draft_object(target, buyer, price)
        self.reset_auction(target)

    def reset_auction(self, target):
        self.auctioning = None
        self.passed_players = set()
        r = self.round
        if not self.available():
            players = self.game.players
            i = players.index(self.green_train_holder)
            self.game.players = players[i:] + players[:i]
            r.entity_index = 0
        else:
            r.entity_index = r.entities.index(self.triggerer)
            self.triggerer = None
            self.next_entity()

    def next_entity(self):
        r = self.round
        for _ in range(len(r.entities) + 1):
            r.next_entity_index()
            entity = r.entities[r.entity_index]
            if self.auctioning is None:
                return
            if all(p in self.passed_players for p in r.entities):
                self.all_passed()  # lowers the price (and moves on) or forces the purchase
                return
            if entity not in self.passed_players and self.actions(entity):
                return
            self.passed_players.add(entity)  # cannot pay the price: passed over

    def legal_actions(self, entity):
        acts = self.actions(entity)
        if not acts:
            return []
        if self.auctioning is None:
            return [{"type": "bid", "company": c.sym, "price": self.min_bid(c)} for c in self.selectable(entity)]
        return [{"type": "bid", "company": self.auctioning.sym, "price": self.min_bid(self.auctioning)},
                {"type": "pass"}]


# ============================================================== stock round
class BuySellParShares1893(BuyCompanyMixin, BuySellParShares):
    HANDLERS: ClassVar[dict] = {**BuySellParShares.HANDLERS, "assign": "process_assign"}

    def setup(self):
        super().setup()
        self.par_rag = None

    # ---------------------------------------------------------- availability
    def first_sr_passed(self, entity) -> bool:
        return self.game.turn == 1 and entity in self.game.passers_first_stock_round

    def actions(self, entity):
        if entity.is_company:
            return ["buy_shares"] if self.fdsd_can_exchange(entity) else []
        if entity is not self.current_entity() or not entity.is_player:
            return []
        if self.par_rag is not None:
            return ["assign"] if self.must_exchange() else ["assign", "pass"]
        if self.first_sr_passed(entity):
            return []
        # EVA held by another player never makes a stock-round action here: no 1893 phase lets
        # players buy companies from each other (it changes hands in operating rounds only).
        # A player over a limit must sell: no pass unless a company purchase, the FdSD exchange
        # or a bond sale is also open.
        must_sell = self.must_sell(entity)
        out = ["sell_shares"] if must_sell else [
            a for a, ok in (("buy_shares", self.can_buy_any), ("par", self.can_ipo_any),
                            ("sell_shares", self.can_sell_any)) if ok(entity)]
        extra = [a for a, ok in (("buy_company", self.can_buy_any_bank_company), ("buy_shares", self.can_exchange),
                                 ("sell_company", self.can_sell_any_companies)) if ok(entity)]
        out += [a for a in extra if a not in out]
        if extra or (out and not must_sell):
            out.append("pass")
        return out

    def fdsd_can_exchange(self, company) -> bool:
        """FdSD acts for its owner, in the owner's turn, when RAG shares are in the market."""
        game = self.game
        return company is game.fdsd and game.rag.ipoed and company.owner is self.current_entity() \
            and self.can_exchange(company.owner)

    def can_buy_any_companies(self, entity) -> bool:
        return self.can_buy_any_bank_company(entity)

    def can_buy_any_bank_company(self, entity) -> bool:
        if self.first_sr_passed(entity) or self.game.num_certs(entity) >= self.game.cert_limit(entity):
            return False
        return any(self._company_buyable(entity, c) for c in self.game.buyable_bank_companies())

    def _company_buyable(self, entity, company) -> bool:
        if self.first_sr_passed(entity) or self.bought():
            return False
        if self.game.num_certs(entity) >= self.game.cert_limit(entity):
            return False
        if self.game.bond(company) and self.sold_now(entity, "bond"):
            return False
        return entity.cash >= company.value

    def can_sell_any_companies(self, entity) -> bool:
        if self.first_sr_passed(entity) or self.game.turn <= 1 or self.bought():
            return False
        return any(self.game.bond(c) for c in entity.companies)

    def can_buy(self, entity, bundle) -> bool:
        if self.first_sr_passed(entity) or bundle is None:
            return False
        if not self.game.buyable_corp(bundle.corporation):
            return False
        return super().can_buy(entity, bundle)

    def can_sell(self, entity, bundle) -> bool:
        if self.first_sr_passed(entity) or bundle is None or self.game.turn == 1:
            return False
        return super().can_sell(entity, bundle) and self.game.buyable_corp(bundle.corporation)

    def can_exchange(self, player) -> bool:
        game = self.game
        if player is None or not player.is_player or self.first_sr_passed(player) or self.bought():
            return False
        return self.owns_fdsd(player) and game.rag.ipoed and game.pool.percent_of(game.rag) > 0

    def owns_fdsd(self, player) -> bool:
        f = self.game.fdsd
        return f is not None and not f.closed and f.owner is player

    def par_prices(self, entity, corp):
        prices = self.game.par_prices(corp)
        if corp is self.game.rag and self.owns_fdsd(entity):
            return prices
        return [p for p in prices if p.price * 2 <= entity.cash]

    def can_par_corp(self, entity, corp) -> bool:
        if not self.game.can_par(corp, entity) or self.bought():
            return False
        if not self.can_gain(entity, ShareBundle([corp.presidents_share])):
            return False
        return bool(self.par_prices(entity, corp))

    def can_ipo_any(self, entity) -> bool:
        return any(self.can_par_corp(entity, c) for c in self.game.corporations)

    # ---------------------------------------------------------- processing
    def exchange(self, action: dict, entity) -> bool:
        """A company's ``buy_shares`` is FdSD's exchange for RAG shares (:meth:`exchange_for_rag`)."""
        if entity.is_company:
            self.exchange_for_rag(action, entity)
            return True
        return False

    def take_shares(self, entity, bundle: ShareBundle) -> None:
        """The presidency changes hands only when the president's certificate may be bought."""
        self.game.share_market.buy_shares(
            entity, bundle, allow_president_change=bundle.corporation.presidents_share.buyable)

    def after_buy(self, entity, corp) -> None:
        """FdSD, due to close, closes once its owner has bought."""
        super().after_buy(entity, corp)
        game = self.game
        if game.fdsd_to_close and game.fdsd.owner is entity:
            game.close_fdsd()

    def exchange_for_rag(self, action, company):
        game = self.game
        player = company.owner
        if company is not game.fdsd or not self.can_exchange(player) or player is not self.current_entity():
            raise GameError(f"{company.name} cannot be exchanged now", rule="no-exchange")
        rag = game.rag
        bundle = action_bundle(game, action, priced=False)
        if bundle.corporation is not rag or bundle.owner is not game.pool:
            raise GameError(f"{company.name} is exchanged for RAG shares from the market", rule="no-exchange")
        market = list(game.pool.shares_of(rag))
        if len(market) > 1:
            market.sort(key=lambda s: (1 if s.president else 0, s.percent))
            acc, pct = [], 0
            for s in market:
                acc.append(s)
                pct += s.percent
                if pct // rag.share_percent >= 2:
                    break
            if pct // rag.share_percent == 2:
                bundle = ShareBundle(list(acc), pct)
        game.close_fdsd()
        game.share_market.buy_shares(player, bundle, exchange=True)
        self._track(action, player, rag, rag)

    def par_choice(self, action: dict, entity) -> tuple[Corporation, SharePrice]:
        """A price that is unknown or not one of the company's par prices is refused with the
        names (``bad-par-price``)."""
        game = self.game
        corp = game.corporation_by_id(action.get("corporation"))
        if corp is None:
            raise GameError(f"unknown corporation {action.get('corporation')!r}", rule="unknown-entity")
        sp = game.stock_market.by_id(str(action.get("share_price")))
        if sp is None or sp not in game.par_prices(corp):
            raise GameError(f"{action.get('share_price')!r} is not a par price for {corp.name}", rule="bad-par-price")
        return corp, sp

    def check_par(self, entity, corp, share_price) -> None:
        """One purchase per turn and a company that may start (the price is checked in
        :meth:`par_choice`)."""
        game = self.game
        if self.bought():
            raise GameError("only one purchase per turn", rule="one-purchase-per-turn")
        if not game.can_par(corp, entity):
            raise GameError(f"{corp.name} cannot be parred", rule="cannot-par")

    def defer_par(self, entity, corp, share_price, action: dict) -> bool:
        """The owner of FdSD parring RAG chooses next whether FdSD pays for the director's
        certificate (``assign``, or ``pass`` to pay himself); one who cannot pay assigns."""
        if corp is not self.game.rag or not self.owns_fdsd(entity):
            return False
        self.par_rag = {"action": action, "corp": corp, "price": share_price, "player": entity}
        if entity.cash < share_price.price * 2:
            self.process_assign(None, entity)
        return True

    def check_par_purchase(self, entity, corp, share_price, bundle: ShareBundle) -> None:
        """Cash (the cost of the director's certificate) and the certificate limit only."""
        cost = share_price.price * corp.presidents_percent // corp.share_percent
        if entity.cash < cost:
            raise GameError(f"{entity.name} cannot afford {cost} for {corp.name}", rule="insufficient-cash")
        if not self.can_gain(entity, bundle):
            raise GameError("over the certificate limit", rule="certificate-limit")

    def after_start(self, entity, corp) -> None:
        """Its buyable shares go to the market; a par FdSD waited for is done."""
        super().after_start(entity, corp)
        self.game.move_buyable_shares_to_market(corp)
        self.par_rag = None

    def must_exchange(self) -> bool:
        """In the first stock round a parred RAG must be paid for with FdSD: the reference
        records the declining player as a first-round passer, and then refuses the par
        ("Cannot buy a share of RAG")."""
        return self.game.turn == 1

    def process_assign(self, action, entity):
        pr = self.par_rag
        if pr is None or pr["player"] is not entity:
            raise GameError("nothing to exchange", rule="no-such-action-now")
        game = self.game
        if action is not None and action.get("target") not in (None, game.fdsd.sym):
            raise GameError(f"only {game.fdsd.name} pays for the par of RAG", rule="bad-target")
        game.close_fdsd()
        spend(game.bank, entity, pr["price"].price * 2)
        self.par_corporation(entity, pr["corp"], pr["price"], pr["action"])

    def company_price(self, entity, company, action: dict) -> int:
        """A bank card at its value, once a turn, within the certificate limit (EVA from a
        player only while replaying, see ``eva_price``)."""
        game = self.game
        company = _company(game, action)
        if company is game.eva and company.owner is not game.bank and company.owner is not entity:
            if not game.loading:
                raise GameError("EVA changes hands between players only in operating rounds",
                                rule="no-company-from-player-in-stock-round")
            return self.eva_price(action, entity)
        if company not in game.buyable_bank_companies():
            raise GameError(f"{company.name} cannot be bought from the bank now", rule="company-not-for-sale")
        if not self._company_buyable(entity, company):
            rule = "one-purchase-per-turn" if self.bought() else "insufficient-cash"
            if game.bond(company) and self.sold_now(entity, "bond"):
                rule = "no-buy-after-sell"
            raise GameError(f"{entity.name} cannot buy {company.name} now", rule=rule)
        if game.num_certs(entity) >= game.cert_limit(entity):
            raise GameError("over the certificate limit", rule="certificate-limit")
        price = amount(action, "price", company.value)
        if price != company.value:
            raise GameError(f"{company.name} costs {company.value}, not {price}", rule="wrong-price")
        return price

    def eva_price(self, action, entity) -> int:
        """EVA taken from another player in a stock round, accepted only in a log. The
        reference lets such an action through whenever the player has another stock-round
        action, and handles it like a starting-package card: the price goes to the bank."""
        if self.bought():
            raise GameError("only one purchase per turn", rule="one-purchase-per-turn")
        if self.game.num_certs(entity) >= self.game.cert_limit(entity):
            raise GameError("over the certificate limit", rule="certificate-limit")
        price = amount(action, "price", 0)
        if not 1 <= price <= entity.cash:
            raise GameError(f"EVA's price must be between 1 and {entity.cash}", rule="wrong-price")
        return price

    def transfer_company(self, buyer, company, price: int) -> None:
        """Bought like a starting-package card (a minor's card floats the minor)."""
        self.game.draft_object(company, buyer, price)

    def after_company_purchase(self, entity, company, action: dict) -> None:
        self._track(action, entity, company)

    def process_sell_company(self, action, entity):
        game = self.game
        company = _company(game, action)
        if company.owner is not entity:
            raise GameError(f"{entity.name} does not own {company.sym}", rule="not-owner")
        if not game.bond(company):
            raise GameError(f"{company.name} cannot be sold", rule="illegal-sale")
        if not self.can_sell_any_companies(entity):
            raise GameError(f"{entity.name} cannot sell {company.name} now", rule="illegal-sale")
        price = amount(action, "price", company.value)
        if price != company.value:
            raise GameError(f"{company.name} sells for {company.value}, not {price}", rule="wrong-price")
        spend(game.bank, entity, price)
        company.owner = game.bank
        entity.companies.remove(company)
        self.round.players_sold.setdefault(entity, {})["bond"] = "now"
        self.round.last_to_act = entity
        self.round.current_actions.append({"type": "sell_company", "_corp": None})

    def why_not(self, action, entity) -> None:
        """Name the rule a refused stock-round action breaks (raises when it knows)."""
        if action.get("type") == "pass" and self.par_rag is not None and self.must_exchange():
            raise GameError("in the first stock round RAG's par must be paid with FdSD", rule="must-exchange-fdsd")
        if action.get("type") != "sell_shares" or not entity.is_player:
            return
        bundle = action_bundle(self.game, action)
        if self.game.turn == 1:
            raise GameError("no shares may be sold in the first stock round", rule="no-sale-first-stock-round")
        if not bundle.corporation.operated():
            raise GameError(f"{bundle.corporation.name} has not operated yet; its shares cannot be sold",
                            rule="no-sale-before-operating")

    def why_not_sell(self, entity, bundle) -> str:
        if self.game.turn == 1:
            return "no-sale-first-stock-round"
        if not bundle.corporation.operated():
            return "no-sale-before-operating"
        return "illegal-sale"

    def check_pass(self, entity) -> None:
        """In the first stock round RAG's par must be paid with FdSD; FdSD itself never passes
        (the reference would end its owner's turn: FdSD only offers its exchange)."""
        if self.par_rag is not None:
            if self.must_exchange():
                raise GameError("in the first stock round RAG's par must be paid with FdSD",
                                rule="must-exchange-fdsd")
        elif entity.is_company:
            raise GameError(f"{entity.name} cannot pass; its owner passes", rule="no-such-action-now")

    def passing(self, entity) -> None:
        """Declining FdSD's payment for RAG's par: the player pays it himself. Otherwise a pass
        in the first stock round is remembered (see ``passers_first_stock_round``)."""
        game = self.game
        if self.par_rag is not None:
            pr = self.par_rag
            self.par_corporation(entity, pr["corp"], pr["price"], pr["action"])
            return
        if game.turn == 1 and entity not in game.passers_first_stock_round:
            game.passers_first_stock_round.append(entity)
        self.pass_()

    def legal_actions(self, entity):
        out = []
        acts = self.actions(entity)
        if self.par_rag is not None:
            assign = {"type": "assign", "target": self.game.fdsd.sym, "target_type": "company"}
            return [assign] + ([{"type": "pass"}] if "pass" in acts else [])
        if entity.is_company:
            return self.exchange_actions(entity) if acts else []
        base = super().legal_actions(entity)
        rag = self.game.rag
        if "par" in acts and self.owns_fdsd(entity) and self.can_par_corp(entity, rag):
            for p in self.par_prices(entity, rag):  # FdSD pays for the director's certificate
                a = {"type": "par", "corporation": rag.id, "share_price": p.id}
                if a not in base:
                    base.insert(0, a)
        for a in base:
            if a["type"] == "buy_company":
                continue
            if a["type"] == "sell_company" and not self.game.bond(self.game.index.company(a["company"])):
                continue
            out.append(a)
        if "buy_company" in acts:
            extra = [{"type": "buy_company", "company": c.sym, "price": c.value}
                     for c in self.game.buyable_bank_companies() if self._company_buyable(entity, c)]
            out = [a for a in out if a["type"] != "pass"] + extra + [a for a in out if a["type"] == "pass"]
        return out

    def exchange_actions(self, company) -> list:
        """FdSD's exchange, naming the first RAG share of the market (two are taken when the
        market holds more than one)."""
        shares = sorted(self.game.pool.shares_of(self.game.rag), key=lambda s: s.index)
        if not shares:
            return []
        return [{"type": "buy_shares", "shares": [shares[0].id], "percent": shares[0].percent}]


# ============================================================== merger round
class MergerVote(Step):
    """Holders of the exchange certificates and of bought shares vote on forming the company."""

    HANDLERS: ClassVar[dict] = {"special_buy": "process_special_buy"}

    def active(self):
        return bool(self.round.offering)

    def description(self):
        target = self.round.merge_target
        return f"Merge of {target.name}" if target else "Merge"

    def current_entity(self):
        r = self.round
        if not r.entities or r.entity_index >= len(r.entities):
            return None
        return r.entities[r.entity_index]

    def actions(self, entity):
        if not self.active() or entity is not self.current_entity():
            return []
        if not self.round.has_say(entity):
            return []
        return ["special_buy"]

    def skip(self):
        if self.active():
            self.round.next_voter()

    def why_not(self, action, entity) -> None:
        if action.get("type") == "special_buy" and entity.is_player \
                and not self.round.has_say(entity):
            target = self.round.merge_target
            raise GameError(f"{entity.name} holds nothing of {target.name if target else 'the merger'} and "
                            "has no vote", rule="no-say-in-merger")

    def process_special_buy(self, action, entity):
        choice = action.get("description")
        if choice not in ("yes", "no"):
            raise GameError("a merger vote is 'yes' or 'no'", rule="bad-vote")
        if (amount(action, "cost", 0) or 0) != 0:
            raise GameError("a vote costs nothing", rule="bad-vote")
        self.round.handle_vote(entity, choice)
        if self.round.offering:
            self.round.next_voter()
            for _ in range(len(self.round.entities)):
                if self.round.has_say(self.current_entity()):
                    break
                self.round.next_voter()

    def founds(self, player) -> bool:
        """Would ``player``'s yes form the company now?"""
        r = self.round
        return r.yes + r.votes.get(player, 0) >= 50

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        choices = ["yes", "no"]
        if self.founds(entity) and self.game.founding_fails(self.round.merge_target):
            choices = ["no"]  # the reference fails to form it (see Game1893.founding_fails)
        return [{"type": "special_buy", "description": d, "cost": 0} for d in choices]


class PotentialDiscardTrainsAfterMerge(DiscardTrain):
    """The president of a newly formed company may discard any of its trains."""

    HANDLERS: ClassVar[dict] = {"discard_train": "process_discard_train", "pass": "process_pass"}

    def description(self):
        return "Optional Discard of Any Trains"

    def current_entity(self):
        p = self.game.potential_discard_trains
        return p[0] if p else None

    def active(self):
        return bool(self.game.potential_discard_trains)

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if len(entity.trains) > self.game.train_limit(entity):
            return ["discard_train"]
        return ["discard_train", "pass"]

    def discard(self, entity, train) -> None:
        """Once the company has no train left its president is done."""
        super().discard(entity, train)
        if not entity.trains:
            self.game.potential_discard_trains.pop(0)

    def process_pass(self, action, entity):
        if len(entity.trains) > self.game.train_limit(entity):
            raise GameError(f"{entity.name} exceeds its train limit", rule="train-limit")
        self.game.potential_discard_trains.pop(0)

    def legal_actions(self, entity):
        out = super().legal_actions(entity)
        if "pass" in self.actions(entity):
            out.append({"type": "pass"})
        return out


# ============================================================== operating round
class Bankrupt1893(Step):
    """A president whose company must buy a train and who cannot raise the cheapest depot
    train's price (cash, the shares the train step would let him sell, and 100M per city bond,
    counted as the reference counts them) goes bankrupt: what he can sell is sold, his cash
    goes to the bank and the game ends."""

    HANDLERS: ClassVar[dict] = {"bankrupt": "process_bankrupt"}
    BLOCKS = False

    def actions(self, entity):
        return ["bankrupt"] if entity is self.current_entity() and not entity.is_company else []

    def train_step(self):
        """The train step when it is the step in charge; the reference sells (and counts as
        sellable) only through the step in charge, and no other operating step sells."""
        step = self.round.active_step()
        return step if isinstance(step, BuyTrain1893) else None

    def liquidity(self, player) -> int:
        game = self.game
        best: dict = {}
        buy = self.train_step()
        for b in (buy.sellable_bundles(player) if buy is not None else []):
            best[b.corporation] = max(best.get(b.corporation, 0), b.price())
        return player.cash + sum(best.values()) + 100 * sum(1 for c in player.companies if game.bond(c))

    def can_go_bankrupt(self, operator) -> bool:
        player = operator.owner
        if player is None or not player.is_player:
            return False
        cheapest = self.game.min_depot_price()
        return cheapest > 0 and self.liquidity(player) + operator.cash < cheapest

    def forced(self, operator) -> bool:
        """In play, bankruptcy is for a company that must buy a train, at its train step."""
        buy = self.train_step()
        return buy is not None and buy.operator() is operator and self.game.must_buy_train(operator)

    def process_bankrupt(self, action, entity):
        game = self.game
        if not game.loading and not self.forced(entity):
            raise GameError(f"{entity.name} is not obliged to buy a train now", rule="not-bankrupt")
        if not self.can_go_bankrupt(entity):
            raise GameError(f"{entity.name} and its president can still pay for the cheapest train",
                            rule="not-bankrupt")
        player = entity.owner
        buy = self.train_step()
        for corp in sorted({s.corporation for s in player.all_shares()}, key=game.stock_market.operating_key):
            if corp.share_price is None or buy is None:
                continue
            while True:
                bundles = [b for b in game.share_market.bundles_for(player, corp) if buy.can_emergency_sell(player, b)]
                if not bundles:
                    break
                game.sell_shares_and_change_price(max(bundles, key=lambda b: b.price()))
        if player.cash > 0:
            spend(player, game.bank, player.cash)
        player.bankrupt = True

    def legal_actions(self, entity):
        if self.actions(entity) and self.forced(entity) and self.can_go_bankrupt(entity):
            return [{"type": "bankrupt"}]
        return []


class BuyCompany1893(BuyCompanyMixin, Step):
    """In an operating round EVA may change hands between players at any moment: the acting
    operator's president or any other player buys it from its owner, at any price from 1 to
    the buyer's cash, paid to the owner (as the reference allows)."""

    HANDLERS: ClassVar[dict] = {"buy_company": "process_buy_company"}
    BLOCKS = False

    def buyer(self, entity):
        """Who pays: a player for himself, the current operator's president for it."""
        if entity.is_player:
            return None if entity.bankrupt else entity
        if entity is self.current_entity() and not entity.is_company:
            return entity.player
        return None

    def actions(self, entity):
        player = self.buyer(entity)
        if player is None or player.cash < 1 or not self.game.purchasable_companies(player):
            return []
        return ["buy_company"]

    def company_buyer(self, entity):
        return self.buyer(entity)

    def company_price(self, entity, company, action: dict) -> int:
        """EVA from its owner, at any price from 1 to the buyer's cash."""
        company = _company(self.game, action)
        player = self.buyer(entity)
        if company not in self.game.purchasable_companies(player):
            raise GameError(f"{company.name} cannot be bought", rule="company-not-for-sale")
        price = amount(action, "price", 0)
        if not 1 <= price <= player.cash:
            raise GameError(f"the price must be between 1 and {player.cash}", rule="wrong-price")
        return price

    def legal_actions(self, entity):
        if not self.actions(entity):
            return []
        p = self.buyer(entity)
        return [{"type": "buy_company", "company": c.sym, "price": 1, "price_range": [1, p.cash]}
                for c in self.game.purchasable_companies(p)]


class Track1893(TrackAndTokenStep):
    """One yellow lay or one upgrade; the Rhine may not be crossed at L5/S6 in phase 2."""

    HANDLERS: ClassVar[dict] = {"lay_tile": "process_lay_tile", "pass": "process_pass"}
    WITH_TOKEN = False

    def description(self):
        return "Lay Track"

    def check_lay(self, entity, hex_, old_tile, tile, rotation) -> None:
        if hex_.id in self.game.tile_blocked:
            raise GameError(f"no tile may be placed in {hex_.id} before the first 3-train", rule="tile-blocked")
        # like every rotation rule, checked in play but not while replaying a log (as the reference)
        if not self.game.loading and self.game.rhine_blocks(hex_, tile):
            raise GameError(f"the Rhine cannot be crossed at {hex_.id} before the first 3-train",
                            rule="rhine-impassable")


class Token1893(TrackAndTokenStep):
    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass"}

    def description(self):
        return "Place a Token"

    def setup(self):
        self.round.tokened = False

    def can_lay_tile(self, entity) -> bool:
        return False

    def prepare_token(self, entity, city, token, action: dict) -> None:
        """The token takes the city's next free slot; in play a client naming another slot is
        told so (the reference, and a log, ignore the slot)."""
        slot = action.get("slot")
        if slot is not None and not self.game.loading:
            expected = self.game.board.get_slot(city, entity) or 0
            if int(slot) != expected:
                raise GameError(f"a token in {city.id} takes slot {expected}, not {slot}", rule="wrong-slot")


class Route1893(RunRoutes):
    def actions(self, entity):
        if entity is not self.current_entity() or entity.is_company:
            return []
        if not self.game.route_trains(entity) or not self.game.can_run_route(entity):
            return []
        return ["run_routes"]


class Dividend1893(Dividend):
    """Minors pay half to their owner and keep half; market shares pay nobody."""

    def actions(self, entity):
        if entity.is_minor:
            return []
        return super().actions(entity)

    def skip(self):
        entity = self.current_entity()
        if entity.is_minor:
            if not self.round.routes:
                self.pass_()
                return
            self.do_dividend(entity, "payout" if self.total_revenue() > 0 else "withhold")
            return
        super().skip()

    def payout_amounts(self, entity, kind, revenue):
        if entity.is_minor:
            if kind == "withhold":
                return revenue, 0
            half = revenue // 2
            return half, (revenue - half if half > 0 else 0)
        return super().payout_amounts(entity, kind, revenue)

    def pay_shareholders(self, entity, amount):
        if entity.is_minor:
            spend(self.game.bank, entity.owner, amount)
            return
        super().pay_shareholders(entity, amount)

    def corporation_dividends(self, entity, per_share):
        return 0


class BuyTrain1893(EmergencyBuyTrain):
    """Minors buy trains too; one train may be traded in per operating round for a discount;
    a company that must buy a train gets the rest from its president (who may sell shares
    first, never more than needed); a trainless minor's owner pays what its train lacks.

    Prices between companies follow the reference: up to the buyer's cash; for a company that
    must buy and cannot pay the face value itself, up to the face value with its president's
    cash, and, once the president has sold shares, at least what makes that sale necessary."""

    def round_state(self):
        return {"exchanged_by": []}

    def setup(self):
        self.last_sold_price = None

    def pass_(self):
        self.last_sold_price = None
        super().pass_()

    def operator(self):
        return super().current_entity()

    def active_entities(self) -> list:
        op = self.operator()
        if op is None:
            return []
        if self.must_buy(op) and op.owner is not None and self.actions(op.owner):
            return [op, op.owner]
        return [op]

    def exchange_allowed(self, entity) -> bool:
        return entity not in self.round.exchanged_by

    def can_buy_train(self, entity) -> bool:
        lo = self.game.depot.min_price(entity)
        if self.room(entity) and lo is not None and entity.cash >= lo:
            return True
        return self.exchange_allowed(entity) and any(
            entity.cash >= price for _, _, price in self.game.discountable_trains_for(entity))

    def must_buy(self, entity) -> bool:
        return self.game.must_buy_train(entity)

    def actions(self, entity):
        op = self.operator()
        if op is None:
            return []
        if entity is not op:
            if entity is op.owner and entity.is_player and self.must_buy(op) \
                    and self.sellable_bundles(entity):
                return ["sell_shares"]
            return []
        if self.must_buy(entity):
            return ["buy_train"]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    # ---------------------------------------------------------- the president's emergency sales
    def cheapest_depot_train(self):
        trains = self.game.depot.depot_trains()
        return min(trains, key=lambda t: t.price) if trains else None

    def emergency_buyer(self):
        return self.operator()

    def emergency_price(self) -> int:
        return self.game.min_depot_price()

    def before_emergency_sale(self, player, bundle) -> None:
        self.last_sold_price = bundle.price_per_share()

    # ---------------------------------------------------------- what may be bought, and for how much
    def buyable_trains(self, entity) -> list:
        depot = list(self.game.depot.depot_trains())
        others = []
        if self.game.can_buy_from_others():
            others = [t for t in self.game.depot.other_trains(entity)
                      if not (entity.is_corporation and t.owner.is_minor)]
        return depot + others

    def owner_help(self, entity) -> int:
        """Cash the operator's owner adds to a purchase: all of it for a company that must
        buy and for a trainless minor; nothing otherwise."""
        owner = entity.owner
        if owner is None or not owner.is_player:
            return 0
        if entity.is_minor:
            return owner.cash if not entity.trains else 0
        return owner.cash if self.must_buy(entity) else 0

    def other_price_range(self, entity, train):
        """(lowest, highest) price ``entity`` may pay for another operator's ``train``, or None.

        The reference's bounds: when the buyer's cash is below the train's face value, at most
        that face value, and, after its president has sold shares this turn, at least its cash
        plus his, less the price of one sold share, plus 1; what it pays beyond its own cash
        comes from its president (a company that must buy) or owner (a trainless minor)."""
        cash = entity.cash
        owner = entity.owner
        owner_cash = owner.cash if owner is not None and owner.is_player else 0
        hi = cash + self.owner_help(entity)
        if entity.is_minor:
            return (1, hi) if hi >= 1 else None
        if cash >= train.price:
            return (1, cash) if cash >= 1 else None
        lo = cash + owner_cash - self.last_sold_price + 1 if self.last_sold_price else 1
        lo, hi = max(lo, 1), min(train.price, hi)
        return (lo, hi) if lo <= hi else None

    def depot_train_affordable(self, entity, train) -> bool:
        if train.price <= entity.cash:
            return True
        if train.price > entity.cash + self.owner_help(entity):
            return False
        if entity.is_minor:
            return True
        cheapest = self.cheapest_depot_train()
        return cheapest is not None and train.name == cheapest.name

    def traded_in(self, action: dict, entity, train):
        """The one train (an id, or a list of at most one) traded in; a company's own train is
        never for sale to it (checked first)."""
        if train.owner is entity:
            raise GameError("a company cannot buy its own train", rule="train-not-available")
        traded = action.get("exchange")
        if isinstance(traded, list):
            if len(traded) > 1:
                raise GameError("only one train may be traded in for a new one", rule="one-trade-in-per-purchase")
            traded = traded[0] if traded else None
        if not traded:
            return None
        exchange = self.game.depot.train_by_id(traded)
        if exchange is None or exchange.owner is not entity:
            raise GameError(f"{entity.name} does not own train {traded!r}", rule="not-owner")
        return exchange

    def default_price(self, train) -> int:
        """No price named: the listed one for a depot train, nothing for another's."""
        return train.price if train.owner is self.game.depot else 0

    def check_buy(self, entity, train, price: int, purchase: Purchase | None = None) -> None:
        """A trade-in, a depot purchase and a purchase from another operator each have their
        own checks."""
        exchange = purchase.exchange if purchase is not None else None
        if exchange is not None:
            self.check_trade_in(entity, train, exchange, price)
        elif train.owner is self.game.depot:
            self.check_depot_buy(entity, train, price)
        else:
            self.check_other_buy(entity, train, price)

    def trade_in(self, entity, purchase: Purchase) -> None:
        """The train traded in is discarded (to the depot), once per operating round."""
        self.game.discard_train(purchase.exchange)
        self.round.exchanged_by.append(entity)

    def top_up(self, entity, purchase: Purchase) -> None:
        """The owner pays what the operator lacks (see :meth:`assist`)."""
        self.assist(entity, purchase.price)

    def check_price(self, train, price, expected) -> None:
        if price == expected:
            return
        if not self.game.loading:
            raise GameError(f"train {train.id} costs {expected}, not {price}", rule="wrong-price")
        self.game.warnings.append(f"train {train.id} price {price}, ours {expected}")

    def check_trade_in(self, entity, train, exchange, price) -> None:
        game = self.game
        if not self.exchange_allowed(entity):
            raise GameError(f"{entity.name} has already traded a train in this turn", rule="one-trade-in-per-turn")
        expected = game.discount_price(train, exchange)
        if train not in game.depot.depot_trains() or expected is None:
            raise GameError(f"a {exchange.name} train cannot be traded in for train {train.id}", rule="no-trade-in")
        self.check_price(train, price, expected)
        if price > entity.cash:
            raise GameError("no contribution to a purchase with a trade-in", rule="no-assist-with-trade-in")

    def check_depot_buy(self, entity, train, price) -> None:
        self.check_available(train)
        self.check_room(entity)
        self.check_price(train, price, train.price)
        if price > entity.cash + self.owner_help(entity):
            raise GameError(f"{entity.name} cannot raise {price} for train {train.id}", rule="insufficient-cash")
        if not self.depot_train_affordable(entity, train):
            raise GameError("with the president's help only the cheapest depot train may be bought",
                            rule="must-buy-cheapest")

    def check_other_buy(self, entity, train, price) -> None:
        if train not in self.buyable_trains(entity):
            raise GameError(f"train {train.id} is not for sale to {entity.name}", rule="train-not-available")
        self.check_room(entity)
        rng = self.other_price_range(entity, train)
        if rng is None or not rng[0] <= price <= rng[1]:
            raise GameError(f"{entity.name} may pay between {rng[0]} and {rng[1]} for train {train.id}"
                            if rng else f"{entity.name} cannot pay for train {train.id}", rule="wrong-price")

    def assist(self, entity, price) -> None:
        """The owner pays what the operator lacks (checked allowed before)."""
        need = price - entity.cash
        if need <= 0:
            return
        player = entity.owner
        if entity.is_minor:
            spend(player, self.game.bank, need)
            spend(self.game.bank, entity, need)
        else:
            spend(player, entity, need)

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "sell_shares" in acts:
            out += self.emergency_sell_actions(entity)
        if "buy_train" in acts:
            room = self.room(entity)
            for t in self.buyable_trains(entity):
                if not room:
                    break
                if t.owner is self.game.depot:
                    if self.depot_train_affordable(entity, t):
                        out.append({"type": "buy_train", "train": t.id, "price": t.price, "variant": t.name})
                    continue
                rng = self.other_price_range(entity, t)
                if rng is not None:
                    out.append(ranged({"type": "buy_train", "train": t.id}, rng[0], rng[1]))
            if self.exchange_allowed(entity):
                for old, new, price in self.game.discountable_trains_for(entity):
                    if price <= entity.cash:
                        out.append({"type": "buy_train", "train": new.id, "price": price, "variant": new.name,
                                    "exchange": old.id})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out
