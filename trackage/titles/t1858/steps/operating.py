"""t1858 steps: operating."""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from trackage.core.actions import amount

from ....core.errors import GameError
from ....core.steps.issue import IssueShares
from ....core.steps.operating import DiscardTrain, Dividend, HomeToken, RunRoutes
from ....core.steps.passing import Passing
from ....core.steps.track import TokenStep, TrackAndTokenStep
from ....core.tokens import Token
from .. import gauges, privates


class HomeToken1858(HomeToken, Passing):
    """A company started from a private places its home token in one of the private's
    reserved cities (free); one started directly pays twice the city's revenue."""

    HANDLERS: ClassVar[dict] = {"place_token": "process_place_token", "pass": "process_pass"}
    HOME_ROOM_RULE = "token-same-hex"

    def active_entities(self):
        p = self.pending()
        return [p["entity"].owner] if p else []

    def actions(self, entity):
        out = super().actions(entity)
        return out + ["pass"] if out and self.has_token(entity) else out

    def has_token(self, entity) -> bool:
        return any(t.used and t.city is not None for t in entity.tokens)

    def home_room(self, entity, city, token) -> bool:
        """No token of its own on the tile; room is not checked while replaying."""
        board = self.game.board
        return not any(board.tokened_by(c, entity) for c in city.tile.cities) and (
            self.game.loading or board.tokenable(city, entity, free=True, tokens=[token]))

    def home_price(self, entity, city, token) -> int:
        """A company started directly pays twice the city's revenue for its first token
        (nothing on an empty hex); otherwise the home token is free."""
        free = entity.companies or self.has_token(entity)
        return 0 if free or city.tile.color == "white" else 2 * city.revenue_for([city.tile.color])

    def make_home_room(self, entity, city) -> None:
        """The token carries its price."""
        p = self.pending()
        token = self.game.board.set_token_price(p["token"], self.home_price(entity, city, p["token"]))
        # (a new value: the entry is replaced in the round's list, which undo puts back)
        self.round.pending_tokens[0] = {**p, "token": token}

    def after_home_token(self, entity, city) -> None:
        self.game.delete_reservations(entity, city)

    def passing(self, entity) -> None:
        """A company that already has a token leaves its home token unplaced: the pending
        token goes and so do its reservations."""
        self.round.pending_tokens.pop(0)
        self.game.delete_reservations(entity)


class Track1858(TrackAndTokenStep):
    """Two lays (second for 20, not the same hex); minors lay yellow only. A second lay
    that only adds metre gauge costs 10 less; terrain for metre-only upgrades is halved."""

    WITH_TOKEN = False
    PREPRINTED_YELLOW_IS_LAY = False
    PRESIDENT_TOPS_UP = True

    def round_state(self):
        return {**super().round_state(), "gauges_added": []}

    def setup(self):
        super().setup()
        self.round.gauges_added = []

    def can_lay_tile(self, entity) -> bool:
        g = self.game
        if type(self).lay_entry is TrackAndTokenStep.lay_entry and type(g).tile_lays is type(g).PLAIN_TILE_LAYS:
            # (:meth:`lay_entry` and ``Game1858.tile_lays`` inline: is a lay of the turn left?
            # asked by every step question of the operating round)
            lays = g.TILE_LAYS if entity.is_corporation else g.MINOR_TILE_LAYS
            return self.round.num_laid_track < len(lays)
        return self.lay_entry(entity) is not None

    def payer(self, entity):
        """A minor's tile lays are paid by its owner."""
        return entity.owner if entity.is_minor else entity

    def check_lay(self, entity, hex_, old_tile, tile, rotation) -> None:
        game = self.game
        if not game.loading:
            gauges.check_track_lay(game, entity, hex_, old_tile, tile, rotation, self.round)
        self.round.gauges_added.append(game.new_track_gauge(old_tile, tile))

    def pay(self, entity, cost: int, why: str = "terrain"):
        ga = self.round.gauges_added
        super().pay(entity, cost - 10 if len(ga) != 1 and ["narrow"] in ga else cost, why)

    def after_lay(self, entity, hex_, old_tile, tile) -> None:
        gauges.after_lay(self.game, entity, hex_, old_tile, tile)

    def legal_actions(self, entity):
        if entity is not self.current_entity():
            return []
        lay = self.tile_lay(entity)
        cands = gauges.legal_tile_lays_1858(self.game, entity, lay, self.round) if lay is not None else []
        return [{"type": "lay_tile", **c} for c in cands] + [{"type": "pass"}]


class Token1858(TokenStep):
    """One normal token per turn, in a city of either gauge's network; the price grows with
    the provincial borders to the nearest own token. While replaying, the logged cost is the
    price (and ours is compared) and room is not checked."""

    def available_tokens(self, entity):
        return [t for t in entity.tokens if not t.used and t.type == "normal"]

    def can_place_token(self, entity) -> bool:
        return entity.is_corporation and bool(self.available_tokens(entity))

    def prepare_token(self, entity, city, token, action) -> Token:
        game = self.game
        ours, cost = game.token_cost(entity, city), amount(action, "cost", None)
        if cost is not None and cost != ours:
            if not game.loading:
                raise GameError(f"a token in {city.id} costs {ours}, not {cost}", rule="wrong-price")
            game.warnings.append(f"action {action.get('id')}: token cost {ours}, log says {cost}")
        token = game.board.set_token_price(token, int(ours if cost is None or not game.loading else cost))
        if token.price > entity.cash:
            raise GameError(f"{entity.name} cannot pay {token.price} for a token", rule="insufficient-cash")
        return token

    def token_connected(self, entity, city) -> bool:
        return self.game.token_connected(entity, city)

    def check_token_room(self, entity, city, token, free) -> None:
        """(Cash is checked with the price.)"""
        if not self.game.loading or any(self.game.board.tokened_by(c, entity) for c in city.tile.cities):
            super().check_token_room(entity, city, token, True)

    def token_cities(self, entity):
        return self.game.tokenable_cities_1858(entity)

    def token_offer(self, entity, city):
        cost = self.game.token_cost(entity, city)
        offer = super().token_offer(entity, city)
        return {**offer, "cost": cost} if offer is not None and cost <= entity.cash else None


class Route1858(RunRoutes):
    def actions(self, entity):
        ok = entity is self.current_entity() and entity.is_corporation and self.game.route_trains(entity)
        return ["run_routes"] if ok else []


class Dividend1858(Dividend):
    KINDS = ("payout", "half", "withhold")
    WHOLE_PER_SHARE = "paid"

    def decides(self, entity) -> bool:
        return entity.is_corporation

    def auto_kind(self, entity) -> str | None:
        return "withhold" if entity is not None and entity.is_corporation else None

    def total_revenue(self) -> int:
        # (:func:`privates.private_revenue` inline: asked by every dividend question)
        g, corp = self.game, self.current_entity()
        total = super().total_revenue()
        if corp is not None and corp.is_corporation:
            for c in corp.companies:
                if g.private_railway(c):
                    total += c.revenue
        return total

    def rust_obsolete(self, entity):
        pass

    def price_moves(self, entity, paid: int) -> int:
        """Right only for a dividend per share of at least a tenth of the price."""
        return 1 if paid // entity.total_shares * 10 >= entity.share_price.price else 0

    def after_dividend(self, entity):
        privates.close_companies_of(self.game, entity)


class DiscardTrain1858(DiscardTrain):
    UNDISCARDABLE_RULE = "not-owner"

    def crowded(self) -> list:
        g = self.game
        out = [c for c in g.corporations if c.trains and g.num_corp_trains(c) > g.train_limit(c)]
        return sorted(out, key=g.market_order_key)

    def anyone_crowded(self) -> bool:
        """The truth of :meth:`crowded`, stopping at the first company over its limit."""
        g = self.game
        corps = g.corporations
        if type(g).train_limit is type(g).TABLE_TRAIN_LIMIT:
            # (the phase's table read once, not once per company: asked by every step question;
            # a company without trains is passed at once, the others read in place)
            phase = g.phase
            table = phase.phases[phase.index].get("train_limit", {})
            if table.__class__ is not dict and not isinstance(table, dict):
                return any(len(c.trains) > table and g.num_corp_trains(c) > table for c in corps)
            for c in corps:
                ts = c.trains
                if ts:
                    kind = c.type  # (every company has a kind: :meth:`train_limit`'s row)
                    limit = 0
                    if kind in table:
                        limit = table[kind]
                    if len(ts) > limit and g.num_corp_trains(c) > limit:
                        return True
            return False
        for c in corps:
            n = len(c.trains)
            # (the trains counted are some of those held: none over the limit, none counted over it)
            if n and n > (limit := g.train_limit(c)) and g.num_corp_trains(c) > limit:
                return True
        return False

    active = anyone_crowded  # (the step question's answer, without one more call; a class with
    # its own :meth:`anyone_crowded` names its own ``active``)

    def discard_key(self, train) -> Hashable:
        """An obsolete train is another choice than a live one of the same name."""
        return (train.name, train.obsolete)

    def discard(self, entity, train) -> None:
        """An obsolete train leaves the game rather than going to the pool."""
        obsolete = train.obsolete
        super().discard(entity, train)
        if obsolete:
            self.game.forget_train(train)


class IssueShares1858(IssueShares):
    def issuable(self, entity):
        """Nothing in a company's first operating turn."""
        return [] if len(entity.operating_history) == 1 else super().issuable(entity)

    def has_actions(self, entity):
        """:meth:`actions`' truth: a redemption, else an issue, asked without their bundles."""
        cls = type(self)
        if cls.issuable is not IssueShares1858.issuable or cls.redeemable is not IssueShares.redeemable:
            return super().has_actions(entity)
        if entity is not self.current_entity() or not entity.is_corporation:
            return False
        g = self.game
        return g.any_redeemable_share(entity) or (len(entity.operating_history) != 1 and g.any_issuable_share(entity))
