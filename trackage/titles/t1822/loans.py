"""1822's player loans: a player's debt to the bank, with its interest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import GameError
from ...core.money import pay

if TYPE_CHECKING:
    from .game import Game1822


def add_interest_player_loans(game: Game1822) -> None:
    """At a stock round's end each debt grows by its interest."""
    for p in game.players:
        debt = game.player_debt.get(p, 0)
        if debt > 0:
            game.player_debt[p] = debt + -(-debt * game.PLAYER_LOAN_INTEREST // 100)


def player_loan(game: Game1822, player, amount) -> None:
    """The bank lends ``amount``; the debt includes 50% interest at once."""
    pay(game, game.bank, player, amount, "loan")
    game.player_debt[player] = game.player_debt.get(player,
                                                    0) + amount + -(-amount * game.PLAYER_LOAN_INTEREST // 100)


def payoff_player_loan(game: Game1822, player, amount=None) -> None:
    """``player`` pays back ``amount`` (all he can, if None) of his debt."""
    debt = game.player_debt.get(player, 0)
    if debt <= 0:
        raise GameError(f"{player.name} has no loan", rule="no-loan")
    if amount is not None and (not isinstance(amount, int) or amount <= 0):
        raise GameError("a payoff needs a positive integer amount", rule="malformed-action")
    amount = min(player.cash if amount is None else min(amount, player.cash), debt)
    if amount <= 0:
        raise GameError(f"{player.name} has no cash to pay off the loan", rule="insufficient-cash")
    pay(game, player, game.bank, amount, "loan_repayment")
    game.player_debt[player] = debt - amount
