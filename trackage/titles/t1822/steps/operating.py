"""t1822 steps: operating."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.money import spend
from ....core.steps.operating import DiscardTrain, Dividend, RunRoutes
from .housekeeping import _is_major


class DiscardTrain1822(DiscardTrain):
    def crowded(self):
        return [c for c in self.game.corporations if self.game.crowded_corp(c)]

    def discardable(self, entity) -> list:
        """Two permanents (2P/LP) or two Pullmans: one of those goes; else a normal train."""
        trains = entity.trains
        perm = [t for t in trains if t.name in ("2P", "LP")]
        if len(perm) > 1:
            return perm
        pullman = [t for t in trains if t.name == "P+"]
        if len(pullman) > 1:
            return pullman
        return [t for t in trains if t.name not in ("2P", "LP", "P+")]


class Route1822(RunRoutes):
    HANDLERS: ClassVar[dict] = {"run_routes": "process_run_routes", "choose": "process_choose"}

    def setup(self):
        self.pullman = None

    def actions(self, entity):
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        trains = self.game.route_trains(entity)
        if not trains or not self.game.can_run_route(entity):
            return []
        if entity.type == "minor" and all(t.name == "E" for t in trains):
            return []
        out = ["run_routes"]
        if self.pullman is None and self.pullman_train(entity) and self.pullman_choices(entity):
            out.append("choose")
        return out

    def pullman_train(self, entity):
        return next((t for t in entity.trains if t.name == "P+"), None)

    def pullman_choices(self, entity):
        return [t for t in self.game.route_trains(entity) if t.name not in ("L", "LP", "E")]

    def process_choose(self, action, entity):
        choices = self.pullman_choices(entity)
        try:
            train = choices[int(action.get("choice"))]
        except (ValueError, TypeError, IndexError):
            raise GameError(f"{action.get('choice')!r} is not a train to attach the pullman to",
                            rule="bad-choice") from None
        self.pullman = train
        self.game.attach_pullman(train)

    def legal_actions(self, entity):
        out = super().legal_actions(entity)
        if "choose" in self.actions(entity):
            out += [{"type": "choose", "choice": str(i)} for i in range(len(self.pullman_choices(entity)))]
        return out

    def process_run_routes(self, action, entity):
        try:
            super().process_run_routes(action, entity)
            self.round.subsidy = self.game.mail_subsidy(entity, action.get("routes") or [])
        finally:
            if self.pullman is not None:
                self.game.detach_pullman(self.pullman)
                self.pullman = None


class Dividend1822(Dividend):
    HANDLERS: ClassVar[dict] = {"dividend": "process_dividend", "choose": "process_choose"}
    KINDS = ("payout", "half", "withhold")

    def setup(self):
        self.extra_choice = ""

    def round_state(self):
        return {"subsidy": 0}

    def actions(self, entity):
        if not _is_major(entity) or entity is not self.current_entity():
            return []
        if self.total_revenue() == 0:
            return []
        out = ["dividend"]
        if not self.extra_choice and self.extra_train(entity) and len(entity.trains) > 1:
            out.append("choose")
        return out

    def extra_train(self, entity):
        t = next((t for t in entity.trains if t.name in ("2P", "LP")), None)
        if t is None:
            return None
        rev = next((r["revenue"] for r in self.round.routes if r["train"] == t.id), 0)
        return t if rev > 0 and rev != self.total_revenue() else None

    def process_choose(self, action, entity):
        if action.get("choice") not in self.KINDS:
            raise GameError(f"{action.get('choice')} is an illegal choice", rule="bad-choice")
        self.extra_choice = action.get("choice")

    def split(self, entity, kind, revenue):
        """(to the corporation, per share) for ``revenue`` paid as ``kind``."""
        n = entity.total_shares
        if kind == "withhold":
            return revenue, 0.0
        if kind == "half":
            half = revenue // 2
            kept = half if entity.type == "minor" else (half // n) * n
            return kept, (revenue - kept) / n
        return 0, revenue / n

    def skip(self):
        entity = self.current_entity()
        if entity.type == "major":
            self.do_dividend(entity, "withhold")
        else:
            self.do_dividend(entity, "half" if self.total_revenue() > 0 else "withhold")

    def process_dividend(self, action, entity):
        kind = action.get("kind")
        if kind not in self.KINDS:
            raise GameError(f"dividend kind must be one of {', '.join(self.KINDS)}", rule="bad-dividend-kind")
        self.do_dividend(entity, kind)

    def do_dividend(self, entity, kind):
        import math

        from ....core.entities import OperatingInfo

        game = self.game
        revenue = self.total_revenue()
        subsidy = getattr(self.round, "subsidy", 0) or 0
        extra = self.extra_train(entity) if self.extra_choice else None
        if extra is not None:
            extra_rev = next(r["revenue"] for r in self.round.routes if r["train"] == extra.id)
            corp_part, per_share = self.split(entity, kind, revenue - extra_rev)
            c2, p2 = self.split(entity, self.extra_choice, extra_rev)
            corp_part += c2
            per_share += p2
        else:
            corp_part, per_share = self.split(entity, kind, revenue)
        entity.operating_history[(game.turn, self.round.round_num)] = OperatingInfo(self.round.routes, revenue, kind)
        for t in entity.trains:
            t.operated = True
        self.round.routes = []
        self.round.subsidy = 0
        if corp_part + subsidy > 0:
            spend(game.bank, entity, corp_part + subsidy)
        if per_share > 0:
            per_share = (revenue - corp_part) / entity.total_shares
            for payee in list(game.players) + list(game.corporations):
                pct = payee.percent_of(entity)
                if not pct:
                    continue
                amt = math.ceil(pct / entity.share_percent * per_share)
                if amt > 0:
                    spend(game.bank, payee, amt)
            if game.tax_haven.value() > 0:
                amt = int(game.tax_haven.num_shares_of(entity) * per_share)  # the reference truncates here
                if amt > 0:
                    spend(game.bank, game.tax_haven, amt)
        paid = revenue - corp_part
        self.move_share_price(entity, paid)
        self.extra_choice = ""
        self.pass_()

    def move_share_price(self, entity, paid):
        sm = self.game.stock_market
        if entity.share_price is None:
            return
        if paid <= 0:
            sm.move_left(entity)
            return
        price = entity.share_price.price
        times = 0
        if paid >= price or entity.type == "minor":
            times = 1
        if paid >= price * 2 and entity.type == "major":
            times = 2
        for _ in range(times):
            sm.move_right(entity)

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "dividend" in acts:
            out += [{"type": "dividend", "kind": k} for k in self.KINDS]
        if "choose" in acts:
            out += [{"type": "choose", "choice": k} for k in self.KINDS]
        return out
