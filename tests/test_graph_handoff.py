"""A listing's walk handed to the tile lay that follows it (1867, 1861): the stale track graph
forgets what a listing asked, so a tile lay used to walk its company a second time for the
rotation check; it now takes the listing's walk of the same board state
(``TrackGraph.walked`` / ``adopt``). Live games must be exactly those played without it:
the same listings and the same state after every action."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from trackage.core.graph import TrackGraph
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def _play(title: str, seed: int, decisions: int, handoff: bool) -> tuple[list[str], int]:
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
    rng = random.Random(seed)
    seen: list[str] = []
    taken = 0
    adopt = TrackGraph.adopt

    def counting(graph: TrackGraph, corporation: Any, walk: Any) -> bool:
        nonlocal taken
        ok = adopt(graph, corporation, walk)
        taken += ok
        return ok

    TrackGraph.adopt = counting  # type: ignore[method-assign]
    try:
        for _ in range(decisions):
            if game.finished:
                break
            legal = game.legal_actions()
            if not handoff:
                game._listed_walks = None  # what the listing walked is not handed over
            action = game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS)
            game.process(action)
            seen.append(json.dumps([legal, full_state(game)], sort_keys=True, default=str))
    finally:
        TrackGraph.adopt = adopt  # type: ignore[method-assign]
    return seen, taken


@pytest.mark.parametrize("title,seed", [("1867", 0), ("1861", 1)])
def test_a_handed_over_walk_plays_the_same_game(title: str, seed: int) -> None:
    with_it, taken = _play(title, seed, 400, handoff=True)
    without, none = _play(title, seed, 400, handoff=False)
    assert none == 0
    assert taken > 10, f"{title}: only {taken} tile lays took the listing's walk"
    assert len(with_it) == len(without)
    for i, (a, b) in enumerate(zip(with_it, without)):
        assert a == b, f"{title} seed {seed}: listing or state differs after decision {i + 1}"
