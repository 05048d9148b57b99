"""t1822 steps: issue."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.steps.issue import IssueShares
from .choose import CompanyChoices


class IssueShares1822(CompanyChoices, IssueShares):
    HANDLERS: ClassVar[dict] = {**IssueShares.HANDLERS, "choose_ability": "process_choose_ability"}
    CHOICE_TIME = "issue"

    def actions(self, entity):
        if entity.is_company:
            return ["choose_ability", "pass"] if self.ability_choices(entity) else []
        out = super().actions(entity)
        if not out and entity is self.current_entity() and entity.is_corporation \
                and any(c.sym == "P17" for c in entity.companies):
            out = ["choose_ability", "pass"]
        return out

    def chosen_bundle(self, action, entity, options, issuing):
        ids = action.get("shares") or []
        if issuing:
            match = next((b for b in options if sorted(s.id for s in b.shares) == sorted(ids)
                          and b.percent == (action.get("percent") or b.percent)), None)
        else:
            match = next((b for b in options if sorted(s.id for s in b.shares) == sorted(ids)), None)
        if match is None:
            raise GameError(f"{entity.name} cannot {'issue' if issuing else 'redeem'} {ids}",
                            rule="illegal-issue" if issuing else "illegal-redeem")
        return match

    def issue(self, entity, bundle, action) -> None:
        bundle.share_price = self.issue_price(action, bundle)
        self.game.sell_shares_and_change_price(bundle)

    def issue_price(self, action, bundle) -> int | None:
        """The per-share price an issue is paid at: the reference takes the action's
        ``share_price`` as given and, when it is missing, the full market price. New actions
        must name the issue price (the price after the drop); old logs keep what they say."""
        price = action.get("share_price")
        if self.game.loading:
            return price or None
        if price != bundle.share_price:
            raise GameError(f"{bundle.corporation.name} issues at {bundle.share_price} a share, not {price}",
                            rule="issue-price")
        return price

    def redeem(self, entity, bundle) -> None:
        self.game.share_market.transfer(bundle, entity, spender=entity, receiver=self.game.bank, price=bundle.price())

    def issue_action(self, bundle) -> dict:
        return {**super().issue_action(bundle), "share_price": bundle.share_price}

    def legal_actions(self, entity):
        return self.ability_offers(entity) if entity.is_company else super().legal_actions(entity)
