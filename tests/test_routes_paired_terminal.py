"""The shared pairing of a route's logged connections answers ``check_terminals`` as the
walk over the route's ordered paths does (a terminal between the first and last path refuses
the route; one at either end does not)."""

from __future__ import annotations

from typing import Any

import pytest

from trackage.core.routes import Chain, Route, RouteError, RouteRules, _paired_segments


class _Node:
    def __init__(self, name: str):
        self.name = name
        self.hex = self


class _Path:
    def __init__(self, nodes: tuple[_Node, ...], terminal: int | None = None):
        self.nodes = nodes
        self.terminal = terminal


def _chains(terminal_at: int) -> list[Chain]:
    a, b, c = _Node("A"), _Node("B"), _Node("C")
    paths = [_Path((a,)), _Path(()), _Path((b,)), _Path((b,)), _Path((c,))]
    paths[terminal_at].terminal = 1
    one = Chain((a, b), paths[:3], ["A", "B"])  # type: ignore[arg-type]
    # (the second chain walked from C: the route turns it, B first)
    two = Chain((c, b), [paths[4], paths[3]], ["C", "B"])  # type: ignore[arg-type]
    for ch in (one, two):
        ch._keys = []
    return [one, two]


def _route(chains: list[Chain], paired: bool) -> Route:
    rules = RouteRules(None)  # type: ignore[arg-type]
    got = _paired_segments(chains)
    route = Route(rules, None, connection_data=list(got[0]))  # type: ignore[arg-type]
    if paired:
        route._paired = got
    return route


def _refused(route: Route) -> bool:
    try:
        route.rules.check_terminals(route)
    except RouteError as e:
        assert e.rule == "route-terminal"
        return True
    return False


@pytest.mark.parametrize("terminal_at, through", [(0, False), (1, True), (2, True), (3, True), (4, False)])
def test_pairing_answers_terminals_as_the_walk(terminal_at: int, through: bool) -> None:
    chains = _chains(terminal_at)
    got: Any = _paired_segments(chains)
    assert len(got[0]) == 2 and got[4] is through
    walked = _route(_chains(terminal_at), paired=False)
    assert walked._paired is None and len(walked.paths) == 5
    assert _refused(walked) is through
    assert _refused(_route(chains, paired=True)) is through
