"""A corporation issues shares from its treasury to the market, or redeems them from it.

One action ends the corporation's turn at the step. What may be issued or redeemed is the
game's (``issuable_shares`` / ``redeemable_shares``); how an issue moves the price is the
title's (:meth:`IssueShares.issue`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import GameError
from ..round import Step
from ..shares import action_bundle
from .emergency import same_bundle

if TYPE_CHECKING:
    from ..entities import ShareBundle


class IssueShares(Step):
    """``sell_shares`` issues a treasury bundle, ``buy_shares`` redeems one from the market."""

    HANDLERS: ClassVar[dict[str, Any]] = {"sell_shares": "process_sell_shares", "buy_shares": "process_buy_shares",
                                "pass": "process_pass"}

    def description(self) -> str:
        return "Issue or Redeem Shares"

    # ---------------------------------------------------------- hooks
    def issuable(self, entity: Any) -> list[ShareBundle]:
        """The bundles ``entity`` may issue now."""
        bundles: list[ShareBundle] = self.game.issuable_shares(entity)
        return bundles

    def redeemable(self, entity: Any) -> list[ShareBundle]:
        """The bundles ``entity`` may redeem now."""
        bundles: list[ShareBundle] = self.game.redeemable_shares(entity)
        return bundles

    def chosen_bundle(self, action: dict[str, Any], entity: Any, options: list[ShareBundle],
                      issuing: bool) -> ShareBundle:
        """The bundle among ``options`` that ``action`` names (certificates and percent);
        refused when there is none."""
        bundle = action_bundle(self.game, action, priced=False)
        for b in options:
            if same_bundle(b, bundle):
                return b
        raise GameError("that bundle cannot be issued or redeemed now", rule="illegal-sale")

    def issue(self, entity: Any, bundle: ShareBundle, action: dict[str, Any]) -> None:
        """Sell ``bundle`` from the treasury to the market; the price moves one column left."""
        self.game.share_market.sell_shares(bundle)
        self.game.stock_market.move_left(entity)

    def redeem(self, entity: Any, bundle: ShareBundle) -> None:
        """Buy ``bundle`` back from the market into the treasury."""
        self.game.share_market.buy_shares(entity, bundle)

    def issue_action(self, bundle: ShareBundle) -> dict[str, Any]:
        """The legal ``sell_shares`` action issuing ``bundle``."""
        return {"type": "sell_shares", "shares": [s.id for s in bundle.shares], "percent": bundle.percent}

    # ---------------------------------------------------------- the step
    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not entity.is_corporation:
            return []
        out: list[str] = []
        if self.redeemable(entity):
            out.append("buy_shares")
        if self.issuable(entity):
            out.append("sell_shares")
        if out:
            out.append("pass")
        return out

    def has_actions(self, entity: Any) -> bool:
        """:meth:`actions`' truth: a redemption, else an issue, without the other asked."""
        return entity is self.current_entity() and entity.is_corporation and (
            bool(self.redeemable(entity)) or bool(self.issuable(entity)))

    def process_sell_shares(self, action: dict[str, Any], entity: Any) -> None:
        self.issue(entity, self.chosen_bundle(action, entity, self.issuable(entity), True), action)
        self.pass_()

    def process_buy_shares(self, action: dict[str, Any], entity: Any) -> None:
        self.redeem(entity, self.chosen_bundle(action, entity, self.redeemable(entity), False))
        self.pass_()

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out: list[dict[str, Any]] = []
        if "sell_shares" in acts:
            out += [self.issue_action(b) for b in self.issuable(entity)]
        if "buy_shares" in acts:
            out += [{"type": "buy_shares", "shares": [s.id for s in b.shares], "percent": b.percent}
                    for b in self.redeemable(entity)]
        if "pass" in acts:
            out.append({"type": "pass"})
        return out
