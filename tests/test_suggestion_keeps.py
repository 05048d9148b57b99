"""The router's suggested routes kept over a move that leaves them as they were
(``Game.SUGGESTION_KEEPS``, trackage.core.suggestion.suggested_routes): 1893's EVA changing
hands during the run step. Live games played with the keeping on and off list the same
actions at every position and end in the same state; the router is asked less with it on;
an undo, a refusal or another move is never carried over."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from trackage.core import routes as routemod
from trackage.core.errors import GameError
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game
from trackage.titles.t1893.game import Game1893


def _game(seed: int) -> Any:
    n, options = COMBOS["1893"][seed % len(COMBOS["1893"])]
    return new_game("1893", [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)


@pytest.fixture
def router_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    orig = routemod.suggest_routes

    def counted(game: Any, entity: Any) -> Any:
        calls[0] += 1
        return orig(game, entity)
    monkeypatch.setattr(routemod, "suggest_routes", counted)
    return calls


def _play(seed: int, decisions: int) -> tuple[list[Any], dict[str, Any], int]:
    """(the listings at every position, with and without routes; the final state; the
    run_routes processed with the engine's own check taken)"""
    game = _game(seed)
    rng = random.Random(seed)
    spare = random.Random(seed + 7)
    seen: list[Any] = []
    checked = [0]
    orig = routemod._checked_revenues

    def counted(*args: Any) -> Any:
        out = orig(*args)
        checked[0] += out is not None
        return out
    routemod._checked_revenues = counted  # type: ignore[assignment]
    try:
        for _ in range(decisions):
            if game.finished:
                break
            legal = game.legal_actions()
            seen.append((legal, game.legal_actions(routes=False)))
            action = game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS)
            game.process(action)
            if spare.random() < 0.08 and game.actions:
                game.undo()
                seen.append(game.legal_actions())
                game.redo()
                seen.append(game.legal_actions())
        return seen, full_state(game), checked[0]
    finally:
        routemod._checked_revenues = orig  # type: ignore[assignment]
        game.close()


def test_kept_routes_change_nothing(router_calls: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    on_calls = off_calls = 0
    for seed in (0, 1, 2):
        router_calls[0] = 0
        on = _play(seed, 220)
        on_calls += router_calls[0]
        monkeypatch.setattr(Game1893, "SUGGESTION_KEEPS", frozenset())
        router_calls[0] = 0
        off = _play(seed, 220)
        off_calls += router_calls[0]
        monkeypatch.undo()
        assert on[0] == off[0]
        assert on[1] == off[1]
        assert on[2] == off[2]  # the engine's check of its own run taken as often
    assert on_calls < off_calls


def _run_with_eva(decisions: int = 300) -> Any:
    """A live 1893 game stopped where a run is listed beside EVA's purchase."""
    for seed in range(6):
        game = _game(seed)
        rng = random.Random(seed)
        for _ in range(decisions):
            if game.finished:
                break
            legal = game.legal_actions(routes=False)
            types = {a["type"] for a in legal}
            if {"run_routes", "buy_company"} <= types:
                return game
            full = game.legal_actions()
            game.process(game.playout_choose(rng, full) or choose(rng, full, game.PLAYOUT_WEIGHTS))
        game.close()
    pytest.skip("no run listed beside buy_company")


def test_kept_over_eva_only(router_calls: list[int]) -> None:
    game = _run_with_eva()
    first = [a for a in game.legal_actions() if a["type"] == "run_routes"]
    assert router_calls[0] >= 1
    asked = router_calls[0]
    listed = next(a for a in game.legal_actions() if a["type"] == "buy_company")
    buy = {k: v for k, v in listed.items() if k not in ("price_range", "price_step", "canonical_prices")}
    kept = copy.deepcopy(first)
    for a in first:  # the listed routes are the listing's own: a change reaches no later listing
        for r in a.get("routes") or []:
            r["revenue"] = -1
    game.process(buy)
    again = [a for a in game.legal_actions() if a["type"] == "run_routes"]
    assert router_calls[0] == asked  # carried over the purchase
    assert again == kept
    first = kept
    # an undo moves the state without a kept move: asked again
    game.undo()
    undone = [a for a in game.legal_actions() if a["type"] == "run_routes"]
    assert router_calls[0] == asked + 1
    assert [a.get("routes") for a in undone] == [a.get("routes") for a in first]
    # a refused action leaves the state (and its own suggestion) as it was
    with pytest.raises(GameError):
        game.process({"type": "buy_company", "entity": buy["entity"], "entity_type": buy.get("entity_type"),
                      "company": "nothing"})
    assert [a for a in game.legal_actions() if a["type"] == "run_routes"] == undone
    assert router_calls[0] == asked + 1
    # the run itself, processed after a kept move, is checked by the engine's own revenues
    game.process(buy)
    run = next(a for a in game.legal_actions() if a["type"] == "run_routes")
    assert router_calls[0] == asked + 1
    taken = [0]
    orig = routemod._checked_revenues

    def counted(*args: Any) -> Any:
        out = orig(*args)
        taken[0] += out is not None
        return out
    routemod._checked_revenues = counted  # type: ignore[assignment]
    try:
        game.process(run)
    finally:
        routemod._checked_revenues = orig  # type: ignore[assignment]
    assert taken[0] == (1 if run.get("routes") else 0)
    game.close()
