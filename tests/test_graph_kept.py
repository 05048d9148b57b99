"""A track graph that carries its walks over to new board versions (TrackGraph.keep_walks,
rebase) answers exactly as a fresh graph at every position of random 1822 and 1867 games."""

from __future__ import annotations

import random

import pytest

from trackage.core.graph import TrackGraph
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def _answers(g: TrackGraph, corp: object) -> tuple[object, ...]:
    c = corp  # type: ignore[assignment]
    return (list(g.connected_hexes(c).items()), list(g.connected_nodes(c)), list(g.connected_paths(c)),
            list(g.reachable_hexes(c)), list(g._offered_nodes(c)))


@pytest.mark.parametrize(("title", "seed", "decisions"), [("1822", 0, 150), ("1822", 3, 150), ("1867", 1, 150)])
def test_kept_walks_equal_fresh(title: str, seed: int, decisions: int) -> None:
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
    rng = random.Random(seed)
    kept = TrackGraph(game.board, **game.graph_options())
    kept.keep_walks()
    version = game.board.state.version
    carried = compared = 0
    try:
        for _ in range(decisions):
            if game.finished:
                break
            if game.board.state.version != version:
                kept.rebase()
                version = game.board.state.version
                carried += len(kept._untaught)
            fresh = TrackGraph(game.board, **game.graph_options())
            for corp in game.board.token_cities():
                assert _answers(kept, corp) == _answers(fresh, corp), (title, seed, corp)
                compared += 1
            legal = game.legal_actions()
            game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    finally:
        game.close()
    assert compared > 100
    assert carried > 10  # walks were carried over, not only recomputed
