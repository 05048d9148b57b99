"""The run suggestion is worked out only when asked for: ``legal_actions(routes=False)``
lists the ``run_routes`` without the router's routes (and never runs the router), and is
otherwise the listing with the routes; the suggestion comes from ``suggested_run``."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import FIXTURES

from trackage.core import routes as routemod
from trackage.core.pipeline import Pipeline
from trackage.core.suggestion import suggested_run
from trackage.router import logstates

# (title, log, take every n-th run of the log, how many runs)
LOGS = [("1822", "discard_trains_after_sr_export.json", 40, 2), ("1825", "141331.json", 25, 2),
        ("1858India", "hotseat_qs_b.json", 15, 2), ("1867", "hs_ahjzadkh_19792.json", 8, 2),
        ("1893", "1893_game_end_bank.json", 30, 2), ("1861", "29683.json", 40, 1),
        ("1858", "1858-quick-start-b.json", 30, 1)]
FROM_SUGGESTION = ("routes", "extra_revenue")


def states(title: str, name: str, every: int, n: int) -> list[Any]:
    path = FIXTURES / title / name
    if not path.exists():
        pytest.fail(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    out = []
    for _, game in logstates.run_routes_states(path, every=every):
        out.append(game)
        if len(out) == n:
            break
    assert out, f"{title}: no run_routes in {name}"
    return out


def bare(listing: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in a.items() if a["type"] != "run_routes" or k not in FROM_SUGGESTION} for a in listing]


@pytest.fixture
def router_calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    calls: list[Any] = []
    real = routemod.suggest_routes

    def counting(game: Any, entity: Any) -> list[dict[str, Any]]:
        calls.append(entity)
        return real(game, entity)

    monkeypatch.setattr(routemod, "suggest_routes", counting)
    return calls


@pytest.mark.parametrize(("title", "name", "every", "n"), LOGS, ids=[t for t, *_ in LOGS])
def test_listing_without_routes_is_the_listing_less_its_routes(title: str, name: str, every: int, n: int,
                                                              router_calls: list[Any]) -> None:
    for game in states(title, name, every, n):
        fresh = game.copy()
        router_calls.clear()
        without = game.legal_actions(routes=False)
        assert not router_calls, "routes=False ran the router"
        runs = [a for a in without if a["type"] == "run_routes"]
        assert runs and all(not set(a) & set(FROM_SUGGESTION) for a in runs)
        with_routes = game.legal_actions()
        assert len(router_calls) == len(runs)
        assert all(isinstance(a["routes"], list) for a in with_routes if a["type"] == "run_routes")
        assert bare(with_routes) == without
        # asked first with the routes, a copy of the state lists the same
        assert fresh.legal_actions() == with_routes
        assert fresh.legal_actions(routes=False) == without
        # remembered until the game moves: no router run on asking again
        router_calls.clear()
        assert game.legal_actions() == with_routes
        entity = game.index.resolve(runs[0])
        assert suggested_run(game, entity) == next(a for a in with_routes if a["type"] == "run_routes")
        assert not router_calls


def test_the_gate_accepts_a_run_whatever_its_routes(router_calls: list[Any]) -> None:
    [game] = states("1867", "hs_ahjzadkh_19792.json", 8, 1)
    entity = game.current_entity()
    router_calls.clear()
    listed = Pipeline(game).listed_like({"type": "run_routes", **game.index.ref(entity)}, entity)
    assert [a["type"] for a in listed] == ["run_routes"] and not router_calls
    from trackage.core.legal import is_listed

    for routes in ([], [{"train": "x", "connections": []}], None):
        assert is_listed({"type": "run_routes", "routes": routes, **game.index.ref(entity)}, listed)
