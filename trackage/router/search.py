"""Branch and bound over trains: the best run of a company, proven.

Trains are ordered by their best route bound. A node of the search has chosen a route (or none)
for the first trains; its bound is what is chosen plus, for every later train, the best route
that shares no track with what is chosen (exact values where known, else cheap bounds).
Candidates are sorted by bound, so a train's loop stops as soon as a candidate cannot beat the
best run; a candidate's exact value alone is computed the first time the search needs it.
Interchangeable trains take candidates in increasing order (a multiset, not every
permutation). A leaf that could beat the best is evaluated exactly by the title's rules as one
run (combination rules and bonuses included) and checked as ``process()`` will check it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Stats:
    candidates: dict = field(default_factory=dict)  # train id -> candidate routes
    evaluated: int = 0  # candidates evaluated exactly alone
    bad_bounds: int = 0  # candidates whose cheap bound was below their value (a title bug)
    links_walked: int = 0
    nodes: int = 0  # search nodes
    leaves: int = 0  # runs evaluated exactly
    rejected: int = 0  # runs the title's rules refused
    unlogged: int = 0  # runs whose log form did not rebuild to the same revenue
    enumerate_s: float = 0.0
    search_s: float = 0.0


class _Stop(Exception):
    pass


class Search:
    def __init__(self, lists: list, same_as_prev: list, value: Callable, evaluate: Callable,
                 deadline=None, stats=None):
        """``lists[i]``: train i's candidates, sorted by ``bound`` (descending);
        ``same_as_prev[i]``: train i is interchangeable with train i-1; ``value(c)``: the exact
        value alone of a candidate (<= its bound; <= 0 when it can never run);
        ``evaluate(choice)``: exact revenue of a run (None if illegal)."""
        self.lists = lists
        self.same = same_as_prev
        self.value = value
        self.evaluate = evaluate
        self.deadline = deadline
        self.stats = stats if stats is not None else Stats()
        self.best = 0
        self.best_choice: list = [None] * len(lists)
        self.finished = False

    def best_alone(self, lst, used: int) -> int:
        """An upper bound of the best candidate of ``lst`` compatible with ``used``."""
        m = 0
        value = self.value
        for c in lst:
            if c.bound <= m:
                break
            if c.mask & used:
                continue
            v = c.value
            if v is None:
                v = value(c)
            if v > m:
                m = v
        return m

    def rest_bound(self, i: int, used: int) -> int:
        return sum(self.best_alone(lst, used) for lst in self.lists[i:])

    def run(self) -> None:
        n = len(self.lists)
        choice: list = [None] * n
        idx: list = [-1] * n
        stats = self.stats
        deadline = self.deadline
        lists = self.lists
        same = self.same
        value = self.value

        def rec(i, used, acc):
            stats.nodes += 1
            if deadline is not None and not stats.nodes & 63 and time.monotonic() > deadline:
                raise _Stop
            if i == n:
                if acc > self.best:
                    stats.leaves += 1
                    v = self.evaluate(choice)
                    if v is None:
                        stats.rejected += 1
                    elif v > self.best:
                        self.best = v
                        self.best_choice = list(choice)
                return
            rest = self.rest_bound(i + 1, used)
            if same[i]:
                start = idx[i - 1] + 1 if choice[i - 1] is not None else len(lists[i])
            else:
                start = 0
            lst = lists[i]
            for k in range(start, len(lst)):
                c = lst[k]
                if acc + c.bound + rest <= self.best:
                    break
                if c.mask & used:
                    continue
                v = c.value
                if v is None:
                    v = value(c)
                if v <= 0 or acc + v + rest <= self.best:
                    continue
                choice[i] = c
                idx[i] = k
                rec(i + 1, used | c.mask, acc + v)
            choice[i] = None
            idx[i] = -1
            if acc + rest > self.best:
                rec(i + 1, used, acc)

        t0 = time.monotonic()
        try:
            rec(0, 0, 0)
            self.finished = True
        except _Stop:
            self.finished = False
        stats.search_s += time.monotonic() - t0
