"""Checks that must hold after every action of every game."""

from __future__ import annotations

from .core.ledger import cash_holders

BUYS = ("buy_shares", "par", "buy_company")


class InvariantError(AssertionError):
    pass


def check(game, start_total: int | None = None, action: dict | None = None) -> None:
    """Raise InvariantError if money leaked, certificates don't add up to 100% or a
    player's purchase took them over the certificate limit."""
    if start_total is not None:
        total = game.total_cash()
        if total != start_total:
            raise InvariantError(f"money not conserved: {total} != {start_total}")
    holders = list(game.players) + [game.pool] + list(game.corporations)
    holders += list(getattr(game, "extra_share_holders", list)())  # e.g. 1822's tax haven
    for corp in game.corporations:
        pct = sum(h.percent_of(corp) for h in holders)
        if pct != 100:
            raise InvariantError(f"{corp.id}: certificates add up to {pct}%")
        for s in corp.shares:
            if s not in corp.holder_of(s).shares_of(corp):
                raise InvariantError(f"{s.id}: owner does not hold it")
    # the limit binds stock-round purchases (an operating-round purchase from another player,
    # such as 1893's EVA, is not checked by the reference either)
    if (action is not None and action.get("type") in BUYS and action.get("entity_type", "player") == "player"
            and game.round.is_stock()):
        p = game.index.player(action.get("entity"))
        if p is not None and game.num_certs(p) > game.cert_limit(p):
            raise InvariantError(f"{p.name} bought over the certificate limit "
                                 f"({game.num_certs(p)} > {game.cert_limit(p)}) at action {action.get('id')}")


def all_cash(game) -> int:
    """The money of every cash holder (see :func:`cash_holders`)."""
    return sum(h.cash for h in cash_holders(game))


def check_money(game, start_total: int) -> None:
    """No money appears or vanishes: counted over every cash holder, closed ones included."""
    total = all_cash(game)
    if total != start_total:
        raise InvariantError(f"money not conserved over every cash holder: {total} != {start_total}")
