"""1858 India's steps on top of 1858's: collecting mine/oil/port tokens, Pullmans attached
to a train before running, loco works bought in the train step, gauge conversions."""

from __future__ import annotations

from typing import ClassVar

from trackage.core.actions import amount

from ...core.errors import GameError
from ...core.money import pay
from ...core.round import Step
from ...core.steps.buy_company import BuyCompanyMixin
from ...core.steps.choose import ChooseMixin
from ..t1858 import gauges
from ..t1858.steps import BuyTrain1858, DiscardTrain1858, Route1858, Track1858


class TrackIndia(Track1858):
    """A yellow or green tile may be replaced by one of the same colour that changes the
    gauge of one stretch of plain track, or of one or two stretches at a city or town."""

    def check_lay(self, entity, hex_, old_tile, tile, rotation) -> None:
        g = self.game
        if not g.loading and old_tile.color == tile.color:
            if not g.gauge_conversion(old_tile, tile) or not conversion_ok(old_tile, tile):
                raise GameError(f"{tile.name} is not a gauge conversion of {old_tile.name}", rule="illegal-upgrade")
        super().check_lay(entity, hex_, old_tile, tile, rotation)


def conversion_ok(old, new) -> bool:
    changes: dict = {}
    for p in old.paths:
        ends = set(p.exits) | {getattr(n, "kind", "") for n in p.nodes}
        q = next((q for q in new.paths if ends <= (set(q.exits) | {getattr(n, "kind", "") for n in q.nodes})), None)
        if q is None:
            return False
        changes[(p.track, q.track)] = changes.get((p.track, q.track), 0) + 1
    valid = {1, 2} if new.city_towns else {1}
    b2n = changes.get(("broad", "narrow"), 0)
    n2b = changes.get(("narrow", "broad"), 0)
    return (b2n == 0 and n2b in valid) or (n2b == 0 and b2n in valid)


class CollectTokens(Step):
    """Buy the mine (50), oil (100, phase 5+) or port (200, phase 7) token of a hex with
    track the company reaches; each adds the bonus offboard's value to its revenue."""

    HANDLERS: ClassVar[dict] = {"remove_hex_token": "process_remove_hex_token", "pass": "process_pass"}
    DESCRIPTION: ClassVar[str] = "Collect mine, oil and port tokens"

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation or not self.available(entity):
            return []
        return ["remove_hex_token", "pass"]

    def available(self, corp) -> list:
        g = self.game
        return [t for kind in ("mine", "oil", "port")
                if corp.cash >= g.TOKEN_COST[kind] and (kind == "mine" or f"{kind}_tokens" in g.phase.status)
                for h in g.hex_token_hexes(kind) if g.board.tile(h).color != "white"
                for t in g.board.hex_tokens(h) if t.type == kind]

    def process_remove_hex_token(self, action, entity):
        g = self.game
        hex_ = g.board.hex_by_id(action.get("hex"))
        if hex_ is None or not g.board.hex_tokens(hex_):
            raise GameError(f"no token to collect on {action.get('hex')!r}", rule="no-hex-token")
        token = g.board.hex_tokens(hex_)[0]
        if token not in self.available(entity):
            raise GameError(f"{entity.name} cannot collect the token on {hex_.id} now", rule="no-hex-token")
        if not g.loading and hex_ not in gauges.reachable_1858(g, entity):
            raise GameError(f"{entity.name} does not reach {hex_.id}", rule="not-connected")
        pay(g, entity, g.bank, g.TOKEN_COST[token.type], "token")
        g.board.take_hex_token(hex_, token)
        token = g.board.set_token_owner(token, entity)
        entity.tokens = (*entity.tokens, token)

    def legal_actions(self, entity):
        if "remove_hex_token" not in self.actions(entity):
            return []
        reach = gauges.reachable_1858(self.game, entity)
        hexes = dict.fromkeys(t.hex.id for t in self.available(entity) if t.hex in reach)
        return [{"type": "remove_hex_token", "hex": h} for h in hexes] + [{"type": "pass"}]


class RouteIndia(ChooseMixin, Route1858):
    """A company owning a Pullman first attaches it to one of its broad gauge trains."""

    HANDLERS: ClassVar[dict] = {**Route1858.HANDLERS, "choose": "process_choose"}

    def round_state(self):
        return {**super().round_state(), "pullmans": {}}

    def actions(self, entity):
        out = list(super().actions(entity))
        return out + ["choose"] if out and self.choosing(entity) else out

    def attachable(self, corp) -> list:
        g = self.game
        return [t for t in corp.trains if g.track_type(t) == "broad" and not g.pullman(t)]

    def choosing(self, corp) -> bool:
        return self.game.owns_pullman(corp) and corp not in self.round.pullmans and bool(self.attachable(corp))

    def suggestion(self, entity):
        out = super().suggestion(entity)
        out["extra_revenue"] = self.game.mines_ports_bonus(entity) if out["routes"] else 0
        return out

    def choices(self, entity) -> list[str]:
        return [t.id for t in self.attachable(entity)]

    def choice_label(self, entity, choice) -> str:
        train = self.game.depot.train_by_id(choice)
        return f"Pullman with the {train.name if train else choice} train"

    def choose(self, entity, choice) -> None:
        """The Pullman runs with the named train."""
        self.round.pullmans[entity] = self.game.depot.train_by_id(choice)


class DiscardTrainIndia(DiscardTrain1858):
    def discardable(self, entity):
        return [t for t in entity.trains if not self.game.pullman(t)]


class BuyTrainIndia(BuyCompanyMixin, BuyTrain1858):
    """Pullmans (one per company, not counted for the limit, never bought across) and the
    loco works, bought from the bank at face value."""

    HANDLERS: ClassVar[dict] = {**BuyTrain1858.HANDLERS, "buy_company": "process_buy_company"}

    def room(self, entity) -> bool:
        return super().room(entity) or not self.game.owns_pullman(entity)

    def can_buy_company(self, entity) -> bool:
        g = self.game
        # (plain loops, the phase first: asked by every operating question of a company)
        if "loco_works" not in g.phase.status:
            return False
        for c in entity.companies:
            if not g.private_railway(c):
                return False
        cash = entity.cash
        for c in g.purchasable_companies(entity):
            if c.value <= cash:
                return True
        return False

    def actions(self, entity):
        out = super().actions(entity)
        if entity is self.current_entity() and entity.is_corporation and self.can_buy_company(entity):
            out += [a for a in ("buy_company", "pass") if a not in out]
        return out

    def has_actions(self, entity):
        return super().has_actions(entity) or (
            entity is self.current_entity() and entity.is_corporation and self.can_buy_company(entity))

    def room_for(self, entity, train) -> bool:
        """A Pullman needs no room, one per company."""
        g = self.game
        if g.pullman(train):
            return not g.owns_pullman(entity)
        return g.num_corp_trains(entity) != g.train_limit(entity)

    def trains_for_sale(self, entity) -> list:
        """Never a Pullman."""
        offered = super().trains_for_sale(entity)
        return [t for t in offered if not self.game.pullman(t)]

    def train_still_affordable(self, entity, company) -> bool:
        """After issuing shares a trainless company may still buy a loco works, as long as a
        depot train (with the works' discount) stays within the rules for that purchase."""
        g = self.game
        cash, lo = entity.cash - company.value, entity.cash - company.value - self.round.last_issue_price
        hi = cash + (entity.owner.cash if entity.owner is not None else 0)
        return any(lo <= g.train_price(t, entity, v, companies=list(entity.companies) + [company]) <= hi
                   for t in g.depot.depot_trains() for v in t.variants)

    def open_after(self, entity, price: int) -> bool:
        """Would the step stay open after paying ``price`` (the president covering a shortfall)?
        A trainless company that issued shares and whose step then closes is refused."""
        lo = self.game.min_train_price(entity)
        return self.can_scrap(entity) or (lo is not None and max(0, entity.cash - price) >= lo)

    def company_price(self, entity, company, action: dict) -> int:
        """A loco works from the bank, at its value."""
        if company is None or company not in self.game.purchasable_companies(entity):  # offered if can_buy_company
            raise GameError(f"cannot buy {action.get('company')!r}", rule="company-not-for-sale")
        price = amount(action, "price", company.value)
        if price != company.value:
            raise GameError(f"{company.name} costs {company.value}", rule="wrong-price")
        return price

    def company_offers(self, entity, acts: list, must_buy: bool) -> list:
        return [{"type": "buy_company", "company": c.sym, "price": c.value}
                for c in self.game.purchasable_companies(entity) if "buy_company" in acts and c.value <= entity.cash
                and (not must_buy or self.train_still_affordable(entity, c))]

    def may_buy_variant(self, entity, train, variant: str, price: int) -> bool:
        """Bought right after issuing shares, a Pullman that closes the step leaves the company
        trainless, which is refused."""
        closes = self.game.pullman(train) and self.must_buy_after_issue(entity) and not self.open_after(entity, price)
        return not closes and super().may_buy_variant(entity, train, variant, price)


def pullman_bonus_per_stop(game, train) -> int:
    """What the Pullman attached to ``train`` adds per paying stop (0 without one)."""
    if getattr(game.round, "pullmans", {}).get(train.owner) is not train:
        return 0
    return (getattr(train, "multiplier", None) or 1) * (5 if getattr(train, "obsolete", False) else 10)


def pullman_stops(stops) -> int:
    """The stops a Pullman pays for: cities and offboards."""
    return sum(1 for s in stops if s.kind in ("city", "offboard"))


def pullman_bonus(game, route, stops) -> int:
    per_stop = pullman_bonus_per_stop(game, route.train)
    return per_stop * pullman_stops(stops) if per_stop else 0
