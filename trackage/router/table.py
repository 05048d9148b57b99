"""Candidate lists as arrays: a walk's routes counted, bounded, filtered and ranked with numpy.

When the second halves come from bitsets (:class:`.joins.BitJoin`), a route is two numbers:
its first half and its second half's place in the start's tree. Its stop values (summed, or
the best paying ones once per distinct pair of the halves' values), the meter state of the
whole route (which riders' meters accept it) and its bound are then columns. The title's
bound hooks are called once per distinct value (``router_base_bound``) or, for a hook that
says which stops it reads (a ``relevant`` set on the function ``router_bound_for`` or
``router_run_bonus_for`` returns), once per distinct (those stops, base); other hooks once
per route. A :class:`CandTable` ranks the routes by bound without making an object per
route: a :class:`~.candidates.Candidate` is made when the search first looks at its rank,
and the conflict bitsets of a list (:mod:`.bitsets`) come from the halves' masks as byte
rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from .bitsets import byte_rows
from .candidates import MASK, NODE, PARENT, STATE, VALS, Candidate, trail_nodes
from .entries import Entry
from .joins import BitJoin

if TYPE_CHECKING:
    from ..core.tiles import RevenueCenter
    from ..core.trains import Train
    from .candidates import Enumerator
    from .solve import _Plan

Ints = npt.NDArray[np.int64]
Bytes = npt.NDArray[np.uint8]


class Ranked:
    """A train kind's candidates, highest bound first, as the search reads them: their
    bounds (``bound_list``), a candidate by rank (``lst[r]``), a rank's conflict keys
    (``mask_at``), and every rank's keys as byte rows (``mask_rows``) and per block
    (``block_cores``)."""

    bound_list: list[int]

    def __init__(self) -> None:
        self._rows: dict[int, Bytes] = {}  # width -> mask_rows

    def __len__(self) -> int:
        return len(self.bound_list)

    def __getitem__(self, r: int) -> Candidate:  # pragma: no cover - protocol
        raise NotImplementedError

    def __iter__(self) -> Iterator[Candidate]:
        for r in range(len(self)):
            yield self[r]

    def mask_at(self, r: int) -> int:
        return self[r].mask

    def peek(self, r: int) -> tuple[int, int] | None:
        """(bound, conflict keys) of rank r while no candidate is made for it (its base is
        its bound, it has no run bonus), else None."""
        return None

    def mask_rows(self, width: int) -> Bytes:
        """Every rank's conflict keys as ``width`` little-endian bytes (an n x width array)."""
        got = self._rows.get(width)
        if got is None:
            got = self._rows[width] = self._mask_rows(width)
        return got

    def _mask_rows(self, width: int) -> Bytes:
        return byte_rows([c.mask for c in self], width)

    def block_cores(self, size: int, width: int) -> list[int]:
        """For every block of ``size`` ranks (from rank 0), the keys all its routes use."""
        rows = self.mask_rows(width)
        if not len(rows):
            return []
        raw = np.bitwise_and.reduceat(rows, np.arange(0, len(rows), size), axis=0).tobytes()
        return [int.from_bytes(raw[i:i + width], "little") for i in range(0, len(raw), width)]


class CandList(Ranked):
    """Candidates made one by one (a walk under a floor), highest bound first."""

    def __init__(self, cands: list[Candidate]):
        super().__init__()
        self.cands = cands
        self.bound_list = [c.bound for c in cands]

    def __getitem__(self, r: int) -> Candidate:
        return self.cands[r]

    def __iter__(self) -> Iterator[Candidate]:
        return iter(self.cands)


class CandTable(Ranked):
    """Candidates kept as columns and made on demand, highest bound first."""

    def __init__(self, train: Train, bounds: Ints, group: Ints, kidx: Ints, heads: list[Entry], tails: list[Entry],
                 bonus: Ints | None, halves_rows: dict[int, tuple[Bytes, Bytes]]):
        super().__init__()
        self.train = train
        self.group = group  # by rank: the route's first half (an index of ``heads``)
        self.kidx = kidx  # by rank: its second half (an index of ``tails``; len(tails): none)
        self.heads = heads
        self.tails = tails
        self.bound_list = bounds.tolist()
        self.bonus = bonus  # by rank: the part of the bound a run earns once (None: none)
        self.halves_rows = halves_rows  # width -> the halves' masks as rows (shared by a walk's tables)
        self._made: list[Candidate | None] = [None] * len(self.bound_list)
        self._group: list[int] | None = None
        self._kidx: list[int] | None = None

    def _lists(self) -> tuple[list[int], list[int]]:
        if self._group is None or self._kidx is None:
            self._group = self.group.tolist()
            self._kidx = self.kidx.tolist()
        return self._group, self._kidx

    def mask_at(self, r: int) -> int:
        """Rank r's conflict keys (without making its candidate)."""
        group, kidx = self._lists()
        m: int = self.heads[group[r]][MASK]
        k = kidx[r]
        return m | self.tails[k][MASK] if k < len(self.tails) else m

    def peek(self, r: int) -> tuple[int, int] | None:
        if self._made[r] is not None or (self.bonus is not None and self.bonus[r]):
            return None
        return self.bound_list[r], self.mask_at(r)

    def _make(self, r: int) -> Candidate:
        c = self._made[r]
        if c is None:
            group, kidx = self._lists()
            h = self.heads[group[r]]
            k = kidx[r]
            o = self.tails[k] if k < len(self.tails) else None
            mask = h[MASK] if o is None else h[MASK] | o[MASK]
            bonus = int(self.bonus[r]) if self.bonus is not None else 0
            c = self._made[r] = Candidate(h, o, self.bound_list[r], mask, bonus, self.train)
        return c

    @overload
    def __getitem__(self, r: int) -> Candidate: ...

    @overload
    def __getitem__(self, r: slice) -> list[Candidate]: ...

    def __getitem__(self, r: int | slice) -> Candidate | list[Candidate]:
        if isinstance(r, slice):
            return [self._make(i) for i in range(*r.indices(len(self)))]
        if r < 0:
            r += len(self)
        if not 0 <= r < len(self):
            raise IndexError(r)
        return self._make(r)

    def _mask_rows(self, width: int) -> Bytes:
        got = self.halves_rows.get(width)
        if got is None:
            got = self.halves_rows[width] = (
                byte_rows([h[MASK] for h in self.heads], width),
                np.vstack([byte_rows([t[MASK] for t in self.tails], width), np.zeros((1, width), dtype=np.uint8)]))
        heads, tails = got
        return heads[self.group] | tails[self.kidx]


def _unique(a: Ints) -> tuple[list[int], Ints]:
    """The distinct values of an int array (a list, ascending) and, for each element, its
    value's place among them (by counting when they are few and close)."""
    if not len(a):
        return [], np.zeros(0, dtype=np.int64)
    lo = int(a.min())
    if int(a.max()) - lo < max(1 << 16, 4 * len(a)):
        shifted = a - lo
        seen = np.zeros(int(shifted.max()) + 1, dtype=bool)
        seen[shifted] = True
        values = np.flatnonzero(seen)
        place = np.zeros(len(seen), dtype=np.int64)
        place[values] = np.arange(len(values))
        return (values + lo).tolist(), place[shifted]
    values, inverse = np.unique(a, return_inverse=True)
    return values.tolist(), inverse.reshape(-1)


class _Routes:
    """A walk's routes as columns: ``group`` (the first half, an index of ``heads``) and
    ``kidx`` (the second half, an index of ``tails``; ``len(tails)``: none)."""

    def __init__(self, en: Enumerator):
        heads: list[Entry] = []  # a group's first half
        sizes: list[int] = []  # a group's routes
        offs: list[int] = []  # where its tree's second halves start in ``tails``
        ks: list[int] = []  # by route: the second half's place in its tree (-1: none)
        tails: list[Entry] = []
        rel: list[Any] = []  # by second half: its stop values without the start's
        t_state: list[Any] = []  # (meter states)
        t_start: list[Any] = []  # by second half: its start's meter state
        placed: dict[object, int] = {}  # a join -> where its second halves start
        for h, join, idx in en.routes():
            heads.append(h)
            if join is None:
                sizes.append(1)
                offs.append(0)
                ks.append(-1)
                continue
            off = placed.get(join)  # (the key keeps the join alive: ids are not reused)
            if off is None:
                off = placed[join] = len(tails)
                assert isinstance(join, BitJoin)  # (a walk without a floor joins with bitsets)
                tails.extend(join.uni)
                rel.extend(join.rel_vals)
                t_state.extend(k[STATE] for k in join.uni)
                t_start.extend([join.st0] * len(join.uni))
            sizes.append(len(idx))
            offs.append(off)
            ks.extend(idx)
        self.en = en
        self.heads = heads
        self.tails = tails
        self.rel = rel
        self.t_state = t_state
        self.t_start = t_start
        n_t = len(tails)
        size = np.array(sizes, dtype=np.int64)
        self.group = np.repeat(np.arange(len(heads), dtype=np.int64), size)
        raw = np.array(ks, dtype=np.int64)
        self.kidx = np.where(raw < 0, n_t, raw + np.repeat(np.array(offs, dtype=np.int64), size))
        self.alone = self.kidx == n_t
        self._merged: tuple[list[tuple[int, ...]], Ints] | None = None
        self._sums: dict[int | None, Ints] = {}
        self._weakest: dict[int, Ints] = {}
        self.rows: dict[int, tuple[Bytes, Bytes]] = {}  # width -> the halves' masks as rows (``CandTable.halves_rows``)

    def sums(self, pay: int | None) -> Ints:
        """Every route's stop values summed, the best ``pay`` of them where only those pay
        (the walk's own values first: at most its ``pay`` best)."""
        got = self._sums.get(pay)
        if got is not None:
            return got
        en = self.en
        if en.pay is None:
            got = (np.array([h[VALS] for h in self.heads], dtype=np.int64)[self.group]
                   + np.append(np.array(self.rel, dtype=np.int64), 0)[self.kidx])
        else:
            if self._merged is None:
                # the routes' values, once per distinct pair of the halves' values
                ids: dict[tuple[int, ...], int] = {}
                h_id = np.array([ids.setdefault(h[VALS], len(ids)) for h in self.heads], dtype=np.int64)
                t_id = np.array([ids.setdefault(v, len(ids)) for v in self.rel] + [ids.setdefault((), len(ids))],
                                dtype=np.int64)
                codes, inverse = _unique(h_id[self.group] * len(ids) + t_id[self.kidx])
                vals = list(ids)
                merged = [en.merged(vals[c // len(ids)], vals[c % len(ids)]) for c in codes]
                self._merged = (merged, inverse)
            merged, inverse = self._merged
            got = np.array([sum(m[:pay]) for m in merged], dtype=np.int64)[inverse]
        self._sums[pay] = got
        return got

    def weakest(self, pay: int | None) -> Ints:
        """Every route's lowest stop value among the ``pay`` best it sums when only those pay
        and it has that many stops (else 0; every route 0 when every stop pays)."""
        if pay is None or self.en.pay is None:
            return np.zeros(len(self.group), dtype=np.int64)
        got = self._weakest.get(pay)
        if got is None:
            self.sums(pay)
            assert self._merged is not None  # (made by ``sums``)
            merged, inverse = self._merged
            got = self._weakest[pay] = np.array([m[pay - 1] if len(m) >= pay else 0 for m in merged],
                                                dtype=np.int64)[inverse]
        return got

    def relevant_masks(self, nodes: frozenset[RevenueCenter]) -> tuple[Ints | None, list[RevenueCenter]]:
        """Every route's stops among ``nodes`` as bits (``nodes`` in a fixed order), with
        that order; None when there are too many of them for a word."""
        order = sorted(nodes, key=lambda n: (n.hex.id if getattr(n, "hex", None) is not None else "", repr(n)))
        if len(order) > 62:
            return None, order
        bit = {n: 1 << i for i, n in enumerate(order)}
        seen: dict[int, int] = {}  # id of a tree entry -> its mask (the entries stay alive meanwhile)
        get = seen.get
        bit_of = bit.get

        def mask(e: Entry) -> int:
            # a half's stops are its parent's and its own node (the walk's tree): built on
            # the parent's mask; the ancestors not yet seen are gathered first, then their
            # masks made root first (no recursion: the halves mostly come after their parents)
            m = get(id(e))
            if m is not None:
                return m
            chain = [e]
            p = e[PARENT]
            m = 0
            while p is not None:
                pm = get(id(p))
                if pm is not None:
                    m = pm
                    break
                chain.append(p)
                p = p[PARENT]
            for x in reversed(chain):
                m = seen[id(x)] = m | bit_of(x[NODE], 0)
            return m

        heads = np.array([mask(h) for h in self.heads], dtype=np.int64)
        tails = np.array([mask(t) for t in self.tails] + [0], dtype=np.int64)
        return heads[self.group] | tails[self.kidx], order

    def stops_of(self, r: int) -> partial[tuple[RevenueCenter, ...]]:
        """Route r's stops (a callable, as title hooks take them)."""
        h = self.heads[int(self.group[r])]
        k = int(self.kidx[r])
        return partial(trail_nodes, h, self.tails[k] if k < len(self.tails) else None)


def _through(fn: Callable[..., int], routes: _Routes, base: Ints | None, with_base: bool,
             weakest: Ints | None = None) -> Ints:
    """A title's per-route function over every route: ``fn(stops, base, weakest)``
    (``with_base``) or ``fn(stops)``. A function whose ``relevant`` (a set of stops) says what
    it reads is called once per distinct (stops among them, base, weakest); else once per
    route."""
    relevant = getattr(fn, "relevant", None)
    masks = order = None
    if relevant is not None:
        masks, order = routes.relevant_masks(relevant)
    if masks is None:
        return _through_stops(fn, routes, base, with_base, weakest)
    assert order is not None
    m_vals, m_place = _unique(masks)
    nb = nw = 1
    b_vals: list[int] = []
    w_vals: list[int] = []
    if with_base:
        assert base is not None and weakest is not None
        # (base, weakest) pairs as one code
        w_vals, w_place = _unique(weakest)
        nw = max(1, len(w_vals))
        b_vals, b_place = _unique(base * nw + w_place)
        nb = max(1, len(b_vals))
        codes, inverse = _unique(m_place * nb + b_place)
    else:
        codes, inverse = m_vals, m_place
    out = []
    for c in codes:
        m = m_vals[c // nb] if with_base else c
        stops = tuple(n for i, n in enumerate(order) if m >> i & 1)
        if with_base:
            b, w = divmod(b_vals[c % nb], nw)
            out.append(fn(lambda stops=stops: stops, b, w_vals[w]))
        else:
            out.append(fn(lambda stops=stops: stops))
    return np.array(out, dtype=np.int64)[inverse] if out else np.zeros(0, dtype=np.int64)


def _through_stops(fn: Callable[..., int], routes: _Routes, base: Ints | None, with_base: bool,
                   weakest: Ints | None) -> Ints:
    """:func:`_through` for a function that does not say which stops it reads: called once
    per distinct (set of the route's stops, base, weakest). Hooks take a route's stops in no
    particular order (see ``trail_nodes``; ``_through`` gives them sorted), and a route has
    no stop twice, so the set is all such a function can read of them."""
    n_r = len(routes.group)
    if not n_r:
        return np.zeros(0, dtype=np.int64)
    # every half's stops as bits, in words of 62 (both halves hold the start), built on its
    # parent's in the walk's tree
    bit: dict[RevenueCenter, int] = {}
    seen: dict[int, int] = {}  # id of a tree entry -> its mask (the entries stay alive meanwhile)

    def mask(e: Entry) -> int:
        m = seen.get(id(e))
        if m is None:
            n = e[NODE]
            b = bit.get(n)
            if b is None:
                at = len(bit)
                b = bit[n] = 1 << at
            p = e[PARENT]
            m = seen[id(e)] = (mask(p) if p is not None else 0) | b
        return m

    h_masks = [mask(h) for h in routes.heads]
    t_masks = [mask(t) for t in routes.tails] + [0]
    n_w = max(1, -(-len(bit) // 62))
    word = (1 << 62) - 1
    place = np.zeros(n_r, dtype=np.int64)
    for w in range(n_w):
        sh = 62 * w
        col = (np.array([m >> sh & word for m in h_masks], dtype=np.int64)[routes.group]
               | np.array([m >> sh & word for m in t_masks], dtype=np.int64)[routes.kidx])
        c_vals, c_place = _unique(col)
        place = _unique(place * len(c_vals) + c_place)[1] if w else c_place
    if with_base:
        assert base is not None and weakest is not None
        w_vals, w_place = _unique(weakest)
        b_vals, b_place = _unique(base * max(1, len(w_vals)) + w_place)
        place = place * max(1, len(b_vals)) + b_place
    codes, inverse = _unique(place)
    rep = np.empty(len(codes), dtype=np.int64)
    rep[inverse] = np.arange(n_r, dtype=np.int64)  # (a route of each: the last)
    heads, tails = routes.heads, routes.tails
    n_t = len(tails)
    out = []
    for r, g, k in zip(rep.tolist(), routes.group[rep].tolist(), routes.kidx[rep].tolist()):
        stops = partial(trail_nodes, heads[g], tails[k] if k < n_t else None)
        if with_base:
            assert base is not None and weakest is not None
            out.append(fn(stops, int(base[r]), int(weakest[r])))
        else:
            out.append(fn(stops))
    return np.array(out, dtype=np.int64)[inverse]


def _priced(routes: _Routes, plan: _Plan, low: int, keep: npt.NDArray[np.bool_] | None = None) -> CandTable:
    """``plan``'s kind's table of the routes (those ``keep`` marks, if given) whose bound is
    at least ``low``: stop values, the title's base bound, route bound and run bonus."""
    b = routes.sums(plan.pay)
    if plan.base_hook is not None and len(b):
        values, inverse = _unique(b)
        b = np.array([plan.base_bound(v) for v in values], dtype=np.int64)[inverse]
    if plan.hook is not None:
        b = _through(plan.hook, routes, b, True, routes.weakest(plan.pay))
    bonus = _through(plan.run_bonus, routes, None, False) if plan.run_bonus is not None else None
    total = b + bonus if bonus is not None else b
    ok = total >= low
    if keep is not None:
        ok &= keep
    at = np.flatnonzero(ok)
    key = -total[at]
    if len(key) and key.min() >= -(1 << 15) and key.max() < (1 << 15):
        key = key.astype(np.int16)  # (a radix sort)
    order = at[np.argsort(key, kind="stable")]  # equal bounds keep walk order
    return CandTable(plan.train, total[order], routes.group[order], routes.kidx[order], routes.heads,
                     routes.tails, bonus[order] if bonus is not None else None, routes.rows)


def table_walk(en: Enumerator, plan: _Plan, riders: list[_Plan], low: int = 1) -> tuple[CandTable, list[CandTable]]:
    """The walk of ``en`` (every route, no floor) as tables: ``plan``'s kind's routes
    bounded at least ``low`` and each rider's (its plan) routes its meter accepts, bounded
    at least 1. A plan gives ``train``, ``pay``, ``meter``, ``base_hook``/``base_bound``,
    ``hook`` (``bound(stops, base)``) and ``run_bonus`` (``bonus(stops)``)."""
    routes = _Routes(en)
    table = _priced(routes, plan, low)
    if not riders:
        return table, []
    # the whole route's meter state, by (first half's state, second half's state, start's)
    ids: dict[Any, int] = {}  # (meter states)

    def sid(s: Any) -> int:
        got = ids.get(s)
        if got is None:
            got = ids[s] = len(ids)
        return got

    h_sid = np.array([sid(h[STATE]) for h in routes.heads], dtype=np.int64)
    k_sid = np.array([sid(s) for s in routes.t_state] + [0], dtype=np.int64)
    k_start = np.array([sid(s) for s in routes.t_start] + [0], dtype=np.int64)
    ns = len(ids) + 1
    group, kidx = routes.group, routes.kidx
    code = (h_sid[group] * ns + np.where(routes.alone, ns - 1, k_sid[kidx])) * ns + k_start[kidx]
    codes, inverse = _unique(code)
    states = list(ids)
    join = en.meter.join
    whole = []
    for c in codes:
        c, st = divmod(c, ns)
        hs, kk = divmod(c, ns)
        whole.append(states[hs] if kk == ns - 1 else join(states[hs], states[kk], states[st]))
    out = []
    for r in riders:
        ok = np.array([s is not None and r.meter.accepts(s) for s in whole], dtype=np.bool_)[inverse]
        out.append(_priced(routes, r, 1, ok))
    return table, out
