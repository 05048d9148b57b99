"""1822's tile-lay listing keeps each hex's upgrades and lays under the hex's keys
(``Game.tile_lays_hex_keys``): at every position of seeded random games the listing equals the
one of the path asking every tile on every hex (the hook answering (None, None)), with the memo
warm from the earlier games, and listing leaves the game's state as it was."""

from __future__ import annotations

import json
import random

from helpers import players

from trackage.core.game import Game
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game
from trackage.titles.t1822.game import Game1822


def _listing(game):
    return json.dumps(game.legal_actions(routes=False), sort_keys=True, default=str)


def test_listing_equals_the_per_tile_path(monkeypatch):
    compared = lays = 0
    for seed in range(3):
        n, options = COMBOS["1822"][seed % len(COMBOS["1822"])]
        game = new_game("1822", players(n), options, seed)
        rng = random.Random(seed)
        for step in range(150):
            if game.finished:
                break
            kept = _listing(game)
            before = full_state(game) if step % 15 == 0 else None
            with monkeypatch.context() as m:
                m.setattr(Game1822, "tile_lays_hex_keys", Game.tile_lays_hex_keys)
                plain = _listing(game)
            assert kept == plain
            assert before is None or full_state(game) == before
            compared += 1
            lays += kept.count('"lay_tile"')
            legal = game.legal_actions()
            game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    assert compared > 400 and lays > 30  # (the listing was asked for tile lays often)
