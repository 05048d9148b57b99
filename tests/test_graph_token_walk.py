"""The short token walk: ``can_token`` answered by walks that stop at the first tokenable city
must give the whole walk's answer, and the whole walks it skipped are done before a token
moves (the stale-graph quirk keeps a graph's answers past such a move)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from trackage.core.graph import TrackGraph
from trackage.playout import COMBOS, random_playout


def _walkers(game: Any) -> list[Any]:
    return [c for c in list(game.corporations) + list(game.minors)
            if not getattr(c, "closed", False) and any(t.used for t in getattr(c, "tokens", []))]


@pytest.mark.parametrize("title,seed", [("1861", 1), ("1825", 2), ("1893", 3), ("1822", 1)])
def test_short_walk_agrees_with_the_whole_walk(title: str, seed: int) -> None:
    checks = {"n": 0, "found": 0}

    def on_action(game: Any, _action: dict[str, Any]) -> None:
        if len(game.actions) % 4:
            return
        board = game.board
        for corp in _walkers(game):
            # a fresh graph each time: the whole walk of the state as it is now
            graph = TrackGraph(board, **game.graph_options())
            rnd = random.Random(f"{len(game.actions)}/{corp.id}")
            chosen: dict[Any, bool] = {}

            def some(node: Any, chosen: dict[Any, bool] = chosen, rnd: random.Random = rnd) -> bool:
                if node not in chosen:
                    chosen[node] = rnd.random() < 0.1
                return chosen[node]

            def tokenable(node: Any, corp: Any = corp) -> bool:
                return bool(node.is_city and board.tokenable(node, corp, free=True))

            for wanted in (some, tokenable):
                short = graph._offers_any(corp, wanted)
                whole = any(wanted(n) for n in graph._offered_nodes(corp))
                assert short == whole, (title, seed, len(game.actions), corp.id, wanted.__name__)
                checks["n"] += 1
                checks["found"] += whole

    n, options = COMBOS[title][seed % len(COMBOS[title])]
    random_playout(title, n, options, seed, max_actions=360, on_action=on_action)
    assert checks["n"] > 100 and 0 < checks["found"] < checks["n"]


class _Stop(Exception):
    pass


def test_skipped_whole_walks_are_done_before_a_token_moves() -> None:
    seen: dict[str, Any] = {}

    def on_action(game: Any, _action: dict[str, Any]) -> None:
        graph = game.graph
        if seen or not graph._pending:
            return
        corp = next(iter(graph._pending))
        tokens = [t for t in corp.tokens if t.used and t.city is not None]
        if not tokens:
            return
        # what the whole walk finds now, before the token moves
        expected = set(TrackGraph(game.board, **game.graph_options())._offered_nodes(corp))
        assert corp not in graph._offered
        game.board.remove_token(tokens[-1])
        seen["offered"] = set(graph._offered[corp])
        seen["expected"] = expected
        seen["unsettled"] = game.board.unsettled_graph
        raise _Stop

    n, options = COMBOS["1861"][1 % len(COMBOS["1861"])]
    with pytest.raises(_Stop):
        random_playout("1861", n, options, 1, max_actions=900, on_action=on_action)
    assert seen["offered"] == seen["expected"]
    assert seen["unsettled"] is None
