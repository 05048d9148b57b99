"""1893's track step lists its tile lays with the checks worked out per hex
(``Track1893.legal_actions`` over ``tilelays.lay_candidates``): at every position of seeded
random games it lists exactly what the generic track step lists over the same candidates."""

from __future__ import annotations

import random

from trackage.core.steps.track import TrackAndTokenStep
from trackage.playout import COMBOS, choose
from trackage.titles import new_game
from trackage.titles.t1893.steps import Track1893


def test_track_listing_equals_the_generic_one_in_random_games():
    compared = lays = 0
    for seed in (0, 3, 7):
        n, options = COMBOS["1893"][seed % len(COMBOS["1893"])]
        game = new_game("1893", [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.finished:
                break
            for step in game.round.steps:
                if isinstance(step, Track1893) and step.active():
                    entity = step.current_entity()
                    if entity is None:
                        continue
                    ours = step.legal_actions(entity)
                    assert ours == TrackAndTokenStep.legal_actions(step, entity)
                    compared += 1
                    lays += sum(1 for a in ours if a["type"] == "lay_tile")
            legal = game.legal_actions()
            game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    # the games reach many track steps with lays to list
    assert compared > 50 and lays > 500
