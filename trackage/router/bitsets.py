"""Conflicts as bitsets over ranked candidates.

Each train kind's candidates are ranked by bound (rank 0 is the highest). For every piece of
track (a conflict key) and every list, ``inverted[key]`` is the bitset of the ranks whose
route uses that key, built with numpy. What a chosen route blocks in a list is the union of
its keys' bitsets (memoised per route and list), so "the best candidate sharing no track with
the chosen routes" is the lowest rank left in ``all & ~blocked``.
"""

from __future__ import annotations

import numpy as np


class RankedList:
    def __init__(self, cands: list, key_index: dict):
        self.cands = cands
        n = len(cands)
        self.full = (1 << n) - 1
        rows: list = []
        cols: list = []
        for r, c in enumerate(cands):
            for k in c.keys:
                rows.append(key_index[k])
                cols.append(r)
        self.inverted: dict = {}
        if rows:
            rows_a = np.asarray(rows, dtype=np.int64)
            cols_a = np.asarray(cols, dtype=np.int64)
            used_keys, local = np.unique(rows_a, return_inverse=True)
            width = (n + 7) // 8
            bits = np.zeros((len(used_keys), width), dtype=np.uint8)
            np.bitwise_or.at(bits, (local, cols_a >> 3), (1 << (cols_a & 7)).astype(np.uint8))
            for i, k in enumerate(used_keys.tolist()):
                self.inverted[k] = int.from_bytes(bits[i].tobytes(), "little")
        self._blocks: dict = {}

    def blocked_by(self, cand) -> int:
        """The ranks of this list that share a conflict key with ``cand``."""
        b = self._blocks.get(id(cand))
        if b is None:
            b = 0
            inv = self.inverted
            for k in cand.kidx:
                x = inv.get(k)
                if x is not None:
                    b |= x
            self._blocks[id(cand)] = b
        return b
