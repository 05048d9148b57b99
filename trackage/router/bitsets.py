"""Conflicts as bitsets over ranked candidates.

Each train kind's candidates are ranked by bound (rank 0 is the highest); a candidate's
``mask`` has a bit per conflict key (a piece of track) it uses. ``inverted[k]`` is the bitset
of the ranks whose route uses key ``k``: the transpose of the masks, done with numpy a block
of keys at a time. What a chosen route blocks in a list is the union of its keys' bitsets
(memoised per route and list), so "the best candidate sharing no track with the chosen
routes" is the lowest rank left in ``full & ~blocked``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .entries import MASK, PARENT, Entry

if TYPE_CHECKING:
    from .candidates import Candidate
    from .table import Ranked

_HUBS = (32, 48, 64, 80, 96, 128)  # how many of the most used keys a coarse view may tell apart
_CLASS_SHARE = 3  # ... as many as keep the classes within a fifth of the candidates
_COARSE_FROM = 2000  # candidates a list needs before a coarse view is worth building


_GROUP = 16  # hub keys per group of a coarse view (a query's union: one memoised union per group)

_CHUNK = 1 << 12


def ranks(avail: int) -> Iterator[int]:
    """The set bits of ``avail``, lowest first, a chunk of bits at a time (taking the lowest
    bit off a long bitset costs its whole length each time)."""
    base = 0
    mask = (1 << _CHUNK) - 1
    while avail:
        chunk = avail & mask
        if not chunk:
            skip = ((avail & -avail).bit_length() - 1) // _CHUNK * _CHUNK
            avail >>= skip
            base += skip
            continue
        while chunk:
            low = chunk & -chunk
            yield base + low.bit_length() - 1
            chunk ^= low
        avail >>= _CHUNK
        base += _CHUNK


def rank_list(avail: int) -> list[int]:
    """The set bits of ``avail`` as a list, lowest first: a few bits are taken off from the
    top one at a time; more (``_RANK_BITS``) are unpacked at once with numpy (taking bits off
    one at a time costs the bitset's length each)."""
    if avail.bit_count() > _RANK_BITS:
        raw = np.frombuffer(avail.to_bytes((avail.bit_length() + 7) // 8, "little"), dtype=np.uint8)
        got: list[int] = np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()
        return got
    out: list[int] = []
    while avail:
        top = avail.bit_length() - 1
        out.append(top)
        avail ^= 1 << top
    out.reverse()
    return out


_RANK_BITS = 40  # set bits above which ``rank_list`` unpacks with numpy (1861 758: 527 of 3,476 calls)


def union(inverted: list[int], mask: int) -> int:
    """The union of ``inverted[k]`` over the keys k set in ``mask``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= inverted[low.bit_length() - 1]
        mask ^= low
    return out


def byte_rows(masks: list[int], width: int) -> npt.NDArray[np.uint8]:
    """``masks`` as rows of ``width`` little-endian bytes (an n x width array)."""
    raw = b"".join(m.to_bytes(width, "little") for m in masks)
    return np.frombuffer(raw, dtype=np.uint8).reshape(len(masks), width)


def transpose(masks: list[int], nkeys: int) -> list[int]:
    """For every key, the bitset of the positions whose mask has it."""
    if not masks or not nkeys:
        return [0] * nkeys
    return transpose_rows(byte_rows(masks, (nkeys + 7) // 8), nkeys)


def transpose_rows(mat: npt.NDArray[np.uint8], nkeys: int) -> list[int]:
    """``transpose`` of masks given as rows of little-endian bytes (an n x width array)."""
    inverted = [0] * nkeys
    width = mat.shape[1]
    cols = np.ascontiguousarray(mat[:, :(nkeys + 7) // 8].T)  # (a key byte's column read 8 times: contiguous)
    for byte in range(min(width, len(cols))):
        col = cols[byte]
        if not col.any():
            continue
        for bit in range(8):
            k = byte * 8 + bit
            if k >= nkeys:
                break
            hits = (col >> bit) & 1
            if hits.any():
                inverted[k] = int.from_bytes(np.packbits(hits, bitorder="little").tobytes(), "little")
    return inverted


def _classes(packed: npt.NDArray[np.uint8]) -> int:
    """How many distinct columns ``packed`` (the candidates' key bits packed along the first
    axis, at most 16 bytes) has (hashed to one word: a count to choose by, not to rely on)."""
    words = np.zeros((packed.shape[1], 16), dtype=np.uint8)
    words[:, :packed.shape[0]] = packed.T
    w = words.view(np.uint64)
    return _distinct(w[:, 0] * np.uint64(0x9E3779B97F4A7C15) ^ w[:, 1])


def _first_of_each(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """The place of the first of each distinct row of ``rows`` (an n x width array, width
    at most 16), ascending: the rows as two words, sorted stably (the first of equal rows
    comes first), each run's first kept (as ``np.unique``'s ``return_index``, sorted, but
    without its sort of the rows as opaque bytes)."""
    n, width = rows.shape
    if not n:
        return np.zeros(0, dtype=np.int64)
    words = np.zeros((n, 16), dtype=np.uint8)
    words[:, :width] = rows
    w = words.view(np.uint64)
    lo, hi = w[:, 0], w[:, 1]
    order = np.argsort(lo, kind="stable") if width <= 8 else np.lexsort((hi, lo))
    s_lo, s_hi = lo[order], hi[order]
    starts = np.empty(n, dtype=bool)
    starts[0] = True
    starts[1:] = (s_lo[1:] != s_lo[:-1]) | (s_hi[1:] != s_hi[:-1])
    firsts = order[starts].astype(np.int64)
    firsts.sort()
    return firsts


def _distinct(a: npt.NDArray[np.uint64]) -> int:
    """How many distinct values ``a`` holds (sorted and the changes counted: several
    times faster than ``np.unique`` on tens of thousands of words)."""
    if not len(a):
        return 0
    s = np.sort(a)
    return 1 + int(np.count_nonzero(s[1:] != s[:-1]))


class Coarse:
    """A list seen through its most used keys only: candidates with the same of those keys
    form a class worth its best bound. ``best(used)`` is an upper bound of the best candidate
    sharing no key with ``used`` (it only looks at the hub keys), memoised per hub part."""

    def __init__(self, cands: Ranked, inverted: list[int]):
        n = len(cands)
        counts = sorted(((b.bit_count(), k) for k, b in enumerate(inverted) if b), reverse=True)
        used = [k for c, k in counts if c * 100 >= n][:max(_HUBS)]  # keys of at least 1% of them
        # which of those keys each candidate uses (key, candidate), from the keys' bitsets
        width = (n + 7) // 8
        if used:
            raw = np.frombuffer(b"".join(inverted[k].to_bytes(width, "little") for k in used),
                                dtype=np.uint8).reshape(len(used), width)
            uses = np.unpackbits(raw, axis=1, bitorder="little")[:, :n]
        else:
            uses = np.zeros((1, n), dtype=np.uint8)
        # the same packed 8 keys to a byte (byte, candidate), the first key in the high bit
        packed = np.zeros(((len(used) + 7) // 8 or 1, n), dtype=np.uint8)
        for j in range(len(used)):
            packed[j // 8] |= uses[j] << (7 - j % 8)
        hubs: list[int] = []
        for size in _HUBS:
            if size > len(used) and hubs:
                break
            if hubs and _classes(packed[:(size + 7) // 8]) * _CLASS_SHARE > n:
                break
            hubs = used[:size]
        self.hub = 0
        for k in hubs:
            self.hub |= 1 << k
        # the hub keys in groups, each group's unions memoised on its part of a query
        self.groups: list[tuple[int, dict[int, int]]] = []
        for i in range(0, len(hubs), _GROUP):
            g = 0
            for k in hubs[i:i + _GROUP]:
                g |= 1 << k
            self.groups.append((g, {}))
        # the classes in rank order of their first (best) candidate
        rows = packed[:(len(hubs) + 7) // 8].T if hubs else np.zeros((n, 1), dtype=np.uint8)
        firsts = _first_of_each(rows)
        bounds = cands.bound_list
        self.bounds = [bounds[i] for i in firsts.tolist()]
        self.inverted = [0] * (max(hubs) + 1 if hubs else 0)
        for j, k in enumerate(hubs):
            col = uses[j, firsts]
            self.inverted[k] = int.from_bytes(np.packbits(col, bitorder="little").tobytes(), "little")
        width = len(firsts)  # (a local: the shift is Python's, not C's)
        self.full = (1 << width) - 1
        self.memo: dict[int, int] = {}

    def best(self, used: int) -> int:
        h = used & self.hub
        got = self.memo.get(h)
        if got is None:
            blocked = 0
            for g, memo in self.groups:
                part = h & g
                if part:
                    u = memo.get(part)
                    if u is None:
                        u = memo[part] = union(self.inverted, part)
                    blocked |= u
            free = self.full & ~blocked
            got = self.memo[h] = self.bounds[(free & -free).bit_length() - 1] if free else 0
        return got


class RankedList:
    def __init__(self, cands: Ranked, nkeys: int):
        self.cands = cands
        self.nkeys = nkeys  # the keys its candidates may use (keys numbered later are not theirs)
        self.keys = (1 << nkeys) - 1
        width = len(cands)
        self.full = (1 << width) - 1
        self._inverted: list[int] | None = None  # built on first use (the first train's never is)
        self._entries: dict[int, tuple[Entry, int]] = {}  # id of a walk entry -> (entry, the ranks it blocks)
        self._coarse: Coarse | bool | None = False  # False: not built yet; None: not worth it

    @property
    def inverted(self) -> list[int]:
        if self._inverted is None:
            if self.nkeys and len(self.cands):
                self._inverted = transpose_rows(self.cands.mask_rows((self.nkeys + 7) // 8), self.nkeys)
            else:
                self._inverted = [0] * self.nkeys
        return self._inverted

    @property
    def coarse(self) -> Coarse | None:
        if self._coarse is False:
            self._coarse = Coarse(self.cands, self.inverted) if len(self.cands) >= _COARSE_FROM else None
        return self._coarse  # type: ignore[return-value]

    def best(self, used: int) -> int:
        """The best bound among the candidates sharing no key with ``used``."""
        free = self.full & ~union(self.inverted, used & self.keys)
        return self.cands[(free & -free).bit_length() - 1].bound if free else 0

    def blocked_by(self, cand: Candidate) -> int:
        """The ranks of this list that share a conflict key with ``cand``: what its halves
        block (a half's from its parent's and its last link's keys, memoised: the routes
        tried one after another share their halves)."""
        b = self._entry_blocks(cand.half)
        if cand.other is not None:
            b |= self._entry_blocks(cand.other)
        return b

    def _entry_blocks(self, e: Entry) -> int:
        """The ranks sharing a key with walk entry ``e`` (its mask holds its parent's)."""
        got = self._entries.get(id(e))
        if got is not None:
            return got[1]
        parent = e[PARENT]
        m = e[MASK] & self.keys
        if parent is None:
            b = union(self.inverted, m)
        else:
            b = self._entry_blocks(parent) | union(self.inverted, m & ~parent[MASK])
        self._entries[id(e)] = (e, b)  # (the entry kept alive: its id stays its own)
        return b
