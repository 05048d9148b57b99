"""t1893 steps: stock."""

from __future__ import annotations

from typing import ClassVar

from trackage.core.actions import amount

from ....core.entities import ShareBundle
from ....core.errors import GameError
from ....core.money import pay
from ....core.shares import action_bundle
from ....core.steps.buy_company import BuyCompanyMixin
from ....core.steps.stock import BuySellParShares
from .auction import _company


# ============================================================== stock round
class BuySellParShares1893(BuyCompanyMixin, BuySellParShares):
    HANDLERS: ClassVar[dict] = {**BuySellParShares.HANDLERS, "assign": "process_assign"}
    PAR_PRICE_FIRST = True
    ASK_ORDER = ("par", "buy_company", "sell_company", "buy_shares", "sell_shares")  # a sale's check is dear
    PAR_CHECKS_START = False  # a par's purchase: cash and the certificate limit only
    UNTRACKED = frozenset({"buy_company", "sell_company"})  # programs do not see the bank's cards change hands
    LISTING = ("buy_shares", "par", "sell_shares", "sell_company", "buy_company", "pass")  # bank cards last
    # one forced to sell may sell (this class's :meth:`can_sell_any_of` of a corporation over a
    # limit bars no sale its :meth:`can_sell_any` allows), the kinds it adds are open forced or
    # not, and no pass stands alone: "any kind?" is asked as if not forced
    FORCE_FREE_KINDS = True

    def setup(self):
        super().setup()
        self.par_rag = None

    def program_from_market(self, prog) -> bool:
        """A parred company's unsold shares are all in the market: programs buy there."""
        return True

    # ---------------------------------------------------------- availability
    def first_sr_passed(self, entity) -> bool:
        return self.game.turn == 1 and entity in self.game.passers_first_stock_round

    def actions(self, entity):
        if entity.is_company:
            return ["buy_shares"] if self.fdsd_can_exchange(entity) else []
        if entity is not self.current_entity() or not entity.is_player:
            return []
        if self.par_rag is not None:
            return ["assign"] if self.game.turn == 1 else ["assign", "pass"]
        return [] if self.first_sr_passed(entity) else super().actions(entity)

    def _plain_turn(self, entity) -> bool:
        """Whether :meth:`actions` is the base's list for ``entity`` (the player in turn,
        neither assigning RAG's par nor out of the first stock round)."""
        return (not entity.is_company and entity.is_player and self.par_rag is None
                and entity is self.current_entity() and not self.first_sr_passed(entity))

    def has_actions(self, entity) -> bool:
        """:meth:`actions`' truth: in a plain turn the base's (the first kind allowed, as this
        :meth:`may_pass` lists no pass alone), else the short list itself."""
        if self._plain_turn(entity):
            return super().has_actions(entity)
        return bool(self.actions(entity))

    def answers(self, entity, atype: str) -> tuple[bool, bool]:
        """In a plain turn the base's (from the one kind asked where it can), else the list."""
        if self._plain_turn(entity):
            return super().answers(entity, atype)
        acts = self.actions(entity)
        return atype in acts, bool(acts)

    def accepts(self, entity, atype: str) -> bool:
        if self._plain_turn(entity):
            return super().accepts(entity, atype)
        return atype in self.actions(entity)

    KINDS = ("buy_shares", "par", "sell_shares", "buy_company", "sell_company")

    def allows(self, kind, entity, forced) -> bool:
        """Even to one forced to sell: a bank card (EVA held by another player changes hands in
        operating rounds only), the FdSD exchange, a bond sale."""
        if kind == "buy_company":
            return self.can_buy_any_companies(entity)
        return (kind == "buy_shares" and self.can_exchange(entity)) or super().allows(kind, entity, forced)

    def may_pass(self, kinds, forced) -> bool:
        """One forced to sell passes only when something besides the sale is open."""
        return len(kinds) > (1 if forced else 0)

    def fdsd_can_exchange(self, company) -> bool:
        """FdSD acts for its owner, in the owner's turn, when RAG shares are in the market."""
        return company is self.game.fdsd and company.owner is self.current_entity() and self.can_exchange(company.owner)

    def may_sell_company(self, entity, company) -> bool:
        """Only bonds are sold, from the second stock round, before buying."""
        return not (self.game.turn <= 1 or self.bought()) and self.game.bond(company)

    def sale_key(self, company):
        """Selling a bond bars buying any bond this round."""
        return "bond" if self.game.bond(company) else company

    def may_buy_from(self, entity, corp) -> bool:
        """Only companies the game lets be bought."""
        return self.game.buyable_corp(corp)

    def can_sell(self, entity, bundle) -> bool:
        return not (bundle is None or self.game.turn == 1) and super().can_sell(
            entity, bundle) and self.game.buyable_corp(bundle.corporation)

    def can_sell_any(self, entity) -> bool:
        """The base's, with what refuses every bundle looked at before any bundle is built:
        :meth:`can_sell` refuses every sale in the first stock round, and the base's
        :meth:`can_sell` refuses every bundle when the turn's order bars selling (the same
        answer: those checks read no bundle)."""
        if self.game.turn == 1:
            return False
        held = entity.held_corporations()
        if not held or not self.can_sell_order():
            return False
        return any(self.can_sell_any_of(entity, c) for c in self.game.corporations if c.id in held)

    def can_sell_any_of(self, entity, corp) -> bool:
        """The base's, none of ``corp``'s bundles built where :meth:`can_sell` refuses them all:
        the first stock round, a company whose shares may not be bought yet, the base's bars
        of the turn's last purchase and of a second sale (the same answer); then the base's
        question without bundles (the game's sale timing reads only the corporation)."""
        if self.game.turn == 1 or not self.game.buyable_corp(corp) or self.just_bought(corp) or (
                self.ONE_SALE_PER_TURN and self.sold_now(entity, corp) == "now"):
            return False
        # (past those, :meth:`can_sell` is the base's for every bundle of ``corp``: its own
        # refusals read only the turn and the corporation)
        return self.base_can_sell_any_of(entity, corp)

    def can_exchange(self, player) -> bool:
        game = self.game
        return not (player is None or not player.is_player or self.first_sr_passed(player) or self.bought()) \
            and self.owns_fdsd(player) and game.rag.ipoed and game.pool.percent_of(game.rag) > 0

    def owns_fdsd(self, player) -> bool:
        f = self.game.fdsd
        return f is not None and not f.closed and f.owner is player

    def par_prices(self, entity, corp):
        fdsd_pays = corp is self.game.rag and self.owns_fdsd(entity)
        return [p for p in self.game.par_prices(corp) if fdsd_pays or p.price * 2 <= entity.cash]

    def can_par_corp(self, entity, corp) -> bool:
        return not self.bought() and super().can_par_corp(entity, corp)

    def can_ipo_any(self, entity) -> bool:
        """Whether :meth:`can_par_corp` allows any corporation; where it is this class's own,
        "a purchase made this turn?" (which reads no corporation) asked once, then the base's
        question for each in a plain loop (the same answer)."""
        if type(self).can_par_corp is not BuySellParShares1893.can_par_corp:
            return any(self.can_par_corp(entity, c) for c in self.game.corporations)
        corps = self.game.corporations
        if not corps or self.bought():
            return False
        base = super().can_par_corp
        for c in corps:
            if base(entity, c):
                return True
        return False

    # ---------------------------------------------------------- processing
    def exchange(self, action: dict, entity) -> bool:
        """A company's ``buy_shares`` is FdSD's exchange for RAG shares from the market (offered
        only when :meth:`fdsd_can_exchange`): two shares' worth when the market has more than one."""
        if not entity.is_company:
            return False
        game = self.game
        player, rag = entity.owner, game.rag
        bundle = action_bundle(game, action, priced=False)
        if bundle.corporation is not rag or bundle.owner is not game.pool:
            raise GameError(f"{entity.name} is exchanged for RAG shares from the market", rule="no-exchange")
        market = sorted(game.pool.shares_of(rag), key=lambda s: (1 if s.president else 0, s.percent))
        for n in range(1, len(market) + 1):
            pct = sum(s.percent for s in market[:n])
            if len(market) > 1 and pct // rag.share_percent >= 2:
                bundle = ShareBundle(market[:n], pct, corporation=rag) if pct // rag.share_percent == 2 else bundle
                break
        game.close_fdsd()
        game.share_market.buy_shares(player, bundle, exchange=True)
        self._track(action, player, rag, rag)
        return True

    def after_buy(self, entity, corp) -> None:
        """FdSD, due to close, closes once its owner has bought."""
        super().after_buy(entity, corp)
        game = self.game
        if game.fdsd_to_close and game.fdsd.owner is entity:
            game.close_fdsd()

    def defer_par(self, entity, corp, share_price, action: dict) -> bool:
        """The owner of FdSD parring RAG chooses next whether FdSD pays for the director's
        certificate (``assign``, or ``pass`` to pay himself); one who cannot pay assigns."""
        if corp is not self.game.rag or not self.owns_fdsd(entity):
            return False
        self.par_rag = {"action": action, "corp": corp, "price": share_price, "player": entity}
        if entity.cash < share_price.price * 2:
            self.process_assign(None, entity)
        return True

    def after_start(self, entity, corp) -> None:
        """Its buyable shares go to the market; a par FdSD waited for is done."""
        super().after_start(entity, corp)
        self.game.move_buyable_shares_to_market(corp)
        self.par_rag = None

    def process_assign(self, action, entity):
        pr = self.par_rag
        if pr is None or pr["player"] is not entity:
            raise GameError("nothing to exchange", rule="no-such-action-now")
        game = self.game
        if action is not None and action.get("target") not in (None, game.fdsd.sym):
            raise GameError(f"only {game.fdsd.name} pays for the par of RAG", rule="bad-target")
        game.close_fdsd()
        pay(game, game.bank, entity, pr["price"].price * 2, "compensation")
        self.par_corporation(entity, pr["corp"], pr["price"], pr["action"])

    def company_price(self, entity, company, action: dict) -> int:
        """A bank card at its value, once a turn, within the certificate limit; EVA from a
        player only while replaying."""
        game = self.game
        company = _company(game, action)
        if company is game.eva and company.owner is not game.bank and company.owner is not entity:
            if not game.loading:
                raise GameError("EVA changes hands between players only in operating rounds",
                                rule="no-company-from-player-in-stock-round")
            # accepted only in a log: the reference lets it through whenever the player has another
            # stock-round action, and handles it like a starting-package card (the price to the bank)
            if self.bought():
                raise GameError("only one purchase per turn", rule="one-purchase-per-turn")
            if game.num_certs(entity) >= game.cert_limit(entity):
                raise GameError("over the certificate limit", rule="certificate-limit")
            price = amount(action, "price", 0)
            if not 1 <= price <= entity.cash:
                raise GameError(f"EVA's price must be between 1 and {entity.cash}", rule="wrong-price")
            return price
        if company not in game.buyable_bank_companies():
            raise GameError(f"{company.name} cannot be bought from the bank now", rule="company-not-for-sale")
        if not self._company_buyable(entity, company):
            rule = "one-purchase-per-turn" if self.bought() else "insufficient-cash"
            if self.sold_now(entity, self.sale_key(company)):
                rule = "no-buy-after-sell"
            raise GameError(f"{entity.name} cannot buy {company.name} now", rule=rule)
        price = amount(action, "price", company.value)
        if price != company.value:
            raise GameError(f"{company.name} costs {company.value}, not {price}", rule="wrong-price")
        return price

    def transfer_company(self, buyer, company, price: int) -> None:
        """Bought like a starting-package card (a minor's card floats the minor)."""
        self.game.draft_object(company, buyer, price)

    def after_company_purchase(self, entity, company, action: dict) -> None:
        self._track(action, entity, company)

    def why_not(self, action, entity) -> None:
        """Name the rule a refused stock-round action breaks (raises when it knows)."""
        if action.get("type") == "pass" and self.par_rag is not None and self.game.turn == 1:
            raise GameError("in the first stock round RAG's par must be paid with FdSD", rule="must-exchange-fdsd")
        if action.get("type") == "sell_shares" and entity.is_player:
            rule = self.why_not_sell(entity, action_bundle(self.game, action))
            if rule != "illegal-sale":
                raise GameError(f"{entity.name} cannot sell these shares yet", rule=rule)

    def why_not_sell(self, entity, bundle) -> str:
        if self.game.turn == 1:
            return "no-sale-first-stock-round"
        return "illegal-sale" if bundle.corporation.operated() else "no-sale-before-operating"

    def passing(self, entity) -> None:
        """Declining FdSD's payment for RAG's par: the player pays it himself. Otherwise a pass
        in the first stock round is remembered (see ``passers_first_stock_round``)."""
        game = self.game
        if (pr := self.par_rag) is not None:
            self.par_corporation(entity, pr["corp"], pr["price"], pr["action"])
            return
        if game.turn == 1 and entity not in game.passers_first_stock_round:
            game.passers_first_stock_round.append(entity)
        self.pass_()

    def legal_actions(self, entity):
        acts = self.actions(entity)
        if self.par_rag is not None:
            assign = {"type": "assign", "target": self.game.fdsd.sym, "target_type": "company"}
            return [assign] + ([{"type": "pass"}] if "pass" in acts else [])
        if entity.is_company:  # FdSD's exchange names the market's first RAG share (it may take two)
            first = min(self.game.pool.shares_of(self.game.rag), key=lambda s: s.index, default=None)
            if not acts or first is None:
                return []
            return [{"type": "buy_shares", "shares": [first.id], "percent": first.percent}]
        base = super().legal_actions(entity)
        rag = self.game.rag
        if "par" in acts and self.owns_fdsd(entity) and self.can_par_corp(entity, rag):
            for p in self.par_prices(entity, rag):  # FdSD pays for the director's certificate
                if (a := {"type": "par", "corporation": rag.id, "share_price": p.id}) not in base:
                    base.insert(0, a)
        return base
