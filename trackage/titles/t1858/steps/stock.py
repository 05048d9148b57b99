"""t1858 steps: stock."""

from __future__ import annotations

from typing import ClassVar

from ....core import programs
from ....core.errors import GameError
from ....core.steps.stock import AuctionBuySellParShares, BuySellParShares
from .. import corporations, gauges


class StockRound1858Step(AuctionBuySellParShares):
    """Buy/sell/par plus auctions of bank-owned private railways and 5->10 conversion."""

    HANDLERS: ClassVar[dict] = {**AuctionBuySellParShares.HANDLERS, "convert": "process_convert"}
    HOLDING_LIMIT_FORCES_SALE = False
    PAR_ENDS_TURN = True
    ONE_SALE_PER_TURN = True
    NOT_UP_RULE = "wrong-auction"  # a bid on another company than the one up
    TURN_PURCHASES = ("buy_shares", "par", "bid")
    LISTING = ("bid", *AuctionBuySellParShares.LISTING[:-1])

    def description(self):
        return "Bid on a private railway" if self.auction else "Buy/Sell/Par"

    # --- availability
    def actions(self, entity):
        if entity.is_corporation:  # its president's conversion to ten shares
            ok = not self.auction and self.can_convert(entity, self.round.current_entity_of_round())
            return ["convert", "pass"] if ok else []
        return super().actions(entity)

    def has_actions(self, entity):
        if entity.is_corporation:
            return not self.auction and self.can_convert(entity, self.round.current_entity_of_round())
        rnd = self.round
        cls = type(self)
        # (the shortcut rests on this class's own :meth:`allows` and the base's "forced to sell?",
        # sales and pass; the classes compared inline: asked by every step question of the round)
        if rnd.auction is None and entity is rnd.current_entity_of_round() and (
                cls.allows is StockRound1858Step.allows and cls.must_sell is BuySellParShares.must_sell
                and cls.can_sell_any is BuySellParShares.can_sell_any and cls.may_pass is BuySellParShares.may_pass
                and cls.current_entity is AuctionBuySellParShares.current_entity):
            # (the player in turn, no auction: after the turn's purchase only a forced sale is
            # open, so "anything?" is "forced to sell?"; before it, one forced to sell may sell
            # (forced means a sale is open, and :meth:`allows` sells unforced by the same
            # question), so the kinds are asked unforced, without "forced to sell?"; no pass alone)
            if self.bought():
                return self.must_sell(entity)
            allows = self._allows_unbought  # (:meth:`allows` past its "bought?", known false)
            for kind in self.ASK_ORDER:
                if allows(kind, entity):
                    return True
            return False
        return super().has_actions(entity)

    def answers(self, entity, atype):
        if entity.is_corporation:
            acts = self.actions(entity)
            return atype in acts, bool(acts)
        rnd = self.round
        cls = type(self)
        if rnd.auction is None and entity is rnd.current_entity_of_round() and (
                cls.allows is StockRound1858Step.allows and cls.actions is StockRound1858Step.actions
                and cls.may_pass is BuySellParShares.may_pass
                and cls.current_entity is AuctionBuySellParShares.current_entity):
            # (the player in turn, no auction: the list is the kinds :meth:`allows` and a pass
            # beside any unless forced; worked out from the one kind asked, "forced?" and
            # "bought?" asked once, not per kind: every logged and programmed pass asks it)
            if self.must_sell(entity):  # (forced: a sale alone)
                return atype == "sell_shares", True
            if self.bought():  # (nothing after the turn's purchase)
                return False, False
            allows = self._allows_unbought
            asked = atype in self.KINDS
            if asked and allows(atype, entity):
                return True, True
            for kind in self.ASK_ORDER:
                if kind != atype and allows(kind, entity):
                    return atype == "pass", True
            return False, False
        return super().answers(entity, atype)

    def accepts(self, entity, atype):
        if entity.is_corporation:
            return atype in self.actions(entity)
        if not self.auction and entity is self.current_entity() and type(self).may_pass is BuySellParShares.may_pass:
            # a player's list is the base's: the kinds allowed, and a pass beside any (there is
            # one: its "anything?" is known true) unless forced to sell
            if atype == "pass":
                return not self.must_sell(entity)
            if atype not in self.KINDS:
                return False
            forced = self.must_sell(entity)
            if type(self).allows is StockRound1858Step.allows:
                # (:meth:`allows` inline: its "forced or bought?", then the kinds unforced)
                if forced or self.bought():
                    return forced and atype == "sell_shares"
                return self._allows_unbought(atype, entity)
            return self.allows(atype, entity, forced)
        return super().accepts(entity, atype)

    KINDS = ("sell_shares", "convert", "buy_shares", "par", "bid")
    ASK_ORDER = ("convert", "sell_shares", "bid", "par", "buy_shares")  # cheap or often true first

    def allows(self, kind, entity, forced) -> bool:
        """Nothing after a purchase or a bid; one forced to sell only sells; a conversion; an
        exchange for shares."""
        if forced or self.bought():
            return forced and kind == "sell_shares"
        return self._allows_unbought(kind, entity)

    def _allows_unbought(self, kind, entity) -> bool:
        """:meth:`allows` of one not forced to sell, before the turn's purchase."""
        if kind == "convert":
            if type(self).can_convert is not StockRound1858Step.can_convert:
                return any(self.can_convert(c, entity) for c in self.game.corporations)
            # (:meth:`can_convert` inline: nothing bought, known above; the owner's test first)
            if entity is None:
                return False
            for c in self.game.corporations:  # (a plain loop: asked by every "anything?" of a player)
                if c.owner is entity and c.type == "5-share" and c.floated():
                    return True
            return False
        cls = type(self)
        if cls is StockRound1858Step or (cls.__mro__[1] is StockRound1858Step and "TRACKED_CLASS" in cls.__dict__):
            # (this class, or its barrier-free twin (``rewind.untracked_class``: a subclass with
            # no methods of its own that knows its class): the bases' :meth:`allows` inline, their own
            # so known; unforced, nothing bought (known by every caller), each kind's question)
            if kind == "bid":
                return self.can_bid_any(entity)
            if kind == "par":
                return self.can_ipo_any(entity)
            if kind == "sell_shares":
                return self.can_sell_any(entity)
            if kind == "buy_shares":
                return self.can_exchange_any(entity) or self.can_buy_any(entity)
        return (kind == "buy_shares" and self.can_exchange_any(entity)) or super().allows(kind, entity, False)

    def can_convert(self, corp, player) -> bool:
        return (corp.owner is player and player is not None and corp.type == "5-share" and corp.floated()
                and not self.bought())

    def can_ipo_any(self, entity) -> bool:
        return "public_companies" in self.game.phase.status and super().can_ipo_any(entity)

    def can_exchange_any(self, player, connected: bool = False) -> bool:
        """Whether ``player`` may exchange a private railway (for a president's certificate, or a
        share in the treasury of a company, ``connected`` to it if asked: a question for the graph)."""
        game = self.game
        # (the tests that do not depend on the private railway or the minor asked once, after
        # the first one that passes the per-item tests, not once per item)
        if game.turn > 1:
            cash = player.cash
            for c in player.companies:
                if game.company_starts_public(c) and game.par_price(c).price <= cash:
                    if not all(x.ipoed for x in game.corporations):
                        return True
                    break
        corps = None
        for m in game.minors:
            if m.owner is player and not m.closed and game.minor_exchanges_share(m):
                if corps is None:
                    corps = [c for c in game.corporations if c.num_ipo_shares() > 0]
                    if not connected:
                        return bool(corps)
                if any(gauges.corporation_private_connected(game, c, m) for c in corps):
                    return True
        return False

    def auto_actions(self, entity):
        """A player's programs; for a player without any, the site also passes for them when
        their only move would be an exchange that no connected company allows."""
        game = self.game
        if not entity.is_player or programs.enabled_of(game, entity):
            return super().auto_actions(entity)
        if getattr(self.round, "pending_tokens", None) or self.actions(entity) != ["buy_shares", "pass"]:
            return []
        if self.can_buy_any(entity) or self.can_exchange_any(entity, connected=True):
            return []
        return [programs.auto(entity, "pass", game.programs.get("created_at"))]

    # --- auctions
    def bid_items(self, entity):
        return self.game.buyable_bank_companies()

    def opening_bid(self, company) -> int:
        return company.value - int(company.data.get("discount", 0))

    def max_bid(self, player, item=None) -> int:
        return 0 if self.game.num_certs(player) >= self.game.cert_limit(player) else player.cash

    def can_bid_any(self, player) -> bool:
        cash = player.cash
        cls, g = type(self), self.game
        if (cls.bid_items is StockRound1858Step.bid_items and cls.min_bid is AuctionBuySellParShares.min_bid
                and cls.highest_bid is AuctionBuySellParShares.highest_bid
                and cls.opening_bid is StockRound1858Step.opening_bid
                and type(g).buyable_bank_companies is type(g).PLAIN_BANK_COMPANIES):
            # (``Game1858.buyable_bank_companies`` and the lowest bid inline, stopped at the
            # first item within the cash, no list: asked by every "anything?" of a player)
            bids = self.round.auction
            bank = g.bank
            second = "green_privates" in g.phase.status
            unbuyable = g.unbuyable_companies
            for c in g.companies:
                if c.owner is bank and not c.closed:
                    data = c.data
                    kind = data.get("type")
                    if (kind == "private_batch1" or (second and kind == "private_batch2")) and c not in unbuyable:
                        top = bids.highest() if bids is not None and bids.item is c else None
                        low = top[1] + self.bid_step() if top else c.value - int(data.get("discount", 0))
                        if low <= cash:
                            return True
            return False
        for c in self.bid_items(player):  # (a plain loop: asked by every "anything?" of a player)
            if self.min_bid(c) <= cash:
                return True
        return False

    def check_opening(self, entity, company) -> None:
        if company not in self.bid_items(entity):
            raise GameError(f"{company.name} cannot be auctioned now", rule="company-not-for-sale")

    def process_bid(self, action, entity):
        """A bid first clears the conditional programmed share passes of the players who could
        afford a private railway (the site's guard for players who passed an auction by program)."""
        items = self.bid_items(entity)
        if items:
            if type(self).opening_bid is StockRound1858Step.opening_bid:
                # (:meth:`opening_bid` inline, the lowest kept in a plain loop: every bid)
                cheapest = items[0].value - int(items[0].data.get("discount", 0))
                for c in items:
                    low = c.value - int(c.data.get("discount", 0))
                    if low < cheapest:
                        cheapest = low
            else:
                cheapest = min([self.opening_bid(c) for c in items])
            programs.drop_share_passes(self.game, [p for p in self.game.players if p.cash >= cheapest])
        super().process_bid(action, entity)

    def accept_bid(self, entity, company, price, action):
        entity.passed = False
        super().accept_bid(entity, company, price, action)

    def win_auction(self, winner):
        player, price, company = winner
        self.game.purchase_company(player, company, price)
        self.round.next_entity_index()
        self.round.current_actions = []

    def process_convert(self, action, entity):
        if not entity.is_corporation or not self.can_convert(entity, self.round.current_entity_of_round()):
            raise GameError(f"{self.game.index.name(entity)} cannot convert now", rule="cannot-convert")
        corporations.convert(self.game, entity)

    def after_gain(self, entity, corp) -> None:
        """The home token, if it can be placed now."""
        super().after_gain(entity, corp)
        self.game.maybe_place_home_token(corp)

    def offers_sale(self, entity, bundle, action) -> bool:
        """Not a sale that would close its company and leave the stock round stuck (see
        ``Game1858.move_on_after_closing``): tried on the game and taken back, only near the closing cell."""
        game, corp = self.game, bundle.corporation
        # only a president's sale moves the price (one cell left): can it reach the closing cell?
        if corp.share_price is None or corp.owner is not entity:
            return True
        left = game.stock_market.cell(*game.stock_market.left_of(corp, corp.share_price.coordinates))
        if left is None or left.type != "close":
            return True
        err = game.trial_error({**action, **game.index.ref(entity), "id": len(game.actions) + 1},
                               live=False, loading=False)
        return err is None or err.rule != "stock-round-stuck"

    # --- enumeration
    def acting_entities(self) -> list:
        cur = self.current_entity()
        if cur is None:
            return []
        return [cur] + ([c for c in self.game.corporations if self.can_convert(c, cur)]
                        if not self.auction and cur.is_player else [])

    def legal_actions(self, entity):
        if entity.is_corporation:
            return [{"type": "convert"}] if "convert" in self.actions(entity) else []
        return super().legal_actions(entity)
