"""Cash holders and the one way money moves between them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from .errors import GameError
from .journal import MONEY_CATEGORIES, Journal
from .kinds import Kinds

if TYPE_CHECKING:
    from .game import Game


class CashHolder(Kinds):
    """Anything with a treasury: bank, players, corporations, minors."""

    __slots__ = ()
    cash: int


class Bank(CashHolder):
    __slots__ = ("broken", "can_break", "cash", "journal")

    def __init__(self, cash: int, can_break: bool = True):
        self.journal: Journal | None = None  # the game's, set by Game.__init__: the bank breaking is recorded there
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
    # money between live holders only: a closed company's treasury is out of the game (the
    # payer asked first, then the receiver)
    # (a player and the bank have no ``closed`` to ask: neither class, nor a barrier-free
    # twin of it, has one, and their objects have no ``__dict__``; their kind flags spare the
    # look-up on most payments)
    if not (payer.is_player or payer.is_bank) and getattr(payer, "closed", False) is True:
        _refuse_closed(payer)
    if not (receiver.is_player or receiver.is_bank) and getattr(receiver, "closed", False) is True:
        _refuse_closed(receiver)
    if isinstance(payer, Bank):
        payer.cash -= amount
        if payer.cash < 0 and payer.can_break:
            if not payer.broken and payer.journal is not None:
                payer.journal.record("bank_broken", cash=payer.cash)
            payer.broken = True
    else:
        if payer.cash < amount:
            raise GameError(
                f"{payer.name} has {payer.cash} and cannot pay {amount}", rule=rule
            )
        payer.cash -= amount
    receiver.cash += amount


def _refuse_closed(side: Any) -> NoReturn:
    raise GameError(f"{getattr(side, 'name', side)} has closed: no money moves to or from it", rule="closed-holder")


def holder_id(holder: Any) -> str | int:
    """The id money events name a holder by: ``"bank"``, a player's id, a company's id."""
    hid: str | int = holder.id
    return hid


def holder_kind(holder: Any) -> str:
    """The column of the seeds' money table ``holder`` belongs to: ``bank``, ``players``,
    ``companies``, ``minors``, ``pool`` or ``other`` (e.g. 1822's phase-revenue pots)."""
    if holder.is_bank:
        return "bank"
    if holder.is_player:
        return "players"
    if holder.is_minor or (holder.is_corporation and getattr(holder, "type", None) == "minor"):
        return "minors"
    if holder.is_corporation:
        return "companies"
    return "pool" if holder.id == "pool" else "other"


# the reasons a payment may give (:data:`MONEY_CATEGORIES`'s keys, as a frozen set: a
# payment asks it once, and a set answers faster than the read-only mapping)
_REASONS: frozenset[str] = frozenset(MONEY_CATEGORIES)


def pay(game: Game, payer: CashHolder, receiver: CashHolder, amount: int, why: str, *,
        rule: str = "insufficient-cash") -> None:
    """Move ``amount`` from ``payer`` to ``receiver`` as :func:`spend` does, and record it in
    the game's journal as a money event with its reason ``why`` (one of
    :data:`~trackage.core.journal.MONEY_CATEGORIES`)."""
    if why not in _REASONS:
        raise ValueError(f"unknown reason for a payment: {why!r}")
    spend(payer, receiver, amount, rule=rule)
    # (``holder_id`` inlined: a payment is the journal's most frequent event)
    by: Any = payer
    to: Any = receiver
    # (``holder_kind``'s first two answers asked in place: the bank and players are on one
    # side of most payments)
    payer_kind = "bank" if by.is_bank else "players" if by.is_player else holder_kind(by)
    receiver_kind = "bank" if to.is_bank else "players" if to.is_player else holder_kind(to)
    # (``round_label`` worked out in place, the same answers in the same order: asked once
    # per payment, the label of the round the game is in)
    r = getattr(game, "round", None)
    if r is None:
        label = "Set-up"
    elif r.is_stock():
        label = f"SR {game.turn}"
    elif r.is_operating():
        label = f"OR {game.turn}.{r.round_num}"
    else:
        label = f"{r.name} {game.turn}"
    # (the event's fields as a dict written in place: :meth:`Journal.add`)
    game.journal.add("money", {"payer": by.id, "receiver": to.id, "amount": amount, "why": why, "round": label,
                               "payer_kind": payer_kind, "receiver_kind": receiver_kind})
