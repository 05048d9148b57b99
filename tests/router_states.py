"""Shared by the router's tests: log states, and the lists a router call's walks give."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from trackage.router import logstates, optimal_routes, solve


def log_state(title: str, log: str, at: int | None) -> tuple[object, object]:
    """(game, company) just before run_routes ``at`` of a shared log (None: its last run of
    a company with several trains); skipped, with the reason, when the log is absent."""
    path = FIXTURES / title / log
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    if at is None:
        states = [(a, g) for a, g in logstates.run_routes_states(path)
                  if len(list(g.route_trains(g.index.resolve(a)))) > 1]
        action, game = states[-1]
    else:
        game, action = logstates.state_before(path, at)
    return game, game.index.resolve(action)


def first_lists(monkeypatch, game, entity, row, patches=()) -> tuple[object, dict]:
    """The router's result and, per train name, its kind's first list as ``row(candidate)``
    by rank, with ``patches`` ((object, attribute, value) triples) in place."""
    walks: dict = {}
    real = solve._walk

    def spy(plan, *a, **k):
        kind, theirs = real(plan, *a, **k)
        for p, got in ((plan, kind), *zip(k.get("riders", ()), theirs)):
            walks.setdefault(p.train.name, [row(c) for c in got.cands])
        return kind, theirs

    with monkeypatch.context() as m:
        m.setattr(solve, "_walk", spy)
        for obj, name, value in patches:
            m.setattr(obj, name, value)
        res = optimal_routes(game, entity)
    return res, walks
