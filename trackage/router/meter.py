"""Distance budgets: how far a train may still run while its route grows.

A meter is told the route's first stop, then every (stop, track) step; it answers a new
state, or None when the train cannot reach that far. Meters only prune the search, so they
may be generous (a route they let through is still checked by the title's rules) but never
strict: a legal route must always pass.

* :class:`StopMeter`: a number of stops (each stop costs its ``visit_cost``);
* :class:`TypedMeter`: distance rows (``[{"nodes": [...], "visit": n}, ...]``), the stops
  of each type filling the rows that take them, as the rules' distance check does;
* :class:`HexMeter`: a number of hex edges crossed (1858's H trains), stops unlimited.

A title's rules adjust a train's meter through ``router_meter(train)`` (see
:func:`default_meter`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.routes import RouteRules
    from ..core.tiles import Path, RevenueCenter
    from ..core.trains import Train


class Meter:
    """The protocol: ``begin(node)`` and ``step(state, node, paths)`` return a state or None;
    ``spent(state)`` is a count that never falls as a route grows, and no route spends more
    than ``capacity`` (None: no such count). A state is the meter's own (a count, or counts
    by stop type), hence ``Any`` here."""

    capacity: int | None = None

    def spent(self, state: Any) -> int:
        return 0

    def counted(self, node: RevenueCenter) -> bool:
        """Does a stop at ``node`` add to the spent count?"""
        return False

    def begin(self, node: RevenueCenter) -> Any:  # pragma: no cover - protocol
        raise NotImplementedError

    def step(self, state: Any, node: RevenueCenter, paths: Sequence[Path]) -> Any:  # pragma: no cover - protocol
        raise NotImplementedError

    def accepts(self, state: Any) -> bool:  # pragma: no cover - protocol
        """Do these counts (a state of a meter with the same stop types) fit? (Asked of the
        meters of kinds that ride along another's walk: :class:`TypedMeter`.)"""
        raise NotImplementedError

    # ``join(a, b, base)``: the state of a route made of two halves from one start, with
    # states ``a`` and ``b`` (each counting the start, whose state is ``base``), or None when
    # the meter does not accept it. Meters whose steps add up define it.
    join: Any = None


class StopMeter(Meter):
    def __init__(self, stops: int, cost: Callable[[RevenueCenter], int] | None = None):
        self.stops = stops
        self.capacity = stops
        self.cost: Callable[[RevenueCenter], int] = cost if cost is not None else (lambda node: node.visit_cost)
        self._node: dict[RevenueCenter, int] = {}

    def begin(self, node: RevenueCenter) -> int | None:
        c = self.cost(node)
        return c if c <= self.stops else None

    def step(self, state: int, node: RevenueCenter, paths: Sequence[Path]) -> int | None:
        c = self._node.get(node)
        if c is None:
            c = self._node[node] = self.cost(node)
        c += state
        return c if c <= self.stops else None

    def spent(self, state: int) -> int:
        return state

    def counted(self, node: RevenueCenter) -> bool:
        return self.cost(node) > 0

    def join(self, a: int, b: int, base: int) -> int | None:
        c = a + b - base
        return c if c <= self.stops else None


State = tuple[int, ...]  # a TypedMeter's: stops counted by stop type


class TypedMeter(Meter):
    """Counts per stop type; feasible when the rows can hold them (greedy, types that fit
    fewer rows first, the order of the rules' check)."""

    def __init__(self, rows: Sequence[dict[str, Any]], stop_type: Callable[[RevenueCenter], str] | None = None,
                 cost: Callable[[RevenueCenter], int] | None = None):
        self.rows = [(frozenset(r["nodes"]), int(r["pay"] if r.get("visit") is None else r["visit"]))
                     for r in rows]
        self.types = sorted({t for ts, _ in self.rows for t in ts})
        self.index = {t: i for i, t in enumerate(self.types)}
        self.order = sorted(range(len(self.types)),
                            key=lambda i: sum(1 for ts, _ in self.rows if self.types[i] in ts))
        self.stop_type: Callable[[RevenueCenter], str] = (
            stop_type if stop_type is not None else (lambda node: node.kind))
        self.cost: Callable[[RevenueCenter], int] = cost if cost is not None else (lambda node: node.visit_cost)
        self._fits: dict[State, bool] = {}
        self._node: dict[RevenueCenter, tuple[int | None, int]] = {}
        self._moves: dict[tuple[State, int, int], State | None] = {}
        self._joins: dict[tuple[State, State, State], State | None] = {}  # (state, state, start's state) -> ``join``
        # the spent count: stops of the types that paying rows take; no route has more of
        # them than the rows taking any of those types hold
        paid = {t for r in rows if int(r.get("pay") or 0) > 0 for t in r["nodes"]}
        self._counted = [i for i, t in enumerate(self.types) if t in paid]
        self.capacity = sum(v for ts, v in self.rows if ts & paid) if paid else None

    def spent(self, state: State) -> int:
        return sum(state[i] for i in self._counted)

    def counted(self, node: RevenueCenter) -> bool:
        i = self.index.get(self.stop_type(node))
        return i is not None and i in self._counted and self.cost(node) > 0

    def step(self, state: State, node: RevenueCenter, paths: Sequence[Path] | None = None) -> State | None:
        nk = self._node.get(node)
        if nk is None:
            nk = self._node[node] = (self.index.get(self.stop_type(node)), self.cost(node))
        i, c = nk
        if i is None:
            return None
        if not c:
            return state
        key = (state, i, c)
        try:
            return self._moves[key]
        except KeyError:
            pass
        new = state[:i] + (state[i] + c,) + state[i + 1:]
        ok = self._fits.get(new)
        if ok is None:
            ok = self._fits[new] = self._feasible(new)
        r = self._moves[key] = new if ok else None
        return r

    def within(self, other: TypedMeter, nodes: Sequence[RevenueCenter]) -> bool:
        """Does every route this meter accepts pass ``other`` too, counted the same way? (The
        same stop types and rows, none longer; ``nodes`` typed and costed alike.)"""
        if self.types != other.types or len(self.rows) != len(other.rows):
            return False
        if any(st != ot or sv > ov for (st, sv), (ot, ov) in zip(self.rows, other.rows)):
            return False
        return all(self.stop_type(n) == other.stop_type(n) and self.cost(n) == other.cost(n) for n in nodes)

    def join(self, a: State, b: State, base: State) -> State | None:
        key = (a, b, base)
        try:
            return self._joins[key]
        except KeyError:
            pass
        new = tuple(x + y - z for x, y, z in zip(a, b, base))
        got = self._joins[key] = new if self.accepts(new) else None
        return got

    def accepts(self, state: State) -> bool:
        """Do these counts (a state of a meter with the same stop types) fit the rows?"""
        ok = self._fits.get(state)
        if ok is None:
            ok = self._fits[state] = self._feasible(state)
        return ok

    def _feasible(self, counts: State) -> bool:
        room = [v for _, v in self.rows]
        for i in self.order:
            num = counts[i]
            t = self.types[i]
            for r, (ts, _) in enumerate(self.rows):
                if num <= 0:
                    break
                if t not in ts or room[r] <= 0:
                    continue
                take = min(num, room[r])
                room[r] -= take
                num -= take
            if num > 0:
                return False
        return True

    def begin(self, node: RevenueCenter) -> State | None:
        return self.step((0,) * len(self.types), node)


def hex_edges(paths: Sequence[Path]) -> int:
    """Hex edges crossed along ``paths`` (walk order)."""
    return sum(0 if a.hex is b.hex else 1 for a, b in itertools.pairwise(paths))


class HexMeter(Meter):
    def __init__(self, edges: int):
        self.edges = edges
        self.capacity = edges

    def spent(self, state: int) -> int:
        return state

    def begin(self, node: RevenueCenter) -> int:
        return 0

    def step(self, state: int, node: RevenueCenter, paths: Sequence[Path]) -> int | None:
        c = state + hex_edges(paths)
        return c if c <= self.edges else None

    def join(self, a: int, b: int, base: int) -> int | None:
        c = a + b - base
        return c if c <= self.edges else None


def default_meter(rules: RouteRules, train: Train) -> Meter:
    """The meter a train's ``distance`` describes, as the title's ``router_meter(train)``
    adjusts it: ``{"hex_edges": n}`` (a hex-distance train) or ``{"free": predicate}`` (stops
    that cost no distance, e.g. stations a train may pass for free)."""
    spec = rules.router_meter(train) or {}
    if "hex_edges" in spec:
        return HexMeter(int(spec["hex_edges"]))
    free = spec.get("free")
    cost = None if free is None else (lambda node: 0 if free(node) else node.visit_cost)
    d = train.distance
    if isinstance(d, (int, float)):
        return StopMeter(int(d), cost)
    return TypedMeter(d, stop_type=lambda node: rules.stop_type(node, train), cost=cost)
