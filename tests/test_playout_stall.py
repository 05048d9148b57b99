"""A random playout that cannot move on stops as stuck instead of running for ever.

1893, 4 players, seed 5486 (a differential seed of stop 46): in operating round 5 every action
of RSE's train step is refused as leading to a founding the reference cannot do (quirk "a
founding the reference cannot do"), while the other players may still buy EVA from each other
at any price: the listing is never empty, and before the stall rule the playout traded EVA
for ever (130,000 decisions in a few minutes)."""

from __future__ import annotations

import pytest

from trackage import playout
from trackage.core.errors import GameError


def test_1893_eva_trading_without_end_is_stuck():
    with pytest.raises(GameError) as err:
        playout.random_playout("1893", 4, [], 5486)
    assert err.value.rule == "stuck"
    assert "Rhein-Sieg Eisenbahn has been in charge of Operating Round" in str(err.value)
    assert f"for {playout.STALL_LIMIT} actions (last buy_company" in str(err.value)


def test_stall_counts_only_one_entity_in_charge(monkeypatch):
    # a game that moves on is not stopped, even with a small limit: 300 decisions of 1825, in
    # which the entity in charge changes far more often than every 40 actions
    monkeypatch.setattr(playout, "STALL_LIMIT", 40)
    game = playout.random_playout("1825", 3, ["unit_2"], 7, max_actions=300)
    assert len(game.actions) >= 300
