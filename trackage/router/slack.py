"""The bound slack of a part of the walk: what the title's route bound may add to the stop
values of the routes in it, from the bonus stops those routes can still reach.

A title's ``router_slack_for(train, corp)`` gives its bonus stops and ``slack(reached,
weakest)`` (see :meth:`~trackage.core.routes.RouteRules.router_slack_for`): at least what the
bound adds to a route whose bonus stops lie in ``reached`` and whose weakest paid value is
at least ``weakest``. Here bonus stops are bits; a tree of halves gets, per half, the bits
of the bonus stops in its subtree (a second half joined through it stops at no others).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from .entries import IDX, NODE, PARENT, SPENT, Entry

if TYPE_CHECKING:
    from ..core.tiles import RevenueCenter

__all__ = ["BonusSlack", "weakest_paid"]


def weakest_paid(vals: tuple[int, ...], pay: int | None) -> int:
    """The least paid value of a route holding a part whose best stop values are ``vals``:
    the lowest of them once there are ``pay`` (a route's best ``pay`` are at least those),
    else 0 (every stop pays: 0)."""
    if pay is None or len(vals) < pay:
        return 0
    return vals[pay - 1]


class BonusSlack:
    """Bonus stops as bits and the slack of a set of them (memoised; never more than
    ``most``, the title's whole slack)."""

    def __init__(self, stops: Iterable[RevenueCenter], slack: Callable[[Collection[RevenueCenter], int], int],
                 most: int):
        self.nodes: list[RevenueCenter] = list(stops)
        self.bit: dict[RevenueCenter, int] = {n: 1 << i for i, n in enumerate(self.nodes)}
        self._slack = slack
        self.most = most
        self._memo: dict[tuple[int, int], int] = {}

    def __call__(self, bits: int, weakest: int) -> int:
        """The slack of the routes whose bonus stops are among ``bits``, weakest paid value
        at least ``weakest``."""
        key = (bits, weakest)
        got = self._memo.get(key)
        if got is None:
            reached = [n for i, n in enumerate(self.nodes) if bits >> i & 1]
            got = self._memo[key] = min(self.most, self._slack(reached, weakest))
        return got

    def path_bits(self, nodes: Iterable[RevenueCenter]) -> int:
        """The bits of the bonus stops among ``nodes``."""
        bit = self.bit
        b = 0
        for n in nodes:
            b |= bit.get(n, 0)
        return b

    def subtree_bits(self, halves: Sequence[Entry], lim: int | None) -> list[int]:
        """By a half's place in the tree (IDX): the bits of the bonus stops of the halves in
        its subtree, itself included (halves spending more than ``lim`` left out: they are
        no second halves). ``halves`` come parents first."""
        bit = self.bit
        out = [0] * len(halves)
        for h in reversed(halves):
            if lim is not None and h[SPENT] > lim:
                continue
            i = h[IDX]
            b = out[i] | bit.get(h[NODE], 0)
            out[i] = b
            p = h[PARENT][IDX]
            if p >= 0:
                out[p] |= b
        return out
