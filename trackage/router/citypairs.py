"""The best run of two trains that are paid for the cities they visit, searched over city sequences.

1858's E trains visit at most N cities and offboards (all paying) and pass any number of
towns for free: a route's revenue is the sum of its cities' values, and its many variants
(which towns and track lie between two cities) differ only in the track they use. Two such
trains' route lists are long (hundreds of thousands of routes) while the sequences of
cities are few (a thousand or so). So the search goes over the sequences:

- *stretches*: from every city, a walk through towns only (the walk's own links: track,
  stops, clash bits, terminals) to the next city; each way is an *alternative* (track mask,
  towns, clash bits, paths), grouped per (city, next city, may it leave the first city by a
  terminal path, may it end the route);
- *sequences*: the walks over cities joined by stretches (distinct cities, no two sharing a
  clash bit, at most the meter's capacity, a start among them), one direction kept; a
  sequence's *core* is the track every alternative of each of its stretches uses; a stretch
  is only added when, with every stretch of the sequence already, one alternative of each
  is apart (track, towns, clash bits: no route lays them otherwise), and a sequence is only
  laid alone when every three of its stretches are so apart;
- *pairing*: the first train's sequences in falling value; for each, the second train's
  sequences that would beat the best run are refuted at once with numpy (their core meets the
  first's core, or one of their stretches has every alternative meeting the first's core);
  the pairs left come out of a heap in falling value; each is refuted by its *nogoods* (small
  sets of stretch variants, one part per route, that no two routes can lay, learnt from the
  pairs that failed), then by cores (each stretch keeps the alternatives meeting no other
  stretch's core, to a fixpoint), else *laid* (a backtracking choice of alternatives,
  disjoint in track, towns and clash bits within a route, in track between routes, with the
  cores propagated at every step, part by part where the stretches split into parts that
  share nothing they may clash on); the first pair laid is the best run. Nogoods are kept on
  *classes* of variants (the same alternatives: a stretch either way, or as first or last of
  a route), which fail alike. Two trains of one capacity (two of one kind) have the same
  sequences and are interchangeable: each unordered pair is taken once (a first sequence
  with itself and the ones after it, so a first sequence's pairs are worth at most twice it).

Why it is exact: every route of such a train is a sequence of cities joined by town-only
stretches that the walk's rules allow, so it is one of the sequences with one alternative
per stretch; refutation only drops pairs no two disjoint routes realise (a core is used by
every route of its sequence; a nogood is laid with every alternative and no cities, a
relaxation of any pair holding it); the pairs come in falling value, so the first laid is
the best. The best pair is priced by the title and its log
form rebuilt; if either differs from the sum of city values (or a budget runs out) the
caller uses its walk instead.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from ..core.tiles import RevenueCenter
    from .candidates import Enumerator, Seg

_LAY_BUDGET = 200_000  # backtracking steps laying pairs before the walk is used instead
_SEQ_BUDGET = 200_000  # sequence walk steps before the walk is used instead
# pairs taken from the heap before the walk is used instead: past it the pairs beating the
# best run are too many to refute one by one faster than the walk lists their routes
_PAIR_BUDGET = 30_000
# pairs laid (each not refuted by cores or nogoods; a failed one teaches a nogood) before the
# walk is used instead
_LAID_BUDGET = 100
_OPEN_BLOCK = 64  # first sequences opened at once, at most
# before a sequence is laid alone, every three of its stretches that may meet are tried
# with all their alternatives (False: laid at once)
_TRIPLES = True

# an alternative: (track mask, towns as bits, clash bits of its towns, its legs)
Alt = tuple[int, int, int, list["Seg"]]
# a sequence: (value, cities, stretch variants)
Seq = tuple[int, tuple["RevenueCenter", ...], tuple[int, ...]]
# a sequence's stretches as cut by the cores: (alternatives, track core, town core) per stretch
Refined = tuple[list[list[Alt]], list[int], list[int]]


class PairStats:
    """What a pair search did: stretch alternatives, sequences, pairs refuted by bitsets, pairs
    laid, backtracking steps."""

    def __init__(self) -> None:
        self.alts = 0
        self.sequences = 0
        self.refuted = 0
        self.laid = 0
        self.steps = 0
        self.popped = 0  # pairs taken from the heap
        self.opened = 0  # first sequences whose pairs were listed
        self.b_dead = 0  # pairs (taken or passed over) whose second sequence is never laid alone
        self.ng_cut = 0  # pairs taken refuted by a learnt nogood
        self.core_cut = 0  # pairs taken refuted by the two sequences' cores


class CityPairs:
    """See the module's docstring. ``en``: the longer train's enumerator (the shorter one's
    routes are its routes that visit at most ``caps[1]`` cities); ``caps``: the most cities
    each train visits (the first the larger)."""

    def __init__(self, en: Enumerator, caps: tuple[int, int], free: Callable[[RevenueCenter], bool]):
        self.en = en
        self.caps = caps
        self.free = free
        self.stats = PairStats()
        self.out_of_budget = False
        self._town_bit: dict[RevenueCenter, int] = {}
        # (city, next city, first stretch, last stretch) -> variant index
        self._variant: dict[tuple[RevenueCenter, RevenueCenter, bool, bool], int] = {}
        self.var_alts: list[list[Alt]] = []
        self.var_core: list[int] = []
        self.var_towns: list[int] = []  # the towns every alternative of a variant visits
        self.var_span: list[int] = []  # the track any alternative of a variant uses
        # a variant's class: variants with the same alternatives (track, towns, clash bits:
        # one stretch each way, or as first or last of a route) fail alike
        self.var_class: list[int] = []
        self._class_of: dict[frozenset[tuple[int, int, int]], int] = {}
        self.lay_steps = 0
        # per variant: the track, towns and clash bits of any of its alternatives
        self._spread: list[tuple[int, int, int]] = []
        # per three variant classes (sorted): may one route take the three?
        self._apart3: dict[tuple[int, int, int], bool] = {}
        # sets of stretch classes (one route's, the other's, the lesser first) laid with all their
        # alternatives and no cities: True when no two routes lay them
        self._fails: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}
        self.best = 0
        self.best_pair: tuple[tuple[list[RevenueCenter], list[Seg]] | None,
                              tuple[list[RevenueCenter], list[Seg]] | None] = (None, None)

    # -- stretches ---------------------------------------------------------------------
    def _tbit(self, n: RevenueCenter) -> int:
        b = self._town_bit.get(n)
        if b is None:
            at = len(self._town_bit)
            b = self._town_bit[n] = 1 << at
        return b

    def stretches(self, u: RevenueCenter) -> dict[RevenueCenter, list[tuple[Alt, bool, bool]]]:
        """Every town-only way from city ``u`` to a next city: next city -> [(alternative,
        leaves ``u`` by a terminal path, ends the route at the next city)]."""
        out: dict[RevenueCenter, list[tuple[Alt, bool, bool]]] = {}
        en = self.en
        free = self.free
        clash0 = en.clash_bits(u)

        def walk(x: RevenueCenter, used: int, towns: int, clash: int, legs: list[Seg], lead: bool) -> None:
            self.stats.steps += 1
            for n, paths, m, bad_first, bad_mid, ends, cb, _val, _free in en.klinks(x):
                inner = x is not u
                if (inner and bad_first) or bad_mid or m & used or cb & clash or n is u:
                    continue
                if not free(n):
                    out.setdefault(n, []).append(((used | m, towns, clash & ~clash0, [*legs, (x, paths)]),
                                                  lead or (not inner and bad_first), ends))
                    continue
                tb = self._tbit(n)
                if ends or towns & tb:
                    continue  # (a route ending at a town is left out: the shorter one is as good)
                walk(n, used | m, towns | tb, clash | cb, [*legs, (x, paths)], lead or (not inner and bad_first))

        walk(u, 0, 0, clash0, [], False)
        return out

    def variant(self, u: RevenueCenter, v: RevenueCenter, first: bool, last: bool,
                ways: list[tuple[Alt, bool, bool]]) -> int:
        """The index of the alternatives from ``u`` to ``v`` a route may take there (leaving
        by a terminal path only as its first stretch, ending the route only as its last); -1:
        none."""
        key = (u, v, first, last)
        got = self._variant.get(key)
        if got is None:
            alts = [a for a, lead, ends in ways if (first or not lead) and (last or not ends)]
            if not alts:
                got = -1
            else:
                got = len(self.var_alts)
                self.var_alts.append(alts)
                core, towns = alts[0][0], alts[0][1]
                for a in alts[1:]:
                    core &= a[0]
                    towns &= a[1]
                self.var_core.append(core)
                self.var_towns.append(towns)
                span = 0
                for a in alts:
                    span |= a[0]
                self.var_span.append(span)
                shape = frozenset((a[0], a[1], a[2]) for a in alts)
                self.var_class.append(self._class_of.setdefault(shape, len(self._class_of)))
                self.stats.alts += len(alts)
            self._variant[key] = got
        return got

    # -- sequences ---------------------------------------------------------------------
    def sequences(self, value: Callable[[RevenueCenter], int]) -> list[Seq] | None:
        """Every sequence of at least two cities (value, cities, variants), one direction of
        each; None when over budget."""
        en = self.en
        starts = frozenset(en.starts)
        cap = self.caps[0]
        ways: dict[RevenueCenter, dict[RevenueCenter, list[tuple[Alt, bool, bool]]]] = {}

        def ways_of(c: RevenueCenter) -> dict[RevenueCenter, list[tuple[Alt, bool, bool]]]:
            w = ways.get(c)
            if w is None:
                w = ways[c] = self.stretches(c)
            return w

        # the cities a route may visit: those reachable from a start (any route holds one)
        reach: dict[RevenueCenter, int] = {}
        frontier = list(dict.fromkeys(en.starts))  # (the enumerator's order: a set's would vary by run)
        for s in frontier:
            reach[s] = len(reach)
        while frontier:
            c = frontier.pop()
            for n in ways_of(c):
                if n not in reach:
                    reach[n] = len(reach)
                    frontier.append(n)
        seqs: list[tuple[int, tuple[RevenueCenter, ...], tuple[int, ...]]] = []
        steps = [0]

        var_core, var_towns, var_alts = self.var_core, self.var_towns, self.var_alts

        def fits(vi: int, core: int, towns: int) -> bool:
            # its core meets none of the sequence's, and one of its ways avoids the cores
            if var_core[vi] & core or var_towns[vi] & towns:
                return False
            for a in var_alts[vi]:
                if not (a[0] & core or a[1] & towns):
                    return True
            return False

        var_class = self.var_class
        spread = self._spread
        # per pair of variant classes: may one route take both (an alternative of each, apart in
        # track, towns and clash bits)? Cities are left out: a relaxation of any route holding
        # both. The same for three.
        apart: dict[tuple[int, int], bool] = {}

        def together(vi: int, var: list[int]) -> bool:
            while len(spread) < len(var_alts):
                sp = tw = cl = 0
                for a in var_alts[len(spread)]:
                    sp |= a[0]
                    tw |= a[1]
                    cl |= a[2]
                spread.append((sp, tw, cl))
            sp, tw, cl = spread[vi]
            ci = var_class[vi]
            for v in var:
                sv, tv, cv_ = spread[v]
                if not (sp & sv or tw & tv or cl & cv_):
                    continue
                cv = var_class[v]
                key = (ci, cv) if ci < cv else (cv, ci)
                got = apart.get(key)
                if got is None:
                    got = apart[key] = any(not (a[0] & b[0] or a[1] & b[1] or a[2] & b[2])
                                           for a in var_alts[vi] for b in var_alts[v])
                if not got:
                    return False
            return True

        # per city, its next cities: (next city, ways, its clash bits, value, a start, its place)
        nexts: dict[RevenueCenter, list[tuple[RevenueCenter, list[tuple[Alt, bool, bool]], int, int, bool, int]]] = {}

        def nexts_of(c: RevenueCenter) -> list[tuple[RevenueCenter, list[tuple[Alt, bool, bool]], int, int, bool, int]]:
            got = nexts.get(c)
            if got is None:
                got = nexts[c] = [(n, w, en.clash_bits(n), value(n), n in starts, reach[n])
                                  for n, w in ways_of(c).items()]
            return got

        def grow(cities: list[RevenueCenter], var: list[int], clash: int, val: int, started: bool,
                 core: int, towns: int) -> bool:
            steps[0] += 1
            if steps[0] > _SEQ_BUDGET:
                return False
            c = cities[-1]
            first = len(cities) == 1
            deeper = len(cities) + 1 < cap
            r0 = reach[cities[0]]
            for n, w, cbn, vn, sn, rn in nexts_of(c):
                if cbn & clash or n in cities:
                    continue
                nv = val + vn
                st = started or sn
                # as the last stretch (the route ends at n)
                if st and r0 < rn:
                    vi = self.variant(c, n, first, True, w)
                    if vi >= 0 and fits(vi, core, towns) and together(vi, var):
                        seqs.append((nv, (*cities, n), (*var, vi)))
                if deeper:
                    vi = self.variant(c, n, first, False, w)
                    if vi >= 0 and fits(vi, core, towns) and together(vi, var):
                        cities.append(n)
                        var.append(vi)
                        ok = grow(cities, var, clash | cbn, nv, st, core | var_core[vi],
                                  towns | var_towns[vi])
                        cities.pop()
                        var.pop()
                        if not ok:
                            return False
            return True

        for c in reach:
            if not grow([c], [], en.clash_bits(c), value(c), c in starts, 0, 0):
                return None
        self.stats.sequences = len(seqs)
        self.stats.steps += steps[0]
        return seqs

    # -- refuting by cores -------------------------------------------------------------
    def threes_apart(self, var: tuple[int, ...]) -> bool:
        """Whether every three stretches of a sequence (variants ``var``) may be laid by one
        route (one alternative of each apart in track, towns and clash bits; no cities: a
        relaxation). Only threes whose stretches may meet as a chain are tried (one meeting
        neither other leaves a pair, apart by construction)."""
        spread, var_class, var_alts, memo = self._spread, self.var_class, self.var_alts, self._apart3
        n = len(var)
        meets = [[False] * n for _ in range(n)]
        for i in range(n):
            si, ti, ci = spread[var[i]]
            for j in range(i + 1, n):
                sj, tj, cj = spread[var[j]]
                if si & sj or ti & tj or ci & cj:
                    meets[i][j] = meets[j][i] = True
        for i, j, k in itertools.combinations(range(n), 3):
            if (meets[i][j] + meets[i][k] + meets[j][k]) < 2:
                continue
            cs = sorted((var_class[var[i]], var_class[var[j]], var_class[var[k]]))
            key = (cs[0], cs[1], cs[2])
            got = memo.get(key)
            if got is None:
                got = memo[key] = _three_apart(var_alts[var[i]], var_alts[var[j]], var_alts[var[k]])
            if not got:
                return False
        return True

    def refined(self, var: tuple[int, ...]) -> Refined | None:
        """A sequence's stretches cut to the alternatives meeting no other stretch's core
        (see :meth:`consistent`); None: the sequence cannot be laid."""
        start: Refined = ([list(self.var_alts[v]) for v in var], [self.var_core[v] for v in var],
                          [self.var_towns[v] for v in var])
        got = self.consistent([start])
        return got[0] if got is not None else None

    def consistent(self, plans: list[Refined]) -> list[Refined] | None:
        """None when no laying exists, shown by cores alone: each stretch keeps only the
        alternatives meeting no other stretch's core (track between and within routes, towns
        within a route), and the cores grow from what is kept, to a fixpoint; else the
        stretches so cut."""
        alts = [list(p[0]) for p in plans]
        cores = [list(p[1]) for p in plans]
        towns = [list(p[2]) for p in plans]
        # the cores are disjoint (else no laying): what the others use is the union less one's own
        total = count = 0
        for cs in cores:
            for c in cs:
                total |= c
                count += c.bit_count()
        if total.bit_count() != count:
            return None
        route_towns = []
        for ts in towns:
            rt = n = 0
            for t in ts:
                rt |= t
                n += t.bit_count()
            if rt.bit_count() != n:
                return None
            route_towns.append(rt)
        changed = True
        while changed:
            changed = False
            for r, var in enumerate(alts):
                for x, d in enumerate(var):
                    other = total ^ cores[r][x]
                    ot = route_towns[r] ^ towns[r][x]
                    kept = [a for a in d if not (a[0] & other or a[1] & ot)]
                    if not kept:
                        return None
                    if len(kept) < len(d):
                        var[x] = kept
                        core, tw = kept[0][0], kept[0][1]
                        for a in kept[1:]:
                            core &= a[0]
                            tw &= a[1]
                        if core != cores[r][x] or tw != towns[r][x]:
                            # (kept ones meet no other core: the new ones stay disjoint)
                            cores[r][x], towns[r][x] = core, tw
                            total, route_towns[r] = other | core, ot | tw
                            changed = True
        return list(zip(alts, cores, towns))

    # -- laying ------------------------------------------------------------------------
    def lay(self, plans: list[tuple[tuple[RevenueCenter, ...], list[list[Alt]]]],
            propagate: bool = False) -> list[list[Alt]] | None:
        """One alternative per stretch of each sequence in ``plans`` (one per train), disjoint
        in track between and within routes, in towns and clash bits within a route; None:
        none (or out of budget: ``out_of_budget``). ``propagate``: every step also cuts the
        stretches left by each other's cores (else forward checking only)."""
        en = self.en
        items: list[tuple[int, list[Alt]]] = []  # (route, the stretch's alternatives)
        clash0: list[int] = []
        for r, (cities, var) in enumerate(plans):
            cb = 0
            for c in cities:
                cb |= en.clash_bits(c)
            clash0.append(cb)
            items.extend((r, v) for v in var)
        chosen: list[Alt | None] = [None] * len(items)

        # per stretch: its route, and the track, towns and clash bits of all its alternatives
        reach: list[tuple[int, int, int, int]] = []
        for r, d in items:
            sp = tw = cl = 0
            for a in d:
                sp |= a[0]
                tw |= a[1]
                cl |= a[2]
            reach.append((r, sp, tw, cl))

        def prune(doms: dict[int, list[Alt]], r_new: int, track: int, towns: int, clash: int) -> bool:
            # every stretch left keeps the alternatives meeting nothing laid (the stretches left
            # already avoid what was laid before: only the last alternative laid, on route
            # ``r_new``, is tested, and only where it may meet), nor the core of another stretch
            # left (track; towns within a route), to a fixpoint; False: one keeps none
            for i, d in doms.items():
                r, sp, tw, cl = reach[i]
                if r == r_new:
                    if not (sp & track or tw & towns or cl & clash):
                        continue
                    ok = [a for a in d if not (a[0] & track or a[1] & towns or a[2] & clash)]
                elif sp & track:
                    ok = [a for a in d if not a[0] & track]
                else:
                    continue
                if not ok:
                    return False
                doms[i] = ok
            changed = propagate
            while changed and len(doms) > 1:
                changed = False
                cores = {}
                total = count = 0
                route_towns = [0] * len(plans)
                town_count = 0
                for i, d in doms.items():
                    c, t = d[0][0], d[0][1]
                    for x in d[1:]:
                        c &= x[0]
                        t &= x[1]
                    cores[i] = (c, t)
                    total |= c
                    count += c.bit_count()
                    route_towns[items[i][0]] |= t
                    town_count += t.bit_count()
                # the cores are disjoint (else no laying): the others' are the union less one's own
                if total.bit_count() != count or sum(t.bit_count() for t in route_towns) != town_count:
                    return False
                for i, d in doms.items():
                    c, t = cores[i]
                    oc = total ^ c
                    ot = route_towns[items[i][0]] ^ t
                    ok = [a for a in d if not (a[0] & oc or a[1] & ot)]
                    if not ok:
                        return False
                    if len(ok) < len(d):
                        doms[i] = ok
                        changed = True
            return True

        def go(doms: dict[int, list[Alt]], r_new: int, track: int, towns: int, clash: int) -> bool:
            if not doms:
                return True
            self.lay_steps += 1
            if self.lay_steps > _LAY_BUDGET:
                self.out_of_budget = True
                return False
            if not prune(doms, r_new, track, towns, clash):
                return False
            pick = min(doms, key=lambda i: len(doms[i]))
            r = items[pick][0]
            for a in doms[pick]:
                chosen[pick] = a
                if go({i: d for i, d in doms.items() if i != pick}, r, a[0], a[1], a[2]):
                    return True
                if self.out_of_budget:
                    return False
            return False

        # stretches in parts that share nothing a laying may clash on (track, and within a route
        # towns and clash bits, over all their alternatives) are laid part by part
        n = len(items)
        part = list(range(n))

        def root(x: int) -> int:
            while part[x] != x:
                part[x] = part[part[x]]
                x = part[x]
            return x

        for x in range(n):
            rx, sx, tx, cx = reach[x]
            for y in range(x + 1, n):
                ry, sy, ty, cy = reach[y]
                if sx & sy or (rx == ry and (tx & ty or cx & cy)):
                    part[root(x)] = root(y)
        parts: dict[int, list[int]] = {}
        for x in range(n):
            parts.setdefault(root(x), []).append(x)
        for members in sorted(parts.values(), key=len):
            # (the cities' clash bits first, then the part's stretches)
            doms: dict[int, list[Alt]] = {}
            for i in members:
                cb = clash0[items[i][0]]
                doms[i] = [a for a in items[i][1] if not a[2] & cb] if cb & reach[i][3] else list(items[i][1])
                if not doms[i]:
                    return None
            if not go(doms, -1, 0, 0, 0):
                return None
        out: list[list[Alt]] = [[] for _ in plans]
        for i, (r, _v) in enumerate(items):
            pick = chosen[i]
            assert pick is not None
            out[r].append(pick)
        return out

    def greedy(self, plans: list[tuple[tuple[RevenueCenter, ...], list[list[Alt]]]]) -> bool:
        """Whether the routes of ``plans`` (as for :meth:`lay`) lay their stretches by taking,
        the stretch with fewest alternatives first, the first alternative meeting nothing taken
        (track; towns and clash bits within a route). False: maybe not, ask :meth:`lay`."""
        towns = [0] * len(plans)
        clash = [0] * len(plans)
        items: list[tuple[int, list[Alt]]] = []
        for r, (cities, var) in enumerate(plans):
            for c in cities:
                clash[r] |= self.en.clash_bits(c)
            items.extend((r, d) for d in var)
        items.sort(key=lambda it: len(it[1]))
        track = 0
        for r, d in items:
            tw, cl = towns[r], clash[r]
            for a in d:
                if not (a[0] & track or a[1] & tw or a[2] & cl):
                    track |= a[0]
                    towns[r] = tw | a[1]
                    clash[r] = cl | a[2]
                    break
            else:
                return False
        return True

    def nogood(self, va: tuple[int, ...], vb: tuple[int, ...]) -> tuple[frozenset[int], frozenset[int]] | None:
        """A least set of the two sequences' stretch variants (with all their alternatives,
        no cities) that cannot be laid together, by dropping one at a time; None: the whole
        set can (the pair failed on its cities' clash bits or its cores)."""
        var_alts = self.var_alts
        keep = [(0, v) for v in va] + [(1, v) for v in vb]

        var_class = self.var_class
        known = self._fails

        def fails(items: list[tuple[int, int]]) -> bool:
            # (whether a set fails depends only on its variants' classes, either route first)
            key0 = tuple(sorted(var_class[v] for r, v in items if r == 0))
            key1 = tuple(sorted(var_class[v] for r, v in items if r == 1))
            key = (key0, key1) if key0 <= key1 else (key1, key0)
            got = known.get(key)
            if got is None:
                got = laid_none(items)
                if not self.out_of_budget:
                    known[key] = got
            return got

        def laid_none(items: list[tuple[int, int]]) -> bool:
            tight = self.consistent([([var_alts[v] for r, v in items if r == q],
                                      [self.var_core[v] for r, v in items if r == q],
                                      [self.var_towns[v] for r, v in items if r == q]) for q in (0, 1)])
            if tight is None:
                return True
            none: tuple[RevenueCenter, ...] = ()
            plans = [(none, t[0]) for t in tight if t[0]]
            return not self.greedy(plans) and self.lay(plans) is None and not self.out_of_budget

        # the stretches whose track may meet the other route's
        reach = [0, 0]
        for r, v in keep:
            reach[r] |= self.var_span[v]
        near = [(r, v) for r, v in keep if self.var_span[v] & reach[1 - r]]
        # small sets first (what blocks two routes is mostly one stretch of one and two of the
        # other): every set of 3, then of 4, of near stretches whose tracks may all meet across
        span = self.var_span
        side = [[v for r, v in near if r == q] for q in (0, 1)]
        for na, nb in ((1, 2), (2, 1), (2, 2)):
            for xa in itertools.combinations(side[0], na):
                for xb in itertools.combinations(side[1], nb):
                    if not all(span[x] & span[y] for x in xa for y in xb):
                        continue
                    if self.out_of_budget:
                        return None
                    if fails([(0, v) for v in xa] + [(1, v) for v in xb]):
                        return frozenset(xa), frozenset(xb)
        if {r for r, _v in near} == {0, 1} and fails(near):
            keep = near
        elif not fails(keep):
            return None
        i = 0
        while i < len(keep):
            trial = keep[:i] + keep[i + 1:]
            if self.out_of_budget:
                return None
            if {r for r, _v in trial} == {0, 1} and fails(trial):
                keep = trial
            else:
                i += 1
        return frozenset(v for r, v in keep if r == 0), frozenset(v for r, v in keep if r == 1)

    # -- the pairing -------------------------------------------------------------------
    def run(self, value: Callable[[RevenueCenter], int]) -> bool:
        """Search; True when the best pair is proven (False: out of budget)."""
        seqs = self.sequences(value)
        if seqs is None:
            self.out_of_budget = True
            return False
        seqs.sort(key=lambda s: -s[0])
        cap_b = self.caps[1]
        # two trains of one capacity (the same sequences, the pair unordered): a first sequence
        # is paired only with itself and the sequences after it (worth no more than it)
        sym = self.caps[0] == cap_b
        seq_b = [s for s in seqs if len(s[1]) <= cap_b]
        nb = len(seq_b)
        nvar = len(self.var_alts)
        words = max((a[0].bit_length() for alts in self.var_alts for a in alts), default=0) // 64 + 1

        def rows(masks: list[int]) -> npt.NDArray[np.uint64]:
            buf = b"".join(m.to_bytes(words * 8, "little") for m in masks)
            return np.frombuffer(buf, dtype=np.uint64).reshape(len(masks), words)

        # every alternative's track, grouped per class of variants (contiguous: alike variants
        # die alike), and where each class begins
        ncls = len(self._class_of)
        class_alts: list[list[Alt]] = [[] for _ in range(ncls)]
        for v, alts in enumerate(self.var_alts):
            class_alts[self.var_class[v]] = alts
        flat = [a[0] for alts in class_alts for a in alts]
        alt_rows = rows(flat) if flat else np.zeros((0, words), dtype=np.uint64)
        begins = np.zeros(ncls, dtype=np.int64)
        pos = 0
        for i, alts in enumerate(class_alts):
            begins[i] = pos
            pos += len(alts)
        # the second train's sequences: values, cores, variants' classes (padded with a
        # never-dead one)
        core_of = [self._core(s[2]) for s in seq_b]
        b_vals = np.array([s[0] for s in seq_b], dtype=np.int64)
        b_core = rows(core_of).copy() if nb else np.zeros((0, words), dtype=np.uint64)
        width = max((len(s[2]) for s in seq_b), default=1)
        b_var = np.full((nb, width), ncls, dtype=np.int64)  # (as classes)
        for i, s in enumerate(seq_b):
            b_var[i, :len(s[2])] = [self.var_class[v] for v in s[2]]
        neg_b = -b_vals  # ascending, for searchsorted
        laid_alone: dict[int, bool] = {}
        refs: dict[tuple[int, ...], Refined | None] = {}

        def ref(var: tuple[int, ...]) -> Refined | None:
            if var in refs:
                return refs[var]
            got = refs[var] = self.refined(var)
            return got

        def alone(i: int, s: tuple[int, tuple[RevenueCenter, ...], tuple[int, ...]]) -> list[Alt] | None:
            r = ref(s[2])
            got = (self.lay([(s[1], r[0])], propagate=True)
                   if r is not None and (not _TRIPLES or self.threes_apart(s[2])) else None)
            laid_alone[i] = got is not None
            return got[0] if got is not None else None

        # the best single route (the other train runs nothing)
        for i, s in enumerate(seqs):
            if s[0] <= self.best:
                break
            got = alone(i, s)
            if self.out_of_budget:
                return False
            if got is not None:
                self.best = s[0]
                self.best_pair = (self._route(s[1], got), None)
                break
        top_b = int(b_vals[0]) if nb else 0
        b_alone: dict[int, bool] = {}

        def b_ok(j: int) -> bool:
            got = b_alone.get(j)
            if got is None:
                sb = seq_b[j]
                r = ref(sb[2])
                got = b_alone[j] = r is not None and (not _TRIPLES or self.threes_apart(sb[2])) and (
                    self.greedy([(sb[1], r[0])])
                                                      or self.lay([(sb[1], r[0])], propagate=True) is not None)
                # later first sequences meet its cut core (or, never laid, anything)
                if got and r is not None:
                    core = 0
                    for c in r[1]:
                        core |= c
                    b_core[j] = rows([core])[0]
                elif not self.out_of_budget:
                    b_core[j] = ~np.uint64(0)
            return got

        # sets of stretch variants (one route's, the other's) that no two routes can lay
        # (indexed by the least variant of its first route's part)
        ng_index: dict[int, list[tuple[frozenset[int], frozenset[int]]]] = {}
        # the same as classes of variants (a part's classes all different), by its first
        # route's least class
        ng_class: dict[int, list[tuple[frozenset[int], frozenset[int]]]] = {}
        var_sets: dict[tuple[int, ...], tuple[frozenset[int], frozenset[int]]] = {}

        def sets_of(var: tuple[int, ...]) -> tuple[frozenset[int], frozenset[int]]:
            # a sequence's variants and their classes
            got = var_sets.get(var)
            if got is None:
                got = var_sets[var] = (frozenset(var), frozenset(self.var_class[v] for v in var))
            return got

        def cut(xa: frozenset[int], xb: frozenset[int],
                index: dict[int, list[tuple[frozenset[int], frozenset[int]]]]) -> bool:
            # a nogood of ``index`` with its first part in ``xa`` and its second in ``xb``
            for v in index.keys() & xa:
                for na, nb_ in index[v]:
                    if na <= xa and nb_ <= xb:
                        return True
            return False

        # the pairs in falling value: a heap of (-(value), first sequence, place in its live
        # list); entries with place -1 open the next first sequence (its live list is made then)
        heap: list[tuple[int, int, int]] = []
        live_of: dict[int, list[int]] = {}
        def open_bound(i: int) -> int:
            # the most any pair of the first sequences from ``i`` on is worth
            return seqs[i][0] + (seqs[i][0] if sym else top_b)

        if seqs and nb:
            heap.append((-open_bound(0), 0, -1))
        while heap:
            neg, i, p = heapq.heappop(heap)
            if -neg <= self.best:
                break  # every pair left is worth at most the best run
            s = seqs[i]
            va = s[0]
            if p < 0:
                # a block of first sequences opened at once (the pairs' bounds are exact: one
                # opened early only lists its pairs sooner), growing with the work done
                block = range(i, min(i + min(_OPEN_BLOCK, max(8, self.stats.opened)), len(seqs)))
                if block[-1] + 1 < len(seqs):
                    heapq.heappush(heap, (-open_bound(block[-1] + 1), block[-1] + 1, -1))
                self.stats.opened += len(block)
                firsts: list[tuple[int, Refined, int]] = []  # (first sequence, its stretches, pairs)
                for i2 in block:
                    if laid_alone.get(i2) is False:
                        continue
                    k = int(np.searchsorted(neg_b, seqs[i2][0] - self.best, side="left"))  # b_vals > best - va
                    if k <= (i2 if sym else 0):
                        break  # (values fall: none after pairs above the best)
                    ra = ref(seqs[i2][2])
                    if ra is not None:  # (else never laid, alone)
                        firsts.append((i2, ra, k))
                if not firsts:
                    continue
                kmax = max(f[2] for f in firsts)
                core_rows = []
                for _i2, ra, _k in firsts:
                    core_a = 0
                    for c in ra[1]:
                        core_a |= c
                    core_rows.append(core_a)
                ca = rows(core_rows)
                # a second sequence whose core meets the first's, or one of whose stretches has
                # every alternative meeting it, or worth too little (the other way round, a
                # stretch of the first whose every alternative meets the second's core, is left
                # to the pair's cores: tested here one first sequence at a time it cost more
                # than it cut)
                refuted = _meets(ca, b_core[:kmax])
                if nvar:
                    hit = _meets(ca, alt_rows)
                    dead = np.minimum.reduceat(hit, begins, axis=1)
                    dead = np.concatenate([dead, np.zeros((len(firsts), 1), dtype=bool)], axis=1)
                    refuted |= dead[:, b_var[:kmax]].any(axis=2)
                refuted |= np.arange(kmax)[None, :] >= np.array([f[2] for f in firsts])[:, None]
                if sym:  # (the pairs with an earlier second sequence were taken the other way round)
                    refuted |= np.arange(kmax)[None, :] < np.array([f[0] for f in firsts])[:, None]
                for row, (i2, _ra, k) in enumerate(firsts):
                    cand = np.flatnonzero(~refuted[row])
                    live = cand.tolist()
                    self.stats.refuted += k - (i2 if sym else 0) - len(live)
                    if live:
                        live_of[i2] = live
                        heapq.heappush(heap, (-(seqs[i2][0] + int(b_vals[live[0]])), i2, 0))
                continue
            live = live_of[i]
            j = live[p]
            self.stats.popped += 1
            if self.stats.popped > _PAIR_BUDGET:
                self.out_of_budget = True
                return False
            if laid_alone.get(i) is False:
                continue  # (a first sequence never laid alone: its pairs left are dropped)
            # (the next pair of this first sequence whose second is not known never to lay alone)
            q = p + 1
            while q < len(live) and b_alone.get(live[q]) is False:
                q += 1
                self.stats.b_dead += 1
            if q < len(live):
                heapq.heappush(heap, (-(va + int(b_vals[live[q]])), i, q))
            if not b_ok(j):
                self.stats.b_dead += 1
                continue
            ok = laid_alone.get(i)
            if ok is None:
                ok = alone(i, s) is not None
                if self.out_of_budget:
                    return False
            if not ok:
                continue
            if self.out_of_budget:
                return False
            sb = seq_b[j]
            va_set, ca_set = sets_of(s[2])
            vb_set, cb_set = sets_of(sb[2])
            if (cut(ca_set, cb_set, ng_class) or cut(cb_set, ca_set, ng_class)
                    or cut(va_set, vb_set, ng_index) or cut(vb_set, va_set, ng_index)):
                self.stats.refuted += 1
                self.stats.ng_cut += 1
                continue
            ra, rb = ref(s[2]), ref(sb[2])
            assert ra is not None and rb is not None  # (both laid alone)
            both = self.consistent([ra, rb])
            if both is None:
                self.stats.refuted += 1
                self.stats.core_cut += 1
                continue
            self.stats.laid += 1
            if self.stats.laid > _LAID_BUDGET:
                self.out_of_budget = True
                return False
            got2 = self.lay([(s[1], both[0][0]), (sb[1], both[1][0])], propagate=True)
            if self.out_of_budget:
                return False
            if got2 is None and not self.out_of_budget:
                learnt = self.nogood(s[2], sb[2])
                if learnt is not None:
                    xa = frozenset(self.var_class[v] for v in learnt[0])
                    xb = frozenset(self.var_class[v] for v in learnt[1])
                    if len(xa) == len(learnt[0]) and len(xb) == len(learnt[1]):
                        ng_class.setdefault(min(xa), []).append((xa, xb))
                    else:  # (two of one part alike: kept as variants)
                        ng_index.setdefault(min(learnt[0]), []).append(learnt)
            if self.out_of_budget:
                return False
            if got2 is not None:
                self.best = va + sb[0]
                self.best_pair = (self._route(s[1], got2[0]), self._route(sb[1], got2[1]))
                break  # (the pairs come in falling value: the first laid is the best)
        return True

    def _core(self, var: tuple[int, ...]) -> int:
        core = 0
        for v in var:
            core |= self.var_core[v]
        return core

    @staticmethod
    def _route(cities: tuple[RevenueCenter, ...], alts: list[Alt]) -> tuple[list[RevenueCenter], list[Seg]]:
        """A laid sequence's nodes and legs, in walk order."""
        segs = [leg for a in alts for leg in a[3]]
        return [x for x, _p in segs] + [cities[-1]], segs


def _three_apart(xs: list[Alt], ys: list[Alt], zs: list[Alt]) -> bool:
    """Whether one alternative of each of three stretches are apart (track, towns, clash bits)."""
    xs, ys, zs = sorted((xs, ys, zs), key=len)
    for a in xs:
        ta, wa, ca = a[0], a[1], a[2]
        for b in ys:
            if ta & b[0] or wa & b[1] or ca & b[2]:
                continue
            t, w, c = ta | b[0], wa | b[1], ca | b[2]
            for z in zs:
                if not (t & z[0] or w & z[1] or c & z[2]):
                    return True
    return False


def _meets(x: npt.NDArray[np.uint64], y: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """Which rows of ``x`` meet which rows of ``y`` (bitsets as rows of words): a len(x) by
    len(y) matrix, one word at a time (a reduction over a short last axis is slow)."""
    out = np.zeros((x.shape[0], y.shape[0]), dtype=bool)
    for w in range(x.shape[1]):
        out |= (x[:, w, None] & y[None, :, w]) != 0
    return out


def applies(plans: list[Any]) -> bool:
    """Trains (two, or a lone one) of this kind: every stop is free (a town: worth nothing, not counted) or a
    counted city; no bound hooks (a base bound only where it is the stop values), slack 0, no
    run bonus, conflict hook or local runs; no start free (the caller checks that the second
    rides along the first: same starts, links and values)."""
    from .meter import TypedMeter

    for p in plans:
        en = p.en
        if p.base_hook is not None and any(p.base_bound(b) != b for b in (10, 100, 1000, 1001)):
            return False  # (a base bound that is not the stop values, e.g. 1858's wounded trains)
        if (p.pay is not None or p.hook is not None or p.run_bonus is not None
                or p.free is None or en.conflict is not None or en.local or en.slack != 0
                or not isinstance(p.meter, TypedMeter) or p.meter.capacity is None):
            return False
        if any(p.free(s) for s in en.starts):
            return False
    return True
