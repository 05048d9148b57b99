"""t1867 steps: buy company."""

from __future__ import annotations

from typing import Any, ClassVar

from ....core.round import Round, Step
from ....core.steps.buy_company import BuyCompanyMixin
from ....core.trains import PhaseTrack
from ..game import Game1867

_PURCHASABLE = Game1867.purchasable_companies
_ROUND_CURRENT = Round.current_entity_of_round
_PHASE_CURRENT = PhaseTrack.current


class BuyCompany1867(BuyCompanyMixin, Step):
    HANDLERS: ClassVar[dict] = {"buy_company": "process_buy_company", "pass": "process_pass"}
    BLOCKS = False

    def can_buy_company(self, entity) -> bool:
        """The cheap tests first (the entity up, the phase's permission), then whether any
        purchasable private's minimum price is within its cash."""
        game = self.game
        r = self.round
        if type(self).current_entity is Step.current_entity and type(r).current_entity_of_round is _ROUND_CURRENT:
            # (the step's and the round's base answers, read in place: asked at every action)
            ents, i = r.entities, r.entity_index
            current: Any = ents[i] if ents and i < len(ents) else None
        else:
            current = self.current_entity()
        if entity is not current:
            return False
        ph = game.phase  # (its current phase read in place where ``current`` is the core's)
        cur = ph.phases[ph.index] if type(ph).current is _PHASE_CURRENT else ph.current
        if "can_buy_companies" not in cur.get("status", ()):
            return False
        cash = entity.cash
        if type(game).purchasable_companies is not _PURCHASABLE:
            return any(c.min_price <= cash for c in game.purchasable_companies(entity))
        # (1867's purchasable_companies read in place, without its list: asked at every action)
        for c in game.companies:
            if c.min_price <= cash and not c.closed and (o := c.owner) is not None and o.is_player \
                    and o is not entity:
                return True
        return False

    def actions(self, entity):
        if not entity.is_corporation or not self.can_buy_company(entity):
            return []
        return ["buy_company", "pass"] if self.blocks() else ["buy_company"]

    def has_actions(self, entity) -> bool:
        """:meth:`actions`' truth, without the list (the round's "anything?")."""
        return entity.is_corporation and self.can_buy_company(entity)

    def answers(self, entity, atype):
        """:meth:`actions`' two truths for ``atype``, without the list."""
        if not entity.is_corporation or not self.can_buy_company(entity):
            return False, False
        return atype == "buy_company" or (atype == "pass" and self.blocks()), True

    def price_range(self, entity, company):
        """A player's private, in a phase that allows it, between its minimum and maximum."""
        ok = company in self.game.purchasable_companies(entity) and "can_buy_companies" in self.game.phase.status
        return (company.min_price, company.max_price) if ok else None

    def listed_earlier(self, entity) -> bool:
        """The round has this step more than once (any time in the turn, and blocking before
        loans and at the end); purchases go to the first active one, so only it lists them."""
        for s in self.round.steps:
            if s is self:
                return False
            if isinstance(s, BuyCompany1867) and s.active() and "buy_company" in s.actions(entity):
                return True
        return False

    def legal_actions(self, entity):
        acts = self.actions(entity)
        out = []
        if "buy_company" in acts and not self.listed_earlier(entity):
            out += self.priced_offers(entity, self.game.purchasable_companies(entity))
        if "pass" in acts:
            out.append({"type": "pass"})
        return out


class BuyCompanyPreloan(BuyCompany1867):
    pass
