"""1822's additions to the legal actions: a president's emergency sales."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game1822


def with_emergency_sales(game: Game1822, out: list, entity=None) -> list:
    """``out`` (the core's legal actions) with the sales a president may make to buy a train
    in an emergency (those that would not make the tax haven a candidate for the presidency)."""
    if game.finished:
        return out
    if not game.round.is_operating():
        return out
    from .steps import BuyTrain1822

    cur = game.round.current_entity_of_round()
    for s in game.round.steps:
        if isinstance(s, BuyTrain1822) and s.active() and cur is not None and s.blocking() \
                and "sell_shares" in s.actions(cur) and game.round.active_step() is s:
            player = cur.owner
            if entity is not None and entity is not player:
                break
            for b in s.sellable_bundles(player):
                if game.tax_haven_would_be_president(b):
                    continue
                out.append({"type": "sell_shares", "shares": [x.id for x in b.shares], "percent": b.percent,
                            **game.index.ref(player)})
            break
    return out
