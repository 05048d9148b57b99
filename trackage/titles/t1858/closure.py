"""1858's private closure round: after the first 5E/4M, the private railways still owned by
players are exchanged for shares or closed."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...core.round import OperatingRound
from . import privates
from .steps import ExchangeApproval1858, HomeToken1858, PrivateClosure1858

if TYPE_CHECKING:
    from .game import Game1858


class ClosureRound(OperatingRound):
    """Private railways still owned by players are exchanged for shares or closed."""
    IN_PLACE: ClassVar[tuple[str, ...]] = (*OperatingRound.IN_PLACE, "pending_tokens", "approvals")

    NAME = "Operating Round"
    pending_tokens: list  # home tokens still to place (set by the steps while exchanging)

    def select_entities(self):
        return [m for m in self.game.minors if not m.closed]

    def setup(self):
        game = self.game
        game.private_closure_round = "in_progress"
        for c in list(game.companies):
            if not game.private_railway(c) or c.closed:
                continue
            if c.sym == "H&G" or c.owner is game.bank:
                privates.close_private(game, c)
        super().setup()

    def any_to_act(self) -> bool:
        return super().any_to_act() or bool(getattr(self, "pending_tokens", []))

    def next_entity(self):
        if self.pending_tokens:
            return
        super().next_entity()

    def after_process(self, action, entity):
        if action["type"] == "message":
            return
        if self.active_step() is not None:
            e = self.entities[self.entity_index]
            if not e.closed and e.owner is not None and e.owner.is_player:
                return
        self.next_entity()


def closure_round(game: Game1858, round_num: int) -> ClosureRound:
    """The private closure round (it counts as a round)."""
    game.round_counter += 1
    return ClosureRound(game, [ExchangeApproval1858, HomeToken1858, PrivateClosure1858], round_num)
