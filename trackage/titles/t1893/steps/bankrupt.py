"""t1893 steps: bankrupt."""

from __future__ import annotations

from typing import ClassVar

from ....core.errors import GameError
from ....core.money import pay
from ....core.round import Step
from .buy_train import BuyTrain1893


# ============================================================== operating round
class Bankrupt1893(Step):
    """A president whose company must buy a train and who cannot raise the cheapest one
    (:meth:`liquidity`) goes bankrupt: what he can sell is sold, his cash goes to
    the bank and the game ends."""

    HANDLERS: ClassVar[dict] = {"bankrupt": "process_bankrupt"}
    BLOCKS = False

    def actions(self, entity):
        # (a player or a company is never the operator in turn: not asked who is)
        if entity.is_player or entity.is_company:
            return []
        return ["bankrupt"] if entity is self.current_entity() else []

    def train_step(self):
        """The train step when it is the step in charge; the reference sells (and counts as
        sellable) only through the step in charge, and no other operating step sells."""
        step = self.round.active_step()
        return step if isinstance(step, BuyTrain1893) else None

    def liquidity(self, player) -> int:
        """Cash, the shares the train step would let him sell, and 100M per city bond."""
        buy = self.train_step()
        cash = buy.emergency_liquidity(player) if buy is not None else player.cash
        return cash + 100 * sum(1 for c in player.companies if self.game.bond(c))

    def can_go_bankrupt(self, operator) -> bool:
        player, cheapest = operator.owner, self.game.min_depot_price()
        return player is not None and player.is_player and 0 < cheapest > self.liquidity(player) + operator.cash

    def forced(self, operator) -> bool:
        """In play, bankruptcy is for a company that must buy a train, at its train step.
        (The round's train steps are asked first: the step in charge is worked out only when
        one of them has ``operator`` in turn and obliged to buy; the same answer.)"""
        if not any(s.current_entity() is operator and s.must_buy_train(operator)
                   for s in self.round.steps if isinstance(s, BuyTrain1893)):
            return False
        buy = self.train_step()
        return buy is not None and buy.current_entity() is operator and buy.must_buy_train(operator)

    def process_bankrupt(self, action, entity):
        game = self.game
        if (not game.loading and not self.forced(entity)) or not self.can_go_bankrupt(entity):
            raise GameError(f"{entity.name} is not obliged to buy a train it cannot pay", rule="not-bankrupt")
        player = entity.owner
        if (buy := self.train_step()) is not None:
            buy.sell_off(player)
        if player.cash > 0:
            pay(game, player, game.bank, player.cash, "bankruptcy")
        player.bankrupt = True

    def legal_actions(self, entity):
        if self.actions(entity) and self.forced(entity) and self.can_go_bankrupt(entity):
            return [{"type": "bankrupt"}]
        return []
