"""The suggested run's set-up cuts (docs/speed.md, stop 41): the best run's entries taken
from the routes priced when the run was evaluated, and the tokened cities found from the
board's token tables, give what building everything afresh gives, at every run state of
seeded live games."""
from __future__ import annotations

import random
from typing import Any

import pytest

from trackage.core.routes import RouteRules, rules_for
from trackage.playout import COMBOS, choose
from trackage.router import optimal_routes, solve
from trackage.router.candidates import Links
from trackage.titles import new_game


def _run_states(title: str, seed: int, decisions: int) -> Any:
    """Each (game, entity) of a seeded live game where a ``run_routes`` is listed."""
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.finished:
            break
        legal = game.legal_actions(routes=False)
        for a in legal:
            if a["type"] == "run_routes":
                yield game, game.index.resolve(a)
        legal = game.legal_actions()
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))


def _tokened_by_map(game: Any, corp: Any) -> list[Any]:
    """The cities holding ``corp``'s tokens, by walking every city of the map in order."""
    rules = rules_for(game)
    return [c for _hx, tile in game.board.tiles() for c in tile.cities if RouteRules.city_tokened_by(rules, c, corp)]


@pytest.mark.parametrize("title,seed", [("1822", 1), ("1893", 2), ("1867", 0)])
def test_suggestion_set_up_is_exact(monkeypatch: pytest.MonkeyPatch, title: str, seed: int) -> None:
    states = runs = walks = taken = 0
    for game, entity in _run_states(title, seed, 220):
        states += 1
        assert solve._tokened_cities(rules_for(game), game, entity) == _tokened_by_map(game, entity) or (
            type(rules_for(game)).city_tokened_by is not RouteRules.city_tokened_by)
        monkeypatch.setattr(solve, "_REUSE_PRICED", True)
        kept = optimal_routes(game, entity, work_limit=game.ROUTER_WORK)
        monkeypatch.setattr(solve, "_REUSE_PRICED", False)
        fresh = optimal_routes(game, entity, work_limit=game.ROUTER_WORK)
        assert (kept.revenue, kept.routes, kept.optimal) == (fresh.revenue, fresh.routes, fresh.optimal)
        runs += bool(kept.routes)
        # the path walks taken from earlier board versions are the walks made afresh
        for skip, links in (game.board.router_walks or {}).items():
            fresh = Links(game.board, skip)
            for node, got in links.memo.items():
                assert got == fresh(node)
                walks += 1
            taken += sum(1 for n, got in links.memo.items() if n in links._earlier and got is links._earlier[n][0])
    assert states > 5 and runs > 3 and walks > 20 and taken > 5
