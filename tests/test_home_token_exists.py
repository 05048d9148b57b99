"""1867 and 1861: whether a company has a home token location (``has_home_token_location``,
the first hex found) agrees with the whole list (``home_token_locations``) at every position of
seeded random games, for every company (those with a printed home asked too: the rule reads
only the board)."""

from __future__ import annotations

import random

import pytest

from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def _positions(title: str, seed: int, decisions: int):
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
    rng = random.Random(seed)
    for k in range(decisions):
        if game.finished:
            break
        if k % 3 == 0:
            yield game
        legal = game.legal_actions()
        game.process(choose(rng, legal, game.PLAYOUT_WEIGHTS))
    game.close()


@pytest.mark.parametrize("title", ["1867", "1861"])
def test_exists_agrees_with_the_list(title):
    seen: dict[tuple[str, bool], int] = {}
    for seed in (2, 4):
        for game in _positions(title, seed, 300):
            for corp in game.corporations:
                whole = bool(game.home_token_locations(corp))
                assert game.has_home_token_location(corp) is whole, (seed, corp.id)
                key = (corp.type, whole)
                seen[key] = seen.get(key, 0) + 1
    # both answers met
    assert sum(n for (_, w), n in seen.items() if w) > 10 and sum(n for (_, w), n in seen.items() if not w) > 10, seen
