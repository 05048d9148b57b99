"""Conflicts as bitsets over ranked candidates.

Each train kind's candidates are ranked by bound (rank 0 is the highest); a candidate's
``mask`` has a bit per conflict key (a piece of track) it uses. ``inverted[k]`` is the bitset
of the ranks whose route uses key ``k``: the transpose of the masks, done with numpy a block
of keys at a time. What a chosen route blocks in a list is the union of its keys' bitsets
(memoised per route and list), so "the best candidate sharing no track with the chosen
routes" is the lowest rank left in ``full & ~blocked``.
"""

from __future__ import annotations

import numpy as np

_BLOCK = 32  # bytes of keys (256 keys) transposed at a time


class RankedList:
    def __init__(self, cands: list, nkeys: int):
        self.cands = cands
        self.nkeys = nkeys
        self.full = (1 << len(cands)) - 1
        self._inverted: list | None = None  # built on first use (the first train's never is)
        self._blocks: dict = {}

    @property
    def inverted(self) -> list:
        if self._inverted is None:
            self._inverted = self._transpose()
        return self._inverted

    def _transpose(self) -> list:
        cands = self.cands
        nkeys = self.nkeys
        n = len(cands)
        inverted = [0] * nkeys
        if not n or not nkeys:
            return inverted
        width = (nkeys + 7) // 8
        raw = b"".join(c.mask.to_bytes(width, "little") for c in cands)
        mat = np.frombuffer(raw, dtype=np.uint8).reshape(n, width)
        for b0 in range(0, width, _BLOCK):
            block = mat[:, b0:b0 + _BLOCK]
            if not block.any():
                continue
            bits = np.unpackbits(block, axis=1, bitorder="little")  # n x keys
            rows = np.packbits(bits.T, axis=1, bitorder="little")  # keys x ranks
            nz = rows.any(axis=1)
            for j in np.flatnonzero(nz).tolist():
                k = b0 * 8 + j
                if k < nkeys:
                    inverted[k] = int.from_bytes(rows[j].tobytes(), "little")
        return inverted

    def blocked_by(self, cand) -> int:
        """The ranks of this list that share a conflict key with ``cand``."""
        key = id(cand)
        b = self._blocks.get(key)
        if b is None:
            b = 0
            inv = self.inverted
            m = cand.mask
            while m:
                low = m & -m
                b |= inv[low.bit_length() - 1]
                m ^= low
            self._blocks[key] = b
        return b
