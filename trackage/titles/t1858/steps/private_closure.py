"""t1858 steps: private closure."""

from __future__ import annotations

from typing import ClassVar

from ....core.entities import ShareBundle, without
from ....core.errors import GameError
from ....core.steps.choose import ChooseMixin
from ....core.steps.passing import Passing
from .. import gauges, privates


class PrivateClosure1858(ChooseMixin, Passing):
    """Each remaining private railway is exchanged for a share of a connected company, or
    closes (its owner receives its face value)."""

    HANDLERS: ClassVar[dict] = {"choose": "process_choose", "pass": "process_pass"}
    TRUST_LOGGED_CHOICES: ClassVar[bool] = True

    def setup(self):
        minor = self.current_entity()
        self.round.approval_minor = minor
        self.round.approvals = {c: "approved" if c.owner is minor.owner else "pending"
                                for c in self.game.corporations if c.floated()} if minor is not None else {}

    def actions(self, entity):
        return ["choose", "pass"] if entity is self.current_entity() else []

    DESCRIPTION: ClassVar[str] = "Exchange Private Companies"

    def exchange_corporations(self, minor):
        g = self.game
        return [c for c in g.corporations if gauges.corporation_private_connected(g, c, minor)
                and (c.num_ipo_shares() > 0 or c.num_market_shares(g.pool) > 0)]

    def choices(self, minor):
        g = self.game
        out = []
        for c in self.exchange_corporations(minor):
            ipo = c.num_ipo_shares() > 0
            if ipo:
                out.append({"corporation": c.id, "from": "treasury"})
            # a market share only once the treasury is empty, its exchange denied, or the same president's
            if c.num_market_shares(g.pool) and not (ipo and self.round.approvals.get(c) != "denied"
                                                    and c.owner is not minor.owner):
                out.append({"corporation": c.id, "from": "market"})
        return out

    def choice_label(self, entity, choice) -> str:
        corp = self.game.corporation_by_id(choice.get("corporation")) if isinstance(choice, dict) else None
        if corp is None:
            return "Exchange"
        where = "treasury" if choice.get("from") == "treasury" else "market"
        return f"Exchange {entity.name} for a {corp.name} ({corp.id}) share from the {where}"

    def passing(self, entity) -> None:
        """The private railway is not exchanged: it closes (its owner is paid its value)."""
        privates.close_private(self.game, entity)

    def choose(self, entity, choice) -> None:
        """The private is exchanged for the chosen share, or its treasury share is asked for."""
        g = self.game
        corp = g.corporation_by_id(choice.get("corporation")) if isinstance(choice, dict) else None
        where = choice.get("from") if isinstance(choice, dict) else None
        if corp is None or where not in ("treasury", "market"):
            raise GameError("choose: name a company and treasury or market", rule="bad-choice")
        company = g.private_company(entity)
        player = company.owner
        approval = self.round.approvals.get(corp)
        if where == "market" and corp.num_ipo_shares() > 0 and approval == "pending":
            raise GameError("ask for a treasury share first", rule="approval-needed")
        if where == "treasury" and approval != "approved":
            self.round.pending_approval = corp
            return
        share = corp.shares_of(corp)[0] if where == "treasury" else g.pool.shares_of(corp)[0]
        treasury = where == "treasury"
        privates.exchange_for_share(g, self.round, ShareBundle([share], corporation=corp), corp, entity, player,
                                    treasury)
        if not treasury:
            if company in player.companies:
                player.companies = without(player.companies, company)
            company.owner = g.bank
        privates.close_private(g, company)
