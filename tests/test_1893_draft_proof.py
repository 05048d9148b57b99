"""1893: the draft dead-end trials spared by a proof (``Game1893.draft_cannot_dead_end``) list
the same actions as trying every listed action."""

from __future__ import annotations

import random

import pytest

from trackage.playout import COMBOS, choose
from trackage.titles import new_game
from trackage.titles.t1893.game import Game1893


def _positions(seed: int, decisions: int):
    n, options = COMBOS["1893"][seed % len(COMBOS["1893"])]
    game = new_game("1893", [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.finished:
            break
        yield game
        legal = game.legal_actions()
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    game.close()


def test_spared_trials_list_the_same(monkeypatch):
    checked = spared = 0
    for seed in (0, 3, 5):
        for game in _positions(seed, 300):
            if not game.draft_may_follow():
                continue
            proof = game.draft_cannot_dead_end()
            fast = game.copy().legal_actions(routes=False)
            with monkeypatch.context() as m:
                m.setattr(Game1893, "DRAFT_SAFE_TYPES", frozenset())
                tried = game.copy().legal_actions(routes=False)
            assert fast == tried
            checked += 1
            spared += proof and any(a["type"] in Game1893.DRAFT_SAFE_TYPES for a in fast)
    assert checked > 20 and spared > 10, (checked, spared)


def test_the_proof_needs_two_players_who_can_pay():
    game = new_game("1893", [{"id": i + 1, "name": f"P{i + 1}"} for i in range(3)], [], 1)
    bank_cards = [c for c in game.companies if c.owner is game.bank and not c.closed]
    half = max(c.value // 2 for c in bank_cards)
    for p, cash in zip(game.players, (half, half - 1, 0)):
        object.__setattr__(p, "cash", cash)
    assert not game.draft_cannot_dead_end()  # one player able to pay: his purchase could spend it
    object.__setattr__(game.players[1], "cash", half)
    assert game.draft_cannot_dead_end()


@pytest.mark.parametrize("atype", ["buy_train", "bankrupt", "sell_shares", "merge"])
def test_share_or_train_moves_are_always_tried(atype):
    assert atype not in Game1893.DRAFT_SAFE_TYPES
