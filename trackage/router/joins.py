"""Second halves found with bitsets: the routes through one start, when no floor prunes.

The halves walked from a start form a tree (see :mod:`.candidates`); a route through the
start joins a first half ``h`` with a second half ``k`` of that tree. ``k`` goes with ``h``
when they share no track, no stop but the start and no clash bit, leave the start on the
sides the split convention allows, and their meter states add up to one the meter accepts.
Each of those is a property of ``k``'s whole path, so the second halves that go with ``h``
are one bitset over the tree: what ``h`` conflicts with (built from its parent's, a link
and a stop at a time), taken from what its side and meter allow. Nothing is walked twice,
and a route is its two tree entries (no entry is made for it).

Meters that can add two halves' states (``Meter.join``) use this; a walk under a floor keeps
the tree walk that prunes whole subtrees (``Enumerator._join``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .bitsets import rank_list, transpose, union
from .entries import CLASH, FIRST, IDX, MASK, NODE, PARENT, SPENT, STATE, VALS, Entry
from .meter import TypedMeter

if TYPE_CHECKING:
    from ..core.tiles import RevenueCenter
    from .candidates import Enumerator


class BitJoin:
    """The second halves of one start's tree (the halves spending at most ``lim``, None:
    all) as bitsets over their positions; ``pairs(h, sides)`` yields the routes' second
    halves, each as an entry of the whole route's track, meter state and clash bits."""

    def __init__(self, en: Enumerator, root: Entry, halves: list[Entry], lim: int | None):
        self.en = en
        self.root = root
        self.meter = en.meter
        self.st0 = root[STATE]
        uni = [e for e in halves if lim is None or e[SPENT] <= lim]
        self.uni = uni
        n = len(uni)
        pos = {e[IDX]: j for j, e in enumerate(uni)}
        # the stops (the start left out) and clash bits of every second half, as masks
        node_bit: dict[RevenueCenter, int] = {}
        nmasks = [0] * n
        cmasks = [0] * n
        rclash = root[CLASH]
        for j, e in enumerate(uni):
            nd = e[NODE]
            b = node_bit.get(nd)
            if b is None:
                at = len(node_bit)
                b = node_bit[nd] = 1 << at
            p = e[PARENT]
            pj = pos.get(p[IDX]) if p[PARENT] is not None else None
            nmasks[j] = b | (nmasks[pj] if pj is not None else 0)
            cmasks[j] = e[CLASH] & ~rclash
        self.node_bit = node_bit
        tmasks = [e[MASK] for e in uni]
        self.track_use = transpose(tmasks, max(tmasks, default=0).bit_length())
        ntrack = len(self.track_use)
        self.track_keys = (1 << ntrack) - 1  # (the keys no second half has are left out)
        self.node_use = transpose(nmasks, len(node_bit))
        self.clash_use = transpose(cmasks, max(cmasks, default=0).bit_length())
        nclash = len(self.clash_use)
        self.clash_keys = (1 << nclash) - 1
        # what the start's links and the meter allow
        tlinks = en.klinks(root[NODE])
        free = en.free
        by_link = [0] * len(tlinks)
        by_state: dict[Any, int] = {}  # a meter state -> the halves with it
        spent_of: dict[int, int] = {}
        for j, e in enumerate(uni):
            bit = 1 << j
            if not tlinks[e[FIRST]][3] and not (free is not None and free(e[NODE])):
                by_link[e[FIRST]] |= bit  # (no route leaves the start through a terminal nor ends free)
            by_state[e[STATE]] = by_state.get(e[STATE], 0) | bit
            spent_of[e[SPENT]] = spent_of.get(e[SPENT], 0) | bit
        self.by_link = by_link
        self.by_state = by_state
        acc = 0
        self.spent_le: dict[int, int] = {}
        for s in sorted(spent_of):
            acc |= spent_of[s]
            self.spent_le[s] = acc
        self.full = (1 << n) - 1
        self.rel_vals = self._rel_vals(pos)
        self._track: dict[int, int] = {}
        self._node: dict[RevenueCenter, int] = {}
        self._allow: dict[tuple[int, int, int | None], int] = {}
        self._meter_ok: dict[Any, tuple[int, dict[Any, Any]]] = {}

    def _rel_vals(self, pos: dict[int, int]) -> list[Any]:
        """Every second half's stop values without the start's."""
        en = self.en
        uni = self.uni
        if en.pay is None:
            v0 = self.root[VALS]
            return [e[VALS] - v0 for e in uni]
        out: list[Any] = [()] * len(uni)
        value = en.value
        add_v = en._add_v
        for j, e in enumerate(uni):
            p = e[PARENT]
            pj = pos.get(p[IDX]) if p[PARENT] is not None else None
            out[j] = add_v(out[pj] if pj is not None else (), value(e[NODE]))
        return out

    def conflicts(self, h: Entry, base: int) -> int:
        """The second halves sharing track, a stop or a clash bit with first half ``h``, from
        ``base``, those its parent conflicts with (the halves are taken in tree order, so
        only the current half's ancestors' are kept: see ``Enumerator._bit_routes``)."""
        m = h[MASK] ^ h[PARENT][MASK]  # its last link's track
        t = self._track.get(m)
        if t is None:
            t = self._track[m] = union(self.track_use, m & self.track_keys)
        nd = h[NODE]
        c = self._node.get(nd)
        if c is None:
            b = self.node_bit.get(nd)
            c = self.node_use[b.bit_length() - 1] if b is not None else 0
            cb = self.en.clash_bits(nd)
            if cb:
                c |= union(self.clash_use, cb & self.clash_keys)
            self._node[nd] = c
        return base | t | c

    def allowed(self, side: int, first: int, most: int | None) -> int:
        """The second halves leaving the start after (side 1) or before (-1) link ``first``
        and spending at most ``most`` (None: any)."""
        key = (side, first, most)
        got = self._allow.get(key)
        if got is None:
            links = self.by_link
            got = 0
            for li in (range(first + 1, len(links)) if side > 0 else range(first)):
                got |= links[li]
            if most is not None:
                cap = 0
                for s, bits in self.spent_le.items():
                    if s <= most:
                        cap = bits
                got &= cap
            self._allow[key] = got
        return got

    def meter_ok(self, state: Any) -> tuple[int, dict[Any, Any]]:
        """The second halves whose meter state, with ``state``, the meter accepts, and the
        route's state by the second half's."""
        got = self._meter_ok.get(state)
        if got is None:
            ok = 0
            combined: dict[Any, Any] = {}
            meter = self.meter
            st0 = self.st0
            # (``meter.join`` inlined where the meter is typed: this is called once per
            # first half's state, every second half's state against it, and the pairs are
            # seldom asked again, so only the acceptance of a route's state is cached)
            if type(meter) is not TypedMeter:
                join = meter.join
                for s, bits in self.by_state.items():
                    st = join(state, s, st0)
                    if st is not None:
                        ok |= bits
                        combined[s] = st
            else:
                fits = meter._fits
                accepts = meter.accepts
                for s, bits in self.by_state.items():
                    st = tuple([x + y - z for x, y, z in zip(state, s, st0)])
                    good = fits.get(st)
                    if good is None:
                        good = accepts(st)
                    if good:
                        ok |= bits
                        combined[s] = st
            got = self._meter_ok[state] = (ok, combined)
        return got

    def index(self, h: Entry, sides: Sequence[tuple[int, int | None]], cf: int) -> list[int]:
        """For first half ``h``, its ``sides`` ((side, most) pairs) and ``cf`` (what it
        conflicts with): the places of the routes' second halves in ``uni``, in tree order."""
        got = self._meter_ok.get(h[STATE])
        ok = (got if got is not None else self.meter_ok(h[STATE]))[0]
        free_of = ok & ~cf
        idx: list[int] = []
        if not free_of:
            return idx
        first = h[FIRST]
        allow = self._allow
        for side, most in sides:
            a = allow.get((side, first, most))
            m = (a if a is not None else self.allowed(side, first, most)) & free_of
            if m:
                idx.extend(rank_list(m))
        return idx

    def batch(self, h: Entry, idx: Sequence[int]) -> tuple[list[Entry], list[Any], list[Any]]:
        """The second halves at ``idx`` (entries of the tree), their own stop values and the
        routes' meter states."""
        _ok, combined = self.meter_ok(h[STATE])
        uni = self.uni
        rel = self.rel_vals
        ks = [uni[j] for j in idx]
        return ks, [rel[j] for j in idx], [combined[k[STATE]] for k in ks]


class ListJoin:
    """Second halves found by walking the tree (``Enumerator._join``): entries carrying the
    whole route's track and meter state, and the second half's own stop values."""

    def __init__(self, others: list[Entry]):
        self.uni = others

    def batch(self, h: Entry, idx: Sequence[int]) -> tuple[list[Entry], list[Any], list[Any]]:
        others = self.uni
        return others, [o[VALS] for o in others], [o[STATE] for o in others]
