"""1825's steps: certificates round, track-and-token, leasing, dividends, receivership buys."""

from __future__ import annotations

from typing import Any, ClassVar

from trackage.core.actions import asks
from trackage.core.money import pay

from ...core.entities import OperatingInfo, ShareBundle, certificate_price, record_operation
from ...core.errors import GameError
from ...core.game import Game
from ...core.steps.operating import BuyTrain, DiscardTrain, Dividend, RunRoutes, over_phase_table_limit
from ...core.steps.stock import BuySellParShares, held_percents, within_holding_limit
from ...core.steps.track import TrackAndTokenStep
from ...core.trains import PhaseTrack

LEASE_COST = 10


def _smallest_buyable(certificates) -> dict:
    """Per corporation id, the first buyable certificate of the least percent among
    ``certificates`` (one pass over a holder's certificates)."""
    out: dict = {}
    for s in certificates:
        if s.buyable:
            cur = out.get(s.corp_id)
            if cur is None or s.percent < cur.percent:
                out[s.corp_id] = s
    return out

class BuySellParShares1825(BuySellParShares):
    NO_SALE_OF_LAST_BUY = True
    ASK_ORDER = ("sell_shares", "par", "buy_shares", "sell_company", "buy_company")  # cheap, often allowed first

    def pass_keeps_active(self) -> bool:
        return self.bought()

    def legal_actions(self, entity):
        """Besides the reference's own bundles (``bundles_for``: every ordinary certificate
        before the president's), the president's certificate with fewer ordinary ones, or
        alone: the reference sells any bundle its ``can_sell?`` allows, e.g. the director's
        20% certificate into an empty pool (the company goes into receivership)."""
        out = super().legal_actions(entity)
        if "sell_shares" not in self.actions(entity) or not asks(self.game, "sell_shares"):
            return out
        for corp in self.game.corporations:
            shares = sorted(entity.shares_of(corp), key=lambda s: (1 if s.president else 0, s.percent))
            if not shares or not shares[-1].president or not corp.ipoed:
                continue
            pres, normal = shares[-1], shares[:-1]
            for k in range(len(normal)):
                certs = normal[:k] + [pres]
                total = sum(s.percent for s in certs)
                for pct in range(total, total - pres.percent, -corp.share_percent):
                    if self.can_sell(entity, ShareBundle(certs, pct, corporation=corp)):
                        out.append({"type": "sell_shares", "shares": [s.id for s in certs], "percent": pct})
        return out

    def can_buy_any_companies(self, entity) -> bool:
        if self.bought() or entity.cash <= 0:
            return False
        # (the bank's companies looked at before the player's certificates are counted)
        bank = self.game.bank
        sold = self.round.players_sold.get(entity)
        return any((c.owner is None or c.owner is bank) and not (sold and sold.get(c))
                   for c in self.game.companies if not c.closed) \
            and self.game.num_certs(entity) < self.game.cert_limit(entity)

    def can_buy_any(self, entity) -> bool:
        """:meth:`may_buy_some` of the smallest certificate of each IPO and of the market, with
        what it reads of the player (a purchase made, cash, room under the certificate limit)
        and of each corporation (sold this turn, a second purchase allowed) asked once."""
        bought = self.bought()
        cash = entity.cash
        room = None  # certs_held < cert_limit, once a certificate that counts needs it
        percents: dict | None = None  # what the player holds of each corporation, once needed
        sold = self.round.players_sold.get(entity)
        pooled: dict | None = None  # the market's first buyable certificate of least percent, by corporation
        for corp in self.game.corporations:
            if not corp.ipoed or corp.closed or (sold and sold.get(corp)) \
                    or (bought and not self.can_buy_multiple(entity, corp)):
                continue
            sp = corp.share_price
            counts = sp is None or sp.counts_for_limit()
            cid = corp.id
            for in_market in (False, True):
                if in_market:
                    if pooled is None:
                        pooled = _smallest_buyable(self.game.pool.certificates)
                    smallest = pooled.get(cid)
                else:
                    smallest = None  # the first buyable certificate of the least percent
                    for s in corp.certificates:
                        if s.buyable and s.corp_id == cid and (smallest is None or s.percent < smallest.percent):
                            smallest = s
                # (a lone certificate's bundle costs what the certificate does)
                if smallest is None or cash < certificate_price(corp, smallest) \
                        or corp.holder_of(smallest).is_player:
                    continue
                if percents is None:
                    percents = held_percents(entity, self.game.corporations)
                if not within_holding_limit(corp, entity, percents.get(cid, 0), smallest.percent):
                    continue
                if counts:
                    if room is None:
                        room = self.certs_held(entity) < self.game.cert_limit(entity)
                    if not room:
                        continue
                return True
        return False

    def may_buy_some(self, entity, bundle) -> bool:
        """As the reference: affordable and within the limits (a pooled president's certificate
        counts even if the player cannot buy it)."""
        corp = bundle.corporation
        return not self.sold_now(entity, corp) and (not self.bought() or self.can_buy_multiple(entity, corp)) \
            and entity.cash >= bundle.price() and self.can_gain(entity, bundle)

    def can_par_corp(self, entity, corp) -> bool:
        # (the cheap part of the base's rule first: the layer is asked of a company not started)
        game = self.game
        return game.can_par(corp, entity) and game.can_ipo(corp) and super().can_par_corp(entity, corp)

    def purchase_bundle(self, action: dict, entity) -> ShareBundle:
        """No share of a closed company is bought (refused before the bundle is read)."""
        for sid in action.get("shares") or []:
            share = self.game.index.share(sid)
            if share is not None and self.game.share_corp(share).closed:
                raise GameError(f"{self.game.share_corp(share).name} has closed", rule="closed-corporation")
        return super().purchase_bundle(action, entity)


def _receivership_pay(step, entity, cost: int, why: str):
    """A corporation in receivership pays what it can; the rest is a loan on its revenue.

    Deviation "no receivership loans in live play" (docs/quirks.md): the reference lets
    it borrow up to 200 and makes its run repay the loan, and a run that cannot is to be
    undone. Whether a run can repay is not known when the money is spent, so live play
    here spends only the treasury; logs that borrowed still replay.
    """
    if cost > entity.cash and not step.game.loading:
        raise GameError(f"{entity.name} is in receivership and has only {entity.cash}, not {cost}: "
                        "a loan on its revenue is only replayed from logs", rule="receivership-loan")
    if entity.cash >= cost:
        if cost > 0:
            pay(step.game, entity, step.game.bank, cost, why)
    else:
        diff = cost - entity.cash
        if entity.cash > 0:
            pay(step.game, entity, step.game.bank, entity.cash, why)
        step.round.receivership_loan += diff


class LeaseMixin:
    """Leasing a train for a company in receivership (``special_buy``), mixed into its
    track and route steps (which hold the game and the round)."""

    game: Any   # the title's game (Game1825)
    round: Any

    def can_lease(self, entity) -> bool:
        return (entity.receivership() and getattr(self.round, "leased_train", None) is None
                and bool(self.game.depot.depot_trains()))

    def process_special_buy(self, action, entity):  # offered only when it can lease (can_lease)
        desc = action.get("description")
        train = next((t for t in self.game.depot.depot_trains() if t.name == desc), None) or self.game.depot.upcoming[0]
        self.round.leased_train = train
        _receivership_pay(self, entity, LEASE_COST, "lease")

    def action_label(self, entity, action) -> str | None:
        """The lease in words."""
        if action.get("type") == "special_buy":
            cost = self.game.CURRENCY % action.get("cost", LEASE_COST)
            return f"Lease a {action.get('description')} train for {cost}"
        label: str | None = super().action_label(entity, action)  # type: ignore[misc]  # the step's
        return label

    def lease_actions(self, entity) -> list[dict]:
        names = dict.fromkeys(t.name for t in self.game.depot.depot_trains())
        return [{"type": "special_buy", "description": n, "cost": LEASE_COST} for n in names]


class TrackAndToken1825(LeaseMixin, TrackAndTokenStep):
    HANDLERS: ClassVar[dict] = {**TrackAndTokenStep.HANDLERS, "special_buy": "process_special_buy"}

    def round_state(self):
        return {**super().round_state(), "receivership_loan": 0}

    def setup(self):
        self.round.receivership_loan = 0
        super().setup()

    def actions(self, entity):
        if self.game.silent_receivership(entity):
            return []
        out = super().actions(entity)
        if "lay_tile" in out and self.can_lease(entity):
            out.insert(1, "special_buy")
        return out

    def has_actions(self, entity):
        return not self.game.silent_receivership(entity) and super().has_actions(entity)

    # (the round's two questions from the one kind asked: without this the list above would
    # hand the step the core's default, the token question's whole answer worked out even
    # where a tile lay settles both)
    def answers(self, entity, atype):
        """:meth:`actions`' two truths for ``atype``: whether it is listed, whether anything is.
        Asked in the list's order (the lay, then the token); where the lay settles both, the
        token question is left unanswered but its writes are made (:meth:`_token_writes`)."""
        if self.game.silent_receivership(entity) or entity is not self.current_entity():
            return False, False
        lay = bool(self.can_lay_tile(entity))
        if lay and atype != "place_token":
            self._token_writes(entity)
            tok = False  # (not asked: the lay answers "anything?")
        else:
            tok = self.WITH_TOKEN and bool(self.can_place_token(entity))
        has = lay or tok
        if atype == "lay_tile":
            return lay, has
        if atype == "place_token":
            return tok, has
        if atype == "special_buy":
            return lay and self.can_lease(entity), has
        return atype == "pass" and has, has

    def _token_writes(self, entity) -> None:
        """What :meth:`can_place_token` writes (the graph's route information, taught as its
        question would), without its answer: the same early outs, then the graph's own."""
        if not self.WITH_TOKEN or self.round.tokened:
            return
        cheapest = None
        for t in entity.tokens:
            if not t.used and (cheapest is None or t.price < cheapest):
                cheapest = t.price
        if cheapest is None or cheapest > self.buying_power(entity):
            return
        self.game.graph.teach_as_can_token(entity)

    def buying_power(self, entity) -> int:
        return entity.cash + (200 if entity.receivership() else 0)

    def check_lay(self, entity, hex_, old_tile, tile, rotation):
        if tile.name in ("887", "888") and hex_.id == "Q13" and entity.id != "NS":
            raise GameError("only the NS may place tiles 887/888 on Q13", rule="tile-reserved")
        if not self.game.loading:
            if any(not any(set(o.exits) <= set(n.exits) for n in tile.city_towns) for o in old_tile.city_towns):
                raise GameError("new track must keep the old stations' track", rule="illegal-upgrade")
            deferred_home = self.game.minor_deferred_token(entity) and hex_.id == self.game._home_hex_id(entity)
            if (not deferred_home and not old_tile.preprinted and tile.nodes and not entity.trains
                    and getattr(self.round, "leased_train", None) is None):
                raise GameError("cannot upgrade a city/town without a train", rule="upgrade-needs-train")
        if self.round.num_laid_track > 0 and any(hex_.distance(h) == 1 for h in self.round.laid_hexes):
            raise GameError("cannot lay tiles in adjacent hexes", rule="adjacent-lays")

    def after_lay(self, entity, hex_, old_tile, tile):
        self.update_tile_reservation(hex_)
        game = self.game
        if game.minor_deferred_token(entity) and game.can_place_home_token(entity):
            game.place_home_token(entity)

    def update_tile_reservation(self, hex_):
        board = self.game.board
        tile, res = board.tile(hex_), board.tile_reservations(hex_)
        corp = res[0] if len(res) == 1 and tile.cities else None
        ok = [c for c in tile.cities if board.tokenable(c, corp)] if corp is not None else []
        slot = board.get_slot(ok[0], corp) if len(ok) == 1 else None
        if slot is None:  # one reserving company, one city it may token: the reservation goes there
            return
        board.add_reservation(ok[0], corp, slot)
        board.set_tile_reservations(hex_, [r for r in res if r is not corp])

    def pay(self, entity, cost: int, why: str = "terrain"):
        if entity.receivership():
            _receivership_pay(self, entity, cost, why)
        elif cost > 0:
            pay(self.game, entity, self.game.bank, cost, why)

    def legal_actions(self, entity):
        out = super().legal_actions(entity)
        if "special_buy" in self.actions(entity):
            out.extend(self.lease_actions(entity))
        if entity.receivership():
            # no loans in live play (see _receivership_pay)
            out = [a for a in out if self._cost_of(entity, a) <= entity.cash]
        return out

    def legal_lay_ok(self, entity, hex_, old_tile, tile) -> bool:
        # what check_laid_tile finds after a lay, found without laying
        game = self.game
        if game.minor_deferred_token(entity) and hex_.id == game._home_hex_id(entity):
            return True
        return game.lay_uses_new_track(entity, hex_, old_tile, tile) and (
            old_tile.preprinted or not tile.nodes or game.lay_keeps_reach(entity, hex_, tile))

    def _cost_of(self, entity, a) -> int:
        if a["type"] == "lay_tile":
            game = self.game
            hex_ = game.board.hex_by_id(a["hex"])
            placed = game.board.placed_tile(game.board.tile_by_id(a["tile"]), a["rotation"], hex_)
            return game.board.lay_cost_preview(hex_, placed, entity)
        if a["type"] == "place_token":
            toks = self.available_tokens(entity)
            return toks[0].price if toks else 0
        return LEASE_COST if a["type"] == "special_buy" else 0


class Route1825(LeaseMixin, RunRoutes):
    HANDLERS: ClassVar[dict] = {**RunRoutes.HANDLERS, "special_buy": "process_special_buy"}

    def round_state(self):
        return {**super().round_state(), "leased_train": None}

    def setup(self):
        self.round.leased_train = None

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        if (not entity.trains and not entity.receivership()) or not self.game.can_run_route(entity):
            return []
        return ["run_routes", "special_buy"] if self.can_lease(entity) else ["run_routes"]

    def process_run_routes(self, action, entity):
        depot = self.game.depot
        if any(getattr(self.game.depot.train_by_id(r.get("train")), "owner", None) is depot
               for r in action.get("routes") or [] if isinstance(r, dict)):
            # a leased train's operator is found through the round (see OperatingRound1825)
            self.round.note_active_step()
        super().process_run_routes(action, entity)
        revenue = sum(r["revenue"] for r in self.round.routes)
        if revenue < self.round.receivership_loan:
            raise GameError(f"revenue {revenue} does not cover {self.round.receivership_loan} in costs",
                            rule="receivership-loan")

    def legal_actions(self, entity):
        out = super().legal_actions(entity)
        if "special_buy" in self.actions(entity) and entity.cash >= LEASE_COST:
            out.extend(self.lease_actions(entity))
        return out


class Dividend1825(Dividend):
    COMPANY_SHARES_PAY = False

    def decides(self, entity) -> bool:
        return not entity.is_company and not (entity.is_corporation and entity.receivership())

    def skip(self):
        entity = self.current_entity()
        in_receivership = entity.receivership()
        routes, revenue = self.round.routes, sum(r["revenue"] for r in self.round.routes)
        super().skip()
        nxt = self.current_entity()
        if in_receivership and nxt is not None and nxt is not entity:
            # bankrupt in this step: the reference files this turn's record under the
            # operator that has just started (quirk "bankrupt in the dividend step")
            record_operation(nxt, (self.game.turn, self.round.round_num), OperatingInfo(routes, revenue, "withhold"))

    def do_dividend(self, entity, kind):
        if (loan := self.round.receivership_loan or 0) > 0:
            self.round.extra_revenue = (self.round.extra_revenue or 0) - loan
        self.round.receivership_loan = 0
        super().do_dividend(entity, kind)

    def price_moves(self, entity, paid: int) -> int:
        """None up to half the price, then one per multiple of it, at least one and at most four."""
        price = entity.share_price.price
        return 0 if paid <= price // 2 else max(1, min(4, paid // price))

    def after_dividend(self, entity):
        self.game.check_bank_broken()
        self.game.check_bankrupt(entity)


class BuyTrain1825(BuyTrain):
    def trains_for_sale(self, entity) -> list:
        """None for a company in receivership."""
        return [] if entity.receivership() else super().trains_for_sale(entity)

    def buyable_depot_trains(self, entity):
        return [t for t in self.game.depot.depot_trains() if entity.cash >= t.price]

    def receivership_skip(self, entity) -> bool:
        return (entity.receivership() and (len(self.buyable_depot_trains(entity)) < 2
                                           or not self.game.can_run_route(entity)
                                           or not self.room(entity) or self.game.silent_receivership(entity)))

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation or self.receivership_skip(entity):
            return []
        return ["buy_train"] if entity.receivership() else super().actions(entity)

    def skip(self):
        entity = self.current_entity()
        if entity is not None and entity.receivership() and not self.game.silent_receivership(entity):
            self.pass_()
            trains = self.buyable_depot_trains(entity)
            if trains and self.game.can_run_route(entity) and self.room(entity):
                if len(trains) > 1:
                    raise GameError("multiple trains available for receivership purchase", rule="receivership")
                self.buy(entity, trains[0], trains[0].price)
            return
        super().skip()


class DiscardTrain1825(DiscardTrain):
    """The core's discard step; its "anyone over the limit?" (asked by every step question of
    every action) reads the current phase's limit table once for every holder where the game's
    ``train_limit`` is the core's reading of that table (:func:`over_phase_table_limit`, the
    same answer as the core's limit asked per kind of holder)."""

    def active(self) -> bool:
        game = self.game
        cls = type(self)
        phase = type(game.phase)
        if cls.anyone_crowded is not DiscardTrain.anyone_crowded or cls.crowded is not DiscardTrain.crowded \
                or type(game).train_limit is not Game.TABLE_TRAIN_LIMIT \
                or phase.train_limit is not PhaseTrack.train_limit or phase.current is not PhaseTrack.current:
            return self.anyone_crowded()
        return over_phase_table_limit(game)


# (the step's name shows in the state and the journal as the core's step's does)
DiscardTrain1825.__name__ = DiscardTrain1825.__qualname__ = "DiscardTrain"
