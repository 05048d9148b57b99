"""Cash holders and the one way money moves between them."""

from __future__ import annotations

from typing import Any

from .errors import GameError
from .kinds import Kinds


class CashHolder(Kinds):
    """Anything with a treasury: bank, players, corporations, minors."""

    __slots__ = ()
    cash: int


class Bank(CashHolder):
    __slots__ = ("broken", "can_break", "cash")

    def __init__(self, cash: int, can_break: bool = True):
        self.cash = cash
        self.broken = False
        self.can_break = can_break

    id = "bank"
    name = "Bank"
    is_bank = True

    def break_(self) -> None:
        self.broken = True

    def __repr__(self) -> str:
        return "<Bank>"


def spend(payer: Any, receiver: Any, amount: int, *, rule: str = "insufficient-cash") -> None:
    """Move ``amount`` from ``payer`` to ``receiver``.

    Only the bank may go below zero (that breaks it when the title allows it).
    Amounts must be positive; callers skip zero amounts, like the reference.
    """
    if amount <= 0:
        raise GameError(f"{getattr(payer, 'name', payer)} cannot spend {amount}", rule="non-positive-amount")
    for side in (payer, receiver):
        if getattr(side, "closed", False) is True:
            # money between live holders only: a closed company's treasury is out of the game
            raise GameError(f"{getattr(side, 'name', side)} has closed: no money moves to or from it",
                            rule="closed-holder")
    if isinstance(payer, Bank):
        payer.cash -= amount
        if payer.cash < 0 and payer.can_break:
            payer.broken = True
    else:
        if payer.cash < amount:
            raise GameError(
                f"{payer.name} has {payer.cash} and cannot pay {amount}", rule=rule
            )
        payer.cash -= amount
    receiver.cash += amount
