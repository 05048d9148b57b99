"""Branch and bound over trains: the best run of a company, proven.

Trains are ordered by their best route bound. A node of the search has chosen a route (or none)
for the first trains; its bound is what is chosen plus, for every later train, the best route
that shares no track with what is chosen, found on bitsets of ranked candidates
(:mod:`.bitsets`). Routes count for their cheap bound until a run through them disappoints:
then their exact values alone are computed and used from there on. A train's candidates are
tried in rank order, so its loop stops as soon as one cannot beat the best run. Interchangeable trains take candidates
in non-decreasing rank (a multiset, not every permutation). A bonus a run earns once (a
candidate's ``bonus`` part of its bound) counts once: the best of the chosen routes'. A leaf
that could beat the best is evaluated exactly by the title's rules as one run (combination rules and bonuses included)
and checked as ``process()`` will check it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .bitsets import ranks

if TYPE_CHECKING:
    from .bitsets import Coarse, RankedList
    from .candidates import Candidate


@dataclass
class Stats:
    candidates: dict[str, int] = field(default_factory=dict)  # train id -> candidate routes
    evaluated: int = 0  # candidates evaluated exactly alone
    bad_bounds: int = 0  # candidates whose cheap bound was below their value (a title bug)
    exhausted: bool = False  # the work limit stopped the enumeration of routes
    links_walked: int = 0
    walk_steps: int = 0  # steps of the enumerators' walks of halves (``Enumerator.walks``)
    nodes: int = 0  # search nodes
    leaves: int = 0  # runs evaluated exactly
    rejected: int = 0  # runs the title's rules refused
    unlogged: int = 0  # runs whose log form did not rebuild to the same revenue
    enumerate_s: float = 0.0
    search_s: float = 0.0
    passes: int = 1  # walks of the candidates (a second when the first run found needs more)


_BLOCK = 16  # ranks of the first train's list judged together before one by one


class _Stop(Exception):
    pass


class Search:
    def __init__(self, lists: list[RankedList], same_as_prev: list[bool], value: Callable[[Candidate], int],
                 evaluate: Callable[[list[Candidate | None]], int | None], deadline: float | None = None,
                 stats: Stats | None = None, node_limit: int | None = None):
        """``lists[i]``: train i's :class:`~.bitsets.RankedList`; ``same_as_prev[i]``: train i
        is interchangeable with train i-1 (same list); ``value(c)``: computes and stores
        ``c.value``, the exact value alone of a candidate (<= its bound; <= 0 when it can
        never run); ``evaluate(choice)``: exact
        revenue of a run (None if illegal)."""
        self.lists = lists
        self.same = same_as_prev
        self.value = value
        self.evaluate = evaluate
        self.deadline = deadline
        self.node_limit = node_limit  # stop after this many search nodes (stats.nodes)
        self.stats = stats if stats is not None else Stats()
        self.best = 0
        self.best_choice: list[Candidate | None] = [None] * len(lists)
        self.finished = False

    def best_alone(self, rl: RankedList, blocked: int) -> int:
        """An upper bound of the best candidate of ``rl`` outside ``blocked``."""
        m = 0
        cands = rl.cands
        for k in ranks(rl.full & ~blocked):
            c = cands[k]
            if c.bound <= m:
                break
            v = c.value
            if v is None:
                v = c.bound
            m = max(m, v)
        return m

    def run(self) -> None:
        n = len(self.lists)
        lists = self.lists
        choice: list[Candidate | None] = [None] * n
        idx: list[int] = [-1] * n
        stats = self.stats
        deadline = self.deadline
        same = self.same
        value = self.value
        best_alone = self.best_alone
        learned = [0]  # exact values learnt so far
        node_limit = self.node_limit

        def base(c: Candidate) -> int:
            """What a chosen route adds apart from a once-per-run bonus (at most)."""
            b = c.bound - c.bonus
            v = c.value
            if v is not None and v < b:
                return v
            return b

        def chosen(i: int) -> tuple[int, int] | None:
            """(sum of bases, best bonus) of the routes chosen before train i, or None if
            one of them turned out never to run."""
            acc = bonus = 0
            for c in choice[:i]:
                if c is not None:
                    if c.value is not None and c.value <= 0:
                        return None
                    acc += base(c)
                    bonus = max(bonus, c.bonus)
            return acc, bonus

        # twins[i]: how many trains right after train i are interchangeable with it (their
        # routes rank at or after train i's, so none is worth more than train i's route; when
        # train i runs nothing, they run nothing)
        twins = [0] * n
        for i in range(n - 2, -1, -1):
            if same[i + 1]:
                twins[i] = twins[i + 1] + 1

        def rest_of(i: int, blocked: list[int]) -> int:
            """Bound of the trains after i, i's twins left out (they are counted per route)."""
            rest = 0
            for j in range(i + 1 + twins[i], n):
                rest += best_alone(lists[j], blocked[j])
            return rest

        def refresh(i: int, blocked: list[int]) -> tuple[int, int, int, int] | None:
            """(bases, bonus, rest, twins' bound) at train i from what is known now, or None
            when a chosen route turned out never to run."""
            got = chosen(i)
            if got is None:
                return None
            tw_rest = best_alone(lists[i + 1], blocked[i + 1]) if twins[i] else 0
            return got[0], got[1], rest_of(i, blocked), tw_rest

        # coarse[j]: train j's list seen through its most used keys (None: a short list)
        t0 = time.monotonic()
        coarse: list[Coarse | None] = [rl.coarse if j else None for j, rl in enumerate(lists)]

        def coarse_rest(i: int, tw: int, used: int, bound: int) -> int | None:
            """A cheap bound of the trains after i once a route of ``bound`` using ``used``
            is chosen for train i (None: a list has no coarse view)."""
            total = 0
            if tw:
                co = coarse[i + 1]
                if co is None:
                    return None
                total += min(bound, co.best(used)) * tw
            for j in range(i + 1 + tw, n):
                co = coarse[j]
                if co is None:
                    return None
                total += co.best(used)
            return total

        block_memo: dict[int, tuple[int, int]] = {}
        cores: list[int] = []  # the first list's block cores, all at once

        def block_of(k: int) -> tuple[int, int]:
            """(best bound, shared track) of the first list's ranks k to k + _BLOCK - 1."""
            got = block_memo.get(k)
            if got is None:
                if not cores:
                    cores.extend(lists[0].cands.block_cores(_BLOCK, (lists[0].nkeys + 7) // 8))
                got = block_memo[k] = (lists[0].cands.bound_list[k], cores[k // _BLOCK])
            return got

        def rec(i: int, blocked: list[int], acc: int, bonus: int, used: int) -> None:
            # blocked[j]: ranks of train j's list that conflict with the routes chosen so far;
            # used: their keys; acc: their bases; bonus: the best once-per-run bonus among them
            stats.nodes += 1
            if deadline is not None and not stats.nodes & 63 and time.monotonic() > deadline:
                raise _Stop
            if node_limit is not None and stats.nodes > node_limit:
                raise _Stop
            if i == n:
                if acc + bonus > self.best:
                    stats.leaves += 1
                    v = self.evaluate(choice)
                    if v is None:
                        stats.rejected += 1
                    elif v > self.best:
                        self.best = v
                        self.best_choice = list(choice)
                    if v is None or v < acc + bonus:
                        # the bounds promised more: learn the routes' exact values alone
                        for c in choice:
                            if c is not None and c.value is None:
                                value(c)
                                learned[0] += 1
                return
            rest = rest_of(i, blocked)
            rl = lists[i]
            avail = rl.full & ~blocked[i]
            if same[i]:
                if choice[i - 1] is None:
                    avail = 0  # the previous identical train runs nothing
                else:
                    # the same candidate again is allowed: a route with no track (a local
                    # run) may be run by two trains; one with track blocks itself
                    avail &= ~((1 << idx[i - 1]) - 1)
            cands = rl.cands
            tw = twins[i]
            twin_rest = best_alone(lists[i + 1], blocked[i + 1]) if tw else 0
            seen = learned[0]
            # the first train's candidates a block of ranks at a time: a block whose best bound,
            # with what the later trains can run beside the track all its routes share, cannot
            # beat the best is skipped whole
            blocks = i == 0 and n > 1 and all(co is not None for co in coarse[1:])
            peek = cands.peek if i + 1 < n else None
            skip_to = -1
            # (nothing blocked: every rank, in order)
            for k in range(len(cands)) if not blocked[i] and not same[i] else ranks(avail):
                if learned[0] != seen:
                    # a leaf below taught exact values: what is chosen may be worth less now
                    seen = learned[0]
                    got = refresh(i, blocked)
                    if got is None:
                        return
                    acc, bonus, rest, twin_rest = got
                if k < skip_to:
                    continue
                if blocks and not k % _BLOCK:
                    top, core = block_of(k)
                    cr = coarse_rest(i, tw, used | core, top)
                    if cr is not None and acc + bonus + top + cr <= self.best:
                        skip_to = k + _BLOCK
                        continue
                if peek is not None:
                    # a route not looked at yet: judged without making it (its base is its
                    # bound, it has no bonus)
                    peeked = peek(k)
                    if peeked is not None:
                        b, m = peeked
                        if acc + bonus + b * (1 + tw) + rest <= self.best:
                            break
                        cr = coarse_rest(i, tw, used | m, b)
                        if cr is not None and acc + b + bonus + cr <= self.best:
                            continue
                c = cands[k]
                if acc + bonus + c.bound * (1 + tw) + rest <= self.best:
                    break
                if c.value is not None and c.value <= 0:
                    continue
                cb = base(c)
                nbonus = max(bonus, c.bonus)
                if acc + cb + nbonus + min(c.bound, twin_rest) * tw + rest <= self.best:
                    continue
                if i + 1 < n:
                    cr = coarse_rest(i, tw, used | c.mask, c.bound)
                    if cr is not None and acc + cb + nbonus + cr <= self.best:
                        continue
                choice[i] = c
                idx[i] = k
                nb = list(blocked)
                for j in range(i + 1, n):
                    nb[j] = blocked[j] | lists[j].blocked_by(c)
                rec(i + 1, nb, acc + cb, nbonus, used | c.mask)
            choice[i] = None
            idx[i] = -1
            if learned[0] != seen:
                got = refresh(i, blocked)
                if got is None:
                    return
                acc, bonus, rest, _ = got
            if acc + bonus + rest > self.best:
                rec(i + 1, blocked, acc, bonus, used)

        try:
            rec(0, [0] * n, 0, 0, 0)
            self.finished = True
        except _Stop:
            self.finished = False
        stats.search_s += time.monotonic() - t0
