"""Candidate lists as arrays: a walk's routes counted, bounded, filtered and ranked with numpy.

When every stop value of a route counts (its values are a sum), no title hook reads its stops
and its second halves come from bitsets (:class:`.joins.BitJoin`), a route is two numbers:
its first half and its second half's place in the start's tree. Its stop values, the meter
state of the whole route (which riders' meters accept it) and its bound (the title's
``router_base_bound`` of the sum) are then columns computed at once, and a
:class:`CandTable` ranks the routes by bound without making an object per route: a
:class:`~.candidates.Candidate` is made when the search first looks at its rank, and the
conflict bitsets of a list (:mod:`.bitsets`) come from the halves' masks as byte rows.
"""

from __future__ import annotations

import numpy as np

from .candidates import MASK, STATE, VALS, Candidate

# what a rider is: (train, meter, base bound of a stop value sum or None)


class CandTable:
    """One train kind's candidates in rank order (highest bound first), made on demand.
    Acts as a read-only sequence of :class:`~.candidates.Candidate`."""

    def __init__(self, train, bounds, group, kidx, heads: list, tails: list):
        self.train = train
        self.bounds = bounds  # by rank
        self.group = group  # by rank: the route's first half (an index of ``heads``)
        self.kidx = kidx  # by rank: its second half (an index of ``tails``; len(tails): none)
        self.heads = heads
        self.tails = tails
        self.bound_list: list = bounds.tolist()
        self._made: list = [None] * len(self.bound_list)
        self._rows: dict = {}  # width -> mask_rows
        self._group: list | None = None
        self._kidx: list | None = None

    def __len__(self) -> int:
        return len(self.bound_list)

    def _lists(self) -> tuple[list, list]:
        if self._group is None or self._kidx is None:
            self._group = self.group.tolist()
            self._kidx = self.kidx.tolist()
        return self._group, self._kidx

    def mask_at(self, r: int) -> int:
        """Rank r's conflict keys (without making its candidate)."""
        group, kidx = self._lists()
        m = self.heads[group[r]][MASK]
        k = kidx[r]
        return m | self.tails[k][MASK] if k < len(self.tails) else m

    def peek(self, r: int) -> tuple[int, int] | None:
        """(bound, conflict keys) of rank r while its candidate is not made, else None (it
        may have learnt its exact value)."""
        if self._made[r] is not None:
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
            c = self._made[r] = Candidate(h, o, self.bound_list[r], mask, 0, self.train)
        return c

    def __getitem__(self, r):
        if isinstance(r, slice):
            return [self._make(i) for i in range(*r.indices(len(self)))]
        if r < 0:
            r += len(self)
        if not 0 <= r < len(self):
            raise IndexError(r)
        return self._make(r)

    def __iter__(self):
        for r in range(len(self)):
            yield self._make(r)

    def mask_rows(self, width: int):
        """Every rank's conflict keys as ``width`` little-endian bytes (an n x width array)."""
        got = self._rows.get(width)
        if got is None:
            got = self._rows[width] = self._mask_rows(width)
        return got

    def block_cores(self, size: int, width: int) -> list:
        """For every block of ``size`` ranks (from rank 0), the keys all its routes use."""
        rows = self.mask_rows(width)
        if not len(rows):
            return []
        raw = np.bitwise_and.reduceat(rows, np.arange(0, len(rows), size), axis=0).tobytes()
        return [int.from_bytes(raw[i:i + width], "little") for i in range(0, len(raw), width)]

    def _mask_rows(self, width: int):
        def rows(entries):
            raw = b"".join(e[MASK].to_bytes(width, "little") for e in entries)
            return np.frombuffer(raw, dtype=np.uint8).reshape(len(entries), width)

        heads = rows(self.heads)
        tails = np.vstack([rows(self.tails), np.zeros((1, width), dtype=np.uint8)])
        return heads[self.group] | tails[self.kidx]


def _unique(a) -> tuple[list, np.ndarray]:
    """The distinct values of an array of small non-negative ints (a list, ascending) and,
    for each element, its value's place among them."""
    if not len(a):
        return [], np.zeros(0, dtype=np.int64)
    if a.min() >= 0 and a.max() < max(1 << 16, 4 * len(a)):
        seen = np.zeros(int(a.max()) + 1, dtype=bool)
        seen[a] = True
        values = np.flatnonzero(seen)
        place = np.zeros(len(seen), dtype=np.int64)
        place[values] = np.arange(len(values))
        return values.tolist(), place[a]
    values, inverse = np.unique(a, return_inverse=True)
    return values.tolist(), inverse.reshape(-1)


def table_walk(en, train, base_bound, riders: list, low: int = 1) -> tuple[CandTable, list]:
    """The walk of ``en`` (every route, no floor) as tables: the kind's routes bounded
    at least ``low`` and each rider's ((train, meter, base bound) triples) routes its meter
    accepts, bounded at least 1. ``base_bound(sum)``: the title's base bound (None: the sum)."""
    heads: list = []  # a group's first half
    sizes: list = []  # a group's routes
    offs: list = []  # where its tree's second halves start in ``tails``
    ks: list = []  # by route: the second half's place in its tree (-1: none)
    tails: list = []
    rel: list = []  # by second half: its stop values without the start's
    t_state: list = []
    t_start: list = []  # by second half: its start's meter state
    placed: dict = {}
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
            tails.extend(join.uni)
            rel.extend(join.rel_vals)
            t_state.extend(k[STATE] for k in join.uni)
            t_start.extend([join.st0] * len(join.uni))
        sizes.append(len(idx))
        offs.append(off)
        ks.extend(idx)
    n_t = len(tails)
    size = np.array(sizes, dtype=np.int64)
    group = np.repeat(np.arange(len(heads), dtype=np.int64), size)
    raw = np.array(ks, dtype=np.int64)
    kidx = np.where(raw < 0, n_t, raw + np.repeat(np.array(offs, dtype=np.int64), size))
    sums = (np.array([h[VALS] for h in heads], dtype=np.int64)[group]
            + np.append(np.array(rel, dtype=np.int64), 0)[kidx])

    def bounded(fn):
        if fn is None:
            return sums
        values, inverse = _unique(sums)
        return np.array([fn(v) for v in values], dtype=np.int64)[inverse]

    def ranked(t, bounds, keep) -> CandTable:
        at = np.flatnonzero(keep)
        key = -bounds[at]
        if len(key) and -(1 << 15) <= key.min() and key.max() < (1 << 15):
            key = key.astype(np.int16)  # (a radix sort)
        order = at[np.argsort(key, kind="stable")]  # equal bounds keep walk order
        return CandTable(t, bounds[order], group[order], kidx[order], heads, tails)

    host_bounds = bounded(base_bound)
    table = ranked(train, host_bounds, host_bounds >= low)
    if not riders:
        return table, []
    # the whole route's meter state, by (first half's state, second half's state, start's)
    ids: dict = {}

    def sid(s) -> int:
        got = ids.get(s)
        if got is None:
            got = ids[s] = len(ids)
        return got

    h_sid = np.array([sid(h[STATE]) for h in heads], dtype=np.int64)
    k_sid = np.array([sid(s) for s in t_state] + [0], dtype=np.int64)
    k_start = np.array([sid(s) for s in t_start] + [0], dtype=np.int64)
    alone = kidx == n_t
    ns = len(ids) + 1
    code = (h_sid[group] * ns + np.where(alone, ns - 1, k_sid[kidx])) * ns + k_start[kidx]
    codes, inverse = _unique(code)
    states = list(ids)
    join = en.meter.join
    whole = []
    for c in codes:
        c, st = divmod(c, ns)
        hs, kk = divmod(c, ns)
        whole.append(states[hs] if kk == ns - 1 else join(states[hs], states[kk], states[st]))
    out = []
    for t, meter, fn in riders:
        ok = np.array([s is not None and meter.accepts(s) for s in whole], dtype=bool)[inverse]
        bounds = bounded(fn)
        out.append(ranked(t, bounds, ok & (bounds >= 1)))
    return table, out
