"""t1822 steps: operating."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.money import pay
from ....core.steps.operating import DiscardTrain, Dividend, RunRoutes
from ..game import _MEMO_MOVES
from .housekeeping import _is_major

#: the key of :meth:`DiscardTrain1822.anyone_crowded`'s answer in a listing's memo
_CROWDED: tuple[str] = ("anyone crowded",)


class DiscardTrain1822(DiscardTrain):
    def crowded(self):
        crowded = self.game.crowded_corp  # (never with fewer than two trains)
        return [c for c in self.game.corporations if len(c.trains) > 1 and crowded(c)]

    #: the last answer of :meth:`anyone_crowded` and what it read: a copy asks again
    CLONE_SKIP: ClassVar[tuple[str, ...]] = ("_crowd_memo",)
    _crowd_memo: tuple | None = None

    def anyone_crowded(self):
        """:meth:`crowded`'s truth, stopping at the first company over its limit.

        Asked at every step question (~5 times a decision, half of them in the listing): the
        answer is kept with what it reads, the phase (the limits), the pullman's rider and
        every company's trains (a holder's trains are a tuple replaced on every change), and
        given again while those are the same objects; in a listing, once for the listing (its
        memo, :meth:`Game1822.listing_memo`), without reading them again."""
        game = self.game
        # (:meth:`Game1822.listing_memo`, read in place: none outside a listing, as in a replay)
        listing = game.__dict__.get("_rights_memo")
        if listing is not None and listing.get(_MEMO_MOVES) != game._moves:
            listing = None
        if listing is not None:
            # (a listing changes nothing, and the memo is none inside a trial made in one)
            got = listing.get(_CROWDED)
            if got is not None:
                return got
        # (every company's trains in a list made by a comprehension, not ``map`` over an
        # ``attrgetter``: the slot is read by the interpreter's own attribute load, ~2x cheaper
        # for the ~40 companies; the key compares as before, place by place)
        key = (game.phase.index, getattr(game, "_pullman_train", None), getattr(game, "_pullman_saved", None),
               [c.trains for c in game.corporations])
        memo = self._crowd_memo
        # (the trains compare by identity: equal keys hold the same trains, place by place)
        if memo is not None and memo[0] == key:
            out = memo[1]
        else:
            crowded = game.crowded_corp
            out = False
            for c in game.corporations:
                if len(c.trains) > 1 and crowded(c):
                    out = True
                    break
            object.__setattr__(self, "_crowd_memo", (key, out))  # (a memo: not the action's change)
        if listing is not None:
            listing[_CROWDED] = out
        return out

    active = anyone_crowded  # (the step question's answer, without one more call)

    def discardable(self, entity) -> list:
        """Two permanents (2P/LP) or two Pullmans: one of those goes; else a normal train."""
        trains = entity.trains
        for names in (("2P", "LP"), ("P+",)):
            if len(group := [t for t in trains if t.name in names]) > 1:
                return group
        return [t for t in trains if t.name not in ("2P", "LP", "P+")]


class Route1822(RunRoutes):
    HANDLERS: ClassVar[dict] = {"run_routes": "process_run_routes", "choose": "process_choose"}

    def setup(self):
        self.pullman = None

    def actions(self, entity):
        out = super().actions(entity)
        if out and entity.type == "minor" and all(t.name == "E" for t in self.game.route_trains(entity)):
            return []
        if out and self.pullman is None and self.pullman_train(entity) and self.pullman_choices(entity):
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
    """Majors choose (a permanent train's revenue may be paid another way); minors pay half.
    The mail subsidy goes to the company; the tax haven's shares are paid too."""

    HANDLERS: ClassVar[dict] = {"dividend": "process_dividend", "choose": "process_choose"}
    MINORS_PAY_HALF = True
    KINDS = ("payout", "half", "withhold")

    def setup(self):
        self.extra_choice = ""

    def round_state(self):
        return {"subsidy": 0}

    def decides(self, entity) -> bool:
        return _is_major(entity)

    def auto_kind(self, entity) -> str:
        return "half" if entity.type != "major" and self.total_revenue() > 0 else "withhold"

    def actions(self, entity):
        out = super().actions(entity)
        if out and not self.extra_choice and self.extra_train(entity) and len(entity.trains) > 1:
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

    def payout_amounts(self, entity, kind, revenue):
        """The permanent train's revenue is split as chosen for it; the subsidy is kept."""
        extra = self.extra_train(entity) if self.extra_choice else None
        extra_rev = next(r["revenue"] for r in self.round.routes if r["train"] == extra.id) if extra else 0
        kept, paid = super().payout_amounts(entity, kind, revenue - extra_rev)
        if extra is not None:
            kept2, paid2 = super().payout_amounts(entity, self.extra_choice, extra_rev)
            kept, paid = kept + kept2, paid + paid2
        return kept + (getattr(self.round, "subsidy", 0) or 0), paid

    def corporation_dividends(self, entity, per_share):
        return self.dividends_for(entity, entity, per_share)

    def pay_shareholders(self, entity, amount):
        super().pay_shareholders(entity, amount)
        if self.game.tax_haven.value(self.game) > 0:
            amt = int(self.game.tax_haven.num_shares_of(entity) * self.per_share(entity, amount))  # truncated
            if amt > 0:
                pay(self.game, self.game.bank, self.game.tax_haven, amt, "dividend")

    def price_moves(self, entity, paid: int) -> int:
        """A minor moves once; a major once for its price paid, twice for double."""
        price = entity.share_price.price
        return 1 if entity.type == "minor" else (paid >= price) + (paid >= 2 * price and entity.type == "major")

    def after_dividend(self, entity):
        self.round.subsidy = 0
        self.extra_choice = ""

    def legal_actions(self, entity):
        out = super().legal_actions(entity)
        if "choose" in self.actions(entity):
            out += [{"type": "choose", "choice": k} for k in self.KINDS]
        return out
